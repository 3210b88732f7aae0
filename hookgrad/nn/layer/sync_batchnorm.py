"""``nn.SyncBatchNorm``: batch normalization with statistics over every process's batch.

In data parallel each process holds a share of the batch. ``BatchNorm`` normalizes each share
with its own statistics; ``SyncBatchNorm`` all-reduces the per-channel sums, sums of squares
and counts, so every process normalizes with the statistics of the whole batch, and its
backward all-reduces the two per-channel sums the input gradient needs. N processes with B/N
samples each then compute what one process computes with B samples (up to float rounding).
gamma's and beta's gradients stay local sums: the gradient reducer adds them up as it does
every parameter's.
"""
import itertools
import numbers

import numpy as np

from ..._tensor import Tensor
from ...autograd.function import Op
from ...kernels.backend import device_of, to_device, to_host
from ...communication import _world
from ...ops.normalization import _channel_dot, _channel_sum, _in_layout, _per_channel
from .normalization import _BatchNorm

__all__ = ['SyncBatchNorm']


class SyncBatchNormTrain(Op):
    """y = (x - mean) * rstd * w + b, mean and variance over axis 1's channels of the inputs of
    every process of ``group`` (float64 sums, one allreduce).

    With xc = x - mean and the global count M: dx = w rstd (gy - S1/M - xc rstd^2 S2/M), where
    S1 = sum(gy) and S2 = sum(gy xc) over every process (one allreduce); dw = rstd sum(gy xc)
    and db = sum(gy) over this process's share. ``running`` as in ``BatchNormTrain``.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, w, b, eps, momentum, running, group):
        world = _world.world()
        c = x.shape[1]
        sums = to_host(ctx.xp.concatenate([_channel_sum(x), _channel_dot(x, x)]))
        total = world.allreduce(np.append(sums.astype(np.float64), x.size // c), 'sum', group)
        count = total[-1]
        if count == 0:
            raise ValueError("nn.SyncBatchNorm: the batches of every process are empty")
        mean = total[:c] / count
        var = np.maximum(total[c:2 * c] / count - mean * mean, 0.0)
        dtype = x.dtype
        device = device_of(x)       # the world's buffers are the host's; the result goes back
        mean, var = to_device(mean, device), to_device(var, device)
        rstd = (1 / np.sqrt(var + eps)).astype(dtype)
        xc = x - _per_channel(mean.astype(dtype), x.ndim)
        y = xc * _per_channel(w * rstd, x.ndim)
        y += _per_channel(b, x.ndim)
        if ctx.recording:
            ctx.save(x, w, rstd)
            ctx.xc, ctx.count, ctx.group = xc, count, group
        if running is not None:
            rm, rv = running
            unbiased = var * (count / max(count - 1, 1))
            rm._data = (rm._data * (1 - momentum) + mean * momentum).astype(rm._data.dtype)
            rv._data = (rv._data * (1 - momentum) + unbiased * momentum).astype(rv._data.dtype)
        return y

    @staticmethod
    def backward_arrays(ctx, gy):
        x, w, rstd = ctx.saved
        xc, count = ctx.xc, ctx.count
        c = x.shape[1]
        gy = _in_layout(gy, xc)
        local = ctx.xp.concatenate([_channel_sum(gy), _channel_dot(xc, gy)])
        total = to_device(_world.world().allreduce(to_host(local), 'sum', ctx.group),
                          device_of(local))
        dtype = x.dtype
        gx = None
        if ctx.needs_grad(0):
            s1 = (total[:c] / count).astype(dtype)
            s2 = (total[c:] / count).astype(dtype) * rstd * rstd
            nd = x.ndim
            gx = gy - _per_channel(s1, nd)
            gx -= xc * _per_channel(s2, nd)
            gx *= _per_channel(w * rstd, nd)
        gw = local[c:].astype(dtype) * rstd if ctx.needs_grad(1) else None
        gb = local[:c].astype(dtype) if ctx.needs_grad(2) else None
        return gx, gw, gb

    @staticmethod
    def backward(ctx, gy):
        raise RuntimeError("nn.SyncBatchNorm: higher-order gradients (create_graph=True) are "
                           "not supported")


class SyncBatchNorm(_BatchNorm):
    """Batch normalization whose training statistics cover the batches of every process.

    In training mode the mean and variance of each channel are those of the inputs of all
    processes of the group together (a 2-d (N, C), 3-d or 4-d (N, C, H, W) input), and the
    moving statistics follow them as in ``BatchNorm2d``. In predict mode, in a single process,
    and on a process in none of ``process_groups`` it is ``BatchNorm2d``.

    Args:
        num_features: the number of channels C, a positive int.
        eps: added to the variance, > 0. Default 1e-5.
        momentum: the weight of the old moving statistics, in [0, 1]. Default 0.9.
        affine: whether gamma and beta are trained. Default True.
        gamma_init, beta_init, moving_mean_init, moving_var_init: initial values. Defaults
            'ones', 'zeros', 'zeros', 'ones'.
        use_batch_statistics: None (follow the train/predict mode), True or False.
        process_groups: None (every process together), or a list of lists of rank ids, each
            list one group synchronized together (groups ``sync_bn_group{i}``).

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for values out of range, or rank ids out of range or repeated.

    >>> import hookgrad as ms
    >>> bn = ms.nn.SyncBatchNorm(2).set_train()     # one process: BatchNorm
    >>> print(bn(ms.Tensor([[1.0, 2.0], [3.0, 6.0]])).asnumpy().round(3))
    [[-1. -1.]
     [ 1.  1.]]
    """

    _ranks = (2, 3, 4)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones',
                 beta_init='zeros', moving_mean_init='zeros', moving_var_init='ones',
                 use_batch_statistics=None, process_groups=None):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics)
        self.process_groups = process_groups
        self.group_name = _sync_group(process_groups)

    def construct(self, x):
        training = self.training if self.use_batch_statistics is None else \
            self.use_batch_statistics
        if not training or self.group_name is None or not isinstance(x, Tensor) or \
                x.ndim not in self._ranks or x.shape[1] != self.num_features:
            return super().construct(x)     # predict mode, one process, or its input errors
        return SyncBatchNormTrain.apply(x, self.gamma, self.beta, eps=self.eps,
                                        momentum=self.momentum,
                                        running=(self.moving_mean, self.moving_variance),
                                        group=self.group_name)


def _sync_group(process_groups):
    """The world group name this process synchronizes over, or None (no one to sync with).

    Every process creates every group (creating a communicator is collective)."""
    world = _world.world() or _world.start()
    if process_groups is None:
        return _world.WORLD if world.size > 1 else None
    if not isinstance(process_groups, list) or not all(
            isinstance(g, list) for g in process_groups):
        raise TypeError(f"For 'SyncBatchNorm', the type of 'process_groups' must be a list of "
                        f"lists, but got {process_groups!r}")
    seen = set()
    for rid in itertools.chain(*process_groups):
        if isinstance(rid, bool) or not isinstance(rid, numbers.Integral) or \
                not 0 <= rid < world.size:
            raise ValueError(f"For 'SyncBatchNorm', rank id in 'process_groups' must be an int "
                             f"in [0, {world.size}), but got {rid!r}")
        if rid in seen:
            raise ValueError(f"For 'SyncBatchNorm', rank id in 'process_groups' must not be "
                             f"duplicated, but got {process_groups}")
        seen.add(rid)
    mine = None
    for i, ranks in enumerate(process_groups):
        if len(ranks) < 2:
            continue
        name = f"sync_bn_group{i}"
        try:
            existing = world.group_ranks(name)
        except ValueError:
            world.create_group(name, ranks)
            existing = sorted(ranks)
        if existing != sorted(ranks):
            raise ValueError(f"For 'SyncBatchNorm', communication group {name!r} already "
                             f"exists with ranks {existing}, not {sorted(ranks)}")
        if world.rank in ranks:
            mine = name
    return mine
