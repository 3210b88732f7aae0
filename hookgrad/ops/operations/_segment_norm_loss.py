"""MindSpore's Primitive classes of sorted-segment reductions (SegmentSum...), counting
(UniqueWithPad, Histogram, Bincount), norms (LpNorm, EuclideanNorm, NuclearNorm), order
statistics (Quantile, NthElement) and the margin losses (MultiMarginLoss, TripletMarginLoss).

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments, output order and dtypes
follow MindSpore 2.10's Primitives.
"""
import numbers

import numpy as np

from .. import nn_loss as _loss, norms as _norms, quantiles as _quantiles, segment as _segment
from .. import selection as _selection, sorting as _sorting
from ..._tensor import Tensor
from ..arithmetic import cast as _cast, div as _div
from ..comparison import gt as _gt, maximum as _maximum
from ..creation import ones as _ones, zeros_like as _zeros_like
from ..indexing import where as _where
from ..shaping import reshape as _reshape
from ._primitive import Primitive, _flag, _float, _int

__all__ = ['SegmentSum', 'SegmentMax', 'SegmentMin', 'SegmentProd', 'SegmentMean',
           'UniqueWithPad', 'Histogram', 'Bincount', 'LpNorm', 'EuclideanNorm', 'NuclearNorm',
           'Quantile', 'NthElement', 'MultiMarginLoss', 'TripletMarginLoss']


def _axes(value, prim, what):
    """An int or a list/tuple of ints, as a tuple."""
    items = value if isinstance(value, (list, tuple)) else (value,)
    for item in items:
        if isinstance(item, bool) or not isinstance(item, numbers.Integral):
            raise TypeError(f"ops.{prim}: {what} must be an int, tuple or list of ints, got "
                            f"{value!r}")
    return tuple(int(item) for item in items)


def _host_ints(value):
    return np.asarray(value.asnumpy() if isinstance(value, Tensor) else value).reshape(-1)


# ----------------------------------------------------------------------------- segments
class _Segment(Primitive):
    """``(input_x, segment_ids)``: the reduction over the first axis of the rows sharing a
    segment id; ``segment_ids`` is sorted and non-negative, the output has
    ``segment_ids[-1] + 1`` rows, and a segment with no rows holds ``empty``."""
    empty = 0

    def construct(self, input_x, segment_ids):
        ids = _host_ints(segment_ids)
        if ids.size and (ids[0] < 0 or np.any(np.diff(ids) < 0)):
            raise ValueError(f"ops.{self.name}: segment_ids must be a tensor with element "
                             f"values sorted in ascending order, got {ids.tolist()}")
        count = int(ids[-1]) + 1 if ids.size else 0
        out = self.reduce(input_x, segment_ids, count)
        if self.empty is None:
            return out
        rows = _segment.unsorted_segment_sum(_ones(ids.shape, input_x.dtype), segment_ids,
                                             count)
        rows = _reshape(rows, (count,) + (1,) * (input_x.ndim - 1))
        return _where(_gt(rows, 0), out, _zeros_like(out))


class SegmentSum(_Segment):
    """``SegmentSum()(input_x, segment_ids)``: the sum of each sorted segment's rows."""
    empty = None
    reduce = staticmethod(_segment.unsorted_segment_sum)


class SegmentMax(_Segment):
    """``SegmentMax()(input_x, segment_ids)``: the maximum of each sorted segment's rows (0
    for a segment with no rows)."""
    reduce = staticmethod(_segment.unsorted_segment_max)


class SegmentMin(_Segment):
    """``SegmentMin()(input_x, segment_ids)``: the minimum of each sorted segment's rows (0
    for a segment with no rows)."""
    reduce = staticmethod(_segment.unsorted_segment_min)


class SegmentProd(_Segment):
    """``SegmentProd()(input_x, segment_ids)``: the product of each sorted segment's rows (1
    for a segment with no rows)."""
    empty = None
    reduce = staticmethod(_segment.unsorted_segment_prod)


