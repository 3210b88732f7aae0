"""Activations (sigmoid, relu, gelu, softmax, ...) against NumPy and finite differences."""
import math
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.gradcheck import check_double_grad, check_grad

COVERED_OPS = {'Sigmoid', 'ReLU', 'ReLU6', 'LeakyReLU', 'SiLU', 'Softplus', 'GeLU', 'Softmax',
               'LogSoftmax'}

SHAPES = [(), (5,), (3, 4), (2, 3, 2)]
GRAD_SHAPES = [(), (4,), (2, 3)]

_math_erf = np.vectorize(math.erf, otypes=[np.float64])


def anywhere(rng, shape):
    return np.asarray(rng.uniform(-3.0, 3.0, size=shape))


def off_kinks(rng, shape):
    """|x| in [0.2, 3] and |x - 6| >= 0.2 once scaled by 2.5: clear of the kinks of relu and
    relu6 (the relu6 case stretches these values over (-7.5, 7.5))."""
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


# name, function of a Tensor, NumPy reference, input domain
ELEMENTWISE = [
    ('sigmoid', ops.sigmoid, _sigmoid, anywhere),
    ('relu', ops.relu, lambda x: np.maximum(x, 0), off_kinks),
    ('relu6', lambda x: ops.relu6(x * 2.5), lambda x: np.clip(x * 2.5, 0, 6), off_kinks),
    ('leaky_relu', ops.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x), off_kinks),
    ('leaky_relu_alpha', lambda x: ops.leaky_relu(x, alpha=0.01),
     lambda x: np.where(x > 0, x, 0.01 * x), off_kinks),
    ('silu', ops.silu, lambda x: x * _sigmoid(x), anywhere),
    ('softplus', ops.softplus, _softplus, anywhere),
    ('softplus_beta', lambda x: ops.softplus(x, beta=2, threshold=4),
     lambda x: _softplus(x, 2.0, 4.0), off_kinks),
    ('gelu', ops.gelu, _gelu, anywhere),
    ('gelu_tanh', lambda x: ops.gelu(x, approximate='tanh'), _gelu_tanh, anywhere),
]


def _params(shapes):
    return [pytest.param(fn, ref, dom, shape, id=f"{name}-{shape}")
            for name, fn, ref, dom in ELEMENTWISE for shape in shapes]


def _axis_params():
    """Every axis of every shape, negative spellings and tuples included."""
    cases = [((), -1), ((), 0), ((5,), 0), ((5,), -1)]
    cases += [((3, 4), a) for a in (0, 1, -1, -2, (0, 1))]
    cases += [((2, 3, 2), a) for a in (0, 1, 2, -1, (0, 2), (-1, 1))]
    return [pytest.param(fn, ref, shape, axis, id=f"{name}-{shape}-{axis}")
            for name, fn, ref in [('softmax', ops.softmax, _softmax),
                                  ('log_softmax', ops.log_softmax, _log_softmax)]
            for shape, axis in cases]


@pytest.mark.parametrize('fn,ref,dom,shape', _params(SHAPES))
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_forward_matches_numpy(fn, ref, dom, shape, dtype):
    x = dom(np.random.default_rng(0), shape).astype(dtype)
    y = fn(ms.Tensor(x))
    assert y.shape == shape
    assert y.asnumpy().dtype == dtype
    tol = 2e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(y.asnumpy(), ref(x), rtol=tol, atol=tol)


@pytest.mark.parametrize('fn,ref,dom,shape', _params(GRAD_SHAPES))
def test_backward_matches_finite_differences(fn, ref, dom, shape):
    check_grad(fn, dom(np.random.default_rng(1), shape))


@pytest.mark.parametrize('fn,ref,dom,shape', _params(GRAD_SHAPES))
def test_double_backward_matches_finite_differences(fn, ref, dom, shape):
    # times x, so the incoming gradient depends on x (relu and friends are piecewise linear)
    check_double_grad(lambda x: fn(x) * x, dom(np.random.default_rng(2), shape))


@pytest.mark.parametrize('fn,ref,dom,shape', _params([(3,)]))
def test_float32_gradient_stays_float32(fn, ref, dom, shape):
    x = ms.Tensor(dom(np.random.default_rng(3), shape).astype(np.float32), requires_grad=True)
    fn(x).backward()
    assert x.grad.dtype == ms.float32


@pytest.mark.parametrize('fn,ref,shape,axis', _axis_params())
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_softmax_forward_matches_numpy(fn, ref, shape, axis, dtype):
    x = anywhere(np.random.default_rng(4), shape).astype(dtype)
    y = fn(ms.Tensor(x), axis)
    assert y.shape == shape and y.asnumpy().dtype == dtype
    norm = None if x.ndim == 0 else axis
    tol = 2e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(y.asnumpy(), ref(x, norm), rtol=tol, atol=tol)


@pytest.mark.parametrize('fn,ref,shape,axis', _axis_params())
def test_softmax_backward_matches_finite_differences(fn, ref, shape, axis):
    check_grad(lambda x: fn(x, axis), anywhere(np.random.default_rng(5), shape))


@pytest.mark.parametrize('fn,ref,shape,axis', _axis_params())
def test_softmax_double_backward_matches_finite_differences(fn, ref, shape, axis):
    check_double_grad(lambda x: fn(x, axis) * x, anywhere(np.random.default_rng(6), shape))


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


def test_relu6_gradient_is_zero_outside_the_open_band():
    x = ms.Tensor([-1.0, 0.0, 3.0, 6.0, 7.0], requires_grad=True)
    y = ops.relu6(x)
    np.testing.assert_array_equal(y.asnumpy(), [0.0, 0.0, 3.0, 6.0, 6.0])
    y.backward(ms.Tensor(np.ones(5, np.float32)))
    np.testing.assert_array_equal(x.grad.asnumpy(), [0.0, 0.0, 1.0, 0.0, 0.0])


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
