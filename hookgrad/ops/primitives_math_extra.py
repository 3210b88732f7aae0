"""More of MindSpore's math and array Primitive classes: element-wise functions, unsorted
segment reductions, uneven splits, permutation inverses and counts.

Each is a thin callable over the functional op it names (see ``primitives.py``). Constructor
and call arguments follow MindSpore 2.10's Primitives.
"""
import numbers

import numpy as np

from .._dtype import int32 as _int32
from .primitives import Add, Primitive
from .math_primitives import _Binary, _Unary
from . import (arithmetic as _arith, comparison as _cmp, creation as _create,
               elementwise as _elem, indexing as _index, reduction as _red, segment as _segment,
               shaping as _shape, trigonometric as _trig, unary as _unary)
from ._base import as_tensor, normalize_axis, scalar_arg

__all__ = [
    'TensorAdd', 'Inv', 'Rint', 'Sinc', 'Fmax', 'Fmin', 'MulNoNan', 'Heaviside', 'Logit',
    'LinSpace', 'UnsortedSegmentSum', 'UnsortedSegmentMax', 'UnsortedSegmentMin',
    'UnsortedSegmentProd', 'SplitV', 'InvertPermutation', 'EqualCount', 'SquareSumAll',
]

TensorAdd = Add


class Inv(_Unary):
    """``Inv()(x)``: ``1 / x``."""
    function = staticmethod(_unary.inv)


class Rint(_Unary):
    """``Rint()(x)``: x rounded to the nearest integer, halves to even."""
    function = staticmethod(_elem.round)


class Sinc(_Unary):
    """``Sinc()(input)``: ``sin(pi x) / (pi x)``, 1 at 0."""
    function = staticmethod(_trig.sinc)


class Fmax(_Binary):
    """``Fmax()(x1, x2)``: element-wise maximum, NaN ignored."""
    function = staticmethod(_cmp.fmax)


class Fmin(_Binary):
    """``Fmin()(x1, x2)``: element-wise minimum, NaN ignored."""
    function = staticmethod(_cmp.fmin)


class MulNoNan(Primitive):
    """``MulNoNan()(x, y)``: ``x * y``, 0 where y is 0 (even when x is inf or NaN)."""
    def construct(self, x, y):
        x, y = as_tensor(x, 'x'), as_tensor(y, 'y')
        # only a non-finite x meeting y == 0 is replaced, so the gradient there stays x
        hidden = _cmp.logical_and(_cmp.equal(y, 0), _cmp.logical_not(_cmp.isfinite(x)))
        return _arith.mul(_index.where(hidden, 0, x), y)


class Heaviside(Primitive):
    """``Heaviside()(x, values)``: 0 where x < 0, values where x == 0, 1 where x > 0."""
    def construct(self, x, values):
        return _cmp.heaviside(x, values)


class Logit(Primitive):
    """``Logit(eps=-1.0)(input)``: ``log(x / (1 - x))``, x clamped to [eps, 1 - eps] when eps
    is not negative."""
    def __init__(self, eps=-1.0):
        if not isinstance(eps, float):
            raise TypeError(f"ops.Logit: eps must be a float, got {eps!r}")
        super().__init__(eps=eps)

    def construct(self, input):
        return _elem.logit(input, self.eps)


class LinSpace(Primitive):
    """``LinSpace()(start, stop, num)``: ``num`` evenly spaced values from start to stop
    inclusive (0-d Tensors start and stop, an int num)."""
    def construct(self, start, stop, num):
        return _create.linspace(scalar_arg(start, 'start'), scalar_arg(stop, 'stop'),
                                scalar_arg(num, 'num'))


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


class SplitV(Primitive):
    """``SplitV(size_splits, split_dim, num_split)(input_x)``: input_x cut along
    ``split_dim`` into pieces of the sizes ``size_splits`` (one of them may be -1: the rest),
    a tuple.

    Raises:
        ValueError: when num_split differs from len(size_splits), more than one size is -1,
            or the sizes do not add up to the dimension.
    """
    def __init__(self, size_splits, split_dim, num_split):
        sizes = tuple(size_splits) if isinstance(size_splits, (tuple, list)) else None
        if sizes is None or not all(isinstance(s, int) and not isinstance(s, bool)
                                    for s in sizes):
            raise TypeError(f"ops.SplitV: size_splits must be a tuple of ints, got "
                            f"{size_splits!r}")
        if isinstance(split_dim, bool) or not isinstance(split_dim, numbers.Integral):
            raise TypeError(f"ops.SplitV: split_dim must be an int, got {split_dim!r}")
        if num_split != len(sizes):
            raise ValueError(f"ops.SplitV: num_split {num_split!r} must equal the number of "
                             f"size_splits {len(sizes)}")
        if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
            raise ValueError(f"ops.SplitV: size_splits must be sizes >= 0 with at most one "
                             f"-1, got {size_splits!r}")
        super().__init__(size_splits=sizes, split_dim=int(split_dim), num_split=num_split)

    def construct(self, input_x):
        x = as_tensor(input_x, 'input_x')
        axis = normalize_axis(self.split_dim, x.ndim, 'SplitV')
        n = x.shape[axis]
        sizes = list(self.size_splits)
        known = sum(s for s in sizes if s != -1)
        if -1 in sizes:
            sizes[sizes.index(-1)] = n - known
        if sum(sizes) != n or min(sizes) < 0:
            raise ValueError(f"ops.SplitV: size_splits {self.size_splits} do not add up to the "
                             f"size {n} of dimension {axis} of shape {x.shape}")
        return tuple(_shape.split(x, sizes, axis))


class InvertPermutation(Primitive):
    """``InvertPermutation()(input_x)``: the inverse of the permutation ``input_x`` (a tuple
    or list of ints), of the same type: ``y[x[i]] = i``.

    Raises:
        ValueError: when input_x is not a permutation of 0..n-1.
    """
    def construct(self, input_x):
        if not isinstance(input_x, (tuple, list)) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in input_x):
            raise TypeError(f"ops.InvertPermutation: input_x must be a tuple or list of ints, "
                            f"got {input_x!r}")
        if sorted(input_x) != list(range(len(input_x))):
            raise ValueError(f"ops.InvertPermutation: input_x must be a permutation of 0.."
                             f"{len(input_x) - 1}, got {input_x!r}")
        inverse = np.empty(len(input_x), np.int64)
        inverse[list(input_x)] = np.arange(len(input_x))
        return type(input_x)(int(v) for v in inverse)


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
