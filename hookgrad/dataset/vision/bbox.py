"""Image transforms that carry bounding boxes along (MindSpore's ``vision.*WithBBox`` and
``vision.BoundingBoxAugment``).

Each takes two columns, an image (H, W[, C]) and its boxes, a float32 array (N, 4 or more)
whose first four columns are (x, y, width, height) in pixels; further columns (labels, ...)
are carried along. Boxes are checked as MindSpore checks them (inside the image, corner not
negative) and returned as a new float32 array; a crop clips boxes to the crop and drops the
ones entirely outside it.
"""
import numpy as np

from ..engine import row_generator
from ..transforms import _checks
from ..transforms.transforms import TensorOperation
from ._base import check_image, output_size, resize_image, resize_size
from ._geometry import RandomCrop, RandomResizedCrop
from .crop_resize import _RANDOM_MODES
from .utils import Border, Inter

__all__ = ['BoundingBoxAugment', 'RandomCropWithBBox', 'RandomHorizontalFlipWithBBox',
           'RandomVerticalFlipWithBBox', 'RandomResizeWithBBox', 'ResizeWithBBox',
           'RandomResizedCropWithBBox']


def check_boxes(columns):
    """(image, float32 copy of the boxes), with MindSpore's errors for bad boxes."""
    if len(columns) != 2:
        raise RuntimeError(f"BoundingBox: invalid input, size of input data should be 2 "
                           f"(including image and bounding box), but got: {len(columns)}")
    img, boxes = columns
    if boxes.ndim < 2:
        raise RuntimeError(f"BoundingBox: bounding boxes should have to be two-dimensional "
                           f"matrix at least, but got {boxes.ndim} dimension.")
    if boxes.shape[1] < 4:
        raise RuntimeError(f"BoundingBox: bounding boxes should be have at least 4 features, "
                           f"but got: {boxes.shape[1]}")
    if boxes.dtype != np.float32:
        raise RuntimeError(f"BoundingBox: bounding boxes should be float32, got {boxes.dtype}")
    check_image(img, 'BoundingBox')
    h, w = img.shape[:2]
    for x, y, bw, bh in boxes[:, :4].reshape(-1, 4):
        if x + bw > w or y + bh > h:
            raise RuntimeError(f"BoundingBox: bounding boxes is out of bounds of the image, as "
                               f"image width: {w}, bbox width coordinate: {x + bw:f}, and image "
                               f"height: {h}, bbox height coordinate: {y + bh:f}")
        if int(x) < 0 or int(y) < 0:
            raise RuntimeError(f"BoundingBox: the coordinates of the bounding boxes has negative "
                               f"value, got: ({x:f},{y:f}).")
    return img, boxes.copy()


def crop_boxes(boxes, left, top, right, bottom):
    """The boxes that touch the crop [left, right] x [top, bottom], clipped to it and moved
    to its corner (MindSpore's rule: a box sharing only an edge is kept, with size 0)."""
    f32 = np.float32
    x, y = boxes[:, 0], boxes[:, 1]
    x_max, y_max = x + boxes[:, 2], y + boxes[:, 3]
    keep = ~((x > right) | (y > bottom) | (x_max < left) | (y_max < top))
    x, y, x_max, y_max = x[keep], y[keep], x_max[keep], y_max[keep]
    x0 = np.maximum(x - np.minimum(f32(0), x - f32(left)) - f32(left), f32(0))
    y0 = np.maximum(y - np.minimum(f32(0), y - f32(top)) - f32(top), f32(0))
    x1 = np.minimum(x_max - np.maximum(f32(0), x_max - f32(right)) - f32(left), f32(right - left))
    y1 = np.minimum(y_max - np.maximum(f32(0), y_max - f32(bottom)) - f32(top), f32(bottom - top))
    out = boxes[keep]
    out[:, 0], out[:, 1], out[:, 2], out[:, 3] = x0, y0, x1 - x0, y1 - y0
    return out


def resize_boxes(boxes, height, width, new_height, new_width):
    """Boxes scaled from a (height, width) image to a (new_height, new_width) one, in float32."""
    boxes[:, 0:3:2] *= np.float32(new_width / width)
    boxes[:, 1:4:2] *= np.float32(new_height / height)
    return boxes


class _BoxOperation(TensorOperation):
    """A transform of (image, boxes) columns."""

    _one_to_one = False

    def _apply(self, *columns):
        img, boxes = check_boxes(columns)
        return self._transform(img, boxes)


class RandomHorizontalFlipWithBBox(_BoxOperation):
    """Mirror the image left to right with probability ``prob`` (default 0.5), and its boxes
    (x becomes width - x - box width)."""

    _axis = 1

    def __init__(self, prob=0.5):
        self.prob = _checks.prob(prob)

    def _transform(self, img, boxes):
        if not row_generator().random() < self.prob:
            return img, boxes
        size, column = img.shape[self._axis], 1 - self._axis
        boxes[:, column] = np.float32(size) - boxes[:, column] - boxes[:, column + 2]
        return np.ascontiguousarray(np.flip(img, self._axis)), boxes


