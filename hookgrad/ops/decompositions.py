"""Matrix decompositions and solvers: cholesky, cholesky_inverse, cholesky_solve, qr, lstsq
and lu_solve, with MindSpore 2.10's signatures, dtypes and gradients.

Gradients exist where MindSpore defines them: ``cholesky`` (the symmetric rule of MindSpore's
CholeskyGrad), ``cholesky_inverse`` (a composition of a product and an inverse) and
``cholesky_solve`` (MindSpore's rule, written with the full factor). ``qr``, ``lstsq`` and
``lu_solve`` have none in MindSpore 2.10 and none here. Every rule is built
from ``MatMul`` and ``MatrixInverse``, so gradients of any order exist.
"""
import numpy as np

from .._dtype import float32, from_numpy
from .._tensor import Tensor
from ..autograd.function import Op, apply1
from ..autograd.math import array_math
from ..kernels.backend import array_module
from .arithmetic import cast
from .linalg import _swap, matmul
from .rearrange import swapaxes

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_HALF_TOO = (np.dtype(np.float16),) + _FLOATS


def _inverse(m, a):
    """The matrix inverse of an array (first-order rules) or a Tensor (recorded rules)."""
    if m is array_math:
        return array_module(a).linalg.inv(a)
    return apply1(MatrixInverse, a)


def _mm(m, a, b):
    return m.matmul(a, b)



