"""MindSpore's Primitive classes of matrix functions, packed diagonals and special functions:
determinants, inverse, power, exponential, solve, SVD, eigenvalues, LU unpacking, the
MatrixDiagV3 family, Renorm, Pdist, and the gamma, zeta and erfinv families.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
from .. import (matrix_functions as _mf, matrix_structure as _ms, special as _sp,
                vectors as _vec)
from ..creation import zeros as _zeros
from ..rearrange import swapaxes as _swapaxes
from ._primitive import Primitive, _flag, _float, _int

__all__ = ['MatrixDeterminant', 'LogMatrixDeterminant', 'MatrixInverse', 'MatrixExp',
           'MatrixPower', 'MatrixSolve', 'Svd', 'Eig', 'MatrixBandPart', 'MatrixDiagV3',
           'MatrixDiagPartV3', 'MatrixSetDiagV3', 'LuUnpack', 'Renorm', 'Pdist', 'Lgamma',
           'Digamma', 'Polygamma', 'Mvlgamma', 'Igamma', 'Igammac', 'Erfinv', 'Zeta']


# ----------------------------------------------------------------------------- matrix functions
class MatrixDeterminant(Primitive):
    """``MatrixDeterminant()(x)``: the determinant of each square matrix."""
    def construct(self, x):
        return _mf.det(x)


class LogMatrixDeterminant(Primitive):
    """``LogMatrixDeterminant()(x)``: ``(sign, log|det|)`` of each square matrix."""
    def construct(self, x):
        return _mf.slogdet(x)


class MatrixInverse(Primitive):
    """``MatrixInverse(adjoint=False)(x)``: the inverse of each square matrix (of its
    transpose with ``adjoint``)."""
    def __init__(self, adjoint=False):
        super().__init__(adjoint=_flag(adjoint, 'MatrixInverse', 'adjoint'))

    def construct(self, x):
        y = _mf.inverse(x)
        return _swapaxes(y, -1, -2) if self.adjoint else y


class MatrixExp(Primitive):
    """``MatrixExp()(x)``: the matrix exponential of each square matrix."""
    def construct(self, x):
        return _mf.matrix_exp(x)


class MatrixPower(Primitive):
    """``MatrixPower(n)(x)``: each square matrix of x raised to the int power ``n``."""
    def __init__(self, n):
        super().__init__(n=_int(n, 'MatrixPower', 'n'))

    def construct(self, x):
        return _mf.matrix_power(x, self.n)


class MatrixSolve(Primitive):
    """``MatrixSolve(adjoint=False)(matrix, rhs)``: X with ``matrix @ X = rhs`` (``matrix^T``
    with ``adjoint``)."""
    def __init__(self, adjoint=False):
        super().__init__(adjoint=_flag(adjoint, 'MatrixSolve', 'adjoint'))

    def construct(self, matrix, rhs):
        return _mf.matrix_solve(matrix, rhs, self.adjoint)


class Svd(Primitive):
    """``Svd(full_matrices=False, compute_uv=True)(a)``: ``(s, u, v)`` of each matrix (u and v
    a zero of shape (1,) each without ``compute_uv``)."""
    def __init__(self, full_matrices=False, compute_uv=True):
        super().__init__(full_matrices=_flag(full_matrices, 'Svd', 'full_matrices'),
                         compute_uv=_flag(compute_uv, 'Svd', 'compute_uv'))

    def construct(self, a):
        if not self.compute_uv:     # MindSpore's placeholders for u and v: one zero each
            s = _mf.svd(a, self.full_matrices, False)
            return s, _zeros((1,), s.dtype), _zeros((1,), s.dtype)
        return _mf.svd(a, self.full_matrices, True)


class Eig(Primitive):
    """``Eig(compute_v=False)(x)``: ``(eigenvalues, eigenvectors)`` of each square matrix (the
    eigenvectors a 0-d zero without ``compute_v``), real only (hookgrad has no complex dtype:
    TypeError where an eigenvalue is complex)."""
    def __init__(self, compute_v=False):
        super().__init__(compute_v=_flag(compute_v, 'Eig', 'compute_v'))

    def construct(self, x):
        if not self.compute_v:      # MindSpore's placeholder for the eigenvectors: a zero
            w = _mf.eigvals(x)
            return w, _zeros((), w.dtype)
        return _mf.eig(x)


# ----------------------------------------------------------------------------- structure
class MatrixBandPart(Primitive):
    """``MatrixBandPart()(x, lower, upper)``: x with the elements outside the band zeroed."""
    def construct(self, x, lower, upper):
        return _ms.matrix_band_part(x, lower, upper)


def _align(align, prim):
    if align not in ('LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'):
        raise ValueError(f"ops.{prim}: align must be one of 'LEFT_RIGHT', 'RIGHT_LEFT', "
                         f"'LEFT_LEFT', 'RIGHT_RIGHT', got {align!r}")
    return align


class MatrixDiagV3(Primitive):
    """``MatrixDiagV3(align='RIGHT_LEFT')(x, k, num_rows, num_cols, padding_value)``: matrices
    with the packed diagonals x on diagonals k."""
    def __init__(self, align='RIGHT_LEFT'):
        super().__init__(align=_align(align, 'MatrixDiagV3'))

    def construct(self, x, k, num_rows, num_cols, padding_value):
        return _ms.matrix_diag(x, k, num_rows, num_cols, padding_value, self.align)


class MatrixDiagPartV3(Primitive):
    """``MatrixDiagPartV3(align='RIGHT_LEFT')(x, k, padding_value)``: the packed diagonals k."""
    def __init__(self, align='RIGHT_LEFT'):
        super().__init__(align=_align(align, 'MatrixDiagPartV3'))

    def construct(self, x, k, padding_value):
        return _ms.matrix_diag_part(x, k, padding_value, self.align)


class MatrixSetDiagV3(Primitive):
    """``MatrixSetDiagV3(align='RIGHT_LEFT')(x, diagonal, k)``: x with diagonals k replaced."""
    def __init__(self, align='RIGHT_LEFT'):
        super().__init__(align=_align(align, 'MatrixSetDiagV3'))

    def construct(self, x, diagonal, k):
        return _ms.matrix_set_diag(x, diagonal, k, self.align)


class LuUnpack(Primitive):
    """``LuUnpack(unpack_data=True, unpack_pivots=True)(LU_data, LU_pivots)``: ``(P, L, U)``."""
    def __init__(self, unpack_data=True, unpack_pivots=True):
        super().__init__(unpack_data=_flag(unpack_data, 'LuUnpack', 'unpack_data'),
                         unpack_pivots=_flag(unpack_pivots, 'LuUnpack', 'unpack_pivots'))

    def construct(self, LU_data, LU_pivots):
        return _ms.lu_unpack(LU_data, LU_pivots, self.unpack_data, self.unpack_pivots)


class Renorm(Primitive):
    """``Renorm(p, dim, maxnorm)(x)``: slices along dim scaled to p-norm at most maxnorm."""
    def __init__(self, p, dim, maxnorm):
        super().__init__(p=_int(p, 'Renorm', 'p'), dim=_int(dim, 'Renorm', 'dim'),
                         maxnorm=_float(maxnorm, 'Renorm', 'maxnorm'))

    def construct(self, x):
        return _vec.renorm(x, self.p, self.dim, self.maxnorm)


class Pdist(Primitive):
    """``Pdist(p=2.0)(x)``: the p-norm distances between the pairs of rows of x."""
    def __init__(self, p=2.0):
        super().__init__(p=_float(p, 'Pdist', 'p'))

    def construct(self, x):
        return _vec.pdist(x, self.p)


# ----------------------------------------------------------------------------- special functions
class Lgamma(Primitive):
    """``Lgamma()(x)``: log|Gamma(x)|."""
    def construct(self, x):
        return _sp.lgamma(x)


class Digamma(Primitive):
    """``Digamma()(input)``: the logarithmic derivative of Gamma."""
    def construct(self, input):
        return _sp.digamma(input)


class Polygamma(Primitive):
    """``Polygamma()(a, x)``: the a-th derivative of digamma at x."""
    def construct(self, a, x):
        return _sp.polygamma(a, x)


class Mvlgamma(Primitive):
    """``Mvlgamma(p)(x)``: the multivariate log-gamma of dimension p."""
    def __init__(self, p):
        super().__init__(p=_int(p, 'Mvlgamma', 'p'))

    def construct(self, x):
        return _sp.mvlgamma(x, self.p)


class Igamma(Primitive):
    """``Igamma()(a, x)``: the regularized lower incomplete gamma function P(a, x)."""
    def construct(self, a, x):
        return _sp.igamma(a, x)


class Igammac(Primitive):
    """``Igammac()(a, x)``: the regularized upper incomplete gamma function Q(a, x)."""
    def construct(self, a, x):
        return _sp.igammac(a, x)


class Erfinv(Primitive):
    """``Erfinv()(input)``: the inverse error function."""
    def construct(self, input):
        return _sp.erfinv(input)


class Zeta(Primitive):
    """``Zeta()(x, q)``: the Hurwitz zeta function."""
    def construct(self, x, q):
        return _sp.zeta(x, q)
