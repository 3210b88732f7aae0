"""Automatic augmentation and the decode-crop-resize transform (MindSpore's
``vision.AutoAugment``, ``RandAugment``, ``TrivialAugmentWide`` and ``RandomCropDecodeResize``).

The augmentations take uint8 RGB images (H, W, 3) and follow the published algorithms as
MindSpore implements them: AutoAugment's learned policies (ImageNet, CIFAR-10, SVHN: 25
sub-policies of two operations, each applied with its probability at one of 10 magnitudes),
RandAugment (``num_ops`` operations drawn uniformly, at magnitude ``magnitude`` of
``num_magnitude_bins``), TrivialAugmentWide (one operation at a random magnitude). Signed
magnitudes (shear, translate, rotate, the enhancement factors) take a random sign. Draws come
from ``row_generator()``, so ``ms.set_seed`` makes them repeat; they are not MindSpore's draws.
"""
import numpy as np

from ..engine import row_generator
from ..transforms import _checks
from . import _enhance
from ._base import _CV_MODES, ImageTensorOperation, check_rgb
from ._geometry import RandomResizedCrop
from .transforms import Decode
from .utils import AutoAugmentPolicy, Inter

__all__ = ['AutoAugment', 'RandAugment', 'TrivialAugmentWide', 'RandomCropDecodeResize']

