"""More normalization layers: BatchNorm3d, GroupNorm, InstanceNorm1d/2d/3d and LRN
(MindSpore 2.x signatures, parameter names and printed forms)."""
import numbers

import numpy as np

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...ops.normalization import normalize_last
from ..cell import Cell
from ..parameter import Parameter
from .basic import _init_value, _positive_int
from .normalization import BatchNorm2d, _float_dtype

__all__ = ['BatchNorm3d', 'GroupNorm', 'InstanceNorm1d', 'InstanceNorm2d', 'InstanceNorm3d',
           'LRN']


def _float_arg(value, cell, arg):
    """A Python float, as MindSpore's validators require (an int is refused)."""
    if not isinstance(value, float):
        raise TypeError(f"nn.{cell}: {arg} must be a float, got {type(value).__name__}")
    return value


def _tensor_input(cell, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"nn.{type(cell).__name__} '{cell.path()}': expected a Tensor input, "
                        f"got {type(x).__name__}")
    if x._data.dtype.kind != 'f':
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
