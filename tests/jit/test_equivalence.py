"""A replayed program gives the results of eager execution, bit for bit: layers, losses,
optimizers, training steps written the MindSpore way and the PyTorch way."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

STEPS = 4


class CNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, pad_mode='pad', padding=1)
        self.bn = nn.BatchNorm2d(6)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.avg = nn.AvgPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.drop = nn.Dropout(p=0.3)
        self.fc = nn.Dense(6 * 2 * 2, 5)

    def construct(self, x):
        x = self.avg(self.pool(self.relu(self.bn(self.conv(x)))))
        return self.fc(self.drop(self.flatten(x)))


class Tokens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(11, 8)
        self.norm = nn.LayerNorm((8,))
        self.act = nn.GELU()
        self.out = nn.Dense(8, 4)

    def construct(self, ids):
        h = self.act(self.norm(self.embed(ids)))
        return ops.softmax(self.out(h), axis=-1).mean(axis=1)


def images(seed):
    rng = np.random.default_rng(seed)
    return (ms.Tensor(rng.standard_normal((4, 3, 8, 8)).astype(np.float32)),
            ms.Tensor(rng.integers(0, 5, 4).astype(np.int32)))


def tokens(seed):
    rng = np.random.default_rng(seed)
    return (ms.Tensor(rng.integers(0, 11, (3, 5)).astype(np.int32)),
            ms.Tensor(rng.standard_normal((3, 4)).astype(np.float32)))


OPTIMIZERS = {
    'sgd': lambda ps: nn.SGD(ps, 0.05),
    'momentum': lambda ps: nn.Momentum(ps, 0.05, 0.9, weight_decay=1e-4),
    'adam': lambda ps: nn.Adam(ps, 1e-3),
    'adamw': lambda ps: nn.AdamWeightDecay(ps, 1e-3, weight_decay=0.01),
}
SETUPS = {
    'cnn-cross-entropy': (CNN, nn.CrossEntropyLoss, images),
    'tokens-mse': (Tokens, nn.MSELoss, tokens),
    'tokens-l1': (Tokens, nn.L1Loss, tokens),
}


def training(setup, optimizer, compiled):
    """Losses and final parameters of STEPS steps of ``loss, grads = grad_fn(x, y);
    optimizer(grads)``, eager or with the step jitted."""
    make_net, make_loss, data = SETUPS[setup]
    ms.set_seed(3)
    net = make_net()
    net.set_train()
    loss_fn = make_loss()
    opt = OPTIMIZERS[optimizer](net.trainable_params())
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    step = ms.jit(train_step) if compiled else train_step
    losses = [step(*data(i)).asnumpy() for i in range(STEPS)]
    params = [p.asnumpy().copy() for p in net.get_parameters()]
    return losses, params, step


@pytest.mark.parametrize('optimizer', OPTIMIZERS)
@pytest.mark.parametrize('setup', SETUPS)
def test_a_jitted_training_step_equals_the_eager_one(setup, optimizer):
    eager_losses, eager_params, _ = training(setup, optimizer, False)
    losses, params, step = training(setup, optimizer, True)
    for a, b in zip(losses + params, eager_losses + eager_params):
        np.testing.assert_array_equal(a, b)
    assert step.traces == 1 and step.replays == STEPS - 1


def test_batch_norm_statistics_and_predict_mode_under_jit():
    results = []
    for compiled in (False, True):
        ms.set_seed(0)
        net = CNN()
        forward = ms.jit(lambda x: net(x)) if compiled else (lambda x: net(x))
        net.set_train()
        for i in range(3):
            forward(images(i)[0])
        net.set_train(False)
        out = [forward(images(i)[0]).asnumpy() for i in range(3, 5)]
        results.append(out + [net.bn.moving_mean.asnumpy().copy(),
                              net.bn.moving_variance.asnumpy().copy()])
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


def test_dropout_draws_new_masks_per_call_following_set_seed():
    drop = nn.Dropout(p=0.5)
    drop.set_train()
    x = ms.Tensor(np.ones((4, 16), np.float32))
    jitted = ms.jit(lambda x: drop(x))
    ms.set_seed(5)
    eager = [drop(x).asnumpy() for _ in range(3)]
    ms.set_seed(5)
    replayed = [jitted(x).asnumpy() for _ in range(3)]
    for a, b in zip(eager, replayed):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(replayed[1], replayed[2]) and jitted.replays == 2


def make_pytorch_style_step(seed):
    """loss.backward(), .grad read, assigned and cleared by hand (benchmarks/op_overhead.py)."""
    rng = np.random.default_rng(seed)
    w = [ms.Parameter(rng.standard_normal((6, 6)).astype(np.float32) * 0.3, name=f'w{i}')
         for i in range(3)]
    x = ms.Tensor(rng.standard_normal((5, 6)).astype(np.float32))
    t = ms.Tensor(rng.standard_normal((5, 6)).astype(np.float32))

    def step():
        h = x
        for p in w:
            h = ops.tanh(ops.matmul(h, p))
        loss = ops.mean((h - t) ** 2)
        loss.backward()
        with ms.no_grad():
            for p in w:
                ops.assign(p, p - 0.1 * p.grad)
                p.grad = None
        return loss
    return step, w


def test_backward_grad_reads_assign_and_grad_reset_under_jit():
    eager, we = make_pytorch_style_step(0)
    compiled, wj = make_pytorch_style_step(0)
    compiled = ms.jit(compiled)
    for _ in range(STEPS):
        np.testing.assert_array_equal(compiled().asnumpy(), eager().asnumpy())
    for a, b in zip(wj, we):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
        assert a.grad is None
    assert ms.is_grad_enabled() and compiled.replays == STEPS - 1


def test_gradients_flow_through_a_jitted_function_from_outside():
    net = Tokens()
    ids, target = tokens(0)
    loss_fn = nn.MSELoss()
    forward = ms.jit(lambda ids: net(ids))
    weights = net.trainable_params()
    eager = ms.grad(lambda ids: loss_fn(net(ids), target), None, weights)(ids)
    for _ in range(2):          # traced, then replayed
        got = ms.grad(lambda ids: loss_fn(forward(ids), target), None, weights)(ids)
        for a, b in zip(got, eager):
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    assert forward.replays == 1


def test_second_derivatives_inside_a_jitted_function():
    def curvature(x):
        return ms.grad(ms.grad(lambda v: ops.sum(ops.sin(v) * v)))(x)

    compiled = ms.jit(curvature)
    for i in range(3):
        x = ms.Tensor(np.linspace(-1, 1, 5) + i)
        np.testing.assert_array_equal(compiled(x).asnumpy(), curvature(x).asnumpy())
    assert compiled.replays == 2


def test_cells_with_a_custom_bprop_under_jit():
    class Clip(nn.Cell):
        def construct(self, x):
            return x * 3.0

        def bprop(self, x, out, dout):
            return (ops.clamp(dout * 3.0, -1.0, 1.0),)

    cell = Clip()
    fn = ms.grad(lambda x: ops.sum(cell(x) ** 2))
    compiled = ms.jit(fn)
    for i in range(3):
        x = ms.Tensor(np.array([0.01, 0.5, -2.0], np.float32) * (i + 1))
        np.testing.assert_array_equal(compiled(x).asnumpy(), fn(x).asnumpy())


def test_train_one_step_cell_jitted():
    results = []
    for compiled in (False, True):
        ms.set_seed(2)
        net = CNN()
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                                    nn.Momentum(net.trainable_params(), 0.01, 0.9))
        train.set_train()
        step = ms.jit(train) if compiled else train
        results.append([step(*images(i)).asnumpy() for i in range(3)])
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


def test_modifying_parameter_values_at_runtime_seed_003():
    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.b = ms.Parameter(ms.Tensor(np.zeros(3), ms.float32), name='b')

    net = Network()

    @ms.jit
    def modify_parameter():
        b_hat = ms.Tensor([7, 8, 9])
        ops.assign(net.b, b_hat)
        return True

    assert modify_parameter() is True
    assert str(net.b.asnumpy()) == "[7. 8. 9.]"
    net.b.set_data(ms.Tensor([1, 2, 3]))
    assert modify_parameter() is True and modify_parameter.replays == 1
    assert str(net.b.asnumpy()) == "[7. 8. 9.]"


def test_dropout_with_a_seed_under_jit():
    x = ms.Tensor(np.ones((4, 16), np.float32))
    seeded = lambda x: ops.dropout(x, p=0.5, seed=3)     # the same mask on every call
    masks = []
    for compiled in (False, True):
        primitive = ops.Dropout(keep_prob=0.5, Seed0=1, Seed1=2)     # its own sequence
        f = lambda x: (seeded(x), primitive(x)[0])
        f = ms.jit(f) if compiled else f
        masks.append([[t.asnumpy() for t in f(x)] for _ in range(3)])
    for a, b in zip(*masks):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    same, fresh = zip(*masks[1])
    assert all((m == same[0]).all() for m in same) and not (fresh[0] == fresh[1]).all()


def _floats(seed, shape):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _labels(seed, shape, classes):
    return ms.Tensor(np.random.default_rng(seed).integers(0, classes, shape).astype(np.int32))


LAYERS = {
    'Dense': (lambda: nn.Dense(3, 4), lambda i: _floats(i, (2, 3))),
    'Conv1d': (lambda: nn.Conv1d(2, 3, 3), lambda i: _floats(i, (2, 2, 8))),
    'Conv2d': (lambda: nn.Conv2d(2, 3, 3, stride=2, pad_mode='pad', padding=1),
               lambda i: _floats(i, (2, 2, 6, 6))),
    'MaxPool2d': (lambda: nn.MaxPool2d(2, 2), lambda i: _floats(i, (2, 2, 6, 6))),
    'AvgPool2d': (lambda: nn.AvgPool2d(3, 1), lambda i: _floats(i, (2, 2, 6, 6))),
    'AdaptiveAvgPool2d': (lambda: nn.AdaptiveAvgPool2d((2, 3)), lambda i: _floats(i, (2, 2, 6, 6))),
    'BatchNorm1d': (lambda: nn.BatchNorm1d(3), lambda i: _floats(i, (4, 3))),
    'BatchNorm2d': (lambda: nn.BatchNorm2d(2), lambda i: _floats(i, (2, 2, 4, 4))),
    'LayerNorm': (lambda: nn.LayerNorm((3,)), lambda i: _floats(i, (2, 3))),
    'Embedding': (lambda: nn.Embedding(10, 4), lambda i: _labels(i, (2, 3), 10)),
    'Dropout': (lambda: nn.Dropout(p=0.3), lambda i: _floats(i, (4, 8))),
    'Dropout2d': (lambda: nn.Dropout2d(p=0.3), lambda i: _floats(i, (2, 4, 3, 3))),
    'Flatten': (lambda: nn.Flatten(), lambda i: _floats(i, (2, 2, 3))),
    'SequentialCell': (lambda: nn.SequentialCell([nn.Dense(3, 5), nn.Tanh(), nn.Dense(5, 2)]),
                       lambda i: _floats(i, (2, 3))),
}
for _name in ('GELU', 'LeakyReLU', 'LogSoftmax', 'ReLU', 'ReLU6', 'SiLU', 'Sigmoid', 'Softmax',
              'Tanh'):
    LAYERS[_name] = ((lambda cls: lambda: cls())(getattr(nn, _name)),
                     lambda i: _floats(i, (2, 3)) * 4)

LOSSES = {
    'BCEWithLogitsLoss': (nn.BCEWithLogitsLoss, lambda i: (
        _floats(i, (2, 3)), ms.Tensor(np.random.default_rng(i).random((2, 3), np.float32)))),
    'CrossEntropyLoss': (nn.CrossEntropyLoss, lambda i: (_floats(i, (4, 5)), _labels(i, 4, 5))),
    'L1Loss': (nn.L1Loss, lambda i: (_floats(i, (2, 3)), _floats(i + 9, (2, 3)))),
    'MSELoss': (nn.MSELoss, lambda i: (_floats(i, (2, 3)), _floats(i + 9, (2, 3)))),
    'NLLLoss': (nn.NLLLoss, lambda i: (ops.log_softmax(_floats(i, (4, 5)), axis=-1),
                                        _labels(i, 4, 5))),
    'SoftmaxCrossEntropyWithLogits': (
        lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean'),
        lambda i: (_floats(i, (4, 5)), _labels(i, 4, 5))),
}


def _run_cell(make, inputs, compiled):
    """Outputs and gradients of three calls of ``sum(cell(*inputs) ** 2)``, eager or jitted,
    and the cell's parameters after them."""
    ms.set_seed(7)
    cell = make()
    cell.set_train()
    params = cell.trainable_params()
    positions = tuple(i for i, t in enumerate(inputs(0)) if t.dtype in (ms.float32,))
    fn = ms.value_and_grad(lambda *xs: ops.sum(cell(*xs) ** 2), positions or None,
                           params or None)
    fn = ms.jit(fn) if compiled else fn
    out = []
    for i in range(3):
        value, grads = fn(*inputs(i))
        out.append(value.asnumpy())
        for g in (grads if isinstance(grads, tuple) else (grads,)):
            for t in (g if isinstance(g, tuple) else (g,)):
                out.append(t.asnumpy())
    return out + [p.asnumpy().copy() for p in cell.get_parameters()], fn


