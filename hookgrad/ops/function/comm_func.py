"""``mindspore.ops.function.comm_func``: MindSpore 2.10's functional collectives, which
``mindspore.ops`` exports (``OPS_NAMES``: all but ``gather`` and ``scatter``, array ops there).

They run on hookgrad's process world (``mindspore.communication``: MPI under ``hookgrad run -n
N``, else one process). Where ``mint.distributed`` has a function of the same meaning, the one
here checks the arguments with MindSpore's messages and calls it (imported on first call: it is
built on ``ops``). ``src``, ``dst`` and ``peer`` are global ranks; the checks, handles and
``AllToAllVOp`` are in ``_comm_base.py``.

Forms (``set_comm_ops_inplace``): by default, as in MindSpore, a collective writes into the
tensors given and returns None, or a handle with ``async_op=True``. Made functional,
``all_reduce``, ``all_gather_into_tensor``, ``reduce_scatter_tensor``, ``all_to_all``,
``all_to_all_single`` and ``irecv`` return ``(output, handle)``, ``recv`` the received tensor,
and the others raise MindSpore's ValueError. Collectives have finished when they return;
``isend``, ``irecv`` and ``batch_isend_irecv`` run until their handle's ``wait()``. Only the
functional forms record gradients (each function's docstring says which).
"""
import hashlib
import os
import warnings

import numpy as np

from ... import ops as _ops
from ..._tensor import Tensor
from ...communication import management as _mgmt
from ...communication.management import GlobalComm, world_group
from ..collective import AllGatherOp, AllReduceOp, ReduceScatterOp
from ._comm_base import (INPLACE, CommHandle, all_to_all_v, begin, check_group, check_int,
                         check_list, check_op, check_tensor, check_tensors, handle, members,
                         numel, only_inplace, write_leading)

__all__ = ['TCPStore', 'init_process_group', 'destroy_process_group', 'get_rank',
           'get_world_size', 'new_group', 'get_backend', 'get_global_rank',
           'get_process_group_ranks', 'get_group_rank', 'all_reduce', 'all_gather_into_tensor',
           'all_gather_into_tensor_uneven', 'all_to_all', 'all_to_all_single',
           'reduce_scatter_tensor', 'reduce_scatter_tensor_uneven', 'isend', 'irecv', 'send',
           'recv', 'gather', 'scatter', 'all_gather', 'reduce_scatter', 'barrier', 'broadcast',
           'reduce', 'P2POp', 'batch_isend_irecv', 'send_object_list', 'recv_object_list',
           'all_gather_object', 'broadcast_object_list', 'gather_object', 'scatter_object_list',
           'is_available', 'is_initialized', 'gather_into_tensor', 'scatter_tensor',
           'set_comm_ops_inplace', 'all_to_all_v_c']
OPS_NAMES = tuple(n for n in __all__ if n not in ('gather', 'scatter'))


def _dist():
    """``mint.distributed``, whose implementation the functions here share."""
    from ...mint import distributed
    return distributed


def set_comm_ops_inplace(is_enable, func_list=None):
    """The in-place (True, the default) or functional (False) form for the functions named in
    ``func_list`` (all when None); see the module docstring. TypeError for a non-bool
    ``is_enable`` or a ``func_list`` not a list or tuple, ValueError for an unknown name."""
    if not isinstance(is_enable, bool):
        raise TypeError("For 'set_comm_ops_inplace', the argument 'is_enable' must be type of "
                        f"bool, but got 'is_enable' type : {type(is_enable)}.")
    if func_list is None:
        func_list = list(INPLACE)
    elif not isinstance(func_list, (list, tuple)):
        raise TypeError(f"Expected list or tuple, but got {type(func_list)}.")
    for name in func_list:
        if name not in INPLACE:
            raise ValueError(f"The function name in `func_list` must be correct, but got {name}.")
        INPLACE[name] = is_enable


# ------------------------------------------------------------------------- process groups
def is_available():
    """Whether collectives can run: always (one process without MPI, several with it)."""
    return _dist().is_available()


