"""Reductions and statistics of ``mindspore.numpy``: sums and means, extremes, variance,
running sums and products, the NaN-ignoring forms, covariance.

Dtypes follow MindSpore's: ``sum`` of integers is Int64, ``mean`` and ``average`` keep the
input's dtype (a mean of integers is truncated), ``var`` and ``std`` of integers are Float32,
``argmax`` is Int64 and ``argmin`` Int32. All floating results are
differentiable.
"""
import numpy as np

from .. import ops
from .._tensor import Tensor
from ._args import axes_of, axis_of, fail, floating, np_dtype, result, to_tensor, values

_I32 = np.dtype(np.int32)


def _input(a, name):
    return to_tensor(a, name)


def _axes(x, axis, name):
    """The reduced axes, checked (None: all)."""
    if axis is not None and not isinstance(axis, (int, np.integer, tuple, list)):
        raise fail(name, f"axis must be None, an int or a tuple of ints, got {axis!r}",
                   TypeError)
    return axes_of(axis, x.ndim, name)


def _keep(keepdims, name):
    if not isinstance(keepdims, (bool, int, np.bool_)):
        raise fail(name, f"keepdims must be a bool, got {keepdims!r}", TypeError)
    return bool(keepdims)


def _zero(x):
    return Tensor._wrap(np.zeros((), x._data.dtype))


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001
    """Sum over ``axis`` (None: all); integers and bools sum to Int64, ``dtype`` converts the
    input first, ``initial`` is added.

    >>> import hookgrad.numpy as mnp
    >>> mnp.sum(mnp.array([[1, 2], [3, 4]]), axis=0)
    Tensor(shape=[2], dtype=Int64, value= [4, 6])
    """
    x = _input(a, 'sum')
    axes = _axes(x, axis, 'sum')
    dt = np_dtype(dtype, 'sum')
    if dt is not None:
        x = ops.cast(x, dt)
    y = ops.sum(x, axes, _keep(keepdims, 'sum')) if axes else \
        (ops.identity(x) if x._data.dtype.kind in 'fV' else ops.cast(x, np.int64))
    if dt is not None and y._data.dtype != dt:
        y = ops.cast(y, dt)
    if initial is not None:
        if not isinstance(initial, (bool, int, float)):
            raise fail('sum', f"initial must be a number, got {initial!r}", TypeError)
        y = ops.add(y, initial)
    return y


def mean(a, axis=None, keepdims=False, dtype=None):
    """Mean over ``axis``, of ``dtype`` (default: the input's, so integers give a truncated
    integer mean, as in MindSpore)."""
    x = _input(a, 'mean')
    axes = _axes(x, axis, 'mean')
    y = ops.mean(floating(x), axes, _keep(keepdims, 'mean')) if axes else floating(x)
    return result(y, x._data.dtype if dtype is None else dtype, 'mean')


def _where_mask(where, name):
    if where is True or where is None:
        return None
    return to_tensor(where, name)


def _extreme(fn, a, axis, keepdims, initial, where, name):
    x = _input(a, name)
    axes = _axes(x, axis, name)
    mask = _where_mask(where, name)
    if mask is not None and initial is None:
        raise fail(name, "initial must be given with a where mask (the value where it is False)")
    if initial is not None and not isinstance(initial, (bool, int, float)):
        raise fail(name, f"initial must be a number, got {initial!r}", TypeError)
    if x.size == 0 and initial is None:
        raise fail(name, "zero-size array to a reduction with no identity: give initial")
    if axes:
        y = fn(x, axes, _keep(keepdims, name), initial=initial, where=mask)
    else:       # nothing reduced: a new axis of length 1 applies initial and where
        y = fn(ops.expand_dims(x, 0), 0, False, initial=initial, where=mask)
    return y if y._data.dtype == x._data.dtype else ops.cast(y, x._data.dtype)


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    """Maximum over ``axis``; ``initial`` is a lower bound, ``where`` (with ``initial``)
    selects the elements compared. Tied maxima share the gradient."""
    return _extreme(ops.amax, a, axis, keepdims, initial, where, 'amax')


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    """Minimum over ``axis``; see ``amax``."""
    return _extreme(ops.amin, a, axis, keepdims, initial, where, 'amin')


max = amax  # noqa: A001
min = amin  # noqa: A001


