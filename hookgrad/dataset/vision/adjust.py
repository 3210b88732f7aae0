"""Colour adjustments and filters (MindSpore's ``vision.AdjustBrightness`` ... ``Solarize``,
``GaussianBlur``, ``Grayscale`` and their random variants).

NumPy images follow MindSpore 2.10's C++ kernels (OpenCV underneath): uint8 results are the same
values, float results agree to float32 rounding. Transforms that MindSpore also runs through
Pillow (the Adjust* colour transforms, AutoContrast, Equalize, Invert, Grayscale) return PIL
images for PIL input, computed by Pillow as MindSpore does; the others take PIL images as arrays.
Random variants draw from ``row_generator()``, so ``ms.set_seed`` makes them repeat.
"""
import numbers

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

from ..engine import row_generator
from ..transforms import _checks
from . import _color, _enhance, _filter
from ._base import ImageTensorOperation, check_rgb, need_pil

__all__ = ['AdjustBrightness', 'AdjustContrast', 'AdjustSaturation', 'AdjustHue', 'AdjustGamma',
           'AdjustSharpness', 'AutoContrast', 'Equalize', 'Invert', 'Posterize', 'Solarize',
           'GaussianBlur', 'Grayscale', 'RandomAdjustSharpness', 'RandomAutoContrast',
           'RandomEqualize', 'RandomInvert', 'RandomPosterize', 'RandomSolarize',
           'RandomGrayscale', 'RandomColor', 'RandomSharpness']


def _factor(value, name, labelled=True):
    _checks.type_check(value, (float, int), name)
    _checks.in_range(value, 0, _checks.SIZE_MAX, name if labelled else '')
    return value


def _single(value):
    """``value`` rounded to float32, as MindSpore's kernels receive their factors (the blend
    weight 1 - factor is then computed from the rounded value)."""
    return float(np.float32(value))


def _check_gray_or_rgb(img, who):
    """RuntimeError unless ``img`` is (H, W), (H, W, 1) or (H, W, 3) (MindSpore's messages)."""
    if img.ndim not in (2, 3):
        raise RuntimeError(f"{who}: the dimension of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in dimension of (2, 3), "
                           f"in shape of <H, W> or <H, W, C>. But got dimension {img.ndim}.")
    if img.ndim == 3 and img.shape[2] not in (1, 3):
        raise RuntimeError(f"{who}: the channel of image tensor does not match the requirement "
                           f"of operator. Expecting tensor in channel of (1, 3). But got channel "
                           f"{img.shape[2]}.")


def _per_channel_uint8(img, who, fn):
    """``fn`` on ``img`` as (H, W, C) uint8 with C 1 or 3, reshaped back (AutoContrast and
    Equalize: OpenCV's histograms take 8-bit images only)."""
    if img.ndim not in (2, 3):
        raise RuntimeError(f"{who}: image rank should be 2 or 3,  but got: {img.ndim}")
    channels = 1 if img.ndim == 2 else img.shape[2]
    if channels not in (1, 3):
        raise RuntimeError(f"{who}: channel of input image should be 1 or 3, but got: "
                           f"{channels}")
    if img.dtype != np.uint8:
        raise RuntimeError(f"{who}: the data type of image tensor should be uint8, but got "
                           f"{img.dtype}")
    return fn(img.reshape(img.shape[:2] + (channels,))).reshape(img.shape)


def contrast(img, factor):
    """MindSpore's contrast adjustment of an RGB image: uint8 through its fixed-point blend
    with the float32-rounded factor, other dtypes in floating point. AdjustContrast and
    RandomColorAdjust share it."""
    if img.dtype == np.uint8:
        return _enhance.contrast(img, _single(factor))
    return _color.contrast(img, factor)


def saturation(img, factor):
    """MindSpore's saturation adjustment (AdjustSaturation, RandomColorAdjust), as
    ``contrast``."""
    if img.dtype == np.uint8:
        return _enhance.color(img, _single(factor))
    return _color.saturation(img, factor)


