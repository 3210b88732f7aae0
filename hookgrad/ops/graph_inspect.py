"""MindSpore's graph-mode helpers about types, shapes and Tensors: ``typeof``, ``hastype``,
``shape_``, ``dyn_shape``, ``broadcast_gradient_args``, ``eps``, ``is_nonzero``, ``cond``...

In MindSpore these are primitives the graph compiler evaluates (many have no PyNative kernel
on CPU); in hookgrad each runs at once, with the result MindSpore's graph mode gives. Questions
that only a compiler can ask ("is this value known yet?") have their eager answer: every value
is known.
"""
import numpy as np

from .. import _dtype
from ..kernels import half as _half
from .._tensor import Tensor
from .creation import range as _range, full_like, stop_gradient
from .arithmetic import cast, identity
from .matrix_functions import inverse
from .norms import matrix_norm
from .rearrange import slice as _slice
from .shaping import reshape

__all__ = ['typeof', 'hastype', 'isconstant', 'dyn_shape', 'shape_', 'shape_mul',
           'reduced_shape', 'tensor_range', 'tensor_slice', 'array_to_scalar', 'array_reduce',
           'broadcast_gradient_args', 'scalar_to_array', 'deepcopy', 'eps', 'stop_gradient_',
           'mixed_precision_cast', 'is_nonzero', 'is_tensor_bool_cond',
           'is_sequence_shape_unknown', 'is_sequence_value_unknown',
           'is_dynamic_sequence_element_unknown', 'environ_create', 'environ_set',
           'environ_get', 'environ_add', 'env_get', 'cond']


# ----------------------------------------------------------------- types
def typeof(x):
    """The MindSpore type of a value as graph mode types it: ``TensorType(dtype)`` for a
    Tensor, ``int64`` for an int, ``float32`` for a float, ``bool`` for a bool, and
    ``string``, ``tuple_``, ``list_``, ``type_none``, ``function`` (functions and Cells) or
    ``type_type`` (a MindSpore type).

    Raises:
        TypeError: for a value MindSpore gives a type hookgrad does not model (a dict...).
    """
    if isinstance(x, Tensor):
        return _dtype.TensorType(x.dtype)
    if isinstance(x, (bool, np.bool_)):
        return _dtype.bool_
    if isinstance(x, (int, np.integer)):
        return _dtype.int64
    if isinstance(x, (float, np.floating)):
        return _dtype.float32
    simple = {str: _dtype.string, tuple: _dtype.tuple_, list: _dtype.list_,
              type(None): _dtype.type_none}
    for kind, t in simple.items():
        if isinstance(x, kind):
            return t
    if isinstance(x, _dtype.DType):
        return _dtype.type_type
    if callable(x):
        return _dtype.function
    raise TypeError(f"typeof: hookgrad has no MindSpore type for a {type(x).__name__}")


def hastype(x, type_):
    """Whether ``x``'s type (``typeof(x)``) is ``type_`` or a kind of it: ``number`` takes
    bools, ints and floats; ``int_``/``float_`` the ints/floats; ``tensor_type`` any Tensor,
    ``TensorType(dt)`` Tensors of dtype ``dt``. Sequences are not looked into.

    Raises:
        TypeError: when ``type_`` is not a MindSpore type, or is ``string`` or ``type_none``
            (MindSpore: "Invalid model type").
    """
    if not isinstance(type_, _dtype.DType):
        raise TypeError(f"hastype: type_ must be a MindSpore type such as ms.int64, got "
                        f"{type(type_).__name__}")
    if type_ is _dtype.string or type_ is _dtype.type_none:
        raise TypeError(f"Invalid model type: {type_}.")
    if isinstance(type_, _dtype.TensorType):
        element = type_.element_type()
        return isinstance(x, Tensor) and (element is None or x.dtype == element)
    if isinstance(x, Tensor):
        return False
    own = typeof(x)
    if type_ is _dtype.number:
        return own in (_dtype.bool_, _dtype.int64, _dtype.float32)
    if type_ is _dtype.int_:
        return own == _dtype.int64 and own is not _dtype.bool_
    if type_ is _dtype.float_:
        return own == _dtype.float32
    if type_.np_dtype is not None or own.np_dtype is not None:
        return own.np_dtype is not None and type_.np_dtype is not None and own == type_
    return own is type_


def isconstant(x):
    """True: every value in eager code is known when the line runs."""
    return True


# ----------------------------------------------------------------- shapes
def _tensor(name, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}: the input must be a Tensor, got {type(x).__name__}")


def shape_(x):
    """The shape of a Tensor, a tuple of ints."""
    _tensor('shape_', x)
    return tuple(x.shape)


def dyn_shape(x):
    """The shape of a Tensor as a 1-D Int64 Tensor (empty for a 0-d one)."""
    _tensor('dyn_shape', x)
    return Tensor(np.asarray(x.shape, np.int64))


