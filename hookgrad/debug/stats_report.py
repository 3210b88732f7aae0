"""The statistics a ``StatsRecorder`` keeps, and the report of dead and exploding layers.

A ``StatsHistory`` stores one row per recorded step in three dense float64 arrays, never tensors:

- cell statistics: (steps, cells, 4 kinds, 10 statistics), NaN where a cell was not seen;
- calls: (steps, cells, 4): forward calls, forward calls whose output was on the tape,
  backward calls, and the cell's place (1, 2, ...) among the recorded cells in the order their
  first forward call of the step finished (0: not called), which orders the cells by depth;
- parameter statistics: (steps, parameters, 5): gradient norm (over the finite values), weight
  norm before the step, update-to-weight ratio, NaN and Inf counts of the gradient. A gradient
  norm of NaN means no gradient arrived; one that arrived holding NaN or Inf has its counts.

Rows are read per name and kind as NumPy arrays: ``history['fc1', 'output']['std']``.
"""
import math
from collections import namedtuple

import numpy as np

CELL_KINDS = ('input', 'output', 'grad_input', 'grad_output')
STATS = ('count', 'mean', 'std', 'min', 'max', 'absmax', 'zero_frac', 'nan', 'inf', 'norm')
CALLS = ('forward', 'on_tape', 'backward', 'order')
PARAM_STATS = ('grad_norm', 'norm', 'update_ratio', 'grad_nan', 'grad_inf')
FINDINGS = ('dead', 'missing', 'exploding', 'vanishing', 'vanishing_depth', 'exploding_depth',
            'large_update')
KINDS = CELL_KINDS + ('calls', 'param')


