"""Image transforms (MindSpore's ``mindspore.dataset.vision.transforms``).

Images are NumPy arrays (H, W) or (H, W, C), usually uint8 RGB, or PIL images where MindSpore
takes them. Each transform is a callable object: ``vision.Resize((2, 2))(img)`` runs it eagerly,
and ``Dataset.map(operations=[...], input_columns='image')`` runs it on a column. NumPy results
follow MindSpore's OpenCV kernels (see ``Inter`` for how exactly); PIL images go through Pillow,
as in MindSpore. Random transforms draw from hookgrad's global generator (``ms.set_seed``).
"""
import io
import numbers

import numpy as np
from PIL import Image, ImageEnhance

from ..engine import row_generator
from ..transforms import _checks
from ..transforms.transforms import PyTensorOperation
from . import _color
from ._base import (_PIL_FILTERS, ImageTensorOperation, check_image, check_rgb, need_pil,
                    output_size, resize_image, resize_size)
from .utils import Inter

__all__ = ['Decode', 'ToPIL', 'ToNumpy', 'ToTensor', 'ToType', 'HWC2CHW', 'Rescale',
           'Normalize', 'Resize', 'HorizontalFlip', 'VerticalFlip', 'RandomHorizontalFlip',
           'RandomVerticalFlip', 'RandomColorAdjust', 'CenterCrop', 'Crop', 'Pad',
           'RandomCrop', 'RandomResizedCrop', 'Rotate', 'RandomRotation', 'AutoAugment',
           'RandAugment', 'TrivialAugmentWide', 'RandomCropDecodeResize', 'AdjustBrightness',
           'AdjustContrast', 'AdjustSaturation', 'AdjustHue', 'AdjustGamma', 'AdjustSharpness',
           'AutoContrast', 'Equalize', 'Invert', 'Posterize', 'Solarize', 'GaussianBlur',
           'Grayscale', 'RandomAdjustSharpness', 'RandomAutoContrast', 'RandomEqualize',
           'RandomInvert', 'RandomPosterize', 'RandomSolarize', 'RandomGrayscale', 'PadToSize',
           'NormalizePad', 'Erase', 'CutOut', 'RandomErasing', 'FiveCrop', 'TenCrop', 'RgbToHsv',
           'HsvToRgb', 'Affine', 'RandomAffine', 'ConvertColor',
           'MixUpBatch', 'CutMixBatch', 'RandomColor', 'RandomSharpness',
           'Perspective', 'RandomPerspective', 'RandomLighting', 'LinearTransformation',
           'ResizedCrop', 'RandomResize', 'MixUp', 'UniformAugment', 'RandomSelectSubpolicy',
           'SlicePatches', 'BoundingBoxAugment', 'RandomCropWithBBox',
           'RandomHorizontalFlipWithBBox', 'RandomVerticalFlipWithBBox', 'RandomResizeWithBBox',
           'ResizeWithBBox', 'RandomResizedCropWithBBox']


class Decode(ImageTensorOperation):
    """Decode an encoded image (JPEG, PNG, BMP, ... bytes as a 1-D uint8 array) to RGB.

    Args:
        to_pil: return a PIL image instead of a uint8 (H, W, 3) array. Default False.

    Raises:
        TypeError: for input that is not a 1-D array or bytes. RuntimeError: for data that
            does not decode.
    """

    def __init__(self, to_pil=False):
        _checks.type_check(to_pil, (bool,), 'to_pil')
        self.to_pil = to_pil

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError("The op is OneToOne, can only accept one tensor as input.")
        data = inputs[0]
        if isinstance(data, bytes):
            data = np.frombuffer(data, np.uint8)
        if not isinstance(data, np.ndarray):
            raise TypeError(f"The type of the encoded image should be {np.ndarray}, but got "
                            f"{type(data)}.")
        if data.ndim != 1:
            raise TypeError(f"The number of array dimensions of the encoded image should be 1, "
                            f"but got {data.ndim}.")
        if data.size == 0:
            raise RuntimeError("Input Tensor has no data.")
        try:
            if data.dtype != np.uint8:
                raise ValueError
            img = Image.open(io.BytesIO(data.tobytes()))
            img = img.convert('RGB')
        except Exception:
            raise RuntimeError("Decode: image decode failed.") from None
        return img if self.to_pil else np.asarray(img).copy()


