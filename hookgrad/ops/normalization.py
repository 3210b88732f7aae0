"""Normalization: batch_norm and layer_norm, each one fused primitive with an analytic backward.

Statistics are computed for the input's dtype (float32 for a float16 input, whose result and
gradients are cast back to float16: float16 sums of values near 1e4 overflow) in two passes
(the mean, then the mean of squared deviations from it), so a large common offset does not
cancel the variance away. batch_norm reads its input in its memory layout (convolution outputs
are channels-last): per-channel sums are float32 partial sums over a few values each, added in
float64, so no pass transposes or copies the input and the sums stay accurate for large
batches; a large input whose channel means are near 0 takes its variance from those sums in
one pass and is never centred (see ``BatchNormTrain``).

With ``xhat = (x - mean) * rstd`` over ``M`` values, the gradient of both normalizations is
``dx = rstd * (g - sum(g) / M - xhat * sum(g * xhat) / M)`` where ``g`` is the incoming
gradient times the scale. The first-order rule reuses arrays saved by the forward (the
centred input or ``xhat``); when a higher-order gradient is requested the same formula is
recomputed from ``x`` with ``ctx.m``, so it records a differentiable graph.

On a device the same passes run with the input's array module, whole (the CPU splits large
passes between cores), and batch_norm always centres: choosing the one-pass variance would
read the channel means on the host.
"""
import math
import numbers

import numpy as np

from ..kernels import threads as _threads
from ..kernels.backend import array_module
from . import normalization_device as _device
from .._tensor import Tensor
from ..autograd.function import Op
from .arithmetic import cast

__all__ = ['batch_norm', 'layer_norm']


# ------------------------------------------------------------------------------ array helpers
_BLOCK_ROWS = 32    # rows per float32 partial sum of a channels-last array (then float64)
_ROW_PIXELS = 128   # pixels per row of element-wise work on channels-last arrays (measured)
ONE_PASS_BYTES = 4 << 20    # batch_norm inputs from this size on may skip centring
MEAN_LIMIT = 2.0            # ... when every |channel mean| <= MEAN_LIMIT * its std


