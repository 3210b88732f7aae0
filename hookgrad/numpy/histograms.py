"""Counting and binning of ``mindspore.numpy``: bincount, digitize, histogram_bin_edges,
histogram, histogram2d, histogramdd.

Bin positions carry no gradient; counts are weighted sums (scatter-adds), so they are
differentiable in the weights. Counts are Float32, as in MindSpore.
"""
import builtins

import numpy as np

from .. import ops
from .._tensor import Tensor
from ._args import fail, integer, to_tensor, values

_F32 = np.dtype(np.float32)
_I32 = np.dtype(np.int32)


def _counts(positions, weights, length):
    """Float32 (or the weights' float type) sums of ``weights`` (ones when None) at
    ``positions`` in ``[0, length)``; positions outside are dropped."""
    inside = ops.logical_and(ops.ge(positions, 0), ops.lt(positions, length))
    w = ops.cast(inside, _F32) if weights is None else ops.where(
        inside, weights, Tensor._wrap(np.zeros((), weights._data.dtype)))
    safe = ops.clamp(positions, 0, max(length - 1, 0))
    return ops.unindex(w, (length,), (safe,))


def bincount(x, weights=None, minlength=0, length=None):
    """The number of occurrences of each value in the 1-d non-negative integer ``x`` (negative
    values count as 0, MindSpore's rule), summing ``weights`` instead of ones when given; at
    least ``minlength`` bins, exactly ``length`` when given (larger values are dropped)."""
    t = to_tensor(x, 'bincount')
    if t.ndim != 1:
        raise fail('bincount', f"x must be 1-d, got shape {t.shape}")
    if t._data.dtype.kind not in 'iu':
        raise fail('bincount', f"x must be integers, got dtype {t.dtype}", TypeError)
    minlength = integer(minlength, 'bincount', 'minlength')
    if minlength < 0:
        raise fail('bincount', f"minlength must be non-negative, got {minlength}")
    w = None
    if weights is not None:
        w = to_tensor(weights, 'bincount')
        if w.shape != t.shape:
            raise fail('bincount', f"x and weights must have the same shape, got {t.shape} "
                                   f"and {w.shape}")
        w = w if w._data.dtype.kind in 'fV' else ops.cast(w, _F32)
    t = ops.clamp(t, 0, None)
    if length is None:
        top = int(values(t).max()) + 1 if t.shape[0] else 0
        length = max(top, minlength)
    else:
        length = integer(length, 'bincount', 'length')
    return _counts(t, w, length)


def digitize(x, bins, right=False):
    """The index of the bin of ``bins`` (1-d, increasing or decreasing) each value of ``x``
    falls in; ``right`` makes bins closed on the right instead of the left. Int32."""
    x = to_tensor(x, 'digitize')
    edges = to_tensor(bins, 'digitize')
    if edges.ndim != 1:
        raise fail('digitize', f"bins must be 1-d, got shape {edges.shape}")
    if edges.shape[0] == 0:
        return Tensor._wrap(np.zeros(x.shape, _I32))
    side = 'left' if right else 'right'
    if edges._data.dtype != x._data.dtype:
        from ._args import promoted
        x, edges = promoted([x, edges])
    e = values(edges)
    if e[0] <= e[-1]:
        return ops.searchsorted(edges, x, out_int32=True, side=side)
    found = ops.searchsorted(ops.flip(edges, (0,)), x, out_int32=True, side=side)
    return ops.sub(Tensor._wrap(np.asarray(edges.shape[0], _I32)), found)


def _edges(a, bins, range_, name):
    """Bin edges for the flat Float32 ``a``: ``bins`` as given when a sequence, else that many
    equal bins over ``range_`` (default: the range of ``a``; widened by 0.5 each side when
    empty)."""
    if isinstance(bins, (list, tuple, Tensor)):
        e = to_tensor(bins, name)
        if e.ndim != 1:
            raise fail(name, f"bins must be 1-d when an array, got shape {e.shape}")
        if (np.diff(values(e)) < 0).any():
            raise fail(name, "bins must increase monotonically")
        return e
    if isinstance(bins, str):
        raise fail(name, f"bins given by a rule name ({bins!r}) are not available")
    n = integer(bins, name, 'bins')
    if n < 1:
        raise fail(name, f"bins must be positive, got {n}")
    steps = Tensor._wrap(np.linspace(0.0, 1.0, n + 1).astype(_F32))
    if range_ is None:
        if a.size == 0:
            return ops.mul(steps, 1.0)
        lo, hi = ops.amin(a), ops.amax(a)      # the data's range, on the graph of ops
    else:
        if not isinstance(range_, (list, tuple)) or len(range_) != 2:
            raise fail(name, f"range must be (start, end), got {range_!r}")
        lo, hi = (ops.cast(ops.reshape(to_tensor(r, name), ()), _F32) for r in range_)
        if values(lo) > values(hi):
            raise fail(name, f"max must be larger than min in range, got {range_!r}")
    empty = ops.equal(lo, hi)
    lo = ops.where(empty, ops.sub(lo, 0.5), lo)
    hi = ops.where(empty, ops.add(hi, 0.5), hi)
    return ops.add(lo, ops.mul(ops.sub(hi, lo), steps))


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """The edges of the bins ``histogram`` would use."""
    x = ops.cast(ops.reshape(to_tensor(a, 'histogram_bin_edges'), (-1,)), _F32)
    if weights is not None and to_tensor(weights).size != x.size:
        raise fail('histogram_bin_edges', "weights must have the shape of a")
    return _edges(x, bins, range, 'histogram_bin_edges')


