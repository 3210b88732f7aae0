"""Functions of square matrices and the decompositions behind them, under MindSpore 2.10's
``ops`` names: det, logdet, slogdet, inverse, matrix_power, matrix_exp, matrix_solve, pinv,
svd, eig and eigvals.

det, slogdet, logdet and matrix_power are the Tensor methods (Gauss-Jordan elimination and
repeated products written with ops); inverse and matrix_solve apply ``MatrixInverse``.
``MatrixExp``, ``Pinv``, ``Svd`` and ``Eig`` are ops of their own:

- ``MatrixExp``: scaling and squaring with the [13/13] Pade approximant (Higham 2005);
  ``grad A = expm([[A^T, G], [0, A^T]])[:n, n:]``, itself an application of MatrixExp, so
  gradients of every order exist.
- ``Pinv``: ``A+`` from the SVD, singular values at or below ``max(atol, rtol * s_max)``
  dropped; the gradient is the constant-rank rule (Golub and Pereyra 1973), written with
  products of A and A+.
- ``Svd``: ``(s, u, v)`` in MindSpore's order (v, not v^T); the gradient is the real case of
  the rule in Townsend, "Differentiating the singular value decomposition" (distinct
  singular values; with ``full_matrices`` only the first min(m, n) columns carry one).
- ``Eig``: eigenvalues and unit eigenvectors in complex numbers (as MindSpore 2.10 returns
  them); the gradient is ``V^-H (diag(gw) + (V^H gV - V^H V Re(diag(V^H gV))) / conj(E)) V^H``,
  E_ij = w_j - w_i, and its real part for a real input.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op, apply1
from ..autograd.math import array_math
from ..kernels.backend import array_module
from ..kernels.complex_parts import complex_dtype
from .decompositions import MatrixInverse
from .linalg import _swap, matmul
from .rearrange import swapaxes

_SOLVER_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


# ------------------------------------------------------------------------------ checks
def _tensor(x, prim, arg='x'):
    if not isinstance(x, Tensor):
        raise TypeError(f"For primitive[{prim}], the input argument[{arg}] must be a Tensor, "
                        f"but got {type(x).__name__}.")
    return x


def _float_matrices(x, prim, arg='x'):
    """``x`` checked: a Tensor of float32 or float64 square matrices (rank >= 2)."""
    x = _tensor(x, prim, arg)
    if np.dtype(x._data.dtype) not in _SOLVER_FLOATS:
        raise TypeError(f"For primitive[{prim}], the input argument[{arg}] must be a type of "
                        f"{{Tensor[Float32], Tensor[Float64]}}, but got Tensor[{x.dtype}].")
    if x.ndim < 2:
        raise ValueError(f"For primitive[{prim}], the {arg} rank must be greater than or equal "
                         f"to 2, but got {x.ndim}.")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For primitive[{prim}], the row size must be equal to "
                         f"{x.shape[-2]}, but got {x.shape[-1]}.")
    return x


def _eye(m, like, n):
    """The n x n identity in ``like``'s dtype: an array, or a Tensor on recorded rules."""
    a = like if m is array_math else like._data
    eye = array_module(a).eye(n, dtype=a.dtype)
    return eye if m is array_math else Tensor._wrap(eye)


# ------------------------------------------------------------------------------ determinants
def det(input):
    """The determinant of each square matrix of ``input`` (..., n, n).

    >>> import numpy as np, hookgrad as ms
    >>> round(ms.ops.det(ms.Tensor(np.array([[2.0, 1.0], [1.0, 3.0]]))).item(), 6)
    5.0
    """
    return _float_matrices(input, 'MatrixDeterminant').det()


matrix_determinant = det


def slogdet(input):
    """``(sign, log|det|)`` of each square matrix of ``input``."""
    return _float_matrices(input, 'LogMatrixDeterminant').slogdet()


log_matrix_determinant = slogdet


def logdet(input):
    """``log(det(input))``: NaN where the determinant is negative, -inf where it is 0."""
    return _float_matrices(input, 'MatrixDeterminant').logdet()


