"""The debugging tools on the GPU: each gives the CPU's results, keeps its statistics on the
device, and reads back only what it reports (nan_guard and StatsRecorder: one read per step;
GradCAM: the heatmaps; dump: each tensor it writes)."""
import json

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.debug import (AnomalyError, StatsRecorder, compare, dump, nan_guard, profile,
                            summary, trace)
from hookgrad.explain import GradCAM

from .common import (GPU, Reads, assert_close, assert_on_gpu, assert_reads, both, host, on)

pytestmark = pytest.mark.filterwarnings('ignore::RuntimeWarning')     # the planted faults
STEPS = 3


class Fn(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, x):
        return self.fn(x)


class Net(nn.Cell):
    def __init__(self, inner=None):
        super().__init__()
        self.dense = nn.Dense(4, 6)
        self.act = nn.Tanh()
        self.inner = inner if inner is not None else nn.ReLU()
        self.out = nn.Dense(6, 3)

    def construct(self, x):
        return self.out(self.inner(self.act(self.dense(x))))


def data(seed=0):
    rng = np.random.default_rng(seed)
    return (ms.Tensor(rng.standard_normal((5, 4)).astype(np.float32)),
            ms.Tensor(rng.integers(0, 3, 5).astype(np.int32)))


def make_step(net):
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss
    return step


# --------------------------------------------------------------------------- nan_guard
def guarded_steps(inner=None, steps=STEPS, **kwargs):
    """The reports of ``steps`` guarded training steps and the host reads of each step."""
    net = Net(Fn(inner) if inner is not None else None)
    step = make_step(net)
    reads = []
    with nan_guard(net, action='record', **kwargs) as guard:
        for i in range(steps):
            x, y = data(i)
            with Reads() as r:
                step(x, y)
            reads.append(r.total)
    return guard.reports, reads


def test_nan_guard_on_clean_steps_reads_once_per_step():
    (cpu, _), (gpu, reads) = both(guarded_steps)
    assert cpu == gpu == []
    # step k's counts are read when step k + 1 calls the net (the last ones on exit)
    assert_reads(sum(reads), STEPS - 1)
    assert_reads(reads[0], 0)


# the fault in the first step, then NaN weights (its update) entering the next steps' Dense
LATER = [(1, 'forward', 'Dense'), (2, 'forward', 'Dense')]


@pytest.mark.parametrize('fault, kwargs, first', [
    (lambda x: ops.log(x - 100.0), {}, (0, 'forward', 'Log')),
    (lambda x: ops.sqrt(ops.relu(x)), {}, (0, 'backward', 'Sqrt')),     # +Inf at 0
    (lambda x: ops.exp(x + 1000.0) - ops.exp(x + 1000.0), {}, (0, 'forward', 'Exp')),
    (lambda x: ops.exp(x + 1000.0) - ops.exp(x + 1000.0), {'check': 'nan'},
     (0, 'forward', 'Sub')),
    (lambda x: ops.log(x - 100.0), {'allow': 'Log'}, (0, 'forward', 'Log')),  # NaN: reported
    (lambda x: ops.log(ops.relu(x)), {'allow': 'Log'}, (0, 'forward', 'Dense')),  # -inf: not
    (lambda x: ops.log(ops.relu(x)), {'every': 2}, (0, 'forward', 'Log')),
    (lambda x: ops.log(ops.relu(x)), {'backward': False}, (0, 'forward', 'Log')),
], ids=['log', 'sqrt-backward', 'inf', 'nan-only', 'allow-nan', 'allow-inf', 'every',
        'forward-only'])
def test_nan_guard_reports_equal_the_cpu(fault, kwargs, first):
    (cpu, _), (gpu, reads) = both(lambda: guarded_steps(fault, **kwargs))
    assert gpu == cpu
    every = kwargs.get('every', 1)
    assert [(r.step, r.direction, r.op) for r in gpu] == \
        [first] + [s for s in LATER if s[0] % every == 0]
    assert_reads(sum(reads), len(range(0, STEPS - 1, every)))