_PIL_MODES_2D = {np.dtype(np.uint8): 'L', np.dtype(np.int16): 'I;16', np.dtype(np.int32): 'I',
                 np.dtype(np.float32): 'F'}


class ToPIL(PyTensorOperation):
    """A NumPy image (H, W) or (H, W, C<=4) as a PIL image (L, LA, RGB, RGBA; I or F for
    2-D int32/float32). PIL images pass through."""

    def __call__(self, img):
        if isinstance(img, Image.Image):
            return img
        img = np.asarray(img)
        if img.ndim not in (2, 3):
            raise ValueError(f"The dimension of input image should be 2 or 3. Got {img.ndim}.")
        if img.ndim == 3 and img.shape[2] == 1:
            img = img[..., 0]
        if img.ndim == 3:
            if img.shape[2] > 4:
                raise ValueError(f"The channel of input image should not exceed 4. Got "
                                 f"{img.shape[2]}.")
            if img.dtype != np.uint8:
                raise TypeError(f"The input image type {img.dtype} is not supported when image "
                                f"shape is [H, W, 2], [H, W, 3] or [H, W, 4].")
            return Image.fromarray(img, {2: 'LA', 3: 'RGB', 4: 'RGBA'}[img.shape[2]])
        mode = _PIL_MODES_2D.get(img.dtype)
        if mode is None:
            raise TypeError(f"Input type {img.dtype} is not supported.")
        return Image.fromarray(img, mode) if mode != 'I;16' else Image.fromarray(img)


class ToNumpy(PyTensorOperation):
    """A PIL image as a NumPy array (arrays pass through)."""

    def __call__(self, img):
        return np.asarray(img).copy() if isinstance(img, Image.Image) else np.asarray(img)


class ToTensor(ImageTensorOperation):
    """An image (H, W, C) or (H, W) scaled by 1/255 into a (C, H, W) array of ``output_type``.

    Args:
        output_type: the result dtype (NumPy or hookgrad). Default ``np.float32``.
    """

    def __init__(self, output_type=np.float32):
        if isinstance(output_type, str):
            output_type = np.dtype(output_type)
        self.output_type = _checks.data_type(output_type, 'output_type')

    def _apply(self, img):
        if img.ndim < 2:
            raise RuntimeError(f"ToTensor: rank of input data should be greater than: 2, but "
                               f"got:{img.ndim}")
        if img.ndim > 3:
            raise RuntimeError(f"ToTensor: image shape should be <H,W,C>, but got rank: "
                               f"{img.ndim}")
        x = img[..., None] if img.ndim == 2 else img
        # MindSpore multiplies by 1/255 in float32
        scaled = x.astype(np.float32) * np.float32(1.0 / 255.0)
        return np.ascontiguousarray(scaled.astype(self.output_type).transpose(2, 0, 1))


class ToType(ImageTensorOperation):
    """The image (any array) cast to ``data_type`` (NumPy or hookgrad dtype)."""

    def __init__(self, data_type):
        self.data_type = _checks.data_type(data_type)

    def _apply(self, img):
        return img.astype(self.data_type)


class HWC2CHW(ImageTensorOperation):
    """(H, W, C) -> (C, H, W); an (H, W) image is returned as it is."""

    def _apply(self, img):
        if img.ndim not in (2, 3):
            raise RuntimeError(f"HWC2CHW: image shape should be <H,W> or <H,W,C>, but got rank: "
                               f"{img.ndim}")
        return img if img.ndim == 2 else np.ascontiguousarray(img.transpose(2, 0, 1))


