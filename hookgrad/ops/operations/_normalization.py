"""MindSpore's Primitive classes for the bias and normalization of network layers: bias
addition, layer and batch normalization, local response and L2 normalization.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
from .._base import as_tensor, exact_constants, normalize_axis
from .. import (arithmetic as _arith, conv as _conv, creation as _create, indexing as _index,
               normalization as _norm, norms as _norms, nn_pad as _pad, reduction as _red,
               shaping as _shape, unary as _unary)
from ._primitive import Primitive, _flag, _float, _int

__all__ = ['BiasAdd', 'LayerNorm', 'BatchNorm', 'LRN', 'L2Normalize']


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
                         epsilon=_float(epsilon, 'LayerNorm', 'epsilon'))

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
        epsilon = _float(epsilon, 'BatchNorm', 'epsilon')
        momentum = _float(momentum, 'BatchNorm', 'momentum')
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


class LRN(Primitive):
    """``LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS')(x)``:
    ``x / (bias + alpha * s) ** beta`` for an (N, C, H, W) x, s the sum of squares over the
    channels within depth_radius of each one."""
    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
                 norm_region='ACROSS_CHANNELS'):
        radius = _int(depth_radius, 'LRN', 'depth_radius')
        if radius < 0:
            raise ValueError(f"ops.LRN: depth_radius must be >= 0, got {radius}")
        if norm_region != 'ACROSS_CHANNELS':
            raise ValueError(f"ops.LRN: norm_region must be 'ACROSS_CHANNELS', got "
                             f"{norm_region!r}")
        for what, v in (('bias', bias), ('alpha', alpha), ('beta', beta)):
            if not isinstance(v, float):
                raise TypeError(f"ops.LRN: {what} must be a float, got {v!r}")
        super().__init__(depth_radius=radius, bias=bias, alpha=alpha, beta=beta,
                         norm_region=norm_region)

    @exact_constants
    def construct(self, x):
        x = as_tensor(x, 'x')
        if x.ndim != 4:
            raise ValueError(f"ops.LRN: x must be 4-d (N, C, H, W), got shape {x.shape}")
        r, c = self.depth_radius, x.shape[1]
        sq = _pad.padded(_arith.square(x), [(0, 0), (0, 0), (r, r)], 'constant', 0, 'LRN')
        total = _red.reduce_sum(_shape.stack([_index.getitem(sq, (slice(None), slice(i, i + c)))
                                              for i in range(2 * r + 1)], 0), 0)
        scale = _arith.add(_arith.mul(total, self.alpha), self.bias)
        return _arith.div(x, _arith.pow(scale, self.beta))


class L2Normalize(Primitive):
    """``L2Normalize(axis=0, epsilon=1e-4)(x)``: ``x / sqrt(max(sum(x ** 2, axis), epsilon))``."""
    def __init__(self, axis=0, epsilon=1e-4):
        super().__init__(axis=axis, epsilon=epsilon)

    def construct(self, x):
        return _norms.l2_normalize(x, self.axis, self.epsilon)
