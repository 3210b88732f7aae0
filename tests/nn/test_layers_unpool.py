"""MaxUnpool1d/2d/3d and FractionalMaxPool2d/3d: values and indices against MindSpore 2.10,
round trips with max pooling, gradients, repr and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_layer_grad, det

SAMPLES = np.array([[[0.3, 0.8], [0.1, 0.55]], [[0.9, 0.05], [0.5, 0.5]]], np.float32)

# (input shape, kwargs, indices): MindSpore 2.10's FractionalMaxPool2d indices for the ``det``
# input of test_layers_support and the samples above
FRACTIONAL = [
    ((2, 2, 7, 8), {'kernel_size': 2, 'output_size': (3, 4)},
     [[[[1, 3, 4, 6], [24, 19, 21, 22], [40, 42, 53, 55]],
       [[0, 2, 13, 15], [16, 18, 20, 31], [49, 50, 52, 47]]],
      [[[9, 11, 12, 14], [25, 27, 28, 30], [48, 43, 45, 46]],
       [[8, 3, 5, 6], [24, 26, 21, 23], [40, 42, 44, 55]]]]),
    ((2, 2, 9, 7), {'kernel_size': (3, 2), 'output_ratio': (0.5, 0.6)},
     [[[[7, 3, 4, 5], [21, 23, 24, 20], [36, 38, 38, 40], [56, 58, 53, 55]],
       [[8, 9, 10, 12], [28, 29, 25, 26], [43, 43, 45, 41], [43, 43, 60, 61]]],
      [[[14, 16, 17, 13], [14, 31, 31, 33], [29, 31, 31, 48], [49, 51, 46, 48]],
       [[1, 2, 19, 19], [21, 17, 19, 19], [36, 37, 39, 34], [50, 52, 53, 54]]]]),
    ((2, 2, 6, 6), {'kernel_size': 2, 'output_size': (5, 5)},
     [[[[6, 2, 3, 4, 4], [6, 7, 8, 9, 17], [19, 20, 21, 21, 22], [19, 20, 21, 21, 22],
        [24, 25, 26, 34, 35]],
       [[1, 2, 2, 3, 4], [6, 7, 15, 16, 17], [19, 19, 20, 21, 17], [19, 19, 20, 21, 22],
        [24, 32, 33, 34, 35]]],
      [[[0, 1, 2, 3, 4], [13, 14, 15, 16, 17], [18, 19, 15, 16, 17], [18, 19, 20, 21, 22],
        [31, 32, 33, 34, 34]],
       [[0, 1, 2, 3, 11], [13, 14, 15, 15, 16], [13, 14, 15, 15, 16], [18, 19, 20, 28, 29],
        [31, 32, 32, 33, 34]]]]),
]


@pytest.mark.parametrize('shape,kwargs,want', FRACTIONAL)
def test_fractional_max_pool_matches_mindspore(shape, kwargs, want):
    x = det(shape)
    net = nn.FractionalMaxPool2d(return_indices=True, _random_samples=ms.Tensor(SAMPLES),
                                 **kwargs)
    y, at = net(ms.Tensor(x))
    assert at.dtype == ms.int64 and at.asnumpy().tolist() == want
    planes = x.reshape(shape[:2] + (-1,))
    np.testing.assert_array_equal(
        y.asnumpy(), np.take_along_axis(planes, np.array(want).reshape(shape[:2] + (-1,)),
                                        2).reshape(y.shape))
    plain = nn.FractionalMaxPool2d(_random_samples=ms.Tensor(SAMPLES), **kwargs)
    np.testing.assert_array_equal(plain(ms.Tensor(x)).asnumpy(), y.asnumpy())


def test_fractional_max_pool_3d_matches_mindspore():
    samples = ms.Tensor(np.array([[[0.3, 0.8, 0.45], [0.1, 0.55, 0.9]]], np.float32))
    x = det((1, 2, 5, 6, 4))
    y, at = nn.FractionalMaxPool3d(2, output_size=(2, 3, 2), return_indices=True,
                                   _random_samples=samples)(ms.Tensor(x))
    # MindSpore 2.10's indices
    assert at.dtype == ms.int64 and at.asnumpy().tolist() == [
        [[[[4, 3], [37, 38], [21, 22]], [[72, 74], [105, 106], [89, 90]]],
         [[[4, 3], [37, 38], [20, 19]], [[72, 103], [105, 106], [88, 90]]]]]
    np.testing.assert_array_equal(
        y.asnumpy().ravel(), np.take_along_axis(x.reshape(1, 2, -1),
                                                at.asnumpy().reshape(1, 2, -1), 2).ravel())
    ms.set_seed(2)
    assert nn.FractionalMaxPool3d(2, output_ratio=0.5)(ms.Tensor(det((2, 6, 4, 4)))).shape == \
        (2, 3, 2, 2)


def test_fractional_max_pool_draws_samples_and_takes_unbatched_input():
    ms.set_seed(1)
    y = nn.FractionalMaxPool2d(2, output_ratio=0.5)(ms.Tensor(det((3, 8, 6))))
    assert y.shape == (3, 4, 3)


def test_max_unpool_matches_mindspore():
    x = ms.Tensor(np.array([[[2., 5., 3., 7.]]], np.float32))
    at = ms.Tensor(np.array([[[1, 2, 3, 0]]]), ms.int64)
    # MindSpore 2.10's outputs
    assert nn.MaxUnpool1d(2)(x, at).asnumpy().tolist() == [[[7, 2, 5, 3, 0, 0, 0, 0]]]
    assert nn.MaxUnpool1d(2)(x, at, (1, 1, 9)).asnumpy().tolist() == \
        [[[7, 2, 5, 3, 0, 0, 0, 0, 0]]]
    assert nn.MaxUnpool1d(3, 2, 1)(x, at).asnumpy().tolist() == [[[7, 2, 5, 3, 0, 0, 0]]]
    assert nn.MaxUnpool1d(2)(x[0], at[0]).asnumpy().tolist() == [[7, 2, 5, 3, 0, 0, 0, 0]]


@pytest.mark.parametrize('pool,unpool,shape', [
    (nn.MaxPool2d(2, 2, 'pad', return_indices=True), nn.MaxUnpool2d(2), (2, 3, 4, 6)),
    (nn.MaxPool3d(2, 2, 'pad', return_indices=True), nn.MaxUnpool3d(2), (1, 2, 4, 2, 6)),
    (nn.MaxPool1d(3, 3, 'pad', return_indices=True), nn.MaxUnpool1d(3), (2, 5, 9)),
], ids=['2d', '3d', '1d'])
def test_unpooling_puts_the_maxima_back(pool, unpool, shape):
    x = det(shape)
    y, at = pool(ms.Tensor(x))
    back = unpool(y, at).asnumpy()
    assert back.shape == x.shape
    kept = back != 0
    np.testing.assert_array_equal(back[kept], x[kept])
    np.testing.assert_array_equal(np.sort(back[kept]), np.sort(y.asnumpy().ravel()))


class _Unpool(nn.Cell):
    def __init__(self, cell, at):
        super().__init__()
        self.cell, self.at = cell, at

    def construct(self, x):
        return self.cell(x, self.at)


def test_gradients():
    at = ms.Tensor(np.array([[[[0, 3], [9, 14]], [[5, 2], [8, 15]]]]))
    check_layer_grad(_Unpool(nn.MaxUnpool2d(2), at), np.arange(8.0).reshape(1, 2, 2, 2) + 1)
    rng = np.random.default_rng(14)
    x = rng.permutation(2 * 2 * 7 * 8).reshape(2, 2, 7, 8) / 10.0
    check_layer_grad(nn.FractionalMaxPool2d(2, (3, 4), _random_samples=ms.Tensor(SAMPLES)), x)
    samples = ms.Tensor(np.array([[[0.3, 0.8, 0.45]]]))
    x = rng.permutation(4 * 5 * 4).reshape(1, 1, 4, 5, 4) / 10.0
    check_layer_grad(nn.FractionalMaxPool3d(2, (2, 3, 2), _random_samples=samples), x)


def test_reprs_print_as_mindspore():
    for cell in (nn.MaxUnpool1d(2), nn.MaxUnpool2d(2), nn.MaxUnpool3d(2),
                 nn.FractionalMaxPool2d(2, output_size=(2, 2)),
                 nn.FractionalMaxPool3d(2, output_size=2)):
        assert repr(cell) == f"{type(cell).__name__}()"


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.FractionalMaxPool2d(2), ValueError,
     "nn.FractionalMaxPool2d: exactly one of output_size and output_ratio must be given"),
    (lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5), ValueError,
     r"nn.FractionalMaxPool2d: output_ratio must be a float or 2 floats in \(0, 1\)"),
    (lambda: nn.MaxUnpool2d((2, 2, 2)), TypeError,
     "nn.MaxUnpool2d: kernel_size must be an int or a tuple of 2 ints"),
    (lambda: nn.MaxUnpool1d(2)(ops.ones((1, 1, 2)), ms.Tensor([[[0, 1]]]), [4]), ValueError,
     r"nn.MaxUnpool1d 'MaxUnpool1d': output_size must be a non-empty tuple, got \[4\]"),
    (lambda: nn.MaxUnpool1d(2)(ops.ones((1, 1, 2)), ms.Tensor([[[0, 9]]])), ValueError,
     r"nn.MaxUnpool1d 'MaxUnpool1d': indices must lie in \[0, 4\)"),
    (lambda: nn.MaxUnpool1d(2)(ops.ones((1, 1, 2)), ms.Tensor([[[0, 1]]]), (12,)), ValueError,
     r"output_size \(12,\) must be within a stride of the default size \(4,\)"),
    (lambda: nn.MaxUnpool2d(2)(ops.ones((1, 1, 2, 2)), ms.Tensor([[[0, 1]]])), ValueError,
     "nn.MaxUnpool2d 'MaxUnpool2d': indices must be an integer Tensor of the input's shape"),
    (lambda: nn.FractionalMaxPool2d(3, (3, 3))(ops.ones((1, 1, 4, 4))), ValueError,
     r"output size \(3, 3\) with kernel \(3, 3\) does not fit the input"),
    (lambda: nn.FractionalMaxPool2d(2, (2, 2), _random_samples=ops.ones((1, 2)))(
        ops.ones((1, 1, 4, 4))), ValueError, r"_random_samples must be a Tensor of shape "
                                             r"\(1, 1, 2\)"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()
