"""``mindspore.mint.nn.functional``: PyTorch-style neural-network functions on hookgrad's ops.

Pooling and padding forms that hookgrad has only as layers (1-D and 3-D pools, adaptive max
pools, unpooling) run that layer, so their math stays in one place.
"""
from ... import ops, nn as _nn
from ..._dtype import int64
from ...ops import (adaptive_avg_pool2d, broadcast_to, clamp, cosine_embedding_loss,
                    cross_entropy, hardshrink, hardsigmoid, hardswish, l1_loss, layer_norm,
                    mse_loss, prelu, sigmoid, soft_margin_loss, softplus, softshrink, tanh)
from ...ops import resize as _resize
from ...compat.names import reporter as _reporter
from ..shaping import flatten
from .convolution import conv3d, fold, unfold
from ...ops.grid_sampling import grid_sample

__all__ = ['adaptive_avg_pool1d', 'adaptive_avg_pool2d', 'adaptive_avg_pool3d',
           'adaptive_max_pool1d', 'adaptive_max_pool2d', 'avg_pool1d', 'avg_pool2d',
           'avg_pool3d', 'batch_norm', 'binary_cross_entropy', 'binary_cross_entropy_with_logits',
           'broadcast_to', 'clamp', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose2d', 'fold',
           'unfold', 'grid_sample',
           'cosine_embedding_loss', 'cross_entropy', 'dropout', 'dropout2d', 'elu', 'elu_',
           'embedding', 'flatten', 'gelu', 'glu', 'group_norm', 'hardshrink', 'hardsigmoid',
           'hardswish', 'hardtanh', 'hardtanh_', 'interpolate', 'kl_div', 'l1_loss', 'layer_norm',
           'leaky_relu', 'linear', 'log_softmax', 'logsigmoid', 'max_pool2d', 'max_unpool2d',
           'mish', 'mse_loss', 'nll_loss', 'normalize', 'one_hot', 'pad', 'pixel_shuffle',
           'prelu', 'relu', 'relu6', 'relu_', 'selu', 'sigmoid', 'sigmoid_', 'silu',
           'smooth_l1_loss', 'soft_margin_loss', 'softmax', 'softplus', 'softshrink', 'tanh',
           'threshold', 'threshold_', 'upsample']


# ----------------------------------------------------------------------------- activations
def relu(input, inplace=False):
    """``max(x, 0)``."""
    return _inplace(input, ops.relu(input), inplace)


def relu_(input):
    """``relu`` written into ``input``; returns it."""
    return relu(input, True)


def relu6(input, inplace=False):
    """``min(max(x, 0), 6)``."""
    return _inplace(input, ops.relu6(input), inplace)


def silu(input, inplace=False):
    """``x * sigmoid(x)``."""
    return _inplace(input, ops.silu(input), inplace)


def logsigmoid(input):
    """``log(sigmoid(x))``, computed stably."""
    return ops.logsigmoid(input)


def mish(input):
    """``x * tanh(softplus(x))``."""
    return ops.mish(input)


def selu(input):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    return ops.selu(input)


def sigmoid_(input):
    """``sigmoid`` written into ``input``; returns it."""
    return _inplace(input, ops.sigmoid(input), True)


def elu(input, alpha=1.0, inplace=False):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""
    return _inplace(input, ops.elu(input, alpha), inplace)


def elu_(input, alpha=1.0):
    """``elu`` written into ``input``; returns it."""
    return elu(input, alpha, True)


def gelu(input, approximate='none'):
    """``x * Phi(x)`` ('none': exact erf; 'tanh': the tanh approximation)."""
    if approximate not in ('none', 'tanh'):
        raise ValueError(f"Failed to convert the value \"{approximate}\" of input "
                         f"'approximate' of 'gelu' to enum.")
    return ops.gelu(input, approximate)


def glu(input, dim=-1):
    """``a * sigmoid(b)`` for the halves ``a, b`` of ``input`` along ``dim``."""
    return ops.glu(input, dim)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """``x`` clipped to ``[min_val, max_val]``."""
    return _inplace(input, ops.hardtanh(input, min_val, max_val), inplace)


def hardtanh_(input, min_val=-1, max_val=1):
    """``hardtanh`` written into ``input``; returns it."""
    return hardtanh(input, min_val, max_val, True)


def leaky_relu(input, negative_slope=0.01):
    """``x`` where positive, else ``negative_slope * x``."""
    return ops.leaky_relu(input, negative_slope)


def threshold(input, threshold, value, inplace=False):
    """``x`` where ``x > threshold``, else ``value``."""
    return _inplace(input, ops.threshold(input, threshold, value), inplace)


