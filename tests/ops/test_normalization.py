"""batch_norm and layer_norm: NumPy references, finite differences, running statistics, errors."""
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.gradcheck import check_double_grad, check_grad

COVERED_OPS = {'BatchNormTrain', 'BatchNormPredict', 'LayerNorm'}

BN_SHAPES = [(4, 3), (3, 2, 5), (4, 3, 2, 2), (2, 3, 2, 1, 2)]


def _bn_ref(x, mean, var, w, b, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * w.reshape(shape) \
        + b.reshape(shape)


def _batch_stats(x):
    axes = (0,) + tuple(range(2, x.ndim))
    return x.mean(axis=axes), x.var(axis=axes), x.var(axis=axes, ddof=1)


def _ln_ref(x, k, w=None, b=None, eps=1e-5):
    axes = tuple(range(x.ndim - k, x.ndim))
    y = (x - x.mean(axis=axes, keepdims=True)) / np.sqrt(x.var(axis=axes, keepdims=True) + eps)
    if w is not None:
        y = y * w
    if b is not None:
        y = y + b
    return y


def _channel_arrays(rng, c):
    return (rng.standard_normal(c), rng.uniform(0.5, 2.0, c), rng.standard_normal(c),
            rng.standard_normal(c))


# ------------------------------------------------------------------------------ batch norm
@pytest.mark.parametrize('shape', BN_SHAPES)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_batch_norm_training_forward_and_running_update(shape, dtype):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(shape) * 2 + 1).astype(dtype)
    rm0, rv0, w, b = (a.astype(dtype) for a in _channel_arrays(rng, shape[1]))
    rm, rv = ms.Parameter(ms.Tensor(rm0)), ms.Parameter(ms.Tensor(rv0))
    y = ops.batch_norm(ms.Tensor(x), rm, rv, ms.Tensor(w), ms.Tensor(b), training=True,
                       momentum=0.3, eps=1e-3)
    mean, var, unbiased = _batch_stats(x.astype(np.float64))
    tol = 2e-5 if dtype == np.float32 else 1e-12
    assert y.shape == shape and y.asnumpy().dtype == dtype
    np.testing.assert_allclose(y.asnumpy(), _bn_ref(x, mean, var, w, b, 1e-3), rtol=tol, atol=tol)
    np.testing.assert_allclose(rm.asnumpy(), 0.7 * rm0 + 0.3 * mean, rtol=tol, atol=tol)
    np.testing.assert_allclose(rv.asnumpy(), 0.7 * rv0 + 0.3 * unbiased, rtol=tol, atol=tol)
    assert rm.asnumpy().dtype == dtype and rm.requires_grad


@pytest.mark.parametrize('shape', BN_SHAPES)
def test_batch_norm_predict_uses_running_statistics_and_leaves_them(shape):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape)
    rm0, rv0, w, b = _channel_arrays(rng, shape[1])
    rm, rv = ms.Tensor(rm0), ms.Tensor(rv0)
    y = ops.batch_norm(ms.Tensor(x), rm, rv, ms.Tensor(w), ms.Tensor(b))
    np.testing.assert_allclose(y.asnumpy(), _bn_ref(x, rm0, rv0, w, b, 1e-5), rtol=1e-12)
    np.testing.assert_array_equal(rm.asnumpy(), rm0)
    np.testing.assert_array_equal(rv.asnumpy(), rv0)


@pytest.mark.parametrize('shape', BN_SHAPES[:3])
def test_batch_norm_training_gradients(shape):
    rng = np.random.default_rng(2)
    x = rng.standard_normal(shape)
    rm, rv, w, b = _channel_arrays(rng, shape[1])

    def f(x, w, b):
        return ops.batch_norm(x, ms.Tensor(rm), ms.Tensor(rv), w, b, training=True)

    check_grad(f, x, w, b)
    check_double_grad(f, x, w, b)
    check_grad(f, x, w, b, wrt=[0])          # only some inputs require grad
    check_grad(f, x, w, b, wrt=[1, 2])


@pytest.mark.parametrize('shape', BN_SHAPES[:3])
def test_batch_norm_predict_gradients(shape):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shape)
    rm, rv, w, b = _channel_arrays(rng, shape[1])

    def f(x, w, b):
        return ops.batch_norm(x, ms.Tensor(rm), ms.Tensor(rv), w, b)

    check_grad(f, x, w, b)
    check_grad(f, x, w, b, wrt=[2])
    # the map is affine in x: multiply by x so the second derivative is not zero
    check_double_grad(lambda x, w, b: f(x, w, b) * x, x, w, b)


def test_batch_norm_predict_gradient_is_a_per_channel_scale():
    x = ms.Tensor(np.full((1, 2, 1, 1), 4.0, np.float32), requires_grad=True)
    w = ms.Tensor([1.0, 3.0])
    y = ops.batch_norm(x, ops.zeros(2), ms.Tensor([1.0, 3.0]), w, ops.zeros(2))
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy().ravel(),
                               [1 / np.sqrt(1 + 1e-5), 3 / np.sqrt(3 + 1e-5)], rtol=1e-6)
    assert x.grad.dtype == ms.float32


