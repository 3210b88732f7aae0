"""MindSpore's Primitive classes for arrays: shapes and metadata, creation, gathers and
scatters, sorting and selection, slicing and in-place updates of Parameters.

Each is a thin callable over the functional op it names (see ``primitives.py``). Constructor
and call arguments follow MindSpore 2.10's Primitives.
"""
import numpy as np

from .._dtype import float32 as _float32, int32 as _int32, int64 as _int64, to_numpy
from .primitives import Primitive, _flag
from . import (arithmetic as _arith, broadcasting as _broadcast, creation as _create,
               indexing as _index, inspection as _inspect, matrix as _matrix,
               rearrange as _rearrange, scatter_gather as _scatter, selection as _select,
               shaping as _shape, sorting as _sort)

__all__ = [
    'Shape', 'Rank', 'Size', 'DType', 'ScalarToTensor', 'TupleToArray', 'Eye', 'Zeros', 'Ones',
    'BroadcastTo', 'Expand', 'ReverseV2', 'Pack', 'Unpack', 'Unstack', 'Roll', 'Meshgrid',
    'Slice', 'StridedSlice', 'Range', 'Tril', 'Triu', 'Trace', 'Diag',
    'GatherV2', 'GatherD', 'GatherNd', 'ScatterNd', 'TensorScatterUpdate', 'TensorScatterAdd',
    'TensorScatterSub', 'TensorScatterMax', 'TensorScatterMin', 'TensorScatterMul',
    'TensorScatterDiv', 'TensorScatterElements', 'ScatterAdd', 'ScatterSub', 'ScatterUpdate',
    'ScatterMax', 'ScatterMin', 'ScatterMul', 'ScatterDiv', 'ScatterNdAdd', 'ScatterNdSub',
    'ScatterNdUpdate', 'MaskedFill', 'MaskedSelect', 'NonZero', 'Unique', 'TopK', 'Sort',
    'Median', 'Bucketize', 'SearchSorted', 'IndexAdd', 'InplaceUpdate', 'InplaceAdd',
    'InplaceSub', 'AssignAdd', 'AssignSub',
]


# ----------------------------------------------------------------------------- metadata
class Shape(Primitive):
    """``Shape()(x)``: the shape of x as a tuple of ints."""
    def construct(self, input_x):
        return _shape.shape(input_x)


class Rank(Primitive):
    """``Rank()(x)``: the number of dimensions of x, an int (``ops.rank``)."""
    def construct(self, input_x):
        return _inspect.tensor_arg(input_x, 'Rank', 'input_x').ndim


class Size(Primitive):
    """``Size()(x)``: the number of elements of x, an int (``ops.size``)."""
    def construct(self, input_x):
        return _inspect.tensor_arg(input_x, 'Size', 'input_x').size


class DType(Primitive):
    """``DType()(x)``: the dtype of x (``ops.dtype``)."""
    def construct(self, input_x):
        return _inspect.tensor_arg(input_x, 'DType', 'input_x').dtype


# ----------------------------------------------------------------------------- creation
class ScalarToTensor(Primitive):
    """``ScalarToTensor()(input_x, dtype=float32)``: a 0-d tensor holding a Python number."""
    def construct(self, input_x, dtype=_float32):
        return _create.number_tensor(input_x, dtype, 'ScalarToTensor')


class TupleToArray(Primitive):
    """``TupleToArray()(input_x)``: a 1-d tensor from a tuple of numbers of one type (Int32
    for ints, Float32 for floats)."""
    def construct(self, input_x):
        return _create.tuple_tensor(input_x, 'TupleToArray')


class Eye(Primitive):
    """``Eye()(n, m, t)``: an n x m matrix of dtype t with ones on the diagonal."""
    def construct(self, n, m, t):
        return _create.eye(n, m, t)


class Zeros(Primitive):
    """``Zeros()(size, type=None)``: zeros of shape size."""
    def construct(self, size, type=None):
        return _create.zeros(size, type)


class Ones(Primitive):
    """``Ones()(shape, type=None)``: ones of shape shape."""
    def construct(self, shape, type=None):
        return _create.ones(shape, type)


# ----------------------------------------------------------------------------- shapes
class BroadcastTo(Primitive):
    """``BroadcastTo(shape)(x)``: x broadcast to ``shape`` (-1 keeps a dimension)."""
    def __init__(self, shape):
        super().__init__(shape=tuple(shape))

    def construct(self, input_x):
        return _broadcast.broadcast_to(input_x, self.shape)