class AdjustBrightness(ImageTensorOperation):
    """Multiply the pixels by ``brightness_factor`` (>= 0; 0 black, 1 unchanged), saturating
    for integer images. Takes (H, W) or (H, W, 1 or 3) images, or PIL images (Pillow's
    ImageEnhance.Brightness)."""

    def __init__(self, brightness_factor):
        self.brightness_factor = _factor(brightness_factor, 'brightness_factor')

    def _apply(self, img):
        _check_gray_or_rgb(img, 'AdjustBrightness')
        return _color.brightness(img, self.brightness_factor)

    def _apply_pil(self, img):
        return ImageEnhance.Brightness(img).enhance(self.brightness_factor)


class AdjustContrast(ImageTensorOperation):
    """Blend an RGB image (H, W, 3) with its mean grey level: ``contrast_factor`` >= 0 (0 flat
    grey, 1 unchanged). PIL images go through ImageEnhance.Contrast."""

    def __init__(self, contrast_factor):
        self.contrast_factor = _factor(contrast_factor, 'contrast_factor')

    def _apply(self, img):
        check_rgb(img, 'AdjustContrast')
        return contrast(img, self.contrast_factor)

    def _apply_pil(self, img):
        return ImageEnhance.Contrast(img).enhance(self.contrast_factor)


class AdjustSaturation(ImageTensorOperation):
    """Blend an RGB image (H, W, 3) with its grey image: ``saturation_factor`` >= 0 (0 grey,
    1 unchanged). PIL images go through ImageEnhance.Color."""

    def __init__(self, saturation_factor):
        self.saturation_factor = _factor(saturation_factor, 'saturation_factor', False)

    def _apply(self, img):
        check_rgb(img, 'AdjustSaturation')
        return saturation(img, self.saturation_factor)

    def _apply_pil(self, img):
        return ImageEnhance.Color(img).enhance(self.saturation_factor)


class AdjustHue(ImageTensorOperation):
    """Shift the hue of a uint8 RGB image (H, W, 3) by ``hue_factor`` of a turn, in
    [-0.5, 0.5], through OpenCV's 8-bit HSV (PIL images: Pillow's HSV).

    Raises:
        RuntimeError: for images that are not uint8 (MindSpore's kernel reads them as bytes).
    """

    def __init__(self, hue_factor):
        _checks.type_check(hue_factor, (float, int), 'hue_factor')
        _checks.in_range(hue_factor, -0.5, 0.5, 'hue_factor')
        self.hue_factor = hue_factor

    def _apply(self, img):
        check_rgb(img, 'AdjustHue', uint8=True)
        return _color.hue(img, self.hue_factor)

    def _apply_pil(self, img):
        from .transforms import _pil_hue
        return _pil_hue(img, self.hue_factor)


class AdjustGamma(ImageTensorOperation):
    """Gamma correction ``255 * gain * (img / 255) ** gamma``: uint8 through MindSpore's
    truncating table, floats (taken as [0, 1]) as ``(img * gain) ** gamma`` clipped to [0, 1].
    Images (..., H, W, 1 or 3) or (H, W); PIL images through Pillow's ``point`` table.

    Args:
        gamma: a number >= 0. gain: the multiplier. Default 1.
    """

    def __init__(self, gamma, gain=1):
        _checks.type_check(gamma, (float, int), 'gamma')
        _checks.in_range(gamma, 0, _checks.SIZE_MAX)
        _checks.type_check(gain, (float, int), 'gain')
        _checks.in_range(gain, -_checks.SIZE_MAX, _checks.SIZE_MAX)
        self.gamma, self.gain = gamma, gain

    def _apply(self, img):
        if img.ndim < 2:
            raise RuntimeError(f"AdjustGamma: input tensor is not in shape of <...,H,W,C> or "
                               f"<H,W>, got shape:<{','.join(map(str, img.shape))}>")
        channels = 1 if img.ndim == 2 else img.shape[-1]
        if channels not in (1, 3):
            raise RuntimeError(f"AdjustGamma: channel of input image should be 1 or 3, but "
                               f"got: {channels}")
        return _enhance.gamma(img, self.gamma, self.gain)

    def _apply_pil(self, img):
        table = [int((255 + 1 - 1e-3) * self.gain * pow(x / 255., self.gamma))
                 for x in range(256)]
        bands = len(img.getbands())
        return img.point(table * 3) if bands == 3 else img.point(table) if bands == 1 else img


