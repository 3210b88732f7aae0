"""Element-wise math (exp, log, ..., erf, floor) against NumPy and finite differences."""
import math
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.autograd.math import array_math
from hookgrad.kernels.erf import erf_array
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

SHAPES = [((),), ((5,),), ((3, 4),), ((2, 3, 2),)]

_math_erf = np.vectorize(math.erf, otypes=[np.float64])


def anywhere(rng, shape):
    return rng.uniform(-2.0, 2.0, size=shape)


def positive(rng, shape):
    return rng.uniform(0.5, 2.5, size=shape)


def away_from_zero(rng, shape):
    """|x| >= 0.3: clear of the kink of abs and the pole of reciprocal."""
    return rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.3, 2.0, size=shape)


def off_integers(rng, shape):
    """x at least 0.1 from an integer, where floor and ceil are flat."""
    return rng.integers(-3, 3, size=shape) + rng.uniform(0.1, 0.9, size=shape)


def _row(op, fn, ref, domain, **kw):
    return Case(op, fn, ref=ref, shapes=SHAPES, domains=(domain,), rtol=1e-13, atol=1e-13, **kw)


SMOOTH = [
    _row('Exp', ops.exp, np.exp, anywhere),
    _row('Expm1', ops.expm1, np.expm1, anywhere),
    _row('Log', ops.log, np.log, positive),
    _row('Log1p', ops.log1p, np.log1p, positive),
    _row('Sqrt', ops.sqrt, np.sqrt, positive),
    _row('Rsqrt', ops.rsqrt, lambda x: 1 / np.sqrt(x), positive),
    _row('Abs', ops.abs, np.abs, away_from_zero),
    _row('Sin', ops.sin, np.sin, anywhere),
    _row('Cos', ops.cos, np.cos, anywhere),
    _row('Tanh', ops.tanh, np.tanh, anywhere),
    _row('Erf', ops.erf, lambda x: _math_erf(x).astype(x.dtype), anywhere),
    _row('Reciprocal', ops.reciprocal, lambda x: 1 / x, away_from_zero),
]
FLAT = [
    _row('Sign', ops.sign, np.sign, away_from_zero, grad=False),
    _row('Floor', ops.floor, np.floor, off_integers, grad=False),
    _row('Ceil', ops.ceil, np.ceil, off_integers, grad=False),
]
CASES = SMOOTH + FLAT


globals().update(row_tests(CASES))


@pytest.mark.parametrize('case', SMOOTH, ids=lambda c: c.label)
def test_float32_gradient_stays_float32(case):
    x = ms.Tensor(case.arrays([(3,)], np.float32)[0], requires_grad=True)
    case.fn(x).backward()
    assert x.grad.dtype == ms.float32


@pytest.mark.parametrize('case', FLAT, ids=lambda c: c.label)
def test_flat_ops_pass_no_gradient(case):
    fn, ref, shape = case.fn, case.ref, (4,)
    x = ms.Tensor(case.arrays([shape], seed=4)[0], requires_grad=True)
    y = fn(x)
    assert not y.requires_grad and y.grad_fn is None
    z = ops.mul(fn(x), x)       # the only gradient is through the second factor
    z.backward(ms.Tensor(np.ones(shape)))
    np.testing.assert_array_equal(x.grad.asnumpy(), ref(x.asnumpy()))


def test_expm1_and_log1p_keep_the_digits_exp_and_log_lose_near_zero():
    x = ms.Tensor(np.array([1e-12, -3e-9]), requires_grad=True)
    np.testing.assert_allclose(ops.expm1(x).asnumpy(), [1e-12, -3e-9], rtol=1e-8)
    np.testing.assert_allclose(ops.log1p(x).asnumpy(), [1e-12, -3e-9], rtol=1e-8)
    ops.sum(ops.log1p(ops.expm1(x))).backward()         # log1p(expm1(x)) = x
    np.testing.assert_allclose(x.grad.asnumpy(), [1.0, 1.0], rtol=1e-12)


