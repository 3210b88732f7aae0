"""MindSpore's ``ops.operations._grad_ops``: the backward Primitives of common activations,
elementwise functions, BiasAdd and Maximum/Minimum, called directly (MindSpore's own tests and
some models use them as ``G.ReluGrad()(dy, x)``).

Each computes its formula with hookgrad's functional ops, so it records a graph and works under
``jit`` like any op. Argument order follows MindSpore 2.10's Primitives: an activation's grad
takes ``(dy, x)`` (``(dy, y)`` for Elu), a function of its output takes ``(y, dy)``, an inverse
trigonometric one ``(x, dy)``.
"""
import math
import numbers

from ... import _dtype as _mstype
from .._base import as_tensor, normalize_axis
from ..activation import sigmoid
from ..arithmetic import cast, mul
from ..comparison import equal, gt, isnan, le, logical_and, logical_or, lt, maximum
from ..complex import conj
from ..indexing import where
from ..reduction import reduce_sum
from ..creation import arange
from ..rearrange import strided_slice
from ..scatter_gather import scatter_nd
from ..shaping import reshape
from ..trigonometric import cosh, sinh
from ..unary import sign, sqrt, tanh
from ._primitive import Primitive, _flag, _int
from ._image import Conv2DBackpropInput as _Conv2DBackpropInput, _image
from ..conv import Conv2DBackpropFilter as _BackpropFilter, out_length, same_padding
from ..._tensor import Tensor

__all__ = ['ReluGrad', 'ReLU6Grad', 'SigmoidGrad', 'TanhGrad', 'SqrtGrad', 'RsqrtGrad',
           'ReciprocalGrad', 'InvGrad', 'AsinGrad', 'ACosGrad', 'AtanGrad', 'AsinhGrad',
           'AcoshGrad', 'AbsGrad', 'EluGrad', 'HSigmoidGrad', 'HSwishGrad', 'SoftplusGrad',
           'SiLUGrad', 'GeLUGrad', 'BiasAddGrad', 'MaximumGrad', 'MinimumGrad', 'LayerNormGrad',
           'L2NormalizeGrad', 'Conv2DBackpropFilter', 'StridedSliceGrad']


def _zero(t):
    return t * 0


def _conj(t):
    """The derivative factor of a gradient kernel, conjugated for complex inputs (the gradient
    of a real loss with respect to z is ``dy * conj(f'(z))``, as MindSpore's kernels give it)."""
    return conj(t) if t._data.dtype.kind == 'c' else t


class ReluGrad(Primitive):
    """``ReluGrad()(dy, x)``: ``dy`` where ``x > 0``, else 0."""
    def construct(self, y_backprop, x):
        return where(gt(x, 0), y_backprop, _zero(y_backprop))


class ReLU6Grad(Primitive):
    """``ReLU6Grad()(dy, x)``: ``dy`` where ``0 < x <= 6``, else 0 (the upper bound passes the
    gradient, as MindSpore's kernel does)."""
    def construct(self, y_grad, x):
        return where(logical_and(gt(x, 0), le(x, 6)), y_grad, _zero(y_grad))


class SigmoidGrad(Primitive):
    """``SigmoidGrad()(y, dy)``: ``dy * y * (1 - y)`` with y the sigmoid's output."""
    def construct(self, y, dy):
        return dy * _conj(y * (1 - y))


class TanhGrad(Primitive):
    """``TanhGrad()(y, dy)``: ``dy * (1 - y**2)`` with y the tanh's output."""
    def construct(self, y, dy):
        return dy * _conj(1 - y * y)


class SqrtGrad(Primitive):
    """``SqrtGrad()(y, dy)``: ``dy / (2 y)`` with y the square root."""
    def construct(self, y, grad):
        return grad / _conj(2 * y)


class RsqrtGrad(Primitive):
    """``RsqrtGrad()(y, dy)``: ``-dy * y**3 / 2`` with y the reciprocal square root."""
    def construct(self, y, grad):
        return grad * _conj(y * y * y * -0.5)


