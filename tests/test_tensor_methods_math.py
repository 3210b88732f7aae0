"""Tensor methods: elementwise math, comparisons, logic, reductions, matrices, special functions."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.testing import check_grad

RNG = np.random.default_rng(0)
A = np.array([[0.3, -1.2, 2.0], [0.7, 1.5, -0.4]], np.float32)


def t(a=A):
    return ms.Tensor(np.array(a))


# method name, arguments, NumPy reference of (x, *arguments)
ELEMENTWISE = [
    ('absolute', (), np.abs), ('negative', (), np.negative), ('floor', (), np.floor),
    ('ceil', (), np.ceil), ('trunc', (), np.trunc), ('frac', (), lambda x: x - np.trunc(x)),
    ('round', (), np.round), ('tan', (), np.tan), ('sinh', (), np.sinh), ('cosh', (), np.cosh),
    ('arctan', (), np.arctan), ('arcsinh', (), np.arcsinh), ('atan', (), np.arctan),
    ('asinh', (), np.arcsinh), ('deg2rad', (), np.deg2rad), ('rad2deg', (), np.rad2deg),
    ('erf', (), np.vectorize(math.erf)), ('erfc', (), np.vectorize(math.erfc)),
    ('inv', (), np.reciprocal), ('sgn', (), np.sign), ('signbit', (), np.signbit),
    ('sinc', (), np.sinc),
    ('remainder', (0.5,), np.mod), ('fmod', (0.5,), np.fmod),
    ('floor_divide', (0.5,), np.floor_divide), ('true_divide', (2.0,), np.divide),
    ('multiply', (3.0,), np.multiply), ('hypot', (1.5,), np.hypot),
    ('arctan2', (0.5,), np.arctan2), ('atan2', (0.5,), np.arctan2),
    ('logaddexp', (0.5,), np.logaddexp), ('logaddexp2', (0.5,), np.logaddexp2),
    ('eq', (0.3,), np.equal), ('ne', (0.3,), np.not_equal), ('lt', (0.5,), np.less),
    ('le', (0.7,), np.less_equal), ('gt', (0.5,), np.greater), ('ge', (0.7,), np.greater_equal),
    ('equal', (0.3,), np.equal), ('not_equal', (0.3,), np.not_equal),
    ('less', (0.5,), np.less), ('less_equal', (0.7,), np.less_equal),
    ('greater', (0.5,), np.greater), ('greater_equal', (0.7,), np.greater_equal),
    ('logical_and', (1.0,), np.logical_and), ('logical_or', (0.0,), np.logical_or),
    ('logical_xor', (1.0,), np.logical_xor), ('logical_not', (), np.logical_not),
]


@pytest.mark.parametrize("name, args, ref", ELEMENTWISE, ids=[c[0] for c in ELEMENTWISE])
def test_elementwise_matches_numpy(name, args, ref):
    y = getattr(t(), name)(*args)
    np.testing.assert_allclose(y.asnumpy(), ref(A, *args), rtol=1e-6, atol=1e-6)


def test_domain_restricted_unary():
    p = np.array([0.2, 0.7, 0.95], np.float32)
    for name, ref in (('acos', np.arccos), ('arccos', np.arccos), ('asin', np.arcsin),
                      ('arcsin', np.arcsin), ('atanh', np.arctanh), ('arctanh', np.arctanh)):
        np.testing.assert_allclose(getattr(t(p), name)().asnumpy(), ref(p), rtol=1e-6)
    q = p + 1
    for name in ('acosh', 'arccosh'):
        np.testing.assert_allclose(getattr(t(q), name)().asnumpy(), np.arccosh(q), rtol=1e-6)
    np.testing.assert_allclose(t(p + 1).log2().asnumpy(), np.log2(p + 1), rtol=1e-6)
    np.testing.assert_allclose(t(p + 1).log10().asnumpy(), np.log10(p + 1), rtol=1e-6)


def test_arithmetic_variants():
    x = t()
    np.testing.assert_allclose(x.subtract(1, alpha=2).asnumpy(), A - 2)
    np.testing.assert_allclose(x.divide(0.5, rounding_mode='floor').asnumpy(), np.floor(A / 0.5))
    assert x.positive() is x
    # values from MindSpore 2.10
    addcdiv = t([1.0, 2.0]).addcdiv(t([1.0, 4.0]), t([2.0, 2.0]), value=3)
    assert addcdiv.asnumpy().tolist() == [2.5, 8.0]
    assert t([1.0, 2.0]).addcmul(t([1.0, 4.0]), t([2.0, 2.0]), 3).asnumpy().tolist() == [7, 26]
    fp = t([2.0, 3.0]).float_power(t([0.5, 2.0]))
    assert fp.dtype == ms.float64 and fp.asnumpy().tolist() == [math.sqrt(2), 9.0]
    assert ms.Tensor([2, 3]).float_power(2).asnumpy().tolist() == [4.0, 9.0]
    assert t([0.0, 3.0]).xdivy(t([0.0, 2.0])).asnumpy().tolist() == [0.0, 1.5]
    np.testing.assert_allclose(t([0.5, 2.0]).xlogy(2.0).asnumpy(), [0.5 * np.log(2), 2 * np.log(2)])
    np.testing.assert_allclose(x.lerp(x * 2, 0.25).asnumpy(), A * 1.25, rtol=1e-6)


def test_sign_and_nan_aware_functions():
    # values from MindSpore 2.10
    assert t([1.0, 2.0]).copysign(t([-1.0, 0.0])).asnumpy().tolist() == [-1.0, 2.0]
    assert t([1.0, 2.0]).copysign(-0.0).asnumpy().tolist() == [1.0, 2.0]     # other < 0 decides
    nan = float('nan')
    got = t([1.0, nan, nan]).fmax(t([nan, 2.0, nan])).asnumpy()
    assert got[:2].tolist() == [1.0, 2.0] and np.isnan(got[2])
    np.testing.assert_array_equal(t([1.0, nan, 3.0]).fmin(t([2.0, 0.0, nan])).asnumpy(),
                                  np.fmin([1.0, nan, 3.0], [2.0, 0.0, nan]))
    assert t([-2.0, 0.0, 3.0]).heaviside(t([7.0, 8.0, 9.0])).asnumpy().tolist() == [0, 8, 1]
    assert t([-1.0, 2.0]).angle().asnumpy().tolist() == [np.float32(math.pi), 0.0]
    assert t([-np.inf, np.inf, 1.0]).isneginf().asnumpy().tolist() == [True, False, False]
    assert t([-np.inf, np.inf, 1.0]).isposinf().asnumpy().tolist() == [False, True, False]
    np.testing.assert_allclose(t([0.2, 0.7]).logit().asnumpy(), [-1.3862944, 0.8472979])
    np.testing.assert_allclose(t([0.0, 0.5]).logit(eps=0.1).asnumpy(), [-2.1972246, 0.0])
    assert t([np.nan, 1.0]).nan_to_num(nan=5.0).asnumpy().tolist() == [5.0, 1.0]
    assert t([-1.0, 0.3, 0.7]).hardshrink(0.5).asnumpy().tolist() == [-1.0, 0.0, np.float32(0.7)]
    np.testing.assert_allclose(t([-1.0, 0.3, 0.7]).soft_shrink(0.5).asnumpy(), [-0.5, 0.0, 0.2],
                               atol=1e-7)
    with pytest.raises(TypeError, match="Tensor.angle: the tensor must be floating-point"):
        ms.Tensor([1]).angle()


def test_closeness():
    x = t()
    assert x.isclose(x + 1e-9).asnumpy().all() and x.allclose(x) is True
    assert x.allclose(x + 1) is False
    # MindSpore 2.10: approximate_equal([1, 2], [1.05, 2.2], 0.1) is [True, False]
    assert t([1.0, 2.0]).approximate_equal(t([1.05, 2.2]), 0.1).asnumpy().tolist() == [True, False]


def test_bits():
    a, b = ms.Tensor([12, 10]), ms.Tensor([10, 6])
    assert a.bitwise_and(b).asnumpy().tolist() == [8, 2]
    assert a.bitwise_or(b).asnumpy().tolist() == [14, 14]
    assert a.bitwise_xor(b).asnumpy().tolist() == [6, 12]
    assert ms.Tensor([1, 2]).invert().asnumpy().tolist() == [-2, -3]       # as MindSpore
    assert ms.Tensor([1, 2]).bitwise_not().asnumpy().tolist() == [-2, -3]
    assert ms.Tensor([True, False]).bitwise_not().asnumpy().tolist() == [False, True]
    with pytest.raises(TypeError, match="Tensor.invert: the tensor must have an integer dtype"):
        ms.Tensor([True]).invert()


def test_bit_operators():
    """&, | and ^ are bitwise on integer tensors and logical on Bool ones (MindSpore 2.10's values)."""
    a = ms.Tensor(np.array([5, -3, 12], np.int16))
    b = ms.Tensor(np.array([3, 6, -1], np.int16))
    for got, want in [(a & b, [1, 4, 12]), (a | b, [7, -1, -1]), (a ^ b, [6, -5, -13]),
                      (a & 3, [1, 1, 0]), (a ^ 3, [6, -2, 15])]:
        assert got.dtype == ms.int16 and got.asnumpy().tolist() == want
    t_, u = ms.Tensor([True, False]), ms.Tensor([True, True])
    assert (t_ ^ u).dtype == ms.bool_ and (t_ ^ u).asnumpy().tolist() == [False, True]
    assert (t_ & u).asnumpy().tolist() == [True, False] and (t_ | u).asnumpy().tolist() == [True, True]
    mixed = t_ & ms.Tensor(np.array([1, 2], np.int32))
    assert mixed.dtype == ms.int32 and mixed.asnumpy().tolist() == [1, 0]
    assert (t_ ^ 1).dtype == ms.int64                      # a Python int counts as int64 here
    assert (ms.Tensor(np.array([5], np.uint8)) & ms.Tensor(np.array([3], np.int8))).dtype == ms.int16
    with pytest.raises(TypeError, match="bitwise_xor: inputs must be integer or Bool"):
        ms.Tensor([1.5]) ^ ms.Tensor([2.0])
    with pytest.raises(TypeError, match="bitwise_and: inputs must be integer or Bool"):
        ms.Tensor([1.5]) & ms.Tensor([2.0])


def test_reductions():
    x = t()
    np.testing.assert_allclose(x.amax().asnumpy(), A.max())
    np.testing.assert_allclose(x.amin(1).asnumpy(), A.min(1))
    lo, hi = x.aminmax(axis=1)
    assert lo.asnumpy().tolist() == A.min(1).tolist() and hi.asnumpy().tolist() == A.max(1).tolist()
    np.testing.assert_allclose(x.ptp(axis=1).asnumpy(), np.ptp(A, 1), rtol=1e-6)
    values, indices = x.argmax_with_value(1)
    assert values.asnumpy().tolist() == A.max(1).tolist() and indices.asnumpy().tolist() == [2, 1]
    assert x.argmin_with_value(0)[1].asnumpy().tolist() == [0, 0, 1]
    n = t([[1.0, np.nan], [2.0, 4.0]])
    assert n.nansum(axis=0).asnumpy().tolist() == [3.0, 4.0]            # as MindSpore 2.10
    assert n.nanmean(axis=1).asnumpy().tolist() == [1.0, 3.0]
    assert n.nansum().item() == 7.0
    values, indices = t([[1.0, 3.0, 2.0], [4.0, 6.0, 5.0]]).median()    # as MindSpore 2.10
    assert values.asnumpy().tolist() == [2.0, 5.0] and indices.asnumpy().tolist() == [2, 2]
    np.testing.assert_allclose(x.quantile(0.3).asnumpy(), np.quantile(A, 0.3), rtol=1e-6)
    np.testing.assert_allclose(x.norm().asnumpy(), np.linalg.norm(A), rtol=1e-6)
    np.testing.assert_allclose(x.norm(1, dim=1).asnumpy(), np.abs(A).sum(1), rtol=1e-6)
    np.testing.assert_allclose(x.logsumexp(1).asnumpy(), np.log(np.exp(A).sum(1)), rtol=1e-6)
    assert x.count_nonzero().asnumpy().tolist() == 6
    values, indices = t([3.0, 1.0, 2.0]).kthvalue(2)
    assert values.item() == 2.0 and indices.item() == 2 and indices.dtype == ms.int64
    assert t([[3.0, 1.0], [2.0, 4.0]]).kthvalue(1, 0, keepdim=True)[0].shape == (1, 2)
    assert ms.Tensor([0, 1, 1, 3]).bincount().asnumpy().tolist() == [1, 2, 0, 1]
    with pytest.raises(ValueError, match="Tensor.kthvalue: k must be in \\[1, 3\\], got 4"):
        t([3.0, 1.0, 2.0]).kthvalue(4)


def test_sum_initial_and_dtype_follow_mindspore():
    """MindSpore 2.10: the sum in ``dtype``, plus ``initial`` with the usual promotion; a Bool
    dtype makes the result Bool again."""
    x = ms.Tensor([[[1, 2, 3], [2, 3, 4]]], ms.float32)
    y = x.sum(None, ms.bool_, False, 12)
    assert y.dtype == ms.bool_ and y.item() is True
    y = x.sum(None, ms.int32, False, 12)
    assert y.dtype == ms.int32 and y.item() == 27
    y = ms.Tensor([[0.0, 0.0], [0.0, 1.0]]).sum(None, ms.bool_, False, -1.0)
    assert y.dtype == ms.bool_ and y.item() is False
    y = ms.Tensor([[0.0, 0.0], [0.0, 1.0]]).sum(1, ms.bool_, False, 0)
    assert y.dtype == ms.bool_ and y.tolist() == [False, True]
    y = ms.Tensor([0.6, 0.6]).sum(None, ms.int32, False, 0.7)     # cast first, then promoted
    assert y.dtype == ms.float32 and abs(y.item() - 0.7) < 1e-6
    y = ms.Tensor([True, True, False]).sum(None, None, False, 2)
    assert y.dtype == ms.int64 and y.item() == 4


def test_cumulative():
    x = t()
    np.testing.assert_allclose(x.cumprod(1).asnumpy(), np.cumprod(A, 1), rtol=1e-6)
    np.testing.assert_allclose(x.cummax(1)[0].asnumpy(), np.maximum.accumulate(A, 1))
    np.testing.assert_allclose(x.cummin(0)[0].asnumpy(), np.minimum.accumulate(A, 0))
    np.testing.assert_allclose(x.logcumsumexp(1).asnumpy(),
                               np.log(np.cumsum(np.exp(A), 1)), rtol=1e-6)
    np.testing.assert_allclose(x.diff().asnumpy(), np.diff(A), rtol=1e-6)
    assert t([[3.0, 1.0], [2.0, 4.0]]).msort().asnumpy().tolist() == [[2, 1], [3, 4]]


def test_matrix_methods():
    x = t()
    m = np.arange(12.0).reshape(3, 4)
    assert ms.Tensor(m).trace(offset=1).item() == 18.0      # as MindSpore 2.10
    assert t().trace().item() == pytest.approx(A[0, 0] + A[1, 1])
    np.testing.assert_array_equal(ms.Tensor(m).diagonal(1).asnumpy(), np.diagonal(m, 1))
    np.testing.assert_array_equal(t([1.0, 2.0]).diag().asnumpy(), np.diag([1.0, 2.0]))
    np.testing.assert_array_equal(t([1.0, 2.0]).diagflat(1).asnumpy(), np.diagflat([1, 2], 1))
    np.testing.assert_array_equal(ms.Tensor(m).tril().asnumpy(), np.tril(m))
    np.testing.assert_array_equal(ms.Tensor(m).triu(1).asnumpy(), np.triu(m, 1))
    np.testing.assert_allclose(x.mm(x.T).asnumpy(), A @ A.T, rtol=1e-6)
    b = RNG.standard_normal((2, 3, 3)).astype(np.float32)
    np.testing.assert_allclose(ms.Tensor(b).bmm(ms.Tensor(b)).asnumpy(), b @ b, rtol=1e-5)
    v, w = t([1.0, 2.0]), t([1.0, 3.0])
    assert v.outer(w).asnumpy().tolist() == [[1, 3], [2, 6]] == v.ger(w).asnumpy().tolist()
    assert v.inner(w).item() == 7.0
    np.testing.assert_allclose(x.dot(x.T).asnumpy(), A @ A.T, rtol=1e-6)
    # values from MindSpore 2.10
    assert t([1.0, 2.0]).addmv(t([[1.0, 2.0], [3.0, 4.0]]), t([1.0, -1.0]), beta=2, alpha=3) \
        .asnumpy().tolist() == [-1.0, 1.0]
    assert ms.Tensor(np.zeros((2, 2), np.float32)).addr(t([1.0, 2.0]), t([1.0, 1.0]), alpha=2) \
        .asnumpy().tolist() == [[2, 2], [4, 4]]
    c = np.ones((2, 2), np.float32)
    np.testing.assert_allclose(ms.Tensor(c).addmm(x, x.T, beta=2, alpha=0.5).asnumpy(),
                               2 + 0.5 * A @ A.T, rtol=1e-6)
    np.testing.assert_allclose(ms.Tensor(c).addbmm(ms.Tensor(b[:, :2]), ms.Tensor(b[:, :, :2]))
                               .asnumpy(), 1 + (b[:, :2] @ b[:, :, :2]).sum(0), rtol=1e-5)
    np.testing.assert_allclose(ms.Tensor(b).baddbmm(ms.Tensor(b), ms.Tensor(b), beta=0.5)
                               .asnumpy(), 0.5 * b + b @ b, rtol=1e-5)
    cross = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).cross(t([[-1.0, 0.5, 2.0], [0.0, 1.0, -1.0]]))
    assert cross.asnumpy().tolist() == [[2.5, -5.0, 2.5], [-11.0, 4.0, 4.0]]   # MindSpore 2.10
    with pytest.raises(ValueError, match="Tensor.cross: no dimension of size 3"):
        t([1.0, 2.0]).cross(t([1.0, 2.0]))
    with pytest.raises(ValueError, match="Tensor.diag: diagonal must be 0, got 1"):
        t([1.0, 2.0]).diag(1)


M = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.1, 0.4, 1.5]])


def test_determinant_and_inverse():
    # values from MindSpore 2.10
    assert ms.Tensor(M).det().item() == pytest.approx(7.41)
    np.testing.assert_allclose(ms.Tensor(M).inverse().asnumpy(), [
        [0.5964912280701754, -0.17543859649122806, -0.1754385964912281],
        [-0.19973009446693654, 0.39811066126855593, 0.013495276653171394],
        [0.013495276653171387, -0.09446693657219975, 0.6747638326585695]], rtol=1e-12)
    b = ms.Tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, -4.0]]])     # pivoting needed
    np.testing.assert_allclose(b.det().asnumpy(), [-2.0, -10.0], rtol=1e-6)
    sign, logabs = b.slogdet()
    assert sign.asnumpy().tolist() == [-1.0, -1.0]
    np.testing.assert_allclose(logabs.asnumpy(), [math.log(2), math.log(10)], rtol=1e-6)
    assert ms.Tensor([[2.0, 1.0], [1.0, 3.0]]).logdet().item() == pytest.approx(math.log(5))
    np.testing.assert_allclose(ms.Tensor(M).matrix_power(-2).asnumpy(),
                               np.linalg.matrix_power(M, -2), rtol=1e-12)
    np.testing.assert_allclose(ms.Tensor(M).matrix_power(5).asnumpy(),
                               np.linalg.matrix_power(M, 5), rtol=1e-12)
    np.testing.assert_array_equal(ms.Tensor(M).matrix_power(0).asnumpy(), np.eye(3))
    with pytest.raises(ValueError, match="Tensor.inverse: the tensor must be a square matrix"):
        t().inverse()


