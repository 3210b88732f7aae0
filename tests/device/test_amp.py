"""Mixed precision on the GPU: float16 networks, loss scalers and loss-scaled training steps give
the CPU's values, their scales and state stay on the GPU, and a loss-scaled step reads one value
back, the overflow flag its Python control flow needs."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import amp, nn, ops, Tensor

from .common import GPU, Reads, assert_close, assert_on_gpu, assert_reads, both, host, on

STEPS = 4


def mlp():
    return nn.SequentialCell([nn.Dense(4, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dense(16, 1)])


def regression():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    y = x @ np.array([[1.], [-2.], [0.5], [3.]], np.float32)
    return Tensor(x), Tensor(y)


@pytest.mark.parametrize('level', ['O1', 'O2', 'O3'])
def test_auto_mixed_precision_forward_equals_the_cpu(level):
    def run():
        net = amp.auto_mixed_precision(mlp(), level)
        with Reads() as r:
            y = net(regression()[0])
        return y, r
    (cpu, _), (gpu, reads) = both(run)
    assert_on_gpu(gpu)
    assert gpu.dtype == cpu.dtype
    assert_close(gpu, cpu, rtol=1e-3, atol=1e-3)
    assert_reads(reads, 0)


@pytest.mark.parametrize('level, manager, reads_per_step', [
    ('O0', None, 0),
    ('O1', None, 0),
    ('O2', lambda: amp.DynamicLossScaleManager(2.0 ** 15, 2, 2), 1),   # meets overflows
    ('O2', lambda: amp.FixedLossScaleManager(2.0 ** 10, True), 1),
    ('O2', lambda: amp.FixedLossScaleManager(1.0, False), 0),          # no overflow check
    ('O3', None, 0),
], ids=['O0', 'O1', 'O2-dynamic', 'O2-fixed-drop', 'O2-fixed', 'O3'])
def test_build_train_network_steps_equal_the_cpu(level, manager, reads_per_step):
    def run():
        net = mlp()
        kwargs = {} if manager is None else {'loss_scale_manager': manager()}
        step = amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.05),
                                       nn.MSELoss(), level=level, **kwargs)
        x, y = regression()
        outs, values, reads = [], [], []
        for _ in range(STEPS):
            with Reads() as r:
                out = step(x, y)
            reads.append(r.total)
            outs.append(out)
            values.append([host(o).copy() for o in (out if isinstance(out, tuple) else (out,))])
        return outs, values, list(net.get_parameters()), reads
    (_, cpu_values, cpu_params, _), (outs, values, params, reads) = both(run)
    assert_close(values, cpu_values, rtol=1e-3, atol=1e-4)     # loss (, overflow, scale)
    for out in outs:
        if isinstance(out, tuple):
            assert_on_gpu(out[0], out[2])
            assert out[1].device == 'CPU'       # the overflow flag, which the step has read
        else:
            assert_on_gpu(out)
    assert_on_gpu(*params)
    assert_close(params, cpu_params, rtol=1e-3, atol=1e-4)
    assert_reads(sum(reads), reads_per_step * STEPS)
    if level == 'O2' and reads_per_step:    # the dynamic scale overflows, shrinks and grows
        dynamic = values[0][2] == 2.0 ** 14
        assert [bool(v[1]) for v in values] == \
            ([True, False, False, True] if dynamic else [False] * STEPS)


def test_loss_scale_cell_skips_an_overflowing_update_on_the_gpu():
    with on(GPU):
        net = nn.Dense(3, 2)
        step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                                nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                                Tensor(np.float32(4096)))
        x = Tensor(np.array([[1., 2., 3.], [-1., 0.5, 2.]], np.float32))
        y = Tensor(np.array([[100., 0.], [0., 100.]], np.float32))
        loss, overflow, scale = step(x, y)
        assert not bool(overflow) and float(scale) == 4096.0
        before = net.weight.asnumpy().copy()
        step.set_sense_scale(Tensor(np.float32(3.0e38)))
        assert_on_gpu(step.scale_sense)
        with Reads() as r:
            loss, overflow, _ = step(x, y)
        assert_reads(r, 1)
        assert bool(overflow) and np.isfinite(loss.asnumpy())
        np.testing.assert_array_equal(net.weight.asnumpy(), before)      # update skipped


OVERFLOWS = [False, False, True, False, False, False, True, True]


def test_update_cell_and_dynamic_scaler_follow_the_cpu_on_the_gpu():
    def run():
        cell = nn.DynamicLossScaleUpdateCell(1024.0, 2, 2)
        scale = ms.Parameter(Tensor(np.float32(1024.0)), name='s')
        scaler = amp.DynamicLossScaler(1024, 2, 2)
        cells, scalers, reads = [], [], []
        for of in OVERFLOWS:
            flag = Tensor(np.array(of))     # on the default device
            with Reads() as r:
                cell(scale, flag)
                scaler.adjust(ops.logical_not(flag))
            reads.append(r.total)
            cells.append(scale.asnumpy().item())
            scalers.append((scaler.scale_value.asnumpy().item(), scaler.counter.asnumpy().item()))
        return cells, scalers, reads, (scale, scaler.scale_value, scaler.counter)
    (cpu_cells, cpu_scalers, _, _), (cells, scalers, reads, tensors) = both(run)
    assert cells == cpu_cells == [1024.0, 2048.0, 1024.0, 1024.0, 2048.0, 2048.0, 1024.0, 512.0]
    assert scalers == cpu_scalers == [(1024.0, 1), (2048.0, 0), (1024.0, 0), (1024.0, 1),
                                      (2048.0, 0), (2048.0, 1), (1024.0, 0), (512.0, 0)]
    assert_on_gpu(*tensors)
    # the update cell reads the flag it branches on; the scaler adjusts on the device
    assert_reads(sum(reads), len(OVERFLOWS))


def test_a_hand_written_loss_scaled_step_stays_on_the_gpu():
    def run():
        net = mlp()
        scaler = amp.DynamicLossScaler(2.0 ** 16, 2, 3)
        opt = nn.SGD(net.trainable_params(), 0.05)
        loss_fn = nn.MSELoss()
        grad_fn = ms.value_and_grad(lambda x, y: scaler.scale(loss_fn(net(x), y)), None,
                                    opt.parameters)
        x, y = regression()
        out, reads = [], []
        for _ in range(STEPS):
            with Reads() as r:
                loss, grads = grad_fn(x, y)
                grads = scaler.unscale(grads)
                finite = amp.all_finite(grads)
                scaler.adjust(finite)
                opt(grads)
            reads.append(r.total)
            out.append((scaler.unscale(loss), finite, scaler.scale_value))
        return out, list(net.trainable_params()), reads
    (cpu, cpu_params, _), (gpu, gpu_params, reads) = both(run)
    for (loss, finite, scale), (want_loss, want_finite, want_scale) in zip(gpu, cpu):
        assert_on_gpu(loss, finite, scale)
        assert bool(finite) == bool(want_finite)
        assert_close([loss, scale], [want_loss, want_scale], rtol=1e-5)
    assert_close(gpu_params, cpu_params, rtol=1e-5)
    assert_reads(sum(reads), 0)


def test_static_scaler_and_all_finite_on_the_gpu():
    with on(GPU):
        s = amp.StaticLossScaler(1024)
        (g,) = s.unscale((Tensor(np.array([1.5, 1.0], np.float16)),))
        assert_on_gpu(g, s.scale(Tensor([1.0])))
        assert g.dtype == ms.float16
        np.testing.assert_array_equal(g.asnumpy(), np.array([1.4648e-03, 9.7656e-04],
                                                            np.float16))
        with Reads() as r:
            bad = amp.all_finite((Tensor([np.nan, 1.0]), Tensor([1.0])))
            good = amp.all_finite([Tensor([2.0, 1.0]), Tensor(np.float16(3.0))])
        assert_reads(r, 0)
        assert_on_gpu(bad, good)
        assert not bool(bad) and bool(good)
        assert amp.all_finite([]).asnumpy()


def test_model_with_amp_level_o2_trains_as_on_the_cpu():
    def run():
        net = mlp()
        x, y = regression()
        data = ms.dataset.NumpySlicesDataset({'x': host(x), 'y': host(y)},
                                             shuffle=False).batch(8)
        manager = ms.DynamicLossScaleManager(2.0 ** 20, 2, 3)
        model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05),
                         amp_level='O2', loss_scale_manager=manager, metrics={'loss'})
        with Reads() as r:
            model.train(2, data)
        return manager.get_loss_scale(), list(net.get_parameters()), model.eval(data), r
    (cpu_scale, cpu_params, cpu_eval, _), (scale, params, result, reads) = both(run)
    assert scale == cpu_scale < 2 ** 20
    assert_on_gpu(*params)
    assert_close(params, cpu_params, rtol=1e-3, atol=1e-4)
    assert result['loss'] == pytest.approx(cpu_eval['loss'], rel=1e-3)
    assert_reads(reads, 2 * 4)      # two epochs of four batches: one overflow flag per step
