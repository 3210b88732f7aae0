"""Enums and helpers of the image transforms (MindSpore's ``mindspore.dataset.vision.utils``)."""
from enum import Enum, IntEnum

import numpy as np
from PIL import Image

__all__ = ['Inter', 'Border', 'ImageBatchFormat', 'AutoAugmentPolicy', 'ConvertMode',
           'SliceMode', 'ImageReadMode',
           'get_image_num_channels', 'get_image_size', 'read_file', 'write_file', 'read_image',
           'write_jpeg', 'write_png', 'encode_jpeg', 'encode_png']


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


class SliceMode(IntEnum):
    """How ``SlicePatches`` treats an image not divisible into equal patches: PAD it at the
    bottom and right, or DROP the remainder."""
    PAD = 0
    DROP = 1


class ImageReadMode(IntEnum):
    """How ``read_image`` decodes: keep the file's channels (UNCHANGED), one grey channel
    (GRAYSCALE) or three RGB channels (COLOR)."""
    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


def _image_rank_check(image, who):
    if not isinstance(image, (np.ndarray, Image.Image)):
        raise TypeError(f"Input image is not of type {np.ndarray} or {Image.Image}, but got: "
                        f"{type(image)}.")
    if isinstance(image, np.ndarray) and image.ndim < 2:
        raise RuntimeError(f"{who}: invalid parameter, image should have at least two "
                           f"dimensions, but got: {image.ndim}")


def get_image_num_channels(image):
    """Channels of a NumPy image (H, W[, C]) (1 for (H, W)) or of a PIL image (its bands)."""
    _image_rank_check(image, 'GetImageNumChannels')
    if isinstance(image, Image.Image):
        return len(image.getbands())
    return 1 if image.ndim == 2 else int(image.shape[-1])


def get_image_size(image):
    """[height, width] of a NumPy image (H, W[, C]) or of a PIL image."""
    _image_rank_check(image, 'GetImageSize')
    if isinstance(image, Image.Image):
        return [image.height, image.width]
    return [int(image.shape[0]), int(image.shape[1])]


from .image_io import (encode_jpeg, encode_png, read_file, read_image, write_file,  # noqa: E402
                       write_jpeg, write_png)