class AdjustSharpness(ImageTensorOperation):
    """Blend with the image smoothed by the kernel [[1,1,1],[1,5,1],[1,1,1]] / 13 (the border
    pixels stay): ``sharpness_factor`` >= 0 (0 smooth, 1 unchanged, 2 sharper)."""

    def __init__(self, sharpness_factor):
        self.sharpness_factor = _factor(sharpness_factor, 'sharpness_factor', False)

    def _apply(self, img):
        _check_gray_or_rgb(img, 'AdjustSharpness')
        return _enhance.sharpness(img, _single(self.sharpness_factor))


class AutoContrast(ImageTensorOperation):
    """Stretch each channel of a uint8 image to the full [0, 255] range.

    Args:
        cutoff: percent of pixels to drop at each end of the histogram, in [0, 50) (MindSpore
            uses its whole part). Default 0.
        ignore: a grey level or levels in [0, 255] left out of the histogram. Default None.
    """

    def __init__(self, cutoff=0.0, ignore=None):
        _checks.type_check(cutoff, (int, float), 'cutoff')
        _checks.in_range(cutoff, 0, 50, 'cutoff', right_open=True)
        if ignore is not None:
            _checks.type_check(ignore, (list, tuple, int), 'ignore')
        if isinstance(ignore, int):
            _checks.in_range(ignore, 0, 255, 'ignore')
            ignore = [ignore]
        for item in ignore or ():
            _checks.type_check(item, (int,), 'item')
            _checks.in_range(item, 0, 255, 'ignore')
        self.cutoff, self.ignore = cutoff, list(ignore or ())

    def _apply(self, img):
        return _per_channel_uint8(img, 'AutoContrast',
                                  lambda x: _enhance.auto_contrast(x, self.cutoff, self.ignore))

    def _apply_pil(self, img):
        return ImageOps.autocontrast(img, self.cutoff, self.ignore or None)


class Equalize(ImageTensorOperation):
    """Equalize the histogram of each channel of a uint8 image (OpenCV's equalizeHist; PIL
    images: ImageOps.equalize)."""

    def _apply(self, img):
        return _per_channel_uint8(img, 'Equalize', _enhance.equalize)

    def _apply_pil(self, img):
        return ImageOps.equalize(img)


class Invert(ImageTensorOperation):
    """``255 - img`` for an RGB image (H, W, 3), of any dtype (PIL: ImageOps.invert)."""

    def _apply(self, img):
        if img.ndim != 3:
            raise RuntimeError(f"Invert: input tensor is not in shape of <H,W,C>, but got rank: "
                               f"{img.ndim}")
        if img.shape[2] != 3:
            raise RuntimeError(f"Invert: the number of channels of input tensor is not 3, but "
                               f"got: {img.shape[2]}")
        return (np.asarray(255, img.dtype) - img).astype(img.dtype)

    def _apply_pil(self, img):
        return ImageOps.invert(img)


class Posterize(ImageTensorOperation):
    """Keep the ``bits`` (0 to 8) high bits of every value of a uint8 or int8 image."""

    def __init__(self, bits):
        _checks.type_check(bits, (int,), 'bits')
        _checks.in_range(bits, 0, 8, 'bits')
        self.bits = bits

    def _apply(self, img):
        if img.ndim not in (2, 3):
            raise RuntimeError(f"Posterize: input image is not in shape of <H,W,C> or <H,W>, "
                               f"but got rank: {img.ndim}")
        if img.dtype not in (np.uint8, np.int8):
            raise RuntimeError(f"Posterize: data type of input image should be int8 or uint8, "
                               f"but got {img.dtype}")
        return _enhance.posterize(img.view(np.uint8), self.bits).view(img.dtype)


