"""Tensor: an array plus what autograd needs; its operators and methods call ``hookgrad.ops``."""
import numbers
import weakref

import numpy as np

from .. import _dtype
from ..kernels import backend as _backend
from .format import bfloat16_str, tensor_repr
from ..autograd import complex_support as _complex_support, function as _function
from .methods import TensorMethods
from ..hooks.handle import HookStore, check_hook

_new = object.__new__
_ndarray = np.ndarray
_CPU = _backend.CPU


class Tensor(TensorMethods):
    """An n-dimensional array with reverse-mode autograd (MindSpore's ``mindspore.Tensor``).

    Args:
        input_data: a Python number, (nested) list/tuple, NumPy array or Tensor.
        dtype: element type (``ms.float32``...). Default: from the data; Python floats give
            Float32, Python ints Int64, bools Bool.
        shape: without ``input_data``, the shape: with ``init`` the tensor holds
            ``initializer(init, shape, dtype)``; without, it declares an input
            (``Cell.set_inputs``, ``jit(input_signature=...)``) and None stands for a dimension
            of any size (the tensor holds zeros, with 0 for such dimensions); ``shape=None``
            with a dtype declares an input of any rank (the tensor holds ``zeros((0,))``).
        init: an initializer name, ``Initializer`` or number, used with ``shape``.
        requires_grad: record operations on this tensor so that ``backward()`` fills ``.grad``.

    With NumPy, as in MindSpore: a NumPy array or scalar on the left of an operator, and NumPy
    functions (``np.exp(t)``), read the Tensor as an array and give NumPy results, outside the
    graph; a Tensor on the left keeps the result a Tensor.

    >>> import hookgrad as ms
    >>> ms.Tensor([1.0, 2.0]) * 2
    Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  4.00000000e+00])
    >>> import numpy as np
    >>> type(np.float32(2) * ms.Tensor([1.0, 2.0])).__name__
    'ndarray'
    """

    __slots__ = ('_data', '_node', '_index', 'requires_grad', '_grad', '_hooks', '_extras',
                 '__weakref__')
    _is_parameter = False       # True for Parameter (nn/parameter.py), which autograd tells apart

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, internal=False,
                 const_arg=False, *, requires_grad=False):
        if input_data is None:
            if shape is None and dtype is None:
                raise TypeError("Tensor: input_data is required (a number, list, NumPy array or "
                                "Tensor), or a shape with a dtype")
            data = _from_shape(shape, dtype, init, self)
        elif shape is not None or init is not None:
            raise TypeError("Tensor: give either input_data or shape (with init), not both")
        else:
            data = _to_array(input_data, dtype)
        if _backend.current is not _CPU and type(data) is _ndarray:
            data = _backend.on_default(data)
        self._data = data
        self._node = None
        self._index = 0
        self.requires_grad = False
        if requires_grad:
            self.requires_grad_(True)
        if const_arg:
            self.set_const_arg(const_arg)

    def __getattr__(self, name):
        # unset optional slots read as None (fresh tensors store only the hot ones)
        if name in ('_grad', '_hooks', '_sliced', '_owner', '_extras'):
            return None
        from ..compat.names import member_error
        kind = 'Tensor' if type(self) is Tensor else type(self).__name__
        raise member_error(kind if kind in ('Tensor', 'Parameter') else 'Tensor', self, name)

    @classmethod
    def _wrap(cls, data):
        """A constant Tensor over ``data`` without copying or checks (internal fast path)."""
        t = _new(Tensor)
        t._data = data if type(data) is _ndarray else _backend.asarray(data)
        t._node = None
        t._index = 0
        t.requires_grad = False
        return t

    @staticmethod
    def _wrap_output(data, node, index):
        t = _new(Tensor)
        t._data = data if type(data) is _ndarray else _backend.asarray(data)
        t._node = node
        t._index = index
        t.requires_grad = True
        return t

    @staticmethod
    def _zeros(shape, dtype, like=None):
        """Zeros on the device of the array ``like`` (the CPU by default)."""
        xp = np if like is None else _backend.array_module(like)
        return Tensor._wrap(xp.zeros(shape, dtype))

    # ----------------------------------------------------------------- basic properties
    @property
    def shape(self):
        """The shape as a tuple of ints."""
        return self._data.shape

    @property
    def dtype(self):
        """The element type, e.g. ``Float32``."""
        return _dtype.from_numpy(self._data.dtype)

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def size(self):
        """Number of elements."""
        return int(self._data.size)

    @property
    def itemsize(self):
        return self._data.dtype.itemsize

    @property
    def nbytes(self):
        return int(self._data.nbytes)

    @property
    def is_leaf(self):
        """True for tensors not produced by a recorded op (their ``.grad`` is filled)."""
        return self._node is None

    @property
    def grad(self):
        """The accumulated gradient (a Tensor), or None."""
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"Tensor.grad must be a Tensor or None, got {type(value).__name__}")
        _function.effect(_set_grad, self, value)

    @property
    def grad_fn(self):
        """The graph node that produced this tensor, or None for a leaf."""
        return self._node

    @property
    def T(self):
        """The tensor with its axes reversed."""
        return _ops.transpose(self, tuple(range(self.ndim - 1, -1, -1)))

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        for i in range(self._data.shape[0]):
            yield self[i]

    __hash__ = object.__hash__

    # ----------------------------------------------------------------- device
    @property
    def device(self):
        """The device the tensor lives on: ``'CPU'`` or ``'GPU:0'``."""
        return _backend.device_of(self._data).name

    def move_to(self, to, blocking=True):
        """A copy on device ``to`` ('CPU' or 'GPU'); gradients flow back to this tensor's
        device. ``blocking=False`` is accepted and copies at once."""
        if not isinstance(blocking, bool):
            raise ValueError(f"Tensor.move_to: blocking must be a bool, got "
                             f"{type(blocking).__name__}")
        return _ops.move_to(self, to)

    # ----------------------------------------------------------------- conversion
    def asnumpy(self):
        """The values as a NumPy array: sharing memory with a CPU tensor, read from the device
        for a GPU one."""
        _function.value_read(self)
        return _backend.to_host(self._data, 'Tensor.asnumpy()')

    numpy = asnumpy

    def __array__(self, dtype=None, copy=None):
        _function.value_read(self)
        a = _backend.to_host(self._data, 'converting a Tensor to NumPy')
        return a if dtype is None else a.astype(dtype)

    def item(self, index=None):
        """The value of a one-element tensor (or of element ``index``) as a Python number."""
        _function.value_read(self)
        a = _backend.to_host(self._data, 'Tensor.item()')
        if index is None:
            if a.size != 1:
                raise ValueError(f"Tensor.item: only one-element tensors convert to a Python "
                                 f"number, this one has shape {a.shape}")
            return a.item()
        return a.item(index)

    def tolist(self):
        _function.value_read(self)
        return _backend.to_host(self._data, 'Tensor.tolist()').tolist()

    def astype(self, dtype, copy=True):
        """A tensor converted to ``dtype`` (differentiable between floating types)."""
        return _ops.cast(self, dtype)

    def float(self):
        return _ops.cast(self, _dtype.float32)

    def copy(self):
        """A new tensor with copied values; gradients flow back through the copy."""
        return _ops.identity(self, copy=True)

    clone = copy

    def detach(self):
        """The same values, cut from the graph (never requires grad)."""
        t = Tensor._wrap(self._data)
        if _function.observing:
            _function.aliased(t, self)
        return t

    def __bool__(self):
        _function.value_read(self)
        if self._data.size != 1:
            raise ValueError(f"the truth value of a tensor with {self._data.size} elements is "
                             f"ambiguous; use .any() or .all()")
        return bool(_backend.to_host(self._data, 'the truth value of a Tensor'))

    def __contains__(self, element):
        """``element in tensor``: whether any element equals ``element`` (a number or a Tensor,
        compared with broadcasting); anything else is never contained, as in MindSpore."""
        if isinstance(element, (Tensor, numbers.Number)):
            return bool(_ops.any(_ops.equal(self, element)))
        return False

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        _function.value_read(self)
        if self._data.dtype.kind not in 'iu' or self._data.size != 1:
            raise TypeError("only integer tensors of one element can be used as an index")
        return int(self.item())

    def __repr__(self):
        return tensor_repr(_backend.to_host(self._data, 'printing a Tensor'))

    def __str__(self):
        a = _backend.to_host(self._data, 'printing a Tensor')
        return bfloat16_str(a) if a.dtype is _dtype.BFLOAT16 else str(a)

    def __format__(self, spec):
        """``str(self)`` without a spec (``f"{Tensor(0.1)}"`` is ``0.1``); a 0-d tensor also
        takes a number's spec (``f"{loss:.4f}"``), which MindSpore rejects."""
        if not spec:
            return str(self)
        if self._data.ndim == 0:
            _function.value_read(self)
            return format(_backend.to_host(self._data, 'formatting a Tensor')[()], spec)
        raise TypeError(f"unsupported format string passed to Tensor.__format__: {spec!r} "
                        f"(only a 0-d tensor takes a format spec)")

    # ----------------------------------------------------------------- autograd
    def requires_grad_(self, requires_grad=True):
        """Set whether operations on this leaf are recorded; returns self."""
        if requires_grad and self._data.dtype.kind not in 'fcV':
            raise TypeError(f"only floating-point tensors can require gradients, this one is "
                            f"{self.dtype}")
        if self._node is not None and not requires_grad:
            raise RuntimeError("requires_grad can only be switched off on a leaf tensor; "
                               "use detach() for a non-leaf")
        _function.effect(_set_requires_grad, self, bool(requires_grad))
        return self

    def backward(self, gradient=None, retain_graph=False, create_graph=False):
        """Accumulate the gradient of this tensor into ``.grad`` of every leaf it depends on.

        Args:
            gradient: d(something)/d(self); default all ones of this tensor's shape.
            retain_graph: keep the graph so that backward can run through it again.
            create_graph: record the backward pass, for higher-order gradients.
        """
        from ..autograd.engine import run_backward
        if not self.requires_grad:
            raise RuntimeError("backward: this tensor does not require grad and has no graph; "
                               "create leaves with requires_grad=True or use ms.grad")
        g = _root_gradient(self, gradient, create_graph)
        _function.effect(run_backward, [self], [g], None, retain_graph, create_graph)

    def register_hook(self, hook):
        """Register ``hook(grad) -> None | Tensor``, called when this tensor's gradient is ready.

        Hooks run in registration order, each seeing the previous one's replacement. On a leaf
        the final gradient accumulates into ``.grad``; on a non-leaf the replacement flows on.
        See docs/hooks.md. Returns a handle whose ``remove()`` unregisters the hook.
        """
        check_hook(hook, 'Tensor.register_hook')
        return _function.effect(_register_hook, self, hook)

    def hooks(self):
        """The tensor hooks registered on this tensor and not removed, in the order they run
        (a list, as in MindSpore)."""
        if self._node is None:
            store = self._hooks
        else:
            oh = self._node.hooks.get(self._index) if self._node.hooks else None
            store = oh.store if oh is not None else None
        return list(store.snapshot()) if store else []

    def retain_grad(self):
        """Keep this non-leaf tensor's gradient in ``.grad`` (as it arrives, before its hooks)."""
        if self._node is not None:
            _function.effect(_retain_grad, self)

    @property
    def retains_grad(self):
        node = self._node
        if node is None or node.hooks is None:
            return False
        oh = node.hooks.get(self._index)
        return oh is not None and oh.retain is not None and oh.retain() is self

    # ----------------------------------------------------------------- operators
    def __add__(self, other):
        return _binary(_arith.Add, self, other, 'add')

    def __radd__(self, other):
        return _binary(_arith.Add, other, self, 'add')

    def __sub__(self, other):
        return _binary(_arith.Sub, self, other, 'sub')

    def __rsub__(self, other):
        return _binary(_arith.Sub, other, self, 'sub')

    def __mul__(self, other):
        return _binary(_arith.Mul, self, other, 'mul')

    def __rmul__(self, other):
        return _binary(_arith.Mul, other, self, 'mul')

    def __truediv__(self, other):
        return _ops.div(self, other)

    def __rtruediv__(self, other):
        # ``number / tensor`` is ``reciprocal(tensor) * number`` in MindSpore 2.10 (its values
        # differ from a division in the last place), as is its gradient
        return _ops.mul(_ops.reciprocal(self), other)

    def __floordiv__(self, other):
        return _ops.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _ops.floor_divide(other, self)

    def __mod__(self, other):
        return _ops.floor_mod(self, other)

    def __rmod__(self, other):
        return _ops.floor_mod(other, self)

    def __pow__(self, other):
        return _ops.pow(self, other)

    def __rpow__(self, other):
        return _ops.pow(other, self)

    def __matmul__(self, other):
        return _ops.matmul(self, other)

    def __rmatmul__(self, other):
        return _ops.matmul(other, self)

    def __neg__(self):
        return _ops.neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _ops.abs(self)

    def __invert__(self):
        return _ops.logical_not(self)

    def __and__(self, other):           # bitwise on integers; on Bool tensors, logical
        return _ops.bitwise_and(self, other)

    def __or__(self, other):
        return _ops.bitwise_or(self, other)

    def __xor__(self, other):
        return _ops.bitwise_xor(self, other)

    def __eq__(self, other):
        if other is None:
            return False
        return _ops.equal(self, other)

    def __ne__(self, other):
        if other is None:
            return True
        return _ops.ne(self, other)

    def __lt__(self, other):
        return _ops.lt(self, other)

    def __le__(self, other):
        return _ops.le(self, other)

    def __gt__(self, other):
        return _ops.gt(self, other)

    def __ge__(self, other):
        return _ops.ge(self, other)

    def __getitem__(self, index):
        return _ops.getitem(self, index)

    def __setitem__(self, index, value):
        _ops.setitem(self, index, value)


