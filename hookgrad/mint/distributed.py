"""``mindspore.mint.distributed``: PyTorch-style process groups and collectives on hookgrad's
MPI world (``mindspore.communication``).

Collectives write their result into the tensors given, as PyTorch's do; with ``async_op=True``
they have already finished and return a handle whose ``wait()`` returns at once. Ranks named
by ``src``/``dst`` are global ranks. Launch with ``hookgrad run -n N script.py``.
"""
import pickle
import warnings

import numpy as np

from .. import communication as _comm, ops
from .._tensor import Tensor
from ..communication import _world
from ..communication.management import GlobalComm, world_group
from ..ops.collective import AllGatherOp, AllReduceOp, BroadcastOp, ReduceScatterOp
from ..compat.names import reporter as _reporter
from .tcp_store import TCPStore

__all__ = ['init_process_group', 'destroy_process_group', 'is_available', 'is_initialized',
           'get_rank', 'get_world_size', 'get_backend', 'new_group', 'get_process_group_ranks',
           'get_global_rank', 'get_group_rank', 'all_reduce', 'broadcast', 'all_gather',
           'all_gather_into_tensor', 'reduce_scatter_tensor', 'barrier', 'reduce', 'gather',
           'scatter', 'reduce_scatter', 'all_to_all', 'all_to_all_single',
           'all_gather_object', 'broadcast_object_list', 'gather_object',
           'scatter_object_list', 'all_gather_into_tensor_uneven',
           'reduce_scatter_tensor_uneven', 'send', 'recv', 'isend', 'irecv', 'P2POp',
           'batch_isend_irecv', 'send_object_list', 'recv_object_list', 'TCPStore']

_REDUCTIONS = ('sum', 'prod', 'min', 'max', 'avg')


class _Done:
    """The handle of a collective that has finished."""

    def wait(self):
        return True

    def is_completed(self):
        return True


def _handle(async_op):
    return _Done() if async_op else None


def group_of(group):
    """The communication layer's name of ``group`` (None: the world)."""
    return world_group(GlobalComm.WORLD_COMM_GROUP if group is None else group)


_group = group_of


def is_available():
    """Whether collectives can run: always (one process without MPI, several with it)."""
    return True


def is_initialized():
    """Whether ``init_process_group`` has run."""
    return bool(GlobalComm.INITED) and _world.world() is not None


def init_process_group(backend='hccl', init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name='', pg_options=None, device_id=None):
    """Join the world of processes this one was launched with (MPI; every backend name runs
    on it)."""
    if backend != 'hccl':
        raise ValueError("Only support hccl now, please setting backend to hccl or using "
                         "default value")
    _comm.init(backend)
    if world_size not in (-1, get_world_size()):
        raise ValueError(f"mint.distributed.init_process_group: world_size {world_size} does "
                         f"not match the {get_world_size()} processes launched")
    if rank not in (-1, get_rank()):
        raise ValueError(f"mint.distributed.init_process_group: rank {rank} does not match "
                         f"this process's rank {get_rank()}")


def destroy_process_group(group=None):
    """Leave the world (or destroy ``group``)."""
    if group is None or world_group(group) == _world.WORLD:
        _comm.release()
    else:
        _comm.destroy_group(group)


def _query(api, fn, group):
    """``fn(group)``, or -1 (with a warning) before ``init_process_group``, as MindSpore."""
    if group is None:
        group = GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be type of string, but got "
                        f"'group' type : {type(group)}.")
    try:
        return fn(group)
    except RuntimeError as e:
        warnings.warn(str(e))
        return -1


def get_rank(group=None):
    """This process's rank in ``group`` (the world when None); -1 before initialisation."""
    return _query('get_rank', _comm.get_rank, group)


def get_world_size(group=None):
    """The number of processes in ``group`` (the world when None); -1 before
    initialisation."""
    return _query('get_world_size', _comm.get_group_size, group)


def get_backend(group=None):
    """The backend name given to ``init_process_group``."""
    return GlobalComm.BACKEND


_groups_made = [0]


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None):
    """A group of the global ``ranks`` (all when None); returns its name."""
    if ranks is None:
        return GlobalComm.WORLD_COMM_GROUP
    _groups_made[0] += 1
    name = group_desc or f"mint_group_{_groups_made[0]}"
    _comm.create_group(name, sorted(ranks))
    return name


def get_process_group_ranks(group=None):
    """The global ranks of ``group``'s members, in group-rank order."""
    return _comm.get_process_group_ranks(GlobalComm.WORLD_COMM_GROUP if group is None
                                         else group)


def get_global_rank(group, group_rank):
    """The global rank of member ``group_rank`` of ``group``."""
    return get_process_group_ranks(group)[group_rank]


