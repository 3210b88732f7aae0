"""ops.AlltoAll, AlltoAllV, AlltoAllVC, AllGatherV, ReduceScatterV, Reduce, CollectiveGather,
CollectiveScatter, Barrier, Send, Receive, BatchISendIRecv, NeighborExchange and
NeighborExchangeV2: MindSpore 2.10's argument errors (recorded from MindSpore where it checks
them in Python), values and gradients in a world of one process, and the exchanges with their
gradients on two MPI processes."""
import json

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import communication as comm
from hookgrad import ops
from tests.distributed.mpirun import needs_mpi, run_ranks

# MindSpore 2.10's messages, recorded from its constructors (they check before reading ranks)
RECORDED = {
    "ops.AlltoAll(2, 0, 0, group=1)":
        "For 'AlltoAll', the type of 'group' should be 'str', but got type 'int'.",
    "ops.AlltoAll(2.0, 0, 0)": "The type of '<class 'int'>' must be 'int', but got 'float'.",
    "ops.AlltoAll(2, 'a', 0)": "The type of '<class 'int'>' must be 'int', but got 'str'.",
    "ops.AlltoAll(2, 0, None)": "The type of '<class 'int'>' must be 'int', but got 'NoneType'.",
    "ops.AlltoAll(True, 0, 0)": "The type of '<class 'int'>' must be 'int', but got 'bool'.",
    "ops.AlltoAllV(block_size=1.5)":
        "For 'AlltoAllV', the type of 'block_size' should be 'int', but got type 'float'.",
    "ops.AlltoAllVC(block_size=1.0)":
        "For 'AlltoAllVC', the type of 'block_size' should be 'int', but got type 'float'.",
    "ops.AllGatherV(group=1)":
        "For 'AllGatherV', the type of 'group' should be 'str', but got type 'int'.",
    "ops.ReduceScatterV(op=1)":
        "For 'ReduceScatterV', the type of 'op' should be 'str', but got type 'int'.",
    "ops.ReduceScatterV(group=1)":
        "For 'ReduceScatterV', the type of 'group' should be 'str', but got type 'int'.",
    "ops.Reduce(0, group=1)":
        "For 'Reduce', the type of 'group' should be 'str', but got type 'int'.",
    "ops.Reduce(0, op=1)": "For 'Reduce', the type of 'op' should be 'str', but got type 'int'.",
    "ops.CollectiveGather(0, group=1)":
        "For 'CollectiveGather', the type of 'group' should be 'str', but got type 'int'.",
    "ops.CollectiveScatter(0, group=1)":
        "For 'CollectiveScatter', the type of 'group' should be 'str', but got type 'int'.",
    "ops.Receive(0, 1, [2], ms.bool_)":
        "For 'Receive', the type of 'dtype' must be in [mindspore.float16, mindspore.float32, "
        "mindspore.float64, mindspore.bfloat16, mindspore.int8, mindspore.int16, "
        "mindspore.int32, mindspore.int64, mindspore.uint8, mindspore.uint16, "
        "mindspore.uint32, mindspore.uint64], but got Bool.",
    "ops.Receive(0, 1, [2], None)":
        "For 'Receive', the type of 'dtype' must be in [mindspore.float16, mindspore.float32, "
        "mindspore.float64, mindspore.bfloat16, mindspore.int8, mindspore.int16, "
        "mindspore.int32, mindspore.int64, mindspore.uint8, mindspore.uint16, "
        "mindspore.uint32, mindspore.uint64], but got None.",
    "ops.BatchISendIRecv(('isend',), (1,), receive_shapes=3)":
        "For 'BatchISendIRecv', the type of 'receive_shapes' should be one of "
        "'['tuple', 'list']', but got type 'int'.",
    "ops.BatchISendIRecv(('isend',), (1,), receive_shapes=(), receive_dtypes=3)":
        "For 'BatchISendIRecv', the type of 'receive_dtypes' should be one of "
        "'['tuple', 'list']', but got type 'int'.",
    "ops.BatchISendIRecv('isend', (1,))":
        "For 'BatchISendIRecv', the type of 'op_types' should be one of '['tuple', 'list']', "
        "but got type 'str'.",
    "ops.BatchISendIRecv(('isend',), 1)":
        "For 'BatchISendIRecv', the type of 'remote_ranks' should be one of "
        "'['tuple', 'list']', but got type 'int'.",
}
RECORDED_VALUE_ERRORS = {
    "ops.BatchISendIRecv(('irecv',), (1,), receive_shapes=([2],), receive_dtypes=())":
        "length of receive_shapes and receive_shapes must be the same, but got receive_shapes: "
        "1  and receive_shapes: ()",
    "ops.BatchISendIRecv(('isend', 'irecv'), (1,))":
        "length of op_types and remote_ranks must be the same.",
}
NOT_INITED = "Distributed Communication has not been inited"


