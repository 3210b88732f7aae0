"""Gradients at the kinks of piecewise activations are MindSpore 2.10's (values from MindSpore
2.10 on the CPU: ``ms.grad(lambda a: cell(a).sum())(x)``)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn


@pytest.mark.parametrize('cell, points, want', [
    (nn.ReLU6, [0.0, 6.0], [0.0, 1.0]),
    (nn.HSigmoid, [-3.0, 3.0], [0.0, 0.0]),
    (nn.HSwish, [-3.0, 3.0], [-0.5, 1.5]),
])
def test_gradients_at_the_kinks(cell, points, want):
    x = ms.Tensor(np.array(points, np.float32))
    got = ms.grad(lambda a: cell()(a).sum())(x)
    np.testing.assert_array_equal(got.asnumpy(), np.float32(want))


def test_hsigmoid_values_and_dtype_are_kept():
    x = np.float32([-4, -3, -1, 0, 2.5, 3, 5])
    y = nn.HSigmoid()(ms.Tensor(x))
    assert y.dtype == ms.float32
    np.testing.assert_allclose(y.asnumpy(), np.clip(x / 6 + 0.5, 0, 1), rtol=1e-6)
    assert nn.HSigmoid()(ms.Tensor(x.astype(np.float16))).dtype == ms.float16
