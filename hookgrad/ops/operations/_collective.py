"""MindSpore's collective communication Primitives: ``AllReduce``, ``AllGather``,
``ReduceScatter`` and ``Broadcast`` (``mindspore.ops.operations.comm_ops``).

Each checks its arguments and applies the differentiable op of ``hookgrad/ops/collective.py``
on the process world of ``mindspore.communication`` (MPI, or one process).
"""
from ...communication import _world
from ...communication.management import GlobalComm, current_world, world_group
from .._base import as_tensor
from ..collective import AllGatherOp, AllReduceOp, BroadcastOp, ReduceOp, ReduceScatterOp
from ._primitive import Primitive

__all__ = ['AllReduce', 'AllGather', 'ReduceScatter', 'Broadcast']


def _world_of(prim):
    return current_world(prim)


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