class ReciprocalGrad(Primitive):
    """``ReciprocalGrad()(y, dy)``: ``-dy * y**2`` with y the reciprocal."""
    def construct(self, y, dy):
        return -(dy * _conj(y * y))


class InvGrad(ReciprocalGrad):
    """``InvGrad()(y, dy)``: ``-dy * y**2``, as ReciprocalGrad."""


class AsinGrad(Primitive):
    """``AsinGrad()(x, dy)``: ``dy / sqrt(1 - x**2)``."""
    def construct(self, x, dout):
        return dout / _conj(sqrt(1 - x * x))


class ACosGrad(Primitive):
    """``ACosGrad()(x, dy)``: ``-dy / sqrt(1 - x**2)``."""
    def construct(self, x, dout):
        return -(dout / _conj(sqrt(1 - x * x)))


class AtanGrad(Primitive):
    """``AtanGrad()(x, dy)``: ``dy / (1 + x**2)``."""
    def construct(self, x, dout):
        return dout / _conj(1 + x * x)


class AsinhGrad(Primitive):
    """``AsinhGrad()(y, dy)``: ``dy / cosh(y)`` with y the asinh's output."""
    def construct(self, y, dy):
        return dy / _conj(cosh(y))


class AcoshGrad(Primitive):
    """``AcoshGrad()(y, dy)``: ``dy / sinh(y)`` with y the acosh's output."""
    def construct(self, y, dy):
        return dy / _conj(sinh(y))


class AbsGrad(Primitive):
    """``AbsGrad()(x, dy)``: ``sign(x) * dy``."""
    def construct(self, x, dy):
        return sign(x) * dy


class EluGrad(Primitive):
    """``EluGrad()(dy, y)``: ``dy`` where the Elu's output ``y > 0``, else ``dy * (y + 1)``."""
    def construct(self, dy, y):
        return where(gt(y, 0), dy, dy * (y + 1))


class HSigmoidGrad(Primitive):
    """``HSigmoidGrad()(dy, x)``: ``dy / 6`` where ``-3 < x < 3``, else 0."""
    def construct(self, grads, x):
        return where(logical_and(gt(x, -3), lt(x, 3)), grads / 6, _zero(grads))


class HSwishGrad(Primitive):
    """``HSwishGrad()(dy, x)``: 0 below -3, ``dy`` from 3, ``dy * (2x + 3) / 6`` between."""
    def construct(self, y_grad, x):
        inner = y_grad * (2 * x + 3) / 6
        return where(lt(x, -3), _zero(y_grad), where(lt(x, 3), inner, y_grad))


class SoftplusGrad(Primitive):
    """``SoftplusGrad()(dy, x)``: ``dy * sigmoid(x)``."""
    def construct(self, gradients, features):
        return gradients * sigmoid(features)


class SiLUGrad(Primitive):
    """``SiLUGrad()(dy, x)``: ``dy * (s + x s (1 - s))`` with ``s = sigmoid(x)``."""
    def construct(self, dout, x):
        s = sigmoid(x)
        return dout * (s + x * s * (1 - s))


class GeLUGrad(Primitive):
    """``GeLUGrad()(dy, x, y)``: ``dy`` times the derivative of GeLU's tanh form at ``x``
    (``y``, the forward output, is not needed)."""
    def construct(self, dy, x, y):
        c = math.sqrt(2 / math.pi)
        t = tanh(c * (x + 0.044715 * x * x * x))
        return dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * 0.044715 * x * x))


