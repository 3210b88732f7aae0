"""MindSpore's Primitive classes for reductions beyond the five of ``_primitive.py``: all/any,
standard deviation, arg-min, running sums, products and extremes, segment reductions and
counts.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
from ..._dtype import int32 as _int32, int64 as _int64
from .._base import as_tensor
from .. import (arithmetic as _arith, comparison as _cmp, reduction as _red, segment as _segment,
               shaping as _shape, sorting as _sort, statistics as _stats)
from ._primitive import Primitive, _flag

__all__ = ['ReduceAll', 'ReduceAny', 'ReduceStd', 'Argmin', 'ArgMinWithValue', 'EqualCount',
           'SquareSumAll', 'CumSum', 'CumProd', 'CumulativeLogsumexp', 'Cummax', 'Cummin',
           'UnsortedSegmentSum', 'UnsortedSegmentMax', 'UnsortedSegmentMin', 'UnsortedSegmentProd']


# ----------------------------------------------------------------------------- reductions
class ReduceAll(Primitive):
    """``ReduceAll(keep_dims=False)(x, axis=())``: Bool, whether all are nonzero."""
    def __init__(self, keep_dims=False):
        super().__init__(keep_dims=_flag(keep_dims, 'ReduceAll', 'keep_dims'))

    def construct(self, x, axis=()):
        return _red.all(x, axis, self.keep_dims)


class ReduceAny(Primitive):
    """``ReduceAny(keep_dims=False)(x, axis=())``: Bool, whether any is nonzero."""
    def __init__(self, keep_dims=False):
        super().__init__(keep_dims=_flag(keep_dims, 'ReduceAny', 'keep_dims'))

    def construct(self, x, axis=()):
        return _red.any(x, axis, self.keep_dims)


class ReduceStd(Primitive):
    """``ReduceStd(axis=(), unbiased=True, keep_dims=False)(x)``: ``(std, mean)`` over axis."""
    def __init__(self, axis=(), unbiased=True, keep_dims=False):
        super().__init__(axis=axis, unbiased=_flag(unbiased, 'ReduceStd', 'unbiased'),
                         keep_dims=_flag(keep_dims, 'ReduceStd', 'keep_dims'))

    def construct(self, x):
        axis = None if self.axis in ((), []) else self.axis
        return _stats.std_mean(x, axis, int(self.unbiased), self.keep_dims)


class Argmin(Primitive):
    """``Argmin(axis=-1, output_type=int32)(x)``: index of the minimum along ``axis``."""
    def __init__(self, axis=-1, output_type=_int32):
        if output_type not in (_int32, _int64):
            raise ValueError(f"ops.Argmin: output_type must be mindspore.int32 or "
                             f"mindspore.int64, got {output_type!r}")
        super().__init__(axis=axis, output_type=output_type)

    def construct(self, x):
        return _arith.cast(_red.argmin(x, self.axis), self.output_type)


class ArgMinWithValue(Primitive):
    """``ArgMinWithValue(axis=0, keep_dims=False)(x)``: ``(index, values)`` of the minimum;
    the index is Int64 (as MindSpore 2.10's), the values carry the gradient."""
    def __init__(self, axis=0, keep_dims=False):
        super().__init__(axis=axis, keep_dims=_flag(keep_dims, 'ArgMinWithValue', 'keep_dims'))

    def construct(self, x):
        values, index = _red.min(x, self.axis, self.keep_dims)
        return _arith.cast(index, _int64), values


class EqualCount(Primitive):
    """``EqualCount()(x, y)``: the number of equal elements, an Int32 Tensor of shape (1,)."""
    def construct(self, x, y):
        x, y = as_tensor(x, 'x'), as_tensor(y, 'y')
        if x.shape != y.shape:
            raise ValueError(f"ops.EqualCount: x and y must have one shape, got {x.shape} and "
                             f"{y.shape}")
        count = _red.reduce_sum(_arith.cast(_cmp.equal(x, y), _int32))
        return _shape.reshape(_arith.cast(count, _int32), (1,))


class SquareSumAll(Primitive):
    """``SquareSumAll()(x, y)``: ``(sum(x ** 2), sum(y ** 2))``, two 0-d Tensors."""
    def construct(self, x, y):
        x, y = as_tensor(x, 'x'), as_tensor(y, 'y')
        if x.shape != y.shape:
            raise ValueError(f"ops.SquareSumAll: x and y must have one shape, got {x.shape} "
                             f"and {y.shape}")
        return _red.reduce_sum(_arith.square(x)), _red.reduce_sum(_arith.square(y))


# ----------------------------------------------------------------------------- running
class _Cumulative(Primitive):
    def __init__(self, exclusive=False, reverse=False):
        name = type(self).__name__
        super().__init__(exclusive=_flag(exclusive, name, 'exclusive'),
                         reverse=_flag(reverse, name, 'reverse'))


class CumSum(_Cumulative):
    """``CumSum(exclusive=False, reverse=False)(x, axis)``: running sums along ``axis``."""
    def construct(self, x, axis):
        return _stats.cumulative('sum', x, axis, self.exclusive, self.reverse)


class CumProd(_Cumulative):
    """``CumProd(exclusive=False, reverse=False)(x, axis)``: running products along ``axis``."""
    def construct(self, x, axis):
        return _stats.cumulative('prod', x, axis, self.exclusive, self.reverse)


class CumulativeLogsumexp(_Cumulative):
    """``CumulativeLogsumexp(exclusive=False, reverse=False)(x, axis)``: running
    ``log(sum(exp(x)))`` along ``axis``."""
    def construct(self, x, axis):
        return _stats.cumulative('logsumexp', x, axis, self.exclusive, self.reverse)


class Cummax(Primitive):
    """``Cummax(axis)(x)``: ``(values, indices)`` of the running maximum along ``axis``."""
    def __init__(self, axis):
        super().__init__(axis=axis)

    def construct(self, x):
        return _sort.cummax(x, self.axis)


class Cummin(Primitive):
    """``Cummin(axis)(x)``: ``(values, indices)`` of the running minimum along ``axis``."""
    def __init__(self, axis):
        super().__init__(axis=axis)

    def construct(self, x):
        return _sort.cummin(x, self.axis)


# ----------------------------------------------------------------------------- segments
class _Segment(Primitive):
    function = None

    def construct(self, x, segment_ids, num_segments):
        return type(self).function(x, segment_ids, num_segments)


class UnsortedSegmentSum(_Segment):
    """``UnsortedSegmentSum()(input_x, segment_ids, num_segments)``: per-segment sums."""
    function = staticmethod(_segment.unsorted_segment_sum)


class UnsortedSegmentMax(_Segment):
    """``UnsortedSegmentMax()(x, segment_ids, num_segments)``: per-segment maxima."""
    function = staticmethod(_segment.unsorted_segment_max)


class UnsortedSegmentMin(_Segment):
    """``UnsortedSegmentMin()(x, segment_ids, num_segments)``: per-segment minima."""
    function = staticmethod(_segment.unsorted_segment_min)


class UnsortedSegmentProd(_Segment):
    """``UnsortedSegmentProd()(x, segment_ids, num_segments)``: per-segment products."""
    function = staticmethod(_segment.unsorted_segment_prod)
