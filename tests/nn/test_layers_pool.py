"""MaxPool1d, AvgPool1d, MaxPool3d, AvgPool3d, AdaptiveAvgPool1d/3d, AdaptiveMaxPool1d/2d/3d,
LPPool1d and LPPool2d: values and indices against MindSpore 2.10, gradients, repr and
errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_case, check_layer_grad, det

# (cell, kwargs, input shapes, output shape, sum, sum of squares, first values): MindSpore
# 2.10's outputs for the ``det`` inputs of test_layers_support
CASES = [
    ('MaxPool1d', {'kernel_size': 3, 'stride': 2}, [(2, 3, 7)], (2, 3, 3), 9.71581, 22.3246,
     [1.01143, 1.49382, 1.49382, 0.786067]),
    ('MaxPool1d', {'kernel_size': 2, 'stride': 2, 'pad_mode': 'same'}, [(3, 5)], (3, 3), 1.74841,
     11.6184, [0.542423, 1.34355, 1.49382, 1.44191]),
    ('MaxPool1d',
     {'kernel_size': 3, 'stride': 2, 'pad_mode': 'pad', 'padding': 1, 'dilation': 1,
      'ceil_mode': True}, [(1, 2, 8)], (1, 2, 5), 2.389, 10.638,
     [0.542423, 1.34355, 1.49382, 1.44191]),
    ('MaxPool1d', {'kernel_size': 2, 'stride': 1, 'pad_mode': 'pad', 'padding': 1, 'dilation': 2},
     [(1, 2, 6)], (1, 2, 6), 9.28914, 13.1119, [0.542423, 1.01143, 1.34355, 1.49382]),
    ('AvgPool1d', {'kernel_size': 3, 'stride': 2}, [(2, 3, 7)], (2, 3, 3), 3.54202, 18.796,
     [0.517952, 1.28293, 1.37686, 0.258673]),
    ('AvgPool1d', {'kernel_size': 3, 'stride': 2, 'pad_mode': 'same'}, [(1, 2, 6)], (1, 2, 3),
     2.75321, 5.69996, [0.517952, 1.28293, 1.46787, 0.750603]),
    ('AvgPool1d',
     {'kernel_size': 3, 'stride': 2, 'pad_mode': 'pad', 'padding': 1, 'count_include_pad': False},
     [(1, 2, 6)], (1, 2, 3), 3.15367, 4.66487, [0.271212, 0.965801, 1.42643, 0.990457]),
    ('AvgPool1d',
     {'kernel_size': 3, 'stride': 2, 'pad_mode': 'pad', 'padding': 1, 'ceil_mode': True},
     [(1, 2, 6)], (1, 2, 4), 2.85357, 4.95938, [0.180808, 0.965801, 1.42643, 0.720956]),
    ('AvgPool1d', {'kernel_size': 4, 'stride': 3}, [(2, 5)], (2, 1), 1.64778, 1.37741,
     [0.724351, 0.92343]),
    ('MaxPool3d', {'kernel_size': 2, 'stride': 2}, [(1, 2, 4, 5, 4)], (1, 2, 2, 2, 2), 18.1519,
     24.6961, [1.49471, 1.43906, 0.270894, 0.561433]),
    ('MaxPool3d', {'kernel_size': (3, 2, 2), 'stride': (2, 1, 2), 'pad_mode': 'same'},
     [(2, 5, 3, 5)], (2, 3, 3, 3), 50.788, 81.0961, [1.49471, 1.43906, 1.49382, 1.49471]),
    ('MaxPool3d',
     {'kernel_size': 3, 'stride': 2, 'pad_mode': 'pad', 'padding': (1, 0, 1),
      'dilation': (1, 2, 1), 'ceil_mode': True}, [(1, 2, 5, 6, 5)], (1, 2, 3, 2, 3), 52.5245,
     76.8753, [1.49471, 1.49471, 1.49382, 1.49471]),
    ('AvgPool3d', {'kernel_size': 2, 'stride': 2}, [(1, 2, 4, 5, 4)], (1, 2, 2, 2, 2), -0.131461,
     7.33631, [0.919889, 0.733652, -0.890208, -0.822859]),
    ('AvgPool3d', {'kernel_size': (3, 2, 2), 'stride': (2, 1, 2), 'pad_mode': 'same'},
     [(1, 2, 5, 3, 5)], (1, 2, 3, 3, 3), 0.0408629, 6.92108,
     [0.373768, 0.550151, 0.250765, 0.287803]),
    ('AvgPool3d',
     {'kernel_size': 3, 'stride': 2, 'pad_mode': 'pad', 'padding': (1, 0, 1),
      'count_include_pad': False}, [(1, 2, 5, 6, 5)], (1, 2, 3, 2, 3), 0.220473, 0.367971,
     [0.158008, 0.152756, 0.109274, -0.157085]),
    ('AvgPool3d',
     {'kernel_size': 3, 'stride': 2, 'pad_mode': 'pad', 'padding': 1, 'ceil_mode': True},
     [(1, 1, 4, 6, 5)], (1, 1, 3, 4, 3), -0.175299, 0.500889,
     [0.0718848, 0.228511, 0.194672, -0.000744617]),
    ('AvgPool3d',
     {'kernel_size': 2, 'stride': 2, 'pad_mode': 'pad', 'padding': 1, 'divisor_override': 3},
     [(1, 1, 3, 3, 4)], (1, 1, 2, 2, 3), 0.190675, 2.8704, [0.0, 0.517952, 0.447849, 0.588239]),
    ('AdaptiveAvgPool1d', {'output_size': 3}, [(2, 3, 9)], (2, 3, 3), 0.540311, 17.7135,
     [0.517952, 1.42643, 0.750603, -0.758899]),
    ('AdaptiveMaxPool1d', {'output_size': 2}, [(2, 3, 8)], (2, 3, 2), 6.61565, 15.0608,
     [1.34355, 1.49382, 0.270894, -1.00386]),
    ('AdaptiveAvgPool3d', {'output_size': (2, 3, 1)}, [(1, 2, 5, 4, 3)], (1, 2, 2, 3, 1),
     0.000947427, 0.223088, [-0.148924, 0.0357342, 0.180703, 0.186354]),
    ('AdaptiveAvgPool3d', {'output_size': (3, None, 2)}, [(2, 3, 4, 5)], (2, 3, 4, 2), 0.0165367,
     48.5989, [0.517952, 1.28293, 1.14094, 0.258673]),
    ('AdaptiveMaxPool2d', {'output_size': (3, 2)}, [(1, 2, 5, 7)], (1, 2, 3, 2), 15.8862, 22.0833,
     [1.34355, 1.49382, 1.49471, 1.34806]),
    ('AdaptiveMaxPool2d', {'output_size': (None, 3)}, [(2, 4, 5)], (2, 4, 3), 9.11187, 28.4773,
     [0.542423, 1.34355, 1.49382, 1.44191]),
    ('AdaptiveMaxPool3d', {'output_size': (2, 3, 2)}, [(1, 2, 3, 5, 4)], (1, 2, 2, 3, 2), 30.232,
     42.0896, [1.49471, 1.43906, 1.49382, 1.19485]),
    ('LPPool1d', {'norm_type': 2, 'kernel_size': 3}, [(2, 3, 7)], (2, 3, 2), 21.039, 40.9865,
     [1.1477, 2.473, 0.877618, 2.0399]),
    ('LPPool1d', {'norm_type': 4.0, 'kernel_size': 2, 'stride': 1}, [(3, 5)], (3, 4), 14.9475,
     21.1368, [0.542423, 1.03173, 1.44043, 1.69417]),
    ('LPPool2d', {'norm_type': 2, 'kernel_size': (2, 3), 'stride': 2, 'ceil_mode': True},
     [(1, 2, 5, 7)], (1, 2, 3, 3), 44.1597, 118.92, [1.44479, 2.68563, 3.39064, 2.9669]),
    ('LPPool2d', {'norm_type': 1, 'kernel_size': 2}, [(1, 2, 4, 4)], (1, 2, 2, 2), 1.5097, 99.4036,
     [3.47816, 4.33589, -2.9476, -4.33859]),
]


@pytest.mark.parametrize('case', CASES, ids=lambda c: c[0])
def test_values_match_mindspore(case):
    check_case(*case)


@pytest.mark.parametrize('net,shape,want,dtype', [
    (nn.MaxPool1d(3, 2, 'pad', 1, return_indices=True), (1, 2, 7),
     [1, 3, 4, 5, 0, 1, 3, 5], ms.int64),
    (nn.MaxPool3d(3, 2, 'pad', (1, 0, 1), return_indices=True), (1, 1, 4, 5, 5),
     [5, 38, 38, 21, 38, 38, 55, 38, 89, 90, 72, 89], ms.int64),
    (nn.AdaptiveMaxPool2d((2, 3), return_indices=True), (1, 2, 5, 7),
     [2, 4, 4, 21, 23, 20, 2, 3, 20, 21, 18, 20], ms.int64),
    (nn.AdaptiveMaxPool3d((2, 2, 3), return_indices=True), (1, 1, 3, 4, 5),
     [21, 21, 4, 36, 38, 38, 21, 21, 23, 55, 38, 38], ms.int32),
], ids=['max1d', 'max3d', 'adaptive2d', 'adaptive3d'])
def test_indices_match_mindspore(net, shape, want, dtype):
    y, at = net(ms.Tensor(det(shape)))
    assert at.dtype == dtype and at.shape == y.shape
    assert at.asnumpy().ravel().tolist() == want       # MindSpore 2.10's indices
    flat = det(shape).reshape(shape[:2] + (-1,))
    np.testing.assert_array_equal(np.take_along_axis(flat, at.asnumpy().reshape(
        shape[:2] + (-1,)).astype(np.int64), 2).reshape(y.shape), y.asnumpy())


def test_unbatched_inputs():
    x = det((2, 4, 5, 6))
    np.testing.assert_array_equal(nn.MaxPool3d(2, 2)(ms.Tensor(x)).asnumpy(),
                                  nn.MaxPool3d(2, 2)(ms.Tensor(x[None])).asnumpy()[0])
    np.testing.assert_allclose(nn.AvgPool1d(2, 1)(ms.Tensor(x[0, 0])).asnumpy(),
                               (x[0, 0, :, 1:] + x[0, 0, :, :-1]) / 2, rtol=1e-6)
    assert nn.AdaptiveAvgPool3d(2)(ms.Tensor(x)).shape == (2, 2, 2, 2)


@pytest.mark.parametrize('net,shape', [
    (nn.MaxPool1d(3, 2, 'pad', 1, dilation=2), (2, 2, 7)),
    (nn.AvgPool1d(3, 2, 'pad', 1, ceil_mode=True, count_include_pad=False), (2, 2, 6)),
    (nn.MaxPool3d(2, (2, 1, 2), 'same'), (1, 2, 3, 3, 4)),
    (nn.AvgPool3d(3, 2, 'pad', (1, 0, 1), ceil_mode=True), (1, 1, 4, 3, 4)),
    (nn.AvgPool3d(2, 2, 'same', divisor_override=3), (1, 1, 3, 3, 3)),
    (nn.AdaptiveAvgPool1d(2), (1, 2, 6)),
    (nn.AdaptiveMaxPool1d(2), (1, 2, 6)),
    (nn.AdaptiveAvgPool3d((2, 3, None)), (1, 1, 3, 4, 2)),
    (nn.AdaptiveMaxPool2d((2, 3)), (1, 2, 5, 4)),
    (nn.AdaptiveMaxPool3d(2), (1, 1, 3, 3, 3)),
    (nn.LPPool1d(2, 2), (1, 2, 6)),
    (nn.LPPool2d(3.0, (2, 3), 1, ceil_mode=True), (1, 1, 3, 4)),
], ids=lambda v: type(v).__name__ if isinstance(v, nn.Cell) else '')
def test_gradients(net, shape):
    rng = np.random.default_rng(6)
    x = rng.permutation(np.prod(shape)).reshape(shape) / 10.0 + 0.5    # distinct, positive
    check_layer_grad(net, x)


def test_reprs_print_as_mindspore():
    # MindSpore 2.10's texts: 1-d pools show the 2-d or 3-d pool they run as
    assert repr(nn.MaxPool1d(3, 2)) == "MaxPool1d(kernel_size=(1, 3), stride=(1, 2), " \
                                       "pad_mode=VALID)"
    assert repr(nn.MaxPool1d(3, 2, 'pad', 1)) == "MaxPool1d(kernel_size=(1, 1, 3), " \
                                                 "stride=(1, 1, 2), pad_mode=PAD)"
    assert repr(nn.AvgPool1d(3, 2)) == "AvgPool1d(kernel_size=(1, 3), stride=(1, 2), " \
                                       "pad_mode=VALID)"
    assert repr(nn.AvgPool1d((3,), 2, 'pad', 1)) == "AvgPool1d(kernel_size=3, stride=2, " \
                                                    "pad_mode=PAD)"
    assert repr(nn.MaxPool3d((2, 3, 2), 2, "pad", 1)) == "MaxPool3d(kernel_size=(2, 3, 2), " \
                                                         "stride=2, pad_mode=PAD)"
    assert repr(nn.AvgPool3d(2)) == "AvgPool3d(kernel_size=2, stride=1, pad_mode=VALID)"
    for cell in (nn.AdaptiveAvgPool1d(3), nn.AdaptiveAvgPool3d(2), nn.AdaptiveMaxPool1d(3),
                 nn.AdaptiveMaxPool2d(2), nn.AdaptiveMaxPool3d(2), nn.LPPool1d(2, 3),
                 nn.LPPool2d(2, 3, 2)):
        assert repr(cell) == f"{type(cell).__name__}()"


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.MaxPool1d(3, 2, padding=1), ValueError,
     "nn.MaxPool1d: padding, dilation, return_indices and ceil_mode must keep their "
     "defaults unless pad_mode is 'pad'"),
    (lambda: nn.MaxPool1d(0), ValueError, "nn.MaxPool1d: kernel_size must be a positive int"),
    (lambda: nn.MaxPool1d((2,)), TypeError, r"nn.MaxPool1d: kernel_size must be an int, "
                                            r"got \(2,\)"),
    (lambda: nn.MaxPool3d(2, dilation=2), ValueError,
     "nn.MaxPool3d: pad_mode must be 'pad' when dilation is not 1 or return_indices"),
    (lambda: nn.MaxPool3d(2, pad_mode='x'), ValueError, "nn.MaxPool3d: pad_mode must be one"),
    # As MindSpore 2.10: MaxPool2d/3d take dilation, return_indices and ceil_mode only with
    # pad_mode 'pad' (a tuple dilation counts as given even when all ones).
    (lambda: nn.MaxPool3d(2, 2, ceil_mode=True), ValueError,
     "nn.MaxPool3d: ceil_mode must be False when pad_mode is 'valid'"),
    (lambda: nn.MaxPool3d(2, 2, 'same', ceil_mode=True), ValueError,
     "nn.MaxPool3d: ceil_mode must be False when pad_mode is 'same'"),
    (lambda: nn.MaxPool2d(2, 2, ceil_mode=True), ValueError,
     "nn.MaxPool2d: dilation, return_indices and ceil_mode must keep their defaults unless "
     "pad_mode is 'pad', got pad_mode 'valid'"),
    (lambda: nn.MaxPool2d(2, 2, 'SAME', dilation=2), ValueError,
     "nn.MaxPool2d: dilation, return_indices and ceil_mode must keep their defaults unless "
     "pad_mode is 'pad', got pad_mode 'SAME'"),
    (lambda: nn.MaxPool2d(2, 2, return_indices=True), ValueError,
     "nn.MaxPool2d: dilation, return_indices and ceil_mode must keep their defaults"),
    (lambda: nn.MaxPool2d(2, 2, dilation=(1, 1)), ValueError,
     "nn.MaxPool2d: dilation, return_indices and ceil_mode must keep their defaults"),
    (lambda: nn.MaxPool3d(2, pad_mode='pad', padding=2), ValueError,
     "nn.MaxPool3d: padding 2 is more than half the kernel size 2"),
    (lambda: nn.AvgPool3d(2, divisor_override=0), ValueError,
     "nn.AvgPool3d: divisor_override must be None or an int >= 1, got 0"),
    (lambda: nn.AvgPool1d(2, padding=(1, 1)), ValueError,
     r"nn.AvgPool1d: padding must be an int or a tuple of 1 or 1 ints, got \(1, 1\)"),
    (lambda: nn.AdaptiveAvgPool1d(0), ValueError, "nn.AdaptiveAvgPool1d: output_size must be "
                                                  ">= 1, got 0"),
    (lambda: nn.AdaptiveMaxPool3d((2, None, 2)), ValueError,
     "nn.AdaptiveMaxPool3d: output_size must be a positive int or a tuple of 3 positive "
     "ints, got"),
    (lambda: nn.LPPool1d(0, 2), ValueError, "nn.LPPool1d: norm_type can not be 0"),
    (lambda: nn.LPPool1d('a', 2), TypeError, "nn.LPPool1d: norm_type must be a float or an "
                                             "int, got str"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()


def test_max_pool2d_3d_flags_with_pad_mode_pad():
    # MindSpore 2.10 accepts the flags with pad_mode 'pad' and the defaults with any mode.
    x = ms.Tensor(np.arange(50, dtype=np.float32).reshape(2, 1, 5, 5))
    assert nn.MaxPool2d(2, 2, ceil_mode=False, return_indices=False)(x).shape == (2, 1, 2, 2)
    assert nn.MaxPool2d(2, 2, 'same', dilation=1)(x).shape == (2, 1, 3, 3)
    y, idx = nn.MaxPool2d(2, 2, 'pad', dilation=2, ceil_mode=True, return_indices=True)(x)
    assert y.shape == idx.shape == (2, 1, 2, 2)
    x5 = ms.Tensor(np.arange(250, dtype=np.float32).reshape(2, 1, 5, 5, 5))
    assert nn.MaxPool3d(2, 2, 'same', ceil_mode=False)(x5).shape == (2, 1, 3, 3, 3)
    assert nn.MaxPool3d(2, 2, 'pad', ceil_mode=True)(x5).shape == (2, 1, 3, 3, 3)


def test_bad_inputs():
    with pytest.raises(ValueError, match="nn.AdaptiveMaxPool1d 'AdaptiveMaxPool1d': the input "
                                         "length 8 must be a multiple of output_size 3"):
        nn.AdaptiveMaxPool1d(3)(ops.ones((1, 2, 8)))
    with pytest.raises(ValueError, match=r"nn.MaxPool3d 'MaxPool3d': expected a 4-d or 5-d "
                                         r"input, got shape \(2, 3, 4\)"):
        nn.MaxPool3d(2)(ops.ones((2, 3, 4)))
    with pytest.raises(TypeError, match="nn.AvgPool1d 'AvgPool1d': expected a floating input, "
                                        "got dtype Int64"):
        nn.AvgPool1d(2)(ms.Tensor(np.ones((1, 2, 4), np.int64)))
    with pytest.raises(TypeError, match="nn.LPPool2d 'LPPool2d': expected a Tensor input"):
        nn.LPPool2d(2, 2)([1.0])
