"""A training step compiled with ``@ms.jit``, updated by an optimizer written the way
MindSpore's own are (MultitypeFuncGraph, HyperMap, partial), and a Parameter changed at run
time with ops.assign.

Run with MindSpore, or unchanged on hookgrad: hookgrad run examples/jit_custom_optimizer.py
"""
import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore.common import dtype as mstype

ms.set_seed(3)
_momentum_update = ops.MultitypeFuncGraph("momentum_update")


@_momentum_update.register("Tensor", "Tensor", "Tensor", "Tensor", "Tensor")
def _update(lr, momentum, param, moment, grad):
    ops.assign(moment, moment * momentum + grad)
    ops.assign(param, param - lr * moment)
    return param


class PlainMomentum(nn.Optimizer):
    def __init__(self, params, learning_rate, momentum):
        super().__init__(learning_rate, params)
        self.momentum = Tensor(momentum, mstype.float32)
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.hyper_map = ops.HyperMap()

    def construct(self, gradients):
        lr = self.get_lr()
        return self.hyper_map(ops.partial(_momentum_update, lr, self.momentum),
                              self.parameters, self.moments, gradients)


rng = np.random.default_rng(0)
w_true = rng.normal(size=(4, 1)).astype(np.float32)
x = Tensor(rng.normal(size=(64, 4)).astype(np.float32))
y = Tensor(x.asnumpy() @ w_true)

net = nn.Dense(4, 1)
loss_fn = nn.MSELoss()
optimizer = PlainMomentum(net.trainable_params(), 0.05, 0.9)


def forward_fn(x, y):
    return loss_fn(net(x), y)


grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)


@ms.jit
def train_step(x, y):
    loss, grads = grad_fn(x, y)
    optimizer(grads)
    return loss


for step in range(100):
    loss = train_step(x, y)
print(f"loss after 100 steps: {float(loss.asnumpy()):.6f}")
assert float(loss.asnumpy()) < 1e-2

offset = Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="offset")


@ms.jit
def shift(value):
    ops.assign(offset, offset + value)
    return offset


shift(Tensor(np.array([2.0, 2.0, 2.0], np.float32)))
print(shift(Tensor(np.array([4.0, 4.0, 4.0], np.float32))))
