"""ops.ApplyFtrl: the FTRL-proximal update in place, with the values MindSpore 2.10's CPU kernel
gives (including its ``l1 - linear`` shrink for a negative ``linear``)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def _params(var, accum, linear):
    return tuple(ms.Parameter(ms.Tensor(np.array(v, np.float32)), name=n)
                 for v, n in ((var, 'var'), (accum, 'accum'), (linear, 'linear')))


def test_update_in_place_matches_mindspore():
    var, accum, linear = _params([0.001, -0.001, 0.6, -0.6], [0.6] * 4, [3.0, -3.0, 0.9, -0.9])
    grad = ms.Tensor(np.array([0.3, 0.3, 0.3, -0.3], np.float32))
    out = ops.ApplyFtrl()(var, accum, linear, grad, 0.1, 0.5, 0.1, -0.5)
    expected = [-0.32908934, 0.3761115, -0.042743813, 0.16029926]
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(accum.asnumpy(), [0.69] * 4, rtol=1e-6)
    np.testing.assert_allclose(linear.asnumpy(), [3.2994394, -2.6994393, 0.86360556, -0.86360556],
                               rtol=1e-6)
    assert out.dtype == ms.float32


def test_tensor_hyperparameters_and_a_small_linear_gives_zero():
    var, accum, linear = _params([0.6, 0.4], [0.6, 0.5], [0.9, 0.1])
    grad = ms.Tensor(np.array([0.3, 0.7], np.float32))
    ops.ApplyFtrl()(var, accum, linear, grad, ms.Tensor(0.01), ms.Tensor(0.0), ms.Tensor(0.2),
                    ms.Tensor(-0.25))
    np.testing.assert_allclose(var.asnumpy(), [0.007403306, 0.054556347], rtol=1e-6)
    np.testing.assert_allclose(linear.asnumpy(), [-0.67770374, -5.463767], rtol=1e-6)
    var, accum, linear = _params([0.1], [0.2], [0.7])
    ops.ApplyFtrl()(var, accum, linear, ms.Tensor(np.array([0.1], np.float32)), 0.001, 0.5, 0.1,
                    -0.5)
    assert var.asnumpy().tolist() == [0.0]


def test_var_must_be_a_parameter():
    with pytest.raises(TypeError, match=r"ops\.ApplyFtrl: var must be a Parameter, got list"):
        ops.ApplyFtrl()([1.0], ms.Tensor([1.0]), ms.Tensor([1.0]), ms.Tensor([1.0]), 0.1, 0.0,
                        0.0, -0.5)
    with pytest.raises(TypeError, match=r"ops\.ApplyFtrl: use_locking must be a bool"):
        ops.ApplyFtrl(use_locking=1)
