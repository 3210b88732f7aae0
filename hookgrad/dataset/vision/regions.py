"""Region transforms and colour-space conversions (MindSpore's ``vision.PadToSize``,
``NormalizePad``, ``Erase``, ``CutOut``, ``RandomErasing``, ``FiveCrop``, ``TenCrop``,
``RgbToHsv``, ``HsvToRgb``).

Values follow MindSpore 2.10 (its C++ kernels for the first four, its Python code for the
rest); random positions and sizes come from ``row_generator()``, so ``ms.set_seed`` makes them
repeat.
"""
import math
import numbers

import numpy as np
from PIL import Image

from ...kernels import color as _color
from ..engine import row_generator
from ..transforms import _checks
from ..transforms.transforms import PyTensorOperation
from ._base import ImageTensorOperation, need_pil
from ._geometry import CenterCrop, pad_image
from .transforms import Normalize
from .utils import Border

__all__ = ['PadToSize', 'NormalizePad', 'Erase', 'CutOut', 'RandomErasing', 'FiveCrop',
           'TenCrop', 'RgbToHsv', 'HsvToRgb']


class PadToSize(ImageTensorOperation):
    """Pad an image (H, W) or (H, W, C) to ``size``.

    Args:
        size: the output (height, width), or an int for a square; not smaller than the image.
        offset: the padding on top and left, an int for both or (top, left). Default None:
            centred, the odd pixel at the bottom / right.
        fill_value: an int or (R, G, B) in [0, 255] for ``Border.CONSTANT``. Default 0.
        padding_mode: a ``Border``. Default ``Border.CONSTANT``.
    """

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        _checks.type_check(size, (int, list, tuple), 'size')
        if isinstance(size, int):
            size = (_checks.int32(size, 'size', 1),) * 2
        elif len(size) != 2:
            raise ValueError("The size must be a sequence of length 2.")
        else:
            size = tuple(_checks.int32(v, f'size{i}', 1) for i, v in enumerate(size))
        if offset is not None:
            _checks.type_check(offset, (int, list, tuple), 'offset')
            if isinstance(offset, int):
                offset = (_checks.int32(offset, 'offset', 0),) * 2
            elif len(offset) not in (0, 2):
                raise ValueError("The offset must be empty or a sequence of length 2.")
            else:
                offset = tuple(_checks.int32(v, f'offset{i}', 0) for i, v in enumerate(offset)) or None
        self.size, self.offset = size, offset
        self.fill_value = _checks.fill_value(fill_value)
        _checks.type_check(padding_mode, (Border,), 'padding_mode')
        self.padding_mode = padding_mode

    def _apply(self, img):
        if img.ndim not in (2, 3):
            raise RuntimeError(f"PadToSize: input tensor is not in shape of <H,W> or <H,W,C>, "
                               f"but got rank: {img.ndim}")
        h, w = img.shape[:2]
        (th, tw), offset = self.size, self.offset
        if th < h or tw < w:
            raise RuntimeError(f"PadToSize: the target size to pad should be no less than the "
                               f"original image size, but got target size [{th}, {tw}] and "
                               f"original size [{h}, {w}].")
        top, left = offset if offset else ((th - h) // 2, (tw - w) // 2)
        if top + h > th or left + w > tw:
            raise RuntimeError(f"PadToSize: the sum of offset and original image size should be "
                               f"no more than the target size to pad, but got offset [{top}, "
                               f"{left}] plus original size [{h}, {w}] bigger than target size "
                               f"[{th}, {tw}].")
        return pad_image(img, left, top, tw - w - left, th - h - top, self.fill_value,
                         self.padding_mode)


class NormalizePad(Normalize):
    """``(img - mean) / std`` per channel with one more channel of zeros after the last (as the
    documentation of MindSpore's NormalizePad describes; MindSpore 2.10's CPU kernel writes the
    HWC result with the normalised values in their plain order followed by the zeros, which
    does not keep pixels together).

    Args:
        mean, std: as ``Normalize``.
        dtype: 'float32' (default) or 'float16', the result's type.
        is_hwc: channels last (True, default) or first.
    """

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        super().__init__(mean, std, is_hwc)
        if not isinstance(dtype, str):
            raise TypeError("dtype should be string.")
        if dtype not in ("float32", "float16"):
            raise ValueError("dtype only supports float32 or float16.")
        self.dtype = dtype

    def _apply(self, img):
        if img.ndim not in (2, 3):
            raise RuntimeError(f"NormalizePad: input tensor is not in shape of <H,W,C> or "
                               f"<C,H,W>, but got rank: {img.ndim}")
        out = super()._apply(img)
        if out.ndim == 2:
            out = out[..., None]
        axis = -1 if self.is_hwc or img.ndim == 2 else 0
        zeros = np.zeros_like(np.take(out, [0], axis=axis))
        return np.concatenate([out, zeros], axis=axis).astype(self.dtype)


def _fill(img, value):
    """``value`` (one number or per channel) in ``img``'s dtype (rounded for integers)."""
    value = np.asarray(value, np.float64)
    if img.dtype.kind in 'iu':
        info = np.iinfo(img.dtype)
        value = np.clip(np.rint(value), info.min, info.max)
    if img.ndim == 2 or value.size == 1:
        return value.ravel()[0].astype(img.dtype)
    return value.astype(img.dtype)


class Erase(ImageTensorOperation):
    """Set the (top, left, height, width) region of an (H, W, C) image to ``value``.

    Args:
        top, left: the region's corner, ints >= 0. height, width: its size, ints >= 1, no
            larger than the image's (the region is clipped at the image's edge).
        value: a number or (R, G, B) in [0, 255] (rounded for integer images). Default 0.
        inplace: write into the input array. Default False.
    """

    def __init__(self, top, left, height, width, value=0.0, inplace=False):
        self.top, self.left = _checks.int32(top, 'top', 0), _checks.int32(left, 'left', 0)
        self.height, self.width = _checks.int32(height, 'height', 1), _checks.int32(width, 'width', 1)
        _checks.type_check(inplace, (bool,), 'inplace')
        _checks.type_check(value, (float, int, tuple), 'value')
        values = (value,) * 3 if isinstance(value, (float, int)) else value
        for i, v in enumerate(values):
            _checks.type_check(v, (float, int), f'value[{i}]')
        if len(values) != 3:
            raise TypeError("value should be a single integer/float or a 3-tuple.")
        for i, v in enumerate(values):
            _checks.in_range(v, 0, 255, f'value[{i}]')
        self.value = (value,) if isinstance(value, (float, int)) else tuple(value)
        self.inplace = inplace

    def _apply(self, img):
        if img.ndim != 3:
            raise RuntimeError(f"Erase: input tensor is not in shape of <H,W,C>, but got rank: "
                               f"{img.ndim}")
        h, w = img.shape[:2]
        if self.height > h or self.width > w:
            raise RuntimeError(f"Erase: box size is too large for image erase, got box height: "
                               f"{self.height}box weight: {self.width}, and image height: {h}, "
                               f"image width: {w}")
        out = img if self.inplace else img.copy()
        value = self.value * 3 if len(self.value) == 1 else self.value
        out[self.top:self.top + self.height, self.left:self.left + self.width] = \
            _fill(out, value[:out.shape[2]] if out.shape[2] <= 3 else value[0])
        return out


class CutOut(ImageTensorOperation):
    """Zero ``num_patches`` random ``length`` x ``length`` squares of an image (H, W, C) (or
    (C, H, W) with ``is_hwc=False``). Each square's corner is drawn uniformly from
    [-length, size] on each axis, and the square is clipped to the image, as in MindSpore.
    """

    def __init__(self, length, num_patches=1, is_hwc=True):
        _checks.type_check(length, (int,), 'length')
        _checks.type_check(num_patches, (int,), 'num_patches')
        _checks.type_check(is_hwc, (bool,), 'is_hwc')
        _checks.in_range(length, 1, _checks.SIZE_MAX)
        _checks.in_range(num_patches, 1, _checks.SIZE_MAX)
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc

    def _apply(self, img):
        layout = '<H,W,C>' if self.is_hwc else '<C,H,W>'
        if img.ndim != 3:
            raise RuntimeError(f"CutOut: image shape is not {layout}, but got rank: {img.ndim}")
        h, w = img.shape[:2] if self.is_hwc else img.shape[1:]
        n = self.length
        if n > h or n > w:
            raise RuntimeError(f"CutOut: box size is too large for image erase, got box height: "
                               f"{n}box weight: {n}, and image height: {h}, image width: {w}")
        out = img.copy()
        view = out if self.is_hwc else np.moveaxis(out, 0, -1)
        rng = row_generator()
        for _ in range(self.num_patches):
            top = int(rng.integers(0, h + n + 1)) - n
            left = int(rng.integers(0, w + n + 1)) - n
            view[max(top, 0):top + n, max(left, 0):left + n] = 0
        return out


def _range(value, name):
    for i, v in enumerate(value if isinstance(value, (list, tuple)) else ()):
        _checks.type_check(v, (float, int), f'{name}[{i}]')
    _checks.type_check(value, (list, tuple), name)
    if len(value) != 2:
        raise TypeError(f"{name} should be a list or tuple of length 2.")
    if value[0] > value[1]:
        raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
    return tuple(value)


class RandomErasing(PyTensorOperation):
    """Erase a random rectangle of a (C, H, W) image with probability ``prob`` (Zhong et al.).

    Up to ``max_attempts`` times, an area fraction is drawn from ``scale`` and an aspect ratio
    from ``ratio``; the first rectangle strictly smaller than the image is placed at random and
    filled. If none fits, the image is returned as it is.

    Args:
        prob: probability of erasing. Default 0.5.
        scale: (min, max) area fraction. Default (0.02, 0.33).
        ratio: (min, max) aspect ratio (width / height). Default (0.3, 3.3).
        value: an int in [0, 255], an (R, G, B) triple of them, or 'random' (standard normal
            values). Default 0.
        inplace: write into the input array. Default False.
        max_attempts: an int >= 1. Default 10.
    """

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 max_attempts=10):
        _checks.type_check(prob, (float, int), 'prob')
        self.scale, self.ratio = _range(scale, 'scale'), _range(ratio, 'ratio')
        _checks.type_check(value, (int, list, tuple, str), 'value')
        _checks.type_check(inplace, (bool,), 'inplace')
        _checks.type_check(max_attempts, (int,), 'max_attempts')
        if not (isinstance(value, numbers.Number) or value == 'random' or
                (isinstance(value, (list, tuple)) and len(value) == 3)):
            raise ValueError("The value for erasing should be either a single value, or a string "
                             "'random', or a sequence of 3 elements for RGB respectively.")
        _checks.in_range(prob, 0.0, 1.0, 'prob')
        for v in self.scale:
            _checks.in_range(v, 0, _checks.SIZE_MAX)
        if self.scale[1] <= 0:
            raise ValueError("Input scale[1] must be greater than 0.")
        for v in self.ratio:
            _checks.in_range(v, 0, _checks.SIZE_MAX, left_open=True)
        if isinstance(value, int):
            _checks.in_range(value, 0, 255)
        if isinstance(value, (list, tuple)):
            for item in value:
                _checks.type_check(item, (int,), 'value')
                _checks.in_range(item, 0, 255, 'value')
        _checks.in_range(max_attempts, 1, _checks.SIZE_MAX)
        self.prob, self.value, self.inplace, self.max_attempts = prob, value, inplace, max_attempts

    def _box(self, rng, height, width):
        area = height * width
        for _ in range(self.max_attempts):
            erase_area = rng.uniform(*self.scale) * area
            aspect = rng.uniform(*self.ratio)
            w = int(round(math.sqrt(erase_area * aspect)))
            h = int(round(w / aspect))
            if h < height and w < width:
                top = int(rng.integers(0, height - h + 1))
                return top, int(rng.integers(0, width - w + 1)), h, w
        return None

    def __call__(self, img):
        if not isinstance(img, np.ndarray):
            raise TypeError(f"img should be NumPy array. Got {type(img)}.")
        rng = row_generator()
        if not self.prob > rng.random():
            return img
        channels, height, width = img.shape
        box = self._box(rng, height, width)
        if box is None:
            return img
        top, left, h, w = box
        if self.value == 'random':
            fill = rng.standard_normal((channels, h, w))
        elif isinstance(self.value, (list, tuple)):
            fill = np.asarray(self.value, np.float64)[:, None, None]
        else:
            fill = self.value
        out = img if self.inplace else img.copy()
        out[:, top:top + h, left:left + w] = fill
        return out