def _solve(xp, a, b):
    """``xp.linalg.solve(a, b)`` for matrices b (..., M, K), a's and b's batch dimensions
    broadcast first (CuPy, unlike NumPy, requires them equal)."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return xp.linalg.solve(xp.broadcast_to(a, batch + a.shape[-2:]),
                           xp.broadcast_to(b, batch + b.shape[-2:]))

class MatrixInverse(Op):
    """y = a^-1 of each matrix of a batch; dy = -y^T g y^T."""
    @staticmethod
    def forward(ctx, a):
        y = ctx.xp.linalg.inv(a)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        m = ctx.m
        yt = _swap(m, y)
        return -_mm(m, _mm(m, yt, gy), yt)


def _lower_mask(xp, n, dtype):
    """Ones on and below the diagonal, one half on it: Phi of the Cholesky rule."""
    return (xp.tri(n, n) - 0.5 * xp.eye(n)).astype(dtype)


class Cholesky(Op):
    """L with a = L L^T (from a's lower triangle), or U = L^T with ``upper``.

    The gradient is MindSpore's CholeskyGrad: ``S = L^-T Phi(L^T gL) L^-1`` with Phi the lower
    triangle with its diagonal halved, symmetrized as ``(S + S^T) / 2``.
    """
    @staticmethod
    def forward(ctx, x, upper):
        wide = x.astype(np.float32) if x.dtype == np.float16 else x
        try:
            low = ctx.xp.linalg.cholesky(wide).astype(x.dtype)
        except np.linalg.LinAlgError:
            raise RuntimeError("ops.cholesky: input_x must be symmetric positive definite") \
                from None
        y = _swap(array_math, low).copy() if upper else low
        ctx.upper = upper
        ctx.save(y)             # the output: re-linked to this node for higher orders
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        m = ctx.m
        low, g = (_swap(m, y), _swap(m, gy)) if ctx.upper else (y, gy)
        n = low.shape[-1]
        dtype = low.dtype if m is array_math else low._data.dtype
        phi = _mm(m, _swap(m, low), g) * _lower_mask(ctx.xp, n, dtype)
        inv = _inverse(m, low)
        s = _mm(m, _mm(m, _swap(m, inv), phi), inv)
        return (s + _swap(m, s)) * 0.5


def _triangle_mask(xp, n, upper):
    keep = xp.tri(n, n, 0, dtype=bool)
    return keep.T if upper else keep


class CholeskySolve(Op):
    """y = (L L^T)^-1 b for the lower triangle L of u (``upper``: (U^T U)^-1 b for its upper
    triangle U).

    The gradient is MindSpore's: with ``A = u u^T`` (``u^T u``) of the whole of u,
    ``gb = A^-1 g`` and ``gu = -(gb y^T + y gb^T) u`` (``u (...)`` for ``upper``).
    """
    @staticmethod
    def forward(ctx, b, u, upper):
        xp = ctx.xp
        tri = xp.where(_triangle_mask(xp, u.shape[-1], upper), u, xp.zeros((), u.dtype))
        t = _swap(array_math, tri)
        a = xp.matmul(t, tri) if upper else xp.matmul(tri, t)
        y = _solve(xp, a, b)
        ctx.upper = upper
        ctx.save(u, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        u, y = ctx.saved
        m = ctx.m
        ut = _swap(m, u)
        a = _mm(m, ut, u) if ctx.upper else _mm(m, u, ut)
        gb = _mm(m, _inverse(m, a), gy)
        if not ctx.needs_grad(1):
            return gb, None
        ga = -_mm(m, gb, _swap(m, y))
        ga = ga + _swap(m, ga)
        return gb, (_mm(m, u, ga) if ctx.upper else _mm(m, ga, u))


class Qr(Op):
    """(Q, R) of each matrix by Householder reflections (LAPACK's signs); no gradient, as in
    MindSpore 2.10."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, complete):
        wide = x.astype(np.float32) if x.dtype == np.float16 else x
        q, r = ctx.xp.linalg.qr(wide, mode='complete' if complete else 'reduced')
        return q.astype(x.dtype), r.astype(x.dtype)


class Lstsq(Op):
    """The least-squares solution of ``a x = b`` (minimum norm when a is wide); no gradient,
    as in MindSpore 2.10."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        dtype = a.dtype
        if dtype == np.float16:
            a, b = a.astype(np.float32), b.astype(np.float32)
        return ctx.xp.linalg.lstsq(a, b, rcond=None)[0].astype(dtype)


class LuSolve(Op):
    """x with ``P L U x = b`` from LAPACK's packed LU factors and 1-based row swaps; no
    gradient, as in MindSpore 2.10."""
    differentiable = False

    @staticmethod
    def forward(ctx, b, lu, pivots):
        xp = ctx.xp
        n = lu.shape[-1]
        batch = np.broadcast_shapes(b.shape[:-2], lu.shape[:-2], pivots.shape[:-1])
        rows = xp.broadcast_to(b, batch + b.shape[-2:]).copy()
        swaps = xp.broadcast_to(pivots, batch + (n,)).astype(np.int64) - 1
        for i in range(n):      # LAPACK's row interchanges, in order
            j = swaps[..., i:i + 1, None]
            here, there = rows[..., i:i + 1, :].copy(), xp.take_along_axis(rows, j, -2)
            xp.put_along_axis(rows, j, here, -2)
            rows[..., i:i + 1, :] = there
        eye = xp.eye(n, dtype=lu.dtype)
        low = xp.tril(lu, -1) + eye
        up = xp.triu(lu)
        return _solve(xp, up, _solve(xp, low, rows))


# ------------------------------------------------------------------------------ functions
def _matrices(x, name, arg, kinds=_FLOATS, rank=None):
    """x, checked: a Tensor of one of ``kinds``, square batches of matrices (``rank``: an
    exact rank)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(x).__name__}")
    if x._data.dtype not in kinds:
        names = ', '.join(str(from_numpy(k)) for k in kinds)
        raise TypeError(f"ops.{name}: {arg} must be a tensor of {names}, got {x.dtype}")
    if rank is not None and x.ndim != rank:
        raise ValueError(f"ops.{name}: {arg} must be {rank}-d, got shape {x.shape}")
    if x.ndim < 2:
        raise ValueError(f"ops.{name}: {arg} must have rank >= 2, got shape {x.shape}")
    return x


def _square(x, name, arg):
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"ops.{name}: {arg} must hold square matrices, got shape {x.shape}")
    return x


def _same_dtype(name, a, b, names):
    if a._data.dtype != b._data.dtype:
        raise TypeError(f"ops.{name}: {names[0]} and {names[1]} must have the same dtype, got "
                        f"{a.dtype} and {b.dtype}")


def _bool_arg(value, name, arg):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"ops.{name}: {arg} must be a bool, got {value!r}")
    return bool(value)