def threshold_(input, threshold, value):
    """``threshold`` written into ``input``; returns it."""
    return _inplace(input, ops.threshold(input, threshold, value), True)


def softmax(input, dim=None, dtype=None):
    """``exp(x) / sum(exp(x))`` along ``dim`` (the last when None)."""
    return ops.softmax(_cast(input, dtype), -1 if dim is None else dim)


def log_softmax(input, dim=None, *, dtype=None):
    """``x - logsumexp(x)`` along ``dim`` (the last when None)."""
    return ops.log_softmax(_cast(input, dtype), -1 if dim is None else dim)


def _cast(x, dtype):
    return x if dtype is None else ops.cast(x, dtype)


def _inplace(input, result, inplace):
    return ops.assign(input, result) if inplace else result


# ---------------------------------------------------------------------- linear and conv
def linear(input, weight, bias=None):
    """``input @ weight.T + bias``."""
    return ops.dense(input, weight, bias)


def _conv_padding(padding):
    if isinstance(padding, str):
        if padding not in ('same', 'valid'):
            raise ValueError(f"mint.nn.functional.conv: padding must be 'same', 'valid', an int "
                             f"or a tuple, got {padding!r}")
        return padding, 0
    return 'pad', padding


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D cross-correlation of (N, C_in, L) with (C_out, C_in / groups, K)."""
    mode, pad = _conv_padding(padding)
    return ops.conv1d(input, weight, bias, stride, mode, pad, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D cross-correlation of (N, C_in, H, W) with (C_out, C_in / groups, kH, kW)."""
    mode, pad = _conv_padding(padding)
    return ops.conv2d(input, weight, bias, stride, mode, pad, dilation, groups)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose of ``conv2d`` (the gradient of a convolution with respect to its input)."""
    return ops.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups,
                                dilation)


# ------------------------------------------------------------------------------ pooling
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The maximum of each window; with ``return_indices`` also its flat index per plane."""
    return ops.max_pool2d(input, kernel_size, stride, padding, dilation, return_indices,
                          ceil_mode)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean of each window."""
    return ops.avg_pool2d(input, kernel_size, kernel_size if stride is None else stride, padding,
                          ceil_mode, count_include_pad, divisor_override or 0)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """The mean of each window of an (N, C, L) input."""
    return _nn.AvgPool1d(kernel_size, kernel_size if stride is None else stride, 'pad', padding,
                         ceil_mode, count_include_pad)(input)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean of each window of an (N, C, D, H, W) input."""
    return _nn.AvgPool3d(kernel_size, kernel_size if stride is None else stride, 'pad', padding,
                         ceil_mode, count_include_pad, divisor_override)(input)


def adaptive_avg_pool1d(input, output_size):
    """Means over ``output_size`` near-equal windows of the last dimension."""
    return _nn.AdaptiveAvgPool1d(output_size)(input)


def adaptive_avg_pool3d(input, output_size):
    """Means over near-equal windows giving ``output_size`` (D, H, W)."""
    return _nn.AdaptiveAvgPool3d(output_size)(input)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Maxima over ``output_size`` near-equal windows of the last dimension."""
    x = ops.unsqueeze(input, -2)
    out = adaptive_max_pool2d(x, (1, output_size), return_indices)
    if return_indices:
        return ops.squeeze(out[0], -2), ops.squeeze(out[1], -2)
    return ops.squeeze(out, -2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Maxima over near-equal windows giving ``output_size`` (H, W); indices are int64."""
    out = _nn.AdaptiveMaxPool2d(output_size, return_indices)(input)
    return (out[0], ops.cast(out[1], int64)) if return_indices else out


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool2d``: each value written at its index, zeros elsewhere."""
    return _nn.MaxUnpool2d(kernel_size, stride, padding)(input, indices, output_size)


# ------------------------------------------------------------------------- normalization
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-05):
    """Normalization per channel (axis 1); in training the running statistics move by
    ``momentum`` towards the batch's."""
    weight = ops.ones_like(running_mean, dtype=input.dtype) if weight is None else weight
    bias = ops.zeros_like(running_mean, dtype=input.dtype) if bias is None else bias
    return ops.batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                          eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalization over each group of ``num_groups`` channel groups of every sample."""
    n, c = input.shape[:2]
    if c % num_groups:
        raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by "
                         f"'num_groups', but got 'num_channels': {c}, 'num_groups': "
                         f"{num_groups}.")
    return ops.group_norm(input, num_groups, weight, bias, eps)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """``x / max(||x||_p, eps)`` along ``dim``."""
    norm = ops.vector_norm(input, p, dim, True)
    return ops.div(input, ops.clamp(norm, eps))


# ------------------------------------------------------------------------- regularization
def dropout(input, p=0.5, training=True, inplace=False):
    """Zeros each element with probability ``p`` and scales the rest by ``1 / (1 - p)``."""
    if not 0 <= p <= 1:
        raise ValueError(f"For FuncDropoutExt, 'p' must be in [0, 1], but got {p}")
    return _inplace(input, ops.dropout(input, p, training), inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zeros whole channels with probability ``p`` and scales the rest by ``1 / (1 - p)``."""
    return _inplace(input, ops.dropout2d(input, p, training), inplace)


