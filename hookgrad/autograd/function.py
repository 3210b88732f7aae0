"""Primitive ops, the graph nodes they record, and op dispatch.

The op contract (docs/autograd.md shows a worked example): an op is a class with

- ``forward(ctx, *arrays, **params)`` on raw arrays, returning an array or a tuple of arrays;
- ``backward(ctx, *grads)`` returning one gradient per input (None where none is wanted),
  written with operators and ``ctx.m`` only, so that one rule serves both paths: raw arrays with
  ``ctx.m = array_math`` on first-order backward, Tensors with ``ctx.m = tensor_math`` when a
  higher-order gradient is recorded;
- optionally ``backward_arrays(ctx, *grads)``, a first-order rule on raw NumPy arrays for ops
  where in-place NumPy work beats the general rule. When an op defines it, first-order backward
  runs it and ``backward`` runs only on Tensors. Which rule runs on arrays is bound once, when the
  class is created (``array_rule``), so the backward loop never branches on it.

``ctx`` is everything a rule may use: ``ctx.save(*arrays)`` / ``ctx.saved``,
``ctx.needs_grad(i)`` (whether input i wants a gradient), ``ctx.m``, ``ctx.xp``,
``ctx.recording`` (False when forward runs without recording: it may skip work only backward
needs) and any attribute forward sets on it (``ctx.axis = axis``, ``ctx.in_shape = x.shape``).
Gradients may come back in a broadcast shape: the engine sums them to each input's shape.

Every op registers itself in ``OPS`` by name, so a tracer can replay ops without Tensors.
"""
from operator import attrgetter

from ..kernels import backend as _backend, half as _low
from ..kernels.backend import asarray as _asarray, ndarray as _ndarray, xp
from . import complex_support as _complex_support
from .math import array_math
from .state import current as _state, grad_enabled as _grad_enabled, integer_leaves

OPS = {}
_Tensor = None      # set by hookgrad._tensor.tensor once Tensor exists (breaks the import cycle)
observing = 0       # op observers on in any thread (autograd/observer.py counts them): while 0,
                    # dispatch and Cell.__call__ skip reading the thread's observers


class Node:
    """One recorded op application: the ``ctx`` its rules receive, and the graph edge data.

    Engine-only slots: ``next`` holds, per input, ``(node, output_index)`` for a non-leaf input,
    ``(tensor, 0)`` for a leaf that requires grad, or None; ``reduce_to`` the shape each input's
    gradient is summed to (None when no input was broadcast); ``ids`` the id() of each input
    then output array when something was saved, so that higher-order backward can re-attach
    saved arrays to the graph (a saved array is alive since the op ran, so its id cannot have
    been reused). Optional state lives in class defaults until a node sets it, so a plain node
    costs a few slot stores.
    """

    __slots__ = ('op', 'next', 'reduce_to', 'saved', 'ids', '__dict__', '__weakref__')

    hooks = None        # {output index: OutputHooks} for tensor hooks / retain_grad on outputs
    cell = None         # the executing cell call (observer.CellFrame) at creation, if observed
    source = None       # (file, line) of the user code that created it, when an observer asks
    n_out = 1
    m = array_math
    xp = xp             # the array module forward runs on
    recording = True    # forward may skip work only backward needs when this is False

    def save(self, *arrays):
        """Keep arrays for backward; keep outputs rather than inputs when that is cheaper."""
        self.saved = arrays

    def needs_grad(self, i):
        """Whether input ``i`` wants a gradient (a rule may skip the work for it otherwise)."""
        return self.next[i] is not None

    @property
    def name(self):
        return self.op.name

    def __repr__(self):
        return f"<Node {self.op.name}>"


class _NoGradContext:
    """The ctx passed to forward when nothing is recorded: saving and attributes are dropped."""

    __slots__ = ()
    m = array_math
    xp = xp
    recording = False

    def save(self, *arrays):
        pass

    def __setattr__(self, name, value):
        pass


NO_CTX = _NoGradContext()
_device_contexts = {}       # array module -> the unrecorded ctx of ops on its arrays


def no_ctx(array):
    """The ctx of an unrecorded op on ``array``'s device (``NO_CTX`` on the CPU)."""
    if type(array) is _ndarray:
        return NO_CTX
    xp = _backend.array_module(array)
    ctx = _device_contexts.get(xp)
    if ctx is None:
        kind = type('_NoGradContext', (_NoGradContext,), {'__slots__': (), 'xp': xp})
        ctx = _device_contexts[xp] = kind()
    return ctx


def device_error(op, xs, error):
    """The error of an op whose forward raised ``error`` (a TypeError): a clear one naming
    both devices when its inputs live on different devices, else ``error`` itself."""
    devices = []
    for x in xs:
        name = _backend.device_of(x._data).name
        if name not in devices:
            devices.append(name)
    if len(devices) < 2:
        return error
    return RuntimeError(f"ops.{op.name}: inputs on different devices ({' and '.join(devices)});"
                        f" move them to one device first (Tensor.move_to)")


