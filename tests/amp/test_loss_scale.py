"""Loss scaling: scalers, managers, update cells, TrainOneStepWithLossScaleCell,
build_train_network and Model with amp_level, against MindSpore 2.10's values."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import amp, nn, Tensor

OVERFLOWS = [False, False, True, False, False, False, True, True]


def test_update_cell_manager_and_scaler_follow_mindspore():
    # MindSpore 2.10, each fed OVERFLOWS with (1024, factor 2, window 2)
    cell = nn.DynamicLossScaleUpdateCell(1024.0, 2, 2)
    scale = ms.Parameter(Tensor(np.float32(1024.0)), name='s')
    seq = []
    for of in OVERFLOWS:
        assert cell(scale, Tensor(of)).asnumpy() == of
        seq.append(float(scale.asnumpy()))
    assert seq == [1024.0, 2048.0, 1024.0, 1024.0, 2048.0, 2048.0, 1024.0, 512.0]
    assert [p.name for p in cell.get_parameters()] == ['current_iterator_step',
                                                       'last_overflow_iterator_step']
    manager = amp.DynamicLossScaleManager(1024, 2, 2)
    seq = []
    for of in OVERFLOWS:
        manager.update_loss_scale(of)
        seq.append(manager.get_loss_scale())
    assert seq == [1024, 2048, 1024.0, 1024.0, 2048.0, 2048.0, 1024.0, 512.0]
    scaler = amp.DynamicLossScaler(1024, 2, 2)
    seq = []
    for of in OVERFLOWS:
        assert scaler.adjust(Tensor(not of)) is True
        seq.append((float(scaler.scale_value.asnumpy()), int(scaler.counter.asnumpy())))
    assert seq == [(1024.0, 1), (2048.0, 0), (1024.0, 0), (1024.0, 1), (2048.0, 0),
                   (2048.0, 1), (1024.0, 0), (512.0, 0)]


def test_scalers_scale_unscale_and_all_finite():
    s = amp.StaticLossScaler(1024)
    assert s.scale(Tensor([1.0])).asnumpy().tolist() == [1024.0]
    (g,) = s.unscale((Tensor(np.array([1.5, 1.0], np.float16)),))
    # MindSpore 2.10's docstring example: [1.4648e-03, 9.7656e-04] in Float16
    assert g.dtype == ms.float16
    np.testing.assert_array_equal(g.asnumpy(), np.array([1.4648e-03, 9.7656e-04], np.float16))
    assert s.adjust(True) is False
    assert not amp.all_finite((Tensor([np.nan, 1.0]), Tensor([1.0]))).asnumpy()
    assert amp.all_finite([Tensor([2.0, 1.0]), Tensor([1.0])]).asnumpy()
    assert amp.FixedLossScaleManager(128.0, False).get_update_cell() is None
    assert amp.FixedLossScaleManager().get_update_cell().get_loss_scale() == 128.0
    assert amp.DynamicLossScaleManager().get_update_cell().get_loss_scale() == 2 ** 24
    assert ms.train.DynamicLossScaleManager is ms.DynamicLossScaleManager is \
        amp.DynamicLossScaleManager


def step_net():
    net = nn.Dense(3, 2, weight_init=Tensor(np.array([[0.5, -1., 2.], [1.5, 0.25, -0.75]],
                                                     np.float32)),
                   bias_init=Tensor(np.array([0.1, -0.2], np.float32)))
    return net, nn.WithLossCell(net, nn.MSELoss())


XS = Tensor(np.array([[1., 2., 3.], [-1., 0.5, 2.]], np.float32))
YS = Tensor(np.array([[1., 0.], [0., 1.]], np.float32))


def test_loss_scale_step_equals_the_plain_step_and_skips_overflow():
    plain_net, plain = step_net()
    ref = nn.TrainOneStepCell(plain, nn.Momentum(plain_net.trainable_params(), 0.1, 0.9))
    net, loss_net = step_net()
    step = nn.TrainOneStepWithLossScaleCell(loss_net, nn.Momentum(net.trainable_params(), 0.1,
                                                                  0.9), Tensor(np.float32(4096)))
    for _ in range(2):
        loss, overflow, scale = step(XS, YS)
        assert float(loss.asnumpy()) == float(ref(XS, YS).asnumpy())
        assert not overflow.asnumpy() and float(scale.asnumpy()) == 4096.0
    # a power-of-two scale is exact: the same weights, bit for bit
    np.testing.assert_array_equal(net.weight.asnumpy(), plain_net.weight.asnumpy())
    before = net.weight.asnumpy().copy()
    step.set_sense_scale(Tensor(np.float32(3.0e38)))
    loss, overflow, _ = step(XS, YS)
    assert overflow.asnumpy() and np.isfinite(loss.asnumpy())
    np.testing.assert_array_equal(net.weight.asnumpy(), before)           # update skipped


def mlp(seed=1):
    ms.set_seed(seed)
    return nn.SequentialCell([nn.Dense(4, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dense(16, 1)])


def regression():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype(np.float32)
    y = x @ np.array([[1.], [-2.], [0.5], [3.]], np.float32)
    return Tensor(x), Tensor(y.astype(np.float32))


def test_o2_dynamic_loss_scaling_meets_overflow_then_trains_like_float32():
    x, y = regression()
    net = mlp()
    step = amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.05), nn.MSELoss(),
                                   level='O2',
                                   loss_scale_manager=amp.DynamicLossScaleManager(2.0 ** 24, 2,
                                                                                 1000))
    assert type(step).__name__ == 'TrainOneStepWithLossScaleCell'
    assert type(net[1]).__name__ == '_OutputTo16' and net[0].get_mixed_precision_type().name \
        == 'FP16'
    first = net[0].weight.asnumpy().copy()
    loss, overflow, scale = step(x, y)
    assert overflow.asnumpy() and float(scale.asnumpy()) == 2.0 ** 23     # lowered
    np.testing.assert_array_equal(net[0].weight.asnumpy(), first)       # update skipped
    skipped, steps = 1, 40
    for _ in range(steps - 1):
        loss, overflow, scale = step(x, y)
        skipped += bool(overflow.asnumpy())
    assert 1 < skipped < 20 and not overflow.asnumpy()
    net32 = mlp()
    ref = nn.TrainOneStepCell(nn.WithLossCell(net32, nn.MSELoss()),
                              nn.SGD(net32.trainable_params(), 0.05)).set_train()
    for _ in range(steps - skipped):
        loss32 = ref(x, y)
    loss16, loss32 = float(loss.asnumpy()), float(loss32.asnumpy())
    assert loss32 < 0.5 and abs(loss16 - loss32) < 0.1 * loss32 + 2e-3
    assert net[0].weight.dtype == ms.float32


def test_model_amp_level_o2_with_manager():
    x, y = regression()
    data = ms.dataset.NumpySlicesDataset({'x': x.asnumpy(), 'y': y.asnumpy()},
                                         shuffle=False).batch(16)
    net = mlp()
    manager = ms.DynamicLossScaleManager(2.0 ** 20, 2, 50)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05), amp_level='O2',
                     loss_scale_manager=manager, metrics={'loss'})
    assert type(model.train_network).__name__ == 'TrainOneStepWithLossScaleCell'
    model.train(3, data)
    # the manager's own value follows the overflows as the update cell's does
    assert manager.get_loss_scale() == float(model.train_network.scale_sense.asnumpy()) < 2 ** 20
    assert model.eval(data)['loss'] < 5.0
    assert model.predict(x[:2]).dtype == ms.float16            # the network computes in float16
    o3 = ms.Model(mlp(), nn.MSELoss(), nn.SGD(mlp().trainable_params(), 0.05), amp_level='O3')
    assert type(o3.train_network).__name__ == 'TrainOneStepCell'


@pytest.mark.parametrize('call, exc, match', [
    (lambda: amp.DynamicLossScaleManager(scale_window=0), ValueError,
     "'scale_window' must be int and must > 0, but got '0'"),
    (lambda: amp.DynamicLossScaleManager(scale_factor=0), ValueError,
     "'scale_factor' must be > 0, but got 0"),
    (lambda: amp.FixedLossScaleManager(0.5), ValueError, "'loss_scale' must be >= 1"),
    (lambda: amp.DynamicLossScaleManager(0.5), ValueError, "'init_loss_scale' must be > 1"),
    (lambda: amp.DynamicLossScaler(0.5, 2, 1), ValueError, "'scale_value' must be > 1"),
    (lambda: amp.DynamicLossScaler(2., 0, 1), ValueError, "'scale_factor' must be int"),
    (lambda: amp.DynamicLossScaler(2., 2, 0), ValueError, "'scale_window' must be int"),
    (lambda: amp.StaticLossScaler('a'), TypeError, "should be one of '\\['float', 'int'\\]'"),
    (lambda: nn.TrainOneStepWithLossScaleCell(step_net()[1], nn.SGD(step_net()[0]
                                                                    .trainable_params()), 3.0),
     TypeError, "the 'scale_sense' must be Cell or Tensor"),
    (lambda: nn.TrainOneStepWithLossScaleCell(step_net()[1], nn.SGD(step_net()[0]
                                                                    .trainable_params()),
                                              Tensor(np.ones(2, np.float32))),
     ValueError, r"must be \(1,\) or \(\), but got \(2,\)"),
    (lambda: amp.build_train_network(mlp(), nn.SGD(mlp().trainable_params()), level='O4'),
     ValueError, "The 'level' should be in"),
    (lambda: amp.build_train_network(mlp(), nn.SGD(mlp().trainable_params()), level=3),
     TypeError, "must be a string"),
    (lambda: amp.build_train_network(mlp(), nn.SGD(mlp().trainable_params()), foo=1),
     ValueError, "Unsupported arg 'foo'"),
    (lambda: amp.build_train_network(mlp(), 3), TypeError, "The type of 'optimizer'"),
    (lambda: amp.build_train_network(mlp(), nn.SGD(mlp().trainable_params()),
                                     loss_scale_manager=3), TypeError,
     "The type of 'loss_scale_manager'"),
    (lambda: amp.build_train_network(mlp(), nn.SGD(mlp().trainable_params()),
                                     keep_batchnorm_fp32=3), TypeError,
     "'keep_batchnorm_fp32' should be 'bool'"),
    (lambda: ms.Model(mlp(), nn.MSELoss(), amp_level='O2'), ValueError,
     "Auto mixed precision will not work because 'optimizer' is None"),
    (lambda: ms.Model(mlp(), nn.MSELoss(), nn.SGD(mlp().trainable_params()),
                      loss_scale_manager=3), TypeError, "must be a LossScaleManager"),
])
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# MindSpore 2.10: build_train_network(Net(), SGD(lr=0.1), MSELoss(), level, loss_scale_manager=None)
# (Net of test_precision), cells_and_names with get_mixed_precision_type, and two step losses
MS_O2_STEP = [('', 'TrainOneStepCell', 'NOTSET'), ('network', 'WithLossCell', 'NOTSET'),
              ('network._backbone', 'Net', 'FP16'), ('network._backbone.fc1', 'Dense', 'FP16'),
              ('network._backbone.act', 'ReLU', 'FP16'),
              ('network._backbone.bn', '_OutputTo16', 'NOTSET'),
              ('network._backbone.bn._backbone', 'BatchNorm1d', 'FP32'),
              ('network._backbone.fc2', 'Dense', 'FP16'),
              ('network._loss_fn', 'MSELoss', 'NOTSET'), ('optimizer', 'SGD', 'NOTSET'),
              ('grad_reducer', 'Identity', 'NOTSET')]
MS_STEP_LOSSES = [0.6268256306648254, 0.19892103970050812]     # O1, O2 and O3 alike


@pytest.mark.parametrize('level, atol', [('O1', 1e-6), ('O2', 1e-6), ('O3', 3e-4)])
def test_build_train_network_matches_mindspore(level, atol):
    from .test_precision import Net, arr
    net = Net()
    step = amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.1), nn.MSELoss(),
                                   level=level, loss_scale_manager=None)
    if level == 'O2':
        assert [(n, type(c).__name__, c.get_mixed_precision_type().name)
                for n, c in step.cells_and_names()] == MS_O2_STEP
    x, y = Tensor(arr((5, 3), 2.3)), Tensor(arr((5, 2), 0.5))
    losses = [float(step(x, y).asnumpy()) for _ in range(2)]
    np.testing.assert_allclose(losses, MS_STEP_LOSSES, rtol=0, atol=atol)
