"""Products: einsum, outer, dot, inner, tensor_dot, kron and the scaled forms addmm, addmv,
addbmm, baddbmm and addr.

``einsum`` is one primitive whose backward is einsum again (so gradients of any order come from
one rule); the others are compositions of matmul, reshape, transpose and element-wise ops.
"""
import numbers
import string

import numpy as np

from .._dtype import promote
from .._tensor import Tensor
from ..autograd.function import Op
from ..kernels.backend import array_module
from ._base import as_tensor, check_size
from .arithmetic import add, cast, mul
from .linalg import matmul
from .reduction import sum as _sum
from .shaping import reshape, transpose


# ------------------------------------------------------------------------------ einsum
class Einsum(Op):
    """y = np.einsum(equation, *xs) for an explicit equation ('ij,jk->ik', no '...').

    The gradient of operand k is the einsum of gy with the other operands onto k's subscripts;
    a letter repeated in k (a diagonal) is routed through an identity matrix, a letter found
    only in k (summed there) through a vector of ones.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, *xs, equation):
        if ctx.recording:
            ctx.equation = equation
            ctx.save(*xs)
        return ctx.xp.asarray(np.einsum(equation, *xs, optimize=len(xs) > 2))

    @staticmethod
    def backward(ctx, gy):
        xs = ctx.saved
        ins, out = ctx.equation.split('->')
        subs = ins.split(',')
        return tuple(_operand_grad(k, subs, out, xs, gy) if ctx.needs_grad(k) else None
                     for k in range(len(xs)))


def _operand_grad(k, subs, out, xs, gy):
    """The gradient of operand ``k`` of einsum ``subs -> out`` given gy."""
    target, extra_subs, extra = [], [], []
    used = set(''.join(subs) + out)
    fresh = (c for c in string.ascii_letters if c not in used)
    elsewhere = set(out + ''.join(s for i, s in enumerate(subs) if i != k))
    seen = set()
    shape = xs[k].shape
    data = xs[k]._data if isinstance(xs[k], Tensor) else xs[k]
    dtype = data.dtype
    xp = array_module(data)
    for c, n in zip(subs[k], shape):
        if c in seen:                       # a repeated letter: a diagonal, through eye(n)
            f = next(fresh)
            target.append(f)
            extra_subs.append(c + f)
            extra.append(xp.eye(n, dtype=dtype))
            continue
        seen.add(c)
        target.append(c)
        if c not in elsewhere:              # summed only inside operand k: broadcast back
            extra_subs.append(c)
            extra.append(xp.ones(n, dtype=dtype))
            elsewhere.add(c)
    others = [x for i, x in enumerate(xs) if i != k]
    other_subs = [s for i, s in enumerate(subs) if i != k]
    equation = ','.join([out] + other_subs + extra_subs) + '->' + ''.join(target)
    operands = [gy] + others + extra
    if not isinstance(gy, Tensor):
        return xp.asarray(np.einsum(equation, *operands, optimize=len(operands) > 2))
    operands = [o if isinstance(o, Tensor) else Tensor._wrap(o) for o in operands]
    return Einsum.apply(*operands, equation=equation)


def _explicit(equation, shapes):
    """``equation`` with spaces removed, '...' replaced by letters and the output made explicit
    (NumPy's implicit output: the letters used once, in alphabetical order)."""
    eq = equation.replace(' ', '')
    ins, arrow, out = eq.partition('->')
    subs = ins.split(',')
    if len(subs) != len(shapes):
        raise ValueError(f"ops.einsum: equation {equation!r} names {len(subs)} operands, got "
                         f"{len(shapes)}")
    for s in subs + [out]:
        if any(c not in string.ascii_letters for c in s.replace('...', '')):
            raise ValueError(f"ops.einsum: equation {equation!r} may hold only letters, ',', "
                             f"'->' and '...'")
    used = set(c for c in eq if c in string.ascii_letters)
    free = [c for c in string.ascii_letters if c not in used]
    widths = []
    for s, shape in zip(subs, shapes):
        letters = len(s.replace('...', ''))
        width = len(shape) - letters if '...' in s else 0
        if width < 0 or ('...' not in s and letters != len(shape)):
            raise ValueError(f"ops.einsum: subscripts {s!r} do not fit an operand of shape "
                             f"{tuple(shape)}")
        widths.append(width)
    ellipsis = ''.join(free[:max(widths, default=0)])
    subs = [s.replace('...', ellipsis[len(ellipsis) - w:]) for s, w in zip(subs, widths)]
    if arrow:
        if '...' in out:
            out = out.replace('...', ellipsis)
    else:
        counts = {}
        for c in ''.join(subs):
            counts[c] = counts.get(c, 0) + 1
        out = ellipsis + ''.join(sorted(c for c, n in counts.items()
                                        if n == 1 and c not in ellipsis))
    for c in out:
        if c not in ''.join(subs):
            raise ValueError(f"ops.einsum: output letter {c!r} of {equation!r} is in no operand")
    return ','.join(subs) + '->' + out


def einsum(equation, *operands):
    """Einstein summation: ``ops.einsum('ij,jk->ik', a, b)`` is ``a @ b``.

    Letters name axes; a letter missing from the output is summed over; '...' stands for
    broadcast leading axes; without '->' the output holds the letters used once, in
    alphabetical order. The operands may also come as one list or tuple.

    Raises:
        ValueError: when the equation does not fit the operands (the message names both).

    >>> import hookgrad as ms
    >>> ms.ops.einsum('i,i->', ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])).item()
    11.0
    """
    if not isinstance(equation, str):
        raise TypeError(f"ops.einsum: equation must be a str, got {type(equation).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    xs = [as_tensor(x, 'operands') for x in operands]
    if not xs:
        raise ValueError("ops.einsum: expected at least one operand")
    explicit = _explicit(equation, [x.shape for x in xs])
    dt = xs[0]._data.dtype
    for x in xs[1:]:
        dt = promote(dt, x._data.dtype)
    xs = [x if x._data.dtype == dt else cast(x, dt) for x in xs]
    try:
        return Einsum.apply(*xs, equation=explicit)
    except ValueError as e:
        raise ValueError(f"ops.einsum: equation {equation!r} does not fit operands of shapes "
                         f"{[x.shape for x in xs]}: {e}") from None


# ------------------------------------------------------------------------------ dot products
def outer(input, vec2):
    """The outer product ``input[i] * vec2[j]`` of the two tensors, each flattened first."""
    a, b = as_tensor(input), as_tensor(vec2, 'vec2')
    check_size(None, (a.size, b.size), max(a._data.itemsize, b._data.itemsize))
    return mul(reshape(a, (-1, 1)), reshape(b, (-1,)))


ger = outer


def _pair_axes(axes, a, b):
    """tensor_dot's ``axes`` as two tuples of non-negative axes."""
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        n = int(axes)
        if not 0 <= n <= min(a.ndim, b.ndim):
            raise ValueError(f"ops.tensor_dot: axes {n} is out of range for shapes {a.shape} and "
                             f"{b.shape}")
        return tuple(range(a.ndim - n, a.ndim)), tuple(range(n))
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise TypeError(f"ops.tensor_dot: axes must be an int or a pair of axes or of tuples, "
                        f"got {axes!r}")
    pair = []
    for side, x in zip(axes, (a, b)):
        side = (side,) if isinstance(side, numbers.Integral) else tuple(side)
        for v in side:
            if not -x.ndim <= v < x.ndim:
                raise ValueError(f"ops.tensor_dot: axis {v} is out of range for shape {x.shape}")
        pair.append(tuple(int(v) % x.ndim for v in side))
    if len(pair[0]) != len(pair[1]):
        raise ValueError(f"ops.tensor_dot: axes {axes!r} pair {len(pair[0])} axes with "
                         f"{len(pair[1])}")
    return pair[0], pair[1]


def tensor_dot(x1, x2, axes):
    """Sum of products over the axes ``axes`` pairs (``np.tensordot``).

    ``axes`` is an int n (the last n axes of x1 with the first n of x2), a pair of ints, or a
    pair of tuples of axes.

    Raises:
        ValueError: when paired axes differ in length or an axis is out of range.
    """
    a, b = as_tensor(x1, 'x1'), as_tensor(x2, 'x2')
    ax_a, ax_b = _pair_axes(axes, a, b)
    for i, j in zip(ax_a, ax_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"ops.tensor_dot: axis {i} of shape {a.shape} and axis {j} of shape "
                             f"{b.shape} differ in length ({a.shape[i]} != {b.shape[j]})")
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [j for j in range(b.ndim) if j not in ax_b]
    k = int(np.prod([a.shape[i] for i in ax_a]))
    am = reshape(transpose(a, tuple(free_a) + ax_a), (-1, k))
    bm = reshape(transpose(b, ax_b + tuple(free_b)), (k, -1))
    y = matmul(am, bm)
    return reshape(y, tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b))


def dot(input, other):
    """Products summed over the last axis of ``input`` and the second-to-last of ``other``
    (both of rank >= 2, floating): the result has shape
    ``input.shape[:-1] + other.shape[:-2] + other.shape[-1:]``.

    Raises:
        TypeError: for non-floating inputs.
        ValueError: for a rank below 2 or lengths that differ.
    """
    a, b = as_tensor(input), as_tensor(other, 'other')
    for x in (a, b):
        if x._data.dtype.kind not in 'fV':
            raise TypeError(f"ops.dot: inputs must be floating tensors, got {x.dtype}")
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"ops.dot: inputs must have rank >= 2, got shapes {a.shape} and "
                         f"{b.shape}")
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"ops.dot: shapes {a.shape} and {b.shape} do not align "
                         f"({a.shape[-1]} != {b.shape[-2]})")
    return tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 2,)))


