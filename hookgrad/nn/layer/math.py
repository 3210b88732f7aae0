"""Math layers: MatMul, Tril, Triu, Roll, Norm, OneHot, Range, ReduceLogSumExp, ClipByNorm,
Moments, MatrixDiag, MatrixDiagPart, MatrixSetDiag, MatDet and MatInverse (MindSpore 2.x
signatures); each composes the functional ops of ``hookgrad.ops``.
"""
import numpy as np

from ... import ops
from ..._tensor import Tensor
from ..cell import Cell
from ... import _dtype
from ...ops.conv import _is_int

__all__ = ['MatMul', 'Tril', 'Triu', 'Roll', 'Norm', 'OneHot', 'Range', 'ReduceLogSumExp',
           'ClipByNorm', 'Moments', 'MatrixDiag', 'MatrixDiagPart', 'MatrixSetDiag', 'MatDet',
           'MatInverse']


def _bool_arg(value, cell, arg):
    if not isinstance(value, bool):
        raise TypeError(f"nn.{cell}: {arg} must be a bool, got {value!r}")
    return value


class MatMul(Cell):
    """Matrix product of the last two dimensions with broadcast batch dimensions (MindSpore's
    deprecated ``nn.MatMul``; ``ops.matmul`` is the function).

    A 1-d operand is a vector (its transpose flag is ignored); two 1-d operands give their dot
    product.

    Args:
        transpose_x1: transpose the last two dimensions of ``x1`` first. Default False.
        transpose_x2: transpose the last two dimensions of ``x2`` first. Default False.

    Inputs:
        x1, x2: Tensors whose (transposed) inner dimensions agree.

    Raises:
        TypeError: for a non-bool flag.
        ValueError: when the inner dimensions differ (MindSpore's message).

    >>> import hookgrad as ms
    >>> ms.nn.MatMul(transpose_x2=True)(ms.ops.ones((2, 3)), ms.ops.ones((4, 3))).shape
    (2, 4)
    """

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        self.transpose_x1 = _bool_arg(transpose_x1, 'MatMul', 'transpose_x1')
        self.transpose_x2 = _bool_arg(transpose_x2, 'MatMul', 'transpose_x2')

    def construct(self, x1, x2):
        for arg, x in (('x1', x1), ('x2', x2)):
            if not isinstance(x, Tensor):
                raise TypeError(f"nn.MatMul: {arg} must be a Tensor, got {type(x).__name__}")
        t1 = self.transpose_x1 and x1.ndim > 1
        t2 = self.transpose_x2 and x2.ndim > 1
        s1 = (1,) + x1.shape if x1.ndim == 1 else x1.shape
        s2 = x2.shape + (1,) if x2.ndim == 1 else x2.shape
        col, row = s1[-2] if t1 else s1[-1], s2[-1] if t2 else s2[-2]
        if col != row:
            raise ValueError(f"For 'MatMul', the column of matrix dimensions of 'x1' must be "
                             f"equal to the row of matrix dimensions of 'x2', but got 'x1_col' "
                             f"{col} and 'x2_row' {row}.")
        return ops.matmul(_swap_last(x1) if t1 else x1, _swap_last(x2) if t2 else x2)


def _swap_last(x):
    """``x`` with its last two dimensions swapped."""
    nd = x.ndim
    return ops.transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def _tensor(cell, x, arg='x'):
    if not isinstance(x, Tensor):
        raise TypeError(f"nn.{type(cell).__name__}: {arg} must be a Tensor, got "
                        f"{type(x).__name__}")
    return x


def _floating(cell, x):
    _tensor(cell, x)
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"nn.{type(cell).__name__}: expected a floating input, got dtype "
                        f"{x.dtype}")
    return x


def _axes(value, cell, arg='axis', allow_list=True):
    """An int or a tuple (or list) of ints; () means every axis."""
    kinds = (tuple, list) if allow_list else (tuple,)
    if _is_int(value):
        return int(value)
    if isinstance(value, kinds) and all(_is_int(v) for v in value):
        return tuple(int(v) for v in value)
    raise TypeError(f"nn.{cell}: {arg} must be an int or a tuple of ints, got {value!r}")


def _reduce_axes(axis):
    """None for every axis (an empty tuple), else a tuple."""
    if isinstance(axis, tuple):
        return axis or None
    return (axis,)


def _bool(value, cell, arg):
    if not isinstance(value, bool):
        raise TypeError(f"nn.{cell}: {arg} must be a bool, got {value!r}")
    return value