def cholesky(input_x, upper=False):
    """The Cholesky factor of symmetric positive definite matrices (batches too): lower L with
    ``input_x = L L^T``, or upper ``U = L^T`` with ``upper``. Only the lower triangle is read.

    Args:
        input_x (Tensor): (*, n, n) of Float16, Float32 or Float64.
        upper (bool): return the upper factor. Default False.

    Raises:
        TypeError: input_x is not a Tensor of those types, or upper is not a bool.
        ValueError: input_x is not square or of rank < 2.
        RuntimeError: input_x is not positive definite.
    """
    x = _square(_matrices(input_x, 'cholesky', 'input_x', _HALF_TOO), 'cholesky', 'input_x')
    return Cholesky.apply(x, upper=_bool_arg(upper, 'cholesky', 'upper'))


def cholesky_inverse(input_x, upper=False):
    """``(U U^T)^-1`` of a matrix U (``(U^T U)^-1`` with ``upper``): the inverse of the matrix
    whose Cholesky factor U is. As MindSpore's, the product is of the whole of U.

    The gradient is that of this composition: ``-U C`` with ``upper`` (as MindSpore's), ``-C U``
    without, where ``C = Y (G + G^T) Y`` for the result Y and its gradient G (MindSpore 2.10
    gives ``-U C`` there too, which is not the derivative).

    Args:
        input_x (Tensor): (n, n) of Float32 or Float64 (MindSpore 2.10 takes rank 2 only).
        upper (bool): whether U is the upper factor. Default False.

    Raises:
        TypeError: input_x is not a Tensor of those types, or upper is not a bool.
        ValueError: input_x is not a square 2-d tensor.
    """
    x = _square(_matrices(input_x, 'cholesky_inverse', 'input_x', rank=2), 'cholesky_inverse',
                'input_x')
    t = swapaxes(x, -1, -2)
    a = matmul(t, x) if _bool_arg(upper, 'cholesky_inverse', 'upper') else matmul(x, t)
    return apply1(MatrixInverse, a)


def cholesky_solve(input, input2, upper=False):
    """x with ``(L L^T) x = input`` for the lower triangle L of ``input2`` (``(U^T U) x =
    input`` for its upper triangle U with ``upper``).

    Args:
        input (Tensor): (n, k) or (batch, n, k), Float32 or Float64.
        input2 (Tensor): (n, n) or (batch, n, n) of input's rank and dtype.
        upper (bool): whether the factor is upper triangular. Default False.

    Raises:
        TypeError: an argument is not a Tensor of those types, the dtypes differ, or upper is
            not a bool.
        ValueError: ranks other than 2 or 3, ranks that differ, a non-square input2 or row
            counts that differ.
    """
    name = 'cholesky_solve'
    b, u = _matrices(input, name, 'input'), _matrices(input2, name, 'input2')
    _same_dtype(name, b, u, ('input', 'input2'))
    if b.ndim not in (2, 3):
        raise ValueError(f"ops.{name}: input must be 2-d or 3-d, got shape {b.shape}")
    if b.ndim != u.ndim:
        raise ValueError(f"ops.{name}: input and input2 must have the same rank, got shapes "
                         f"{b.shape} and {u.shape}")
    _square(u, name, 'input2')
    if b.shape[:-1] != u.shape[:-1]:
        raise ValueError(f"ops.{name}: shapes {b.shape} and {u.shape} do not fit (expected "
                         f"(*, n, k) and (*, n, n))")
    return CholeskySolve.apply(b, u, upper=_bool_arg(upper, name, 'upper'))


def qr(input, mode='reduced'):
    """The QR decomposition of matrices (batches too): ``(Q, R)``, Q with orthonormal columns,
    R upper triangular, by Householder reflections (R's diagonal may be negative).

    Args:
        input (Tensor): (*, m, n) of Float16, Float32 or Float64.
        mode (str): 'reduced' (Q (*, m, k), R (*, k, n), k = min(m, n)) or 'complete'
            (Q (*, m, m), R (*, m, n)). Default 'reduced'.

    Raises:
        TypeError: input is not a Tensor of those types, or mode is not one of those.
        ValueError: input has rank < 2.
    """
    if mode not in ('reduced', 'complete'):
        raise TypeError(f"ops.qr: mode must be 'reduced' or 'complete', got {mode!r}")
    x = _matrices(input, 'qr', 'input', _HALF_TOO)
    return Qr.apply(x, complete=mode == 'complete')


