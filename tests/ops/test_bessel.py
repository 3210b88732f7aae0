"""i0 and nextafter: MindSpore 2.10's values, gradients and errors; gradients of every order
against finite differences (i0's derivative is the op BesselI1)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops.bessel import _i1_array
from hookgrad.testing.cases import Case, normal
from tests.ops.rows import row_tests


def wide(rng, shape):
    return rng.uniform(-6.0, 6.0, shape)


def far_from(rng, shape):
    """Targets at least 10 away from the standard normal inputs."""
    return rng.uniform(10.0, 20.0, shape) * rng.choice([-1.0, 1.0], shape)


CASES = [
    Case(('BesselI0', 'BesselI1'), ops.i0, ref=np.i0, shapes=[((5,),), ((2, 3),)],
         domains=(wide,), rtol=1e-12, grad_rtol=1e-5),
    Case('NextAfter', ops.nextafter, ref=np.nextafter,
         shapes=[((3, 4), (3, 4)), ((2, 3), (3,)), ((2, 1), (1, 4))],
         domains=(normal, far_from), rtol=0, atol=0, rtol32=0, atol32=0),
]

globals().update(row_tests(CASES))


def t(values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


X = [-2.5, -1.0, 0.0, 0.5, 3.0]
W = [1.0, 2.0, 3.0, 4.0, 5.0]


# MindSpore 2.10's results (CPU), and its gradients of (out * W).sum()
def test_i0_values_and_gradient():
    x = t(X)
    y = ops.i0(x)
    assert y.dtype == ms.float32
    np.testing.assert_allclose(y.asnumpy(), [3.289839506149292, 1.2660659551620483, 1.0,
                                             1.063483476638794, 4.88079309463501], rtol=1e-6)
    np.testing.assert_allclose(x.i0().asnumpy(), y.asnumpy())
    g = ms.grad(lambda v: (ops.i0(v) * t(W)).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), [-2.516716241836548, -1.1303181648254395, 0.0,
                                             1.0315773487091064, 19.766855239868164], rtol=1e-6)
    g64 = ms.grad(lambda v: ops.i0(v).sum())(t([0.0, 1.5], np.float64))
    np.testing.assert_allclose(g64.asnumpy(), [0.0, 0.9816664285779079], rtol=1e-14)


def test_i0_other_types_and_overflow():
    y16 = ops.i0(t([-2.5, 0.5, 5.0, 12.0], np.float16))
    assert y16.dtype == ms.float16
    np.testing.assert_array_equal(y16.asnumpy(), np.array([3.2890625, 1.0634765625, 27.234375,
                                                           18944.0], np.float16))
    np.testing.assert_allclose(ops.i0(t([-2.5, 0.5], np.float64)).asnumpy(),
                               [3.289839144050123, 1.0634833707413238], rtol=1e-15)
    big = ops.i0(t([50.0, 100.0, -100.0])).asnumpy()
    np.testing.assert_allclose(big[0], 2.9325537298906664e+20, rtol=1e-6)
    assert np.isinf(big[1:]).all()


def test_i1_matches_the_series():
    x = np.array([0.0, 1e-12, 1e-3, 0.5, -3.0, 5.0, 20.0, 100.0, 700.0])
    # I1 by its power series, summed in log space
    from math import lgamma, log
    want = [0.0] + [np.sign(v) * sum(np.exp((2 * j + 1) * log(abs(v) / 2) - lgamma(j + 1)
                                            - lgamma(j + 2)) for j in range(1500))
                    for v in x[1:]]
    np.testing.assert_allclose(_i1_array(np, x), want, rtol=1e-12)


def test_nextafter_values_and_gradient():
    a = t([0.0, 1.0], np.float64)
    b = t([1.0, 0.0], np.float64)
    # MindSpore 2.10's Float64 results
    np.testing.assert_array_equal(ops.nextafter(a, b).asnumpy(), [5e-324, 0.9999999999999999])
    assert ops.nextafter(a, b).dtype == ms.float64
    x, y = t(X), t([1.0, 1.0, -1.0, 0.5, 3.0])
    got = x.nextafter(y).asnumpy()
    np.testing.assert_array_equal(got, np.nextafter(np.array(X, np.float32),
                                                    np.array([1, 1, -1, 0.5, 3], np.float32)))
    assert got[2] == -np.float32(1e-45) and got[0] > -2.5
    gx, gy = ms.grad(lambda u, v: (ops.nextafter(u, v) * t(W)).sum(), grad_position=(0, 1))(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), W)
    np.testing.assert_array_equal(gy.asnumpy(), [0.0] * 5)


ERRORS = [
    (lambda: ops.i0(t([1, 2], np.int32)), TypeError,
     r"ops\.i0: input must be a Float16, Float32 or Float64 tensor, got Int32"),
    (lambda: ops.i0([1.0]), TypeError, r"ops\.i0: input must be a Tensor, got list"),
    (lambda: ops.nextafter(t([1.0]), t([1.0], np.float64)), TypeError,
     r"ops\.nextafter: input and other must have the same dtype, got Float32 and Float64"),
    (lambda: ops.nextafter(t([1.0], np.float16), t([1.0], np.float16)), TypeError,
     r"ops\.nextafter: input must be a Float32 or Float64 tensor, got Float16"),
    (lambda: ops.nextafter(t([1], np.int32), t([1], np.int32)), TypeError,
     r"ops\.nextafter: input must be a Float32 or Float64 tensor, got Int32"),
    (lambda: ops.nextafter(t([1.0]), 2.0), TypeError,
     r"ops\.nextafter: other must be a Tensor, got float"),
    (lambda: ops.nextafter(t(np.ones((2, 3))), t([1.0, 1.0])), ValueError,
     r"ops\.nextafter: shapes \(2, 3\) and \(2,\) cannot be broadcast together"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