class Expand(Primitive):
    """``Expand()(x, shape)``: x broadcast to ``shape`` (a 1-d integer Tensor or tuple)."""
    def construct(self, x, shape):
        return _rearrange.expand(x, shape)


class ReverseV2(Primitive):
    """``ReverseV2(axis)(x)``: x reversed along the axes ``axis``."""
    def __init__(self, axis):
        super().__init__(axis=tuple(axis))

    def construct(self, input_x):
        return _shape.flip(input_x, self.axis)


class Pack(Primitive):
    """``Pack(axis=0)(x)``: the tensors of x stacked along a new ``axis`` (ops.Stack)."""
    def __init__(self, axis=0):
        super().__init__(axis=axis)

    def construct(self, x):
        return _shape.stack(x, self.axis)


class Unstack(Primitive):
    """``Unstack(axis=0, num=None)(x)``: the slices of x along ``axis``, as a tuple."""
    def __init__(self, axis=0, num=None):
        super().__init__(axis=axis, num=num)

    def construct(self, input_x):
        pieces = _rearrange.unstack(input_x, self.axis)
        if self.num is not None and len(pieces) != self.num:
            raise ValueError(f"ops.Unstack: num {self.num} differs from the size "
                             f"{len(pieces)} of axis {self.axis}")
        return pieces


class Unpack(Unstack):
    """``Unpack(axis=0)(x)``: the slices of x along ``axis`` (ops.Unstack)."""
    def __init__(self, axis=0):
        Primitive.__init__(self, axis=axis, num=None)


class Roll(Primitive):
    """``Roll(shifts, dims=None)(x)``: x shifted cyclically along ``dims``."""
    def __init__(self, shifts, dims=None):
        shifts = _shape._int_tuple(shifts, 'Roll', 'shifts')
        dims = None if dims is None else _shape._int_tuple(dims, 'Roll', 'dims')
        super().__init__(shifts=shifts, dims=dims)

    def construct(self, input_x):
        return _rearrange.roll(input_x, self.shifts, self.dims)


class Meshgrid(Primitive):
    """``Meshgrid(indexing='xy')(inputs)``: coordinate grids from a tuple of 1-d tensors."""
    def __init__(self, indexing='xy'):
        if indexing not in ('xy', 'ij'):
            raise ValueError(f"ops.Meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
        super().__init__(indexing=indexing)

    def construct(self, inputs):
        return _rearrange.meshgrid(*inputs, indexing=self.indexing)


class Slice(Primitive):
    """``Slice()(x, begin, size)``: the block at ``begin`` with extents ``size``."""
    def construct(self, input_x, begin, size):
        return _rearrange.slice(input_x, begin, size)


class StridedSlice(Primitive):
    """``StridedSlice(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
    shrink_axis_mask=0)(x, begin, end, strides)``: TensorFlow's strided slice."""
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                 shrink_axis_mask=0):
        super().__init__(begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                         new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)

    def construct(self, input_x, begin, end, strides):
        return _rearrange.strided_slice(input_x, begin, end, strides, self.begin_mask,
                                        self.end_mask, self.ellipsis_mask, self.new_axis_mask,
                                        self.shrink_axis_mask)


class Range(Primitive):
    """``Range(maxlen=1000000)(start, limit, delta)``: values from start up to limit by delta
    (0-d Tensors of one dtype)."""
    def __init__(self, maxlen=1000000):
        super().__init__(maxlen=maxlen)

    def construct(self, start, limit, delta):
        return _create.range(start, limit, delta, self.maxlen)


class Tril(Primitive):
    """``Tril(diagonal=0)(x)``: the lower triangle of the last two axes."""
    def __init__(self, diagonal=0):
        super().__init__(diagonal=diagonal)

    def construct(self, x):
        return _matrix.tril(x, self.diagonal)


class Triu(Primitive):
    """``Triu(diagonal=0)(x)``: the upper triangle of the last two axes."""
    def __init__(self, diagonal=0):
        super().__init__(diagonal=diagonal)

    def construct(self, x):
        return _matrix.triu(x, self.diagonal)


class Trace(Primitive):
    """``Trace()(x)``: the sum of the main diagonal of a 2-d tensor."""
    def construct(self, x):
        return _matrix.trace(x)