def _arg(fn, a, axis, name, dtype):
    x = _input(a, name)
    if x._data.dtype == np.bool_:
        x = ops.cast(x, _I32)
    if x.size == 0:
        raise fail(name, "attempt to get the position of an extreme of an empty array")
    if axis is None:
        x, axis = ops.reshape(x, (-1,)), 0
    elif x.ndim == 0:
        x = ops.reshape(x, (1,))
    return ops.cast(fn(x, axis_of(axis, x.ndim, name)), dtype)


def argmax(a, axis=None):
    """Position of the maximum (of the flattened input when ``axis`` is None), Int64."""
    return _arg(ops.argmax, a, axis, 'argmax', np.int64)


def argmin(a, axis=None):
    """Position of the minimum (of the flattened input when ``axis`` is None), Int32
    (MindSpore gives Int32 here and Int64 for argmax)."""
    return _arg(ops.argmin, a, axis, 'argmin', _I32)


def ptp(x, axis=None, keepdims=False):
    """Range (maximum - minimum) over ``axis``."""
    return ops.sub(amax(x, axis, keepdims), amin(x, axis, keepdims))


def _moment(fn, x, axis, ddof, keepdims, name):
    x = _input(x, name)
    if isinstance(ddof, bool) or not isinstance(ddof, (int, np.integer)):
        raise fail(name, f"ddof must be an int, got {ddof!r}", TypeError)
    axes = _axes(x, axis, name)
    x = floating(x)
    if not axes:        # nothing reduced: the moment of each element alone
        return fn(ops.expand_dims(x, 0), 0, int(ddof), False)
    return fn(x, axes, int(ddof), _keep(keepdims, name))


def var(x, axis=None, ddof=0, keepdims=False):
    """Variance over ``axis``, dividing by n - ``ddof``; integers give Float32."""
    return _moment(ops.var, x, axis, ddof, keepdims, 'var')


def std(x, axis=None, ddof=0, keepdims=False):
    """Standard deviation over ``axis``, dividing by n - ``ddof``; integers give Float32."""
    return _moment(ops.std, x, axis, ddof, keepdims, 'std')


def average(x, axis=None, weights=None, returned=False):
    """Weighted mean over ``axis``; ``weights`` has the shape of ``x`` or is 1-d along the one
    given ``axis``. With ``returned``, also the sum of the weights (broadcast to the result).

    Raises:
        ZeroDivisionError: when the weights sum to 0.
    """
    x = _input(x, 'average')
    axes = _axes(x, axis, 'average')
    if weights is None:
        avg = mean(x, axis)
        count = int(np.prod([x.shape[i] for i in axes])) if axes else 1
        total = Tensor._wrap(np.full(avg.shape, count, avg._data.dtype))
        return (avg, total) if returned else avg
    w = to_tensor(weights, 'average')
    if w.shape != x.shape:
        if w.ndim != 1:
            raise fail('average', f"weights must be 1-d or of the shape of x {x.shape}, got "
                                  f"{w.shape}", TypeError)
        if not isinstance(axis, (int, np.integer)):
            raise fail('average', "axis must be an int when weights and x differ in shape",
                       TypeError)
        if w.shape[0] != x.shape[axes[0]]:
            raise fail('average', f"weights of length {w.shape[0]} do not match axis {axis} "
                                  f"of length {x.shape[axes[0]]}")
        w = ops.reshape(w, tuple(-1 if i == axes[0] else 1 for i in range(x.ndim)))
    total = sum(ops.broadcast_to(w, x.shape) if w.shape != x.shape else w, axis)
    if (values(total) == 0).any():
        raise ZeroDivisionError("numpy.average: weights sum to zero, cannot be normalized")
    avg = ops.div(sum(ops.mul(x, w), axis), total)
    avg = ops.cast(avg, x._data.dtype) if x._data.dtype.kind in 'fV' else avg
    return (avg, ops.cast(total, avg._data.dtype)) if returned else avg


def count_nonzero(x, axis=None, keepdims=False):
    """The number of nonzero elements over ``axis``, Int32."""
    x = _input(x, 'count_nonzero')
    axes = _axes(x, axis, 'count_nonzero')
    nonzero = ops.ne(x, _zero(x))
    y = ops.sum(nonzero, axes, _keep(keepdims, 'count_nonzero')) if axes else nonzero
    return ops.cast(y, _I32)


