"""``mindspore.mint.distributed``: PyTorch-style collectives on hookgrad's MPI world, on one
process and on two (mpiexec), with MindSpore 2.10's argument errors."""
import json
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import communication as comm
from hookgrad.mint import distributed as dist
from tests.distributed.mpirun import needs_mpi, run_ranks


@pytest.fixture
def alone():
    comm.release()
    dist.init_process_group()
    yield
    dist.destroy_process_group()


def test_before_init_rank_and_size_are_minus_one_with_a_warning():
    comm.release()
    assert dist.is_available() and not dist.is_initialized()
    with pytest.warns(UserWarning, match='Distributed Communication has not been inited'):
        assert dist.get_rank() == -1
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert dist.get_world_size() == -1


def test_one_process_world(alone):
    assert dist.is_initialized() and dist.get_backend() == 'hccl'
    assert (dist.get_rank(), dist.get_world_size()) == (0, 1)
    assert dist.get_process_group_ranks() == [0]
    assert dist.get_global_rank(None, 0) == 0 and dist.get_group_rank(None, 0) == 0
    x = ms.Tensor(np.array([1.0, -2.0], np.float32))
    assert dist.all_reduce(x) is None
    np.testing.assert_array_equal(x.asnumpy(), [1.0, -2.0])
    assert dist.all_reduce(x, 'avg', async_op=True).wait()
    out = ms.Tensor(np.zeros(2, np.float32))
    dist.all_gather_into_tensor(out, x)
    np.testing.assert_array_equal(out.asnumpy(), [1.0, -2.0])
    pieces = [ms.Tensor(np.zeros(2, np.float32))]
    dist.all_gather(pieces, x)
    np.testing.assert_array_equal(pieces[0].asnumpy(), [1.0, -2.0])
    dist.broadcast(x, 0)
    dist.barrier()
    dist.reduce(x, 0)
    bucket = [ms.Tensor(np.zeros(2, np.float32))]
    dist.gather(x, bucket)
    dist.scatter(out, [ms.Tensor(np.array([5.0, 6.0], np.float32))])
    np.testing.assert_array_equal(out.asnumpy(), [5.0, 6.0])
    objects = []
    dist.all_gather_object(objects, {'a': 1})
    assert objects == [{'a': 1}]
    items = [1, 'two']
    dist.broadcast_object_list(items)
    assert items == [1, 'two']


@pytest.mark.parametrize('call,exc,match', [
    (lambda: dist.init_process_group('nccl'), ValueError,
     'Only support hccl now, please setting backend to hccl or using default value'),
    (lambda: dist.all_reduce(np.ones(2)), TypeError, 'For all_reduce, the input tensor must be '
                                                     'tensor'),
    (lambda: dist.all_reduce(ms.Tensor([1.0]), op=1), TypeError,
     'For all_reduce, the input op type must be str'),
    (lambda: dist.all_reduce(ms.Tensor([1.0]), op='mean'), TypeError,
     'For all_reduce, the input op value must be one of sum, prod, min, max, avg'),
    (lambda: dist.all_reduce(ms.Tensor([1.0]), async_op=1), TypeError,
     "The argument 'async_op' must be a bool, but got <class 'int'>."),
    (lambda: dist.get_rank(3), TypeError, "For 'get_rank', the argument 'group' must be type of "
                                          "string, but got 'group' type : <class 'int'>."),
    (lambda: dist.get_group_rank(None, 5), ValueError, 'global rank 5 is not in group'),
])
def test_errors(alone, call, exc, match):
    with pytest.raises(exc, match=match.replace('(', r'\(').replace(')', r'\)')):
        call()


