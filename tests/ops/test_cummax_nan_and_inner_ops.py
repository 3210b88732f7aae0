"""Cummax / Cummin over NaN (values and indices as MindSpore 2.10 gives them on the CPU), and
``ops.operations._inner_ops``, where MindSpore's tests import Cummin from."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

NAN = float('nan')
X = [4, np.inf, 1.5, -np.inf, 0, NAN, 1, -2, NAN, 5]


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_a_nan_is_kept_and_each_later_nan_takes_the_index(dtype):
    x = ms.Tensor(np.array(X, dtype))
    values, index = ops.Cummax(0)(x)
    np.testing.assert_array_equal(values.asnumpy(),
                                  np.array([4, np.inf, np.inf, np.inf, np.inf] + [NAN] * 5, dtype))
    assert index.asnumpy().tolist() == [0, 1, 1, 1, 1, 5, 5, 5, 8, 8]
    values, index = ops.Cummin(0)(x)
    np.testing.assert_array_equal(values.asnumpy(),
                                  np.array([4, 4, 1.5, -np.inf, -np.inf] + [NAN] * 5, dtype))
    assert index.asnumpy().tolist() == [0, 0, 2, 3, 3, 5, 5, 5, 8, 8]


def test_without_nan_a_tie_still_takes_the_last_index():
    values, index = ops.cummax(ms.Tensor(np.array([[15.0, 15.0, 6.0, 11.0]])), 1)
    assert values.asnumpy().tolist() == [[15.0, 15.0, 15.0, 15.0]]
    assert index.asnumpy().tolist() == [[0, 1, 1, 1]]


def test_inner_ops_holds_cummin():
    from hookgrad.ops.operations import _inner_ops
    assert _inner_ops.Cummin is ops.Cummin and _inner_ops.Cast is ops.Cast
    values, index = _inner_ops.Cummin(1)(ms.Tensor(np.array([[9, 5, 5, 10]], np.int32)))
    assert values.asnumpy().tolist() == [[9, 5, 5, 5]]
    assert index.asnumpy().tolist() == [[0, 1, 2, 2]]
    with pytest.raises(AttributeError, match="_inner_ops"):
        _inner_ops.NoSuchPrimitive