# ----------------------------------------------------------------------------- running
def _flat_axis(a, axis, name):
    x = _input(a, name)
    if axis is None:
        return ops.reshape(x, (-1,)), 0
    if x.ndim == 0:
        x = ops.reshape(x, (1,))
    return x, axis_of(axis, x.ndim, name)


def _running_dtype(x, dtype, name):
    dt = np_dtype(dtype, name)
    if dt is not None:
        return dt
    kind = x._data.dtype
    return _I32 if kind in (np.bool_, np.int8, np.int16) else kind


def cumsum(a, axis=None, dtype=None):
    """Running sum along ``axis`` (of the flattened input when None); integers keep their
    dtype (small ones and bools give Int32)."""
    x, axis = _flat_axis(a, axis, 'cumsum')
    return result(ops.cumsum(x, axis), _running_dtype(x, dtype, 'cumsum'), 'cumsum')


def cumprod(a, axis=None, dtype=None):
    """Running product along ``axis`` (of the flattened input when None); the gradient is exact
    at zeros."""
    x, axis = _flat_axis(a, axis, 'cumprod')
    dt = _running_dtype(x, dtype, 'cumprod')
    if x._data.dtype.kind == 'b':
        x = ops.cast(x, _I32)
    return result(ops.cumprod(x, axis), dt, 'cumprod')


def _nan_to(x, value):
    """``x`` with NaNs replaced by ``value`` (no gradient reaches them)."""
    if x._data.dtype.kind not in 'fV':
        return x
    return ops.where(ops.isnan(x), Tensor._wrap(np.asarray(value, x._data.dtype)), x)


def nancumsum(a, axis=None, dtype=None):
    """``cumsum`` with NaNs counted as 0."""
    return cumsum(_nan_to(_input(a, 'nancumsum'), 0), axis, dtype)


def nansum(a, axis=None, dtype=None, keepdims=False):
    """``sum`` with NaNs counted as 0."""
    return sum(_nan_to(_input(a, 'nansum'), 0), axis, dtype, keepdims)


def _count(x, axis, keepdims):
    """The number of non-NaN elements over ``axis``, Float32 or the input's float type."""
    ok = ops.logical_not(ops.isnan(x)) if x._data.dtype.kind in 'fV' else ops.ones_like(
        x, dtype=np.bool_)
    return ops.cast(sum(ok, axis, keepdims=keepdims), floating(x)._data.dtype)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """Mean ignoring NaNs (Float32 unless ``dtype`` is given); all-NaN slices give NaN, as
    documented, without a floating-point warning (MindSpore gives none)."""
    x = floating(_input(a, 'nanmean'))
    with np.errstate(invalid='ignore', divide='ignore'):
        y = ops.div(nansum(x, axis, keepdims=keepdims), _count(x, axis, keepdims))
    return result(y, np.float32 if dtype is None else dtype, 'nanmean')


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """Variance ignoring NaNs, dividing by (non-NaN count - ``ddof``); Float32 by default."""
    x = floating(_input(a, 'nanvar'))
    clean = _nan_to(x, 0)           # NaN-free, so no NaN reaches a gradient
    centred = ops.sub(clean, nanmean(x, axis, x._data.dtype, keepdims=True))
    if x._data.dtype.kind in 'fV':
        centred = ops.where(ops.isnan(x), ops.zeros_like(centred), centred)
    with np.errstate(invalid='ignore', divide='ignore'):    # all-NaN slices: NaN, silently
        y = ops.div(sum(ops.square(centred), axis, keepdims=keepdims),
                    ops.sub(_count(x, axis, keepdims), ddof))
    return result(y, np.float32 if dtype is None else dtype, 'nanvar')


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """Standard deviation ignoring NaNs; Float32 by default."""
    x = floating(_input(a, 'nanstd'))
    y = ops.sqrt(nanvar(x, axis, x._data.dtype, ddof, keepdims))
    return result(y, np.float32 if dtype is None else dtype, 'nanstd')


