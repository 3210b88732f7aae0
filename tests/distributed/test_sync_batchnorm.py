"""nn.SyncBatchNorm: BatchNorm in one process; over two processes, the statistics and input
gradients of the whole batch."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from tests.distributed.mpirun import needs_mpi
from tests.distributed.test_grad_reducer import run_and_read


def test_one_process_is_batchnorm():
    rng = np.random.default_rng(0)
    x = ms.Tensor((rng.standard_normal((4, 3, 2, 2)) * 3 + 1).astype(np.float32))
    sync, plain = nn.SyncBatchNorm(3).set_train(), nn.BatchNorm2d(3).set_train()
    assert sync.group_name is None
    np.testing.assert_allclose(sync(x).asnumpy(), plain(x).asnumpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(sync.moving_variance.asnumpy(),
                               plain.moving_variance.asnumpy(), rtol=1e-6)


def test_process_groups_checked():
    with pytest.raises(TypeError, match="'process_groups' must be a list of lists"):
        nn.SyncBatchNorm(2, process_groups=[0, 1])
    with pytest.raises(ValueError, match=r"rank id in 'process_groups' must be an int in "
                                         r"\[0, 1\), but got 1"):
        nn.SyncBatchNorm(2, process_groups=[[0, 1]])
    with pytest.raises(ValueError, match="must not be duplicated"):
        nn.SyncBatchNorm(2, process_groups=[[0], [0]])
    assert nn.SyncBatchNorm(2, process_groups=[[0]]).group_name is None


def test_bad_input_names_the_layer():
    bn = nn.SyncBatchNorm(3).set_train()
    with pytest.raises(ValueError, match="expected 3 channels on axis 1"):
        bn(ms.ops.ones((2, 4)))


SCRIPT = r'''
import numpy as np
import hookgrad as ms
from hookgrad import nn
from hookgrad.communication import init, get_rank
init()
rank = get_rank()
rng = np.random.default_rng(0)
x = (rng.standard_normal((8, 3, 4, 4)) * 2 + 1).astype(np.float32)
gy = rng.standard_normal((8, 3, 4, 4)).astype(np.float32)
share = slice(4 * rank, 4 * rank + 4)

def run(bn, x, gy):
    fn = ms.value_and_grad(lambda x: (bn(x) * ms.Tensor(gy)).sum(), 0, bn.trainable_params())
    y, (gx, gp) = fn(ms.Tensor(x))
    return gx.asnumpy(), [p.asnumpy() for p in gp]

sync = nn.SyncBatchNorm(3, process_groups=GROUPS).set_train()
gx, gp = run(sync, x[share], gy[share])
whole = nn.BatchNorm2d(3).set_train()
gx_b, gp_b = run(whole, x, gy)
half = nn.BatchNorm2d(3).set_train()
gx_h, gp_h = run(half, x[share], gy[share])
moving = (sync.moving_mean.asnumpy(), sync.moving_variance.asnumpy())
y = sync(ms.Tensor(x[share])).asnumpy()
write_report({'rank': rank, 'group': sync.group_name,
              'gx_whole': float(np.abs(gx - gx_b[share]).max()),
              'gx_half': float(np.abs(gx - gx_h).max()),
              'gp_local_half': float(max(np.abs(a - b).max() for a, b in zip(gp, gp_h))),
              'mean_whole': float(np.abs(moving[0] - whole.moving_mean.asnumpy()).max()),
              'var_whole': float(np.abs(moving[1] - whole.moving_variance.asnumpy()).max()),
              'y_mean': float(np.abs(y.mean(axis=(0, 2, 3))).max())})
'''


@needs_mpi
def test_two_processes_match_one_with_the_whole_batch(tmp_path):
    for r in run_and_read(SCRIPT.replace('GROUPS', 'None'), tmp_path):
        assert r['group'] == 'world'
        assert r['gx_whole'] < 1e-6
        assert r['gx_half'] > 1e-3             # differs from normalizing the share alone
        assert r['mean_whole'] < 1e-6 and r['var_whole'] < 1e-5
        assert r['y_mean'] > 1e-3              # a share is not centred by the whole's mean


@needs_mpi
def test_process_groups_of_one_normalize_locally(tmp_path):
    for r in run_and_read(SCRIPT.replace('GROUPS', '[[0], [1]]'), tmp_path):
        assert r['group'] is None
        assert r['gx_half'] < 1e-6 and r['gp_local_half'] < 1e-5
        assert r['gx_whole'] > 1e-3
