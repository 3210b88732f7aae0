"""``mindspore.ops``' functional collectives (``ops.all_reduce``, ``ops.broadcast``, ``ops.isend``,
...; ``ops/function/comm_func.py``): MindSpore 2.10's argument errors and answers before
``init`` (recorded in ``comm_func_ms210.json``), the results and return forms of every function
in a one-process world, and the main collectives with their gradients on two MPI processes."""
import hashlib
import json
import os
import socket
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import communication as comm
from hookgrad import ops
from hookgrad.mint import distributed as dist
from tests.distributed import comm_func_cases as cases
from tests.distributed.mpirun import needs_mpi, run_ranks

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'comm_func_ms210.json')) as f:
    RECORDED = json.load(f)
NOT_INITED = "Distributed Communication has not been inited"


def f32(*values):
    return ms.Tensor(np.array(values, np.float32))


@pytest.fixture
def alone():
    comm.release()
    ops.init_process_group()
    yield
    ops.set_comm_ops_inplace(True)
    ops.destroy_process_group()


@pytest.fixture
def functional(alone):
    ops.set_comm_ops_inplace(False)
    yield


def check_outcome(expression, got, want):
    if want[0] == 'error' and want[2].startswith(NOT_INITED):
        # hookgrad's message is the first sentence of MindSpore's
        assert got[:2] == want[:2] and got[2].startswith(NOT_INITED), (expression, got)
    else:
        assert got == want, expression


def test_the_names_are_mindspores():
    import hookgrad.ops.function.comm_func as cf
    assert cf.OPS_NAMES == tuple(n for n in cf.__all__ if n not in ('gather', 'scatter'))
    assert len(cf.__all__) == 42 and all(getattr(ops, n) is getattr(cf, n) for n in cf.OPS_NAMES)
    # ops.gather and ops.scatter stay the array ops; the collectives are comm_func's own
    assert ops.gather is not cf.gather and ops.scatter is not cf.scatter
    assert not hasattr(ops.functional, 'all_reduce')


@pytest.mark.parametrize('expression', cases.BEFORE_INIT)
def test_before_init_as_mindspore(expression):
    comm.release()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        got = cases.outcome(expression, cases.namespace(ops, ms.Tensor, ops.get_rank()))
    check_outcome(expression, got, RECORDED['before_init'][expression])


def test_rank_and_size_before_init_read_rank_size(monkeypatch):
    comm.release()
    monkeypatch.setenv('RANK_SIZE', '4')
    assert (ops.get_rank(), ops.get_world_size()) == (4, 4)
    with pytest.raises(RuntimeError, match=NOT_INITED):
        ops.all_reduce(f32(1.0))
    with pytest.raises(RuntimeError, match=NOT_INITED):
        ops.barrier()
    with pytest.warns(UserWarning, match=NOT_INITED):
        assert ops.new_group([0]) == ''     # MindSpore warns and answers '' too


@pytest.mark.parametrize('call', [
    lambda x: ops.all_gather_into_tensor(x, x), lambda x: ops.all_to_all([x], [x]),
    lambda x: ops.all_to_all_single(x, x), lambda x: ops.gather_into_tensor(x, x),
    lambda x: ops.send(x, 0), lambda x: ops.recv(x, 0), lambda x: ops.isend(x, 0),
    lambda x: ops.irecv(x, 0), lambda x: ops.batch_isend_irecv([ops.P2POp('isend', x, 0)]),
    lambda x: ops.all_gather_object([None], 1), lambda x: ops.broadcast_object_list([1]),
    lambda x: ops.send_object_list([1], 0), lambda x: ops.recv_object_list([None])])
def test_communication_before_init_raises_mindspores_error(call):
    comm.release()
    with pytest.raises(RuntimeError, match=NOT_INITED):
        call(f32(1.0))


@pytest.mark.parametrize('expression', cases.ERRORS)
def test_errors_as_mindspore(alone, expression):
    got = cases.outcome(expression, cases.namespace(ops, ms.Tensor, ops.get_rank()))
    check_outcome(expression, got, RECORDED['errors'][expression])