def test_special_functions():
    x = ms.Tensor(np.array([0.3, 1.7, 4.2, -0.6, -2.3]))
    # values from MindSpore 2.10 (its digamma computes in float32)
    np.testing.assert_allclose(x.lgamma().asnumpy(), [
        1.0957979948180756, -0.09580769740706588, 2.04855563696059, 1.3075034414677744,
        0.36956666345500805], rtol=1e-10)
    np.testing.assert_allclose(x.digamma().asnumpy(), [
        -3.502523899078369, 0.20854812860488892, 1.3113387823104858, -0.8947182893753052,
        3.317323923110962], rtol=2e-6)
    y = ms.Tensor(np.array([0.1, -0.5, 0.9, 0.999, -0.3]))
    # values from MindSpore 2.10, except at 0.999 where its CPU kernel gives 2.2777428
    # (erf of which is 0.99872): the exact inverse is 2.3267537655135...
    np.testing.assert_allclose(y.erfinv().asnumpy(), [
        0.08885599049425769, -0.4769362762044699, 1.1630871536766743, 2.326753765513524,
        -0.2724627147267544], rtol=1e-12)
    np.testing.assert_allclose(y.erfinv().erf().asnumpy(), y.asnumpy(), rtol=1e-14)
    edge = ms.Tensor([1.0, -1.0, 1.5]).erfinv().asnumpy()
    assert edge[0] == np.inf and edge[1] == -np.inf and np.isnan(edge[2])
    assert ms.Tensor([3]).lgamma().dtype == ms.float32


