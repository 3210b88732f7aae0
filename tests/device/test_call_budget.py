"""How many calls into the device's API a training step makes, counted on the CUDA stand-in.

On a GPU each call (a CuPy function, ufunc, kernel or advanced index) costs host time, 10 to 30
microseconds, and small networks spend their step in them: an H200 ran LeNet-5's step in about
as long as its calls take to issue. These budgets keep the count from creeping up; lower them
when a change saves calls."""
import collections

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.kernels import fake_cuda
from tests.device.common import GPU, STAND_IN, on

pytestmark = pytest.mark.skipif(not STAND_IN, reason='calls are counted on the CUDA stand-in')

BUDGETS = {'mlp': 56, 'lenet': 160, 'resnet18': 1180}


def _network(name, rng):
    if name == 'mlp':
        net = nn.SequentialCell([nn.Dense(32, 32) if i % 2 == 0 else nn.ReLU()
                                 for i in range(7)])
        data = (rng.standard_normal((16, 32)), rng.standard_normal((16, 32)))
        return net, nn.MSELoss(), [ms.Tensor(a.astype(np.float32)) for a in data]
    net = ms.vision.LeNet5(10) if name == 'lenet' else \
        ms.vision.resnet18(num_classes=10, cifar=True)
    shape = (8, 1, 32, 32) if name == 'lenet' else (4, 3, 16, 16)
    x = ms.Tensor(rng.standard_normal(shape).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, shape[0]).astype(np.int32))
    return net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean'), [x, y]


@pytest.mark.parametrize('name', sorted(BUDGETS))
def test_a_training_step_stays_within_its_call_budget(name):
    with on(GPU):
        net, loss_fn, (x, y) = _network(name, np.random.default_rng(0))
        net.set_train()
        opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
        grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, opt.parameters)

        def step():
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss
        step()                                  # first calls: initialisation, caches
        before = collections.Counter(fake_cuda.calls)
        loss = step()
        used = sum((fake_cuda.calls - before).values())
    assert np.isfinite(loss.asnumpy())
    assert used <= BUDGETS[name], f"{name}: {used} device calls per step, budget {BUDGETS[name]}"
    assert used >= BUDGETS[name] * 0.8, \
        f"{name}: {used} device calls per step: lower its budget ({BUDGETS[name]})"
