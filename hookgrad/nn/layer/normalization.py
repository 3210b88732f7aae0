"""Normalization layers: BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, GroupNorm,
InstanceNorm1d/2d/3d and LRN (MindSpore 2.x signatures, parameter names and printed forms).
"""
import numbers

import numpy as np

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...ops.normalization import normalize_last
from ..cell import Cell
from ..parameter import Parameter
from .basic import _init_value, _positive_int

__all__ = ['BatchNorm1d', 'BatchNorm2d', 'LayerNorm', 'BatchNorm3d', 'GroupNorm', 'InstanceNorm1d',
           'InstanceNorm2d', 'InstanceNorm3d', 'LRN']


def _positive_float(value, cell, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"nn.{cell}: {arg} must be a float, got {type(value).__name__}")
    if not value > 0:
        raise ValueError(f"nn.{cell}: {arg} must be positive, got {value}")
    return float(value)


def _float_dtype(dtype, cell):
    try:
        npd = _dtype.to_numpy(dtype)
    except TypeError as e:
        raise TypeError(f"nn.{cell}: dtype: {e}") from None
    if npd.kind not in 'fV':
        raise TypeError(f"nn.{cell}: dtype must be a floating type, got {dtype}")
    return dtype


class _BatchNorm(Cell):
    """Batch normalization over the channel axis; subclasses fix the input ranks (``_ranks``).

    The moving statistics follow MindSpore's layer convention,
    ``moving = momentum * moving + (1 - momentum) * batch``, and the moving variance tracks the
    unbiased batch variance (``M / (M - 1)`` times the biased one over the M values of a
    channel), as PyTorch and MindSpore's GPU/CPU kernels do; the output is normalized with the
    biased batch variance.
    """

    # MindSpore's primitive attributes, which subclasses in model zoos call (Cell.__getattr__)
    _primitive_attributes = {
        'bn_train': lambda c: ops.operations.BatchNorm(True, c.eps, c.momentum, c.format),
        'bn_infer': lambda c: ops.operations.BatchNorm(False, c.eps, data_format=c.format)}

    _ranks = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones',
                 beta_init='zeros', moving_mean_init='zeros', moving_var_init='ones',
                 use_batch_statistics=None, data_format='NCHW', dtype=_dtype.float32):
        super().__init__()
        name = type(self).__name__
        n = _positive_int(num_features, name, 'num_features')
        eps = _positive_float(eps, name, 'eps')
        if isinstance(momentum, bool) or not isinstance(momentum, numbers.Real):
            raise TypeError(f"nn.{name}: momentum must be a float, got {type(momentum).__name__}")
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"nn.{name}: momentum must be in [0.0, 1.0], got {momentum}")
        if not isinstance(affine, bool):
            raise TypeError(f"nn.{name}: affine must be a bool, got {affine!r}")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise TypeError(f"nn.{name}: use_batch_statistics must be a bool or None, got "
                            f"{use_batch_statistics!r}")
        if data_format not in ('NCHW', 'NHWC'):
            raise ValueError(f"nn.{name}: data_format must be 'NCHW' or 'NHWC', got "
                             f"{data_format!r}")
        dtype = _float_dtype(dtype, name)
        shape = (n,)
        values = [_init_value(init, shape, dtype, name, arg) for init, arg in (
            (gamma_init, 'gamma_init'), (beta_init, 'beta_init'),
            (moving_mean_init, 'moving_mean_init'), (moving_var_init, 'moving_var_init'))]
        self.num_features = n
        self.eps = eps
        self.momentum = 1.0 - float(momentum)       # MindSpore keeps the batch's weight
        self.affine = affine
        self.use_batch_statistics = use_batch_statistics
        self.format = data_format
        # MindSpore's order and names (a checkpoint of a lone BatchNorm holds 'mean' and
        # 'variance'; in a network the attribute paths, 'bn.moving_mean'...)
        self.moving_mean = Parameter(values[2], name='mean', requires_grad=False)
        self.moving_variance = Parameter(values[3], name='variance', requires_grad=False)
        self.gamma = Parameter(values[0], name='gamma', requires_grad=affine)
        self.beta = Parameter(values[1], name='beta', requires_grad=affine)

    def construct(self, x):
        name = type(self).__name__
        if not isinstance(x, Tensor):
            raise TypeError(f"nn.{name} '{self.path()}': expected a Tensor input, got "
                            f"{type(x).__name__}")
        ranks = ' or '.join(f"{r}-d" for r in self._ranks)
        if x.ndim not in self._ranks:
            raise ValueError(f"nn.{name} '{self.path()}': expected a {ranks} input, got shape "
                             f"{x.shape}")
        channels_last = self.format == 'NHWC'
        axis = x.ndim - 1 if channels_last else 1
        if x.shape[axis] != self.num_features:
            raise ValueError(f"nn.{name} '{self.path()}': expected {self.num_features} "
                             f"channels on axis {axis}, got input of shape {x.shape}")
        training = self.training if self.use_batch_statistics is None else \
            self.use_batch_statistics
        if channels_last:
            x = ops.transpose(x, (0, x.ndim - 1) + tuple(range(1, x.ndim - 1)))
        y = ops.batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta,
                           training=training, momentum=self.momentum, eps=self.eps)
        if channels_last:
            y = ops.transpose(y, (0,) + tuple(range(2, y.ndim)) + (1,))
        return y

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, "
                f"momentum={1.0 - self.momentum}, "
                f"gamma={self.gamma!r}, beta={self.beta!r}, moving_mean={self.moving_mean!r}, "
                f"moving_variance={self.moving_variance!r}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization of a 2-d (N, C) or 3-d (N, C, L) input over its channels.

    In training mode (``set_train()``; a new cell is in predict mode) each channel is
    normalized with the batch's mean and variance and the moving statistics are updated as
    ``moving = momentum * moving + (1 - momentum) * batch`` (the variance unbiased); in predict
    mode the moving statistics normalize. ``use_batch_statistics`` True or False forces one
    behaviour. Parameters: ``gamma``, ``beta`` (trainable when ``affine``), ``moving_mean``,
    ``moving_variance`` (never trainable).

    Args:
        num_features: the number of channels C, a positive int.
        eps: added to the variance, > 0. Default 1e-5.
        momentum: the weight of the old moving statistics, in [0, 1]. Default 0.9.
        affine: whether gamma and beta are trained. Default True.
        gamma_init, beta_init, moving_mean_init, moving_var_init: initial values (an
            initializer name, an Initializer, a number or a Tensor of shape (C,)). Defaults
            'ones', 'zeros', 'zeros', 'ones'.
        use_batch_statistics: None (follow the train/predict mode), True or False.
        data_format: 'NCHW' (channels on axis 1) or 'NHWC' (channels last). Default 'NCHW'.
        dtype: the parameters' floating dtype. Default ``ms.float32``.

    Raises:
        TypeError: for arguments of the wrong type or a non-Tensor input.
        ValueError: for values out of range, or an input of another rank or channel count.

    >>> import hookgrad as ms
    >>> bn = ms.nn.BatchNorm1d(2).set_train()
    >>> y = bn(ms.Tensor([[1.0, 2.0], [3.0, 6.0]]))
    >>> print(bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy())
    [0.2 0.4] [1.1 1.7]
    """

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalization of a 4-d (N, C, H, W) input over its channels.

    As ``BatchNorm1d`` (same arguments, parameters and modes) for 4-d inputs; with
    ``data_format='NHWC'`` the channels are the last axis.

    >>> import hookgrad as ms
    >>> bn = ms.nn.BatchNorm2d(2)           # predict mode: moving mean 0, variance 1
    >>> print(bn(ms.ops.ones((1, 2, 1, 1)) * 4).asnumpy().ravel())
    [3.99998 3.99998]
    """

    _ranks = (4,)


