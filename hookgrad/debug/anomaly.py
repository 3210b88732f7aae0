"""nan_guard: find the op that produced the first NaN or Inf of a step, forward or backward.

While a guard is on, every op's outputs and every backward rule's gradients are checked. An op
is reported when it *produced* a NaN (or Inf): its output holds one and none of its inputs did,
so ops and cells that merely pass a value on are never blamed. A forward op that receives a
non-finite input which no watched op produced (data, a parameter, a constant such as
``masked_fill``'s ``-inf``) is reported too, as the place where that value entered.

The guard watches through two module-level observers, ``hookgrad.autograd.function._watch`` and
``hookgrad.autograd.engine._watch``, which are None while no guard is on (one test per op), and
through a forward pre-hook and a forward hook on every cell of the net, removed on exit, that keep
the stack of cells being executed. See docs/debugging.md.
"""
import dataclasses
import math
import os
import sys
import warnings
import weakref
from functools import partial

import numpy as np

from .._tensor import Tensor
from ..autograd import engine as _engine
from ..autograd import function as _function
from ..nn.cell import Cell

__all__ = ['nan_guard', 'AnomalyReport', 'AnomalyError', 'AnomalyWarning']

_CHECKS = {'both': 3, 'nan': 1, 'inf': 2}       # bit 1: NaN, bit 2: Inf
_ACTIONS = ('raise', 'warn', 'record')
_SMALL = 4096       # below this many elements the exact test is as fast as the dot product


class AnomalyError(FloatingPointError):
    """Raised by a ``nan_guard`` with ``action='raise'``; ``report`` is the AnomalyReport."""

    def __init__(self, report):
        super().__init__(str(report))
        self.report = report


class AnomalyWarning(RuntimeWarning):
    """Issued by a ``nan_guard`` with ``action='warn'``."""


@dataclasses.dataclass(frozen=True)
class AnomalyReport:
    """Where a NaN or Inf appeared.

    Attributes:
        direction: ``'forward'`` or ``'backward'``.
        op: the primitive op: the one that produced the value, or in backward the op whose
            backward rule produced it (``'CellBprop'`` for a cell's custom ``bprop``) or the
            op a tensor hook ran.
        cell: path of the innermost cell of the guarded net executing the op (in backward: the
            cell that created the node in forward), as ``net.cells_and_names()`` names it
            (``''`` is the net itself); None outside the net's cells or without a net.
        step: the step it happened in (see ``nan_guard``).
        source: ``'file:line'`` of the code that ran the op (in backward: that created the node
            in forward); None when it was not recorded.
        input_shapes: shapes of the op's inputs (in backward: of the incoming gradients).
        output_shapes: shapes of its outputs (in backward: of the gradients it produced).
        nan_count, posinf_count, neginf_count: non-finite values in the outputs.
        input_index: None when the op produced the value; in forward, the position of the input
            through which a value that no watched op produced entered.
    """

    direction: str
    op: str
    cell: object
    step: int
    source: object
    input_shapes: tuple
    output_shapes: tuple
    nan_count: int
    posinf_count: int
    neginf_count: int
    input_index: object = None

    def __str__(self):
        counts = ', '.join(f"{n} {name}" for n, name in ((self.nan_count, 'NaN'),
                                                         (self.posinf_count, '+Inf'),
                                                         (self.neginf_count, '-Inf')) if n)
        if self.direction == 'backward':
            what = f"produced by the backward of '{self.op}'"
            shapes = f"gradients {_shapes(self.input_shapes)} -> {_shapes(self.output_shapes)}"
        elif self.input_index is None:
            what = f"produced by op '{self.op}'"
            shapes = f"inputs {_shapes(self.input_shapes)} -> outputs {_shapes(self.output_shapes)}"
        else:
            what = (f"entered op '{self.op}' through input {self.input_index}, produced by no "
                    f"watched op (data, a parameter or a constant)")
            shapes = f"inputs {_shapes(self.input_shapes)} -> outputs {_shapes(self.output_shapes)}"
        where = '' if self.cell is None else \
            f" in Cell '{self.cell}'" if self.cell else " in the net's own construct"
        line = ''
        if self.source is not None:
            line = f"; {'its node was created' if self.direction == 'backward' else 'run'} " \
                   f"at {self.source}"
        return (f"nan_guard: {counts} {what}{where}, {self.direction} pass of step {self.step}; "
                f"{shapes}{line}")


def _shapes(shapes):
    return ', '.join(str(s) for s in shapes) or '()'