def _threshold(value):
    _checks.type_check(value, (float, int, list, tuple), 'threshold')
    if isinstance(value, (float, int)):
        value = (value, value)
    for i, v in enumerate(value):
        _checks.type_check(v, (float, int), f'threshold[{i}]')
    if len(value) != 2:
        raise TypeError("threshold must be a single number or sequence of two numbers.")
    for i, v in enumerate(value):
        _checks.in_range(v, 0, 255, f'threshold[{i}]')
    if value[1] < value[0]:
        raise ValueError("threshold must be in order of (min, max).")
    return tuple(value)


def _solarize(img, low, high):
    """Invert (255 - x) the values in [low, high]; one threshold (low == high) means [low, 255]."""
    _check_gray_or_rgb(img, 'Solarize')
    if low == high:
        high = 255
    inside = (img >= low) & (img <= high)
    return np.where(inside, np.asarray(255, img.dtype) - img, img).astype(img.dtype)


class Solarize(ImageTensorOperation):
    """Invert the values at or above ``threshold``, or inside a (min, max) ``threshold``
    range, both in [0, 255]."""

    def __init__(self, threshold):
        self.threshold = _threshold(threshold)

    def _apply(self, img):
        return _solarize(img, *self.threshold)


class GaussianBlur(ImageTensorOperation):
    """Blur with a Gaussian kernel (reflect-101 borders, as OpenCV).

    Args:
        kernel_size: odd size(s) >= 1: an int, or (width, height).
        sigma: the standard deviation(s) >= 0: a number, or (sigma_x, sigma_y). Default None:
            0.3 ((kernel_width - 1) / 2 - 1) + 0.8 on both axes; a 0 entry of a pair takes that
            formula with its own axis's size.
    """

    def __init__(self, kernel_size, sigma=None):
        _checks.type_check(kernel_size, (int, list, tuple), 'kernel_size')
        if isinstance(kernel_size, int):
            sizes = [(kernel_size, 'kernel_size', 'kernel_size')]
        elif len(kernel_size) == 2:
            sizes = [(v, f'kernel_size[{i}]', 'kernel_size') for i, v in enumerate(kernel_size)]
        else:
            raise TypeError("Kernel size should be a single integer or a list/tuple "
                            "(kernel_width, kernel_height) of length 2.")
        for value, name, range_name in sizes:
            _checks.type_check(value, (int,), name)
            _checks.in_range(value, 1, _checks.SIZE_MAX, range_name)
            if value % 2 != 1:
                raise ValueError(f"Input {name} is not an odd value.")
        if sigma is not None:
            _checks.type_check(sigma, (numbers.Number, list, tuple), 'sigma')
            if isinstance(sigma, numbers.Number):
                _checks.in_range(sigma, 0, _checks.SIZE_MAX, 'sigma')
            elif len(sigma) == 2:
                for i, value in enumerate(sigma):
                    _checks.type_check(value, (numbers.Number,), f'size[{i}]')
                    _checks.in_range(value, 0, _checks.SIZE_MAX, 'sigma')
            else:
                raise TypeError("Sigma should be a single number or a list/tuple of length 2 "
                                "for width and height.")
        self.kernel_size, self.sigma = kernel_size, sigma

    def _sigmas(self, kx, ky):
        if self.sigma is None or isinstance(self.sigma, numbers.Number):
            sx = self.sigma if self.sigma else _filter.default_sigma(kx)
            return sx, sx
        sx, sy = self.sigma
        return (sx if sx > 0 else _filter.default_sigma(kx),
                sy if sy > 0 else _filter.default_sigma(ky))

    def _apply(self, img):
        if img.ndim not in (2, 3):
            raise RuntimeError(f"GaussianBlur: input tensor is not in shape of <H,W> or <H,W,C>, "
                               f"but got rank: {img.ndim}")
        if img.dtype not in (np.uint8, np.float32, np.float64):
            raise RuntimeError(f"GaussianBlur: the data type of image tensor should be uint8, "
                               f"float32 or float64, but got {img.dtype}")
        kx, ky = ((self.kernel_size,) * 2 if isinstance(self.kernel_size, int)
                  else tuple(self.kernel_size))
        return _filter.gaussian_blur(img, kx, ky, *self._sigmas(kx, ky))