def _to_array(data, dtype):
    npd = None if dtype is None else _dtype.to_numpy(dtype)
    if isinstance(data, Tensor):
        arr = data._data
        return arr.astype(npd) if npd is not None and arr.dtype != npd else arr
    if isinstance(data, (np.ndarray, np.generic)):
        arr = np.array(data, dtype=npd) if npd is not None else np.array(data)
    elif isinstance(data, bool):
        arr = np.asarray(data, dtype=npd or np.bool_)
    elif isinstance(data, int):
        arr = np.asarray(data, dtype=npd or np.int64)
    elif isinstance(data, float):
        arr = np.asarray(data, dtype=npd or np.float32)
    elif isinstance(data, complex):
        arr = np.asarray(data, dtype=npd or np.complex128)
    elif isinstance(data, (list, tuple)):
        arr = _from_sequence(data, npd)
    elif _backend.is_device_array(data):    # a GPU array stays on its device
        data = data if npd is None or data.dtype == npd else data.astype(npd)
        _complex_support.admit(data.dtype)
        return data
    else:
        raise TypeError(f"Tensor: input_data must be a number, list, tuple, NumPy array or "
                        f"Tensor, got {type(data).__name__}")
    if arr.dtype not in _SUPPORTED:
        if arr.dtype.kind in 'fV':
            arr = arr.astype(np.float64)
        elif arr.dtype.kind == 'c':
            arr = arr.astype(np.complex128)
        else:
            _dtype.from_numpy(arr.dtype)    # raises a TypeError naming the dtype
    if arr.dtype.kind == 'c':
        _complex_support.enable()
    return arr