@pytest.mark.parametrize('expression', cases.FUNCTIONAL_ERRORS)
def test_functional_form_errors_as_mindspore(functional, expression):
    got = cases.outcome(expression, cases.namespace(ops, ms.Tensor, ops.get_rank()))
    check_outcome(expression, got, RECORDED['functional_errors'][expression])


def test_queries_in_one_process(alone):
    assert ops.is_available() and ops.is_initialized()
    assert (ops.get_rank(), ops.get_world_size(), ops.get_backend()) == (0, 1, 'hccl')
    assert ops.get_process_group_ranks() == [0] and ops.get_process_group_ranks(None) == [0]
    assert ops.get_global_rank(None, 0) == 0 and ops.get_group_rank(None, 0) == 0
    name = ops.new_group([0])
    assert name == 'hccl_1_' + hashlib.sha1(b'0').hexdigest() and ops.new_group([0]) == name
    assert ops.new_group([0], backend='mccl').startswith('mccl_1_')
    assert ops.new_group() == 'hccl_world_group'
    assert (ops.get_rank(name), ops.get_world_size(name), ops.get_backend(name)) == (0, 1, 'hccl')
    assert ops.get_global_rank(name, 0) == 0 and ops.get_group_rank(name, 0) == 0
    assert ops.get_process_group_ranks(name) == [0]
    with pytest.raises(ValueError, match="global rank 3 is not in group"):
        ops.get_group_rank(None, 3)
    ops.destroy_process_group(name)
    with pytest.raises(ValueError, match="does not exist"):
        ops.get_process_group_ranks(name)


def test_in_place_collectives_in_one_process(alone):
    x = f32(1.0, -2.0)
    assert ops.all_reduce(x) is None
    np.testing.assert_array_equal(x.asnumpy(), [1.0, -2.0])
    handle = ops.all_reduce(x, 'avg', async_op=True)
    assert handle.wait() is None and handle.is_completed()
    out = f32(0.0, 0.0)
    assert ops.all_gather_into_tensor(out, x * 2) is None
    np.testing.assert_array_equal(out.asnumpy(), [2.0, -4.0])
    assert ops.reduce_scatter_tensor(out, x * 3, 'max') is None
    np.testing.assert_array_equal(out.asnumpy(), [3.0, -6.0])
    assert ops.all_gather_into_tensor_uneven(out, x, [2]) is None
    np.testing.assert_array_equal(out.asnumpy(), [1.0, -2.0])
    assert ops.reduce_scatter_tensor_uneven(out, x * 4, []) is None
    np.testing.assert_array_equal(out.asnumpy(), [4.0, -8.0])
    y = f32(5.0, 6.0)
    assert ops.reduce(y, 0, 'prod') is None and ops.broadcast(y, 0) is None
    np.testing.assert_array_equal(y.asnumpy(), [5.0, 6.0])
    assert ops.barrier() is None and ops.barrier(async_op=True).wait() is None
    gathered = f32(0.0, 0.0)
    assert ops.gather_into_tensor(gathered, x * 5) is None
    np.testing.assert_array_equal(gathered.asnumpy(), [5.0, -10.0])
    part = f32(0.0, 0.0)
    assert ops.scatter_tensor(part, x * 6) is None
    np.testing.assert_array_equal(part.asnumpy(), [6.0, -12.0])
    pieces = [f32(0.0, 0.0)]
    assert ops.all_gather(pieces, x) is None
    np.testing.assert_array_equal(pieces[0].asnumpy(), [1.0, -2.0])
    assert ops.reduce_scatter(part, [x * 7]) is None
    np.testing.assert_array_equal(part.asnumpy(), [7.0, -14.0])
    import hookgrad.ops.function.comm_func as cf
    assert cf.gather(x * 8, pieces) is None and cf.scatter(part, [x * 9]) is None
    np.testing.assert_array_equal(pieces[0].asnumpy(), [8.0, -16.0])
    np.testing.assert_array_equal(part.asnumpy(), [9.0, -18.0])
    with pytest.raises(TypeError, match=r"For all_gather, the output shape should be \(3,\), but "
                                        r"got \(2,\)\."):
        ops.all_gather([f32(0.0, 0.0, 0.0)], x)
    with pytest.raises(TypeError, match="The argument list tensor shape must be equal to tensor "
                                        r"shape, but got \(1,\)\."):
        cf.gather(x, [f32(0.0)])