def test_gradients():
    a = RNG.standard_normal((2, 3))
    pos = RNG.uniform(0.2, 0.8, (2, 3))
    check_grad(lambda x: x.sinc(), a)
    check_grad(lambda x: x.logit(), pos)
    check_grad(lambda x, y: x.copysign(y), a, a[::-1].copy())
    check_grad(lambda x, y: x.fmax(y), a, a * 0.5 + 0.3)
    check_grad(lambda x: x.nansum(1) + x.nanmean(0).sum(), a)
    check_grad(lambda x: x.ptp(1), a)
    check_grad(lambda x: x.kthvalue(2, 1)[0], a)
    check_grad(lambda x, y: x.cross(y, dim=1), RNG.standard_normal((2, 3)),
               RNG.standard_normal((2, 3)))
    check_grad(lambda x: x.trace(offset=1), a)
    check_grad(lambda x: x.lgamma(), np.array([0.3, 1.7, 4.2, -0.6, -2.3]))
    check_grad(lambda x: x.digamma(), np.array([0.3, 1.7, 4.2, -0.6, -2.3]))
    check_grad(lambda x: x.erfinv(), np.array([0.1, -0.5, 0.9, -0.3]))
    check_grad(lambda m: m.inverse(), M)
    check_grad(lambda m: m.det(), np.stack([M, M[::-1]]))
    check_grad(lambda m: m.slogdet()[1], M)
    check_grad(lambda m: m.matrix_power(3), M)
    check_grad(lambda x: x.float_power(2.0), pos)


