"""The Apply* optimizer Primitives (Adadelta, proximal gradient descent, AdaMax, proximal Adagrad,
PowerSign, AddSign) update their Parameters in place with
the values MindSpore 2.10 gives on the CPU (signed zeros included)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def _param(values, name):
    return ms.Parameter(ms.Tensor(np.array(values, np.float32)), name=name)


def test_adadelta_updates_var_and_both_accumulators():
    var = _param([[0.1, 0.2], [-0.3, 0.4]], 'var')
    accum = _param([[0.2, 0.3], [0.1, 0.0]], 'accum')
    update = _param([[0.3, 0.4], [0.2, 0.1]], 'accum_update')
    grad = ms.Tensor(np.array([[0.4, -0.5], [0.2, 0.0]], np.float32))
    out = ops.ApplyAdadelta()(var, accum, update, ms.Tensor(0.01), ms.Tensor(0.9),
                              ms.Tensor(1e-6), grad)
    expected = ([[0.09505129, 0.20582223], [-0.3029173, 0.4]], [[0.196, 0.295], [0.094, 0.0]],
                [[0.29448977, 0.39389828], [0.18851058, 0.09]])
    for got, param, want in zip(out, (var, accum, update), expected):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
        np.testing.assert_allclose(param.asnumpy(), want, rtol=1e-6)


def test_adadelta_takes_python_numbers():
    var, accum, update = _param([[0.1, 0.2]], 'v'), _param([[0.2, 0.3]], 'a'), _param([[0.3, 0.4]], 'u')
    ops.ApplyAdadelta()(var, accum, update, 0.001, 0.95, 1e-6,
                        ms.Tensor(np.array([[0.4, 0.5]], np.float32)))
    np.testing.assert_allclose(var.asnumpy(), [[0.09950764, 0.19942023]], rtol=1e-6)
    np.testing.assert_allclose(update.asnumpy(), [[0.2971212, 0.39680672]], rtol=1e-6)


def test_proximal_gradient_descent_shrinks_towards_zero():
    var = _param([0.5, -0.5, 0.01, -0.01], 'var')
    out = ops.ApplyProximalGradientDescent()(var, 0.1, 0.5, 0.2,
                                             ms.Tensor(np.array([0.3, -0.3, 0.0, 0.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [0.4117647, -0.4117647, 0.0, 0.0], rtol=1e-6)
    assert np.signbit(var.asnumpy()).tolist() == [False, True, False, True]


def test_a_var_that_is_not_a_tensor_is_refused():
    with pytest.raises(TypeError, match=r"ops\.ApplyProximalGradientDescent: var must be a "
                                         r"Parameter, got list"):
        ops.ApplyProximalGradientDescent()([1.0], 0.1, 0.0, 0.0, ms.Tensor([1.0]))
    with pytest.raises(TypeError, match=r"ops\.ApplyAdadelta: use_locking must be a bool"):
        ops.ApplyAdadelta(use_locking='no')


GRAD = np.array([0.4, -0.5, 0.0, 0.3], np.float32)


def test_adamax_updates_var_m_and_v():
    var, m, v = _param([0.1, 0.2, -0.3, 0.4], 'v'), _param([0.2, -0.1, 0.3, 0.0], 'm'), \
        _param([0.3, 0.4, 0.1, 0.2], 'u')
    ops.ApplyAdaMax()(var, m, v, 0.9, 0.01, 0.9, 0.99, 1e-6, ms.Tensor(GRAD))
    np.testing.assert_allclose(var.asnumpy(), [0.0450002, 0.228, -0.5727244, 0.39], rtol=1e-5)
    np.testing.assert_allclose(m.asnumpy(), [0.22, -0.14, 0.27, 0.03], rtol=1e-6)
    np.testing.assert_allclose(v.asnumpy(), [0.4, 0.5, 0.099, 0.3], rtol=1e-6)


def test_proximal_adagrad_shrinks_by_the_adagrad_step():
    var, accum = _param([0.1, -0.2, 0.01, 0.4], 'v'), _param([0.2, 0.1, 0.3, 0.5], 'a')
    out = ops.ApplyProximalAdagrad()(var, accum, 0.1, 0.2, 0.1, ms.Tensor(GRAD))
    np.testing.assert_allclose(out[0].asnumpy(), [0.0, -0.080320701, 0.0, 0.33060151], atol=1e-7)
    np.testing.assert_allclose(accum.asnumpy(), [0.36, 0.35, 0.3, 0.59], rtol=1e-6)


@pytest.mark.parametrize('op,base,expected', [
    (ops.ApplyPowerSign, 0.5, [0.093438, 0.2082025, -0.3, 0.3950785]),
    (ops.ApplyAddSign, 1.0, [0.09204, 0.20995, -0.3, 0.39403])])
def test_sign_updates_scale_the_gradient_by_agreement(op, base, expected):
    var, m = _param([0.1, 0.2, -0.3, 0.4], 'v'), _param([0.2, -0.1, 0.3, 0.0], 'm')
    out_var, out_m = op()(var, m, 0.01, base, 0.99, 0.9, ms.Tensor(GRAD))
    np.testing.assert_allclose(out_var.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(m.asnumpy(), [0.22, -0.14, 0.27, 0.03], rtol=1e-6)
