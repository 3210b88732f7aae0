"""Gradient norms across depth: how much of the gradient at the last layer reaches each layer.

A stack of saturating layers (sigmoid, tanh) scales the gradient down at every layer, so the
gradient at the first layers is a tiny fraction of the one at the output while each layer's
norm, on its own, stays level over the steps: a rule over time does not see it. Here the cells
of each recorded step are put in forward order (the order in which their first forward call of
the step finished, ``calls['order']``; the cell nearest the loss is the last one), and each
cell's ``grad_output`` norm is divided by that of the last cell in this order that got a
non-zero finite gradient.

The measure is the L2 norm of a cell's whole output gradient, not a per-element mean: a layer
initialised for its fan-in roughly preserves that norm from its output to its input whatever
the two widths, so a ratio far from 1 is the layers' doing, not their shapes'. A cell that holds
other recorded cells (a block, a ``SequentialCell``, the network itself) is left out: its
gradient is that of one of its children. A gradient that held NaN or Inf has no ratio (its norm
over the finite values would mislead), and a zero gradient is not flagged here ('dead' reports
it).
"""
from collections import namedtuple

import numpy as np

from .stats_report import CALLS, CELL_KINDS, STATS, Finding, _trailing

DepthRow = namedtuple('DepthRow', 'name norm ratio')
DepthRow.__doc__ = """One cell of a depth profile: its ``name``, the ``norm`` of the gradient at
its output and the ``ratio`` of that norm to the last layer's (NaN when it got no gradient, or
one holding NaN or Inf)."""


def _leaves(cells):
    """Indices of the cells that hold no other recorded cell, in tree order."""
    holders = set()
    for name in cells:
        if name:
            holders.add('')
            parts = name.split('.')
            holders.update('.'.join(parts[:k]) for k in range(1, len(parts)))
    return [i for i, name in enumerate(cells) if name not in holders]


def depth_arrays(history):
    """``(leaves, rank, norm, ratio, ref)`` over the recorded steps: the leaf cells' indices,
    their forward order (NaN: not called), gradient norms (NaN: none, or non-finite), ratios to
    the reference, and the reference's column per step (-1: none)."""
    leaves = _leaves(history.cells)
    grads = history.cell_data[:, leaves, CELL_KINDS.index('grad_output')]
    norm = grads[..., STATS.index('norm')].copy()
    norm[(grads[..., STATS.index('nan')] > 0) | (grads[..., STATS.index('inf')] > 0)] = np.nan
    calls = history.calls[:, leaves]
    order = calls[..., CALLS.index('order')]
    rank = np.where(order > 0, order, np.nan)
    # a file written without the forward order: the tree order of the cells that ran
    unordered = ~(order > 0).any(axis=1, keepdims=True)
    ran = (calls[..., CALLS.index('forward')] > 0) | ~np.isnan(norm)
    tree = np.broadcast_to(np.arange(1.0, len(leaves) + 1), rank.shape)
    rank = np.where(unordered & ran, tree, rank)
    usable = np.isfinite(norm) & (norm > 0) & np.isfinite(rank)
    ref = np.argmax(np.where(usable, rank, -np.inf), axis=1) if leaves else \
        np.zeros(len(rank), np.int64)
    ref = np.where(usable.any(axis=1), ref, -1)
    ref_norm = np.where(ref >= 0, norm[np.arange(len(norm)), np.maximum(ref, 0)]
                        if leaves else np.nan, np.nan)
    with np.errstate(invalid='ignore', divide='ignore'):
        ratio = norm / ref_norm[:, None]
    return leaves, rank, norm, ratio, ref


def depth_findings(history, found, rules):
    """Add 'vanishing_depth' and 'exploding_depth' findings: a cell whose gradient norm ratio
    to the last layer's is below ``depth_ratio_below`` (above ``depth_ratio_above``) in each of
    the last ``patience`` steps where it is known and non-zero."""
    if not len(history):
        return
    leaves, _, norm, ratio, ref = depth_arrays(history)
    steps = history.steps
    below, above = rules['depth_ratio_below'], rules['depth_ratio_above']
    for col, i in enumerate(leaves):
        r = ratio[:, col]
        known = np.isfinite(r) & (r > 0) & (ref != col)
        if not known.any():
            continue
        at = np.flatnonzero(known)
        for key, flags in (('vanishing_depth', r[at] < below), ('exploding_depth', r[at] > above)):
            since = _trailing(flags, rules['patience'])
            if since is None:
                continue
            last = at[-1]
            top = history.cells[leaves[ref[last]]]
            found[key].append(Finding(
                history.cells[i], 'grad_output', int(steps[at[since]]),
                f"ratio {r[last]:.3g} to the last layer at step {int(steps[last])}: "
                f"norm {norm[last, col]:.3g}, {top or '(root)'}'s {norm[last, ref[last]]:.3g}"))


def depth_profile(history, step=None):
    """See ``StatsHistory.depth_profile``."""
    if not len(history):
        return []
    leaves, rank, norm, ratio, ref = depth_arrays(history)
    steps = history.steps
    if step is None:
        with_ref = np.flatnonzero(ref >= 0)
        k = int(with_ref[-1]) if len(with_ref) else len(steps) - 1
    else:
        hits = np.flatnonzero(steps == step) if isinstance(step, (int, np.integer)) and \
            not isinstance(step, bool) else []
        if not len(hits):
            raise ValueError(f"StatsHistory.depth_profile: step {step!r} was not recorded; "
                             f"recorded: {_span(steps)}")
        k = int(hits[-1])
    cols = sorted((c for c in range(len(leaves)) if np.isfinite(rank[k, c])),
                  key=lambda c: rank[k, c])
    return [DepthRow(history.cells[leaves[c]], float(norm[k, c]), float(ratio[k, c]))
            for c in cols]


def _span(steps):
    shown = ', '.join(str(int(s)) for s in steps[:8])
    return shown + (f" ... {int(steps[-1])}" if len(steps) > 8 else '')