def test_more_compositions():
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    # values from MindSpore 2.10
    np.testing.assert_allclose(x.renorm(2, 0, 2.0).asnumpy(),
                               [[0.8944272, 1.7888544], [1.2, 1.6]], rtol=1e-6)
    assert x.cov().asnumpy().tolist() == [[0.5, 0.5], [0.5, 0.5]]
    np.testing.assert_allclose(ms.Tensor(np.array([[1.0, 4.0, 2.0], [0.5, 0.0, 3.0]])).cov(
        correction=0).asnumpy(), np.cov([[1, 4, 2], [0.5, 0, 3]], bias=True), rtol=1e-12)
    assert x.ldexp(ms.Tensor([1, 2])).asnumpy().tolist() == [[2, 8], [6, 16]]
    values, indices = t([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]]).nanmedian()
    assert values.asnumpy().tolist() == [1.0, 5.0] and indices.asnumpy().tolist() == [0, 1]
    np.testing.assert_allclose(x.mvlgamma(2).asnumpy(), [[1.1447299, 0.4515827],
                                                        [1.550195, 3.5650978]], rtol=1e-5)
    with pytest.raises(ValueError, match="Tensor.mvlgamma: p must be an int >= 1, got 0"):
        x.mvlgamma(0)
    a = RNG.standard_normal((2, 3))
    check_grad(lambda m: m.renorm(2, 0, 1.0), a * 2)
    check_grad(lambda m: m.cov(), a)
    check_grad(lambda m: m.cov(fweights=ms.Tensor([1, 3, 2]),
                               aweights=ms.Tensor([0.1, 0.5, 0.2])), a)
    check_grad(lambda m: m.mvlgamma(3), np.array([2.5, 3.7]))


