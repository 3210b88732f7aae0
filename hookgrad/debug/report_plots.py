"""The plots of recorded statistics: the HTML report's figures (training loss and learning
rate, per-layer statistics, heat map of gradient norms) and ``StatsHistory.plot``.

Every step axis is drawn the same way, so the figures line up when read one under the other:
one shared range (every recorded or logged step, and half a recording interval either side, so a
heat-map column is centred on its step), integer ticks only, and a dashed line at the last
healthy step when the run went wrong. In the per-layer panels the layers named by the report's
findings are drawn in colour and named in the legend, whatever their size. matplotlib (the
``plot`` extra) is imported only when a figure is drawn.
"""
import base64
import fnmatch
import io

import numpy as np

from .stats_report import FINDINGS

NONFINITE = '#00b8d4'     # heat-map colour of a step whose gradient held NaN or Inf
HEALTHY = '#2e7d32'       # the line at the last healthy step
MORE_FLAGGED = '#b03a2e'  # flagged layers beyond the palette
TOP = 8                   # layers drawn in colour per panel (more when more are flagged)
MARKER_GID = 'last-healthy'

PANELS = (('output', 'std', 'output std', False),
          ('output', 'zero_frac', 'fraction of zero outputs', False),
          ('grad_output', 'norm', 'gradient norm at the output', True),
          ('param', 'update_ratio', 'update / weight norm (parameters)', True))


def finding_title(key):
    """A finding list's name as a person reads it: 'vanishing_depth' is 'vanishing across
    depth', 'large_update' is 'large update'."""
    return key.replace('_depth', ' across depth').replace('_', ' ')


def _pyplot(what):
    try:
        import matplotlib
    except ImportError:
        raise ImportError(f"{what} needs matplotlib: pip install matplotlib") from None
    matplotlib.use('Agg', force=False)
    import matplotlib.pyplot as plt
    return plt


# --------------------------------------------------------------------------- entry points
def plots(history, findings=None, last_healthy=None):
    """The report's figures as ``[(caption, base64 PNG)]``, and a note (HTML) when matplotlib
    is missing."""
    try:
        _pyplot('the report')
    except ImportError:
        return [], ('<p class="note">Plots need matplotlib: '
                    '<code>pip install matplotlib</code>.</p>')
    return [(caption, _encode(fig)) for caption, fig in
            figures(history, findings, last_healthy)], ''


def figures(history, findings=None, last_healthy=None):
    """The report's figures, ``[(caption, matplotlib Figure)]``: the loss and learning rate
    (when logged), the per-layer statistics and the heat map, on one step axis."""
    _pyplot('the report')
    xlim = step_range(history)
    out = []
    if history.losses or history.lrs:
        what = ' and '.join(w for w, d in (('loss', history.losses),
                                           ('learning rate', history.lrs)) if d)
        out.append((f"Training {what} per step", _training(history, xlim, last_healthy)))
    out.append(('Per-layer activation and gradient statistics over the steps: the layers of '
                'the findings and the largest others in colour, the rest grey',
                statistics_figure(history, None, TOP, findings, xlim, last_healthy)))
    out.append(("Gradient norm at each layer's output (log10), layers by steps; cyan: the "
                "gradient held NaN or Inf; white: zero or not recorded",
                _heatmap(history, xlim, last_healthy)))
    return out


def plot(history, path, cells=None, top=TOP, findings=None):
    """``StatsHistory.plot``: the four panels of ``statistics_figure`` written to ``path``."""
    plt = _pyplot('StatsHistory.plot')
    names = _select(history.cells, cells, 'plot')
    if findings is None:
        findings = history.report()
    fig = statistics_figure(history, names, top, findings, step_range(history), None)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------- the step axis
def _edges(steps):
    """Column edges centred on ``steps``: halfway between neighbours, half a gap outside."""
    s = np.asarray(steps, float)
    if len(s) == 0:
        return np.array([-0.5, 0.5])
    if len(s) == 1:
        return np.array([s[0] - 0.5, s[0] + 0.5])
    mid = (s[1:] + s[:-1]) / 2
    return np.concatenate([[s[0] - (s[1] - s[0]) / 2], mid, [s[-1] + (s[-1] - s[-2]) / 2]])


def step_range(history):
    """The x range every step axis of the report shares: the heat map's columns, and every
    logged step with half a step either side."""
    edges = _edges(history.steps)
    logged = [s for values in (history.losses, history.lrs) for s in values]
    if not logged:
        return float(edges[0]), float(edges[-1])
    lo, hi = min(logged) - 0.5, max(logged) + 0.5
    if not len(history.steps):
        return float(lo), float(hi)
    return float(min(edges[0], lo)), float(max(edges[-1], hi))


