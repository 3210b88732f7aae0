"""Convolution: ``conv2d``, ``conv1d``, ``conv_transpose2d`` (the input gradient of a
convolution) and ``bias_add`` (the channel bias a convolution's output takes), NCHW, MindSpore
2.x; the ``Conv2D`` Primitive is in ``operations/_image.py``.

The array kernels (im2col + GEMM, Winograd, pointwise, batch-last im2col for narrow layers;
channels-last or batch-last outputs; scratch memory from ``POOL``) are in ``conv_kernels`` and
``conv_batchlast``; ``conv_kernels.ALGORITHM`` chooses among them. On a device (the GPU's
arrays) the ops run ``kernels/conv_device.py`` instead, and on float16 or bfloat16
arrays ``kernels/half.py``'s ``Widened`` kernels (the same kernels in float32), which have the
same functions: each op picks
the module by its first input's type and dtype.

Higher order. ``Convolution2D`` (y from x, w), ``Conv2DBackpropInput`` (x's gradient from gy, w)
and ``Conv2DBackpropFilter`` (w's gradient from gy, x) are bilinear; each one's backward is
written with the other two, so gradients of gradients are exact.
"""
import numbers
import threading

from ..autograd.function import Op
from ..kernels import conv as _cpu, conv_device as _device, half as _half
from ..kernels.backend import ndarray as _ndarray
from ._base import as_tensor
from ..kernels.conv import (_to_groups, conv_forward, filter_grad, grad_operand,  # noqa: F401
                           input_grad, out_length)
from ..kernels.conv_layout import POOL, BufferPool  # noqa: F401  (hookgrad.ops.conv's names)
from .arithmetic import add
from .shaping import reshape

__all__ = ['conv2d', 'conv1d', 'conv_transpose2d', 'bias_add']

PAD_MODES = ('same', 'valid', 'pad')
# Which of the next convolution's gradients backward will compute (its input's, its weight's),
# set by ``_convolve`` for the CPU kernels' plan (kernels/conv_plan.py); both when unknown.
_expected = threading.local()