TWO_RANKS = '''
    import json
    import numpy as np
    import hookgrad as ms
    from hookgrad.mint import distributed as dist
    dist.init_process_group()
    r = dist.get_rank()
    out = {'rank': r, 'size': dist.get_world_size()}
    x = ms.Tensor(np.array([r + 1.0, 2.0 - 3 * r], np.float32))
    for op in ('sum', 'max', 'min', 'prod', 'avg'):
        y = ms.Tensor(x.asnumpy())
        dist.all_reduce(y, op)
        out[op] = y.asnumpy().tolist()
    b = ms.Tensor(x.asnumpy())
    dist.broadcast(b, 1)
    out['broadcast'] = b.asnumpy().tolist()
    g = ms.Tensor(np.zeros(4, np.float32))
    dist.all_gather_into_tensor(g, x)
    out['gather'] = g.asnumpy().tolist()
    pieces = [ms.Tensor(np.zeros(2, np.float32)) for _ in range(2)]
    dist.all_gather(pieces, x)
    out['pieces'] = [p.asnumpy().tolist() for p in pieces]
    s = ms.Tensor(np.zeros(1, np.float32))
    dist.reduce_scatter_tensor(s, x)
    out['scatter'] = s.asnumpy().tolist()
    y = ms.Tensor(x.asnumpy())
    dist.reduce(y, 1, 'max')
    out['reduce'] = y.asnumpy().tolist()
    bucket = [ms.Tensor(np.zeros(2, np.float32)) for _ in range(2)]
    dist.gather(x, bucket, dst=0)
    out['gather_list'] = [b.asnumpy().tolist() for b in bucket]
    z = ms.Tensor(np.zeros(2, np.float32))
    dist.scatter(z, [ms.Tensor(np.full(2, 10.0 * k + r, np.float32)) for k in range(2)], src=1)
    out['scattered'] = z.asnumpy().tolist()
    w = ms.Tensor(np.zeros(2, np.float32))
    dist.reduce_scatter(w, [x, ms.Tensor(x.asnumpy() * 10)])
    out['reduce_scatter'] = w.asnumpy().tolist()
    recv = [ms.Tensor(np.zeros(1, np.float32)) for _ in range(2)]
    dist.all_to_all(recv, [ms.Tensor(np.array([10.0 * r + k], np.float32)) for k in range(2)])
    out['all_to_all'] = [v.asnumpy().tolist() for v in recv]
    single = ms.Tensor(np.zeros(2, np.float32))
    dist.all_to_all_single(single, ms.Tensor(np.array([10.0 * r, 10.0 * r + 1], np.float32)))
    out['all_to_all_single'] = single.asnumpy().tolist()
    objects = [None, None]
    dist.all_gather_object(objects, {'rank': r, 'word': 'ab' * (r + 1)})
    out['objects'] = objects
    gathered = []
    dist.gather_object(('r', r), gathered, dst=1)
    out['gathered_objects'] = gathered
    shared = ['mine', r] if r == 1 else [None, None]
    dist.broadcast_object_list(shared, src=1)
    out['broadcast_objects'] = shared
    pair = dist.new_group([0, 1])
    in_group = ms.Tensor(np.array([r + 1.0], np.float32))
    dist.all_reduce(in_group, group=pair)
    out['group'] = [in_group.asnumpy().tolist(), dist.get_rank(pair),
                    dist.get_world_size(pair), dist.get_process_group_ranks(pair),
                    dist.get_global_rank(pair, 1), dist.get_group_rank(pair, 0)]
    uneven = ms.Tensor(np.zeros(3, np.float32))
    dist.all_gather_into_tensor_uneven(uneven, ms.Tensor(np.arange(r + 1, dtype=np.float32) + r),
                                       [1, 2])
    out['uneven_gather'] = uneven.asnumpy().tolist()
    part = ms.Tensor(np.zeros(2 - r, np.float32))
    values = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32) * (r + 1))
    dist.reduce_scatter_tensor_uneven(part, values, [2, 1])
    out['uneven_scatter'] = part.asnumpy().tolist()
    mine = [None]
    dist.scatter_object_list(mine, [{'to': 0}, {'to': 1}] if r == 0 else None, src=0)
    out['scattered_object'] = mine[0]
    for turn in range(2):       # one rank at a time, so the two lines do not interleave
        if turn == r:
            print('RESULT ' + json.dumps(out), flush=True)
        dist.barrier()
    dist.destroy_process_group()
'''


SYNC_BATCH_NORM = '''
    import json
    import numpy as np
    import hookgrad as ms
    from hookgrad import mint
    from hookgrad.mint import distributed as dist
    dist.init_process_group()
    r = dist.get_rank()
    x = np.sin(np.arange(4 * 3 * 2, dtype=np.float32)).reshape(4, 3, 2)
    w = np.cos(np.arange(4 * 3 * 2, dtype=np.float32)).reshape(4, 3, 2)
    out = {'rank': r}
    for name, layer, part in (('sync', mint.nn.SyncBatchNorm(3), slice(2 * r, 2 * r + 2)),
                              ('whole', mint.nn.BatchNorm1d(3), slice(0, 4))):
        layer.set_train(True)
        xs = ms.Tensor(x[part])
        y = layer(xs)
        g = ms.grad(lambda t: (layer(t) * ms.Tensor(w[part])).sum())(xs)
        out[name] = [y.asnumpy().tolist(), g.asnumpy().tolist(),
                     layer.running_mean.asnumpy().tolist(), layer.running_var.asnumpy().tolist()]
    for turn in range(2):
        if turn == r:
            print('RESULT ' + json.dumps(out), flush=True)
        dist.barrier()
'''


