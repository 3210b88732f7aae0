"""Cutting an image into a grid of patches (MindSpore's ``vision.SlicePatches``)."""
import math

import numpy as np

from ..transforms import _checks
from ._base import ImageTensorOperation
from .utils import SliceMode

__all__ = ['SlicePatches']


class SlicePatches(ImageTensorOperation):
    """Cut an image (H, W[, C]) into ``num_height`` x ``num_width`` equal patches, returned
    row by row as separate outputs (one array when there is one patch).

    Args:
        num_height, num_width: patches along each axis, ints >= 1. Default 1.
        slice_mode: ``SliceMode.PAD`` (default) pads the bottom and right with ``fill_value``
            up to a multiple of the patch count; ``SliceMode.DROP`` drops the remainder.
        fill_value: the padding value, an int in [0, 255]. Default 0.
    """

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        _checks.int32(num_height, 'num_height', 1)
        _checks.int32(num_width, 'num_width', 1)
        _checks.type_check(slice_mode, (SliceMode,), 'slice_mode')
        _checks.type_check(fill_value, (int,), 'fill_value')
        _checks.in_range(fill_value, 0, 255, 'fill_value')
        self.num_height, self.num_width = num_height, num_width
        self.slice_mode, self.fill_value = slice_mode, fill_value

    def _apply(self, img):
        if img.ndim < 2:
            raise RuntimeError(f"Rank of input data should be greater than 2, but got:{img.ndim}")
        h, w = img.shape[:2]
        for n, size, axis in ((self.num_height, h, 'height'), (self.num_width, w, 'width')):
            if n > size:
                raise RuntimeError(f"SlicePatches: The number of patches on {axis} axis equals "
                                   f"0 or is greater than {axis}, got number of patches:{n}")
        if self.slice_mode == SliceMode.PAD:
            ph, pw = math.ceil(h / self.num_height), math.ceil(w / self.num_width)
            padded = np.full((ph * self.num_height, pw * self.num_width) + img.shape[2:],
                             self.fill_value, img.dtype)
            padded[:h, :w] = img
            img = padded
        else:
            ph, pw = h // self.num_height, w // self.num_width
        patches = tuple(np.ascontiguousarray(img[r * ph:(r + 1) * ph, c * pw:(c + 1) * pw])
                        for r in range(self.num_height) for c in range(self.num_width))
        return patches[0] if len(patches) == 1 else patches