class Diag(Primitive):
    """``Diag()(x)``: a tensor of rank 2k with x (rank k) on its diagonal."""
    def construct(self, input_x):
        return _matrix.diag(input_x)


# ----------------------------------------------------------------------------- gathers, scatters
class GatherV2(Primitive):
    """``GatherV2()(params, indices, axis)``: slices of params at indices along axis."""
    def construct(self, input_params, input_indices, axis):
        return _index.gather(input_params, input_indices, axis)


class GatherD(Primitive):
    """``GatherD()(x, dim, index)``: ops.gather_elements."""
    def construct(self, x, dim, index):
        return _scatter.gather_elements(x, dim, index)


class GatherNd(Primitive):
    """``GatherNd()(input_x, indices)``: slices at the n-d positions of indices."""
    def construct(self, input_x, indices):
        return _scatter.gather_nd(input_x, indices)


class ScatterNd(Primitive):
    """``ScatterNd()(indices, updates, shape)``: zeros of shape with updates added."""
    def construct(self, indices, updates, shape):
        return _scatter.scatter_nd(indices, updates, shape)


class _TensorScatter(Primitive):
    function = None

    def construct(self, input_x, indices, updates):
        return type(self).function(input_x, indices, updates)


class TensorScatterUpdate(_TensorScatter):
    """``TensorScatterUpdate()(input_x, indices, updates)``: updates written at indices."""
    function = staticmethod(_scatter.tensor_scatter_update)


class TensorScatterAdd(_TensorScatter):
    """``TensorScatterAdd()(input_x, indices, updates)``: updates added at indices."""
    function = staticmethod(_scatter.tensor_scatter_add)


class TensorScatterSub(_TensorScatter):
    """``TensorScatterSub()(input_x, indices, updates)``: updates subtracted at indices."""
    function = staticmethod(_scatter.tensor_scatter_sub)


class TensorScatterMax(_TensorScatter):
    """``TensorScatterMax()(input_x, indices, updates)``: the maximum with updates at indices."""
    function = staticmethod(_scatter.tensor_scatter_max)


class TensorScatterMin(_TensorScatter):
    """``TensorScatterMin()(input_x, indices, updates)``: the minimum with updates at indices."""
    function = staticmethod(_scatter.tensor_scatter_min)


class TensorScatterMul(_TensorScatter):
    """``TensorScatterMul()(input_x, indices, updates)``: multiplied by updates at indices."""
    function = staticmethod(_scatter.tensor_scatter_mul)


class TensorScatterDiv(_TensorScatter):
    """``TensorScatterDiv()(input_x, indices, updates)``: divided by updates at indices."""
    function = staticmethod(_scatter.tensor_scatter_div)


class TensorScatterElements(Primitive):
    """``TensorScatterElements(axis=0, reduction='none')(data, indices, updates)``."""
    def __init__(self, axis=0, reduction='none'):
        if reduction not in ('none', 'add'):
            raise ValueError(f"ops.TensorScatterElements: reduction must be 'none' or 'add', "
                             f"got {reduction!r}")
        super().__init__(axis=axis, reduction=reduction)

    def construct(self, data, indices, updates):
        return _scatter.tensor_scatter_elements(data, indices, updates, self.axis,
                                                self.reduction)


class _InPlaceScatter(Primitive):
    function = None

    def __init__(self, use_locking=False):
        super().__init__(use_locking=_flag(use_locking, type(self).__name__, 'use_locking'))

    def construct(self, input_x, indices, updates):
        return type(self).function(input_x, indices, updates)


class ScatterAdd(_InPlaceScatter):
    """``ScatterAdd(use_locking=False)(input_x, indices, updates)``: in-place row adds."""
    function = staticmethod(_select.scatter_add)


class ScatterSub(_InPlaceScatter):
    """``ScatterSub(use_locking=False)(input_x, indices, updates)``: in-place row subtracts."""
    function = staticmethod(_select.scatter_sub)


class ScatterUpdate(_InPlaceScatter):
    """``ScatterUpdate(use_locking=True)(input_x, indices, updates)``: in-place row writes."""
    function = staticmethod(_select.scatter_update)

    def __init__(self, use_locking=True):
        super().__init__(use_locking)


