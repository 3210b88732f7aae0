"""nanquantile: NumPy's nanquantile values (MindSpore 2.10's CPU build has no kernel for it: its
documented results), shapes, dtypes and errors; gradients against finite differences."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

# NumPy's reference warns of the all-NaN slice the NaN row holds on purpose
pytestmark = pytest.mark.filterwarnings('ignore:All-NaN slice:RuntimeWarning')


def with_nan(rng, shape):
    """Standard normal values, about a third of them NaN, and the first slice NaN only."""
    a = rng.standard_normal(shape)
    a[rng.random(shape) < 0.3] = np.nan
    a[0] = np.nan
    return a


def _q(x):
    return ms.Tensor(np.array([0.2, 0.75]), x.dtype)


CASES = [
    Case(('ArgSort', 'GatherElements'), lambda x: ops.nanquantile(x, 0.3, axis=1),
         ref=lambda a: np.nanquantile(a, 0.3, axis=1), shapes=[((3, 5),), ((2, 4, 3),)],
         name='nanquantile'),
    Case(('ArgSort', 'GatherElements'), lambda x: ops.nanquantile(x, _q(x), 0, True),
         ref=lambda a: np.nanquantile(a, [0.2, 0.75], axis=0, keepdims=True),
         shapes=[((4, 3),)], name='nanquantile_tensor_q'),
    Case(('ArgSort', 'GatherElements'), lambda x: ops.nanquantile(x, 0.5),
         ref=lambda a: np.nanquantile(a, 0.5), shapes=[((3, 4),), ((5,),)],
         name='nanquantile_flat'),
    Case(('ArgSort', 'GatherElements'), lambda x: ops.nanquantile(x, _q(x), -1),
         ref=lambda a: np.nanquantile(a, [0.2, 0.75], axis=-1), shapes=[((3, 6),)],
         domains=(with_nan,), grad=False, name='nanquantile_nan'),
]

globals().update(row_tests(CASES))


def test_documented_example_and_shapes():
    x = ms.Tensor(np.array([np.nan, 0.8003, 0.8111], np.float32))
    got = ops.nanquantile(x, ms.Tensor(np.array([0.1, 0.7, 0.9], np.float32)))
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), [0.80138, 0.80786, 0.81002], rtol=1e-5)
    c = ms.Tensor(np.ones((2, 3, 4), np.float64))
    assert ops.nanquantile(c, 0.5, axis=1, keepdims=True).shape == (2, 1, 4)
    assert ops.nanquantile(c, ms.Tensor(np.array([0.1, 0.9])), axis=1, keepdims=True).shape \
        == (2, 2, 1, 4)
    assert ops.nanquantile(c, ms.Tensor(np.array(0.5)), axis=2).shape == (2, 3)
    assert ops.nanquantile(c, 0.5, keepdims=True).shape == (1, 1, 1)
    assert c.nanquantile(0.5, axis=0).shape == (3, 4)


def test_all_nan_slices_give_nan_and_gradients_reach_the_interpolated_values():
    x = ms.Tensor(np.array([[1.0, np.nan, 3.0, 0.5], [np.nan] * 4, [2.0, -1.0, 4.0, np.nan]],
                           np.float32))
    got = ops.nanquantile(x, 0.3, axis=1).asnumpy()
    assert np.isnan(got[1]) and got[0] == pytest.approx(0.8) and got[2] == pytest.approx(0.8)
    y = ms.Tensor(np.array([[1.0, 5.0, 3.0, 0.5], [2.0, -1.0, 4.0, 7.0]], np.float32))
    g = ms.grad(lambda t: (ops.nanquantile(t, 0.3, axis=1) * ms.Tensor([1.0, 2.0])).sum())(y)
    np.testing.assert_allclose(g.asnumpy(), [[0.9, 0.0, 0.0, 0.1], [1.8, 0.2, 0.0, 0.0]],
                               rtol=1e-6)


ERRORS = [
    (lambda: ops.nanquantile(ms.Tensor([1, 2, 3], ms.int32), 0.5), TypeError,
     r"ops\.nanquantile: input must be a Float32 or Float64 tensor, got Int32"),
    (lambda: ops.nanquantile(ms.Tensor([1.0, 2.0]), 1.5), ValueError,
     r"ops\.nanquantile: q must be in \[0, 1\], got \[1\.5\]"),
    (lambda: ops.nanquantile(ms.Tensor([1.0, 2.0]), ms.Tensor([1.5])), ValueError,
     r"ops\.nanquantile: q must be in \[0, 1\]"),
    (lambda: ops.nanquantile(ms.Tensor([1.0, 2.0]), ms.Tensor([0.5], ms.float64)), TypeError,
     r"ops\.nanquantile: q must have input's dtype Float32, got Float64"),
    (lambda: ops.nanquantile(ms.Tensor([1.0, 2.0]), ms.Tensor([[0.5]])), ValueError,
     r"ops\.nanquantile: q must be a number or a 0-d or 1-d Tensor, got shape \(1, 1\)"),
    (lambda: ops.nanquantile(ms.Tensor([1.0, 2.0]), 1), TypeError,
     r"ops\.nanquantile: q must be a float or a Tensor, got 1"),
    (lambda: ops.nanquantile(ms.Tensor([[1.0, 2.0]]), 0.5, axis=5), ValueError,
     r"ops\.nanquantile.*axis"),
    (lambda: ops.nanquantile(ms.Tensor([[1.0, 2.0]]), 0.5, axis=1.0), TypeError,
     r"ops\.nanquantile: axis must be an int or None, got 1\.0"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