_SUPPORTED = {d.np_dtype for d in _dtype._ALL}


def _from_sequence(data, npd):
    flat = []
    _flatten(data, flat)
    if any(isinstance(v, Tensor) for v in flat):
        data = _replace_tensors(data)
    arr = np.array(data, dtype=npd)
    if npd is None:
        if arr.dtype.kind in 'fV' and not any(isinstance(v, (np.floating, np.ndarray))
                                             for v in flat):
            arr = arr.astype(np.float32)    # Python floats default to Float32
        elif arr.dtype.kind in 'iu' and arr.dtype != np.int64 and all(
                isinstance(v, (int, bool)) for v in flat):
            arr = arr.astype(np.int64)
    return arr


def _flatten(seq, out):
    for v in seq:
        if isinstance(v, (list, tuple)):
            _flatten(v, out)
        else:
            out.append(v)


def _replace_tensors(seq):
    if isinstance(seq, (list, tuple)):
        return [_replace_tensors(v) for v in seq]
    return seq._data if isinstance(seq, Tensor) else seq


_declared = {}      # id(Tensor) -> (weakref to it, shape with None dimensions)


def _from_shape(shape, dtype, init, tensor):
    """The array of ``Tensor(shape=..., dtype=..., init=...)``."""
    if shape is None:       # a declared input of any rank (MindSpore reports its shape as (-2,))
        if init is not None:
            raise ValueError("Tensor: init needs a shape, got shape=None")
        key = id(tensor)
        _declared[key] = (weakref.ref(tensor, lambda _, k=key: _declared.pop(k, None)), None)
        return np.zeros((0,), _dtype.to_numpy(dtype))
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if not all(d is None or (isinstance(d, int) and not isinstance(d, bool) and d >= -1)
               for d in shape):
        raise TypeError(f"Tensor: shape must hold ints (None or -1 for a dimension of any size), "
                        f"got {shape!r}")
    dims = tuple(None if d in (None, -1) else d for d in shape)
    if dtype is None:
        raise TypeError("Tensor: a tensor made from a shape needs a dtype")
    if None in dims:
        if init is not None:
            raise ValueError(f"Tensor: init needs a shape without None dimensions, got {shape!r}")
        _declared[id(tensor)] = (weakref.ref(tensor, lambda _, k=id(tensor): _declared.pop(k, None)),
                                 dims)
        return np.zeros(tuple(0 if d is None else d for d in dims), _dtype.to_numpy(dtype))
    if init is None:
        return np.zeros(dims, _dtype.to_numpy(dtype))
    from ..common.initializer import initializer
    return initializer(init, dims, dtype)._data


