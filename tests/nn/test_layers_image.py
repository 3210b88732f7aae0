"""ImageGradients, PSNR, SSIM, MSSSIM and CentralCrop: values against MindSpore 2.10, gradients,
parameters, repr and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_case, check_layer_grad, det

# (cell, kwargs, input shapes, output shape, sum, sum of squares, first values): MindSpore
# 2.10's outputs (graph mode; the first of a pair) for the ``det`` inputs and parameters of
# test_layers_support (SSIM's window weight included)
CASES = [
    ('ImageGradients', {}, [(2, 2, 3, 4)], (2, 2, 3, 4), -5.31039, 65.576,
     [1.49382, 0.89949, 0.183416, -0.557482]),
    ('PSNR', {}, [(2, 2, 3, 4), (2, 2, 3, 4)], (2,), 0.114741, 0.0143884, [0.119843, -0.00510227]),
    ('PSNR', {'max_val': 2}, [(3, 1, 2, 2), (3, 1, 2, 2)], (3,), 19.1368, 126.087,
     [7.76843, 4.93634, 6.432]),
    ('SSIM', {}, [(2, 2, 12, 13), (2, 2, 12, 13)], (2,), 1.11271, 0.629598, [0.483794, 0.628921]),
    ('SSIM', {'max_val': 3.0, 'filter_size': 4, 'filter_sigma': 0.8, 'k1': 0.02, 'k2': 0.05},
     [(1, 3, 5, 6), (1, 3, 5, 6)], (1,), 0.524103, 0.274684, [0.524103]),
    ('CentralCrop', {'central_fraction': 0.5}, [(2, 3, 7, 9)], (2, 3, 5, 5), -3.1618, 172.822,
     [-1.201, -1.4447, -1.49286, -1.33897]),
    ('CentralCrop', {'central_fraction': 0.3}, [(3, 10, 5)], (3, 4, 3), -5.34581, 39.5008,
     [-0.53288, 0.010222, 0.551941, 1.49471]),
]


@pytest.mark.parametrize('case', CASES, ids=lambda c: c[0])
def test_values_match_mindspore(case):
    check_case(*case)


def test_psnr_of_byte_images_and_ssim_with_its_gaussian_window():
    # MindSpore 2.10's values
    a = ms.Tensor(np.arange(24, dtype=np.uint8).reshape(1, 2, 3, 4))
    b = ms.Tensor((np.arange(24) * 2 % 256).astype(np.uint8).reshape(1, 2, 3, 4))
    np.testing.assert_allclose(nn.PSNR(max_val=255)(a, b).asnumpy(), [25.574059], rtol=1e-6)
    x = np.sin(np.arange(2 * 12 * 12)).reshape(2, 1, 12, 12).astype(np.float32)
    np.testing.assert_allclose(nn.SSIM()(ms.Tensor(x), ms.Tensor(x * 0.8 + 0.1)).asnumpy(),
                               [0.6604142, 0.9199489], rtol=1e-5)
    np.testing.assert_allclose(nn.SSIM()(ms.Tensor(x), ms.Tensor(x)).asnumpy(), [1, 1],
                               rtol=1e-6)


def test_msssim_matches_mindspore():
    a = ms.Tensor(det((2, 2, 16, 16)) * 0.3 + 0.5)
    b = ms.Tensor(det((2, 2, 16, 16), 1) * 0.2 + 0.5)
    # MindSpore 2.10's values (graph mode)
    y = nn.MSSSIM(power_factors=(0.2, 0.3, 0.5), filter_size=3)(a, b)
    np.testing.assert_allclose(y.asnumpy(), [0.4554025, 0.44715622], rtol=1e-5)
    y = nn.MSSSIM(max_val=2.0, power_factors=[0.5, 0.5], filter_size=5, filter_sigma=1.0,
                  k1=0.02, k2=0.04)(a, b)
    np.testing.assert_allclose(y.asnumpy(), [0.49462974, 0.49113083], rtol=1e-5)
    same = nn.MSSSIM(power_factors=(0.5, 0.5), filter_size=3)(a, a)
    np.testing.assert_allclose(same.asnumpy(), [1, 1], rtol=1e-5)
    net = nn.MSSSIM(power_factors=(0.2, 0.3, 0.5), filter_size=3)
    assert [(n, p.shape, p.requires_grad) for n, p in net.parameters_and_names()] == [
        (f'multi_convs_list.{i}.weight', (1, 1, 3, 3), False) for i in range(3)]


def test_ssim_window_is_a_fixed_parameter():
    net = nn.SSIM(filter_size=3)
    assert [(n, p.shape, p.requires_grad) for n, p in net.parameters_and_names()] == [
        ('conv.weight', (1, 1, 3, 3), False)]
    np.testing.assert_allclose(net.conv.weight.asnumpy().sum(), 1.0, rtol=1e-6)


def test_image_gradients_of_a_single_row():
    dy, dx = nn.ImageGradients()(ms.Tensor(np.array([[[[1.0, 4.0, 9.0]]]])))
    assert dy.asnumpy().tolist() == [[[[0, 0, 0]]]]
    assert dx.asnumpy().tolist() == [[[[3, 5, 0]]]]


class _Against(nn.Cell):
    """A two-image cell against a fixed second image, for a gradient check."""

    def __init__(self, cell, other):
        super().__init__()
        self.cell, self.other = cell, other

    def construct(self, x):
        return self.cell(x, self.other)


class _Both(nn.Cell):
    def __init__(self, cell):
        super().__init__()
        self.cell = cell

    def construct(self, x):
        dy, dx = self.cell(x)
        return dy * 2.0 + dx


@pytest.mark.parametrize('net,shape', [
    (_Both(nn.ImageGradients()), (1, 2, 3, 4)),
    (_Against(nn.PSNR(), ms.Tensor(np.zeros((2, 1, 3, 3)))), (2, 1, 3, 3)),
    (nn.CentralCrop(0.6), (2, 5, 5)),
], ids=['gradients', 'psnr', 'crop'])
def test_gradients(net, shape):
    check_layer_grad(net, np.random.default_rng(11).standard_normal(shape))


@pytest.mark.parametrize('net,size', [
    (nn.SSIM(filter_size=3, filter_sigma=1.0), 5),
    (nn.MSSSIM(power_factors=(0.4, 0.6), filter_size=3, filter_sigma=1.0), 6),
], ids=['ssim', 'msssim'])
def test_ssim_gradients_in_float32(net, size):
    # the windows are float32, as MindSpore's: a coarser finite-difference check
    x = np.random.default_rng(12).random((1, 1, size, size)).astype(np.float32)
    other = ms.Tensor(np.full((1, 1, size, size), 0.5, np.float32))
    g = ms.grad(lambda v: net(v, other).sum())(ms.Tensor(x)).asnumpy()
    eps = 1e-2
    for i in [(0, 0, 0, 0), (0, 0, 2, 3), (0, 0, size - 1, size - 1)]:
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        want = (float(net(ms.Tensor(up), other).sum()) -
                float(net(ms.Tensor(down), other).sum())) / (2 * eps)
        np.testing.assert_allclose(g[i], want, rtol=2e-2, atol=1e-3)


def test_reprs_print_as_mindspore():
    for cell in (nn.PSNR(), nn.ImageGradients(), nn.CentralCrop(0.5)):
        assert repr(cell) == f"{type(cell).__name__}()"
    assert repr(nn.MSSSIM(filter_size=3)).startswith("MSSSIM(\n  (multi_convs_list): CellList(")


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.PSNR(0), ValueError, "nn.PSNR: max_val must be > 0, got 0"),
    (lambda: nn.PSNR('1'), TypeError, "nn.PSNR: max_val must be an int or a float, got str"),
    (lambda: nn.SSIM(filter_size=0), ValueError, "nn.SSIM: filter_size must be >= 1, got 0"),
    (lambda: nn.SSIM(filter_sigma=1), TypeError, "nn.SSIM: filter_sigma must be a float, "
                                                 "got int"),
    (lambda: nn.SSIM(k1=0), TypeError, "nn.SSIM: k1 must be a float, got int"),
    (lambda: nn.MSSSIM(power_factors=0.5), TypeError,
     "nn.MSSSIM: power_factors must be a non-empty tuple or list, got 0.5"),
    (lambda: nn.MSSSIM(filter_size=3)(ops.ones((1, 1, 20, 20)), ops.ones((1, 1, 20, 20))),
     ValueError, r"nn.MSSSIM: img1 of shape \(1, 1, 20, 20\) is too small for filter_size 3 "
                 r"at 5 scales"),
    (lambda: nn.CentralCrop(1), TypeError, "nn.CentralCrop: central_fraction must be a float"),
    (lambda: nn.CentralCrop(0.0), ValueError, r"nn.CentralCrop: central_fraction must be in "
                                              r"\(0.0, 1.0\], got 0.0"),
    (lambda: nn.ImageGradients()(ops.ones((2, 3))), ValueError,
     r"nn.ImageGradients: images must be 4-d \(N, C, H, W\), got shape \(2, 3\)"),
    (lambda: nn.PSNR()(ops.ones((1, 1, 2, 2)), ops.ones((1, 1, 2, 3))), ValueError,
     "nn.PSNR: img1 and img2 must have the same shape and dtype"),
    (lambda: nn.SSIM()(ops.ones((1, 1, 5, 5)), ops.ones((1, 1, 5, 5))), ValueError,
     r"nn.SSIM: img1 of shape \(1, 1, 5, 5\) is smaller than filter_size 11"),
    (lambda: nn.CentralCrop(0.5)(ops.ones((2, 2))), ValueError,
     r"nn.CentralCrop: image must be 3-d or 4-d, got shape \(2, 2\)"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()