def is_initialized():
    """Whether ``init_process_group`` (or ``communication.init``) has run."""
    return _dist().is_initialized()


def init_process_group(backend='hccl', init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name='', pg_options=None, device_id=None):
    """Join the world of processes this one was launched with (``mint.distributed``'s)."""
    _dist().init_process_group(backend, init_method, timeout, world_size, rank, store,
                               group_name, pg_options, device_id)


def destroy_process_group(group=None):
    """Leave the world (``group`` None or the world group), or destroy ``group``."""
    if group is not None:
        check_group(group, 'destroy_group', ' or None')
    _dist().destroy_process_group(group)


def _query(api, fn, group):
    """``fn(group)``; before ``init`` the RANK_SIZE environment variable (1 when unset), which
    MindSpore 2.10's ``ops.get_rank`` and ``ops.get_world_size`` return then; -1 with a
    warning when the backend refuses."""
    group = check_group(group, api)
    if not is_initialized():
        return int(os.getenv('RANK_SIZE', '1'))
    return _dist()._query(api, fn, group)


def get_rank(group=None):
    """This process's rank in ``group`` (the world when None); before ``init``, RANK_SIZE
    (default 1) as MindSpore 2.10's ``ops.get_rank`` (``mint.distributed``'s gives -1)."""
    return _query('get_rank', _mgmt.get_rank, group)


def get_world_size(group=None):
    """The number of processes in ``group`` (the world when None); RANK_SIZE (default 1)
    before ``init``."""
    return _query('get_world_size', _mgmt.get_group_size, group)


def get_backend(group=None):
    """'hccl' for None or a group name containing 'hccl', 'mccl' for one containing 'mccl',
    else the backend ``init`` was given (every one runs on MPI here)."""
    if group is None:
        return 'hccl'
    group = check_group(group, 'get_backend', ' or None')
    return next((name for name in ('hccl', 'mccl') if name in group), GlobalComm.BACKEND)


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None):
    """A group of the global ``ranks`` (the world group's name when None), named as MindSpore
    names it, ``<backend>_<count>_<sha1 of the sorted ranks>``; '' (and a warning) when it
    cannot be made (before ``init``)."""
    if ranks is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(ranks, list):
        raise TypeError(f"ranks must be list, but got {type(ranks)}")
    ranks = sorted(ranks)
    backend = 'hccl' if backend is None else backend
    if not isinstance(backend, str) or backend not in ('hccl', 'mccl'):
        raise TypeError(f"the input backend must be hccl or mccl, but got {backend}")
    digest = hashlib.sha1('_'.join(map(str, ranks)).encode('utf-8')).hexdigest()
    group = f"{backend}_{len(ranks)}_{digest}"
    try:
        _mgmt.create_group(group, ranks, pg_options)
    except RuntimeError as e:
        warnings.warn(str(e))
        return ''
    return group


def get_global_rank(group, group_rank):
    """The world rank of rank ``group_rank`` of ``group`` (itself for the world group)."""
    if not isinstance(group_rank, int):
        raise TypeError(f"The group_rank argument must be integer, but got {type(group_rank)}.")
    if group is None or group == GlobalComm.WORLD_COMM_GROUP:
        return group_rank
    return _mgmt.get_world_rank_from_group_rank(
        check_group(group, 'get_global_rank', ' or None'), group_rank)


def get_group_rank(group, global_rank):
    """The rank within ``group`` (the world when None) of world rank ``global_rank``."""
    if not isinstance(global_rank, int):
        raise TypeError(f"The global_rank argument must be integer, but got "
                        f"{type(global_rank)}.")
    group = check_group(group, 'get_group_rank_from_world_rank')
    return _dist().get_group_rank(group, global_rank)


def get_process_group_ranks(group=None):
    """The world ranks of ``group``'s members (the world when None), in group-rank order."""
    group = check_group(group, 'get_process_group_ranks', ' or None')
    return _mgmt.get_process_group_ranks(group)


class TCPStore:
    """A TCP key-value store: constructing one makes a ``mint.distributed.TCPStore`` (the one
    implementation: same arguments, ``set``, ``get``, ``add``, ``delete_key``)."""

    def __new__(cls, *args, **kwargs):
        return _dist().TCPStore(*args, **kwargs)


