"""MindSpore's Primitive classes of sparse tensors given as (indices, values, shape):
SparseToDense, SparseTensorDenseMatmul, SparseTensorDenseAdd, SparseSlice and Coalesce.

Each is a thin callable over ``hookgrad/ops/sparse.py`` and the functional ops: the index
structure is computed with NumPy, the values with hookgrad ops (so they differentiate).
"""
import numpy as np

from .. import sparse as _sparse
from ..creation import zeros as _zeros
from ..indexing import gather as _gather
from ..scatter_gather import tensor_scatter_add as _scatter_add
from ..segment import unsorted_segment_sum as _segment_sum
from ..shaping import reshape as _reshape, transpose as _transpose
from ..._tensor import Tensor
from ._primitive import Primitive, _flag

__all__ = ['SparseToDense', 'SparseTensorDenseMatmul', 'SparseTensorDenseAdd', 'SparseSlice',
           'Coalesce']


def _dims(shape):
    """A dense shape given as a tuple, list or 1-d Tensor, as a tuple of ints."""
    if isinstance(shape, Tensor):
        return tuple(int(d) for d in shape.asnumpy())
    return tuple(int(d) for d in shape)


class SparseToDense(Primitive):
    """``SparseToDense()(indices, values, sparse_shape)``: the dense tensor of ``sparse_shape``
    holding ``values`` at the rows of ``indices`` (values at repeated indices are summed)."""
    def construct(self, indices, values, sparse_shape):
        return _scatter_add(_zeros(_dims(sparse_shape), values.dtype), indices, values)


class SparseTensorDenseAdd(Primitive):
    """``SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)``: the dense ``x2`` plus the
    sparse tensor (``x1_shape`` must be x2's shape)."""
    def construct(self, x1_indices, x1_values, x1_shape, x2):
        if _dims(x1_shape) != tuple(x2.shape):
            raise ValueError(f"For 'SparseTensorDenseAdd', x1_shape {_dims(x1_shape)} must equal "
                             f"x2's shape {tuple(x2.shape)}")
        return _scatter_add(x2, x1_indices, x1_values)


class SparseTensorDenseMatmul(Primitive):
    """``SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values,
    sparse_shape, dense)``: the 2-d sparse matrix times ``dense``, either operand transposed
    (conjugated for complex values) by its ``adjoint_*`` flag."""
    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__(adjoint_st=_flag(adjoint_st, 'SparseTensorDenseMatmul', 'adjoint_st'),
                         adjoint_dt=_flag(adjoint_dt, 'SparseTensorDenseMatmul', 'adjoint_dt'))

    def construct(self, indices, values, sparse_shape, dense):
        shape = _dims(sparse_shape)
        coords = indices.asnumpy().astype(np.int64)
        rows, cols = coords[:, 0], coords[:, 1]
        if self.adjoint_st:
            rows, cols, shape = cols, rows, (shape[1], shape[0])
            if str(values.dtype).startswith('Complex'):
                values = values.conj()
        if self.adjoint_dt:
            dense = _transpose(dense, (1, 0))
            if str(dense.dtype).startswith('Complex'):
                dense = dense.conj()
        if dense.shape[0] != shape[1]:
            raise ValueError(f"For 'SparseTensorDenseMatmul', the sparse matrix's columns "
                             f"({shape[1]}) must equal the dense matrix's rows ({dense.shape[0]})")
        picked = _gather(dense, Tensor(cols), 0)
        products = _reshape(values, (-1, 1)) * picked
        return _segment_sum(products, Tensor(rows), shape[0])


class SparseSlice(Primitive):
    """``SparseSlice()(indices, values, shape, start, size)``: the entries inside the box
    ``[start, start + size)``, re-indexed from ``start``: ``(y_indices, y_values, y_shape)``."""
    def construct(self, indices, values, shape, start, size):
        coords = indices.asnumpy().astype(np.int64)
        dims = np.array(_dims(shape), np.int64)
        lo = np.array(_dims(start), np.int64)
        hi = np.minimum(lo + np.array(_dims(size), np.int64), dims)
        keep = np.flatnonzero(np.all((coords >= lo) & (coords < hi), axis=1))
        return (Tensor(coords[keep] - lo), _gather(values, Tensor(keep), 0),
                Tensor(np.maximum(hi - lo, 0)))


class Coalesce(Primitive):
    """``Coalesce()(x_indices, x_values, x_shape)``: ``ops.coalesce``."""
    def construct(self, x_indices, x_values, x_shape):
        return _sparse.coalesce(x_indices, x_values, x_shape)