def test_all_to_all_in_one_process(alone):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    outs = [ms.Tensor(np.zeros((2, 3), np.float32))]
    assert ops.all_to_all(outs, [x]) is None        # the pieces keep their elements, in order
    np.testing.assert_array_equal(outs[0].asnumpy(), np.arange(6).reshape(2, 3))
    single = ms.Tensor(np.zeros((3, 2), np.float32))
    assert ops.all_to_all_single(single, x + 1, [3], [3]) is None
    np.testing.assert_array_equal(single.asnumpy(), np.arange(6).reshape(3, 2) + 1)
    target = ms.Tensor(np.full((3, 2), -1.0, np.float32))
    assert ops.all_to_all_v_c(target, x, [2], async_op=True).wait() is None
    # two rows exchanged; the output's last row is left as it was
    np.testing.assert_array_equal(target.asnumpy(), [[0, 1], [2, 3], [-1, -1]])
    with pytest.raises(ValueError, match=r"all_to_all_single: expects 1 send and 1 receive "
                                         r"counts \(one per member\), got 2 and 1"):
        ops.all_to_all_single(single, x, None, [2, 1])
    with pytest.raises(ValueError, match="The input and output dimensions except 0 must be of "
                                         "equal size, but got 2 and 3."):
        ops.all_to_all_v_c(ms.Tensor(np.zeros((2, 3), np.float32)), x, [1])
    with pytest.raises(ValueError, match="all_to_all: expects 1 send and 1 receive counts"):
        ops.all_to_all([outs[0], outs[0]], [x])
    with pytest.raises(ValueError, match="this member sends itself 6 elements but expects 4"):
        ops.all_to_all([ms.Tensor(np.zeros(4, np.float32))], [x])


def test_functional_forms_in_one_process(functional):
    x = f32(1.0, -2.0)
    for op in ('sum', 'max', 'avg', 'prod'):
        y, handle = ops.all_reduce(x, op)
        assert handle is None and y is not x
        np.testing.assert_array_equal(y.asnumpy(), [1.0, -2.0])
    y, handle = ops.all_gather_into_tensor(None, x, async_op=True)
    assert handle.wait() is None
    np.testing.assert_array_equal(y.asnumpy(), [1.0, -2.0])
    y, handle = ops.reduce_scatter_tensor(None, x, 'avg')
    np.testing.assert_array_equal(y.asnumpy(), [1.0, -2.0])
    (piece,), handle = ops.all_to_all([(1, 2)], [x])       # an output named by its shape
    assert handle is None and piece.shape == (1, 2)
    np.testing.assert_array_equal(piece.asnumpy(), [[1.0, -2.0]])
    (piece,), _ = ops.all_to_all([ms.Tensor(np.zeros((2, 1)))], [x])    # or by a tensor's
    np.testing.assert_array_equal(piece.asnumpy(), [[1.0], [-2.0]])
    y, handle = ops.all_to_all_single(None, ms.Tensor(np.ones((2, 3), np.float32)))
    assert y.shape == (2, 3) and handle is None
    np.testing.assert_array_equal(x.asnumpy(), [1.0, -2.0])      # inputs unchanged


def test_functional_forms_are_differentiable(functional):
    x = f32(1.0, -2.0)
    w = f32(3.0, 5.0)
    for fn in (lambda t: ops.all_reduce(t)[0], lambda t: ops.all_reduce(t, 'avg')[0],
               lambda t: ops.all_gather_into_tensor(None, t)[0],
               lambda t: ops.reduce_scatter_tensor(None, t)[0],
               lambda t: ops.all_to_all_single(None, t)[0],
               lambda t: ops.all_to_all([(2,)], [t])[0][0]):
        g = ms.grad(lambda t: (fn(t) * w).sum())(x)
        np.testing.assert_array_equal(g.asnumpy(), [3.0, 5.0])
    g = ms.grad(lambda t: (ops.all_reduce(t, 'prod')[0] * w).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), [3.0, 5.0])


