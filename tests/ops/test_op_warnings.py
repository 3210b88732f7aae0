"""NumPy's floating-point warnings of ops that overflow or divide by zero name the op and the
caller's line, not a line inside hookgrad."""
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

BIG = np.array([1e30, 1.0], np.float32)
ZERO = np.array([0.0], np.float32)


def caught(fn):
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter('always')
        fn()
    return found


@pytest.mark.parametrize('name,fn', [
    ('exp', lambda: ops.exp(ms.Tensor(BIG))),
    ('expm1', lambda: ops.expm1(ms.Tensor(BIG))),
    ('exp2', lambda: ops.exp2(ms.Tensor(BIG))),
    ('sinh', lambda: ops.sinh(ms.Tensor(BIG))),
    ('cosh', lambda: ops.cosh(ms.Tensor(BIG))),
    ('square', lambda: ops.square(ms.Tensor(BIG))),
    ('remainder', lambda: ops.remainder(ms.Tensor([1.0]), ms.Tensor(ZERO))),
    ('floor_divide', lambda: ops.floor_divide(ms.Tensor([1.0]), ms.Tensor(ZERO))),
    ('fmod', lambda: ops.fmod(ms.Tensor([1.0]), ms.Tensor(ZERO))),
    ('var', lambda: ops.var(ms.Tensor(np.array([1e30, -1e30], np.float32)))),
    ('std', lambda: ops.std(ms.Tensor(np.array([1e30, -1e30], np.float32)))),
])
def test_an_overflow_or_a_division_by_zero_names_the_op_at_the_callers_line(name, fn):
    found = caught(fn)
    assert found, 'no warning'
    for w in found:
        assert w.category is RuntimeWarning
        assert str(w.message).startswith(f"ops.{name}: "), str(w.message)
        assert w.filename == __file__


def test_exp_keeps_its_values_and_gradient():
    x = ms.Tensor(np.array([100.0, 0.0], np.float32))
    with pytest.warns(RuntimeWarning, match=r"^ops\.exp: overflow encountered$") as found:
        y, g = ms.value_and_grad(lambda x: ops.exp(x).sum())(x)
    assert {w.filename for w in found} == {__file__}
    assert y.asnumpy() == np.inf
    np.testing.assert_array_equal(g.asnumpy(), [np.inf, 1.0])


@pytest.mark.parametrize('name', ['var', 'std'])
def test_no_degrees_of_freedom_is_one_warning_at_the_callers_line(name):
    fn = getattr(ops, name)
    found = caught(lambda: fn(ms.Tensor([3.0]), ddof=1))
    assert [(w.category, w.filename, str(w.message)) for w in found] == [
        (RuntimeWarning, __file__, f"ops.{name}: ddof=1 leaves no degrees of freedom for 1 value "
                                   f"per result: the result is NaN")]
    with pytest.warns(RuntimeWarning, match='no degrees of freedom for 1 value per result'):
        y = fn(ms.Tensor(np.ones((2, 1), np.float32)), axis=1, ddof=1, keepdims=True)
    assert y.shape == (2, 1) and np.isnan(y.asnumpy()).all()
    np.testing.assert_allclose(fn(ms.Tensor([1.0, 3.0]), ddof=1).asnumpy(),
                               getattr(np, name)([1.0, 3.0], ddof=1))