# ------------------------------------------------------------------ reductions and gathers
def all_reduce(tensor, op='sum', group=None, async_op=False):
    """``tensor`` replaced, on every member, by the reduction ('sum', 'prod', 'min', 'max',
    'avg') of all members' tensors. Functional form: ``(reduced, handle)``, differentiable as
    ``ops.AllReduce`` ('avg': the sum's gradient over the member count). The in-place form
    records no gradient."""
    g, n = begin('all_reduce', group, async_op, False, [('input', tensor)], op=op)
    if INPLACE['all_reduce']:
        _dist().all_reduce(tensor, op, group)
        return handle(async_op)
    y = AllReduceOp.apply(tensor, op='sum' if op == 'avg' else op, group=world_group(g))
    return (_ops.div(y, n) if op == 'avg' else y), handle(async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """``output_tensor`` filled with every member's ``input_tensor`` joined along axis 0.
    Functional form: ``(gathered, handle)`` (``output_tensor`` unused), differentiable as
    ``ops.AllGather``. The in-place form records no gradient."""
    inplace = INPLACE['all_gather_into_tensor']
    g, _ = begin('all_gather_into_tensor', group, async_op, False,
                 [('input', input_tensor)] + [('output', output_tensor)] * inplace)
    if inplace:
        _dist().all_gather_into_tensor(output_tensor, input_tensor, group)
        return handle(async_op)
    return AllGatherOp.apply(input_tensor, group=world_group(g)), handle(async_op)


def reduce_scatter_tensor(output, input, op='sum', group=None, async_op=False):
    """``output`` filled with this member's block (axis 0) of the reduction of all members'
    ``input``. Functional form: ``(block, handle)`` (``output`` unused), differentiable as
    ``ops.ReduceScatter`` (sum and avg). The in-place form records no gradient."""
    inplace = INPLACE['reduce_scatter_tensor']
    g, n = begin('reduce_scatter_tensor', group, async_op, False,
                 [('input', input)] + [('output', output)] * inplace, op=op)
    if inplace:
        _dist().reduce_scatter_tensor(output, input, op, group)
        return handle(async_op)
    y = ReduceScatterOp.apply(input, op='sum' if op == 'avg' else op, group=world_group(g))
    return (_ops.div(y, n) if op == 'avg' else y), handle(async_op)


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None,
                                  async_op=False):
    """``output`` filled with every member's ``input`` joined along axis 0, member ``i`` giving
    ``output_split_sizes[i]`` rows (equal parts when None or empty). No gradient is recorded."""
    begin('all_gather_into_tensor_uneven', group, async_op)
    _dist().all_gather_into_tensor_uneven(output, input, output_split_sizes or None, group)
    return handle(async_op)


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op='sum', group=None,
                                 async_op=False):
    """``output`` filled with this member's rows (``input_split_sizes[rank]`` of them, in order;
    equal parts when None or empty) of the reduction ('sum', 'min', 'max', 'avg') of all
    members' ``input``. No gradient is recorded."""
    begin('reduce_scatter_tensor_uneven', group, async_op, op=op,
          allowed=('sum', 'min', 'max', 'avg'))
    _dist().reduce_scatter_tensor_uneven(output, input, input_split_sizes or None, op, group)
    return handle(async_op)