class nan_guard:
    """Report the first NaN or Inf of each step at the op that produced it.

    Use it as a context manager (``with nan_guard(net) as guard:``) or as a switch
    (``guard.enable()`` ... ``guard.disable()``). While it is on, every op's outputs are checked
    (an exact test: a dot product of the output with itself, finite exactly when every element
    is, unless it overflows; then element by element), and with ``backward`` every gradient a
    backward rule returns. The first NaN or Inf found in a step is reported as an
    ``AnomalyReport``, appended to ``guard.reports``, and raised or warned as ``action`` says;
    nothing more is checked until the next step. Off, it costs nothing: no hook remains, and
    each op pays one test of a module variable.

    Steps: with a net, each call of the net starts a step (steps count from 0, so the backward
    after the k-th forward belongs to step k); without one, ``guard.step()`` starts the next.
    Only steps ``0, every, 2 * every, ...`` are checked.

    Args:
        net (Cell, optional): the network; its cells name where an op ran. Held through a weak
            reference. Without it every op is still checked, but reports name no cell.
        check (str): ``'both'`` (Default), ``'nan'`` or ``'inf'``: what counts as an anomaly.
        allow: intended non-finite values: a callable ``allow(report) -> bool`` (true: not an
            anomaly), or op names and cell paths (a str or a collection of them) whose ``-inf``
            outputs are intended, such as attention masks.
        action (str): ``'raise'`` an ``AnomalyError`` (Default), ``'warn'`` with an
            ``AnomalyWarning``, or only ``'record'`` in ``guard.reports``.
        every (int): check one step in ``every``. Default 1.
        backward (bool): also check gradients in backward passes. Default True.

    Raises:
        TypeError: ``net`` is not a Cell, ``allow`` is neither a callable nor names,
            ``every`` is not an int or ``backward`` not a bool.
        ValueError: ``check`` or ``action`` is not one of the names above, or ``every < 1``.

    >>> import hookgrad as ms
    >>> with ms.debug.nan_guard(action='record') as guard:
    ...     y = ms.Tensor([1.0, float('nan')]) * 2
    >>> report = guard.reports[0]
    >>> report.op, report.input_index, report.nan_count      # the NaN came in through input 0
    ('Mul', 0, 1)
    """

    _active = None      # the guard that is on: one at a time, since it watches every op

    def __init__(self, net=None, *, check='both', allow=None, action='raise', every=1,
                 backward=True):
        if net is not None and not isinstance(net, Cell):
            raise TypeError(f"nan_guard: net must be a Cell or None, got {type(net).__name__}")
        if not isinstance(check, str) or check not in _CHECKS:
            raise ValueError(f"nan_guard: check must be 'both', 'nan' or 'inf', got {check!r}")
        if not isinstance(action, str) or action not in _ACTIONS:
            raise ValueError(f"nan_guard: action must be 'raise', 'warn' or 'record', "
                             f"got {action!r}")
        if not isinstance(every, int) or isinstance(every, bool):
            raise TypeError(f"nan_guard: every must be an int, got {type(every).__name__}")
        if every < 1:
            raise ValueError(f"nan_guard: every must be at least 1, got {every}")
        if not isinstance(backward, bool):
            raise TypeError(f"nan_guard: backward must be a bool, got {type(backward).__name__}")
        self._net = weakref.ref(net) if net is not None else None
        self.check = check
        self.allow = _allow_rule(allow)
        self.action = action
        self.every = every
        self.backward = backward
        self.reports = []
        self._mask = _CHECKS[check]
        self._step = 0
        self._calls = 0             # calls of the net so far
        self._stack = []            # paths of the cells executing now, innermost last
        self._handles = []
        self._cells = []            # weakrefs to the net's cells
        self._known = {}            # id -> weakref of non-finite arrays that watched ops made
        self._in_backward = 0       # >0 while a backward rule runs (its ops are checked with it)
        self._enabled = False
        self._armed = False

    # ----------------------------------------------------------------- switch
    @property
    def enabled(self):
        """Whether the guard is on."""
        return self._enabled

    @property
    def current_step(self):
        """The number of the step being run (from 0)."""
        return self._step

    def enable(self):
        """Turn the guard on; returns the guard.

        Raises:
            RuntimeError: another guard is on, or the net no longer exists.
        """
        if self._enabled:
            return self
        if nan_guard._active is not None:
            raise RuntimeError("nan_guard: another guard is on; disable it first (a guard "
                               "watches every op, so one at a time)")
        if self._net is not None:
            net = self._net()
            if net is None:
                raise RuntimeError("nan_guard: the guarded net no longer exists")
            try:
                self._attach(net)
            except Exception:
                self._detach()
                raise
        self._enabled = True
        nan_guard._active = self
        self._arm()
        return self

    def disable(self):
        """Turn the guard off: remove its hooks and observers. Reports are kept."""
        if not self._enabled:
            return
        self._enabled = False
        self._disarm()
        self._detach()
        self._stack.clear()
        self._known.clear()
        self._in_backward = 0
        if nan_guard._active is self:
            nan_guard._active = None

    def __enter__(self):
        return self.enable()

    def __exit__(self, *exc):
        self.disable()
        return False

    def step(self):
        """Start the next step (for a guard without a net; with one, calls of the net do it).

        Raises:
            RuntimeError: the guard has a net.
        """
        if self._net is not None:
            raise RuntimeError("nan_guard: steps are counted by calls of the net; step() is for "
                               "a guard without a net")
        self._next_step(self._step + 1)

    def __repr__(self):
        return (f"nan_guard(check={self.check!r}, action={self.action!r}, every={self.every}, "
                f"backward={self.backward}, enabled={self._enabled}, "
                f"reports={len(self.reports)})")

    # ----------------------------------------------------------------- cells and steps
    def _attach(self, net):
        for path, cell in net.cells_and_names():
            self._cells.append(weakref.ref(cell))
            enter = partial(self._enter_net if cell is net else self._enter, path)
            self._handles.append(cell.register_forward_pre_hook(enter, prepend=True))
            self._handles.append(cell.register_forward_hook(partial(self._exit, path),
                                                            always_call=True))

    def _detach(self):
        for handle in self._handles:
            handle.remove()
        self._handles.clear()
        for ref in self._cells:
            cell = ref()
            if cell is not None and not cell.__dict__.get('_hooks'):
                cell.__dict__['_hooks'] = None      # back on the cell's hook-free call path
        self._cells.clear()

    def _enter_net(self, path, cell, inputs):
        self._next_step(self._calls)
        self._calls += 1
        self._stack[:] = [path]

    def _enter(self, path, cell, inputs):
        self._stack.append(path)

    def _exit(self, path, cell, inputs, outputs):
        stack = self._stack
        if stack and stack[-1] is path:
            stack.pop()
        if not self._armed or outputs is None:
            return
        # nodes made outside the op path (a custom bprop, hook boundaries) are dated here
        origin = None
        for t in outputs if isinstance(outputs, (tuple, list)) else (outputs,):
            if isinstance(t, Tensor) and t._node is not None and t._node.origin is None:
                if origin is None:
                    origin = (*_caller(), path)
                t._node.origin = origin

    def _next_step(self, step):
        self._step = step
        self._known = {k: r for k, r in self._known.items() if r() is not None}
        if self._enabled:
            self._arm()

    def _arm(self):
        if self._step % self.every:
            self._disarm()
            return
        self._armed = True
        _function._watch = self._forward
        _engine._watch = self._backward if self.backward else None

    def _disarm(self):
        self._armed = False
        if getattr(_function._watch, '__self__', None) is self:
            _function._watch = None
        if getattr(_engine._watch, '__self__', None) is self:
            _engine._watch = None

    # ----------------------------------------------------------------- observers
    def _forward(self, op, arrays, out, node):
        """Every op's outputs: record where its node was made, check the values."""
        if self._in_backward:
            return
        stack = self._stack
        if node is not None:
            node.origin = (*_caller(), stack[-1] if stack else None)
        if type(out) is tuple:
            if all(_finite(t._data) for t in out):
                return
            outs = [t._data for t in out]
        elif _finite(out._data):
            return
        else:
            outs = [out._data]
        self._forward_anomaly(op, arrays, outs, node)

    def _forward_anomaly(self, op, arrays, outs, node):
        nan, pos, neg = _counts(outs)
        mask = self._mask
        found = ((1 if nan else 0) | (2 if pos or neg else 0)) & mask
        for a in outs:
            if _kinds(a, 3):
                self._known[id(a)] = weakref.ref(a)
        if not found:
            return
        had = 0
        entry = None
        for i, a in enumerate(arrays):
            k = _kinds(a, mask)
            if k:
                had |= k
                if entry is None and not self._is_known(a):
                    entry = i
        if not found & ~had:
            if entry is None:
                return          # passed on from a value a watched op made: already seen
            self._known[id(arrays[entry])] = weakref.ref(arrays[entry])
        else:
            entry = None
        stack = self._stack
        if node is not None:
            file, line, cell = node.origin
        else:
            (file, line), cell = _caller(), stack[-1] if stack else None
        # an op run by a tensor hook during backward (outside any backward rule)
        direction = 'backward' if _inside(_engine.run_backward.__code__) else 'forward'
        self._emit(AnomalyReport(direction, op.name, cell, self._step, _where(file, line),
                                 tuple(np.shape(a) for a in arrays),
                                 tuple(np.shape(a) for a in outs), nan, pos, neg, entry),
                   file, line)

    def _backward(self, node, gys, create_graph):
        """Run one node's backward rule, then check the gradients it returned."""
        self._in_backward += 1
        try:
            gxs = _engine._call_backward(node, gys, create_graph, Tensor)
        finally:
            self._in_backward -= 1
        for g in gxs:
            if g is not None and not _finite(g._data if isinstance(g, Tensor) else g):
                self._backward_anomaly(node, gys, gxs)
                break
        return gxs

    def _backward_anomaly(self, node, gys, gxs):
        outs = [g._data if isinstance(g, Tensor) else g for g in gxs if g is not None]
        ins = [g._data if isinstance(g, Tensor) else g for g in gys if g is not None]
        nan, pos, neg = _counts(outs)
        found = ((1 if nan else 0) | (2 if pos or neg else 0)) & self._mask
        had = 0
        for a in ins:
            had |= _kinds(a, self._mask)
        if not found & ~had:
            return              # passed on from an incoming gradient
        file, line, cell = node.origin or (None, None, None)
        self._emit(AnomalyReport('backward', node.op.name, cell, self._step, _where(file, line),
                                 tuple(np.shape(a) for a in ins),
                                 tuple(np.shape(a) for a in outs), nan, pos, neg),
                   file, line)

    def _is_known(self, a):
        ref = self._known.get(id(a))
        return ref is not None and ref() is a

    def _emit(self, report, file, line):
        allow = self.allow
        if allow is not None:
            if callable(allow):
                if allow(report):
                    return
            elif (report.nan_count == 0 or not self._mask & 1) and \
                    (report.posinf_count == 0 or not self._mask & 2) and \
                    (report.op in allow or report.cell in allow):
                return
        self.reports.append(report)
        self._disarm()          # the first anomaly of the step: the rest follows from it
        if self.action == 'raise':
            raise AnomalyError(report)
        if self.action == 'warn':
            warnings.warn_explicit(str(report), AnomalyWarning, file or '<nan_guard>', line or 0)