class Tril(Cell):
    """The lower triangle of the last two axes: entries above diagonal ``k`` set to zero.

    Inputs:
        x: a Tensor with at least 2 axes.
        k: the diagonal, an int (0 the main one, > 0 above it). Default 0.

    >>> import hookgrad as ms
    >>> ms.nn.Tril()(ms.ops.ones((2, 2))).asnumpy().tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """

    def construct(self, x, k=0):
        return ops.tril(_tensor(self, x), k)


class Triu(Cell):
    """The upper triangle of the last two axes: entries below diagonal ``k`` set to zero.

    Inputs:
        x: a Tensor with at least 2 axes.
        k: the diagonal, an int (0 the main one, < 0 below it). Default 0.
    """

    def construct(self, x, k=0):
        return ops.triu(_tensor(self, x), k)


class Roll(Cell):
    """Roll the input along ``axis`` by ``shift`` (elements leaving one end enter at the
    other).

    Args:
        shift: an int or a tuple/list of ints, one per axis.
        axis: an int or a tuple/list of ints, as many as shifts.

    Raises:
        TypeError: for shifts or axes that are not ints.
        ValueError: for different numbers of shifts and axes.

    >>> import hookgrad as ms
    >>> ms.nn.Roll(1, 0)(ms.Tensor([1, 2, 3])).asnumpy().tolist()
    [3, 1, 2]
    """

    def __init__(self, shift, axis):
        super().__init__()
        shifts = _axes(shift, 'Roll', 'shift')
        axes = _axes(axis, 'Roll')
        self.shift = list(shifts) if isinstance(shifts, tuple) else [shifts]
        self.axis = list(axes) if isinstance(axes, tuple) else [axes]
        if len(self.shift) != len(self.axis):
            raise ValueError(f"nn.Roll: shift and axis must have the same length, got "
                             f"{len(self.shift)} shift(s) and {len(self.axis)} axis(es)")

    def construct(self, input_x):
        return ops.roll(_tensor(self, input_x, 'input_x'), tuple(self.shift), tuple(self.axis))


class Norm(Cell):
    """The Euclidean norm ``sqrt(sum(x ** 2))`` over ``axis``.

    Args:
        axis: an int or a tuple of ints; () (default) reduces every axis.
        keep_dims: keep the reduced axes with length 1. Default False.

    Raises:
        TypeError: for a bad axis or a non-bool keep_dims.

    >>> import hookgrad as ms
    >>> ms.nn.Norm()(ms.Tensor([3.0, 4.0])).asnumpy().tolist()
    5.0
    """

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        self.axis = _axes(axis, 'Norm', allow_list=False)
        self.keep_dims = _bool(keep_dims, 'Norm', 'keep_dims')

    def construct(self, x):
        x = _tensor(self, x)
        return ops.sqrt(ops.sum(ops.square(x), _reduce_axes(self.axis), self.keep_dims))

    def extend_repr(self):
        return f"axis={self.axis}, keep_dims={self.keep_dims}"


class OneHot(Cell):
    """One-hot encoding: a new axis ``axis`` of length ``depth`` holding ``on_value`` at each
    index and ``off_value`` elsewhere (out-of-range indices give all ``off_value``).

    Args:
        axis: where the new axis goes, -1 (default, last) or an axis of the output.
        depth: the number of classes, an int >= 1. Default 1.
        on_value, off_value: the two values. Defaults 1.0 and 0.0.
        dtype: the output dtype. Default ``ms.float32``.

    Inputs:
        indices: an integer Tensor.

    Raises:
        TypeError / ValueError: for a bad depth, or (at call time) non-integer indices.

    >>> import hookgrad as ms
    >>> ms.nn.OneHot(depth=3)(ms.Tensor([2, 0])).asnumpy().tolist()
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=_dtype.float32):
        super().__init__()
        if not _is_int(axis):
            raise TypeError(f"nn.OneHot: axis must be an int, got {axis!r}")
        if not _is_int(depth):
            raise TypeError(f"nn.OneHot: depth must be an int, got {depth!r}")
        if depth < 1:
            raise ValueError(f"nn.OneHot: depth must be >= 1, got {depth}")
        self.axis, self.depth = int(axis), int(depth)
        self.on_value, self.off_value = on_value, off_value
        self.dtype = dtype

    def construct(self, indices):
        x = _tensor(self, indices, 'indices')
        if x._data.dtype.kind not in 'iu':
            raise TypeError(f"nn.OneHot: indices must be an integer Tensor, got dtype {x.dtype}")
        on = ops.cast(Tensor(self.on_value), self.dtype)
        off = ops.cast(Tensor(self.off_value), self.dtype)
        return ops.one_hot(x, self.depth, on, off, self.axis)


class Range(Cell):
    """A constant Tensor ``[start, start + delta, ...)`` below ``limit`` (``Range(n)``: 0 to
    n - 1): Int32 when every argument is an int, else Float32.

    Args:
        start: the first value; the limit when ``limit`` is None.
        limit: the (excluded) end. Default None.
        delta: the step, not 0. Default 1.

    Raises:
        ValueError: for delta 0.

    >>> import hookgrad as ms
    >>> ms.nn.Range(1, 8, 2)()
    Tensor(shape=[4], dtype=Int32, value= [1, 3, 5, 7])
    """

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if delta == 0:
            raise ValueError("nn.Range: delta can not be zero")
        data = np.arange(start, limit, delta)
        self.result_tensor = Tensor(data.astype(np.float32 if data.dtype.kind in 'fV'
                                                else np.int32))

    def construct(self):
        return self.result_tensor


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x)))`` over ``axis``, computed stably.

    Args:
        axis: an int, or a tuple/list of ints; () reduces every axis.
        keep_dims: keep the reduced axes with length 1. Default False.

    Raises:
        TypeError: for a bad axis, a non-bool keep_dims or a non-floating input.

    >>> import hookgrad as ms
    >>> round(float(ms.nn.ReduceLogSumExp(0)(ms.Tensor([0.0, 0.0]))), 4)
    0.6931
    """

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        self.axis = _axes(axis, 'ReduceLogSumExp')
        self.keep_dims = _bool(keep_dims, 'ReduceLogSumExp', 'keep_dims')

    def construct(self, x):
        x = _floating(self, x)
        axes = _reduce_axes(self.axis)
        return ops.logsumexp(x, tuple(range(x.ndim)) if axes is None else axes,
                             self.keep_dims)


