"""More of MindSpore's functional math: reciprocal and sinc, NaN-ignoring maximum, minimum,
sums and means, logit, Heaviside, sign transfer, angle units, and the unsorted segment
reductions; plus the ``tensor_*`` names MindSpore gives its arithmetic operators.

Everything is composed from hookgrad's differentiable ops, so gradients need no rule here.
"""
import math
import numbers

import numpy as np

from .._dtype import float32 as _float32, float64 as _float64
from .._tensor import Tensor
from ._base import as_tensor
from . import (arithmetic as _arith, comparison as _cmp, creation as _create,
               elementwise as _elem, indexing as _index, reduction as _red,
               scatter_gather as _scatter, shaping as _shape, unary as _unary)

__all__ = [
    'inv', 'sinc', 'fmax', 'fmin', 'logit', 'heaviside', 'copysign', 'deg2rad', 'rad2deg',
    'positive', 'float_power', 'nansum', 'nanmean', 'unsorted_segment_sum',
    'unsorted_segment_max', 'unsorted_segment_min', 'unsorted_segment_prod', 'tensor_add',
    'tensor_sub', 'tensor_mul', 'tensor_div', 'tensor_pow', 'tensor_exp', 'tensor_expm1',
    'tensor_gt', 'tensor_ge', 'tensor_lt', 'tensor_le', 'tensor_floordiv', 'tensor_mod',
    'floordiv', 'floormod', 'truncate_mod',
]


def _floating(x):
    """x as a Tensor; integer and Bool ones cast to Float32."""
    t = as_tensor(x, 'input')
    return t if t._data.dtype.kind == 'f' else _arith.cast(t, _float32)


def inv(x):
    """``1 / x`` element-wise (``ops.reciprocal``)."""
    return _unary.reciprocal(x)


def sinc(input):
    """``sin(pi x) / (pi x)``, 1 at 0; integer input gives Float32."""
    x = _floating(input)
    zero = _cmp.equal(x, 0.0)
    px = _arith.mul(_index.where(zero, 1.0, x), math.pi)
    return _index.where(zero, 1.0, _arith.div(_unary.sin(px), px))


def fmax(input, other):
    """Element-wise maximum that ignores NaN: where one side is NaN the other is taken."""
    x, y = as_tensor(input, 'input'), as_tensor(other, 'other')
    return _index.where(_cmp.isnan(y), x, _index.where(_cmp.isnan(x), y, _cmp.maximum(x, y)))


def fmin(input, other):
    """Element-wise minimum that ignores NaN: where one side is NaN the other is taken."""
    x, y = as_tensor(input, 'input'), as_tensor(other, 'other')
    return _index.where(_cmp.isnan(y), x, _index.where(_cmp.isnan(x), y, _cmp.minimum(x, y)))


def logit(input, eps=None):
    """``log(x / (1 - x))``, x first clamped to [eps, 1 - eps] when ``eps`` is given (None or
    a negative eps clamps nothing).

    Raises:
        TypeError: when eps is neither None nor a float.
    """
    if eps is not None and (isinstance(eps, bool) or not isinstance(eps, numbers.Real)):
        raise TypeError(f"ops.logit: eps must be a float or None, got {eps!r}")
    x = _floating(input)
    if eps is not None and eps >= 0:
        x = _cmp.clamp(x, float(eps), 1.0 - float(eps))
    return _unary.log(_arith.div(x, _arith.sub(1.0, x)))


def heaviside(input, values):
    """The Heaviside step: 0 where x < 0, ``values`` where x == 0, 1 where x > 0."""
    x = as_tensor(input, 'input')
    v = as_tensor(values, 'values')
    if x.dtype != v.dtype:
        raise TypeError(f"ops.heaviside: input and values must have one dtype, got {x.dtype} "
                        f"and {v.dtype}")
    step = _arith.cast(_cmp.gt(x, 0), x.dtype)
    return _index.where(_cmp.equal(x, 0), v, step)


def copysign(x, other):
    """``|x|`` with the sign of ``other``: negative where ``other < 0`` (MindSpore's rule, so
    -0.0 counts as positive)."""
    t = _floating(x)
    o = other._data if isinstance(other, Tensor) else np.asarray(other)
    negative = Tensor._wrap(o < 0)
    a = _unary.abs(t)
    return _index.where(negative, _arith.neg(a), a)


def deg2rad(x):
    """Degrees to radians."""
    return _arith.mul(_floating(x), math.pi / 180.0)


def rad2deg(x):
    """Radians to degrees."""
    return _arith.mul(_floating(x), 180.0 / math.pi)


def positive(input):
    """``input`` itself (``+x``); Bool input is refused as MindSpore does.

    Raises:
        TypeError: for a Bool tensor.
    """
    x = as_tensor(input, 'input')
    if x._data.dtype == np.bool_:
        raise TypeError("ops.positive: input must not be Bool")
    return x