def test_cov_weights():
    # values from MindSpore 2.10
    x = ms.Tensor(np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]], np.float32))
    fw = ms.Tensor([5, 2, 4], ms.int64)
    aw = ms.Tensor([0.4588, 0.9083, 0.7616], ms.float32)
    cases = [(dict(fweights=fw, aweights=aw), 0.8150461), (dict(fweights=fw), 0.8909091),
             (dict(aweights=aw), 0.8595095), (dict(correction=0, aweights=aw), 0.5530736),
             (dict(correction=2, fweights=fw, aweights=aw), 0.91446203)]
    for kwargs, v in cases:
        out = x.cov(**kwargs)
        assert out.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), [[v, -v], [-v, v]], rtol=1e-6)
    x2 = ms.Tensor(np.array([[1.0, 4.0, 2.0, 7.0], [0.5, 0.0, 3.0, -1.0], [2.0, 2.0, 1.0, 0.0]],
                            np.float32))
    np.testing.assert_allclose(
        x2.cov(fweights=ms.Tensor([1, 3, 2, 1]),
               aweights=ms.Tensor([0.1, 0.5, 0.2, 0.9])).asnumpy(),
        [[4.1686387, -2.335059, -1.4526625], [-2.335059, 1.923077, 0.3713017],
         [-1.4526625, 0.3713017, 0.9999999]], rtol=1e-5)
    v = ms.Tensor([1.0, 2.0, 4.0]).cov(fweights=ms.Tensor([1, 2, 1]))
    np.testing.assert_allclose(v.asnumpy(), 1.5833334, rtol=1e-6)
    assert ms.Tensor(np.ones((2, 3))).cov(aweights=aw).dtype == ms.float64
    with pytest.raises(TypeError, match="the dtype of fweights must be an integer type"):
        x.cov(fweights=ms.Tensor([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match="the dtype of aweights must be a floating point"):
        x.cov(aweights=ms.Tensor([1, 2, 3]))
    with pytest.raises(ValueError, match="the numel of fweights must equal the number"):
        x.cov(fweights=ms.Tensor([1, 2]))
    with pytest.raises(ValueError, match="fweights must have one or fewer dimensions"):
        x.cov(fweights=ms.Tensor([[1, 2, 3]]))