POLICIES = {     # (operation, probability, magnitude bin or None) pairs
    AutoAugmentPolicy.IMAGENET: (
        (('Posterize', 0.4, 8), ('Rotate', 0.6, 9)),
        (('Solarize', 0.6, 5), ('AutoContrast', 0.6, None)),
        (('Equalize', 0.8, None), ('Equalize', 0.6, None)),
        (('Posterize', 0.6, 7), ('Posterize', 0.6, 6)),
        (('Equalize', 0.4, None), ('Solarize', 0.2, 4)),
        (('Equalize', 0.4, None), ('Rotate', 0.8, 8)),
        (('Solarize', 0.6, 3), ('Equalize', 0.6, None)),
        (('Posterize', 0.8, 5), ('Equalize', 1.0, None)),
        (('Rotate', 0.2, 3), ('Solarize', 0.6, 8)),
        (('Equalize', 0.6, None), ('Posterize', 0.4, 6)),
        (('Rotate', 0.8, 8), ('Color', 0.4, 0)),
        (('Rotate', 0.4, 9), ('Equalize', 0.6, None)),
        (('Equalize', 0.0, None), ('Equalize', 0.8, None)),
        (('Invert', 0.6, None), ('Equalize', 1.0, None)),
        (('Color', 0.6, 4), ('Contrast', 1.0, 8)),
        (('Rotate', 0.8, 8), ('Color', 1.0, 2)),
        (('Color', 0.8, 8), ('Solarize', 0.8, 7)),
        (('Sharpness', 0.4, 7), ('Invert', 0.6, None)),
        (('ShearX', 0.6, 5), ('Equalize', 1.0, None)),
        (('Color', 0.4, 0), ('Equalize', 0.6, None)),
        (('Equalize', 0.4, None), ('Solarize', 0.2, 4)),
        (('Solarize', 0.6, 5), ('AutoContrast', 0.6, None)),
        (('Invert', 0.6, None), ('Equalize', 1.0, None)),
        (('Color', 0.6, 4), ('Contrast', 1.0, 8)),
        (('Equalize', 0.8, None), ('Equalize', 0.6, None)),
    ),
    AutoAugmentPolicy.CIFAR10: (
        (('Invert', 0.1, None), ('Contrast', 0.2, 6)),
        (('Rotate', 0.7, 2), ('TranslateX', 0.3, 9)),
        (('Sharpness', 0.8, 1), ('Sharpness', 0.9, 3)),
        (('ShearY', 0.5, 8), ('TranslateY', 0.7, 9)),
        (('AutoContrast', 0.5, None), ('Equalize', 0.9, None)),
        (('ShearY', 0.2, 7), ('Posterize', 0.3, 7)),
        (('Color', 0.4, 3), ('Brightness', 0.6, 7)),
        (('Sharpness', 0.3, 9), ('Brightness', 0.7, 9)),
        (('Equalize', 0.6, None), ('Equalize', 0.5, None)),
        (('Contrast', 0.6, 7), ('Sharpness', 0.6, 5)),
        (('Color', 0.7, 7), ('TranslateX', 0.5, 8)),
        (('Equalize', 0.3, None), ('AutoContrast', 0.4, None)),
        (('TranslateY', 0.4, 3), ('Sharpness', 0.2, 6)),
        (('Brightness', 0.9, 6), ('Color', 0.2, 8)),
        (('Solarize', 0.5, 2), ('Invert', 0.0, None)),
        (('Equalize', 0.2, None), ('AutoContrast', 0.6, None)),
        (('Equalize', 0.2, None), ('Equalize', 0.6, None)),
        (('Color', 0.9, 9), ('Equalize', 0.6, None)),
        (('AutoContrast', 0.8, None), ('Solarize', 0.2, 8)),
        (('Brightness', 0.1, 3), ('Color', 0.7, 0)),
        (('Solarize', 0.4, 5), ('AutoContrast', 0.9, None)),
        (('TranslateY', 0.9, 9), ('TranslateY', 0.7, 9)),
        (('AutoContrast', 0.9, None), ('Solarize', 0.8, 3)),
        (('Equalize', 0.8, None), ('Invert', 0.1, None)),
        (('TranslateY', 0.7, 9), ('AutoContrast', 0.9, None)),
    ),
    AutoAugmentPolicy.SVHN: (
        (('ShearX', 0.9, 4), ('Invert', 0.2, None)),
        (('ShearY', 0.9, 8), ('Invert', 0.7, None)),
        (('Equalize', 0.6, None), ('Solarize', 0.6, 6)),
        (('Invert', 0.9, None), ('Equalize', 0.6, None)),
        (('Equalize', 0.6, None), ('Rotate', 0.9, 3)),
        (('ShearX', 0.9, 4), ('AutoContrast', 0.8, None)),
        (('ShearY', 0.9, 8), ('Invert', 0.4, None)),
        (('ShearY', 0.9, 5), ('Solarize', 0.2, 6)),
        (('Invert', 0.9, None), ('AutoContrast', 0.8, None)),
        (('Equalize', 0.6, None), ('Rotate', 0.9, 3)),
        (('ShearX', 0.9, 4), ('Solarize', 0.3, 3)),
        (('ShearY', 0.8, 8), ('Invert', 0.7, None)),
        (('Equalize', 0.9, None), ('TranslateY', 0.6, 6)),
        (('Invert', 0.9, None), ('Equalize', 0.6, None)),
        (('Contrast', 0.3, 3), ('Rotate', 0.8, 4)),
        (('Invert', 0.8, None), ('TranslateY', 0.0, 2)),
        (('ShearY', 0.7, 6), ('Solarize', 0.4, 8)),
        (('Invert', 0.6, None), ('Rotate', 0.8, 4)),
        (('ShearY', 0.3, 7), ('TranslateX', 0.9, 3)),
        (('ShearX', 0.1, 6), ('Invert', 0.6, None)),
        (('Solarize', 0.7, 2), ('TranslateY', 0.6, 7)),
        (('ShearY', 0.8, 4), ('Invert', 0.8, None)),
        (('ShearX', 0.7, 9), ('TranslateY', 0.8, 3)),
        (('ShearY', 0.8, 5), ('AutoContrast', 0.7, None)),
        (('ShearX', 0.7, 2), ('Invert', 0.1, None)),
    ),
}


def _linspace(start, end, n, scale=1.0, offset=0.0, round_half_even=False):
    """MindSpore's float32 ``Linspace``: (start + i * step) * scale + offset."""
    f32 = np.float32
    step = f32(0) if n == 1 else f32(f32(end) - f32(start)) / f32(n - 1)
    out = (f32(start) + np.arange(n, dtype=np.float32) * step) * f32(scale) + f32(offset)
    return np.rint(out) if round_half_even else out


