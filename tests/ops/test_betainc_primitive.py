"""The Betainc Primitive against the values, dtypes, gradients and error messages MindSpore
2.10's CPU build gives for the same inputs (recorded with MindSpore and written here); the
float64 values against SciPy where it is installed. Its op, IncompleteBeta, has its row in
test_special.py."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import Tensor, ops
from hookgrad.ops import operations as P
from hookgrad.testing.gradcheck import check_grad

A = np.array([0.5, 1.0, 2.0, 3.5])
B = np.array([0.5, 2.0, 3.0, 1.5])
X = np.array([0.2, 0.5, 0.7, 0.9])
VALUES = [0.2951672077178955, 0.75, 0.9162999987602234, 0.8526157736778259]
X_GRAD = [0.7957745790481567, 1.0, 0.7559993863105774, 1.98014235496521]


def test_betainc_reaches_ops_and_operations():
    assert ops.Betainc is P.Betainc
    assert 'Betainc' in P.__all__


@pytest.mark.parametrize('dtype, want', [(np.float32, ms.float32), (np.float64, ms.float64)])
def test_betainc_matches_mindspore(dtype, want):
    y = P.Betainc()(*(Tensor(v.astype(dtype)) for v in (A, B, X)))
    assert y.dtype == want
    np.testing.assert_allclose(y.asnumpy(), VALUES, rtol=1e-6)


def test_betainc_edges_match_mindspore():
    y = P.Betainc()(Tensor(np.array([1.0, 1.0, -1.0, 1.0, 0.0], np.float32)),
                    Tensor(np.ones(5, np.float32)),
                    Tensor(np.array([0.0, 1.0, 0.5, 1.5, 0.5], np.float32)))
    np.testing.assert_array_equal(y.asnumpy(), [0.0, 1.0, np.nan, np.nan, np.nan])


def test_betainc_agrees_with_scipy():
    sps = pytest.importorskip('scipy.special')
    rng = np.random.default_rng(0)
    a, b, x = rng.uniform(0.1, 20, 300), rng.uniform(0.1, 20, 300), rng.uniform(0, 1, 300)
    y = P.Betainc()(Tensor(a), Tensor(b), Tensor(x)).asnumpy()
    np.testing.assert_allclose(y, sps.betainc(a, b, x), rtol=1e-12, atol=1e-14)


def test_betainc_gradient_is_mindspore_bprop():
    a, b, x = (Tensor(v.astype(np.float32)) for v in (A, B, X))
    gx = ms.grad(lambda z: P.Betainc()(a, b, z).sum())(x)
    np.testing.assert_allclose(gx.asnumpy(), X_GRAD, rtol=2e-6)
    ga = ms.grad(lambda z: P.Betainc()(z, b, x).sum())(a)
    np.testing.assert_array_equal(ga.asnumpy(), np.zeros(4))
    check_grad(lambda z: P.Betainc()(Tensor(A), Tensor(B), z), X)


def test_betainc_errors():
    f32 = Tensor(A.astype(np.float32))
    with pytest.raises(TypeError, match=r"For primitive\[Betainc\], the input argument\[a\] must "
                                        r"be a type of \{Tensor\[Float32\], Tensor\[Float64\]\}, "
                                        r"but got Tensor\[Int32\]"):
        P.Betainc()(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([1, 2], np.int32)),
                    Tensor(np.array([1, 2], np.int32)))
    with pytest.raises(TypeError, match=r"For primitive\[Betainc\], the input type must be same. "
                                        r"name:\[a\]:Tensor\[Float32\]. name:\[b\]:"
                                        r"Tensor\[Float64\]"):
        P.Betainc()(f32, Tensor(B), f32)
    with pytest.raises(ValueError, match=r"For 'Betainc, shape of b \(4\) are not consistent "
                                         r"with the shape a \(2, 1\) \."):
        P.Betainc()(Tensor(np.array([[1.0], [2.0]], np.float32)), Tensor(B.astype(np.float32)),
                    f32)
