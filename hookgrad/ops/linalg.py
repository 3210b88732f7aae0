"""Matrix products: matmul (NumPy semantics), bmm and mm."""
import numpy as np

from ..autograd.function import Op, apply2
from ._base import as_tensor, operands


def _swap(m, x):
    """``x`` with its last two axes exchanged."""
    n = x.ndim
    return m.transpose(x, tuple(range(n - 2)) + (n - 1, n - 2))


class MatMul(Op):
    """y = a @ b with NumPy's rules: a 1-d operand is a vector, batch dimensions broadcast.

    Only the wanted gradients are computed (each is a matrix product). Batch dimensions that
    were broadcast come back in the broadcast shape; the engine sums them to the input's shape.
    """
    @staticmethod
    def forward(ctx, a, b):
        ctx.save(a, b)
        return np.asarray(np.matmul(a, b))    # a 0-d array, not a scalar, for two vectors

    @staticmethod
    def backward(ctx, gy):
        a, b = ctx.saved
        m = ctx.m
        want_a = ctx.needs_grad(0)
        want_b = ctx.needs_grad(1)
        ga = gb = None
        if a.ndim == 1 and b.ndim == 1:         # a dot product: gy is 0-d
            return (gy * b if want_a else None), (gy * a if want_b else None)
        if a.ndim == 1:                         # y[..., j] = sum_i a_i b[..., i, j]
            k = a.shape[0]
            if b.ndim == 2:
                if want_a:
                    ga = m.matmul(b, gy)
                if want_b:
                    gb = m.reshape(a, (k, 1)) * gy
            else:
                if want_a:
                    ga = m.matmul(m.reshape(gy, (-1,)), m.reshape(_swap(m, b), (-1, k)))
                if want_b:
                    gb = m.reshape(a, (k, 1)) * m.reshape(gy, gy.shape[:-1] + (1, gy.shape[-1]))
            return ga, gb
        if b.ndim == 1:                         # y[..., n] = sum_k a[..., n, k] b_k
            k = b.shape[0]
            if want_a:
                ga = m.reshape(gy, gy.shape + (1,)) * b
            if want_b:
                gb = m.matmul(m.reshape(gy, (-1,)), m.reshape(a, (-1, k)))
            return ga, gb
        if want_a:
            ga = m.matmul(gy, _swap(m, b))
        if want_b:
            if b.ndim == 2 and a.ndim > 2:      # fold a's batch into one product, no batch sum
                k = a.shape[-1]
                gb = m.matmul(m.transpose(m.reshape(a, (-1, k)), (1, 0)),
                              m.reshape(gy, (-1, gy.shape[-1])))
            else:
                gb = m.matmul(_swap(m, a), gy)
        return ga, gb


def _align_error(name, a, b, ka, kb):
    return ValueError(f"ops.{name}: shapes {a.shape} and {b.shape} do not align ({ka} != {kb})")


def _product(a, b):
    if a._data.dtype is not b._data.dtype:
        a, b = operands(a, b)
    return apply2(MatMul, a, b)


def matmul(input, other):
    """Matrix product with NumPy's rules: 1-d operands are vectors, batch dimensions broadcast.

    Raises:
        ValueError: when an operand is 0-d, the contracted lengths differ, or the batch
            dimensions cannot broadcast (the message names both shapes).

    >>> import hookgrad as ms
    >>> ms.ops.matmul(ms.Tensor([[1.0, 2.0]]), ms.Tensor([3.0, 4.0]))
    Tensor(shape=[1], dtype=Float32, value= [ 1.10000000e+01])
    """
    a, b = as_tensor(input), as_tensor(other, 'other')
    sa, sb = a._data.shape, b._data.shape
    if not sa or not sb:
        raise ValueError(f"ops.matmul: operands must be at least 1-d, got shapes {sa} and {sb}")
    ka, kb = sa[-1], (sb[-2] if len(sb) > 1 else sb[0])
    if ka != kb:
        raise _align_error('matmul', a, b, ka, kb)
    try:
        return _product(a, b)
    except ValueError:
        raise ValueError(f"ops.matmul: batch dimensions of shapes {a.shape} and {b.shape} "
                         f"cannot be broadcast together") from None


def bmm(input_x, mat2):
    """Batched matrix product of two 3-d tensors with the same batch size.

    Raises:
        ValueError: when an operand is not 3-d, the batch sizes differ or the shapes do not
            align (the message names both shapes).
    """
    a, b = as_tensor(input_x, 'input_x'), as_tensor(mat2, 'mat2')
    if a.ndim != 3 or b.ndim != 3:
        raise ValueError(f"ops.bmm: expected two 3-d tensors, got shapes {a.shape} and {b.shape}")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"ops.bmm: shapes {a.shape} and {b.shape} have different batch sizes "
                         f"({a.shape[0]} != {b.shape[0]})")
    if a.shape[2] != b.shape[1]:
        raise _align_error('bmm', a, b, a.shape[2], b.shape[1])
    return _product(a, b)


def mm(input, mat2):
    """Matrix product of two 2-d tensors.

    Raises:
        ValueError: when an operand is not 2-d or the shapes do not align.
    """
    a, b = as_tensor(input), as_tensor(mat2, 'mat2')
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"ops.mm: expected two 2-d tensors, got shapes {a.shape} and {b.shape}")
    if a.shape[1] != b.shape[0]:
        raise _align_error('mm', a, b, a.shape[1], b.shape[0])
    return _product(a, b)
