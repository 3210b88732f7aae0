"""Convolution on a device (the GPU's arrays): im2col as a strided view, one matrix product.

The device path of ``ops/conv.py``: it has the CPU kernels' functions (conv.py) with the same
arguments, so an op picks one of the two modules by its inputs' type. Everything is allocated
and computed with the inputs' array module, in NCHW: the windows of the padded input are a
strided view (N, G, Cg, kh, kw, Ho, Wo), copied once into the im2col matrix (N, G, K, Ho*Wo),
K = Cg*kh*kw, and multiplied by the weight's (G, Og, K) rows in one batched product, whose
(N, G, Og, Ho*Wo) result is the output. The input gradient is that product transposed, then
col2im: each of the kh*kw kernel offsets adds its slice into the padded gradient. The weight
gradient is one product of gy and the im2col matrix with the batch folded into the sum.

The products run in the convolutions' math mode: TF32 unless turned off
(``device_context.gpu.op_precision.conv_allow_tf32``). Nothing of the CPU kernels' tuning
(pieces sized for the cache, Winograd, OpenBLAS threads, scratch pools) applies here: the
device's library chooses its own products.
"""
from .backend import array_module
from .conv_plan import ran as _ran
from .gpu_runtime import conv_products

DEVICE = 'device'       # the ``how`` of a convolution that ran here
KERNEL = 'device_im2col'    # the kernel each pass ran, as ``hookgrad.debug.profile`` shows it


def out_length(size, kernel, stride, dilation):
    """Number of windows of a dilated kernel over ``size`` (padding included) at ``stride``."""
    return (size - dilation * (kernel - 1) - 1) // stride + 1


def _product(xp, a, b):
    """a @ b in the convolutions' math mode (TF32 when allowed: kernels/gpu_runtime.py)."""
    with conv_products(xp):
        return xp.matmul(a, b)


def _padded(x, padding):
    """x (N, C, H, W) with zero rows and columns around it (x itself when none)."""
    pt, pb, pl, pr = padding
    if not (pt or pb or pl or pr):
        return x
    n, c, h, wd = x.shape
    out = array_module(x).zeros((n, c, h + pt + pb, wd + pl + pr), x.dtype)
    out[:, :, pt:pt + h, pl:pl + wd] = x
    return out


def _windows(x, kernel, stride, padding, dilation, groups, out_hw):
    """The padded windows of x (N, C, H, W) as a strided view (N, G, Cg, kh, kw, Ho, Wo)."""
    xp = array_module(x)
    xh = xp.ascontiguousarray(_padded(x, padding))
    n, c = xh.shape[:2]
    cg = c // groups
    (kh, kw), (ho, wo) = kernel, out_hw
    s0, s1, s2, s3 = xh.strides
    return xp.lib.stride_tricks.as_strided(
        xh, (n, groups, cg, kh, kw, ho, wo),
        (s0, s1 * cg, s1, s2 * dilation[0], s3 * dilation[1], s2 * stride[0], s3 * stride[1]))


def _cols(x, kernel, stride, padding, dilation, groups, out_hw):
    """The im2col matrix (N, G, Cg*kh*kw, Ho*Wo) of x (N, C, H, W): a copy of its padded
    windows, read through a strided view."""
    view = _windows(x, kernel, stride, padding, dilation, groups, out_hw)
    n, g, cg, kh, kw, ho, wo = view.shape
    return array_module(x).ascontiguousarray(view).reshape(n, g, cg * kh * kw, ho * wo)