def same_padding(size, kernel, stride, dilation):
    """(before, after) padding giving ceil(size / stride) outputs; the odd one goes after."""
    out = -(-size // stride)
    total = max((out - 1) * stride + dilation * (kernel - 1) + 1 - size, 0)
    return total // 2, total - total // 2


# ------------------------------------------------------------------------------ ops
# Each op's ``backward`` applies the other two ops, so it records on Tensors (the three are
# closed under differentiation); ``backward_arrays`` calls the conv_kernels functions directly.
_wide_cpu = _half.Widened(_cpu)
_wide_device = _half.Widened(_device)


def _kernels(a, b):
    """The kernels for operands ``a`` and ``b``: the CPU's (float16 and bfloat16 ones widened
    to float32, kernels/half.py) or a device's (bfloat16 ones widened)."""
    if type(a) is not _ndarray:
        return _wide_device if a.dtype is _half.BFLOAT16 or b.dtype is _half.BFLOAT16 \
            else _device
    return _wide_cpu if a.dtype in _half.LOW or b.dtype in _half.LOW else _cpu


def _params(stride, padding, dilation, groups):
    return {'stride': stride, 'padding': padding, 'dilation': dilation, 'groups': groups}


class Convolution2D(Op):
    """y = conv(x, w) (+ b): NCHW cross-correlation with stride, padding, dilation and groups.

    Keeps x, w, the kernel that ran, the padded input in that kernel's layout (none where
    Winograd reads x in pieces as it lies) and the weight in that kernel's form (im2col's
    rows, or Winograd's transformed kernels, which the input gradient reuses). The im2col
    matrix (kh*kw times the input's size) is kept only when small
    (``conv_kernels.KEEP_COLS_BYTES``); else backward rebuilds it from the padded input, which
    costs one copy and saves most of a network's activation memory.
    """
    @staticmethod
    def forward(ctx, x, w, b=None, *, stride, padding, dilation, groups):
        kernels = _kernels(x, w)
        grads = getattr(_expected, 'grads', (True, True)) if ctx.recording else (False, False)
        _expected.grads = (True, True)
        y, how, xh, rows, cols = kernels.conv_forward(x, w, stride, padding, dilation, groups,
                                                      grads=grads)
        if b is not None:
            y += b.reshape(-1, 1, 1)
        if ctx.recording:
            ctx.save(x, w, xh, rows, cols)
            ctx.how = how
            ctx.p = _params(stride, padding, dilation, groups)
            ctx.has_bias = b is not None
        return y

    @staticmethod
    def backward(ctx, gy):
        x, w = ctx.saved[:2]
        p = ctx.p
        gx = gw = None
        if ctx.needs_grad(0):
            gx = Conv2DBackpropInput.apply(gy, w, input_size=tuple(x.shape[2:]), **p)
        if ctx.needs_grad(1):
            gw = Conv2DBackpropFilter.apply(gy, x, kernel_size=tuple(w.shape[2:]), **p)
        return _with_bias(ctx, gx, gw, gy)

    @staticmethod
    def backward_arrays(ctx, gy):
        """Both gradients from one grouped view of gy; the weight's from the kept im2col
        matrix or padded input (im2col rebuilt from it, or its Winograd tiles)."""
        x, w, xh, rows, cols = ctx.saved
        p = ctx.p
        gx = gw = None
        kernels = _kernels(gy, x)
        gyg = kernels.grad_operand(gy, ctx.how, p['groups'])
        if ctx.needs_grad(0):
            gx = kernels.input_grad(gy, w, x.shape[2:], how=ctx.how, gyg=gyg, rows=rows, **p)
        if ctx.needs_grad(1):
            gw = kernels.filter_grad(gy, x, w.shape[2:], how=ctx.how, xh=xh, gyg=gyg,
                                     cols=cols, **p)
        return _with_bias(ctx, gx, gw, gy)


class Conv2DBackpropInput(Op):
    """gx = the input gradient of conv2d for gy and w (a transposed convolution)."""
    @staticmethod
    def forward(ctx, gy, w, *, input_size, stride, padding, dilation, groups):
        ctx.save(gy, w)
        ctx.p = _params(stride, padding, dilation, groups)
        kernels = _kernels(gy, w)
        return kernels.input_grad(gy, w, input_size, stride, padding, dilation, groups)

    @staticmethod
    def backward(ctx, ggx):
        gy, w = ctx.saved
        return (Convolution2D.apply(ggx, w, **ctx.p) if ctx.needs_grad(0) else None,
                Conv2DBackpropFilter.apply(gy, ggx, kernel_size=tuple(w.shape[2:]), **ctx.p)
                if ctx.needs_grad(1) else None)

    @staticmethod
    def backward_arrays(ctx, ggx):
        gy, w = ctx.saved
        kernels = _kernels(gy, w)
        return (kernels.conv_forward(ggx, w, **ctx.p)[0] if ctx.needs_grad(0) else None,
                kernels.filter_grad(gy, ggx, w.shape[2:], **ctx.p) if ctx.needs_grad(1)
                else None)


class Conv2DBackpropFilter(Op):
    """gw = the weight gradient of conv2d for gy and x."""
    @staticmethod
    def forward(ctx, gy, x, *, kernel_size, stride, padding, dilation, groups):
        ctx.save(gy, x)
        ctx.p = _params(stride, padding, dilation, groups)
        kernels = _kernels(gy, x)
        return kernels.filter_grad(gy, x, kernel_size, stride, padding, dilation, groups)

    @staticmethod
    def backward(ctx, ggw):
        gy, x = ctx.saved
        return (Convolution2D.apply(x, ggw, **ctx.p) if ctx.needs_grad(0) else None,
                Conv2DBackpropInput.apply(gy, ggw, input_size=tuple(x.shape[2:]), **ctx.p)
                if ctx.needs_grad(1) else None)

    @staticmethod
    def backward_arrays(ctx, ggw):
        gy, x = ctx.saved
        kernels = _kernels(gy, x)
        return (kernels.conv_forward(x, ggw, **ctx.p)[0] if ctx.needs_grad(0) else None,
                kernels.input_grad(gy, ggw, x.shape[2:], **ctx.p) if ctx.needs_grad(1)
                else None)


def _with_bias(ctx, gx, gw, gy):
    """(gx, gw) for a convolution without bias, (gx, gw, gb) with one."""
    if not ctx.has_bias:
        return gx, gw
    return gx, gw, (ctx.m.sum(gy, (0, 2, 3)) if ctx.needs_grad(2) else None)


# ------------------------------------------------------------------------------ arguments
def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def as_ints(value, n, where, arg, minimum=1):
    """``value`` (an int, or a tuple/list of ``n`` ints, or of one) as a tuple of ``n`` ints."""
    items = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if len(items) == 1:
        items = items * n
    if len(items) != n or not all(_is_int(v) for v in items):
        raise TypeError(f"{where}: {arg} must be an int or a tuple of {n} ints, got {value!r}")
    if any(v < minimum for v in items):
        raise ValueError(f"{where}: {arg} must be >= {minimum}, got {value!r}")
    return tuple(int(v) for v in items)


def as_pad_mode(pad_mode, where):
    """``pad_mode`` lower-cased and checked against 'same', 'valid' and 'pad'."""
    if not isinstance(pad_mode, str) or pad_mode.lower() not in PAD_MODES:
        raise ValueError(f"{where}: pad_mode must be one of 'same', 'valid', 'pad', "
                         f"got {pad_mode!r}")
    return pad_mode.lower()


def as_padding(padding, pad_mode, where):
    """(top, bottom, left, right) from an int, a pair (height, width) or four ints.

    Raises:
        TypeError / ValueError: for another form or a negative value; ValueError for a
            non-zero padding with a pad_mode other than 'pad'.
    """
    items = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,)
    if len(items) not in (1, 2, 4) or not all(_is_int(v) for v in items):
        raise TypeError(f"{where}: padding must be an int or a tuple of 2 or 4 ints, "
                        f"got {padding!r}")
    if any(v < 0 for v in items):
        raise ValueError(f"{where}: padding must be >= 0, got {padding!r}")
    if pad_mode != 'pad' and any(items):
        raise ValueError(f"{where}: padding must be 0 when pad_mode is {pad_mode!r}, got "
                         f"{padding!r} (use pad_mode='pad')")
    if len(items) == 1:
        return items * 4
    if len(items) == 2:
        return (items[0], items[0], items[1], items[1])
    return tuple(int(v) for v in items)