class FiveCrop(PyTensorOperation):
    """The four corner crops and the centre crop of a PIL image, as a tuple (top left, top
    right, bottom left, bottom right, centre).

    Args:
        size: an int or (height, width), no larger than the image.
    """

    def __init__(self, size):
        self.size = _checks.size(size)

    def __call__(self, img):
        if not isinstance(img, Image.Image):
            need_pil(img)
        (ch, cw), (w, h) = self.size, img.size
        if ch > h or cw > w:
            raise ValueError(f"Crop size {self.size} is larger than input image size {(h, w)}.")
        return (img.crop((0, 0, cw, ch)), img.crop((w - cw, 0, w, ch)),
                img.crop((0, h - ch, cw, h)), img.crop((w - cw, h - ch, w, h)),
                CenterCrop(self.size)(img))


class TenCrop(FiveCrop):
    """``FiveCrop`` of a PIL image and of its mirror image (left-right, or top-bottom with
    ``use_vertical_flip=True``): a tuple of 10 crops."""

    def __init__(self, size, use_vertical_flip=False):
        super().__init__(size)
        _checks.type_check(use_vertical_flip, (bool,), 'use_vertical_flip')
        self.use_vertical_flip = use_vertical_flip

    def __call__(self, img):
        first = super().__call__(img)
        flip = Image.FLIP_TOP_BOTTOM if self.use_vertical_flip else Image.FLIP_LEFT_RIGHT
        return first + super().__call__(img.transpose(flip))