def _channel_views(a, *others):
    """``(spec, views)`` to take per-channel sums of ``a`` (and of products with ``others``,
    arrays with a's strides) as one einsum, without copying.

    A channels-last array (convolution outputs, (N, C) inputs) is read as (K, R, C) blocks of
    R rows and gives (K, C) float32 partial sums, each over only R values; a C-contiguous one
    is read as (N, C, L) and gives (N, C) partials summed along its contiguous axis. Any
    other layout is copied to C order first.
    """
    nd, c = a.ndim, a.shape[1]
    last = (0,) + tuple(range(2, nd)) + (1,)
    if a.transpose(last).flags.c_contiguous:
        rows = a.size // c
        r = math.gcd(rows, _BLOCK_ROWS)
        views = [t.transpose(last).reshape(rows // r, r, c) for t in (a,) + others]
        return ('krc,' * len(views))[:-1] + '->kc', views
    xp = array_module(a)
    views = [xp.ascontiguousarray(t).reshape(t.shape[0], c, -1) for t in (a,) + others]
    return ('ncl,' * len(views))[:-1] + '->nc', views


def _whole(fn, n, size):
    """``fn(0, n)``: a device's pass, run whole (``_threads.split``'s form)."""
    fn(0, n)


def _by_ranges(part, a):
    """``part(lo, hi)`` (per-channel float64 sums over a[lo:hi]) summed over ranges of a's
    first axis, which large arrays split between free cores (``_threads.split``)."""
    if type(a) is not np.ndarray:
        return part(0, a.shape[0])
    sums = {}
    _threads.split(lambda lo, hi: sums.__setitem__(lo, part(lo, hi)), a.shape[0], a.size)
    return sum(sums[lo] for lo in sorted(sums))


def _channel_sum(a):
    """Per-channel sum over every axis but 1, in float64 (float32 partials over few values)."""
    if a.size == 0:
        return array_module(a).zeros(a.shape[1])
    if type(a) is not np.ndarray:
        return _device.channel_sum(a)

    def part(lo, hi):
        spec, views = _channel_views(a[lo:hi])
        return np.einsum(spec, *views).sum(axis=0, dtype=np.float64)
    return _by_ranges(part, a)


def _channel_dot(a, b):
    """Per-channel sum of ``a * b`` over every axis but 1, in float64, without the product
    array; ``b`` is read in ``a``'s layout (copied into it when its strides differ)."""
    if a.size == 0:
        return array_module(a).zeros(a.shape[1])
    b = _in_layout(b, a)
    if type(a) is not np.ndarray:
        return _device.channel_dot(a, b)

    def part(lo, hi):
        spec, views = _channel_views(a[lo:hi], b[lo:hi])
        return np.einsum(spec, *views).sum(axis=0, dtype=np.float64)
    return _by_ranges(part, a)


def _in_layout(a, like):
    """``a`` if it has ``like``'s strides, else a copy laid out as ``like`` (a broadcast or
    differently ordered gradient) so that both are read in one order."""
    if a.strides == like.strides and a.dtype == like.dtype:
        return a
    out = np.empty_like(like)
    np.copyto(out, a)
    return out


def _row_views(*arrays):
    """``(views, expand)``: views of arrays sharing one layout for per-channel element-wise
    work, and the function that turns a (C,) vector into their broadcasting operand.

    NumPy runs an element-wise call as inner loops over the innermost coalesced axis; a
    channels-last array with a (1, C, 1, ...) operand gets inner loops of only C values. So a
    channels-last array is viewed as rows of R * C values (R whole pixels) with the vector
    tiled R times, and a C-contiguous one with short planes as rows of C * L values with each
    entry repeated L times. Other layouts keep the (1, C, 1, ...) broadcast.
    """
    a = arrays[0]
    nd, c = a.ndim, a.shape[1]
    if a.size and all(t.strides == a.strides for t in arrays):
        last = (0,) + tuple(range(2, nd)) + (1,)
        if a.transpose(last).flags.c_contiguous:
            r = math.gcd(a.size // c, _ROW_PIXELS)
            return ([t.transpose(last).reshape(-1, r * c) for t in arrays],
                    lambda v: np.broadcast_to(v, (r, c)).reshape(-1))
        plane = a.size // (a.shape[0] * c)
        if a.flags.c_contiguous and plane < _ROW_PIXELS:
            return ([t.reshape(a.shape[0], c * plane) for t in arrays],
                    lambda v: np.repeat(v, plane))
    return list(arrays), lambda v: _per_channel(v, nd)


def _per_channel(v, ndim):
    """A (C,) vector shaped (1, C, 1, ...) to broadcast against an (N, C, *) array."""
    return v.reshape((1, -1) + (1,) * (ndim - 2))


def _normalized(m, x, axes, count, eps):
    """(xhat, rstd) of ``x`` over ``axes`` recomputed with the math namespace ``m``."""
    mean = m.sum(x, axes, True) / count
    xc = x - mean
    rstd = 1 / m.sqrt(m.sum(xc * xc, axes, True) / count + eps)
    return xc * rstd, rstd


def _normalized_grad(m, g, xhat, rstd, axes, count):
    """The gradient through ``xhat = (x - mean) * rstd`` for ``g = dL/dxhat``."""
    return rstd * (g - m.sum(g, axes, True) / count - xhat * (m.sum(g * xhat, axes, True) / count))


# ------------------------------------------------------------------------------ batch norm
class BatchNormTrain(Op):
    """y = (x - mean) * rstd * w + b with the batch's per-channel statistics (axis 1).

    With xc = x - mean: dw = rstd sum(gy xc), db = sum(gy),
    dx = w rstd (gy - db/M - xc rstd dw/M). An input of ``ONE_PASS_BYTES`` or more whose
    channel means all lie within ``MEAN_LIMIT`` standard deviations of 0 is never centred: its
    variance is ``E[x^2] - mean^2`` from float64 sums, y = x * s + t, and the backward takes
    sum(gy xc) = sum(gy x) - mean sum(gy), which saves a pass and the xc array. Otherwise xc is
    computed (the two-pass variance) and kept in ``ctx.xc``. Keeps x and w (for higher order)
    and rstd. With ``running=(mean_tensor, var_tensor)`` the forward also moves those tensors'
    values towards the batch statistics (``new = (1 - momentum) * old + momentum * batch``,
    the variance unbiased); their arrays are replaced, never written, so graphs that saved them
    stay valid.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, w, b, eps, momentum, running):
        dtype = x.dtype
        count = x.size // x.shape[1]
        cpu = type(x) is np.ndarray
        if not cpu and _device.fusable(x, w, b, running):
            y, xc, rstd = _device.forward(ctx.xp, x, w, b, eps, momentum, running)
            if ctx.recording:
                ctx.save(x, w, rstd)
                ctx.xc, ctx.mean, ctx.eps = xc, None, eps
            return y
        split = _threads.split if cpu else _whole
        sums = _channel_sum(x)                          # float64; the rest in dtype
        mean = sums.astype(dtype) / count
        var = _one_pass_variance(x, sums / count) if x.nbytes >= ONE_PASS_BYTES and cpu \
            else None
        y, xc = np.empty_like(x), None                  # x's memory layout
        if var is not None:
            rstd = 1 / np.sqrt(var + eps)
            scale = w * rstd
            shift = (b - sums / count * scale).astype(dtype)

            def normalize(lo, hi):
                (xr, yr), expand = _row_views(x[lo:hi], y[lo:hi])
                np.multiply(xr, expand(scale), out=yr)
                yr += expand(shift)
        else:
            xc = np.empty_like(x)

            def centre(lo, hi):
                (xr, xcr), expand = _row_views(x[lo:hi], xc[lo:hi])
                np.subtract(xr, expand(mean), out=xcr)
            split(centre, x.shape[0], x.size)
            var = _channel_dot(xc, xc).astype(dtype) / count
            rstd = 1 / np.sqrt(var + eps)

            def normalize(lo, hi):
                (xcr, yr), expand = _row_views(xc[lo:hi], y[lo:hi])
                np.multiply(xcr, expand(w * rstd), out=yr)
                yr += expand(b)
        split(normalize, x.shape[0], x.size)
        if ctx.recording:
            ctx.save(x, w, rstd)
            ctx.xc, ctx.mean, ctx.eps = xc, sums / count, eps
        if running is not None:
            rm, rv = running
            unbiased = var * (count / (count - 1))
            rm._data = (rm._data * (1 - momentum) + mean * momentum).astype(rm._data.dtype)
            rv._data = (rv._data * (1 - momentum) + unbiased * momentum).astype(rv._data.dtype)
        return y

    @staticmethod
    def backward(ctx, gy):
        """The statistics recomputed from x, so that on Tensors they are on the graph."""
        x, w = ctx.saved[:2]
        nd = x.ndim
        count = x.size // x.shape[1]
        m = ctx.m
        axes = (0,) + tuple(range(2, nd))
        xhat, rstd = _normalized(m, x, axes, count, ctx.eps)
        wc = m.reshape(w, (1, -1) + (1,) * (nd - 2))
        gx = _normalized_grad(m, gy * wc, xhat, rstd, axes, count) if ctx.needs_grad(0) else None
        gw = m.sum(gy * xhat, axes) if ctx.needs_grad(1) else None
        gb = m.sum(gy, axes) if ctx.needs_grad(2) else None
        return gx, gw, gb

    @staticmethod
    def backward_arrays(ctx, gy):
        """Two reductions read in the layout of x (or of xc when kept), then gx in four
        in-place passes."""
        x, w, rstd = ctx.saved
        xc, mean = ctx.xc, ctx.mean
        dtype = x.dtype
        count = x.size // x.shape[1]
        base = x if xc is None else xc
        gy = _in_layout(gy, base)
        if xc is not None and type(xc) is not np.ndarray and w.dtype == dtype:
            gx, gw, gb = _device.backward(array_module(xc), gy, xc, w, rstd)
            return (gx if ctx.needs_grad(0) else None, gw if ctx.needs_grad(1) else None,
                    gb if ctx.needs_grad(2) else None)
        sums = _channel_sum(gy)
        dot = _channel_dot(base, gy)
        if xc is None:
            dot -= mean * sums                          # sum(gy xc), in float64
        gb = sums.astype(dtype)
        gw = dot.astype(dtype) * rstd
        gx = None
        if ctx.needs_grad(0):
            k = rstd * gw / count
            shift = (sums / count - mean * k).astype(dtype) if xc is None else gb / count
            gx = np.empty_like(base)

            def input_grad(lo, hi):
                (br, gyr, gxr), expand = _row_views(base[lo:hi], gy[lo:hi], gx[lo:hi])
                np.multiply(br, expand(k), out=gxr)
                if xc is None:                          # k (x - mean) + sum(gy) / M
                    gxr += expand(shift)
                    np.subtract(gyr, gxr, out=gxr)
                else:
                    np.subtract(gyr, gxr, out=gxr)
                    gxr -= expand(shift)
                gxr *= expand(w * rstd)
            split = _threads.split if type(base) is np.ndarray else _whole
            split(input_grad, base.shape[0], base.size)
        return gx, gw if ctx.needs_grad(1) else None, gb if ctx.needs_grad(2) else None


def _one_pass_variance(x, mean):
    """The per-channel variance ``E[x^2] - mean^2`` (float64 sums, ``mean`` in float64) in
    x's dtype, or None when some channel's mean is more than ``MEAN_LIMIT`` standard
    deviations from 0: the difference would then lose digits that two passes keep."""
    var = _channel_dot(x, x) / (x.size // x.shape[1]) - mean * mean
    if np.all(mean * mean <= MEAN_LIMIT ** 2 * var):
        return var.astype(x.dtype)
    return None


class BatchNormPredict(Op):
    """y = (x - mean) * rstd * w + b with given (moving) statistics: a per-channel affine map.

    dx = gy w rstd, dw = sum(gy (x - mean)) rstd, db = sum(gy); the statistics are constants.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, w, b, mean, var, eps):
        nd = x.ndim
        rstd = 1 / np.sqrt(var + eps)
        scale = w * rstd
        y = x * _per_channel(scale, nd)
        y += _per_channel(b - mean * scale, nd)
        if ctx.recording:
            ctx.save(x, w, mean, rstd)
        return y

    @staticmethod
    def backward(ctx, gy):
        x, w, mean, rstd = ctx.saved
        nd = x.ndim
        m = ctx.m
        shape = (1, -1) + (1,) * (nd - 2)
        axes = (0,) + tuple(range(2, nd))
        gx = gy * m.reshape(w * rstd, shape) if ctx.needs_grad(0) else None
        gw = m.sum(gy * (x - m.reshape(mean, shape)), axes) * rstd if ctx.needs_grad(1) else None
        gb = m.sum(gy, axes) if ctx.needs_grad(2) else None
        return gx, gw, gb, None, None

    @staticmethod
    def backward_arrays(ctx, gy):
        """Per-channel sums as one dot product each."""
        x, w, mean, rstd = ctx.saved
        nd = x.ndim
        gx = gy * _per_channel(w * rstd, nd) if ctx.needs_grad(0) else None
        gw = gb = None
        if ctx.needs_grad(1):
            xc = np.subtract(x, _per_channel(mean, nd))
            gw = _channel_dot(xc, gy).astype(x.dtype) * rstd
        if ctx.needs_grad(2):
            gb = _channel_sum(gy).astype(x.dtype)
        return gx, gw, gb, None, None


# ------------------------------------------------------------------------------ layer norm
class LayerNorm(Op):
    """y = (x - mean) * rstd * w + b, statistics over the last ``k`` axes of x.

    ``w`` and ``b`` (each optional, flagged by ``has_weight`` / ``has_bias``) have the shape of
    some trailing axes of x and broadcast; their gradients are sums over the leading axes.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, *params, k, eps, has_weight, has_bias):
        count = _trailing_size(x.shape, k)
        rows = x.reshape(-1, count)
        xhat = rows - rows.sum(axis=1, keepdims=True) / count
        var = np.einsum('rm,rm->r', xhat, xhat) / count
        rstd = (1 / np.sqrt(var + eps))[:, None]
        xhat *= rstd
        xhat = xhat.reshape(x.shape)
        w = params[0] if has_weight else None
        b = params[-1] if has_bias else None
        y = xhat if w is None else xhat * w
        if b is not None:
            y = y + b
        if ctx.recording:
            ctx.save(x, xhat, rstd, *(params[:1] if has_weight else ()))   # never save None
            ctx.k, ctx.eps = k, eps
            ctx.bias_shape = None if b is None else b.shape
        return y

    @staticmethod
    def backward(ctx, gy):
        """The statistics recomputed from x, so that on Tensors they are on the graph."""
        x, _, _, *w = ctx.saved
        w = w[0] if w else None
        k = ctx.k
        m = ctx.m
        axes = tuple(range(x.ndim - k, x.ndim))
        xhat, rstd = _normalized(m, x, axes, _trailing_size(x.shape, k), ctx.eps)
        gx = None
        if ctx.needs_grad(0):
            gx = _normalized_grad(m, gy if w is None else gy * w, xhat, rstd, axes,
                                  _trailing_size(x.shape, k))
        gw = gy * xhat if w is not None and ctx.needs_grad(1) else None  # the engine sums
        return _layer_norm_grads(ctx, gx, gw, gy, w)                      # these to shape

    @staticmethod
    def backward_arrays(ctx, gy):
        """Row statistics and parameter sums as einsum contractions."""
        x, xhat, rstd, *w = ctx.saved
        w = w[0] if w else None
        count = _trailing_size(x.shape, ctx.k)
        gx = gw = gb = None
        if ctx.needs_grad(0):
            g2 = (gy if w is None else gy * w).reshape(-1, count)
            x2 = xhat.reshape(-1, count)
            gx = x2 * (np.einsum('rm,rm->r', g2, x2)[:, None] / count)
            np.subtract(g2, gx, out=gx)
            gx -= g2.sum(axis=1, keepdims=True) / count
            gx *= rstd
            gx = gx.reshape(x.shape)
        if w is not None and ctx.needs_grad(1):
            gw = np.einsum('rp,rp->p', gy.reshape(-1, w.size),
                           xhat.reshape(-1, w.size)).reshape(w.shape)
        if ctx.bias_shape is not None and ctx.needs_grad(1 + (w is not None)):
            size = _trailing_size(ctx.bias_shape, len(ctx.bias_shape))
            gb = gy.reshape(-1, size).sum(axis=0).reshape(ctx.bias_shape)
        return _layer_norm_grads(ctx, gx, gw, gb, w)


def _layer_norm_grads(ctx, gx, gw, gb, w):
    """(gx, [gw], [gb]): one entry per input the op was given."""
    grads = [gx]
    if w is not None:
        grads.append(gw if ctx.needs_grad(1) else None)
    if ctx.bias_shape is not None:
        grads.append(gb if ctx.needs_grad(len(grads)) else None)
    return tuple(grads)


def _trailing_size(shape, k):
    """The number of elements in the last ``k`` axes of ``shape``."""
    size = 1
    for n in shape[len(shape) - k:]:
        size *= n
    return size


# ------------------------------------------------------------------------------ public
def _tensor(value, name, arg):
    if not isinstance(value, Tensor):
        raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(value).__name__}")
    return value


def _floating_input(value, name, arg):
    x = _tensor(value, name, arg)
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"ops.{name}: {arg} must be a floating tensor, got dtype {x.dtype}")
    return x


def _real(value, name, arg, low, high, low_open):
    """``value`` as a float in [low, high] (or (low, high] when ``low_open``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ops.{name}: {arg} must be a float, got {type(value).__name__}")
    value = float(value)
    if not ((value > low) if low_open else (value >= low)) or value > high:
        if high == float('inf'):
            raise ValueError(f"ops.{name}: {arg} must be positive, got {value}")
        interval = f"{'(' if low_open else '['}{low}, {high}]"
        raise ValueError(f"ops.{name}: {arg} must be in {interval}, got {value}")
    return value


def _compute_dtype(x):
    """The dtype statistics are computed in: float32 for float16 inputs, else x's own."""
    dtype = x._data.dtype
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def _in_float32(fn, *tensors):
    """``fn(*tensors)`` with float16 Tensors cast to float32 and the result cast back to
    float16 (both casts differentiable, so gradients come back in float16 too)."""
    from .. import _dtype
    args = [t if t is None or t._data.dtype != np.float16 else cast(t, _dtype.float32)
            for t in tensors]
    return cast(fn(*args), _dtype.float16)


def _param(value, dtype, shape, name, arg):
    """A weight/bias Tensor of ``shape``, cast (differentiably) to the input's dtype."""
    t = _floating_input(value, name, arg)
    if t.shape != shape:
        raise ValueError(f"ops.{name}: {arg} must have shape {shape}, got {t.shape}")
    return t if t._data.dtype == dtype else cast(t, dtype)


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
               eps=1e-5):
    """Batch normalization over axis 1 (the channels) of an (N, C, *) input.

    ``y = (x - mean) / sqrt(var + eps) * weight + bias`` per channel. With ``training=True``
    the batch's mean and (biased) variance are used, and ``running_mean`` / ``running_var``
    are updated in place as ``new = (1 - momentum) * running + momentum * batch``, with the
    unbiased batch variance (MindSpore's functional convention; the ``nn.BatchNorm*`` layers
    pass ``1 - their momentum``). Otherwise the running statistics are used and left as they
    are. The running statistics receive no gradient.

    Args:
        input_x: floating Tensor of shape (N, C) or (N, C, *).
        running_mean, running_var: Tensors (Parameters in training) of shape (C,).
        weight, bias: Tensors of shape (C,), the scale and shift.
        training: whether to use and update the batch statistics. Default False.
        momentum: the weight of the batch statistics in the update, in [0, 1]. Default 0.1.
        eps: added to the variance, in (0, 1]. Default 1e-5.

    Returns:
        Tensor of ``input_x``'s shape and dtype.

    Raises:
        TypeError: for a non-Tensor argument, a non-floating input, a non-bool ``training`` or
            a non-number ``momentum`` / ``eps``.
        ValueError: for an input of rank < 2, statistics or parameters not of shape (C,),
            ``momentum`` / ``eps`` out of range, or training with one value per channel.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 6.0]])
    >>> mean, var = ms.ops.zeros(2), ms.ops.ones(2)
    >>> y = ms.ops.batch_norm(x, mean, var, ms.ops.ones(2), ms.ops.zeros(2), training=True)
    >>> print(y.asnumpy().round(4), mean.asnumpy())
    [[-1. -1.]
     [ 1.  1.]] [0.2 0.4]
    """
    name = 'batch_norm'
    x = _floating_input(input_x, name, 'input_x')
    if x.ndim < 2:
        raise ValueError(f"ops.batch_norm: input_x must have shape (N, C) or (N, C, ...), got "
                         f"{x.shape}")
    if not isinstance(training, bool):
        raise TypeError(f"ops.batch_norm: training must be a bool, got {training!r}")
    momentum = _real(momentum, name, 'momentum', 0.0, 1.0, False)
    eps = _real(eps, name, 'eps', 0.0, 1.0, True)
    shape = (x.shape[1],)
    for arg, value in (('running_mean', running_mean), ('running_var', running_var)):
        if _floating_input(value, name, arg).shape != shape:
            raise ValueError(f"ops.batch_norm: {arg} must have shape {shape} (the channels of "
                             f"input_x {x.shape}), got {value.shape}")
    dtype = _compute_dtype(x)
    w = _param(weight, dtype, shape, name, 'weight')
    b = _param(bias, dtype, shape, name, 'bias')
    if x._data.dtype != dtype:          # float16: statistics in float32
        return _in_float32(lambda x16: batch_norm(x16, running_mean, running_var, w, b, training,
                                                  momentum, eps), x)
    if training:
        if x.size == 0:
            raise ValueError(f"ops.batch_norm: input_x has no values to take batch statistics "
                             f"from (shape {x.shape})")
        if x.size == x.shape[1]:
            raise ValueError(f"ops.batch_norm: training needs more than one value per channel, "
                             f"got input_x of shape {x.shape}")
        return BatchNormTrain.apply(x, w, b, eps=eps, momentum=momentum,
                                    running=(running_mean, running_var))
    mean, var = (t if t._data.dtype == dtype else cast(t, dtype)
                 for t in (running_mean, running_var))
    return BatchNormPredict.apply(x, w, b, mean, var, eps=eps)


def _normalized_shape(value, name):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = (value,)
    if not isinstance(value, (tuple, list)) or not value or not all(
            isinstance(n, numbers.Integral) and not isinstance(n, bool) and n > 0 for n in value):
        raise TypeError(f"{name}: normalized_shape must be a positive int or a non-empty "
                        f"tuple/list of positive ints, got {value!r}")
    return tuple(int(n) for n in value)


def normalize_last(x, k, weight, bias, eps):
    """Layer normalization of ``x`` over its last ``k`` axes; ``weight`` / ``bias`` (Tensors
    of x's dtype, or float32 for a float16 x, shaped as some trailing axes of x, or None)
    scale and shift the result."""
    if x._data.dtype == np.float16:     # statistics in float32, result in float16
        return _in_float32(lambda x, w, b: normalize_last(x, k, w, b, eps), x, weight, bias)
    params = tuple(p for p in (weight, bias) if p is not None)
    return LayerNorm.apply(x, *params, k=k, eps=eps, has_weight=weight is not None,
                           has_bias=bias is not None)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Layer normalization over the trailing axes given by ``normalized_shape``.

    ``y = (x - mean) / sqrt(var + eps) * weight + bias``, with the mean and (biased) variance
    taken over the last ``len(normalized_shape)`` axes of each sample.

    Args:
        input: floating Tensor whose shape ends with ``normalized_shape``.
        normalized_shape: an int or a tuple/list of ints, the trailing shape to normalize.
        weight, bias: Tensors of shape ``normalized_shape``, or None (scale 1, shift 0).
        eps: added to the variance, > 0. Default 1e-5.

    Returns:
        Tensor of ``input``'s shape and dtype.

    Raises:
        TypeError: for a non-Tensor or non-floating input, or a bad ``normalized_shape``.
        ValueError: when ``input`` does not end with ``normalized_shape``, ``weight`` / ``bias``
            have another shape, or ``eps`` is not positive.

    >>> import hookgrad as ms
    >>> print(ms.ops.layer_norm(ms.Tensor([[1.0, 2.0, 3.0]]), (3,)).asnumpy().round(4))
    [[-1.2247  0.      1.2247]]
    """
    name = 'layer_norm'
    x = _floating_input(input, name, 'input')
    shape = _normalized_shape(normalized_shape, 'ops.layer_norm')
    if x.shape[x.ndim - len(shape):] != shape or x.ndim < len(shape):
        raise ValueError(f"ops.layer_norm: input of shape {x.shape} does not end with "
                         f"normalized_shape {shape}")
    eps = _real(eps, name, 'eps', 0.0, float('inf'), True)
    dtype = _compute_dtype(x)
    w = None if weight is None else _param(weight, dtype, shape, name, 'weight')
    b = None if bias is None else _param(bias, dtype, shape, name, 'bias')
    return normalize_last(x, len(shape), w, b, eps)
