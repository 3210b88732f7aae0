"""batch_norm's passes on a device (the GPU's arrays), in a handful of kernel launches.

The CPU's code (normalization.py) is written as NumPy calls on (C,) vectors and whole arrays;
on a device each call is a kernel launch, and a ResNet's batch norms then cost more in
launches than in arithmetic. Here the per-channel vector work of each pass is one fused kernel
(kernels/fused.py) computing what the CPU computes, in its order and dtype, so the two devices
round alike except for the order of the sums:

- forward: the float64 channel sums, the centred input, the float64 sums of its squares, one
  kernel for the variance, rstd and scale, one for the running statistics, one for y;
- backward: the float64 sums of gy and of xc * gy, one kernel for the weight and bias
  gradients and the input gradient's coefficients, one for the input gradient.
"""
import numpy as np

from ..kernels import fused

__all__ = ['channel_sum', 'channel_dot', 'fusable', 'forward', 'backward']


def _axes(ndim):
    return (0,) + tuple(range(2, ndim))


def _column(v, ndim):
    return v.reshape((1, -1) + (1,) * (ndim - 2))


def channel_sum(a):
    """Per-channel sum of ``a`` over every axis but 1, accumulated in float64."""
    return a.sum(axis=_axes(a.ndim), dtype=np.float64)


def channel_dot(a, b):
    """Per-channel sum of ``a * b`` (the product in their dtype), accumulated in float64."""
    return (a * b).sum(axis=_axes(a.ndim), dtype=np.float64)


def fusable(x, w, b, running):
    """Whether the fused kernels apply: weight, bias and running statistics in x's dtype."""
    dtype = x.dtype
    return w.dtype == dtype and b.dtype == dtype and (
        running is None or all(t._data.dtype == dtype for t in running))


def forward(xp, x, w, b, eps, momentum, running):
    """``(y, xc, rstd)`` of batch norm with the batch's statistics; the running statistics
    (Tensors) get new arrays ``(1 - momentum) * old + momentum * batch`` (variance unbiased)."""
    nd, t = x.ndim, x.dtype.type
    count = x.size // x.shape[1]
    sums = channel_sum(x)
    xc = fused.kernel(xp, 'subtract_mean')(x, _column(sums, nd), t(count))
    var, rstd, scale = fused.kernel(xp, 'batch_norm_statistics')(channel_dot(xc, xc), w,
                                                                 t(count), t(eps))
    y = fused.kernel(xp, 'scale_shift')(xc, _column(scale, nd), _column(b, nd))
    if running is not None:
        rm, rv = running
        rm._data, rv._data = fused.kernel(xp, 'batch_norm_running')(
            rm._data, rv._data, sums, var, t(count), t(1 - momentum), t(momentum),
            t(count / (count - 1)))
    return y, xc, rstd


def backward(xp, gy, xc, w, rstd):
    """``(gx, gw, gb)`` of batch norm for gy, from the centred input and rstd."""
    nd, t = xc.ndim, xc.dtype.type
    count = xc.size // xc.shape[1]
    gb, gw, k, shift, ws = fused.kernel(xp, 'batch_norm_grad_statistics')(
        channel_sum(gy), channel_dot(xc, gy), rstd, w, t(count))
    gx = fused.kernel(xp, 'batch_norm_input_grad')(
        xc, gy, _column(k, nd), _column(shift, nd), _column(ws, nd))
    return gx, gw, gb
