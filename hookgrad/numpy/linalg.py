"""Products and norms of ``mindspore.numpy``: dot, inner, outer, matmul, tensordot, kron,
cross, multi_dot, matrix_power, norm. All are differentiable (matmul, reshape, transpose and
element-wise ops underneath).
"""
import numpy as np

from .. import ops
from ._args import axes_of, axis_of, fail, promoted, result, to_tensor


def _pair(a, b, name):
    return promoted([to_tensor(a, name), to_tensor(b, name)])


def _aligned(name, a, b, ka, kb):
    if ka != kb:
        raise fail(name, f"shapes {a.shape} and {b.shape} are not aligned ({ka} != {kb})")


def dot(a, b):
    """NumPy's ``dot``: a product of scalars, the inner product of vectors, matrix products,
    and for n-d arrays the sum over the last axis of ``a`` and the second-to-last of ``b``.

    >>> import hookgrad.numpy as mnp
    >>> mnp.dot(mnp.array([1, 2]), mnp.array([3, 4]))
    Tensor(shape=[], dtype=Int32, value= 11)
    """
    a, b = _pair(a, b, 'dot')
    if a.ndim == 0 or b.ndim == 0:
        return ops.mul(a, b)
    kb = b.shape[-2] if b.ndim >= 2 else b.shape[0]
    _aligned('dot', a, b, a.shape[-1], kb)
    if b.ndim <= 2:
        return ops.matmul(a, b)
    # n-d b: move its contracted axis first, flatten the rest into columns
    bt = ops.transpose(b, (b.ndim - 2,) + tuple(range(b.ndim - 2)) + (b.ndim - 1,))
    cols = ops.reshape(bt, (kb, -1))
    y = ops.matmul(ops.reshape(a, (-1, a.shape[-1])), cols)
    return ops.reshape(y, a.shape[:-1] + b.shape[:-2] + b.shape[-1:])


def inner(a, b):
    """The inner product over the last axes of ``a`` and ``b`` (a product if either is 0-d)."""
    a, b = _pair(a, b, 'inner')
    if a.ndim == 0 or b.ndim == 0:
        return ops.mul(a, b)
    _aligned('inner', a, b, a.shape[-1], b.shape[-1])
    k = a.shape[-1]
    y = ops.matmul(ops.reshape(a, (-1, k)), ops.transpose(ops.reshape(b, (-1, k)), (1, 0)))
    return ops.reshape(y, a.shape[:-1] + b.shape[:-1])


def outer(a, b):
    """The outer product of the flattened ``a`` and ``b``: ``out[i, j] = a[i] * b[j]``."""
    a, b = _pair(a, b, 'outer')
    return ops.mul(ops.reshape(a, (-1, 1)), ops.reshape(b, (1, -1)))


def matmul(x1, x2, dtype=None):
    """The matrix product (batched over leading axes, 1-d operands promoted as in NumPy)."""
    a, b = _pair(x1, x2, 'matmul')
    if a.ndim == 0 or b.ndim == 0:
        raise fail('matmul', "input operands cannot be scalars (0-d)")
    ka = a.shape[-1]
    kb = b.shape[-2] if b.ndim >= 2 else b.shape[0]
    _aligned('matmul', a, b, ka, kb)
    return result(ops.matmul(a, b), dtype, 'matmul')


def tensordot(a, b, axes=2):
    """Sum of products over the last ``axes`` axes of ``a`` and the first of ``b`` (an int),
    or over the given pairs of axes (``(axes_a, axes_b)``)."""
    a, b = _pair(a, b, 'tensordot')
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = int(axes)
        if n < 0 or n > min(a.ndim, b.ndim):
            raise fail('tensordot', f"axes {n} must be in [0, {min(a.ndim, b.ndim)}] for "
                                    f"shapes {a.shape} and {b.shape}")
        axa, axb = list(range(a.ndim - n, a.ndim)), list(range(n))
    else:
        try:
            axa, axb = axes
        except (TypeError, ValueError):
            raise fail('tensordot', f"axes must be an int or a pair of axis sequences, got "
                                    f"{axes!r}", TypeError) from None
        axa = [axa] if isinstance(axa, (int, np.integer)) else list(axa)
        axb = [axb] if isinstance(axb, (int, np.integer)) else list(axb)
        if len(axa) != len(axb):
            raise fail('tensordot', f"axes {axes!r}: both sides must name as many axes")
        axa = [axis_of(i, a.ndim, 'tensordot') for i in axa]
        axb = [axis_of(i, b.ndim, 'tensordot') for i in axb]
    for i, j in zip(axa, axb):
        if a.shape[i] != b.shape[j]:
            raise fail('tensordot', f"shape mismatch for sum: axis {i} of {a.shape} and axis "
                                    f"{j} of {b.shape}")
    free_a = [i for i in range(a.ndim) if i not in axa]
    free_b = [i for i in range(b.ndim) if i not in axb]
    k = int(np.prod([a.shape[i] for i in axa]))
    at = ops.reshape(ops.transpose(a, tuple(free_a + axa)), (-1, k))
    bt = ops.reshape(ops.transpose(b, tuple(axb + free_b)), (k, -1))
    return ops.reshape(ops.matmul(at, bt), tuple(a.shape[i] for i in free_a) +
                       tuple(b.shape[i] for i in free_b))