# ------------------------------------------------------------------------------ inverse, solve
def inverse(input):
    """The inverse of each square matrix of ``input`` (..., n, n)."""
    return apply1(MatrixInverse, _float_matrices(input, 'MatrixInverse'))


def matrix_power(input, n):
    """Each square matrix of ``input`` multiplied by itself ``n`` times (its inverse's power
    for n < 0, the identity for n = 0)."""
    x = _tensor(input, 'MatrixPower')
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For MatrixPower, dim[-1] and dim[-2] of x should be the same, but "
                         f"got dim[-1]: {x.shape[-1] if x.ndim else None} and dim[-2]: "
                         f"{x.shape[-2] if x.ndim > 1 else None}.")
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"For MatrixPower, 'n' must be an int, but got {type(n).__name__}.")
    if n < 0:
        _float_matrices(x, 'MatrixPower')
    return x.matrix_power(int(n))


def matrix_solve(matrix, rhs, adjoint=False):
    """``X`` with ``matrix @ X = rhs`` (``matrix^T @ X = rhs`` with ``adjoint``) for each
    square matrix of a batch; rhs is (..., M, K)."""
    a = _float_matrices(matrix, 'MatrixSolve', 'matrix')
    b = _tensor(rhs, 'MatrixSolve', 'rhs')
    if b.ndim < 2 or b.shape[-2] != a.shape[-1] or b.dtype != a.dtype:
        raise ValueError(f"For primitive[MatrixSolve], 'rhs' must be [..., {a.shape[-1]}, K] "
                         f"of dtype {a.dtype}, but got shape {b.shape} and dtype {b.dtype}.")
    if adjoint:
        a = swapaxes(a, -1, -2)
    return matmul(apply1(MatrixInverse, a), b)


# ------------------------------------------------------------------------------ matrix exponential
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
           129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
           40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


def _expm_array(a):
    """exp of each square matrix of a float array, in float64, rounded to a's dtype."""
    xp = array_module(a)
    x = a.astype(np.float64)
    n = x.shape[-1]
    norm = xp.max(xp.sum(xp.abs(x), axis=-2), axis=-1)
    with np.errstate(divide='ignore'):
        s = xp.ceil(xp.log2(norm / _THETA13))
    s = xp.where(xp.isfinite(s) & (s > 0), s, 0).astype(np.int64)
    x = x / (2.0 ** s)[..., None, None]
    b = _PADE13
    eye = xp.eye(n)
    x2 = x @ x
    x4 = x2 @ x2
    x6 = x4 @ x2
    u = x @ (x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2
             + b[1] * eye)
    v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 \
        + b[0] * eye
    r = xp.linalg.solve(v - u, v + u)
    for j in range(int(s.max()) if s.size else 0):       # the squarings, batch-wide
        r = xp.where((s > j)[..., None, None], r @ r, r)
    return r.astype(a.dtype)


class MatrixExp(Op):
    """y = exp(a) of each square matrix; grad a = expm([[a^T, g], [0, a^T]])[:n, n:]."""
    @staticmethod
    def forward(ctx, a):
        ctx.save(a)
        return _expm_array(a)

    @staticmethod
    def backward(ctx, gy):
        (a,) = ctx.saved
        m = ctx.m
        n = a.shape[-1]
        at = _swap(m, a)
        top = m.concat((at, gy), -1)
        bottom = m.concat((m.zeros_like(at), at), -1)
        block = m.concat((top, bottom), -2)
        big = _expm_array(block) if m is array_math else apply1(MatrixExp, block)
        return m.getitem(big, (Ellipsis, slice(0, n), slice(n, 2 * n)))


def matrix_exp(input):
    """The matrix exponential ``sum_k input^k / k!`` of each square matrix of ``input``."""
    x = _tensor(input, 'MatrixExp')
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For MatrixExp, the input expects a tensor of squared matrices, but "
                         f"got shape {x.shape}.")
    if np.dtype(x._data.dtype) not in (np.dtype(np.float16),) + _SOLVER_FLOATS:
        raise TypeError(f"For MatrixExp, the input must be a float16, float32 or float64 "
                        f"Tensor, but got {x.dtype}.")
    return apply1(MatrixExp, x)


