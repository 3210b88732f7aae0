"""Norms and what is built on them: vector_norm, matrix_norm, norm, cdist, cosine_similarity,
clip_by_norm, clip_by_global_norm and the L2 normalisation of ``ops.L2Normalize``.

``VectorNorm`` is one primitive for every order p, with a gradient of 0 where the norm is 0 (the
subgradient frameworks use, so the distance of a point to itself does not give NaN).
``SingularValues`` serves the spectral matrix norms (2, -2, 'nuc').
"""
import math
import numbers

import numpy as np

from .._dtype import from_numpy, to_numpy
from .._tensor import Tensor
from ..autograd.function import Op
from ._base import as_tensor, normalize_axis
from .arithmetic import add, cast, div, mul, sub
from .comparison import maximum, minimum
from .reduction import amax, amin, sum as _sum

_INF = math.inf


def _unkeep(y, axis, keepdims, ndim):
    """``y`` (reduced with keepdims) with the reduced axes dropped unless ``keepdims``."""
    if keepdims:
        return y
    axes = range(ndim) if axis is None else axis
    return y.reshape(tuple(n for i, n in enumerate(y.shape) if i not in axes))


def _max_or_zero(xp, a, axis):
    """``np.max(a, axis, keepdims=True, initial=0)`` of a non-negative ``a`` on a device."""
    if a.size:
        return xp.max(a, axis, keepdims=True)
    axes = range(a.ndim) if axis is None else axis
    return xp.zeros(tuple(1 if i in axes else n for i, n in enumerate(a.shape)), a.dtype)


class VectorNorm(Op):
    """y = (sum |x|^p)^(1/p) over ``axis`` (p = inf: max |x|, -inf: min |x|, 0: the count of
    nonzeros, which has no gradient); the gradient is 0 where y is 0."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, p, axis, keepdims):
        a = np.abs(x)
        if p == 2:
            y = np.sqrt(np.sum(a * a, axis, keepdims=True))
        elif p == 1:
            y = np.sum(a, axis, keepdims=True)
        elif p == _INF:             # 0 for an empty x; CuPy's max has no ``initial``
            y = np.max(a, axis, keepdims=True, initial=0) if ctx.xp is np else \
                _max_or_zero(ctx.xp, a, axis)
        elif p == -_INF:
            y = np.min(a, axis, keepdims=True)
        elif p == 0:
            y = np.sum(a != 0, axis, keepdims=True).astype(x.dtype)
        else:
            y = np.sum(a ** p, axis, keepdims=True) ** (1.0 / p)
        out = ctx.xp.asarray(_unkeep(y, axis, keepdims, x.ndim))
        if ctx.recording:
            ctx.p, ctx.axis, ctx.keep_shape = p, axis, y.shape
            ctx.save(x, out)
        return out

    @staticmethod
    def backward(ctx, gy):
        x, y = ctx.saved
        m, p = ctx.m, ctx.p
        y = m.reshape(y, ctx.keep_shape)        # the reduced axes kept (size 1)
        gy = m.reshape(gy, ctx.keep_shape)
        if p == 0:
            return m.zeros_like(x)
        zero = y == 0
        safe = m.where(zero, m.ones_like(y), y)
        if p == 2:
            return m.where(zero, 0, gy / safe) * x
        sign = m.sign(x)
        if p == 1:
            return gy * sign
        if p in (_INF, -_INF):
            hit = m.cast(m.abs(x) == y, x.dtype)
            return m.where(zero, 0, gy / m.sum(hit, ctx.axis, True)) * hit * sign
        ratio = m.abs(x) / safe
        return m.where(zero, 0, gy) * sign * ratio ** (p - 1)


class SingularValues(Op):
    """y = the singular values of the matrices over the last two axes, descending; the
    gradient is ``U diag(gy) V^T`` (exact where they are distinct; first order only)."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x):
        xp = ctx.xp         # the CUDA stand-in hands svd's named tuple back unwrapped
        u, s, vt = (xp.asarray(a) for a in np.linalg.svd(x, full_matrices=False))
        if ctx.recording:
            ctx.save(u, vt)
        return s

    @staticmethod
    def backward(ctx, gy):
        if isinstance(gy, Tensor):
            raise NotImplementedError("gradients of second order through singular values "
                                      "(matrix norms 2, -2 and 'nuc') are not implemented")
        u, vt = ctx.saved
        return np.matmul(u * gy[..., None, :], vt)