def _shape(name, shape):
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in shape):
        raise TypeError(f"{name}: shape must be a tuple of ints, got {shape!r}")
    return tuple(int(d) for d in shape)


def shape_mul(shape):
    """The product of a shape's dims (1 for ``()``): the number of elements."""
    return int(np.prod(_shape('shape_mul', shape), dtype=np.int64))


def reduced_shape(shape, axis):
    """``shape`` with the dims at ``axis`` (an int or tuple, negative counts from the end)
    set to 1: the shape a reduction keeps; ``axis=()`` reduces all."""
    dims = list(_shape('reduced_shape', shape))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if not axes:
        return (1,) * len(dims)
    for a in axes:
        if not -len(dims) <= a < len(dims):
            raise ValueError(f"reduced_shape: axis {a} is out of range for shape {tuple(shape)}")
        dims[a] = 1
    return tuple(dims)


def tensor_range(start, limit, delta):
    """The 1-D Tensor from ``start`` up to ``limit`` by ``delta`` (``ops.range``)."""
    return _range(start, limit, delta)


def tensor_slice(x, begin, size):
    """The block of ``x`` that starts at ``begin`` with extent ``size`` (-1: to the end)
    (``ops.slice``)."""
    return _slice(x, begin, size)


def broadcast_gradient_args(x_shape, y_shape):
    """The axes to sum the gradient of a broadcast binary op over, for each input:
    ``broadcast_gradient_args((2, 1, 3), (4, 3))`` is ``((1,), (0,))``.

    Raises:
        RuntimeError: for shapes that do not broadcast.
    """
    x, y = _shape('broadcast_gradient_args', x_shape), _shape('broadcast_gradient_args',
                                                              y_shape)
    if x == y:
        return (), ()
    n = max(len(x), len(y))
    x, y = (1,) * (n - len(x)) + x, (1,) * (n - len(y)) + y
    rx, ry = [], []
    for i, (a, b) in enumerate(zip(x, y)):
        if a == 1:
            rx.append(i)
        if b == 1:
            ry.append(i)
        if a != b and a != 1 and b != 1:
            raise RuntimeError("Not compatible shape input for BroadcastGradientArgs.")
    return tuple(rx), tuple(ry)


# ----------------------------------------------------------------- values
def array_to_scalar(x):
    """The Python number a one-element Tensor holds."""
    _tensor('array_to_scalar', x)
    if x.size != 1:
        raise ValueError(f"array_to_scalar: the Tensor must hold one value, got shape {x.shape}")
    return x.asnumpy().reshape(()).item()


def array_reduce(fn, x, axis):
    """Not available: MindSpore 2.10's ArrayReduce has no evaluator in either mode.

    Raises:
        NotImplementedError: always; use ops.reduce_sum, ops.reduce_max and the like.
    """
    raise NotImplementedError("array_reduce is an internal graph primitive with no evaluator "
                              "in MindSpore 2.10 (PyNative or graph mode); use ops.reduce_sum, "
                              "ops.reduce_max, ops.reduce_min or ops.reduce_prod")


def scalar_to_array(x):
    """Not available: MindSpore deprecates it for ``ops.scalar_to_tensor``, and its
    ScalarToArray has no evaluator on CPU in either mode.

    Raises:
        NotImplementedError: always.
    """
    raise NotImplementedError("scalar_to_array is deprecated in MindSpore and has no CPU "
                              "evaluator there; use ops.scalar_to_tensor(x, dtype)")