class Rescale(ImageTensorOperation):
    """``img * rescale + shift`` as float32 (e.g. ``Rescale(1/255, 0)`` maps uint8 to [0, 1])."""

    def __init__(self, rescale, shift):
        _checks.type_check(rescale, (numbers.Number,), 'rescale')
        _checks.type_check(shift, (numbers.Number,), 'shift')
        self.rescale, self.shift = rescale, shift

    def _apply(self, img):
        return img.astype(np.float32) * np.float32(self.rescale) + np.float32(self.shift)


class Normalize(ImageTensorOperation):
    """``(img - mean) / std`` per channel, as float32.

    Args:
        mean, std: one value per channel (or one for all), mean in [0, 255], std in (0, 255].
        is_hwc: channels last (True) or first (False).
    """

    def __init__(self, mean, std, is_hwc=True):
        _checks.type_check(mean, (list, tuple), 'mean')
        _checks.type_check(std, (list, tuple), 'std')
        _checks.type_check(is_hwc, (bool,), 'is_hwc')
        if len(mean) != len(std):
            raise ValueError("Length of mean and std must be equal.")
        for i, (m, s) in enumerate(zip(mean, std)):
            _checks.type_check(m, (numbers.Number,), f'mean[{i}]')
            _checks.type_check(s, (numbers.Number,), f'std[{i}]')
            _checks.in_range(m, 0, 255, f'mean[{i}]')
            _checks.in_range(s, 0, 255, f'std[{i}]', left_open=True)
        self.mean, self.std, self.is_hwc = list(mean), list(std), is_hwc

    def _apply(self, img):
        if img.ndim < 2:
            raise RuntimeError(f"Normalize: input tensor should have at least 2 dimensions, but "
                               f"got: {img.ndim}")
        axis = -1 if self.is_hwc else (0 if img.ndim <= 3 else 1)
        channels = 1 if img.ndim == 2 else img.shape[axis]
        if len(self.mean) not in (1, channels):
            raise RuntimeError(f"Normalize: number of channels does not match the size of mean "
                               f"and std vectors, got channels: {channels}, size of mean: "
                               f"{len(self.mean)}")
        mean = np.asarray(self.mean, np.float32)
        std = np.asarray(self.std, np.float32)
        if img.ndim > 2 and not self.is_hwc:
            shape = (-1,) + (1,) * (img.ndim - 1 - (0 if img.ndim <= 3 else 1))
            mean, std = mean.reshape(shape), std.reshape(shape)
        return ((img.astype(np.float32) - mean) / std).astype(np.float32)


class Resize(ImageTensorOperation):
    """Resize an image to ``size``.

    Args:
        size: (height, width), or an int: the shorter edge becomes ``size`` and the longer one
            keeps the aspect ratio (rounded down).
        interpolation: an ``Inter``. Default ``Inter.LINEAR``. NEAREST matches MindSpore
            exactly, and so does PILCUBIC (uint8 RGB only: Pillow's bicubic algorithm);
            LINEAR, CUBIC and AREA are within one grey level of MindSpore's uint8 results (its
            OpenCV kernel rounds some pixels the other way; most pixels match) and within
            float32 rounding on float images. ANTIALIAS takes PIL images only. PIL images are
            resized by Pillow, as MindSpore does, and stay PIL images.

    Raises:
        TypeError, ValueError: for a bad ``size`` or ``interpolation``.

    >>> import numpy as np
    >>> from hookgrad.dataset import vision
    >>> vision.Resize(2)(np.zeros((4, 6, 3), np.uint8)).shape
    (2, 3, 3)
    """

    def __init__(self, size, interpolation=Inter.LINEAR):
        self._size = resize_size(size)
        _checks.type_check(interpolation, (Inter,), 'interpolation')
        self.size, self.interpolation = size, interpolation

    def _apply(self, img):
        if self.interpolation == Inter.ANTIALIAS:
            need_pil(img)
        check_image(img, 'Resize', max_rank=4)
        h, w = img.shape[1:3] if img.ndim == 4 else img.shape[:2]
        height, width = output_size(self._size, h, w)
        return resize_image(img, height, width, self.interpolation)

    def _apply_pil(self, img):
        if self.interpolation not in _PIL_FILTERS:
            raise TypeError("Current Interpolation is not supported with PIL input.")
        height, width = output_size(self._size, img.height, img.width)
        return img.resize((width, height), _PIL_FILTERS[self.interpolation])


