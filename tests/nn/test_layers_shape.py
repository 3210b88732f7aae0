"""PixelShuffle, PixelUnshuffle, Unflatten, ChannelShuffle, Unfold, Dropout1d, Dropout3d and
Softmax2d: values against MindSpore 2.10 and NumPy, gradients, repr and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_case, check_layer_grad, det

# (cell, kwargs, input shapes, output shape, sum, sum of squares, first values): MindSpore
# 2.10's outputs for the ``det`` inputs of test_layers_support
CASES = [
    ('PixelShuffle', {'upscale_factor': 2}, [(1, 8, 2, 3)], (1, 2, 4, 6), 2.81743, 54.3061,
     [0.0, 1.19485, 0.542423, 0.786067]),
    ('PixelShuffle', {'upscale_factor': 3}, [(9, 2, 1)], (1, 6, 3), 0.00520393, 19.1053,
     [0.0, 1.01143, 1.49382, 1.19485]),
    ('PixelUnshuffle', {'downscale_factor': 2}, [(1, 2, 4, 6)], (1, 8, 2, 3), 2.81743, 54.3061,
     [0.0, 1.01143, 1.49382, -1.4447]),
    ('PixelUnshuffle', {'downscale_factor': 2}, [(2, 1, 2, 1, 2, 2)], (2, 1, 2, 4, 1, 1), 0.527862,
     18.8212, [0.0, 0.542423, 1.01143, 1.34355]),
    ('Unflatten', {'axis': 1, 'unflattened_size': (2, 3)}, [(2, 6, 2)], (2, 2, 3, 2), 7.04658,
     27.9834, [0.0, 0.542423, 1.01143, 1.34355]),
    ('Unflatten', {'axis': -1, 'unflattened_size': [2, 2]}, [(3, 4)], (3, 2, 2), 5.80825, 11.7049,
     [0.0, 0.542423, 1.01143, 1.34355]),
    ('ChannelShuffle', {'groups': 2}, [(1, 4, 3)], (1, 4, 3), 5.80825, 11.7049,
     [0.0, 0.542423, 1.01143, 1.19485]),
    ('ChannelShuffle', {'groups': 3}, [(2, 6, 2, 2)], (2, 6, 2, 2), 2.81743, 54.3061,
     [0.0, 0.542423, 1.01143, 1.34355]),
    ('Softmax2d', {}, [(2, 3, 2, 2)], (2, 3, 2, 2), 8, 4.23455,
     [0.147815, 0.256588, 0.422727, 0.605636]),
    ('Softmax2d', {}, [(3, 2, 2)], (3, 2, 2), 4, 1.90003,
     [0.147815, 0.256588, 0.422727, 0.605636]),
]


@pytest.mark.parametrize('case', CASES, ids=lambda c: c[0])
def test_values_match_mindspore(case):
    check_case(*case)


def test_pixel_shuffle_layout_and_inverse():
    x = np.arange(2 * 8 * 2 * 3, dtype=np.float64).reshape(2, 8, 2, 3)
    y = nn.PixelShuffle(2)(ms.Tensor(x)).asnumpy()
    # y[n, c, 2h + i, 2w + j] = x[n, 4c + 2i + j, h, w]
    want = x.reshape(2, 2, 2, 2, 2, 3).transpose(0, 1, 4, 2, 5, 3).reshape(2, 2, 4, 6)
    np.testing.assert_array_equal(y, want)
    assert y[0, 1, 3, 4] == x[0, 4 + 2 + 0, 1, 2]
    np.testing.assert_array_equal(nn.PixelUnshuffle(2)(ms.Tensor(y)).asnumpy(), x)


def test_channel_shuffle_interleaves_groups():
    x = ms.Tensor(np.arange(6.0).reshape(1, 6, 1))
    assert nn.ChannelShuffle(3)(x).asnumpy().ravel().tolist() == [0, 2, 4, 1, 3, 5]


def _patches(x, k, s, r, pads):
    """Reference extract_image_patches by loops: depth ordered (row, col, channel)."""
    x = np.pad(x, ((0, 0), (0, 0), pads[:2], pads[2:]))
    n, c, h, w = x.shape
    oh = (h - r[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w - r[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.zeros((n, k[0] * k[1] * c, oh, ow))
    for a in range(oh):
        for b in range(ow):
            for i in range(k[0]):
                for j in range(k[1]):
                    for ch in range(c):
                        out[:, (i * k[1] + j) * c + ch, a, b] = \
                            x[:, ch, a * s[0] + i * r[0], b * s[1] + j * r[1]]
    return out


@pytest.mark.parametrize('k,s,r,padding,pads', [
    ((2, 2), (1, 1), (1, 1), 'valid', (0, 0, 0, 0)),
    ((2, 3), (2, 1), (1, 2), 'valid', (0, 0, 0, 0)),
    ((3, 2), (2, 2), (1, 1), 'same', (1, 1, 0, 1)),
    ((2, 2), (1, 3), (2, 1), 'SAME', (1, 1, 0, 1)),
])
def test_unfold_matches_a_loop_reference(k, s, r, padding, pads):
    x = det((2, 3, 5, 6)).astype(np.float64)
    net = nn.Unfold([1, *k, 1], [1, *s, 1], [1, *r, 1], padding)
    np.testing.assert_array_equal(net(ms.Tensor(x)).asnumpy(), _patches(x, k, s, r, pads))


@pytest.mark.parametrize('net,shape', [
    (nn.PixelShuffle(2), (1, 4, 2, 3)),
    (nn.PixelUnshuffle(2), (1, 2, 2, 4)),
    (nn.ChannelShuffle(2), (1, 4, 3)),
    (nn.Unfold([1, 2, 2, 1], [1, 2, 1, 1], [1, 1, 1, 1], 'same'), (1, 2, 3, 3)),
    (nn.Softmax2d(), (2, 3, 2, 2)),
], ids=lambda v: type(v).__name__ if isinstance(v, nn.Cell) else '')
def test_gradients(net, shape):
    check_layer_grad(net, np.random.default_rng(7).standard_normal(shape))


@pytest.mark.parametrize('cell,shape', [(nn.Dropout1d, (40, 30, 5)), (nn.Dropout1d, (300, 4)),
                                        (nn.Dropout3d, (20, 30, 2, 2, 2))])
def test_channel_dropout_zeros_whole_channels(cell, shape):
    ms.set_seed(0)
    net = cell(0.25)
    x = ops.ones(shape)
    assert net(x) is x                              # predict mode: the identity
    net.set_train()
    y = net(x).asnumpy()
    per_channel = y.reshape(shape[:2] + (-1,)) if len(shape) > 2 else y[:, :, None]
    assert set(np.unique(per_channel)) <= {0.0, np.float32(1 / 0.75)}
    assert (per_channel.min(-1) == per_channel.max(-1)).all()     # a channel is kept or not
    assert 0.15 < (per_channel[..., 0] == 0).mean() < 0.35
    g = ms.grad(lambda t: (net(t) * 2.0).sum())(x)      # the same mask? scale is 0 or 1 / 0.75
    assert set(np.unique(g.asnumpy())) <= {0.0, np.float32(2 / 0.75)}


def test_reprs_print_as_mindspore():
    for cell in (nn.PixelShuffle(2), nn.PixelUnshuffle(2), nn.Unflatten(1, (2, 3)),
                 nn.ChannelShuffle(2), nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1]),
                 nn.Dropout1d(), nn.Softmax2d()):
        assert repr(cell) == f"{type(cell).__name__}()"
    assert repr(nn.Dropout3d(0.3)) == "Dropout3d(p=0.7)"    # MindSpore prints keep_prob


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.PixelShuffle(0), ValueError, "nn.PixelShuffle: upscale_factor must be a "
                                             "positive int, got 0"),
    (lambda: nn.Unflatten(1.0, (2, 3)), TypeError, "nn.Unflatten: axis must be an int"),
    (lambda: nn.Unflatten(1, 6), TypeError, "nn.Unflatten: unflattened_size must be a tuple "
                                            "or list of ints, got 6"),
    (lambda: nn.ChannelShuffle(2.0), TypeError, "nn.ChannelShuffle: groups must be an int, "
                                                "got float"),
    (lambda: nn.ChannelShuffle(0), ValueError, "nn.ChannelShuffle: groups must be larger "
                                               "than 0, got 0"),
    (lambda: nn.Unfold([1, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1]), ValueError,
     r"nn.Unfold: ksizes must be \[1, ksize_row, ksize_col, 1\]"),
    (lambda: nn.Unfold([1, 2, 2, 1], [1, 0, 1, 1], [1, 1, 1, 1]), ValueError,
     "nn.Unfold: stride_row and stride_col in strides must be positive ints"),
    (lambda: nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], 'pad'), ValueError,
     "nn.Unfold: padding must be 'valid' or 'same', got 'pad'"),
    (lambda: nn.Dropout1d(1), TypeError, "nn.Dropout1d: p must be a float, got int"),
    (lambda: nn.Dropout3d(1.5), ValueError, r"nn.Dropout3d: p must be in \[0, 1\], got 1.5"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()


@pytest.mark.parametrize('net,shape,match', [
    (nn.PixelShuffle(2), (1, 3, 2, 2), r"expected an input \(\*, C, H, W\) with C divisible by "
                                       r"upscale_factor \*\* 2 = 4, got shape \(1, 3, 2, 2\)"),
    (nn.PixelUnshuffle(2), (1, 3, 3, 2), r"expected an input \(\*, C, H, W\) with H and W "
                                         r"divisible by downscale_factor 2"),
    (nn.Unflatten(1, (2, 2)), (2, 3), r"unflattened_size \(2, 2\) does not match axis 1 of "
                                      r"length 3"),
    (nn.ChannelShuffle(2), (1, 3, 2), r"expected an input \(N, C, \*\) with C divisible by "
                                      r"groups 2"),
    (nn.Softmax2d(), (3, 2), r"expected a 3-d or 4-d input, got shape \(3, 2\)"),
    (nn.Unfold([1, 4, 4, 1], [1, 1, 1, 1], [1, 1, 1, 1]), (1, 1, 3, 3),
     r"the window \(4, 4\) with rates \(1, 1\) does not fit"),
    (nn.Dropout3d().set_train(), (1, 2, 2, 2), "expected a 5-d input"),
], ids=lambda v: type(v).__name__ if isinstance(v, nn.Cell) else '')
def test_bad_inputs(net, shape, match):
    with pytest.raises(ValueError, match=f"nn.{type(net).__name__} '{type(net).__name__}': "
                                         f"{match}"):
        net(ops.ones(shape))