def _floating(t, where, arg):
    if t._data.dtype.kind not in 'fV':
        raise TypeError(f"{where}: {arg} must be a floating tensor, got dtype {t.dtype}")


def _check_operands(x, w, bias, groups, where, ndim):
    """Shapes and dtypes of input, weight and bias; the bias as a Tensor or None."""
    layout = '(N, C, H, W)' if ndim == 4 else '(N, C, L)'
    if x.ndim != ndim:
        raise ValueError(f"{where}: input must be {ndim}-d {layout}, got shape {x.shape}")
    if w.ndim != ndim:
        raise ValueError(f"{where}: weight must be {ndim}-d (C_out, C_in / groups, "
                         f"{'kh, kw' if ndim == 4 else 'k'}), got shape {w.shape}")
    _floating(x, where, 'input')
    if w._data.dtype != x._data.dtype:
        raise TypeError(f"{where}: input and weight must have the same dtype, got {x.dtype} "
                        f"and {w.dtype}")
    if not _is_int(groups) or groups < 1:
        raise ValueError(f"{where}: groups must be a positive int, got {groups!r}")
    c, o = x.shape[1], w.shape[0]
    if o % groups:
        raise ValueError(f"{where}: weight of shape {w.shape} has {o} output channels, not "
                         f"divisible by groups={groups}")
    if w.shape[1] * groups != c:
        raise ValueError(f"{where}: input of shape {x.shape} has {c} channels, weight of shape "
                         f"{w.shape} with groups={groups} expects {w.shape[1] * groups}")
    if bias is None:
        return None
    b = as_tensor(bias, 'bias')
    if b.shape != (o,):
        raise ValueError(f"{where}: bias must have shape ({o},), got {b.shape}")
    if b._data.dtype != x._data.dtype:
        raise TypeError(f"{where}: bias must have the input's dtype {x.dtype}, got {b.dtype}")
    return b