def _flip(img, axis, who):
    check_image(img, who)
    return np.ascontiguousarray(np.flip(img, axis))


class HorizontalFlip(ImageTensorOperation):
    """Mirror the image left to right."""

    def _apply(self, img):
        return _flip(img, 1, self._name)


class VerticalFlip(ImageTensorOperation):
    """Mirror the image top to bottom."""

    def _apply(self, img):
        return _flip(img, 0, self._name)


class RandomHorizontalFlip(ImageTensorOperation):
    """Mirror the image left to right with probability ``prob`` (default 0.5)."""

    _axis, _pil_flip = 1, Image.FLIP_LEFT_RIGHT

    def __init__(self, prob=0.5):
        self.prob = _checks.prob(prob)

    def _flips(self):
        return row_generator().random() < self.prob

    def _apply(self, img):
        check_image(img, self._name)
        return _flip(img, self._axis, self._name) if self._flips() else img

    def _apply_pil(self, img):
        return img.transpose(self._pil_flip) if self._flips() else img


class RandomVerticalFlip(RandomHorizontalFlip):
    """Mirror the image top to bottom with probability ``prob`` (default 0.5)."""

    _axis, _pil_flip = 0, Image.FLIP_TOP_BOTTOM


class RandomColorAdjust(ImageTensorOperation):
    """Adjust brightness, contrast, saturation and hue by random factors, in a random order.

    Each factor is drawn uniformly from its (min, max) range; a single number ``v`` means
    ``(max(0, 1 - v), 1 + v)`` (``(-v, v)`` for hue). Ranges left at their defaults are
    skipped. NumPy images (uint8 RGB; float for all but hue) follow MindSpore's OpenCV kernels
    exactly for each adjustment. PIL images go through Pillow's ImageEnhance and 8-bit HSV, as
    in MindSpore, which applies all four adjustments there (the hue round trip through HSV
    changes some pixels even at shift 0), so their order changes PIL results.

    Args:
        brightness, contrast, saturation: factors >= 0 (1 keeps the image).
        hue: a shift in [-0.5, 0.5] of a full turn of hue (0 keeps the image).
    """

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = self._factor(brightness, 'brightness')
        self.contrast = self._factor(contrast, 'contrast')
        self.saturation = self._factor(saturation, 'saturation')
        _checks.type_check(hue, (numbers.Number, list, tuple), 'hue')
        if isinstance(hue, numbers.Number):
            if hue < 0:
                raise ValueError("The input value of hue cannot be negative.")
            _checks.in_range(hue, -0.5, 0.5)
            hue = (-hue, hue)
        else:
            self._pair(hue, 'hue', -0.5, 0.5)
        self.hue = tuple(hue)

    @staticmethod
    def _pair(value, name, low, high):
        if len(value) != 2:
            raise TypeError(f"If {name} is a sequence, the length must be 2.")
        for v in value:
            _checks.in_range(v, low, high)
        if value[0] > value[1]:
            raise ValueError(f"{name} value should be in (min,max) format. Got {tuple(value)}.")

    def _factor(self, value, name):
        _checks.type_check(value, (numbers.Number, list, tuple), name)
        if isinstance(value, numbers.Number):
            if value < 0:
                raise ValueError(f"The input value of {name} cannot be negative.")
            return max(0, 1 - value), 1 + value
        self._pair(value, name, 0, _checks.SIZE_MAX)
        return tuple(value)

    def _plan(self, every=False):
        """The adjustments to make, as (name, factor), in a random order; ``every`` keeps the
        ones left at their defaults (MindSpore's PIL path applies all four)."""
        rng = row_generator()
        steps = [(name, rng.uniform(*span)) for name, span, keep in
                 (('brightness', self.brightness, (1, 1)), ('contrast', self.contrast, (1, 1)),
                  ('saturation', self.saturation, (1, 1)), ('hue', self.hue, (0, 0)))
                 if every or tuple(span) != keep]
        return [steps[i] for i in rng.permutation(len(steps))]

    def _apply(self, img):
        check_rgb(img, 'RandomColorAdjust')
        for name, factor in self._plan():
            if name == 'hue' and img.dtype != np.uint8:
                raise RuntimeError(f"RandomColorAdjust: hue adjustment supports uint8 images "
                                   f"only, got {img.dtype}")
            adjust = _adjust_functions().get(name) or getattr(_color, name)
            img = adjust(img, factor)
        return img

    def _apply_pil(self, img):
        for name, factor in self._plan(every=True):
            if name == 'hue':
                img = _pil_hue(img, factor)
            else:
                enhance = {'brightness': ImageEnhance.Brightness,
                           'contrast': ImageEnhance.Contrast,
                           'saturation': ImageEnhance.Color}[name]
                img = enhance(img).enhance(factor)
        return img


