"""Image layers: ImageGradients, PSNR, SSIM, MSSSIM and CentralCrop (MindSpore 2.x
signatures)."""
import numbers

import numpy as np

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...ops.conv import _is_int
from ..cell import Cell
from ..container import CellList
from .conv import Conv2d
from .pooling import AvgPool2d

__all__ = ['ImageGradients', 'PSNR', 'SSIM', 'MSSSIM', 'CentralCrop']


def _four_d(cell, x, arg):
    if not isinstance(x, Tensor):
        raise TypeError(f"nn.{type(cell).__name__}: {arg} must be a Tensor, got "
                        f"{type(x).__name__}")
    if x.ndim != 4:
        raise ValueError(f"nn.{type(cell).__name__}: {arg} must be 4-d (N, C, H, W), got shape "
                         f"{x.shape}")
    return x


def _pair(cell, img1, img2):
    _four_d(cell, img1, 'img1')
    _four_d(cell, img2, 'img2')
    if img1.shape != img2.shape or img1.dtype != img2.dtype:
        raise ValueError(f"nn.{type(cell).__name__}: img1 and img2 must have the same shape and "
                         f"dtype, got {img1.shape} {img1.dtype} and {img2.shape} {img2.dtype}")


def _as_float(img, max_val, keep_float64=False):
    """Float32 images and maximum: integer images (and the maximum) divided by their dtype's
    largest value, as MindSpore does (``keep_float64``: float64 images stay float64)."""
    kind = img._data.dtype
    top = float(np.iinfo(kind).max) if kind.kind in 'iu' else 1.0
    keep = kind == np.float32 or (keep_float64 and kind == np.float64)
    x = img if keep else ops.cast(img, _dtype.float32)
    if top > 1.0:
        return x * (1.0 / top), max_val / top
    return x, max_val


def _max_val(value, cell):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"nn.{cell}: max_val must be an int or a float, got "
                        f"{type(value).__name__}")
    if not value > 0:
        raise ValueError(f"nn.{cell}: max_val must be > 0, got {value}")
    return value


class ImageGradients(Cell):
    """Forward differences of (N, C, H, W) images: ``(dy, dx)`` with ``dy[..., i, :] =
    x[..., i + 1, :] - x[..., i, :]`` and ``dx`` along the width, the last row (column)
    zero.

    Raises:
        TypeError / ValueError: for an input that is not a 4-d Tensor.

    >>> import hookgrad as ms
    >>> dy, dx = ms.nn.ImageGradients()(ms.Tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
    >>> dy.asnumpy().tolist(), dx.asnumpy().tolist()
    ([[[[2.0, 2.0], [0.0, 0.0]]]], [[[[1.0, 0.0], [1.0, 0.0]]]])
    """

    def construct(self, images):
        x = _four_d(self, images, 'images')
        dy = ops.pad(x[:, :, 1:, :] - x[:, :, :-1, :], (0, 0, 0, 1))
        dx = ops.pad(x[:, :, :, 1:] - x[:, :, :, :-1], (0, 1, 0, 0))
        return dy, dx


class PSNR(Cell):
    """Peak signal-to-noise ratio of two batches of (N, C, H, W) images, per image:
    ``10 * log10(max_val ** 2 / mean((img1 - img2) ** 2))``.

    Args:
        max_val: the dynamic range of the images (1.0 for floats in [0, 1], 255 for bytes);
            integer images are first scaled to [0, 1] by their dtype's maximum. Default 1.0.
            The result is Float32 (Float64 for float64 images).

    Raises:
        TypeError / ValueError: for a non-positive max_val, or images that are not 4-d of the
            same shape and dtype.

    >>> import hookgrad as ms
    >>> ms.nn.PSNR()(ms.ops.ones((1, 1, 2, 2)), ms.ops.ones((1, 1, 2, 2)) * 0.9).asnumpy().round(3)
    array([20.], dtype=float32)
    """

    def __init__(self, max_val=1.0):
        super().__init__()
        self.max_val = _max_val(max_val, 'PSNR')

    def construct(self, img1, img2):
        _pair(self, img1, img2)
        a, max_val = _as_float(img1, self.max_val, True)
        b, _ = _as_float(img2, self.max_val, True)
        mse = ops.mean(ops.square(a - b), (-3, -2, -1))
        return ops.log(max_val ** 2 / mse) * (10.0 / np.log(10.0))