class Op:
    """Base class of primitives: ``forward`` and ``backward`` (and optionally
    ``backward_arrays``) as static methods; see the module docstring for the contract.

    ``widens_bfloat16 = True`` marks ops that accumulate (sums, products, normalisations, losses):
their bfloat16 inputs are computed in float32 and the results rounded once (bfloat16's own
arithmetic would round at every step of a sum). ``differentiable = False`` marks ops whose
outputs never carry a gradient (comparisons,
    argmax...); ``shape_from_values = True`` ops whose output shape depends on the values of
    their inputs, not only on their shapes (indexing by a boolean mask): a graph-mode program
    then does not assume the shape. ``ufunc`` names the NumPy ufunc an element-wise op's
    forward is, exactly (``np.add`` for Add), for ops whose output has the dtype of same-dtype
    inputs: a graph-mode replay may then write the result into an array that is about to be
    overwritten with it. Subclasses are registered in ``OPS`` under ``name`` (default: the
    class name).
    """

    differentiable = True
    shape_from_values = False
    ufunc = None
    name = None
    backward_arrays = None
    array_rule = None       # backward_arrays if the op has one, else backward; set per class
    widens_bfloat16 = False     # forward and the array rule run bfloat16 inputs in float32

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get('name') or cls.__name__
        old = OPS.get(name)
        if old is not None and \
                (old.__module__, old.__qualname__) != (cls.__module__, cls.__qualname__):
            raise TypeError(f"op {name!r} is already registered by {OPS[name].__module__}")
        cls.name = name
        rule = cls.backward_arrays or getattr(cls, 'backward', None)
        if cls.__dict__.get('widens_bfloat16'):
            cls.forward = staticmethod(_low.widened_forward(cls.__dict__['forward']))
            rule = rule and _low.widened_rule(rule)
            if getattr(cls, 'backward', None) is not None:
                cls.backward = staticmethod(_low.first_order_only(cls.backward, name))
        cls.array_rule = None if rule is None else staticmethod(rule)
        OPS[name] = cls
        _complex_support.guard(cls)

    @classmethod
    def apply(cls, *xs, **params):
        """Run forward on the inputs' arrays; record a node only if some input requires grad."""
        if observing and _state().observers:
            return _observer.dispatch(cls, xs, params)
        if cls.differentiable:
            for x in xs:
                if x.requires_grad:
                    if _grad_enabled():
                        return _record(cls, xs, params)
                    break
        arrays = [x._data for x in xs]
        try:
            y = cls.forward(NO_CTX if not arrays or type(arrays[0]) is _ndarray else
                            no_ctx(arrays[0]), *arrays, **params)
        except TypeError as e:
            raise device_error(cls, xs, e) from e
        if type(y) is tuple:
            return tuple(map(_Tensor._wrap, y))
        return _Tensor._wrap(y)


def apply1(op, x):
    """``op.apply(x)`` for a one-input op without parameters (the hot path of unary ops)."""
    if observing and _state().observers:
        return _observer.dispatch(op, (x,), _NO_PARAMS)
    if x.requires_grad and _grad_enabled() and op.differentiable:
        return _record(op, (x,), _NO_PARAMS)
    a = x._data
    return _Tensor._wrap(op.forward(NO_CTX if type(a) is _ndarray else no_ctx(a), a))


def apply2(op, a, b):
    """``op.apply(a, b)`` for a two-input op without parameters (the hot path of binary ops).

    When both inputs have the same shape, the op's backward must return gradients of that
    shape: the engine then skips its un-broadcasting check.
    """
    if observing and _state().observers:
        return _observer.dispatch(op, (a, b), _NO_PARAMS)
    if (a.requires_grad or b.requires_grad) and _grad_enabled() and op.differentiable:
        return _record2(op, a, b)
    xa = a._data
    try:
        return _Tensor._wrap(op.forward(NO_CTX if type(xa) is _ndarray else no_ctx(xa), xa,
                                        b._data))
    except TypeError as e:
        raise device_error(op, (a, b), e) from e


_NO_PARAMS = {}
_shape = attrgetter('shape')


def _edge(x):
    parent = x._node
    if parent is not None:
        return (parent, x._index)
    if x.requires_grad and (x._data.dtype.kind in 'fVc' or _integer_edge(x)):
        return (x, 0)
    return None


def _integer_edge(x):
    """Whether the integer leaf ``x`` is one a transform differentiates."""
    return id(x) in integer_leaves.get()


def is_diff_tensor(x):
    """Whether ``x`` is a Tensor that can carry a gradient (floating, or an integer tensor a
    transform differentiates): a user's backward rule or hook decides its gradient whatever
    its dtype."""
    return isinstance(x, _Tensor) and (x._data.dtype.kind in 'fVc' or carries_gradient(x))