def magnitudes(space, bins, height, width):
    """``{operation: float32 array of its bins' magnitudes}`` of an augmentation space:
    'auto' (AutoAugment's), 'rand' (RandAugment's) or 'wide' (TrivialAugmentWide's)."""
    wide = space == 'wide'
    shear = _linspace(0.0, 0.99 if wide else 0.3, bins)
    factor = _linspace(0.0, 0.99 if wide else 0.9, bins)
    translate = np.float32(150.0) / np.float32(331)
    zero = np.zeros(1, np.float32)
    out = {'Identity': zero, 'ShearX': shear, 'ShearY': shear,
           'TranslateX': _linspace(0.0, 32.0 if wide else translate * width, bins),
           'TranslateY': _linspace(0.0, 32.0 if wide else translate * height, bins),
           'Rotate': _linspace(0.0, 135.0 if wide else 30.0, bins),
           'Brightness': factor, 'Color': factor, 'Contrast': factor, 'Sharpness': factor,
           'Posterize': _linspace(0.0, bins - 1.0, bins,
                                  -(6.0 if wide else 4.0) / np.float32(bins - 1.0), 8, True),
           'Solarize': _linspace(256.0 if space == 'auto' else 255.0, 0.0, bins),
           'AutoContrast': zero, 'Equalize': zero}
    if space == 'auto':
        del out['Identity']
        out['Invert'] = zero
    return out


def _level(values, index):
    """The magnitude of bin ``index`` (0 for an operation without magnitudes)."""
    return values[index] if len(values) > 1 and index is not None else np.float32(0)


_RAND_OPS = ('Identity', 'ShearX', 'ShearY', 'TranslateX', 'TranslateY', 'Rotate', 'Brightness',
             'Color', 'Contrast', 'Sharpness', 'Posterize', 'Solarize', 'AutoContrast',
             'Equalize')


class _Augment(ImageTensorOperation):
    """Shared checks: ``interpolation`` (NEAREST, BILINEAR, BICUBIC or AREA) and ``fill_value``
    (an int or RGB 3-tuple in [0, 255]); images must be uint8 (H, W, 3)."""

    def __init__(self, interpolation, fill_value):
        _checks.type_check(interpolation, (Inter,), 'interpolation')
        if interpolation not in _CV_MODES:
            raise ValueError(f"{type(self).__name__}: interpolation {interpolation} is not "
                             f"supported; use NEAREST, BILINEAR, BICUBIC or AREA.")
        self.interpolation = interpolation
        self.fill_value = _checks.fill_value(fill_value)

    def _check(self, img):
        check_rgb(img, type(self).__name__, uint8=True)

    def _run(self, img, name, magnitude, rng):
        if name in _enhance.SIGNED and rng.random() < 0.5:
            magnitude = -magnitude
        mode = 'linear' if self.interpolation == Inter.AREA else _CV_MODES[self.interpolation]
        r, g, b = self.fill_value
        # MindSpore 2.10's augmentations fill rotations with (G, B, R): measured, kept
        return _enhance.apply(name, img, magnitude, mode, self.fill_value, (g, b, r))


class AutoAugment(_Augment):
    """AutoAugment (Cubuk et al., 2019) with a learned policy.

    Args:
        policy: an ``AutoAugmentPolicy`` (IMAGENET, CIFAR10, SVHN). Default IMAGENET.
        interpolation: an ``Inter`` for shear, translation and rotation. Default NEAREST.
        fill_value: an int or RGB 3-tuple in [0, 255] for uncovered pixels. Default 0.
    """

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST,
                 fill_value=0):
        _checks.type_check(policy, (AutoAugmentPolicy,), 'policy')
        super().__init__(interpolation, fill_value)
        self.policy = policy

    def _check(self, img):
        if img.ndim != 3:
            raise RuntimeError(f"AutoAugment: input tensor is not in shape of <H,W,C>, but got "
                               f"rank: {img.ndim}")
        if img.shape[2] != 3:
            raise RuntimeError(f"AutoAugment: channel of input image should be 3, but got: "
                               f"{img.shape[2]}")
        super()._check(img)

    def _apply(self, img):
        self._check(img)
        rng = row_generator()
        policy = POLICIES[self.policy]
        space = magnitudes('auto', 10, *img.shape[:2])
        for name, prob, level in policy[int(rng.integers(len(policy)))]:
            if rng.random() <= prob:
                img = self._run(img, name, _level(space[name], level), rng)
        return img