def test_nan_guard_report_of_data_and_outside_a_net():
    def run():
        with nan_guard(action='record') as guard:
            x = ms.Tensor(np.array([1.0, np.nan, 4.0], np.float32), requires_grad=True)
            y = ops.sqrt(x * 2.0)
            guard.step()
            y = ops.sqrt(ms.Tensor(np.array([1.0, 0.0], np.float32), requires_grad=True))
            y.sum().backward()
        return guard.reports
    cpu, gpu = both(run)
    assert [(r.step, r.direction, r.op, r.input_index) for r in gpu] == \
        [(0, 'forward', 'Mul', 0), (1, 'backward', 'Sqrt', None)]
    assert gpu == cpu


def test_nan_guard_raises_at_the_end_of_the_step_on_the_gpu():
    with on(GPU):
        net = Net(Fn(lambda x: ops.log(x - 100.0)))
        step = make_step(net)
        guard = nan_guard(net)
        with pytest.raises(AnomalyError) as e:
            with guard:
                step(*data())           # counted on the device, not read yet
                assert guard.reports == []
                step(*data())           # the net's next call checks the first step
        assert e.value.report.step == 0 and e.value.report.op == 'Log'
        assert not guard.enabled
        net = Net(Fn(lambda x: ops.log(x - 100.0)))     # the first one's update made NaNs
        step = make_step(net)
        guard = nan_guard(net, action='record').enable()
        step(*data())
        with Reads() as r:
            guard.flush()
            guard.flush()               # nothing pending: no read
        assert_reads(r, 1)
        assert [(x.op, x.cell) for x in guard.reports] == [('Log', 'inner')]
        guard.disable()


# --------------------------------------------------------------------------- StatsRecorder
def recorded(auto_step=False, every=1):
    net = Net()
    step = make_step(net)
    reads = []
    with StatsRecorder(net, auto_step=auto_step, every=every) as rec:
        for i in range(STEPS):
            with Reads() as r:
                loss = step(*data(i))
                rec.log(loss)           # read with the step's statistics
            reads.append(r.total)
            if not auto_step:
                with Reads() as r:
                    rec.step()
                reads.append(r.total)
    h = rec.history
    losses = [h.losses[s] for s in range(STEPS)]
    return (h.cell_data, h.calls, h.param_data, h.steps, losses), reads


@pytest.mark.parametrize('auto_step, every', [(False, 1), (True, 1), (False, 2)])
def test_stats_recorder_equals_the_cpu_and_reads_once_per_step(auto_step, every):
    (cpu, _), (gpu, reads) = both(lambda: recorded(auto_step, every))
    assert_close(gpu, cpu, rtol=1e-5, atol=1e-6)
    assert np.isfinite(gpu[0]).sum() > 0 and not np.isnan(gpu[2]).all()
    assert list(gpu[3]) == list(range(0, STEPS, every))
    if auto_step:       # a step is read when the next one calls the net
        assert_reads(sum(reads), STEPS - 1)
    else:               # nothing inside a step; one read at each step(), the loss included
        assert_reads(sum(reads[0::2]), 0)
        assert_reads(sum(reads[1::2]), STEPS)


def test_stats_recorder_counts_nan_and_inf_on_the_gpu():
    def run():
        net = Net(Fn(lambda x: ops.log(x)))         # NaN below 0, -inf at 0 (ReLU's zeros)
        with StatsRecorder(net, params=True) as rec:
            ms.grad(lambda x: net(x).sum(), None, net.trainable_params())(data()[0])
            rec.step()
        return rec.history['inner', 'output'], rec.history['out.weight', 'param']
    (cpu_out, cpu_param), (gpu_out, gpu_param) = both(run)
    assert gpu_out['nan'][0] > 0
    for key in cpu_out:
        assert_close(gpu_out[key], cpu_out[key])
    for key in cpu_param:
        assert_close(gpu_param[key], cpu_param[key])