# ------------------------------------------------------------------------------ SVD, pinv
class Svd(Op):
    """(s, u, v) with a = u diag(s) v^T (all three kept: they are what backward needs)."""
    @staticmethod
    def forward(ctx, a, full_matrices):
        u, s, vt = ctx.xp.linalg.svd(a, full_matrices=full_matrices)
        v = _swap(array_math, vt).copy()
        ctx.save(s, u, v)
        return s, u, v

    @staticmethod
    def backward(ctx, gs, gu, gv):
        s, u, v = ctx.saved
        m = ctx.m
        k = s.shape[-1]
        u = m.getitem(u, (Ellipsis, slice(0, k)))
        v = m.getitem(v, (Ellipsis, slice(0, k)))
        vt = _swap(m, v)
        ds = m.expand_dims(gs, -1) * _eye(m, s, k)
        gu = m.getitem(gu, (Ellipsis, slice(0, k)))
        gv = m.getitem(gv, (Ellipsis, slice(0, k)))
        s_row, s_col = m.expand_dims(s, -2), m.expand_dims(s, -1)
        e = s_row * s_row - s_col * s_col + _eye(m, s, k)       # E_ij = s_j^2 - s_i^2, 1 on
        uhgu = m.matmul(_swap(m, u), gu)                         # the diagonal
        vhgv = m.matmul(_swap(m, v), gv)
        core = ((uhgu - _swap(m, uhgu)) * s_row + s_col * (vhgv - _swap(m, vhgv))) / e + ds
        ga = m.matmul(m.matmul(u, core), vt)
        gu_s = gu / s_row
        ga = ga + m.matmul(gu_s - m.matmul(u, m.matmul(_swap(m, u), gu_s)), vt)
        gv_s = gv / s_row
        return ga + m.matmul(u, _swap(m, gv_s - m.matmul(v, m.matmul(vt, gv_s))))


def svd(input, full_matrices=False, compute_uv=True):
    """The singular value decomposition of each matrix of ``input`` (..., M, N):
    ``(s, u, v)`` with ``input = u @ diag(s) @ v^T`` and s descending, or s alone.

    Args:
        full_matrices: u (..., M, M) and v (..., N, N) rather than (..., M, K), (..., N, K).
        compute_uv: False returns s only.
    """
    x = _tensor(input, 'Svd', 'input')
    if x.ndim < 2:
        raise ValueError(f"For Svd, the rank of 'input' must be great equal than 2, but get "
                         f"shape: {x.shape}")
    if np.dtype(x._data.dtype) not in _SOLVER_FLOATS:
        raise TypeError(f"For Svd, 'input' must be a float32 or float64 Tensor, but got "
                        f"{x.dtype}.")
    s, u, v = Svd.apply(x, full_matrices=bool(full_matrices))
    return (s, u, v) if compute_uv else s