@pytest.fixture
def alone():
    """A world of one process; the backend and world group name as they were after."""
    names = comm.GlobalComm.BACKEND, comm.GlobalComm.WORLD_COMM_GROUP
    comm.release()
    comm.init()
    yield
    comm.release()
    comm.GlobalComm.BACKEND, comm.GlobalComm.WORLD_COMM_GROUP = names


def f32(values):
    return ms.Tensor(np.array(values, np.float32))


def test_constructor_errors_are_mindspores():
    for expression, message in RECORDED.items():
        with pytest.raises(TypeError) as info:
            eval(expression)
        assert str(info.value) == message, expression
    for expression, message in RECORDED_VALUE_ERRORS.items():
        with pytest.raises(ValueError) as info:
            eval(expression)
        assert str(info.value) == message, expression


def test_hookgrads_own_argument_errors():
    with pytest.raises(ValueError, match="'op' must be one of ReduceOp.SUM"):
        ops.Reduce(0, op='mean')
    with pytest.raises(ValueError, match="every op_types entry must be 'isend' or 'irecv', but "
                                         "got 'send'"):
        ops.BatchISendIRecv(('send',), (1,))
    with pytest.raises(ValueError, match=r"one entry per 'irecv' \(1\), but got 0"):
        ops.BatchISendIRecv(('irecv',), (1,))


def test_calls_before_init_raise_mindspores_runtime_error():
    comm.release()
    x = f32([1.0, 2.0])
    calls = [lambda: ops.AlltoAll(1, 0, 0)(x), lambda: ops.AlltoAllV()(x, [2], [2]),
             lambda: ops.AllGatherV()(x, [2]), lambda: ops.ReduceScatterV()(x, [2]),
             lambda: ops.Reduce(0)(x), lambda: ops.CollectiveGather(0)(x),
             lambda: ops.CollectiveScatter(0)(x), lambda: ops.Barrier()(),
             lambda: ops.Send(0, 1)(x), lambda: ops.Receive(0, 1, [2], ms.float32)(),
             lambda: ops.BatchISendIRecv(('isend',), (1,))((x,)),
             lambda: ops.NeighborExchange([1], [1], ([2],), ([2],), ms.float32)((x,))]
    for call in calls:
        with pytest.raises(RuntimeError, match=NOT_INITED):
            call()


def grad_of(fn, x, w):
    return ms.grad(lambda t: (fn(t) * w).sum())(x).asnumpy()