class ClipByNorm(Cell):
    """Rescale ``x`` so that its L2 norm over ``axis`` is at most ``clip_norm``:
    ``x * clip_norm / max(norm, clip_norm)``.

    Args:
        axis: None (default: the norm of the whole tensor), an int or a tuple of ints.

    Inputs:
        x: a floating Tensor.
        clip_norm: a positive number or a Tensor broadcastable to the norm's shape (with the
            reduced axes kept).

    Raises:
        TypeError: for a bad axis or a non-floating input.

    >>> import hookgrad as ms
    >>> ms.nn.ClipByNorm()(ms.Tensor([3.0, 4.0]), ms.Tensor(1.0)).asnumpy().tolist()
    [0.6000000238418579, 0.800000011920929]
    """

    def __init__(self, axis=None):
        super().__init__()
        self.axis = None if axis is None else _axes(axis, 'ClipByNorm')

    def construct(self, x, clip_norm):
        x = _floating(self, x)
        axes = None if self.axis is None else _reduce_axes(self.axis)
        norm = ops.sqrt(ops.sum(ops.square(x), axes, True))
        if not isinstance(clip_norm, Tensor):
            clip_norm = Tensor(clip_norm)
        clip = ops.cast(clip_norm, x.dtype)
        return x * clip / ops.maximum(norm, clip)


class Moments(Cell):
    """The mean and the (biased) variance of ``x`` over ``axis``, as a pair.

    Args:
        axis: None or () (every axis), an int or a tuple of ints. Default None.
        keep_dims: keep the reduced axes with length 1; None means False.

    Raises:
        TypeError: for a bad axis or keep_dims, or a non-floating input.

    >>> import hookgrad as ms
    >>> mean, var = ms.nn.Moments()(ms.Tensor([1.0, 3.0]))
    >>> float(mean), float(var)
    (2.0, 1.0)
    """

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        self.axis = () if axis is None else _axes(axis, 'Moments', allow_list=False)
        self.keep_dims = False if keep_dims is None else _bool(keep_dims, 'Moments',
                                                               'keep_dims')

    def construct(self, x):
        x = _floating(self, x)
        axes = _reduce_axes(self.axis)
        mean = ops.mean(x, axes, True)
        # as MindSpore, the variance's gradient does not flow back through the mean
        variance = ops.mean(ops.square(x - ops.stop_gradient(mean)), axes, self.keep_dims)
        return ops.reshape(mean, variance.shape), variance


class MatrixDiag(Cell):
    """Batched diagonal matrices: (..., n) into (..., n, n) with the input on the diagonal.

    >>> import hookgrad as ms
    >>> ms.nn.MatrixDiag()(ms.Tensor([1.0, 2.0])).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """

    def construct(self, input_x):
        x = _tensor(self, input_x, 'input_x')
        if x.ndim < 1:
            raise ValueError(f"nn.MatrixDiag: input_x must have at least 1 axis, got shape "
                             f"{x.shape}")
        return ops.diag_embed(x)