def _adjust_functions():
    """The contrast and saturation adjustments AdjustContrast and AdjustSaturation make (one
    implementation: adjust.py imports this module)."""
    from . import adjust
    return {'contrast': adjust.contrast, 'saturation': adjust.saturation}


def _pil_hue(img, factor):
    """Shift the hue of a PIL image through Pillow's 8-bit HSV."""
    mode = img.mode
    if mode in ('L', '1', 'I', 'F'):
        return img
    h, s, v = img.convert('HSV').split()
    shifted = (np.asarray(h).astype(np.int64) + int(factor * 255)) % 256
    return Image.merge('HSV', (Image.fromarray(shifted.astype(np.uint8), 'L'), s, v)).convert(mode)


from ._geometry import (CenterCrop, Crop, Pad, RandomCrop, RandomResizedCrop,  # noqa: E402
                        RandomRotation, Rotate)
from .augment import (AutoAugment, RandAugment, RandomCropDecodeResize,  # noqa: E402
                      TrivialAugmentWide)
from .adjust import (AdjustBrightness, AdjustContrast, AdjustGamma, AdjustHue,  # noqa: E402
                     AdjustSaturation, AdjustSharpness, AutoContrast, Equalize, GaussianBlur,
                     Grayscale, Invert, Posterize, RandomAdjustSharpness, RandomAutoContrast,
                     RandomColor, RandomEqualize, RandomGrayscale, RandomInvert,
                     RandomPosterize, RandomSharpness, RandomSolarize, Solarize)
from .regions import (CutOut, Erase, FiveCrop, HsvToRgb, NormalizePad, PadToSize,  # noqa: E402
                      RandomErasing, RgbToHsv, TenCrop)
from .affine import Affine, RandomAffine  # noqa: E402
from .convert import ConvertColor  # noqa: E402
from .batch_mix import CutMixBatch, MixUp, MixUpBatch  # noqa: E402
from .perspective import Perspective, RandomPerspective  # noqa: E402
from .linear import LinearTransformation, RandomLighting  # noqa: E402
from .crop_resize import RandomResize, ResizedCrop  # noqa: E402
from .policy import RandomSelectSubpolicy, UniformAugment  # noqa: E402
from .patches import SlicePatches  # noqa: E402
from .bbox import (BoundingBoxAugment, RandomCropWithBBox,  # noqa: E402
                   RandomHorizontalFlipWithBBox, RandomResizedCropWithBBox,
                   RandomResizeWithBBox, RandomVerticalFlipWithBBox, ResizeWithBBox)
