"""Functions on (N, C, *spatial) feature maps, composed of hookgrad's ops (MindSpore 2.x ``ops``
names, signatures and defaults): pixel_shuffle, pixel_unshuffle, channel_shuffle, lp_pool1d,
lp_pool2d, max_unpool1d/2d/3d, dropout1d, dropout3d and group_norm.

Each is a reshape, a transpose, a pooling, a scatter or a normalization of existing ops, so
gradients (of any order) come from theirs.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import value_read
from ..kernels import backend
from .arithmetic import add, mul, pow as _pow
from .conv import as_ints
from .creation import zeros
from .normalization import normalize_last
from .pooling import avg_pool2d
from .pooling_nd import avg_pool1d
from .random import Dropout2D, _float_input, _probability, _training
from .scatter_gather import tensor_scatter_elements
from .shaping import expand_dims, reshape, squeeze, transpose

__all__ = ['pixel_shuffle', 'pixel_unshuffle', 'channel_shuffle', 'lp_pool1d', 'lp_pool2d',
           'max_unpool1d', 'max_unpool2d', 'max_unpool3d', 'dropout1d', 'dropout3d', 'group_norm']


def _tensor(value, name, arg='input'):
    if not isinstance(value, Tensor):
        raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(value).__name__}")
    return value


def _positive_int(value, name, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{name}: {arg} must be an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"ops.{name}: {arg} must be larger than 0, got {value}")
    return int(value)


# ------------------------------------------------------------------------------ rearranging
def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) to (*, C, H r, W r): each group of r^2 channels becomes an r x r block.

    Raises:
        ValueError: when the input has fewer than 3 axes or C is not divisible by r^2.
    """
    x = _tensor(input, 'pixel_shuffle')
    r = _positive_int(upscale_factor, 'pixel_shuffle', 'upscale_factor')
    if x.ndim < 3 or x.shape[-3] % (r * r):
        raise ValueError(f"ops.pixel_shuffle: expected an input (*, C, H, W) with C divisible "
                         f"by upscale_factor ** 2 = {r * r}, got shape {x.shape}")
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    k = len(lead)
    y = reshape(x, lead + (c // (r * r), r, r, h, w))
    y = transpose(y, tuple(range(k)) + (k, k + 3, k + 1, k + 4, k + 2))
    return reshape(y, lead + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) to (*, C r^2, H, W), the inverse of ``pixel_shuffle``.

    Raises:
        ValueError: when the input has fewer than 3 axes or H or W is not divisible by r.
    """
    x = _tensor(input, 'pixel_unshuffle')
    r = _positive_int(downscale_factor, 'pixel_unshuffle', 'downscale_factor')
    if x.ndim < 3 or x.shape[-1] % r or x.shape[-2] % r:
        raise ValueError(f"ops.pixel_unshuffle: expected an input (*, C, H, W) with H and W "
                         f"divisible by downscale_factor {r}, got shape {x.shape}")
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    k = len(lead)
    y = reshape(x, lead + (c, h // r, r, w // r, r))
    y = transpose(y, tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3))
    return reshape(y, lead + (c * r * r, h // r, w // r))


def channel_shuffle(x, groups):
    """(N, C, *) with its C channels, seen as (groups, C / groups), transposed.

    Raises:
        ValueError: when groups < 1, the input has fewer than 3 axes or C is not divisible by
            groups.
    """
    x = _tensor(x, 'channel_shuffle', 'x')
    g = _positive_int(groups, 'channel_shuffle', 'groups')
    if x.ndim < 3 or x.shape[1] % g:
        raise ValueError(f"ops.channel_shuffle: expected an input (N, C, *) with C divisible by "
                         f"groups {g}, got shape {x.shape}")
    n, c = x.shape[:2]
    y = transpose(reshape(x, (n, g, c // g, -1)), (0, 2, 1, 3))
    return reshape(y, x.shape)


# ------------------------------------------------------------------------------ pooling
def _lp_pool(x, norm_type, kernel, stride, ceil_mode, name, pool):
    if isinstance(norm_type, bool) or not isinstance(norm_type, numbers.Real):
        raise TypeError(f"ops.{name}: norm_type must be a float or an int, got "
                        f"{type(norm_type).__name__}")
    p = float(norm_type)
    if p == 0:
        raise ValueError(f"ops.{name}: norm_type can not be 0")
    mean = pool(_pow(x, p), kernel, stride, ceil_mode)
    # the window sum (MindSpore writes it sign(mean) * relu(|mean|) * size: the same values)
    return _pow(mul(mean, float(np.prod(kernel))), 1.0 / p)


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over windows of the last axis of (N, C, L) or (C, L):
    ``(sum of x^p over the window) ^ (1/p)``, with p = ``norm_type``; stride defaults to the
    kernel size."""
    x = _tensor(x, 'lp_pool1d', 'x')
    k = as_ints(kernel_size, 1, 'ops.lp_pool1d', 'kernel_size')
    s = k if stride is None else as_ints(stride, 1, 'ops.lp_pool1d', 'stride')
    if x.ndim not in (2, 3):
        raise ValueError(f"ops.lp_pool1d: expected a 2-d or 3-d input, got shape {x.shape}")

    def pool(v, k, s, ceil):
        if v.ndim == 2:                     # (C, L): pooled as a batch of one
            return squeeze(avg_pool1d(expand_dims(v, 0), k[0], s[0], 0, ceil), 0)
        return avg_pool1d(v, k[0], s[0], 0, ceil)
    return _lp_pool(x, norm_type, k, s, ceil_mode, 'lp_pool1d', pool)


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over 2-d windows of (N, C, H, W): ``(sum of x^p) ^ (1/p)``."""
    x = _tensor(x, 'lp_pool2d', 'x')
    k = as_ints(kernel_size, 2, 'ops.lp_pool2d', 'kernel_size')
    s = k if stride is None else as_ints(stride, 2, 'ops.lp_pool2d', 'stride')
    if x.ndim != 4:
        raise ValueError(f"ops.lp_pool2d: expected a 4-d input (N, C, H, W), got shape "
                         f"{x.shape}")

    def pool(v, k, s, ceil):
        return avg_pool2d(v, k, s, 0, ceil)
    return _lp_pool(x, norm_type, k, s, ceil_mode, 'lp_pool2d', pool)


def _max_unpool(x, indices, kernel_size, stride, padding, output_size, k):
    where = f"ops.max_unpool{k}d"
    x = _tensor(x, where[4:], 'x')
    indices = _tensor(indices, where[4:], 'indices')
    kernel = as_ints(kernel_size, k, where, 'kernel_size')
    step = kernel if stride is None or stride == 0 else as_ints(stride, k, where, 'stride')
    pads = as_ints(padding, k, where, 'padding', minimum=0)
    return max_unpool(x, indices, kernel, step, pads, output_size, k, where)


def max_unpool(x, indices, kernel, stride, pads, output_size, k, where):
    """Values of x (N, C, *spatial) or (C, *spatial), ``k`` spatial axes, scattered to their
    flat ``indices`` of an output of spatial size ``(in - 1) * stride - 2 * pad + kernel`` (or
    the last k entries of ``output_size``, within a stride of it); checked arguments as int
    tuples, errors naming ``where``. The indices are read on the host to be checked."""
    if x.ndim not in (k + 1, k + 2):
        raise ValueError(f"{where}: expected a {k + 1}-d or {k + 2}-d input, got shape "
                         f"{x.shape}")
    if indices.shape != x.shape or indices._data.dtype.kind not in 'iu':
        raise ValueError(f"{where}: indices must be an integer Tensor of the input's shape "
                         f"{x.shape}, got {indices.dtype} {indices.shape}")
    added = x.ndim == k + 1
    if added:
        x, indices = expand_dims(x, 0), expand_dims(indices, 0)
    default = tuple((n - 1) * s - 2 * p + kk for n, s, p, kk in
                    zip(x.shape[2:], stride, pads, kernel))
    size = default
    if output_size is not None:
        size = tuple(output_size)[-k:]
        if len(size) != k:
            raise ValueError(f"{where}: output_size must end with {k} sizes, got "
                             f"{output_size!r}")
        for s, d, st in zip(size, default, stride):
            if not d - st <= s <= d + st:
                raise ValueError(f"{where}: output_size {output_size} must be within a "
                                 f"stride of the default size {default}")
    n, c = x.shape[:2]
    total = int(np.prod(size))
    value_read(indices)
    flat = backend.to_host(indices._data)
    if flat.size and (flat.min() < 0 or flat.max() >= total):
        raise ValueError(f"{where}: indices must lie in [0, {total}) for the output size "
                         f"{size}, got values in [{flat.min()}, {flat.max()}]")
    y = tensor_scatter_elements(zeros((n, c, total), x.dtype), reshape(indices, (n, c, -1)),
                                reshape(x, (n, c, -1)), 2)
    y = reshape(y, (n, c) + size)
    return squeeze(y, 0) if added else y


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool1d``: each value of (N, C, L) or (C, L) written at its flat
    index of an output of length ``(L - 1) * stride - 2 * padding + kernel_size`` (or the last
    entry of ``output_size``), zeros elsewhere."""
    return _max_unpool(x, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool2d`` on (N, C, H, W) or (C, H, W); see ``max_unpool1d``."""
    return _max_unpool(x, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool3d`` on (N, C, D, H, W) or (C, D, H, W); see
    ``max_unpool1d``."""
    return _max_unpool(x, indices, kernel_size, stride, padding, output_size, 3)


# ------------------------------------------------------------------------------ dropout
def _channel_dropout(input, p, training, name, ranks):
    x = _float_input(input, name)
    p = _probability(p, name, 'p')
    if x.ndim not in ranks:
        raise ValueError(f"ops.{name}: expected a {' or '.join(f'{r}-d' for r in ranks)} "
                         f"input, got shape {x.shape}")
    if not _training(training, name) or p == 0.0:
        return x
    lead = 2 if x.ndim == max(ranks) else 1       # (C, *) inputs have one leading axis
    shape = (1,) * (2 - lead) + x.shape[:lead] + (-1, 1)
    y = Dropout2D.apply(reshape(x, shape), keep_prob=1.0 - p, rng=None)[0]
    return reshape(y, x.shape)


def dropout1d(input, p=0.5, training=True):
    """Zero whole channels of (N, C, L) or (C, L) with probability ``p`` and scale the rest by
    ``1 / (1 - p)`` (the global generator, ``ms.set_seed``); the identity when not training."""
    return _channel_dropout(input, p, training, 'dropout1d', (2, 3))


def dropout3d(input, p=0.5, training=True):
    """Zero whole channels of (N, C, D, H, W) with probability ``p``; see ``dropout1d``."""
    return _channel_dropout(input, p, training, 'dropout3d', (5,))


# ------------------------------------------------------------------------------ normalization
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalization over each of ``num_groups`` channel groups of every sample of (N, C, *),
    then ``* weight + bias`` per channel (shape (C,), or None).

    Raises:
        ValueError: when C is not divisible by num_groups.
    """
    x = _tensor(input, 'group_norm')
    g = _positive_int(num_groups, 'group_norm', 'num_groups')
    if x.ndim < 2 or x.shape[1] % g:
        raise ValueError(f"ops.group_norm: the number of channels must be divisible by "
                         f"num_groups, got input shape {x.shape} and num_groups {g}")
    n, c = x.shape[:2]
    y = reshape(normalize_last(reshape(x, (n, g, -1)), 1, None, None, eps), x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if weight is not None:
        y = mul(y, reshape(weight, shape))
    if bias is not None:
        y = add(y, reshape(bias, shape))
    return y
