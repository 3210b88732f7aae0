"""``mindspore.mint``'s batch-norm pieces (the statistics of one process, their combination
over processes, the normalisation), as the synchronised batch norm composes them."""
from .. import ops

__all__ = ['batch_norm_stats', 'batch_norm_elemt', 'batch_norm_gather_stats_with_counts']


def _channel_axes(input):
    return (0,) + tuple(range(2, input.ndim))


def _per_channel(t, input):
    return ops.reshape(t, (1, -1) + (1,) * (input.ndim - 2))


def batch_norm_stats(input, eps):
    """``(mean, invstd)`` per channel (axis 1) over the other axes: ``invstd`` is
    ``1 / sqrt(biased variance + eps)``."""
    axes = _channel_axes(input)
    mean = ops.mean(input, axes)
    var = ops.mean(ops.square(ops.sub(input, _per_channel(mean, input))), axes)
    return mean, ops.rsqrt(ops.add(var, eps))


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):
    """``(input - mean) * invstd * weight + bias`` per channel."""
    if mean is None or invstd is None:
        mean, invstd = batch_norm_stats(input, eps)
    y = ops.mul(ops.sub(input, _per_channel(mean, input)), _per_channel(invstd, input))
    if weight is not None:
        y = ops.mul(y, _per_channel(weight, input))
    if bias is not None:
        y = ops.add(y, _per_channel(bias, input))
    return y


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None,
                                        running_var=None, momentum=0.1, eps=1e-05, counts=None):
    """The statistics of the union of several batches, from each batch's ``mean`` and
    ``invstd`` (W, C) and element ``counts`` (W,): ``(mean, invstd)`` of shape (C,). The
    running statistics, when given, move by ``momentum`` towards them (the variance
    unbiased)."""
    counts = ops.cast(ops.reshape(counts, (-1, 1)), mean.dtype)
    total = ops.sum(counts)
    var = ops.sub(ops.reciprocal(ops.square(invstd)), eps)
    global_mean = ops.div(ops.sum(ops.mul(counts, mean), 0), total)
    second = ops.div(ops.sum(ops.mul(counts, ops.add(var, ops.square(mean))), 0), total)
    global_var = ops.sub(second, ops.square(global_mean))
    if running_mean is not None:
        ops.assign(running_mean, ops.add(ops.mul(running_mean, 1 - momentum),
                                         ops.mul(ops.stop_gradient(global_mean), momentum)))
    if running_var is not None:
        unbiased = ops.div(ops.mul(ops.stop_gradient(global_var), total), ops.sub(total, 1))
        ops.assign(running_var, ops.add(ops.mul(running_var, 1 - momentum),
                                        ops.mul(unbiased, momentum)))
    return global_mean, ops.rsqrt(ops.add(global_var, eps))
