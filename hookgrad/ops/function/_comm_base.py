"""The pieces of ``comm_func`` (MindSpore's functional collectives) below its functions:
which form each function runs in (``INPLACE``, set by ``comm_func.set_comm_ops_inplace``),
MindSpore's argument checks with its messages, the handles, and ``AllToAllVOp``, the exchange
under ``all_to_all``, ``all_to_all_single`` and ``all_to_all_v_c``."""
import numpy as np

from ... import ops as _ops
from ..._tensor import Tensor
from ...autograd.function import Op
from ...communication import _world, management as _mgmt
from ...communication.management import GlobalComm, world_group
from ...kernels.backend import device_of, to_device, to_host

# name -> whether the function runs in place (MindSpore's default) or returns its result
INPLACE = dict.fromkeys(
    ['all_reduce', 'all_gather_into_tensor', 'all_gather_into_tensor_uneven', 'all_to_all',
     'all_to_all_single', 'reduce_scatter_tensor', 'reduce_scatter_tensor_uneven', 'isend',
     'irecv', 'send', 'recv', 'gather', 'scatter', 'all_gather', 'reduce_scatter', 'barrier',
     'broadcast', 'reduce', 'batch_isend_irecv', 'all_gather_object', 'broadcast_object_list',
     'gather_object', 'scatter_object_list', 'send_object_list', 'recv_object_list',
     'gather_into_tensor', 'scatter_tensor', 'all_to_all_v_c'], True)
REDUCTIONS = ('sum', 'prod', 'min', 'max', 'avg')
_EXCHANGE_TAG = 32109       # the MPI tag of AllToAllVOp's messages


class CommHandle:
    """The handle of a communication: ``wait()`` returns (None) once it has finished."""

    def __init__(self, pending=()):
        self._pending = list(pending)

    def wait(self):
        while self._pending:
            self._pending.pop(0).wait()

    def is_completed(self):
        return all(p.is_completed() for p in self._pending)


def handle(async_op):
    return CommHandle() if async_op else None


# ------------------------------------------------------------------ MindSpore's argument checks
def only_inplace(api):
    if not INPLACE[api]:
        raise ValueError("Non-inplace mode is currently not supported.")


def check_group(group, api=None, or_none=''):
    """``group`` (the world group for None); MindSpore's TypeError for a non-string."""
    group = GlobalComm.WORLD_COMM_GROUP if group is None else group
    if not isinstance(group, str):
        head = "The argument" if api is None else f"For '{api}', the argument"
        raise TypeError(f"{head} 'group' must be type of string{or_none}, but got 'group' "
                        f"type : {type(group)}.")
    return group


def check_tensor(api, x, which='input'):
    if not isinstance(x, Tensor):
        raise TypeError(f"For {api}, the {which} tensor must be tensor")


def check_int(api, name, value):
    if not isinstance(value, int):
        raise TypeError(f"For {api}, the {name} must be int")


def check_op(api, op, allowed=REDUCTIONS):
    if not isinstance(op, str):
        raise TypeError(f"For {api}, the input op type must be str")
    if op not in allowed:
        raise TypeError(f"For {api}, the input op value must be one of {', '.join(allowed)}")


def check_tensors(tensor_list, shapes_too=False, same=None):
    """Every item a Tensor (or, with ``shapes_too``, a shape), and with ``same`` ('dtype' or
    'shape') of one dtype (and shape); MindSpore's messages."""
    if not isinstance(tensor_list, (list, tuple)):
        raise TypeError(f"Expected list or tuple, but got {type(tensor_list)}.")
    for t in tensor_list:
        if not isinstance(t, (Tensor, tuple, list) if shapes_too else Tensor):
            raise TypeError(f"Expected tensor{' or tuple' * shapes_too}, but got {type(t)}")
    tensors = [t for t in tensor_list if isinstance(t, Tensor)] if same else ()
    for t in tensors[1:]:
        if t.dtype != tensors[0].dtype:
            head = "all_to_all input" if same == 'dtype' else "tensor_lists"
            raise TypeError(f"{head} dtype must be the same, but got {tensors[0].dtype} and "
                            f"{t.dtype}.")
        if same == 'shape' and t.shape != tensors[0].shape:
            raise TypeError(f"tensor_lists shape must be the same, but got {tensors[0].shape} "
                            f"and {t.shape}.")


