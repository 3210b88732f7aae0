"""``StatsRecorder``: statistics of every cell's inputs, outputs and gradients, step by step.

Built on the public hooks only: a forward hook, a backward pre-hook (grad_output) and a backward
hook (grad_input) on each selected cell, a forward pre-hook on the network (step boundaries and
weight snapshots), and a tensor hook on each selected trainable parameter (gradient norms).
The recorder holds the network and its parameters through weak references and keeps no tensor:
each array is reduced to a few numbers at once (five NumPy reductions per cache-sized block:
dot, sum, min, max, comparison with zero), and an array seen twice in a step (one cell's output
is the next one's input) is measured once: hookgrad's ops never write into the arrays of
tensors on the tape.

On a GPU the statistics are computed there and kept there until the step ends; ``step()`` then
reads the whole step's numbers in one host read.
"""
import fnmatch
import math
import re
import weakref

import numpy as np

from .._frames import warn
from .._tensor import Tensor
from ..nn.cell import Cell
from .stats_report import CELL_KINDS, STATS, CALLS, PARAM_STATS, StatsHistory
from ..hooks.handle import in_this_thread
from ..kernels import backend
from .stats_measure import _derive, _grad_device, _measure, _measure_device, _pool, _read

_INPUT, _OUTPUT, _GRAD_INPUT, _GRAD_OUTPUT = range(4)
_xp = backend.array_module
_NK = len(CELL_KINDS)


