"""Matrix products: matmul (NumPy semantics), bmm and mm."""
import numpy as np

from ..kernels import threads as _threads
from ..autograd.function import Op, apply2
from ..autograd.math import array_math
from .._dtype import promote
from .._tensor import Tensor
from ._base import as_tensor, operands
from .arithmetic import cast


def _product_threads(a, b):
    """The BLAS thread count for ``a @ b`` (0: leave it, as for products with a vector)."""
    if a.ndim < 2 or b.ndim < 2:
        return 0
    return _threads.threads_for(*_threads.product_flops(a, b))


_LOW = _threads.LOW     # float16, bfloat16: products widened to float32 (threads.half_matmul)


def _threaded_matmul(a, b):
    """``array_math.matmul(a, b)`` (2-d or more) on the BLAS thread count for its size."""
    before = _threads.set_threads(_product_threads(a, b))
    try:
        return array_math.matmul(a, b)
    finally:
        _threads.set_threads(before)


def _mm(m):
    """The matmul of a backward: per-size threads on arrays, the op itself on Tensors."""
    return _threaded_matmul if m is array_math else m.matmul


def _swap(m, x):
    """``x`` with its last two axes exchanged (a view of an array)."""
    if type(x) is np.ndarray:
        return x.swapaxes(-1, -2)
    n = x.ndim
    return m.transpose(x, tuple(range(n - 2)) + (n - 1, n - 2))


class MatMul(Op):
    """y = a @ b with NumPy's rules: a 1-d operand is a vector, batch dimensions broadcast.

    Only the wanted gradients are computed (each is a matrix product). Batch dimensions that
    were broadcast come back in the broadcast shape; the engine sums them to the input's shape.
    """
    @staticmethod
    def forward(ctx, a, b):
        ctx.save(a, b)
        before = _threads.set_threads(_product_threads(a, b))
        try:
            y = np.matmul(a, b) if a.dtype not in _LOW else _threads.half_matmul(a, b)
            # two vectors give a NumPy scalar: make it a 0-d array
            return ctx.xp.asarray(y) if isinstance(y, np.generic) else y
        finally:
            _threads.set_threads(before)

    @staticmethod
    def backward(ctx, gy):
        a, b = ctx.saved
        m = ctx.m
        want_a = ctx.needs_grad(0)
        want_b = ctx.needs_grad(1)
        mm = _mm(m)
        if a.ndim == 2 and b.ndim == 2:         # the common case first
            return (mm(gy, _swap(m, b)) if want_a else None), \
                (mm(_swap(m, a), gy) if want_b else None)
        ga = gb = None
        if a.ndim == 1 and b.ndim == 1:         # a dot product: gy is 0-d
            return (gy * b if want_a else None), (gy * a if want_b else None)
        if a.ndim == 1:                         # y[..., j] = sum_i a_i b[..., i, j]
            k = a.shape[0]
            if b.ndim == 2:
                if want_a:
                    ga = m.matmul(b, gy)            # a vector: OpenBLAS's own count
                if want_b:
                    gb = m.reshape(a, (k, 1)) * gy
            else:
                if want_a:
                    ga = m.matmul(m.reshape(gy, (-1,)), m.reshape(_swap(m, b), (-1, k)))
                if want_b:
                    gb = m.reshape(a, (k, 1)) * m.reshape(gy, gy.shape[:-1] + (1, gy.shape[-1]))
            return ga, gb
        if b.ndim == 1:                         # y[..., n] = sum_k a[..., n, k] b_k
            k = b.shape[0]
            if want_a:
                ga = m.reshape(gy, gy.shape + (1,)) * b
            if want_b:
                gb = m.matmul(m.reshape(gy, (-1,)), m.reshape(a, (-1, k)))
            return ga, gb
        if want_a:
            ga = mm(gy, _swap(m, b))
        if want_b:
            if b.ndim == 2 and a.ndim > 2:      # fold a's batch into one product, no batch sum
                k = a.shape[-1]
                gb = mm(m.transpose(m.reshape(a, (-1, k)), (1, 0)),
                        m.reshape(gy, (-1, gy.shape[-1])))
            else:
                gb = mm(_swap(m, a), gy)
        return ga, gb


class Dense(Op):
    """y = x @ w.T (+ b) over the last axis of x: the linear layer as one node.

    gx = gy @ w, gw = gy.T @ x with x's leading axes folded into one product, gb = gy summed
    to the bias's shape (by the engine). A 1-d w is one output unit: y = x @ w.
    """
    @staticmethod
    def forward(ctx, x, w, *bias):
        if w.ndim == 2 and x.ndim > 1:
            y = _threads.matmul(x, w.T)
        else:
            y = np.matmul(x, w.T) if x.dtype not in _LOW else _threads.half_matmul(x, w.T)
        if bias:
            y = y + bias[0]
        if ctx.recording:
            ctx.save(x, w)
            ctx.has_bias = bool(bias)
        return ctx.xp.asarray(y) if isinstance(y, np.generic) else y

    @staticmethod
    def backward(ctx, gy):
        x, w = ctx.saved
        m = ctx.m
        k = x.shape[-1]
        gx = gw = None
        if w.ndim == 1:
            if ctx.needs_grad(0):
                gx = m.reshape(gy, gy.shape + (1,)) * w
            if ctx.needs_grad(1):
                gw = m.matmul(m.reshape(gy, (-1,)), m.reshape(x, (-1, k)))
        else:
            mm = _mm(m) if x.ndim > 1 else m.matmul
            if ctx.needs_grad(0):
                gx = mm(gy, w)
            if ctx.needs_grad(1):
                g2 = m.reshape(gy, (-1, w.shape[0]))
                gw = mm(m.transpose(g2, (1, 0)), m.reshape(x, (-1, k)))
        if not ctx.has_bias:
            return gx, gw
        return gx, gw, (gy if ctx.needs_grad(2) else None)