# ------------------------------------------------------------------------------- losses
def nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean'):
    """The negative log-likelihood of log-probabilities at the target classes."""
    return ops.nll_loss(input, target, weight, ignore_index, reduction)


def binary_cross_entropy(input, target, weight=None, reduction='mean'):
    """``-(t log p + (1 - t) log(1 - p))`` of probabilities ``input``."""
    return ops.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean',
                                     pos_weight=None):
    """Binary cross entropy of ``sigmoid(input)``, computed stably from the logits."""
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def kl_div(input, target, reduction='mean', log_target=False):
    """``target * (log target - input)`` summed as ``reduction`` says (``input`` holds
    log-probabilities; so does ``target`` with ``log_target``)."""
    if reduction not in ('none', 'mean', 'sum', 'batchmean'):
        raise ValueError(f"Failed to convert the value \"{reduction}\" of input 'reduction' "
                         f"of 'KLDiv' to enum.")
    if log_target:
        loss = ops.mul(ops.exp(target), ops.sub(target, input))
    else:
        loss = ops.sub(ops.xlogy(target, target), ops.mul(target, input))
    if reduction == 'none':
        return loss
    total = ops.sum(loss)
    if reduction == 'sum':
        return total
    return ops.div(total, input.shape[0] if reduction == 'batchmean' and input.ndim else
                   loss.size)


def smooth_l1_loss(input, target, reduction='mean', beta=1.0):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``."""
    return ops.smooth_l1_loss(input, target, beta, reduction)


# --------------------------------------------------------------------- shapes and lookups
def one_hot(tensor, num_classes=-1):
    """Int64 one-hot rows of class indices (``num_classes``: max index + 1 when -1)."""
    if num_classes == -1:
        num_classes = int(ops.amax(tensor).item()) + 1
    return ops.one_hot(tensor, num_classes, 1, 0, -1).astype(int64)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """Rows of ``weight`` at the indices ``input``; the ``padding_idx`` row gets no gradient
    (``max_norm`` and ``scale_grad_by_freq``: see ``ops.embedding``)."""
    return ops.embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq)


def pad(input, pad, mode='constant', value=None):
    """``input`` padded by ``pad`` (pairs from the last dimension back); ``mode`` 'constant',
    'reflect', 'replicate' or 'circular'."""
    return ops.pad(input, tuple(pad), mode, value)


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) to (*, C, H r, W r)."""
    r = upscale_factor
    c = input.shape[-3]
    if c % (r * r):
        raise ValueError(f"PixelShuffle expects its input's 'channel' dimension to be "
                         f"divisible by the square of upscale_factor, but input.shape(-3)={c} "
                         f"is not divisible by {r * r}")
    return ops.pixel_shuffle(input, upscale_factor)


def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                recompute_scale_factor=None):
    """``input`` resized to ``size`` or by ``scale_factor`` ('nearest', 'linear', 'bilinear',
    'trilinear', 'bicubic', and 'area'), as MindSpore's Upsample* operators and PyTorch's
    ``interpolate``: a ``scale_factor`` gives the output size ``floor(size * scale_factor)``
    and the sampling step ``1 / scale_factor``, unless ``recompute_scale_factor=True`` (the
    step then follows the output size). 'bicubic' (4-d) takes a = -0.75 at the exact source
    position, the taps clamped to the border; 'area' (adaptive average pooling) always follows
    the output size. See ``ops.resize.upsample_scaled``."""
    if mode in ('nearest', 'linear', 'bilinear', 'bicubic', 'trilinear'):
        return _resize.upsample_scaled(input, size, scale_factor, mode, align_corners,
                                       recompute_scale_factor)
    if scale_factor is not None and recompute_scale_factor is None:
        recompute_scale_factor = True
    return ops.interpolate(input, size, scale_factor, mode, align_corners,
                           recompute_scale_factor)


def upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
    """``interpolate`` under MindSpore's other name (without recompute_scale_factor)."""
    return interpolate(input, size, scale_factor, mode, align_corners)


__getattr__ = _reporter('mindspore.mint.nn.functional')