# ------------------------------------------------------------------------------ checks
def _floating(x, dtype, name):
    """``x`` cast to ``dtype`` when given, else to Float32 when not floating."""
    if dtype is not None:
        dt = to_numpy(dtype)
        if dt.kind not in 'fV':
            raise TypeError(f"ops.{name}: dtype must be a floating type, got {from_numpy(dt)}")
        return cast(x, dt)
    if x._data.dtype.kind not in 'fV':
        return cast(x, np.float32)
    return x


def _order(ord, name):
    if isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        raise TypeError(f"ops.{name}: ord must be a number, got {ord!r}")
    return float(ord)


def _axes(axis, ndim, name):
    if axis is None:
        return None
    axes = normalize_axis(axis, ndim, name)
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"ops.{name}: axis {axis!r} names an axis more than once")
    return tuple(sorted(axes)) if axes else None


# ------------------------------------------------------------------------------ public functions
def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """The p-norm ``(sum |x|^ord)^(1/ord)`` over ``axis`` (all axes when None).

    ``ord`` inf is max |x|, -inf min |x|, 0 the number of nonzeros. Integer inputs give
    Float32; the gradient is 0 where the norm is 0.

    >>> import hookgrad as ms
    >>> ms.ops.vector_norm(ms.Tensor([3.0, 4.0])).item()
    5.0
    """
    t = _floating(as_tensor(x, 'x'), dtype, 'vector_norm')
    p = _order(ord, 'vector_norm')
    axes = _axes(axis, max(t.ndim, 1), 'vector_norm')
    if t.ndim == 0:
        axes = None
    return VectorNorm.apply(t, p=p, axis=axes, keepdims=bool(keepdims))


_MATRIX_ORDERS = ('fro', 'nuc', 1, -1, 2, -2, _INF, -_INF)


def matrix_norm(A, ord='fro', axis=(-2, -1), keepdims=False, *, dtype=None):
    """A matrix norm over the two axes ``axis``: 'fro' (Frobenius), 'nuc' (sum of singular
    values), 1 / -1 (largest / smallest column sum of |A|), inf / -inf (row sums), 2 / -2
    (largest / smallest singular value).

    Raises:
        ValueError: for another ord, or an ``axis`` that is not two distinct axes.
    """
    t = _floating(as_tensor(A, 'A'), dtype, 'matrix_norm')
    if isinstance(ord, bool) or ord not in _MATRIX_ORDERS:
        raise ValueError(f"ops.matrix_norm: ord must be one of 'fro', 'nuc', 1, -1, 2, -2, inf, "
                         f"-inf, got {ord!r}")
    if t.ndim < 2:
        raise ValueError(f"ops.matrix_norm: A must have rank >= 2, got shape {t.shape}")
    if not isinstance(axis, (tuple, list)) or len(axis) != 2:
        raise ValueError(f"ops.matrix_norm: axis must be a pair of axes, got {axis!r}")
    r, c = normalize_axis(tuple(axis), t.ndim, 'matrix_norm')
    if r == c:
        raise ValueError(f"ops.matrix_norm: axis {tuple(axis)} names one axis twice")
    return _matrix_norm(t, ord, r, c, bool(keepdims))