def test_batch_norm_float32_statistics_survive_a_large_offset():
    rng = np.random.default_rng(4)
    x = (1e4 + rng.standard_normal((8, 3, 4, 4))).astype(np.float32)
    rm, rv = ms.Tensor(np.zeros(3, np.float32)), ms.Tensor(np.ones(3, np.float32))
    y = ops.batch_norm(ms.Tensor(x), rm, rv, ops.ones(3), ops.zeros(3), training=True,
                       momentum=1.0)
    x64 = x.astype(np.float64)
    mean, var, unbiased = _batch_stats(x64)
    np.testing.assert_allclose(y.asnumpy(), _bn_ref(x64, mean, var, np.ones(3), np.zeros(3),
                                                    1e-5), atol=2e-3)
    np.testing.assert_allclose(rv.asnumpy(), unbiased, rtol=1e-3)


def test_batch_norm_running_update_replaces_arrays_and_ignores_grad_mode():
    rm, rv = ms.Parameter(ms.Tensor([0.0, 0.0])), ms.Parameter(ms.Tensor([1.0, 1.0]))
    old = rm._data
    x = ms.Tensor([[1.0, 2.0], [3.0, 6.0]], requires_grad=True)
    with ms.no_grad():
        y = ops.batch_norm(x, rm, rv, ops.ones(2), ops.zeros(2), training=True)
    assert not y.requires_grad
    np.testing.assert_allclose(rm.asnumpy(), [0.2, 0.4], rtol=1e-6)
    np.testing.assert_allclose(rv.asnumpy(), [1.1, 1.7], rtol=1e-6)
    np.testing.assert_array_equal(old, [0.0, 0.0])      # the old array is not written


def test_batch_norm_casts_parameters_to_the_input_dtype():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 2))
    w = ms.Tensor(np.array([1.5, 0.5], np.float32), requires_grad=True)
    y = ops.batch_norm(ms.Tensor(x), ms.Tensor(np.zeros(2, np.float32)),
                       ms.Tensor(np.ones(2, np.float32)), w, ops.zeros(2), training=True)
    assert y.dtype == ms.float64
    y.sum().backward()
    assert w.grad.dtype == ms.float32


def test_batch_norm_backward_twice_with_retained_graph_gives_the_same_gradients():
    rng = np.random.default_rng(6)
    x = ms.Tensor(rng.standard_normal((4, 3, 2, 2)), requires_grad=True)
    g = ms.Tensor(rng.standard_normal((4, 3, 2, 2)))
    y = ops.batch_norm(x, ops.zeros(3), ops.ones(3), ops.ones(3), ops.zeros(3), training=True)
    y.backward(g, retain_graph=True)
    first = x.grad.asnumpy().copy()
    x.grad = None
    y.backward(g)
    np.testing.assert_array_equal(x.grad.asnumpy(), first)


@pytest.mark.parametrize('call,error,message', [
    (lambda x, c: ops.batch_norm('x', c, c, c, c), TypeError,
     "ops.batch_norm: input_x must be a Tensor, got str"),
    (lambda x, c: ops.batch_norm(ms.Tensor([[1, 2]]), c, c, c, c), TypeError,
     "ops.batch_norm: input_x must be a floating tensor, got dtype Int64"),
    (lambda x, c: ops.batch_norm(ms.Tensor([1.0, 2.0]), c, c, c, c), ValueError,
     r"ops.batch_norm: input_x must have shape \(N, C\) or \(N, C, ...\), got \(2,\)"),
    (lambda x, c: ops.batch_norm(x, c, c, c, c, training=1), TypeError,
     "ops.batch_norm: training must be a bool, got 1"),
    (lambda x, c: ops.batch_norm(x, c, c, c, c, momentum=1.5), ValueError,
     r"ops.batch_norm: momentum must be in \[0.0, 1.0\], got 1.5"),
    (lambda x, c: ops.batch_norm(x, c, c, c, c, momentum='a'), TypeError,
     "ops.batch_norm: momentum must be a float, got str"),
    (lambda x, c: ops.batch_norm(x, c, c, c, c, eps=0), ValueError,
     r"ops.batch_norm: eps must be in \(0.0, 1.0\], got 0.0"),
    (lambda x, c: ops.batch_norm(x, ops.zeros(3), c, c, c), ValueError,
     r"ops.batch_norm: running_mean must have shape \(2,\) \(the channels of input_x "
     r"\(4, 2\)\), got \(3,\)"),
    (lambda x, c: ops.batch_norm(x, c, [1.0, 1.0], c, c), TypeError,
     "ops.batch_norm: running_var must be a Tensor, got list"),
    (lambda x, c: ops.batch_norm(x, c, c, ops.ones((2, 1)), c), ValueError,
     r"ops.batch_norm: weight must have shape \(2,\), got \(2, 1\)"),
    (lambda x, c: ops.batch_norm(x, c, c, c, ms.Tensor([0, 0])), TypeError,
     "ops.batch_norm: bias must be a floating tensor, got dtype Int64"),
    (lambda x, c: ops.batch_norm(ops.ones((1, 2)), c, c, c, c, training=True), ValueError,
     r"ops.batch_norm: training needs more than one value per channel, got input_x of "
     r"shape \(1, 2\)"),
])
def test_batch_norm_rejects_bad_arguments_before_changing_anything(call, error, message):
    c = ms.Parameter(ms.Tensor([0.5, 0.5]))
    with pytest.raises(error, match=message):
        call(ops.ones((4, 2)), c)
    np.testing.assert_array_equal(c.asnumpy(), [0.5, 0.5])


