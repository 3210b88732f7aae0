"""Op observers: objects that see every primitive op as it runs, forward and backward.

Subclass ``OpObserver``, override ``on_forward`` and/or ``on_backward``, and use it in a
``with`` block (or ``enable()`` / ``disable()``). While it is on, in the thread that turned it
on:

- ``on_forward(call)`` runs after every op application: ``call.op``, the executing cell
  (``call.cell``, ``call.cell_path``), ``call.inputs`` and ``call.outputs`` (arrays),
  ``call.params``, the recorded ``call.node`` (None when nothing was recorded) and
  ``call.seconds`` the op took;
- ``on_backward(call)`` runs after every node's backward rule: ``call.inputs`` are the
  gradients that arrived (one per output of the op), ``call.outputs`` the gradients it returned
  (one per input, None where none), ``call.cell`` the cell that created the node in forward.
  The nodes of cell boundaries (whose backward runs cell backward hooks) and of custom-bprop
  cells are included.

Observers stack: several may be on at once; each callback runs for the observers in the order
they were turned on. They are per thread: another thread's ops are not seen, and an observer
turned on in one thread cannot be turned off from another. With no observer on, op dispatch
pays one test of the thread's state.

hookgrad.debug.nan_guard and hookgrad.debug.profile are built on this module.
"""
import sys
import threading
import time

from .._frames import user_line
from .function import NO_CTX, _ndarray, _record, device_error, no_ctx
from . import function as _function
from .state import current as _state, grad_enabled as _grad_enabled, update as _update

__all__ = ['OpObserver', 'OpCall', 'observers']

_clock = time.perf_counter
_lock = threading.Lock()


class OpCall:
    """One op application (``on_forward``) or one node's backward rule (``on_backward``).

    Attributes:
        op: the Op class (``call.name`` is its registered name).
        phase: ``'forward'``, or ``'backward'`` for backward rules and for ops run during a
            backward pass (by a backward rule recording a higher-order gradient, or by a hook).
        inputs: arrays: the op's inputs; in ``on_backward`` the gradients that arrived.
        outputs: arrays: the op's outputs; in ``on_backward`` the gradients returned, None
            where an input needs none.
        params: the op's keyword parameters (``on_forward``); empty in ``on_backward``.
        node: the recorded graph node (None when ``on_forward`` recorded nothing).
        rule: in ``on_forward`` during backward, the node whose backward rule ran this op
            (None when a hook or other code ran it).
        start, seconds: ``time.perf_counter()`` when the op or rule started, and its duration.
        tensors: in ``on_forward``, the input Tensors themselves (``inputs`` are their arrays).
        returns_tuple: in ``on_forward``, whether the op returned a tuple (of one or more
            outputs) rather than one output.
    """

    __slots__ = ('op', 'phase', 'inputs', 'outputs', 'params', 'node', 'rule', 'start',
                 'seconds', '_frame', '_source', '_origin', 'tensors', 'returns_tuple')

    def __init__(self, op, phase, inputs, outputs, params, node, rule, start, seconds, frame,
                 source, tensors=(), returns_tuple=False, origin=None):
        self.op = op
        self.phase = phase
        self.inputs = inputs
        self.outputs = outputs
        self.params = params
        self.node = node
        self.rule = rule
        self.start = start
        self.seconds = seconds
        self._frame = frame
        self._source = source
        self._origin = origin       # the op's dispatch frame, until its source is found
        self.tensors = tensors
        self.returns_tuple = returns_tuple

    @property
    def name(self):
        """The op's registered name (``'Conv2D'``...)."""
        return self.op.name

    @property
    def cell(self):
        """The innermost Cell executing the op (for a backward rule: that created its node),
        or None outside every cell."""
        return None if self._frame is None else self._frame.cell

    def cells(self):
        """The executing cells, innermost first."""
        frame = self._frame
        out = []
        while frame is not None:
            out.append(frame.cell)
            frame = frame.parent
        return out

    @property
    def cell_path(self):
        """Attribute path of ``cell`` from the outermost executing cell, as
        ``'ResNet.layer1.0.conv1'``; None outside every cell."""
        return frame_path(self._frame)

    @property
    def source(self):
        """``(file, line)`` of the user code that ran the op (for a backward rule: that created
        its node, when an observer with ``record_source`` was on then); None if unknown.
        In ``on_forward`` it is known at once when an observer with ``record_source`` is on;
        otherwise it is found on first use inside the callback (once the callbacks returned,
        an unread source is None: the op's Python frames are gone)."""
        if self._source is False:
            origin = self._origin
            self._source = None if origin is None else user_line(origin)
            self._origin = None
        return self._source

    def __repr__(self):
        return f"<OpCall {self.phase} {self.op.name} in {self.cell_path!r}>"


