"""Math layers: MatMul, Moments, Range, Norm, ClipByNorm, Roll, Tril, Triu, OneHot
(MindSpore 2.x signatures); each composes the functional ops of ``hookgrad.ops``."""
from ... import ops
from ..._tensor import Tensor
from ..cell import Cell

__all__ = ['MatMul']


def _bool_arg(value, cell, arg):
    if not isinstance(value, bool):
        raise TypeError(f"nn.{cell}: {arg} must be a bool, got {value!r}")
    return value


class MatMul(Cell):
    """Matrix product of the last two dimensions with broadcast batch dimensions (MindSpore's
    deprecated ``nn.MatMul``; ``ops.matmul`` is the function).

    A 1-d operand is a vector (its transpose flag is ignored); two 1-d operands give their dot
    product.

    Args:
        transpose_x1: transpose the last two dimensions of ``x1`` first. Default False.
        transpose_x2: transpose the last two dimensions of ``x2`` first. Default False.

    Inputs:
        x1, x2: Tensors whose (transposed) inner dimensions agree.

    Raises:
        TypeError: for a non-bool flag.
        ValueError: when the inner dimensions differ (MindSpore's message).

    >>> import hookgrad as ms
    >>> ms.nn.MatMul(transpose_x2=True)(ms.ops.ones((2, 3)), ms.ops.ones((4, 3))).shape
    (2, 4)
    """

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        self.transpose_x1 = _bool_arg(transpose_x1, 'MatMul', 'transpose_x1')
        self.transpose_x2 = _bool_arg(transpose_x2, 'MatMul', 'transpose_x2')

    def construct(self, x1, x2):
        for arg, x in (('x1', x1), ('x2', x2)):
            if not isinstance(x, Tensor):
                raise TypeError(f"nn.MatMul: {arg} must be a Tensor, got {type(x).__name__}")
        t1 = self.transpose_x1 and x1.ndim > 1
        t2 = self.transpose_x2 and x2.ndim > 1
        s1 = (1,) + x1.shape if x1.ndim == 1 else x1.shape
        s2 = x2.shape + (1,) if x2.ndim == 1 else x2.shape
        col, row = s1[-2] if t1 else s1[-1], s2[-1] if t2 else s2[-2]
        if col != row:
            raise ValueError(f"For 'MatMul', the column of matrix dimensions of 'x1' must be "
                             f"equal to the row of matrix dimensions of 'x2', but got 'x1_col' "
                             f"{col} and 'x2_row' {row}.")
        return ops.matmul(_swap_last(x1) if t1 else x1, _swap_last(x2) if t2 else x2)


def _swap_last(x):
    """``x`` with its last two dimensions swapped."""
    nd = x.ndim
    return ops.transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))
