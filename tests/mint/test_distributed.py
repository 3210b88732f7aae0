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
    for turn in range(2):       # one rank at a time, so the two lines do not interleave
        if turn == r:
            print('RESULT ' + json.dumps(out), flush=True)
        dist.barrier()
    dist.destroy_process_group()
'''


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
