"""Perspective warps (MindSpore's ``vision.Perspective`` and ``vision.RandomPerspective``).

NumPy images follow MindSpore's C++ kernel: OpenCV's ``getPerspectiveTransform`` and
``warpPerspective`` (``_warp``), with 0 for uncovered pixels, so NEAREST and uint8 BILINEAR
give MindSpore's values. PIL images go through Pillow's ``Image.transform`` with the
coefficients MindSpore's Python code solves for, as in MindSpore.
"""
import numpy as np
from PIL import Image

from ..engine import row_generator
from ..transforms import _checks
from ._base import _CV_MODES, _PIL_FILTERS, ImageTensorOperation, check_image, fill_for
from . import _warp
from .utils import Inter

__all__ = ['Perspective', 'RandomPerspective']

_INT32_MIN = -2147483648


def _points(points, name):
    _checks.type_check(points, (list, tuple), name)
    for i, point in enumerate(points):
        _checks.type_check(point, (list, tuple), f'{name}[{i}]')
    if len(points) != 4:
        raise TypeError(f"{name} should be a list or tuple of length 4.")
    for i, point in enumerate(points):
        if len(point) != 2:
            raise TypeError(f"{name}[{i}] should be a list or tuple of length 2.")
        for j, value in enumerate(point):
            _checks.type_check(value, (int,), f'{name}[{i}][{j}]')
            _checks.in_range(value, _INT32_MIN, _checks.INT32_MAX, f'{name}[{i}][{j}]')
    return [tuple(p) for p in points]


def pil_perspective(img, start_points, end_points, interpolation):
    """A PIL image warped so that ``start_points`` land on ``end_points`` (Pillow)."""
    rows, targets = [], []
    for (x, y), (u, v) in zip(end_points, start_points):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        targets += [u, v]
    coeffs = np.linalg.lstsq(np.array(rows, float), np.array(targets, float), rcond=None)[0]
    return img.transform(img.size, Image.PERSPECTIVE, coeffs.tolist(),
                         _PIL_FILTERS[interpolation])


class Perspective(ImageTensorOperation):
    """Warp an image so that ``start_points`` move to ``end_points``.

    Args:
        start_points, end_points: four (x, y) integer points each, in order top left, top right,
            bottom right, bottom left.
        interpolation: an ``Inter``. Default BILINEAR. NumPy images take NEAREST, BILINEAR,
            BICUBIC (within one grey level) and AREA (as BILINEAR); PIL images NEAREST,
            BILINEAR and BICUBIC.
    """

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        self.start_points = _points(start_points, 'start_points')
        self.end_points = _points(end_points, 'end_points')
        _checks.type_check(interpolation, (Inter,), 'interpolation')
        self.interpolation = interpolation

    def _apply(self, img):
        if self.interpolation == Inter.ANTIALIAS:
            raise TypeError("Current Interpolation is not supported with NumPy input.")
        if self.interpolation not in _CV_MODES:
            raise RuntimeError("Perspective: Invalid InterpolationMode, check input value of "
                               "enum.")
        check_image(img, 'Perspective')
        mode = 'linear' if self.interpolation == Inter.AREA else _CV_MODES[self.interpolation]
        matrix = _warp.perspective_matrix(self.start_points, self.end_points)
        return _warp.warp_perspective(img, matrix, mode, fill_for(img, (0, 0, 0)))

    def _apply_pil(self, img):
        if self.interpolation in (Inter.AREA, Inter.PILCUBIC):
            return self._apply(np.asarray(img))
        if self.interpolation not in _PIL_FILTERS:
            raise RuntimeError("Unsupported interpolation, only support NEAREST, ANTIALIAS, "
                               "LINEAR and CUBIC.")
        return pil_perspective(img, self.start_points, self.end_points, self.interpolation)


class RandomPerspective(ImageTensorOperation):
    """With probability ``prob``, warp a PIL image so that its corners move inwards by random
    amounts of up to ``distortion_scale`` of half the width and height (Pillow, as MindSpore).

    Args:
        distortion_scale: a float in [0, 1]. Default 0.5.
        prob: a float in [0, 1]. Default 0.5.
        interpolation: NEAREST, BILINEAR or BICUBIC (default).
    """

    def __init__(self, distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC):
        _checks.type_check(distortion_scale, (float,), 'distortion_scale')
        _checks.type_check(prob, (float,), 'prob')
        _checks.in_range(distortion_scale, 0.0, 1.0, 'distortion_scale')
        _checks.in_range(prob, 0.0, 1.0, 'prob')
        _checks.type_check(interpolation, (Inter,), 'interpolation')
        self.distortion_scale, self.prob = distortion_scale, prob
        self.interpolation = interpolation

    def _apply(self, img):
        raise ValueError("Input image should be a Pillow image.")

    def end_points(self, rng, width, height):
        """Random corners (top left, top right, bottom right, bottom left), as MindSpore draws
        them: each within ``distortion_scale`` of half the size from its corner."""
        dw = int(width / 2 * self.distortion_scale)
        dh = int(height / 2 * self.distortion_scale)
        near_x, far_x = (0, dw), (width - dw - 1, width - 1)
        near_y, far_y = (0, dh), (height - dh - 1, height - 1)
        draw = lambda span: int(rng.integers(span[0], span[1] + 1))  # noqa: E731
        return [(draw(near_x), draw(near_y)), (draw(far_x), draw(near_y)),
                (draw(far_x), draw(far_y)), (draw(near_x), draw(far_y))]

    def _apply_pil(self, img):
        rng = row_generator()
        if not self.prob > rng.random():
            return img
        width, height = img.size
        start = [(0, 0), (width - 1, 0), (width - 1, height - 1), (0, height - 1)]
        return pil_perspective(img, start, self.end_points(rng, width, height),
                               self.interpolation)