class Grayscale(ImageTensorOperation):
    """A PIL image in grey (``num_output_channels`` 1: mode L; 3: three equal RGB channels),
    as Pillow's ``convert('L')``. NumPy images are refused, as in MindSpore."""

    def __init__(self, num_output_channels=1):
        _checks.type_check(num_output_channels, (int,), 'num_output_channels')
        if num_output_channels not in (1, 3):
            raise ValueError(f"Number of channels of the output grayscale imageshould be either "
                             f"1 or 3. Got {num_output_channels}.")
        self.num_output_channels = num_output_channels

    def _apply(self, img):
        need_pil(img)

    def _apply_pil(self, img):
        return _grayscale(img, self.num_output_channels)


def _grayscale(img, channels):
    grey = img.convert('L')
    if channels == 1:
        return grey
    return Image.merge('RGB', (grey, grey, grey))


class _RandomApply(ImageTensorOperation):
    """Applies ``self._op`` with probability ``prob``. A PIL image is taken as its array and an
    array is returned, applied or not, as MindSpore's C++ random transforms do."""

    def _chosen(self):
        return row_generator().random() < self.prob

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError("The op is OneToOne, can only accept one tensor as input.")
        img = inputs[0]
        if isinstance(img, Image.Image):
            img = np.asarray(img)
        return self._op(img) if self._chosen() else img


class RandomAdjustSharpness(_RandomApply):
    """``AdjustSharpness(degree)`` with probability ``prob`` (default 0.5)."""

    def __init__(self, degree, prob=0.5):
        _checks.type_check(degree, (float, int), 'degree')
        _checks.in_range(degree, 0, _checks.SIZE_MAX, 'degree')
        self.degree, self.prob = degree, _checks.prob(prob)
        self._op = AdjustSharpness(degree)


