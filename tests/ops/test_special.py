"""Special functions (lgamma, digamma, polygamma, mvlgamma, erfinv, zeta, igamma, igammac):
values against SciPy where it is installed (else the identities below), gradients against
float64 finite differences, edge values and the errors' messages."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case, positive
from tests.ops.rows import error_test, row_tests

try:
    import scipy.special as sps
except ImportError:         # the rows then check gradients only; the identities stay
    sps = None


def ref(fn):
    """The SciPy reference ``fn``, or None (no forward check) without SciPy."""
    return fn if sps is not None else None


def zeta_order(rng, shape):
    return rng.uniform(1.5, 4.0, shape)


def gamma_shape(rng, shape):
    return rng.uniform(0.5, 6.0, shape)


def gamma_point(rng, shape):
    return rng.uniform(0.2, 9.0, shape)


def inside_unit(rng, shape):
    return rng.uniform(-0.9, 0.9, shape)


def above_two(rng, shape):
    return rng.uniform(2.0, 5.0, shape)


CASES = [
    Case('Zeta', ops.zeta, ref=ref(lambda x, q: sps.zeta(x, q)),
         shapes=[((5,), (5,)), ((2, 3), (3,))], domains=(zeta_order, positive), wrt=(1,),
         rtol=1e-12, atol=1e-12, name='zeta'),
    Case('Polygamma', lambda x: ops.polygamma(1, x), ref=ref(lambda x: sps.polygamma(1, x)),
         shapes=[((5,),), ((2, 3),)], domains=(positive,), rtol=1e-12, name='polygamma'),
    Case('Polygamma', lambda x: ops.polygamma(ms.Tensor(3), x),
         ref=ref(lambda x: sps.polygamma(3, x)), shapes=[((4,),)],
         domains=(positive,), rtol=1e-12, grad_rtol=1e-4, name='polygamma_3'),
    Case('Igamma', ops.igamma, ref=ref(lambda a, x: sps.gammainc(a, x)),
         shapes=[((6,), (6,)), ((2, 3), (3,))], domains=(gamma_shape, gamma_point), wrt=(1,),
         rtol=1e-12, atol=1e-13, name='igamma'),
    Case('Igamma', ops.igamma, shapes=[((6,), (6,)), ((2, 3), (3,))],
         domains=(gamma_shape, gamma_point), double=False, name='igamma_both'),
    Case('Igammac', ops.igammac, shapes=[((6,), (6,))], domains=(gamma_shape, gamma_point),
         double=False, name='igammac_both'),
    Case('Igammac', ops.igammac, ref=ref(lambda a, x: sps.gammaincc(a, x)),
         shapes=[((6,), (6,)), ((3, 1), (2,))], domains=(gamma_shape, gamma_point), wrt=(1,),
         rtol=1e-12, atol=1e-13, name='igammac'),
    Case('IncompleteBeta', lambda a, b, x: ops.Betainc()(a, b, x),
         ref=ref(lambda a, b, x: sps.betainc(a, b, x)), shapes=[((6,), (6,), (6,))],
         domains=(gamma_shape, gamma_shape, lambda rng, shape: rng.uniform(0.05, 0.95, shape)),
         wrt=(2,), rtol=1e-12, atol=1e-13, name='betainc'),
    Case('Lgamma', ops.lgamma, ref=ref(lambda x: sps.gammaln(x)),
         shapes=[((6,),)], rtol=1e-10, atol=1e-10, name='lgamma'),
    Case(('Log', 'Tangent'), ops.digamma, ref=ref(lambda x: sps.digamma(x)),
         shapes=[((6,),)], domains=(positive,), rtol=1e-10, atol=1e-10, name='digamma'),
    Case('Lgamma', lambda x: ops.mvlgamma(x, 3), ref=ref(lambda x: sps.multigammaln(
        x, 3) if x.ndim == 0 else np.vectorize(lambda v: sps.multigammaln(v, 3))(x)),
         shapes=[((4,),)], domains=(above_two,), rtol=1e-10, name='mvlgamma'),
    Case('Erf', ops.erfinv, ref=ref(lambda x: sps.erfinv(x)), shapes=[((6,),)],
         domains=(inside_unit,), rtol=1e-10, atol=1e-10, name='erfinv'),
]

globals().update(row_tests(CASES))


def test_zeta_is_riemanns_at_one_and_mindspores_outside_its_domain():
    got = ops.zeta(ms.Tensor(np.array([2.0, 4.0, 1.0, 0.5, 2.0, 2.5])),
                   ms.Tensor(np.array([1.0, 1.0, 1.0, 1.0, -2.0, -1.5]))).asnumpy()
    np.testing.assert_allclose(got[:2], [math.pi ** 2 / 6, math.pi ** 4 / 90], rtol=1e-14)
    assert got[2] == np.inf and np.isnan(got[3]) and got[4] == np.inf and np.isnan(got[5])


def test_polygamma_is_the_derivative_of_digamma_and_of_itself():
    x = ms.Tensor(np.array([0.7, 2.0, 5.5]), requires_grad=True)
    ops.sum(ops.digamma(x)).backward()
    np.testing.assert_allclose(x.grad.asnumpy(), ops.polygamma(1, x).asnumpy(), rtol=1e-9)
    # psi'(1) = pi^2 / 6, psi''(1) = -2 zeta(3)
    one = ms.Tensor(np.array([1.0]))
    assert ops.polygamma(1, one).item() == pytest.approx(math.pi ** 2 / 6, rel=1e-14)
    assert ops.polygamma(2, one).item() == pytest.approx(-2 * 1.2020569031595942, rel=1e-14)


def test_igamma_identities_and_edges():
    a = ms.Tensor(np.array([1.0, 1.0, 3.0, 2.0, -1.0]))
    x = ms.Tensor(np.array([0.5, 4.0, 0.0, np.inf, 1.0]))
    p, q = ops.igamma(a, x).asnumpy(), ops.igammac(a, x).asnumpy()
    np.testing.assert_allclose(p[:2], 1 - np.exp([-0.5, -4.0]), rtol=1e-14)   # P(1, x)
    np.testing.assert_allclose(p[:4] + q[:4], 1, rtol=1e-14)
    assert p[2] == 0 and q[2] == 1 and p[3] == 1 and q[3] == 0
    assert np.isnan(p[4]) and np.isnan(q[4])


def test_float32_in_float32_out():
    y = ops.zeta(ms.Tensor([2.0], ms.float32), ms.Tensor([1.0], ms.float32))
    assert y.dtype == ms.float32 and y.item() == pytest.approx(math.pi ** 2 / 6, rel=1e-6)


_I = ms.Tensor(np.array([1, 2]))
test_errors = error_test([
    (lambda: ops.lgamma(_I), TypeError, r"For 'Lgamma', the dtype of 'input' must be float16"),
    (lambda: ops.digamma([1.0]), TypeError, "For 'Digamma', the type of 'input' must be Tensor"),
    (lambda: ops.polygamma(-1, ms.Tensor([1.0])), ValueError, "'a' must be non-negative"),
    (lambda: ops.polygamma(1.5, ms.Tensor([1.0])), TypeError, "'a' must be an int"),
    (lambda: ops.mvlgamma(ms.Tensor([0.5, 3.0]), 3), ValueError,
     r"For 'Mvlgamma', all elements of 'x' must be greater than \(p-1\)/2"),
    (lambda: ops.igamma(_I, _I), TypeError, "For 'Igamma', the dtype of 'a' must be float"),
    (lambda: ops.zeta(ms.Tensor([2.0], ms.float64), ms.Tensor([1.0], ms.float32)), TypeError,
     "For 'Zeta', 'x' and 'q' must have one dtype"),
    (lambda: ops.erfinv(_I), TypeError, "For 'Erfinv', the dtype of 'input' must be float"),
])


def test_erfinv_edges_without_warnings():
    import warnings
    x = ms.Tensor(np.array([-1.0, -0.5, 0.0, 0.5, 1.0, 2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        got = ops.erfinv(x).asnumpy()
    assert got[0] == -np.inf and got[4] == np.inf and np.isnan(got[5]) and got[2] == 0.0


def test_lgamma_is_correctly_rounded_as_mindspores():
    # MindSpore 2.10 prints exactly this (float64 rounded once to float32)
    got = ops.lgamma(ms.Tensor(np.array([0.5, 2.5, 10.0], np.float32)))
    assert repr(got) == ("Tensor(shape=[3], dtype=Float32, value= [ 5.72364926e-01,  "
                         "2.84682870e-01,  1.28018274e+01])")
