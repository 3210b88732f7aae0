"""Matrix structure: tril/triu, diagonals (diagonal, diag, diag_embed, diagonal_scatter) and
trace.

Reading a diagonal (``Diagonal``) and writing one into zeros (``EmbedDiagonal``) are each
other's adjoints: each backward applies the other, so gradients of any order come out of the
two rules.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op
from ..kernels import backend
from ._base import as_tensor


class Triangle(Op):
    """y = x with the elements above (``lower``) or below the ``diagonal``-th diagonal of its
    last two axes zeroed; the gradient is masked the same way."""
    @staticmethod
    def forward(ctx, x, lower, diagonal):
        xp = ctx.xp
        n, m = x.shape[-2:]
        keep = xp.tri(n, m, diagonal, dtype=bool)
        if not lower:
            keep = ~xp.tri(n, m, diagonal - 1, dtype=bool)
        ctx.keep = keep
        return xp.where(keep, x, xp.zeros((), x.dtype))

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.where(ctx.keep, gy, 0)


def _diagonal_axes(xp, shape, offset, dim1, dim2):
    """The positions of a diagonal: row and column index arrays along dim1 and dim2."""
    n1, n2 = shape[dim1], shape[dim2]
    length = max(0, min(n1 + min(offset, 0), n2 - max(offset, 0)))
    i = xp.arange(length)
    return i - min(offset, 0), i + max(offset, 0)


class Diagonal(Op):
    """y = the ``offset`` diagonal of x's axes dim1 and dim2, appended as the last axis (as
    ``np.diagonal``, but a copy); the gradient is written back onto that diagonal."""
    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        ctx.in_shape, ctx.where = x.shape, (offset, dim1, dim2)
        return np.diagonal(x, offset, dim1, dim2).copy()

    @staticmethod
    def backward(ctx, gy):
        return _embed(gy, ctx.in_shape, *ctx.where)


class EmbedDiagonal(Op):
    """y = zeros of ``shape`` with g's last axis written on the ``offset`` diagonal of axes
    dim1 and dim2 (the adjoint of ``Diagonal``); its gradient is that diagonal of gy."""
    @staticmethod
    def forward(ctx, g, shape, offset, dim1, dim2):
        ctx.where = (offset, dim1, dim2)
        return _embed_array(g, shape, offset, dim1, dim2)

    @staticmethod
    def backward(ctx, gy):
        return _diagonal(gy, *ctx.where)


def _embed_array(g, shape, offset, dim1, dim2):
    xp = backend.array_module(g)
    rest = [n for k, n in enumerate(shape) if k not in (dim1, dim2)]
    out = xp.zeros(tuple(rest) + (shape[dim1], shape[dim2]), g.dtype)
    rows, cols = _diagonal_axes(xp, shape, offset, dim1, dim2)
    out[..., rows, cols] = g
    order = [k for k in range(len(shape)) if k not in (dim1, dim2)] + [dim1, dim2]
    return np.transpose(out, tuple(np.argsort(order).tolist()))


def _diagonal(x, offset, dim1, dim2):
    """Diagonal on an array (first-order backward) or a Tensor (recorded)."""
    if isinstance(x, Tensor):
        return Diagonal.apply(x, offset=offset, dim1=dim1, dim2=dim2)
    return np.diagonal(x, offset, dim1, dim2).copy()


def _embed(g, shape, offset, dim1, dim2):
    """EmbedDiagonal on an array (first-order backward) or a Tensor (recorded)."""
    if isinstance(g, Tensor):
        return EmbedDiagonal.apply(g, shape=shape, offset=offset, dim1=dim1, dim2=dim2)
    return _embed_array(g, shape, offset, dim1, dim2)


# ------------------------------------------------------------------------------ checks
def _int(value, name, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{name}: {what} must be an int, got {value!r}")
    return int(value)


def _dim(value, ndim, name, what):
    value = _int(value, name, what)
    if not -ndim <= value < ndim:
        raise ValueError(f"ops.{name}: {what} {value} is out of range for a result of rank "
                         f"{ndim}" if name == 'diag_embed' else
                         f"ops.{name}: {what} {value} is out of range for a tensor of rank {ndim}")
    return value % ndim


# ------------------------------------------------------------------------------ public functions
def _triangle(input, diagonal, lower, name):
    x = as_tensor(input)
    diagonal = _int(diagonal, name, 'diagonal')
    if x.ndim < 2:
        raise ValueError(f"ops.{name}: input must have rank >= 2, got shape {x.shape}")
    return Triangle.apply(x, lower=lower, diagonal=diagonal)


def tril(input, diagonal=0):
    """The lower triangle of the last two axes of ``input``: elements above the ``diagonal``-th
    diagonal (0 the main one, positive above, negative below) become 0.

    Raises:
        TypeError: when ``diagonal`` is not an int.
        ValueError: when ``input`` has rank < 2.

    >>> import hookgrad as ms
    >>> ms.ops.tril(ms.Tensor([[1, 2], [3, 4]])).tolist()
    [[1, 0], [3, 4]]
    """
    return _triangle(input, diagonal, True, 'tril')


def triu(input, diagonal=0):
    """The upper triangle of the last two axes of ``input``: elements below the
    ``diagonal``-th diagonal become 0 (see ``tril``)."""
    return _triangle(input, diagonal, False, 'triu')


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The ``offset`` diagonal of the 2-d slices over ``dim1`` and ``dim2``, as the last axis.

    Raises:
        ValueError: for a rank below 2, a dimension out of range, or dim1 == dim2.
    """
    x = as_tensor(input)
    if x.ndim < 2:
        raise ValueError(f"ops.diagonal: input must have rank >= 2, got shape {x.shape}")
    offset = _int(offset, 'diagonal', 'offset')
    d1 = _dim(dim1, x.ndim, 'diagonal', 'dim1')
    d2 = _dim(dim2, x.ndim, 'diagonal', 'dim2')
    if d1 == d2:
        raise ValueError(f"ops.diagonal: dim1 and dim2 must differ, got {dim1} and {dim2}")
    return Diagonal.apply(x, offset=offset, dim1=d1, dim2=d2)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose ``offset`` diagonals over ``dim1``, ``dim2`` (of the result, one rank
    more than ``input``) hold the last axis of ``input``; zeros elsewhere.

    Raises:
        ValueError: for a dimension out of range, or dim1 == dim2.
    """
    x = as_tensor(input)
    offset = _int(offset, 'diag_embed', 'offset')
    n = x.ndim + 1
    d1 = _dim(dim1, n, 'diag_embed', 'dim1')
    d2 = _dim(dim2, n, 'diag_embed', 'dim2')
    if d1 == d2:
        raise ValueError(f"ops.diag_embed: dim1 and dim2 must differ, got {dim1} and {dim2}")
    size = (x.shape[-1] if x.ndim else 1) + abs(offset)
    rest = iter(x.shape[:-1])
    shape = tuple(size if k in (d1, d2) else next(rest) for k in range(n))
    if x.ndim == 0:
        from .shaping import reshape
        x = reshape(x, (1,))
    return EmbedDiagonal.apply(x, shape=shape, offset=offset, dim1=d1, dim2=d2)


def diag(input):
    """A tensor of rank 2k with ``input`` (rank k >= 1) on its diagonal:
    ``y[i..., j...] = input[i...]`` where the index tuples i and j are equal, else 0.

    Raises:
        ValueError: for a 0-d input.

    >>> import hookgrad as ms
    >>> ms.ops.diag(ms.Tensor([1, 2])).tolist()
    [[1, 0], [0, 2]]
    """
    from .shaping import reshape
    x = as_tensor(input)
    if x.ndim == 0:
        raise ValueError("ops.diag: input must have rank >= 1, got shape ()")
    if x.ndim == 1:
        return EmbedDiagonal.apply(x, shape=x.shape * 2, offset=0, dim1=0, dim2=1)
    n = x.size
    y = EmbedDiagonal.apply(reshape(x, (n,)), shape=(n, n), offset=0, dim1=0, dim2=1)
    return reshape(y, x.shape + x.shape)


def trace(input):
    """The sum of the main diagonal of a 2-d tensor, in its dtype.

    Raises:
        ValueError: when ``input`` is not 2-d.
    """
    from .arithmetic import cast
    from .reduction import sum as reduce_sum
    x = as_tensor(input)
    if x.ndim != 2:
        raise ValueError(f"ops.trace: input must be 2-d, got shape {x.shape}")
    y = reduce_sum(Diagonal.apply(x, offset=0, dim1=0, dim2=1))
    return cast(y, x._data.dtype)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``input`` with its ``offset`` diagonal over ``dim1`` and ``dim2`` replaced by ``src``
    (shaped as ``diagonal(input, offset, dim1, dim2)``, cast to input's dtype). The gradient
    of input is zero on that diagonal, src's is the diagonal of the incoming one.

    Raises:
        TypeError: input or src is not a Tensor, or offset, dim1 or dim2 not an int.
        ValueError: a rank below 2, a dimension out of range, dim1 == dim2, an offset with no
            diagonal, or src not of the diagonal's shape.
    """
    from .arithmetic import cast
    from .indexing import where
    name = 'diagonal_scatter'
    for arg, value in (('input', input), ('src', src)):
        if not isinstance(value, Tensor):
            raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(value).__name__}")
    x = input
    if x.ndim < 2:
        raise ValueError(f"ops.{name}: input must have rank >= 2, got shape {x.shape}")
    offset = _int(offset, name, 'offset')
    d1, d2 = _dim(dim1, x.ndim, name, 'dim1'), _dim(dim2, x.ndim, name, 'dim2')
    if d1 == d2:
        raise ValueError(f"ops.{name}: dim1 and dim2 must differ, got {dim1} and {dim2}")
    n1, n2 = x.shape[d1], x.shape[d2]
    if not -n1 < offset < n2:
        raise ValueError(f"ops.{name}: offset must be in ({-n1}, {n2}) for dims of lengths "
                         f"{n1} and {n2}, got {offset}")
    length = min(n1 + min(offset, 0), n2 - max(offset, 0))
    want = tuple(n for k, n in enumerate(x.shape) if k not in (d1, d2)) + (length,)
    if tuple(src.shape) != want:
        raise ValueError(f"ops.{name}: src of shape {src.shape} does not fit the diagonal of "
                         f"shape {want}")
    if src._data.dtype != x._data.dtype:
        src = cast(src, x.dtype)
    xp = backend.array_module(x._data)
    mask = _embed_array(xp.ones(want, bool), x.shape, offset, d1, d2)
    values = EmbedDiagonal.apply(src, shape=x.shape, offset=offset, dim1=d1, dim2=d2)
    return where(Tensor._wrap(mask), values, x)