class SegmentMean(_Segment):
    """``SegmentMean()(input_x, segment_ids)``: the mean of each sorted segment's rows (0 for
    a segment with no rows)."""

    @staticmethod
    def reduce(input_x, segment_ids, count):
        total = _segment.unsorted_segment_sum(input_x, segment_ids, count)
        rows = _segment.unsorted_segment_sum(_ones(segment_ids.shape, input_x.dtype),
                                             segment_ids, count)
        rows = _reshape(_maximum(rows, 1), (count,) + (1,) * (input_x.ndim - 1))
        return _cast(_div(total, rows), input_x.dtype)


# ----------------------------------------------------------------------------- counting
class UniqueWithPad(Primitive):
    """``UniqueWithPad()(x, pad_num)``: ``(y, idx)``, the unique values of 1-D ``x`` in order
    of first appearance padded with ``pad_num`` to x's length, and each element's index in
    ``y``."""
    def construct(self, x, pad_num):
        if isinstance(pad_num, Tensor):
            pad_num = pad_num.asnumpy().item()
        return _selection.unique_with_pad(x, pad_num)


class Histogram(Primitive):
    """``Histogram(bins=100, min=0.0, max=0.0)(x)``: counts of x in ``bins`` equal-width bins
    over ``[min, max]`` (x's own range when both are 0); values outside are ignored."""
    def __init__(self, bins=100, min=0.0, max=0.0):
        if isinstance(bins, bool) or not isinstance(bins, numbers.Integral) or bins <= 0:
            raise ValueError(f"ops.Histogram: bins must be int and must > 0, got {bins!r}")
        low, high = _float(min, 'Histogram', 'min'), _float(max, 'Histogram', 'max')
        if low > high:
            raise ValueError(f"ops.Histogram: min must be <= max, got min={low}, max={high}")
        super().__init__(bins=int(bins), min=low, max=high)

    def construct(self, x):
        return _sorting.histc(x, self.bins, self.min, self.max)


class Bincount(Primitive):
    """``Bincount()(array, size, weights)``: ``out[i]`` is the sum of ``weights`` where
    ``array == i``, for ``i < size`` (larger values are ignored); weights' dtype."""
    def construct(self, array, size, weights):
        length = int(_host_ints(size)[0])
        if length < 0:
            raise ValueError(f"ops.Bincount: size must be non-negative, got {length}")
        counts = _sorting.bincount(array, weights, length)
        return _cast(counts[:length], weights.dtype)


# ----------------------------------------------------------------------------- norms
class LpNorm(Primitive):
    """``LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12)(input)``: the p-norm over ``axis``,
    at least ``epsilon``."""
    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        axes = _axes(axis, 'LpNorm', 'axis')
        super().__init__(axis=axes if isinstance(axis, (list, tuple)) else axes[0],
                         p=_int(p, 'LpNorm', 'p'),
                         keep_dims=_flag(keep_dims, 'LpNorm', 'keep_dims'),
                         epsilon=_float(epsilon, 'LpNorm', 'epsilon'))
        if self.p < 0:
            raise ValueError(f"ops.LpNorm: p must be >= 0, got {self.p}")

    def construct(self, input):
        norm = _norms.vector_norm(input, self.p, self.axis, self.keep_dims)
        return _maximum(norm, self.epsilon)


class EuclideanNorm(Primitive):
    """``EuclideanNorm(keep_dims=False)(x, axes)``: the 2-norm of x over ``axes``."""
    def __init__(self, keep_dims=False):
        super().__init__(keep_dims=_flag(keep_dims, 'EuclideanNorm', 'keep_dims'))

    def construct(self, x, axes):
        dims = tuple(int(a) for a in _host_ints(axes))
        return _norms.vector_norm(x, 2, dims, self.keep_dims)