def get_group_rank(group, global_rank):
    """The rank within ``group`` of the process with global rank ``global_rank``."""
    ranks = get_process_group_ranks(group)
    if global_rank not in ranks:
        raise ValueError(f"mint.distributed.get_group_rank: global rank {global_rank} is not "
                         f"in group {group!r} (ranks {ranks})")
    return ranks.index(global_rank)


def _check(api, tensor, op=None, async_op=False):
    """MindSpore's argument checks of a collective, with its messages."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {api}, the input tensor must be tensor")
    if op is not None:
        if not isinstance(op, str):
            raise TypeError(f"For {api}, the input op type must be str")
        if op not in _REDUCTIONS:
            raise TypeError(f"For {api}, the input op value must be one of sum, prod, min, max, "
                            f"avg")
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")


def _reduced(tensor, op, group):
    """The reduction of every member's ``tensor``; 'avg' is the sum over the member count."""
    if op == 'avg':
        total = AllReduceOp.apply(tensor, op='sum', group=_group(group))
        return ops.div(total, get_world_size(group))
    return AllReduceOp.apply(tensor, op=op, group=_group(group))


def all_reduce(tensor, op='sum', group=None, async_op=False):
    """``tensor`` replaced, on every member, by the reduction of all members' tensors."""
    _check('all_reduce', tensor, op, async_op)
    ops.assign(tensor, _reduced(tensor, op, group))
    return _handle(async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """``tensor`` replaced, on every member, by global rank ``src``'s."""
    _check('broadcast', tensor, async_op=async_op)
    root = get_group_rank(group, src) if group is not None else src
    ops.assign(tensor, BroadcastOp.apply(tensor, root=root, group=_group(group)))
    return _handle(async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """``output_tensor`` filled with every member's ``input_tensor`` joined along axis 0."""
    _check('all_gather_into_tensor', input_tensor, async_op=async_op)
    ops.assign(output_tensor, AllGatherOp.apply(input_tensor, group=_group(group)))
    return _handle(async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """``tensor_list[i]`` filled with member ``i``'s ``tensor``."""
    _check('all_gather', tensor, async_op=async_op)
    gathered = AllGatherOp.apply(tensor, group=_group(group))
    if len(tensor_list) != get_world_size(group):
        raise ValueError(f"mint.distributed.all_gather: tensor_list has {len(tensor_list)} "
                         f"tensors for {get_world_size(group)} members")
    for out, piece in zip(tensor_list, ops.split(gathered, tensor.shape[0] if tensor.ndim
                                                 else 1, 0)):
        ops.assign(out, ops.reshape(piece, out.shape))
    return _handle(async_op)


def reduce_scatter_tensor(output, input, op='sum', group=None, async_op=False):
    """``output`` filled with this member's block (axis 0) of the reduction of all inputs."""
    _check('reduce_scatter_tensor', input, op, async_op)
    if op == 'avg':
        reduced = ops.div(ReduceScatterOp.apply(input, op='sum', group=_group(group)),
                          get_world_size(group))
    else:
        reduced = ReduceScatterOp.apply(input, op=op, group=_group(group))
    ops.assign(output, reduced)
    return _handle(async_op)


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every member of ``group`` has reached this call."""
    _world.world().barrier(_group(group))
    return _handle(async_op)


# ------------------------------------------------ collectives composed of the ones above
def _root(group, rank):
    """The group rank of global rank ``rank``."""
    return rank if group is None else get_group_rank(group, rank)


def _members(group):
    return get_world_size(group)


def reduce(tensor, dst, op='sum', group=None, async_op=False):
    """``tensor`` of global rank ``dst`` replaced by the reduction of all members' tensors
    (the others keep theirs)."""
    _check('reduce', tensor, op, async_op)
    reduced = _reduced(tensor, op, group)
    if get_rank() == dst:
        ops.assign(tensor, reduced)
    return _handle(async_op)


def gather(tensor, gather_list, dst=0, group=None, async_op=False):
    """On global rank ``dst``, ``gather_list[i]`` filled with member ``i``'s ``tensor``."""
    _check('gather', tensor, async_op=async_op)
    gathered = AllGatherOp.apply(ops.unsqueeze(tensor, 0), group=_group(group))
    if get_rank() == dst:
        if len(gather_list) != _members(group):
            raise ValueError(f"gather: gather_list has {len(gather_list)} tensors for "
                             f"{_members(group)} members")
        for k, out in enumerate(gather_list):
            ops.assign(out, gathered[k])
    return _handle(async_op)


def scatter(tensor, scatter_list, src=0, group=None, async_op=False):
    """``tensor`` of member ``i`` replaced by ``scatter_list[i]`` of global rank ``src``."""
    _check('scatter', tensor, async_op=async_op)
    n = _members(group)
    if get_rank() == src:
        if len(scatter_list) != n:
            raise ValueError(f"scatter: scatter_list has {len(scatter_list)} tensors for {n} "
                             f"members")
        stacked = ops.stack(list(scatter_list))
    else:
        stacked = ops.zeros((n,) + tuple(tensor.shape), tensor.dtype)
    stacked = BroadcastOp.apply(stacked, root=_root(group, src), group=_group(group))
    ops.assign(tensor, stacked[get_rank(group)])
    return _handle(async_op)


def reduce_scatter(output, input_list, op='sum', group=None, async_op=False):
    """``output`` of member ``i`` filled with the reduction of every member's
    ``input_list[i]``."""
    _check('reduce_scatter', output, op, async_op)
    stacked = ops.stack(list(input_list))
    if op == 'avg':
        out = ops.div(ReduceScatterOp.apply(stacked, op='sum', group=_group(group)),
                      _members(group))
    else:
        out = ReduceScatterOp.apply(stacked, op=op, group=_group(group))
    ops.assign(output, ops.reshape(out, output.shape))
    return _handle(async_op)


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """``output_tensor_list[j]`` of member ``i`` filled with member ``j``'s
    ``input_tensor_list[i]`` (one gather per destination: every member's ``i``-th input has
    one shape)."""
    n, me = _members(group), get_rank(group)
    if len(input_tensor_list) != n or len(output_tensor_list) != n:
        raise ValueError(f"all_to_all: expects {n} input and {n} output tensors, got "
                         f"{len(input_tensor_list)} and {len(output_tensor_list)}")
    for i, piece in enumerate(input_tensor_list):
        _check('all_to_all', piece, async_op=async_op)
        gathered = AllGatherOp.apply(ops.unsqueeze(piece, 0), group=_group(group))
        if i == me:
            for j, out in enumerate(output_tensor_list):
                ops.assign(out, gathered[j])
    return _handle(async_op)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                      group=None, async_op=False):
    """``input`` cut into equal blocks along axis 0, block ``j`` sent to member ``j``;
    ``output`` the blocks received, in member order."""
    _check('all_to_all_single', input, async_op=async_op)
    if output_split_sizes is not None or input_split_sizes is not None:
        raise NotImplementedError("all_to_all_single: uneven split sizes are not available in "
                                  "hookgrad")
    n = _members(group)
    pieces = list(ops.split(input, input.shape[0] // n, 0))
    outs = [ops.zeros_like(p) for p in pieces]
    all_to_all(outs, pieces, group)
    ops.assign(output, ops.cat(outs, 0))
    return _handle(async_op)


def _splits(api, sizes, total, n):
    """The first-dimension sizes of the ``n`` members' blocks of ``total`` rows (equal when
    ``sizes`` is None)."""
    if sizes is None:
        if total % n:
            raise ValueError(f"{api}: {total} rows cannot be split equally among {n} members")
        return [total // n] * n
    sizes = [int(v) for v in sizes]
    if len(sizes) != n or sum(sizes) != total:
        raise ValueError(f"{api}: split sizes {sizes} must be {n} sizes summing to {total}")
    return sizes


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None,
                                  async_op=False):
    """``output`` filled with every member's ``input`` joined along axis 0, member ``i``
    giving ``output_split_sizes[i]`` rows."""
    _check('all_gather_into_tensor_uneven', input, async_op=async_op)
    n = _members(group)
    sizes = _splits('all_gather_into_tensor_uneven', output_split_sizes, output.shape[0], n)
    longest = max(sizes)
    padded = input
    if input.shape[0] < longest:
        padded = ops.cat([input, ops.zeros((longest - input.shape[0],) + tuple(input.shape[1:]),
                                           input.dtype)], 0)
    gathered = ops.reshape(AllGatherOp.apply(padded, group=_group(group)),
                           (n, longest) + tuple(input.shape[1:]))
    ops.assign(output, ops.cat([gathered[i, :size] for i, size in enumerate(sizes)], 0))
    return _handle(async_op)


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op='sum', group=None,
                                 async_op=False):
    """``output`` of member ``i`` filled with rows ``input_split_sizes[i]`` (in order) of the
    reduction of every member's ``input``."""
    _check('reduce_scatter_tensor_uneven', input, op, async_op)
    n = _members(group)
    sizes = _splits('reduce_scatter_tensor_uneven', input_split_sizes, input.shape[0], n)
    me = get_rank(group)
    start = sum(sizes[:me])
    ops.assign(output, _reduced(input, op, group)[start:start + sizes[me]])
    return _handle(async_op)


# ------------------------------------------------------------------------------ objects
def _objects_gathered(obj, group):
    """Every member's ``obj`` (pickled, padded to the longest, gathered), in member order."""
    world = _world.world()
    data = np.frombuffer(pickle.dumps(obj), np.uint8)
    sizes = world.allgather(np.array([data.size], np.int64), _group(group))
    padded = np.zeros(int(sizes.max()), np.uint8)
    padded[:data.size] = data
    rows = world.allgather(padded[None], _group(group))
    return [pickle.loads(row[:size].tobytes()) for row, size in zip(rows, sizes)]


def _object_broadcast(obj, src, group):
    """Global rank ``src``'s ``obj`` on every member."""
    world = _world.world()
    root = _root(group, src)
    data = np.frombuffer(pickle.dumps(obj), np.uint8) if get_rank() == src else None
    size = world.broadcast(np.array([0 if data is None else data.size], np.int64), root,
                           _group(group))
    buffer = data if data is not None else np.zeros(int(size[0]), np.uint8)
    return pickle.loads(world.broadcast(buffer, root, _group(group)).tobytes())


def all_gather_object(object_list, obj, group=None):
    """``object_list[i]`` set to member ``i``'s ``obj`` (any picklable object)."""
    object_list[:] = _objects_gathered(obj, group)


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    """On global rank ``dst``, ``object_gather_list[i]`` set to member ``i``'s ``obj``."""
    gathered = _objects_gathered(obj, group)
    if get_rank() == dst:
        object_gather_list[:] = gathered


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """``object_list``'s items replaced, on every member, by global rank ``src``'s."""
    object_list[:] = _object_broadcast(list(object_list), src, group)


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0,
                        group=None):
    """``scatter_object_output_list[0]`` of member ``i`` set to item ``i`` of global rank
    ``src``'s ``scatter_object_input_list``."""
    items = _object_broadcast(list(scatter_object_input_list) if get_rank() == src else None,
                              src, group)
    scatter_object_output_list[0] = items[get_rank(group)]


# ------------------------------------------------------------------------------ point to point
class _Pending:
    """The handle of a point-to-point transfer in flight: ``wait()`` finishes it."""

    def __init__(self, request):
        self._request = request

    def wait(self):
        self._request.wait()
        return True

    def is_completed(self):
        return self._request.test()


def _p2p_check(api, tensor, peer, group, tag):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {api}, the input tensor must be tensor")
    if isinstance(peer, bool) or not isinstance(peer, int):
        raise TypeError(f"For {api}, the rank must be an int, got {type(peer).__name__}")
    if group is not None and not isinstance(group, str):
        raise TypeError(f"For {api}, the group must be a str, got {type(group).__name__}")
    if isinstance(tag, bool) or not isinstance(tag, int):
        raise TypeError(f"For {api}, the tag must be an int, got {type(tag).__name__}")
    return _root(group, peer)


def isend(tensor, dst=0, group=None, tag=0):
    """Start sending ``tensor`` to global rank ``dst``; returns a handle to ``wait()`` on."""
    peer = _p2p_check('isend', tensor, dst, group, tag)
    return _Pending(_world.world().isend(tensor._data, peer, _group(group), tag))


def irecv(tensor, src=0, group=None, tag=0):
    """Start receiving global rank ``src``'s tensor into ``tensor`` (of the sent shape and
    dtype); returns a handle to ``wait()`` on."""
    peer = _p2p_check('irecv', tensor, src, group, tag)
    return _Pending(_world.world().irecv(tensor._data, peer, _group(group), tag))


def send(tensor, dst=0, group=None, tag=0):
    """Send ``tensor`` to global rank ``dst`` and wait until it has gone; returns 0."""
    isend(tensor, dst, group, tag).wait()
    return 0


def recv(tensor, src=0, group=None, tag=0):
    """Fill ``tensor`` with the tensor global rank ``src`` sends; returns 0."""
    irecv(tensor, src, group, tag).wait()
    return 0


class P2POp:
    """One transfer of ``batch_isend_irecv``: ``op`` is ``isend`` or ``irecv``."""

    def __init__(self, op, tensor, peer, group=None, tag=0):
        if op not in (isend, irecv):
            raise TypeError("P2POp: op must be mindspore.mint.distributed.isend or irecv")
        self.op, self.tensor, self.peer, self.group, self.tag = op, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list):
    """Start every transfer of ``p2p_op_list`` (``P2POp``s); their handles, in order."""
    if not p2p_op_list or not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("batch_isend_irecv: expected a non-empty list of P2POp")
    return [p.op(p.tensor, p.peer, p.group, p.tag) for p in p2p_op_list]


def send_object_list(object_list, dst, group=None, device=None):
    """Send the picklable objects of ``object_list`` to global rank ``dst``."""
    _world.world().send_object(list(object_list), _root(group, dst), _group(group))


def recv_object_list(object_list, src=0, group=None, device=None):
    """Fill ``object_list`` with the objects global rank ``src`` sent (as many as it holds)."""
    got = _world.world().recv_object(_root(group, src), _group(group))
    object_list[:len(got)] = got


__getattr__ = _reporter('mindspore.mint.distributed')
