"""The plots of the HTML report, as base64 PNG data: the loss curve, the per-layer statistics
and the heat map of gradient norms (matplotlib, imported only here)."""
import base64
import io

import numpy as np

from .stats_export import plot

NONFINITE = '#00b8d4'     # heat-map colour of a step whose gradient held NaN or Inf


def plots(history):
    """[(caption, base64 PNG)] and a note (HTML) when matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        return [], ('<p class="note">Plots need matplotlib: '
                    '<code>pip install matplotlib</code>.</p>')
    matplotlib.use('Agg', force=False)
    images = []
    if history.losses:
        images.append(('Training loss per step', _loss_curve(history.losses)))
    buf = io.BytesIO()
    plot(history, buf)
    images.append(('Per-layer activation and gradient statistics over the steps: the layers '
                   'with the largest values in colour, the others grey',
                   _encode(buf)))
    images.append(("Gradient norm at each layer's output (log10), layers by steps; cyan: the "
                   "gradient held NaN or Inf; white: zero or not recorded", _heatmap(history)))
    return images, ''


def _encode(buf):
    return base64.b64encode(buf.getvalue()).decode('ascii')


def _save(fig):
    import matplotlib.pyplot as plt
    buf = io.BytesIO()
    fig.savefig(buf, dpi=90)
    plt.close(fig)
    return _encode(buf)


def _loss_curve(losses):
    """The loss over the steps; a log scale when it spans more than two decades."""
    import matplotlib.pyplot as plt
    steps = np.array(sorted(losses))
    values = np.array([losses[k] for k in steps])
    fig, ax = plt.subplots(figsize=(12, 3.6), constrained_layout=True)
    finite = np.isfinite(values)
    ax.plot(steps[finite], values[finite], color='tab:blue', linewidth=1.3,
            marker='o' if len(steps) < 40 else None, markersize=3, label='loss')
    if (~finite).any():
        ax.plot(steps[~finite], np.full((~finite).sum(), np.nanmax(values[finite])
                                        if finite.any() else 0.0),
                'x', color='tab:red', label='NaN or Inf loss')
        ax.legend(loc='best', fontsize=9)
    positive = values[finite & (values > 0)]
    if len(positive) == finite.sum() and len(positive) and positive.max() > 100 * positive.min():
        ax.set_yscale('log')
    ax.set(xlabel='step', ylabel='loss', title='training loss')
    ax.grid(alpha=0.3)
    return _save(fig)


def _heatmap(history):
    """log10 of every cell's output-gradient norm: a row per cell, a column per step; steps
    whose gradient held NaN or Inf in their own colour."""
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
    grid[bad] = np.nan
    fig, ax = plt.subplots(figsize=(12, 2.6 + 0.24 * len(names)), constrained_layout=True)
    shown = ax.imshow(np.ma.masked_invalid(grid), aspect='auto', cmap='magma',
                      interpolation='nearest')
    if bad.any():
        ax.imshow(np.ma.masked_where(~bad, bad.astype(float)), aspect='auto',
                  cmap=ListedColormap([NONFINITE]), interpolation='nearest', vmin=0, vmax=1)
        ax.legend(handles=[Patch(color=NONFINITE, label='NaN or Inf in the gradient')],
                  loc='lower right', bbox_to_anchor=(1, 1.0), fontsize=9, frameon=False)
    ax.set_yticks(range(len(names)), [n or '(root)' for n in names], fontsize=9)
    steps = history.steps
    if len(steps):
        ticks = np.unique(np.linspace(0, len(steps) - 1, min(len(steps), 12)).astype(int))
        ax.set_xticks(ticks, [str(steps[t]) for t in ticks], fontsize=9)
    ax.set_xlabel('recorded step', fontsize=10)
    fig.colorbar(shown, ax=ax, label='log10 gradient norm')
    return _save(fig)
