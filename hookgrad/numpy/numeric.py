"""Differences, integration, interpolation, convolution and polynomials of
``mindspore.numpy``: diff, ediff1d, gradient, trapz, interp, unwrap, convolve, correlate and
the poly* functions. All are differentiable in their floating inputs.
"""
import numpy as np

from .. import ops
from .._tensor import Tensor
from ._args import axes_of, axis_of, fail, floating, integer, promoted, to_tensor

_F32 = np.dtype(np.float32)


def _along(x, axis, start, stop):
    """``x[..., start:stop, ...]`` on ``axis``."""
    return ops.getitem(x, (slice(None),) * axis + (slice(start, stop),))


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th discrete difference along ``axis`` (after joining ``prepend`` and
    ``append``); integers keep their dtype."""
    from .manipulation import broadcast_to, concatenate
    x = to_tensor(a, 'diff')
    if x.ndim == 0:
        raise fail('diff', "diff requires input that is at least one dimensional")
    axis = axis_of(axis, x.ndim, 'diff')
    n = integer(n, 'diff', 'n')
    if n < 0:
        raise fail('diff', f"order must be non-negative, got {n}")
    def edge(extra):
        e = to_tensor(extra, 'diff')
        if e.ndim == 0:
            e = broadcast_to(e, x.shape[:axis] + (1,) + x.shape[axis + 1:])
        return e

    parts = ([edge(prepend)] if prepend is not None else []) + [x] + \
        ([edge(append)] if append is not None else [])
    if len(parts) > 1:
        x = concatenate(parts, axis)
    for _ in range(n):
        x = ops.sub(_along(x, axis, 1, None), _along(x, axis, None, -1))
    return x


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences of consecutive elements of the flattened ``ary``, with ``to_begin``
    and ``to_end`` (flattened, cast to its dtype) joined at the ends."""
    x = ops.reshape(to_tensor(ary, 'ediff1d'), (-1,))
    parts = [diff(x)]
    if to_begin is not None:
        parts.insert(0, ops.cast(ops.reshape(to_tensor(to_begin, 'ediff1d'), (-1,)),
                                 x._data.dtype))
    if to_end is not None:
        parts.append(ops.cast(ops.reshape(to_tensor(to_end, 'ediff1d'), (-1,)), x._data.dtype))
    return ops.concat(parts, 0)


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of sampled values: central differences inside, one-sided at the edges,
    along each axis in ``axis`` (all by default), with scalar spacings ``varargs`` (one, or
    one per axis). A list of arrays for several axes.

    Raises:
        ValueError: for ``edge_order`` other than 1, or an axis with fewer than 2 samples.
        TypeError: for a spacing given as an array of coordinates.
    """
    if edge_order != 1:
        raise fail('gradient', f"edge_order {edge_order!r} is not available; only 1 is")
    x = to_tensor(f, 'gradient')
    x = x if x._data.dtype == np.float64 else ops.cast(x, _F32)
    axes = axes_of(axis, x.ndim, 'gradient')
    if not varargs:
        spacing = (1.0,) * len(axes)
    elif len(varargs) == 1:
        spacing = varargs * len(axes)
    elif len(varargs) == len(axes):
        spacing = varargs
    else:
        raise fail('gradient', f"{len(varargs)} spacings for {len(axes)} axes", TypeError)
    out = []
    for h, ax in zip(spacing, axes):
        if not (isinstance(h, Tensor) and h.ndim == 0) and (
                not isinstance(h, (int, float)) or isinstance(h, bool)):
            raise fail('gradient', "spacing must be a scalar (coordinate arrays are not "
                                   "available)", TypeError)
        n = x.shape[ax]
        if n < 2:
            raise fail('gradient', f"axis {ax} has {n} samples; at least 2 are required")
        first = ops.sub(_along(x, ax, 1, 2), _along(x, ax, 0, 1))
        last = ops.sub(_along(x, ax, n - 1, n), _along(x, ax, n - 2, n - 1))
        parts = [first]
        if n > 2:
            parts.append(ops.mul(ops.sub(_along(x, ax, 2, n), _along(x, ax, 0, n - 2)), 0.5))
        parts.append(last)
        out.append(ops.div(ops.concat(parts, ax), h))
    return out[0] if len(out) == 1 else out


def trapz(y, x=None, dx=1.0, axis=-1):
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, at sample points ``x``
    (or spacing ``dx``)."""
    t = floating(to_tensor(y, 'trapz'))
    axis = axis_of(axis, t.ndim, 'trapz')
    n = t.shape[axis]
    if x is not None:
        xs = floating(to_tensor(x, 'trapz'))
        d = diff(xs, axis=-1 if xs.ndim == 1 else axis)
        if d.ndim == 1:
            d = ops.reshape(d, (-1,) + (1,) * (t.ndim - axis - 1))
    else:
        d = to_tensor(dx, 'trapz') if isinstance(dx, Tensor) else dx
    mids = ops.mul(ops.add(_along(t, axis, 1, n), _along(t, axis, 0, n - 1)), 0.5)
    return ops.sum(ops.mul(mids, d), axis)


