"""nn.DistributedGradReducer: a world of one, the bucketing, and two processes whose buckets
start from gradient hooks during backward."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.nn.wrap import grad_reducer
from tests.distributed.mpirun import needs_mpi, run_ranks


def _params(*shapes, dtype=np.float32):
    return [nn.Parameter(ms.Tensor(np.zeros(s, dtype)), name=f"p{i}")
            for i, s in enumerate(shapes)]


# ------------------------------------------------------------------------ one process
def test_world_of_one_returns_the_grads_given():
    net = nn.Dense(3, 2)
    reducer = nn.DistributedGradReducer(net.trainable_params())
    grads = (ms.ops.ones((2, 3)), ms.ops.ones((2,)))
    out = reducer(grads)
    assert out[0] is grads[0] and out[1] is grads[1]
    assert reducer.degree == 1 and reducer.stats['steps'] == 0


def test_world_of_one_divides_by_an_explicit_degree():
    net = nn.Dense(3, 2)
    reducer = nn.DistributedGradReducer(net.trainable_params(), mean=True, degree=4)
    out = reducer((ms.ops.ones((2, 3)) * 2, ms.ops.ones((2,))))
    np.testing.assert_array_equal(out[0].asnumpy(), np.full((2, 3), 0.5, np.float32))
    np.testing.assert_array_equal(out[1].asnumpy(), np.full((2,), 0.25, np.float32))
    summed = nn.DistributedGradReducer(net.trainable_params(), mean=False, degree=4)
    g = ms.ops.ones((2, 3))
    assert summed((g, g))[0] is g


def test_world_of_one_installs_no_hooks():
    net = nn.Dense(3, 2)
    nn.DistributedGradReducer(net.trainable_params())
    assert net.weight.hooks() == []


@pytest.mark.parametrize('degree', [0, -1, 1.5, True])
def test_bad_degree(degree):
    with pytest.raises(ValueError, match=r"For 'DistributedGradReducer', parameter 'degree' in "
                                         r"DistributedGradReducer should large than 0 and be "
                                         r"int, degree: "):
        nn.DistributedGradReducer([], degree=degree)


def test_bad_arguments():
    with pytest.raises(TypeError, match="parameters must be Parameters, got Tensor"):
        nn.DistributedGradReducer([ms.ops.ones((1,))])
    with pytest.raises(TypeError, match="mean must be a bool, got 1"):
        nn.DistributedGradReducer([], mean=1)
    with pytest.raises(TypeError, match="fusion_type must be an int, got '1'"):
        nn.DistributedGradReducer([], fusion_type='1')
    with pytest.raises(ValueError, match="bucket_bytes must be positive, got 0"):
        nn.DistributedGradReducer([], bucket_bytes=0)
    with pytest.raises(ValueError, match="communication group 'nope' does not exist"):
        nn.DistributedGradReducer([], group='nope')


def test_wrong_number_of_grads():
    reducer = nn.DistributedGradReducer(nn.Dense(3, 2).trainable_params(), degree=2)
    with pytest.raises(ValueError, match="got 1 gradients for 2 parameters"):
        reducer((ms.ops.ones((2, 3)),))


def test_mean_none_reads_gradients_mean():
    ms.set_auto_parallel_context(gradients_mean=True)
    try:
        assert nn.DistributedGradReducer([], mean=None).mean is True
    finally:
        ms.reset_auto_parallel_context()
    assert nn.DistributedGradReducer([], mean=None).mean is False


def test_bucket_bytes_from_the_environment(monkeypatch):
    assert nn.DistributedGradReducer([]).bucket_bytes == 25 * 2 ** 20
    monkeypatch.setenv('HOOKGRAD_BUCKET_MB', '0.5')
    assert nn.DistributedGradReducer([]).bucket_bytes == 2 ** 19
    assert nn.DistributedGradReducer([], bucket_bytes=1000).bucket_bytes == 1000
    monkeypatch.setenv('HOOKGRAD_BUCKET_MB', 'big')
    with pytest.raises(ValueError, match="HOOKGRAD_BUCKET_MB must be a number of megabytes, "
                                         "got 'big'"):
        nn.DistributedGradReducer([])


def test_buckets_in_order_closed_at_the_limit():
    shapes = [(10,), (20,), (5,), (30,), (1,)]
    dtypes = [np.dtype(np.float32)] * 5
    buckets = grad_reducer._make_buckets([4, 3, 2, 1, 0], shapes, dtypes, limit=100)
    assert [b.slots for b in buckets] == [[4, 3], [2, 1], [0]]
    assert [b.size for b in buckets] == [31, 25, 10]
    assert buckets[0].offsets == {4: (0, 1), 3: (1, 31)}


def test_buckets_hold_one_wire_dtype():
    shapes = [(4,), (4,), (4,)]
    dtypes = [np.dtype(np.float16), np.dtype(np.float64), np.dtype(np.float32)]
    buckets = grad_reducer._make_buckets([2, 1, 0], shapes, dtypes, limit=2 ** 20)
    assert sorted((b.slots, b.dtype.name) for b in buckets) == [
        ([1], 'float64'), ([2, 0], 'float32')]


# ------------------------------------------------------------------------ two processes
OVERLAP_SCRIPT = r'''
import json
import numpy as np
import hookgrad as ms
from hookgrad import nn
from hookgrad.communication import init, get_rank
init()
rank = get_rank()
ms.set_seed(3)
net = nn.SequentialCell([nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 8), nn.ReLU(), nn.Dense(8, 2)])
params = net.trainable_params()
# buckets of 64 bytes or more: each closes at its first weight
reducer = nn.DistributedGradReducer(params, mean=True, bucket_bytes=64, overlap=OVERLAP)
seen = []
net[2].weight.register_hook(lambda g: seen.append(float(g.asnumpy().sum())))
rng = np.random.default_rng(rank)
grad_fn = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None, params)
report = {'rank': rank, 'steps': []}
for step in range(3):
    x = ms.Tensor(rng.standard_normal((4, 6)).astype(np.float32))
    loss, grads = grad_fn(x)
    events = list(reducer.events)
    local = [g.asnumpy().copy() for g in grads]
    out = reducer(grads)
    report['steps'].append({
        'events': events, 'last': reducer.last_step,
        'local': [a.tolist() for a in local], 'reduced': [g.asnumpy().tolist() for g in out],
        'buckets': [b.slots for b in reducer.buckets]})
report['seen'] = seen
write_report(report)
'''


# each rank writes its report to a file (printed lines of two processes may interleave)
WRITE_REPORT = r'''
import json as _json, os as _os
def write_report(report):
    path = _os.path.join(_os.environ['REPORT_DIR'], f"rank{report['rank']}.json")
    with open(path, 'w') as f:
        _json.dump(report, f)
'''


def run_and_read(script, tmp_path, n=2):
    """Run ``script`` on ``n`` processes; the reports its ranks wrote, in rank order."""
    code, out, err = run_ranks(WRITE_REPORT + script, n=n, timeout=60,
                               env={'REPORT_DIR': str(tmp_path)})
    assert code == 0, f"{out}\n{err}"
    reports = []
    for rank in range(n):
        with open(os.path.join(tmp_path, f"rank{rank}.json")) as f:
            reports.append(json.load(f))
    return reports


@needs_mpi
def test_buckets_start_from_hooks_before_backward_ends(tmp_path):
    r0, r1 = run_and_read(OVERLAP_SCRIPT.replace('OVERLAP', 'True'), tmp_path)
    first = r0['steps'][0]
    # reverse parameter order (bias, weight of the last layer first), a bucket started by the
    # hook of its last gradient, before construct
    assert first['buckets'] == [[5, 4], [3, 2], [1, 0]]
    assert first['events'] == [['ready', 5], ['ready', 4], ['start', 0], ['ready', 3],
                               ['ready', 2], ['start', 1], ['ready', 1], ['ready', 0],
                               ['start', 2]]
    assert first['last']['buckets_in_backward'] == 3
    assert first['last']['bucket_sizes'] == [4 * (2 + 16), 4 * (8 + 64), 4 * (8 + 48)]
    assert first['last']['reduced_again'] == 0
    assert r1['steps'][0]['events'] == first['events']
    for step in range(3):
        a, b = r0['steps'][step], r1['steps'][step]
        for la, lb, ra, rb in zip(a['local'], b['local'], a['reduced'], b['reduced']):
            expect = (np.array(la, np.float32) + np.array(lb, np.float32)) / 2
            np.testing.assert_allclose(ra, expect, rtol=1e-6, atol=1e-7)
            assert ra == rb
    # the user hook registered after the reducer saw the local gradient
    assert r0['seen'] == pytest.approx([float(np.sum(s['local'][2])) for s in r0['steps']],
                                       rel=1e-5)


@needs_mpi
def test_without_overlap_every_bucket_starts_after_backward(tmp_path):
    r0, r1 = run_and_read(OVERLAP_SCRIPT.replace('OVERLAP', 'False'), tmp_path)
    for r in (r0, r1):
        first = r['steps'][0]
        assert [e[0] for e in first['events']] == ['ready'] * 6
        assert first['last']['buckets_in_backward'] == 0
    a, b = r0['steps'][2], r1['steps'][2]
    expect = (np.array(a['local'][0]) + np.array(b['local'][0])) / 2
    np.testing.assert_allclose(a['reduced'][0], expect, rtol=1e-6, atol=1e-7)


CHANGED_SCRIPT = r'''
import json
import numpy as np
import hookgrad as ms
from hookgrad import nn
from hookgrad.communication import init, get_rank
init()
rank = get_rank()
net = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')
params = net.trainable_params()
reducer = nn.DistributedGradReducer(params, mean=False)
grad_fn = ms.value_and_grad(lambda x: net(x).sum(), None, params)
x = ms.Tensor(np.full((1, 3), rank + 1, np.float32))
_, grads = grad_fn(x)
scaled = tuple(g * 10 for g in grads)          # changed after the hooks copied them
out = reducer(scaled)
# a second backward before the reducer is called: the first one's buckets are dropped
grad_fn(x)
_, grads = grad_fn(x)
out2 = reducer(grads)
write_report({'rank': rank, 'again': reducer.stats['reduced_again'],
              'w': out[0].asnumpy().tolist(), 'w2': out2[0].asnumpy().tolist(),
              'order': [b.slots for b in reducer.buckets]})
'''


@needs_mpi
def test_gradients_changed_after_their_hook_are_reduced_again(tmp_path):
    r0, r1 = run_and_read(CHANGED_SCRIPT, tmp_path)
    # x is 1 on rank 0 and 2 on rank 1: summed weight gradients 3, times 10
    assert r0['w'] == r1['w'] == [[30.0] * 3] * 2
    assert r0['again'] == 1
    assert r0['w2'] == [[3.0] * 3] * 2
    # the order observed in the first step (bias first) buckets the later steps
    assert r0['order'] == r1['order'] == [[1, 0]]
