"""Order statistics and counting: sort, argsort, topk, median, quantile, searchsorted,
bucketize, bincount, histc, count_nonzero, cummax/cummin.

Positions come from primitives without gradients (``ArgSort``, ``RunningExtreme``...); the
values are then gathered from the input with ``GatherElements``, which carries the gradient
to the chosen elements.
"""
import numbers

import numpy as np

from .._dtype import to_numpy
from .._tensor import Tensor
from ..autograd.function import Op, value_read
from ..kernels import backend
from ._base import as_tensor, normalize_axis
from .arithmetic import add, cast, mul, sub
from .creation import tensor_on
from .scatter_gather import GatherElements

_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_F32 = np.dtype(np.float32)


class ArgSort(Op):
    """Int64 positions that sort x along ``axis`` (stable; descending keeps ties in order)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, axis, descending):
        if descending:
            if x.dtype.kind == 'b':
                x = x.astype(np.int8)
            key = -x if x.dtype.kind != 'u' else np.iinfo(x.dtype).max - x
            return np.argsort(key, axis, kind='stable').astype(_I64, copy=False)
        return np.argsort(x, axis, kind='stable').astype(_I64, copy=False)


class RunningExtreme(Op):
    """Int64 positions of the running maximum (``largest``) or minimum along ``axis``: the last
    position holding the value reached so far, as MindSpore's Cummax/Cummin."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, axis, largest):
        xp = ctx.xp
        shape = [1] * x.ndim
        shape[axis] = x.shape[axis]
        position = xp.arange(x.shape[axis]).reshape(shape)
        if xp is np:
            running = (np.maximum if largest else np.minimum).accumulate(x, axis)
            return np.maximum.accumulate(np.where(_reached(x, running), position, 0),
                                         axis).astype(_I64)
        running = _accumulated(xp, xp.maximum if largest else xp.minimum, x, axis)
        return _accumulated(xp, xp.maximum, xp.where(_reached(x, running), position, 0),
                            axis).astype(_I64)


def _reached(x, running):
    """Where ``x`` is the running extreme; a NaN, which the extreme keeps from its first
    appearance, is reached again by every later NaN (MindSpore's Cummax/Cummin point there)."""
    hit = x == running
    if x.dtype.kind in 'fcV':
        hit |= (x != x) & (running != running)
    return hit


def _accumulated(xp, f, a, axis):
    """``f.accumulate(a, axis)`` for a device, whose maximum and minimum (CuPy's) have no
    ``accumulate``: log2(n) doubling steps, each combining every element with the one 2**k
    places before it."""
    n = a.shape[axis]
    lead = (slice(None),) * axis
    k = 1
    while k < n:
        a = xp.concatenate([a[lead + (slice(0, k),)],
                            f(a[lead + (slice(k, None),)], a[lead + (slice(0, n - k),)])], axis)
        k *= 2
    return a


class MedianIndex(Op):
    """Int64 position of the lower median along ``axis``, keeping the axis as size 1: among
    equal values, the one a stable sort puts in the middle (MindSpore's CPU choice)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, axis):
        k = (x.shape[axis] - 1) // 2
        order = np.argsort(x, axis, kind='stable')
        return order[(slice(None),) * axis + (slice(k, k + 1),)].astype(_I64)


class InsertionIndex(Op):
    """Positions at which ``values`` would be inserted into the sorted last axis of
    ``sequence`` ('left': before equal entries, 'right': after); no gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, sequence, values, right, dtype):
        side = 'right' if right else 'left'
        if sequence.ndim == 1:
            return np.searchsorted(sequence, values, side).astype(dtype)
        below = (sequence[..., None, :] <= values[..., :, None]) if right else \
            (sequence[..., None, :] < values[..., :, None])
        return below.sum(-1).astype(dtype)


class BinCount(Op):
    """y[k] = the number (or the summed weights) of the entries of x equal to k."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, *weights, minlength, dtype):
        return np.bincount(x, weights[0] if weights else None, minlength).astype(dtype)


class Histogram(Op):
    """``bins`` equal-width counts of the elements of x in [low, high] (others ignored)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, bins, low, high, dtype):
        if ctx.xp is not np:
            return _device_histogram(ctx.xp, x, bins, low, high).astype(dtype)
        if low == high:
            low, high = (float(x.min()), float(x.max())) if x.size else (0.0, 0.0)
        if low == high:
            low, high = low - 1, high + 1
        inside = x[(x >= low) & (x <= high)]
        return np.histogram(inside, bins, (low, high))[0].astype(dtype)