class RandomAutoContrast(_RandomApply):
    """``AutoContrast(cutoff, ignore)`` with probability ``prob`` (default 0.5)."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        self._op = AutoContrast(cutoff, ignore)
        self.cutoff, self.ignore, self.prob = cutoff, self._op.ignore, _checks.prob(prob)


class RandomEqualize(_RandomApply):
    """``Equalize()`` with probability ``prob`` (default 0.5)."""

    def __init__(self, prob=0.5):
        self.prob, self._op = _checks.prob(prob), Equalize()


class RandomInvert(_RandomApply):
    """``Invert()`` with probability ``prob`` (default 0.5)."""

    def __init__(self, prob=0.5):
        self.prob, self._op = _checks.prob(prob), Invert()


class RandomPosterize(ImageTensorOperation):
    """``Posterize`` with a bit count drawn uniformly from ``bits``: an int in [1, 8] or a
    (min, max) range in it. Default (8, 8) (no change)."""

    def __init__(self, bits=(8, 8)):
        _checks.type_check(bits, (list, tuple, int), 'bits')
        if isinstance(bits, int):
            _checks.in_range(bits, 1, 8)
            bits = (bits, bits)
        elif len(bits) != 2:
            raise TypeError("Size of bits should be a single integer or a list/tuple (min, max) "
                            "of length 2.")
        else:
            for item in bits:
                _checks.type_check(item, (int,), 'bits')
                _checks.in_range(item, 0, 255, 'bits')
            for item in bits:
                _checks.in_range(item, 1, 8)
            if bits[0] > bits[1]:
                raise ValueError(f"Input range is not valid: {bits[0]} > {bits[1]}.")
        self.bits = tuple(bits)

    def _apply(self, img):
        bits = int(row_generator().integers(self.bits[0], self.bits[1] + 1))
        return Posterize(bits)(img)


class RandomSolarize(ImageTensorOperation):
    """``Solarize`` with a range whose ends are drawn uniformly from ``threshold`` (ints
    (min, max) in [0, 255]; default (0, 255)) and put in order."""

    def __init__(self, threshold=(0, 255)):
        _checks.type_check(threshold, (tuple,), 'threshold')
        for i, v in enumerate(threshold):
            _checks.type_check(v, (int,), f'threshold[{i}]')
        if len(threshold) != 2:
            raise ValueError("threshold must be a sequence of two numbers.")
        for v in threshold:
            _checks.in_range(v, 0, 255)
        if threshold[1] < threshold[0]:
            raise ValueError("threshold must be in min max format numbers.")
        self.threshold = threshold

    def _apply(self, img):
        ends = row_generator().integers(self.threshold[0], self.threshold[1] + 1, size=2)
        return _solarize(img, int(ends.min()), int(ends.max()))


class RandomGrayscale(ImageTensorOperation):
    """A PIL image in grey with probability ``prob`` (default 0.1): mode L stays one channel,
    other modes become three equal RGB channels. NumPy images are refused, as in MindSpore."""

    def __init__(self, prob=0.1):
        self.prob = _checks.prob(prob)

    def _apply(self, img):
        need_pil(img)

    def _apply_pil(self, img):
        if row_generator().random() < self.prob:
            return _grayscale(img, 1 if img.mode == 'L' else 3)
        return img


def _degrees(degrees):
    if not isinstance(degrees, (list, tuple)):
        raise TypeError("degrees must be either a tuple or a list.")
    for i, v in enumerate(degrees):
        _checks.type_check(v, (int, float), f'degrees[{i}]')
    if len(degrees) != 2:
        raise ValueError("degrees must be a sequence with length 2.")
    for v in degrees:
        _checks.in_range(v, 0, _checks.SIZE_MAX)
    if degrees[0] > degrees[1]:
        raise ValueError("degrees should be in (min,max) format. Got (max,min).")
    return tuple(degrees)


class RandomColor(ImageTensorOperation):
    """Blend an RGB image with its grey image by a factor drawn uniformly from ``degrees``
    (default (0.1, 1.9); 0 grey, 1 unchanged). uint8 images blend as MindSpore's RandomColor
    (``addWeighted(image, t, grey, 1 - t)``); PIL images through ImageEnhance.Color."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _degrees(degrees)

    def _factor(self):
        return _single(row_generator().uniform(*self.degrees))

    def _apply(self, img):
        check_rgb(img, 'RandomColor')
        factor = self._factor()
        if img.dtype == np.uint8:
            grey = np.repeat(_enhance.gray(img)[..., None], 3, axis=2)
            return _enhance.add_weighted(img, factor, grey, 1.0 - factor)
        return _color.saturation(img, factor)

    def _apply_pil(self, img):
        return ImageEnhance.Color(img).enhance(self._factor())


class RandomSharpness(ImageTensorOperation):
    """``AdjustSharpness`` by a factor drawn uniformly from ``degrees`` (default (0.1, 1.9));
    PIL images through ImageEnhance.Sharpness."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _degrees(degrees)

    def _factor(self):
        return _single(row_generator().uniform(*self.degrees))

    def _apply(self, img):
        _check_gray_or_rgb(img, 'RandomSharpness')
        return _enhance.sharpness(img, self._factor())

    def _apply_pil(self, img):
        return ImageEnhance.Sharpness(img).enhance(self._factor())