class StatsRecorder:
    """Record per-step statistics of the selected cells' inputs, outputs and gradients.

    For every selected cell and recorded step: count, mean, std, min, max, abs-max, fraction
    of zeros, NaN and Inf counts and L2 norm of its floating-point inputs, outputs, grad_input
    and grad_output (several tensors, or several calls of the cell in one step, are pooled);
    for every trainable parameter of the selected cells: the gradient norm, the weight norm
    and the update-to-weight ratio ``||w_after - w_before|| / ||w_before||``. Only the thread
    that created the recorder is recorded.
    Mean, std, min, max, abs-max and the norm are over the finite values; ``nan`` and ``inf``
    count the others. A step's rows are kept in ``history`` (a ``StatsHistory``).

    A step ends when ``step()`` is called (after the optimizer) or, with ``auto_step=True``,
    when the network is called again; ``close()`` ends the step in progress. The loss (and the
    learning rate) go with ``step(loss=..., lr=...)`` or ``log``. Use it as a
    context manager, or call ``close()``: every hook is removed, even after an exception.
    The hooks hold the recorder weakly: a recorder dropped without ``close()`` removes its
    hooks when it is garbage-collected, with a ``ResourceWarning``.

    Args:
        net: the network (a Cell).
        include: glob pattern(s) (``fnmatch``) or compiled ``re`` pattern(s) (``search``) of
            the cell names to record, as ``net.cells_and_names()`` gives them (``''`` is the
            network itself, shown as ``(root)``). Default: every cell.
        exclude: patterns of cell names to leave out.
        types: a Cell subclass or tuple of them; only cells of these types are recorded.
        every: record every n-th step (steps 0, n, 2n, ...). Default 1.
        auto_step: end a step at each call of ``net`` instead of at ``step()``.
        kinds: which of 'input', 'output', 'grad_input', 'grad_output' to record. Default all.
            Recording 'grad_input' puts a backward hook on each cell, which makes hookgrad
            compute gradients w.r.t. inputs that do not require them (the images, for the
            first layer); leave it out to save that backward pass.
        params: record gradient norms and update ratios of the selected cells' trainable
            parameters (their sub-cells' included). This keeps one copy of those weights.
        keep: keep only the last ``keep`` recorded steps (None keeps all).

    Raises:
        TypeError: for a net that is not a Cell, or filters of the wrong type.
        ValueError: for a pattern that matches no cell, an empty selection, or a bad
            ``every``, ``keep`` or ``kinds``.

    >>> import hookgrad as ms
    >>> net = ms.nn.SequentialCell(ms.nn.Dense(3, 2), ms.nn.ReLU())
    >>> with StatsRecorder(net) as rec:
    ...     _ = ms.grad(lambda x: net(x).sum())(ms.Tensor([[1.0, -2.0, 3.0]]))
    ...     rec.step()
    >>> rec.history['0', 'output']['count']
    array([2.])
    """

    def __init__(self, net, include=None, exclude=None, types=None, every=1, auto_step=False,
                 kinds=CELL_KINDS, params=True, keep=None):
        if not isinstance(net, Cell):
            raise TypeError(f"StatsRecorder: net must be a Cell, got {type(net).__name__}")
        include = _patterns('include', include)
        exclude = _patterns('exclude', exclude)
        types = _types(types)
        _check_count('every', every)
        if keep is not None:
            _check_count('keep', keep)
        if isinstance(kinds, str) or not isinstance(kinds, (tuple, list)) or \
                any(k not in CELL_KINDS for k in kinds):
            raise ValueError(f"StatsRecorder: kinds must be a tuple of some of {CELL_KINDS}, "
                             f"got {kinds!r}")
        for name, flag in (('auto_step', auto_step), ('params', params)):
            if not isinstance(flag, bool):
                raise TypeError(f"StatsRecorder: {name} must be True or False, got {flag!r}")
        named = list(net.cells_and_names())
        selected = _select(named, include, exclude, types, net)
        plist = []
        if params:
            seen = set()
            for name, cell in selected:
                for pname, p in cell.parameters_and_names(name_prefix=name):
                    if p.requires_grad and id(p) not in seen:
                        seen.add(id(p))
                        plist.append((pname, p))
        self.history = StatsHistory([n for n, _ in selected], [n for n, _ in plist],
                                    [type(c).__name__ for _, c in selected], every, keep)
        self.every = every
        self.auto_step = auto_step
        self.kinds = tuple(kinds)
        self._params = [weakref.ref(p) for _, p in plist]
        self._snapshots = [None] * len(plist)        # weights at the start of the step
        self._handles = []
        self._finalizer = weakref.finalize(self, _collected, self._handles, type(net).__name__)
        self._closed = False
        self._step = 0
        self._started = False
        self._after_step = False    # step() ran and the network has not been called since
        self._reset()
        try:
            self._handles.append(net.register_forward_pre_hook(in_this_thread(_NetCallHook(self))))
            for i, (_, cell) in enumerate(selected):
                self._handles.append(cell.register_forward_hook(in_this_thread(
                    _ForwardHook(self, i, 'input' in kinds, 'output' in kinds))))
                self._handles.append(cell.register_backward_pre_hook(in_this_thread(
                    _GradOutputHook(self, i, 'grad_output' in kinds))))
                if 'grad_input' in kinds:
                    self._handles.append(cell.register_backward_hook(
                        in_this_thread(_GradInputHook(self, i))))
            for j, (_, p) in enumerate(plist):
                self._handles.append(p.register_hook(in_this_thread(_ParamGradHook(self, j))))
        except BaseException:
            self.close()
            raise

    # ----------------------------------------------------------------- steps
    @property
    def current_step(self):
        """The index of the step in progress (0 before the first ``step()``)."""
        return self._step

    @property
    def recording(self):
        """Whether the step in progress is recorded (``current_step % every == 0``)."""
        return self._active

    def step(self, loss=None, lr=None):
        """End the current step: store its statistics and release what it measured.

        Call it once per training step, after the optimizer, so the update ratios see the
        new weights. Not used with ``auto_step=True``.

        Args:
            loss: the training loss of the step that ends (a number or a one-element Tensor),
                for the loss curve of the HTML report; as ``log(loss)`` before ``step()``.
            lr: its learning rate, likewise (drawn as its own panel of the report).
        """
        self._check_open('step')
        if self.auto_step:
            raise RuntimeError("StatsRecorder.step: this recorder has auto_step=True and ends "
                               "a step at each call of the network; do not call step()")
        self._log(self._step, loss, lr)
        self._finish()
        self._after_step = True

    def close(self):
        """Remove every hook, end the step in progress if it saw anything, drop the weight
        snapshots. Safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        self._finalizer.detach()
        for handle in self._handles:
            handle.remove()
        self._handles.clear()
        if self._touched or self._scalars:
            self._finish()
        self._reset()
        self._snapshots = [None] * len(self._snapshots)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def log(self, loss=None, lr=None):
        """Record the training loss and / or the learning rate of a step (every step, whatever
        ``every``): the HTML report draws them as curves. Each is a number or a one-element
        Tensor.

        They belong to the step in progress, the one whose network call computed them
        (``current_step``), except right after ``step()``: called before the network runs
        again, ``log`` files them under the step that ``step()`` just ended. So both
        ``rec.log(loss); rec.step()`` and ``rec.step(); rec.log(loss)`` file the loss of step
        k under step k. A value on a device is read when the step in progress ends, with that
        step's statistics.
        """
        self._check_open('log')
        if loss is None and lr is None:
            raise TypeError("StatsRecorder.log: give the loss, the learning rate (lr=) or both")
        self._log(self._step - 1 if self._after_step else self._step, loss, lr)

    def _log(self, step, loss, lr):
        """File ``loss`` and ``lr`` under ``step``; a one-element device Tensor waits for the
        read at the end of the step in progress."""
        for what, value in (('loss', loss), ('lr', lr)):
            if value is None:
                continue
            data = value._data if isinstance(value, Tensor) else None
            if data is not None and type(data) is not np.ndarray and data.size == 1:
                self._scalars.append((what, step, data.reshape(1).astype(np.float64)))
            else:
                self.history.log(step, **{what: value})

    # ----------------------------------------------------------------- results
    def __getitem__(self, key):
        """``rec[name, kind]``: that series as arrays (see ``StatsHistory.__getitem__``)."""
        return self.history[key]

    def report(self, **rules):
        """Dead, missing, exploding and vanishing layers; see ``StatsHistory.report``."""
        return self.history.report(**rules)

    def depth_profile(self, step=None):
        """Gradient norms across depth at a recorded step; see ``StatsHistory.depth_profile``."""
        return self.history.depth_profile(step)

    def to_json(self, path):
        """Write the recorded statistics as JSON (``load_stats`` reads them back)."""
        self.history.to_json(path)

    def to_csv(self, path):
        """Write the recorded statistics as CSV rows ``step,cell,kind,stat,value``."""
        self.history.to_csv(path)

    def plot(self, path, cells=None):
        """Draw activation and gradient statistics per layer over the steps (matplotlib); the
        layers of the report's findings in colour."""
        return self.history.plot(path, cells)

    def to_tensorboard(self, logdir, stats=None):
        """Write the statistics as TensorBoard scalars (tensorboardX); returns the file."""
        return self.history.to_tensorboard(logdir, stats)

    def __repr__(self):
        state = 'closed' if self._closed else f"step {self._step}"
        return (f"StatsRecorder({len(self.history.cells)} cells, {len(self._params)} "
                f"parameters, every={self.every}, {state}, {len(self.history)} recorded)")

    def _check_open(self, what):
        if self._closed:
            raise RuntimeError(f"StatsRecorder.{what}: the recorder is closed")

    def _reset(self):
        """Forget what the step in progress measured (accumulators and the array cache)."""
        self._acc = [None] * (len(self.history.cells) * _NK)
        self._calls = np.zeros((len(self.history.cells), len(CALLS)))
        self._grad_sq = [None] * len(self._params)
        self._pending = []          # (accumulator, device measurement): pooled at the step end
        self._grad_pending = []     # (parameter, device gradient measurement)
        self._seen = {}
        self._scalars = []          # (what, step, device value) of log: read at the step end
        self._rank = 0              # cells whose first forward call of the step has finished
        self._touched = False
        self._snapped = False
        self._active = self._step % self.every == 0 and not self._closed

    def _finish(self):
        """Store the step's rows (if it saw anything), then start the next step."""
        if not self._touched and self._scalars:
            self._store_scalars(_read([a for _, _, a in self._scalars]))
        if self._touched:
            moves = self._pool_device()
            h = self.history
            cells = np.full((len(h.cells) * _NK, len(STATS)), np.nan)
            for k, acc in enumerate(self._acc):
                if acc is not None:
                    cells[k] = _derive(acc)
            h.append(self._step, cells.reshape(len(h.cells), _NK, len(STATS)), self._calls,
                     self._param_row(moves))
        self._step += 1
        self._reset()

    def _pool_device(self):
        """Read the step's device measurements (and logged loss) in one host read and pool
        them; returns ``{parameter: (weight norm, update norm)}`` of those on a device."""
        moved = []          # (j, device vector [norm, |w_after - w_before|])
        if self._snapped:
            for j, ref in enumerate(self._params):
                snap, p = self._snapshots[j], ref()
                if snap is not None and p is not None and type(snap[0]) is not np.ndarray:
                    buf, norm = snap
                    xp = _xp(buf)
                    xp.subtract(p._data, buf, out=buf)      # the buffer is refilled next step
                    flat = buf.reshape(-1)
                    moved.append((j, xp.stack([norm, xp.sqrt(flat @ flat)]).astype(np.float64)))
        arrays = [m for _, m in self._pending] + [g for _, g in self._grad_pending] + \
            [m for _, m in moved]
        scalars = [a for _, _, a in self._scalars]
        if not arrays and not scalars:
            return {}
        values = _read(arrays + scalars)
        if scalars:
            self._store_scalars(values[len(arrays):])
        values = iter(values[:len(arrays)])
        for k, _ in self._pending:
            m = next(values).tolist()
            acc = self._acc[k]
            if acc is None:
                self._acc[k] = m
            else:
                _pool(acc, m)
        for j, _ in self._grad_pending:
            sq, nan, inf = next(values).tolist()
            old = self._grad_sq[j]
            self._grad_sq[j] = [sq, nan, inf] if old is None else \
                [old[0] + sq, old[1] + nan, old[2] + inf]
        return {j: tuple(next(values).tolist()) for j, _ in moved}

    def _store_scalars(self, values):
        """File the logged device values, read as ``values``, under their steps."""
        for (what, step, _), v in zip(self._scalars, values):
            self.history.log(step, **{what: float(v[0])})
        self._scalars = []

    def _param_row(self, moves):
        row = np.full((len(self._params), len(PARAM_STATS)), np.nan)
        for j, ref in enumerate(self._params):
            if self._grad_sq[j] is not None:
                sq, nan, inf = self._grad_sq[j]
                row[j, 0], row[j, 3], row[j, 4] = math.sqrt(sq), nan, inf
            snap = self._snapshots[j]
            p = ref()
            if j in moves:
                norm, moved = moves[j]
                row[j, 1] = norm
                row[j, 2] = moved / norm if norm > 0 else (math.inf if moved > 0 else math.nan)
            elif self._snapped and snap is not None and p is not None:
                buf, norm = snap
                np.subtract(p._data, buf, out=buf)      # the buffer is refilled next step
                flat = buf.reshape(-1)
                moved = math.sqrt(float(np.dot(flat, flat)))
                row[j, 1] = norm
                row[j, 2] = moved / norm if norm > 0 else (math.inf if moved > 0 else math.nan)
        return row

    def _on_net_call(self, cell, inputs):
        self._after_step = False
        if self.auto_step:
            if self._started:
                self._finish()
            self._started = True
        if self._active and not self._snapped:
            self._snapshot()

    def _snapshot(self):
        """Copy the selected weights (into buffers reused from step to step) and their norms."""
        self._snapped = True
        for j, ref in enumerate(self._params):
            p = ref()
            if p is None:
                continue
            snap = self._snapshots[j]
            if snap is None or type(snap[0]) is not type(p._data) or \
                    snap[0].shape != p._data.shape or snap[0].dtype != p._data.dtype:
                buf = p._data.copy()
            else:
                buf = snap[0]
                _xp(buf).copyto(buf, p._data)
            flat = buf.reshape(-1)
            if type(buf) is np.ndarray:
                self._snapshots[j] = (buf, math.sqrt(float(np.dot(flat, flat))))
            else:                   # the norm stays on the device until the step ends
                self._snapshots[j] = (buf, _xp(buf).sqrt(flat @ flat))

    # ----------------------------------------------------------------- measuring
    def _add(self, i, kind, tensors):
        """Pool the statistics of ``tensors`` into cell ``i``'s accumulator of ``kind``."""
        k = i * _NK + kind
        acc = self._acc[k]
        seen = self._seen
        for t in tensors:
            if not isinstance(t, Tensor):
                continue
            a = t._data
            if a.dtype.kind not in 'fV':
                continue
            hit = seen.get(id(a))
            if hit is not None and hit[0]() is a:
                m = hit[1]
            else:
                m = _measure(a) if type(a) is np.ndarray else _measure_device(a)
                seen[id(a)] = (weakref.ref(a), m)
            if type(m) is not tuple:        # a device vector: pooled when the step ends
                self._pending.append((k, m))
                continue
            if acc is None:
                acc = self._acc[k] = list(m)
            else:
                _pool(acc, m)
        self._touched = True


