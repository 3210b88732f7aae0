"""ops.AllReduce, AllGather, ReduceScatter, Broadcast: values and MindSpore's gradients on 2
MPI processes (against their definitions in NumPy), one-process behaviour and errors."""
import json

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import communication as comm
from hookgrad import ops
from tests.distributed.mpirun import needs_mpi, run_ranks


@pytest.fixture
def alone():
    comm.release()
    comm.init()
    yield
    comm.release()


def x_of(rank):
    return np.array([[rank + 1.0, 2.0 - 3 * rank], [0.5 * (rank + 1), 4.0]], np.float32)


def w_of(rank, rows=2):
    return (np.arange(rows * 2, dtype=np.float32).reshape(rows, 2) + 1) * (rank + 2)


def test_one_process_ops_are_identities_with_identity_gradients(alone):
    x = ms.Tensor(x_of(0))
    w = ms.Tensor(w_of(0))
    for op in (ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD):
        prim = ops.AllReduce(op)
        np.testing.assert_allclose(prim(x).asnumpy(), x_of(0))
        g = ms.grad(lambda t: (prim(t) * w).sum())(x)
        np.testing.assert_allclose(g.asnumpy(), w_of(0), rtol=1e-6)
    np.testing.assert_allclose(ops.AllGather()(x).asnumpy(), x_of(0))
    np.testing.assert_allclose(ops.ReduceScatter()(x).asnumpy(), x_of(0))
    (y,) = ops.Broadcast(0)((x,))
    np.testing.assert_allclose(y.asnumpy(), x_of(0))
    g = ms.grad(lambda t: (ops.Broadcast(0)((t,))[0] * w).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), w_of(0))


def test_reduce_op_names_and_module_paths():
    assert (ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD) == \
        ('sum', 'max', 'min', 'prod')
    import hookgrad.compat
    hookgrad.compat.alias_mindspore()
    try:
        from mindspore.ops.operations.comm_ops import AllReduce, ReduceOp, Broadcast
        assert AllReduce is ops.AllReduce and ReduceOp is ops.ReduceOp
        assert Broadcast is ops.Broadcast
    finally:
        hookgrad.compat.unalias_mindspore()
    assert repr(ops.AllReduce('max')) == "Prim[AllReduce]<op='max', group='hccl_world_group'>"


def test_before_init():
    comm.release()
    with pytest.raises(RuntimeError, match="Distributed Communication has not been inited"):
        ops.AllGather()
    with pytest.raises(RuntimeError, match="Distributed Communication has not been inited"):
        ops.ReduceScatter()
    with pytest.raises(RuntimeError, match="Distributed Communication has not been inited"):
        ops.AllReduce()(ms.Tensor([1.0]))


def test_argument_errors(alone):
    with pytest.raises(TypeError, match="For 'AllReduce', the 'op' must be str, but got int"):
        ops.AllReduce(1)
    with pytest.raises(ValueError, match="For 'AllReduce', the 'op' must be one of"):
        ops.AllReduce('avg')
    with pytest.raises(TypeError, match="For 'AllGather', the 'group' must be str, but got int"):
        ops.AllGather(0)
    with pytest.raises(TypeError, match="For 'Broadcast', the 'root_rank' must be int, but got "
                                        "str"):
        ops.Broadcast('0')
    with pytest.raises(TypeError, match="For 'Broadcast', the input must be a tuple of tensors"):
        ops.Broadcast(0)(ms.Tensor([1.0]))
    with pytest.raises(ValueError, match=r"root_rank 3 is not in group 'hccl_world_group' "
                                         r"\(ranks \[0\]\)"):
        ops.Broadcast(3)((ms.Tensor([1.0]),))
    with pytest.raises(TypeError, match="For 'AllReduce', the input's dtype must not be bool"):
        ops.AllReduce()(ms.Tensor(np.array([True])))
    with pytest.raises(ValueError, match="For 'AllGather', the input must have rank >= 1"):
        ops.AllGather()(ms.Tensor(1.0))
    with pytest.raises(ValueError, match="communication group 'nope' does not exist"):
        ops.AllReduce(group='nope')(ms.Tensor([1.0]))


