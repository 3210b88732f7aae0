"""MindSpore's collective communication Primitives (``mindspore.ops.operations.comm_ops``):
``AllReduce``, ``AllGather``, ``ReduceScatter`` and ``Broadcast``, the rooted ``Reduce``,
``CollectiveGather`` and ``CollectiveScatter``, and ``Barrier``; the exchanges and the
point-to-point Primitives are in ``_collective_more.py``.

Each checks its arguments and applies a differentiable op (``hookgrad/ops/collective.py``, or
the rooted ops below) on the process world of ``mindspore.communication`` (MPI, or one
process). The rooted ops' gradients are MindSpore's bprops
(``ops/_grad_experimental/grad_comm_ops.py``): Reduce: Broadcast of the root's gradient;
CollectiveGather: Broadcast of the root's gradient, each member keeping its own block;
CollectiveScatter: CollectiveGather of the gradient to the root, zeros on the other members.
Ranks given to them are ranks within ``group`` (the world ranks for the world group).
"""
import numpy as np

from ..._tensor import Tensor
from ...autograd.function import Op
from ...communication import _world
from ...communication.management import GlobalComm, current_world, world_group
from ...kernels.backend import device_of, to_device
from .._base import as_tensor
from ..collective import (AllGatherOp, AllReduceOp, BroadcastOp, ReduceOp, ReduceScatterOp,
                          _exchange as _collective)
from ..creation import zeros as _zeros_tensor
from ._primitive import Primitive

__all__ = ['AllReduce', 'AllGather', 'ReduceScatter', 'Broadcast', 'Reduce', 'CollectiveGather',
           'CollectiveScatter', 'Barrier']


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


# ------------------------------------------------- MindSpore validator checks, members
def _check_type(prim, name, value, types):
    """MindSpore's ``validator.check_value_type`` message."""
    if isinstance(value, types) and not (isinstance(value, bool) and bool not in types):
        return value
    want = f"'{types[0].__name__}'" if len(types) == 1 else \
        f"one of '{[t.__name__ for t in types]}'"
    raise TypeError(f"For '{prim}', the type of '{name}' should be {want}, but got type "
                    f"'{type(value).__name__}'.")


def _group(prim, group):
    return _check_type(prim, 'group', GlobalComm.WORLD_COMM_GROUP if group is None else group,
                       (str,))


def _reduction(prim, op):
    """``op`` with MindSpore's validator TypeError for a non-string, then ``_check_op``."""
    return _check_op(prim, _check_type(prim, 'op', op, (str,)))


def _members(prim, group):
    """(world group name, member count, this member's rank) once ``init`` has run."""
    world = current_world(prim)
    g = world_group(group)
    return g, world.group_size(g), world.group_rank(g)


def _zeros(like, shape, dtype=None):
    """Zeros of ``shape`` on the device of array ``like``."""
    z = np.zeros(shape, like.dtype if dtype is None else dtype)
    return z if type(like) is np.ndarray else to_device(z, device_of(like))


def _root(prim, name, rank, n):
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise TypeError(f"For '{prim}', '{name}' must be an int, but got "
                        f"{type(rank).__name__}.")
    if not 0 <= rank < n:
        raise ValueError(f"For '{prim}', '{name}' {rank} must be a member of the group "
                         f"(0..{n - 1}).")
    return rank


# ------------------------------------------------------------------------- rooted ops
class ReduceToRootOp(Op):
    """y = the reduction of every member's x on member ``root``, a (1,) zero elsewhere;
    dx = Broadcast(root's dy), as MindSpore's bprop of Reduce."""
    name = 'Reduce'

    @staticmethod
    def forward(ctx, x, op, root, group):
        y = _collective('allreduce', x, op, group)
        mine = _world.world().group_rank(group) == root
        ctx.root, ctx.group, ctx.shape, ctx.mine = root, group, x.shape, mine
        return y if mine else _zeros(x, (1,))

    @staticmethod
    def backward_arrays(ctx, gy):
        g = gy if ctx.mine else _zeros(gy, ctx.shape)
        return (_collective('broadcast', g, ctx.root, ctx.group),)

    @staticmethod
    def backward(ctx, gy):
        g = gy if ctx.mine else _zeros_tensor(ctx.shape, gy.dtype)
        return (BroadcastOp.apply(g, root=ctx.root, group=ctx.group),)


class GatherToRootOp(Op):
    """y = every member's x concatenated along axis 0 on member ``root``, a (1,) zero
    elsewhere; dx = this member's block of Broadcast(root's dy)."""
    name = 'CollectiveGather'

    @staticmethod
    def forward(ctx, x, root, group):
        world = _world.world()
        y = _collective('allgather', x, group)
        me, k = world.group_rank(group), x.shape[0]
        ctx.root, ctx.group, ctx.full = root, group, y.shape
        ctx.mine, ctx.block = me == root, slice(me * k, (me + 1) * k)
        return y if me == root else _zeros(x, (1,))

    @staticmethod
    def backward_arrays(ctx, gy):
        g = gy if ctx.mine else _zeros(gy, ctx.full)
        return (_collective('broadcast', g, ctx.root, ctx.group)[ctx.block],)

    @staticmethod
    def backward(ctx, gy):
        g = gy if ctx.mine else _zeros_tensor(ctx.full, gy.dtype)
        return (BroadcastOp.apply(g, root=ctx.root, group=ctx.group)[ctx.block],)


