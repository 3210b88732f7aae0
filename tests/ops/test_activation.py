"""Activations (sigmoid, relu, gelu, softmax, ...) against NumPy and finite differences."""
import math
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

SHAPES = [((),), ((5,),), ((3, 4),), ((2, 3, 2),)]

_math_erf = np.vectorize(math.erf, otypes=[np.float64])


def anywhere(rng, shape):
    return np.asarray(rng.uniform(-3.0, 3.0, size=shape))


def off_kinks(rng, shape):
    """|x| in [0.2, 3] and |x - 6| >= 0.2 once scaled by 2.5: clear of the kinks of relu and
    relu6 (the relu6 row stretches these values over (-7.5, 7.5))."""
    x = rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.2, 3.0, size=shape)
    x = np.where(np.abs(np.abs(x) * 2.5 - 6) < 0.5, x * 0.7, x)
    return np.asarray(x)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softplus(x, beta=1.0, threshold=20.0):
    z = beta * x
    return np.where(z > threshold, x, np.log1p(np.exp(z)) / beta)


def _gelu(x):
    return 0.5 * x * (1 + _math_erf(x / math.sqrt(2)).astype(x.dtype))


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax(x, axis):
    return np.log(_softmax(x, axis))


def _row(op, name, fn, ref, domain, shapes=SHAPES):
    return Case(op, fn, ref=ref, shapes=shapes, domains=(domain,), name=name,
                rtol=1e-12, atol=1e-12)


ELEMENTWISE = [
    _row('Sigmoid', 'sigmoid', ops.sigmoid, _sigmoid, anywhere),
    _row('ReLU', 'relu', ops.relu, lambda x: np.maximum(x, 0), off_kinks),
    _row('ReLU6', 'relu6', lambda x: ops.relu6(x * 2.5), lambda x: np.clip(x * 2.5, 0, 6),
         off_kinks),
    _row('LeakyReLU', 'leaky_relu', ops.leaky_relu,
         lambda x: np.where(x > 0, x, float(np.float32(0.2)) * x), off_kinks),    # alpha: float32
    _row('LeakyReLU', 'leaky_relu_alpha', lambda x: ops.leaky_relu(x, alpha=0.01),
         lambda x: np.where(x > 0, x, float(np.float32(0.01)) * x), off_kinks),   # alpha: float32
    _row('SiLU', 'silu', ops.silu, lambda x: x * _sigmoid(x), anywhere),
    _row('Softplus', 'softplus', ops.softplus, _softplus, anywhere),
    _row('Softplus', 'softplus_beta', lambda x: ops.softplus(x, beta=2, threshold=4),
         lambda x: _softplus(x, 2.0, 4.0), off_kinks),
    _row('GeLU', 'gelu', ops.gelu, _gelu, anywhere),
    _row('GeLU', 'gelu_tanh', lambda x: ops.gelu(x, approximate='tanh'), _gelu_tanh, anywhere),
]

# every axis of every shape, negative spellings and tuples included
AXES = {
    -1: [(), (5,), (3, 4), (2, 3, 2)],
    0: [(), (5,), (3, 4), (2, 3, 2)],
    1: [(3, 4), (2, 3, 2)],
    -2: [(3, 4)],
    (0, 1): [(3, 4)],
    2: [(2, 3, 2)],
    (0, 2): [(2, 3, 2)],
    (-1, 1): [(2, 3, 2)],
}


def _axis_row(op, name, fn, ref, axis):
    return _row(op, f"{name}-axis={axis}", lambda x: fn(x, axis),
                lambda x: ref(x, axis if x.ndim else None),
                anywhere, [(shape,) for shape in AXES[axis]])


SOFTMAX = [_axis_row(op, name, fn, ref, axis)
           for op, name, fn, ref in [('Softmax', 'softmax', ops.softmax, _softmax),
                                     ('LogSoftmax', 'log_softmax', ops.log_softmax,
                                      _log_softmax)]
           for axis in AXES]
CASES = ELEMENTWISE + SOFTMAX


globals().update(row_tests(CASES))


@pytest.mark.parametrize('case', ELEMENTWISE, ids=lambda c: c.label)
def test_float32_gradient_stays_float32(case):
    x = ms.Tensor(case.arrays([(3,)], np.float32, seed=3)[0], requires_grad=True)
    case.fn(x).backward()
    assert x.grad.dtype == ms.float32