def lstsq(input, A):
    """The least-squares solution X of ``input @ X = A`` (the minimum-norm one where input has
    fewer rows than columns).

    Args:
        input (Tensor): (m, n) of Float16, Float32 or Float64, of full rank.
        A (Tensor): (m, k) or (m,) of input's dtype.

    Returns:
        Tensor of shape (n, k) ((n, 1) for a 1-d A).

    Raises:
        TypeError: an argument is not a Tensor of those types, or the dtypes differ.
        ValueError: input is not 2-d, A not 1-d or 2-d, or their row counts differ.
    """
    name = 'lstsq'
    x = _matrices(input, name, 'input', _HALF_TOO, rank=2)
    if not isinstance(A, Tensor):
        raise TypeError(f"ops.{name}: A must be a Tensor, got {type(A).__name__}")
    _same_dtype(name, x, A, ('input', 'A'))
    if A.ndim not in (1, 2):
        raise ValueError(f"ops.{name}: A must be 1-d or 2-d, got shape {A.shape}")
    if A.shape[0] != x.shape[0]:
        raise ValueError(f"ops.{name}: input and A must have the same number of rows, got "
                         f"shapes {x.shape} and {A.shape}")
    a = A if A.ndim == 2 else A.reshape(A.shape[0], 1)
    return Lstsq.apply(x, a)


def lu_solve(b, LU_data, LU_pivots):
    """x with ``A x = b`` from the LU factorization ``A = P L U`` (LAPACK's packed form: L
    unit lower below the diagonal, U on and above it; 1-based row interchanges), batch
    dimensions broadcast. The solve runs in Float32 for every input type, as MindSpore 2.10's
    kernel does, and the result has b's type.

    Args:
        b (Tensor): (*, n, k) of Float16, Float32 or Float64.
        LU_data (Tensor): (*, n, n) of b's dtype.
        LU_pivots (Tensor): (*, n) of Int32.

    Raises:
        TypeError: an argument is not a Tensor of those types, or the dtypes differ.
        ValueError: ranks < 2, a non-square LU_data, row counts or pivot counts that differ,
            or batch dimensions that do not broadcast.
    """
    name = 'lu_solve'
    rhs = _matrices(b, name, 'b', _HALF_TOO)
    lu = _square(_matrices(LU_data, name, 'LU_data', _HALF_TOO), name, 'LU_data')
    _same_dtype(name, rhs, lu, ('b', 'LU_data'))
    if not isinstance(LU_pivots, Tensor) or LU_pivots._data.dtype != np.int32:
        raise TypeError(f"ops.{name}: LU_pivots must be an Int32 tensor, got "
                        f"{getattr(LU_pivots, 'dtype', type(LU_pivots).__name__)}")
    n = lu.shape[-1]
    if rhs.shape[-2] != n:
        raise ValueError(f"ops.{name}: b of shape {rhs.shape} does not fit LU_data of shape "
                         f"{lu.shape} ({rhs.shape[-2]} rows, expected {n})")
    if LU_pivots.ndim < 1 or LU_pivots.shape[-1] != n:
        raise ValueError(f"ops.{name}: LU_pivots of shape {LU_pivots.shape} does not fit "
                         f"LU_data of shape {lu.shape} (expected (*, {n}))")
    try:
        np.broadcast_shapes(rhs.shape[:-2], lu.shape[:-2], LU_pivots.shape[:-1])
    except ValueError:
        raise ValueError(f"ops.{name}: batch dimensions of shapes {rhs.shape}, {lu.shape} and "
                         f"{LU_pivots.shape} cannot be broadcast together") from None
    kind = rhs.dtype
    if kind == float32:
        return LuSolve.apply(rhs, lu, LU_pivots)
    # MindSpore 2.10's kernel solves in Float32 for Float16 and Float64 alike
    return cast(LuSolve.apply(cast(rhs, float32), cast(lu, float32), LU_pivots), kind)