class StatsHistory:
    """Recorded statistics per step: cells' inputs, outputs and gradients, and parameters.

    Args:
        cells: the cell names, in tree order (``''`` is the network itself).
        params: the parameter names.
        cell_types: the class name of each cell (optional).
        every: the recording interval the steps were taken with (for information).
        keep: keep only the last ``keep`` recorded steps (None keeps all).
    """

    def __init__(self, cells, params=(), cell_types=None, every=1, keep=None):
        self.cells = list(cells)
        self.params = list(params)
        self.cell_types = list(cell_types) if cell_types is not None else [''] * len(self.cells)
        self.every = every
        self.keep = keep
        self._cell_index = {name: i for i, name in enumerate(self.cells)}
        self._param_index = {name: i for i, name in enumerate(self.params)}
        self._n = 0
        self._steps = np.zeros(0, np.int64)
        self._cell_data = np.zeros((0, len(self.cells), len(CELL_KINDS), len(STATS)))
        self._calls = np.zeros((0, len(self.cells), len(CALLS)))
        self._param_data = np.zeros((0, len(self.params), len(PARAM_STATS)))
        self.losses = {}            # step -> loss, from StatsRecorder.log / step or a file
        self.lrs = {}               # step -> learning rate, likewise

    # ----------------------------------------------------------------- storage
    def append(self, step, cell_row, calls_row, param_row):
        """Add the rows of one recorded step (arrays shaped like one step of each table)."""
        if self._n == len(self._steps):
            self._grow()
        n = self._n
        self._steps[n] = step
        self._cell_data[n] = cell_row
        self._calls[n] = calls_row
        self._param_data[n] = param_row
        self._n = n + 1

    def _grow(self):
        n, keep = self._n, self.keep
        if keep is not None and n >= keep:        # drop the oldest rows, keep keep - 1
            start = n - keep + 1
            for name in ('_steps', '_cell_data', '_calls', '_param_data'):
                a = getattr(self, name)
                a[:keep - 1] = a[start:n].copy()
            self._n = keep - 1
            return
        cap = max(8, 2 * n) if keep is None else min(max(8, 2 * n), 2 * keep)
        for name in ('_steps', '_cell_data', '_calls', '_param_data'):
            a = getattr(self, name)
            new = np.full((cap,) + a.shape[1:], np.nan if a.dtype.kind in 'fV' else 0, a.dtype)
            new[:n] = a[:n]
            setattr(self, name, new)

    def log(self, step, loss=None, lr=None):
        """Record the training loss and / or the learning rate of ``step`` (each a number or a
        one-element Tensor/array; None leaves it as it is)."""
        values = [(what, _scalar(what, v)) for what, v in (('loss', loss), ('lr', lr))
                  if v is not None]
        for what, value in values:
            (self.losses if what == 'loss' else self.lrs)[int(step)] = value

    # ----------------------------------------------------------------- reading
    def _rows(self, a):
        """The kept rows of one table: the last ``keep`` appended, or all."""
        n = self._n
        lo = n - self.keep if self.keep is not None and n > self.keep else 0
        return a[lo:n]

    @property
    def steps(self):
        """The recorded step indices, as an int64 array."""
        return self._rows(self._steps)

    @property
    def cell_data(self):
        """Cell statistics, shape (steps, cells, kinds, stats); NaN where not seen."""
        return self._rows(self._cell_data)

    @property
    def calls(self):
        """Calls, shape (steps, cells, 4): forward, on_tape, backward counts, and order."""
        return self._rows(self._calls)

    @property
    def param_data(self):
        """Parameter statistics, shape (steps, params, 5); NaN where not seen."""
        return self._rows(self._param_data)

    def __len__(self):
        return len(self.steps)

    def __getitem__(self, key):
        """``history[name, kind]``: a dict of arrays, ``'step'`` and one per statistic.

        ``kind`` is one of 'input', 'output', 'grad_input', 'grad_output' and 'calls' for a
        cell, 'param' for a parameter. Only the steps where the name was seen are included.
        """
        if not (isinstance(key, tuple) and len(key) == 2):
            raise KeyError(f"StatsHistory: index with (name, kind), got {key!r}")
        name, kind = key
        if kind == 'param':
            j = self._index(self._param_index, name, 'parameter')
            rows = self.param_data[:, j]
            mask = ~np.isnan(rows).all(axis=1)
            names = PARAM_STATS
        elif kind == 'calls':
            rows = self.calls[:, self._index(self._cell_index, name, 'cell')]
            mask = rows.sum(axis=1) > 0
            names = CALLS
        elif kind in CELL_KINDS:
            rows = self.cell_data[:, self._index(self._cell_index, name, 'cell'),
                                  CELL_KINDS.index(kind)]
            mask = ~np.isnan(rows[:, 0])
            names = STATS
        else:
            raise KeyError(f"StatsHistory: kind must be one of {KINDS}, got {kind!r}")
        out = {'step': self.steps[mask]}
        for i, stat in enumerate(names):
            out[stat] = rows[mask, i]
        return out

    def _index(self, table, name, what):
        i = table.get(name)
        if i is None:
            known = ', '.join(n or '(root)' for n in list(table)[:12]) + \
                (' ...' if len(table) > 12 else '')
            raise KeyError(f"StatsHistory: no {what} named {name!r}; known: {known}")
        return i

    # ----------------------------------------------------------------- outputs
    def report(self, patience=3, factor=100.0, explode_above=1e4, vanish_below=1e-8,
               update_above=0.1, depth_ratio_below=1e-3, depth_ratio_above=1e3):
        """Find dead, missing, exploding and vanishing gradients and activations, gradients
        that vanish or explode across depth, and too large updates.

        Rules (each over the recorded steps where the series was seen):

        - dead: all values zero (outputs, gradients of cells, gradients of parameters) in each
          of the last ``patience`` steps;
        - missing: a cell ran with an output on the tape, or a trainable parameter was
          selected, but no gradient arrived (its hook never ran), in each of the last
          ``patience`` steps that had a backward pass;
        - exploding: a gradient that arrived holding NaN or Inf at any step (the detail gives
          the counts), or a gradient norm (a cell's
          ``grad_output``, a parameter's gradient) whose late level is above ``explode_above``
          or at least ``factor`` times its early level;
        - vanishing: a non-zero gradient norm whose late level is below ``vanish_below`` or at
          most its early level divided by ``factor``;
        - vanishing_depth / exploding_depth: a cell whose ``grad_output`` norm is below
          ``depth_ratio_below`` (above ``depth_ratio_above``) times that of the last cell in
          forward order, the one nearest the loss, in each of the last ``patience`` steps
          where both were seen (see ``depth_profile``);
        - large_update: a parameter's update-to-weight ratio above ``update_above`` at some
          step: the learning rate is probably too large. Parameters whose first recorded
          weight norm is zero (biases, normalization shifts) are left out: their ratio is
          large by construction while they are small.

        The early and late levels are the medians of the first and the last quarter of the
        steps (at least one step each).

        Args:
            patience: how many of the last steps must agree for dead and missing. Default 3.
            factor: the growth or shrink factor that counts as exploding or vanishing.
            explode_above: a gradient norm above this counts as exploding.
            vanish_below: a non-zero gradient norm below this counts as vanishing.
            update_above: an update-to-weight ratio above this counts as a too large update.
            depth_ratio_below: a gradient norm ratio to the last layer's below this counts as
                vanishing across depth. Default 1e-3.
            depth_ratio_above: a ratio above this counts as exploding across depth. Default 1e3.

        Returns:
            StatsReport: the findings; ``print(report)`` shows them as text.
        """
        _check_positive('patience', patience, integer=True)
        _check_positive('factor', factor)
        if factor <= 1:
            raise ValueError(f"StatsHistory.report: factor must be greater than 1, got {factor!r}")
        _check_positive('explode_above', explode_above)
        _check_positive('vanish_below', vanish_below)
        _check_positive('update_above', update_above)
        _check_positive('depth_ratio_below', depth_ratio_below)
        _check_positive('depth_ratio_above', depth_ratio_above)
        if not depth_ratio_below < 1 < depth_ratio_above:
            raise ValueError(f"StatsHistory.report: depth_ratio_below must be below 1 and "
                             f"depth_ratio_above above 1, got {depth_ratio_below!r} and "
                             f"{depth_ratio_above!r}")
        rules = {'patience': patience, 'factor': float(factor),
                 'explode_above': float(explode_above), 'vanish_below': float(vanish_below),
                 'update_above': float(update_above),
                 'depth_ratio_below': float(depth_ratio_below),
                 'depth_ratio_above': float(depth_ratio_above)}
        found = {key: [] for key in FINDINGS}
        steps = self.steps
        backward_steps = self._backward_steps()
        for i, name in enumerate(self.cells):
            for kind in ('output', 'grad_output', 'grad_input'):
                rows = self.cell_data[:, i, CELL_KINDS.index(kind)]
                seen = ~np.isnan(rows[:, 0])
                since = _trailing(rows[seen, STATS.index('zero_frac')] == 1.0, patience)
                if since is not None:
                    found['dead'].append(Finding(name, kind, int(steps[seen][since]),
                                                 'all values zero'))
            calls = self.calls[:, i]
            expected = (calls[:, 1] > 0) & backward_steps
            since = _trailing(calls[expected, 2] == 0, patience)
            if since is not None:
                found['missing'].append(Finding(name, 'grad_output', int(steps[expected][since]),
                                                'output on the tape, no gradient arrived'))
            gout = self.cell_data[:, i, CELL_KINDS.index('grad_output')]
            seen = ~np.isnan(gout[:, 0])
            nan, inf = gout[:, STATS.index('nan')], gout[:, STATS.index('inf')]
            bad = seen & ((nan > 0) | (inf > 0))
            if bad.any():                   # one finding: the NaN explains the norms
                _nonfinite(found, name, 'grad_output', steps[bad], nan[bad], inf[bad])
            else:
                _trend(found, name, 'grad_output', steps[seen], gout[seen, STATS.index('norm')],
                       rules)
        for j, name in enumerate(self.params):
            data = self.param_data[:, j]
            g = data[:, 0]
            nan, inf = np.nan_to_num(data[:, 3]), np.nan_to_num(data[:, 4])
            arrived = ~np.isnan(g)
            bad = arrived & ((nan > 0) | (inf > 0))
            since = _trailing((g[arrived] == 0) & ~bad[arrived], patience)
            if since is not None:
                found['dead'].append(Finding(name, 'param', int(steps[arrived][since]),
                                             'gradient all zero'))
            since = _trailing(~arrived[backward_steps], patience)
            if since is not None:
                found['missing'].append(Finding(name, 'param', int(steps[backward_steps][since]),
                                                'no gradient arrived'))
            if bad.any():
                _nonfinite(found, name, 'param', steps[bad], nan[bad], inf[bad])
            else:
                _trend(found, name, 'param', steps[arrived], g[arrived], rules)
            _large_update(found, name, steps, data[:, 1], data[:, 2], rules['update_above'])
        from .stats_depth import depth_findings
        depth_findings(self, found, rules)
        order = {k: n for n, k in enumerate(CELL_KINDS + ('param',))}
        for key in found:
            found[key].sort(key=lambda f: order[f.kind])
        return StatsReport(found, rules, len(self), steps.copy(), len(self.cells),
                           len(self.params))

    def depth_profile(self, step=None):
        """The gradient norm at each cell's output across depth at one recorded step.

        Cells are in forward order (the order their first forward call of the step finished),
        the one nearest the loss last; cells that hold other recorded cells are left out (their
        gradient is one of their children's). ``ratio`` is the cell's ``grad_output`` norm over
        that of the last cell that got a non-zero finite gradient; NaN where the cell got no
        gradient or one holding NaN or Inf.

        Args:
            step: a recorded step. Default: the last recorded step with gradients.

        Returns:
            list of ``DepthRow(name, norm, ratio)``.

        Raises:
            ValueError: for a step that was not recorded.
        """
        from .stats_depth import depth_profile
        return depth_profile(self, step)

    def _backward_steps(self):
        """Which recorded steps had a backward pass (any cell or parameter got a gradient)."""
        return (self.calls[:, :, 2].sum(axis=1) > 0) | \
            (~np.isnan(self.param_data[:, :, 0])).any(axis=1)

    def to_json(self, path):
        """Write every recorded statistic to ``path`` as JSON (read back with ``load_stats``)."""
        from .stats_export import write_json
        write_json(self, path)

    def to_csv(self, path):
        """Write the statistics to ``path`` as CSV in long format: step,cell,kind,stat,value."""
        from .stats_export import write_csv
        write_csv(self, path)

    def plot(self, path, cells=None):
        """Draw per-layer activation and gradient statistics over the steps into one image:
        the layers that ``report()`` names in colour, with their finding in the legend, then
        the largest others.

        Needs matplotlib (the ``plot`` extra). ``cells`` is a glob pattern or a list of them
        selecting which cells to draw (default: every cell). Returns the path written.
        """
        from .report_plots import plot
        return plot(self, path, cells)

    def to_tensorboard(self, logdir, stats=None):
        """Write the statistics as TensorBoard scalars under ``logdir`` (tensorboardX, the
        ``tensorboard`` extra); ``stats`` limits which statistics are written. Returns the
        event file's path."""
        from .stats_export import write_tensorboard
        return write_tensorboard(self, logdir, stats)

    def __repr__(self):
        return (f"StatsHistory({len(self)} steps, {len(self.cells)} cells, "
                f"{len(self.params)} parameters)")


