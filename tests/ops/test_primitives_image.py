"""MindSpore's image Primitives (transposed convolution, pooling, padding, resizing,
depth/space): values from MindSpore 2.10 recorded as literals or from NumPy formulas,
gradients, constructor errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.kernels import backend
from hookgrad.ops import operations as P
from hookgrad.testing import check_grad
from hookgrad.testing.cases import device_named
from tests.ops.rows import error_test

X16 = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)
IMG = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
M23 = np.float32([[1, 2, 3], [4, 5, 6]])
DOUT = (np.arange(36).reshape(2, 2, 3, 3) * 0.1).astype(np.float32)
W = (np.arange(24).reshape(2, 3, 2, 2) * 0.1 - 0.5).astype(np.float32)
PADS = np.int64([[1, 1], [2, 2]])


def T(a):
    return ms.Tensor(np.asarray(a))


# name, primitive factory, inputs, expected outputs: all from MindSpore 2.10 (CPU)
MINDSPORE = [
    ('MaxPool', lambda: P.MaxPool(2, 2), (X16,), [[[[6, 8], [14, 16]]]]),
    ('MaxPool-same', lambda: P.MaxPool(3, 2, 'same'), (X16,), [[[[11, 12], [15, 16]]]]),
    ('AvgPool', lambda: P.AvgPool(2, 1), (X16,),
     [[[[3.5, 4.5, 5.5], [7.5, 8.5, 9.5], [11.5, 12.5, 13.5]]]]),
    ('AvgPool-same', lambda: P.AvgPool(3, 2, 'SAME'), (X16,), [[[[6.0, 7.5], [12.0, 13.5]]]]),
    ('MaxPoolWithArgmax', lambda: P.MaxPoolWithArgmax(2, 2), (X16,),
     ([[[[6, 8], [14, 16]]]], [[[[5, 7], [13, 15]]]])),
    ('AdaptiveAvgPool2D', lambda: P.AdaptiveAvgPool2D((2, 3)), (X16,),
     [[[[3.5, 4.5, 5.5], [11.5, 12.5, 13.5]]]]),
    ('AdaptiveAvgPool2D-None', lambda: P.AdaptiveAvgPool2D((None, 2)), (X16,),
     [[[[1.5, 3.5], [5.5, 7.5], [9.5, 11.5], [13.5, 15.5]]]]),
    ('Pad', lambda: P.Pad(((1, 0), (0, 2))), (np.float32([[1, 2], [3, 4]]),),
     [[0, 0, 0, 0], [1, 2, 0, 0], [3, 4, 0, 0]]),
    ('MirrorPad', lambda: P.MirrorPad(), (M23, PADS),
     [[6, 5, 4, 5, 6, 5, 4], [3, 2, 1, 2, 3, 2, 1], [6, 5, 4, 5, 6, 5, 4],
      [3, 2, 1, 2, 3, 2, 1]]),
    ('MirrorPad-symmetric', lambda: P.MirrorPad('SYMMETRIC'), (M23, PADS),
     [[2, 1, 1, 2, 3, 3, 2], [2, 1, 1, 2, 3, 3, 2], [5, 4, 4, 5, 6, 6, 5],
      [5, 4, 4, 5, 6, 6, 5]]),
    ('ResizeBilinearV2', lambda: P.ResizeBilinearV2(), (IMG, (5, 3)),
     [[[[0.0, 1.33333337, 2.66666675], [2.4000001, 3.73333359, 5.0666666],
        [4.8000002, 6.13333368, 7.46666718], [7.2000003, 8.53333282, 9.86666679],
        [8.0, 9.33333302, 10.66666698]]]]),
    ('ResizeBilinearV2-align', lambda: P.ResizeBilinearV2(True), (IMG, (5, 3)),
     [[[[0, 1.5, 3], [2, 3.5, 5], [4, 5.5, 7], [6, 7.5, 9], [8, 9.5, 11]]]]),
    ('ResizeBilinearV2-half', lambda: P.ResizeBilinearV2(False, True), (IMG, (5, 3)),
     [[[[0.16666669, 1.5, 2.83333349], [1.76666665, 3.10000014, 4.4333334],
        [4.16666651, 5.5, 6.83333349], [6.56666756, 7.90000057, 9.23333454],
        [8.16666698, 9.5, 10.83333397]]]]),
    ('ResizeBilinearV2-tensor', lambda: P.ResizeBilinearV2(), (IMG, np.int32([2, 6])),
     [[[[0.0, 0.66666669, 1.33333337, 2.0, 2.66666675, 3.0],
        [6.0, 6.66666698, 7.33333302, 8.0, 8.66666698, 9.0]]]]),
    ('ResizeNearestNeighbor', lambda: P.ResizeNearestNeighbor((5, 3)), (IMG,),
     [[[[0, 1, 2], [0, 1, 2], [4, 5, 6], [4, 5, 6], [8, 9, 10]]]]),
    ('ResizeNearestNeighbor-align', lambda: P.ResizeNearestNeighbor((5, 3), True), (IMG,),
     [[[[0, 2, 3], [4, 6, 7], [4, 6, 7], [8, 10, 11], [8, 10, 11]]]]),
    ('DepthToSpace', lambda: P.DepthToSpace(2), (np.arange(16, dtype=np.float32).reshape(
        1, 4, 2, 2),), [[[[0, 4, 1, 5], [8, 12, 9, 13], [2, 6, 3, 7], [10, 14, 11, 15]]]]),
    ('SpaceToDepth', lambda: P.SpaceToDepth(2), (np.arange(16, dtype=np.float32).reshape(
        1, 1, 4, 4),), [[[[0, 2], [8, 10]], [[1, 3], [9, 11]], [[4, 6], [12, 14]],
                         [[5, 7], [13, 15]]]]),
]


def _outputs(y):
    return list(y) if isinstance(y, (tuple, list)) else [y]


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
@pytest.mark.parametrize('make,args,want', [pytest.param(m, a, w, id=n)
                                             for n, m, a, w in MINDSPORE])
def test_primitive_values_match_mindspore(make, args, want, device):
    with backend.default_device(device_named(device)):
        args = [T(a) if isinstance(a, np.ndarray) else a for a in args]
        got = _outputs(make()(*args))
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), np.asarray(w, np.float32), rtol=1e-5,
                                   atol=1e-6)


def test_max_pool_with_argmax_gives_int32_indices():
    assert P.MaxPoolWithArgmax(2, 2)(T(X16))[1].dtype == ms.int32


# Conv2DTranspose of DOUT with W; slices of MindSpore 2.10's outputs
CONV_T = [
    ('valid', lambda: P.Conv2DTranspose(3, 2), (2, 3, 4, 4), (0, 0),
     [[0.63, 1.37, 1.43, 0.8], [1.5, 3.32, 3.52, 1.98], [1.74, 3.92, 4.12, 2.34],
      [1.17, 2.61, 2.75, 1.54]]),
    ('stride', lambda: P.Conv2DTranspose(3, 2, stride=2), (2, 3, 6, 6), (1, 2),
     [[4.59, 5.04, 4.77, 5.24, 4.95, 5.44], [5.49, 5.94, 5.71, 6.18, 5.93, 6.42],
      [5.13, 5.64, 5.31, 5.84, 5.49, 6.04], [6.15, 6.66, 6.37, 6.9, 6.59, 7.14],
      [5.67, 6.24, 5.85, 6.44, 6.03, 6.64], [6.81, 7.38, 7.03, 7.62, 7.25, 7.86]]),
    ('pad', lambda: P.Conv2DTranspose(3, 2, pad_mode='pad', pad=(1, 0, 0, 1)), (2, 3, 3, 3),
     (0, 1), [[2.46, 5.4, 5.92], [3.18, 6.96, 7.48], [2.01, 4.37, 4.67]]),
    ('same', lambda: P.Conv2DTranspose(3, 2, pad_mode='same', stride=2), (2, 3, 6, 6),
     (0, 0), None),
    ('backprop-input', lambda: P.Conv2DBackpropInput(3, 2), (2, 3, 4, 4), (0, 0),
     [[0.63, 1.37, 1.43, 0.8], [1.5, 3.32, 3.52, 1.98], [1.74, 3.92, 4.12, 2.34],
      [1.17, 2.61, 2.75, 1.54]]),
]


@pytest.mark.parametrize('make,size,at,want', [pytest.param(m, s, a, w, id=n)
                                                for n, m, s, a, w in CONV_T])
def test_conv2d_transpose_matches_mindspore(make, size, at, want):
    y = make()(T(DOUT), T(W), size)
    assert y.shape == size
    if want is None:   # 'same' with stride 2 equals 'valid' with stride 2 here (MindSpore)
        want = P.Conv2DTranspose(3, 2, stride=2)(T(DOUT), T(W), size).asnumpy()[at]
    np.testing.assert_allclose(y.asnumpy()[at], want, rtol=1e-5, atol=1e-5)


def test_conv2d_transpose_is_the_adjoint_of_conv2d():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 5, 5))
    w = rng.standard_normal((4, 3, 3, 3))
    gy = rng.standard_normal((2, 4, 2, 2))
    conv = P.Conv2D(4, 3, stride=2)(T(x), T(w)).asnumpy()
    back = P.Conv2DTranspose(4, 3, stride=2)(T(gy), T(w), (2, 3, 5, 5)).asnumpy()
    np.testing.assert_allclose(np.sum(conv * gy), np.sum(x * back), rtol=1e-10)


def test_resize_nearest_half_pixel_centers_is_tensorflows_rule():
    y = P.ResizeNearestNeighbor((5, 6), False, True)(T(IMG)).asnumpy()[0, 0]
    rows = np.minimum(np.floor((np.arange(5) + 0.5) * 3 / 5), 2).astype(int)
    cols = np.minimum(np.floor((np.arange(6) + 0.5) * 4 / 6), 3).astype(int)
    np.testing.assert_array_equal(y, IMG[0, 0][rows][:, cols])


RNG = np.random.default_rng(5)
GRADS = [
    ('Conv2DTranspose', lambda g, w: P.Conv2DTranspose(3, 2, stride=2, pad_mode='pad', pad=1)(
        g, w, (1, 3, 4, 4)), (RNG.standard_normal((1, 2, 3, 3)),
                              RNG.standard_normal((2, 3, 2, 2)))),
    ('MaxPool-same', lambda x: P.MaxPool(3, 2, 'same')(x), (RNG.standard_normal((1, 2, 5, 5)),)),
    ('AvgPool-same', lambda x: P.AvgPool(3, 2, 'same')(x), (RNG.standard_normal((1, 2, 5, 5)),)),
    ('MirrorPad', lambda x: P.MirrorPad()(x, T(PADS)), (RNG.standard_normal((3, 4)),)),
    ('Pad', lambda x: P.Pad(((0, 1), (2, 0)))(x), (RNG.standard_normal((2, 2)),)),
    ('ResizeBilinearV2', lambda x: P.ResizeBilinearV2(False, True)(x, (5, 2)),
     (RNG.standard_normal((1, 2, 3, 4)),)),
    ('ResizeNearestNeighbor', lambda x: P.ResizeNearestNeighbor((5, 2))(x),
     (RNG.standard_normal((1, 1, 3, 4)),)),
    ('DepthToSpace', lambda x: P.DepthToSpace(2)(x), (RNG.standard_normal((1, 8, 1, 2)),)),
    ('SpaceToDepth', lambda x: P.SpaceToDepth(2)(x), (RNG.standard_normal((1, 2, 2, 4)),)),
]


@pytest.mark.parametrize('fn,arrays', [pytest.param(f, a, id=n) for n, f, a in GRADS])
def test_gradients_match_finite_differences(fn, arrays):
    check_grad(fn, *arrays)


ERRORS = [
    (lambda: P.MaxPool(0), ValueError, r"ops\.MaxPool: kernel_size must be >= 1, got 0"),
    (lambda: P.MaxPool(2, 1, 'pad'), ValueError,
     r"ops\.MaxPool: pad_mode must be 'same' or 'valid', got 'pad'"),
    (lambda: P.AvgPool(2, data_format='NHWC'), ValueError,
     r"ops\.AvgPool: data_format must be 'NCHW', got 'NHWC'"),
    (lambda: P.MaxPool(2)(T(M23)), ValueError,
     r"ops\.MaxPool: input must be 4-d \(N, C, H, W\), got shape \(2, 3\)"),
    (lambda: P.MirrorPad('EDGE'), ValueError,
     r"ops\.MirrorPad: mode must be 'REFLECT' or 'SYMMETRIC', got 'EDGE'"),
    (lambda: P.MirrorPad()(T(M23), T(np.int64([[1, 1]]))), ValueError,
     r"ops\.MirrorPad: paddings must hold one \(before, after\) pair per dimension \(2\)"),
    (lambda: P.Pad([1, 2]), TypeError,
     r"ops\.Pad: paddings must be a tuple of \(before, after\) int pairs, got \[1, 2\]"),
    (lambda: P.Pad(((0, -1), (0, 0)))(T(M23)), ValueError,
     r"ops\.Pad: paddings must be >= 0"),
    (lambda: P.DepthToSpace(1), ValueError, r"ops\.DepthToSpace: block_size must be >= 2, got 1"),
    (lambda: P.SpaceToDepth(2.0), TypeError,
     r"ops\.SpaceToDepth: block_size must be an int, got 2\.0"),
    (lambda: P.DepthToSpace(2)(T(np.zeros((1, 3, 2, 2), np.float32))), ValueError,
     r"ops\.DepthToSpace: the 3 channels of x are not divisible by block_size \*\* 2 = 4"),
    (lambda: P.ResizeNearestNeighbor(3), TypeError,
     r"ops\.ResizeNearestNeighbor: size must be a tuple or list, got 3"),
    (lambda: P.ResizeBilinearV2(True, True), ValueError,
     r"ops\.ResizeBilinearV2: align_corners must be False when half_pixel_centers is True"),
    (lambda: P.ResizeBilinearV2()(T(IMG), (0, 2)), ValueError,
     r"ops\.ResizeBilinearV2: size must hold 2 positive ints, got \(0, 2\)"),
    (lambda: P.Conv2DTranspose(3, 2, pad_mode='zero'), ValueError,
     r"ops\.Conv2DTranspose: pad_mode must be one of 'same', 'valid', 'pad', got 'zero'"),
    (lambda: P.Conv2DTranspose(3, 2)(T(DOUT), T(W), (2, 3, 5, 5)), ValueError,
     r"ops\.Conv2DTranspose: input_size \(2, 3, 5, 5\) convolves to spatial size \(4, 4\), "
     r"but dout has \(3, 3\)"),
    (lambda: P.AdaptiveAvgPool2D(0), ValueError,
     r"ops\.AdaptiveAvgPool2D: output_size must be a positive int"),
]


test_errors_name_the_primitive_and_argument = error_test(ERRORS)


def test_constructor_arguments_and_repr():
    p = P.MaxPool(kernel_size=(1, 1, 3, 3), strides=2, pad_mode='same')
    assert (p.kernel_size, p.strides, p.pad_mode) == ((3, 3), (2, 2), 'SAME')
    assert repr(P.DepthToSpace(2)) == 'Prim[DepthToSpace]<block_size=2>'
    c = P.Conv2DTranspose(3, 2, pad_list=(1, 0, 1, 0))
    assert (c.out_channel, c.kernel_size, c.pad_list, c.stride) == (3, (2, 2), (1, 0, 1, 0),
                                                                    (1, 1))