def kron(a, b):
    """The Kronecker product: blocks of ``b`` scaled by the elements of ``a``."""
    a, b = _pair(a, b, 'kron')
    n = max(a.ndim, b.ndim)
    if n == 0:
        return ops.mul(a, b)
    a = ops.reshape(a, (1,) * (n - a.ndim) + a.shape)
    b = ops.reshape(b, (1,) * (n - b.ndim) + b.shape)
    # a[i0, 1, i1, 1, ...] * b[1, j0, 1, j1, ...], then merge each (i, j) pair
    ai = ops.reshape(a, tuple(d for s in a.shape for d in (s, 1)))
    bj = ops.reshape(b, tuple(d for s in b.shape for d in (1, s)))
    return ops.reshape(ops.mul(ai, bj), tuple(x * y for x, y in zip(a.shape, b.shape)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of vectors of length 2 or 3 along ``axisa`` / ``axisb`` (``axis``
    sets all three), placed along ``axisc``; for two 2-vectors, the z component alone."""
    from .manipulation import moveaxis
    a, b = _pair(a, b, 'cross')
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, axis_of(axisa, a.ndim, 'cross', 'axisa'), -1)
    b = moveaxis(b, axis_of(axisb, b.ndim, 'cross', 'axisb'), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise fail('cross', f"incompatible dimensions for cross product (dimension must be "
                            f"2 or 3), got {a.shape[-1]} and {b.shape[-1]}")

    def part(t, i):
        return ops.getitem(t, (Ellipsis, i))

    zero = ops.mul(part(a, 0), 0)
    a0, a1, a2 = part(a, 0), part(a, 1), part(a, 2) if a.shape[-1] == 3 else zero
    b0, b1, b2 = part(b, 0), part(b, 1), part(b, 2) if b.shape[-1] == 3 else zero
    cz = ops.sub(ops.mul(a0, b1), ops.mul(a1, b0))
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return cz
    cx = ops.sub(ops.mul(a1, b2), ops.mul(a2, b1))
    cy = ops.sub(ops.mul(a2, b0), ops.mul(a0, b2))
    c = ops.stack([cx, cy, cz], -1)
    return moveaxis(c, -1, axis_of(axisc, c.ndim, 'cross', 'axisc'))


def multi_dot(arrays):
    """The product of a chain of matrices (the first and last may be 1-d), multiplied in the
    order that costs the fewest scalar multiplications."""
    xs = [to_tensor(x, 'multi_dot') for x in arrays]
    if len(xs) < 2:
        raise fail('multi_dot', f"expecting at least 2 arrays, got {len(xs)}")
    if len(xs) == 2:
        return dot(*xs)
    first_1d, last_1d = xs[0].ndim == 1, xs[-1].ndim == 1
    if first_1d:
        xs[0] = ops.reshape(xs[0], (1, -1))
    if last_1d:
        xs[-1] = ops.reshape(xs[-1], (-1, 1))
    for x in xs:
        if x.ndim != 2:
            raise fail('multi_dot', f"inner arrays must be 2-d, got shape {x.shape}")
    dims = [xs[0].shape[0]] + [x.shape[1] for x in xs]
    for x, y in zip(xs[:-1], xs[1:]):
        _aligned('multi_dot', x, y, x.shape[1], y.shape[0])
    split = _chain_order(dims)

    def product(i, j):
        if i == j:
            return xs[i]
        k = split[i][j]
        return ops.matmul(product(i, k), product(k + 1, j))

    y = product(0, len(xs) - 1)
    return ops.reshape(y, tuple(s for i, s in enumerate(y.shape)
                                if not (i == 0 and first_1d) and not (i == 1 and last_1d)))


def _chain_order(dims):
    """The split points of the cheapest parenthesisation of a matrix chain."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = float('inf')
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def matrix_power(a, n):
    """``a`` (square in its last two axes) multiplied by itself ``n`` times (``n >= 0``; the
    identity for 0).

    Raises:
        ValueError: for a negative ``n`` (matrix inverses are not available).
    """
    x = to_tensor(a, 'matrix_power')
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise fail('matrix_power', f"the exponent must be an int, got {n!r}", TypeError)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise fail('matrix_power', f"the last 2 dimensions must be square, got shape {x.shape}")
    if n < 0:
        raise fail('matrix_power', f"negative exponents need a matrix inverse, which is not "
                                   f"available; got {n}")
    if n == 0:
        eye = ops.eye(x.shape[-1], x.shape[-1], x.dtype)
        return ops.broadcast_to(eye, x.shape)
    out, base, n = None, x, int(n)
    while n:        # square and multiply: log2(n) products
        if n & 1:
            out = base if out is None else ops.matmul(out, base)
        n >>= 1
        if n:
            base = ops.matmul(base, base)
    return out


_INF = float('inf')


def _vector_norm(x, order, axes, keepdims):
    absx = ops.abs(x)
    if order is None or order == 2:
        return ops.sqrt(ops.sum(ops.square(x), axes, keepdims))
    if order == _INF:
        return ops.amax(absx, axes, keepdims)
    if order == -_INF:
        return ops.amin(absx, axes, keepdims)
    if order == 0:
        return ops.sum(ops.cast(ops.ne(x, 0), x._data.dtype), axes, keepdims)
    if order == 1:
        return ops.sum(absx, axes, keepdims)
    return ops.pow(ops.sum(ops.pow(absx, float(order)), axes, keepdims), 1.0 / order)


def _matrix_norm(x, order, axes, keepdims):
    r, c = axes
    if order in (None, 'fro'):
        return ops.sqrt(ops.sum(ops.square(x), axes, keepdims))
    if order in ('nuc', 2, -2):        # singular values
        return ops.matrix_norm(x, order, axes, keepdims)
    if order not in (1, -1, _INF, -_INF):
        raise fail('norm', f"invalid norm order {order!r} for matrices")
    absx = ops.abs(x)
    inner_axis, outer_axis = (r, c) if order in (1, -1) else (c, r)
    sums = ops.sum(absx, inner_axis, True)
    pick = ops.amax if order in (1, _INF) else ops.amin
    y = pick(sums, outer_axis, True)
    return y if keepdims else ops.squeeze(y, tuple(sorted(axes)))


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002  (NumPy's name)
    """Vector norms (``ord`` None/2, 1, inf, -inf, 0 or any p) over one axis, matrix norms
    (None/'fro', 'nuc', 1, -1, 2, -2, inf, -inf) over two; with ``axis`` None, a 1-d or 2-d
    ``x`` as a whole (any ``x`` flattened when ``ord`` is None too)."""
    valid = ord is None or ord in ('fro', 'nuc') or (
        isinstance(ord, (int, float)) and not isinstance(ord, bool))
    if not valid:
        raise fail('norm', f"invalid value for ord: {ord!r}")
    t = to_tensor(x, 'norm')
    t = t if t._data.dtype.kind in 'fV' else ops.cast(t, np.float32)
    ndim = t.ndim
    if axis is None:
        if ord is None:
            y = _vector_norm(ops.reshape(t, (-1,)), None, (0,), False)
            return ops.reshape(y, (1,) * ndim) if keepdims else y
        if ndim not in (1, 2):
            raise fail('norm', f"with axis None, x must be 1-d or 2-d for ord {ord!r}, got "
                               f"{ndim}-d")
        axis = tuple(range(ndim))
    axes = axes_of(axis, ndim, 'norm')
    if len(axes) == 1:
        if ord in ('fro', 'nuc'):
            raise fail('norm', f"the {ord!r} norm is only defined for matrices")
        return _vector_norm(t, ord, axes, bool(keepdims))
    if len(axes) == 2:
        return _matrix_norm(t, ord, axes, bool(keepdims))
    raise fail('norm', f"improper number of dimensions to norm: {len(axes)}")


__all__ = ['dot', 'inner', 'outer', 'matmul', 'tensordot', 'kron', 'cross', 'multi_dot',
           'matrix_power', 'norm']