class RandAugment(_Augment):
    """RandAugment (Cubuk et al., 2020): ``num_ops`` operations drawn uniformly.

    Args:
        num_ops: operations per image, an int >= 0. Default 2.
        magnitude: the bin of every magnitude, in [0, num_magnitude_bins). Default 9.
        num_magnitude_bins: bins of the magnitude ranges, an int >= 2. Default 31.
        interpolation, fill_value: as ``AutoAugment``.
    """

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31,
                 interpolation=Inter.NEAREST, fill_value=0):
        for name, value in (('num_ops', num_ops), ('magnitude', magnitude),
                            ('num_magnitude_bins', num_magnitude_bins)):
            _checks.type_check(value, (int,), name)
        _checks.in_range(num_ops, 0, _checks.SIZE_MAX, 'num_ops')
        _checks.in_range(num_magnitude_bins, 2, _checks.SIZE_MAX, 'num_magnitude_bins')
        _checks.in_range(magnitude, 0, num_magnitude_bins, 'magnitude', right_open=True)
        super().__init__(interpolation, fill_value)
        self.num_ops, self.magnitude = num_ops, magnitude
        self.num_magnitude_bins = num_magnitude_bins

    def _apply(self, img):
        self._check(img)
        rng = row_generator()
        space = magnitudes('rand', self.num_magnitude_bins, *img.shape[:2])
        for _ in range(self.num_ops):
            name = _RAND_OPS[int(rng.integers(len(_RAND_OPS)))]
            img = self._run(img, name, _level(space[name], self.magnitude), rng)
        return img


class TrivialAugmentWide(_Augment):
    """TrivialAugment (Müller and Hutter, 2021), wide ranges: one operation at a random bin.

    Args:
        num_magnitude_bins: bins of the magnitude ranges, an int >= 2. Default 31.
        interpolation, fill_value: as ``AutoAugment``.
    """

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        _checks.type_check(num_magnitude_bins, (int,), 'num_magnitude_bins')
        _checks.in_range(num_magnitude_bins, 2, _checks.SIZE_MAX, 'num_magnitude_bins')
        super().__init__(interpolation, fill_value)
        self.num_magnitude_bins = num_magnitude_bins

    def _apply(self, img):
        self._check(img)
        rng = row_generator()
        space = magnitudes('wide', self.num_magnitude_bins, *img.shape[:2])
        name = _RAND_OPS[int(rng.integers(len(_RAND_OPS)))]
        level = int(rng.integers(self.num_magnitude_bins))
        return self._run(img, name, _level(space[name], level), rng)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode an encoded image, crop a random region and resize it: ``Decode`` then
    ``RandomResizedCrop`` in one operation (same arguments as ``RandomResizedCrop``).

    Raises:
        TypeError: for input that is not a 1-D uint8 array. RuntimeError: for data that does
            not decode.
    """

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError("The op is OneToOne, can only accept one tensor as input.")
        data = inputs[0]
        if not isinstance(data, np.ndarray) or data.ndim != 1 or data.dtype != np.uint8:
            dtype = data.dtype.type if isinstance(data, np.ndarray) else None
            raise TypeError(f"Input should be an encoded image with uint8 type in 1-D NumPy "
                            f"format, got format:{type(data)}, dtype:{dtype}.")
        return self._apply(Decode()(data))
