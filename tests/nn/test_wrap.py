"""WithLossCell and TrainOneStepCell: values, parameter names, training with every optimizer,
sens, return_grad, and argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops


def mse(pred, target):
    return ops.mean(ops.square(pred - target))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 8, activation='tanh')
        self.fc2 = nn.Dense(8, 1)

    def construct(self, x):
        return self.fc2(self.fc1(x))


def regression(n=32, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype(np.float32)
    return ms.Tensor(x), ms.Tensor(y)


def test_with_loss_cell_computes_the_loss_and_keeps_parameter_names():
    ms.set_seed(1)
    net = Net()
    loss_net = nn.WithLossCell(net, mse)
    x, y = regression()
    expected = np.mean((net(x).asnumpy() - y.asnumpy()) ** 2)
    np.testing.assert_allclose(float(loss_net(x, y)), expected, rtol=1e-6)
    assert loss_net.backbone_network is net
    assert [p.name for p in loss_net.trainable_params()] == ['fc1.weight', 'fc1.bias',
                                                             'fc2.weight', 'fc2.bias']


class MSELoss(nn.Cell):
    def construct(self, pred, target):
        return mse(pred, target)


def test_a_loss_cell_is_registered_as_a_sub_cell():
    loss_net = nn.WithLossCell(Net(), MSELoss())
    assert [name for name, _ in loss_net.cells_and_names()][:3] == ['', '_backbone',
                                                                    '_backbone.fc1']
    assert '_loss_fn' in loss_net.name_cells()


def test_with_loss_cell_errors():
    with pytest.raises(TypeError, match='nn.WithLossCell: backbone must be a Cell, got function'):
        nn.WithLossCell(mse, mse)
    with pytest.raises(TypeError, match='loss_fn must be a Cell or a callable, got int'):
        nn.WithLossCell(Net(), 3)


OPTIMIZERS = [
    lambda ps: nn.SGD(ps, learning_rate=0.05, momentum=0.9),
    lambda ps: nn.SGD(ps, learning_rate=0.1),
    lambda ps: nn.Momentum(ps, 0.05, 0.9, use_nesterov=True),
    lambda ps: nn.Adam(ps, learning_rate=0.02),
    lambda ps: nn.Adam(ps, learning_rate=0.02, use_amsgrad=True, weight_decay=1e-4),
    lambda ps: nn.AdamWeightDecay(ps, learning_rate=0.02, weight_decay=1e-3),
]


@pytest.mark.parametrize('make_opt', OPTIMIZERS, ids=['sgd-momentum', 'sgd', 'nesterov', 'adam',
                                                      'amsgrad', 'adamw'])
def test_the_loss_falls_with_every_optimizer(make_opt):
    ms.set_seed(0)
    net = Net()
    opt = make_opt(net.trainable_params())
    train = nn.TrainOneStepCell(nn.WithLossCell(net, mse), opt)
    x, y = regression()
    losses = [float(train(x, y)) for _ in range(40)]
    assert losses[-1] < 0.05 * losses[0]
    windows = np.array(losses).reshape(4, 10).mean(axis=1)
    assert np.all(np.diff(windows) < 0), windows
    assert [p.name for p in net.trainable_params()] == ['fc1.weight', 'fc1.bias', 'fc2.weight',
                                                        'fc2.bias']


def test_one_step_equals_value_and_grad_then_the_optimizer():
    ms.set_seed(3)
    net_a, x, y = Net(), *regression(8, 1)
    net_b = Net()
    for pa, pb in zip(net_a.trainable_params(), net_b.trainable_params()):
        pb.set_data(pa.value())
    opt_a = nn.Adam(net_a.trainable_params(), 0.01)
    train = nn.TrainOneStepCell(nn.WithLossCell(net_a, mse), opt_a)
    opt_b = nn.Adam(net_b.trainable_params(), 0.01)

    def forward(data, label):
        return mse(net_b(data), label), net_b(data)

    grad_fn = ms.value_and_grad(forward, None, opt_b.parameters, has_aux=True)
    for _ in range(3):
        loss_a = train(x, y)
        (loss_b, _), grads = grad_fn(x, y)
        opt_b(grads)
        np.testing.assert_allclose(float(loss_a), float(loss_b), rtol=1e-6)
    for pa, pb in zip(net_a.trainable_params(), net_b.trainable_params()):
        np.testing.assert_allclose(pa.asnumpy(), pb.asnumpy(), rtol=1e-6, atol=1e-7)


def test_sens_scales_the_gradients_and_return_grad_gives_them_by_name():
    ms.set_seed(2)
    x, y = regression(8, 2)
    nets = [Net(), Net()]
    for pa, pb in zip(*(n.trainable_params() for n in nets)):
        pb.set_data(pa.value())
    plain = nn.TrainOneStepCell(nn.WithLossCell(nets[0], mse),
                                nn.SGD(nets[0].trainable_params(), 0.2), return_grad=True)
    scaled = nn.TrainOneStepCell(nn.WithLossCell(nets[1], mse),
                                 nn.SGD(nets[1].trainable_params(), 0.1), sens=2)
    loss, grads = plain(x, y)
    assert scaled.sens == 2.0 and float(scaled(x, y)) == pytest.approx(float(loss))
    assert list(grads) == ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']
    assert grads['fc1.weight'].shape == (8, 3)
    for pa, pb in zip(*(n.trainable_params() for n in nets)):
        np.testing.assert_allclose(pa.asnumpy(), pb.asnumpy(), rtol=1e-5, atol=1e-7)


def test_train_cell_holds_network_and_optimizer_without_renaming():
    net = Net()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, mse), opt)
    assert train.network.backbone_network is net and train.optimizer is opt
    assert train.weights is opt.parameters
    names = {p.name for _, p in train.parameters_and_names()}
    assert {'fc1.weight', 'moments.fc1.weight', 'learning_rate', 'momentum'} <= names


@pytest.mark.parametrize('args,kwargs,match', [
    ((mse, None), {}, 'network must be a Cell, got function'),
    ((Net(), Net()), {}, 'optimizer must be an optimizer Cell'),
    ((Net(), 'sgd'), {}, 'got str'),
    ((Net(),), {'sens': 'x'}, 'sens must be a number'),
    ((Net(),), {'sens': True}, 'sens must be a number'),
    ((Net(),), {'return_grad': 1}, 'return_grad must be a bool'),
])
def test_train_one_step_cell_errors(args, kwargs, match):
    if len(args) == 1:
        args = args + (nn.SGD(args[0].trainable_params()),)
    with pytest.raises(TypeError, match=match):
        nn.TrainOneStepCell(*args, **kwargs)