def _step_axis(ax, xlim, last_healthy, label=False):
    """Shared range, integer ticks, the last healthy step's line (and its label)."""
    from matplotlib.ticker import MaxNLocator
    ax.set_xlim(xlim)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel('step')
    if last_healthy is not None:
        ax.axvline(last_healthy, color=HEALTHY, linestyle='--', linewidth=1.3, zorder=4,
                   gid=MARKER_GID)
        if label:               # beside the line, on the side with more room
            right = last_healthy < (xlim[0] + xlim[1]) / 2
            ax.annotate(f'last healthy step {last_healthy}', xy=(last_healthy, 1),
                        xycoords=('data', 'axes fraction'), xytext=(5 if right else -5, -5),
                        textcoords='offset points', ha='left' if right else 'right',
                        va='top', color=HEALTHY, fontsize=9, zorder=5,
                        bbox={'boxstyle': 'round,pad=0.25', 'facecolor': 'white',
                              'edgecolor': HEALTHY, 'alpha': 0.9})


# --------------------------------------------------------------------------- figures
def _training(history, xlim, last_healthy):
    """The loss and the learning rate, one panel each (those that were logged)."""
    import matplotlib.pyplot as plt
    panels = [(title, values, colour) for title, values, colour in
              (('training loss', history.losses, 'tab:blue'),
               ('learning rate', history.lrs, 'tab:purple')) if values]
    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 0.8 + 2.8 * len(panels)),
                             constrained_layout=True, squeeze=False)
    for k, (ax, (title, values, colour)) in enumerate(zip(axes[:, 0], panels)):
        _curve(ax, values, title, colour)
        _step_axis(ax, xlim, last_healthy, label=k == 0)
    return fig


def _curve(ax, values, title, colour):
    """One logged value per step; non-finite ones marked; a log scale over two decades."""
    steps = np.array(sorted(values))
    y = np.array([values[k] for k in steps])
    finite = np.isfinite(y)
    ax.plot(steps[finite], y[finite], color=colour, linewidth=1.3,
            marker='o' if len(steps) < 40 else None, markersize=3, label=title)
    if (~finite).any():
        ax.plot(steps[~finite], np.full((~finite).sum(), np.max(y[finite])
                                        if finite.any() else 0.0),
                'x', color='tab:red', label=f'NaN or Inf {title}')
        ax.legend(loc='best', fontsize=9)
    positive = y[finite & (y > 0)]
    if len(positive) == finite.sum() and len(positive) and positive.max() > 100 * positive.min():
        ax.set_yscale('log')
    ax.set(ylabel=title, title=title)
    ax.grid(alpha=0.3)


def _flags(findings):
    """``({cell: [finding titles]}, {parameter: [titles]})`` of a report (empty for None)."""
    cells, params = {}, {}
    for key in FINDINGS if findings is not None else ():
        for f in getattr(findings, key):
            titles = (params if f.kind == 'param' else cells).setdefault(f.name, [])
            if finding_title(key) not in titles:
                titles.append(finding_title(key))
    return cells, params


