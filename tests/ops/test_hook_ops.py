"""The ops hooks are made of: HookBackward, the cell boundary and the custom-bprop node.

As rows their hooks keep the gradient they see (or hand it back unchanged), so the result is
the true derivative of the function around them and finite differences check it.
"""
import numpy as np

from hookgrad import nn, ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

SHAPES = [((3,),), ((2, 3),)]


def through_hook_backward(x):
    seen = ops.HookBackward(lambda grads: None)
    same = ops.HookBackward(lambda grads: grads)
    return ops.sin(same(seen(x * x)))


class Square(nn.Cell):
    def construct(self, x):
        return x * x


def hooked_cell():
    cell = Square()
    cell.register_backward_pre_hook(lambda c, grad_output: grad_output)
    cell.register_backward_hook(lambda c, grad_input, grad_output: grad_input)
    return cell


class SquareWithBprop(Square):
    def bprop(self, x, out, dout):
        return (2 * x * dout,)


CASES = [
    Case('HookBackward', through_hook_backward, ref=lambda x: np.sin(x * x), shapes=SHAPES),
    Case('CellBoundary', lambda x: ops.exp(hooked_cell()(x)), ref=lambda x: np.exp(x * x),
         shapes=SHAPES),
    # bprop's gradients are constants for higher-order gradients: no second-order check
    Case('CellBprop', lambda x: ops.exp(SquareWithBprop()(x)), ref=lambda x: np.exp(x * x),
         shapes=SHAPES, double=False),
]


globals().update(row_tests(CASES))
