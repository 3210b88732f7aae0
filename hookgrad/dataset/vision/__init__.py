"""``hookgrad.dataset.vision``: image transforms (MindSpore's ``mindspore.dataset.vision``).

Decode, Resize, Rescale, Normalize, HWC2CHW, crops, flips, rotation, colour adjustment, padding
and conversions (ToTensor, ToPIL, ToType), with the ``Inter``, ``Border`` and
``ImageBatchFormat`` enums of ``vision.utils``.
"""
from . import transforms, utils
from .transforms import (CenterCrop, Crop, Decode, HorizontalFlip, HWC2CHW, Normalize, Pad,
                         RandomColorAdjust, RandomCrop, RandomHorizontalFlip, RandomResizedCrop,
                         RandomRotation, RandomVerticalFlip, Rescale, Resize, Rotate, ToNumpy,
                         ToPIL, ToTensor, ToType, VerticalFlip)
from .utils import Border, ImageBatchFormat, Inter

__all__ = transforms.__all__ + utils.__all__


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.dataset.vision')