def _convolve(x, w, b, stride, pad_mode, pads, dilation, groups, where):
    """Apply Convolution2D once every argument has been checked; 'same' pads are computed."""
    (h, wd), (kh, kw) = x.shape[2:], w.shape[2:]
    if pad_mode == 'same':
        pads = (same_padding(h, kh, stride[0], dilation[0])
                + same_padding(wd, kw, stride[1], dilation[1]))
    hp, wp = h + pads[0] + pads[1], wd + pads[2] + pads[3]
    if out_length(hp, kh, 1, dilation[0]) < 1 or out_length(wp, kw, 1, dilation[1]) < 1:
        raise ValueError(f"{where}: the kernel {(kh, kw)} with dilation {dilation} spans "
                         f"{(dilation[0] * (kh - 1) + 1, dilation[1] * (kw - 1) + 1)}, more "
                         f"than the padded input {(hp, wp)}")
    p = _params(stride, pads, dilation, int(groups))
    _expected.grads = (x._node is not None or x.requires_grad,
                       w._node is not None or w.requires_grad)
    if b is None:
        return Convolution2D.apply(x, w, **p)
    return Convolution2D.apply(x, w, b, **p)


# ------------------------------------------------------------------------------ public
def conv2d(input, weight, bias=None, stride=1, pad_mode='valid', padding=0, dilation=1,
           groups=1):
    """2-d cross-correlation of an (N, C_in, H, W) input with a (C_out, C_in / groups, kh, kw)
    weight, plus an optional (C_out,) bias.

    Args:
        stride, dilation: an int or a pair (height, width), each >= 1.
        pad_mode: 'valid' (no padding), 'same' (output size ceil(input / stride), the padding
            split evenly with the odd one at the bottom/right) or 'pad' (``padding``).
        padding: with pad_mode 'pad', an int, a pair (height, width) or four ints (top,
            bottom, left, right); otherwise 0.
        groups: splits the channels into groups; C_in and C_out must both divide by it.
    Returns:
        Tensor of shape (N, C_out, H_out, W_out), H_out = (H + top + bottom - dilation *
        (kh - 1) - 1) // stride + 1.
    Raises:
        ValueError: for a wrong rank, channel count, bias shape, pad_mode, negative or
            misplaced padding, or a kernel larger than the padded input.
        TypeError: for non-floating or mismatched dtypes, or malformed stride/padding.

    >>> import hookgrad as ms
    >>> x, w = ms.ops.ones((1, 1, 3, 3)), ms.ops.ones((1, 1, 2, 2))
    >>> ms.ops.conv2d(x, w).asnumpy().tolist()
    [[[[4.0, 4.0], [4.0, 4.0]]]]
    """
    where = 'ops.conv2d'
    x, w = as_tensor(input), as_tensor(weight, 'weight')
    b = _check_operands(x, w, bias, groups, where, 4)
    stride = as_ints(stride, 2, where, 'stride')
    dilation = as_ints(dilation, 2, where, 'dilation')
    pad_mode = as_pad_mode(pad_mode, where)
    pads = as_padding(padding, pad_mode, where)
    return _convolve(x, w, b, stride, pad_mode, pads, dilation, groups, where)