def interp(x, xp, fp, left=None, right=None):
    """One-dimensional linear interpolation of the points ``(xp, fp)`` (``xp`` increasing)
    at ``x``; ``left`` / ``right`` (default: the end values of ``fp``) outside them. Float32."""
    x = ops.cast(to_tensor(x, 'interp'), _F32)
    xp = ops.cast(to_tensor(xp, 'interp'), _F32)
    fp = ops.cast(to_tensor(fp, 'interp'), _F32)
    if xp.ndim != 1 or fp.ndim != 1:
        raise fail('interp', f"xp and fp must be 1-d, got shapes {xp.shape} and {fp.shape}")
    n = xp.shape[0]
    if fp.shape[0] != n:
        raise fail('interp', f"fp and xp are not of the same length ({fp.shape[0]} != {n})")
    if n == 0:
        raise fail('interp', "xp and fp cannot be empty")
    hi = ops.clamp(ops.searchsorted(xp, x, out_int32=True), 0, n - 1)
    lo = ops.clamp(ops.sub(hi, 1), 0, n - 1)
    x0, x1 = ops.take(xp, lo, 0), ops.take(xp, hi, 0)
    y0, y1 = ops.take(fp, lo, 0), ops.take(fp, hi, 0)
    same = ops.equal(x0, x1)
    span = ops.where(same, ops.ones_like(x0), ops.sub(x1, x0))
    y = ops.div(ops.add(ops.mul(y0, ops.sub(x1, x)), ops.mul(y1, ops.sub(x, x0))), span)
    y = ops.where(same, y0, y)
    low = ops.getitem(fp, 0) if left is None else ops.cast(to_tensor(left, 'interp'), _F32)
    high = ops.getitem(fp, n - 1) if right is None else ops.cast(to_tensor(right, 'interp'),
                                                                 _F32)
    y = ops.where(ops.lt(x, ops.getitem(xp, 0)), low, y)
    return ops.where(ops.gt(x, ops.getitem(xp, n - 1)), high, y)


def unwrap(p, discont=np.pi, axis=-1):
    """``p`` with jumps between consecutive elements larger than ``discont`` replaced by
    their 2 pi complement, along ``axis``."""
    if isinstance(discont, bool) or not isinstance(discont, (int, float)):
        raise fail('unwrap', f"discont must be a number, got {discont!r}", TypeError)
    x = floating(to_tensor(p, 'unwrap'))
    axis = axis_of(axis, x.ndim, 'unwrap')
    d = diff(x, axis=axis)
    pi = Tensor._wrap(np.asarray(np.pi, x._data.dtype))
    dmod = ops.sub(ops.remainder(ops.add(d, pi), 2 * np.pi), pi)
    dmod = ops.where(ops.logical_and(ops.equal(dmod, -np.pi), ops.gt(d, 0)), pi, dmod)
    correct = ops.where(ops.lt(ops.abs(d), discont), ops.zeros_like(d), ops.sub(dmod, d))
    tail = ops.add(_along(x, axis, 1, None), ops.cumsum(correct, axis))
    return ops.concat([_along(x, axis, 0, 1), tail], axis)


# ----------------------------------------------------------------------------- convolution
def _vectors(a, v, name):
    a, v = promoted([to_tensor(a, name), to_tensor(v, name)])
    if a.ndim > 1 or v.ndim > 1:
        raise fail(name, f"a and v must be 1-d, got shapes {a.shape} and {v.shape}")
    a, v = ops.reshape(a, (-1,)), ops.reshape(v, (-1,))
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise fail(name, "a and v cannot be empty")
    return a, v


def _full_correlation(a, v):
    """``c[k] = sum_n a_padded[k + n] * v[n]`` over a zero-padded ``a``: every overlap."""
    n, m = a.shape[0], v.shape[0]
    zeros = Tensor._wrap(np.zeros(m - 1, a._data.dtype))
    padded = ops.concat([zeros, a, zeros], 0) if m > 1 else a
    windows = ops.getitem(padded, (np.arange(n + m - 1)[:, None] + np.arange(m)[None, :],))
    return ops.matmul(windows, v)


