"""Affine warps (MindSpore's ``vision.Affine`` and ``vision.RandomAffine``).

The matrix is MindSpore's (rotation, scale and shears about the image centre, then a shift, in
float32), applied through ``_warp.warp_affine`` (OpenCV's warpAffine with its fixed-point
coordinates), so NEAREST and uint8 BILINEAR results are MindSpore's values; AREA is BILINEAR,
as in MindSpore. Uncovered pixels take ``fill_value`` (R, G, B).
"""
import math
import numbers

import numpy as np

from ..engine import row_generator
from ..transforms import _checks
from . import _enhance, _warp
from ._base import _CV_MODES, ImageTensorOperation, check_image, fill_for, need_pil
from .utils import Inter

__all__ = ['Affine', 'RandomAffine']


def _radians(degrees):
    """Degrees to radians as MindSpore's DegreesToRadians does (kept as float32)."""
    return float(np.float32(math.pi * float(np.float32(degrees)) / 180.0))


def _resample_mode(resample):
    if resample == Inter.ANTIALIAS:
        raise TypeError("Current Interpolation is not supported with NumPy input.")
    if resample not in _CV_MODES:
        raise RuntimeError("Affine: Invalid InterpolationMode, check input value of enum.")
    return 'linear' if resample == Inter.AREA else _CV_MODES[resample]


def warp(img, degrees, tx, ty, scale, shear_x, shear_y, resample, fill_value):
    """``img`` (H, W[, C]) under MindSpore's affine matrix; shifts in pixels, angles in
    degrees."""
    check_image(img, 'Affine')
    h, w = img.shape[:2]
    mode = _resample_mode(resample)
    matrix = _enhance.affine_matrix(h, w, degrees, tx, ty, scale, _radians(shear_x),
                                    _radians(shear_y))
    return _warp.warp_affine(img, np.asarray(matrix, np.float64), h, w, mode,
                             fill_for(img, fill_value))


class Affine(ImageTensorOperation):
    """Rotate, shift, scale and shear an image about its centre.

    Args:
        degrees: rotation in [-180, 180] degrees, clockwise.
        translate: (x, y) shifts in [-1, 1], fractions of the width and height.
        scale: the scaling factor, > 0.
        shear: degrees in [-180, 180] along x, or (x, y).
        resample: an ``Inter``. Default NEAREST.
        fill_value: an int or (R, G, B) in [0, 255] for uncovered pixels. Default 0.
    """

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        _checks.type_check(degrees, (int, float), 'degrees')
        _checks.in_range(degrees, -180, 180, 'degrees')
        _checks.type_check(translate, (list, tuple), 'translate')
        if len(translate) != 2:
            raise TypeError("The length of translate should be 2.")
        for i, t in enumerate(translate):
            _checks.type_check(t, (int, float), f'translate[{i}]')
            _checks.in_range(t, -1.0, 1.0, f'translate[{i}]')
        _checks.type_check(scale, (int, float), 'scale')
        if scale <= 0:
            raise ValueError("Input scale must be greater than 0.")
        _checks.type_check(shear, (numbers.Number, tuple, list), 'shear')
        if isinstance(shear, (list, tuple)):
            if len(shear) != 2:
                raise TypeError("The length of shear should be 2.")
            for i, value in enumerate(shear):
                _checks.type_check(value, (int, float), f'shear[{i}]')
                _checks.in_range(value, -180, 180, f'shear[{i}]')
        else:
            _checks.in_range(shear, -180, 180, 'shear')
            shear = (shear, 0.0)
        _checks.type_check(resample, (Inter,), 'resample')
        self.degrees, self.translate, self.scale_ = degrees, tuple(translate), scale
        self.shear, self.resample = tuple(shear), resample
        self.fill_value = _checks.fill_value(fill_value)

    def _apply(self, img):
        check_image(img, 'Affine')
        h, w = img.shape[:2]
        tx, ty = (float(np.float32(t) * np.float32(n)) for t, n in zip(self.translate, (w, h)))
        return warp(img, self.degrees, tx, ty, self.scale_, *self.shear, self.resample,
                    self.fill_value)


def _sequence(value, name):
    _checks.type_check(value, (list, tuple), name)
    for i, v in enumerate(value):
        _checks.type_check(v, (int, float), f'{name}[{i}]')


