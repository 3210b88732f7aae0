"""``crop_and_resize``: boxes cut out of NHWC images and resampled to one crop size (MindSpore
2.x ``ops.crop_and_resize``, TensorFlow's sampling positions), composed of hookgrad's ops so
gradients reach the image and, for 'bilinear', the boxes."""
import numbers

import numpy as np

from .._tensor import Tensor
from ..kernels import backend
from .arithmetic import add, cast, mul, sub
from .comparison import clamp, ge, le, logical_and
from .creation import tensor_on
from .indexing import gather, where
from .scatter_gather import gather_elements
from .broadcasting import broadcast_to
from .shaping import expand_dims, reshape
from .unary import ceil, floor

__all__ = ['crop_and_resize']

_METHODS = ('bilinear', 'nearest')


def _positions(lo, hi, size, count, like):
    """(N, count) sampling positions between box edges ``lo`` and ``hi`` (N, 1), normalised
    to [0, 1], on an axis of ``size`` pixels: evenly from lo to hi, or the middle for one."""
    scale = size - 1
    if count > 1:
        steps = tensor_on(np.arange(count, dtype=np.float64).reshape(1, count) / (count - 1),
                          like, 'steps')
        return add(mul(lo, scale), mul(mul(sub(hi, lo), scale), cast(steps, lo.dtype)))
    return mul(add(lo, hi), 0.5 * scale)


def _index(p, size):
    """Positions as int64 pixel indices clipped into [0, size - 1] (no gradient)."""
    return cast(clamp(floor(p), 0, size - 1), np.int64)


def _pick(flat, rows, cols, w, c):
    """(N, ch, cw, C) values of flat (N, H * W, C) at the rows (N, ch) and columns (N, cw)."""
    n, ch, cw = rows.shape[0], rows.shape[1], cols.shape[1]
    index = add(mul(expand_dims(rows, 2), w), expand_dims(cols, 1))          # (N, ch, cw)
    index = broadcast_to(reshape(index, (n, ch * cw, 1)), (n, ch * cw, c))
    return reshape(gather_elements(flat, 1, index), (n, ch, cw, c))


def crop_and_resize(image, boxes, box_indices, crop_size, method='bilinear',
                    extrapolation_value=0.0):
    """Float32 crops (num_boxes, crop_h, crop_w, C) of ``image`` (batch, H, W, C).

    Args:
        boxes: (num_boxes, 4) normalised (y1, x1, y2, x2); y maps to ``y * (H - 1)``. A box
            may be flipped (y1 > y2) or reach outside [0, 1].
        box_indices: (num_boxes,) Int32 image index of each box, in [0, batch).
        crop_size: (crop_h, crop_w), positive ints.
        method: 'bilinear' or 'nearest'.
        extrapolation_value: the value of samples that fall outside the image.

    Raises:
        TypeError: for non-Tensor arguments or a crop_size that is not two ints.
        ValueError: for bad shapes, a box index outside the batch or an unknown method.
    """
    name = 'ops.crop_and_resize'
    for arg, t in (('image', image), ('boxes', boxes), ('box_indices', box_indices)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{name}: {arg} must be a Tensor, got {type(t).__name__}")
    if image.ndim != 4:
        raise ValueError(f"{name}: image must be 4-d (batch, height, width, channels), got "
                         f"shape {image.shape}")
    if boxes.ndim != 2 or boxes.shape[1] != 4 or box_indices.shape != (boxes.shape[0],):
        raise ValueError(f"{name}: boxes must be (num_boxes, 4) and box_indices (num_boxes,), "
                         f"got shapes {boxes.shape} and {box_indices.shape}")
    if not (isinstance(crop_size, (tuple, list)) and len(crop_size) == 2 and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in crop_size)):
        raise TypeError(f"{name}: crop_size must be a tuple of two ints, got {crop_size!r}")
    ch, cw = int(crop_size[0]), int(crop_size[1])
    if ch < 1 or cw < 1:
        raise ValueError(f"{name}: crop_size must be positive, got {crop_size!r}")
    if method not in _METHODS:
        raise ValueError(f"{name}: method must be 'bilinear' or 'nearest', got {method!r}")
    batch, h, w, c = image.shape
    picked = backend.to_host(box_indices._data)
    if picked.size and (picked.min() < 0 or picked.max() >= batch):
        raise ValueError(f"{name}: box_indices must be in [0, {batch}), got "
                         f"{picked.tolist()}")
    b = boxes if boxes._data.dtype.kind in 'fV' else cast(boxes, np.float32)
    ys = _positions(b[:, 0:1], b[:, 2:3], h, ch, b)                            # (N, ch)
    xs = _positions(b[:, 1:2], b[:, 3:4], w, cw, b)                            # (N, cw)
    inside = logical_and(expand_dims(logical_and(ge(ys, 0), le(ys, h - 1)), 2),
                         expand_dims(logical_and(ge(xs, 0), le(xs, w - 1)), 1))
    img = cast(image, np.float32) if image._data.dtype != np.float32 else image
    flat = reshape(gather(img, cast(box_indices, np.int64), 0), (-1, h * w, c))
    if method == 'nearest':
        y = _pick(flat, _index(add(ys, 0.5), h), _index(add(xs, 0.5), w), w, c)
    else:
        top, left = _index(ys, h), _index(xs, w)
        bottom, right = _index(ceil(ys), h), _index(ceil(xs), w)
        fy = reshape(cast(sub(ys, floor(ys)), np.float32), ys.shape + (1, 1))
        fx = reshape(cast(sub(xs, floor(xs)), np.float32), (xs.shape[0], 1, xs.shape[1], 1))
        tl, tr = _pick(flat, top, left, w, c), _pick(flat, top, right, w, c)
        bl, br = _pick(flat, bottom, left, w, c), _pick(flat, bottom, right, w, c)
        upper = add(tl, mul(sub(tr, tl), fx))
        lower = add(bl, mul(sub(br, bl), fx))
        y = add(upper, mul(sub(lower, upper), fy))
    fill = tensor_on(np.float32(extrapolation_value), y, 'extrapolation_value')
    return where(expand_dims(inside, 3), y, fill)