class BiasAddGrad(Primitive):
    """``BiasAddGrad(data_format='NCHW')(dout)``: ``dout`` summed over every axis but the
    channel axis (1, or the last for 'NHWC')."""
    def __init__(self, data_format='NCHW'):
        if data_format not in ('NCHW', 'NHWC', 'NCDHW'):
            raise ValueError(f"ops.BiasAddGrad: data_format must be 'NCHW', 'NHWC' or 'NCDHW', "
                             f"got {data_format!r}")
        super().__init__(data_format=data_format)

    def construct(self, dout):
        dout = as_tensor(dout, 'dout')
        channel = dout.ndim - 1 if self.data_format == 'NHWC' else 1
        if dout.ndim < 2:
            raise ValueError(f"ops.BiasAddGrad: dout must be at least 2-d, got shape "
                             f"{dout.shape}")
        return reduce_sum(dout, tuple(a for a in range(dout.ndim) if a != channel))


def _to_shape(g, shape):
    """``g`` summed down to ``shape`` (the shape of an operand broadcast against another)."""
    if g.shape == tuple(shape):
        return g
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                      if n == 1 and g.shape[lead + i] != 1)
    return reshape(reduce_sum(g, axes), tuple(shape)) if axes else g


class _ExtremumGrad(Primitive):
    def __init__(self, grad_x=True, grad_y=True):
        name = type(self).__name__
        super().__init__(grad_x=_flag(grad_x, name, 'grad_x'),
                         grad_y=_flag(grad_y, name, 'grad_y'))

    def construct(self, x, y, dout):
        x, y = as_tensor(x, 'x'), as_tensor(y, 'y')
        picked_x = self._wins(x, y)
        # equal inputs share the gradient; a NaN on either side passes it to both (MindSpore)
        tie = equal(x, y)
        unordered = logical_or(isnan(x), isnan(y))
        wx = cast(picked_x, dout.dtype) + 0.5 * cast(tie, dout.dtype) + cast(unordered, dout.dtype)
        wy = 1 - cast(picked_x, dout.dtype) - 0.5 * cast(tie, dout.dtype)
        return _to_shape(mul(dout, wx), x.shape), _to_shape(mul(dout, wy), y.shape)


class MaximumGrad(_ExtremumGrad):
    """``MaximumGrad(grad_x=True, grad_y=True)(x, y, dout)``: ``(dx, dy)`` of
    ``maximum(x, y)``, each summed to its operand's shape; both are returned whatever the flags
    (as MindSpore's CPU kernel does)."""
    @staticmethod
    def _wins(x, y):
        return gt(x, y)


class MinimumGrad(_ExtremumGrad):
    """``MinimumGrad(grad_x=True, grad_y=True)(x, y, dout)``: ``(dx, dy)`` of
    ``minimum(x, y)``, as MaximumGrad."""
    @staticmethod
    def _wins(x, y):
        return lt(x, y)



