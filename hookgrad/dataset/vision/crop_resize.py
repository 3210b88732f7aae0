"""Resizing variants (MindSpore's ``vision.ResizedCrop`` and ``vision.RandomResize``), built on
``Resize``'s kernels."""
from ..engine import row_generator
from ..transforms import _checks
from ._base import ImageTensorOperation, check_image, output_size, resize_image, resize_size
from .utils import Inter

__all__ = ['ResizedCrop', 'RandomResize']

_RANDOM_MODES = (Inter.LINEAR, Inter.NEAREST, Inter.CUBIC, Inter.AREA)


class ResizedCrop(ImageTensorOperation):
    """Crop the (top, left, height, width) region and resize it to ``size``.

    Args:
        top, left: the corner, ints >= 0. height, width: the region, ints >= 1.
        size: the output (height, width), or an int for a square.
        interpolation: an ``Inter`` (see ``Resize`` for how exactly each mode matches).
            Default BILINEAR.
    """

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        self.top, self.left = _checks.int32(top, 'top', 0), _checks.int32(left, 'left', 0)
        self.height, self.width = _checks.int32(height, 'height', 1), _checks.int32(width, 'width', 1)
        _checks.type_check(interpolation, (Inter,), 'interpolation')
        self.size, self.interpolation = _checks.size(size), interpolation

    def _apply(self, img):
        check_image(img, 'ResizedCrop')
        h, w = img.shape[:2]
        if self.top + self.height > h:
            raise RuntimeError(f"ResizedCrop: the sum of top and height: "
                               f"{self.top + self.height} exceeds image height: {h}")
        if self.left + self.width > w:
            raise RuntimeError(f"ResizedCrop: the sum of left and width: "
                               f"{self.left + self.width} exceeds image width: {w}")
        crop = img[self.top:self.top + self.height, self.left:self.left + self.width]
        return resize_image(crop, *self.size, self.interpolation, 'ResizedCrop')


class RandomResize(ImageTensorOperation):
    """``Resize(size)`` with an interpolation drawn uniformly from LINEAR, NEAREST, CUBIC and
    AREA for every image, as MindSpore's RandomResize.

    Args:
        size: (height, width), or an int for the shorter edge (as ``Resize``).
    """

    def __init__(self, size):
        self._size = resize_size(size)
        self.size = size

    def _apply(self, img):
        mode = _RANDOM_MODES[int(row_generator().integers(len(_RANDOM_MODES)))]
        check_image(img, 'RandomResize', max_rank=4)
        h, w = img.shape[1:3] if img.ndim == 4 else img.shape[:2]
        return resize_image(img, *output_size(self._size, h, w), mode, 'RandomResize')