class LayerNorm(Cell):
    """Layer normalization: each sample normalized over the axes from ``begin_norm_axis`` on.

    ``y = (x - mean) / sqrt(var + epsilon) * gamma + beta``; ``gamma`` and ``beta`` have shape
    ``normalized_shape`` and apply to the axes from ``begin_params_axis`` on.

    Args:
        normalized_shape: tuple or list of positive ints, the shape of gamma and beta (the
            input's shape from ``begin_params_axis``).
        begin_norm_axis: the first axis of the statistics. Default -1.
        begin_params_axis: the first axis gamma and beta apply to. Default -1.
        gamma_init, beta_init: initial values of gamma and beta. Defaults 'ones', 'zeros'.
        epsilon: added to the variance, > 0. Default 1e-7.
        dtype: the parameters' floating dtype. Default ``ms.float32``.

    Raises:
        TypeError: for arguments of the wrong type or a non-Tensor input.
        ValueError: for an axis out of range for the input or an input whose shape from
            ``begin_params_axis`` is not ``normalized_shape``.

    >>> import hookgrad as ms
    >>> ln = ms.nn.LayerNorm((3,))
    >>> print(ln(ms.Tensor([[1.0, 2.0, 3.0]])).asnumpy().round(4))
    [[-1.2247  0.      1.2247]]
    """

    # MindSpore's primitive attributes, which subclasses in model zoos call (Cell.__getattr__)
    _primitive_attributes = {
        'layer_norm': lambda c: ops.operations.LayerNorm(c.begin_norm_axis, c.begin_params_axis,
                                                         c.epsilon)}

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
                 gamma_init='ones', beta_init='zeros', epsilon=1e-7, dtype=_dtype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)) or not all(
                isinstance(n, numbers.Integral) and not isinstance(n, bool) and n > 0
                for n in normalized_shape):
            raise TypeError(f"nn.LayerNorm: normalized_shape must be a tuple or list of "
                            f"positive ints, got {normalized_shape!r}")
        for arg, value in (('begin_norm_axis', begin_norm_axis),
                           ('begin_params_axis', begin_params_axis)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"nn.LayerNorm: {arg} must be an int, got {value!r}")
        eps = _positive_float(epsilon, 'LayerNorm', 'epsilon')
        dtype = _float_dtype(dtype, 'LayerNorm')
        shape = tuple(int(n) for n in normalized_shape)
        gamma = _init_value(gamma_init, shape, dtype, 'LayerNorm', 'gamma_init')
        beta = _init_value(beta_init, shape, dtype, 'LayerNorm', 'beta_init')
        self.normalized_shape = shape
        self.begin_norm_axis = int(begin_norm_axis)
        self.begin_params_axis = int(begin_params_axis)
        self.epsilon = eps
        self.gamma = Parameter(gamma, name='gamma')
        self.beta = Parameter(beta, name='beta')

    def construct(self, input_x):
        if not isinstance(input_x, Tensor):
            raise TypeError(f"nn.LayerNorm '{self.path()}': expected a Tensor input, got "
                            f"{type(input_x).__name__}")
        nd = input_x.ndim
        axes = []
        for arg, value in (('begin_norm_axis', self.begin_norm_axis),
                           ('begin_params_axis', self.begin_params_axis)):
            if not -nd <= value < nd:
                raise ValueError(f"nn.LayerNorm '{self.path()}': {arg} {value} is out of range "
                                 f"for an input of shape {input_x.shape}")
            axes.append(value % nd)
        norm_axis, params_axis = axes
        if input_x.shape[params_axis:] != self.normalized_shape:
            raise ValueError(f"nn.LayerNorm '{self.path()}': input of shape {input_x.shape} "
                             f"does not match normalized_shape {self.normalized_shape} from "
                             f"axis {params_axis}")
        x = ops.cast(input_x, _dtype.float32) if input_x._data.dtype.kind not in 'fV' else input_x
        gamma, beta = self.gamma, self.beta
        if gamma._data.dtype != x._data.dtype:
            gamma, beta = ops.cast(gamma, x.dtype), ops.cast(beta, x.dtype)
        return normalize_last(x, nd - norm_axis, gamma, beta, self.epsilon)

    def extend_repr(self):
        # MindSpore 2.10's text, '=' after gamma missing included
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis="
                f"{self.begin_norm_axis}, begin_params_axis={self.begin_params_axis}, "
                f"gamma{self.gamma!r}, beta={self.beta!r}")