# ------------------------------------------------------------------------------ layer norm
LN_CASES = [((3, 4), (4,)), ((2, 3, 4), (3, 4)), ((5,), (5,)), ((2, 2, 3), 3),
            ((2, 1, 3, 2), (1, 3, 2))]


def _ln_params(rng, shape):
    shape = (shape,) if isinstance(shape, int) else shape
    return rng.standard_normal(shape), rng.standard_normal(shape)


@pytest.mark.parametrize('shape,normalized', LN_CASES)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_layer_norm_forward_matches_numpy(shape, normalized, dtype):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(shape) * 3 - 2).astype(dtype)
    w, b = (a.astype(dtype) for a in _ln_params(rng, normalized))
    k = 1 if isinstance(normalized, int) else len(normalized)
    tol = 2e-5 if dtype == np.float32 else 1e-12
    for wt, bt in [(w, b), (None, None), (w, None), (None, b)]:
        y = ops.layer_norm(ms.Tensor(x), normalized, None if wt is None else ms.Tensor(wt),
                           None if bt is None else ms.Tensor(bt), eps=1e-4)
        assert y.shape == shape and y.asnumpy().dtype == dtype
        np.testing.assert_allclose(y.asnumpy(), _ln_ref(x.astype(np.float64), k, wt, bt, 1e-4),
                                   rtol=tol, atol=tol)


@pytest.mark.parametrize('shape,normalized', LN_CASES)
def test_layer_norm_gradients(shape, normalized):
    rng = np.random.default_rng(8)
    x = rng.standard_normal(shape)
    w, b = _ln_params(rng, normalized)

    def affine(x, w, b):
        return ops.layer_norm(x, normalized, w, b)

    check_grad(affine, x, w, b)
    check_double_grad(affine, x, w, b)
    check_grad(affine, x, w, b, wrt=[1, 2])
    check_grad(lambda x: ops.layer_norm(x, normalized), x)
    check_double_grad(lambda x: ops.layer_norm(x, normalized), x)
    check_grad(lambda x, b: ops.layer_norm(x, normalized, bias=b), x, b)
    check_double_grad(lambda x, w: ops.layer_norm(x, normalized, weight=w), x, w)


def test_layer_norm_is_stable_for_a_large_offset_in_float32():
    rng = np.random.default_rng(9)
    x = (5e3 + rng.standard_normal((4, 16))).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = ops.layer_norm(ms.Tensor(x), (16,))
    np.testing.assert_allclose(y.asnumpy(), _ln_ref(x.astype(np.float64), 1), atol=2e-3)


def test_layer_norm_matches_the_documented_example():
    x = ms.Tensor(np.array([[1, 2, 3], [1, 2, 3]], np.float32))
    y = ops.layer_norm(x, (3,), ops.ones(3), ops.zeros(3), 1e-7)
    np.testing.assert_allclose(y.asnumpy(), [[-1.2247448, 0.0, 1.2247448]] * 2, rtol=1e-6)


@pytest.mark.parametrize('call,error,message', [
    (lambda x: ops.layer_norm([1.0], (1,)), TypeError,
     "ops.layer_norm: input must be a Tensor, got list"),
    (lambda x: ops.layer_norm(ms.Tensor([[1, 2]]), (2,)), TypeError,
     "ops.layer_norm: input must be a floating tensor, got dtype Int64"),
    (lambda x: ops.layer_norm(x, (2,)), ValueError,
     r"ops.layer_norm: input of shape \(2, 3\) does not end with normalized_shape \(2,\)"),
    (lambda x: ops.layer_norm(x, (1, 2, 3)), ValueError,
     r"ops.layer_norm: input of shape \(2, 3\) does not end with normalized_shape \(1, 2, 3\)"),
    (lambda x: ops.layer_norm(x, (3.0,)), TypeError,
     r"ops.layer_norm: normalized_shape must be a positive int or a non-empty tuple/list of "
     r"positive ints, got \(3.0,\)"),
    (lambda x: ops.layer_norm(x, ()), TypeError, "normalized_shape must be a positive int"),
    (lambda x: ops.layer_norm(x, (3,), ops.ones(2)), ValueError,
     r"ops.layer_norm: weight must have shape \(3,\), got \(2,\)"),
    (lambda x: ops.layer_norm(x, (3,), None, 1.0), TypeError,
     "ops.layer_norm: bias must be a Tensor, got float"),
    (lambda x: ops.layer_norm(x, (3,), eps=-1.0), ValueError,
     "ops.layer_norm: eps must be positive, got -1.0"),
])
def test_layer_norm_rejects_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call(ops.ones((2, 3)))
