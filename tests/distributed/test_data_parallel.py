"""Data-parallel training: two processes with half the batch each end where one process with
the whole batch ends, through TrainOneStepCell and Model.train; checkpoints come from rank 0
alone; nan_guard reports name the rank."""
import os

import hookgrad as ms
from hookgrad import nn
from tests.distributed.mpirun import needs_mpi
from tests.distributed.test_grad_reducer import run_and_read


def test_one_process_trains_without_a_reducer():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True)
    try:
        net = nn.Dense(3, 1)
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                    nn.SGD(net.trainable_params(), 0.1))
        assert train.reducer_flag is False and isinstance(train.grad_reducer, nn.Identity)
    finally:
        ms.reset_auto_parallel_context()


def test_one_process_saves_checkpoints_in_data_parallel_mode(tmp_path):
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    try:
        ms.save_checkpoint(nn.Dense(2, 1), str(tmp_path / 'net'))
    finally:
        ms.reset_auto_parallel_context()
    assert os.listdir(tmp_path) == ['net.ckpt']


def test_one_process_report_names_no_rank():
    report = ms.debug.AnomalyReport('forward', 'Log', None, 0, None, ((1,),), ((1,),), 1, 0, 0)
    assert report.rank is None and str(report).startswith('nan_guard: 1 NaN')


COMMON = r'''
import numpy as np
import hookgrad as ms
from hookgrad import nn
from hookgrad.communication import init, get_rank
init()
rank = get_rank()
rng = np.random.default_rng(0)
B, STEPS = 8, 4
X = rng.standard_normal((STEPS, B, 3, 4, 4)).astype(np.float32)
Y = rng.standard_normal((STEPS, B, 2)).astype(np.float32)
share = slice(B // 2 * rank, B // 2 * rank + B // 2)

class Net(nn.Cell):
    def __init__(self, bn):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, weight_init='he_uniform')
        self.bn = bn(4)
        self.fc = nn.Dense(64, 2)
    def construct(self, x):
        return self.fc(ms.ops.relu(self.bn(self.conv(x))).reshape(x.shape[0], -1))

class Halves(nn.Cell):
    """The network on each half of the batch (its own BatchNorm statistics), as 2 ranks."""
    def __init__(self, net):
        super().__init__(auto_prefix=False)
        self.net = net
    def construct(self, x):
        h = x.shape[0] // 2
        return ms.ops.concat((self.net(x[:h]), self.net(x[h:])))

def make(bn):
    ms.set_seed(7)
    return Net(bn)

def params(net):
    return {p.name: p.asnumpy() for p in net.trainable_params()}

def compare(a, b):
    return max(float(np.abs(a[k] - b[k]).max()) for k in a)
'''

TRAIN_ONE_STEP = COMMON + r'''
def train(net, x_of_step, y_of_step):
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    for i in range(STEPS):
        step(ms.Tensor(x_of_step(i)), ms.Tensor(y_of_step(i)))
    return step

ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
results = {'rank': rank}
for bn, name in ((nn.BatchNorm2d, 'bn'), (nn.SyncBatchNorm, 'sync')):
    net = make(bn)
    step = train(net, lambda i: X[i][share], lambda i: Y[i][share])
    results[name + '_flag'] = step.reducer_flag
    results[name + '_hidden'] = step.grad_reducer.stats['buckets_in_backward']
    results[name] = params(net)
ms.reset_auto_parallel_context()
ref = make(nn.BatchNorm2d)
train(Halves(ref), lambda i: X[i], lambda i: Y[i])
whole = make(nn.BatchNorm2d)
train(whole, lambda i: X[i], lambda i: Y[i])
moved = compare(results['bn'], params(make(nn.BatchNorm2d)))
write_report({'rank': rank, 'bn_flag': results['bn_flag'], 'hidden': results['bn_hidden'],
              'bn_vs_halves': compare(results['bn'], params(ref)),
              'bn_vs_whole': compare(results['bn'], params(whole)),
              'sync_vs_whole': compare(results['sync'], params(whole)), 'moved': moved})
'''


@needs_mpi
def test_train_one_step_cell_matches_one_process(tmp_path):
    for r in run_and_read(TRAIN_ONE_STEP, tmp_path):
        assert r['bn_flag'] is True and r['hidden'] == 4     # one bucket a step, in backward
        assert r['moved'] > 1e-2                              # training changed the parameters
        assert r['bn_vs_halves'] < 2e-6                       # per-rank BatchNorm statistics
        assert r['bn_vs_whole'] > 1e-4
        assert r['sync_vs_whole'] < 2e-6                      # SyncBatchNorm: the whole batch


