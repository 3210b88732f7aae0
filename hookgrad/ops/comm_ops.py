"""Collective communication ops: ``AllReduce``, ``AllGather``, ``ReduceScatter``,
``Broadcast`` and ``ReduceOp``, as MindSpore's ``mindspore.ops.operations.comm_ops``.

Each runs on the process world of ``mindspore.communication`` (MPI, or one process) and is
differentiable with MindSpore's bprops (``ops/_grad/grad_comm_ops.py``):

- AllReduce SUM: dx = AllReduce_SUM(dy); PROD: dx = AllReduce_SUM(dy * y) / x;
  MAX/MIN: dx = AllReduce_SUM(dy) * (x == y) (every rank holding the extreme gets the sum);
- AllGather: dx = ReduceScatter_SUM(dy) (no scaling);
- ReduceScatter (SUM only): dx = AllGather(dy);
- Broadcast: dx = dy on every rank (MindSpore passes the gradient through unchanged).

Backward runs the matching collective, so every rank must run backward over the same ops in
the same order, as it ran forward.
"""
from ..autograd.function import Op
from ..communication import _world
from ..communication.management import GlobalComm, current_world, world_group
from ._base import as_tensor
from .arithmetic import cast
from .primitives import Primitive

__all__ = ['ReduceOp', 'AllReduce', 'AllGather', 'ReduceScatter', 'Broadcast']


class ReduceOp:
    """The reductions of ``AllReduce`` and ``ReduceScatter``: SUM, MAX, MIN, PROD."""
    SUM = 'sum'
    MAX = 'max'
    MIN = 'min'
    PROD = 'prod'


def _world_of(prim):
    return current_world(prim)


# ------------------------------------------------------------------------------------ ops
class AllReduceOp(Op):
    """y = the reduction of every member's x; see the module docstring for dx."""
    name = 'AllReduce'

    @staticmethod
    def forward(ctx, x, op, group):
        y = _world.world().allreduce(x, op, group)
        ctx.reduce, ctx.group = op, group
        if op != ReduceOp.SUM:
            ctx.save(x, y)
        return y

    @staticmethod
    def backward_arrays(ctx, gy):
        world = _world.world()
        if ctx.reduce == ReduceOp.SUM:
            return (world.allreduce(gy, 'sum', ctx.group),)
        x, y = ctx.saved
        if ctx.reduce == ReduceOp.PROD:
            return (world.allreduce(gy * y, 'sum', ctx.group) / x,)
        return (world.allreduce(gy, 'sum', ctx.group) * (x == y).astype(gy.dtype),)

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
        return _world.world().allgather(x, group)

    @staticmethod
    def backward_arrays(ctx, gy):
        return (_world.world().reduce_scatter(gy, 'sum', ctx.group),)

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
        return _world.world().reduce_scatter(x, op, group)

    @staticmethod
    def backward_arrays(ctx, gy):
        ReduceScatterOp._check_sum(ctx)
        return (_world.world().allgather(gy, ctx.group),)

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
        return _world.world().broadcast(x, root, group)

    @staticmethod
    def backward(ctx, gy):
        return (gy,)


# ----------------------------------------------------------------------------- primitives
def _check_op(prim, op):
    if not isinstance(op, str):
        raise TypeError(f"For '{prim}', the 'op' must be str, but got {type(op).__name__}.")
    if op not in _world.REDUCE_OPS:
        raise ValueError(f"For '{prim}', the 'op' must be one of ReduceOp.SUM, MAX, MIN, "
                         f"PROD ({_world.REDUCE_OPS}), but got {op!r}.")
    return op


def _check_group(prim, group):
    if not isinstance(group, str):
        raise TypeError(f"For '{prim}', the 'group' must be str, but got "
                        f"{type(group).__name__}.")
    return group


def _input(prim, x):
    x = as_tensor(x, 'input_x')
    if x.dtype.name == 'Bool' or str(x._data.dtype) == 'bool':
        raise TypeError(f"For '{prim}', the input's dtype must not be bool.")
    return x