def conv1d(input, weight, bias=None, stride=1, pad_mode='valid', padding=0, dilation=1,
           groups=1):
    """1-d cross-correlation of an (N, C_in, L) input with a (C_out, C_in / groups, k) weight:
    ``conv2d`` on a unit height.

    Args:
        stride, dilation: an int >= 1.
        pad_mode: 'valid', 'same' or 'pad', as in ``conv2d``.
        padding: with pad_mode 'pad', an int or a pair (left, right); otherwise 0.
    Returns:
        Tensor of shape (N, C_out, L_out).
    Raises:
        ValueError / TypeError: as ``conv2d``.
    """
    where = 'ops.conv1d'
    x, w = as_tensor(input), as_tensor(weight, 'weight')
    b = _check_operands(x, w, bias, groups, where, 3)
    stride = as_ints(stride, 1, where, 'stride')[0]
    dilation = as_ints(dilation, 1, where, 'dilation')[0]
    pad_mode = as_pad_mode(pad_mode, where)
    if isinstance(padding, (tuple, list)) and len(padding) == 4:
        raise TypeError(f"{where}: padding must be an int or a pair (left, right), "
                        f"got {padding!r}")
    pads = as_padding(padding, pad_mode, where)
    pads = (pads[0], pads[2]) if isinstance(padding, (tuple, list)) else pads[:2]
    n, c, length = x.shape
    o, cg, k = w.shape
    y = _convolve(reshape(x, (n, c, 1, length)), reshape(w, (o, cg, 1, k)), b, (1, stride),
                  pad_mode, (0, 0) + pads, (1, dilation), groups, where)
    return reshape(y, (n, o, y.shape[3]))


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    """The 2-d transposed convolution of an (N, C_in, H, W) input with a
    (C_in, C_out / groups, kh, kw) weight: the input gradient of the convolution with that
    weight. The output's size is ``(H - 1) * stride - 2 * padding + dilation * (kh - 1) +
    output_padding + 1`` (likewise for W).

    Raises:
        ValueError: for a weight that does not fit the input, sizes < 1, or an output_padding
            not smaller than stride or dilation.
    """
    where = 'ops.conv_transpose2d'
    x, w = as_tensor(input, 'input'), as_tensor(weight, 'weight')
    if x.ndim != 4 or w.ndim != 4 or w.shape[0] != x.shape[1]:
        raise ValueError(f"{where}: input (N, C_in, H, W) and weight (C_in, C_out / groups, "
                         f"kh, kw) do not fit: {x.shape} and {w.shape}")
    stride, dilation = as_ints(stride, 2, where, 'stride'), as_ints(dilation, 2, where,
                                                                    'dilation')
    pad = as_ints(padding, 2, where, 'padding', minimum=0)
    extra = as_ints(output_padding, 2, where, 'output_padding', minimum=0)
    groups = as_ints(groups, 1, where, 'groups')[0]
    if any(e >= max(s, d) for e, s, d in zip(extra, stride, dilation)):
        raise ValueError(f"{where}: output_padding {extra} must be smaller than stride "
                         f"{stride} or dilation {dilation}")
    if x.shape[1] % groups:
        raise ValueError(f"{where}: the {x.shape[1]} input channels are not divisible by "
                         f"groups={groups}")
    size = tuple((n - 1) * s - 2 * p + d * (k - 1) + e + 1 for n, s, p, d, k, e in
                 zip(x.shape[2:], stride, pad, dilation, w.shape[2:], extra))
    if min(size) < 1:
        raise ValueError(f"{where}: the output size {size} is not positive")
    # the padding of the convolution this is the input gradient of: the output_padding rows
    # at the bottom/right come from a smaller bottom padding (or none, when it would be
    # negative: the stride then absorbs them)
    bottom = tuple(max(p - e, 0) for p, e in zip(pad, extra))
    if any(b - p + e >= s for b, p, e, s in zip(bottom, pad, extra, stride)):
        raise ValueError(f"{where}: output_padding {extra} with padding {pad} must stay "
                         f"below stride {stride} in hookgrad")
    pads = (pad[0], bottom[0], pad[1], bottom[1])
    y = Conv2DBackpropInput.apply(x, w, input_size=size, stride=stride, padding=pads,
                             dilation=dilation, groups=groups)
    if bias is None:
        return y
    return add(y, reshape(as_tensor(bias, 'bias'), (-1, 1, 1)))


def bias_add(input_x, bias):
    """The 1-d ``bias`` added along axis 1 (the channels) of ``input_x``."""
    return add_bias(input_x, bias, 'NCHW', 'bias_add')


def add_bias(input_x, bias, data_format, name):
    """``bias_add`` along the channel axis of ``data_format``: the last one for 'NHWC', axis 1
    for 'NCHW' and 'NCDHW' (``ops.BiasAdd``'s form); the errors name op ``name``.

    Raises:
        ValueError: for input_x of rank < 2, or a bias not of shape (C,).
    """
    x, b = as_tensor(input_x, 'input_x'), as_tensor(bias, 'bias')
    if x.ndim < 2:
        raise ValueError(f"ops.{name}: input_x must have rank >= 2, got shape {x.shape}")
    axis = x.ndim - 1 if data_format == 'NHWC' else 1
    if b.shape != (x.shape[axis],):
        raise ValueError(f"ops.{name}: bias must have shape ({x.shape[axis]},) for input_x of "
                         f"shape {x.shape}, got {b.shape}")
    return add(x, reshape(b, (-1,) + (1,) * (x.ndim - 1 - axis)))