def deepcopy(x):
    """A new Tensor with a copy of ``x``'s values (the gradient flows through as identity)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"deepcopy: the input must be a Tensor, got {type(x).__name__}")
    return identity(x)


def eps(x):
    """A Tensor shaped as ``x`` filled with its float dtype's machine epsilon.

    Raises:
        TypeError: for a Tensor that is not float16, float32 or float64.
    """
    _tensor('eps', x)
    if x.dtype not in (_dtype.float16, _dtype.float32, _dtype.float64):
        raise TypeError(f"For primitive[Eps], the input argument[x] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                        f"Tensor[{x.dtype}].")
    return stop_gradient(full_like(x, float(_half.finfo(_dtype.to_numpy(x.dtype)).eps)))


def stop_gradient_(input):
    """Cut a computed Tensor from the graph in place: later uses of it pass no gradient
    back to what it was computed from. Returns None.

    Raises:
        TypeError: when ``input`` is not a Tensor.
        RuntimeError: for a leaf that records gradients (a Parameter or a ``grad`` input):
            it has no history to cut; use ``ops.stop_gradient`` on its uses.
    """
    _tensor('stop_gradient_', input)
    if input._node is None:
        if input.requires_grad:
            raise RuntimeError("stop_gradient_: the input is a leaf that records gradients "
                               "and has no history to cut; use ops.stop_gradient on its uses")
        return None
    input._node = None
    input.requires_grad = False
    return None


_FLOATS = (_dtype.float16, _dtype.float32, _dtype.float64)


def mixed_precision_cast(dst_type, x):
    """``x`` with every float Tensor in it (through tuples, lists and dict values) cast to
    ``dst_type``; other values as they are."""
    if not isinstance(dst_type, _dtype.DType) or not dst_type.is_floating:
        raise TypeError(f"mixed_precision_cast: dst_type must be a float dtype such as "
                        f"ms.float16, got {dst_type!r}")
    if isinstance(x, Tensor):
        return cast(x, dst_type) if x.dtype in _FLOATS else x
    if isinstance(x, (tuple, list)):
        return type(x)(mixed_precision_cast(dst_type, v) for v in x)
    if isinstance(x, dict):
        return {k: mixed_precision_cast(dst_type, v) for k, v in x.items()}
    return x


def is_nonzero(input):
    """Whether the one value of a Tensor is not zero (a Python bool).

    Raises:
        TypeError: when ``input`` is not a Tensor.
        ValueError: when it does not hold exactly one value.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"For is_nonzero, the input must be a Tensor, but got {type(input)}.")
    if input.size != 1:
        raise ValueError(f"For is_nonzero, the numel of input must be 1, but got {input.size}.")
    return bool(input.asnumpy().reshape(()) != 0)


def is_tensor_bool_cond(x):
    """True for a Tensor of shape () or (1,), which ``if`` can test.

    Raises:
        TypeError: when ``x`` is not a Tensor.
        ValueError: for any other shape.
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"The input of IsTensorBoolCond should be a tensor but got "
                        f"{type(x).__name__}")
    if tuple(x.shape) not in ((), (1,)):
        raise ValueError(f"Only tensor which shape is () or (1,) can be converted to bool, but "
                         f"got tensor shape is {tuple(x.shape)}")
    return True


def _sequence(name, x):
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"{name}: the input must be a tuple or list, got {type(x).__name__}")


def is_sequence_shape_unknown(x):
    """False: an eager tuple or list always has a known length."""
    _sequence('is_sequence_shape_unknown', x)
    return False


def is_sequence_value_unknown(x):
    """False: an eager tuple or list always has known items."""
    _sequence('is_sequence_value_unknown', x)
    return False


def is_dynamic_sequence_element_unknown(x):
    """Raises, as MindSpore does for every sequence whose length is known (all eager ones).

    Raises:
        TypeError: always for tuples and lists.
    """
    _sequence('is_dynamic_sequence_element_unknown', x)
    raise TypeError("The input of IsElementUnknown should be variable length sequence.")


_ENVIRON = ("is part of the graph compiler's gradient environment (a map from a parameter to "
            "its gradient inside a compiled backward graph); hookgrad's autograd keeps "
            "gradients on its tape, so there is no environment to use")


def environ_create():
    """Not available (see ``env_get``).

    Raises:
        NotImplementedError: always.
    """
    raise NotImplementedError(f"environ_create {_ENVIRON}")


def environ_set(env, key, value):
    """Not available (see ``env_get``)."""
    raise NotImplementedError(f"environ_set {_ENVIRON}")


def environ_get(env, key, default):
    """Not available (see ``env_get``)."""
    raise NotImplementedError(f"environ_get {_ENVIRON}")


def environ_add(env, other):
    """Not available (see ``env_get``)."""
    raise NotImplementedError(f"environ_add {_ENVIRON}")


def env_get(env, parameter):
    """Not available: the environment is the graph compiler's, and eager gradients are kept
    elsewhere (``ms.grad``, ``Tensor.grad``).

    Raises:
        NotImplementedError: always.
    """
    raise NotImplementedError(f"env_get {_ENVIRON}")


# ----------------------------------------------------------------- linear algebra
def cond(A, p=None):
    """The condition number of a matrix (or of each in a batch):
    ``norm(A, p) * norm(inverse(A), p)``, with ``p`` None (2), 2, -2, 1, -1, inf, -inf,
    'fro' or 'nuc'. A batch gives float32, as MindSpore's does.

    Raises:
        TypeError: when ``A`` is not a Tensor.
        ValueError: when ``A`` has fewer than 2 dims or its matrices are not square.
    """
    _tensor('cond', A)
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"cond: A must be a square matrix or a batch of them, got shape "
                         f"{A.shape}")
    order = 2 if p is None else p
    out = matrix_norm(A, order) * matrix_norm(inverse(A), order)
    if A.ndim >= 3:
        out = cast(reshape(out, A.shape[:-2]), _dtype.float32)
    return out