class AllReduce(Primitive):
    """``AllReduce(op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP)(x)``: the element-wise
    reduction of ``x`` over every process of ``group``, on every process.

    Raises:
        TypeError: ``op`` or ``group`` is not a str; a bool input.
        ValueError: an unknown ``op``.
        RuntimeError: called before ``mindspore.communication.init()``.
    """

    def __init__(self, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(op=_check_op('AllReduce', op),
                         group=_check_group('AllReduce', group))

    def construct(self, input_x):
        _world_of('AllReduce')
        x = _input('AllReduce', input_x)
        return AllReduceOp.apply(x, op=self.op, group=world_group(self.group))


class AllGather(Primitive):
    """``AllGather(group=GlobalComm.WORLD_COMM_GROUP)(x)``: every process's ``x`` (same
    shape) concatenated along axis 0 in group-rank order, shape ``(N * x_1, x_2, ...)``.

    Raises:
        TypeError: ``group`` is not a str.
        RuntimeError: made before ``mindspore.communication.init()`` (it reads the rank).
        ValueError: a 0-d input.
    """

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP):
        world = _world_of('AllGather')
        _check_group('AllGather', group)
        super().__init__(group=group)
        self.rank = world.group_rank(world_group(group))
        self.rank_size = world.group_size(world_group(group))

    def construct(self, input_x):
        x = _input('AllGather', input_x)
        if x.ndim == 0:
            raise ValueError("For 'AllGather', the input must have rank >= 1, got a 0-d "
                             "tensor")
        return AllGatherOp.apply(x, group=world_group(self.group))


class ReduceScatter(Primitive):
    """``ReduceScatter(op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP)(x)``: ``x``
    reduced over ``group``, cut along axis 0 into N blocks; process i gets block i.

    Raises:
        TypeError: ``op`` or ``group`` is not a str.
        RuntimeError: made before ``mindspore.communication.init()``.
        ValueError: an unknown ``op``; axis 0 does not divide by the group size.
    """

    def __init__(self, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        world = _world_of('ReduceScatter')
        super().__init__(op=_check_op('ReduceScatter', op),
                         group=_check_group('ReduceScatter', group))
        self.rank_size = world.group_size(world_group(group))

    def construct(self, input_x):
        x = _input('ReduceScatter', input_x)
        if x.ndim == 0 or x.shape[0] % self.rank_size:
            raise ValueError(f"For 'ReduceScatter', the first dimension of the input shape "
                             f"{tuple(x.shape)} must be divisible by rank_size "
                             f"{self.rank_size}.")
        return ReduceScatterOp.apply(x, op=self.op, group=world_group(self.group))


class Broadcast(Primitive):
    """``Broadcast(root_rank, group=GlobalComm.WORLD_COMM_GROUP)((x, ...))``: the tuple of
    tensors of process ``root_rank`` (a world rank), on every process of ``group``.

    Raises:
        TypeError: ``root_rank`` is not an int, ``group`` not a str, the input not a tuple
            or list of tensors.
        ValueError: ``root_rank`` is not in ``group``.
        RuntimeError: called before ``mindspore.communication.init()``.
    """

    def __init__(self, root_rank, group=GlobalComm.WORLD_COMM_GROUP):
        if not isinstance(root_rank, int) or isinstance(root_rank, bool):
            raise TypeError(f"For 'Broadcast', the 'root_rank' must be int, but got "
                            f"{type(root_rank).__name__}.")
        super().__init__(root_rank=root_rank, group=_check_group('Broadcast', group))

    def construct(self, input_x):
        world = _world_of('Broadcast')
        if not isinstance(input_x, (tuple, list)):
            raise TypeError(f"For 'Broadcast', the input must be a tuple of tensors, but got "
                            f"{type(input_x).__name__}.")
        group = world_group(self.group)
        ranks = world.group_ranks(group)
        if self.root_rank not in ranks:
            raise ValueError(f"For 'Broadcast', root_rank {self.root_rank} is not in group "
                             f"{self.group!r} (ranks {ranks}).")
        root = ranks.index(self.root_rank)
        return tuple(BroadcastOp.apply(_input('Broadcast', x), root=root, group=group)
                     for x in input_x)