@pytest.mark.parametrize('name', LAYERS)
def test_every_layer_under_jit_equals_eager(name):
    make, data = LAYERS[name]
    eager, _ = _run_cell(make, lambda i: (data(i),), False)
    jitted, fn = _run_cell(make, lambda i: (data(i),), True)
    assert len(eager) == len(jitted)
    for a, b in zip(eager, jitted):
        np.testing.assert_array_equal(a, b)
    assert fn.traces == 1 and fn.replays == 2


@pytest.mark.parametrize('name', LOSSES)
def test_every_loss_under_jit_equals_eager(name):
    make, data = LOSSES[name]
    eager, _ = _run_cell(make, data, False)
    jitted, fn = _run_cell(make, data, True)
    for a, b in zip(eager, jitted):
        np.testing.assert_array_equal(a, b)
    assert fn.traces == 1 and fn.replays == 2


SCHEDULED = {
    'cosine': lambda ps: nn.SGD(ps, nn.CosineDecayLR(0.0, 0.1, 3)),
    'polynomial, groups': lambda ps: nn.Momentum(
        [{'params': ps[:1], 'weight_decay': 0.01}, {'params': ps[1:]}],
        nn.PolynomialDecayLR(0.1, 0.01, 3, 2.0), 0.9),
    'warm-up': lambda ps: nn.Adam(ps, nn.WarmUpLR(0.01, 2)),
    'exponential': lambda ps: nn.AdamWeightDecay(ps, nn.ExponentialDecayLR(0.01, 0.9, 1)),
}


@pytest.mark.parametrize('optimizer', SCHEDULED)
def test_learning_rate_schedules_and_groups_under_jit(optimizer):
    results = []
    for compiled in (False, True):
        ms.set_seed(4)
        net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
        opt = SCHEDULED[optimizer](net.trainable_params())
        grad_fn = ms.value_and_grad(lambda x: ops.mean(net(x) ** 2), None, opt.parameters)

        def step(x):
            loss, grads = grad_fn(x)
            opt(grads)
            return loss
        step = ms.jit(step) if compiled else step
        results.append([step(_floats(i, (5, 3))).asnumpy() for i in range(5)] +
                       [p.asnumpy().copy() for p in net.get_parameters()])
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)
