"""Running and summary statistics: cumprod, logcumsumexp, logsumexp, diff, std_mean,
var_mean, the NaN-ignoring nansum and nanmean, and the exclusive/reverse running forms of
MindSpore's CumSum/CumProd/CumulativeLogsumexp primitives.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op
from ..autograd.math import array_math
from ..kernels.backend import array_module
from ._base import as_tensor, normalize_axis, scalar_arg
from .arithmetic import add, cast, div, sub
from .comparison import isnan, logical_not
from .indexing import where
from .reduction import _axes, _floating, amax, cumsum, mean, std, var
from .reduction import reduce_sum as _reduce_sum, sum as _sum
from .unary import _floating as _float_input

_I64 = np.dtype(np.int64)


class CumProd(Op):
    """y = running product along ``axis``.

    dy_j/dx_i is the product of x_k for k <= j, k != i. Before a slice's first zero that is
    y_j / x_i; at the first zero it is the running product of the slice with that zero taken
    as 1; after it, 0. Masks of those three parts are constants of forward.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, axis):
        dtype = _I64 if x.dtype.kind in 'biu' else None
        y = np.cumprod(x, axis, dtype=dtype)
        if ctx.recording:
            ctx.axis = axis
            zero = x == 0
            seen = np.cumsum(zero, axis)
            first = zero & (seen == 1)
            ctx.save(x, y, (seen == 0).astype(x.dtype), first)
        return y

    @staticmethod
    def backward(ctx, gy):
        x, y, before, first = ctx.saved
        m, axis = ctx.m, ctx.axis

        def reverse_cumsum(v):
            return m.flip(m.cumsum(m.flip(v, (axis,)), axis), (axis,))

        safe = m.where(before > 0, x, m.ones_like(x))
        g = reverse_cumsum(gy * y) / safe * before
        if ctx.xp is np and not first.any():    # a device skips the host read: no shortcut
            return g
        # the first zero of a slice: the running product with that zero replaced by 1
        replaced = m.where(first, m.ones_like(x), x)
        if m is array_math:
            c = np.cumprod(replaced, axis)
        else:
            c = CumProd.apply(replaced, axis=axis)
        return g + m.where(first, reverse_cumsum(gy * c), 0)


class LogCumSumExp(Op):
    """y = log(cumsum(exp(x))) along ``axis``, exact (np.logaddexp.accumulate).

    dy_j/dx_i = exp(x_i - y_j) for i <= j; the gradient is formed in Float64 around the last
    (largest) y of each slice, exact while a slice's values span less than about 700.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, axis):
        if ctx.xp is np:
            y = np.logaddexp.accumulate(x, axis)
        else:
            y = _log_cum_sum_exp_scan(ctx.xp, x, axis)
        if ctx.recording:
            ctx.axis = axis
            ctx.save(x, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        x, y = ctx.saved
        m, axis = ctx.m, ctx.axis
        dtype = (x._data if isinstance(x, Tensor) else x).dtype
        f64 = np.dtype(np.float64)
        x, y, g = m.cast(x, f64), m.cast(y, f64), m.cast(gy, f64)
        n = (y._data if isinstance(y, Tensor) else y).shape[axis]
        top = m.getitem(y, (slice(None),) * axis + (slice(n - 1, n),))
        flip = (axis,)
        tail = m.flip(m.cumsum(m.flip(g * m.exp(top - y), flip), axis), flip)
        return m.cast(m.exp(x - top) * tail, dtype)


def _log_cum_sum_exp_scan(xp, x, axis):
    """``np.logaddexp.accumulate(x, axis)`` for a device, whose ufuncs accumulate only add and
    multiply (CuPy's): a Hillis-Steele scan, log2(n) passes of logaddexp over shifted halves."""
    y = xp.moveaxis(x, axis, -1).copy()
    n, k = y.shape[-1], 1
    while k < n:
        y[..., k:] = np.logaddexp(y[..., k:], y[..., :-k])     # the right side is read first
        k *= 2
    return xp.moveaxis(y, -1, axis)


# ------------------------------------------------------------------------------ helpers
def _one_axis(axis, x, name):
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"ops.{name}: axis must be an int, got {axis!r}")
    return normalize_axis(axis, max(x.ndim, 1), name)


def _as_1d(x):
    from .shaping import reshape
    return reshape(x, (1,)) if x.ndim == 0 else x


# ------------------------------------------------------------------------------ running forms
def cumprod(input, dim, dtype=None):
    """Running product along ``dim``; integer and Bool inputs give Int64, ``dtype`` converts
    first. Zeros are fine: the gradient is exact with any number of them.

    >>> import hookgrad as ms
    >>> ms.ops.cumprod(ms.Tensor([1, 2, 3]), 0).tolist()
    [1, 2, 6]
    """
    x = _as_1d(as_tensor(input))
    ax = _one_axis(dim, x, 'cumprod')
    if dtype is not None:
        x = cast(x, dtype)
    return CumProd.apply(x, axis=ax)