def _allow_rule(allow):
    if allow is None or callable(allow):
        return allow
    if isinstance(allow, str):
        return frozenset((allow,))
    try:
        names = frozenset(allow)
    except TypeError:
        names = None
    if names is None or not all(isinstance(n, str) for n in names):
        raise TypeError(f"nan_guard: allow must be a callable or op names and cell paths "
                        f"(str), got {allow!r}")
    return names


def _finite(a):
    """Whether every element of ``a`` is finite; integers and booleans always are."""
    kind = a.dtype.kind
    if kind != 'f' and kind != 'c':
        return True
    if a.size < _SMALL or kind == 'c' or a.dtype.itemsize < 4:
        return bool(np.isfinite(a).all())
    flat = a.ravel('K')     # a view for contiguous and transposed arrays
    with np.errstate(over='ignore', invalid='ignore'):
        s = np.dot(flat, flat)
    # the sum of squares is finite only if every element is; if it overflowed, look closer
    return math.isfinite(s) or bool(np.isfinite(a).all())


def _kinds(a, mask):
    """Bit 1 if ``a`` holds a NaN, bit 2 if an Inf, of those in ``mask``."""
    if _finite(a):
        return 0
    return ((1 if mask & 1 and np.isnan(a).any() else 0)
            | (2 if mask & 2 and np.isinf(a).any() else 0))


