"""Gradients through integer and bool casts, as MindSpore 2.10 computes them.

MindSpore's Cast passes the gradient back converted to the source dtype, whatever the dtypes:
a float cast to an integer still gets a gradient, and a gradient that reaches an integer
tensor through the cast a promotion inserts is truncated to that integer type. The expected
values below are MindSpore 2.10's (CPU, PyNative), for x = [1.5, -2.5, 0.7].
"""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

X = np.array([1.5, -2.5, 0.7], np.float32)

MINDSPORE_GRADIENTS = [
    ('int_sum', lambda x: x.astype(ms.int32).sum(), [1, 1, 1]),
    ('int_times_float', lambda x: (x.astype(ms.int32) * x).sum(), [2, -4, 0]),
    ('int_times_python_float', lambda x: (x.astype(ms.int8) * 2.7).sum(), [2, 2, 2]),
    ('int_times_int', lambda x: (x.astype(ms.int32) * x.astype(ms.int32)).sum(), [2, -4, 0]),
    ('int_power', lambda x: (x.astype(ms.int32) ** 2).sum(), [2, -4, 0]),
    ('negated_int_times_float', lambda x: (-x.astype(ms.int32) * x).sum(), [-2, 4, 0]),
    ('int_sum_scaled', lambda x: x.astype(ms.int32).sum() * 1.5, [1, 1, 1]),
    ('int_mean_truncates', lambda x: x.astype(ms.int32).float().mean(), [0, 0, 0]),
    ('int_true_division_keeps_fraction', lambda x: (x.astype(ms.int32) / 2).sum(),
     [0.5, 0.5, 0.5]),
    ('bool_times_float', lambda x: (x.astype(ms.bool_) * x).sum(), [2, 2, 2]),
    ('bool_round_trip', lambda x: x.astype(ms.bool_).astype(ms.float32).sum(), [1, 1, 1]),
    ('uint8_wraps', lambda x: (x.astype(ms.uint8) * x).sum(), [2, 508, 0]),
    ('int64_round_trip', lambda x: (ops.cast(x, ms.int64) * 3).astype(ms.float32).sum(),
     [3, 3, 3]),
    ('index_gets_none', lambda x: ops.gather(x, (x * 0 + 1).astype(ms.int32), 0).sum(),
     [0, 3, 0]),
]


@pytest.mark.parametrize("name,fn,want", MINDSPORE_GRADIENTS, ids=[c[0] for c in MINDSPORE_GRADIENTS])
def test_gradient_through_an_integer_cast_is_mindsporess(name, fn, want):
    grad = ms.grad(fn)(ms.Tensor(X))
    assert grad.dtype == ms.float32
    np.testing.assert_array_equal(grad.asnumpy(), np.array(want, np.float32))


def test_backward_reaches_a_leaf_through_an_integer_cast():
    x = ms.Tensor(X, requires_grad=True)
    (x.astype(ms.int32) * x).sum().backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [2, -4, 0])


def test_a_cast_of_a_tensor_without_gradient_stays_off_the_graph():
    i = ms.Tensor(X).astype(ms.int32)
    assert not i.requires_grad and i._node is None


def test_int64_full_passes_the_truncated_gradient_to_its_fill_value():
    # ops.full without a dtype is Int64; MindSpore 2.10 gives 6.0 and 12.0 for a fill of 1.5
    value = ms.Tensor(1.5)
    assert float(ms.grad(lambda v: ops.full((2, 3), v).sum())(value)) == 6.0
    assert float(ms.grad(lambda v: (ops.full((2, 3), v) * v).sum())(value)) == 12.0
