"""MindSpore's ``RowTensor`` (``mindspore.common.sparse_tensor``): rows of a dense tensor.

``RowTensor(indices, values, dense_shape)`` stands for the dense tensor of ``dense_shape`` that
is zero except ``dense[indices[i]] = values[i]``; ``to_dense`` builds it (with ``values``'s array
module, so on its device too).
"""
from .._tensor import Tensor
from ..debug.log import warning
from ..kernels.backend import array_module

__all__ = ['RowTensor']


class RowTensor:
    """Rows ``values`` at first-axis positions ``indices`` of a dense tensor of ``shape``.

    Args:
        indices (Tensor): 1-D integer positions, one per row of ``values``.
        values (Tensor): the rows, shape ``(len(indices), *shape[1:])``.
        shape (tuple[int]): the dense tensor's shape.
        row_tensor (RowTensor): copy this one instead.

    Raises:
        TypeError: indices or values not Tensors, shape not a tuple of ints.
        ValueError: shapes that do not fit together.
    """

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        warning("'RowTensor' is deprecated from version 1.7 and will be removed in a future "
                "version.")
        if row_tensor is not None:
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        if not isinstance(indices, Tensor) or not isinstance(values, Tensor):
            raise TypeError(f"RowTensor: indices and values must be Tensors, got "
                            f"{type(indices).__name__} and {type(values).__name__}")
        if not isinstance(shape, tuple) or not all(isinstance(d, int) for d in shape):
            raise TypeError(f"RowTensor: shape must be a tuple of ints, got {shape!r}")
        if indices.ndim != 1 or values.ndim != len(shape) or \
                values.shape[0] != indices.shape[0] or tuple(values.shape[1:]) != shape[1:]:
            raise ValueError(f"RowTensor: indices of shape {indices.shape} and values of shape "
                             f"{values.shape} do not fit the dense shape {shape}")
        self.indices = indices
        self.values = values
        self.dense_shape = shape
        self.init_finished = True

    def to_dense(self):
        """The dense tensor (rows at repeated indices are summed)."""
        values = self.values._data
        xp = array_module(values)
        dense = xp.zeros(self.dense_shape, values.dtype)
        xp.add.at(dense, self.indices._data, values)
        return Tensor._wrap(dense)

    def __repr__(self):
        return (f"RowTensor(shape={list(self.dense_shape)}, dtype={self.values.dtype}, "
                f"indices={self.indices!r}, values={self.values!r})")
