"""Primitive ops and the graph nodes they record.

An op is a class with ``forward(ctx, *arrays, **params)`` on raw arrays and
``backward(ctx, *grads)`` written with operators and ``ctx.m`` (a math namespace). On the
first-order path ``ctx.m`` works on raw arrays; when a higher-order gradient is requested the
engine hands the same rule Tensors and ``tensor_math``, so the rule itself records a graph.
Every op registers itself in ``OPS`` by name, so a later tracer can replay ops without Tensors.
"""
from .._backend import asarray as _asarray, ndarray as _ndarray, xp
from .grad_mode import state as _grad
from .math import array_math

OPS = {}
_Tensor = None      # set by hookgrad._tensor once Tensor exists (breaks the import cycle)


class Node:
    """One recorded op application: the op, its edges to inputs, and what backward needs.

    ``next`` holds, per input, ``(node, output_index)`` for a non-leaf input, ``(tensor, 0)``
    for a leaf that requires grad, or None. Optional state (``saved``, ``hooks``...) lives in
    class defaults until an instance sets it, so a plain node costs four slot stores.
    """

    __slots__ = ('op', 'next', 'shapes', 'saved', 'ids', '__dict__', '__weakref__')

    # saved: arrays kept for backward (see save); None once backward freed the graph.
    # shapes: input shapes, for un-broadcasting gradients; None when no input was broadcast.
    # ids: id() of each input then output array, recorded when something was saved, so that
    #   higher-order backward can re-attach saved arrays to the graph (a saved array is alive
    #   since the op ran, so its id cannot have been reused by another input or output).
    hooks = None        # {output index: OutputHooks} for tensor hooks / retain_grad on outputs
    origin = None       # (file, line, cell path) of its creation, set while a nan_guard is on
    n_out = 1
    m = array_math
    xp = xp             # the array module forward runs on
    recording = True    # forward may skip work only backward needs when this is False

    def save(self, *arrays):
        """Keep arrays for backward; keep outputs rather than inputs when that is cheaper."""
        self.saved = arrays

    @property
    def needs_input_grad(self):
        """Per input, whether a gradient for it is wanted (lets backward skip work)."""
        return tuple(e is not None for e in self.next)

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
    needs_input_grad = ()

    def save(self, *arrays):
        pass

    def __setattr__(self, name, value):
        pass


NO_CTX = _NoGradContext()


class Op:
    """Base class of primitives. Subclasses define ``forward`` and ``backward`` as static methods.

    ``differentiable = False`` marks ops whose outputs never carry a gradient (comparisons,
    argmax...). Subclasses are registered in ``OPS`` under ``name`` (default: the class name).
    """

    differentiable = True
    name = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get('name') or cls.__name__
        old = OPS.get(name)
        if old is not None and (old.__module__, old.__qualname__) != (cls.__module__, cls.__qualname__):
            raise TypeError(f"op {name!r} is already registered by {OPS[name].__module__}")
        cls.name = name
        OPS[name] = cls

    @classmethod
    def apply(cls, *xs, **params):
        """Run forward on the inputs' arrays; record a node only if some input requires grad."""
        if _grad.enabled and cls.differentiable:
            for x in xs:
                if x.requires_grad:
                    return _record(cls, xs, params)
        if _watch is not None:
            return _watched(cls, xs, params)
        y = cls.forward(NO_CTX, *[x._data for x in xs], **params)
        if type(y) is tuple:
            return tuple(map(_Tensor._wrap, y))
        return _Tensor._wrap(y)


def apply1(op, x):
    """``op.apply(x)`` for a one-input op without parameters (the hot path of unary ops)."""
    if x.requires_grad and _grad.enabled and op.differentiable:
        return _record(op, (x,), _NO_PARAMS)
    if _watch is None:
        return _Tensor._wrap(op.forward(NO_CTX, x._data))
    return _watched(op, (x,), _NO_PARAMS)


def apply2(op, a, b):
    """``op.apply(a, b)`` for a two-input op without parameters (the hot path of binary ops).

    When both inputs have the same shape, the op's backward must return gradients of that
    shape: the engine then skips its un-broadcasting check.
    """
    if (a.requires_grad or b.requires_grad) and _grad.enabled and op.differentiable:
        return _record2(op, a, b)
    if _watch is None:
        return _Tensor._wrap(op.forward(NO_CTX, a._data, b._data))
    return _watched(op, (a, b), _NO_PARAMS)


_NO_PARAMS = {}

# The observer of every op's outputs while an anomaly guard is on (hookgrad.debug.nan_guard):
# ``_watch(op, input_arrays, outputs, node)`` with outputs a Tensor or a tuple of them and node
# None when nothing was recorded. None otherwise: each dispatch path pays one test.
_watch = None


def _watched(op, xs, params):
    """The unrecorded path while ``_watch`` is set: forward, wrap, then show the outputs."""
    arrays = [x._data for x in xs]
    y = op.forward(NO_CTX, *arrays, **params)
    out = tuple(map(_Tensor._wrap, y)) if type(y) is tuple else _Tensor._wrap(y)
    _watch(op, arrays, out, None)
    return out


def _edge(x):
    parent = x._node
    if parent is not None:
        return (parent, x._index)
    if x.requires_grad and x._data.dtype.kind == 'f':
        return (x, 0)
    return None


def _record(op, xs, params):
    node = Node()
    node.op = op
    node.saved = ()
    arrays = [x._data for x in xs]
    y = op.forward(node, *arrays, **params)
    node.next = [_edge(x) for x in xs]
    node.shapes = [a.shape for a in arrays]
    if node.saved:
        node.ids = (*map(id, arrays), *map(id, y if type(y) is tuple else (y,)))
    else:
        node.ids = None
    wrap = _Tensor._wrap_output
    if type(y) is tuple:
        node.n_out = len(y)
        node.out_meta = [(a.shape, a.dtype) for a in y]
        out = tuple(wrap(a, node, i) for i, a in enumerate(y))
    else:
        out = wrap(y, node, 0)
    if _watch is not None:
        _watch(op, arrays, out, node)
    return out


def _record2(op, a, b):
    """``_record`` unrolled for two inputs and one output: the cost of most recorded ops."""
    node = _new(Node)
    node.op = op
    node.saved = ()
    xa = a._data
    xb = b._data
    y = op.forward(node, xa, xb)
    pa = a._node
    pb = b._node
    node.next = [(pa, a._index) if pa is not None else _edge(a),
                 (pb, b._index) if pb is not None else _edge(b)]
    sa = xa.shape
    sb = xb.shape
    node.shapes = None if sa == sb else (sa, sb)   # None: gradients need no un-broadcasting
    node.ids = (id(xa), id(xb), id(y)) if node.saved else None
    t = _new(_Tensor)
    t._data = y if type(y) is _ndarray else _asarray(y)
    t._node = node
    t._index = 0
    t.requires_grad = True
    if _watch is not None:
        _watch(op, (xa, xb), t, node)
    return t


_new = object.__new__
