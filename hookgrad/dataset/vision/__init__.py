"""``hookgrad.dataset.vision``: image transforms (MindSpore's ``mindspore.dataset.vision``).

Decode, Resize, Rescale, Normalize, HWC2CHW, crops, flips, rotation, colour adjustment (the
Adjust* transforms, AutoContrast, Equalize, Invert, Posterize, Solarize, Grayscale and their
random variants), GaussianBlur, padding, conversions (ToTensor, ToPIL, ToType), the automatic
augmentations (AutoAugment, RandAugment, TrivialAugmentWide) and RandomCropDecodeResize, with
the ``Inter``, ``Border``, ``ImageBatchFormat`` and ``AutoAugmentPolicy`` enums of
``vision.utils``.
"""
from . import transforms, utils
from .transforms import (AdjustBrightness, AdjustContrast, AdjustGamma, AdjustHue, AdjustSaturation,
                         AdjustSharpness, AutoAugment, AutoContrast, CenterCrop, Crop, Decode,
                         Equalize, GaussianBlur, Grayscale, HorizontalFlip, HWC2CHW, Invert,
                         Normalize, Pad, Posterize, RandAugment, RandomAdjustSharpness,
                         RandomAutoContrast, RandomColorAdjust, RandomCrop, RandomCropDecodeResize,
                         RandomEqualize, RandomGrayscale, RandomHorizontalFlip, RandomInvert,
                         RandomPosterize, RandomResizedCrop, RandomRotation, RandomSolarize,
                         RandomVerticalFlip, Rescale, Resize, Rotate, Solarize, ToNumpy, ToPIL,
                         ToTensor, ToType, TrivialAugmentWide, VerticalFlip)
from .utils import AutoAugmentPolicy, Border, ImageBatchFormat, Inter

__all__ = transforms.__all__ + utils.__all__


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.dataset.vision')
