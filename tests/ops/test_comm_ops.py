"""Rows for the collective ops in one process (rank 0 of 1), where each is the identity with
an identity gradient; tests/distributed checks them on 2 MPI processes."""
import numpy as np
import pytest

from hookgrad import communication as comm
from hookgrad import ops
from hookgrad.testing import check_grad
from hookgrad.testing.cases import Case, away_from_zero


def initialized(make):
    """``make()``'s primitive, called after ``init`` (one process when started alone)."""
    def fn(x):
        if not comm.GlobalComm.INITED:
            comm.init()
        return make()(x)
    return fn


def identity(x):
    return x


def sync_batch_norm(x, w, b):
    """SyncBatchNormTrain over the world of one process (the layer itself is BatchNorm there)."""
    from hookgrad.nn.layer.sync_batchnorm import SyncBatchNormTrain
    if not comm.GlobalComm.INITED:
        comm.init()
    return SyncBatchNormTrain.apply(x, w, b, eps=1e-5, momentum=0.1, running=None,
                                    group='world')


def batch_norm_ref(x, w, b):
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    mean, var = x.mean(axis=axes, keepdims=True), x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * w.reshape(shape) + b.reshape(shape)


def all_to_all_v(x):
    """The variable-count exchange under ``ops.all_to_all_single`` over a world of one process:
    everything this member sends, it receives."""
    from hookgrad.ops.function._comm_base import all_to_all_v as exchange
    if not comm.GlobalComm.INITED:
        comm.init()
    flat = ops.reshape(x, (-1,))
    world = comm.GlobalComm.WORLD_COMM_GROUP
    return ops.reshape(exchange('all_to_all_v', flat, (flat.size,), (flat.size,), world), x.shape)


def point_to_point(x):
    """BatchISendIRecv over a world of one process: this member sends x to itself and
    receives it back (its gradient goes back the same way)."""
    if not comm.GlobalComm.INITED:
        comm.init()
    batch = ops.BatchISendIRecv(('isend', 'irecv'), (0, 0), (x.shape,), (x.dtype,))
    return batch((x,))[1]


SYNC_BN_SHAPES = (((4, 3), (3,), (3,)), ((2, 3, 4, 5), (3,), (3,)))

CASES = [
    Case('AllReduce', initialized(lambda: ops.AllReduce()), ref=identity, name='allreduce_sum'),
    Case('AllReduce', initialized(lambda: ops.AllReduce(ops.ReduceOp.MAX)), ref=identity,
         name='allreduce_max'),
    Case('AllReduce', initialized(lambda: ops.AllReduce(ops.ReduceOp.PROD)), ref=identity,
         domains=(away_from_zero,), name='allreduce_prod'),
    Case('AllGather', initialized(lambda: ops.AllGather()), ref=identity),
    Case('ReduceScatter', initialized(lambda: ops.ReduceScatter()), ref=identity),
    Case('Broadcast', initialized(lambda: lambda x: ops.Broadcast(0)((x,))[0]), ref=identity),
    Case('AllToAllV', all_to_all_v, ref=identity, name='all_to_all_v'),
    Case('Reduce', initialized(lambda: ops.Reduce(0)), ref=identity),
    Case('CollectiveGather', initialized(lambda: ops.CollectiveGather(0)), ref=identity),
    Case('CollectiveScatter', initialized(lambda: ops.CollectiveScatter(0)), ref=identity),
    Case('PointToPoint', point_to_point, ref=identity, name='batch_isend_irecv'),
    # first-order only (no Tensor backward): its gradient is checked below
    Case('SyncBatchNormTrain', sync_batch_norm, ref=batch_norm_ref, grad=False, double=False,
         shapes=SYNC_BN_SHAPES, rtol=1e-5, atol=1e-5),
]


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
def test_rows_agree_with_numpy_and_differences(device):
    for case in CASES:
        for shapes in case.shapes:
            case.check_forward(shapes, np.float32, device)
            if case.grad:
                case.check_backward(shapes, device)
            if case.double:
                case.check_double_backward(shapes, device)


def test_sync_batch_norm_gradient_in_one_process_matches_differences():
    rng = np.random.default_rng(0)
    for shapes in SYNC_BN_SHAPES:
        check_grad(sync_batch_norm, *(rng.standard_normal(s) for s in shapes))