def reduce(tensor, dst, op='sum', group=None, async_op=False):
    """``tensor`` of global rank ``dst`` replaced by the reduction of all members' tensors (the
    others keep theirs). No gradient is recorded."""
    begin('reduce', group, async_op, tensors=[('input', tensor)], ints=[('dst', dst)], op=op)
    _dist().reduce(tensor, dst, op, group)
    return handle(async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """``tensor`` replaced, on every member, by global rank ``src``'s. No gradient is
    recorded."""
    begin('broadcast', group, async_op, tensors=[('input', tensor)], ints=[('src', src)])
    _dist().broadcast(tensor, src, group)
    return handle(async_op)


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every member of ``group`` has reached this call."""
    begin('barrier', group, async_op, False)
    _dist().barrier(group)
    return handle(async_op)


def gather_into_tensor(output_tensor, input_tensor, dst=0, group=None, async_op=False):
    """On global rank ``dst``, ``output_tensor`` filled with every member's ``input_tensor``
    joined along axis 0; the other members' ``output_tensor`` is left as it was. No gradient is
    recorded."""
    g, _ = begin('gather_into_tensor', group, async_op, tensors=[
        ('input', input_tensor), ('output', output_tensor)], ints=[('dst', dst)])
    gathered = AllGatherOp.apply(input_tensor, group=world_group(g))
    if _mgmt.get_rank() == dst:
        _ops.assign(output_tensor, _ops.reshape(gathered, output_tensor.shape))
    return handle(async_op)


def scatter_tensor(output_tensor, input_tensor, src=0, group=None, async_op=False):
    """``output_tensor`` of member ``i`` filled with block ``i`` of global rank ``src``'s
    ``input_tensor`` cut into equal blocks along axis 0. No gradient is recorded."""
    _, n = begin('scatter_tensor', group, async_op, tensors=[
        ('input', input_tensor), ('output', output_tensor)], ints=[('src', src)])
    blocks = None
    if _mgmt.get_rank() == src:
        if input_tensor.ndim == 0 or input_tensor.shape[0] % n:
            raise ValueError(f"scatter_tensor: the first dimension of shape "
                             f"{input_tensor.shape} must divide by the group size {n}")
        rows = input_tensor.shape[0] // n
        blocks = [_ops.reshape(input_tensor[k * rows:(k + 1) * rows], output_tensor.shape)
                  for k in range(n)]
    _dist().scatter(output_tensor, blocks, src, group)
    return handle(async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """``tensor_list[i]`` filled with member ``i``'s ``tensor``. No gradient is recorded."""
    only_inplace('all_gather')
    check_tensors(tensor_list, same='dtype')
    g, n = begin('all_gather_into_tensor', group, async_op, False, [('input', tensor)])
    check_list(tensor_list, tensor, n, _mgmt.get_rank(g), 'all_gather')
    _dist().all_gather(tensor_list, tensor, group)
    return handle(async_op)


def reduce_scatter(output, input_list, op='sum', group=None, async_op=False):
    """``output`` of member ``i`` filled with the reduction of every member's ``input_list[i]``.
    No gradient is recorded."""
    only_inplace('reduce_scatter')
    check_tensors(input_list, same='dtype')
    check_tensor('reduce_scatter', output, 'output')
    g, n = begin('reduce_scatter', group, async_op, False)
    check_op('reduce_scatter', op)
    check_list(input_list, output, n, _mgmt.get_rank(g), 'reduce_scatter')
    _dist().reduce_scatter(output, input_list, op, group)
    return handle(async_op)


def gather(tensor, gather_list, dst=0, group=None, async_op=False):
    """On global rank ``dst``, ``gather_list[i]`` filled with member ``i``'s ``tensor`` (the
    collective; ``ops.gather`` is the array op). No gradient is recorded."""
    only_inplace('gather')
    check_tensor('gather', tensor)
    check_tensors(gather_list, same='shape')
    _, n = begin('gather', group, async_op, False, ints=[('dst', dst)])
    if _mgmt.get_rank() == dst:
        check_list(gather_list, tensor, n)
    _dist().gather(tensor, gather_list, dst, group)
    return handle(async_op)


def scatter(tensor, scatter_list, src=0, group=None, async_op=False):
    """``tensor`` of member ``i`` replaced by ``scatter_list[i]`` of global rank ``src`` (the
    collective; ``ops.scatter`` is the array op). No gradient is recorded."""
    only_inplace('scatter')
    check_tensors(scatter_list, same='shape')
    _, n = begin('scatter_tensor', group, async_op, False, [('output', tensor)],
                 [('src', src)])
    if _mgmt.get_rank() == src:
        check_list(scatter_list, tensor, n)
    _dist().scatter(tensor, scatter_list, src, group)
    return handle(async_op)


# ---------------------------------------------------------------------------- all to all
def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """``output_tensor_list[j]`` filled with member ``j``'s ``input_tensor_list[this rank]``
    (pieces may differ in size). Functional form: ``(outputs, handle)``, shaped as the items of
    ``output_tensor_list`` (tensors or shapes), differentiable. The in-place form records no
    gradient."""
    inplace = INPLACE['all_to_all']
    g, _ = begin('all_to_all', group, async_op, False)
    check_tensors(input_tensor_list, same='dtype')
    flat = _ops.cat([_ops.reshape(t, (-1,)) for t in input_tensor_list])
    check_tensors(output_tensor_list, not inplace, 'dtype' if inplace else None)
    shapes = [tuple(t.shape) if isinstance(t, Tensor) else tuple(t) for t in output_tensor_list]
    recv = [numel(s) for s in shapes]
    out = all_to_all_v('all_to_all', flat, [t.size for t in input_tensor_list], recv, g)
    starts = np.cumsum([0] + recv)
    pieces = [_ops.reshape(out[starts[i]:starts[i + 1]], s) for i, s in enumerate(shapes)]
    if not inplace:
        return tuple(pieces), handle(async_op)
    for target, piece in zip(output_tensor_list, pieces):
        _ops.assign(target, piece)
    return handle(async_op)


def _single_counts(input, output, output_split_sizes, input_split_sizes, n):
    """The send and receive element counts of all_to_all_single, as MindSpore computes them."""
    sizes = []
    for name, x, split in (('input', input, input_split_sizes),
                           ('output', output, output_split_sizes)):
        if not split:
            if x.shape[0] % n:
                raise ValueError(f"{name} shape at dim 0 must be divided by world_size, but got "
                                 f"{x.shape[0]} and {n}.")
            split = (x.shape[0] // n,) * n
        sizes.append([s * numel(x.shape[1:]) for s in split])
    return sizes


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                      group=None, async_op=False):
    """``input`` cut along axis 0 into blocks of ``input_split_sizes`` rows (equal when None),
    block ``j`` sent to member ``j``; ``output`` filled with the blocks received, member ``i``'s
    of ``output_split_sizes[i]`` rows. Functional form: ``(received, handle)`` shaped ``(-1,) +
    input.shape[1:]``, differentiable (``output`` unused: as in MindSpore, the receive sizes
    then default to ``input``'s equal parts). The in-place form records no gradient."""
    check_tensors([input])
    g, n = begin('all_to_all_single', group, async_op, False)
    flat = _ops.reshape(input, (-1,))
    if INPLACE['all_to_all_single']:
        check_tensors([output])
        send, recv = _single_counts(input, output, output_split_sizes, input_split_sizes, n)
        write_leading(output, all_to_all_v('all_to_all_single', flat, send, recv, g))
        return handle(async_op)
    send, recv = _single_counts(input, input, output_split_sizes, input_split_sizes, n)
    out = all_to_all_v('all_to_all_single', flat, send, recv, g)
    if any(recv):
        out = _ops.reshape(out, (-1,) + tuple(input.shape[1:]))
    return out, handle(async_op)


def all_to_all_v_c(output, input, send_count_matrix, group=None, async_op=False):
    """``send_count_matrix[i * n + j]`` rows (axis 0) go from member ``i`` to member ``j``:
    ``input``'s leading rows cut into this member's counts, block ``j`` sent to member ``j``;
    the rows received, in member order, fill ``output``'s leading rows. MindSpore 2.10's
    ``mindspore.ops.all_to_all_v_c`` stops with a NameError after its argument checks; this is
    the exchange ``mindspore.communication.comm_func.all_to_all_v_c`` documents and runs. No
    gradient is recorded."""
    only_inplace('all_to_all_v_c')
    check_tensors([input])
    check_tensors([output])
    g, n = begin('all_to_all_v_c', group, async_op, False)
    if not isinstance(send_count_matrix, list):
        raise TypeError(f"send_count_matrix must be list, but got {type(send_count_matrix)}")
    if not all(isinstance(x, int) for x in send_count_matrix):
        raise TypeError("send_count_matrix elements must be of type int")
    if n * n != len(send_count_matrix):
        raise TypeError(f"send_count_matrix must be square matrix, but got "
                        f"{len(send_count_matrix)}.")
    row, row_out = numel(input.shape[1:]), numel(output.shape[1:])
    if row != row_out:
        raise ValueError("The input and output dimensions except 0 must be of equal size, but "
                         f"got {row} and {row_out}.")
    me = _mgmt.get_rank(g)
    send = [send_count_matrix[me * n + j] * row for j in range(n)]
    recv = [send_count_matrix[i * n + me] * row for i in range(n)]
    flat = _ops.reshape(input, (-1,))
    write_leading(output, all_to_all_v('all_to_all_v_c', flat, send, recv, g))
    return handle(async_op)


# ------------------------------------------------------------------------- point to point
def _p2p(api, tensor, peer, group, name='dst'):
    """MindSpore's checks of a transfer (a destination must not be this process); its
    RuntimeError before ``init``."""
    if tensor is not None:
        check_tensor(api, tensor)
    check_int(api, name, peer)
    check_group(group)
    if name == 'dst' and get_rank() == peer:
        raise ValueError("Invalid destination rank: destination rank should not be the same as "
                         "the rank of the current process.")
    _mgmt.current_world(api)


def isend(tensor, dst=0, group=None, tag=0):
    """Start sending ``tensor`` to global rank ``dst``; returns a handle to ``wait()`` on. No
    gradient is recorded."""
    _p2p('isend', tensor, dst, group)
    return CommHandle([_dist().isend(tensor, dst, group, tag)])


def send(tensor, dst=0, group=None, tag=0):
    """Send ``tensor`` to global rank ``dst`` and wait until it has gone (returns None). No
    gradient is recorded."""
    _p2p('send', tensor, dst, group)
    _dist().send(tensor, dst, group, tag)


def irecv(tensor, src=0, group=None, tag=0):
    """Start receiving global rank ``src``'s tensor into ``tensor`` (of the sent shape and
    dtype); returns a handle to ``wait()`` on. Functional form: ``(received, handle)``, into a
    new tensor of ``tensor``'s shape and dtype. No gradient is recorded."""
    check_tensor('irecv', tensor)
    check_group(group)
    _p2p('irecv', None, src, group, 'src')
    target = tensor if INPLACE['irecv'] else _ops.zeros_like(tensor)
    started = CommHandle([_dist().irecv(target, src, group, tag)])
    return started if INPLACE['irecv'] else (target, started)


def recv(tensor, src=0, group=None, tag=0):
    """Fill ``tensor`` with the tensor global rank ``src`` sends; returns 0. Functional form:
    returns the received tensor (``tensor`` gives its shape and dtype). No gradient is
    recorded."""
    _p2p('recv', tensor, src, group, 'src')
    target = tensor if INPLACE['recv'] else _ops.zeros_like(tensor)
    _dist().recv(target, src, group, tag)
    return 0 if INPLACE['recv'] else target


class P2POp:
    """One transfer of ``batch_isend_irecv``: ``op`` is ``isend`` or ``irecv`` (these
    functions or their names), ``peer`` a global rank; ``tag`` must be 0, as MindSpore's."""

    def __init__(self, op, tensor, peer, group=None, tag=0):
        self.op, self.tensor, self.peer, self.group, self.tag = op, tensor, peer, group, tag

    def __new__(cls, op, tensor, peer, group=None, tag=0):
        if op not in (('isend', 'irecv') if isinstance(op, str) else (isend, irecv)):
            raise TypeError(f"Expected op to be of type isend or irecv, but got {op}")
        if not isinstance(tensor, Tensor):
            raise TypeError(f"Expected tensor to be Tensor, but got {type(tensor)}.")
        if not isinstance(peer, int):
            raise TypeError("For P2POp, the peer must be int")
        if tag != 0:
            raise NotImplementedError("tag is not support yet.")
        return object.__new__(cls)


def batch_isend_irecv(p2p_op_list):
    """Start every transfer of ``p2p_op_list`` (``P2POp``s of one group); returns a list of one
    handle, whose ``wait()`` finishes them all. No gradient is recorded."""
    only_inplace('batch_isend_irecv')
    if not p2p_op_list:
        raise TypeError("p2p_op_list can not be empty list.")
    if not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("The elements in p2p_op_list must be type of P2POp.")
    if any(p.group != p2p_op_list[0].group for p in p2p_op_list):
        raise TypeError("The group name in p2p_op_list must be consistent.")
    _mgmt.current_world('batch_isend_irecv')
    dist = _dist()
    return [CommHandle([(dist.isend if p.op in ('isend', isend) else dist.irecv)(
        p.tensor, p.peer, p.group, p.tag) for p in p2p_op_list])]


# ------------------------------------------------------------------------------- objects
def _object_checks(api, group, rank=None, rank_name='src'):
    """MindSpore's checks of ``group`` (and ``rank``) for the object functions."""
    only_inplace(api)
    group = check_group(group, api)
    if rank is not None:
        check_int(api, rank_name, rank)
    return group


def all_gather_object(object_list, obj, group=None):
    """``object_list[i]`` set to member ``i``'s ``obj`` (any picklable object); the list has
    one item per member."""
    n = members('all_gather_object', _object_checks('all_gather_object', group))
    if not isinstance(object_list, list) or len(object_list) != n:
        raise TypeError("The len of argument object_list must be equal to group rank size, but "
                        f"got {len(object_list)}.")
    _dist().all_gather_object(object_list, obj, group)


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    """On global rank ``dst``, ``object_gather_list[i]`` set to member ``i``'s ``obj``."""
    n = members('gather_object', _object_checks('gather_object', group, dst, 'dst'))
    if get_rank() == dst and (not isinstance(object_gather_list, list) or
                              len(object_gather_list) != n):
        raise TypeError("The len of object_gather_list must be equal to group rank size, but "
                        f"got {len(object_gather_list)}.")
    _dist().gather_object(obj, object_gather_list, dst, group)


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """``object_list``'s items replaced, on every member, by global rank ``src``'s."""
    g = _object_checks('broadcast_object_list', group, src)
    if not isinstance(object_list, list) or not object_list:
        raise TypeError("The object_list can not be empty.")
    members('broadcast_object_list', g)
    _dist().broadcast_object_list(object_list, src, group)


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0,
                        group=None):
    """``scatter_object_output_list[0]`` of member ``i`` set to item ``i`` of global rank
    ``src``'s ``scatter_object_input_list``."""
    g = _object_checks('scatter_object_list', group)
    if not isinstance(scatter_object_output_list, list) or not scatter_object_output_list:
        raise TypeError("The scatter_object_output_list can not be empty.")
    check_int('scatter_object_list', 'src', src)
    n = members('scatter_object_list', g)
    if get_rank() == src and (not isinstance(scatter_object_input_list, list) or
                              len(scatter_object_input_list) != n):
        # MindSpore's message, braces included
        raise TypeError("The len of scatter_object_input_list must be equal to group rank "
                        "size, but got {len(scatter_object_input_list)}.")
    _dist().scatter_object_list(scatter_object_output_list, scatter_object_input_list, src,
                                group)


def send_object_list(object_list, dst, group=None, device=None):
    """Send the picklable objects of ``object_list`` to global rank ``dst``."""
    only_inplace('send_object_list')
    check_int('send_object_list', 'dst', dst)
    check_group(group)
    if not isinstance(object_list, list):
        raise TypeError("For send_object_list, the object_list must be a list")
    _p2p('send_object_list', None, dst, group)
    _dist().send_object_list(object_list, dst, group)


def recv_object_list(object_list, src=0, group=None, device=None):
    """Fill ``object_list`` with the objects global rank ``src`` sent; returns 0."""
    only_inplace('recv_object_list')
    check_int('recv_object_list', 'src', src)
    check_group(group)
    if not isinstance(object_list, list):
        raise TypeError("For recv_object_list, the object_list must be a list")
    _mgmt.current_world('recv_object_list')
    _dist().recv_object_list(object_list, src, group)
    return 0
