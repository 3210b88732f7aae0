"""The ops hooks are made of: HookBackward, the cell boundary and the custom-bprop node.

As rows their hooks keep the gradient they see (or hand it back unchanged), so the result is
the true derivative of the function around them and finite differences check it.
"""
import numpy as np
import pytest

from hookgrad import nn, ops
from hookgrad.testing.cases import Case
from tests.ops.rows import params

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


@pytest.mark.parametrize('case,shapes', params(CASES))
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_forward_matches_numpy(case, shapes, dtype):
    case.check_forward(shapes, dtype)


@pytest.mark.parametrize('case,shapes', params(CASES, grad=True))
def test_backward_matches_finite_differences(case, shapes):
    case.check_backward(shapes)


@pytest.mark.parametrize('case,shapes', params(CASES, double=True))
def test_double_backward_matches_finite_differences(case, shapes):
    case.check_double_backward(shapes)
