"""LGamma, DiGamma, IGamma, LBeta and L1Regularizer against MindSpore 2.10's values
(mindspore_loss_ext_values.json, written by record_loss_ext_values.py), their gradients, and the
argument errors; the containers under nn.layer."""
import json
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from tests.nn.record_loss_ext_values import CALLS, VALUES, inputs

with open(VALUES) as _fh:
    MINDSPORE = json.load(_fh)
ARRAYS = inputs()
T = ms.Tensor


def _f32(a):
    return T(np.asarray(a, np.float32))


@pytest.mark.parametrize('name', ['LGamma', 'DiGamma', 'IGamma', 'LBeta', 'L1Regularizer'])
def test_value_matches_mindspore(name):
    expr, grad_of = CALLS[name]
    env = {k: T(v) for k, v in ARRAYS.items()}
    for k in grad_of:
        env[k].requires_grad = True
    out = eval(expr, dict(env, nn=nn, ms=ms))  # noqa: S307  (record_loss_ext_values.CALLS)
    want = MINDSPORE[name]
    assert str(out.dtype) == want['value']['dtype'] and list(out.shape) == want['value']['shape']
    np.testing.assert_allclose(out.asnumpy(), want['value']['values'], rtol=1e-5, atol=1e-5)
    if grad_of:
        out.sum().backward()
        for k, g in want['grads'].items():
            np.testing.assert_allclose(env[k].grad.asnumpy(), g['values'], rtol=1e-6)


def test_lgamma_gradient_is_digamma_and_lbeta_is_lgammas():
    x = _f32([0.3, 1.7, 4.2, 11.0, -0.6])
    x.requires_grad = True
    nn.LGamma()(x).sum().backward()
    np.testing.assert_allclose(x.grad.asnumpy(), nn.DiGamma()(x.detach()).asnumpy(), rtol=1e-4)
    a, b = _f32([0.5, 3.0, 20.0]), _f32([2.0, 9.0, 30.0])
    lg = nn.LGamma()
    np.testing.assert_allclose(nn.LBeta()(a, b).asnumpy(),
                               (lg(a) + lg(b) - lg(a + b)).asnumpy(), rtol=1e-4)
    np.testing.assert_allclose(nn.LBeta()(a, b).asnumpy(),
                               [math.lgamma(p) + math.lgamma(q) - math.lgamma(p + q)
                                for p, q in ((0.5, 2.0), (3.0, 9.0), (20.0, 30.0))], rtol=1e-5)


def test_igamma_gradient_in_x_is_the_gamma_density():
    a, x = _f32([0.5, 2.5, 3.0, 7.0]), _f32([0.2, 1.5, 5.0, 3.0])
    x.requires_grad = True
    nn.IGamma()(a, x).sum().backward()
    av, xv = a.asnumpy().astype(np.float64), x.asnumpy().astype(np.float64)
    density = np.exp(-xv + (av - 1) * np.log(xv) - np.array([math.lgamma(v) for v in av]))
    np.testing.assert_allclose(x.grad.asnumpy(), density, rtol=1e-3)


def test_igamma_broadcasts():
    out = nn.IGamma()(_f32([[1.0], [2.0]]), _f32([0.5, 1.0, 3.0]))
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out.asnumpy()[0], 1 - np.exp(-np.array([0.5, 1.0, 3.0])),
                               rtol=1e-5)


def test_containers_are_under_nn_layer():
    assert nn.layer.CellDict is nn.CellDict and nn.layer.CellList is nn.CellList
    assert nn.layer.SequentialCell is nn.SequentialCell


@pytest.mark.parametrize('call,err,match', [
    (lambda: nn.LGamma()(T(np.ones(2))), TypeError, "x must be of dtype Float16, Float32, got "
                                                    "Float64"),
    (lambda: nn.DiGamma()(1.0), TypeError, "x must be a Tensor, got float"),
    (lambda: nn.IGamma()(_f32([1.0]), T(np.ones(1))), TypeError,
     "x must be of dtype Float32, got Float64"),
    (lambda: nn.IGamma()(T(np.ones(1, np.float16)), _f32([1.0])), TypeError,
     "a must be of dtype Float32"),
    (lambda: nn.LBeta()(_f32([1.0]), T(np.ones(1, np.float16))), TypeError,
     "y must be of dtype Float32, got Float16"),
    (lambda: nn.L1Regularizer('1'), TypeError, "scale must be an int or float, got str"),
    (lambda: nn.L1Regularizer(0), ValueError, "scale must be greater than 0, got 0"),
    (lambda: nn.L1Regularizer(math.inf), ValueError, "scale can not be inf or nan"),
    (lambda: nn.L1Regularizer(0.5)(np.ones(2)), TypeError,
     "weights must be a numeric Tensor, got ndarray"),
    (lambda: nn.L1Regularizer(0.5)(T(np.ones(2, bool))), TypeError,
     "weights must be a numeric Tensor, got Bool"),
])
def test_errors(call, err, match):
    with pytest.raises(err, match=match):
        call()