def inner(input, other):
    """Products summed over the last axis of both (a 0-d operand multiplies instead).

    Raises:
        ValueError: when the last axes differ in length.
    """
    a, b = as_tensor(input), as_tensor(other, 'other')
    if a.ndim == 0 or b.ndim == 0:
        return mul(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"ops.inner: the last axes of shapes {a.shape} and {b.shape} differ "
                         f"({a.shape[-1]} != {b.shape[-1]})")
    if a._data.dtype != b._data.dtype:
        dt = promote(a._data.dtype, b._data.dtype)
        a, b = cast(a, dt), cast(b, dt)
    return tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def kron(input, other):
    """The Kronecker product: block (i, j, ...) is ``input[i, j, ...] * other``."""
    a, b = as_tensor(input), as_tensor(other, 'other')
    n = max(a.ndim, b.ndim)
    sa = (1,) * (n - a.ndim) + a.shape
    sb = (1,) * (n - b.ndim) + b.shape
    check_size('kron', tuple(p * q for p, q in zip(sa, sb)),
               max(a._data.itemsize, b._data.itemsize))
    y = mul(reshape(a, tuple(d for s in sa for d in (s, 1))),
            reshape(b, tuple(d for s in sb for d in (1, s))))
    return reshape(y, tuple(p * q for p, q in zip(sa, sb)))