class LayerNormGrad(Primitive):
    """``LayerNormGrad(begin_norm_axis=1, begin_params_axis=1)(x, dy, variance, mean, gamma)``:
    ``(dx, dgamma, dbeta)`` of LayerNorm over the axes from ``begin_norm_axis`` on.

    ``mean`` and ``variance`` are used as given (one value per normalized group, any shape of
    that size), with ``rstd = (variance + 1e-7) ** -0.5``, the epsilon of MindSpore's CPU
    kernel. dgamma and dbeta are summed over the axes before ``begin_params_axis`` and have the
    shape ``x.shape[begin_params_axis:]``. Float16 inputs are computed in Float32.
    """
    _EPSILON = 1e-7

    def __init__(self, begin_norm_axis=1, begin_params_axis=1):
        super().__init__(
            begin_norm_axis=_int(begin_norm_axis, 'LayerNormGrad', 'begin_norm_axis'),
            begin_params_axis=_int(begin_params_axis, 'LayerNormGrad', 'begin_params_axis'))

    def construct(self, x, dy, variance, mean, gamma):
        x, dy = as_tensor(x, 'x'), as_tensor(dy, 'dy')
        variance, mean = as_tensor(variance, 'variance'), as_tensor(mean, 'mean')
        gamma = as_tensor(gamma, 'gamma')
        norm = normalize_axis(self.begin_norm_axis, x.ndim, 'LayerNormGrad')
        params = normalize_axis(self.begin_params_axis, x.ndim, 'LayerNormGrad')
        if dy.shape != x.shape:
            raise ValueError(f"ops.LayerNormGrad: dy must have x's shape {x.shape}, got "
                             f"{dy.shape}")
        half = x.dtype == _mstype.float16
        if half:
            x, dy, variance, mean, gamma = (cast(t, _mstype.float32)
                                            for t in (x, dy, variance, mean, gamma))
        stat_shape = x.shape[:norm] + (1,) * (x.ndim - norm)
        groups = math.prod(x.shape[:norm])
        for name, t in (('variance', variance), ('mean', mean)):
            if t.size != groups:
                raise ValueError(f"ops.LayerNormGrad: {name} must hold one value per "
                                 f"normalized group ({groups}), got shape {t.shape}")
        rstd = (reshape(variance, stat_shape) + self._EPSILON) ** -0.5
        centered = x - reshape(mean, stat_shape)
        dyg = dy * reshape(gamma, x.shape[params:])
        axes = tuple(range(norm, x.ndim))
        count = math.prod(x.shape[norm:])
        sum1 = reduce_sum(-0.5 * dyg * centered * rstd ** 3, axes, keep_dims=True)
        sum2 = reduce_sum(dyg, axes, keep_dims=True)
        sum3 = reduce_sum(-2.0 * centered, axes, keep_dims=True)
        dx = (dyg * rstd + sum1 * (2.0 / count) * centered
              + (-rstd * sum2 + sum1 * sum3 * (1.0 / count)) * (1.0 / count))
        lead = tuple(range(params))
        dgamma = reduce_sum(dy * rstd * centered, lead) if lead else dy * rstd * centered
        dbeta = reduce_sum(dy, lead) if lead else dy
        if half:
            return tuple(cast(t, _mstype.float16) for t in (dx, dgamma, dbeta))
        return dx, dgamma, dbeta


class L2NormalizeGrad(Primitive):
    """``L2NormalizeGrad(axis=0, epsilon=1e-4)(input_x, out, dout)``: the gradient of
    L2Normalize, ``(dout - out * sum(out * dout)) / max(||x||, epsilon)``, the sum and norm
    taken over ``axis`` (``out`` is used as given). As MindSpore's kernel, the norm is bounded
    below by epsilon itself (not by its square root).

    Raises:
        TypeError: when axis is not an int or a list/tuple of one int, or epsilon not a number.
    """
    def __init__(self, axis=0, epsilon=1e-4):
        axes = [axis] if isinstance(axis, int) and not isinstance(axis, bool) else axis
        if not isinstance(axes, (list, tuple)):
            raise TypeError(f"ops.L2NormalizeGrad: axis must be an int, list or tuple, got "
                            f"{type(axis).__name__}")
        if len(axes) != 1 or isinstance(axes[0], bool) or not isinstance(axes[0], int):
            raise TypeError(f"ops.L2NormalizeGrad: axis must hold exactly one int, got {axis!r}")
        if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real):
            raise TypeError(f"ops.L2NormalizeGrad: epsilon must be an int or float, got "
                            f"{type(epsilon).__name__}")
        super().__init__(axis=list(axes), epsilon=float(epsilon))

    def construct(self, input_x, out, dout):
        x = as_tensor(input_x, 'input_x')
        out, dout = as_tensor(out, 'out'), as_tensor(dout, 'dout')
        axis = normalize_axis(self.axis[0], x.ndim, 'L2NormalizeGrad')
        norm = sqrt(reduce_sum(x * x, axis, keep_dims=True))
        norm = maximum(norm, as_tensor(self.epsilon).astype(norm.dtype))
        return (dout - out * reduce_sum(out * dout, axis, keep_dims=True)) / norm