def test_point_to_point_in_one_process(alone):
    x = f32(1.0, 2.0)
    with pytest.raises(RuntimeError, match="point-to-point communication needs several "
                                           "processes"):
        ops.send(x, 1)
    with pytest.raises(RuntimeError, match="point-to-point communication needs several "
                                           "processes"):
        ops.irecv(x, 0)
    for op in (ops.isend, 'isend', ops.irecv, 'irecv'):
        p = ops.P2POp(op, x, 1)
        assert (p.op, p.tensor, p.peer, p.group, p.tag) == (op, x, 1, None, 0)
    with pytest.raises(TypeError, match="Expected op to be of type isend or irecv"):
        ops.P2POp(dist.isend, x, 1)     # mint.distributed's isend is not this one


def test_objects_in_one_process(alone):
    objects = [None]
    assert ops.all_gather_object(objects, {'a': [1, 2]}) is None
    assert objects == [{'a': [1, 2]}]
    gathered = [None]
    ops.gather_object(('t', 3), gathered)
    assert gathered == [('t', 3)]
    items = ['x', 2.5]
    ops.broadcast_object_list(items)
    assert items == ['x', 2.5]
    mine = [None]
    ops.scatter_object_list(mine, [{'to': 0}])
    assert mine == [{'to': 0}]


def test_tcp_store_is_mint_distributeds():
    with pytest.raises(TypeError, match="the argument 'port' must be type of int"):
        ops.TCPStore('127.0.0.1', '1234')
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    store = ops.TCPStore('127.0.0.1', port, is_master=True)
    assert isinstance(store, dist.TCPStore)
    store.set('k', 'v')
    assert store.get('k') == b'v' and store.add('n', 2) == 2


