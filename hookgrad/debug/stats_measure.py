"""How ``StatsRecorder`` reduces an array to a few numbers, and pools them.

Each array becomes ``(count, finite count, sum, sum of squares, centred sum of squares, min,
max, zeros, nan, inf)`` in one pass over memory; the statistics (mean, std, ...) derive from
pooled tuples, so several tensors or calls of one cell in one step merge exactly.

A device array is measured on its device (``_measure_device``): the ten numbers stay there, as
one float64 vector, until the step ends and every vector of the step is read at once.
"""
import math

import numpy as np

from ..kernels import backend

_EMPTY = (0, 0, 0.0, 0.0, 0.0, math.inf, -math.inf, 0, 0, 0)
_CHUNK = 1 << 17                   # values per block: 512 KiB of float32 stays in L2
_zero_mask = np.zeros(_CHUNK, bool)     # scratch for the comparison with zero


def _measure(a):
    """One array reduced to ``(count, finite count, sum, sum of squares, centred sum of squares,
    min, max, zeros, nan, inf)``: mean, std, min and max over the finite values.

    Block by block, five reductions each (dot, sum, min, max, comparison with zero), so a large
    array is read from memory once and the other four reductions find it in cache.
    """
    if a.dtype.itemsize < 4:
        a = a.astype(np.float32)
    f = a.ravel(order='K')      # a view for any layout that is a permutation of contiguous
    n = f.size
    if n == 0:
        return _EMPTY
    s = ss = 0.0
    mn, mx = math.inf, -math.inf
    zeros = 0
    dot, low, high, equal, count = np.dot, np.minimum.reduce, np.maximum.reduce, np.equal, \
        np.count_nonzero
    for i in range(0, n, _CHUNK):
        g = f[i:i + _CHUNK]
        q = float(dot(g, g))
        if not math.isfinite(q):            # a NaN or Inf (or float32 squares overflowing)
            return _measure_nonfinite(f)
        ss += q
        s += _sum(g, len(g))
        mn = min(mn, float(low(g)))
        mx = max(mx, float(high(g)))
        zeros += int(count(equal(g, 0, out=_zero_mask[:len(g)])))      # -0.0 counts too
    return (n, n, s, ss, _centred(f, s, ss, n), mn, mx, zeros, 0, 0)


_ONES = {}       # dtype -> a block of ones, for sums as matrix-vector products
_BLOCK = 1024


def _sum(f, n):
    """Sum of a 1-D array: rows of 1024 summed by one BLAS matrix-vector product, which runs
    several times faster than ``ndarray.sum`` and rounds no worse (1024 terms per partial)."""
    if n < 8 * _BLOCK:
        return float(f.sum())
    ones = _ONES.get(f.dtype)
    if ones is None:
        ones = _ONES[f.dtype] = np.ones(_BLOCK, f.dtype)
    m = n - n % _BLOCK
    s = float((f[:m].reshape(-1, _BLOCK) @ ones).sum())
    return s + float(f[m:].sum()) if m < n else s


def _centred(f, s, ss, n):
    """Sum of squared deviations from the mean; recomputed from the centred values when the
    shortcut ``ss - s*s/n`` would lose its digits (values far from zero, spread small)."""
    m2 = ss - s * s / n
    if m2 > 1e-2 * ss or ss == 0:
        return m2
    c = f - f.dtype.type(s / n)
    c = c.astype(np.float64) if f.dtype.itemsize < 8 else c
    return float(np.dot(c, c))


def _measure_nonfinite(f):
    """The slow path for arrays with NaN or Inf (or float32 squares that overflow)."""
    nan = int(np.count_nonzero(np.isnan(f)))
    inf = int(np.count_nonzero(np.isinf(f)))
    g = f[np.isfinite(f)].astype(np.float64) if nan or inf else f.astype(np.float64)
    n = g.size
    if n == 0:
        return (f.size, 0, 0.0, 0.0, 0.0, math.inf, -math.inf, 0, nan, inf)
    s, ss = float(g.sum()), float(np.dot(g, g))
    return (f.size, n, s, ss, _centred(g, s, ss, n), float(g.min()), float(g.max()),
            int(np.count_nonzero(g == 0)), nan, inf)


def _measure_device(a):
    """``_measure`` of a device array, computed on its device without reading it: a float64
    vector of the ten numbers (a host tuple for an empty array)."""
    n = a.size
    if n == 0:
        return _EMPTY
    xp = backend.array_module(a)
    f = a.reshape(-1)
    finite = xp.isfinite(f)
    g = xp.where(finite, f, 0).astype(np.float64)
    count = finite.sum()
    s = g.sum()
    c = xp.where(finite, g - s / xp.maximum(count, 1), 0)
    parts = (xp.full((), n, np.float64), count, s, g @ g, c @ c,
             xp.where(finite, f, np.inf).min(), xp.where(finite, f, -np.inf).max(),
             (f == 0).sum(), xp.isnan(f).sum(), xp.isinf(f).sum())
    return xp.stack([p.astype(np.float64) for p in parts])


def _grad_device(g):
    """A device gradient's ``(squared norm of the finite values, NaN count, Inf count)`` as a
    float64 vector on its device."""
    xp = backend.array_module(g)
    f = g.reshape(-1)
    finite = xp.isfinite(f)
    h = xp.where(finite, f, 0).astype(np.float64)
    parts = (h @ h, xp.isnan(f).sum(), xp.isinf(f).sum())
    return xp.stack([p.astype(np.float64) for p in parts])


def _read(arrays):
    """Host copies of 1-D device arrays, read in one transfer."""
    if not arrays:
        return []
    xp = backend.array_module(arrays[0])
    flat = backend.to_host(xp.concatenate(arrays), "StatsRecorder's statistics of a step")
    out, start = [], 0
    for a in arrays:
        out.append(flat[start:start + a.size])
        start += a.size
    return out


def _pool(acc, m):
    """Merge measurement ``m`` into accumulator ``acc`` (Chan's rule for the centred sum)."""
    n1, n2 = acc[1], m[1]
    if n2:
        if n1:
            d = m[2] / n2 - acc[2] / n1
            acc[4] += m[4] + d * d * n1 * n2 / (n1 + n2)
        else:
            acc[4] = m[4]
    acc[0] += m[0]
    acc[1] = n1 + n2
    acc[2] += m[2]
    acc[3] += m[3]
    acc[5] = min(acc[5], m[5])
    acc[6] = max(acc[6], m[6])
    acc[7] += m[7]
    acc[8] += m[8]
    acc[9] += m[9]


def _derive(acc):
    """The ten statistics (STATS order) from an accumulator."""
    count, n, s, ss, m2, mn, mx, zeros, nan, inf = acc
    if n == 0:
        nanv = math.nan
        return (count, nanv, nanv, nanv, nanv, nanv, zeros / count if count else nanv, nan, inf,
                math.sqrt(ss))
    return (count, s / n, math.sqrt(max(m2, 0.0) / n), mn, mx, max(-mn, mx), zeros / count,
            nan, inf, math.sqrt(ss))
