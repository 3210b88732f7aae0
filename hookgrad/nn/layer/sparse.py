"""MindSpore's sparse layers: SparseToDense (a COOTensor to its dense Tensor) and
SparseTensorDenseMatmul (a sparse matrix given as indices/values/shape times a dense one)."""
from ... import ops
from ..cell import Cell

__all__ = ['SparseToDense', 'SparseTensorDenseMatmul']


class SparseToDense(Cell):
    """``SparseToDense()(coo_tensor)``: the dense Tensor of a COOTensor."""

    def __init__(self):
        super().__init__()
        self.sparse_to_dense = ops.SparseToDense()

    def construct(self, sparse_tensor):
        return self.sparse_to_dense(sparse_tensor.indices, sparse_tensor.values,
                                    sparse_tensor.shape)


class SparseTensorDenseMatmul(Cell):
    """``SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values,
    sparse_shape, dense)``: ``ops.SparseTensorDenseMatmul``'s product as a layer."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        self.adjoint_st = adjoint_st
        self.adjoint_dt = adjoint_dt
        self.sparse_dense_matmul = ops.SparseTensorDenseMatmul(adjoint_st, adjoint_dt)

    def construct(self, indices, values, sparse_shape, dense):
        return self.sparse_dense_matmul(indices, values, sparse_shape, dense)
