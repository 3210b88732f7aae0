"""The base class of the image transforms and the checks they share."""
import numpy as np
from PIL import Image

from ..transforms import _checks
from ..transforms.transforms import TensorOperation
from . import _resize
from .utils import Inter

_PIL_FILTERS = {Inter.NEAREST: Image.NEAREST, Inter.LINEAR: Image.BILINEAR,
                Inter.CUBIC: Image.BICUBIC, Inter.ANTIALIAS: Image.LANCZOS}
_CV_MODES = {Inter.NEAREST: 'nearest', Inter.LINEAR: 'linear', Inter.CUBIC: 'cubic',
             Inter.AREA: 'area'}


class ImageTensorOperation(TensorOperation):
    """An image transform: ``op(image)`` with a NumPy image (H, W) or (H, W, C), or a PIL image.

    NumPy images go to ``_apply``. PIL images go to ``_apply_pil``, which by default works on
    the pixels as an array and returns an array, as MindSpore's C++ transforms do; transforms
    that MindSpore runs through Pillow return PIL images.
    """

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError("The op is OneToOne, can only accept one tensor as input.")
        img = inputs[0]
        if isinstance(img, Image.Image):
            return self._apply_pil(img)
        if not isinstance(img, np.ndarray):
            raise TypeError(f"Input should be NumPy or PIL image, got {type(img)}.")
        return self._apply(img)

    def _apply_pil(self, img):
        return self._apply(np.asarray(img))

    @property
    def _name(self):
        return type(self).__name__


def need_pil(img):
    """TypeError for a transform that only takes PIL images (MindSpore's message)."""
    raise TypeError(f"img should be PIL image. Got {type(img)}. Use Decode() for encoded data "
                    f"or ToPIL() for decoded data.")


def check_image(img, who, max_rank=3):
    """RuntimeError unless ``img`` is (H, W) or (H, W, C) (or, with max_rank=4, a batch)."""
    if img.ndim < 2:
        raise RuntimeError(f"{who}: the image tensor should have at least two dimensions. "
                           f"You may need to perform Decode first.")
    if img.ndim > max_rank:
        raise RuntimeError(f"{who}: input tensor is not in shape of <H,W> or <H,W,C>, but got "
                           f"rank: {img.ndim}")


def check_rgb(img, who, uint8=False):
    """RuntimeError unless ``img`` is one (H, W, 3) image (of uint8, when ``uint8``), with the
    messages MindSpore's colour operators give."""
    if img.ndim != 3:
        raise RuntimeError(f"{who}: the dimension of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in dimension of "
                           f"(3), in shape of <H, W, C>. But got dimension {img.ndim}.")
    if img.shape[2] != 3:
        raise RuntimeError(f"{who}: the channel of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in channel of (3). "
                           f"But got channel {img.shape[2]}.")
    if uint8 and img.dtype != np.uint8:
        raise RuntimeError(f"{who}: the data type of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in type of (uint8). "
                           f"But got type {img.dtype}.")


def per_image(fn, img):
    """``fn`` applied to every image of a batch (N, H, W[, C]), or to one image."""
    if img.ndim == 4:
        return np.stack([fn(x) for x in img])
    return fn(img)


def fill_for(img, fill):
    """The fill value as a per-channel array for ``img`` (the first entry for one channel)."""
    if img.ndim == 3 and img.shape[2] == len(fill):
        return np.asarray(fill)
    return np.asarray(fill[:1] if img.ndim == 2 else (fill[0],) * img.shape[2])


def pil_fill(img, fill):
    """A PIL fill colour for ``img``'s mode."""
    return fill[0] if len(img.getbands()) == 1 else tuple(fill)


_RESIZE_TYPES = tuple(np.dtype(t) for t in _resize.SUPPORTED)


def resize_image(img, height, width, interpolation, who='Resize'):
    """A NumPy image (or batch) resized to (height, width), as MindSpore's kernel does."""
    if interpolation == Inter.ANTIALIAS:
        need_pil(img)
    check_image(img, who, max_rank=4)
    if img.dtype not in _RESIZE_TYPES:
        raise RuntimeError(f"{who}: the data type of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in type of (bool, int8, "
                           f"uint8, int16, uint16, float16, float32, float64). But got type "
                           f"{img.dtype}.")
    if interpolation == Inter.PILCUBIC:
        if img.ndim != 3 or img.shape[2] != 3:
            raise RuntimeError(f"{who}: Interpolation mode PILCUBIC only supports image with 3 "
                               f"channels, but got: <{','.join(map(str, img.shape))}>")
        if img.dtype != np.uint8:
            raise RuntimeError(f"{who}: Interpolation mode PILCUBIC supports uint8 images only, "
                               f"got {img.dtype}")
    mode = 'pilcubic' if interpolation == Inter.PILCUBIC else _CV_MODES[interpolation]
    return per_image(lambda x: _resize.resize(x, height, width, mode), img)


def resize_size(size):
    """``Resize``'s ``size`` checked: (h, w), or (shorter edge,) for an int."""
    if isinstance(size, bool) or not isinstance(size, (int, list, tuple)) or \
            (not isinstance(size, int) and len(size) != 2):
        raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
    if isinstance(size, int):
        _checks.in_range(size, 1, _checks.SIZE_MAX)
        return (size,)
    return _checks.size(tuple(size))


def output_size(size, height, width):
    """(h, w) of a resize to ``size``: a pair, or the shorter edge (the other scaled, floored)."""
    if len(size) == 2:
        return size
    s = size[0]
    if height <= width:
        return s, int(width * s / height)
    return int(height * s / width), s
