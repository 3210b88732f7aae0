"""``Model`` on the GPU (``ms.set_device('GPU')``) fed by a dataset pipeline: every batch is
uploaded as it is read, training and evaluation give the CPU's values, metrics and callbacks
work, and a training step reads nothing back unless a callback asks for the loss."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import _toplevel, nn
from hookgrad.context import get_context, set_context
from hookgrad.kernels import backend

from .common import GPU, Reads, assert_close, assert_on_gpu, assert_reads, on

BATCH = 12


@pytest.fixture
def device():
    """``run(fn, target)``: ``fn()`` after ``ms.set_device(target)`` and ``ms.set_seed(0)``;
    the device choice is undone afterwards (MindSpore allows one per process)."""
    saved = _toplevel._device_set, backend.current
    context = get_context('device_target'), get_context('device_id')

    def run(fn, target):
        _toplevel._device_set = None
        with on(backend.CPU):           # the seed, and full float32
            ms.set_device(target)
            try:
                return fn()
            finally:
                _toplevel._device_set, backend.current = saved
                set_context(device_target=context[0], device_id=context[1])
    return run


def blobs(n, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((3, 4)) * 3
    y = rng.integers(0, 3, n).astype(np.int32)
    x = (centers[y] + rng.standard_normal((n, 4)) * 0.5).astype(np.float32)
    return x, y


def classifier():
    return nn.SequentialCell([nn.Dense(4, 16), nn.ReLU(), nn.Dense(16, 3)])


def xent():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')


class Watch(ms.Callback):
    """Each step's batch devices, loss values and host reads (of the step alone)."""

    def __init__(self):
        self.devices, self.losses, self.reads = set(), [], []

    def on_train_step_begin(self, run_context):
        cb = run_context.original_args()
        self.devices.update(t.device for t in cb.train_dataset_element)
        self._reads = Reads().__enter__()

    def on_train_step_end(self, run_context):
        self._reads.__exit__()
        self.reads.append(self._reads.total)
        self.losses.append(run_context.original_args().net_outputs)


def numpy_slices(x, y, shuffle=True):
    return ms.dataset.NumpySlicesDataset({'x': x, 'y': y}, shuffle=shuffle).batch(BATCH)


def generated(x, y):
    def rows():
        for i in range(len(x)):
            yield x[i], y[i]
    return ms.dataset.GeneratorDataset(rows, ['x', 'y'], shuffle=False) \
        .map(lambda v: v * 2.0, input_columns=['x']).batch(BATCH, drop_remainder=True)


@pytest.mark.parametrize('pipeline', [numpy_slices, generated])
def test_train_and_eval_on_the_gpu_equal_the_cpu(device, pipeline):
    x, y = blobs(96)

    def run():
        net = classifier()
        model = ms.Model(net, xent(), nn.Momentum(net.trainable_params(), 0.05, 0.9),
                         metrics={'acc', 'loss'})
        watch = Watch()
        model.train(3, pipeline(x[:72], y[:72]), callbacks=[watch])
        with Reads() as reads:
            result = model.eval(numpy_slices(x[72:], y[72:], shuffle=False))
        return net, watch, result, reads
    cpu_net, cpu_watch, cpu_result, _ = device(run, 'CPU')
    net, watch, result, reads = device(run, 'GPU')
    assert watch.devices == {GPU.name} and cpu_watch.devices == {'CPU'}
    assert_on_gpu(*net.get_parameters(), *watch.losses)
    assert_close(watch.losses, cpu_watch.losses, rtol=1e-5)
    assert_close(list(net.get_parameters()), list(cpu_net.get_parameters()), rtol=1e-4,
                 atol=1e-6)
    assert result.keys() == {'acc', 'loss'}
    assert result['acc'] == cpu_result['acc'] and result['acc'] > 0.9
    assert result['loss'] == pytest.approx(cpu_result['loss'], rel=1e-5)
    assert_reads(sum(watch.reads), 0)       # no read inside a training step
    # eval's metrics are computed on the host (as MindSpore's): each batch's logits, labels
    # and loss are read once
    assert_reads(reads, 3 * 2)


def printed_losses(out):
    return [float(line.split()[-1]) for line in out.splitlines() if 'loss is' in line]


