"""batch_norm in training on the layouts convolutions produce: channels-last inputs keep their
layout, and results stay within float32 rounding of float64 ones on ResNet-sized batches,
whether the statistics take one pass (means near 0) or two."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops import normalization


def channels_last(a):
    """``a`` (N, C, H, W) stored as (N, H, W, C), viewed with its NCHW shape."""
    return np.ascontiguousarray(a.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)


def reference(x, w, b, gy, eps=1e-5):
    """y and (gx, gw, gb) of training batch norm in float64, from the textbook formulas."""
    x, gy = x.astype(np.float64), gy.astype(np.float64)
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    count = x.size // x.shape[1]
    xc = x - x.mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt((xc * xc).mean(axis=axes, keepdims=True) + eps)
    xhat = xc * rstd
    w64 = w.astype(np.float64).reshape(shape)
    gb, gw = gy.sum(axis=axes), (gy * xhat).sum(axis=axes)
    gx = w64 * rstd * (gy - gb.reshape(shape) / count - xhat * gw.reshape(shape) / count)
    return xhat * w64 + b.reshape(shape), (gx, gw, gb)


def train(x, w, b, gy):
    """y and (gx, gw, gb) from ops.batch_norm in training, with gy as the output gradient."""
    xt, wt, bt = (ms.Tensor(a, requires_grad=True) for a in (x, w, b))
    c = x.shape[1]
    y = ops.batch_norm(xt, ops.zeros(c, ms.float32), ops.ones(c, ms.float32), wt, bt,
                       training=True)
    y.backward(ms.Tensor(gy))
    return y, (xt.grad, wt.grad, bt.grad)


def relative(a, ref):
    return np.max(np.abs(a - ref)) / np.max(np.abs(ref))


def resnet_batch(shape, offset, seed):
    rng = np.random.default_rng(seed)
    c = shape[1]
    x = (rng.standard_normal(shape) * 1.5 + offset).astype(np.float32)
    return (channels_last(x), rng.uniform(0.5, 2.0, c).astype(np.float32),
            rng.standard_normal(c).astype(np.float32),
            channels_last(rng.standard_normal(shape).astype(np.float32)))


@pytest.mark.parametrize('shape', [(32, 64, 32, 32), (32, 512, 4, 4)])
@pytest.mark.parametrize('offset', [0.0, 3.0])
def test_resnet_shapes_are_within_float32_rounding_of_float64(shape, offset):
    """Float32 values, float64 reference: the results differ by float32 rounding only (the
    former einsum over the copied input drifted to 9e-6 on 32x64x32x32 channels-last)."""
    x, w, b, gy = resnet_batch(shape, offset, seed=0)
    y, grads = train(x, w, b, gy)
    y_ref, grads_ref = reference(x, w, b, gy)
    assert relative(y.asnumpy(), y_ref) < 1e-6
    for g, ref in zip(grads, grads_ref):
        assert relative(g.asnumpy(), ref) < 1e-6


def test_channels_last_input_keeps_its_layout_in_the_output_and_gradient():
    x, w, b, gy = resnet_batch((4, 8, 5, 6), 1.0, seed=1)
    y, (gx, _, _) = train(x, w, b, gy)
    assert y._data.strides == x.strides and gx._data.strides == x.strides


@pytest.mark.parametrize('make', [
    lambda a: a,                                            # C-contiguous
    channels_last,                                          # channels-last
    lambda a: np.pad(a, ((0, 0), (0, 0), (0, 0), (0, 3)))[..., :a.shape[-1]],  # strided view
    lambda a: np.asfortranarray(a),                         # neither
])
@pytest.mark.parametrize('shape', [(6, 3, 5, 7), (7, 5, 1, 1), (3, 4, 1, 33)])
def test_every_layout_gives_the_float64_result(make, shape):
    """Row counts with and without a divisor of the block size, planes of one value and
    long planes; the value arrays differ only in their strides."""
    rng = np.random.default_rng(2)
    x = make((rng.standard_normal(shape) * 2 + 1).astype(np.float32))
    gy = make(rng.standard_normal(shape).astype(np.float32))
    w, b = rng.uniform(0.5, 2.0, shape[1]).astype(np.float32), np.ones(shape[1], np.float32)
    y, grads = train(x, w, b, gy)
    y_ref, grads_ref = reference(x, w, b, gy)
    assert relative(y.asnumpy(), y_ref) < 1e-6
    for g, ref in zip(grads, grads_ref):
        assert relative(g.asnumpy(), ref) < 2e-6


def test_an_output_gradient_in_another_layout_is_read_in_the_input_layout():
    x, w, b, _ = resnet_batch((4, 6, 3, 3), 0.5, seed=3)
    gy = np.broadcast_to(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3) - 4, x.shape)
    _, grads = train(x, w, b, gy)
    _, grads_ref = reference(x, w, b, np.ascontiguousarray(gy))
    for g, ref in zip(grads, grads_ref):
        np.testing.assert_allclose(g.asnumpy(), ref, atol=2e-6 * np.max(np.abs(ref)))


@pytest.mark.parametrize('offset,one_pass', [(0.5, True), (2.5, True), (4.0, False),
                                              (20.0, False)])
def test_large_inputs_take_one_pass_only_for_means_near_zero(offset, one_pass):
    """From ONE_PASS_BYTES on, channels whose |mean| <= MEAN_LIMIT std skip centring (scale
    1.5: offset 2.5 is 1.7 std); farther means (offsets 4 and 20: 2.7 and 13 std) take two
    passes. Both stay within float32 rounding of float64."""
    shape = (16, 64, 32, 32)
    assert 4 * np.prod(shape) >= normalization.ONE_PASS_BYTES
    x, w, b, gy = resnet_batch(shape, offset, seed=4)
    count = x.size // shape[1]
    mean = normalization._channel_sum(x) / count
    assert (normalization._one_pass_variance(x, mean) is not None) == one_pass
    y, grads = train(x, w, b, gy)
    y_ref, grads_ref = reference(x, w, b, gy)
    assert relative(y.asnumpy(), y_ref) < 1e-6
    for g, ref in zip(grads, grads_ref):
        assert relative(g.asnumpy(), ref) < 1e-6


def test_one_pass_running_statistics_match_the_batch():
    x, w, b, _ = resnet_batch((16, 64, 32, 32), 1.0, seed=8)
    rm, rv = ops.zeros(64, ms.float32), ops.ones(64, ms.float32)
    ops.batch_norm(ms.Tensor(x), rm, rv, ms.Tensor(w), ms.Tensor(b), training=True,
                   momentum=1.0)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(rm.asnumpy(), x64.mean(axis=(0, 2, 3)), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(rv.asnumpy(), x64.var(axis=(0, 2, 3), ddof=1), rtol=1e-6)


def test_float16_input_keeps_float32_statistics_and_layout():
    x, w, b, gy = resnet_batch((8, 16, 6, 6), 2.0, seed=7)
    x16 = x.astype(np.float16)          # astype keeps the channels-last order
    y, (gx, _, _) = train(x16, w, b, gy.astype(np.float16))
    y_ref, (gx_ref, _, _) = reference(x16, w, b, gy.astype(np.float16))
    assert y.dtype == ms.float16 and gx.dtype == ms.float16
    assert relative(y.asnumpy(), y_ref) < 2e-3 and relative(gx.asnumpy(), gx_ref) < 2e-3


@pytest.mark.parametrize('shape', [(2, 0, 3), (0, 3, 2)])
def test_an_empty_input_in_prediction_has_empty_or_zero_gradients(shape):
    c = shape[1]
    x = ms.Tensor(np.zeros(shape, np.float32), requires_grad=True)
    w, b = (ms.Tensor(np.ones(c, np.float32), requires_grad=True) for _ in range(2))
    y = ops.batch_norm(x, ops.zeros(c), ops.ones(c), w, b)
    y.sum().backward()
    assert y.shape == shape and x.grad.shape == shape
    np.testing.assert_array_equal(w.grad.asnumpy(), np.zeros(c, np.float32))
    np.testing.assert_array_equal(b.grad.asnumpy(), np.zeros(c, np.float32))