class ScatterMax(_InPlaceScatter):
    """``ScatterMax(use_locking=False)(input_x, indices, updates)``: in-place row maxima."""
    function = staticmethod(_select.scatter_max)


class ScatterMin(_InPlaceScatter):
    """``ScatterMin(use_locking=False)(input_x, indices, updates)``: in-place row minima."""
    function = staticmethod(_select.scatter_min)


class ScatterMul(_InPlaceScatter):
    """``ScatterMul(use_locking=False)(input_x, indices, updates)``: in-place row products."""
    function = staticmethod(_select.scatter_mul)


class ScatterDiv(_InPlaceScatter):
    """``ScatterDiv(use_locking=False)(input_x, indices, updates)``: in-place row quotients."""
    function = staticmethod(_select.scatter_div)


class ScatterNdAdd(_InPlaceScatter):
    """``ScatterNdAdd(use_locking=False)(input_x, indices, updates)``: in-place n-d adds."""
    function = staticmethod(_select.scatter_nd_add)


class ScatterNdSub(_InPlaceScatter):
    """``ScatterNdSub(use_locking=False)(input_x, indices, updates)``: in-place n-d subtracts."""
    function = staticmethod(_select.scatter_nd_sub)


class ScatterNdUpdate(_InPlaceScatter):
    """``ScatterNdUpdate(use_locking=True)(input_x, indices, updates)``: in-place n-d writes."""
    function = staticmethod(_select.scatter_nd_update)

    def __init__(self, use_locking=True):
        super().__init__(use_locking)


# ----------------------------------------------------------------------------- selection, order
class MaskedFill(Primitive):
    """``MaskedFill()(input, mask, value)``: value where mask is True."""
    def construct(self, input, mask, value):
        return _index.masked_fill(input, mask, value)


class MaskedSelect(Primitive):
    """``MaskedSelect()(x, mask)``: the elements of x where mask is True, 1-d."""
    def construct(self, x, mask):
        return _select.masked_select(x, mask)


class NonZero(Primitive):
    """``NonZero()(x)``: the (N, ndim) Int64 positions of the nonzero elements."""
    def construct(self, x):
        return _select.nonzero(x)


class Unique(Primitive):
    """``Unique()(input_x)``: ``(values, inverse)`` in order of first appearance."""
    def construct(self, input_x):
        return _select.unique(input_x)


class TopK(Primitive):
    """``TopK(sorted=True)(input_x, k)``: ``(values, indices)`` of the k largest along the
    last axis."""
    def __init__(self, sorted=True):
        super().__init__(sorted=_flag(sorted, 'TopK', 'sorted'))

    def construct(self, input_x, k):
        return _sort.topk(input_x, k)


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


# ----------------------------------------------------------------------------- in-place updates
class IndexAdd(Primitive):
    """``IndexAdd(axis, use_lock=True, check_index_bound=True)(input_x, indices, input_y)``."""
    def __init__(self, axis, use_lock=True, check_index_bound=True):
        super().__init__(axis=axis, use_lock=use_lock, check_index_bound=check_index_bound)

    def construct(self, input_x, indices, input_y):
        return _select.index_add(input_x, indices, input_y, self.axis,
                                 check_index_bound=self.check_index_bound)


class _RowUpdate(Primitive):
    function = None

    def __init__(self, indices):
        super().__init__(indices=indices)

    def construct(self, x, v):
        return type(self).function(x, v, self.indices)


class InplaceUpdate(_RowUpdate):
    """``InplaceUpdate(indices)(x, v)``: x with rows ``indices`` replaced by v."""
    function = staticmethod(_select.inplace_update)


class InplaceAdd(_RowUpdate):
    """``InplaceAdd(indices)(x, v)``: x with v added to rows ``indices``."""
    function = staticmethod(_select.inplace_add)


class InplaceSub(_RowUpdate):
    """``InplaceSub(indices)(x, v)``: x with v subtracted from rows ``indices``."""
    function = staticmethod(_select.inplace_sub)


class AssignAdd(Primitive):
    """``AssignAdd()(variable, value)``: ``variable += value`` in place; returns variable."""
    def construct(self, variable, value):
        return _create.assign_add(variable, value)


class AssignSub(Primitive):
    """``AssignSub()(variable, value)``: ``variable -= value`` in place; returns variable."""
    def construct(self, variable, value):
        return _create.assign_sub(variable, value)