Finding = namedtuple('Finding', 'name kind since detail')
Finding.__doc__ = """One problem: the cell or parameter ``name``, the ``kind`` of series, the
first step from which the rule held (``since``) and a readable ``detail``."""


class StatsReport:
    """What ``StatsHistory.report()`` found: one list of ``Finding`` per rule, and the rules.

    Attributes:
        dead, missing, exploding, vanishing, vanishing_depth, exploding_depth, large_update:
            lists of ``Finding(name, kind, since, detail)``.
        rules: the thresholds the findings were made with.
    """

    __slots__ = FINDINGS + ('rules', 'n_steps', 'steps', 'n_cells', 'n_params')

    def __init__(self, found, rules, n_steps, steps, n_cells, n_params):
        for key in FINDINGS:
            setattr(self, key, found[key])
        self.rules = rules
        self.n_steps = n_steps
        self.steps = steps
        self.n_cells = n_cells
        self.n_params = n_params

    @property
    def ok(self):
        """True when nothing was found."""
        return not any(getattr(self, key) for key in FINDINGS)

    def names(self, what):
        """The names in one list (one of ``FINDINGS``: ``'dead'``, ``'missing'``,
        ``'exploding'``, ...), as ``(name, kind)`` pairs."""
        if what not in FINDINGS:
            raise ValueError(f"StatsReport.names: expected one of {', '.join(FINDINGS)}; "
                             f"got {what!r}")
        return [(f.name, f.kind) for f in getattr(self, what)]

    def to_dict(self):
        """The findings and rules as plain JSON-ready data."""
        out = {key: [f._asdict() for f in getattr(self, key)]
               for key in FINDINGS}
        out['rules'] = dict(self.rules)
        out['steps'] = [int(s) for s in self.steps]
        return out

    def __str__(self):
        r = self.rules
        span = f"{self.steps[0]}-{self.steps[-1]}" if self.n_steps else 'none'
        lines = [f"statistics report: {self.n_steps} recorded steps ({span}), "
                 f"{self.n_cells} cells, {self.n_params} parameters"]
        sections = (
            ('dead', f"dead (all values zero in each of the last {r['patience']} steps seen)"),
            ('missing', f"missing gradient (no gradient arrived in each of the last "
                        f"{r['patience']} steps with a backward pass)"),
            ('exploding', f"exploding gradient (arrived holding NaN/Inf, norm above "
                          f"{r['explode_above']:g}, or grown x{r['factor']:g} or more)"),
            ('vanishing', f"vanishing gradient (non-zero norm below {r['vanish_below']:g}, or "
                          f"shrunk x{r['factor']:g} or more)"),
            ('vanishing_depth', f"vanishing across depth (gradient norm below "
                                f"{r['depth_ratio_below']:g} x the last layer's)"),
            ('exploding_depth', f"exploding across depth (gradient norm above "
                                f"{r['depth_ratio_above']:g} x the last layer's)"),
            ('large_update', f"large update (update / weight norm above "
                             f"{r.get('update_above', 0.1):g})"))
        for key, title in sections:
            items = getattr(self, key)
            lines.append(f"{title}: {len(items) or 'none'}")
            width = max((len(f.name or '(root)') for f in items), default=0)
            for f in items:
                kind = 'param grad' if f.kind == 'param' else f.kind
                lines.append(f"  {f.name or '(root)':<{width}}  {kind:<11}  {f.detail}, "
                             f"since step {f.since}")
        return '\n'.join(lines)

    def __repr__(self):
        counts = ', '.join(f"{key}={len(getattr(self, key))}" for key in FINDINGS)
        return f"StatsReport({counts})"


