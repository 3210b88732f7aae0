"""batch_norm and layer_norm: NumPy references, finite differences, running statistics, errors."""
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case, positive, normal
from tests.ops.rows import row_tests

BN_SHAPES = [(4, 3), (3, 2, 5), (4, 3, 2, 2), (2, 3, 2, 1, 2)]
# input shape, normalized_shape
LN_CASES = [((3, 4), (4,)), ((2, 3, 4), (3, 4)), ((5,), (5,)), ((2, 2, 3), 3),
            ((2, 1, 3, 2), (1, 3, 2))]


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


def shifted(scale, offset):
    """Normal values times ``scale`` plus ``offset``: statistics away from 0 and 1."""
    return lambda rng, shape: rng.standard_normal(shape) * scale + offset


# ------------------------------------------------------------------------------ rows
def bn_train_row(shapes, wrt=(0, 1, 2), double=True):
    """batch_norm in training (x, weight, bias) on fresh running statistics."""
    def bn_train(x, w, b):
        c = x.shape[1]
        return ops.batch_norm(x, ops.zeros(c, x.dtype), ops.ones(c, x.dtype), w, b,
                              training=True)

    def ref(x, w, b):
        mean, var, _ = _batch_stats(x.astype(np.float64))
        return _bn_ref(x, mean, var, w, b, 1e-5)
    wrt_name = '' if wrt == (0, 1, 2) else f"-wrt{wrt}"
    return Case('BatchNormTrain', bn_train, ref=ref, name=f"batch_norm-train{wrt_name}",
                shapes=[(s, (s[1],), (s[1],)) for s in shapes], wrt=wrt, double=double,
                rtol=1e-12, atol=1e-12)


def bn_predict_row(shapes, wrt=(0, 3, 4), double=True):
    """batch_norm with running statistics (x, mean, var, weight, bias); the statistics get
    no gradient."""
    def bn_predict(x, mean, var, w, b):
        return ops.batch_norm(x, mean, var, w, b)

    def ref(x, mean, var, w, b):
        return _bn_ref(x, mean, var, w, b, 1e-5)
    wrt_name = '' if wrt == (0, 3, 4) else f"-wrt{wrt}"
    return Case('BatchNormPredict', bn_predict, ref=ref, name=f"batch_norm-predict{wrt_name}",
                shapes=[(s,) + ((s[1],),) * 4 for s in shapes],
                domains=(normal, normal, positive, normal, normal), wrt=wrt, double=double,
                rtol=1e-12, atol=0)


def ln_row(shape, normalized, weight, bias, wrt=None, double=True):
    """layer_norm(x, normalized, weight, bias, eps=1e-4) with the affine parameters that
    ``weight`` and ``bias`` ask for, as inputs after x."""
    k = 1 if isinstance(normalized, int) else len(normalized)
    param_shape = (normalized,) if isinstance(normalized, int) else normalized

    def split(params):
        it = iter(params)
        return next(it) if weight else None, next(it) if bias else None

    def layer_norm(x, *params):
        return ops.layer_norm(x, normalized, *split(params), eps=1e-4)

    def ref(x, *params):
        return _ln_ref(x.astype(np.float64), k, *split(params), eps=1e-4)
    affine = {(True, True): '-affine', (True, False): '-weight', (False, True): '-bias',
              (False, False): ''}[weight, bias]
    name = f"layer_norm{affine}{'' if wrt is None else f'-wrt{wrt}'}-{normalized}"
    return Case('LayerNorm', layer_norm, ref=ref, name=name,
                shapes=[(shape,) + (param_shape,) * (weight + bias)], domains=(shifted(3, -2),),
                wrt=wrt, double=double, rtol=1e-12, atol=1e-12)


BATCH_NORM = [
    bn_train_row(BN_SHAPES),
    bn_train_row(BN_SHAPES[:3], wrt=(0,), double=False),
    bn_train_row(BN_SHAPES[:3], wrt=(1, 2), double=False),
    bn_predict_row(BN_SHAPES),
    bn_predict_row(BN_SHAPES[:3], wrt=(4,), double=False),
]
LAYER_NORM = [row for shape, normalized in LN_CASES for row in [
    ln_row(shape, normalized, True, True),
    ln_row(shape, normalized, False, False),
    ln_row(shape, normalized, True, False),
    ln_row(shape, normalized, False, True),
    ln_row(shape, normalized, True, True, wrt=(1, 2), double=False),
]]
CASES = BATCH_NORM + LAYER_NORM


globals().update(row_tests(CASES))


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


def test_batch_norm_training_refuses_an_empty_batch():
    with pytest.raises(ValueError, match=r"ops\.batch_norm: input_x has no values to take batch "
                                         r"statistics from \(shape \(0, 3\)\)"):
        ops.batch_norm(ms.Tensor(np.ones((0, 3), np.float32)), ops.zeros(3), ops.ones(3),
                       ops.ones(3), ops.zeros(3), training=True)
