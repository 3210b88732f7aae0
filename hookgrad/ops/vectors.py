"""Vector products, distances and sums under MindSpore 2.10's ``ops`` names: mv, vecdot,
cross, dist, pdist, cov, trapz, renorm and ldexp.

Each is a composition of ops (matmul, products, norms, gathers), or the Tensor method of the
same name, so gradients come from the ops applied.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from .._dtype import float32
from .arithmetic import add, cast, mul, sub
from .indexing import gather
from .linalg import matmul
from .norms import vector_norm
from .reduction import sum as _sum
from .rearrange import narrow
from .shaping import reshape


def _tensor(x, name, arg='input'):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


def mv(mat, vec):
    """The product of the matrix ``mat`` (N, M) and the vector ``vec`` (M,)."""
    a, v = _tensor(mat, 'mv', 'mat'), _tensor(vec, 'mv', 'vec')
    if a.ndim != 2 or v.ndim != 1:
        raise ValueError(f"For 'mv', 'mat' must be 2-D and 'vec' 1-D, but got shapes {a.shape} "
                         f"and {v.shape}.")
    if a.shape[1] != v.shape[0]:
        raise ValueError(f"For 'MatMul' the input dimensions must be equal, but got 'x1_col': "
                         f"{a.shape[1]} and 'x2_row': {v.shape[0]}.")
    return matmul(a, v)


def vecdot(x, y, *, axis=-1):
    """The dot products of the vectors along ``axis`` of ``x`` and ``y`` (broadcast)."""
    x, y = _tensor(x, 'vecdot', 'x'), _tensor(y, 'vecdot', 'y')
    return _sum(mul(x, y), axis)


def cross(input, other, dim=None):
    """The cross product of the 3-vectors along ``dim`` (the first dimension of size 3 when
    None)."""
    return _tensor(input, 'cross').cross(_tensor(other, 'cross', 'other'), dim)


def dist(input, other, p=2):
    """The ``p``-norm of ``input - other`` over all elements (broadcast)."""
    x, y = _tensor(input, 'dist'), _tensor(other, 'dist', 'other')
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"For 'dist', 'p' must be a number, but got {p!r}.")
    return vector_norm(sub(x, y), float(p))


def pdist(input, p=2.0):
    """The ``p``-norm distances between each pair of rows ``i < j`` of ``input`` (..., N, M),
    in the order (0, 1), (0, 2), ..., (1, 2), ...: shape (..., N (N - 1) / 2)."""
    x = _tensor(input, 'pdist')
    if x.ndim < 2:
        raise ValueError(f"For primitive[Pdist], the x dim must be equal to 2, but got "
                         f"{x.ndim}.")
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"For 'pdist', 'input' must be a float Tensor, but got {x.dtype}.")
    if p < 0:
        raise ValueError(f"For 'pdist', 'p' must be >= 0, but got {p}.")
    i, j = np.triu_indices(x.shape[-2], 1)
    diff = sub(gather(x, Tensor(i), -2), gather(x, Tensor(j), -2))
    return vector_norm(diff, float(p), -1)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (observations in the
    columns)."""
    return _tensor(input, 'cov').cov(correction=correction, fweights=fweights,
                                     aweights=aweights)


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """The trapezoidal-rule integral of ``y`` along ``dim``, at sample points ``x`` (1-D, or
    of y's shape) or spaced ``dx`` apart. Integers give Float32; a float input keeps its dtype
    (MindSpore 2.10's CPU returns Float32 for Float64, losing the precision asked for)."""
    y = _tensor(y, 'trapz', 'y')
    if y._data.dtype.kind not in 'fV':
        y = cast(y, float32)
    if y.ndim == 0:
        raise ValueError("For 'trapz', 'y' must have rank >= 1.")
    n = y.shape[dim]
    if n < 2:
        return _sum(mul(y, 0.0), dim)
    mids = mul(add(narrow(y, dim, 1, n - 1), narrow(y, dim, 0, n - 1)), 0.5)
    if x is None:
        return mul(_sum(mids, dim), float(dx))
    x = _tensor(x, 'trapz', 'x')
    if x.ndim == 1:
        if x.shape[0] != n:
            raise ValueError(f"For 'trapz', 'x' must have {n} points, but got {x.shape[0]}.")
        steps = sub(narrow(x, 0, 1, n - 1), narrow(x, 0, 0, n - 1))
        shape = [1] * y.ndim
        shape[dim] = n - 1
        steps = reshape(steps, tuple(shape))
    else:
        steps = sub(narrow(x, dim, 1, n - 1), narrow(x, dim, 0, n - 1))
    return _sum(mul(mids, steps), dim)


def renorm(input, p, axis, maxnorm):
    """Each slice along ``axis`` scaled so that its ``p``-norm is at most ``maxnorm``."""
    x = _tensor(input, 'renorm')
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or p <= 0:
        raise ValueError(f"For 'renorm', 'p' must be a positive number, but got {p!r}.")
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral) or \
            not -x.ndim <= axis < x.ndim:
        raise ValueError(f"For 'renorm', 'axis' must be an int in [{-x.ndim}, {x.ndim}), but "
                         f"got {axis!r}.")
    if isinstance(maxnorm, bool) or not isinstance(maxnorm, numbers.Real) or maxnorm < 0:
        raise ValueError(f"For 'renorm', 'maxnorm' must be a non-negative number, but got "
                         f"{maxnorm!r}.")
    return x.renorm(float(p), int(axis), float(maxnorm))


def ldexp(x, other):
    """``x * 2 ** other`` element-wise (broadcast)."""
    return _tensor(x, 'ldexp', 'x').ldexp(other)


__all__ = ['mv', 'vecdot', 'cross', 'dist', 'pdist', 'cov', 'trapz', 'renorm', 'ldexp']