def _trailing(flags, patience):
    """Index where the trailing run of True in ``flags`` starts, if it covers the last
    ``patience`` entries (all of them when there are fewer); else None."""
    n = len(flags)
    if n == 0 or not flags[-1]:
        return None
    false = np.flatnonzero(~flags)
    start = int(false[-1]) + 1 if len(false) else 0
    return start if n - start >= min(patience, n) else None


def _nonfinite(found, name, kind, steps, nan, inf):
    """An exploding finding for a gradient that arrived holding NaN or Inf at ``steps``."""
    found['exploding'].append(Finding(
        name, kind, int(steps[0]),
        f"non-finite gradient at {len(steps)} step(s), at step {int(steps[0])}: "
        f"{int(nan[0]):,} NaN, {int(inf[0]):,} Inf"))


def _large_update(found, name, steps, norms, ratios, above):
    """A large_update finding when a parameter that did not start at zero moved by more than
    ``above`` times its norm in one step."""
    known = np.isfinite(norms)
    if not known.any() or norms[known][0] <= 0:
        return
    over = np.flatnonzero(np.isfinite(ratios) & (ratios > above))
    if len(over):
        k = over[0]
        found['large_update'].append(Finding(
            name, 'param', int(steps[k]),
            f"update ratio {ratios[k]:.3g} at step {int(steps[k])} (above {above:g} at "
            f"{len(over)} step(s)): the learning rate is probably too large"))


