"""RGBToHSV, HSVToRGB and UnravelIndex against MindSpore 2.10's CPU values
(color_index_mindspore_values.json, written by make_color_index_values.py); TruncatedNormal's
range, moments, seeds and dtypes; the conversions agree with dataset.vision's; errors."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.dataset import vision
from hookgrad.ops import operations as P
from tests.ops import make_color_index_values as recorded
from tests.ops.rows import error_test

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       'color_index_mindspore_values.json')) as _f:
    VALUES = json.load(_f)


@pytest.mark.parametrize('prim', ['RGBToHSV', 'HSVToRGB'])
@pytest.mark.parametrize('dtype', ['float32', 'float64'])
def test_color_conversions_match_mindspore(prim, dtype):
    y = getattr(P, prim)()(ms.Tensor(np.array(recorded.PIXELS, dtype)))
    assert y.asnumpy().dtype == np.dtype(dtype)
    tol = 1e-6 if dtype == 'float32' else 1e-7
    np.testing.assert_allclose(y.asnumpy(), VALUES[f'{prim}/{dtype}'], rtol=tol, atol=tol)


def test_float16_is_converted_through_float32_and_keeps_its_dtype():
    x = np.array(recorded.PIXELS, np.float16)
    y = P.HSVToRGB()(ms.Tensor(x)).asnumpy()
    assert y.dtype == np.float16
    np.testing.assert_allclose(y, np.array(VALUES['HSVToRGB/float32']), atol=1e-3)


def test_conversions_round_trip_and_agree_with_the_vision_transforms():
    rgb = np.random.default_rng(0).uniform(0.0, 1.0, (2, 4, 5, 3))
    hsv = P.RGBToHSV()(ms.Tensor(rgb)).asnumpy()
    np.testing.assert_allclose(hsv, vision.RgbToHsv(is_hwc=True)(rgb), rtol=1e-15)
    np.testing.assert_allclose(P.HSVToRGB()(ms.Tensor(hsv)).asnumpy(), rgb, rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize('name, indices, dims, dtype', recorded.UNRAVEL,
                         ids=[row[0] for row in recorded.UNRAVEL])
def test_unravel_index_matches_mindspore(name, indices, dims, dtype):
    y = P.UnravelIndex()(ms.Tensor(np.array(indices, dtype)), ms.Tensor(np.array(dims, dtype)))
    want = VALUES[f'UnravelIndex/{name}']
    assert str(y.dtype) == want['dtype']
    np.testing.assert_array_equal(y.asnumpy(), want['value'])


def test_truncated_normal_stays_within_two_deviations_with_the_truncated_moments():
    z = P.TruncatedNormal(dtype=ms.float64, seed=3, seed2=4)(
        ms.Tensor(np.array([400, 250], np.int32))).asnumpy()
    assert z.shape == (400, 250) and z.dtype == np.float64
    assert z.min() >= -2.0 and z.max() <= 2.0
    assert abs(z.mean()) < 0.01
    assert abs(z.std() - 0.8796) < 0.005       # the standard deviation of N(0, 1) on [-2, 2]
    assert (np.abs(z) > 1.9).mean() > 0.005     # the tails reach the bounds


def test_truncated_normal_seeds_repeat_and_the_global_seed_governs_seed_zero():
    shape = ms.Tensor(np.array([3, 4], np.int64))
    a = P.TruncatedNormal(seed=1, seed2=2)
    first, second = a(shape).asnumpy(), a(shape).asnumpy()
    assert first.dtype == np.float32 and not np.array_equal(first, second)
    np.testing.assert_array_equal(P.TruncatedNormal(seed=1, seed2=2)(shape).asnumpy(), first)
    ms.set_seed(7)
    x = P.TruncatedNormal()(shape).asnumpy()
    ms.set_seed(7)
    np.testing.assert_array_equal(P.TruncatedNormal()(shape).asnumpy(), x)
    assert P.TruncatedNormal(ms.float16)(shape).asnumpy().dtype == np.float16


def T(values, dtype):
    return ms.Tensor(np.array(values, dtype))


IMG = np.full((1, 2, 2, 3), 0.5, np.float32)
test_errors = error_test([
    (lambda: P.RGBToHSV()(ms.Tensor(IMG[..., :2])), ValueError,
     r"ops\.RGBToHSV: the last dimension of images must be 3, got shape \(1, 2, 2, 2\)"),
    (lambda: P.HSVToRGB()(T([[1, 2, 3]], np.int32)), TypeError,
     r"ops\.HSVToRGB: images must be Float16, Float32 or Float64, got Int32"),
    (lambda: P.UnravelIndex()(T([12], np.int32), T([3, 4], np.int32)), ValueError,
     r"ops\.UnravelIndex: indices must lie in \[0, 12\) for dims \[3, 4\], got \[12\]"),
    (lambda: P.UnravelIndex()(T([-1], np.int32), T([3, 4], np.int32)), ValueError,
     r"ops\.UnravelIndex: indices must lie in \[0, 12\)"),
    (lambda: P.UnravelIndex()(T([1], np.int32), T([3, 0], np.int32)), ValueError,
     r"ops\.UnravelIndex: every dim must be >= 1, got \[3, 0\]"),
    (lambda: P.UnravelIndex()(T([1], np.int32), T([3, 4], np.int64)), TypeError,
     r"ops\.UnravelIndex: indices and dims must both be Int32 or both Int64, got Int32 and "
     r"Int64"),
    (lambda: P.UnravelIndex()(T([1.0], np.float32), T([3, 4], np.int32)), TypeError,
     r"ops\.UnravelIndex: indices and dims must both be Int32 or both Int64"),
    (lambda: P.UnravelIndex()(T([[1, 2]], np.int32), T([3, 4], np.int32)), ValueError,
     r"ops\.UnravelIndex: indices must be 0-d or 1-d, got shape \(1, 2\)"),
    (lambda: P.TruncatedNormal()(T([2000], np.int32)), ValueError,
     r"ops\.TruncatedNormal: shape must be 1-d with at least 2 sizes, got \[2000\]"),
    (lambda: P.TruncatedNormal()(T([2, -3], np.int64)), ValueError,
     r"ops\.TruncatedNormal: every size must be >= 1, got \[2, -3\]"),
    (lambda: P.TruncatedNormal()(T([2.0, 3.0], np.float32)), TypeError,
     r"ops\.TruncatedNormal: shape must be an Int32 or Int64 Tensor"),
    (lambda: P.TruncatedNormal(dtype=ms.int32), TypeError,
     r"ops\.TruncatedNormal: dtype must be Float16, Float32 or Float64, got Int32"),
    (lambda: P.TruncatedNormal(seed=-1), ValueError,
     r"ops\.TruncatedNormal: seed must be an int >= 0, got -1"),
])


HSV_GRAD_PIXELS = np.array([[0.2, 0.5, 0.3], [0.9, 0.1, 0.4], [0.3, 0.3, 0.8], [0.7, 0.7, 0.2],
                            [0.1, 0.6, 0.6], [0.4, 0.9, 0.4], [0.5, 0.5, 0.5], [0.6, 0.2, 0.6],
                            [0.0, 0.0, 0.0], [0.3, 0.1, 0.1]], np.float32)
# ms.grad of (RGBToHSV()(x) * [1, 2, 3]).sum() on MindSpore 2.10 CPU, rounded to 5 decimals:
# ties for the largest channel go to the first, for the smallest to the last, and a grey
# pixel keeps its saturation's gradient
HSV_GRAD_MINDSPORE = [[-4.37037, 4.41482, 0.55556], [3.32504, -2.09201, -0.20833],
                      [0.33333, -2.83333, 3.9375], [3.48299, 0.33333, -2.85714],
                      [-3.33333, 3.22222, 0.33333], [-0.33333, 3.98765, -1.88889],
                      [7.0, 0.0, -4.0], [4.52778, -3.33333, -0.41667], [3.0, 0.0, 0.0],
                      [5.22222, 0.83333, -7.5]]


def test_rgb_to_hsv_has_mindspore_s_gradient():
    x = ms.Tensor(HSV_GRAD_PIXELS)
    weights = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    grad = ms.grad(lambda x: (P.RGBToHSV()(x) * weights).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), HSV_GRAD_MINDSPORE, atol=2e-5)


def test_rgb_to_hsv_recorded_and_plain_paths_agree():
    x = ms.Tensor(HSV_GRAD_PIXELS, requires_grad=True)
    recorded = P.RGBToHSV()(x)
    assert recorded._node is not None
    plain = P.RGBToHSV()(ms.Tensor(HSV_GRAD_PIXELS))
    np.testing.assert_allclose(recorded.asnumpy(), plain.asnumpy(), rtol=1e-6, atol=1e-7)