class Pinv(Op):
    """y = a+ (singular values at or below ``cutoff`` times s_max dropped); the gradient is
    the constant-rank rule ``-y^T g y^T + (I - a y) g^T y y^T + y^T y g^T (I - y a)``."""
    @staticmethod
    def forward(ctx, a, atol, rtol):
        xp = ctx.xp
        u, s, vt = xp.linalg.svd(a, full_matrices=False)
        s_max = s[..., :1] if s.shape[-1] else s
        keep = s > xp.maximum(atol, rtol * s_max)
        inv_s = xp.where(keep, 1 / xp.where(keep, s, 1), 0).astype(a.dtype)
        y = _swap(array_math, vt) @ (inv_s[..., None] * _swap(array_math, u))
        ctx.save(a, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        a, y = ctx.saved
        m = ctx.m
        mm = m.matmul
        yt, gt = _swap(m, y), _swap(m, gy)
        yyt, yty = mm(y, yt), mm(yt, y)
        first = -mm(mm(yt, gy), yt)
        second = mm(gt, yyt) - mm(mm(a, y), mm(gt, yyt))
        third = mm(yty, gt) - mm(mm(yty, gt), mm(y, a))
        return first + second + third


def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse of each matrix of ``x`` (..., M, N) -> (..., N, M).

    Singular values at or below ``max(atol, rtol * s_max)`` count as zero; rtol defaults to
    ``eps * max(M, N)`` when atol is None or not positive, else to 0. ``hermitian`` (x
    symmetric) gives the same result.
    """
    a = _tensor(x, 'Pinv')
    if a.ndim < 2:
        raise ValueError(f"input x should have 2 or more dimensions, but got {a.ndim}.")
    if np.dtype(a._data.dtype) not in _SOLVER_FLOATS:
        raise TypeError(f"pinv: x must be a float32 or float64 Tensor, but got {a.dtype}.")
    atol = 0.0 if atol is None else float(atol)
    if rtol is None:
        rtol = float(np.finfo(a._data.dtype).eps) * max(a.shape[-2:]) if atol <= 0 else 0.0
    return Pinv.apply(a, atol=atol, rtol=float(rtol))


# ------------------------------------------------------------------------------ eigenvalues
def _eig_arrays(a):
    """Eigenvalues and unit eigenvectors of ``a`` in its complex dtype (Complex64 for Float32,
    Complex128 for Float64), as MindSpore 2.10 returns them even when every eigenvalue is
    real."""
    xp = array_module(a)
    w, v = xp.linalg.eig(a)
    dt = complex_dtype(a.dtype)
    return w.astype(dt, copy=False), v.astype(dt, copy=False)


class Eig(Op):
    """(w, v) with a v = v diag(w), in complex numbers (both kept: backward needs v). The
    gradient of a real loss (dL/dx + i dL/dy for each complex output) is
    ``V^-H (diag(gw) + (V^H gv - V^H V Re(diag(V^H gv))) / conj(w_j - w_i)) V^H``, its real
    part for a real input."""
    @staticmethod
    def forward(ctx, a):
        w, v = _eig_arrays(a)
        ctx.save(w, v)
        ctx.real_input = a.dtype.kind != 'c'
        return w, v

    @staticmethod
    def backward(ctx, gw, gv):
        w, v = ctx.saved
        m = ctx.m
        n = w.shape[-1]
        eye = _eye(m, w, n)
        vh = m.conj(_swap(m, v))
        core = m.expand_dims(gw, -1) * eye
        vhgv = m.matmul(vh, gv)
        diag = m.cast(m.real(m.sum(vhgv * eye, -2, True)), w.dtype)        # (..., 1, n)
        wc = m.conj(w)
        e = m.expand_dims(wc, -2) - m.expand_dims(wc, -1) + eye    # conj(w_j - w_i)
        core = core + (vhgv - m.matmul(vh, v) * diag) / e * (1 - eye)
        inv_vh = array_module(v).linalg.inv(vh) if m is array_math else \
            apply1(MatrixInverse, vh)
        ga = m.matmul(m.matmul(inv_vh, core), vh)
        return m.real(ga) if ctx.real_input else ga


def _eig_input(A, name):
    a = _tensor(A, name, 'x')
    if np.dtype(a._data.dtype) not in _SOLVER_FLOATS:
        raise TypeError(f"For {name}, x must be a float32 or float64 Tensor, but got "
                        f"{a.dtype}.")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"For {name}, x should be square(squares), but got "
                         f"{'  '.join(map(str, a.shape[-2:]))} matrix(matrices).")
    return a


def eig(A):
    """``(eigenvalues, eigenvectors)`` of each square matrix of ``A``, Complex64 for Float32 and
    Complex128 for Float64 (as MindSpore 2.10), eigenvectors as unit columns (LAPACK's: an
    eigenvector is unique up to a complex factor of modulus 1, and MindSpore's may differ by
    one)."""
    return Eig.apply(_eig_input(A, 'Eig'))


def eigvals(A):
    """The eigenvalues of each square matrix of ``A``, complex (as ``eig``'s)."""
    return Eig.apply(_eig_input(A, 'Eig'))[0]


__all__ = ['det', 'matrix_determinant', 'slogdet', 'log_matrix_determinant', 'logdet',
           'inverse', 'matrix_power', 'matrix_solve', 'matrix_exp', 'svd', 'pinv', 'eig',
           'eigvals']