def _window(size, sigma):
    """MindSpore's SSIM window: a normalized (1, 1, size, size) Gaussian."""
    half = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32) ** 2
    g = np.exp(-(half[:, None] + half[None, :]) / (2 * sigma ** 2))
    return (g / g.sum())[None, None].astype(np.float32)


class SSIM(Cell):
    """Structural similarity of two batches of (N, C, H, W) images, per image: the SSIM map
    of each channel (local statistics under a Gaussian window, 'valid' positions only)
    averaged over the positions and the channels.

    The window is the sub-cell ``conv``, a 1-channel ``Conv2d`` whose weight is fixed, named
    as MindSpore's checkpoints hold it.

    Args:
        max_val: the images' dynamic range, > 0. Default 1.0.
        filter_size: the window size, an int >= 1. Default 11.
        filter_sigma: the Gaussian's standard deviation, a positive float. Default 1.5.
        k1, k2: the stabilizing constants (floats). Defaults 0.01, 0.03.

    Raises:
        TypeError / ValueError: for bad arguments, or images that are not floating, 4-d of
            the same shape and dtype, or smaller than the window.
    """

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        self.max_val = _ssim_args('SSIM', max_val, filter_size, filter_sigma, k1, k2)
        self.filter_size, self.filter_sigma, self.k1, self.k2 = filter_size, filter_sigma, k1, k2
        self.conv = _window_conv(filter_size, filter_sigma)

    def construct(self, img1, img2):
        _pair(self, img1, img2)
        if img1._data.dtype.kind not in 'fV':
            raise TypeError(f"nn.SSIM: img1 must be a floating Tensor, got dtype {img1.dtype}")
        _fits(self, img1)
        a, max_val = _as_float(img1, self.max_val)
        b, _ = _as_float(img2, self.max_val)
        ssim, _ = _ssim_and_cs(self.conv, a, b, (self.k1 * max_val) ** 2,
                               (self.k2 * max_val) ** 2)
        return ops.mean(ssim, -1)


def _fits(cell, img):
    h, w = img.shape[2:]
    if h < cell.filter_size or w < cell.filter_size:
        raise ValueError(f"nn.{type(cell).__name__}: img1 of shape {img.shape} is smaller than "
                         f"filter_size {cell.filter_size}")


def _ssim_and_cs(conv, a, b, c1, c2):
    """(SSIM, contrast-structure) of each (image, channel), (N, C): the maps under the window
    ``conv`` (valid positions) averaged."""
    n, c, h, w = a.shape
    a = ops.reshape(a, (n * c, 1, h, w))
    b = ops.reshape(b, (n * c, 1, h, w))
    mu1, mu2 = conv(a), conv(b)
    mu1_sq, mu2_sq, mu12 = mu1 * mu1, mu2 * mu2, mu1 * mu2
    var1 = conv(a * a) - mu1_sq
    var2 = conv(b * b) - mu2_sq
    cov = conv(a * b) - mu12
    cs = (2 * cov + c2) / (var1 + var2 + c2)
    ssim = (2 * mu12 + c1) / (mu1_sq + mu2_sq + c1) * cs
    return (ops.reshape(ops.mean(ssim, (-2, -1)), (n, c)),
            ops.reshape(ops.mean(cs, (-2, -1)), (n, c)))


def _ssim_args(cell, max_val, filter_size, filter_sigma, k1, k2):
    """SSIM's and MSSSIM's argument checks; sets the attributes."""
    name = f"nn.{cell}"
    if not _is_int(filter_size):
        raise TypeError(f"{name}: filter_size must be an int, got {filter_size!r}")
    if filter_size < 1:
        raise ValueError(f"{name}: filter_size must be >= 1, got {filter_size}")
    if not isinstance(filter_sigma, float):
        raise TypeError(f"{name}: filter_sigma must be a float, got "
                        f"{type(filter_sigma).__name__}")
    if not filter_sigma > 0:
        raise ValueError(f"{name}: filter_sigma must be positive, got {filter_sigma}")
    for arg, value in (('k1', k1), ('k2', k2)):
        if not isinstance(value, float):
            raise TypeError(f"{name}: {arg} must be a float, got {type(value).__name__}")
    return _max_val(max_val, cell)


def _window_conv(filter_size, filter_sigma):
    conv = Conv2d(1, 1, filter_size, weight_init=Tensor(_window(filter_size, filter_sigma)),
                  pad_mode='valid')
    conv.weight.requires_grad = False
    return conv


