"""Collective communication: the differentiable ops of ``AllReduce``, ``AllGather``,
``ReduceScatter`` and ``Broadcast`` (their Primitives are in ``operations/_collective.py``), and
``ReduceOp``, as MindSpore's ``mindspore.ops.operations.comm_ops``.

Each runs on the process world of ``mindspore.communication`` (MPI, or one process) and is
differentiable with MindSpore's bprops (``ops/_grad/grad_comm_ops.py``):

- AllReduce SUM: dx = AllReduce_SUM(dy); PROD: dx = AllReduce_SUM(dy * y) / x;
  MAX/MIN: dx = AllReduce_SUM(dy) * (x == y) (every rank holding the extreme gets the sum);
- AllGather: dx = ReduceScatter_SUM(dy) (no scaling);
- ReduceScatter (SUM only): dx = AllGather(dy);
- Broadcast: dx = dy on every rank (MindSpore passes the gradient through unchanged).

Backward runs the matching collective, so every rank must run backward over the same ops in
the same order, as it ran forward. The world exchanges host buffers: a device array goes to the
host and its result back to the device (``_exchange``).
"""
import numpy as np

from ..autograd.function import Op
from ..communication import _world
from ..kernels.backend import device_of, to_device, to_host
from ._base import as_tensor
from .arithmetic import cast

__all__ = ['ReduceOp']


class ReduceOp:
    """The reductions of ``AllReduce`` and ``ReduceScatter``: SUM, MAX, MIN, PROD."""
    SUM = 'sum'
    MAX = 'max'
    MIN = 'min'
    PROD = 'prod'


def _exchange(method, x, *args):
    """``world.<method>(x, *args)``: on x's host buffer for a device array, the result put back
    on x's device (the world's buffers are NumPy's, as MPI's)."""
    fn = getattr(_world.world(), method)
    if type(x) is np.ndarray:
        return fn(x, *args)
    return to_device(fn(to_host(x), *args), device_of(x))


# ------------------------------------------------------------------------------------ ops
class AllReduceOp(Op):
    """y = the reduction of every member's x; see the module docstring for dx."""
    name = 'AllReduce'

    @staticmethod
    def forward(ctx, x, op, group):
        y = _exchange('allreduce', x, op, group)
        ctx.reduce, ctx.group = op, group
        if op != ReduceOp.SUM:
            ctx.save(x, y)
        return y

    @staticmethod
    def backward_arrays(ctx, gy):
        if ctx.reduce == ReduceOp.SUM:
            return (_exchange('allreduce', gy, 'sum', ctx.group),)
        x, y = ctx.saved
        if ctx.reduce == ReduceOp.PROD:
            return (_exchange('allreduce', gy * y, 'sum', ctx.group) / x,)
        return (_exchange('allreduce', gy, 'sum', ctx.group) * (x == y).astype(gy.dtype),)

    @staticmethod
    def backward(ctx, gy):
        if ctx.reduce == ReduceOp.SUM:
            return (AllReduceOp.apply(gy, op='sum', group=ctx.group),)
        x, y = (as_tensor(v) for v in ctx.saved)
        if ctx.reduce == ReduceOp.PROD:
            return (AllReduceOp.apply(gy * y, op='sum', group=ctx.group) / x,)
        return (AllReduceOp.apply(gy, op='sum', group=ctx.group) * cast(x == y, gy.dtype),)


class AllGatherOp(Op):
    """y = every member's x concatenated along axis 0; dx = ReduceScatter_SUM(dy)."""
    name = 'AllGather'

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return _exchange('allgather', x, group)

    @staticmethod
    def backward_arrays(ctx, gy):
        return (_exchange('reduce_scatter', gy, 'sum', ctx.group),)

    @staticmethod
    def backward(ctx, gy):
        return (ReduceScatterOp.apply(gy, op='sum', group=ctx.group),)


class ReduceScatterOp(Op):
    """y = block ``rank`` (axis 0) of the reduction of every member's x; dx = AllGather(dy)
    (SUM only, as MindSpore)."""
    name = 'ReduceScatter'

    @staticmethod
    def forward(ctx, x, op, group):
        ctx.reduce, ctx.group = op, group
        return _exchange('reduce_scatter', x, op, group)

    @staticmethod
    def backward_arrays(ctx, gy):
        ReduceScatterOp._check_sum(ctx)
        return (_exchange('allgather', gy, ctx.group),)

    @staticmethod
    def backward(ctx, gy):
        ReduceScatterOp._check_sum(ctx)
        return (AllGatherOp.apply(gy, group=ctx.group),)

    @staticmethod
    def _check_sum(ctx):
        if ctx.reduce != ReduceOp.SUM:
            raise RuntimeError("The reducescatter bprop only support ReduceOp.SUM until now.")


class BroadcastOp(Op):
    """y = member ``root``'s x (group rank); dx = dy, as MindSpore's bprop."""
    name = 'Broadcast'

    @staticmethod
    def forward(ctx, x, root, group):
        return _exchange('broadcast', x, root, group)

    @staticmethod
    def backward(ctx, gy):
        return (gy,)