def carries_gradient(x):
    """Whether the Tensor ``x`` can carry a gradient: a floating one, or an integer or bool one
    that a transform differentiates (MindSpore differentiates integer inputs): on the graph,
    or an integer leaf the transform marked."""
    if x._data.dtype.kind in 'fVc':
        return True
    return x.requires_grad and (x._node is not None or _integer_edge(x))


def new_node(op):
    """A Node for ``op`` with nothing saved yet (forward may save into it; ``link`` ends it)."""
    node = _new(Node)
    node.op = op
    node.saved = ()
    return node


def _record(op, xs, params):
    node = _new(Node)       # new_node, inline on the hot path
    node.op = op
    node.saved = ()
    arrays = [x._data for x in xs]
    if arrays and type(arrays[0]) is not _ndarray:
        node.xp = _backend.array_module(arrays[0])
    try:
        y = op.forward(node, *arrays, **params)
    except TypeError as e:
        raise device_error(op, xs, e) from e
    return link(node, xs, arrays, y)


def link(node, xs, arrays, y, broadcasts=True):
    """The node builder: connect ``node`` to its input Tensors ``xs`` (``arrays`` their data)
    and return its outputs ``y`` (an array or a tuple of arrays) as Tensors on the graph.

    Every node is made here (op applications, cell boundaries, custom-bprop cells), except the
    unrolled two-input path of ``apply2``. ``broadcasts=False`` promises that backward returns
    gradients of the inputs' own shapes (the engine then skips its un-broadcasting check).
    While observers are on, the node is stamped with the executing cell (and source line) for
    backward reports.
    """
    link_arrays(node, list(map(_edge, xs)), arrays, y, broadcasts)
    if observing:
        _observer.stamp(node)
    wrap = _Tensor._wrap_output
    if type(y) is tuple:
        return tuple(wrap(a, node, i) for i, a in enumerate(y))
    return wrap(y, node, 0)


def link_arrays(node, edges, arrays, y, broadcasts=True):
    """``link`` on arrays: give ``node`` its input ``edges`` (as ``_edge`` makes them) over
    ``arrays`` and its outputs ``y``; the caller wraps the outputs (a replayed graph-mode
    program keeps them as arrays)."""
    node.next = edges
    node.reduce_to = list(map(_shape, arrays)) if broadcasts else None
    if node.saved:
        node.ids = (*map(id, arrays), *map(id, y if type(y) is tuple else (y,)))
    else:
        node.ids = None
    if type(y) is tuple:
        node.n_out = len(y)
        node.out_meta = [(a.shape, a.dtype) for a in y]


def _record2(op, a, b):
    """``_record`` unrolled for two inputs and one output: the cost of most recorded ops."""
    node = _new(Node)
    node.op = op
    node.saved = ()
    xa = a._data
    xb = b._data
    if type(xa) is not _ndarray:
        node.xp = _backend.array_module(xa)
    try:
        y = op.forward(node, xa, xb)
    except TypeError as e:
        raise device_error(op, (a, b), e) from e
    pa = a._node
    pb = b._node
    # _edge, inline: a node's output, a leaf that requires grad, or nothing
    node.next = [(pa, a._index) if pa is not None else
                 (a, 0) if a.requires_grad and (xa.dtype.kind in 'fVc' or _integer_edge(a))
                 else None,
                 (pb, b._index) if pb is not None else
                 (b, 0) if b.requires_grad and (xb.dtype.kind in 'fVc' or _integer_edge(b))
                 else None]
    sa = xa.shape
    sb = xb.shape
    node.reduce_to = None if sa == sb else (sa, sb)   # None: gradients need no un-broadcasting
    node.ids = (id(xa), id(xb), id(y)) if node.saved else None
    t = _new(_Tensor)
    t._data = y if type(y) is _ndarray else _asarray(y)
    t._node = node
    t._index = 0
    t.requires_grad = True
    return t


def effect(fn, *args):
    """``fn(*args)``: code that changes state outside ops (a hook call, an assignment into a
    Parameter, an optimizer update...) goes through here, so that while a graph-mode trace
    records this thread (hookgrad/jit) it becomes one step of the program, run again on every
    replay, instead of being lost."""
    if observing:
        s = _state()
        if s.recorder is not None and not s.backward:
            return s.recorder.opaque(fn, args)
    return fn(*args)


def value_read(t):
    """Tell a graph-mode trace of this thread that Python code reads the values of ``t``
    (``asnumpy``, ``item``, ``bool``...): a program cannot replay code that branches on them."""
    if observing:
        rec = _state().recorder
        if rec is not None:
            rec.value_read(t)


def aliased(t, source):
    """Tell a graph-mode trace of this thread that ``t`` is ``source`` cut from the graph (a
    new Tensor over the same array): in a program it stands for ``source``'s value."""
    rec = _state().recorder
    if rec is not None:
        rec.alias(t, source)


_new = object.__new__

from . import observer as _observer  # noqa: E402  (the observer dispatches through _record)
