"""Pooling: ``max_pool2d``, ``avg_pool2d`` and ``adaptive_avg_pool2d`` (NCHW, MindSpore 2.x).

Windows are strided views of the padded input. Max pooling takes the maximum over the kh*kw
kernel offsets' strided slices (whole-array passes, no window copies) and records, per output,
the first offset holding it, whose position receives the gradient. Average pooling adds
the kh*kw strided slices and divides by the window's divisor; its gradient adds gy / divisor
back slice by slice (a loop over kernel offsets, each a whole-array operation). The backward
rules are linear in the incoming gradient and are written so that they also record on Tensors.
Adaptive average pooling is composed of means and matrix products.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op
from ..kernels.backend import array_module, device_of, to_device
from ..kernels.pooling import (alike, crop, first_maximum, like, offset_slice, padded,
                               max_scatter, max_windows, tiles_apart,
                               padded_shape, pool_out_length, window_scatter, window_sum)
from ._base import as_tensor
from .conv import as_ints, _is_int
from .linalg import matmul
from .reduction import mean
from .shaping import reshape, transpose

__all__ = ['max_pool2d', 'avg_pool2d', 'adaptive_avg_pool2d']


# ------------------------------------------------------------------------------ ops
class MaxPool2D(Op):
    """y = the maximum of each window; with ``return_indices`` also the flat (H*W) index of
    that maximum in the input. The gradient goes to the first maximum of each window (the
    first NaN where a window holds one, as NaN is its maximum)."""
    @staticmethod
    def forward(ctx, x, *, kernel_size, stride, padding, dilation, out_size, return_indices):
        p = {'kernel_size': kernel_size, 'stride': stride, 'padding': padding,
             'dilation': dilation, 'out_size': out_size}
        fill = -np.inf if x.dtype.kind in 'fV' else np.iinfo(x.dtype).min
        xpad = padded(x, p, fill)
        kh, kw = kernel_size
        if type(x) is not np.ndarray:               # a device: one copy, two reductions
            y, k = max_windows(xpad, p)
        else:
            views = [xpad[offset_slice(t // kw, t % kw, p)] for t in range(kh * kw)]
            y = np.copy(views[0])                   # keeps x's layout
            for v in views[1:]:
                np.maximum(y, v, out=y)
            if ctx.recording or return_indices:
                k = first_maximum(views, y)
        if ctx.recording:
            ctx.save(k)
            ctx.p, ctx.in_shape, ctx.like = p, x.shape, xpad
        if not return_indices:
            return y
        k = k.astype(np.int64)
        arange = ctx.xp.arange
        rows = arange(out_size[0])[:, None] * stride[0] + (k // kw) * dilation[0] - padding[0]
        cols = arange(out_size[1]) * stride[1] + (k % kw) * dilation[1] - padding[2]
        return y, rows * x.shape[3] + cols

    @staticmethod
    def backward(ctx, gy, gindices=None):
        """gy scattered to each window's maximum by one (recorded) indexed add."""
        # constant window positions (a Tensor on the graph path)
        k = ctx.saved[0]
        k = (k._data if isinstance(k, Tensor) else k).astype(np.intp)
        arange = array_module(k).arange
        p, shape = ctx.p, ctx.in_shape
        kw = p['kernel_size'][1]
        n, c, ho, wo = k.shape
        key = (arange(n)[:, None, None, None], arange(c)[:, None, None],
               arange(ho)[:, None] * p['stride'][0] + (k // kw) * p['dilation'][0],
               arange(wo) * p['stride'][1] + (k % kw) * p['dilation'][1])
        return ctx.m.getitem(ctx.m.unindex(gy, padded_shape(shape, p), key), crop(shape, p))

    @staticmethod
    def backward_arrays(ctx, gy, gindices=None):
        """gy placed kernel offset by kernel offset (kh*kw whole-array passes), in the
        input's layout; windows that tile the input are written once, others added."""
        (k,) = ctx.saved
        p, shape = ctx.p, ctx.in_shape
        kh, kw = p['kernel_size']
        if type(k) is not np.ndarray and tiles_apart(p):
            return max_scatter(gy, k, padded_shape(shape, p), p)[crop(shape, p)]
        gx = alike(padded_shape(shape, p), ctx.like, gy.dtype)
        gy = like(gy, k)
        ho, wo = p['out_size']
        tiles = p['stride'] == p['kernel_size'] and p['dilation'] == (1, 1) and \
            gx.shape[2:] == (ho * kh, wo * kw)
        if not tiles:
            gx.fill(0)
        at = np.empty_like(k, dtype=np.bool_)
        for t in range(kh * kw):
            target = gx[offset_slice(t // kw, t % kw, p)]
            np.equal(k, t, out=at)
            if tiles:
                np.multiply(gy, at, out=target)
            else:
                target += gy * at
        return gx[crop(shape, p)]


class AvgPool2D(Op):
    """y = the sum of each window divided by ``divisor`` (per output position or one number);
    the gradient adds gy / divisor to every element of the window."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, *, kernel_size, stride, padding, out_size, divisor):
        p = _avg_params(kernel_size, stride, padding, out_size, divisor)
        if ctx.recording:
            ctx.p, ctx.in_shape = p, x.shape
        y = window_sum(x, p)
        y /= divisor
        return y

    @staticmethod
    def backward(ctx, gy):
        return AvgPool2DGrad.apply(gy, input_size=ctx.in_shape[2:], **_public(ctx.p))

    @staticmethod
    def backward_arrays(ctx, gy):
        return window_scatter(gy / ctx.p['divisor'], ctx.in_shape, ctx.p)


class AvgPool2DGrad(Op):
    """gx = the input gradient of average pooling for gy (the adjoint of AvgPool2D)."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, gy, *, input_size, kernel_size, stride, padding, out_size, divisor):
        p = _avg_params(kernel_size, stride, padding, out_size, divisor)
        if ctx.recording:
            ctx.p = p
        return window_scatter(gy / divisor, gy.shape[:2] + tuple(input_size), p)

    @staticmethod
    def backward(ctx, ggx):
        return AvgPool2D.apply(ggx, **_public(ctx.p))

    @staticmethod
    def backward_arrays(ctx, ggx):
        y = window_sum(ggx, ctx.p)
        y /= ctx.p['divisor']
        return y


def _avg_params(kernel_size, stride, padding, out_size, divisor):
    return {'kernel_size': kernel_size, 'stride': stride, 'padding': padding,
            'out_size': out_size, 'divisor': divisor, 'dilation': (1, 1)}


def _public(p):
    return {k: v for k, v in p.items() if k != 'dilation'}


# ------------------------------------------------------------------------------ arguments
def _pool_input(x, where, kinds='fV'):
    x = as_tensor(x)
    if x.ndim != 4:
        raise ValueError(f"{where}: input must be 4-d (N, C, H, W), got shape {x.shape}")
    if x._data.dtype.kind not in kinds:
        expected = 'a floating' if kinds == 'fV' else 'a real number'
        raise TypeError(f"{where}: expected {expected} tensor, got dtype {x.dtype}")
    return x


def _flag(value, where, arg):
    if not isinstance(value, bool):
        raise TypeError(f"{where}: {arg} must be a bool, got {value!r}")
    return value


def _out_size(x, kernel, stride, pads, dilation, ceil_mode, where):
    h, w = x.shape[2:]
    ho = pool_out_length(h, kernel[0], stride[0], pads[0], pads[1], dilation[0], ceil_mode)
    wo = pool_out_length(w, kernel[1], stride[1], pads[2], pads[3], dilation[1], ceil_mode)
    if ho < 1 or wo < 1:
        raise ValueError(f"{where}: the kernel {kernel} (dilation {dilation}) does not fit the "
                         f"padded input {(h + pads[0] + pads[1], w + pads[2] + pads[3])}")
    return ho, wo


def _check_half_kernel(pads, kernel, dilation, where):
    """Each window must hold input values: padding at most half the (dilated) kernel."""
    for pad, k, d, side in zip(pads, (kernel[0], kernel[0], kernel[1], kernel[1]),
                               (dilation[0], dilation[0], dilation[1], dilation[1]),
                               ('top', 'bottom', 'left', 'right')):
        if pad > (d * (k - 1) + 1) // 2:
            raise ValueError(f"{where}: padding ({side}) {pad} is more than half the kernel "
                             f"size {d * (k - 1) + 1}")


def max_pool(x, kernel, stride, pads, dilation, ceil_mode, return_indices, where):
    """Max pooling of a checked 4-d tensor with explicit (top, bottom, left, right) padding."""
    out = _out_size(x, kernel, stride, pads, dilation, ceil_mode, where)
    r = MaxPool2D.apply(x, kernel_size=kernel, stride=stride, padding=pads, dilation=dilation,
                        out_size=out, return_indices=return_indices)
    if return_indices:
        return r[0], Tensor._wrap(r[1]._data)
    return r


def avg_pool(x, kernel, stride, pads, ceil_mode, count_include_pad, divisor_override, where):
    """Average pooling of a checked 4-d tensor with explicit padding. The divisor is
    ``divisor_override`` when given, else the window's size clipped to the padded input
    (``count_include_pad``) or its number of input elements."""
    out = _out_size(x, kernel, stride, pads, (1, 1), ceil_mode, where)
    if divisor_override:
        divisor = float(divisor_override)
    else:
        h, w = x.shape[2:]
        rows = _window_counts(h, kernel[0], stride[0], pads[0], pads[1], out[0],
                              count_include_pad)
        cols = _window_counts(w, kernel[1], stride[1], pads[2], pads[3], out[1],
                              count_include_pad)
        divisor = to_device(np.outer(rows, cols).astype(x._data.dtype), device_of(x._data))
    return AvgPool2D.apply(x, kernel_size=kernel, stride=stride, padding=pads, out_size=out,
                           divisor=divisor)


def _window_counts(size, kernel, stride, before, after, out, include_pad):
    start = np.arange(out) * stride - before
    end = np.minimum(start + kernel, size + after)
    if include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


def _symmetric_padding(padding, where):
    pad = as_ints(padding, 2, where, 'padding', minimum=0)
    return (pad[0], pad[0], pad[1], pad[1])


# ------------------------------------------------------------------------------ public
def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    """2-d max pooling of an (N, C, H, W) tensor; padding counts as -infinity.

    Args:
        kernel_size, dilation: an int or a pair (height, width), each >= 1.
        stride: an int or a pair; None (default) is ``kernel_size``.
        padding: an int or a pair, added on both sides; at most half the dilated kernel.
        return_indices: also return the Int64 position of each maximum in its (H, W) plane.
        ceil_mode: round the output size up (a last partial window is kept).
    Returns:
        Tensor (N, C, H_out, W_out), or ``(output, indices)``.
    Raises:
        ValueError: for a wrong rank, sizes < 1, padding above half the kernel, or a kernel
            larger than the padded input. TypeError: for a Bool input or malformed arguments.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[[[1.0, 2.0], [4.0, 3.0]]]])
    >>> y, i = ms.ops.max_pool2d(x, 2, return_indices=True)
    >>> y.asnumpy().tolist(), i.asnumpy().tolist()
    ([[[[4.0]]]], [[[[2]]]])
    """
    where = 'ops.max_pool2d'
    x = _pool_input(x, where, 'fiuV')
    kernel = as_ints(kernel_size, 2, where, 'kernel_size')
    stride = kernel if stride is None else as_ints(stride, 2, where, 'stride')
    dilation = as_ints(dilation, 2, where, 'dilation')
    pads = _symmetric_padding(padding, where)
    _check_half_kernel(pads, kernel, dilation, where)
    return max_pool(x, kernel, stride, pads, dilation, _flag(ceil_mode, where, 'ceil_mode'),
                    _flag(return_indices, where, 'return_indices'), where)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """2-d average pooling of an (N, C, H, W) floating tensor; padding counts as zeros.

    Args:
        kernel_size: an int or a pair (height, width), each >= 1.
        stride: an int or a pair; None is ``kernel_size``.
        padding: an int, a pair (height, width) or four ints (top, bottom, left, right); each
            at most half the kernel.
        ceil_mode: round the output size up (a last partial window is kept).
        count_include_pad: divide by the window size including padding (clipped to the padded
            input), else by the number of input elements in the window.
        divisor_override: if not 0 (or None), divide every window by it.
    Returns:
        Tensor (N, C, H_out, W_out).
    Raises:
        ValueError: for a wrong rank, sizes < 1, excessive padding, a negative divisor or a
            kernel larger than the padded input. TypeError: for non-floating input or
            malformed arguments.
    """
    where = 'ops.avg_pool2d'
    x = _pool_input(input_x, where)
    kernel = as_ints(kernel_size, 2, where, 'kernel_size')
    stride = kernel if stride is None else as_ints(stride, 2, where, 'stride')
    items = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,)
    if len(items) == 4:
        pads = as_ints(items, 4, where, 'padding', minimum=0)
    else:
        pads = _symmetric_padding(padding, where)
    _check_half_kernel(pads, kernel, (1, 1), where)
    if divisor_override is not None and (not _is_int(divisor_override) or divisor_override < 0):
        raise ValueError(f"{where}: divisor_override must be an int >= 0 (0: no override), "
                         f"got {divisor_override!r}")
    return avg_pool(x, kernel, stride, pads, _flag(ceil_mode, where, 'ceil_mode'),
                    _flag(count_include_pad, where, 'count_include_pad'), divisor_override,
                    where)


def adaptive_output_size(output_size, spatial, where):
    """(H_out, W_out) from an int or a pair whose None entries keep the input's size."""
    items = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,)
    if len(items) == 1:
        items = items * 2
    if len(items) != 2 or not all(v is None or (_is_int(v) and v >= 1) for v in items):
        raise ValueError(f"{where}: output_size must be a positive int or a pair of positive "
                         f"ints or None, got {output_size!r}")
    return tuple(s if v is None else int(v) for v, s in zip(items, spatial))


def _pool_matrix(size, out, dtype):
    """(out, size) averaging weights: row i averages [floor(i*size/out), ceil((i+1)*size/out))."""
    i = np.arange(out)[:, None]
    lo, hi = i * size // out, -(-(i + 1) * size // out)
    j = np.arange(size)
    return (((j >= lo) & (j < hi)) / (hi - lo)).astype(dtype)


def adaptive_avg_pool2d(input, output_size):
    """Average pooling to a fixed output size: window i along a dimension of size n covers
    [floor(i*n/out), ceil((i+1)*n/out)).

    Args:
        input: a floating tensor (N, C, H, W) or (C, H, W).
        output_size: an int or a pair (H_out, W_out); None in the pair keeps that size.
    Returns:
        Tensor (..., H_out, W_out).
    Raises:
        ValueError: for a wrong rank or a bad output_size. TypeError: for non-floating input.

    >>> import hookgrad as ms
    >>> ms.ops.adaptive_avg_pool2d(ms.ops.ones((1, 2, 5, 7)), (2, None)).shape
    (1, 2, 2, 7)
    """
    where = 'ops.adaptive_avg_pool2d'
    x = as_tensor(input)
    if x.ndim not in (3, 4):
        raise ValueError(f"{where}: input must be 3-d (C, H, W) or 4-d (N, C, H, W), got shape "
                         f"{x.shape}")
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"{where}: expected a floating tensor, got dtype {x.dtype}")
    (h, w), lead = x.shape[-2:], x.shape[:-2]
    ho, wo = adaptive_output_size(output_size, (h, w), where)
    if (ho, wo) == (1, 1):
        return mean(x, (-2, -1), True)
    if h % ho == 0 and w % wo == 0:
        return mean(reshape(x, lead + (ho, h // ho, wo, w // wo)), (-3, -1))
    dtype = x._data.dtype
    device = device_of(x._data)
    nd = x.ndim
    y = x
    if wo != w:     # (..., H, W) @ (W, W_out)
        y = matmul(y, Tensor._wrap(to_device(_pool_matrix(w, wo, dtype).T, device)))
    if ho != h:     # (H_out, H) @ (..., H, W_out), as a product on the last axis
        y = transpose(y, tuple(range(nd - 2)) + (nd - 1, nd - 2))
        y = matmul(y, Tensor._wrap(to_device(_pool_matrix(h, ho, dtype).T, device)))
        y = transpose(y, tuple(range(nd - 2)) + (nd - 1, nd - 2))
    return y