class _ForwardHook:
    """``hook(cell, inputs, outputs)``: statistics of the inputs and outputs, call counts."""

    __slots__ = ('rec', 'i', 'inputs', 'outputs')

    def __init__(self, rec, i, inputs, outputs):
        self.rec = weakref.ref(rec)
        self.i = i
        self.inputs = inputs
        self.outputs = outputs

    def __call__(self, cell, inputs, outputs):
        rec = self.rec()
        if rec is None or not rec._active:
            return
        outs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
        if self.inputs:
            rec._add(self.i, _INPUT, inputs)
        if self.outputs:
            rec._add(self.i, _OUTPUT, outs)
        calls = rec._calls[self.i]
        if not calls[0]:                    # the first call of the step: its place in order
            rec._rank += 1
            calls[3] = rec._rank
        calls[0] += 1
        if any(isinstance(o, Tensor) and o.requires_grad for o in outs):
            calls[1] += 1
        rec._touched = True


class _GradOutputHook:
    """``hook(cell, grad_output)``: statistics of the gradient w.r.t. the outputs; counts."""

    __slots__ = ('rec', 'i', 'measure')

    def __init__(self, rec, i, measure):
        self.rec = weakref.ref(rec)
        self.i = i
        self.measure = measure

    def __call__(self, cell, grad_output):
        rec = self.rec()
        if rec is not None and rec._active:
            if self.measure:
                rec._add(self.i, _GRAD_OUTPUT, grad_output)
            rec._calls[self.i, 2] += 1
            rec._touched = True


