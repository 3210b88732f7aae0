"""Primitive ops and the graph nodes they record.

An op is a class with ``forward(ctx, *arrays, **params)`` on raw arrays and
``backward(ctx, *grads)`` written with operators and ``ctx.m`` (a math namespace). On the
first-order path ``ctx.m`` works on raw arrays; when a higher-order gradient is requested the
engine hands the same rule Tensors and ``tensor_math``, so the rule itself records a graph.
Every op registers itself in ``OPS`` by name, so a later tracer can replay ops without Tensors.
"""
from .._backend import xp
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

    __slots__ = ('op', 'next', 'shapes', 'saved', 'origins', '__dict__', '__weakref__')

    # saved: arrays kept for backward (see save); None once backward freed the graph.
    # origins: per saved array, its input index, -1-k for output k, None for a constant.
    hooks = None        # {output index: OutputHooks} for tensor hooks / retain_grad on outputs
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
        y = cls.forward(NO_CTX, *[x._data for x in xs], **params)
        if type(y) is tuple:
            return tuple(map(_Tensor._wrap, y))
        return _Tensor._wrap(y)


def apply1(op, x):
    """``op.apply(x)`` for a one-input op without parameters (the hot path of unary ops)."""
    if x.requires_grad and _grad.enabled and op.differentiable:
        return _record(op, (x,), _NO_PARAMS)
    return _Tensor._wrap(op.forward(NO_CTX, x._data))


def apply2(op, a, b):
    """``op.apply(a, b)`` for a two-input op without parameters (the hot path of binary ops)."""
    if (a.requires_grad or b.requires_grad) and _grad.enabled and op.differentiable:
        return _record(op, (a, b), _NO_PARAMS)
    return _Tensor._wrap(op.forward(NO_CTX, a._data, b._data))


_NO_PARAMS = {}


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
    saved = node.saved
    node.origins = _origins(saved, arrays, y) if saved else None
    wrap = _Tensor._wrap_output
    if type(y) is tuple:
        node.n_out = len(y)
        node.out_meta = [(a.shape, a.dtype) for a in y]
        return tuple(wrap(a, node, i) for i, a in enumerate(y))
    return wrap(y, node, 0)


def _origins(saved, arrays, y):
    outs = y if type(y) is tuple else (y,)
    result = []
    for s in saved:
        origin = None
        for i, a in enumerate(arrays):
            if s is a:
                origin = i
                break
        else:
            for k, o in enumerate(outs):
                if s is o:
                    origin = -1 - k
                    break
        result.append(origin)
    return result
