"""Enums of the image transforms (MindSpore's ``mindspore.dataset.vision.utils``)."""
from enum import Enum, IntEnum

__all__ = ['Inter', 'Border', 'ImageBatchFormat', 'AutoAugmentPolicy', 'ConvertMode']


class Inter(IntEnum):
    """Interpolation modes.

    For NumPy images hookgrad reproduces MindSpore's kernels: NEAREST and PILCUBIC (uint8 RGB
    only: Pillow's bicubic algorithm) exactly; LINEAR, CUBIC and AREA (OpenCV's) to within one
    grey level on uint8 images, most pixels exactly. ANTIALIAS works on PIL images only
    (Pillow's LANCZOS); PIL images are resampled by Pillow, as in MindSpore.
    """
    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, Enum):
    """Padding modes: CONSTANT (the fill value), EDGE (repeat the edge pixel), REFLECT
    (mirror without the edge pixel), SYMMETRIC (mirror with it)."""
    CONSTANT = 'constant'
    EDGE = 'edge'
    REFLECT = 'reflect'
    SYMMETRIC = 'symmetric'


class ImageBatchFormat(IntEnum):
    """Layouts of a batch of images."""
    NHWC = 0
    NCHW = 1


class AutoAugmentPolicy(str, Enum):
    """The learned policies of ``AutoAugment``: on ImageNet, CIFAR-10 or SVHN."""
    IMAGENET = 'imagenet'
    CIFAR10 = 'cifar10'
    SVHN = 'svhn'


class ConvertMode(IntEnum):
    """Colour conversions of ``ConvertColor`` (OpenCV's codes: channel orders, alpha, grey)."""
    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = COLOR_BGR2BGRA
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = COLOR_BGRA2BGR
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = COLOR_BGR2RGBA
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = COLOR_RGBA2BGR
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = COLOR_BGR2RGB
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = COLOR_BGRA2RGBA
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = COLOR_GRAY2BGR
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = COLOR_GRAY2BGRA
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11
