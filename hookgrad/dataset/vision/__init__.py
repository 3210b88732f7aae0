"""``hookgrad.dataset.vision``: image transforms (MindSpore's ``mindspore.dataset.vision``).

Decode, Resize, Rescale, Normalize, HWC2CHW, crops, flips, rotation, colour adjustment, padding,
conversions (ToTensor, ToPIL, ToType), the automatic augmentations (AutoAugment, RandAugment,
TrivialAugmentWide) and RandomCropDecodeResize, with the ``Inter``, ``Border``,
``ImageBatchFormat`` and ``AutoAugmentPolicy`` enums of ``vision.utils``.
"""
from . import transforms, utils
from .transforms import (AutoAugment, CenterCrop, Crop, Decode, HorizontalFlip, HWC2CHW,
                         Normalize, Pad, RandAugment, RandomColorAdjust, RandomCrop,
                         RandomCropDecodeResize, RandomHorizontalFlip, RandomResizedCrop,
                         RandomRotation, RandomVerticalFlip, Rescale, Resize, Rotate, ToNumpy,
                         ToPIL, ToTensor, ToType, TrivialAugmentWide, VerticalFlip)
from .utils import AutoAugmentPolicy, Border, ImageBatchFormat, Inter

__all__ = transforms.__all__ + utils.__all__


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.dataset.vision')