def test_reduce_scatter_gradient_is_sum_only(alone):
    prim = ops.ReduceScatter(ops.ReduceOp.MAX)
    with pytest.raises(RuntimeError, match="The reducescatter bprop only support ReduceOp.SUM"):
        ms.grad(lambda t: prim(t).sum())(ms.Tensor(x_of(0)))


TWO_RANKS = '''
    import json, os
    import numpy as np
    import hookgrad as ms
    from hookgrad import ops
    from hookgrad.communication import init, get_rank, create_group
    from tests.distributed.test_comm_ops import x_of, w_of
    init()
    r = get_rank()
    x, w = ms.Tensor(x_of(r)), ms.Tensor(w_of(r))
    out = {'rank': r}

    def value_and_grad(fn, w):
        y = fn(x)
        g = ms.grad(lambda t: (fn(t) * w).sum())(x)
        return [y.asnumpy().tolist(), g.asnumpy().tolist()]

    for op in ('sum', 'max', 'min', 'prod'):
        out['allreduce_' + op] = value_and_grad(ops.AllReduce(op), w)
    out['allgather'] = value_and_grad(ops.AllGather(), ms.Tensor(w_of(r, rows=4)))
    out['reduce_scatter'] = value_and_grad(ops.ReduceScatter(), ms.Tensor(w_of(r, rows=1)))
    out['reduce_scatter_max'] = ops.ReduceScatter('max')(x).asnumpy().tolist()
    out['broadcast'] = value_and_grad(lambda t: ops.Broadcast(1)((t,))[0], w)
    create_group('pair', [0, 1])
    out['group_sum'] = ops.AllReduce(group='pair')(x).asnumpy().tolist()
    try:
        ops.ReduceScatter()(ms.Tensor(np.ones((3, 2), np.float32)))
    except ValueError as e:
        out['bad_split'] = str(e)
    os.write(1, (json.dumps(out) + '\\n').encode())
'''


@needs_mpi
def test_two_processes_values_and_gradients():
    code, out, err = run_ranks(TWO_RANKS, n=2, timeout=60)
    assert code == 0, err
    got = {d['rank']: d for d in (json.loads(line) for line in out.splitlines()
                                  if line.startswith('{'))}
    assert sorted(got) == [0, 1]
    x0, x1, w0, w1 = x_of(0), x_of(1), w_of(0), w_of(1)
    ws = w0 + w1                     # AllReduce_SUM of the arriving gradients
    expected = {
        'sum': (x0 + x1, [ws, ws]),
        'max': (np.maximum(x0, x1), [ws * (x0 >= x1), ws * (x1 >= x0)]),
        'min': (np.minimum(x0, x1), [ws * (x0 <= x1), ws * (x1 <= x0)]),
        'prod': (x0 * x1, [ws * x1, ws * x0]),
    }
    for op, (y, grads) in expected.items():
        for r in (0, 1):
            value, grad = got[r]['allreduce_' + op]
            np.testing.assert_allclose(value, y, rtol=1e-6, err_msg=op)
            np.testing.assert_allclose(grad, grads[r], rtol=1e-6, err_msg=op)
    g4 = w_of(0, rows=4) + w_of(1, rows=4)          # ReduceScatter_SUM of AllGather's dy
    g1 = np.concatenate([w_of(0, rows=1), w_of(1, rows=1)])
    for r in (0, 1):
        value, grad = got[r]['allgather']
        np.testing.assert_allclose(value, np.concatenate([x0, x1]))
        np.testing.assert_allclose(grad, g4[2 * r:2 * r + 2])
        value, grad = got[r]['reduce_scatter']
        np.testing.assert_allclose(value, (x0 + x1)[r:r + 1])
        np.testing.assert_allclose(grad, g1)                # AllGather of dy
        np.testing.assert_allclose(got[r]['reduce_scatter_max'], np.maximum(x0, x1)[r:r + 1])
        value, grad = got[r]['broadcast']
        np.testing.assert_allclose(value, x1)               # root_rank 1's tensor
        np.testing.assert_allclose(grad, w_of(r))           # passed through, as MindSpore
        np.testing.assert_allclose(got[r]['group_sum'], x0 + x1)
        assert got[r]['bad_split'] == ("For 'ReduceScatter', the first dimension of the input "
                                       "shape (3, 2) must be divisible by rank_size 2.")
