"""nan_guard: find the op that produced the first NaN or Inf of a step, forward or backward.

While a guard is on, every op's outputs and every backward rule's gradients are checked. An op
is reported when it *produced* a NaN (or Inf): its output holds one and none of its inputs did,
so ops and cells that merely pass a value on are never blamed. A forward op that receives a
non-finite input which no watched op produced (data, a parameter, a constant such as
``masked_fill``'s ``-inf``) is reported too, as the place where that value entered.

The guard is an op observer (hookgrad/autograd/observer.py): it sees the ops of the thread that
turned it on, with the executing cell and the source line that ran each op or created each
node. With a net, one forward pre-hook on the net counts the steps. See docs/debugging.md.

On a GPU the checks run there: each op's arrays are reduced on the device to NaN and Inf counts,
which stay there with what the report needs (op, cell, line, shapes), and the step's counts are
read in one host read when the step ends (at the next call of the net, ``step()``, ``flush()``
or when the guard is turned off). The report is then the one the CPU gives, raised or warned
at that point rather than at the op.
"""
import dataclasses
import threading
import warnings
import weakref

import numpy as np

from ..autograd.observer import OpObserver
from ..hooks.cell_hooks import missing_init
from ..hooks.handle import in_this_thread
from ..kernels import backend
from ..nn.cell import Cell
from .nonfinite import counts as _counts, device_counts as _device_counts, finite as _finite, \
    kinds as _kinds, read_counts as _read_counts

__all__ = ['nan_guard', 'AnomalyReport', 'AnomalyError', 'AnomalyWarning']

_CHECKS = {'both': 3, 'nan': 1, 'inf': 2}       # bit 1: NaN, bit 2: Inf
_ACTIONS = ('raise', 'warn', 'record')
_PENDING = 1 << 14  # device arrays counted before the guard reads their counts unasked


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
        rank: the process's rank when several processes run (data parallel), else None; the
            message then begins with ``rank N:``.
        count: how many times this anomaly occurred: the same op, cause (NaN or Inf, produced
            or entering through the same input), cell and line, in this step or later ones. The
            other fields are the first occurrence's; the message then ends with ``(x N, ...)``.
        last_step: the step of the latest occurrence (``step`` while ``count`` is 1).
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
    rank: object = dataclasses.field(default_factory=lambda: _rank())
    count: int = 1
    last_step: object = None

    def __post_init__(self):
        if self.last_step is None:
            object.__setattr__(self, 'last_step', self.step)

    def cause(self):
        """What makes two reports the same anomaly: everything but the step, the shapes and
        the numbers of values."""
        return (self.direction, self.op, self.cell, self.source, self.input_index,
                self.nan_count > 0, self.posinf_count > 0, self.neginf_count > 0, self.rank)

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
        rank = '' if self.rank is None else f"rank {self.rank}: "
        again = '' if self.count == 1 else \
            f" (x {self.count}, steps {self.step} to {self.last_step})"
        return (f"{rank}nan_guard: {counts} {what}{where}, {self.direction} pass of step "
                f"{self.step}; {shapes}{line}{again}")


def _shapes(shapes):
    return ', '.join(str(s) for s in shapes) or '()'