# ------------------------------------------------------------------------------ behaviour
def test_relu_gradient_is_zero_at_the_kink_and_mask_works_on_tensors():
    x = ms.Tensor([-1.0, 0.0, 2.0], requires_grad=True)
    ops.relu(x).backward(ms.Tensor([5.0, 5.0, 5.0]))
    np.testing.assert_array_equal(x.grad.asnumpy(), [0.0, 0.0, 5.0])
    # f = relu(w^2 - 1) w: f' = (3 w^2 - 1) [|w| > 1], f'' = 6 w [|w| > 1]
    w = ms.Tensor([-1.5, 0.5, 2.0], requires_grad=True)
    ones = ms.Tensor(np.ones(3, np.float32))
    (ops.relu(w * w - 1) * w).backward(ones, create_graph=True)
    g, w.grad = w.grad, None
    np.testing.assert_allclose(g.asnumpy(), [5.75, 0.0, 11.0], rtol=1e-6)
    g.backward(ones)
    np.testing.assert_allclose(w.grad.asnumpy(), [-9.0, 0.0, 12.0], rtol=1e-6)


def test_relu6_gradient_passes_on_the_band_0_excluded_6_included():
    # MindSpore 2.10: the gradient is 0 at x = 0 and 1 at x = 6
    x = ms.Tensor([-1.0, 0.0, 3.0, 6.0, 7.0], requires_grad=True)
    y = ops.relu6(x)
    np.testing.assert_array_equal(y.asnumpy(), [0.0, 0.0, 3.0, 6.0, 6.0])
    y.backward(ms.Tensor(np.ones(5, np.float32)))
    np.testing.assert_array_equal(x.grad.asnumpy(), [0.0, 0.0, 1.0, 1.0, 0.0])


@pytest.mark.parametrize('fn', [ops.relu, ops.relu6])
def test_relu_keeps_integer_dtypes(fn):
    for dt in (ms.int32, ms.int64, ms.int8):
        y = fn(ms.Tensor([-3, 2, 9], dtype=dt))
        assert y.dtype == dt
        np.testing.assert_array_equal(y.asnumpy(), [0, 2, 9 if fn is ops.relu else 6])


@pytest.mark.parametrize('fn', [ops.sigmoid, ops.silu, ops.softplus, ops.gelu, ops.leaky_relu,
                                ops.softmax, ops.log_softmax])
def test_integer_inputs_give_float32(fn):
    y = fn(ms.Tensor([-1, 0, 2]))
    assert y.dtype == ms.float32
    np.testing.assert_allclose(y.asnumpy(), fn(ms.Tensor([-1.0, 0.0, 2.0])).asnumpy())


def test_extreme_inputs_stay_finite_without_warnings():
    big = np.array([-1000.0, -80.0, 0.0, 80.0, 1000.0])
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        for dt in (np.float32, np.float64):
            x = ms.Tensor(big.astype(dt), requires_grad=True)
            for fn in (ops.sigmoid, ops.silu, ops.softplus, ops.gelu, ops.softmax,
                       ops.log_softmax, lambda t: ops.gelu(t, 'tanh')):
                y = fn(x)
                assert np.all(np.isfinite(y.asnumpy()))
                y.backward(ms.Tensor(np.ones(5, dt)))
                assert np.all(np.isfinite(x.grad.asnumpy()))
                x.grad = None
    np.testing.assert_allclose(ops.sigmoid(ms.Tensor(big)).asnumpy(),
                               [0, math.exp(-80) / (1 + math.exp(-80)), 0.5, 1, 1], rtol=1e-12)
    assert ops.sigmoid(ms.Tensor(-700.0, dtype=ms.float64)).asnumpy() == pytest.approx(
        math.exp(-700.0), rel=1e-12)                     # the tail keeps relative accuracy
    np.testing.assert_allclose(ops.softplus(ms.Tensor(big)).asnumpy(),
                               [0, _softplus(-80.0), math.log(2), 80, 1000], rtol=1e-6)