def _matrix_norm(t, ord, r, c, keepdims):
    from .shaping import expand_dims, transpose
    if ord == 'fro':
        return VectorNorm.apply(t, p=2.0, axis=tuple(sorted((r, c))), keepdims=keepdims)
    if ord in (1, -1, _INF, -_INF):
        summed = r if ord in (1, -1) else c
        sums = VectorNorm.apply(t, p=1.0, axis=(summed,), keepdims=True)
        pick = amax if ord > 0 else amin
        y = pick(sums, (r, c), True)
    else:
        rest = [i for i in range(t.ndim) if i not in (r, c)]
        s = SingularValues.apply(transpose(t, tuple(rest) + (r, c)))
        if ord == 'nuc':
            y = _sum(s, -1)
        else:
            y = amax(s, -1) if ord == 2 else amin(s, -1)
        if keepdims:
            y = expand_dims(expand_dims(y, min(r, c)), max(r, c))
        return y
    if keepdims:
        return y
    from .shaping import squeeze
    return squeeze(y, (r, c))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector or matrix norm, as ``torch.linalg.norm``.

    With ``dim`` None: the 2-norm of the flattened input when ``ord`` is None, else a vector
    norm of a 1-d input or a matrix norm of a 2-d one. An int ``dim`` gives a vector norm over
    it; a pair gives a matrix norm over those two axes.

    Raises:
        ValueError: for an ord the kind of norm does not have, or a rank that does not fit.
    """
    t = as_tensor(A, 'A')
    if dim is None:
        if ord is None:
            return vector_norm(t, 2, None, keepdim, dtype=dtype)
        if t.ndim == 1:
            return _vector_ord(t, ord, None, keepdim, dtype)
        if t.ndim == 2:
            return _matrix_ord(t, ord, (0, 1), keepdim, dtype)
        raise ValueError(f"ops.norm: with ord and no dim, A must be 1-d or 2-d, got shape "
                         f"{t.shape}")
    if isinstance(dim, (tuple, list)) and len(dim) == 2:
        return _matrix_ord(t, 'fro' if ord is None else ord, tuple(dim), keepdim, dtype)
    if isinstance(dim, (tuple, list)) and len(dim) != 1:
        raise ValueError(f"ops.norm: dim must be an int or a pair of ints, got {dim!r}")
    return _vector_ord(t, 2 if ord is None else ord, dim, keepdim, dtype)


def _vector_ord(t, ord, dim, keepdim, dtype):
    if isinstance(ord, str):
        raise ValueError(f"ops.norm: ord {ord!r} is a matrix norm; vectors take a number")
    return vector_norm(t, ord, dim, keepdim, dtype=dtype)


def _matrix_ord(t, ord, dim, keepdim, dtype):
    if isinstance(ord, bool) or ord not in _MATRIX_ORDERS:
        raise ValueError(f"ops.norm: ord must be one of 2, -2, 1, -1, inf, -inf, 'fro', 'nuc' "
                         f"for matrices, got {ord!r}")
    return matrix_norm(t, ord, dim, keepdim, dtype=dtype)


def cdist(x1, x2, p=2.0):
    """The p-norm distance between each row of ``x1`` and each row of ``x2``.

    Shapes (B, P, M) and (B, R, M) (or without B) give (B, P, R).

    Raises:
        TypeError: for non-floating inputs.
        ValueError: for ranks other than 2 or 3, shapes that do not pair, or a negative p.
    """
    from .shaping import expand_dims
    a, b = as_tensor(x1, 'x1'), as_tensor(x2, 'x2')
    for t in (a, b):
        if t._data.dtype.kind not in 'fV':
            raise TypeError(f"ops.cdist: inputs must be floating tensors, got {t.dtype}")
    if a.ndim != b.ndim or a.ndim not in (2, 3) or a.shape[-1] != b.shape[-1] \
            or a.shape[:-2] != b.shape[:-2]:
        raise ValueError(f"ops.cdist: x1 and x2 must be (B, P, M) and (B, R, M) or (P, M) and "
                         f"(R, M), got shapes {a.shape} and {b.shape}")
    p = _order(p, 'cdist')
    if p < 0:
        raise ValueError(f"ops.cdist: p must be non-negative, got {p}")
    diff = sub(expand_dims(a, -2), expand_dims(b, -3))
    return VectorNorm.apply(diff, p=p, axis=(diff.ndim - 1,), keepdims=False)


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """``sum(x1 * x2) / max(|x1| * |x2|, eps)`` along ``dim`` (the inputs broadcast).

    Raises:
        TypeError: for non-floating inputs.
    """
    a, b = as_tensor(x1, 'x1'), as_tensor(x2, 'x2')
    for t in (a, b):
        if t._data.dtype.kind not in 'fV':
            raise TypeError(f"ops.cosine_similarity: inputs must be floating tensors, got "
                            f"{t.dtype}")
    from .broadcasting import broadcast_to
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"ops.cosine_similarity: shapes {a.shape} and {b.shape} cannot be "
                         f"broadcast together") from None
    a = a if a.shape == shape else broadcast_to(a, shape)
    b = b if b.shape == shape else broadcast_to(b, shape)
    axis = normalize_axis(dim, len(shape), 'cosine_similarity')
    na = VectorNorm.apply(a, p=2.0, axis=(axis,), keepdims=False)
    nb = VectorNorm.apply(b, p=2.0, axis=(axis,), keepdims=False)
    return div(_sum(mul(a, b), axis), maximum(mul(na, nb), eps))


def _tensors(x, name):
    """A Tensor or a tuple/list of Tensors as (list, whether one Tensor was given)."""
    if isinstance(x, Tensor):
        return [x], True
    if isinstance(x, (tuple, list)) and x and all(isinstance(t, Tensor) for t in x):
        return list(x), False
    raise TypeError(f"ops.{name}: x must be a Tensor or a non-empty tuple or list of Tensors, "
                    f"got {type(x).__name__}")


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale ``x`` (a Tensor, or a tuple/list of them together) so that their joint
    ``norm_type`` norm is at most ``max_norm``: each is multiplied by
    ``min(max_norm / (total_norm + 1e-6), 1)``.

    Raises:
        RuntimeError: with ``error_if_nonfinite`` when the total norm is NaN or infinite.
    """
    from .shaping import stack
    xs, single = _tensors(x, 'clip_by_norm')
    p = _order(norm_type, 'clip_by_norm')
    max_norm = float(_order(max_norm, 'clip_by_norm'))
    norms = [vector_norm(t, p) for t in xs]
    total = norms[0] if len(norms) == 1 else vector_norm(stack(norms), p)
    if error_if_nonfinite and not np.isfinite(total._data):
        raise RuntimeError(f"ops.clip_by_norm: the total norm of order {norm_type} is "
                           f"{total.item()}, not finite")
    coef = minimum(div(max_norm, add(total, 1e-6)), 1.0)
    out = [mul(t, cast(coef, t._data.dtype)) for t in xs]
    return out[0] if single else tuple(out)


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale the tensors of ``x`` (a tuple or list) by ``clip_norm / max(global_norm,
    clip_norm)``, the global norm being the 2-norm of all their elements together.

    Raises:
        ValueError: when ``use_norm`` is given (MindSpore supports only None).
    """
    from .shaping import stack
    if use_norm is not None:
        raise ValueError(f"ops.clip_by_global_norm: use_norm must be None, got {use_norm!r}")
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"ops.clip_by_global_norm: x must be a tuple or list of Tensors, got "
                        f"{type(x).__name__}")
    xs, _ = _tensors(tuple(x), 'clip_by_global_norm')
    clip = float(_order(clip_norm, 'clip_by_global_norm'))
    total = vector_norm(stack([vector_norm(t) for t in xs]))
    scale = div(clip, maximum(total, clip))
    return tuple(mul(t, cast(scale, t._data.dtype)) for t in xs)


def l2_normalize(x, axis=0, epsilon=1e-4):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``: what ``ops.L2Normalize`` computes."""
    from .unary import rsqrt
    t = as_tensor(x, 'x')
    if t._data.dtype.kind not in 'fV':
        raise TypeError(f"ops.L2Normalize: x must be a floating tensor, got {t.dtype}")
    axes = _axes(axis, max(t.ndim, 1), 'L2Normalize')
    squares = _sum(mul(t, t), axes, True)
    return mul(t, rsqrt(maximum(squares, epsilon)))