def _nan_extreme(fn, a, axis, dtype, keepdims, fill, name):
    x = _input(a, name)
    if x._data.dtype.kind not in 'fV':
        return result(fn(x, axis, keepdims), dtype, name)
    y = fn(_nan_to(x, fill), axis, keepdims)
    all_nan = ops.logical_not(ops.cast(sum(ops.logical_not(ops.isnan(x)), axis,
                                           keepdims=keepdims), np.bool_))
    y = ops.where(all_nan, Tensor._wrap(np.asarray(np.nan, x._data.dtype)), y)
    return result(y, dtype, name)


def nanmax(a, axis=None, dtype=None, keepdims=False):
    """Maximum ignoring NaNs; an all-NaN slice gives NaN."""
    return _nan_extreme(amax, a, axis, dtype, keepdims, -np.inf, 'nanmax')


def nanmin(a, axis=None, dtype=None, keepdims=False):
    """Minimum ignoring NaNs; an all-NaN slice gives NaN."""
    return _nan_extreme(amin, a, axis, dtype, keepdims, np.inf, 'nanmin')


# ----------------------------------------------------------------------------- covariance
def _observations(m, rowvar, name):
    x = floating(_input(m, name))
    if x.ndim > 2:
        raise fail(name, f"input must be at most 2-d, got {x.ndim}-d")
    x = ops.reshape(x, (1, -1)) if x.ndim < 2 else x
    return x if rowvar else ops.transpose(x, (1, 0))


def _sample_weights(w, n, name, what):
    t = to_tensor(w, name)
    if t._data.dtype.kind not in 'iu' and what == 'fweights':
        raise fail(name, "fweights must be integers", TypeError)
    if t.ndim != 1 or t.shape[0] != n:
        raise fail(name, f"{what} must be 1-d of length {n} (the number of observations), "
                         f"got shape {t.shape}")
    if (values(t) < 0).any():
        raise fail(name, f"{what} cannot be negative")
    return t


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    """Covariance matrix of the variables in the rows of ``m`` (columns if not ``rowvar``),
    with ``y`` as more variables; normalised by N - 1, N with ``bias``, or N - ``ddof``;
    ``fweights`` (integer repeat counts) and ``aweights`` weight the observations."""
    x = _observations(m, rowvar, 'cov')
    if y is not None:
        x = ops.concat([x, _observations(y, rowvar, 'cov')], 0)
    n = x.shape[1]
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = _sample_weights(fweights, n, 'cov', 'fweights')
    if aweights is not None:
        aw = ops.cast(_sample_weights(aweights, n, 'cov', 'aweights'), x._data.dtype)
        w = aw if w is None else ops.mul(ops.cast(w, x._data.dtype), aw)
    if w is None:
        avg = ops.mean(x, 1)
        fact = n - ddof
    else:
        w = ops.cast(w, x._data.dtype)
        total = ops.sum(w)
        avg = ops.div(ops.sum(ops.mul(x, w), 1), total)
        if ddof == 0:
            fact = total
        elif aweights is None:
            fact = ops.sub(total, ddof)
        else:
            aw = ops.cast(_sample_weights(aweights, n, 'cov', 'aweights'), x._data.dtype)
            fact = ops.sub(total, ops.div(ops.mul(ops.sum(ops.mul(w, aw)), ddof), total))
    xc = ops.sub(x, ops.expand_dims(avg, 1))
    xw = xc if w is None else ops.mul(xc, w)
    c = ops.div(ops.matmul(xc, ops.transpose(xw, (1, 0))), fact)
    c = ops.reshape(c, ()) if c.shape == (1, 1) else c
    return result(c, dtype, 'cov')


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """Pearson correlation coefficients of the variables (``cov`` normalised by the standard
    deviations, clipped to [-1, 1])."""
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return result(ops.div(c, c), dtype, 'corrcoef')
    sd = ops.sqrt(ops.getitem(c, (np.arange(c.shape[0]), np.arange(c.shape[0]))))
    r = ops.div(ops.div(c, ops.expand_dims(sd, 1)), ops.expand_dims(sd, 0))
    return result(ops.clamp(r, -1.0, 1.0), dtype, 'corrcoef')


__all__ = ['sum', 'mean', 'amax', 'amin', 'max', 'min', 'argmax', 'argmin', 'ptp', 'var', 'std',
           'average', 'count_nonzero', 'cumsum', 'cumprod', 'nancumsum', 'nansum', 'nanmean',
           'nanvar', 'nanstd', 'nanmax', 'nanmin', 'cov', 'corrcoef']
