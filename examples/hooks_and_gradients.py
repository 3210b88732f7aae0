"""Watching and changing gradients the MindSpore way: Cell forward and backward hooks, a tensor
hook, ops.HookBackward, a Cell with a custom bprop, GradOperation and ops.stop_gradient.

Run with MindSpore, or unchanged on hookgrad: hookgrad run examples/hooks_and_gradients.py
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.ops import composite as C

ms.set_context(mode=ms.PYNATIVE_MODE)
ms.set_seed(0)


def show(name, value):
    print(f"{name}: {np.round(value.asnumpy(), 4).tolist()}")


class Scale(nn.Cell):
    """y = 2x with a gradient chosen by its own bprop: 10 * dout."""

    def construct(self, x):
        return x * 2

    def bprop(self, x, out, dout):
        return (dout * 10,)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')
        self.scale = Scale()
        self.watch = ops.HookBackward(lambda grads: show("gradient at the HookBackward", grads[0]))

    def construct(self, x):
        return ops.sum(self.scale(self.watch(self.fc(x))))


net = Net()
x = Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))


def forward_hook(cell, inputs, output):
    show("Dense output", output)


def backward_hook(cell, grad_input, grad_output):
    show("gradient leaving Dense", grad_input[0])


handles = [net.fc.register_forward_hook(forward_hook),
           net.fc.register_backward_hook(backward_hook)]
grad_all = C.GradOperation(get_all=True)
show("gradient of the input", grad_all(net)(x)[0])
for handle in handles:
    handle.remove()

grad_weights = C.GradOperation(get_by_list=True)(net, net.trainable_params())
show("gradient of the weight", grad_weights(x)[0])

y = Tensor(np.array([1.0, -2.0], np.float32))
grad_fn = ms.grad(lambda t: ops.sum(ops.stop_gradient(t * 3) + t * t), grad_position=0)
show("gradient through stop_gradient", grad_fn(y))
