"""Seed 000's Conv2d + BatchNorm2d examples: backward (pre-)hooks on a BatchNorm2d.

The seed's page folds runs of spaces and drops leading ones, so printed lines are compared
with white space folded; the values themselves are compared exactly as printed.
"""
import numpy as np

import hookgrad as ms
import hookgrad.nn as nn


def _net(kind, hook):
    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.conv = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones",
                                  pad_mode="valid")
            self.bn = nn.BatchNorm2d(2, momentum=0.99, eps=0.00001, gamma_init="ones")
            self.handle = getattr(self.bn, f"register_{kind}")(hook)
            self.relu = nn.ReLU()

        def construct(self, x):
            x = self.conv(x)
            x = self.bn(x)
            x = self.relu(x)
            return x
    return Net()


def _folded(text):
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


ONES = ("(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=",
        "[[[[ 1.00000000e+00]],",
        "[[ 1.00000000e+00]]]]),)")
BN_GRAD = ("(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=",
           "[[[[ 9.99994993e-01]],",
           "[[ 9.99994993e-01]]]]),)")
INPUT_GRAD = ("[[[[1.99999 1.99999]",
              "[1.99999 1.99999]]]]")


def _run(net, capsys):
    grad_net = ms.grad(net)
    output = grad_net(ms.Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
    print(output)
    net.handle.remove()
    output = grad_net(ms.Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
    print("-------------\n", output)
    return _folded(capsys.readouterr().out)


def test_backward_pre_hook_example(capsys):
    def backward_pre_hook_function(cell, grad_output):
        print(grad_output)

    lines = _run(_net('backward_pre_hook', backward_pre_hook_function), capsys)
    assert lines == [*ONES, *INPUT_GRAD, "-------------", *INPUT_GRAD]


def test_backward_hook_example(capsys):
    def backward_hook_function(cell, grad_input, grad_output):
        print(grad_input)
        print(grad_output)

    lines = _run(_net('backward_hook', backward_hook_function), capsys)
    assert lines == [*BN_GRAD, *ONES, *INPUT_GRAD, "-------------", *INPUT_GRAD]


def test_the_values_behind_the_printout():
    seen = {}

    def backward_hook_function(cell, grad_input, grad_output):
        seen['in'], seen['out'] = grad_input[0].asnumpy(), grad_output[0].asnumpy()

    net = _net('backward_hook', backward_hook_function)
    gx = ms.grad(net)(ms.Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
    scale = 1 / np.sqrt(np.float32(1 + 1e-5))       # predict mode: moving variance 1
    np.testing.assert_allclose(seen['in'], np.full((1, 2, 1, 1), scale), rtol=1e-6)
    np.testing.assert_array_equal(seen['out'], np.ones((1, 2, 1, 1)))
    np.testing.assert_allclose(gx.asnumpy(), np.full((1, 1, 2, 2), 2 * scale), rtol=1e-6)
    assert not net.bn.training          # a new Cell is in predict mode (SPEC 3)