def test_loss_monitor_history_and_lr_scheduler_read_what_they_report(device, capsys):
    x, y = blobs(48)

    def run():
        net = classifier()
        opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
        model = ms.Model(net, xent(), opt, metrics={'acc'})
        history = ms.History()
        watch = Watch()
        callbacks = [watch, ms.LossMonitor(1), history,
                     ms.LearningRateScheduler(lambda lr, step: lr * 0.9)]
        with Reads() as reads:
            model.fit(2, numpy_slices(x, y), numpy_slices(x, y, False), callbacks=callbacks)
        return net, watch, history.history, float(opt.learning_rate.asnumpy()), reads
    cpu_net, _, cpu_history, cpu_lr, _ = device(run, 'CPU')
    cpu_out = capsys.readouterr().out
    net, watch, history, lr, reads = device(run, 'GPU')
    out = capsys.readouterr().out
    assert out.count('loss is') == cpu_out.count('loss is') == 2 * 4
    assert printed_losses(out) == pytest.approx(printed_losses(cpu_out), rel=1e-5)
    assert history.keys() == cpu_history.keys() >= {'net_output', 'acc'}
    for key in cpu_history:
        assert history[key] == pytest.approx(cpu_history[key], rel=1e-5)
    assert lr == pytest.approx(cpu_lr) == pytest.approx(0.1 * 0.9 ** 8)
    assert_close(list(net.get_parameters()), list(cpu_net.get_parameters()), rtol=1e-4,
                 atol=1e-6)
    # the step itself reads nothing; LossMonitor reads the loss it prints (8 steps), History
    # the loss of each epoch (2), the metrics each evaluated batch (2 epochs of 4 batches:
    # logits and labels for the accuracy, the loss for fit's eval_loss); the learning rate
    # is a host value
    assert_reads(sum(watch.reads), 0)
    assert_reads(reads, 8 + 2 + 2 * 4 * 3)


def test_a_network_with_its_loss_and_train_one_step_cell(device):
    x, y = blobs(48)

    def run():
        net = classifier()
        opt = nn.Adam(net.trainable_params(), learning_rate=0.01)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, xent()), opt)
        watch = Watch()
        ms.Model(step).train(2, numpy_slices(x, y), callbacks=[watch])
        ms.Model(nn.WithLossCell(net, xent()), optimizer=opt).train(1, numpy_slices(x, y),
                                                                   callbacks=[watch])
        evaluated = ms.Model(net, xent(), metrics={'accuracy', 'top_1_accuracy'}).eval(
            numpy_slices(x, y, False))
        return net, watch, evaluated
    cpu_net, cpu_watch, cpu_eval = device(run, 'CPU')
    net, watch, evaluated = device(run, 'GPU')
    assert_on_gpu(*net.get_parameters(), *watch.losses)
    assert_close(watch.losses, cpu_watch.losses, rtol=1e-5)
    assert_close(list(net.get_parameters()), list(cpu_net.get_parameters()), rtol=1e-4,
                 atol=1e-6)
    assert evaluated == pytest.approx(cpu_eval)
    assert_reads(sum(watch.reads), 0)


def test_early_stopping_restores_the_best_weights_on_the_gpu(device):
    x, y = blobs(48)

    def run():
        net = classifier()
        model = ms.Model(net, xent(), nn.SGD(net.trainable_params(), learning_rate=5.0),
                         metrics={'loss'})
        stop = ms.EarlyStopping(monitor='eval_loss', patience=1, restore_best_weights=True)
        model.fit(6, numpy_slices(x, y), numpy_slices(x, y, False), callbacks=[stop])
        return net, stop.stopped_epoch
    cpu_net, cpu_stopped = device(run, 'CPU')
    net, stopped = device(run, 'GPU')
    assert stopped == cpu_stopped > 0
    assert_on_gpu(*net.get_parameters())
    assert_close(list(net.get_parameters()), list(cpu_net.get_parameters()), rtol=1e-4,
                 atol=1e-6)


def test_model_in_graph_mode_on_the_gpu(device):
    x, y = blobs(48)

    def run():
        mode = get_context('mode')
        set_context(mode=ms.GRAPH_MODE)
        try:
            net = classifier()
            watch = Watch()
            ms.Model(net, xent(), nn.SGD(net.trainable_params(), 0.1)).train(
                2, numpy_slices(x, y, False), callbacks=[watch])
        finally:
            set_context(mode=mode)
        return net, watch
    cpu_net, cpu_watch = device(run, 'CPU')
    net, watch = device(run, 'GPU')
    assert_on_gpu(*net.get_parameters(), *watch.losses)
    assert_close(watch.losses, cpu_watch.losses, rtol=1e-5)
    assert_close(list(net.get_parameters()), list(cpu_net.get_parameters()), rtol=1e-4,
                 atol=1e-6)
    assert_reads(sum(watch.reads), 0)
