"""Geometric image transforms: padding, crops, random resized crop and rotation (part of
``mindspore.dataset.vision.transforms``)."""
import math
import numbers

import numpy as np
from PIL import Image

from ..engine import row_generator
from ..transforms import _checks
from . import _warp
from ._base import (_CV_MODES, _PIL_FILTERS, ImageTensorOperation, check_image, fill_for,
                    need_pil, pil_fill, resize_image)
from .utils import Border, Inter

_NP_PAD_MODES = {Border.EDGE: 'edge', Border.REFLECT: 'reflect',
                 Border.SYMMETRIC: 'symmetric'}


def pad_image(img, left, top, right, bottom, fill, mode):
    """``img`` padded on each side; CONSTANT uses ``fill`` (one value per channel)."""
    if mode != Border.CONSTANT:
        pad = ((top, bottom), (left, right)) + ((0, 0),) * (img.ndim - 2)
        return np.pad(img, pad, mode=_NP_PAD_MODES[mode])
    h, w = img.shape[:2]
    out = np.empty((h + top + bottom, w + left + right) + img.shape[2:], img.dtype)
    out[...] = fill_for(img, fill)
    out[top:top + h, left:left + w] = img
    return out


class Pad(ImageTensorOperation):
    """Pad the image's borders.

    Args:
        padding: an int (all sides), (left/right, top/bottom) or (left, top, right, bottom).
        fill_value: an int in [0, 255] or an (R, G, B) triple, for ``Border.CONSTANT``.
        padding_mode: a ``Border``. Default ``Border.CONSTANT``.
    """

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = _checks.padding(padding)
        self.fill_value = _checks.fill_value(fill_value)
        _checks.type_check(padding_mode, (Border,), 'padding_mode')
        self.padding_mode = padding_mode

    def _apply(self, img):
        check_image(img, 'Pad')
        return pad_image(img, *self.padding, self.fill_value, self.padding_mode)

    def _apply_pil(self, img):
        return Image.fromarray(self._apply(np.asarray(img)), img.mode)


class CenterCrop(ImageTensorOperation):
    """Crop the centre (size int or (h, w)); a crop larger than the image pads it with 0."""

    def __init__(self, size):
        self.size = _checks.size(size)

    def _apply(self, img):
        if img.ndim < 2:
            raise RuntimeError(f"CenterCrop: Input tensor should have at least 2 dimensions, "
                               f"but got: {img.ndim}")
        check_image(img, 'CenterCrop')
        ch, cw = self.size
        h, w = img.shape[:2]
        if ch > h or cw > w:
            dh, dw = max(ch - h, 0), max(cw - w, 0)
            img = pad_image(img, dw - dw // 2, dh - dh // 2, dw // 2, dh // 2, (0, 0, 0),
                            Border.CONSTANT)
            h, w = img.shape[:2]
        top, left = (h - ch) // 2, (w - cw) // 2
        return img[top:top + ch, left:left + cw]

    def _apply_pil(self, img):
        ch, cw = self.size
        top, left = int(round((img.height - ch) / 2.0)), int(round((img.width - cw) / 2.0))
        return img.crop((left, top, left + cw, top + ch))


class Crop(ImageTensorOperation):
    """Crop a (h, w) ``size`` region whose top-left corner is ``coordinates`` (top, left)."""

    def __init__(self, coordinates, size):
        _checks.type_check(coordinates, (list, tuple), 'coordinates')
        if len(coordinates) != 2:
            raise TypeError("Coordinates should be a list/tuple (y, x) of length 2.")
        for i, c in enumerate(coordinates):
            _checks.type_check(c, (int,), f'coordinates[{i}]')
            _checks.in_range(c, 0, _checks.INT32_MAX, f'coordinates[{i}]')
        self.coordinates, self.size = tuple(coordinates), _checks.size(size)

    def _apply(self, img):
        check_image(img, 'Crop')
        (top, left), (ch, cw) = self.coordinates, self.size
        if top + ch > img.shape[0]:
            raise RuntimeError(f"Crop: Crop height dimension: {top + ch} exceeds image height: "
                               f"{img.shape[0]}")
        if left + cw > img.shape[1]:
            raise RuntimeError(f"Crop: Crop width dimension: {left + cw} exceeds image width: "
                               f"{img.shape[1]}")
        return img[top:top + ch, left:left + cw]


