"""3-d convolution and its transpose (MindSpore 2.x ``ops.conv3d`` and ``ops.conv3d_transpose``),
composed of the 2-d convolution ops: the depth axis is folded into the batch and one 2-d
convolution (or its input gradient, for the transpose) runs per depth tap of the kernel, the
taps summed, so values and gradients are those of the 2-d ops.

``convolve_3d`` and ``transpose_convolve_3d`` take checked arguments and explicit paddings;
``nn.Conv3d`` and ``nn.Conv3dTranspose`` call them too.
"""
from .._tensor import Tensor
from .arithmetic import add
from .conv import Conv2DBackpropInput, Convolution2D, as_ints, out_length, same_padding
from .creation import zeros
from .nn_pad import pad as _pad
from .shaping import concat, expand_dims, reshape, transpose

__all__ = ['conv3d', 'conv3d_transpose']


def _fold_depth(x):
    """(N, C, D, H, W) -> (N * D, C, H, W)."""
    n, c, d, h, w = x.shape
    return reshape(transpose(x, (0, 2, 1, 3, 4)), (n * d, c, h, w))


def _unfold_depth(y, n):
    """(N * D, C, H, W) -> (N, C, D, H, W)."""
    nd, c, h, w = y.shape
    return transpose(reshape(y, (n, nd // n, c, h, w)), (0, 2, 1, 3, 4))


def _bias_add(y, b):
    return y if b is None else add(y, reshape(b, (-1,) + (1,) * (y.ndim - 2)))


def convolve_3d(x, w, bias, pads, stride, dilation, groups, where):
    """Cross-correlation of x (N, C_in, D, H, W) with w (C_out, C_in / groups, kd, kh, kw);
    ``pads`` six (before, after) sizes for D, H, W. Errors name ``where``."""
    if pads[0] or pads[1]:
        x = _pad(x, (0, 0, 0, 0) + tuple(pads[:2]))
    (kd, kh, kw), (sd, sh, sw), (dd, dh, dw) = w.shape[2:], stride, dilation
    depth = out_length(x.shape[2], kd, sd, dd)
    spans = [out_length(n + pads[2 * i + 2] + pads[2 * i + 3], k, 1, d)
             for i, (n, k, d) in enumerate(zip(x.shape[3:], (kh, kw), (dh, dw)))]
    if depth < 1 or min(spans) < 1:
        raise ValueError(f"{where}: the dilated kernel {tuple(w.shape[2:])} is larger than the "
                         f"padded input")
    y = None
    for i in range(kd):
        taps = _fold_depth(x[:, :, i * dd:i * dd + (depth - 1) * sd + 1:sd])
        yi = Convolution2D.apply(taps, w[:, :, i], stride=(sh, sw), padding=tuple(pads[2:]),
                                 dilation=(dh, dw), groups=groups)
        y = yi if y is None else add(y, yi)
    return _bias_add(_unfold_depth(y, x.shape[0]), bias)


def transpose_convolve_3d(x, w, bias, out, pads, stride, dilation, groups):
    """The transposed 3-d convolution of x (N, C_in, D, H, W) with w (C_in, C_out / groups, kd,
    kh, kw) to spatial size ``out``: the input gradient of the convolution with ``pads`` from
    ``out`` to x's size."""
    n, size = x.shape[0], x.shape[2:]
    (kd, _, _), (sd, sh, sw), (dd, dh, dw) = w.shape[2:], stride, dilation
    full = out[0] + pads[0] + pads[1]          # the padded depth of the inverted convolution
    folded = _fold_depth(x)
    y = None
    for i in range(kd):
        yi = _unfold_depth(Conv2DBackpropInput.apply(
            folded, w[:, :, i], input_size=tuple(out[1:]), stride=(sh, sw),
            padding=tuple(pads[2:]), dilation=(dh, dw), groups=groups), n)
        if sd > 1:                  # input depth j lands at j * sd + i * dd
            gaps = zeros(yi.shape[:2] + (size[0], sd - 1) + yi.shape[3:], yi.dtype)
            yi = reshape(concat((expand_dims(yi, 3), gaps), 3),
                         yi.shape[:2] + (size[0] * sd,) + yi.shape[3:])
        yi = yi[:, :, :full - i * dd]
        yi = _pad(yi, (0, 0, 0, 0, i * dd, full - i * dd - yi.shape[2]))
        y = yi if y is None else add(y, yi)
    return _bias_add(y[:, :, pads[0]:pads[0] + out[0]], bias)


# ------------------------------------------------------------------------------ checks
def _tensors(x, w, where, xname):
    for arg, t in ((xname, x), ('weight', w)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{where}: {arg} must be a Tensor, got {type(t).__name__}")
        if t.ndim != 5:
            raise ValueError(f"{where}: {arg} must be 5-d, got shape {t.shape}")


def _pad_mode(pad_mode, where):
    if pad_mode not in ('valid', 'same', 'pad'):
        raise ValueError(f"{where}: pad_mode must be 'valid', 'same' or 'pad', got "
                         f"{pad_mode!r}")
    return pad_mode


def _six(padding, pad_mode, where, n):
    """(before, after) paddings of D, H and W from an int or ``n`` ints: 3 (each axis, both
    sides) or 6 (head, tail, top, bottom, left, right)."""
    pads = as_ints(padding, n, where, 'padding', minimum=0)
    if n == 3:
        pads = tuple(p for p in pads for _ in range(2))
    if pad_mode != 'pad' and any(pads):
        raise ValueError(f"{where}: padding must be 0 when pad_mode is {pad_mode!r}, got "
                         f"{padding!r}")
    return pads


def _groups(groups, where, arg):
    return as_ints(groups, 1, where, arg)[0]


# ------------------------------------------------------------------------------ public functions
def conv3d(input, weight, bias=None, stride=1, pad_mode='valid', padding=0, dilation=1,
           groups=1):
    """3-d cross-correlation of (N, C_in, D, H, W) with (C_out, C_in / groups, kd, kh, kw),
    plus ``bias`` (C_out,) when given.

    Args:
        stride, dilation: an int or three ints.
        pad_mode: 'valid' (no padding), 'same' (ceil(size / stride) outputs, the odd padding
            after) or 'pad' (``padding``: an int or three ints, on both sides of D, H, W).
        groups: the number of channel groups.

    Raises:
        ValueError: for a bad pad_mode, padding outside 'pad', channels that do not fit the
            weight and groups, or a kernel larger than the padded input.
    """
    where = 'ops.conv3d'
    _tensors(input, weight, where, 'input')
    stride = as_ints(stride, 3, where, 'stride')
    dilation = as_ints(dilation, 3, where, 'dilation')
    groups = _groups(groups, where, 'groups')
    pads = _six(padding, _pad_mode(pad_mode, where), where, 3)
    if input.shape[1] != weight.shape[1] * groups or weight.shape[0] % groups:
        raise ValueError(f"{where}: input {input.shape} and weight {weight.shape} do not fit "
                         f"groups={groups}")
    if pad_mode == 'same':
        pads = sum((same_padding(n, k, s, d) for n, k, s, d in
                    zip(input.shape[2:], weight.shape[2:], stride, dilation)), ())
    return convolve_3d(input, weight, bias, pads, stride, dilation, groups, where)


def _deconv_length(pad_mode, size, kernel, stride, dilation, pad):
    """MindSpore's output length of a transposed convolution (before output_padding)."""
    span = dilation * (kernel - 1) + 1
    if pad_mode == 'same':
        return size * stride
    if pad_mode == 'valid':
        return size * stride + max(span - stride, 0)
    return size * stride - pad + span - stride


def conv3d_transpose(inputs, weight, pad_mode='valid', padding=0, stride=1, dilation=1, group=1,
                     output_padding=0):
    """The 3-d transposed convolution of (N, C_in, D, H, W) with (C_in, C_out / group, kd, kh,
    kw): the input gradient of the matching ``conv3d``; ``padding`` an int or six ints (head,
    tail, top, bottom, left, right), with pad_mode 'pad'. Output length per axis:
    'same' ``size * stride``; 'valid' ``size * stride + max(span - stride, 0)``; 'pad'
    ``(size - 1) * stride - pads + span + output_padding``, span = dilation * (kernel - 1) + 1.

    Raises:
        ValueError: for a bad pad_mode, padding outside 'pad', output_padding outside 'pad' or
            not below max(stride, dilation), or channels that do not fit the weight.
    """
    where = 'ops.conv3d_transpose'
    _tensors(inputs, weight, where, 'inputs')
    stride = as_ints(stride, 3, where, 'stride')
    dilation = as_ints(dilation, 3, where, 'dilation')
    group = _groups(group, where, 'group')
    pads = _six(padding, _pad_mode(pad_mode, where), where, 6)
    extra = as_ints(output_padding, 3, where, 'output_padding', minimum=0)
    if any(extra) and pad_mode != 'pad':
        raise ValueError(f"{where}: output_padding needs pad_mode 'pad', got {pad_mode!r}")
    if any(e >= max(s, d) for e, s, d in zip(extra, stride, dilation)):
        raise ValueError(f"{where}: output_padding {output_padding!r} must be in [0, "
                         f"max(stride, dilation))")
    if inputs.shape[1] != weight.shape[0] or weight.shape[0] % group:
        raise ValueError(f"{where}: inputs {inputs.shape} and weight {weight.shape} do not fit "
                         f"group={group}")
    out = tuple(_deconv_length(pad_mode, m, k, s, d, pads[2 * i] + pads[2 * i + 1]) + e
                for i, (m, k, s, d, e) in enumerate(zip(inputs.shape[2:], weight.shape[2:],
                                                        stride, dilation, extra)))
    if pad_mode == 'same':
        pads = sum((same_padding(m, k, s, d) for m, k, s, d in
                    zip(out, weight.shape[2:], stride, dilation)), ())
    return transpose_convolve_3d(inputs, weight, None, out, pads, stride, dilation, group)
