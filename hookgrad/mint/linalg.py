"""``mindspore.mint.linalg``: norms, inverse and QR under PyTorch's names."""
import numpy as np

from .. import ops
from .._tensor import Tensor
from ..compat.names import reporter as _reporter
from .products import inverse

__all__ = ['inv', 'matrix_norm', 'norm', 'qr', 'vector_norm']


def inv(input):
    """The inverse of a square matrix (or batch)."""
    return inverse(input)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """The vector ``ord``-norm over ``dim`` (all elements when None)."""
    return ops.vector_norm(x, ord, dim, keepdim, dtype=dtype)


def matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None):
    """The matrix norm ('fro', 'nuc', inf, -inf, 1, -1, 2, -2) over the two dims ``dim``."""
    return ops.matrix_norm(A, ord, dim, keepdim, dtype=dtype)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm (1-D input or int ``dim``) or a matrix norm (2-D input or two ``dim``)."""
    return ops.norm(A, ord, dim, keepdim, dtype=dtype)


def qr(A, mode='reduced'):
    """``(Q, R)`` with ``A = Q R``, Q orthonormal columns, R upper triangular; forward only
    (no gradient)."""
    if mode not in ('reduced', 'complete', 'r'):
        raise ValueError(f"Failed to convert the value \"{mode}\" of input 'mode' of "
                         f"'LinalgQr' to enum.")
    if A.ndim < 2:
        raise ValueError(f"mint.linalg.qr: expects at least 2 dimensions, got shape {A.shape}")
    q, r = np.linalg.qr(A.asnumpy(), mode='complete' if mode == 'complete' else 'reduced')
    q, r = Tensor(q), Tensor(r)
    return (ops.zeros((0,), A.dtype), r) if mode == 'r' else (q, r)


__getattr__ = _reporter('mindspore.mint.linalg')