def _channels_last(imgs, is_hwc, who):
    if not isinstance(imgs, np.ndarray):
        raise TypeError(f"img should be NumPy image. Got {type(imgs)}.")
    _checks.type_check(is_hwc, (bool,), 'is_hwc')
    if imgs.ndim not in (3, 4):
        raise TypeError(f"img shape should be (H, W, C)/(N, H, W, C)/(C, H, W)/(N, C, H, W). "
                        f"Got {imgs.shape}.")
    x = imgs if is_hwc else np.moveaxis(imgs, imgs.ndim - 3, -1)
    if x.shape[-1] != 3:
        raise TypeError(f"img should be 3 channels RGB img. Got {x.shape[-1]} channels.")
    return x.astype(np.float64)


def _restore(x, is_hwc):
    return x if is_hwc else np.moveaxis(x, -1, x.ndim - 3)


class RgbToHsv(PyTensorOperation):
    """RGB images (H, W, 3), (3, H, W) or batches of them to HSV, as float64 with Python's
    ``colorsys``: hue and saturation in [0, 1], value in the input's scale.

    Args:
        is_hwc: channels last (True) or first (False, default).
    """

    def __init__(self, is_hwc=False):
        _checks.type_check(is_hwc, (bool,), 'is_hwc')
        self.is_hwc = is_hwc

    def __call__(self, rgb_imgs):
        x = _channels_last(rgb_imgs, self.is_hwc, 'RgbToHsv')
        return _restore(_color.rgb_to_hsv(x), self.is_hwc)


class HsvToRgb(PyTensorOperation):
    """HSV images (H, W, 3), (3, H, W) or batches of them (hue and saturation in [0, 1]) to RGB,
    as float64 with Python's ``colorsys``.

    Args:
        is_hwc: channels last (True) or first (False, default).
    """

    def __init__(self, is_hwc=False):
        _checks.type_check(is_hwc, (bool,), 'is_hwc')
        self.is_hwc = is_hwc

    def __call__(self, hsv_imgs):
        x = _channels_last(hsv_imgs, self.is_hwc, 'HsvToRgb')
        return _restore(_color.hsv_to_rgb(x), self.is_hwc)