def test_known_gradients():
    x = ms.Tensor([0.0, 1.0, 4.0], requires_grad=True)
    ops.exp(x).backward(ms.Tensor([1.0, 1.0, 1.0]))
    np.testing.assert_allclose(x.grad.asnumpy(), np.exp([0.0, 1.0, 4.0]), rtol=1e-6)
    a = ms.Tensor([-2.0, 0.0, 3.0], requires_grad=True)
    ops.abs(a).backward(ms.Tensor([1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(a.grad.asnumpy(), [-1.0, 0.0, 1.0])    # 0 at the kink
    e = ms.Tensor([0.0], requires_grad=True)
    ops.erf(e).backward(ms.Tensor([1.0]))
    np.testing.assert_allclose(e.grad.asnumpy(), [2 / math.sqrt(math.pi)], rtol=1e-6)


# --------------------------------------------------------------------------------- dtypes
@pytest.mark.parametrize('fn', [ops.exp, ops.expm1, ops.log, ops.log1p, ops.sqrt, ops.rsqrt,
                                ops.sin, ops.cos, ops.tanh, ops.erf, ops.reciprocal])
def test_integer_inputs_give_float32(fn):
    x = np.array([1, 2, 3])
    y = fn(ms.Tensor(x))
    assert y.dtype == ms.float32
    np.testing.assert_allclose(y.asnumpy(), fn(ms.Tensor(x.astype(np.float64))).asnumpy(),
                               rtol=1e-6)


@pytest.mark.parametrize('fn,want', [(ops.abs, [3, 0, 2]), (ops.sign, [-1, 0, 1]),
                                     (ops.floor, [-3, 0, 2]), (ops.ceil, [-3, 0, 2])])
def test_integer_dtype_kept(fn, want):
    for dt in (ms.int32, ms.int64):
        y = fn(ms.Tensor([-3, 0, 2], dtype=dt))
        assert y.dtype == dt
        np.testing.assert_array_equal(y.asnumpy(), want)


@pytest.mark.parametrize('fn', [ops.exp, ops.sqrt, ops.tanh, ops.erf, ops.abs, ops.floor])
def test_float16_kept(fn):
    x = np.array([0.25, 1.5, 2.0], np.float16)
    y = fn(ms.Tensor(x))
    assert y.dtype == ms.float16
    want = fn(ms.Tensor(x.astype(np.float64))).asnumpy()
    np.testing.assert_allclose(y.asnumpy().astype(np.float64), want, rtol=2e-3)


def test_python_numbers_and_lists_are_accepted():
    np.testing.assert_allclose(ops.exp(1.0).asnumpy(), math.e, rtol=1e-6)
    np.testing.assert_allclose(ops.sqrt([4.0, 9.0]).asnumpy(), [2.0, 3.0])
    assert ops.abs(-3).asnumpy() == 3


def test_special_values_follow_numpy():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        for fn, ref in [(ops.exp, np.exp), (ops.log, np.log), (ops.sqrt, np.sqrt),
                        (ops.tanh, np.tanh), (ops.sign, np.sign), (ops.erf, _math_erf)]:
            np.testing.assert_array_equal(fn(ms.Tensor(x)).asnumpy(), ref(x))


def test_alias_and_tensor_methods():
    assert ops.absolute is ops.abs
    x = ms.Tensor([0.5, 2.0])
    for name in ('exp', 'expm1', 'log', 'log1p', 'sqrt', 'rsqrt', 'abs', 'sin', 'cos', 'tanh',
                 'sign', 'reciprocal'):
        np.testing.assert_array_equal(getattr(x, name)().asnumpy(),
                                      getattr(ops, name)(x).asnumpy())


# --------------------------------------------------------------------------------- errors
@pytest.mark.parametrize('fn', [ops.exp, ops.abs, ops.sign, ops.floor, ops.erf])
def test_non_tensor_input_is_rejected(fn):
    with pytest.raises(TypeError, match="input must be a Tensor, got str"):
        fn('x')


def test_sign_rejects_bool():
    with pytest.raises(TypeError, match="ops.sign: expected a numeric tensor, got dtype Bool"):
        ops.sign(ms.Tensor([True, False]))


# ------------------------------------------------------------------------------ erf_array
def test_erf_array_float64_matches_math_erf_on_a_dense_grid():
    x = np.linspace(-6.0, 6.0, 240001)
    err = np.abs(erf_array(x) - _math_erf(x))
    assert err.max() < 1e-15          # the contract asks 1e-13; the table gives ~1e-16


def test_erf_array_is_accurate_at_small_arguments():
    x = np.array([1e-300, 1e-20, 1e-8, 3e-5, 0.01, -0.02])
    np.testing.assert_allclose(erf_array(x), _math_erf(x), rtol=1e-15, atol=0)


def test_erf_array_float32_is_within_a_few_ulp():
    x = np.linspace(-7.0, 7.0, 50001).astype(np.float32)
    y = erf_array(x)
    assert y.dtype == np.float32
    want = _math_erf(x.astype(np.float64))
    ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    assert (np.abs(y - want) / np.maximum(ulp, np.finfo(np.float32).tiny)).max() <= 3


def test_erf_array_special_values_shapes_and_dtypes():
    y = erf_array(np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 7.0, -30.0, 1e300]))
    np.testing.assert_array_equal(y, [np.nan, 1.0, -1.0, 0.0, -0.0, 1.0, -1.0, 1.0])
    assert np.signbit(y[4])                              # erf(-0) = -0
    scalar = erf_array(np.array(0.5))
    assert scalar.shape == () and scalar == pytest.approx(math.erf(0.5), rel=1e-15)
    grid = np.linspace(-3, 3, 24).reshape(2, 3, 4)
    np.testing.assert_array_equal(erf_array(grid), erf_array(grid.ravel()).reshape(2, 3, 4))
    np.testing.assert_array_equal(erf_array(grid.T), erf_array(grid).T)     # non-contiguous
    assert erf_array(np.array([1, 2])).dtype == np.float64
    half = erf_array(np.array([0.5, -1.0], np.float16))
    assert half.dtype == np.float16
    np.testing.assert_allclose(half, [math.erf(0.5), math.erf(-1.0)], rtol=1e-3)


def test_erf_array_is_odd_and_monotone():
    x = np.linspace(0.0, 6.0, 60001)
    y = erf_array(x)
    np.testing.assert_array_equal(erf_array(-x), -y)
    assert np.all(np.diff(y) >= 0)


def test_array_math_erf_is_erf_array():
    x = np.linspace(-2, 2, 11)
    np.testing.assert_array_equal(array_math.erf(x), erf_array(x))


def test_inv_of_integers_keeps_the_type():
    """MindSpore 2.10's Inv on int16/int32/int64: 1 and -1 stay, others truncate to 0, and 0
    gives int32's (or int64's) minimum wrapped to the type; int8, unsigned and Bool are refused."""
    x = np.array([1, -1, 0, 2, -2, 7, 100])
    want = {np.int32: [1, -1, -2**31, 0, 0, 0, 0], np.int64: [1, -1, -2**63, 0, 0, 0, 0],
            np.int16: [1, -1, 0, 0, 0, 0, 0]}
    for dt, values in want.items():
        for got in (ops.inv(ms.Tensor(x.astype(dt))), ops.Inv()(ms.Tensor(x.astype(dt))),
                    ms.Tensor(x.astype(dt)).inv()):
            assert got.dtype == ms.Tensor(x.astype(dt)).dtype and got.asnumpy().tolist() == values
    assert ops.inv(ms.Tensor(np.float16([2, 4]))).asnumpy().tolist() == [0.5, 0.25]
    assert ops.reciprocal(ms.Tensor(np.int32([2]))).dtype == ms.float32   # reciprocal stays float
    for dt in (np.int8, np.uint8, np.uint32, np.bool_):
        with pytest.raises(TypeError, match="ops.inv: x must be a float16, float32, float64, "
                                            "int16, int32 or int64 Tensor"):
            ops.inv(ms.Tensor(np.ones(2, dt)))