class NuclearNorm(Primitive):
    """``NuclearNorm(dim=None, keepdim=False)(input)``: the sum of the singular values of the
    matrices over the two axes ``dim`` (a 2-D input's when None)."""
    def __init__(self, dim=None, keepdim=False):
        if dim is not None:
            dim = list(_axes(dim, 'NuclearNorm', 'dim'))
            if len(dim) != 2:
                raise ValueError(f"ops.NuclearNorm: dim must hold 2 axes, got {dim}")
        super().__init__(dim=dim, keepdim=_flag(keepdim, 'NuclearNorm', 'keepdim'))

    def construct(self, input):
        if self.dim is None and input.ndim != 2:
            raise ValueError(f"ops.NuclearNorm: when dim is None, the input must be 2-D, got "
                             f"{input.ndim}-D")
        dims = (0, 1) if self.dim is None else tuple(self.dim)
        return _norms.matrix_norm(input, 'nuc', dims, self.keepdim)


# ----------------------------------------------------------------------------- order
class Quantile(Primitive):
    """``Quantile(dim=None, keep_dims=False, ignore_nan=False)(input, q)``: the q-th quantiles
    over ``dim`` (all elements when None), q's axis first; ``ignore_nan`` skips NaNs."""
    def __init__(self, dim=None, keep_dims=False, ignore_nan=False):
        super().__init__(dim=None if dim is None else _int(dim, 'Quantile', 'dim'),
                         keep_dims=_flag(keep_dims, 'Quantile', 'keep_dims'),
                         ignore_nan=_flag(ignore_nan, 'Quantile', 'ignore_nan'))

    def construct(self, input, q):
        run = _quantiles.nanquantile if self.ignore_nan else _sorting.quantile
        return run(input, q, self.dim, self.keep_dims)


class NthElement(Primitive):
    """``NthElement(reverse=False)(input, n)``: the n-th smallest (with reverse, largest)
    value along the last axis."""
    def __init__(self, reverse=False):
        super().__init__(reverse=_flag(reverse, 'NthElement', 'reverse'))

    def construct(self, input, n):
        n = int(_host_ints(n)[0])
        size = input.shape[-1]
        if not 0 <= n < size:
            raise ValueError(f"ops.NthElement: n must be in [0, {size}), got {n}")
        return _sorting.sort(input, -1, self.reverse)[0][..., n]


# ----------------------------------------------------------------------------- losses
def _reduction(value, prim):
    if value not in ('none', 'mean', 'sum'):
        raise ValueError(f"ops.{prim}: reduction must be one of 'none', 'mean', 'sum', got "
                         f"{value!r}")
    return value


class MultiMarginLoss(Primitive):
    """``MultiMarginLoss(p=1, margin=1.0, reduction='mean')(inputs, target, weight=None)``:
    the multi-class hinge loss ``sum_j w[y] * max(0, margin - x[y] + x[j]) ** p / C``."""
    def __init__(self, p=1, margin=1.0, reduction='mean'):
        p = _int(p, 'MultiMarginLoss', 'p')
        if p not in (1, 2):
            raise ValueError(f"ops.MultiMarginLoss: p must be 1 or 2, got {p}")
        super().__init__(p=p, margin=_float(margin, 'MultiMarginLoss', 'margin'),
                         reduction=_reduction(reduction, 'MultiMarginLoss'))

    def construct(self, inputs, target, weight=None):
        return _loss.multi_margin_hinge(inputs, target, self.p, self.margin, weight,
                                        self.reduction, 'MultiMarginLoss')


class TripletMarginLoss(Primitive):
    """``TripletMarginLoss(p=2, swap=False, eps=1e-6, reduction='mean')(x, positive, negative,
    margin)``: ``max(d(x, positive) - d(x, negative) + margin, 0)`` with the p-norm distance."""
    def __init__(self, p=2, swap=False, eps=1e-6, reduction='mean'):
        super().__init__(p=_int(p, 'TripletMarginLoss', 'p'),
                         swap=_flag(swap, 'TripletMarginLoss', 'swap'),
                         eps=_float(eps, 'TripletMarginLoss', 'eps'),
                         reduction=_reduction(reduction, 'TripletMarginLoss'))

    def construct(self, x, positive, negative, margin):
        return _loss.triplet_margin_loss(x, positive, negative, margin, self.p, self.eps,
                                         self.swap, self.reduction)