class RandomAffine(ImageTensorOperation):
    """``Affine`` with parameters drawn uniformly from ranges.

    Args:
        degrees: (min, max), or d >= 0 meaning (-d, d).
        translate: (min_x, max_x) or (min_x, max_x, min_y, max_y), fractions of the width and
            height in [-1, 1]. Default None: no shift.
        scale: (min, max) scaling factors. Default None: 1.
        shear: s > 0 meaning x shear in (-s, s); (min_x, max_x); or (min_x, max_x, min_y,
            max_y), in degrees. Default None: no shear.
        resample, fill_value: as ``Affine``.
    """

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
                 fill_value=0):
        _checks.type_check(degrees, (int, float, list, tuple), 'degrees')
        if isinstance(degrees, (int, float)):
            _checks.in_range(degrees, 0, _checks.SIZE_MAX, 'degrees')
            degrees = (-degrees, degrees)
        elif len(degrees) != 2:
            raise TypeError("If degrees is a sequence, the length must be 2.")
        else:
            _sequence(degrees, 'degrees')
            if degrees[0] > degrees[1]:
                raise ValueError("degrees should be in (min,max) format. Got (max,min).")
        if translate is not None:
            _sequence(translate, 'translate')
            if len(translate) not in (2, 4):
                raise TypeError("translate should be a list or tuple of length 2 or 4.")
            for i, t in enumerate(translate):
                _checks.in_range(t, -1.0, 1.0, f'translate at {i}')
            for axis, (low, high) in zip('xy', (translate[:2], translate[2:4])):
                if low > high:
                    raise RuntimeError(f"RandomAffine: minimum of translate range on {axis} is "
                                       f"greater than maximum: min = {low:.6f}, max = "
                                       f"{high:.6f}")
        if scale is not None:
            _sequence(scale, 'scale')
            if len(scale) != 2:
                raise TypeError("scale should be a list or tuple of length 2.")
            if scale[0] > scale[1]:
                raise ValueError("Input scale[1] must be equal to or greater than scale[0].")
            for v in scale:
                _checks.in_range(v, 0, _checks.SIZE_MAX)
            if scale[1] <= 0:
                raise ValueError("Input scale[1] must be greater than 0.")
        if shear is not None:
            _checks.type_check(shear, (numbers.Number, tuple, list), 'shear')
            if isinstance(shear, numbers.Number):
                if shear <= 0:
                    raise ValueError("Input shear must be greater than 0.")
                shear = (-shear, shear)
            else:
                _sequence(shear, 'shear')
                if len(shear) not in (2, 4):
                    raise TypeError("shear must be of length 2 or 4.")
                if len(shear) == 2 and shear[0] > shear[1]:
                    raise ValueError("Input shear[1] must be equal to or greater than shear[0]")
                if len(shear) == 4 and (shear[0] > shear[1] or shear[2] > shear[3]):
                    raise ValueError("Input shear[1] must be equal to or greater than shear[0] "
                                     "and shear[3] must be equal to or greater than shear[2].")
        _checks.type_check(resample, (Inter,), 'resample')
        self.degrees = tuple(degrees)
        self.translate = tuple(translate or (0.0, 0.0)) + (0.0, 0.0)
        self.translate = self.translate[:4]
        self.scale = tuple(scale or (1.0, 1.0))
        self.shear = (tuple(shear or (0.0, 0.0)) + (0.0, 0.0))[:4]
        self.resample = resample
        self.fill_value = _checks.fill_value(fill_value)

    def _apply(self, img):
        if self.resample == Inter.ANTIALIAS:
            need_pil(img)
        check_image(img, 'RandomAffine')
        h, w = img.shape[:2]
        rng = row_generator()
        degrees = rng.uniform(*self.degrees)
        tx = rng.uniform(self.translate[0] * w, self.translate[1] * w)
        ty = rng.uniform(self.translate[2] * h, self.translate[3] * h)
        scale = rng.uniform(*self.scale)
        shear_x, shear_y = rng.uniform(*self.shear[:2]), rng.uniform(*self.shear[2:])
        return warp(img, degrees, tx, ty, scale, shear_x, shear_y, self.resample,
                    self.fill_value)