TWO_RANKS = '''
    import json
    import numpy as np
    import hookgrad as ms
    from hookgrad import ops
    ops.init_process_group()
    r = ops.get_rank()
    out = {'rank': r, 'size': ops.get_world_size()}
    T = lambda *v: ms.Tensor(np.array(v, np.float32))
    x = T(r + 1.0, 2.0 - 3 * r)
    y = T(*x.asnumpy())
    ops.all_reduce(y)
    out['sum'] = y.asnumpy().tolist()
    y = T(*x.asnumpy())
    ops.all_reduce(y, 'avg', async_op=True).wait()
    out['avg'] = y.asnumpy().tolist()
    g = T(0, 0, 0, 0)
    ops.all_gather_into_tensor(g, x)
    out['gather'] = g.asnumpy().tolist()
    s = T(0)
    ops.reduce_scatter_tensor(s, x)
    out['scatter'] = s.asnumpy().tolist()
    b = T(*x.asnumpy())
    ops.broadcast(b, 1)
    out['broadcast'] = b.asnumpy().tolist()
    d = T(0, 0, 0, 0)
    ops.gather_into_tensor(d, x, dst=1)
    out['gather_into'] = d.asnumpy().tolist()
    p = T(0, 0)
    ops.scatter_tensor(p, T(1, 2, 3, 4) * (r + 1), src=1)
    out['scatter_tensor'] = p.asnumpy().tolist()
    # uneven all_to_all: rank r sends r + 1 + j elements to rank j
    sends = [T(*(100 * r + 10 * j + k for k in range(r + 1 + j))) for j in range(2)]
    recvs = [T(*[0] * (i + 1 + r)) for i in range(2)]
    ops.all_to_all(recvs, sends)
    out['all_to_all'] = [v.asnumpy().tolist() for v in recvs]
    single = T(*[0] * (2 + 2 * r))
    ops.all_to_all_single(single, T(*(10 * r + k for k in range(3))), [1 + r, 1 + r], [1, 2])
    out['single'] = single.asnumpy().tolist()
    vc = T(0, 0, 0)
    ops.all_to_all_v_c(vc, T(0, 1, 2) * r, [0, 3, 3, 0])
    out['v_c'] = vc.asnumpy().tolist()
    try:
        ops.all_to_all_single(T(0, 0), T(1, 2, 3))
    except ValueError as e:
        out['indivisible'] = str(e)
    ops.set_comm_ops_inplace(False)
    w = T(3.0, 5.0) * (r + 1)
    out['grad_all_reduce'] = ms.grad(lambda t: (ops.all_reduce(t)[0] *
                                                w).sum())(x).asnumpy().tolist()
    out['grad_gather'] = ms.grad(lambda t: (ops.all_gather_into_tensor(None, t)[0] *
                                            T(1, 2, 3, 4)).sum())(x).asnumpy().tolist()
    out['grad_a2a'] = ms.grad(lambda t: (ops.all_to_all_single(None, t)[0] *
                                         w).sum())(x).asnumpy().tolist()

    c = [[1, 3], [2, 1]]        # rank i sends c[i][j] elements to rank j

    def uneven(t):
        outs, _ = ops.all_to_all([(c[i][r],) for i in range(2)], [t[:c[r][0]], t[c[r][0]:]])
        weights = [T(*((r + 1) * (k + 1) + 10 * i for k in range(c[i][r]))) for i in range(2)]
        return (outs[0] * weights[0]).sum() + (outs[1] * weights[1]).sum()
    out['grad_uneven'] = ms.grad(uneven)(T(*range(sum(c[r])))).asnumpy().tolist()
    got, handle = ops.irecv(T(0, 0), 1 - r) if r == 0 else (None, ops.isend(x * 10, 0))
    handle.wait()
    out['irecv'] = None if got is None else got.asnumpy().tolist()
    ops.set_comm_ops_inplace(True)
    back = T(0, 0)
    handles = ops.batch_isend_irecv([ops.P2POp('isend', x, 1 - r),
                                     ops.P2POp(ops.irecv, back, 1 - r)])
    assert len(handles) == 1 and handles[0].wait() is None
    out['batch'] = back.asnumpy().tolist()
    if r == 0:
        assert ops.send(x * 2, 1) is None
        ops.send_object_list([{'step': 7}], 1)
    else:
        got = T(0, 0)
        assert ops.recv(got, 0) == 0
        out['recv'] = got.asnumpy().tolist()
        objects = [None]
        assert ops.recv_object_list(objects, 0) == 0
        out['objects'] = objects
    everyone = [None, None]
    ops.all_gather_object(everyone, {'rank': r})
    out['all_objects'] = everyone
    pair = ops.new_group([1, 0])
    z = T(r + 1.0)
    ops.all_reduce(z, group=pair)
    out['group'] = [pair, z.asnumpy().tolist(), ops.get_group_rank(pair, 1),
                    ops.get_global_rank(pair, 1), ops.get_process_group_ranks(pair)]
    for turn in range(2):
        if turn == r:
            print('RESULT ' + json.dumps(out), flush=True)
        ops.barrier()
    ops.destroy_process_group()
'''