class MatrixDiagPart(Cell):
    """The main diagonals of a batch of matrices: (..., m, n) into (..., min(m, n))."""

    def construct(self, input_x):
        x = _tensor(self, input_x, 'input_x')
        if x.ndim < 2:
            raise ValueError(f"nn.MatrixDiagPart: input_x must have at least 2 axes, got "
                             f"shape {x.shape}")
        return ops.diagonal(x, 0, -2, -1)


class MatrixSetDiag(Cell):
    """A batch of matrices (..., m, n) with their main diagonals replaced by ``diagonal``
    (..., min(m, n)).

    Raises:
        ValueError: for an x with fewer than 2 axes or a diagonal of another shape.

    >>> import hookgrad as ms
    >>> ms.nn.MatrixSetDiag()(ms.ops.zeros((2, 3)), ms.Tensor([1.0, 2.0])).asnumpy().tolist()
    [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    """

    def construct(self, input_x, diagonal):
        x = _tensor(self, input_x, 'input_x')
        d = _tensor(self, diagonal, 'diagonal')
        if x.ndim < 2:
            raise ValueError(f"nn.MatrixSetDiag: input_x must have at least 2 axes, got shape "
                             f"{x.shape}")
        m, n = x.shape[-2:]
        k = min(m, n)
        if d.shape != x.shape[:-2] + (k,):
            raise ValueError(f"nn.MatrixSetDiag: diagonal must have shape "
                             f"{x.shape[:-2] + (k,)} for input_x of shape {x.shape}, got "
                             f"{d.shape}")
        embedded = ops.diag_embed(ops.cast(d, x.dtype))
        if (m, n) != (k, k):
            embedded = ops.pad(embedded, (0, n - k, 0, m - k))
        on_diagonal = Tensor(np.eye(m, n, dtype=bool))
        return ops.where(on_diagonal, embedded, x)


def _positive_definite(cell, a):
    """a checked: a floating Tensor (..., n, n)."""
    _floating(cell, a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"nn.{type(cell).__name__}: expected square matrices (..., n, n), got "
                         f"shape {a.shape}")
    return a


def _cholesky(a):
    """The lower Cholesky factor L (a = L L^T) of positive-definite matrices, one column per
    step (each step vectorized over the batch and the rows); not positive definite: NaN."""
    n = a.shape[-1]
    cols = []
    for j in range(n):
        v = a[..., :, j]
        if cols:
            done = ops.stack(cols, -1)                               # (..., n, j)
            v = v - ops.sum(done * ops.expand_dims(done[..., j, :], -2), -1)
        below = Tensor(np.arange(n) >= j).astype(a.dtype)
        cols.append(v / ops.sqrt(v[..., j:j + 1]) * below)
    return ops.stack(cols, -1)


def _lower_inverse(low):
    """The inverse of lower-triangular matrices by forward substitution, one row per step."""
    n = low.shape[-1]
    eye = Tensor(np.eye(n)).astype(low.dtype)
    rows = []
    for i in range(n):
        r = eye[i]
        if rows:
            done = ops.stack(rows, -2)                               # (..., i, n)
            r = r - ops.sum(ops.expand_dims(low[..., i, :i], -1) * done, -2)
        rows.append(r / low[..., i, i:i + 1])
    return ops.stack(rows, -2)


class MatDet(Cell):
    """Determinants of positive-definite matrices (..., n, n), as MindSpore computes them:
    the squared product of the Cholesky factor's diagonal (other matrices give NaN).

    Raises:
        TypeError: for a non-floating input.
        ValueError: for matrices that are not square.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[4.0, 12.0, -16.0], [12.0, 37.0, -43.0], [-16.0, -43.0, 98.0]])
    >>> round(float(ms.nn.MatDet()(x)), 3)
    36.0
    """

    def construct(self, a):
        low = _cholesky(_positive_definite(self, a))
        return ops.square(ops.prod(ops.diagonal(low, 0, -2, -1), -1))


class MatInverse(Cell):
    """Inverses of positive-definite matrices (..., n, n), as MindSpore computes them:
    ``inv(L)^T inv(L)`` for the Cholesky factor L (other matrices give NaN).

    Raises:
        TypeError: for a non-floating input.
        ValueError: for matrices that are not square.
    """

    def construct(self, a):
        inv = _lower_inverse(_cholesky(_positive_definite(self, a)))
        nd = inv.ndim
        return ops.matmul(ops.transpose(inv, tuple(range(nd - 2)) + (nd - 1, nd - 2)), inv)