def statistics_figure(history, names, top, findings, xlim, last_healthy):
    """Four panels over the steps (output std, fraction of zero outputs, gradient norm at the
    output, update ratios). In each, the layers of the findings in colour with their finding
    in the legend, then the largest others up to ``top`` coloured lines, the rest grey."""
    import matplotlib.lines
    import matplotlib.pyplot as plt
    names = history.cells if names is None else names
    cell_flags, param_flags = _flags(findings)
    fig, axes = plt.subplots(2, 2, figsize=(15, 9), constrained_layout=True)
    colours = [c for k, c in enumerate(plt.get_cmap('tab10').colors) if k != 7]   # not grey
    marker = 'o' if len(history) < 20 else None
    for k, (ax, (kind, stat, title, log)) in enumerate(zip(axes.flat, PANELS)):
        flags = param_flags if kind == 'param' else cell_flags
        lines = []
        for name in history.params if kind == 'param' else names:
            s = history[name, kind]
            x, y = s['step'], s[stat]
            keep = np.isfinite(y) & (y > 0) if log else np.isfinite(y)
            if keep.any():
                lines.append((name, x[keep], y[keep], float(np.max(y[keep]))))
        flagged = [line for line in lines if line[0] in flags]
        others = sorted((line for line in lines if line[0] not in flags), key=lambda l: -l[3])
        shown = flagged[:len(colours)]
        largest = others[:max(0, top - len(shown))]
        for name, x, y, _ in others[len(largest):]:
            ax.plot(x, y, color='0.75', linewidth=0.7, marker=marker, markersize=2)
        for name, x, y, _ in flagged[len(shown):]:
            ax.plot(x, y, color=MORE_FLAGGED, linewidth=0.9, marker=marker, markersize=2)
        for c, (name, x, y, _) in enumerate(largest, len(shown)):
            ax.plot(x, y, color=colours[c % len(colours)], linewidth=1.2, marker=marker,
                    markersize=3, label=name or '(root)')
        for c, (name, x, y, _) in enumerate(shown):
            ax.plot(x, y, color=colours[c], linewidth=2.4, marker=marker, markersize=4,
                    zorder=3, label=f"{name or '(root)'}: {', '.join(flags[name])}")
        if log and lines:
            ax.set_yscale('log')
        ax.set(title=title, ylabel=stat.replace('_', ' ') + (' (log scale)' if log else ''))
        _step_axis(ax, xlim, last_healthy, label=k == 0)
        if lines:
            handles, labels = ax.get_legend_handles_labels()
            order = list(range(len(largest), len(labels))) + list(range(len(largest)))
            handles, labels = [handles[i] for i in order], [labels[i] for i in order]
            for count, colour, what in ((len(flagged) - len(shown), MORE_FLAGGED, 'more flagged'),
                                        (len(others) - len(largest), '0.75', 'others')):
                if count:
                    handles.append(matplotlib.lines.Line2D([], [], color=colour, linewidth=0.8))
                    labels.append(f"{count} {what}")
            heading = f"largest {stat.replace('_', ' ')}"
            ax.legend(handles, labels, fontsize=8, loc='upper left', bbox_to_anchor=(1.01, 1),
                      borderaxespad=0, title_fontsize=8,
                      title=f"flagged, then {heading}" if flagged else heading)
        else:
            ax.text(0.5, 0.5, 'nothing recorded', ha='center', transform=ax.transAxes)
    fig.suptitle('per-layer activation and gradient statistics over steps')
    return fig


def _heatmap(history, xlim, last_healthy):
    """log10 of every cell's output-gradient norm: a row per cell, a column per recorded step
    centred on it; steps whose gradient held NaN or Inf in their own colour."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch
    names = [n for n in history.cells if len(history[n, 'grad_output']['step'])]
    grid = np.full((max(len(names), 1), max(len(history), 1)), np.nan)
    bad = np.zeros(grid.shape, bool)
    index = {s: i for i, s in enumerate(history.steps)}
    for r, name in enumerate(names):
        s = history[name, 'grad_output']
        cols = [index[x] for x in s['step']]
        with np.errstate(divide='ignore'):
            grid[r, cols] = np.log10(s['norm'])
        bad[r, cols] = (s['nan'] > 0) | (s['inf'] > 0)
    grid[bad | ~np.isfinite(grid)] = np.nan
    fig, ax = plt.subplots(figsize=(12, 2.6 + 0.24 * len(names)), constrained_layout=True)
    x, y = _edges(history.steps), np.arange(grid.shape[0] + 1) - 0.5
    limits = {} if np.isfinite(grid).any() else {'vmin': 0, 'vmax': 1}
    shown = ax.pcolormesh(x, y, np.ma.masked_invalid(grid), cmap='magma', **limits)
    if bad.any():
        ax.pcolormesh(x, y, np.ma.masked_where(~bad, bad.astype(float)),
                      cmap=ListedColormap([NONFINITE]), vmin=0, vmax=1)
        ax.legend(handles=[Patch(color=NONFINITE, label='NaN or Inf in the gradient')],
                  loc='lower right', bbox_to_anchor=(1, 1.0), fontsize=9, frameon=False)
    ax.set_ylim(grid.shape[0] - 0.5, -0.5)          # the first cell on top
    ax.set_yticks(range(len(names)), [n or '(root)' for n in names], fontsize=9)
    _step_axis(ax, xlim, last_healthy, label=True)
    fig.colorbar(shown, ax=ax, label='log10 gradient norm')
    return fig


def _encode(fig):
    import matplotlib.pyplot as plt
    buf = io.BytesIO()
    fig.savefig(buf, dpi=90)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode('ascii')


def _select(names, patterns, what):
    if patterns is None:
        return list(names)
    if isinstance(patterns, str):
        patterns = [patterns]
    out = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)]
    if not out:
        shown = ', '.join(n or '(root)' for n in names[:12]) + (' ...' if len(names) > 12 else '')
        raise ValueError(f"StatsHistory.{what}: cells={patterns!r} matches no recorded cell; "
                         f"recorded: {shown}")
    return out