def logcumsumexp(input, axis):
    """Running ``log(sum(exp(input)))`` along ``axis``, without overflow.

    Raises:
        TypeError: for a non-floating input (as MindSpore).
    """
    x = _as_1d(as_tensor(input))
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"ops.logcumsumexp: input must be a floating tensor, got {x.dtype}")
    return LogCumSumExp.apply(x, axis=_one_axis(axis, x, 'logcumsumexp'))


_IDENTITY = {'sum': 0, 'prod': 1, 'logsumexp': -np.inf}


def cumulative(kind, x, axis, exclusive=False, reverse=False):
    """A running 'sum', 'prod' or 'logsumexp' along ``axis`` (an int or a 0-d integer
    Tensor), run backwards with ``reverse`` and shifted by one with ``exclusive`` (each
    position then excludes itself and the first holds the identity)."""
    from .shaping import concat, flip
    t = _as_1d(as_tensor(x, 'x'))
    if isinstance(axis, Tensor):
        axis = scalar_arg(axis, 'axis')
    ax = _one_axis(axis, t, f'Cum{kind}')
    if reverse:
        t = flip(t, ax)
    if kind == 'sum':
        y = cumsum(t, ax)
    elif kind == 'prod':
        y = CumProd.apply(t, axis=ax)
    else:
        y = logcumsumexp(t, ax)
    if exclusive:
        n = t.shape[ax]
        head = Tensor._wrap(array_module(y._data).full(t.shape[:ax] + (1,) + t.shape[ax + 1:],
                                                       _IDENTITY[kind], y._data.dtype))
        y = concat([head, y[(slice(None),) * ax + (slice(0, max(n - 1, 0)),)]], ax)
    if reverse:
        y = flip(y, ax)
    return y


# ------------------------------------------------------------------------------ summaries
def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(input)))`` over ``dim`` (an int or tuple), without overflow; integers
    give Float32.

    >>> import hookgrad as ms
    >>> round(ms.ops.logsumexp(ms.Tensor([1.0, 2.0]), 0).item(), 5)
    2.31326
    """
    from .comparison import isfinite
    from .creation import stop_gradient
    from .indexing import where
    from .reduction import sum as reduce_sum
    from .shaping import squeeze
    from .unary import exp, log
    x = _floating(as_tensor(input))
    axes = _axes(x, dim, 'logsumexp')
    shift = stop_gradient(amax(x, axes, True))
    shift = where(isfinite(shift), shift, 0)        # all -inf: log(0) = -inf, not NaN
    y = add(log(reduce_sum(exp(sub(x, shift)), axes, True)), shift)
    if keepdim or x.ndim == 0:
        return y
    return squeeze(y, tuple(range(x.ndim)) if axes is None else axes)


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th forward difference ``x[i + 1] - x[i]`` along ``axis`` (XOR for Bool),
    after joining ``prepend`` and ``append`` to ``x`` along that axis.

    Raises:
        ValueError: for a negative n or a 0-d input.
    """
    from .comparison import ne
    from .shaping import concat
    t = as_tensor(x, 'x')
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
        raise ValueError(f"ops.diff: n must be a non-negative int, got {n!r}")
    if t.ndim == 0:
        raise ValueError("ops.diff: x must have rank >= 1, got shape ()")
    ax = _one_axis(axis, t, 'diff')
    parts = [p for p in (prepend, t, append) if p is not None]
    if len(parts) > 1:
        t = concat([as_tensor(p, 'prepend', t) for p in parts], ax)
    lead = (slice(None),) * ax
    for _ in range(int(n)):
        size = t.shape[ax]
        later, earlier = t[lead + (slice(1, size),)], t[lead + (slice(0, max(size - 1, 0)),)]
        t = ne(later, earlier) if t._data.dtype == np.bool_ else sub(later, earlier)
    return t


def std_mean(input, axis=None, ddof=0, keepdims=False):
    """``(std, mean)`` over ``axis`` (None or () for all axes), the std dividing by n - ddof."""
    return std(input, axis, ddof, keepdims), mean(input, axis, keepdims)


def var_mean(input, axis=None, ddof=0, keepdims=False):
    """``(var, mean)`` over ``axis`` (None or () for all axes), the var dividing by n - ddof."""
    return var(input, axis, ddof, keepdims), mean(input, axis, keepdims)


# ------------------------------------------------------------------------------ NaN-ignoring
def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """The sum over ``axis`` (all axes for None) with NaN counted as 0; as MindSpore's, an
    integer input sums in its own dtype, Bool in Int64, and ``dtype`` converts the result."""
    x = as_tensor(input, 'input')
    if x._data.dtype.kind in 'fV':
        x = where(isnan(x), 0.0, x)
    own = x.dtype if x._data.dtype.kind in 'iu' else None
    y = _sum(x, () if axis is None else axis, keepdims, dtype=own)
    return y if dtype is None else cast(y, dtype)


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """The mean over ``axis`` (all axes for None) of the elements that are not NaN."""
    x = _float_input(input)
    keep = cast(logical_not(isnan(x)), x.dtype)
    axes = () if axis is None else axis
    total = _reduce_sum(where(isnan(x), 0.0, x), axes, keepdims)
    y = div(total, _reduce_sum(keep, axes, keepdims))
    return y if dtype is None else cast(y, dtype)