MODEL_TRAIN = COMMON + r'''
import os
from hookgrad import dataset as ds
from hookgrad.train import Model, ModelCheckpoint, CheckpointConfig
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
data = ds.NumpySlicesDataset({'x': X.reshape(-1, 3, 4, 4), 'y': Y.reshape(-1, 2)},
                             shuffle=False, num_shards=2, shard_id=rank)
data = data.batch(B // 2)
net = make(nn.SyncBatchNorm)
model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
ckpt = ModelCheckpoint('dp', os.environ['REPORT_DIR'] + '/ckpt',
                       CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=1))
model.train(1, data, callbacks=[ckpt])
ms.reset_auto_parallel_context()
whole = make(nn.BatchNorm2d)
# the shards take rows rank, rank + 2, ...: the same rows in each step of one process
order = np.concatenate([np.arange(r, STEPS * B, 2) for r in (0, 1)])
xs, ys = X.reshape(-1, 3, 4, 4), Y.reshape(-1, 2)
step = nn.TrainOneStepCell(nn.WithLossCell(whole, nn.MSELoss()),
                           nn.Momentum(whole.trainable_params(), 0.05, 0.9)).set_train()
for i in range(STEPS):
    rows = np.concatenate([order[i * B // 2:(i + 1) * B // 2],
                           order[STEPS * B // 2 + i * B // 2:STEPS * B // 2 + (i + 1) * B // 2]])
    step(ms.Tensor(xs[rows]), ms.Tensor(ys[rows]))
write_report({'rank': rank, 'vs_whole': compare(params(net), params(whole)),
              'latest': ckpt.latest_ckpt_file_name})
'''


@needs_mpi
def test_model_train_matches_one_process_and_rank_0_writes_checkpoints(tmp_path):
    r0, r1 = run_and_read(MODEL_TRAIN, tmp_path)
    assert r0['vs_whole'] < 2e-6 and r1['vs_whole'] < 2e-6
    # keep_checkpoint_max=1: rank 0 kept the last file; rank 1 wrote and deleted nothing
    assert sorted(os.listdir(tmp_path / 'ckpt')) == ['dp-1_4.ckpt']
    assert r0['latest'].endswith('dp-1_4.ckpt') and r1['latest'] == ''
    loaded = ms.load_checkpoint(str(tmp_path / 'ckpt' / 'dp-1_4.ckpt'))
    assert 'fc.weight' in loaded


CHECKPOINT_AND_GUARD = r'''
import os
import warnings
import numpy as np
import hookgrad as ms
from hookgrad import nn
from hookgrad.communication import init, get_rank
init()
rank = get_rank()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
ms.save_checkpoint(net, os.path.join(os.environ['REPORT_DIR'], 'net.ckpt'))
errors = []
try:
    ms.save_checkpoint(net, os.path.join(os.environ['REPORT_DIR'], 'missing', 'net.ckpt'))
except FileNotFoundError as e:
    errors.append(type(e).__name__)
seen = []
net.weight.register_hook(lambda g: seen.append(float(g.asnumpy().sum())))
with ms.debug.nan_guard(net, action='record') as guard:
    x = ms.Tensor(np.array([[1.0, -1.0 if rank else 1.0]], np.float32))
    ms.grad(lambda x: ms.ops.log(net(x) - 1).sum(), None, net.trainable_params())(x)
write_report({'rank': rank, 'errors': errors, 'seen': seen,
              'reports': [str(r) for r in guard.reports]})
'''


@needs_mpi
def test_rank_0_writes_checkpoints_and_reports_name_the_rank(tmp_path):
    r0, r1 = run_and_read(CHECKPOINT_AND_GUARD, tmp_path)
    assert sorted(f for f in os.listdir(tmp_path) if not f.endswith('.json')) == ['net.ckpt']
    assert not [f for f in os.listdir(tmp_path) if f.startswith('.') or 'tmp' in f]
    assert r0['errors'] == r1['errors'] == ['FileNotFoundError']     # checked on every rank
    assert r0['seen'] == [2.0] and r1['seen'] == [0.0]                # hooks ran on each rank
    assert r0['reports'] == []                      # log(2 - 1) = 0 on rank 0: finite
    assert len(r1['reports']) == 1 and r1['reports'][0].startswith("rank 1: nan_guard: ")


def _on_the_gpu(script):
    """``script`` with every tensor and parameter on the GPU, and a report of where they are."""
    return script.replace("rank = get_rank()\n", "rank = get_rank()\nms.set_device('GPU')\n",
                          1).replace("def params(net):\n", "def params(net):\n    assert all("
                                     "p.device == 'GPU:0' for p in net.trainable_params())\n", 1)


@needs_mpi
def test_data_parallel_on_the_gpu_matches_one_process(tmp_path):
    """The same on GPU tensors (the CUDA stand-in here): gradients and SyncBatchNorm's
    statistics travel through the host between the ranks' devices."""
    for r in run_and_read(_on_the_gpu(TRAIN_ONE_STEP), tmp_path):
        assert r['bn_flag'] is True and r['hidden'] == 4
        assert r['moved'] > 1e-2
        assert r['bn_vs_halves'] < 2e-6
        assert r['bn_vs_whole'] > 1e-4
        assert r['sync_vs_whole'] < 2e-6


@needs_mpi
def test_model_train_on_the_gpu_matches_one_process(tmp_path):
    r0, r1 = run_and_read(_on_the_gpu(MODEL_TRAIN), tmp_path)
    assert r0['vs_whole'] < 2e-6 and r1['vs_whole'] < 2e-6
    assert sorted(os.listdir(tmp_path / 'ckpt')) == ['dp-1_4.ckpt']
