"""Householder QR in LAPACK's packed form: geqrf, orgqr and ormqr (no gradients, as in
MindSpore 2.10).

``geqrf`` gives R on and above the diagonal and the reflectors' vectors below it (their
leading 1 implied), with their factors tau: ``Q = H_1 ... H_k``, ``H_i = I - tau_i v_i v_i^T``.
``orgqr`` builds Q's first n columns from them, ``ormqr`` multiplies a matrix by Q (or Q^T)
without forming it, as LAPACK's routines of those names.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _reflector(xp, packed, i):
    """v_i of the packed reflectors, (..., m): zeros above i, 1 at i, the stored values
    below."""
    v = xp.zeros(packed.shape[:-1], packed.dtype)
    v[..., i] = 1
    v[..., i + 1:] = packed[..., i + 1:, i]
    return v


def _apply_left(xp, c, v, tau):
    """H c for H = I - tau v v^T: c (..., m, p), v (..., m), tau (...)."""
    return c - (tau[..., None, None] * v[..., :, None]) * xp.matmul(v[..., None, :], c)


def _apply_right(xp, c, v, tau):
    """c H: c (..., p, m)."""
    return c - xp.matmul(c, v[..., :, None]) * (tau[..., None, None] * v[..., None, :])


class Geqrf(Op):
    """(packed reflectors and R, tau) of each matrix, by LAPACK's geqrf."""
    differentiable = False

    @staticmethod
    def forward(ctx, a):
        h, tau = ctx.xp.linalg.qr(a, mode='raw')
        return ctx.xp.ascontiguousarray(h.swapaxes(-1, -2)).astype(a.dtype), tau.astype(a.dtype)


class Orgqr(Op):
    """Q's first n columns from packed reflectors (..., m, n) and tau (..., k)."""
    differentiable = False

    @staticmethod
    def forward(ctx, packed, tau):
        xp = ctx.xp
        m, n = packed.shape[-2:]
        q = xp.broadcast_to(xp.eye(m, n, dtype=packed.dtype), packed.shape).copy()
        for i in range(tau.shape[-1] - 1, -1, -1):
            q = _apply_left(xp, q, _reflector(xp, packed, i), tau[..., i])
        return q


class Ormqr(Op):
    """Q c, Q^T c, c Q or c Q^T with Q = H_1 ... H_k of packed reflectors."""
    differentiable = False

    @staticmethod
    def forward(ctx, packed, tau, c, left, transpose):
        xp = ctx.xp
        k = tau.shape[-1]
        forward_order = left == transpose         # Q^T c and c Q apply H_1 first
        steps = range(k) if forward_order else range(k - 1, -1, -1)
        apply = _apply_left if left else _apply_right
        out = c.copy()
        for i in steps:
            out = apply(xp, out, _reflector(xp, packed, i), tau[..., i])
        return out


def _floating(x, name, arg, least_rank=2):
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(x).__name__}")
    if x._data.dtype not in _FLOATS:
        raise TypeError(f"ops.{name}: {arg} must be a Float32 or Float64 tensor, got {x.dtype}")
    if x.ndim < least_rank:
        raise ValueError(f"ops.{name}: {arg} must have rank >= {least_rank}, got shape "
                         f"{x.shape}")
    return x


def _reflectors(name, packed, tau, rows):
    """Checks shared by orgqr and ormqr: tau of packed's dtype, (*, k) with k <= the number
    of reflectors the packed matrix can hold."""
    if tau._data.dtype != packed._data.dtype:
        raise TypeError(f"ops.{name}: input and tau must have the same dtype, got "
                        f"{packed.dtype} and {tau.dtype}")
    k = tau.shape[-1]
    if tau.shape[:-1] != packed.shape[:-2] or k > min(rows, packed.shape[-1]):
        raise ValueError(f"ops.{name}: tau of shape {tau.shape} does not fit input of shape "
                         f"{packed.shape} (expected {packed.shape[:-2] + ('k',)} with k <= "
                         f"{min(rows, packed.shape[-1])})")


def geqrf(input):
    """The QR decomposition in LAPACK's packed form: ``(y, tau)``, R on and above y's diagonal,
    the Householder vectors below it, tau their factors.

    Args:
        input (Tensor): (*, m, n) of Float32 or Float64.

    Returns:
        y (*, m, n) and tau (*, min(m, n)).

    Raises:
        TypeError: input is not a Tensor of those types.
        ValueError: input has rank < 2.

    >>> import hookgrad as ms
    >>> y, tau = ms.ops.geqrf(ms.Tensor([[-2.0, -1.0], [1.0, 2.0]]))
    >>> print(y)
    [[ 2.236068    1.7888544 ]
     [-0.23606798  1.3416408 ]]
    """
    return Geqrf.apply(_floating(input, 'geqrf', 'input'))


def orgqr(input, input2):
    """The first n columns of ``Q = H_1 ... H_k`` from ``geqrf``'s packed reflectors.

    Args:
        input (Tensor): (*, m, n), m >= n, Float32 or Float64: the Householder vectors.
        input2 (Tensor): (*, k), k <= n, of input's dtype: their factors tau.

    Raises:
        TypeError: an argument is not a Tensor of those types, or the dtypes differ.
        ValueError: input has rank < 2 or m < n, or input2 does not fit it.
    """
    packed = _floating(input, 'orgqr', 'input')
    tau = _floating(input2, 'orgqr', 'tau', 1)
    m, n = packed.shape[-2:]
    if m < n:
        raise ValueError(f"ops.orgqr: input must have at least as many rows as columns, got "
                         f"shape {packed.shape}")
    _reflectors('orgqr', packed, tau, m)
    return Orgqr.apply(packed, tau)


def ormqr(input, tau, other, left=True, transpose=False):
    """``Q @ other`` (``other @ Q`` when not ``left``; Q^T with ``transpose``) for
    ``Q = H_1 ... H_k`` of ``geqrf``'s packed reflectors, without forming Q.

    Args:
        input (Tensor): (*, mn, k') of Float32 or Float64, mn = m when left, else n.
        tau (Tensor): (*, k), k <= min(mn, k'), of input's dtype.
        other (Tensor): (*, m, n) of input's dtype.
        left (bool): multiply from the left. Default True.
        transpose (bool): use Q^T. Default False.

    Raises:
        TypeError: an argument is not a Tensor of those types, the dtypes differ, or left or
            transpose is not a bool.
        ValueError: shapes that do not fit.
    """
    name = 'ormqr'
    packed = _floating(input, name, 'input')
    tau = _floating(tau, name, 'tau', 1)
    c = _floating(other, name, 'other')
    for arg, value in (('left', left), ('transpose', transpose)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"ops.{name}: {arg} must be a bool, got {value!r}")
    if c._data.dtype != packed._data.dtype:
        raise TypeError(f"ops.{name}: input and other must have the same dtype, got "
                        f"{packed.dtype} and {c.dtype}")
    mn = c.shape[-2] if left else c.shape[-1]
    if packed.shape[-2] != mn or c.shape[:-2] != packed.shape[:-2]:
        raise ValueError(f"ops.{name}: input of shape {packed.shape} does not fit other of "
                         f"shape {c.shape} (expected ({', '.join(map(str, c.shape[:-2]))}"
                         f"{', ' if c.ndim > 2 else ''}{mn}, k))")
    _reflectors(name, packed, tau, mn)
    return Ormqr.apply(packed, tau, c, left=bool(left), transpose=bool(transpose))