def _device_histogram(xp, x, bins, low, high):
    """Histogram's counts on a device. The data's own range (``low == high``) stays there:
    the bin edges are computed on the device, as ``np.histogram`` spaces them, so the host
    reads nothing."""
    a = x.reshape(-1)
    if low != high:
        return np.histogram(a, bins, (low, high))[0]
    if a.size:
        lo, hi = a.min().astype(np.float64), a.max().astype(np.float64)
    else:
        lo, hi = xp.zeros((), np.float64), xp.zeros((), np.float64)
    same = lo == hi
    lo, hi = xp.where(same, lo - 1, lo), xp.where(same, hi + 1, hi)
    edges = xp.arange(bins + 1, dtype=np.float64) * ((hi - lo) / bins) + lo
    edges[-1] = hi
    inside = a[(a >= lo) & (a <= hi)]
    return np.histogram(inside, edges)[0]


class CountNonZero(Op):
    """y = the number of nonzero elements over ``axis``, in ``dtype``; no gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, axis, keepdims, dtype):
        if ctx.xp is not np:        # CuPy's count_nonzero has no keepdims
            return (x != 0).sum(axis=axis, keepdims=keepdims).astype(dtype)
        return np.asarray(np.count_nonzero(x, axis, keepdims=keepdims)).astype(dtype)


# ------------------------------------------------------------------------------ helpers
def _axis(axis, x, name):
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"ops.{name}: axis must be an int, got {axis!r}")
    return normalize_axis(axis, max(x.ndim, 1), name)


def _gathered(x, index, axis):
    return GatherElements.apply(x, index, axis=axis)


def _as_1d(x):
    from .shaping import reshape
    return reshape(x, (1,)) if x.ndim == 0 else x


# ------------------------------------------------------------------------------ sorting
def sort(input_x, axis=-1, descending=False):
    """``(values, indices)`` of ``input_x`` sorted along ``axis`` (stable); indices are Int32.

    >>> import hookgrad as ms
    >>> values, indices = ms.ops.sort(ms.Tensor([2.0, 1.0, 3.0]))
    >>> values.tolist(), indices.tolist()
    ([1.0, 2.0, 3.0], [1, 0, 2])
    """
    x = _as_1d(as_tensor(input_x, 'input_x'))
    ax = _axis(axis, x, 'sort')
    index = ArgSort.apply(x, axis=ax, descending=bool(descending))
    return _gathered(x, index, ax), cast(index, _I32)


def argsort(input, axis=-1, descending=False):
    """Int32 positions that sort ``input`` along ``axis`` (stable)."""
    x = _as_1d(as_tensor(input))
    ax = _axis(axis, x, 'argsort')
    return cast(ArgSort.apply(x, axis=ax, descending=bool(descending)), _I32)


def msort(input):
    """``input`` sorted along axis 0 (the values of ``sort(input, 0)``)."""
    return sort(input, 0)[0]


def topk(input, k, dim=None, largest=True, sorted=True):
    """``(values, indices)`` of the ``k`` largest (or smallest) elements along ``dim`` (the
    last axis when None), largest first; indices are Int32, ties keep their order. With
    ``sorted=False`` and k the size of ``dim`` the result is ``input`` itself, as MindSpore
    gives it; for a smaller k MindSpore's order is its kernel's selection order, which is
    unspecified: hookgrad gives the chosen elements largest first.

    Raises:
        ValueError: when k is outside [0, size of dim].
    """
    from .indexing import GetItem
    x = _as_1d(as_tensor(input))
    ax = _axis(-1 if dim is None else dim, x, 'topk')
    k = int(k) if isinstance(k, numbers.Integral) and not isinstance(k, bool) else k
    if not isinstance(k, int) or not 0 <= k <= x.shape[ax]:
        raise ValueError(f"ops.topk: k must be an int in [0, {x.shape[ax]}], got {k!r}")
    order = ArgSort.apply(x, axis=ax, descending=bool(largest))
    index = GetItem.apply(order, key=(slice(None),) * ax + (slice(0, k),))
    if not sorted and k == x.shape[ax]:
        index = _gathered(index, ArgSort.apply(index, axis=ax, descending=False), ax)
    return _gathered(x, index, ax), cast(index, _I32)


def top_k(input_x, k, sorted=True):
    """``(values, indices)`` of the k largest elements along the last axis (Int32
    indices)."""
    return topk(input_x, k, None, True, sorted)


def median(input, axis=-1, keepdims=False):
    """``(values, indices)`` of the lower median along ``axis`` (for an even count, the
    smaller of the middle two); the index, Int64, is the one a stable sort puts in the middle
    among equal values."""
    from .shaping import squeeze
    x = _as_1d(as_tensor(input))
    ax = _axis(axis, x, 'median')
    if x.shape[ax] == 0:
        raise ValueError(f"ops.median: cannot take the median of an empty axis of shape "
                         f"{x.shape}")
    index = MedianIndex.apply(x, axis=ax)
    values = _gathered(x, index, ax)
    if keepdims:
        return values, index
    return squeeze(values, ax), squeeze(index, ax)


def quantile(input, q, axis=None, keepdims=False):
    """The ``q``-th quantiles of ``input`` along ``axis`` (the flattened input when None),
    interpolating linearly between the two nearest values.

    ``q`` is a number or a 1-d Tensor in [0, 1]; a Tensor q adds a leading axis of its length.

    Raises:
        TypeError: for a non-floating input.
        ValueError: for a q outside [0, 1].
    """
    from .indexing import take
    from .shaping import expand_dims, reshape, squeeze
    x = as_tensor(input)
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"ops.quantile: input must be a floating tensor, got {x.dtype}")
    if isinstance(q, Tensor):
        value_read(q)       # the positions interpolated come from q's values: read on the host
        qs, scalar = backend.to_host(q._data).reshape(-1).astype(np.float64), q.ndim == 0
    elif isinstance(q, numbers.Real) and not isinstance(q, bool):
        qs, scalar = np.asarray([float(q)]), True
    else:
        raise TypeError(f"ops.quantile: q must be a number or a Tensor, got {q!r}")
    if ((qs < 0) | (qs > 1)).any():
        raise ValueError(f"ops.quantile: q must be in [0, 1], got {qs.tolist()}")
    if axis is None:
        flat = reshape(x, (-1,))
        ax = 0
    else:
        flat = x
        ax = _axis(axis, x, 'quantile')
    values = sort(flat, ax)[0]
    pos = qs * (values.shape[ax] - 1)
    lo, hi = np.floor(pos).astype(np.intp), np.ceil(pos).astype(np.intp)
    shape = [1] * values.ndim
    shape[ax] = qs.size
    weight = Tensor._wrap(backend.to_device((pos - lo).astype(values._data.dtype).reshape(shape),
                                            backend.device_of(values._data)))
    a = take(values, lo, ax)
    result = add(a, mul(sub(take(values, hi, ax), a), weight))
    if scalar:
        result = squeeze(result, ax)
    elif ax:
        from .rearrange import moveaxis
        result = moveaxis(result, ax, 0)
    if keepdims:
        if axis is None:
            result = reshape(result, (() if scalar else (qs.size,)) + (1,) * x.ndim)
        else:
            result = expand_dims(result, ax + (0 if scalar else 1))
    return result


# ------------------------------------------------------------------------------ running extremes
def _running(input, axis, largest, name, index_dtype):
    x = _as_1d(as_tensor(input))
    ax = _axis(axis, x, name)
    index = RunningExtreme.apply(x, axis=ax, largest=largest)
    return _gathered(x, index, ax), cast(index, index_dtype)


def cummax(input, axis):
    """``(values, indices)`` of the running maximum along ``axis``; indices are Int64, the
    last position holding the value reached so far."""
    return _running(input, axis, True, 'cummax', _I64)


def cummin(input, axis):
    """``(values, indices)`` of the running minimum along ``axis``; indices are Int32 (as
    MindSpore gives), the last position holding the value reached so far."""
    return _running(input, axis, False, 'cummin', _I32)


# ------------------------------------------------------------------------------ searching
def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """Where ``values`` would be inserted into the sorted last axis of ``sorted_sequence`` to
    keep it sorted: before equal entries (``right=False`` or ``side='left'``) or after.

    ``sorter`` gives the positions that sort a 1-d unsorted sequence. Int64, or Int32 with
    ``out_int32``.

    Raises:
        ValueError: for leading dimensions of sequence and values that differ, or a bad side.
    """
    seq = as_tensor(sorted_sequence, 'sorted_sequence')
    v = tensor_on(values, seq, 'values')
    if side is not None:
        if side not in ('left', 'right'):
            raise ValueError(f"ops.searchsorted: side must be 'left' or 'right', got {side!r}")
        right = side == 'right'
    if sorter is not None:
        if seq.ndim != 1:
            raise ValueError("ops.searchsorted: sorter needs a 1-d sorted_sequence")
        from .indexing import take
        seq = take(seq, sorter)
    if seq.ndim > 1 and seq.shape[:-1] != v.shape[:-1]:
        raise ValueError(f"ops.searchsorted: sorted_sequence of shape {seq.shape} and values of "
                         f"shape {v.shape} must share their leading dimensions")
    if seq._data.dtype != v._data.dtype:
        from .._dtype import promote
        dt = promote(seq._data.dtype, v._data.dtype)
        seq, v = cast(seq, dt), cast(v, dt)
    return InsertionIndex.apply(seq, v, right=bool(right), dtype=_I32 if out_int32 else _I64)


def bucketize(input, boundaries, *, right=False):
    """The bucket of each element of ``input`` among the sorted ``boundaries`` (a list of
    numbers): the insertion index before equal boundaries (or after, with ``right``). Int64."""
    x = as_tensor(input)
    if not isinstance(boundaries, (list, tuple)):
        raise TypeError(f"ops.bucketize: boundaries must be a list of numbers, got "
                        f"{type(boundaries).__name__}")
    edges = np.asarray(boundaries, dtype=x._data.dtype if x._data.dtype.kind in 'fV'
                       else np.float64).reshape(-1)
    edges = Tensor._wrap(backend.to_device(edges, backend.device_of(x._data)))
    return searchsorted(edges, cast(x, edges._data.dtype), right=right)


def bincount(input, weights=None, minlength=0):
    """How often each value 0, 1, ... occurs in the 1-d non-negative integer ``input``
    (or the sum of ``weights`` at its positions); length ``max(input) + 1`` or ``minlength``.
    Float32 without weights, else the weights' floating dtype.

    Raises:
        ValueError: for negative values, a rank other than 1, or weights of another shape.
    """
    x = as_tensor(input)
    if x._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.bincount: input must be an integer tensor, got {x.dtype}")
    if x.ndim != 1:
        raise ValueError(f"ops.bincount: input must be 1-d, got shape {x.shape}")
    value_read(x)
    # the result's length comes from the values: reading them on the host is needed anyway
    if x.size and x._data.min() < 0:
        raise ValueError("ops.bincount: input must be non-negative")
    if isinstance(minlength, bool) or not isinstance(minlength, numbers.Integral) \
            or minlength < 0:
        raise ValueError(f"ops.bincount: minlength must be a non-negative int, got {minlength!r}")
    inputs, dt = [x], _F32
    if weights is not None:
        w = tensor_on(weights, x, 'weights')
        if w.shape != x.shape:
            raise ValueError(f"ops.bincount: weights of shape {w.shape} must have the shape of "
                             f"input {x.shape}")
        inputs.append(w)
        if w._data.dtype.kind in 'fV':
            dt = w._data.dtype
    return BinCount.apply(*inputs, minlength=int(minlength), dtype=dt)


def histc(input, bins=100, min=0.0, max=0.0):
    """Counts of the elements of ``input`` in ``bins`` equal-width bins over [min, max]
    (the data's own range when both are 0); elements outside are ignored. In input's dtype
    (Float32 for integers other than Int32, as MindSpore).

    Raises:
        ValueError: for a non-positive bins or min > max.
    """
    x = as_tensor(input)
    if isinstance(bins, bool) or not isinstance(bins, numbers.Integral) or bins <= 0:
        raise ValueError(f"ops.histc: bins must be a positive int, got {bins!r}")
    if min > max:
        raise ValueError(f"ops.histc: min {min} must not exceed max {max}")
    dt = x._data.dtype if x._data.dtype.kind in 'fV' or x._data.dtype == _I32 else _F32
    return Histogram.apply(x, bins=int(bins), low=float(min), high=float(max), dtype=dt)


def count_nonzero(x, axis=(), keep_dims=False, dtype=None):
    """The number of nonzero elements over ``axis`` (() for all axes), Int32 by default."""
    t = as_tensor(x, 'x')
    dt = _I32 if dtype is None else to_numpy(dtype)
    if axis is None or axis == () or axis == []:
        axes = None
    else:
        axes = normalize_axis(axis, max(t.ndim, 1), 'count_nonzero')
        axes = (axes,) if isinstance(axes, int) else tuple(sorted(axes))
    return CountNonZero.apply(t, axis=axes, keepdims=bool(keep_dims), dtype=dt)