def float_power(input, exponent):
    """``input ** exponent`` computed in Float64."""
    x = as_tensor(input, 'input')
    x = x if x._data.dtype == np.float64 else _arith.cast(x, _float64)
    if isinstance(exponent, Tensor) and exponent._data.dtype != np.float64:
        exponent = _arith.cast(exponent, _float64)
    return _arith.pow(x, exponent)


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """The sum over ``axis`` (all axes for None) with NaN counted as 0; as MindSpore's, an
    integer input sums in its own dtype, Bool in Int64, and ``dtype`` converts the result."""
    x = as_tensor(input, 'input')
    if x._data.dtype.kind == 'f':
        x = _index.where(_cmp.isnan(x), 0.0, x)
    own = x.dtype if x._data.dtype.kind in 'iu' else None
    y = _red.sum(x, () if axis is None else axis, keepdims, dtype=own)
    return y if dtype is None else _arith.cast(y, dtype)


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """The mean over ``axis`` (all axes for None) of the elements that are not NaN."""
    x = _floating(input)
    keep = _arith.cast(_cmp.logical_not(_cmp.isnan(x)), x.dtype)
    axes = () if axis is None else axis
    total = _red.reduce_sum(_index.where(_cmp.isnan(x), 0.0, x), axes, keepdims)
    y = _arith.div(total, _red.reduce_sum(keep, axes, keepdims))
    return y if dtype is None else _arith.cast(y, dtype)


# ----------------------------------------------------------------------------- segments
def _segments(x, segment_ids, num_segments, op):
    """x as (M, ...) rows, the ids as an (M, 1) index, and the result's shape."""
    x = as_tensor(x, 'input_x')
    ids = as_tensor(segment_ids, 'segment_ids')
    if ids._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.{op}: segment_ids must be an integer Tensor, got {ids.dtype}")
    if isinstance(num_segments, Tensor):
        num_segments = num_segments.item()
    if isinstance(num_segments, bool) or not isinstance(num_segments, numbers.Integral) or \
            num_segments < 0:
        raise ValueError(f"ops.{op}: num_segments must be an int >= 0, got {num_segments!r}")
    if x.shape[:ids.ndim] != ids.shape:
        raise ValueError(f"ops.{op}: segment_ids of shape {ids.shape} must be a prefix of "
                         f"input_x's shape {x.shape}")
    flat = ids._data.reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= num_segments):
        raise ValueError(f"ops.{op}: segment_ids must be in [0, {num_segments}), got "
                         f"values from {flat.min()} to {flat.max()}")
    rest = x.shape[ids.ndim:]
    rows = _shape.reshape(x, (flat.size,) + rest)
    return rows, Tensor._wrap(flat.reshape(-1, 1).astype(np.int64)), (int(num_segments),) + rest


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """The sum of the rows of ``input_x`` sharing each segment id: output row s is the sum of
    ``input_x[i]`` over ``segment_ids[i] == s`` (0 for an empty segment).

    ``segment_ids`` has the shape of input_x's leading axes; the result has shape
    ``(num_segments,) + input_x.shape[segment_ids.ndim:]``.

    Raises:
        ValueError: for ids outside [0, num_segments) or a shape mismatch.
    """
    rows, index, shape = _segments(input_x, segment_ids, num_segments, 'unsorted_segment_sum')
    return _scatter.tensor_scatter_add(_create.zeros(shape, rows.dtype), index, rows)


def _extreme_fill(dtype, largest):
    info = np.finfo(dtype) if dtype.kind == 'f' else np.iinfo(dtype)
    return info.min if largest else info.max


def unsorted_segment_max(x, segment_ids, num_segments):
    """The maximum of the rows of x sharing each segment id; an empty segment holds the dtype's
    lowest value."""
    rows, index, shape = _segments(x, segment_ids, num_segments, 'unsorted_segment_max')
    fill = _create.full(shape, _extreme_fill(rows._data.dtype, True), dtype=rows.dtype)
    return _scatter.tensor_scatter_max(fill, index, rows)


def unsorted_segment_min(x, segment_ids, num_segments):
    """The minimum of the rows of x sharing each segment id; an empty segment holds the dtype's
    highest value."""
    rows, index, shape = _segments(x, segment_ids, num_segments, 'unsorted_segment_min')
    fill = _create.full(shape, _extreme_fill(rows._data.dtype, False), dtype=rows.dtype)
    return _scatter.tensor_scatter_min(fill, index, rows)


def unsorted_segment_prod(x, segment_ids, num_segments):
    """The product of the rows of x sharing each segment id; an empty segment holds 1."""
    rows, index, shape = _segments(x, segment_ids, num_segments, 'unsorted_segment_prod')
    # one full (segment, column) index per element: the product scatter takes whole positions
    m, width = rows.shape[0], int(np.prod(shape[1:], dtype=np.int64))
    ids = index._data.reshape(-1)
    full = np.stack([np.repeat(ids, width), np.tile(np.arange(width), m)], 1)
    out = _scatter.tensor_scatter_mul(_create.ones((shape[0], width), rows.dtype),
                                      Tensor._wrap(full), _shape.reshape(rows, (-1,)))
    return _shape.reshape(out, shape)


# ----------------------------------------------------------------------------- operator names
tensor_add = _arith.add
tensor_sub = _arith.sub
tensor_mul = _arith.mul
tensor_div = _arith.div
tensor_pow = _arith.pow
tensor_exp = _unary.exp
tensor_expm1 = _unary.expm1
tensor_gt = _cmp.gt
tensor_ge = _cmp.ge
tensor_lt = _cmp.lt
tensor_le = _cmp.le
tensor_floordiv = _elem.floor_div
tensor_mod = _elem.floor_mod
floordiv = _elem.floor_div
floormod = _elem.floor_mod
truncate_mod = _elem.fmod
