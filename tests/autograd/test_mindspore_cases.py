"""Cases from MindSpore's own tests of its PyNative gradients and hooks; the expected values
are MindSpore 2.10's."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops, Tensor, Parameter, ParameterTuple


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name='w')

    def construct(self, x, y):
        return (self.w * x * y).sum()


X = Tensor(np.array([3.0, 4.0], np.float32))
Y = Tensor(np.array([0.5, 2.0], np.float32))


def test_integer_parameters_get_gradients_in_their_dtype():
    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter([1, 2], name='w')
            self.b = Parameter([1, 2], name='b')

        def construct(self, x, y):
            return self.w * x + self.b + y

    net = Inner()
    x, y = Tensor([2, 2], ms.float32), Tensor([1, 2], ms.float32)
    grads = ms.grad(net, (0, 1), (net.w, net.b), return_ids=True)(x, y)
    gw = ms.get_grad(grads, net.w)
    assert gw.dtype == ms.int64
    np.testing.assert_array_equal(gw.asnumpy(), [2, 2])
    np.testing.assert_array_equal(ms.get_grad(grads, net.b).asnumpy(), [1, 1])
    np.testing.assert_array_equal(ms.get_grad(grads, 0).asnumpy(), [1, 2])


def test_integer_parameters_not_differentiated_get_no_gradient():
    w = Parameter([1, 2], name='w')
    gx = ms.grad(lambda x: (w * x).sum())(Tensor([1.0, 1.0]))
    np.testing.assert_array_equal(gx.asnumpy(), [1.0, 2.0])         # MindSpore 2.10
    x = Tensor([1.0, 1.0], requires_grad=True)
    (w * x).sum().backward()
    assert w.grad is None
    np.testing.assert_array_equal(x.grad.asnumpy(), [1.0, 2.0])


def test_get_by_list_without_weights_includes_a_returned_parameter():
    class ReturnsWeight(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor([5.0], ms.float32), name='w')

        def construct(self, x):
            return self.w

    grads = ops.GradOperation(get_by_list=True)(ReturnsWeight())(Tensor([2.0]))
    assert len(grads) == 1
    np.testing.assert_array_equal(grads[0].asnumpy(), [1.0])


def test_transforms_refuse_to_run_inside_mindspores_no_grad():
    with ms._no_grad():
        y = X * 2
        with pytest.raises(RuntimeError, match="In no_grad context, you can not calculate "
                                               "gradient"):
            ms.grad(lambda x: x * x)(X)
    assert not y.requires_grad
    with ms.no_grad():              # hookgrad's own no_grad lets them run
        np.testing.assert_array_equal(ms.grad(lambda x: (x * x).sum())(X).asnumpy(), [6, 8])
    np.testing.assert_array_equal(ms.grad(lambda x: (x * x).sum())(X).asnumpy(), [6, 8])


def test_no_grad_decorates_a_construct():
    class Doubling(nn.Cell):
        @ms._no_grad()
        def construct(self, x):
            return x + x

    x = Tensor([2.0], requires_grad=True)
    assert not Doubling()(x).requires_grad


def test_forward_value_and_grad():
    net = Scale()
    out, (gin, gw) = nn.ForwardValueAndGrad(net, ParameterTuple(net.trainable_params()),
                                            get_all=True, get_by_list=True)(X, Y)
    assert float(out) == 17.5
    np.testing.assert_array_equal(gin[0].asnumpy(), [0.5, 4.0])
    np.testing.assert_array_equal(gin[1].asnumpy(), [3.0, 8.0])
    np.testing.assert_array_equal(gw[0].asnumpy(), [1.5, 8.0])
    out, g = nn.ForwardValueAndGrad(net)(X, Y)
    np.testing.assert_array_equal(g.asnumpy(), [0.5, 4.0])
    out, g = nn.ForwardValueAndGrad(net, get_all=True, sens_param=True)(X, Y, Tensor(2.0))
    assert float(out) == 17.5
    np.testing.assert_array_equal(g[0].asnumpy(), [1.0, 8.0])
    np.testing.assert_array_equal(g[1].asnumpy(), [6.0, 16.0])


def test_forward_value_and_grad_runs_the_network_once():
    net = Scale()
    calls = []
    net.register_forward_hook(lambda cell, inputs, output: calls.append(1))
    nn.ForwardValueAndGrad(net)(X, Y)
    assert len(calls) == 1


def test_forward_value_and_grad_errors():
    with pytest.raises(TypeError, match="nn.ForwardValueAndGrad: network must be a Cell or a "
                                        "function, got int"):
        nn.ForwardValueAndGrad(3)
    with pytest.raises(TypeError, match="nn.ForwardValueAndGrad: get_all must be a bool, got 1"):
        nn.ForwardValueAndGrad(Scale(), get_all=1)
    with pytest.raises(TypeError, match="with get_by_list=True, weights must be a "
                                        "ParameterTuple, tuple or list of Parameters, got "
                                        "NoneType"):
        nn.ForwardValueAndGrad(Scale(), get_by_list=True)


def test_tensor_hooks_lists_the_registered_hooks():
    x = Tensor([1.0, 2.0])
    assert x.hooks() == []
    handle = x.register_hook(lambda g: g * 2)
    assert len(x.hooks()) == 1
    y = x * 3
    y.register_hook(lambda g: g)
    second = y.register_hook(lambda g: g)
    assert len(y.hooks()) == 2
    second.remove()
    handle.remove()
    assert len(y.hooks()) == 1 and x.hooks() == []


def test_jit_functions_are_refused_as_hooks():
    @ms.jit
    def hook(cell, inputs, output):
        return output

    cell = nn.ReLU()
    for register in (cell.register_forward_pre_hook, cell.register_forward_hook,
                     cell.register_backward_hook, Tensor([1.0]).register_hook):
        with pytest.raises(TypeError, match=r"Decorating hook function .*hook with '@jit' is not "
                                            "supported"):
            register(hook)


def test_a_wrong_number_of_hook_gradients_is_a_type_error_as_in_mindspore():
    class Mul(nn.Cell):
        def construct(self, a, b):
            return a * b

    m = Mul()
    m.register_backward_pre_hook(lambda cell, grad_output: (grad_output[0], grad_output[0]))
    with pytest.raises(TypeError, match="returned 2 gradients, expected 1"):
        ms.grad(m, (0, 1))(X, Y)


def test_with_grad_cell():
    net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
    x, t = Tensor(np.ones((1, 2), np.float32)), Tensor(np.zeros((1, 1), np.float32))
    gw, gb = nn.WithGradCell(net, nn.MSELoss())(x, t)
    np.testing.assert_array_equal(gw.asnumpy(), [[4.0, 4.0]])       # MindSpore 2.10
    np.testing.assert_array_equal(gb.asnumpy(), [4.0])
    gw, gb = nn.WithGradCell(net, nn.MSELoss(), sens=Tensor(np.float32(3.0)))(x, t)
    np.testing.assert_array_equal(gw.asnumpy(), [[12.0, 12.0]])
    gw, _ = nn.WithGradCell(nn.WithLossCell(net, nn.MSELoss()))(x, t)
    np.testing.assert_array_equal(gw.asnumpy(), [[4.0, 4.0]])
    with pytest.raises(TypeError, match="nn.WithGradCell: sens must be None, a number, a Tensor "
                                        "or a tuple, got str"):
        nn.WithGradCell(net, sens='x')
    assert nn.wrap.TimeDistributed is nn.TimeDistributed


# ---------------------------------------------------------------- user backward rules on integers
class AffineBprop(nn.Cell):
    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return Tensor(5, x.dtype), Tensor(7, x.dtype)


def _values(grads):
    return [(g.dtype, g.asnumpy().tolist()) for g in grads]


@pytest.mark.parametrize('dtype', [ms.float32, ms.int32, ms.int64])
def test_a_custom_bprop_decides_the_gradient_whatever_the_input_dtype(dtype):
    x, y = Tensor(1, dtype), Tensor(3, dtype)
    expected = [(dtype, 5), (dtype, 7)]                               # MindSpore 2.10
    assert _values(ops.GradOperation(get_all=True)(AffineBprop())(x, y)) == expected
    assert _values(ms.grad(AffineBprop(), grad_position=(0, 1))(x, y)) == expected


def test_a_custom_bprop_with_mixed_integer_and_float_inputs():
    x, y = Tensor(1, ms.int32), Tensor(3.0, ms.float32)
    grads = ms.grad(AffineBprop(), grad_position=(0, 1))(x, y)
    assert _values(grads) == [(ms.int32, 5), (ms.float32, 7)]         # MindSpore 2.10


def test_a_custom_bprop_of_several_integer_outputs():
    class Pair(nn.Cell):
        def construct(self, x, y):
            return x * y, x + y

        def bprop(self, x, y, out, dout):
            return dout[0] * 10 + dout[1], dout[1] * 100

    x, y = Tensor([1, 2], ms.int32), Tensor([3, 4], ms.int32)
    grads = ops.GradOperation(get_all=True)(Pair())(x, y)
    assert _values(grads) == [(ms.int32, [11, 11]), (ms.int32, [100, 100])]   # MindSpore 2.10
    grads = ops.GradOperation(get_all=True)(Pair())(x, Tensor([3.0, 4.0], ms.float32))
    assert _values(grads) == [(ms.int32, [11, 11]), (ms.float32, [100, 100])]


def test_custom_vjp_rules_hold_for_integer_inputs():
    @ops.custom_vjp
    def scaled(x, y):
        return x * y

    scaled.defbwd(lambda x, y, out, dout: (dout * 2 * x, dout * 3))
    x, y = Tensor([1, 2], ms.int32), Tensor([3, 4], ms.int32)
    grads = ms.grad(scaled, (0, 1))(x, y)
    assert _values(grads) == [(ms.int32, [2, 4]), (ms.int32, [3, 3])]   # MindSpore 2.10


@pytest.mark.parametrize('dtype', [ms.float32, ms.int32])
def test_cell_backward_hooks_replace_gradients_of_integer_inputs(dtype):
    class Affine(nn.Cell):
        def construct(self, x, y):
            return 2 * x + y

    x, y = Tensor(1, dtype), Tensor(3, dtype)
    net = Affine()
    net.register_backward_hook(lambda cell, grad_input, grad_output:
                               (grad_input[0] * 10, grad_input[1] * 100))
    assert _values(ms.grad(net, grad_position=(0, 1))(x, y)) == [(dtype, 20), (dtype, 100)]
    net = Affine()
    net.register_backward_pre_hook(lambda cell, grad_output: (grad_output[0] * 10,))
    assert _values(ms.grad(net, grad_position=(0, 1))(x, y)) == [(dtype, 20), (dtype, 10)]


# ---------------------------------------------------------------- outputs that are inputs
def test_gradient_of_a_cell_returning_its_inputs():
    class Both(nn.Cell):
        def construct(self, x, y):
            return x, y

    x, y = Tensor([1.0, 2.0], ms.float32), Tensor([3.0, 4.0], ms.float32)
    grads = ops.GradOperation(get_all=True)(Both())(x, y)
    assert _values(grads) == [(ms.float32, [1, 1]), (ms.float32, [1, 1])]   # MindSpore 2.10
    grads = ops.GradOperation(get_all=True)(Both())(x, x)                    # one tensor, twice
    assert _values(grads) == [(ms.float32, [2, 2]), (ms.float32, [2, 2])]
    xi = Tensor([1, 2], ms.int32)
    assert _values(ops.GradOperation(get_all=True)(Both())(xi, xi)) == \
        [(ms.int32, [2, 2]), (ms.int32, [2, 2])]
    value, grads = ms.value_and_grad(lambda a, b: (b, a), grad_position=(0, 1))(x, y)
    assert _values(grads) == [(ms.float32, [1, 1]), (ms.float32, [1, 1])]


def test_outputs_that_are_distinct_inputs_of_equal_value_each_get_their_gradient():
    # roots are told apart by identity: equal values must not merge two inputs
    x, y = Tensor([1.0], ms.float32), Tensor([1.0], ms.float32)
    grads = ms.grad(lambda a, b: (a, b), grad_position=(0, 1))(x, y)
    assert _values(grads) == [(ms.float32, [1]), (ms.float32, [1])]         # MindSpore 2.10