class Conv2DBackpropFilter(_Conv2DBackpropInput):
    """``Conv2DBackpropFilter(out_channel, kernel_size, pad_mode='valid', pad=0,
    pad_list=(0, 0, 0, 0), mode=1, stride=(1, 1), dilation=(1, 1, 1, 1), group=1,
    data_format='NCHW')(dout, x, filter_size)``: the gradient of ``Conv2D`` with respect to its
    weight, of shape ``filter_size`` (C_out, C_in / group, kh, kw).

    With pad_mode 'pad' the padding is ``pad_list`` (top, bottom, left, right), as in
    MindSpore, whose kernel does not read ``pad``.

    Raises:
        RuntimeError: a filter_size whose convolution of x would not give dout's shape (MindSpore's
            CPU kernel refuses it with a RuntimeError too).
    """
    def __init__(self, out_channel, kernel_size, pad_mode='valid', pad=0, pad_list=(0, 0, 0, 0),
                 mode=1, stride=(1, 1), dilation=(1, 1, 1, 1), group=1, data_format='NCHW'):
        super().__init__(out_channel, kernel_size, pad_mode, pad, pad_list, mode, stride,
                         dilation, group, data_format)

    def construct(self, dout, x, filter_size):
        gy, x = _image(dout, 'Conv2DBackpropFilter'), _image(x, 'Conv2DBackpropFilter')
        size = tuple(int(v) for v in (filter_size.tolist() if isinstance(filter_size, Tensor)
                                      else filter_size))
        (h, wd), (kh, kw) = x.shape[2:], size[2:] if len(size) == 4 else (0, 0)
        pads = self._pads
        if self.pad_mode == 'same':
            pads = (same_padding(h, kh, self.stride[0], self.dilation[0])
                    + same_padding(wd, kw, self.stride[1], self.dilation[1]))
        if len(size) != 4 or size[0] != gy.shape[1] or size[1] * self.group != x.shape[1] or \
                gy.shape[0] != x.shape[0] or \
                (out_length(h + pads[0] + pads[1], kh, self.stride[0], self.dilation[0]),
                 out_length(wd + pads[2] + pads[3], kw, self.stride[1], self.dilation[1])) != \
                gy.shape[2:]:
            raise RuntimeError(f"ops.Conv2DBackpropFilter: a filter of size {size} does not "
                               f"convolve x of shape {x.shape} (group={self.group}, padding "
                               f"{tuple(pads)}) to dout's shape {gy.shape}")
        return _BackpropFilter.apply(gy, x, kernel_size=(kh, kw), stride=self.stride,
                                     padding=tuple(pads), dilation=self.dilation,
                                     groups=self.group)


class StridedSliceGrad(Primitive):
    """``StridedSliceGrad(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
    shrink_axis_mask=0)(dy, shapex, begin, end, strides)``: zeros of shape ``shapex`` with
    ``dy`` at the elements that ``StridedSlice`` with these arguments picks (its adjoint)."""
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                 shrink_axis_mask=0):
        super().__init__(begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                         new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)

    def construct(self, dy, shapex, begin, end, strides):
        dy = as_tensor(dy, 'dy')
        shape = tuple(int(n) for n in shapex)
        size = math.prod(shape)
        # the flat positions the slice picks: no position repeats, so a scatter places dy
        picked = strided_slice(reshape(arange(size), shape), begin, end, strides,
                               self.begin_mask, self.end_mask, self.ellipsis_mask,
                               self.new_axis_mask, self.shrink_axis_mask)
        if picked.size != dy.size:      # dy is taken in row-major order, as a reshape would
            raise ValueError(f"ops.StridedSliceGrad: dy must have the {picked.size} elements "
                             f"of the slice of shape {picked.shape}, got shape {dy.shape}")
        flat = scatter_nd(reshape(picked, (-1, 1)), reshape(dy, (-1,)), (size,))
        return reshape(flat, shape)