def test_one_process_exchanges_are_identities_with_identity_gradients(alone):
    xv = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    x, flat = ms.Tensor(xv), ms.Tensor(xv.reshape(-1))
    wv = np.arange(6, dtype=np.float32) + 1
    exchanges = {
        'AlltoAll': (x, lambda t: ops.AlltoAll(1, 1, 0)(t)),
        'AlltoAllV': (flat, lambda t: ops.AlltoAllV()(t, [6], f32([6]).astype(ms.int64))),
        'AlltoAllV blocks': (flat, lambda t: ops.AlltoAllV(block_size=3)(t, (2,), (2,))),
        'AlltoAllVC': (flat, lambda t: ops.AlltoAllVC(transpose=True)(t, [6])),
        'AllGatherV': (flat, lambda t: ops.AllGatherV()(t, [6])),
        'ReduceScatterV': (flat, lambda t: ops.ReduceScatterV()(t, [6])),
        'Reduce': (x, lambda t: ops.Reduce(0)(t)),
        'CollectiveGather': (x, lambda t: ops.CollectiveGather(0)(t)),
        'CollectiveScatter': (x, lambda t: ops.CollectiveScatter(0)(t)),
        # a member may message itself within one batch
        'BatchISendIRecv': (x, lambda t: ops.BatchISendIRecv(
            ('irecv', 'isend'), (0, 0), ([2, 3],), (ms.float32,))((t,))[0]),
        'NeighborExchange': (x, lambda t: ops.NeighborExchange(
            [0], [0], ([2, 3],), ([2, 3],), ms.float32)((t,))[0]),
    }
    for name, (t, fn) in exchanges.items():
        y = fn(t)
        assert y.shape == t.shape and y.dtype == ms.float32, name
        np.testing.assert_array_equal(y.asnumpy(), t.asnumpy(), err_msg=name)
        w = ms.Tensor(wv.reshape(t.shape))
        np.testing.assert_array_equal(grad_of(fn, t, w), wv.reshape(t.shape), err_msg=name)
    # the isend entry's output is a 0-d zero of the sent dtype
    sent = ops.BatchISendIRecv(('isend', 'irecv'), (0, 0), ([2, 3],), (ms.float32,))((x,))[0]
    assert sent.shape == () and float(sent.asnumpy()) == 0.0
    for op in ('max', 'min', 'prod'):
        np.testing.assert_array_equal(ops.ReduceScatterV(op)(flat, [6]).asnumpy(), xv.ravel())
    barrier = ops.Barrier()()
    assert barrier.shape == (1,) and barrier.dtype == ms.float32 and barrier.asnumpy()[0] == 0