@needs_mpi
def test_sync_batch_norm_on_two_ranks_is_batch_norm_of_the_whole_batch():
    code, out, err = run_ranks(SYNC_BATCH_NORM, n=2, timeout=90)
    assert code == 0, err
    results = sorted((json.loads(line[7:]) for line in out.splitlines()
                      if line.startswith('RESULT ')), key=lambda r: r['rank'])
    assert len(results) == 2
    for r in results:
        part = slice(2 * r['rank'], 2 * r['rank'] + 2)
        y, g, mean, var = r['sync']
        wy, wg, wmean, wvar = r['whole']
        np.testing.assert_allclose(y, np.array(wy)[part], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(g, np.array(wg)[part], rtol=1e-4, atol=1e-5)
        # two training calls each (the forward and the one inside grad) move the statistics
        np.testing.assert_allclose(mean, wmean, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(var, wvar, rtol=1e-5)


@needs_mpi
def test_two_ranks():
    code, out, err = run_ranks(TWO_RANKS, n=2, timeout=90)
    assert code == 0, err
    results = sorted((json.loads(line[7:]) for line in out.splitlines()
                      if line.startswith('RESULT ')), key=lambda r: r['rank'])
    assert [r['rank'] for r in results] == [0, 1] and results[0]['size'] == 2
    x0, x1 = [1.0, 2.0], [2.0, -1.0]
    for r in results:
        assert r['sum'] == [3.0, 1.0] and r['max'] == [2.0, 2.0] and r['min'] == [1.0, -1.0]
        assert r['prod'] == [2.0, -2.0] and r['avg'] == [1.5, 0.5]
        assert r['broadcast'] == x1 and r['gather'] == x0 + x1 and r['pieces'] == [x0, x1]
    assert [r['scatter'] for r in results] == [[3.0], [1.0]]
    assert results[0]['reduce'] == x0 and results[1]['reduce'] == [2.0, 2.0]
    assert results[0]['gather_list'] == [x0, x1] and results[1]['gather_list'] == [[0, 0]] * 2
    assert [r['scattered'] for r in results] == [[1.0, 1.0], [11.0, 11.0]]
    assert [r['reduce_scatter'] for r in results] == [[3.0, 1.0], [30.0, 10.0]]
    assert [r['all_to_all'] for r in results] == [[[0.0], [10.0]], [[1.0], [11.0]]]
    assert [r['all_to_all_single'] for r in results] == [[0.0, 10.0], [1.0, 11.0]]
    for r in results:
        assert r['objects'] == [{'rank': 0, 'word': 'ab'}, {'rank': 1, 'word': 'abab'}]
        assert r['broadcast_objects'] == ['mine', 1]
    assert results[0]['gathered_objects'] == [] and \
        results[1]['gathered_objects'] == [['r', 0], ['r', 1]]
    assert [r['scattered_object'] for r in results] == [{'to': 0}, {'to': 1}]
    assert [r['uneven_gather'] for r in results] == [[0.0, 1.0, 2.0]] * 2
    assert [r['group'] for r in results] == [[[3.0], 0, 2, [0, 1], 1, 0],
                                             [[3.0], 1, 2, [0, 1], 1, 0]]
    assert [r['uneven_scatter'] for r in results] == [[3.0, 6.0], [9.0]]


POINT_TO_POINT = '''
    import json
    import os
    import numpy as np
    import hookgrad as ms
    from hookgrad.mint import distributed as dist
    if os.environ.get('ON_GPU'):
        ms.set_device('GPU')
    dist.init_process_group()
    r, peer = dist.get_rank(), 1 - dist.get_rank()
    out = {'rank': r}
    mine = ms.Tensor(np.array([r + 1.0, 10.0 * r], np.float32))
    got = ms.Tensor(np.zeros(2, np.float32))
    if r == 0:
        assert dist.send(mine, dst=1) == 0
        assert dist.recv(got, src=1) == 0
    else:
        assert dist.recv(got, src=0) == 0
        assert dist.send(mine, dst=0) == 0
    out['recv'] = got.asnumpy().tolist()
    out['device'] = got.device
    back = ms.Tensor(np.zeros(2, np.float32))
    handles = dist.batch_isend_irecv([dist.P2POp(dist.isend, mine * 2, peer, tag=3),
                                      dist.P2POp(dist.irecv, back, peer, tag=3)])
    assert all(h.wait() for h in handles)
    out['batch'] = back.asnumpy().tolist()
    if r == 0:
        dist.send_object_list([{'step': 7}, 'text'], dst=1)
    else:
        objects = [None, None]
        dist.recv_object_list(objects, src=0)
        out['objects'] = objects
    print('RESULT ' + json.dumps(out), flush=True)
    dist.destroy_process_group()
'''


@needs_mpi
@pytest.mark.parametrize('device', ['CPU', 'GPU'])
def test_point_to_point_on_two_ranks(device):
    env = {'ON_GPU': '1'} if device == 'GPU' else {}
    code, out, err = run_ranks(POINT_TO_POINT, n=2, timeout=90, env=env)
    assert code == 0, err
    r0, r1 = sorted((json.loads(line[7:]) for line in out.splitlines()
                     if line.startswith('RESULT ')), key=lambda r: r['rank'])
    assert r0['recv'] == [2.0, 10.0] and r1['recv'] == [1.0, 0.0]
    assert r0['batch'] == [4.0, 20.0] and r1['batch'] == [2.0, 0.0]
    assert r1['objects'] == [{'step': 7}, 'text']
    assert r0['device'].startswith(device)


def test_point_to_point_needs_a_peer(alone):
    x = ms.Tensor(np.zeros(2, np.float32))
    with pytest.raises(RuntimeError, match="point-to-point communication needs several "
                                           "processes"):
        dist.send(x, dst=1)
    with pytest.raises(TypeError, match="For isend, the input tensor must be tensor"):
        dist.isend([1.0], dst=1)
    with pytest.raises(TypeError, match="op must be mindspore.mint.distributed.isend or irecv"):
        dist.P2POp(dist.send, x, 1)
