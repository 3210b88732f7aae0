"""MindSpore's exchange and point-to-point collective Primitives
(``mindspore.ops.operations.comm_ops``): ``AlltoAll``, ``AlltoAllV``, ``AlltoAllVC``,
``AllGatherV`` and ``ReduceScatterV`` (all on ``AllToAllVOp``, ``ops/function/_comm_base.py``),
``Send``, ``Receive``, ``BatchISendIRecv`` and ``NeighborExchange`` (all on
``PointToPointOp``), and ``NeighborExchangeV2`` (which refuses to run).

Gradients are MindSpore's bprops (``ops/_grad_experimental/grad_comm_ops.py``):

- AlltoAll, AlltoAllV, AlltoAllVC: the reverse exchange; AllGatherV: ReduceScatterV SUM;
  ReduceScatterV (SUM only): AllGatherV;
- Send and Receive pair up: the receiver sends its gradient back and the sender receives it as
  the gradient of what it sent; NeighborExchange and BatchISendIRecv run the reverse exchange
  the same way.

As for every collective, each member must run backward over the same ops in the same order as
it ran forward (a Send's or Receive's output must reach the loss for its gradient message to be
exchanged). Ranks given to these Primitives are ranks within ``group`` (the world ranks for the
world group).
"""
import numpy as np

from ..._dtype import DType, to_numpy
from ..._tensor import Tensor
from ...autograd.function import Op
from ...communication import _world
from ...communication.management import GlobalComm, world_group
from ...kernels.backend import device_of, to_device, to_host
from .._base import as_tensor, normalize_axis
from ..collective import ReduceOp
from ..creation import zeros as _zeros_tensor
from ..reduction import reduce_max, reduce_min, reduce_prod, reduce_sum
from ..shaping import concat, reshape, split
from ._collective import _check_type, _group, _members, _reduction, _root, _zeros
from ._primitive import Primitive

__all__ = ['AlltoAll', 'AlltoAllV', 'AlltoAllVC', 'AllGatherV', 'ReduceScatterV', 'Send',
           'Receive', 'BatchISendIRecv', 'NeighborExchange', 'NeighborExchangeV2']

_P2P_TAG = 32110        # the MPI tag of BatchISendIRecv's and NeighborExchange's messages
_RECEIVE_TYPES = ('float16', 'float32', 'float64', 'bfloat16', 'int8', 'int16', 'int32',
                  'int64', 'uint8', 'uint16', 'uint32', 'uint64')
_BPROP_SUM_ONLY = "The reducescatter bprop only support ReduceOp.SUM until now."


# ------------------------------------------------------------------------------- helpers
def _all_to_all_v(api, flat, send, recv, group):
    """``_comm_base.all_to_all_v``: ``AllToAllVOp`` once the counts are checked (imported on
    call: ``_comm_base`` imports ``hookgrad.ops``, which imports this module)."""
    from ..function._comm_base import all_to_all_v as exchange
    return exchange(api, flat, send, recv, group)


def _counts(prim, what, values, n, scale=1):
    """A list, tuple or 1-D Tensor of ``n`` non-negative ints, times ``scale``."""
    if isinstance(values, Tensor):
        values = values.asnumpy().reshape(-1).tolist()
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"For '{prim}', '{what}' must be a tuple, list or Tensor of ints, but "
                        f"got {type(values).__name__}.")
    if len(values) != n or any(int(v) < 0 for v in values):
        raise ValueError(f"For '{prim}', '{what}' must hold {n} non-negative counts (one per "
                         f"member), but got {list(values)}.")
    return tuple(int(v) * scale for v in values)


def _flat(prim, x):
    x = as_tensor(x, 'input_x')
    if x.ndim != 1:
        raise ValueError(f"For '{prim}', the input must be a 1-D (flattened) tensor, but got "
                         f"shape {tuple(x.shape)}.")
    return x