def _bin_of(x, edges):
    """Each value's bin (the last bin closed on the right); -1 or len(edges) - 1 outside."""
    n = edges.shape[0]
    pos = ops.sub(ops.searchsorted(edges, x, out_int32=True, side='right'), 1)
    last = ops.equal(x, ops.getitem(edges, n - 1))
    return ops.where(last, Tensor._wrap(np.asarray(n - 2, _I32)), pos)


def _flat_weights(weights, shape, name):
    if weights is None:
        return None
    w = to_tensor(weights, name)
    if w.shape != shape:
        raise fail(name, f"weights must have the shape of the data {shape}, got {w.shape}")
    w = ops.reshape(w, (-1,))
    return w if w._data.dtype.kind in 'fV' else ops.cast(w, _F32)


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """The histogram of ``a``: ``(counts, bin_edges)``; ``weights`` replace the unit counts,
    ``density`` normalises the counts to a probability density."""
    x = to_tensor(a, 'histogram')
    w = _flat_weights(weights, x.shape, 'histogram')
    x = ops.cast(ops.reshape(x, (-1,)), _F32)
    edges = _edges(x, bins, range, 'histogram')
    nbins = edges.shape[0] - 1
    counts = _counts(_bin_of(x, ops.cast(edges, _F32)), w, nbins)
    if density:
        widths = ops.sub(ops.getitem(edges, slice(1, None)), ops.getitem(edges, slice(0, -1)))
        counts = ops.div(ops.div(counts, ops.sum(counts)), ops.cast(widths, counts.dtype))
    return counts, edges


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """The multidimensional histogram of ``sample`` ((N, D) points, or a sequence of D
    coordinate arrays): ``(counts, [edges per dimension])``."""
    if isinstance(sample, (list, tuple)):
        pts = ops.stack([ops.cast(ops.reshape(to_tensor(s, 'histogramdd'), (-1,)), _F32)
                         for s in sample], -1)
    else:
        pts = to_tensor(sample, 'histogramdd')
        if pts.ndim != 2:
            raise fail('histogramdd', f"sample must be 2-d (N, D), got shape {pts.shape}")
        pts = ops.cast(pts, _F32)
    d = pts.shape[1]
    bins = [bins] * d if isinstance(bins, (int, np.integer)) else list(bins)
    ranges = [None] * d if range is None else list(range)
    if len(bins) != d or len(ranges) != d:
        raise fail('histogramdd', f"bins and range need one entry per dimension ({d})")
    w = _flat_weights(weights, (pts.shape[0],), 'histogramdd')
    edges, flat, shape = [], None, []
    for i in builtins.range(d):
        col = ops.getitem(pts, (slice(None), i))
        e = _edges(col, bins[i], ranges[i], 'histogramdd')
        edges.append(e)
        n = e.shape[0] - 1
        pos = _bin_of(col, ops.cast(e, _F32))
        outside = ops.logical_or(ops.lt(pos, 0), ops.ge(pos, n))
        flat = pos if flat is None else ops.add(ops.mul(flat, n), pos)
        bad = outside if i == 0 else ops.logical_or(bad, outside)
        shape.append(n)
    flat = ops.where(bad, Tensor._wrap(np.asarray(-1, _I32)), flat)
    counts = ops.reshape(_counts(flat, w, int(np.prod(shape))), tuple(shape))
    if density:
        counts = ops.div(counts, ops.sum(counts))
        for i, e in enumerate(edges):
            widths = ops.cast(ops.sub(ops.getitem(e, slice(1, None)),
                                      ops.getitem(e, slice(0, -1))), counts.dtype)
            counts = ops.div(counts, ops.reshape(widths, tuple(-1 if j == i else 1
                                                               for j in builtins.range(d))))
    return counts, edges


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """The 2-d histogram of the points ``(x, y)``: ``(counts, x_edges, y_edges)``."""
    counts, edges = histogramdd((x, y), bins, range, weights, density)
    return counts, edges[0], edges[1]


__all__ = ['bincount', 'digitize', 'histogram_bin_edges', 'histogram', 'histogramdd',
           'histogram2d']
