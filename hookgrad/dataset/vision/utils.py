"""Enums of the image transforms (MindSpore's ``mindspore.dataset.vision.utils``)."""
from enum import Enum, IntEnum

__all__ = ['Inter', 'Border', 'ImageBatchFormat', 'AutoAugmentPolicy']


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