def _align_error(name, a, b, ka, kb):
    return ValueError(f"ops.{name}: shapes {a.shape} and {b.shape} do not align ({ka} != {kb})")


def _product(a, b):
    if a._data.dtype is not b._data.dtype:
        a, b = operands(a, b)
    return apply2(MatMul, a, b)


def matmul(input, other):
    """Matrix product with NumPy's rules: 1-d operands are vectors, batch dimensions broadcast.

    Raises:
        ValueError: when an operand is 0-d, the contracted lengths differ, or the batch
            dimensions cannot broadcast (the message names both shapes).

    >>> import hookgrad as ms
    >>> ms.ops.matmul(ms.Tensor([[1.0, 2.0]]), ms.Tensor([3.0, 4.0]))
    Tensor(shape=[1], dtype=Float32, value= [ 1.10000000e+01])
    """
    a, b = as_tensor(input), as_tensor(other, 'other')
    sa, sb = a._data.shape, b._data.shape
    if not sa or not sb:
        raise ValueError(f"ops.matmul: operands must be at least 1-d, got shapes {sa} and {sb}")
    ka, kb = sa[-1], (sb[-2] if len(sb) > 1 else sb[0])
    if ka != kb:
        raise _align_error('matmul', a, b, ka, kb)
    try:
        return _product(a, b)
    except ValueError:
        raise ValueError(f"ops.matmul: batch dimensions of shapes {a.shape} and {b.shape} "
                         f"cannot be broadcast together") from None


def dense(input, weight, bias=None):
    """The linear layer: ``input @ weight.T + bias`` over the last axis of ``input``.

    Args:
        input (Tensor): shape (..., in_channels).
        weight (Tensor): shape (out_channels, in_channels), or (in_channels,) for one output.
        bias (Tensor, optional): shape (out_channels,) or (). Default None: no bias.

    Raises:
        TypeError: an argument is not a Tensor.
        ValueError: the shapes do not fit (the message names them).

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[-1., 1., 2.], [-3., -3., 1.]])
    >>> w = ms.Tensor([[-2., -2., -2.], [0., -1., 0.]])
    >>> print(ms.ops.dense(x, w, ms.Tensor([0., 1.])))
    [[-4.  0.]
     [10.  4.]]
    """
    for arg, value in (('input', input), ('weight', weight), ('bias', bias)):
        if not isinstance(value, Tensor) and not (arg == 'bias' and value is None):
            raise TypeError(f"ops.dense: {arg} must be a Tensor, got {type(value).__name__}")
    sx, sw = input.shape, weight.shape
    if not sx or weight.ndim not in (1, 2) or sw[-1] != sx[-1]:
        raise ValueError(f"ops.dense: input of shape {sx} does not fit weight of shape {sw} "
                         f"(expected (*, in_channels) and (out_channels, in_channels) or "
                         f"(in_channels,))")
    xs = [input, weight]
    if bias is not None:
        out = sw[:1] if weight.ndim == 2 else ()
        if bias.shape not in (out, ()):
            raise ValueError(f"ops.dense: bias of shape {bias.shape} does not fit weight of "
                             f"shape {sw} (expected {out} or ())")
        xs.append(bias)
    dtype = xs[0]._data.dtype
    for t in xs[1:]:
        dtype = promote(dtype, t._data.dtype)
    return Dense.apply(*[t if t._data.dtype == dtype else cast(t, dtype) for t in xs])


def bmm(input_x, mat2):
    """Batched matrix product: both operands at least 2-d with the same batch dimensions
    (MindSpore's BatchMatMul on the CPU broadcasts none), ``(*B, n, k) @ (*B, k, m)``.

    Raises:
        ValueError: when an operand is below 2-d, the batch dimensions differ or the shapes do
            not align (the message names both shapes).
    """
    a, b = as_tensor(input_x, 'input_x'), as_tensor(mat2, 'mat2')
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"ops.bmm: expected tensors of at least 2 dimensions, got shapes "
                         f"{a.shape} and {b.shape}")
    if a.shape[:-2] != b.shape[:-2]:
        raise ValueError(f"ops.bmm: shapes {a.shape} and {b.shape} have different batch "
                         f"dimensions ({a.shape[:-2]} != {b.shape[:-2]})")
    if a.shape[-1] != b.shape[-2]:
        raise _align_error('bmm', a, b, a.shape[-1], b.shape[-2])
    return _product(a, b)


def mm(input, mat2):
    """Matrix product of two 2-d tensors.

    Raises:
        ValueError: when an operand is not 2-d or the shapes do not align.
    """
    a, b = as_tensor(input), as_tensor(mat2, 'mat2')
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"ops.mm: expected two 2-d tensors, got shapes {a.shape} and {b.shape}")
    if a.shape[1] != b.shape[0]:
        raise _align_error('mm', a, b, a.shape[1], b.shape[0])
    return _product(a, b)