class OpObserver:
    """Base class of op observers; see the module docstring.

    ``record_source = True`` in a subclass asks that every node recorded while it is on keeps
    the source line that created it, so ``on_backward`` calls can report it (this costs a short
    walk up the Python stack per recorded op).
    """

    record_source = False
    _owner = None       # the thread that turned it on

    def on_forward(self, call):
        """Called after an op's forward ran; ``call`` is an ``OpCall``."""

    def on_backward(self, call):
        """Called after a node's backward rule ran; ``call`` is an ``OpCall``."""

    @property
    def observing(self):
        """Whether this observer is on (in the thread that turned it on)."""
        return self._owner is not None

    def enable(self):
        """Start observing this thread's ops; returns self. Already on in this thread: nothing
        changes.

        Raises:
            RuntimeError: it is on in another thread (an observer watches one thread).
        """
        if self._owner is not None:
            if self._owner == threading.get_ident():
                return self
            raise RuntimeError(f"{type(self).__name__} is observing another thread; turn it "
                               f"off there first")
        s = _state()
        observers = s.observers + (self,)
        _update(observers=observers, sources=any(o.record_source for o in observers))
        self._owner = threading.get_ident()
        with _lock:
            _function.observing += 1
        return self

    def disable(self):
        """Stop observing; a second call does nothing.

        Raises:
            RuntimeError: called from another thread than the one that turned it on.
        """
        owner = self._owner
        if owner is None:
            return
        if owner != threading.get_ident():
            raise RuntimeError(f"{type(self).__name__} was turned on in another thread; turn it "
                               f"off there")
        self._owner = None
        with _lock:
            _function.observing -= 1
        observers = tuple(o for o in _state().observers if o is not self)
        _update(observers=observers, sources=any(o.record_source for o in observers))

    def __enter__(self):
        return self.enable()

    def __exit__(self, *exc):
        self.disable()
        return False


def observers():
    """The op observers on in this thread, in the order they were turned on."""
    return _state().observers


# ------------------------------------------------------------------------ what the engine calls
def dispatch(op, xs, params):
    """An op application while observers are on: run it (recording as usual), then show it."""
    s = _state()
    t0 = _clock()
    if _grad_enabled() and op.differentiable and any(x.requires_grad for x in xs):
        out = _record(op, xs, params)
        node = (out[0] if type(out) is tuple else out)._node
    else:
        arrays = [x._data for x in xs]
        try:
            y = op.forward(NO_CTX if not arrays or type(arrays[0]) is _ndarray else
                           no_ctx(arrays[0]), *arrays, **params)
        except TypeError as e:
            raise device_error(op, xs, e) from e
        wrap = _function._Tensor._wrap
        out = tuple(map(wrap, y)) if type(y) is tuple else wrap(y)
        node = None
    seconds = _clock() - t0
    outs = out if type(out) is tuple else (out,)
    if s.sources:
        source, origin = node.source if node is not None else user_line(), None
    else:
        source, origin = False, sys._getframe()     # found from here when first read
    call = OpCall(op, 'backward' if s.backward else 'forward', tuple(x._data for x in xs),
                  tuple(t._data for t in outs), params, node, s.rule, t0, seconds, s.cell, source,
                  xs, type(out) is tuple, origin)
    try:
        for observer in s.observers:
            observer.on_forward(call)
    finally:
        call._origin = None         # an OpCall kept by an observer must not keep the frames
    return out


def stamp(node):
    """Mark a node recorded while this thread's observers are on with the executing cell (and
    the source line, when an observer asks for it)."""
    s = _state()
    if s.observers:
        node.cell = s.cell
        if s.sources:
            node.source = user_line()


def run_rule(node, gys, create_graph, call_backward):
    """A node's backward rule while observers are on: ``call_backward(node, gys, create_graph)``
    timed, with the node marked as the running rule, then shown to ``on_backward``."""
    previous = _update(rule=node)
    t0 = _clock()
    try:
        gxs = call_backward(node, gys, create_graph)
    finally:
        seconds = _clock() - t0
        _update(**previous)
    call = OpCall(node.op, 'backward', tuple(_array(g) for g in gys),
                  tuple(_array(g) for g in gxs), {}, node, None, t0, seconds, node.cell,
                  node.source)
    for observer in _state().observers:
        observer.on_backward(call)
    return gxs


def _array(g):
    return g._data if isinstance(g, _function._Tensor) else g


# ------------------------------------------------------------------------ cells
class CellFrame:
    """One executing cell call, linked to the call it runs inside; ``path`` is computed once."""

    __slots__ = ('cell', 'parent', '_path')

    def __init__(self, cell, parent):
        self.cell = cell
        self.parent = parent
        self._path = None

    @property
    def path(self):
        """The dotted attribute path from the outermost cell of the chain."""
        if self._path is None:
            parent = self.parent
            if parent is None:
                self._path = type(self.cell).__name__
            else:
                self._path = f"{parent.path}.{_child_name(parent.cell, self.cell)}"
        return self._path


def enter_cell(cell):
    """Push ``cell`` as the executing cell of this thread; returns the frame to pass to
    ``exit_cell``."""
    frame = CellFrame(cell, _state().cell)
    _update(cell=frame)
    return frame


def exit_cell(frame):
    if _state().cell is frame:
        _update(cell=frame.parent)


def frame_path(frame):
    """The path of a frame's cell (None for no frame)."""
    return None if frame is None else frame.path


def _child_name(parent, cell):
    link = cell.__dict__.get('_parent')
    if link is not None and link[0]() is parent:
        return link[1]
    for name, child in parent.__dict__.get('_cells', {}).items():
        if child is cell:
            return name
    return type(cell).__name__      # called without being registered in the parent
