"""``mindspore.parallel.parameter_broadcast`` on 2 MPI processes: every rank ends with the
values of ``initial_rank`` for the parameters the layout names, and keeps its own for the rest."""
import json

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import communication as comm
from tests.distributed.mpirun import needs_mpi, run_ranks

TWO_RANKS = '''
import json
import numpy as np
import hookgrad.compat
ms = hookgrad.compat.alias_mindspore()
from mindspore.communication import init, get_rank
from mindspore.parallel import parameter_broadcast
init()
rank = get_rank()
net = ms.nn.Dense(2, 2)
net.weight.set_data(ms.Tensor(np.full((2, 2), rank + 1.0, np.float32)))
net.bias.set_data(ms.Tensor(np.full((2,), 10.0 * (rank + 1), np.float32)))
parameter_broadcast(net, {'weight': None}, cur_rank=rank, initial_rank=1)
print(json.dumps({'rank': rank, 'weight': net.weight.asnumpy().tolist(),
                  'bias': net.bias.asnumpy().tolist()}))
'''


def _objects(out):
    """The JSON objects the ranks printed (mpiexec may join their lines)."""
    decoder, i, found = json.JSONDecoder(), out.find('{'), []
    while i >= 0:
        obj, end = decoder.raw_decode(out, i)
        found.append(obj)
        i = out.find('{', end)
    return found


@needs_mpi
def test_parameter_broadcast_two_ranks():
    code, out, err = run_ranks(TWO_RANKS, n=2, timeout=60)
    assert code == 0, err
    got = {d['rank']: d for d in _objects(out)}
    assert sorted(got) == [0, 1]
    for rank in (0, 1):
        assert got[rank]['weight'] == [[2.0, 2.0], [2.0, 2.0]]          # rank 1's
        assert got[rank]['bias'] == [10.0 * (rank + 1)] * 2              # not in the layout


@pytest.fixture
def alone():
    comm.release()
    comm.init()
    yield
    comm.release()


def test_parameter_broadcast_one_process_keeps_values(alone):
    from hookgrad.parallel import parameter_broadcast
    net = ms.nn.Dense(2, 2)
    before = net.weight.asnumpy().copy()
    parameter_broadcast(net, {'weight': None})
    np.testing.assert_array_equal(net.weight.asnumpy(), before)
