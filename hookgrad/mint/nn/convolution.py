"""Convolution forms hookgrad has no single op for, composed of its ops (so gradients come
from theirs): 3-d convolution (``ops.conv3d``'s kernel: one 2-d convolution per depth tap, the
depth folded into the batch), ``unfold`` (sliding blocks as strided slices), its adjoint ``fold``
(the blocks spread back by padding and summed) and ``conv_tbc``."""
from ... import ops
from ...ops.conv3d import convolve_3d

__all__ = ['conv3d', 'unfold', 'fold', 'conv_tbc']


def _ints(value, n, name, arg):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    value = tuple(value)
    if len(value) != n:
        raise ValueError(f"mint.nn.functional.{name}: {arg} must be an int or {n} ints, got "
                         f"{value!r}")
    return value


def _span(size, kernel, stride, dilation):
    """The number of windows along an axis of ``size`` (already padded)."""
    return (size - dilation * (kernel - 1) - 1) // stride + 1


def _strided(x, axis, start, count, step):
    """``x[..., start : start + step * (count - 1) + 1 : step, ...]`` along ``axis``."""
    index = [slice(None)] * x.ndim
    index[axis] = slice(start, start + step * (count - 1) + 1, step)
    return x[tuple(index)]


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D cross-correlation of (N, C_in, D, H, W) with (C_out, C_in / groups, kD, kH, kW);
    ``padding`` an int, three ints, 'valid' or 'same' (stride 1)."""
    kernel = tuple(weight.shape[2:])
    stride = _ints(stride, 3, 'conv3d', 'stride')
    dilation = _ints(dilation, 3, 'conv3d', 'dilation')
    if padding == 'valid':
        padding = 0
    if padding == 'same':
        if stride != (1, 1, 1):
            raise ValueError("mint.nn.functional.conv3d: padding='same' needs stride 1")
        totals = [d * (k - 1) for k, d in zip(kernel, dilation)]
        pairs = [(t // 2, t - t // 2) for t in totals]
        return convolve_3d(input, weight, bias, sum(pairs, ()), stride, dilation, groups,
                           'mint.nn.functional.conv3d')
    pd, ph, pw = _ints(padding, 3, 'conv3d', 'padding')
    return convolve_3d(input, weight, bias, (pd, pd, ph, ph, pw, pw), stride, dilation, groups,
                       'mint.nn.functional.conv3d')


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding ``kernel_size`` blocks of (N, C, H, W) as columns: (N, C * kH * kW, L)."""
    kh, kw = _ints(kernel_size, 2, 'unfold', 'kernel_size')
    dh, dw = _ints(dilation, 2, 'unfold', 'dilation')
    ph, pw = _ints(padding, 2, 'unfold', 'padding')
    sh, sw = _ints(stride, 2, 'unfold', 'stride')
    if input.ndim != 4:
        raise ValueError(f"mint.nn.functional.unfold: expects a 4-D input (N, C, H, W), got "
                         f"shape {input.shape}")
    x = ops.pad(input, (pw, pw, ph, ph)) if ph or pw else input
    n, c, h, w = x.shape
    ho, wo = _span(h, kh, sh, dh), _span(w, kw, sw, dw)
    if ho < 1 or wo < 1:
        raise ValueError(f"mint.nn.functional.unfold: the dilated kernel ({kh}, {kw}) is "
                         f"larger than the padded input ({h}, {w})")
    blocks = [_strided(_strided(x, 2, i * dh, ho, sh), 3, j * dw, wo, sw)
              for i in range(kh) for j in range(kw)]                        # (N, C, Ho, Wo)
    return ops.reshape(ops.stack(blocks, 2), (n, c * kh * kw, ho * wo))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The adjoint of ``unfold``: columns (N, C * kH * kW, L) summed back into
    (N, C, *output_size), overlapping blocks adding up."""
    oh, ow = _ints(output_size, 2, 'fold', 'output_size')
    kh, kw = _ints(kernel_size, 2, 'fold', 'kernel_size')
    dh, dw = _ints(dilation, 2, 'fold', 'dilation')
    ph, pw = _ints(padding, 2, 'fold', 'padding')
    sh, sw = _ints(stride, 2, 'fold', 'stride')
    batched = input.ndim == 3
    x = input if batched else ops.unsqueeze(input, 0)
    n, ckk, length = x.shape
    h, w = oh + 2 * ph, ow + 2 * pw
    ho, wo = _span(h, kh, sh, dh), _span(w, kw, sw, dw)
    if ckk % (kh * kw) or ho * wo != length:
        raise ValueError(f"mint.nn.functional.fold: input of shape {tuple(input.shape)} does "
                         f"not hold ({kh} * {kw})-blocks of {ho} * {wo} positions")
    c = ckk // (kh * kw)
    blocks = ops.reshape(x, (n, c, kh * kw, ho, wo))
    out = None
    for i in range(kh):
        for j in range(kw):
            b = _spread(blocks[:, :, i * kw + j], sh, sw)       # (N, C, sh*(ho-1)+1, ...)
            top, left = i * dh, j * dw
            b = ops.pad(b, (left, w - left - b.shape[3], top, h - top - b.shape[2]))
            out = b if out is None else ops.add(out, b)
    out = out[:, :, ph:ph + oh, pw:pw + ow]
    return out if batched else ops.squeeze(out, 0)


def _spread(x, sh, sw):
    """(N, C, a, b) with ``sh - 1`` zero rows and ``sw - 1`` zero columns between entries."""
    n, c, a, b = x.shape
    if sh > 1 or sw > 1:
        x = ops.pad(ops.reshape(x, (n, c, a, 1, b, 1)), (0, sw - 1, 0, 0, 0, sh - 1))
        x = ops.reshape(x, (n, c, a * sh, b * sw))[:, :, :sh * (a - 1) + 1, :sw * (b - 1) + 1]
    return x


def conv_tbc(input, weight, bias, pad=0):
    """1-D convolution in time-batch-channel layout: input (T, B, C_in), weight
    (K, C_in, C_out), bias (C_out,); returns (T', B, C_out)."""
    x = ops.permute(input, (1, 2, 0))                          # (B, C_in, T)
    w = ops.permute(weight, (2, 1, 0))                         # (C_out, C_in, K)
    y = ops.conv1d(x, w, bias, 1, 'pad', pad)
    return ops.permute(y, (2, 0, 1))
