"""Linear, BiDense, DenseBnAct and Conv2dBnAct: values against MindSpore 2.10 (in training
mode), parameter names and defaults, gradients, repr and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_case, check_layer_grad

# (cell, kwargs, input shapes, output shape, sum, sum of squares, first values): MindSpore
# 2.10's outputs in training mode for the ``det`` inputs and parameters of test_layers_support
CASES = [
    ('Linear', {'in_features': 3, 'out_features': 4}, [(2, 3)], (2, 4), -14.9431, 139.235,
     [-3.62741, -3.11233, -0.502101, 1.5898]),
    ('Linear', {'in_features': 3, 'out_features': 2, 'bias': False}, [(2, 2, 3)], (2, 2, 2),
     -14.074, 92.3898, [-2.12742, -1.71626, -5.00539, -5.40531]),
    ('BiDense', {'in1_channels': 2, 'in2_channels': 3, 'out_channels': 4}, [(5, 2), (5, 3)],
     (5, 4), -16.0911, 533.872, [-4.36854, 1.59789, -1.85468, -2.74641]),
    ('BiDense', {'in1_channels': 3, 'in2_channels': 2, 'out_channels': 2, 'has_bias': False},
     [(2, 2, 3), (2, 2, 2)], (2, 2, 2), -9.58207, 349.304, [-5.34068, 5.18076, -14.4529, 7.98991]),
    ('DenseBnAct', {'in_channels': 3, 'out_channels': 4, 'has_bn': True, 'activation': 'relu'},
     [(5, 3)], (5, 4), 13.1786, 28.9839, [0.242902, 0.0173798, 1.8667, 0.0]),
    ('DenseBnAct', {'in_channels': 3, 'out_channels': 4, 'activation': 'leakyrelu', 'alpha': 0.3},
     [(5, 3)], (5, 4), 5.50093, 81.502, [-1.08822, -0.9337, -0.15063, 1.5898]),
    ('Conv2dBnAct',
     {'in_channels': 2, 'out_channels': 3, 'kernel_size': 3, 'has_bn': True,
      'activation': 'leakyrelu', 'has_bias': True}, [(2, 2, 4, 4)], (2, 3, 4, 4), 76.4249, 176.56,
     [-0.0130632, -0.170967, -0.165745, -0.0124376]),
    ('Conv2dBnAct',
     {'in_channels': 2, 'out_channels': 2, 'kernel_size': 2, 'pad_mode': 'valid',
      'activation': 'sigmoid'}, [(1, 2, 3, 3)], (1, 2, 2, 2), 3.22261, 2.07609,
     [0.0475625, 0.0457179, 0.125893, 0.279982]),
]


@pytest.mark.parametrize('case', CASES, ids=lambda c: c[0])
def test_values_match_mindspore(case):
    check_case(*case, train=True)


def test_parameter_names_and_default_bounds():
    ms.set_seed(0)
    assert [n for n, _ in nn.Conv2dBnAct(2, 3, 3, has_bn=True, activation='relu')
            .parameters_and_names()] == ['conv.weight', 'batchnorm.moving_mean',
                                         'batchnorm.moving_variance', 'batchnorm.gamma',
                                         'batchnorm.beta']
    assert [n for n, _ in nn.DenseBnAct(2, 3, has_bn=True).parameters_and_names()] == [
        'dense.weight', 'dense.bias', 'batchnorm.moving_mean', 'batchnorm.moving_variance',
        'batchnorm.gamma', 'batchnorm.beta']
    net = nn.BiDense(4, 3, 50)
    assert net.weight.shape == (50, 4, 3) and net.bias.shape == (50,)
    assert 0.4 < np.abs(net.bias.asnumpy()).max() <= 0.5          # Uniform(1 / sqrt(4))
    net = nn.Linear(9, 40, dtype=ms.float64)
    assert net.weight.shape == (40, 9) and net.weight.dtype == ms.float64
    assert np.abs(net.bias.asnumpy()).max() <= 1 / 3 and nn.Linear(9, 4, False).bias is None
    assert nn.DenseBnAct(2, 3).dense.bias.asnumpy().tolist() == [0, 0, 0]     # 'zeros'


@pytest.mark.parametrize('net,shapes', [
    (nn.Linear(3, 2, dtype=ms.float64), [(2, 2, 3)]),
    (nn.BiDense(2, 3, 2, dtype=ms.float64), [(2, 2, 2), (2, 2, 3)]),
], ids=['linear', 'bidense'])
def test_gradients(net, shapes):
    rng = np.random.default_rng(9)
    for p in net.trainable_params():
        p.set_data(ms.Tensor(rng.standard_normal(p.shape)))
    check_layer_grad(net, *[rng.standard_normal(s) for s in shapes])


def test_bidense_is_the_bilinear_form():
    rng = np.random.default_rng(10)
    net = nn.BiDense(2, 3, 4, dtype=ms.float64)
    x1, x2 = rng.standard_normal((5, 2)), rng.standard_normal((5, 3))
    want = np.einsum('bi,oij,bj->bo', x1, net.weight.asnumpy(), x2) + net.bias.asnumpy()
    np.testing.assert_allclose(net(ms.Tensor(x1), ms.Tensor(x2)).asnumpy(), want, rtol=1e-12)


def test_reprs_print_as_mindspore():
    assert repr(nn.BiDense(2, 3, 4)) == ("BiDense(in1_channels=2, in2_channels=3, "
                                         "output_channels=4, has_bias=True)")
    assert repr(nn.BiDense(2, 3, 4, has_bias=False)) == ("BiDense(in1_channels=2, "
                                                         "in2_channels=3, output_channels=4)")
    assert repr(nn.Linear(2, 3)) == "Linear(input_features=2, output_features=3, has_bias=True)"
    assert repr(nn.Linear(2, 3, bias=False)) == "Linear(input_features=2, output_features=3)"
    assert repr(nn.DenseBnAct(2, 3, has_bn=True, activation='relu')) == (
        "DenseBnAct(\n  (dense): Dense(input_channels=2, output_channels=3, has_bias=True)\n"
        "  (batchnorm): BatchNorm1d(num_features=3, eps=1e-05, momentum=0.9, gamma=Parameter "
        "(name=batchnorm.gamma, shape=(3,), dtype=Float32, requires_grad=True), beta=Parameter "
        "(name=batchnorm.beta, shape=(3,), dtype=Float32, requires_grad=True), "
        "moving_mean=Parameter (name=batchnorm.moving_mean, shape=(3,), dtype=Float32, "
        "requires_grad=False), moving_variance=Parameter (name=batchnorm.moving_variance, "
        "shape=(3,), dtype=Float32, requires_grad=False))\n  (activation): ReLU()\n)")
    assert repr(nn.Conv2dBnAct(2, 3, 3, activation='leakyrelu')) == (
        "Conv2dBnAct(\n  (conv): Conv2d(input_channels=2, output_channels=3, kernel_size=(3, "
        "3), stride=(1, 1), pad_mode=same, padding=0, dilation=(1, 1), group=1, "
        "has_bias=False, weight_init=normal, bias_init=zeros, format=NCHW)\n"
        "  (activation): LeakyReLU()\n)")


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.Linear(0, 3), ValueError, "nn.Linear: in_features must be a positive int, "
                                          "got 0"),
    (lambda: nn.Linear(2, 3, bias=1), TypeError, "nn.Linear: bias must be a bool, got 1"),
    (lambda: nn.BiDense(2, 3, 4, weight_init=ms.Tensor(np.ones((4, 3, 2)))), ValueError,
     r"nn.BiDense: weight_init has shape \(4, 3, 2\), expected \(4, 2, 3\)"),
    (lambda: nn.DenseBnAct(2, 3, activation=3), TypeError,
     "nn.DenseBnAct: activation must be a str, a Cell or a Primitive, got int"),
    (lambda: nn.Conv2dBnAct(2, 3, 3, has_bn=1), TypeError,
     "nn.Conv2dBnAct: has_bn must be a bool, got 1"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()


def test_bad_inputs():
    with pytest.raises(ValueError, match=r"nn.BiDense 'BiDense': the last axis of input1 must "
                                         r"have length 2, got shape \(2, 3\)"):
        nn.BiDense(2, 3, 4)(ops.ones((2, 3)), ops.ones((2, 3)))
    with pytest.raises(ValueError, match=r"nn.BiDense 'BiDense': input1 \(2, 2\) and input2 "
                                         r"\(3, 3\) must have the same leading axes"):
        nn.BiDense(2, 3, 4)(ops.ones((2, 2)), ops.ones((3, 3)))
    with pytest.raises(TypeError, match="nn.Linear 'Linear': x must be a Tensor, got list"):
        nn.Linear(2, 3)([1.0, 2.0])