class MSSSIM(Cell):
    """Multi-scale structural similarity of two batches of (N, C, H, W) images, per image.

    At each of ``len(power_factors)`` scales (the images halved by a 2x2 average pooling
    between scales) the contrast-structure term is taken, and the full SSIM at the last one;
    their ReLUs raised to the power factors are multiplied, then averaged over the channels.
    Each scale's window is a fixed ``Conv2d`` in the CellList ``multi_convs_list``.

    Args:
        max_val: the images' dynamic range, > 0. Default 1.0.
        power_factors: a tuple or list of floats, one per scale. Default (0.0448, 0.2856,
            0.3001, 0.2363, 0.1333).
        filter_size, filter_sigma, k1, k2: as ``SSIM``.

    Raises:
        TypeError / ValueError: as ``SSIM``; for power_factors that are not a tuple or list,
            or images too small for the window at the last scale.
    """

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        self.max_val = _ssim_args('MSSSIM', max_val, filter_size, filter_sigma, k1, k2)
        if not isinstance(power_factors, (tuple, list)) or not power_factors:
            raise TypeError(f"nn.MSSSIM: power_factors must be a non-empty tuple or list, got "
                            f"{power_factors!r}")
        self.filter_size, self.filter_sigma, self.k1, self.k2 = filter_size, filter_sigma, k1, k2
        self.level = len(power_factors)
        self.power_factors = tuple(float(v) for v in power_factors)
        self.multi_convs_list = CellList([_window_conv(filter_size, filter_sigma)
                                          for _ in range(self.level)])
        self.avg_pool = AvgPool2d(kernel_size=2, stride=2, pad_mode='valid')

    def construct(self, img1, img2):
        _pair(self, img1, img2)
        if img1._data.dtype.kind not in 'fuV' or (img1._data.dtype.kind == 'u'
                                                 and img1._data.dtype != np.uint8):
            raise TypeError(f"nn.MSSSIM: img1 must be a floating or UInt8 Tensor, got dtype "
                            f"{img1.dtype}")
        h, w = img1.shape[2:]
        scale = 2 ** (self.level - 1)
        if h // scale < self.filter_size or w // scale < self.filter_size:
            raise ValueError(f"nn.MSSSIM: img1 of shape {img1.shape} is too small for "
                             f"filter_size {self.filter_size} at {self.level} scales")
        a, max_val = _as_float(img1, self.max_val)
        b, _ = _as_float(img2, self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        terms = []
        for i, conv in enumerate(self.multi_convs_list):
            ssim, cs = _ssim_and_cs(conv, a, b, c1, c2)
            terms.append(ops.relu(ssim if i == self.level - 1 else cs))
            a, b = self.avg_pool(a), self.avg_pool(b)
        stacked = ops.stack(terms, -1)
        powers = Tensor(np.array(self.power_factors, np.float32)).astype(stacked.dtype)
        return ops.mean(ops.prod(ops.pow(stacked, powers), -1), -1)


class CentralCrop(Cell):
    """The central part of (C, H, W) or (N, C, H, W) images: a fraction ``central_fraction``
    of the height and width, the same margin on both sides (MindSpore's rounding:
    ``start = int((h - h * fraction) / 2)``, ``size = h - 2 * start``).

    Args:
        central_fraction: a float in (0, 1].

    Raises:
        TypeError / ValueError: for a central_fraction that is not a float in (0, 1], or an
            image that is not 3-d or 4-d.

    >>> import hookgrad as ms
    >>> ms.nn.CentralCrop(0.5)(ms.ops.ones((3, 4, 6))).shape
    (3, 2, 4)
    """

    def __init__(self, central_fraction):
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"nn.CentralCrop: central_fraction must be a float, got "
                            f"{type(central_fraction).__name__}")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"nn.CentralCrop: central_fraction must be in (0.0, 1.0], got "
                             f"{central_fraction}")
        self.central_fraction = central_fraction

    def construct(self, image):
        if not isinstance(image, Tensor):
            raise TypeError(f"nn.CentralCrop: image must be a Tensor, got "
                            f"{type(image).__name__}")
        if image.ndim not in (3, 4):
            raise ValueError(f"nn.CentralCrop: image must be 3-d or 4-d, got shape "
                             f"{image.shape}")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return image[..., top:h - top, left:w - left]