# ---------------------------------------------------------------------- point to point
def _transfer(plan, arrays, group, tag, like):
    """Run ``plan``, a tuple of ``('send', peer, out_shape)`` and ``('recv', peer, shape,
    dtype)`` entries (peers are group ranks): the send entries take ``arrays`` in order. Every
    transfer starts before any is waited on. Returns one array per entry: what a recv entry
    received, zeros of ``out_shape`` (the sent dtype) for a send entry; on ``like``'s device.
    A member may message itself: its sends to itself meet its receives from itself in order."""
    world = _world.world()
    n, me = world.group_size(group), world.group_rank(group)
    outs, pending, local, sent = [None] * len(plan), [], [], iter(arrays)
    for i, entry in enumerate(plan):
        if not 0 <= entry[1] < n:
            raise ValueError(f"the peer rank {entry[1]} is not a member of the group "
                             f"(0..{n - 1})")
        if entry[0] == 'send':
            a = next(sent)
            outs[i] = np.zeros(entry[2], a.dtype)
            if entry[1] == me:
                local.append(np.array(to_host(a, 'a send through the host')))
            else:
                pending.append(world.isend(a, entry[1], group, tag))
    for i, entry in enumerate(plan):
        if entry[0] == 'recv':
            buf = np.empty(entry[2], entry[3])
            if entry[1] != me:
                pending.append(world.irecv(buf, entry[1], group, tag))
            elif not local:
                raise ValueError(f"a receive from this member (rank {me}) has no matching "
                                 f"send to itself")
            elif local[0].shape != buf.shape:
                raise ValueError(f"a message to itself of shape {local[0].shape} does not fit "
                                 f"the receive of shape {buf.shape}")
            else:
                buf[...] = local.pop(0)
            outs[i] = buf
    for p in pending:
        p.wait()
    if type(like) is not np.ndarray:
        outs = [to_device(o, device_of(like)) for o in outs]
    return outs


def _reversed(plan, metas):
    """The plan of the gradients: a send becomes a receive of the sent input's shape and
    dtype (``metas``), a receive becomes a send; the order (hence MPI's matching) is kept."""
    sent = iter(metas)
    return tuple(('recv', e[1]) + next(sent) if e[0] == 'send' else ('send', e[1], ())
                 for e in plan)


class PointToPointOp(Op):
    """Sends and receives between members (``_transfer``): inputs are the sent tensors, then
    anchors (inputs that only put the op on the graph, as Receive's); one output per plan
    entry. Backward runs the reversed plan: each received tensor's gradient goes back to its
    sender, which receives it as the gradient of what it sent; anchors get zeros."""
    name = 'PointToPoint'

    @staticmethod
    def forward(ctx, *xs, plan, group, back, tag):
        n_send = sum(e[0] == 'send' for e in plan)
        ctx.plan, ctx.group, ctx.back, ctx.tag = plan, group, back, tag
        ctx.metas = [(tuple(x.shape), x.dtype) for x in xs]
        like = xs[0] if xs else np.empty(0)
        outs = _transfer(plan, xs[:n_send], group, tag, like)
        return outs[0] if len(outs) == 1 else tuple(outs)

    @staticmethod
    def _split(ctx, gys):
        n_send = sum(e[0] == 'send' for e in ctx.plan)
        plan = _reversed(ctx.plan, ctx.metas[:n_send])
        grads = [g for g, e in zip(gys, ctx.plan) if e[0] == 'recv']
        return plan, grads, n_send

    @staticmethod
    def backward_arrays(ctx, *gys):
        plan, grads, n_send = PointToPointOp._split(ctx, gys)
        outs = _transfer(plan, grads, ctx.back, ctx.tag, gys[0])
        dxs = [o for o, e in zip(outs, ctx.plan) if e[0] == 'send']
        return tuple(dxs) + tuple(_zeros(gys[0], s, d) for s, d in ctx.metas[n_send:])

    @staticmethod
    def backward(ctx, *gys):
        plan, grads, n_send = PointToPointOp._split(ctx, gys)
        outs = PointToPointOp.apply(*grads, plan=plan, group=ctx.back, back=ctx.group,
                                    tag=ctx.tag)
        outs = outs if isinstance(outs, tuple) else (outs,)
        dxs = [o for o, e in zip(outs, ctx.plan) if e[0] == 'send']
        return tuple(dxs) + tuple(_zeros_tensor(s, gys[0].dtype) for s, _ in ctx.metas[n_send:])


def _point_to_point(plan, inputs, group, back, tag, anchors=()):
    """``PointToPointOp`` on Tensors; always a tuple, one output per entry."""
    outs = PointToPointOp.apply(*inputs, *anchors, plan=plan, group=group, back=back, tag=tag)
    return outs if isinstance(outs, tuple) else (outs,)