# --------------------------------------------------------------------------- trace
def test_trace_captures_and_patches_equal_the_cpu_without_reads():
    def run():
        net = Net()
        with trace(net) as t:
            t.patch('act', output=np.full((5, 6), 0.5, np.float32))     # uploaded
            with Reads() as r:
                make_step(net)(*data())
            names = t.names
            captured = [t[n].outputs for n in names] + [t[n].grad_outputs for n in names]
        return names, captured, r
    (cpu_names, cpu, _), (gpu_names, gpu, reads) = both(run)
    assert gpu_names == cpu_names
    assert_reads(reads, 0)
    flat = [v for group in gpu for v in (group if isinstance(group, (tuple, list)) else [group])]
    assert_on_gpu(*[v for v in flat if isinstance(v, ms.Tensor)])
    assert_close(gpu, cpu)
    np.testing.assert_array_equal(host(gpu[cpu_names.index('act')]), 0.5)


# --------------------------------------------------------------------------- summary, profile
def test_summary_equals_the_cpu_and_restores_buffers_on_the_gpu():
    def run():
        net = nn.SequentialCell([nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(2), nn.Dense(2, 3)])
        before = [p.asnumpy().copy() for p in net.get_parameters()]
        with Reads() as r:
            s = summary(net, ms.Tensor(np.ones((2, 1, 8, 8), np.float32)), set_train=True,
                        verbose=False)
        after = [p.asnumpy() for p in net.get_parameters()]
        rows = [(x.path, str(x.input_shapes), str(x.output_shapes), x.params, x.macs, x.memory,
                 x.calls) for x in s.rows]
        return (rows, s.total_params, s.total_macs, s.activation_bytes, s.param_bytes), \
            (before, after), r, net
    (cpu, _, _, _), (gpu, (before, after), reads, net) = both(run)
    assert gpu == cpu
    assert_reads(reads, 0)
    assert_close(after, before)             # BatchNorm's moving statistics restored
    assert_on_gpu(*net.get_parameters())


def test_profile_counts_the_ops_of_the_cpu_without_reads():
    def run():
        net = Net()
        step = make_step(net)
        with profile() as prof, Reads() as r:
            for i in range(2):
                step(*data(i))
        return sorted((row.name, row.calls) for row in prof.by_op().rows), r
    (cpu, _), (gpu, reads) = both(run)
    assert gpu == cpu and len(gpu) >= 4
    assert_reads(reads, 0)


# --------------------------------------------------------------------------- Grad-CAM
@pytest.mark.parametrize('target', [None, 1, [0, 2]])
def test_gradcam_equals_the_cpu_and_reads_the_heatmaps_once(target):
    def run():
        net = nn.SequentialCell([nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Conv2d(4, 4, 3), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dense(4, 3)])
        images = np.random.default_rng(0).standard_normal((2, 1, 10, 10)).astype(np.float32)
        with Reads() as r:
            heat = GradCAM(net, '2')(images, target=target)     # a NumPy batch: uploaded
        return heat, r
    (cpu, _), (gpu, reads) = both(run)
    assert type(gpu) is np.ndarray and gpu.shape == (2, 10, 10) and gpu.max() == 1.0
    assert_close(gpu, cpu, rtol=1e-5, atol=1e-6)
    assert_reads(reads, 1)


# --------------------------------------------------------------------------- dump / compare
def test_dump_on_the_gpu_compares_equal_to_the_cpu_dump(tmp_path):
    def run():
        net = Net()
        x, y = data()
        where = tmp_path / net.dense.weight.device.replace(':', '')
        with Reads() as r:
            loss = dump(net, where, x, loss_fn=nn.CrossEntropyLoss(), target=y)
        return where, loss, r
    (cpu_dir, cpu_loss, _), (gpu_dir, gpu_loss, reads) = both(run)
    assert_on_gpu(gpu_loss)
    assert_close(gpu_loss, cpu_loss)
    entries = json.loads((gpu_dir / 'index.json').read_text())['entries']
    assert len(entries) == 20                # 5 cells: input, output and both gradients
    assert_reads(reads, len(entries))       # one read per tensor written, none besides
    result = compare(cpu_dir, gpu_dir, rtol=1e-5, atol=1e-6)
    assert result.first_divergence is None and not result.missing and not result.extra
    assert len(result.rows) == len(entries)
