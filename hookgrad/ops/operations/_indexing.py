"""MindSpore's Primitive classes for gathers, scatters and masks beyond Gather and Select:
slices and elements at indices, embedding lookups, out-of-place and in-place scatters,
index and row updates of Parameters, masked fills and selections.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
import numpy as np

from ..._tensor import Tensor
from .._base import as_tensor
from .. import (arithmetic as _arith, indexing as _index, scatter_gather as _scatter,
               selection as _select)
from ._primitive import Primitive, _flag

__all__ = ['GatherV2', 'SparseGatherV2', 'GatherD', 'GatherNd', 'EmbeddingLookup', 'ScatterNd',
           'TensorScatterUpdate', 'TensorScatterAdd', 'TensorScatterSub', 'TensorScatterMax',
           'TensorScatterMin', 'TensorScatterMul', 'TensorScatterDiv', 'TensorScatterElements',
           'ScatterAdd', 'ScatterSub', 'ScatterUpdate', 'ScatterMax', 'ScatterMin', 'ScatterMul',
           'ScatterDiv', 'ScatterNdAdd', 'ScatterNdSub', 'ScatterNdUpdate', 'ScatterNdMax',
           'ScatterNdMin', 'ScatterNdMul', 'ScatterNdDiv', 'ScatterNonAliasingAdd', 'IndexAdd',
           'IndexFill', 'InplaceUpdate', 'InplaceAdd', 'InplaceSub', 'MaskedFill', 'MaskedSelect',
           'NonZero']


# ----------------------------------------------------------------------------- gathers
class GatherV2(Primitive):
    """``GatherV2()(params, indices, axis)``: slices of params at indices along axis."""
    def construct(self, input_params, input_indices, axis):
        return _index.gather(input_params, input_indices, axis)


class SparseGatherV2(GatherV2):
    """``SparseGatherV2()(input_params, input_indices, axis)``: ``GatherV2``'s slices."""


class GatherD(Primitive):
    """``GatherD()(x, dim, index)``: ops.gather_elements."""
    def construct(self, x, dim, index):
        return _scatter.gather_elements(x, dim, index)


class GatherNd(Primitive):
    """``GatherNd()(input_x, indices)``: slices at the n-d positions of indices."""
    def construct(self, input_x, indices):
        return _scatter.gather_nd(input_x, indices)


class EmbeddingLookup(Primitive):
    """``EmbeddingLookup()(input_params, input_indices, offset)``: the rows
    ``input_params[i - offset]``; indices outside the table give rows of zeros."""
    def construct(self, input_params, input_indices, offset):
        table = as_tensor(input_params, 'input_params')
        idx = as_tensor(input_indices, 'input_indices')
        if idx._data.dtype.kind not in 'iu':
            raise TypeError(f"ops.EmbeddingLookup: input_indices must be an integer Tensor, "
                            f"got {idx.dtype}")
        local = idx._data.astype(np.int64) - int(offset)
        inside = (local >= 0) & (local < table.shape[0])
        rows = _index.gather(table, Tensor._wrap(np.where(inside, local, 0)), 0)
        keep = inside.reshape(inside.shape + (1,) * (table.ndim - 1))
        return _arith.mul(rows, Tensor._wrap(keep.astype(table._data.dtype)))


# ----------------------------------------------------------------------------- scatters
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


# ----------------------------------------------------------------------------- in place
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


class ScatterNdMax(_InPlaceScatter):
    """``ScatterNdMax(use_locking=False)(input_x, indices, updates)``: in-place n-d maxima."""
    function = staticmethod(_select.scatter_nd_max)


class ScatterNdMin(_InPlaceScatter):
    """``ScatterNdMin(use_locking=False)(input_x, indices, updates)``: in-place n-d minima."""
    function = staticmethod(_select.scatter_nd_min)


class ScatterNdMul(_InPlaceScatter):
    """``ScatterNdMul(use_locking=False)(input_x, indices, updates)``: in-place n-d products."""
    function = staticmethod(_select.scatter_nd_mul)


class ScatterNdDiv(_InPlaceScatter):
    """``ScatterNdDiv(use_locking=False)(input_x, indices, updates)``: in-place n-d
    quotients."""
    function = staticmethod(_select.scatter_nd_div)


class ScatterNonAliasingAdd(Primitive):
    """``ScatterNonAliasingAdd()(input_x, indices, updates)``: updates added in place at the
    n-d positions of indices; returns input_x."""
    def construct(self, input_x, indices, updates):
        return _select.scatter_nd_add(input_x, indices, updates)


class IndexAdd(Primitive):
    """``IndexAdd(axis, use_lock=True, check_index_bound=True)(input_x, indices, input_y)``."""
    def __init__(self, axis, use_lock=True, check_index_bound=True):
        super().__init__(axis=axis, use_lock=use_lock, check_index_bound=check_index_bound)

    def construct(self, input_x, indices, input_y):
        return _select.index_add(input_x, indices, input_y, self.axis,
                                 check_index_bound=self.check_index_bound)


class IndexFill(Primitive):
    """``IndexFill()(x, dim, index, value)``: x with ``value`` at positions ``index`` along
    ``dim``."""
    def construct(self, x, dim, index, value):
        return _select.index_fill(x, dim, index, value)


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


# ----------------------------------------------------------------------------- masks
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