def correlate(a, v, mode='valid'):
    """The cross-correlation of the 1-d ``a`` and ``v``: ``c[k] = sum_n a[n + k] * v[n]``;
    ``mode`` 'valid' (full overlaps), 'same' (the length of the longer) or 'full'."""
    if mode not in ('valid', 'same', 'full'):
        raise fail('correlate', f"mode must be 'valid', 'same' or 'full', got {mode!r}")
    a, v = _vectors(a, v, 'correlate')
    full = _full_correlation(a, v)
    n, m = a.shape[0], v.shape[0]
    if mode == 'full':
        return full
    if mode == 'valid':
        start, length = min(n, m) - 1, max(n, m) - min(n, m) + 1
    else:
        start = (m - 1) // 2 if n >= m else n - 1 - (n - 1) // 2
        length = max(n, m)
    return ops.getitem(full, slice(start, start + length))


def convolve(a, v, mode='full'):
    """The discrete linear convolution of the 1-d ``a`` and ``v``; ``mode`` 'full' (every
    overlap), 'same' (the length of the longer) or 'valid' (full overlaps)."""
    if mode not in ('valid', 'same', 'full'):
        raise fail('convolve', f"mode must be 'valid', 'same' or 'full', got {mode!r}")
    a, v = _vectors(a, v, 'convolve')
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    return correlate(a, ops.flip(v, (0,)), mode)


# ----------------------------------------------------------------------------- polynomials
def _poly(p, name):
    t = to_tensor(p, name)
    if t.ndim > 1:
        raise fail(name, f"a polynomial must be 1-d coefficients, got shape {t.shape}")
    return ops.reshape(t, (-1,))


def _poly_join(a1, a2, fn, name):
    a, b = promoted([_poly(a1, name), _poly(a2, name)])
    n, m = a.shape[0], b.shape[0]
    if n == m:
        return fn(a, b)
    zeros = Tensor._wrap(np.zeros(abs(n - m), a._data.dtype))
    if n > m:
        return fn(a, ops.concat([zeros, b], 0))
    return fn(ops.concat([zeros, a], 0), b)


def polyadd(a1, a2):
    """The sum of two polynomials (coefficients from the highest power)."""
    return _poly_join(a1, a2, ops.add, 'polyadd')


def polysub(a1, a2):
    """The difference of two polynomials."""
    return _poly_join(a1, a2, ops.sub, 'polysub')


def polymul(a1, a2):
    """The product of two polynomials."""
    return convolve(_poly(a1, 'polymul'), _poly(a2, 'polymul'))


def polyval(p, x):
    """The polynomial ``p`` (coefficients from the highest power) at ``x``, by Horner's
    rule."""
    p = _poly(p, 'polyval')
    x = to_tensor(x, 'polyval')
    p, x = (floating(t) for t in promoted([p, x]))       # integers give Float32
    y = ops.zeros_like(x)
    for i in range(p.shape[0]):     # one step per coefficient, each element-wise over x
        y = ops.add(ops.mul(y, x), ops.getitem(p, i))
    return y


def polyder(p, m=1):
    """The ``m``-th derivative of the polynomial ``p``."""
    p = _poly(p, 'polyder')
    m = integer(m, 'polyder', 'm')
    if m < 0:
        raise fail('polyder', f"order of derivative must be non-negative, got {m}")
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return Tensor._wrap(np.zeros(0, p._data.dtype))
        powers = Tensor._wrap(np.arange(n, 0, -1).astype(p._data.dtype))
        p = ops.mul(ops.getitem(p, slice(0, n)), powers)
    return p


def polyint(p, m=1, k=None):
    """The ``m``-th antiderivative of the polynomial ``p``, with integration constants ``k``
    (a number or one per integration; 0 by default)."""
    p = floating(_poly(p, 'polyint'))
    m = integer(m, 'polyint', 'm')
    if m < 0:
        raise fail('polyint', f"order of integral must be non-negative, got {m}")
    consts = ops.reshape(ops.cast(to_tensor(0.0 if k is None else k, 'polyint'),
                                  p._data.dtype), (-1,))
    if consts.shape[0] == 1 and m > 1:
        consts = ops.tile(consts, (m,))
    if m and consts.shape[0] != m:
        raise fail('polyint', f"k must be a number or have {m} values, got {consts.shape[0]}")
    for i in range(m):
        n = p.shape[0]
        powers = Tensor._wrap(np.arange(n, 0, -1).astype(p._data.dtype))
        p = ops.concat([ops.div(p, powers), ops.getitem(consts, slice(i, i + 1))], 0)
    return p


__all__ = ['diff', 'ediff1d', 'gradient', 'trapz', 'interp', 'unwrap', 'correlate', 'convolve',
           'polyadd', 'polysub', 'polymul', 'polyval', 'polyder', 'polyint']
