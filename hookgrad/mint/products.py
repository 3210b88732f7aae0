"""``mindspore.mint``'s matrix products and matrix functions, on hookgrad's ops."""
from .. import ops
from .._tensor import Tensor
from ..ops import addbmm, addmm, addmv, baddbmm, einsum, matmul, mm, outer, trace

__all__ = ['addbmm', 'addmm', 'addmv', 'addr_', 'baddbmm', 'bmm', 'cdist', 'cross', 'diag',
           'dot', 'einsum', 'inverse', 'matmul', 'mm', 'mv', 'outer', 'trace',
           'triangular_solve', 'vdot']


def bmm(input, mat2):
    """Batched matrix product of (b, n, m) and (b, m, p)."""
    return ops.bmm(input, mat2)


def mv(input, vec):
    """Matrix-vector product of (n, m) and (m,)."""
    if input.ndim != 2 or vec.ndim != 1:
        raise ValueError(f"mint.mv: expects a 2-D matrix and a 1-D vector, got shapes "
                         f"{input.shape} and {vec.shape}")
    return ops.matmul(input, vec)


def dot(input, other):
    """The dot product of two 1-D tensors of the same length."""
    if input.ndim != 1 or other.ndim != 1 or input.shape != other.shape:
        raise ValueError(f"mint.dot: expects two 1-D tensors of the same length, got shapes "
                         f"{input.shape} and {other.shape}")
    return ops.inner(input, other)


def vdot(input, other):
    """The dot product of two 1-D tensors (the first conjugated; hookgrad's are real)."""
    return dot(input, other)


def addr_(input, vec1, vec2, beta=1, alpha=1):
    """``beta * input + alpha * outer(vec1, vec2)``."""
    return ops.addr(input, vec1, vec2, beta=beta, alpha=alpha)


def diag(input, diagonal=0):
    """The ``diagonal``-th diagonal of a matrix, or a matrix with a vector on it."""
    if input.ndim == 1:
        return ops.diag_embed(input, offset=diagonal) if diagonal else ops.diag(input)
    return ops.diagonal(input, diagonal)


def cross(input, other, dim=None):
    """The 3-vector cross product along ``dim`` (the first dimension of size 3 when None)."""
    return input.cross(other, dim)


def inverse(input):
    """The inverse of a square matrix (or batch)."""
    return (input if isinstance(input, Tensor) else Tensor(input)).inverse()


def cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'):
    """The ``p``-norm distances between the rows of ``x1`` and of ``x2`` (batched)."""
    return ops.cdist(x1, x2, p)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """``(X, A)`` with ``A X = b`` for triangular ``A`` (``A^T X = b`` when ``transpose``)."""
    a = A
    if unitriangular:
        eye = ops.eye(A.shape[-1], A.shape[-1], A.dtype)
        a = ops.add(ops.mul(A, ops.sub(1, eye)), eye)
    a = ops.triu(a) if upper else ops.tril(a)
    if transpose:
        a = ops.swapaxes(a, -1, -2)
    return ops.matmul(a.inverse(), b), A