# ------------------------------------------------------------------------------ exchanges
def _is_int(value):
    """MindSpore's ``check_is_int`` as AlltoAll calls it (its message names ``int``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"The type of '{int}' must be 'int', but got "
                        f"'{type(value).__name__}'.")
    return value


class AlltoAll(Primitive):
    """``AlltoAll(split_count, split_dim, concat_dim, group)(x)``: x cut into ``split_count``
    (the group size) blocks along ``split_dim``, block j sent to member j; the blocks received
    are concatenated along ``concat_dim`` in member order. dx = the reverse AlltoAll.

    Raises:
        TypeError: ``group`` is not a str, a count or axis is not an int.
        ValueError: ``split_count`` is not the group size; ``split_dim`` does not divide by it.
        RuntimeError: called before ``mindspore.communication.init()``.
    """

    def __init__(self, split_count, split_dim, concat_dim, group=GlobalComm.WORLD_COMM_GROUP):
        group = _group('AlltoAll', group)
        super().__init__(split_count=_is_int(split_count), split_dim=_is_int(split_dim),
                         concat_dim=_is_int(concat_dim), group=group)

    def construct(self, input_x):
        group, n, _ = _members('AlltoAll', self.group)
        x = as_tensor(input_x, 'input_x')
        sd = normalize_axis(self.split_dim, x.ndim, 'split_dim')
        cd = normalize_axis(self.concat_dim, x.ndim, 'concat_dim')
        if self.split_count != n:
            raise ValueError(f"For 'AlltoAll', split_count {self.split_count} must equal the "
                             f"group size {n}.")
        if x.shape[sd] % n:
            raise ValueError(f"For 'AlltoAll', the input's dimension {sd} of shape "
                             f"{tuple(x.shape)} must be divisible by split_count {n}.")
        blocks = split(x, x.shape[sd] // n, axis=sd)
        k = blocks[0].size
        flat = concat([reshape(b, (-1,)) for b in blocks])
        y = _all_to_all_v('AlltoAll', flat, (k,) * n, (k,) * n, group)
        parts = [reshape(p, blocks[0].shape) for p in split(y, k)] if k else blocks
        return concat(parts, axis=cd)


class AlltoAllV(Primitive):
    """``AlltoAllV(group, block_size=1)(x, send_numel_list, recv_numel_list)``: flat x cut into
    blocks of ``send_numel_list[j] * block_size`` elements, block j going to member j; the
    result is what every member sends here, in member order (``recv_numel_list``). dx = the
    reverse exchange. Nothing received gives a (0,)-shaped tensor (MindSpore's is a
    meaningless 0-d one): it stays on the graph, so the reverse exchange still runs.

    Raises:
        TypeError: ``block_size`` is not an int; counts not a list, tuple or Tensor.
        ValueError: counts not one per member, or what this member sends itself differs
            from what it expects from itself.
    """

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP, block_size=1):
        super().__init__(group=_group('AlltoAllV', group),
                         block_size=_check_type('AlltoAllV', 'block_size', block_size, (int,)))

    def construct(self, input_x, send_numel_list, recv_numel_list):
        group, n, _ = _members('AlltoAllV', self.group)
        x = reshape(as_tensor(input_x, 'input_x'), (-1,))
        send = _counts('AlltoAllV', 'send_numel_list', send_numel_list, n, self.block_size)
        recv = _counts('AlltoAllV', 'recv_numel_list', recv_numel_list, n, self.block_size)
        return _all_to_all_v('AlltoAllV', x, send, recv, group)


class AlltoAllVC(Primitive):
    """``AlltoAllVC(group, block_size=1, transpose=False)(x, send_count_matrix)``: AlltoAllV
    with every member's counts in one flat n x n matrix (entry i * n + j: what member i sends
    member j, times ``block_size``); ``transpose`` reads it transposed (the reverse exchange,
    which is its gradient)."""

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP, block_size=1, transpose=False):
        super().__init__(group=_group('AlltoAllVC', group),
                         block_size=_check_type('AlltoAllVC', 'block_size', block_size, (int,)),
                         transpose=transpose)

    def construct(self, input_x, send_count_matrix):
        group, n, me = _members('AlltoAllVC', self.group)
        x = reshape(as_tensor(input_x, 'input_x'), (-1,))
        m = np.array(_counts('AlltoAllVC', 'send_count_matrix', send_count_matrix, n * n,
                             self.block_size)).reshape(n, n)
        m = m.T if self.transpose else m
        return _all_to_all_v('AlltoAllVC', x, tuple(m[me]), tuple(m[:, me]), group)


class AllGatherV(Primitive):
    """``AllGatherV(group)(x, output_split_sizes)``: every member's 1-D x (member i's of
    ``output_split_sizes[i]`` elements) concatenated in member order. dx = ReduceScatterV SUM
    of dy (the sum over members of their dy's block for this member).

    Raises:
        TypeError: ``group`` is not a str.
        ValueError: a non-1-D input; sizes not one per member, or this member's size is not
            its input's length.
    """

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(group=_group('AllGatherV', group))

    def construct(self, input_x, output_split_sizes):
        group, n, _ = _members('AllGatherV', self.group)
        x = _flat('AllGatherV', input_x)
        sizes = _counts('AllGatherV', 'output_split_sizes', output_split_sizes, n)
        return _all_to_all_v('AllGatherV', concat([x] * n), (x.size,) * n, sizes, group)


class ReduceScatterV(Primitive):
    """``ReduceScatterV(op=ReduceOp.SUM, group)(x, input_split_sizes)``: every member's 1-D x
    cut into blocks of ``input_split_sizes``; member i gets the reduction (``op``) of every
    member's block i. dx = AllGatherV(dy) for SUM; other reductions have no gradient (MindSpore
    raises its RuntimeError when one is asked for).

    Raises:
        TypeError: ``op`` or ``group`` is not a str.
        ValueError: an unknown ``op``; a non-1-D input; sizes not one per member or not adding
            up to the input's length.
    """

    def __init__(self, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        _check_type('ReduceScatterV', 'op', op, (str,))
        super().__init__(op=op, group=_group('ReduceScatterV', group))
        _reduction('ReduceScatterV', op)

    def construct(self, input_x, input_split_sizes):
        group, n, me = _members('ReduceScatterV', self.group)
        x = _flat('ReduceScatterV', input_x)
        sizes = _counts('ReduceScatterV', 'input_split_sizes', input_split_sizes, n)
        if sum(sizes) != x.size:
            raise ValueError(f"For 'ReduceScatterV', input_split_sizes {list(sizes)} must add "
                             f"up to the input's length {x.size}.")
        got = _all_to_all_v('ReduceScatterV', x, sizes, (sizes[me],) * n, group)
        blocks = reshape(got, (n, sizes[me]))
        reduce = {'sum': reduce_sum, 'max': reduce_max, 'min': reduce_min, 'prod': reduce_prod}
        y = reduce[self.op](blocks, 0)
        if self.op != ReduceOp.SUM and y.requires_grad:
            y.register_hook(_refuse_non_sum)
        return y


def _refuse_non_sum(grad):
    raise RuntimeError(_BPROP_SUM_ONLY)


# ---------------------------------------------------------------------- point to point
def _tensors(prim, input_x):
    if not isinstance(input_x, (tuple, list)):
        raise TypeError(f"For '{prim}', the input must be a tuple or list of tensors, but got "
                        f"{type(input_x).__name__}.")
    return [as_tensor(x, 'input_x') for x in input_x]


def _receive_dtype(prim, dtype):
    """The NumPy dtype of a dtype MindSpore receives; its TypeError for another."""
    name = np.dtype(to_numpy(dtype)).name if isinstance(dtype, DType) else None
    if name not in _RECEIVE_TYPES:
        listed = ', '.join(f"mindspore.{t}" for t in _RECEIVE_TYPES)
        raise TypeError(f"For '{prim}', the type of 'dtype' must be in [{listed}], but got "
                        f"{dtype}.")
    return to_numpy(dtype)


class Send(Primitive):
    """``Send(sr_tag, dest_rank, group, group_back)(x)``: sends x to member ``dest_rank``,
    where a ``Receive`` with the same ``sr_tag`` takes it. The output has x's shape and dtype
    (zeros, with no meaning) and keeps the send on the graph: in backward, the gradient the
    receiver sends back over ``group_back`` is x's gradient.

    Raises:
        ValueError: ``dest_rank`` is not another member of the group (in a world of one
            process there is none).
    """

    def __init__(self, sr_tag, dest_rank, group=GlobalComm.WORLD_COMM_GROUP,
                 group_back=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(sr_tag=sr_tag, dest_rank=dest_rank, group=_group('Send', group),
                         group_back=_group('Send', group_back))

    def construct(self, input_x):
        group, n, me = _members('Send', self.group)
        if _root('Send', 'dest_rank', self.dest_rank, n) == me:
            raise ValueError(f"For 'Send', dest_rank {me} is this member itself.")
        x = as_tensor(input_x, 'input_x')
        return _point_to_point((('send', self.dest_rank, tuple(x.shape)),), (x,), group,
                               world_group(self.group_back), self.sr_tag)[0]


class Receive(Primitive):
    """``Receive(sr_tag, src_rank, shape, dtype, group, group_back)(x=None)``: the tensor
    member ``src_rank`` sent with ``Send`` of the same ``sr_tag``. In backward its gradient
    goes back to the sender over ``group_back``; the op is on the graph only when called with
    a tensor that requires grad (the virtual input MindSpore's graphs give it), whose gradient
    is zeros, as MindSpore's bprop.

    Raises:
        TypeError: ``dtype`` is not one MindSpore receives (its message).
        ValueError: ``src_rank`` is not another member of the group.
    """

    def __init__(self, sr_tag, src_rank, shape, dtype, group=GlobalComm.WORLD_COMM_GROUP,
                 group_back=GlobalComm.WORLD_COMM_GROUP):
        _receive_dtype('Receive', dtype)
        super().__init__(sr_tag=sr_tag, src_rank=src_rank, shape=shape, dtype=dtype,
                         group=_group('Receive', group), group_back=_group('Receive', group_back))

    def construct(self, input_x=None):
        group, n, me = _members('Receive', self.group)
        if _root('Receive', 'src_rank', self.src_rank, n) == me:
            raise ValueError(f"For 'Receive', src_rank {me} is this member itself.")
        anchors = () if input_x is None else (as_tensor(input_x, 'input_x'),)
        plan = (('recv', self.src_rank, tuple(self.shape), _receive_dtype('Receive', self.dtype)),)
        return _point_to_point(plan, (), group, world_group(self.group_back), self.sr_tag,
                               anchors)[0]


class BatchISendIRecv(Primitive):
    """``BatchISendIRecv(op_types, remote_ranks, receive_shapes, receive_dtypes, group)(xs)``:
    every 'isend' sends the next tensor of ``xs`` to its remote rank, every 'irecv' receives a
    tensor of the next receive shape and dtype; all run at once. The output has one tensor per
    entry: what an 'irecv' received, a 0-d zero (no meaning) for an 'isend'. Backward runs the
    reverse exchange (each received tensor's gradient goes back to its sender).

    Raises:
        TypeError: ``group`` not a str; the lists not tuples or lists (MindSpore's messages).
        ValueError: lists of different lengths (MindSpore's messages); an entry neither
            'isend' nor 'irecv'.
        RuntimeError: the number of input tensors is not the number of 'isend' entries.
    """

    def __init__(self, op_types, remote_ranks, receive_shapes=None, receive_dtypes=None,
                 group=GlobalComm.WORLD_COMM_GROUP):
        prim = 'BatchISendIRecv'
        shapes = () if receive_shapes is None else \
            _check_type(prim, 'receive_shapes', receive_shapes, (tuple, list))
        dtypes = () if receive_dtypes is None else \
            _check_type(prim, 'receive_dtypes', receive_dtypes, (tuple, list))
        _check_type(prim, 'op_types', op_types, (tuple, list))
        _check_type(prim, 'remote_ranks', remote_ranks, (tuple, list))
        if len(shapes) != len(dtypes):
            raise ValueError("length of receive_shapes and receive_shapes must be the same, "
                             f"but got receive_shapes: {len(shapes)}  and receive_shapes: "
                             f"{dtypes}")
        if len(op_types) != len(remote_ranks):
            raise ValueError("length of op_types and remote_ranks must be the same.")
        bad = [t for t in op_types if t not in ('isend', 'irecv')]
        if bad:
            raise ValueError(f"For '{prim}', every op_types entry must be 'isend' or 'irecv', "
                             f"but got {bad[0]!r}.")
        if op_types.count('irecv') != len(shapes):
            raise ValueError(f"For '{prim}', receive_shapes and receive_dtypes must hold one "
                             f"entry per 'irecv' ({op_types.count('irecv')}), but got "
                             f"{len(shapes)}.")
        super().__init__(op_types=tuple(op_types), remote_ranks=tuple(remote_ranks),
                         receive_shapes=tuple(shapes), receive_dtypes=tuple(dtypes),
                         group=_group(prim, group))

    def construct(self, input_x):
        group, _, _ = _members('BatchISendIRecv', self.group)
        xs = _tensors('BatchISendIRecv', input_x)
        if len(xs) != self.op_types.count('isend'):
            raise RuntimeError(f"For 'BatchISendIRecv', the number of input tensors ({len(xs)}) "
                               f"must be the number of 'isend' entries "
                               f"({self.op_types.count('isend')}).")
        shapes, dtypes, plan = iter(self.receive_shapes), iter(self.receive_dtypes), []
        for kind, peer in zip(self.op_types, self.remote_ranks):
            plan.append(('send', peer, ()) if kind == 'isend' else
                        ('recv', peer, tuple(next(shapes)),
                         _receive_dtype('BatchISendIRecv', next(dtypes))))
        return _point_to_point(tuple(plan), xs, group, group, _P2P_TAG)


class NeighborExchange(Primitive):
    """``NeighborExchange(send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_type,
    group)(xs)``: tensor i of ``xs`` (shape ``send_shapes[i]``) goes to ``send_rank_ids[i]``;
    the output holds one tensor of ``recv_type`` per ``recv_rank_ids`` entry, of its
    ``recv_shapes`` shape. dx = the reverse NeighborExchange (MindSpore's bprop).

    Raises:
        ValueError: lists of different lengths; an input not of its ``send_shapes`` shape.
    """

    def __init__(self, send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_type,
                 group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(send_rank_ids=send_rank_ids, recv_rank_ids=recv_rank_ids,
                         recv_shapes=recv_shapes, send_shapes=send_shapes, recv_type=recv_type,
                         group=_group('NeighborExchange', group))

    def construct(self, input_x):
        prim = 'NeighborExchange'
        group, _, _ = _members(prim, self.group)
        xs = _tensors(prim, input_x)
        if not len(xs) == len(self.send_rank_ids) == len(self.send_shapes) or \
                len(self.recv_rank_ids) != len(self.recv_shapes):
            raise ValueError(f"For '{prim}', the inputs, send_rank_ids and send_shapes must "
                             f"have one length, recv_rank_ids and recv_shapes another.")
        for x, shape in zip(xs, self.send_shapes):
            if tuple(x.shape) != tuple(shape):
                raise ValueError(f"For '{prim}', an input of shape {tuple(x.shape)} does not "
                                 f"match its send_shapes entry {tuple(shape)}.")
        dtype = _receive_dtype(prim, self.recv_type)
        plan = tuple(('send', r, ()) for r in self.send_rank_ids) + \
            tuple(('recv', r, tuple(s), dtype) for r, s in zip(self.recv_rank_ids,
                                                               self.recv_shapes))
        return _point_to_point(plan, xs, group, group, _P2P_TAG)[len(xs):]


class NeighborExchangeV2(Primitive):
    """``NeighborExchangeV2``: MindSpore runs it only inside compiled Ascend graphs (its own
    Python call raises NotImplementedError); calling it here raises too."""

    def __init__(self, send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format,
                 group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(send_rank_ids=send_rank_ids, send_lens=send_lens,
                         recv_rank_ids=recv_rank_ids, recv_lens=recv_lens,
                         data_format=data_format, group=group)

    def __call__(self, *args):
        raise NotImplementedError(
            "NeighborExchangeV2 runs only inside MindSpore's compiled Ascend graphs (its "
            "Python call raises NotImplementedError there too); exchange the halo rows and "
            "columns with NeighborExchange or BatchISendIRecv instead.")
