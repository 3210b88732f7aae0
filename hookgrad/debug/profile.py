"""profile: time and call count of every op, per op type and per cell, forward and backward.

An op observer (hookgrad/autograd/observer.py): it times each op's forward and each backward
rule where the op runs, in the thread that turned it on. Ops that a backward rule runs while
recording a higher-order gradient are part of that rule's time; they appear in the trace, not
twice in the tables.
"""
import json
import os
import threading

from ..autograd.observer import OpObserver
from ..kernels import conv_plan as _conv_plan
from .tables import TextTable

__all__ = ['profile', 'ProfileTable']

_PHASES = ('forward', 'backward')
# The passes whose kernel each convolution op's forward (and Convolution2D's backward) ran:
# see hookgrad/kernels/conv_plan.py.
_KERNEL_PASSES = {('Convolution2D', 'forward'): ('forward',),
                  ('Convolution2D', 'backward'): ('input', 'filter'),
                  ('Conv2DBackpropInput', 'forward'): ('input',),
                  ('Conv2DBackpropFilter', 'forward'): ('filter',)}


class profile(OpObserver):
    """Time and count every op, forward and backward, per op type and per cell.

    Use it in a ``with`` block around the steps to measure (or ``enable()`` / ``disable()``).
    ``by_op()`` and ``by_cell()`` give tables (print them, or read their ``rows``);
    ``export_chrome_trace(path)`` writes every timed call as a Chrome trace (open it in
    ``chrome://tracing`` or https://ui.perfetto.dev). ``by_kernel()`` shows which kernel each
    convolution ran, per cell and pass (Winograd, im2col, ...: chosen per layer shape by
    hookgrad/kernels/conv_plan.py); the trace carries it too.

    Times are those of the ops themselves, measured around each op's forward and each backward
    rule: Python code between ops (and the profiler's own bookkeeping) is not counted. Per cell,
    an op counts for the innermost cell executing it and, in ``by_cell``, for every cell around
    it; a backward rule counts for the cell that created its node in forward. The nodes of
    cell boundaries (``CellBoundary``) and of HookBackward run backward hooks, so their time is
    that of the hooks. On a GPU, where kernels run asynchronously, an op's time is that of
    launching its kernels: the profiler waits for none and reads nothing from the device.

    Args:
        trace_limit (int): the most calls kept for the trace (the tables count every call).
            Default 1,000,000.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([1.0, 2.0], requires_grad=True)
    >>> with ms.debug.profile() as prof:
    ...     (x * x).sum().backward()
    >>> sorted(r.name for r in prof.by_op().rows)
    ['Mul', 'ReduceSum']
    >>> prof.by_op()['Mul'].calls
    {'forward': 1, 'backward': 1}
    """

    def __init__(self, *, trace_limit=1_000_000):
        if not isinstance(trace_limit, int) or isinstance(trace_limit, bool) or trace_limit < 0:
            raise ValueError(f"profile: trace_limit must be a non-negative int, got "
                             f"{trace_limit!r}")
        self.trace_limit = trace_limit
        self.events = []        # (phase, op name, cell path, start, seconds, nested, kernel)
        self._kernels = {}      # (cell path, op name, kernel) -> [calls, seconds] per phase
        self._ops = {}          # op name -> [calls, seconds] per phase
        self._cells = {}        # cell path -> [calls, seconds] per phase (innermost cell only)
        self._origin = None     # perf_counter at the first event
        self._tid = None        # the observed thread

    def enable(self):
        _conv_plan.take()           # kernels recorded before profiling are not this run's
        return super().enable()

    def on_forward(self, call):
        self._add(call.phase if call.rule is None else None, call, 'forward')

    def on_backward(self, call):
        self._add('backward', call, 'backward')

    def _add(self, phase, call, hook):
        """Count a call under ``phase`` (None: inside a backward rule, kept for the trace only)."""
        path = call.cell_path
        seconds = call.seconds
        kernel = None
        passes = _KERNEL_PASSES.get((call.name, hook))
        if passes is not None:
            ran = _conv_plan.take(passes)
            kernel = ', '.join(f'{p}={ran[p]}' for p in passes if p in ran) or None
        if phase is not None:
            k = 0 if phase == 'forward' else 1
            tables = ((self._ops, call.name), (self._cells, path))
            if kernel is not None:
                tables += ((self._kernels, (path, call.name, kernel)),)
            for table, key in tables:
                entry = table.get(key)
                if entry is None:
                    entry = table[key] = [[0, 0.0], [0, 0.0]]
                entry[k][0] += 1
                entry[k][1] += seconds
        if len(self.events) < self.trace_limit:
            if self._origin is None:
                self._origin, self._tid = call.start, threading.get_ident()
            self.events.append((call.phase, call.name, path, call.start, seconds, phase is None,
                                kernel))

    # ----------------------------------------------------------------- results
    @property
    def total_seconds(self):
        """The time of every counted call, forward and backward."""
        return sum(p[1] for entry in self._ops.values() for p in entry)

    def by_op(self):
        """A ``ProfileTable`` with one row per op type, the most time first."""
        rows = [ProfileRow(name, entry) for name, entry in self._ops.items()]
        rows.sort(key=lambda r: -r.total)
        return ProfileTable('Op', rows, self.total_seconds)

    def by_cell(self):
        """A ``ProfileTable`` with one row per cell path, in tree order; each row counts the ops
        of that cell and of every cell inside it (``(no cell)``: ops outside every cell)."""
        totals = {}
        for path, entry in self._cells.items():
            key = '(no cell)' if path is None else path
            prefixes = [key] if path is None else _prefixes(path)
            for prefix in prefixes:
                t = totals.setdefault(prefix, [[0, 0.0], [0, 0.0]])
                for k in range(2):
                    t[k][0] += entry[k][0]
                    t[k][1] += entry[k][1]
        rows = [ProfileRow(path, entry) for path, entry in sorted(totals.items(), key=_tree_key)]
        return ProfileTable('Cell', rows, self.total_seconds)

    def by_kernel(self):
        """A ``ProfileTable`` with one row per convolution cell, op and kernel, as
        ``'<cell>: Convolution2D forward=winograd'`` (a backward row names the input and weight
        gradients' kernels), in tree order."""
        rows = [ProfileRow(f"{'(no cell)' if path is None else path}: {op} {kernel}", entry)
                for (path, op, kernel), entry in sorted(
                    self._kernels.items(), key=lambda item: (_tree_key((item[0][0] or '', 0)),
                                                             item[0][1:]))]
        return ProfileTable('Cell: op kernels', rows, self.total_seconds)

    def export_chrome_trace(self, path):
        """Write the kept calls as a Chrome trace (JSON): one complete event per op forward or
        backward rule, named by the op, with its phase as category and its cell as argument."""
        origin = self._origin or 0.0
        pid = os.getpid()
        tid = self._tid
        events = [{'name': name, 'cat': phase, 'ph': 'X', 'pid': pid, 'tid': tid,
                   'ts': (start - origin) * 1e6, 'dur': seconds * 1e6,
                   'args': {'cell': cell, 'inside_backward_rule': nested,
                            **({'kernel': kernel} if kernel else {})}}
                  for phase, name, cell, start, seconds, nested, kernel in self.events]
        with open(path, 'w') as f:
            json.dump({'traceEvents': events, 'displayTimeUnit': 'ms'}, f)

    def __str__(self):
        return str(self.by_op())

    def __repr__(self):
        calls = sum(c for entry in self._ops.values() for c, _ in entry)
        return (f"profile(calls={calls}, seconds={self.total_seconds:.6f}, "
                f"observing={self.observing})")


