"""nanquantile: quantiles that skip NaN, as MindSpore 2.10 documents them.

Each slice sorts its values with NaN last and interpolates linearly between the two values
nearest ``q * (count - 1)``, where count is the number of its values that are not NaN; a slice
of NaN only gives NaN. The values are picked from the input by ``GatherElements``, so the
gradient goes to the (at most two) elements each quantile interpolates.
"""
import numbers

import numpy as np

from .._dtype import from_numpy
from .._tensor import Tensor
from ..autograd.function import value_read
from ..kernels import backend
from ._base import normalize_axis
from .arithmetic import add, mul, sub
from .indexing import where
from .shaping import concat, expand_dims, reshape, squeeze
from .sorting import ArgSort, _gathered

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _quantile_values(q, dtype):
    """``(q values as a float64 array, whether q is a scalar)``, checked."""
    if isinstance(q, Tensor):
        if q._data.dtype != dtype:
            raise TypeError(f"ops.nanquantile: q must have input's dtype {from_numpy(dtype)}, "
                            f"got {q.dtype}")
        if q.ndim > 1:
            raise ValueError(f"ops.nanquantile: q must be a number or a 0-d or 1-d Tensor, got "
                             f"shape {q.shape}")
        value_read(q)       # the positions interpolated come from q's values: read on the host
        qs, scalar = backend.to_host(q._data).reshape(-1).astype(np.float64), q.ndim == 0
    elif isinstance(q, float):
        qs, scalar = np.asarray([q]), True
    else:
        raise TypeError(f"ops.nanquantile: q must be a float or a Tensor, got {q!r}")
    if ((qs < 0) | (qs > 1)).any() or np.isnan(qs).any():
        raise ValueError(f"ops.nanquantile: q must be in [0, 1], got {qs.tolist()}")
    return qs, scalar


def nanquantile(input, q, axis=None, keepdims=False):
    """The ``q``-th quantiles of ``input`` along ``axis`` (the flattened input when None),
    ignoring NaN, interpolated linearly; NaN where a slice holds NaN only.

    Args:
        input (Tensor): Float32 or Float64.
        q (Union[float, Tensor]): in [0, 1]; a 0-d or 1-d Tensor of input's dtype. A 1-d q
            adds a leading axis of its length.
        axis (int, optional): the axis reduced. Default None: the flattened input.
        keepdims (bool): keep the reduced axis with length 1. Default False.

    Raises:
        TypeError: input is not a Float32 or Float64 Tensor, q is neither a float nor a Tensor
            of input's dtype, or axis is not an int.
        ValueError: q outside [0, 1] or of rank > 1, or axis out of range.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([float('nan'), 0.8003, 0.8111])
    >>> print(ms.ops.nanquantile(x, ms.Tensor([0.1, 0.7, 0.9])))
    [0.80138 0.80786 0.81002]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"ops.nanquantile: input must be a Tensor, got {type(input).__name__}")
    dtype = input._data.dtype
    if dtype not in _FLOATS:
        raise TypeError(f"ops.nanquantile: input must be a Float32 or Float64 tensor, got "
                        f"{input.dtype}")
    qs, scalar = _quantile_values(q, dtype)
    if axis is None:
        x, ax = reshape(input, (-1,)), 0
    else:
        if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
            raise TypeError(f"ops.nanquantile: axis must be an int or None, got {axis!r}")
        x, ax = (reshape(input, (1,)) if input.ndim == 0 else input), None
        ax = normalize_axis(axis, x.ndim, 'nanquantile')
    data = x._data
    xp = backend.array_module(data)
    order = ArgSort.apply(x, axis=ax, descending=False)._data       # NaN last
    count = xp.sum(~xp.isnan(data), axis=ax, keepdims=True)
    last = max(data.shape[ax] - 1, 0)
    empty = Tensor._wrap(count == 0)
    nan = Tensor._wrap(xp.asarray(np.nan, dtype))
    results = []
    for value in qs:
        pos = value * (count - 1).astype(np.float64)
        low = xp.floor(pos)
        weight = Tensor._wrap((pos - low).astype(dtype))
        picks = [_gathered(x, Tensor._wrap(xp.take_along_axis(order, xp.clip(k, 0, last)
                                                              .astype(np.int64), ax)), ax)
                 for k in (low, xp.ceil(pos))]
        result = add(picks[0], mul(sub(picks[1], picks[0]), weight))
        results.append(where(empty, nan, result))
    out = results[0] if scalar else concat([expand_dims(r, 0) for r in results], 0)
    if not keepdims:
        return squeeze(out, ax if scalar else ax + 1)
    if axis is None:
        return reshape(out, (() if scalar else (qs.size,)) + (1,) * input.ndim)
    return out
