"""MindSpore's Primitive classes that order and search: unique values, top-k, sorting,
medians, buckets and sorted searches, top-k membership.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
import numpy as np

from ..._dtype import int32 as _int32, int64 as _int64, to_numpy
from .._base import as_tensor
from .. import (arithmetic as _arith, comparison as _cmp, reduction as _red,
               scatter_gather as _scatter, selection as _select, shaping as _shape,
               sorting as _sort)
from ._primitive import Primitive, _constant, _flag, _int, _int_dtype

__all__ = ['Unique', 'UniqueConsecutive', 'TopK', 'Sort', 'Median', 'Bucketize', 'SearchSorted',
           'UpperBound', 'LowerBound', 'InTopK']


class Unique(Primitive):
    """``Unique()(input_x)``: ``(values, inverse)`` in order of first appearance."""
    def construct(self, input_x):
        return _select.unique(input_x)


class UniqueConsecutive(Primitive):
    """``UniqueConsecutive(return_inverse=False, return_counts=False, dim=None)(x)``:
    ``(output, inverse, counts)``, runs of equal consecutive elements collapsed; inverse
    and counts not asked for are 0-d zeros, as MindSpore returns them."""
    def __init__(self, return_inverse=False, return_counts=False, dim=None):
        super().__init__(return_inverse=_flag(return_inverse, 'UniqueConsecutive',
                                              'return_inverse'),
                         return_counts=_flag(return_counts, 'UniqueConsecutive',
                                             'return_counts'), dim=dim)

    def construct(self, x):
        r = _select.unique_consecutive(x, True, True, self.dim)
        return (r[0], r[1] if self.return_inverse else _constant(np.zeros((), np.int64), r[0]),
                r[2] if self.return_counts else _constant(np.zeros((), np.int64), r[0]))


class TopK(Primitive):
    """``TopK(sorted=True)(input_x, k)``: ``(values, indices)`` of the k largest along the
    last axis."""
    def __init__(self, sorted=True):
        super().__init__(sorted=_flag(sorted, 'TopK', 'sorted'))

    def construct(self, input_x, k):
        return _sort.topk(input_x, k, sorted=self.sorted)


class Sort(Primitive):
    """``Sort(axis=-1, descending=False)(x)``: ``(values, indices)`` sorted along axis."""
    def __init__(self, axis=-1, descending=False):
        super().__init__(axis=axis, descending=_flag(descending, 'Sort', 'descending'))

    def construct(self, x):
        return _sort.sort(x, self.axis, self.descending)


class Median(Primitive):
    """``Median(global_median=False, axis=0, keep_dims=False, ignore_nan=False)(x)``:
    ``(values, indices)`` of the lower median along axis (of all elements with
    ``global_median``)."""
    def __init__(self, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
        if ignore_nan:
            raise ValueError("ops.Median: ignore_nan=True is not supported; NaNs order last")
        super().__init__(global_median=_flag(global_median, 'Median', 'global_median'),
                         axis=axis, keep_dims=_flag(keep_dims, 'Median', 'keep_dims'),
                         ignore_nan=ignore_nan)

    def construct(self, x):
        if self.global_median:
            flat = _shape.reshape(x, (-1,))
            values, index = _sort.median(flat, 0)
            return values, index
        return _sort.median(x, self.axis, self.keep_dims)


class Bucketize(Primitive):
    """``Bucketize(boundaries)(input)``: Int32 bucket indices among sorted boundaries."""
    def __init__(self, boundaries):
        super().__init__(boundaries=list(boundaries))

    def construct(self, input):
        return _arith.cast(_sort.bucketize(input, self.boundaries), _int32)


class SearchSorted(Primitive):
    """``SearchSorted(dtype=int64, right=False)(sorted_sequence, values, sorter=None)``."""
    def __init__(self, dtype=_int64, right=False):
        if to_numpy(dtype) not in (np.dtype(np.int32), np.dtype(np.int64)):
            raise TypeError(f"ops.SearchSorted: dtype must be Int32 or Int64, got {dtype}")
        super().__init__(dtype=dtype, right=_flag(right, 'SearchSorted', 'right'))

    def construct(self, sorted_sequence, values, sorter=None):
        y = _sort.searchsorted(sorted_sequence, values, right=self.right, sorter=sorter)
        return _arith.cast(y, self.dtype)


class _Bound(Primitive):
    right = False

    def __init__(self, out_type=_int32):
        super().__init__(out_type=_int_dtype(out_type, type(self).__name__, 'out_type'))

    def construct(self, sorted_x, values):
        s, v = as_tensor(sorted_x, 'sorted_x'), as_tensor(values, 'values')
        if s.ndim != 2 or v.ndim != 2 or s.shape[0] != v.shape[0]:
            raise ValueError(f"ops.{type(self).__name__}: sorted_x and values must be 2-d with "
                             f"one number of rows, got {s.shape} and {v.shape}")
        return _arith.cast(_sort.searchsorted(s, v, right=self.right), self.out_type)


class UpperBound(_Bound):
    """``UpperBound(out_type=int32)(sorted_x, values)``: per row, the index of the first
    element of sorted_x greater than each value."""
    right = True


class LowerBound(_Bound):
    """``LowerBound(out_type=int32)(sorted_x, values)``: per row, the index of the first
    element of sorted_x not less than each value."""


class InTopK(Primitive):
    """``InTopK(k)(x1, x2)``: Bool (N,), whether the target class x2[i] is among the k largest
    of row x1[i] (ties count in its favour)."""
    def __init__(self, k):
        super().__init__(k=_int(k, 'InTopK', 'k'))

    def construct(self, x1, x2):
        x, t = as_tensor(x1, 'x1'), as_tensor(x2, 'x2')
        if x.ndim != 2 or t.shape != x.shape[:1]:
            raise ValueError(f"ops.InTopK: x1 must be (N, C) and x2 (N,), got {x.shape} and "
                             f"{t.shape}")
        target = _scatter.gather_elements(x, 1, _shape.reshape(_arith.cast(t, _int64), (-1, 1)))
        above = _red.reduce_sum(_arith.cast(_cmp.gt(x, target), _int32), 1)
        return _cmp.lt(above, self.k)