class nan_guard(OpObserver):
    """Report the first NaN or Inf of each step at the op that produced it.

    Use it as a context manager (``with nan_guard(net) as guard:``) or as a switch
    (``guard.enable()`` ... ``guard.disable()``). While it is on, every op the thread runs has its
    outputs checked (an exact test: a dot product of the output with itself, finite exactly when
    every element is, unless it overflows; then element by element), and with ``backward`` every
    gradient a backward rule returns. The first NaN or Inf found in a step is reported as an
    ``AnomalyReport``, appended to ``guard.reports``, and raised or warned as ``action`` says;
    nothing more is checked until the next step. An anomaly met again in a later step (the same
    op, cause, cell and line) is counted in its first report (``count``, ``last_step``) rather
    than reported anew: it is warned once, and raised each time with ``action='raise'``. It
    watches only the thread that turned it on; off, it costs nothing. A guard whose net has been
    deleted turns itself off. On a GPU the checks run on the device and are read once per step,
    when the step ends (``flush``).

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

    record_source = True    # backward reports name the line that created the node

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
        self._first = {}            # AnomalyReport.cause() -> the report counting it
        self._mask = _CHECKS[check]
        self._step = 0
        self._calls = 0             # calls of the net so far
        self._paths = {}            # id(cell) -> its path in the net
        self._handle = None         # the forward pre-hook on the net that counts steps
        self._known = {}            # id -> weakref of non-finite arrays that watched ops made
        self._armed = False
        self._deferred = []         # device op records of the step, checked by flush()
        self._entries = []          # their arrays' [NaN, +Inf, -Inf] counts (device vectors)
        self._refs = []             # a weak reference to each counted array
        self._entry_of = {}         # id(array) -> (weakref, index in _entries)

    # ----------------------------------------------------------------- switch
    @property
    def enabled(self):
        """Whether the guard is on."""
        return self.observing

    @property
    def current_step(self):
        """The number of the step being run (from 0)."""
        return self._step

    def enable(self):
        """Turn the guard on in this thread; returns the guard (already on: nothing changes).

        Raises:
            RuntimeError: the net no longer exists, a cell of the net cannot take hooks, or the
                guard is on in another thread.
        """
        if self.observing:
            return super().enable()
        if self._net is not None:
            net = self._net()
            if net is None:
                raise RuntimeError("nan_guard: the guarded net no longer exists")
            self._handle = net.register_forward_pre_hook(in_this_thread(self._enter_net),
                                                         prepend=True)
            try:
                self._map_cells(net)
            except Exception:
                self._handle.remove()
                raise
        super().enable()
        self._arm()
        return self

    def disable(self):
        """Turn the guard off: remove its hook and stop observing. Reports are kept. Ops run on
        a device are checked first (see ``flush``), so this may raise or warn."""
        if not self.observing:
            return
        pending = self._take_pending()
        super().disable()
        if self._handle is not None:
            self._handle.remove()
            self._handle = None
        self._paths.clear()
        try:
            self._replay(pending, disarm=False)
        finally:
            self._known.clear()
            self._armed = False

    def __exit__(self, exc_type, exc, tb):
        try:
            self.disable()
        except AnomalyError:
            if exc_type is None:
                raise               # else the report is in ``reports``; the error in flight wins
        return False

    def flush(self):
        """Check the ops run on a device since the last check, reading their NaN and Inf
        counts in one host read; a report is raised, warned or recorded as ``action`` says.
        The CPU's ops are checked as they run, so there it does nothing. Steps end with a
        check (see the module docstring); call it to learn of a step's anomaly earlier."""
        self._replay(self._take_pending(), disarm=True)

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
                f"backward={self.backward}, enabled={self.enabled}, "
                f"reports={len(self.reports)})")

    # ----------------------------------------------------------------- cells and steps
    def _map_cells(self, net):
        paths = {}
        for path, cell in net.cells_and_names():
            if '_params' not in cell.__dict__:
                raise RuntimeError(missing_init(cell))
            paths[id(cell)] = path
        self._paths = paths

    def _enter_net(self, net, inputs):
        self._map_cells(net)        # the net may have changed since the last step
        self._next_step(self._calls)
        self._calls += 1

    def _next_step(self, step):
        pending = self._take_pending() if step != self._step else ((), (), ())
        self._step = step
        self._known = {k: r for k, r in self._known.items() if r() is not None}
        if self.observing:
            self._arm()
        self._replay(pending, disarm=False)

    def _arm(self):
        self._armed = self._step % self.every == 0

    def _cell_of(self, call):
        """The path in the net of the innermost cell of the net running the call, or None."""
        paths = self._paths
        for cell in call.cells():
            path = paths.get(id(cell))
            if path is not None:
                return path
        return None

    def _gone(self):
        """Whether the guarded net has been deleted (the guard then turns itself off, from the
        thread that turned it on: a copied context elsewhere only stops checking)."""
        if self._net is not None and self._net() is None:
            self._take_pending()
            if self._owner == threading.get_ident():
                self.disable()
            return True
        return False

    # ----------------------------------------------------------------- observers
    def on_forward(self, call):
        """Every op's outputs: check the values (ops inside a backward rule are checked as
        that rule's gradients)."""
        if not self._armed or call.rule is not None or self._gone():
            return
        outs = call.outputs
        if outs and type(outs[0]) is not np.ndarray and backend.is_device_array(outs[0]):
            self._defer('forward', call, call.inputs, outs)
            return
        if all(_finite(a) for a in outs):
            return
        self._forward_anomaly(call, outs)

    def _forward_anomaly(self, call, outs):
        arrays = call.inputs
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
        source = call.source
        self._emit(AnomalyReport(call.phase, call.name, self._cell_of(call), self._step,
                                 _where(source), tuple(np.shape(a) for a in arrays),
                                 tuple(np.shape(a) for a in outs), nan, pos, neg, entry),
                   source)

    def on_backward(self, call):
        """Every backward rule: check the gradients it returned."""
        if not (self._armed and self.backward) or self._gone():
            return
        outs = [g for g in call.outputs if g is not None]
        if outs and type(outs[0]) is not np.ndarray and backend.is_device_array(outs[0]):
            self._defer('backward', call, [g for g in call.inputs if g is not None], outs)
            return
        for g in call.outputs:
            if g is not None and not _finite(g):
                self._backward_anomaly(call)
                break

    def _backward_anomaly(self, call):
        outs = [g for g in call.outputs if g is not None]
        ins = [g for g in call.inputs if g is not None]
        nan, pos, neg = _counts(outs)
        found = ((1 if nan else 0) | (2 if pos or neg else 0)) & self._mask
        had = 0
        for a in ins:
            had |= _kinds(a, self._mask)
        if not found & ~had:
            return              # passed on from an incoming gradient
        source = call.source
        self._emit(AnomalyReport('backward', call.name, self._cell_of(call), self._step,
                                 _where(source), tuple(np.shape(a) for a in ins),
                                 tuple(np.shape(a) for a in outs), nan, pos, neg),
                   source)

    def _is_known(self, a):
        ref = self._known.get(id(a))
        return ref is not None and ref() is a

    def _emit(self, report, source, disarm=True):
        """Report unless allowed; returns whether it was reported (or raises)."""
        allow = self.allow
        if allow is not None:
            if callable(allow):
                if allow(report):
                    return False
            elif (report.nan_count == 0 or not self._mask & 1) and \
                    (report.posinf_count == 0 or not self._mask & 2) and \
                    (report.op in allow or report.cell in allow):
                return False
        if disarm:
            self._armed = False     # the first anomaly of the step: the rest follows from it
        again = self._count_again(report)
        if again is not None:
            if self.action == 'raise':
                raise AnomalyError(again)
            return True
        self.reports.append(report)
        self._first[report.cause()] = report
        if self.action == 'raise':
            raise AnomalyError(report)
        if self.action == 'warn':
            file, line = source or ('<nan_guard>', 0)
            warnings.warn_explicit(str(report), AnomalyWarning, file, line)
        return True

    def _count_again(self, report):
        """The first report of ``report``'s anomaly, its count raised, in ``reports``; None when
        it is new (or its first report is no longer in ``reports``)."""
        first = self._first.get(report.cause())
        if first is None:
            return None
        for i, r in enumerate(self.reports):
            if r is first:
                again = dataclasses.replace(first, count=first.count + 1,
                                            last_step=report.step)
                self.reports[i] = self._first[report.cause()] = again
                return again
        return None

    # ----------------------------------------------------------------- device ops
    def _defer(self, direction, call, ins, outs):
        """Record a device op: its arrays' counts are computed there and read by ``flush``."""
        ins_at = tuple(self._entry(a) for a in ins)
        outs_at = tuple(self._entry(a) for a in outs)
        self._deferred.append((direction, call.name, self._cell_of(call), self._step,
                               call.source, tuple(a.shape for a in ins),
                               tuple(a.shape for a in outs), ins_at, outs_at))
        if len(self._entries) >= _PENDING:
            self.flush()

    def _entry(self, a):
        """The index of ``a``'s counts among the pending ones (None for integers)."""
        kind = a.dtype.kind
        if kind not in 'fV' and kind != 'c':
            return None
        hit = self._entry_of.get(id(a))
        if hit is not None and hit[0]() is a:
            return hit[1]
        ref = weakref.ref(a)
        index = len(self._entries)
        self._entries.append(_device_counts(a))
        self._refs.append(ref)
        self._entry_of[id(a)] = (ref, index)
        return index

    def _take_pending(self):
        """The pending device records and their counts; the guard starts afresh."""
        pending = self._deferred, self._entries, self._refs
        self._deferred, self._entries, self._refs, self._entry_of = [], [], [], {}
        return pending

    def _replay(self, pending, disarm):
        """Read the counts of pending device ops (one host read) and report their first
        anomaly as the CPU's checks would have."""
        records, entries, refs = pending
        if not records:
            return
        counts = _read_counts(entries)
        mask = self._mask
        seen = set()                # entries that watched ops made non-finite

        def kinds(i, bits):
            if i is None:
                return 0
            nan, pos, neg = counts[i]
            return ((1 if bits & 1 and nan else 0) | (2 if bits & 2 and (pos or neg) else 0))

        def known(i):
            return i in seen or self._is_known(refs[i]())

        def remember(i):
            seen.add(i)
            a = refs[i]()
            if a is not None:
                self._known[id(a)] = refs[i]

        for direction, name, cell, step, source, in_shapes, out_shapes, ins, outs in records:
            nan = sum(int(counts[i][0]) for i in outs if i is not None)
            pos = sum(int(counts[i][1]) for i in outs if i is not None)
            neg = sum(int(counts[i][2]) for i in outs if i is not None)
            found = ((1 if nan else 0) | (2 if pos or neg else 0)) & mask
            entry = None
            if direction == 'forward':
                for i in outs:
                    if kinds(i, 3):
                        remember(i)
                if not found:
                    continue
                had = 0
                for j, i in enumerate(ins):
                    k = kinds(i, mask)
                    if k:
                        had |= k
                        if entry is None and not known(i):
                            entry = j
                if not found & ~had:
                    if entry is None:
                        continue
                    remember(ins[entry])
                else:
                    entry = None
            else:
                had = 0
                for i in ins:
                    had |= kinds(i, mask)
                if not found & ~had:
                    continue
            report = AnomalyReport(direction, name, cell, step, _where(source), in_shapes,
                                   out_shapes, nan, pos, neg, entry)
            if self._emit(report, source, disarm):
                return


def _rank():
    """This process's rank when several processes run, else None."""
    from ..communication import _world
    world = _world.world()
    return world.rank if world is not None and world.size > 1 else None


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


def _where(source):
    return f"{source[0]}:{source[1]}" if source is not None else None
