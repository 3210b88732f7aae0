"""BatchNorm1d, BatchNorm2d and LayerNorm cells: modes, moving statistics, parameters, errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.testing import check_grad


def _bn_ref(x, mean, var, gamma, beta, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return ((x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * gamma.reshape(shape)
            + beta.reshape(shape))


def _stats(x):
    axes = (0,) + tuple(range(2, x.ndim))
    return x.mean(axis=axes), x.var(axis=axes), x.var(axis=axes, ddof=1)


# ------------------------------------------------------------------------------ batch norm
def test_seed_fresh_batchnorm2d_uses_moving_statistics_and_its_gradient():
    bn = nn.BatchNorm2d(2, momentum=0.99, eps=0.00001, gamma_init="ones")
    assert bn.training is False
    x = ms.Tensor(np.full((1, 2, 1, 1), 4, np.float32))
    grad = ms.grad(bn)(x)
    assert grad.dtype == ms.float32 and grad.shape == (1, 2, 1, 1)
    np.testing.assert_allclose(grad.asnumpy().ravel(), [1 / np.sqrt(1 + 1e-5)] * 2, rtol=1e-7)
    assert '9.99994993e-01' in repr(grad)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), [0.0, 0.0])    # predict: no update
    np.testing.assert_array_equal(bn.moving_variance.asnumpy(), [1.0, 1.0])


@pytest.mark.parametrize('cls,shape', [(nn.BatchNorm1d, (6, 3)), (nn.BatchNorm1d, (4, 3, 5)),
                                       (nn.BatchNorm2d, (4, 3, 2, 3))])
def test_training_step_normalizes_with_batch_statistics_and_moves_the_averages(cls, shape):
    rng = np.random.default_rng(0)
    bn = cls(3, momentum=0.8, gamma_init=2.0, beta_init=0.5,
             moving_mean_init=ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))).set_train()
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    y = bn(ms.Tensor(x))
    mean, var, unbiased = _stats(x.astype(np.float64))
    np.testing.assert_allclose(y.asnumpy(), _bn_ref(x, mean, var, np.full(3, 2.0),
                                                    np.full(3, 0.5), 1e-5), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.8 * np.array([1, 2, 3]) + 0.2 * mean,
                               rtol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.8 + 0.2 * unbiased, rtol=1e-6)
    # back in predict mode the moving statistics normalize and stay as they are
    moved = bn.moving_mean.asnumpy().copy(), bn.moving_variance.asnumpy().copy()
    bn.set_train(False)
    z = bn(ms.Tensor(x))
    np.testing.assert_allclose(z.asnumpy(), _bn_ref(x, moved[0], moved[1], np.full(3, 2.0),
                                                    np.full(3, 0.5), 1e-5), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), moved[0])
    np.testing.assert_array_equal(bn.moving_variance.asnumpy(), moved[1])


def test_use_batch_statistics_forces_the_behaviour():
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32))
    always = nn.BatchNorm1d(2, use_batch_statistics=True)          # predict mode, yet batch
    np.testing.assert_allclose(always(x).asnumpy(), [[-1, -1], [1, 1]], atol=1e-5)
    np.testing.assert_allclose(always.moving_mean.asnumpy(), [0.2, 0.4], rtol=1e-6)
    never = nn.BatchNorm1d(2, use_batch_statistics=False).set_train()
    np.testing.assert_allclose(never(x).asnumpy(), x.asnumpy() / np.sqrt(1 + 1e-5), rtol=1e-6)
    np.testing.assert_array_equal(never.moving_mean.asnumpy(), [0.0, 0.0])


def test_parameters_names_and_trainability():
    bn = nn.BatchNorm2d(4)
    # MindSpore 2.10's order and names (a lone BatchNorm2d names its statistics 'mean' and
    # 'variance'; in a network they are named by path)
    assert [(n, p.name, p.requires_grad) for n, p in bn.parameters_and_names()] == [
        ('moving_mean', 'mean', False), ('moving_variance', 'variance', False),
        ('gamma', 'gamma', True), ('beta', 'beta', True)]
    net = nn.SequentialCell(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4))
    assert [p.name for p in net.get_parameters()] == [
        '0.weight', '1.moving_mean', '1.moving_variance', '1.gamma', '1.beta']
    assert [p.name for p in bn.trainable_params()] == ['gamma', 'beta']
    fixed = nn.BatchNorm1d(4, affine=False)
    assert fixed.trainable_params() == []


def test_training_gradients_reach_input_gamma_and_beta():
    rng = np.random.default_rng(1)
    bn = nn.BatchNorm2d(3, gamma_init=ms.Tensor(rng.uniform(0.5, 2, 3).astype(np.float32)),
                        dtype=ms.float64).set_train()
    x = rng.standard_normal((3, 3, 2, 2))
    check_grad(bn, x)
    bn.gamma.set_data(ms.Tensor(rng.standard_normal(3)))
    y = ops.stop_gradient(bn(ms.Tensor(x)))
    gx, (gg, gb) = ms.grad(lambda x: (bn(x) * y).sum(), 0, bn.trainable_params())(ms.Tensor(x))
    xhat = (y.asnumpy() - bn.beta.asnumpy().reshape(1, -1, 1, 1)) / \
        bn.gamma.asnumpy().reshape(1, -1, 1, 1)
    np.testing.assert_allclose(gb.asnumpy(), y.asnumpy().sum(axis=(0, 2, 3)), atol=1e-10)
    np.testing.assert_allclose(gg.asnumpy(), (y.asnumpy() * xhat).sum(axis=(0, 2, 3)),
                               atol=1e-10)
    assert gx.shape == x.shape


def test_nhwc_layout_normalizes_the_last_axis():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 3, 4)).astype(np.float32)
    nhwc = nn.BatchNorm2d(4, data_format='NHWC').set_train()
    nchw = nn.BatchNorm2d(4).set_train()
    y = nhwc(ms.Tensor(x))
    z = nchw(ms.Tensor(x.transpose(0, 3, 1, 2)))
    np.testing.assert_allclose(y.asnumpy(), z.asnumpy().transpose(0, 2, 3, 1), rtol=1e-6)
    np.testing.assert_allclose(nhwc.moving_variance.asnumpy(), nchw.moving_variance.asnumpy())
    check_grad(lambda x: nn.BatchNorm1d(2, data_format='NHWC', dtype=ms.float64).set_train()(x),
               rng.standard_normal((3, 4, 2)))


def test_batchnorm_repr():
    # MindSpore 2.10's text; a lone BatchNorm's statistics are named 'mean' and 'variance'
    assert repr(nn.BatchNorm1d(2)) == (
        'BatchNorm1d(num_features=2, eps=1e-05, momentum=0.9, gamma=Parameter (name=gamma, '
        'shape=(2,), dtype=Float32, requires_grad=True), beta=Parameter (name=beta, shape=(2,), '
        'dtype=Float32, requires_grad=True), moving_mean=Parameter (name=mean, shape=(2,), '
        'dtype=Float32, requires_grad=False), moving_variance=Parameter (name=variance, '
        'shape=(2,), dtype=Float32, requires_grad=False))')


@pytest.mark.parametrize('make,error,message', [
    (lambda: nn.BatchNorm2d(0), ValueError, "nn.BatchNorm2d: num_features must be a positive int, "
                                            "got 0"),
    (lambda: nn.BatchNorm2d(2.0), TypeError, "nn.BatchNorm2d: num_features must be a positive "
                                             "int, got 2.0"),
    (lambda: nn.BatchNorm1d(2, eps=0), ValueError, "nn.BatchNorm1d: eps must be positive, got 0"),
    (lambda: nn.BatchNorm1d(2, eps='1'), TypeError, "nn.BatchNorm1d: eps must be a float, got str"),
    (lambda: nn.BatchNorm1d(2, momentum=-0.1), ValueError,
     r"nn.BatchNorm1d: momentum must be in \[0.0, 1.0\], got -0.1"),
    (lambda: nn.BatchNorm1d(2, momentum=None), TypeError,
     "nn.BatchNorm1d: momentum must be a float, got NoneType"),
    (lambda: nn.BatchNorm1d(2, affine=1), TypeError, "nn.BatchNorm1d: affine must be a bool, "
                                                     "got 1"),
    (lambda: nn.BatchNorm1d(2, use_batch_statistics='yes'), TypeError,
     "nn.BatchNorm1d: use_batch_statistics must be a bool or None, got 'yes'"),
    (lambda: nn.BatchNorm2d(2, data_format='NCWH'), ValueError,
     "nn.BatchNorm2d: data_format must be 'NCHW' or 'NHWC', got 'NCWH'"),
    (lambda: nn.BatchNorm2d(2, dtype=ms.int32), TypeError,
     "nn.BatchNorm2d: dtype must be a floating type, got Int32"),
    (lambda: nn.BatchNorm2d(2, gamma_init=ops.ones(3)), ValueError,
     r"nn.BatchNorm2d: gamma_init has shape \(3,\), expected \(2,\)"),
])
def test_batchnorm_rejects_bad_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize('cls,x,error,message', [
    (nn.BatchNorm2d, ops.ones((2, 2)), ValueError,
     r"nn.BatchNorm2d 'BatchNorm2d': expected a 4-d input, got shape \(2, 2\)"),
    (nn.BatchNorm1d, ops.ones((2, 2, 1, 1)), ValueError,
     r"nn.BatchNorm1d 'BatchNorm1d': expected a 2-d or 3-d input, got shape \(2, 2, 1, 1\)"),
    (nn.BatchNorm2d, ops.ones((2, 3, 1, 1)), ValueError,
     r"nn.BatchNorm2d 'BatchNorm2d': expected 2 channels on axis 1, got input of shape "
     r"\(2, 3, 1, 1\)"),
    (nn.BatchNorm1d, np.ones((2, 2)), TypeError,
     "nn.BatchNorm1d 'BatchNorm1d': expected a Tensor input, got ndarray"),
])
def test_batchnorm_rejects_bad_inputs(cls, x, error, message):
    bn = cls(2).set_train()
    with pytest.raises(error, match=message):
        bn(x)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), [0.0, 0.0])


# ------------------------------------------------------------------------------ layer norm
def _ln_ref(x, norm_axis, gamma, beta, eps):
    axes = tuple(range(norm_axis, x.ndim))
    return ((x - x.mean(axis=axes, keepdims=True)) / np.sqrt(x.var(axis=axes, keepdims=True) + eps)
            * gamma + beta)


@pytest.mark.parametrize('shape,normalized,norm_axis,params_axis', [
    ((3, 4), (4,), -1, -1),
    ((2, 3, 4), (3, 4), 1, 1),
    ((2, 3, 4), (4,), 1, -1),        # statistics over two axes, parameters over the last
    ((2, 3, 4), (3, 4), -1, 1),      # statistics over the last axis, parameters over two
])
def test_layernorm_matches_numpy_and_finite_differences(shape, normalized, norm_axis,
                                                        params_axis):
    rng = np.random.default_rng(3)
    gamma = rng.standard_normal(normalized)
    beta = rng.standard_normal(normalized)
    ln = nn.LayerNorm(normalized, norm_axis, params_axis, ms.Tensor(gamma), ms.Tensor(beta),
                      epsilon=1e-5, dtype=ms.float64)
    x = rng.standard_normal(shape)
    np.testing.assert_allclose(ln(ms.Tensor(x)).asnumpy(),
                               _ln_ref(x, norm_axis % len(shape), gamma, beta, 1e-5), rtol=1e-12,
                               atol=1e-12)
    check_grad(ln, x)
    gg, gb = ms.grad(ln, None, ln.trainable_params())(ms.Tensor(x))
    assert gg.shape == normalized and gb.shape == normalized
    lead = tuple(range(len(shape) - len(normalized)))
    np.testing.assert_allclose(gb.asnumpy(), np.ones(shape).sum(axis=lead), rtol=1e-12)


def test_layernorm_defaults_names_and_float32():
    ln = nn.LayerNorm((3,))
    assert ln.epsilon == 1e-7 and ln.training is False
    assert [(n, p.shape) for n, p in ln.parameters_and_names()] == [('gamma', (3,)),
                                                                    ('beta', (3,))]
    y = ln(ms.Tensor(np.array([[1, 2, 3]], np.float32)))
    assert y.dtype == ms.float32
    np.testing.assert_allclose(y.asnumpy(), [[-1.2247448, 0.0, 1.2247448]], rtol=1e-6)
    assert ln(ms.Tensor([[1, 2, 3]])).dtype == ms.float32       # integer input
    assert repr(ln) == ('LayerNorm(normalized_shape=(3,), begin_norm_axis=-1, '
                        'begin_params_axis=-1, gammaParameter (name=gamma, shape=(3,), '
                        'dtype=Float32, requires_grad=True), beta=Parameter (name=beta, '
                        'shape=(3,), dtype=Float32, requires_grad=True))')


@pytest.mark.parametrize('make,error,message', [
    (lambda: nn.LayerNorm(3), TypeError,
     "nn.LayerNorm: normalized_shape must be a tuple or list of positive ints, got 3"),
    (lambda: nn.LayerNorm((3, 0)), TypeError,
     r"nn.LayerNorm: normalized_shape must be a tuple or list of positive ints, got \(3, 0\)"),
    (lambda: nn.LayerNorm((3,), begin_norm_axis=1.0), TypeError,
     "nn.LayerNorm: begin_norm_axis must be an int, got 1.0"),
    (lambda: nn.LayerNorm((3,), epsilon=0.0), ValueError,
     "nn.LayerNorm: epsilon must be positive, got 0.0"),
    (lambda: nn.LayerNorm((3,), gamma_init=ops.ones(2)), ValueError,
     r"nn.LayerNorm: gamma_init has shape \(2,\), expected \(3,\)"),
])
def test_layernorm_rejects_bad_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize('ln,x,error,message', [
    (nn.LayerNorm((3,)), ops.ones((2, 4)), ValueError,
     r"nn.LayerNorm 'LayerNorm': input of shape \(2, 4\) does not match normalized_shape "
     r"\(3,\) from axis 1"),
    (nn.LayerNorm((3,), begin_norm_axis=2), ops.ones((2, 3)), ValueError,
     r"nn.LayerNorm 'LayerNorm': begin_norm_axis 2 is out of range for an input of shape "
     r"\(2, 3\)"),
    (nn.LayerNorm((3,)), [1.0, 2.0, 3.0], TypeError,
     "nn.LayerNorm 'LayerNorm': expected a Tensor input, got list"),
])
def test_layernorm_rejects_bad_inputs(ln, x, error, message):
    with pytest.raises(error, match=message):
        ln(x)