def check_list(tensor_list, tensor, n, rank=0, api=None):
    """``tensor_list`` holds one tensor per member, of ``tensor``'s dtype and shape (``api``:
    all_gather's and reduce_scatter's wording, against the item of this member)."""
    if not tensor_list or len(tensor_list) != n:
        raise TypeError("The argument list tensor len must be equal to group rank size, but "
                        f"got {len(tensor_list)}.")
    if api is not None:
        if tensor.shape != tensor_list[rank].shape:
            raise TypeError(f"For {api}, the output shape should be {tensor_list[rank].shape}, "
                            f"but got {tensor.shape}.")
        if tensor.dtype != tensor_list[0].dtype:
            raise TypeError(f"For {api}, the output dtype should be {tensor_list[0].dtype}, "
                            f"but got {tensor.dtype}.")
    elif tensor.dtype != tensor_list[0].dtype:
        raise TypeError("The argument list tensor type must be equal to tensor type, but got "
                        f"{tensor_list[0].dtype}.")
    elif tensor.shape != tensor_list[0].shape:
        raise TypeError("The argument list tensor shape must be equal to tensor shape, but "
                        f"got {tensor_list[0].shape}.")


def members(api, group):
    """The member count of ``group``; MindSpore's RuntimeError before ``init``."""
    _mgmt.current_world(api)
    return _mgmt.get_group_size(group)


_NO_OP = object()


def begin(api, group, async_op=False, inplace_only=True, tensors=(), ints=(), op=_NO_OP,
          allowed=REDUCTIONS):
    """MindSpore's checks of ``api``'s arguments in its order: the form, ``tensors`` ((which,
    value) pairs), ``ints`` ((name, value) pairs), ``op``, ``group``, ``async_op``; then the
    RuntimeError before ``init``. Returns (group name, member count)."""
    if inplace_only:
        only_inplace(api)
    for which, x in tensors:
        check_tensor(api, x, which)
    for name, value in ints:
        check_int(api, name, value)
    if op is not _NO_OP:
        check_op(api, op, allowed)
    group = check_group(group)
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    return group, members(api, group)


# ---------------------------------------------------------------------------- all to all
def _exchange(a, send, recv, group):
    """What every member sends this one, in member order (flat): member ``j`` gets elements
    ``send[j]`` (in order) of flat array ``a``, through point-to-point messages."""
    world = _world.world()
    host = np.ascontiguousarray(to_host(a, 'an all_to_all through the host'))
    out = np.empty(sum(recv), host.dtype)
    so, ro = np.cumsum((0,) + send), np.cumsum((0,) + recv)
    me = world.group_rank(group)
    out[ro[me]:ro[me + 1]] = host[so[me]:so[me + 1]]
    raw_in, raw_out, k = host.view(np.uint8), out.view(np.uint8), host.itemsize
    pending = []
    for j in range(world.group_size(group)):
        if j != me:
            pending.append(world.isend(raw_in[so[j] * k:so[j + 1] * k], j, group, _EXCHANGE_TAG))
            pending.append(world.irecv(raw_out[ro[j] * k:ro[j + 1] * k], j, group,
                                       _EXCHANGE_TAG))
    for p in pending:
        p.wait()
    return out if type(a) is np.ndarray else to_device(out, device_of(a))


class AllToAllVOp(Op):
    """y = the blocks every member sends this one, in member order: each member's flat x is
    cut into blocks of ``send[j]`` elements, block ``j`` going to member ``j``; ``recv[i]`` is
    what member ``i`` sends here. dx = the reverse exchange of dy."""
    name = 'AllToAllV'

    @staticmethod
    def forward(ctx, x, send, recv, group):
        ctx.send, ctx.recv, ctx.group = send, recv, group
        return _exchange(x, send, recv, group)

    @staticmethod
    def backward_arrays(ctx, gy):
        return (_exchange(gy, ctx.recv, ctx.send, ctx.group),)

    @staticmethod
    def backward(ctx, gy):
        return (AllToAllVOp.apply(gy, send=ctx.recv, recv=ctx.send, group=ctx.group),)


def all_to_all_v(api, flat, send, recv, group):
    """``AllToAllVOp`` on the leading elements of ``flat``, once the counts are checked (one
    per member; what this member keeps is what it expects from itself)."""
    n, me = _mgmt.get_group_size(group), _mgmt.get_rank(group)
    send, recv = tuple(int(v) for v in send), tuple(int(v) for v in recv)
    if len(send) != n or len(recv) != n:
        raise ValueError(f"{api}: expects {n} send and {n} receive counts (one per member), "
                         f"got {len(send)} and {len(recv)}")
    if send[me] != recv[me]:
        raise ValueError(f"{api}: this member sends itself {send[me]} elements but expects "
                         f"{recv[me]}")
    return AllToAllVOp.apply(flat[:sum(send)], send=send, recv=recv, group=world_group(group))


def write_leading(output, flat):
    """``flat`` written into the leading elements of ``output`` (the rest unchanged)."""
    flat = _ops.cast(flat, output.dtype)
    if flat.size > output.size:
        raise ValueError(f"the output of shape {output.shape} cannot hold the {flat.size} "
                         f"elements received")
    if flat.size < output.size:
        flat = _ops.cat([flat, _ops.reshape(output, (-1,))[flat.size:]])
    _ops.assign(output, _ops.reshape(flat, output.shape))


def numel(shape):
    return int(np.prod(tuple(shape), dtype=np.int64))