def _counts(arrays):
    nan = pos = neg = 0
    for a in arrays:
        kind = a.dtype.kind
        if kind == 'f':
            nan += int(np.count_nonzero(np.isnan(a)))
            pos += int(np.count_nonzero(a == np.inf))
            neg += int(np.count_nonzero(a == -np.inf))
        elif kind == 'c':
            nan += int(np.count_nonzero(np.isnan(a)))
            pos += int(np.count_nonzero(np.isinf(a)))
    return nan, pos, neg


# frames in these files are the framework running an op; the first frame outside is the source
_PKG = os.path.dirname(os.path.dirname(__file__))
_INTERNAL = tuple(os.path.join(_PKG, p) for p in (
    'autograd' + os.sep, 'ops' + os.sep, 'hooks' + os.sep, 'debug' + os.sep, '_tensor.py',
    '_tensor_methods.py', os.path.join('nn', 'cell.py')))
_internal = {}


def _caller():
    """``(file, line)`` of the innermost frame outside the framework's op machinery."""
    f = sys._getframe(1)
    while f is not None:
        name = f.f_code.co_filename
        skip = _internal.get(name)
        if skip is None:
            skip = _internal[name] = name.startswith(_INTERNAL)
        if not skip:
            return name, f.f_lineno
        f = f.f_back
    return None, None


def _inside(code):
    """Whether a frame running ``code`` is on the stack."""
    f = sys._getframe(1)
    while f is not None:
        if f.f_code is code:
            return True
        f = f.f_back
    return False


def _where(file, line):
    return f"{file}:{line}" if file is not None else None