class _GradInputHook:
    """``hook(cell, grad_input, grad_output)``: statistics of the gradient w.r.t. the inputs."""

    __slots__ = ('rec', 'i')

    def __init__(self, rec, i):
        self.rec = weakref.ref(rec)
        self.i = i

    def __call__(self, cell, grad_input, grad_output):
        rec = self.rec()
        if rec is not None and rec._active:
            rec._add(self.i, _GRAD_INPUT, grad_input)


class _NetCallHook:
    """``hook(net, inputs)`` on the network: step boundaries and weight snapshots."""

    __slots__ = ('rec',)

    def __init__(self, rec):
        self.rec = weakref.ref(rec)

    def __call__(self, cell, inputs):
        rec = self.rec()
        if rec is not None:
            rec._on_net_call(cell, inputs)


class _ParamGradHook:
    """``hook(grad)`` on a parameter: adds the squared norm of its gradient's finite values,
    and its NaN and Inf counts, to the step's."""

    __slots__ = ('rec', 'j')

    def __init__(self, rec, j):
        self.rec = weakref.ref(rec)
        self.j = j

    def __call__(self, grad):
        rec = self.rec()
        if rec is None or not rec._active:
            return
        g = grad._data.reshape(-1)
        if type(g) is not np.ndarray:       # measured on the device, read when the step ends
            rec._grad_pending.append((self.j, _grad_device(g)))
            rec._touched = True
            return
        sq = float(np.dot(g, g))
        nan = inf = 0
        if not math.isfinite(sq):           # NaN or Inf, or float32 squares overflowing
            nan = int(np.count_nonzero(np.isnan(g)))
            inf = int(np.count_nonzero(np.isinf(g)))
            f = (g[np.isfinite(g)] if nan or inf else g).astype(np.float64)
            sq = float(np.dot(f, f))
        old = rec._grad_sq[self.j]
        rec._grad_sq[self.j] = [sq, nan, inf] if old is None else \
            [old[0] + sq, old[1] + nan, old[2] + inf]
        rec._touched = True


