"""Seed 003 (MindSpore 'Cell and Parameter'; seed 002 is its Chinese version): its examples.

Values drawn from ``np.random.randn`` in the seed are random there; the tests check the
relations the seed's printout shows instead of those particular numbers.
"""
import numpy as np
import pytest

import hookgrad as ms
import hookgrad as mindspore
from hookgrad import Parameter, ParameterTuple, Tensor, nn, ops
from hookgrad.common.initializer import initializer


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.random.randn(5, 3), mindspore.float32), name='w')  # weight
        self.b = Parameter(Tensor(np.random.randn(3,), mindspore.float32), name='b')  # bias

    def construct(self, x):
        z = ops.matmul(x, self.w) + self.b
        return z


def test_obtaining_parameters(capsys):
    net = Network()
    print(net.trainable_params())
    assert capsys.readouterr().out.strip() == (
        "[Parameter (name=w, shape=(5, 3), dtype=Float32, requires_grad=True), "
        "Parameter (name=b, shape=(3,), dtype=Float32, requires_grad=True)]")
    print(type(net.get_parameters()))
    assert capsys.readouterr().out.strip() == "<class 'generator'>"
    named = list(net.parameters_and_names())
    assert [n for n, _ in named] == ['w', 'b']
    assert named[0][1] is net.w and named[1][1] is net.b


def test_modifying_parameter_values():
    net = Network()
    old = net.b.asnumpy().copy()
    net.b[0] = 1.
    np.testing.assert_array_equal(net.b.asnumpy(), [1., old[1], old[2]])
    net.b.set_data(Tensor([3, 4, 5]))
    assert str(net.b.asnumpy()) == "[3. 4. 5.]"
    assert net.b.dtype == ms.float32


def test_modifying_parameter_values_at_runtime_with_assign(capsys):
    net = Network()
    net.b.set_data(Tensor([3, 4, 5]))

    @ms.jit
    def modify_parameter():
        b_hat = ms.Tensor([7, 8, 9])
        ops.assign(net.b, b_hat)
        return True

    modify_parameter()
    print(net.b.asnumpy())
    assert capsys.readouterr().out == "[7. 8. 9.]\n"
    net.b.set_data(Tensor([3, 4, 5]))
    assert modify_parameter() is True and modify_parameter.replays == 1
    assert str(net.b.asnumpy()) == "[7. 8. 9.]"


def test_parameter_tuple_and_clone(capsys):
    x = Parameter(default_input=ms.Tensor(np.arange(2 * 3).reshape((2, 3))), name="x")
    y = Parameter(default_input=initializer('ones', [1, 2, 3], ms.float32), name='y')
    z = Parameter(default_input=2.0, name='z')
    params = ParameterTuple((x, y, z))
    params_copy = params.clone("params_copy")
    print(params)
    print(params_copy)
    assert capsys.readouterr().out.splitlines() == [
        "(Parameter (name=x, shape=(2, 3), dtype=Int64, requires_grad=True), "
        "Parameter (name=y, shape=(1, 2, 3), dtype=Float32, requires_grad=True), "
        "Parameter (name=z, shape=(), dtype=Float32, requires_grad=True))",
        "(Parameter (name=params_copy.x, shape=(2, 3), dtype=Int64, requires_grad=True), "
        "Parameter (name=params_copy.y, shape=(1, 2, 3), dtype=Float32, requires_grad=True), "
        "Parameter (name=params_copy.z, shape=(), dtype=Float32, requires_grad=True))",
    ]
    assert params_copy[1] is not y
    np.testing.assert_array_equal(params_copy[1].asnumpy(), y.asnumpy())


def test_training_state_change(capsys):
    net = Network()
    net.set_train()
    print(net.phase)
    net.set_train(False)
    print(net.phase)
    assert capsys.readouterr().out.splitlines() == ["train", "predict"]


class Threshold(nn.Cell):
    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = threshold
        self.value = value

    def construct(self, inputs):
        cond = ops.gt(inputs, self.threshold)
        value = ops.fill(inputs.dtype, inputs.shape, self.value)
        return ops.select(cond, inputs, value)


def test_threshold_layer_from_functions():
    m = Threshold(0.1, 20)
    inputs = mindspore.Tensor([0.1, 0.2, 0.3], mindspore.float32)
    printed = repr(m(inputs))
    # the seed's page folds runs of spaces; MindSpore pads each value for a sign, as NumPy does
    assert " ".join(printed.split()) == ("Tensor(shape=[3], dtype=Float32, value= [ 2.00000000e+01, "
                                         "2.00000003e-01, 3.00000012e-01])")
    assert printed.endswith("[ 2.00000000e+01,  2.00000003e-01,  3.00000012e-01])")


class Dropout2d(nn.Cell):
    def __init__(self, keep_prob):
        super().__init__()
        self.keep_prob = keep_prob
        self.dropout2d = ops.Dropout2D(keep_prob)

    def construct(self, x):
        return self.dropout2d(x)

    def bprop(self, x, out, dout):
        _, mask = out
        dy, _ = dout
        if self.keep_prob != 0:
            dy = dy * (1 / self.keep_prob)
        dy = mask.astype(mindspore.float32) * dy
        return (dy.astype(x.dtype), )


@pytest.mark.parametrize('grad_fn', ['grad', 'backward'])
def test_custom_bprop_dropout2d(grad_fn):
    dropout_2d = Dropout2d(0.8)
    dropout_2d.bprop_debug = True
    ms.set_seed(5)
    x = ms.Tensor(np.random.default_rng(0).uniform(1, 2, (4, 8, 3, 3)).astype(np.float32))
    if grad_fn == 'grad':
        out = [None]

        def f(x):
            y, mask = dropout_2d(x)
            out[0] = (y, mask)
            return y

        gx = ms.grad(f)(x)
        y, mask = out[0]
    else:
        x.requires_grad_()
        y, mask = dropout_2d(x)
        y.sum().backward()
        gx = x.grad
    kept = mask.asnumpy()
    assert kept.dtype == np.bool_ and 0 < kept.mean() < 1
    # whole channels are kept or dropped, and the custom rule is what ran: mask / keep_prob
    assert (kept.all(axis=(2, 3)) | ~kept.any(axis=(2, 3))).all()
    np.testing.assert_allclose(gx.asnumpy(), kept / 0.8, rtol=1e-6)
    np.testing.assert_allclose(y.asnumpy(), x.asnumpy() * kept / 0.8, rtol=1e-6)
    ms.set_seed(5)      # the automatic gradient through ops.dropout2d draws the same mask
    auto = ms.grad(lambda t: ops.dropout2d(t, 0.2))(x)
    np.testing.assert_allclose(auto.asnumpy(), gx.asnumpy(), rtol=1e-6)


class NetWithParam(nn.Cell):
    def __init__(self):
        super(NetWithParam, self).__init__()
        self.w = Parameter(Tensor(np.array([2.0], dtype=np.float32)), name='weight')
        self.internal_params = [self.w]

    def construct(self, x):
        output = self.w * x
        return output

    def bprop(self, *args):
        return (self.w * args[-1],), {self.w: args[0] * args[-1]}


def test_custom_bprop_with_internal_parameter_gradient():
    net = NetWithParam()
    x = Tensor(np.array([3.0], dtype=np.float32))
    gx, (gw,) = ms.grad(net, grad_position=0, weights=net.trainable_params())(x)
    np.testing.assert_array_equal(gx.asnumpy(), [2.0])      # w * dout
    np.testing.assert_array_equal(gw.asnumpy(), [3.0])      # x * dout
    assert net.w.name == 'weight'
