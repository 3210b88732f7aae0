"""MindSpore's Primitive classes for network layers: activations, bias, layer and batch
normalization.

Each is a thin callable over the functional ops it names (see ``primitives.py``), so it is
differentiable and observed like them. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
import numbers

from .primitives import GeLU, Primitive, _flag
from . import (activation as _act, arithmetic as _arith, conv as _conv, creation as _create,
               nn_activation as _nnact,
               normalization as _norm, reduction as _red, shaping as _shape, unary as _unary)
from ._base import as_tensor, normalize_axis

__all__ = [
    'ReLU6', 'FastGeLU', 'FastGelu', 'Gelu', 'HSwish', 'HSigmoid', 'Elu', 'SeLU', 'CeLU',
    'Softplus', 'Softsign', 'Mish', 'PReLU', 'HShrink', 'SoftShrink', 'GLU', 'BiasAdd',
    'LayerNorm', 'BatchNorm',
]


def _number(value, prim, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ops.{prim}: {what} must be a float, got {value!r}")
    return float(value)


def _int(value, prim, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{prim}: {what} must be an int, got {value!r}")
    return int(value)


# ----------------------------------------------------------------------------- activations
class _Activation(Primitive):
    function = None

    def construct(self, x):
        return type(self).function(x)


class ReLU6(_Activation):
    """``ReLU6()(x)``: ``min(max(x, 0), 6)``."""
    function = staticmethod(_act.relu6)


class FastGeLU(_Activation):
    """``FastGeLU()(x)``: ``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``."""
    function = staticmethod(_nnact.fast_gelu)


FastGelu = FastGeLU
Gelu = GeLU


class HSwish(_Activation):
    """``HSwish()(input)``: ``x * relu6(x + 3) / 6``."""
    function = staticmethod(_nnact.hardswish)


class HSigmoid(_Activation):
    """``HSigmoid()(input)``: ``relu6(x + 3) / 6``."""
    function = staticmethod(_nnact.hardsigmoid)


class SeLU(_Activation):
    """``SeLU()(input_x)``: scaled ELU with MindSpore's fixed alpha and scale."""
    function = staticmethod(_nnact.selu)


class Softplus(_Activation):
    """``Softplus()(input)``: ``log(1 + exp(x))``."""
    function = staticmethod(_act.softplus)


class Softsign(_Activation):
    """``Softsign()(x)``: ``x / (1 + |x|)``."""
    function = staticmethod(_nnact.softsign)


class Mish(_Activation):
    """``Mish()(x)``: ``x * tanh(softplus(x))``."""
    function = staticmethod(_nnact.mish)


class Elu(Primitive):
    """``Elu(alpha=1.0)(input_x)``: ``x`` where x > 0, ``alpha * (exp(x) - 1)`` elsewhere.

    Raises:
        TypeError: when alpha is not a float.
        ValueError: when alpha is not 1.0 (the only value MindSpore's Elu primitive takes).
    """
    def __init__(self, alpha=1.0):
        alpha = _number(alpha, 'Elu', 'alpha')
        if alpha != 1.0:
            raise ValueError(f"ops.Elu: alpha must be 1.0, got {alpha!r}")
        super().__init__(alpha=alpha)

    def construct(self, input_x):
        return _nnact.elu(input_x, self.alpha)


class CeLU(Primitive):
    """``CeLU(alpha=1.0)(x)``: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Raises:
        TypeError: when alpha is not a float. ValueError: when alpha is 0.
    """
    def __init__(self, alpha=1.0):
        alpha = _number(alpha, 'CeLU', 'alpha')
        if alpha == 0.0:
            raise ValueError("ops.CeLU: alpha must not be 0")
        super().__init__(alpha=alpha)

    def construct(self, x):
        return _nnact.celu(x, self.alpha)


class PReLU(Primitive):
    """``PReLU()(x, weight)``: ``x`` where x > 0, ``weight * x`` elsewhere, one weight per
    channel (axis 1) or one for all."""
    def construct(self, x, weight):
        return _nnact.prelu(x, weight)


class _Shrink(Primitive):
    def __init__(self, lambd=0.5):
        lambd = _number(lambd, type(self).__name__, 'lambd')
        if lambd < 0:
            raise ValueError(f"ops.{type(self).__name__}: lambd must be >= 0, got {lambd!r}")
        super().__init__(lambd=lambd)


class HShrink(_Shrink):
    """``HShrink(lambd=0.5)(input)``: ``x`` where ``|x| > lambd``, 0 elsewhere."""
    def construct(self, input):
        return _nnact.hardshrink(input, self.lambd)


class SoftShrink(_Shrink):
    """``SoftShrink(lambd=0.5)(input)``: ``x - sign(x) * lambd`` where ``|x| > lambd``, 0
    elsewhere."""
    def construct(self, input):
        return _nnact.softshrink(input, self.lambd)


class GLU(Primitive):
    """``GLU(axis=-1)(x)``: x halved along ``axis`` into (a, b), then ``a * sigmoid(b)``."""
    def __init__(self, axis=-1):
        super().__init__(axis=_int(axis, 'GLU', 'axis'))

    def construct(self, x):
        return _nnact.glu(x, self.axis)