def _collected(handles, net_name):
    """Run when an open recorder is garbage-collected: remove its hooks, and say so."""
    for handle in handles:
        handle.remove()
    handles.clear()
    warn(f"StatsRecorder on {net_name} was garbage-collected while open; its hooks "
         f"were removed. Use 'with StatsRecorder(net) as rec:' or call rec.close()",
         ResourceWarning)


# --------------------------------------------------------------------------- selection
def _patterns(what, value):
    """None, or a list of glob strings and compiled regular expressions."""
    if value is None:
        return None
    items = [value] if isinstance(value, (str, re.Pattern)) else value
    if not isinstance(items, (list, tuple)) or not items or \
            not all(isinstance(p, (str, re.Pattern)) for p in items):
        raise TypeError(f"StatsRecorder: {what} must be a glob string, a compiled re pattern or "
                        f"a non-empty list of them, got {value!r}")
    return list(items)


def _matches(pattern, name):
    if isinstance(pattern, str):
        return fnmatch.fnmatchcase(name, pattern)
    return pattern.search(name) is not None


def _types(types):
    if types is None:
        return None
    items = (types,) if isinstance(types, type) else types
    if not isinstance(items, (list, tuple)) or not items or \
            not all(isinstance(t, type) and issubclass(t, Cell) for t in items):
        raise TypeError(f"StatsRecorder: types must be a Cell subclass or a tuple of them, "
                        f"got {types!r}")
    return tuple(items)


def _select(named, include, exclude, types, net):
    names = [n for n, _ in named]
    listing = ', '.join(n or '(root)' for n in names[:12]) + (' ...' if len(names) > 12 else '')
    for what, pats in (('include', include), ('exclude', exclude)):
        for p in pats or ():
            if not any(_matches(p, n) for n in names):
                shown = p if isinstance(p, str) else p.pattern
                raise ValueError(f"StatsRecorder: {what} pattern {shown!r} matches no cell of "
                                 f"{type(net).__name__}; its cells are: {listing}")
    out = [(n, c) for n, c in named
           if (include is None or any(_matches(p, n) for p in include))
           and not (exclude and any(_matches(p, n) for p in exclude))
           and (types is None or isinstance(c, types))]
    if not out:
        raise ValueError(f"StatsRecorder: the filters select no cell of {type(net).__name__} "
                         f"(include={include!r}, exclude={exclude!r}, types={types!r}); its "
                         f"cells are: {listing}")
    return out


def _check_count(name, value):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"StatsRecorder: {name} must be a positive int, got {value!r}")
