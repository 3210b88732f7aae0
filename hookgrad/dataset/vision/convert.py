"""Colour-space conversion (MindSpore's ``vision.ConvertColor``), as OpenCV's ``cvtColor``.

Channel reorderings and alpha channels are exact; grey levels use OpenCV 4.11's weights: 15-bit
fixed point for uint8 (``_enhance.gray``), 0.299 R + 0.587 G + 0.114 B in float32 otherwise.
"""
import numpy as np

from . import _enhance
from ._base import ImageTensorOperation
from .utils import ConvertMode

__all__ = ['ConvertColor']

# mode: (input channels, source channel of each output channel, 'a' for alpha, 'gray' for grey)
_PLANS = {
    ConvertMode.COLOR_BGR2BGRA: (3, (0, 1, 2, 'a')),
    ConvertMode.COLOR_BGRA2BGR: (4, (0, 1, 2)),
    ConvertMode.COLOR_BGR2RGBA: (3, (2, 1, 0, 'a')),
    ConvertMode.COLOR_RGBA2BGR: (4, (2, 1, 0)),
    ConvertMode.COLOR_BGR2RGB: (3, (2, 1, 0)),
    ConvertMode.COLOR_BGRA2RGBA: (4, (2, 1, 0, 3)),
    ConvertMode.COLOR_BGR2GRAY: (3, 'bgr'),
    ConvertMode.COLOR_RGB2GRAY: (3, 'rgb'),
    ConvertMode.COLOR_GRAY2BGR: (1, (0, 0, 0)),
    ConvertMode.COLOR_GRAY2BGRA: (1, (0, 0, 0, 'a')),
    ConvertMode.COLOR_BGRA2GRAY: (4, 'bgr'),
    ConvertMode.COLOR_RGBA2GRAY: (4, 'rgb'),
}


def _gray(rgb):
    """Grey level of (..., 3) RGB values in the input's type."""
    if rgb.dtype == np.uint8:
        return _enhance.gray(rgb)
    f32 = np.float32
    x = rgb.astype(np.float32)
    out = x[..., 0] * f32(0.299) + x[..., 1] * f32(0.587) + x[..., 2] * f32(0.114)
    return out.astype(rgb.dtype)


class ConvertColor(ImageTensorOperation):
    """Convert an image between RGB, BGR, RGBA, BGRA and grey.

    Args:
        convert_mode: a ``ConvertMode``; the image must have its channel count (3, 4, or
            grey (H, W) / (H, W, 1)). Added alpha channels are opaque (255 for integers, 1.0
            for floats); grey results are (H, W).
    """

    def __init__(self, convert_mode):
        if not isinstance(convert_mode, ConvertMode):
            raise TypeError(f"Argument convert_mode with value {convert_mode} is not of type "
                            f"[{ConvertMode}], but got {type(convert_mode)}.")
        self.convert_mode = convert_mode

    def _apply(self, img):
        channels_in, plan = _PLANS[self.convert_mode]
        if img.ndim not in (2, 3):
            raise RuntimeError(f"ConvertColor: input tensor is not in shape of <H,W> or <H,W,C>, "
                               f"but got rank: {img.ndim}")
        channels = 1 if img.ndim == 2 else img.shape[2]
        if channels != channels_in:
            raise RuntimeError(f"ConvertColor: the mode {self.convert_mode.name} takes images "
                               f"of {channels_in} channel(s), but got {channels}.")
        x = img.reshape(img.shape[:2] + (channels,))
        if isinstance(plan, str):
            rgb = x[..., :3] if plan == 'rgb' else x[..., 2::-1]
            return _gray(rgb)
        alpha = 255 if img.dtype.kind in 'iu' else 1.0
        planes = [np.full(img.shape[:2], alpha, img.dtype) if c == 'a' else x[..., c]
                  for c in plan]
        return np.stack(planes, axis=-1)