# ----------------------------------------------------------------------------- bias, norms
class BiasAdd(Primitive):
    """``BiasAdd(data_format='NCHW')(input_x, bias)``: the 1-d bias added along the channel
    axis (axis 1 for 'NCHW' and 'NCDHW', the last axis for 'NHWC').

    Raises:
        ValueError: for another data_format, or a bias not of shape (C,).
    """
    def __init__(self, data_format='NCHW'):
        if data_format not in ('NCHW', 'NHWC', 'NCDHW'):
            raise ValueError(f"ops.BiasAdd: data_format must be 'NCHW', 'NHWC' or 'NCDHW', "
                             f"got {data_format!r}")
        super().__init__(data_format=data_format)

    def construct(self, input_x, bias):
        return _conv.add_bias(input_x, bias, self.data_format, 'BiasAdd')


class LayerNorm(Primitive):
    """``LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta)``:
    ``(y, mean, variance)``, x normalized over the axes from ``begin_norm_axis`` on.

    ``y = (x - mean) / sqrt(variance + epsilon) * gamma + beta``; gamma and beta have the shape
    of x from ``begin_params_axis`` on. mean and variance (biased) keep the normalized axes as
    size 1. All three outputs carry gradients.
    """
    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        super().__init__(begin_norm_axis=_int(begin_norm_axis, 'LayerNorm', 'begin_norm_axis'),
                         begin_params_axis=_int(begin_params_axis, 'LayerNorm',
                                                'begin_params_axis'),
                         epsilon=_number(epsilon, 'LayerNorm', 'epsilon'))

    def construct(self, input_x, gamma, beta):
        x = as_tensor(input_x, 'input_x')
        begin = normalize_axis(self.begin_norm_axis, x.ndim, 'LayerNorm')
        params = normalize_axis(self.begin_params_axis, x.ndim, 'LayerNorm')
        for name, p in (('gamma', gamma), ('beta', beta)):
            if as_tensor(p, name).shape != x.shape[params:]:
                raise ValueError(f"ops.LayerNorm: {name} must have shape {x.shape[params:]} "
                                 f"(input_x's shape from begin_params_axis {params}), got "
                                 f"{as_tensor(p, name).shape}")
        axes = tuple(range(begin, x.ndim))
        mean = _red.reduce_mean(x, axes, True)
        centred = _arith.sub(x, mean)
        var = _red.reduce_mean(_arith.square(centred), axes, True)
        y = _arith.mul(centred, _unary.rsqrt(_arith.add(var, self.epsilon)))
        return _arith.add(_arith.mul(y, gamma), beta), mean, var


class BatchNorm(Primitive):
    """``BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1, data_format='NCHW')(x,
    scale, bias, mean, variance)``: ``(y, batch_mean, batch_variance, reserve_space_1,
    reserve_space_2)``.

    Training normalizes with the batch's statistics and updates the Parameters ``mean`` and
    ``variance`` in place as ``(1 - momentum) * running + momentum * batch`` (unbiased batch
    variance); the four statistics outputs are the batch's mean and biased variance. Inference
    normalizes with ``mean`` and ``variance`` and returns zeros as the four statistics, as
    MindSpore's CPU kernel does.

    Raises:
        TypeError: for a non-bool is_training or non-float epsilon / momentum.
        ValueError: for epsilon outside (0, 1], momentum outside [0, 1] or a data_format
            other than 'NCHW'.
    """
    def __init__(self, is_training=False, epsilon=1e-5, momentum=0.1, data_format='NCHW'):
        epsilon = _number(epsilon, 'BatchNorm', 'epsilon')
        momentum = _number(momentum, 'BatchNorm', 'momentum')
        if not 0.0 < epsilon <= 1.0:
            raise ValueError(f"ops.BatchNorm: epsilon must be in (0, 1], got {epsilon!r}")
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"ops.BatchNorm: momentum must be in [0, 1], got {momentum!r}")
        if data_format != 'NCHW':
            raise ValueError(f"ops.BatchNorm: data_format must be 'NCHW', got {data_format!r}")
        super().__init__(is_training=_flag(is_training, 'BatchNorm', 'is_training'),
                         epsilon=epsilon, momentum=momentum, data_format=data_format)

    def construct(self, input_x, scale, bias, mean, variance):
        x = as_tensor(input_x, 'input_x')
        y = _norm.batch_norm(x, mean, variance, scale, bias, self.is_training, self.momentum,
                             self.epsilon)
        if not self.is_training:
            zero = _create.zeros((x.shape[1],), x.dtype)
            return y, zero, zero, zero, zero
        axes = (0,) + tuple(range(2, x.ndim))
        batch_mean = _red.reduce_mean(x, axes)
        shape = (1, -1) + (1,) * (x.ndim - 2)
        batch_var = _red.reduce_mean(_arith.square(
            _arith.sub(x, _shape.reshape(batch_mean, shape))), axes)
        return y, batch_mean, batch_var, batch_mean, batch_var