def declared_shape(t):
    """A tensor's shape with None where ``Tensor(shape=...)`` left a dimension open; None for
    a tensor declared with ``shape=None`` (any rank)."""
    entry = _declared.get(id(t))
    return entry[1] if entry is not None and entry[0]() is t else t.shape


def detached(value):
    """``value`` with every Tensor in it (in tuples, lists and dicts, nested) replaced by a
    Tensor over the same array, cut from the graph."""
    if isinstance(value, Tensor):
        return value.detach()
    if isinstance(value, (tuple, list)):
        items = [detached(v) for v in value]
        # a namedtuple (mint.sort's, mint.max's pair) takes its fields one by one
        return type(value)(*items) if hasattr(value, '_fields') else type(value)(items)
    if isinstance(value, dict):
        return {k: detached(v) for k, v in value.items()}
    return value


def _root_gradient(t, gradient, create_graph):
    """The starting gradient for backward from ``t``: ones, or ``gradient`` checked."""
    if gradient is None:
        g = _backend.array_module(t._data).ones(t.shape, dtype=t._data.dtype)
        return Tensor._wrap(g) if create_graph else g
    if not isinstance(gradient, Tensor):
        gradient = Tensor(gradient, dtype=t.dtype)
    if gradient.shape != t.shape:
        raise ValueError(f"backward: gradient has shape {gradient.shape}, expected the tensor's "
                         f"shape {t.shape}")
    if gradient._data.dtype != t._data.dtype:
        gradient = _ops.cast(gradient, t._data.dtype)
    return gradient if create_graph else gradient._data


def _set_grad(t, value):
    t._grad = value


def _set_requires_grad(t, flag):
    t.requires_grad = flag


def _register_hook(t, hook):
    if t._node is None:
        store = t._hooks
        if store is None:
            store = t._hooks = HookStore()
        return store.add(hook)
    return _output_hooks(t).store_add(hook)


def _retain_grad(t):
    _output_hooks(t).hooks.retain = weakref.ref(t)


class _OutputHookRef:
    """Access to the OutputHooks record of a non-leaf tensor's node slot."""

    __slots__ = ('hooks',)

    def __init__(self, hooks):
        self.hooks = hooks

    def store_add(self, hook):
        if self.hooks.store is None:
            self.hooks.store = HookStore()
        return self.hooks.store.add(hook)


def _output_hooks(t):
    from ..autograd.engine import OutputHooks
    node = t._node
    if node.hooks is None:
        node.hooks = {}
    oh = node.hooks.get(t._index)
    if oh is None:
        oh = node.hooks[t._index] = OutputHooks()
    return _OutputHookRef(oh)


_function._Tensor = Tensor



# bound by hookgrad.ops once it has imported (hookgrad/_tensor/__init__.py, bind_ops)
_ops = _arith = _binary = None
