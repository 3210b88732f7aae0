"""The functional resizing and transposed convolution beside the image Primitives
(``ops.interpolate``, ``ops.upsample``, ``ops.conv_transpose2d``): values from MindSpore 2.10
recorded as literals or from a direct NumPy loop, gradients and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops import functional as F
from hookgrad.testing import check_grad
from tests.ops.rows import error_test

IMG = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)


def T(a):
    return ms.Tensor(np.asarray(a))


# keyword arguments, expected output: all from MindSpore 2.10 (CPU)
INTERPOLATE = [
    ('nearest', IMG, dict(size=(5, 3)),
     [[[[0, 1, 2], [0, 1, 2], [4, 5, 6], [4, 5, 6], [8, 9, 10]]]]),
    ('nearest-scale', IMG, dict(scale_factor=(1.5, 0.75), recompute_scale_factor=True),
     [[[[0, 1, 2], [0, 1, 2], [4, 5, 6], [8, 9, 10]]]]),
    ('bilinear', IMG, dict(size=(5, 3), mode='bilinear'),
     [[[[0.16667, 1.5, 2.83333], [1.76667, 3.1, 4.43333], [4.16667, 5.5, 6.83333],
        [6.56667, 7.9, 9.23333], [8.16667, 9.5, 10.83333]]]]),
    ('bilinear-align', IMG, dict(size=(5, 3), mode='bilinear', align_corners=True),
     [[[[0, 1.5, 3], [2, 3.5, 5], [4, 5.5, 7], [6, 7.5, 9], [8, 9.5, 11]]]]),
    ('linear', np.arange(4, dtype=np.float32).reshape(1, 1, 4), dict(size=6, mode='linear'),
     [[[0.0, 0.5, 1.16667, 1.83333, 2.5, 3.0]]]),
    ('area', IMG, dict(size=(2, 2), mode='area'), [[[[2.5, 4.5], [6.5, 8.5]]]]),
]


@pytest.mark.parametrize('x,kwargs,want', [pytest.param(x, k, w, id=n)
                                            for n, x, k, w in INTERPOLATE])
def test_interpolate_matches_mindspore(x, kwargs, want):
    y = ops.interpolate(T(x), **kwargs)
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-5, atol=1e-5)
    assert y.dtype == ms.float32


def _transposed_conv_loop(x, w, s, p, e, d):
    """The transposed convolution written out: every input pixel scatters w into the output."""
    n, _, h, wd = x.shape
    _, co, kh, kw = w.shape
    full_h, full_w = (h - 1) * s + d * (kh - 1) + 1, (wd - 1) * s + d * (kw - 1) + 1
    full = np.zeros((n, co, full_h + e, full_w + e))
    for a in range(kh):
        for b in range(kw):
            full[:, :, a * d:a * d + (h - 1) * s + 1:s, b * d:b * d + (wd - 1) * s + 1:s] += \
                np.einsum('nchw,co->nohw', x, w[:, :, a, b])
    return full[:, :, p:full_h + e - p, p:full_w + e - p]


@pytest.mark.parametrize('s,p,e,d', [(1, 0, 0, 1), (2, 1, 1, 1), (2, 0, 1, 1), (3, 1, 2, 1),
                                     (2, 2, 1, 2), (1, 1, 0, 2)])
def test_conv_transpose2d_matches_the_loop(s, p, e, d):
    rng = np.random.default_rng(s * 10 + p)
    x, w, b = (rng.standard_normal((2, 3, 4, 3)), rng.standard_normal((3, 2, 3, 2)),
               rng.standard_normal(2))
    got = ops.conv_transpose2d(T(x), T(w), T(b), stride=s, padding=p, output_padding=e,
                               dilation=d).asnumpy()
    want = _transposed_conv_loop(x, w, s, p, e, d) + b[:, None, None]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_grouped_conv_transpose2d_is_the_adjoint_of_conv2d():
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((1, 4, 5, 5)), rng.standard_normal((4, 2, 3, 3))
    gy = rng.standard_normal((1, 4, 3, 3))
    conv = ops.conv2d(T(x), T(w), stride=2, pad_mode='pad', padding=1, groups=2).asnumpy()
    back = ops.conv_transpose2d(T(gy), T(w), stride=2, padding=1, groups=2).asnumpy()
    np.testing.assert_allclose(np.sum(conv * gy), np.sum(x * back), rtol=1e-10)


RNG = np.random.default_rng(4)
GRADS = [
    ('interpolate-bilinear', lambda x: ops.interpolate(x, size=(4, 5), mode='bilinear'),
     (RNG.standard_normal((1, 2, 3, 2)),)),
    ('interpolate-nearest', lambda x: ops.interpolate(x, size=5),
     (RNG.standard_normal((1, 1, 3)),)),
    ('interpolate-area', lambda x: ops.interpolate(x, size=(2, 3), mode='area'),
     (RNG.standard_normal((1, 1, 4, 5)),)),
    ('conv_transpose2d', lambda x, w, b: ops.conv_transpose2d(x, w, b, 2, 1, 1),
     (RNG.standard_normal((1, 2, 3, 3)), RNG.standard_normal((2, 3, 2, 2)),
      RNG.standard_normal(3))),
]


@pytest.mark.parametrize('fn,arrays', [pytest.param(f, a, id=n) for n, f, a in GRADS])
def test_gradients_match_finite_differences(fn, arrays):
    check_grad(fn, *arrays)


ERRORS = [
    (lambda: ops.interpolate(T(IMG), size=(2, 2, 2), mode='trilinear'), ValueError,
     r"ops\.interpolate: mode 'trilinear' does not take an input of shape \(1, 1, 3, 4\)"),
    (lambda: ops.interpolate(T(IMG), size=(2, 2), mode='cubic'), ValueError,
     r"ops\.interpolate: mode must be one of 'nearest', 'linear', 'bilinear', 'bicubic', "
     r"'trilinear', 'area', got 'cubic'"),
    (lambda: ops.interpolate(T(IMG), size=(2, 2), mode='linear'), ValueError,
     r"ops\.interpolate: mode 'linear' does not take an input of shape \(1, 1, 3, 4\)"),
    (lambda: ops.interpolate(T(IMG), scale_factor=2.0), ValueError,
     r"ops\.interpolate: scale_factor can only be used with recompute_scale_factor=True"),
    (lambda: ops.interpolate(T(IMG)), ValueError,
     r"ops\.interpolate: exactly one of size and scale_factor must be given"),
    (lambda: ops.interpolate(T(IMG), size=(2, 2), align_corners=True), ValueError,
     r"ops\.interpolate: align_corners can only be set with 'linear', 'bilinear', "
     r"'trilinear' or 'bicubic', not 'nearest'"),
    (lambda: ops.conv_transpose2d(T(IMG), T(np.zeros((2, 1, 2, 2)))), ValueError,
     r"ops\.conv_transpose2d: input \(N, C_in, H, W\) and weight"),
    (lambda: ops.conv_transpose2d(T(IMG), T(np.zeros((1, 1, 2, 2))), stride=2,
                                  output_padding=2), ValueError,
     r"ops\.conv_transpose2d: output_padding \(2, 2\) must be smaller than stride"),
]


test_errors_name_the_op_and_argument = error_test(ERRORS)


def test_names_under_mindsporess_paths():
    assert ops.upsample is ops.interpolate
    assert F.interpolate is ops.interpolate and F.conv_transpose2d is ops.conv_transpose2d