class RandomCrop(ImageTensorOperation):
    """Crop a random (h, w) region, after optional padding.

    Args:
        size: an int or (h, w).
        padding: padding applied first (see ``Pad``). Default None.
        pad_if_needed: pad a side shorter than the crop by the difference on both ends.
        fill_value: an int or (R, G, B) for ``Border.CONSTANT``. Default 0.
        padding_mode: a ``Border``. Default ``Border.CONSTANT``.

    Raises:
        RuntimeError: when the (padded) image is smaller than the crop.
    """

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self.size = _checks.size(size)
        self.padding = None if padding is None else _checks.padding(padding)
        _checks.type_check(pad_if_needed, (bool,), 'pad_if_needed')
        self.pad_if_needed = pad_if_needed
        self.fill_value = _checks.fill_value(fill_value)
        _checks.type_check(padding_mode, (Border,), 'padding_mode')
        self.padding_mode = padding_mode

    def crop_plan(self, img, who='RandomCrop'):
        """(padded image, crop top, crop left), the crop drawn at random."""
        check_image(img, who)
        pad = lambda x, *sides: pad_image(x, *sides, self.fill_value, self.padding_mode)  # noqa
        if self.padding is not None:
            img = pad(img, *self.padding)
        ch, cw = self.size
        if self.pad_if_needed and img.shape[0] < ch:
            d = ch - img.shape[0]
            img = pad(img, 0, d, 0, d)
        if self.pad_if_needed and img.shape[1] < cw:
            d = cw - img.shape[1]
            img = pad(img, d, 0, d, 0)
        h, w = img.shape[:2]
        if ch > h or cw > w:
            raise RuntimeError(f"RandomCrop: invalid crop size, crop size is bigger than the "
                               f"image dimensions, got crop height: {ch}, crop width: {cw}")
        rng = row_generator()
        top, left = int(rng.integers(h - ch + 1)), int(rng.integers(w - cw + 1))
        return img, top, left

    def _apply(self, img):
        img, top, left = self.crop_plan(img)
        ch, cw = self.size
        return img[top:top + ch, left:left + cw]

    def _apply_pil(self, img):
        return Image.fromarray(self._apply(np.asarray(img)), img.mode)


def _interval(value, name, low, left_open=False):
    _checks.type_check(value, (tuple, list), name)
    if len(value) != 2:
        raise TypeError(f"{name} should be a list/tuple of length 2.")
    for i, v in enumerate(value):
        _checks.type_check(v, (numbers.Number,), name)
        _checks.in_range(v, low, _checks.SIZE_MAX, f'{name}[{i}]' if left_open else '',
                         left_open=left_open)
    if value[0] > value[1]:
        raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
    return tuple(value)


def _round(x):
    """C++'s std::round for x >= 0: halves away from zero."""
    return int(math.floor(x + 0.5))


class RandomResizedCrop(ImageTensorOperation):
    """Crop a random region of random area and aspect ratio, then resize it to ``size``.

    Up to ``max_attempts`` times, an area fraction is drawn from ``scale`` and an aspect ratio
    (width / height) log-uniformly from ``ratio``; the first region that fits is cropped at a
    random place. Otherwise the centre crop of the whole image, clamped to ``ratio``, is used.

    Args:
        size: output (h, w) or an int for a square.
        scale: (min, max) area fraction. Default (0.08, 1.0).
        ratio: (min, max) aspect ratio. Default (3/4, 4/3).
        interpolation: an ``Inter`` (see ``Resize``). Default ``Inter.LINEAR``.
        max_attempts: an int >= 1. Default 10.
    """

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.),
                 interpolation=Inter.LINEAR, max_attempts=10):
        self.size = _checks.size(size)
        self.scale = _interval(scale, 'scale', 0)
        self.ratio = _interval(ratio, 'ratio', 0, left_open=True)
        _checks.type_check(interpolation, (Inter,), 'interpolation')
        _checks.type_check(max_attempts, (int,), 'max_attempts')
        _checks.in_range(max_attempts, 1, _checks.INT32_MAX, 'max_attempts')
        self.interpolation, self.max_attempts = interpolation, max_attempts

    def crop_box(self, height, width):
        """(top, left, crop height, crop width) for an image of this size."""
        rng = row_generator()
        log_lo, log_hi = math.log(self.ratio[0]), math.log(self.ratio[1])
        for _ in range(self.max_attempts):
            area = rng.uniform(*self.scale)
            aspect = math.exp(rng.uniform(log_lo, log_hi))
            cw = _round(math.sqrt(height * width * area * aspect))
            ch = _round(cw / aspect)
            if 0 < cw <= width and 0 < ch <= height:
                return (int(rng.integers(height - ch + 1)), int(rng.integers(width - cw + 1)),
                        ch, cw)
        aspect = width / height
        if aspect < self.ratio[0]:
            cw, ch = width, _round(width / self.ratio[0])
        elif aspect > self.ratio[1]:
            ch, cw = height, _round(height * self.ratio[1])
        else:
            ch, cw = height, width
        ch, cw = max(ch, 1), max(cw, 1)
        return _round((height - ch) / 2.0), _round((width - cw) / 2.0), ch, cw

    def _apply(self, img):
        if self.interpolation == Inter.ANTIALIAS:
            need_pil(img)
        check_image(img, 'RandomResizedCrop')
        top, left, ch, cw = self.crop_box(*img.shape[:2])
        return resize_image(img[top:top + ch, left:left + cw], *self.size, self.interpolation,
                            'RandomResizedCrop')

    def _apply_pil(self, img):
        if self.interpolation not in _PIL_FILTERS:
            raise TypeError("Current Interpolation is not supported with PIL input.")
        top, left, ch, cw = self.crop_box(img.height, img.width)
        return img.resize(self.size[::-1], _PIL_FILTERS[self.interpolation],
                          box=(left, top, left + cw, top + ch))