def _prefixes(path):
    parts = path.split('.')
    return ['.'.join(parts[:i]) for i in range(1, len(parts) + 1)]


def _tree_key(item):
    path = item[0]
    return (path == '(no cell)', path.split('.'))


class ProfileRow:
    """One row of a ProfileTable: ``name`` (op type or cell path), ``calls`` and ``seconds``
    per phase (dicts keyed 'forward' and 'backward') and ``total`` seconds."""

    __slots__ = ('name', 'calls', 'seconds', 'total')

    def __init__(self, name, entry):
        self.name = name
        self.calls = {phase: entry[k][0] for k, phase in enumerate(_PHASES)}
        self.seconds = {phase: entry[k][1] for k, phase in enumerate(_PHASES)}
        self.total = entry[0][1] + entry[1][1]

    def __repr__(self):
        return (f"ProfileRow({self.name!r}, calls={self.calls}, total={self.total * 1e3:.3f} ms)")


class ProfileTable(TextTable):
    """Profile rows as a table (``str()`` or ``print()``); ``table[name]`` is one row."""

    __slots__ = ('key', 'rows', 'total_seconds')
    right = frozenset({'Fwd calls', 'Fwd ms', 'Bwd calls', 'Bwd ms', 'Total ms', '%'})

    def __init__(self, key, rows, total_seconds):
        self.key = key
        self.rows = rows
        self.total_seconds = total_seconds

    def __getitem__(self, name):
        for row in self.rows:
            if row.name == name:
                return row
        raise KeyError(f"profile: no row {name!r}; the rows are {[r.name for r in self.rows][:20]}")

    def table(self):
        whole = self.total_seconds or 1.0
        body = [[r.name, str(r.calls['forward']), _ms(r.seconds['forward']),
                 str(r.calls['backward']), _ms(r.seconds['backward']), _ms(r.total),
                 f"{100 * r.total / whole:.1f}"] for r in self.rows]
        total = None
        if self.key == 'Op':
            total = ['Total', str(sum(r.calls['forward'] for r in self.rows)),
                     _ms(sum(r.seconds['forward'] for r in self.rows)),
                     str(sum(r.calls['backward'] for r in self.rows)),
                     _ms(sum(r.seconds['backward'] for r in self.rows)),
                     _ms(self.total_seconds), '100.0']
        columns = (self.key, 'Fwd calls', 'Fwd ms', 'Bwd calls', 'Bwd ms', 'Total ms', '%')
        return columns, body, total


def _ms(seconds):
    return f"{seconds * 1e3:.3f}"
