"""MindSpore's ``ROIAlign`` Primitive: values and gradients from MindSpore 2.10 (CPU) recorded
as literals, for both roi_end_modes, a fixed and an adaptive sampling grid, and RoIs too small
to hold a sample (NaN, as MindSpore's kernel gives)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.ops import operations as P

FEATURES = np.arange(2 * 1 * 4 * 5, dtype=np.float32).reshape(2, 1, 4, 5)
ROIS = np.float32([[1, 0.5, 0.5, 3.0, 2.0], [0, -1.0, 1.0, 6.0, 5.0], [0, 0.2, 0.3, 0.2, 0.3]])
NAN = float('nan')

VALUES = [
    ((2, 2, 1.0, 2, 1), [[27.0, 28.75, 33.25, 35.0], [12.25, 7.625, 0.0, 0.0],
                         [3.2, 3.7, 5.7, 6.2]]),
    ((2, 2, 1.0, 2, 0), [[25.5, 26.75, 29.25, 30.5], [10.8125, 6.6875, 7.90625, 4.59375],
                         [3.2, 3.7, 5.7, 6.2]]),
    ((1, 2, 0.5, -1, 1), [[NAN, NAN], [9.25, 11.25], [NAN, NAN]]),
    ((1, 1, 1.0, 0, 1), [[31.0], [6.15], [NAN]]),
]


@pytest.mark.parametrize('args, expected', VALUES, ids=[str(c[0]) for c in VALUES])
def test_roi_align_matches_mindspore(args, expected):
    out = P.ROIAlign(*args)(ms.Tensor(FEATURES), ms.Tensor(ROIS))
    ph, pw = args[:2]
    assert out.shape == (3, 1, ph, pw) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy().reshape(3, -1), expected, rtol=1e-6, atol=1e-6,
                               err_msg=f'ROIAlign{args}')


def test_roi_align_gradient_reaches_the_features_with_the_bilinear_weights():
    rois = ms.Tensor(ROIS[:2])
    g = ms.grad(lambda f: P.ROIAlign(2, 2, 1.0, 2, 1)(f, rois).sum())(ms.Tensor(FEATURES))
    expected = [
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.09375, 0.0, 0.09375, 0.0, 0.09375, 0.1875, 0.0, 0.1875, 0.0,
         0.1875, 0.21875, 0.0, 0.21875, 0.0, 0.21875],
        [0.0029296875, 0.052734375, 0.052734375, 0.052734375, 0.0263671875, 0.021484375,
         0.38671875, 0.38671875, 0.38671875, 0.193359375, 0.0263671875, 0.474609375, 0.474609375,
         0.474609375, 0.2373046875, 0.01171875, 0.2109375, 0.2109375, 0.2109375, 0.10546875]]
    np.testing.assert_allclose(g.asnumpy().reshape(2, -1), expected, rtol=1e-6, atol=1e-7)


def test_roi_align_keeps_float16_and_is_exported_under_ops():
    out = ms.ops.ROIAlign(2, 2, 1.0)(ms.Tensor(FEATURES.astype(np.float16)),
                                     ms.Tensor(ROIS[:1].astype(np.float16)))
    assert out.dtype == ms.float16
    np.testing.assert_allclose(out.asnumpy().ravel(), [27.0, 28.75, 33.25, 35.0], rtol=1e-3)


@pytest.mark.parametrize('make, error, match', [
    (lambda: P.ROIAlign(2.0, 2, 1.0), TypeError, 'pooled_height must be an int'),
    (lambda: P.ROIAlign(2, 2, 1), TypeError, 'spatial_scale must be a float'),
    (lambda: P.ROIAlign(2, 2, 1.0, 2, 2), ValueError, 'roi_end_mode must be 0 or 1'),
    (lambda: P.ROIAlign(2, 2, 1.0)(ms.Tensor(FEATURES), ms.Tensor(ROIS[:, :4])), ValueError,
     r'rois must have shape \(N, 5\)'),
    (lambda: P.ROIAlign(2, 2, 1.0)(ms.Tensor(FEATURES[0]), ms.Tensor(ROIS)), ValueError,
     r'features must have shape \(N, C, H, W\)'),
    (lambda: P.ROIAlign(2, 2, 1.0)(ms.Tensor(FEATURES), ms.Tensor(np.float32([[5, 0, 0, 1, 1]]))),
     ValueError, 'names image 5'),
])
def test_roi_align_rejects_bad_arguments(make, error, match):
    with pytest.raises(error, match=match):
        make()