def conv_forward(x, w, stride, padding, dilation, groups, grads=(True, True)):
    """(y, how, xh, rows, cols) as ``conv.conv_forward`` gives them: the convolution of x
    (N, C, H, W) with w (O, C/G, kh, kw), ``DEVICE``, and None for the kept operands (backward
    rebuilds the im2col matrix rather than holding kh*kw times the input). ``grads`` (which
    gradients backward computes) changes nothing here: there is one kernel per pass."""
    n, _, h, wd = x.shape
    o, cg, kh, kw = w.shape
    pt, pb, pl, pr = padding
    ho = out_length(h + pt + pb, kh, stride[0], dilation[0])
    wo = out_length(wd + pl + pr, kw, stride[1], dilation[1])
    cols = _cols(x, (kh, kw), stride, padding, dilation, groups, (ho, wo))
    rows = w.reshape(groups, o // groups, cg * kh * kw)
    y = _product(array_module(x), rows, cols)              # (N, G, Og, Ho*Wo)
    _ran.forward = KERNEL
    return y.reshape(n, o, ho, wo), DEVICE, None, None, None


def grad_operand(gy, how, groups):
    """gy as the gradient kernels take it: as it is (the device kernels group it themselves)."""
    return gy


def filter_grad(gy, x, kernel_size, stride, padding, dilation, groups, how=None, xh=None,
                gyg=None, cols=None):
    """The weight gradient (O, C/G, kh, kw) of conv2d for gy (N, O, Ho, Wo) and x: gy times
    x's im2col matrix, the batch and the output pixels summed in one product."""
    xp = array_module(gy)
    n, o, ho, wo = gy.shape
    kh, kw = kernel_size
    cg = x.shape[1] // groups
    og = o // groups
    k = cg * kh * kw
    # the windows copied once straight into (G, N, Ho, Wo, Cg, kh, kw) order
    view = _windows(x, kernel_size, stride, padding, dilation, groups, (ho, wo))
    colsg = xp.ascontiguousarray(view.transpose(1, 0, 5, 6, 2, 3, 4))
    gyg = xp.ascontiguousarray(gy.reshape(n, groups, og, ho * wo).transpose(1, 2, 0, 3))
    gw = _product(xp, gyg.reshape(groups, og, n * ho * wo), colsg.reshape(groups, n * ho * wo, k))
    _ran.filter = KERNEL
    return gw.reshape(o, cg, kh, kw)


def input_grad(gy, w, input_size, stride, padding, dilation, groups, how=None, gyg=None,
               rows=None):
    """The input gradient (N, C, *input_size) of conv2d for gy (N, O, Ho, Wo) and w: a
    stride-1 correlation of gy, its rows and columns spread ``stride`` apart with zeros
    between and padded, with the flipped kernel transposed per group: one im2col product, not
    a pass per kernel offset."""
    xp = array_module(gy)
    n, o, ho, wo = gy.shape
    _, cg, kh, kw = w.shape
    og = o // groups
    # Along each axis the buffer has L = size + dilation * (kernel - 1) entries (a valid
    # correlation of it gives ``size``); gy's entry i lies at before + stride * i, where
    # before = dilation * (kernel - 1) - the forward's leading padding. Entries outside
    # [0, L) (a padding wider than the kernel) contribute to no input element.
    spans, places = [], []
    for size, count, step, dil, k, lead in ((input_size[0], ho, stride[0], dilation[0], kh,
                                             padding[0]),
                                            (input_size[1], wo, stride[1], dilation[1], kw,
                                             padding[2])):
        length = size + dil * (k - 1)
        before = dil * (k - 1) - lead
        first = max(0, -(before // step) if before < 0 else 0)
        last = min(count, (length - 1 - before) // step + 1)
        spans.append(length)
        places.append((slice(before + step * first, before + step * (last - 1) + 1, step),
                       slice(first, last)) if last > first else None)
    buf = xp.zeros((n, o, *spans), gy.dtype)
    if places[0] is not None and places[1] is not None:
        (rows_at, rows_of), (cols_at, cols_of) = places
        buf[:, :, rows_at, cols_at] = gy[:, :, rows_of, cols_of]
    flipped = w.reshape(groups, og, cg, kh, kw).transpose(0, 2, 1, 3, 4)[:, :, :, ::-1, ::-1]
    rows_t = xp.ascontiguousarray(flipped).reshape(groups, cg, og * kh * kw)
    cols = _cols(buf, (kh, kw), (1, 1), (0, 0, 0, 0), dilation, groups, tuple(input_size))
    gx = _product(xp, rows_t, cols)                       # (N, G, Cg, H*W)
    _ran.input = KERNEL
    return gx.reshape(n, groups * cg, *input_size)