def _trend(found, name, kind, steps, norms, rules):
    """Add exploding / vanishing findings for one series of finite gradient norms."""
    nonzero = norms > 0
    steps, norms = steps[nonzero], norms[nonzero]
    n = len(norms)
    if n == 0:
        return
    w = max(1, n // 4)
    early, late = float(np.median(norms[:w])), float(np.median(norms[-w:]))
    change = f"norm {early:.3g} -> {late:.3g}"
    factor = rules['factor']
    if late > rules['explode_above'] or (n > 1 and late >= factor * early):
        found['exploding'].append(Finding(name, kind, _first_step(steps, norms, late, True),
                                          f"{change} (x{late / early:.3g})"))
    elif late < rules['vanish_below'] or (n > 1 and early >= factor * late):
        found['vanishing'].append(Finding(name, kind, _first_step(steps, norms, late, False),
                                          f"{change} (x{late / early:.3g})"))


def _first_step(steps, norms, late, growing):
    """The first step from which the norm stays on the late side of the geometric middle."""
    mid = math.sqrt(float(norms[0]) * late)
    off = norms < mid if growing else norms > mid
    idx = np.flatnonzero(off)
    return int(steps[idx[-1] + 1]) if len(idx) and idx[-1] + 1 < len(steps) else int(steps[0])


def _scalar(what, value):
    """A loss or learning rate as a float: a number, or a one-element Tensor or array."""
    v = value.asnumpy() if hasattr(value, 'asnumpy') else value
    try:
        return float(np.asarray(v, dtype=np.float64).reshape(()))
    except (TypeError, ValueError):
        raise TypeError(f"StatsHistory.log: {what} must be a number or a one-element tensor, "
                        f"got {type(value).__name__} of shape {np.shape(v)}") from None


def _check_positive(name, value, integer=False):
    ok = isinstance(value, int) if integer else isinstance(value, (int, float))
    if not ok or isinstance(value, bool) or not value > 0 or not math.isfinite(value):
        want = 'a positive int' if integer else 'a positive finite number'
        raise ValueError(f"StatsHistory.report: {name} must be {want}, got {value!r}")