def test_softmax_is_shift_invariant_and_log_softmax_is_its_log():
    x = np.array([[1000.0, 1001.0, 1002.0], [-5.0, 0.0, 5.0]])
    y = ops.softmax(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(y[0], _softmax(np.array([0.0, 1.0, 2.0]), -1), rtol=1e-12)
    np.testing.assert_allclose(y.sum(axis=-1), [1.0, 1.0], rtol=1e-12)
    ly = ops.log_softmax(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(ly, np.log(y), rtol=1e-12)
    assert ly[0, 0] == pytest.approx(-2.40760596444438, rel=1e-12)


def test_softmax_dtype_argument_casts_first():
    y = ops.softmax(ms.Tensor([1.0, 2.0], dtype=ms.float32), dtype=ms.float64)
    assert y.dtype == ms.float64
    x = ms.Tensor([1.0, 2.0], requires_grad=True)
    y = ops.softmax(x, dtype=ms.float64)
    y.backward(ms.Tensor([1.0, 0.0], dtype=ms.float64))
    assert x.grad.dtype == ms.float32
    s = _softmax(np.array([1.0, 2.0]), -1)
    np.testing.assert_allclose(x.grad.asnumpy(), s * (np.array([1.0, 0.0]) - s[0]),
                               rtol=1e-6)


def test_gelu_known_values():
    x = ms.Tensor([-1.0, 0.0, 1.0], dtype=ms.float64)
    np.testing.assert_allclose(ops.gelu(x).asnumpy(),
                               [-0.15865525393145707, 0.0, 0.8413447460685429], rtol=1e-14)
    np.testing.assert_allclose(ops.gelu(x, approximate='tanh').asnumpy(),
                               [-0.15880800939172324, 0.0, 0.8411919906082768], rtol=1e-14)


def test_tensor_methods():
    x = ms.Tensor([[0.5, -1.0], [2.0, 0.0]])
    np.testing.assert_array_equal(x.sigmoid().asnumpy(), ops.sigmoid(x).asnumpy())
    np.testing.assert_array_equal(x.relu().asnumpy(), ops.relu(x).asnumpy())
    np.testing.assert_array_equal(x.softmax(0).asnumpy(), ops.softmax(x, 0).asnumpy())
    np.testing.assert_array_equal(x.log_softmax().asnumpy(), ops.log_softmax(x).asnumpy())


# --------------------------------------------------------------------------------- errors
@pytest.mark.parametrize('fn,name', [(ops.softmax, 'softmax'), (ops.log_softmax, 'log_softmax')])
def test_softmax_axis_out_of_range_names_op_and_rank(fn, name):
    x = ms.Tensor(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=rf"ops\.{name}: axis 2 is out of range for a tensor "
                                         rf"of rank 2"):
        fn(x, 2)
    with pytest.raises(ValueError, match=rf"ops\.{name}: axis -3 is out of range .* rank 2"):
        fn(x, -3)
    with pytest.raises(ValueError, match=rf"ops\.{name}: axis 1 is out of range .* rank 0"):
        fn(ms.Tensor(1.0), 1)
    with pytest.raises(TypeError, match=rf"ops\.{name}: axis must be an int or a tuple of "
                                        rf"ints, got 'a'"):
        fn(x, 'a')


def test_gelu_rejects_unknown_approximation():
    with pytest.raises(ValueError, match="ops.gelu: approximate must be 'none' or 'tanh', "
                                         "got 'erf'"):
        ops.gelu(ms.Tensor([1.0]), approximate='erf')


@pytest.mark.parametrize('call,message', [
    (lambda x: ops.leaky_relu(x, alpha='0.1'), "ops.leaky_relu: alpha must be a number, got str"),
    (lambda x: ops.softplus(x, beta=None), "ops.softplus: beta must be a number, got NoneType"),
    (lambda x: ops.softplus(x, threshold=[1]),
     "ops.softplus: threshold must be a number, got list"),
    (lambda x: ops.relu(ms.Tensor([True])), "ops.relu: expected a numeric tensor, got dtype Bool"),
    (lambda x: ops.relu6(ms.Tensor([True])),
     "ops.relu6: expected a numeric tensor, got dtype Bool"),
    (lambda x: ops.sigmoid('x'), "input must be a Tensor, got str"),
])
def test_bad_arguments_are_rejected(call, message):
    with pytest.raises(TypeError, match=message):
        call(ms.Tensor([1.0]))


def test_softplus_rejects_zero_beta():
    with pytest.raises(ValueError, match="ops.softplus: beta must be non-zero, got 0"):
        ops.softplus(ms.Tensor([1.0]), beta=0)


def test_numpy_scalar_parameters_keep_float32():
    x = ms.Tensor([-1.0, 2.0])
    assert ops.leaky_relu(x, np.float64(0.1)).dtype == ms.float32
    assert ops.softplus(x, np.int64(2), np.float64(5.0)).dtype == ms.float32