class ScatterFromRootOp(Op):
    """y = block ``rank`` (axis 0) of member ``root``'s x; dx = CollectiveGather(dy) on the
    root, zeros elsewhere (MindSpore's bprop)."""
    name = 'CollectiveScatter'

    @staticmethod
    def forward(ctx, x, root, group):
        world = _world.world()
        n, me = world.group_size(group), world.group_rank(group)
        k = x.shape[0] // n
        ctx.root, ctx.group, ctx.shape = root, group, x.shape
        ctx.mine = me == root
        return _collective('broadcast', x, root, group)[me * k:(me + 1) * k].copy()

    @staticmethod
    def backward_arrays(ctx, gy):
        gathered = _collective('allgather', gy, ctx.group)
        return (gathered if ctx.mine else _zeros(gy, ctx.shape),)

    @staticmethod
    def backward(ctx, gy):
        gathered = GatherToRootOp.apply(gy, root=ctx.root, group=ctx.group)
        return (gathered if ctx.mine else _zeros_tensor(ctx.shape, gy.dtype),)


# ------------------------------------------------------------------------------ rooted
class Reduce(Primitive):
    """``Reduce(dest_rank, op=ReduceOp.SUM, group)(x)``: the reduction of every member's x on
    member ``dest_rank`` (a rank in ``group``); the others get a (1,) zero with no meaning, as
    MindSpore's. dx = Broadcast(dest_rank's dy) on every member.

    Raises:
        TypeError: ``op`` or ``group`` not a str; ``dest_rank`` not an int.
        ValueError: an unknown ``op``; ``dest_rank`` not in the group.
    """

    def __init__(self, dest_rank, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        group = _group('Reduce', group)     # MindSpore checks the group, then the op
        super().__init__(dest_rank=dest_rank, op=_reduction('Reduce', op), group=group)

    def construct(self, input_x):
        group, n, _ = _members('Reduce', self.group)
        root = _root('Reduce', 'dest_rank', self.dest_rank, n)
        x = as_tensor(input_x, 'input_x')
        return ReduceToRootOp.apply(x, op=self.op, root=root, group=group)


class CollectiveGather(Primitive):
    """``CollectiveGather(dest_rank, group)(x)``: every member's x (same shape) concatenated
    along axis 0 on member ``dest_rank``; the others get a (1,) zero with no meaning. dx =
    this member's block of Broadcast(dest_rank's dy).

    Raises:
        TypeError: ``group`` not a str; ``dest_rank`` not an int.
        ValueError: ``dest_rank`` not in the group; a 0-d input.
    """

    def __init__(self, dest_rank, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(dest_rank=dest_rank, group=_group('CollectiveGather', group))

    def construct(self, input_x):
        group, n, _ = _members('CollectiveGather', self.group)
        root = _root('CollectiveGather', 'dest_rank', self.dest_rank, n)
        x = as_tensor(input_x, 'input_x')
        if x.ndim == 0:
            raise ValueError("For 'CollectiveGather', the input must have rank >= 1, got a "
                             "0-d tensor.")
        return GatherToRootOp.apply(x, root=root, group=group)


class CollectiveScatter(Primitive):
    """``CollectiveScatter(src_rank=0, group)(x)``: member ``src_rank``'s x cut into group-size
    blocks along axis 0; member i gets block i (every member passes a tensor of that shape).
    dx = CollectiveGather(dy) to ``src_rank``, zeros on the other members.

    Raises:
        TypeError: ``group`` not a str; ``src_rank`` not an int.
        ValueError: ``src_rank`` not in the group; axis 0 does not divide by the group size.
    """

    def __init__(self, src_rank=0, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(src_rank=src_rank, group=_group('CollectiveScatter', group))

    def construct(self, input_x):
        group, n, _ = _members('CollectiveScatter', self.group)
        root = _root('CollectiveScatter', 'src_rank', self.src_rank, n)
        x = as_tensor(input_x, 'input_x')
        if x.ndim == 0 or x.shape[0] % n:
            raise ValueError(f"For 'CollectiveScatter', the first dimension of the input shape "
                             f"{tuple(x.shape)} must be divisible by rank_size {n}.")
        return ScatterFromRootOp.apply(x, root=root, group=group)


class Barrier(Primitive):
    """``Barrier(group)()``: returns once every member of ``group`` has called it; its output
    is a (1,) float32 zero with no meaning (MindSpore infers that shape and dtype)."""

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(group=_group('Barrier', group))

    def construct(self):
        group, _, _ = _members('Barrier', self.group)
        _world.world().barrier(group)
        return Tensor(np.zeros((1,), np.float32))