def _rotation_args(resample, expand, center, fill_value):
    _checks.type_check(resample, (Inter,), 'resample')
    _checks.type_check(expand, (bool,), 'expand')
    if center is not None:
        _checks.type_check(center, (tuple, list), 'center')
        if len(center) != 2:
            raise ValueError("Value center needs to be a 2-tuple.")
        center = tuple(center)
    return resample, expand, center, _checks.fill_value(fill_value)


class Rotate(ImageTensorOperation):
    """Rotate the image by ``degrees`` counter-clockwise.

    Args:
        degrees: the angle in degrees.
        resample: NEAREST (default), LINEAR, CUBIC or AREA (same as LINEAR, as in MindSpore).
            NEAREST and uint8 LINEAR match MindSpore exactly; CUBIC within one grey level.
        expand: grow the output to hold the whole rotated image. Default False.
        center: (x, y) of the rotation centre; default the image centre.
        fill_value: an int or (R, G, B) for the uncovered pixels. For NumPy images MindSpore
            (OpenCV) takes a triple in B, G, R order; hookgrad does the same, so that results
            match; a one-channel image uses its last entry.
    """

    _who = 'Rotate'

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        _checks.type_check(degrees, (numbers.Number,), 'degrees')
        self.degrees = degrees
        self.resample, self.expand, self.center, self.fill_value = _rotation_args(
            resample, expand, center, fill_value)

    def _angle(self):
        return self.degrees

    def _apply(self, img):
        if self.resample == Inter.ANTIALIAS:
            need_pil(img)
        if self.resample == Inter.PILCUBIC:
            raise RuntimeError(f"{type(self).__name__}: Invalid InterpolationMode, check input "
                               f"value of enum.")
        if img.ndim not in (2, 3):
            raise RuntimeError(f"Rotate: input tensor is not in shape of <H,W> or <H,W,C>, but "
                               f"got rank: {img.ndim}. You may need to perform Decode first.")
        h, w = img.shape[:2]
        m, out_h, out_w = _warp.rotation_matrix(self._angle(), self.center, h, w, self.expand)
        mode = 'linear' if self.resample == Inter.AREA else _CV_MODES[self.resample]
        fill = fill_for(img, self.fill_value[::-1])
        return _warp.warp_affine(img, m, out_h, out_w, mode, fill)


class RandomRotation(Rotate):
    """Rotate the image by an angle drawn uniformly from ``degrees``.

    Args:
        degrees: (min, max), or a number d >= 0 meaning (-d, d).
        resample, expand, center, fill_value: as for ``Rotate``. PIL images are rotated by
            Pillow (``Image.rotate``), as in MindSpore, with ``fill_value`` in R, G, B order.
    """

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        _checks.type_check(degrees, (numbers.Number, list, tuple), 'degrees')
        if isinstance(degrees, numbers.Number):
            _checks.in_range(degrees, 0, _checks.SIZE_MAX, 'degrees')
            degrees = (-degrees, degrees)
        elif len(degrees) != 2:
            raise TypeError("If degrees is a sequence, the length must be 2.")
        elif degrees[0] > degrees[1]:
            raise ValueError("degrees should be in (min,max) format. Got (max,min).")
        self.degrees = tuple(degrees)
        self.resample, self.expand, self.center, self.fill_value = _rotation_args(
            resample, expand, center, fill_value)

    def _angle(self):
        return float(row_generator().uniform(*self.degrees))

    def _apply_pil(self, img):
        if self.resample not in _PIL_FILTERS or self.resample == Inter.ANTIALIAS:
            raise TypeError("Current Interpolation is not supported with PIL input.")
        return img.rotate(self._angle(), _PIL_FILTERS[self.resample], self.expand, self.center,
                          fillcolor=pil_fill(img, self.fill_value))