@needs_mpi
def test_two_ranks():
    code, out, err = run_ranks(TWO_RANKS, n=2, timeout=90)
    assert code == 0, err
    r0, r1 = sorted((json.loads(line[7:]) for line in out.splitlines()
                     if line.startswith('RESULT ')), key=lambda r: r['rank'])
    x0, x1 = [1.0, 2.0], [2.0, -1.0]
    for r in (r0, r1):
        assert r['size'] == 2 and r['sum'] == [3.0, 1.0] and r['avg'] == [1.5, 0.5]
        assert r['gather'] == x0 + x1 and r['broadcast'] == x1
        assert r['all_objects'] == [{'rank': 0}, {'rank': 1}]
        assert r['group'] == ['hccl_2_' + hashlib.sha1(b'0_1').hexdigest(), [3.0], 1, 1, [0, 1]]
        # d(sum_r w_r * allreduce(x))/dx = allreduce(w): (3, 5) + (6, 10)
        assert r['grad_all_reduce'] == [9.0, 15.0]
    assert [r['scatter'] for r in (r0, r1)] == [[3.0], [1.0]]
    assert r0['gather_into'] == [0, 0, 0, 0] and r1['gather_into'] == x0 + x1
    assert [r['scatter_tensor'] for r in (r0, r1)] == [[2.0, 4.0], [6.0, 8.0]]
    # rank j receives from rank i the i + 1 + j elements 100 i + 10 j + k
    assert r0['all_to_all'] == [[0.0], [100.0, 101.0]]
    assert r1['all_to_all'] == [[10.0, 11.0], [110.0, 111.0, 112.0]]
    # rank 0 sends [0] to itself and [1, 2] to rank 1; rank 1 sends [10] to 0, [11, 12] to 1
    for r in (r0, r1):
        assert r['indivisible'] == 'input shape at dim 0 must be divided by world_size, but ' \
                                   'got 3 and 2.'
    assert r0['single'] == [0.0, 10.0] and r1['single'] == [1.0, 2.0, 11.0, 12.0]
    assert r0['v_c'] == [0.0, 1.0, 2.0] and r1['v_c'] == [0.0, 0.0, 0.0]
    # the gradient of a gather is the reduce-scatter (sum) of the gradient: (1, 2) + (3, 4) on
    # both ranks, each rank keeping its block
    assert r0['grad_gather'] == [2.0, 4.0] and r1['grad_gather'] == [6.0, 8.0]
    # the exchange sends element 1 of rank 0 to rank 1 and element 0 of rank 1 to rank 0: the
    # gradient comes back from the weights where the element landed
    assert r0['grad_a2a'] == [3.0, 6.0] and r1['grad_a2a'] == [5.0, 10.0]
    # rank r's element k of its piece to rank j is weighted (j + 1)(k + 1) + 10 r there
    assert r0['grad_uneven'] == [1.0, 2.0, 4.0, 6.0]
    assert r1['grad_uneven'] == [11.0, 12.0, 12.0]
    assert r0['irecv'] == [20.0, -10.0]
    assert r0['batch'] == x1 and r1['batch'] == x0
    assert r1['recv'] == [2.0, 4.0] and r1['objects'] == [{'step': 7}]


ON_A_DEVICE = '''
    import json
    import numpy as np
    import hookgrad as ms
    from hookgrad import ops
    ms.set_device('GPU')
    ops.init_process_group()
    r = ops.get_rank()
    T = lambda *v: ms.Tensor(np.array(v, np.float32))
    outs = [T(*[0] * (1 + r)), T(*[0] * (2 + r))]   # rank i sends i + 1 + j elements to rank j
    ops.all_to_all(outs, [T(*range(1 + r)) + 10 * r, T(*range(2 + r)) + 10 * r])
    ops.set_comm_ops_inplace(False)
    x = T(1.0, 2.0) * (r + 1)
    y, _ = ops.all_reduce(x)
    g = ms.grad(lambda t: (ops.all_to_all_single(None, t)[0] * T(3.0, 5.0)).sum())(x)
    out = {'rank': r, 'outs': [o.asnumpy().tolist() for o in outs], 'sum': y.asnumpy().tolist(),
           'grad': g.asnumpy().tolist(), 'devices': [outs[0].device, y.device, g.device]}
    for turn in range(2):
        if turn == r:
            print('RESULT ' + json.dumps(out), flush=True)
        ops.barrier()
'''


@needs_mpi
def test_tensors_on_a_device_travel_through_the_host():
    code, out, err = run_ranks(ON_A_DEVICE, n=2, timeout=90)
    assert code == 0, err
    r0, r1 = sorted((json.loads(line[7:]) for line in out.splitlines()
                     if line.startswith('RESULT ')), key=lambda r: r['rank'])
    assert r0['outs'] == [[0.0], [10.0, 11.0]] and r1['outs'] == [[0.0, 1.0], [10.0, 11.0, 12.0]]
    assert r0['sum'] == r1['sum'] == [3.0, 6.0]
    assert r0['grad'] == [3.0, 3.0] and r1['grad'] == [5.0, 5.0]
    assert all(d.startswith('GPU') for r in (r0, r1) for d in r['devices'])
