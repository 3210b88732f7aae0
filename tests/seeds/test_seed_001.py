"""Seed 001 (PyTorch hook article): the tensor-hook example and the module-hook example."""
import numpy as np

import hookgrad as ms
from hookgrad import nn, ops


def test_tensor_hook_sees_gradient_of_mean_sqrt():
    x = ms.Tensor([[0.5681], [0.4868], [0.9277]], requires_grad=True)
    seen = []
    y = x + 3
    z = ops.mean(ops.pow(y, 1 / 2))
    y.register_hook(lambda grad: seen.append(grad.asnumpy().copy()))
    z.backward()
    expected = 1 / (6 * np.sqrt(x.asnumpy() + 3))
    assert len(seen) == 1
    np.testing.assert_allclose(seen[0], expected, rtol=1e-6)
    # the seed prints these values, rounded to four places
    np.testing.assert_allclose(seen[0], [[0.0882], [0.0893], [0.0841]], atol=5e-5)
    np.testing.assert_allclose(x.grad.asnumpy(), expected, rtol=1e-6)
    lr = 1e-3
    new_x = x.asnumpy() - lr * x.grad.asnumpy()
    np.testing.assert_allclose(new_x, [[0.5680], [0.4867], [0.9276]], atol=5e-5)


class MyMean(nn.Cell):          # the seed's custom division module
    def construct(self, input):
        out = input / 4
        return out


class MyNet(nn.Cell):
    """The seed's MyNet with nn.Dense in place of nn.Linear; weights 8, bias 2."""
    def __init__(self):
        super(MyNet, self).__init__()
        self.f1 = nn.Dense(4, 1, has_bias=True)
        self.f2 = MyMean()
        self.weight_init()

    def construct(self, input):
        self.input = input
        output = self.f1(input)
        output = self.f2(output)
        return output

    def weight_init(self):
        self.f1.weight.set_data(ops.fill(ms.float32, (1, 4), 8.0))
        self.f1.bias.set_data(ops.fill(ms.float32, (1,), 2.0))


def test_module_hooks_example():
    events = []

    def my_forward_hook(module, input, output):
        events.append(('forward', type(module).__name__, _values(input), _values(output)))

    def my_backward_hook(module, grad_input, grad_output):
        events.append(('backward', type(module).__name__, _values(grad_input),
                       _values(grad_output)))
        return grad_input

    def tensor_hook(grad):
        events.append(('tensor', _values(grad)))
        return grad

    input = ms.Tensor([1, 2, 3, 4], dtype=ms.float32, requires_grad=True)
    net = MyNet()
    net.f1.register_forward_hook(my_forward_hook)
    net.f2.register_forward_hook(my_forward_hook)
    net.f1.register_full_backward_hook(my_backward_hook)
    net.f2.register_full_backward_hook(my_backward_hook)
    input.register_hook(tensor_hook)
    result = net(input)
    np.testing.assert_array_equal(result.asnumpy(), [20.5])
    result.backward()
    assert events == [
        ('forward', 'Dense', [[1., 2., 3., 4.]], [82.]),
        ('forward', 'MyMean', [[82.]], [20.5]),
        ('backward', 'MyMean', [[0.25]], [[1.]]),
        ('backward', 'Dense', [[2., 2., 2., 2.]], [[0.25]]),
        ('tensor', [2., 2., 2., 2.]),
    ]
    np.testing.assert_array_equal(input.grad.asnumpy(), [2., 2., 2., 2.])
    np.testing.assert_array_equal(net.f1.weight.grad.asnumpy(), [[0.25, 0.5, 0.75, 1.0]])
    np.testing.assert_array_equal(net.f1.bias.grad.asnumpy(), [0.25])


def _values(x):
    """Tensors (or tuples of them) as nested lists, for whole-list comparison."""
    if isinstance(x, tuple):
        return [_values(t) for t in x]
    return x.asnumpy().tolist()