# ------------------------------------------------------------------------------ scaled forms
def _number(value, name, what):
    if isinstance(value, Tensor):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise TypeError(f"ops.{name}: {what} must be a number, got {value!r}")
    return value


def _scaled_sum(name, input, product, beta, alpha):
    """``beta * input + alpha * product`` (skipping the scalings by 1)."""
    beta, alpha = _number(beta, name, 'beta'), _number(alpha, name, 'alpha')
    x = as_tensor(input)
    if not isinstance(alpha, Tensor) and alpha == 1:
        scaled = product
    else:
        scaled = mul(product, alpha)
    if not isinstance(beta, Tensor) and beta == 1:
        base = x
    else:
        base = mul(x, beta)
    try:
        return add(base, scaled)
    except ValueError:
        raise ValueError(f"ops.{name}: input of shape {x.shape} does not broadcast to the "
                         f"product's shape {scaled.shape}") from None


def _rank(x, n, name, what):
    x = as_tensor(x, what)
    if x.ndim != n:
        raise ValueError(f"ops.{name}: {what} must be {n}-d, got shape {x.shape}")
    return x


def _aligned(name, a, b, ka, kb):
    if ka != kb:
        raise ValueError(f"ops.{name}: shapes {a.shape} and {b.shape} do not align ({ka} != {kb})")


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)`` for 2-d mat1 and mat2."""
    a, b = _rank(mat1, 2, 'addmm', 'mat1'), _rank(mat2, 2, 'addmm', 'mat2')
    _aligned('addmm', a, b, a.shape[1], b.shape[0])
    return _scaled_sum('addmm', input, matmul(a, b), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)`` for a 2-d mat and a 1-d vec."""
    a, v = _rank(mat, 2, 'addmv', 'mat'), _rank(vec, 1, 'addmv', 'vec')
    _aligned('addmv', a, v, a.shape[1], v.shape[0])
    return _scaled_sum('addmv', input, matmul(a, v), beta, alpha)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` for 3-d batches of matrices."""
    a, b = _rank(batch1, 3, 'baddbmm', 'batch1'), _rank(batch2, 3, 'baddbmm', 'batch2')
    _aligned('baddbmm', a, b, a.shape[2], b.shape[1])
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"ops.baddbmm: batch sizes of shapes {a.shape} and {b.shape} differ")
    return _scaled_sum('baddbmm', input, matmul(a, b), beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])`` for 3-d batches."""
    a, b = _rank(batch1, 3, 'addbmm', 'batch1'), _rank(batch2, 3, 'addbmm', 'batch2')
    _aligned('addbmm', a, b, a.shape[2], b.shape[1])
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"ops.addbmm: batch sizes of shapes {a.shape} and {b.shape} differ")
    return _scaled_sum('addbmm', input, _sum(matmul(a, b), 0), beta, alpha)


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``beta * x + alpha * outer(vec1, vec2)`` for 1-d vec1 and vec2."""
    a, b = _rank(vec1, 1, 'addr', 'vec1'), _rank(vec2, 1, 'addr', 'vec2')
    return _scaled_sum('addr', x, outer(a, b), beta, alpha)
