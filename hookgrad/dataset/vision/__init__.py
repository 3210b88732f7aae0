"""``hookgrad.dataset.vision``: image transforms (MindSpore's ``mindspore.dataset.vision``).

Decode, Resize (also ResizedCrop, RandomResize), Rescale, Normalize, NormalizePad, HWC2CHW,
crops (also FiveCrop, TenCrop), flips, rotation, affine and perspective warps (Affine,
RandomAffine, Perspective, RandomPerspective), colour adjustment (the Adjust* transforms,
AutoContrast, Equalize, Invert, Posterize, Solarize, Grayscale, their random variants,
RandomColor, RandomSharpness and RandomLighting), LinearTransformation, RgbToHsv, HsvToRgb and
ConvertColor, GaussianBlur, padding (Pad, PadToSize), erasing (Erase, CutOut, RandomErasing),
batch mixing (MixUpBatch, CutMixBatch), conversions (ToTensor, ToPIL, ToType), the automatic
augmentations (AutoAugment, RandAugment, TrivialAugmentWide) and RandomCropDecodeResize, with
the ``Inter``, ``Border``, ``ImageBatchFormat``, ``AutoAugmentPolicy`` and ``ConvertMode`` enums,
the ``get_image_num_channels`` and ``get_image_size`` helpers of ``vision.utils``, MixUp,
UniformAugment, RandomSelectSubpolicy, SlicePatches (``SliceMode``) and the bounding-box
transforms (BoundingBoxAugment, ResizeWithBBox, RandomResizeWithBBox, RandomCropWithBBox,
RandomResizedCropWithBBox and the flips), and the image file functions (read_file, write_file,
read_image with ``ImageReadMode``, write_jpeg, write_png, encode_jpeg, encode_png).
"""
from . import transforms, utils
from .transforms import (AdjustBrightness, AdjustContrast, AdjustGamma, AdjustHue,
                         AdjustSaturation, AdjustSharpness, Affine, AutoAugment, AutoContrast,
                         CenterCrop, ConvertColor, Crop, CutMixBatch, CutOut, Decode, Equalize,
                         Erase, FiveCrop, GaussianBlur, Grayscale, HorizontalFlip, HsvToRgb,
                         HWC2CHW, Invert, LinearTransformation, MixUpBatch, Normalize,
                         NormalizePad, Pad, PadToSize, Perspective, Posterize, RandAugment,
                         RandomAdjustSharpness, RandomAffine, RandomAutoContrast, RandomColor,
                         RandomColorAdjust, RandomCrop, RandomCropDecodeResize, RandomEqualize,
                         RandomErasing, RandomGrayscale, RandomHorizontalFlip, RandomInvert,
                         RandomLighting, RandomPerspective, RandomPosterize, RandomResize,
                         RandomResizedCrop, RandomRotation, RandomSharpness, RandomSolarize,
                         RandomVerticalFlip, Rescale, Resize, ResizedCrop, RgbToHsv, Rotate,
                         Solarize, TenCrop, ToNumpy, ToPIL, ToTensor, ToType, TrivialAugmentWide,
                         VerticalFlip, MixUp, UniformAugment, RandomSelectSubpolicy,
                         SlicePatches, BoundingBoxAugment, RandomCropWithBBox,
                         RandomHorizontalFlipWithBBox, RandomVerticalFlipWithBBox,
                         RandomResizeWithBBox, ResizeWithBBox, RandomResizedCropWithBBox)
from .utils import (AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat, ImageReadMode,
                    Inter, SliceMode, encode_jpeg, encode_png, get_image_num_channels,
                    get_image_size, read_file, read_image, write_file, write_jpeg, write_png)
from .video import DecodeVideo, VideoDecoder, read_video, read_video_timestamps
from ..transforms.plugins import not_random

__all__ = transforms.__all__ + utils.__all__ + ['DecodeVideo', 'VideoDecoder', 'read_video',
                                                'read_video_timestamps', 'not_random']


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.dataset.vision')