class RandomVerticalFlipWithBBox(RandomHorizontalFlipWithBBox):
    """Mirror the image top to bottom with probability ``prob`` (default 0.5), and its boxes
    (y becomes height - y - box height)."""

    _axis = 0


class ResizeWithBBox(_BoxOperation):
    """``Resize(size, interpolation)`` of the image, with the boxes scaled alike.

    Args:
        size: (height, width), or an int for the shorter edge (as ``Resize``).
        interpolation: an ``Inter`` (see ``Resize``). Default ``Inter.LINEAR``.
    """

    def __init__(self, size, interpolation=Inter.LINEAR):
        self._size = resize_size(size)
        _checks.type_check(interpolation, (Inter,), 'interpolation')
        self.size, self.interpolation = size, interpolation

    def _mode(self):
        return self.interpolation

    def _transform(self, img, boxes):
        h, w = img.shape[:2]
        new_h, new_w = output_size(self._size, h, w)
        out = resize_image(img, new_h, new_w, self._mode(), type(self).__name__)
        return out, resize_boxes(boxes, h, w, new_h, new_w)


class RandomResizeWithBBox(ResizeWithBBox):
    """``ResizeWithBBox(size)`` with an interpolation drawn uniformly from LINEAR, NEAREST,
    CUBIC and AREA for every image (as ``RandomResize``)."""

    def __init__(self, size):
        super().__init__(size)

    def _mode(self):
        return _RANDOM_MODES[int(row_generator().integers(len(_RANDOM_MODES)))]


class RandomCropWithBBox(_BoxOperation):
    """``RandomCrop`` of the image (same arguments), with the boxes moved by the padding,
    clipped to the crop, and dropped when they lie entirely outside it.

    As in MindSpore, only ``padding`` moves the boxes: the padding ``pad_if_needed`` adds does
    not.
    """

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self._crop = RandomCrop(size, padding, pad_if_needed, fill_value, padding_mode)
        self.size, self.padding = self._crop.size, self._crop.padding

    def _transform(self, img, boxes):
        img, top, left = self._crop.crop_plan(img, 'RandomCropWithBBox')
        if self.padding is not None:
            boxes[:, 0] += np.float32(self.padding[0])
            boxes[:, 1] += np.float32(self.padding[1])
        ch, cw = self.size
        if img.shape[:2] == (ch, cw):
            return img, boxes
        return (img[top:top + ch, left:left + cw],
                crop_boxes(boxes, left, top, left + cw, top + ch))


class RandomResizedCropWithBBox(_BoxOperation):
    """``RandomResizedCrop`` of the image (same arguments and crop draw), with the boxes
    clipped to the crop (those entirely outside it dropped) and scaled to ``size``."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        self._crop = RandomResizedCrop(size, scale, ratio, interpolation, max_attempts)
        self.size, self.scale, self.ratio = self._crop.size, self._crop.scale, self._crop.ratio
        self.interpolation, self.max_attempts = interpolation, max_attempts

    def _transform(self, img, boxes):
        top, left, ch, cw = self._crop.crop_box(*img.shape[:2])
        out = resize_image(img[top:top + ch, left:left + cw], *self.size, self.interpolation,
                           'RandomResizedCropWithBBox')
        boxes = crop_boxes(boxes, left, top, left + cw, top + ch)
        return out, resize_boxes(boxes, ch, cw, *self.size)


class BoundingBoxAugment(_BoxOperation):
    """Apply ``transform`` to the region of each box with probability ``ratio``, in place of
    the region (a result of another size is resized to the box, bilinearly). The boxes pass
    through unchanged; regions are taken at the boxes' integer parts.

    Args:
        transform: an image transform (a hookgrad transform object).
        ratio: the probability per box, in [0, 1]. Default 0.3.
    """

    def __init__(self, transform, ratio=0.3):
        _checks.type_check(ratio, (float, int), 'ratio')
        _checks.in_range(ratio, 0.0, 1.0, 'ratio')
        _checks.type_check(transform, (TensorOperation,), 'transform')
        self.transform, self.ratio = transform, ratio

    def _transform(self, img, boxes):
        out = img.copy()
        rng = row_generator()
        for x, y, w, h in boxes[:, :4]:
            if not rng.random() < self.ratio:
                continue
            x, y, w, h = int(x), int(y), int(w), int(h)
            region = np.asarray(self.transform(out[y:y + h, x:x + w].copy()))
            if region.shape[:2] != (h, w):
                region = resize_image(region, h, w, Inter.LINEAR)
            out[y:y + h, x:x + w] = region
        return out, boxes