def test_one_process_refusals(alone):
    x = f32([[1.0, 2.0], [3.0, 4.0]])
    flat = f32([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="The reducescatter bprop only support ReduceOp.SUM "
                                           "until now."):
        ms.grad(lambda t: ops.ReduceScatterV('max')(t, [3]).sum())(flat)
    with pytest.raises(NotImplementedError, match="runs only inside MindSpore's compiled Ascend "
                                                  "graphs"):
        ops.NeighborExchangeV2([-1] * 8, [0] * 4, [-1] * 8, [0] * 4, 'NCHW')(x)
    with pytest.raises(ValueError, match="For 'Send', dest_rank 0 is this member itself."):
        ops.Send(0, 0)(x)
    with pytest.raises(ValueError, match=r"For 'Receive', 'src_rank' 1 must be a member of the "
                                         r"group \(0..0\)."):
        ops.Receive(0, 1, [2], ms.float32)()
    with pytest.raises(ValueError, match="split_count 2 must equal the group size 1"):
        ops.AlltoAll(2, 0, 0)(x)
    with pytest.raises(ValueError, match=r"'send_numel_list' must hold 1 non-negative counts"):
        ops.AlltoAllV()(flat, [1, 2], [3])
    with pytest.raises(ValueError, match="this member sends itself 3 elements but expects 2"):
        ops.AlltoAllV()(flat, [3], [2])
    with pytest.raises(ValueError, match=r"the input must be a 1-D \(flattened\) tensor"):
        ops.AllGatherV()(x, [4])
    with pytest.raises(ValueError, match=r"input_split_sizes \[2\] must add up to the input's "
                                         r"length 3"):
        ops.ReduceScatterV()(flat, [2])
    with pytest.raises(ValueError, match="'dest_rank' 1 must be a member of the group"):
        ops.Reduce(1)(x)
    with pytest.raises(ValueError, match="must have rank >= 1, got a 0-d tensor"):
        ops.CollectiveGather(0)(f32(1.0))
    with pytest.raises(RuntimeError, match=r"the number of input tensors \(0\) must be the "
                                           r"number of 'isend' entries \(1\)"):
        ops.BatchISendIRecv(('isend',), (0,))(())
    with pytest.raises(ValueError, match="a receive from this member .rank 0. has no matching "
                                         "send to itself"):
        ops.BatchISendIRecv(('irecv',), (0,), ([2],), (ms.float32,))(())
    with pytest.raises(ValueError, match=r"an input of shape \(3,\) does not match its "
                                         r"send_shapes entry \(2,\)"):
        ops.NeighborExchange([0], [0], ([2],), ([2],), ms.float32)((flat,))
    with pytest.raises(ValueError, match=r"a message to itself of shape \(3,\) does not fit "
                                         r"the receive of shape \(2,\)"):
        ops.NeighborExchange([0], [0], ([2],), ([3],), ms.float32)((flat,))


TWO_RANKS = r"""
import json
import numpy as np
import hookgrad as ms
from hookgrad import communication as comm, ops

comm.init()
r = comm.get_rank()
o = 1 - r
res = {'rank': r}
T = lambda v: ms.Tensor(np.array(v, np.float32))


def value_grad(fn, x, w):
    y = fn(x)
    g = ms.grad(lambda t: (fn(t) * T(w)).sum())(x)
    return y.asnumpy().tolist(), g.asnumpy().tolist()


x = T(np.arange(4).reshape(2, 2) + 10 * r)
res['alltoall'] = value_grad(ops.AlltoAll(2, 0, 1), x, (r + 1) * np.array([[1, 2, 3, 4]]))
send = [[1, 2], [2, 1]][r]
xv = T([0, 1, 2]) + 10 * r
res['alltoallv'] = value_grad(lambda t: ops.AlltoAllV()(t, send, [[1, 2], [2, 1]][r]), xv,
                              (r + 1) * np.arange(1, 4))
res['alltoallvc'] = ops.AlltoAllVC()(xv, [1, 2, 2, 1]).asnumpy().tolist()
res['gatherv'] = value_grad(lambda t: ops.AllGatherV()(t, [1, 2]), T([[1], [2, 3]][r]),
                            (r + 1) * np.arange(1, 4))
rs = T([[1, 2, 3], [10, 20, 30]][r])
res['scatterv'] = value_grad(lambda t: ops.ReduceScatterV()(t, [2, 1]), rs,
                             [[1, 2], [2]][r])
res['scatterv_max'] = ops.ReduceScatterV('max')(rs, [2, 1]).asnumpy().tolist()
res['reduce'] = value_grad(ops.Reduce(1), rs, [[5], [1, 2, 3]][r])
res['reduce_shape'] = list(ops.Reduce(1)(rs).shape)
res['gather'] = value_grad(ops.CollectiveGather(0), T([[r + 1, r + 2]]),
                           [[[1, 2], [3, 4]], [7]][r])
res['scatter'] = value_grad(ops.CollectiveScatter(1), T([[1, 2], [3, 4]]) * r, [[r + 1]])
if r == 0:
    sx = T([1, 2, 3])
    res['sent'] = ops.Send(7, 1)(sx).asnumpy().tolist()
    res['send_grad'] = ms.grad(lambda t: ops.Send(7, 1)(t).sum())(sx).asnumpy().tolist()
else:
    recv = ops.Receive(7, 0, [3], ms.float32)
    res['received'] = recv().asnumpy().tolist()
    anchor = T([5.0])
    res['receive_grad'] = ms.grad(lambda a: (recv(a) * T([1, 2, 3])).sum())(anchor) \
        .asnumpy().tolist()
batch = ops.BatchISendIRecv(('isend', 'irecv'), (o, o), ([2],), (ms.float32,))
res['batch'] = value_grad(lambda t: batch((t,))[1], T([r + 1, r + 2]), (r + 1) * np.array([1, 10]))
res['batch_sent'] = [batch((T([0, 0]),))[0].shape, 0]
exchange = ops.NeighborExchange([o], [o], ([2],), ([2],), ms.float32)
res['neighbor'] = value_grad(lambda t: exchange((t[:2],))[0], T([r, r, 9]) * 2,
                             [[1, 2], [4, 5]][r])
res['barrier'] = ops.Barrier()().asnumpy().tolist()
for turn in range(2):       # one rank at a time, so that the two lines do not interleave
    if turn == r:
        print('RESULT ' + json.dumps(res), flush=True)
    ops.Barrier()()
"""


@needs_mpi
def test_two_processes_exchanges_and_their_gradients():
    code, out, err = run_ranks(TWO_RANKS, n=2, timeout=90)
    assert code == 0, err
    r0, r1 = sorted((json.loads(line[7:]) for line in out.splitlines()
                     if line.startswith('RESULT ')), key=lambda r: r['rank'])
    # AlltoAll(2, split 0, concat 1): rank r gets row r of every rank, side by side; the
    # gradient is the reverse AlltoAll: row s of rank r's dx is rank s's dy block r
    assert r0['alltoall'] == [[[0, 1, 10, 11]], [[1, 2], [2, 4]]]
    assert r1['alltoall'] == [[[2, 3, 12, 13]], [[3, 4], [6, 8]]]
    # AlltoAllV: rank 0 sends [0] to itself, [1, 2] to rank 1; rank 1 [10, 11] to 0, [12] to 1
    assert r0['alltoallv'] == [[0, 10, 11], [1, 2, 4]]
    assert r1['alltoallv'] == [[1, 2, 12], [2, 3, 6]]
    assert r0['alltoallvc'] == [0, 10, 11] and r1['alltoallvc'] == [1, 2, 12]
    # AllGatherV; dx = the sum over ranks of their dy's block of this rank
    assert r0['gatherv'] == [[1, 2, 3], [3]] and r1['gatherv'] == [[1, 2, 3], [6, 9]]
    # ReduceScatterV [2, 1]: rank 0 the sum of elements 0..1, rank 1 of element 2; dx =
    # AllGatherV(dy)
    assert r0['scatterv'] == [[11, 22], [1, 2, 2]] and r1['scatterv'] == [[33], [1, 2, 2]]
    assert r0['scatterv_max'] == [10, 20] and r1['scatterv_max'] == [30]
    # Reduce to rank 1: rank 0 holds a (1,) zero; dx = Broadcast of rank 1's dy
    assert r1['reduce'] == [[11, 22, 33], [1, 2, 3]] and r0['reduce'] == [[0], [1, 2, 3]]
    assert r0['reduce_shape'] == [1] and r1['reduce_shape'] == [3]
    # CollectiveGather to rank 0; dx = each rank's block of rank 0's dy
    assert r0['gather'] == [[[1, 2], [2, 3]], [[1, 2]]] and r1['gather'] == [[0], [[3, 4]]]
    # CollectiveScatter from rank 1; dx = the gathered dy on rank 1, zeros on rank 0
    assert r0['scatter'] == [[[1, 2]], [[0, 0], [0, 0]]]
    assert r1['scatter'] == [[[3, 4]], [[1, 1], [2, 2]]]
    # Send / Receive: the receiver's gradient goes back to the sender; the anchor's is zero
    assert r0['sent'] == [0, 0, 0] and r1['received'] == [1, 2, 3]
    assert r0['send_grad'] == [1, 2, 3] and r1['receive_grad'] == [0]
    # BatchISendIRecv: each rank sends its x to the other; dx = the other rank's dy
    assert r0['batch'] == [[2, 3], [2, 20]] and r1['batch'] == [[1, 2], [1, 10]]
    assert r0['batch_sent'] == [[], 0]
    # NeighborExchange of 2 elements each way; dx (of the 3 elements) = the other's dy
    assert r0['neighbor'] == [[2, 2], [4, 5, 0]] and r1['neighbor'] == [[0, 0], [1, 2, 0]]
    assert r0['barrier'] == r1['barrier'] == [0]
