"""What a Cell's bprop may return, and gradients of gradients through it, as in MindSpore 2.10
(values produced by MindSpore 2.10 on the same inputs)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops


def T(v, dtype=np.float32):
    return ms.Tensor(np.asarray(v, dtype=dtype))


M = T([[1., 2.], [3., 4.]])
R = T([3., 4.])


class Product(nn.Cell):
    """x * y, with the backward rule it is given: ``rule(x, y, dout)``."""

    def __init__(self, rule):
        super().__init__()
        self.rule = rule

    def construct(self, x, y):
        return x * y

    def bprop(self, x, y, out, dout):
        return self.rule(x, y, dout)


def cell_with(rule):
    return Product(rule)


def test_a_gradient_in_a_broadcast_shape_is_summed_to_the_input_shape():
    gx, gy = ms.grad(cell_with(lambda x, y, dout: (dout, dout)), (0, 1))(M, R)
    np.testing.assert_array_equal(gx.asnumpy(), [[1., 1.], [1., 1.]])
    np.testing.assert_array_equal(gy.asnumpy(), [2., 2.])
    ones_row = lambda x, y, dout: (dout * y, T(np.ones((1, 2))))
    np.testing.assert_array_equal(ms.grad(cell_with(ones_row), (0, 1))(M, R)[1].asnumpy(),
                                  [1., 1.])
    deep = lambda x, y, dout: (dout * y, T(np.ones((2, 2, 2))))
    np.testing.assert_array_equal(ms.grad(cell_with(deep), (0, 1))(M, R)[1].asnumpy(), [4., 4.])


def test_extra_gradients_are_ignored():
    extra = lambda x, y, dout: (dout * y, dout * x, dout, dout)
    gx, gy = ms.grad(cell_with(extra), (0, 1))(M, R)
    np.testing.assert_array_equal(gx.asnumpy(), [[3., 4.], [3., 4.]])
    np.testing.assert_array_equal(gy.asnumpy(), [4., 6.])


def test_other_dtypes_are_cast_and_none_is_a_zero_gradient():
    as_f64 = lambda x, y, dout: (dout * y, T(np.ones((2, 2)), np.float64))
    gy = ms.grad(cell_with(as_f64), (0, 1))(M, R)[1]
    assert gy.dtype == ms.float32
    np.testing.assert_array_equal(gy.asnumpy(), [2., 2.])
    as_int = lambda x, y, dout: (dout * y, T([4, 4], np.int32))
    np.testing.assert_array_equal(ms.grad(cell_with(as_int), (0, 1))(M, R)[1].asnumpy(),
                                  [4., 4.])
    none = lambda x, y, dout: (dout * y, None)
    np.testing.assert_array_equal(ms.grad(cell_with(none), (0, 1))(M, R)[1].asnumpy(), [0., 0.])


def test_parameter_gradients_are_summed_to_the_parameter_shape_too():
    class WithParam(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(T([2., 3.]), name='w')
            self.internal_params = [self.w]

        def construct(self, x):
            return self.w * x

        def bprop(self, *args):
            return (self.w * args[-1],), {self.w: T(np.ones((3, 2)))}

    cell = WithParam()
    gx, gw = ms.grad(cell, 0, cell.w)(T([1., 1.]))
    np.testing.assert_array_equal(gx.asnumpy(), [2., 3.])
    np.testing.assert_array_equal(gw.asnumpy(), [3., 3.])


def test_shapes_that_do_not_broadcast_still_fail():
    scalar = lambda x, y, dout: (dout * y, 2.0)
    with pytest.raises(ValueError, match=r"bprop of Cell 'Product' returned gradient 1 of shape \(\), expected shape \(2,\)"):
        ms.grad(cell_with(scalar), (0, 1))(M, R)
    wrong = lambda x, y, dout: (dout * y, T([1., 1., 1.]))
    with pytest.raises(ValueError, match=r"returned gradient 1 of shape \(3,\), expected shape \(2,\)"):
        ms.grad(cell_with(wrong), (0, 1))(M, R)


class CubeRule(nn.Cell):
    """x * x forward, with the deliberately different backward 3 x^2 dout."""

    def construct(self, x):
        return x * x

    def bprop(self, x, out, dout):
        return (3 * x * x * dout,)


def test_higher_order_gradients_differentiate_what_bprop_computed():
    x = T([0.5, 2.0])
    np.testing.assert_allclose(ms.grad(CubeRule())(x).asnumpy(), [0.75, 12.])
    np.testing.assert_allclose(ms.grad(ms.grad(CubeRule()))(x).asnumpy(), [3., 12.])
    np.testing.assert_allclose(ms.grad(ms.grad(ms.grad(CubeRule())))(x).asnumpy(), [6., 6.])


def test_mixed_and_zero_second_derivatives():
    y = T([3., 4.])
    x = T([0.5, 2.0])
    rule = cell_with(lambda a, b, dout: (dout * b * b, dout * a))
    np.testing.assert_allclose(ms.grad(ms.grad(rule, 0), 1)(x, y).asnumpy(), [6., 8.])
    np.testing.assert_array_equal(ms.grad(ms.grad(rule, 0), 0)(x, y).asnumpy(), [0., 0.])


def test_out_and_dout_are_connected_on_a_recorded_pass():
    class ExpRule(nn.Cell):
        def construct(self, x):
            return ops.exp(x)

        def bprop(self, x, out, dout):
            return (out * dout,)

    class SquaredDout(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (dout * dout * x,)

    x = T([0.5, 2.0])
    np.testing.assert_allclose(ms.grad(ms.grad(ExpRule()))(x).asnumpy(), np.exp([0.5, 2.0]),
                               rtol=1e-6)
    for a, c in ((0.5, 3.0), (2.0, 4.0), (3.0, 1.0)):
        inner = lambda b, scale: SquaredDout()(b) * scale     # dout = scale: grad = scale^2 b
        outer = lambda scale, b: ms.grad(inner, 0)(b, scale)
        ga, gc = ms.grad(outer, (0, 1))(T([a]), T([c]))
        assert (ga.item(), gc.item()) == (pytest.approx(2 * a * c), pytest.approx(a * a))


def test_create_graph_backward_through_bprop():
    x = T([0.5, 2.0])
    x.requires_grad = True
    y = CubeRule()(x).sum()
    y.backward(create_graph=True)
    g = x.grad
    x.grad = None
    g.sum().backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [3., 12.])
