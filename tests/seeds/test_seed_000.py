"""Seed 000 (MindSpore hook programming guide): its examples with their printed output.

The Conv2d + BatchNorm2d backward-hook examples are in tests/seeds/test_seed_000_conv.py."""
import numpy as np

import hookgrad as ms
from hookgrad import nn, ops


def test_hook_backward_example_prints_the_seed_output(capsys):
    ms.set_context(mode=ms.PYNATIVE_MODE)

    def hook_fn(grad_out):
        print("hook_fn print grad_out:", grad_out)

    hook = ops.HookBackward(hook_fn)

    def hook_test(x, y):
        z = x * y
        z = hook(z)
        z = z * y
        return z

    def net(x, y):
        return ms.grad(hook_test, grad_position=(0, 1))(x, y)

    output = net(ms.Tensor(1, ms.float32), ms.Tensor(2, ms.float32))
    print("output:", output)
    assert capsys.readouterr().out.splitlines() == [
        "hook_fn print grad_out: (Tensor(shape=[], dtype=Float32, value= 2),)",
        "output: (Tensor(shape=[], dtype=Float32, value= 4), "
        "Tensor(shape=[], dtype=Float32, value= 4))",
    ]


# ------------------------------------------------------------------ the Cell hook examples
def _relu_net(**hooks):
    """Seed 000's Net: ``relu(x + y)`` with the given hooks registered on its ReLU."""
    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.relu = nn.ReLU()
            self.handles = [getattr(self.relu, f"register_{kind}")(fn)
                            for kind, fn in hooks.items()]

        def construct(self, x, y):
            x = x + y
            x = self.relu(x)
            return x
    return Net()


def _ones():
    return ms.Tensor(np.ones([1]).astype(np.float32))


def test_forward_pre_hook_example(capsys):
    def forward_pre_hook_fn(cell, inputs):
        print("forward inputs: ", inputs)
        input_x = inputs[0]
        return input_x

    net = _relu_net(forward_pre_hook=forward_pre_hook_fn)
    grad_net = ms.grad(net, grad_position=(0, 1))
    x, y = _ones(), _ones()
    output = net(x, y)
    print(output)
    gradient = grad_net(x, y)
    print(gradient)
    net.handles[0].remove()
    gradient = grad_net(x, y)
    print(gradient)
    assert capsys.readouterr().out.splitlines() == [
        "forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)",
        "[2.]",
        "forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)",
        "(Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))",
        "(Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))",
    ]


def test_forward_pre_hook_returning_a_new_tensor_cuts_the_gradient(capsys):
    def forward_pre_hook_fn(cell, inputs):
        print("forward inputs: ", inputs)
        return ms.Tensor(np.ones([1]).astype(np.float32))

    net = _relu_net(forward_pre_hook=forward_pre_hook_fn)
    gradient = ms.grad(net, grad_position=(0, 1))(_ones(), _ones())
    print(gradient)
    assert capsys.readouterr().out.splitlines() == [
        "forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)",
        "(Tensor(shape=[1], dtype=Float32, value= [ 0.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 0.00000000e+00]))",
    ]


def test_forward_hook_example(capsys):
    def forward_hook_fn(cell, inputs, outputs):
        print("forward inputs: ", inputs)
        print("forward outputs: ", outputs)
        outputs = outputs + outputs
        return outputs

    net = _relu_net(forward_hook=forward_hook_fn)
    grad_net = ms.grad(net, grad_position=(0, 1))
    x, y = _ones(), _ones()
    print(grad_net(x, y))
    net.handles[0].remove()
    print(grad_net(x, y))
    assert capsys.readouterr().out.splitlines() == [
        "forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)",
        "forward outputs:  [2.]",
        "(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]))",
        "(Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))",
    ]


def test_all_four_hooks_on_one_cell(capsys):
    """Seed 000's multi-hook example. SPEC 5: the forward hook's added ``outputs + outputs`` lies
    outside the backward hooks' range, so the backward pre-hook sees 2 (the seed prints 1)."""
    def forward_pre_hook_fn(cell, inputs):
        print("forward inputs: ", inputs)
        input_x = inputs[0]
        return input_x

    def forward_hook_fn(cell, inputs, outputs):
        print("forward inputs: ", inputs)
        print("forward outputs: ", outputs)
        outputs = outputs + outputs
        return outputs

    def backward_pre_hook_fn(cell, grad_output):
        print("grad input: ", grad_output)

    def backward_hook_fn(cell, grad_input, grad_output):
        print("grad input: ", grad_output)
        print("grad output: ", grad_input)

    net = _relu_net(forward_pre_hook=forward_pre_hook_fn, forward_hook=forward_hook_fn,
                    backward_pre_hook=backward_pre_hook_fn, backward_hook=backward_hook_fn)
    grad_net = ms.grad(net, grad_position=(0, 1))
    gradient = grad_net(_ones(), _ones())
    print(gradient)
    two = "(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)"
    assert capsys.readouterr().out.splitlines() == [
        "forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)",
        "forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)",
        "forward outputs:  [2.]",
        "grad input:  " + two,          # the seed's printed output shows 1 here (SPEC 5)
        "grad input:  " + two,
        "grad output:  " + two,
        "(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]))",
    ]