def _float_arg(value, cell, arg):
    """A Python float, as MindSpore's validators require (an int is refused)."""
    if not isinstance(value, float):
        raise TypeError(f"nn.{cell}: {arg} must be a float, got {type(value).__name__}")
    return value


def _tensor_input(cell, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"nn.{type(cell).__name__} '{cell.path()}': expected a Tensor input, "
                        f"got {type(x).__name__}")
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"nn.{type(cell).__name__} '{cell.path()}': expected a floating input, "
                        f"got dtype {x.dtype}")


def _per_channel(p, x):
    """Parameter (C,) as x's dtype, shaped to broadcast over (N, C, *)."""
    if p._data.dtype != x._data.dtype:
        p = ops.cast(p, x.dtype)
    return ops.reshape(p, (-1,) + (1,) * (x.ndim - 2))


class BatchNorm3d(Cell):
    """Batch normalization of a 5-d (N, C, D, H, W) input over its channels: MindSpore's
    layer, a ``BatchNorm2d`` (the sub-cell ``bn2d``, so the parameters are ``bn2d.gamma``,
    ``bn2d.beta``, ``bn2d.moving_mean``, ``bn2d.moving_variance``) applied to the input seen as
    (N, C, D * H, W).

    Args:
        num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
        moving_var_init, use_batch_statistics, dtype: as ``BatchNorm2d``.

    Raises:
        TypeError / ValueError: as ``BatchNorm2d``; ValueError for an input that is not 5-d.

    >>> import hookgrad as ms
    >>> ms.nn.BatchNorm3d(2)(ms.ops.ones((1, 2, 2, 2, 2))).shape
    (1, 2, 2, 2, 2)
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones',
                 beta_init='zeros', moving_mean_init='zeros', moving_var_init='ones',
                 use_batch_statistics=None, dtype=_dtype.float32):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init,
                                moving_mean_init, moving_var_init, use_batch_statistics,
                                dtype=dtype)

    def construct(self, x):
        if not isinstance(x, Tensor) or x.ndim != 5:
            got = x.shape if isinstance(x, Tensor) else type(x).__name__
            raise ValueError(f"nn.BatchNorm3d '{self.path()}': expected a 5-d input "
                             f"(N, C, D, H, W), got {got}")
        n, c, d, h, w = x.shape
        return ops.reshape(self.bn2d(ops.reshape(x, (n, c, d * h, w))), x.shape)


class GroupNorm(Cell):
    """Group normalization: the channels of each sample split into ``num_groups`` groups, each
    normalized by its own mean and (biased) variance, then scaled by ``gamma`` and shifted by
    ``beta`` per channel.

    Args:
        num_groups: the number of groups, a positive int dividing ``num_channels``.
        num_channels: the number of channels C, a positive int.
        eps: added to the variance, a float. Default 1e-5.
        affine: whether gamma and beta are trained. Default True.
        gamma_init, beta_init: initial values of the (C,) parameters. Defaults 'ones', 'zeros'.
        dtype: the parameters' floating dtype. Default ``ms.float32``.

    Inputs:
        x: floating Tensor (N, C, *).

    Raises:
        TypeError: for arguments of the wrong type or a non-floating input.
        ValueError: for num_channels not divisible by num_groups, or an input whose axis 1 is
            not num_channels.

    >>> import hookgrad as ms
    >>> gn = ms.nn.GroupNorm(1, 2)
    >>> gn(ms.Tensor([[[1.0], [3.0]]])).asnumpy().ravel().round(4).tolist()
    [-1.0, 1.0]
    """

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, gamma_init='ones',
                 beta_init='zeros', dtype=_dtype.float32):
        super().__init__()
        self.num_groups = _positive_int(num_groups, 'GroupNorm', 'num_groups')
        self.num_channels = _positive_int(num_channels, 'GroupNorm', 'num_channels')
        if num_channels % num_groups:
            raise ValueError(f"nn.GroupNorm: num_channels ({num_channels}) must be divisible "
                             f"by num_groups ({num_groups})")
        self.eps = _float_arg(eps, 'GroupNorm', 'eps')
        if not isinstance(affine, bool):
            raise TypeError(f"nn.GroupNorm: affine must be a bool, got {affine!r}")
        self.affine = affine
        dtype = _float_dtype(dtype, 'GroupNorm')
        shape = (self.num_channels,)
        self.gamma = Parameter(_init_value(gamma_init, shape, dtype, 'GroupNorm', 'gamma_init'),
                               name='gamma', requires_grad=affine)
        self.beta = Parameter(_init_value(beta_init, shape, dtype, 'GroupNorm', 'beta_init'),
                              name='beta', requires_grad=affine)

    def construct(self, x):
        _tensor_input(self, x)
        if x.ndim < 2 or x.shape[1] != self.num_channels:
            raise ValueError(f"nn.GroupNorm '{self.path()}': expected an input (N, "
                             f"{self.num_channels}, *), got shape {x.shape}")
        xg = ops.reshape(x, (x.shape[0], self.num_groups, -1))
        y = ops.reshape(normalize_last(xg, 1, None, None, self.eps), x.shape)
        return y * _per_channel(self.gamma, y) + _per_channel(self.beta, y)

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class _InstanceNorm(Cell):
    """Instance normalization: each (sample, channel) plane normalized by its own mean and
    (biased) variance, in training and in predict mode alike; ``_rank`` is the input's."""

    _rank = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init='ones',
                 beta_init='zeros', dtype=_dtype.float32):
        super().__init__()
        name = type(self).__name__
        if isinstance(num_features, bool) or not isinstance(num_features, numbers.Integral):
            raise TypeError(f"nn.{name}: num_features must be an int, got {num_features!r}")
        if num_features < 1:
            raise ValueError(f"nn.{name}: num_features must be at least 1, got {num_features}")
        self.eps = _float_arg(eps, name, 'eps')
        momentum = _float_arg(momentum, name, 'momentum')
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"nn.{name}: momentum must be in [0, 1], got {momentum}")
        if not isinstance(affine, bool):
            raise TypeError(f"nn.{name}: affine must be a bool, got {affine!r}")
        dtype = _float_dtype(dtype, name)
        self.num_features = int(num_features)
        self.momentum = momentum
        self.affine = affine
        shape = (self.num_features,)
        self.moving_mean = Parameter(_init_value('zeros', shape, dtype, name, 'moving_mean'),
                                     name='mean', requires_grad=False)
        self.moving_variance = Parameter(_init_value('ones', shape, dtype, name,
                                                     'moving_variance'),
                                         name='variance', requires_grad=False)
        self.gamma = Parameter(_init_value(gamma_init, shape, dtype, name, 'gamma_init'),
                               name='gamma', requires_grad=affine)
        self.beta = Parameter(_init_value(beta_init, shape, dtype, name, 'beta_init'),
                              name='beta', requires_grad=affine)

    def construct(self, x):
        _tensor_input(self, x)
        name = f"nn.{type(self).__name__} '{self.path()}'"
        if x.ndim != self._rank:
            raise ValueError(f"{name}: expected a {self._rank}-d input, got shape {x.shape}")
        if x.shape[1] != self.num_features:
            raise ValueError(f"{name}: expected {self.num_features} channels on axis 1, got "
                             f"input of shape {x.shape}")
        n, c = x.shape[:2]
        flat = ops.reshape(x, (n, c, -1))
        if self.training:
            # moving = momentum * moving + (1 - momentum) * batch (MindSpore's InstanceNorm),
            # the batch statistics averaged over the samples, the variance unbiased
            a = flat._data
            if a.dtype == np.float16:           # statistics in float32: float16 sums overflow
                a = a.astype(np.float32)
            m = self.momentum
            self.moving_mean._data[...] = m * self.moving_mean._data + (1 - m) * a.mean((0, 2))
            var = a.var(2, ddof=1).mean(0) if a.shape[2] > 1 else np.zeros(c, a.dtype)
            self.moving_variance._data[...] = m * self.moving_variance._data + (1 - m) * var
        y = ops.reshape(normalize_last(flat, 1, None, None, self.eps), x.shape)
        return y * _per_channel(self.gamma, y) + _per_channel(self.beta, y)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"gamma={self.gamma!r}, beta={self.beta!r}, moving_mean={self.moving_mean!r}, "
                f"moving_variance={self.moving_variance!r}")


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of a 3-d (N, C, L) input: ``y = (x - mean) / sqrt(var + eps) *
    gamma + beta`` with the statistics of each (sample, channel) row.

    In training mode the moving statistics (``moving_mean``, ``moving_variance``, kept as
    MindSpore's checkpoints hold them) are updated as ``momentum * moving + (1 - momentum) *
    batch``; they never normalize.

    Args:
        num_features: the number of channels C, a positive int.
        eps: a float added to the variance. Default 1e-5.
        momentum: a float in [0, 1]. Default 0.1.
        affine: whether gamma and beta are trained. Default True.
        gamma_init, beta_init: initial values of the (C,) parameters. Defaults 'ones', 'zeros'.
        dtype: the parameters' floating dtype. Default ``ms.float32``.

    Raises:
        TypeError: for arguments of the wrong type (eps and momentum must be floats) or a
            non-floating input.
        ValueError: for values out of range or an input of another rank or channel count.
    """

    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of a 4-d (N, C, H, W) input; as ``InstanceNorm1d``."""

    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of a 5-d (N, C, D, H, W) input; as ``InstanceNorm1d``."""

    _rank = 5


class LRN(Cell):
    """Local response normalization across channels of a 4-d (N, C, H, W) input:
    ``y_c = x_c * (bias + alpha * sum(x_c'^2 for |c' - c| <= depth_radius)) ** -beta``.

    Args:
        depth_radius: the half-width of the channel window, an int >= 0. Default 5.
        bias, alpha, beta: floats. Defaults 1.0, 1.0, 0.5.
        norm_region: 'ACROSS_CHANNELS' (the only region). Default 'ACROSS_CHANNELS'.

    Raises:
        TypeError: for arguments of the wrong type or a non-floating input.
        ValueError: for a negative depth_radius, another norm_region or a non-4-d input.

    >>> import hookgrad as ms
    >>> ms.nn.LRN(1, 1.0, 1.0, 1.0)(ms.ops.ones((1, 1, 1, 1))).asnumpy().ravel().tolist()
    [0.5]
    """

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
                 norm_region='ACROSS_CHANNELS'):
        super().__init__()
        if isinstance(depth_radius, bool) or not isinstance(depth_radius, numbers.Integral):
            raise TypeError(f"nn.LRN: depth_radius must be an int, got {depth_radius!r}")
        if depth_radius < 0:
            raise ValueError(f"nn.LRN: depth_radius must be >= 0, got {depth_radius}")
        for arg, value in (('bias', bias), ('alpha', alpha), ('beta', beta)):
            _float_arg(value, 'LRN', arg)
        if norm_region != 'ACROSS_CHANNELS':
            raise ValueError(f"nn.LRN: norm_region must be 'ACROSS_CHANNELS', got "
                             f"{norm_region!r}")
        self.depth_radius = int(depth_radius)
        self.bias, self.alpha, self.beta = bias, alpha, beta
        self.norm_region = norm_region

    def construct(self, x):
        _tensor_input(self, x)
        if x.ndim != 4:
            raise ValueError(f"nn.LRN '{self.path()}': expected a 4-d input (N, C, H, W), got "
                             f"shape {x.shape}")
        r, c = self.depth_radius, x.shape[1]
        sq = ops.pad(x * x, (0, 0, 0, 0, r, r))
        window = sq[:, 0:c]
        for i in range(1, 2 * r + 1):
            window = window + sq[:, i:i + c]
        return x * ops.pow(window * self.alpha + self.bias, -self.beta)
