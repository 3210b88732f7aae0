"""Segmentation and saliency metrics: ``Dice``, the surface distances (``HausdorffDistance``,
``MeanSurfaceDistance``, ``RootMeanSquareDistance``) and ``OcclusionSensitivity``.

The surface of a mask is the mask minus its erosion by the cross-shaped structuring element
(outside the image counts as background), as ``scipy.ndimage.binary_erosion`` gives it. The
distance from each surface point of one mask to the nearest surface point of the other is
exact for the 'euclidean', 'chessboard' (max |d|) and 'taxicab' (sum |d|) metrics, the values
scipy's distance transforms give MindSpore.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from ..nn.cell import Cell
from .metric import Metric, rearrange_inputs

__all__ = ['Dice', 'HausdorffDistance', 'MeanSurfaceDistance', 'RootMeanSquareDistance',
           'OcclusionSensitivity']

_DISTANCES = ('euclidean', 'chessboard', 'taxicab')
_CHUNK = 1 << 22        # elements of one block of pairwise differences


class Dice(Metric):
    """The Dice coefficient ``2 |A.B| / (|A|^2 + |B|^2 + smooth)`` of each batch, summed over
    batches and divided by the number of samples (MindSpore's averaging).

    Args:
        smooth: a positive float added to the denominator. Default 1e-5.

    >>> import numpy as np, hookgrad as ms
    >>> m = ms.train.Dice(smooth=1e-5)
    >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1]]), np.array([[0, 1], [1, 0]]))
    >>> round(float(m.eval()), 6)
    0.334727
    """

    def __init__(self, smooth=1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float) or not smooth > 0:
            raise ValueError(f"Dice: smooth must be a positive float, got {smooth!r}")
        self.smooth = smooth
        self.clear()

    def clear(self):
        self._dice_coeff_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._pair(inputs)
        if y_pred.shape != y.shape:
            raise ValueError(f"Dice.update: y_pred and y must have one shape, got {y_pred.shape} "
                             f"and {y.shape}")
        self._samples_num += y.shape[0]
        a, b = y_pred.reshape(-1), y.reshape(-1)
        self._dice_coeff_sum += 2 * float(a @ b) / float(a @ a + b @ b + self.smooth)

    def eval(self):
        """The mean coefficient, a float.

        Raises:
            RuntimeError: when no sample was counted.
        """
        if self._samples_num == 0:
            raise RuntimeError("Dice.eval: no sample was counted; call update before eval")
        return self._dice_coeff_sum / float(self._samples_num)


def _surface(mask):
    """``mask`` minus its erosion by the cross (background outside the array)."""
    padded = np.pad(mask, 1, constant_values=False)
    core = tuple(slice(1, -1) for _ in range(mask.ndim))
    eroded = padded[core].copy()
    for axis in range(mask.ndim):
        for step in (-1, 1):
            shifted = list(core)
            shifted[axis] = slice(1 + step, padded.shape[axis] - 1 + step)
            eroded &= padded[tuple(shifted)]
    return eroded ^ mask


def _surface_distance(from_edges, to_edges, metric):
    """For each True point of ``from_edges``, the distance to the nearest of ``to_edges``."""
    src, dst = np.argwhere(from_edges), np.argwhere(to_edges)
    if src.shape[0] == 0:
        return np.array([])
    if dst.shape[0] == 0:
        return np.full(src.shape[0], np.inf)
    rows = max(1, _CHUNK // max(1, dst.size))
    out = np.empty(src.shape[0])
    for start in range(0, src.shape[0], rows):
        diff = np.abs(src[start:start + rows, None, :] - dst[None, :, :])
        if metric == 'euclidean':
            dist = np.sqrt((diff.astype(float) ** 2).sum(axis=-1))
        elif metric == 'chessboard':
            dist = diff.max(axis=-1)
        else:
            dist = diff.sum(axis=-1)
        out[start:start + rows] = dist.min(axis=1)
    return out


class _SurfaceMetric(Metric):
    """Shared checks and state of the surface-distance metrics."""

    def clear(self):
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    def _masks(self, inputs, compare_bool):
        who = f"{type(self).__name__}.update"
        if len(inputs) != 3:
            raise ValueError(f"{who}: expected 3 inputs (y_pred, y, label_idx), got "
                             f"{len(inputs)}")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        label_idx = inputs[2]
        if not isinstance(label_idx, (int, float)):
            raise ValueError(f"{who}: label_idx must be an int or float, got "
                             f"{type(label_idx).__name__}")
        if label_idx not in y_pred and label_idx not in y:
            raise ValueError(f"{who}: label_idx {label_idx} occurs in neither y_pred nor y")
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError(f"{who}: y_pred and y must be non-empty and of one shape, got "
                             f"{y_pred.shape} and {y.shape}")
        if compare_bool or y_pred.dtype != bool:
            y_pred = y_pred == label_idx
        if compare_bool or y.dtype != bool:
            y = y == label_idx
        return y_pred, y

    def _check_updated(self):
        if not self._is_update:
            raise RuntimeError(f"{type(self).__name__}.eval: call update before eval")


def _check_options(who, distance_metric, symmetric=None):
    if not isinstance(distance_metric, str):
        raise TypeError(f"{who}: distance_metric must be a str, got "
                        f"{type(distance_metric).__name__}")
    if distance_metric not in _DISTANCES:
        raise ValueError(f"{who}: distance_metric must be one of {_DISTANCES}, got "
                         f"{distance_metric!r}")
    if symmetric is not None and not isinstance(symmetric, bool):
        raise TypeError(f"{who}: symmetric must be a bool, got {type(symmetric).__name__}")


class HausdorffDistance(_SurfaceMetric):
    """The Hausdorff distance between the surfaces of the ``label_idx`` regions of a
    prediction and a label (the largest, or a percentile, of the surface distances).

    Args:
        distance_metric: 'euclidean', 'chessboard' or 'taxicab'.
        percentile: a float in [0, 100] to take that percentile instead of the maximum
            (None or 0.0: the maximum, as in MindSpore).
        directed: only the distances from the prediction's surface to the label's.
        crop: crop both masks to the box around their union first (dimensions of size 1 are
            then dropped, as in MindSpore).

    ``update(y_pred, y, label_idx)``: two arrays of one shape and the label to compare.
    Returns (``eval``) a float; ``inf`` when one surface is empty.
    """

    def __init__(self, distance_metric='euclidean', percentile=None, directed=False, crop=True):
        super().__init__()
        _check_options('HausdorffDistance', distance_metric)
        if percentile is not None and not isinstance(percentile, float):
            raise TypeError(f"HausdorffDistance: percentile must be a float or None, got "
                            f"{type(percentile).__name__}")
        for arg, value in (('directed', directed), ('crop', crop)):
            if not isinstance(value, bool):
                raise TypeError(f"HausdorffDistance: {arg} must be a bool, got "
                                f"{type(value).__name__}")
        self.distance_metric, self.percentile = distance_metric, percentile
        self.directed, self.crop = directed, crop
        self.clear()

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._masks(inputs, compare_bool=True)
        self._is_update = True
        if self.crop:
            union = y_pred | y
            if not union.any():
                self._y_pred_edges, self._y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                return
            box = tuple(slice(idx.min(), idx.max() + 1) for idx in np.nonzero(union))
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        self._y_pred_edges, self._y_edges = _surface(y_pred), _surface(y)

    def _directed(self, from_edges, to_edges):
        dist = _surface_distance(from_edges, to_edges, self.distance_metric)
        if dist.shape == (0,):
            return np.inf
        if not self.percentile:
            return dist.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(dist, self.percentile)
        raise ValueError(f"HausdorffDistance: percentile must be in [0, 100], got "
                         f"{self.percentile}")

    def eval(self):
        self._check_updated()
        hd = self._directed(self._y_pred_edges, self._y_edges)
        if self.directed:
            return hd
        return max(hd, self._directed(self._y_edges, self._y_pred_edges))


class MeanSurfaceDistance(_SurfaceMetric):
    """The mean distance from the prediction's surface to the label's (averaged with the
    reverse direction when ``symmetric``).

    Args:
        symmetric: average both directions. Default False.
        distance_metric: 'euclidean', 'chessboard' or 'taxicab'.

    ``update(y_pred, y, label_idx)`` as ``HausdorffDistance``; ``eval`` gives a float
    (``inf`` when a surface is empty).
    """

    def __init__(self, symmetric=False, distance_metric='euclidean'):
        super().__init__()
        _check_options(type(self).__name__, distance_metric, symmetric)
        self.symmetric, self.distance_metric = symmetric, distance_metric
        self.clear()

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._masks(inputs, compare_bool=False)
        self._y_pred_edges, self._y_edges = _surface(y_pred), _surface(y)
        self._is_update = True

    def _reduce(self, dist):
        return dist.mean()

    def _combine(self, a, b):
        return np.mean((a, b))

    def eval(self):
        self._check_updated()
        dist = _surface_distance(self._y_pred_edges, self._y_edges, self.distance_metric)
        if dist.shape == (0,):
            return np.inf
        if not self.symmetric:
            return self._reduce(dist)
        back = _surface_distance(self._y_edges, self._y_pred_edges, self.distance_metric)
        if back.shape == (0,):
            return np.inf
        return self._combine(self._reduce(dist), self._reduce(back))


class RootMeanSquareDistance(MeanSurfaceDistance):
    """The mean squared surface distance; with ``symmetric``, the root of the mean of both
    directions' mean squares (MindSpore's definition: no root when not symmetric).

    Args and inputs: as ``MeanSurfaceDistance``.
    """

    def _reduce(self, dist):
        return (dist ** 2).mean()

    def _combine(self, a, b):
        return np.sqrt(np.mean((a, b)))


class OcclusionSensitivity(Metric):
    """How much a classifier's score for the label drops when each part of the input is
    covered: ``baseline score - score with a box around each position set to pad_val``.

    Args:
        pad_val: the float that fills the covered box. Default 0.0.
        margin: the box spans ``[i - margin, i + margin)`` around position ``i`` in every
            (non-batch) dimension.
        n_batch: how many covered copies go through the model at once.
        b_box: ``[min_0, max_0, min_1, max_1, ...]`` (inclusive, per non-batch dimension;
            negative maxima mean the end) to cover positions inside that box only.

    ``update(model, y_pred, label)``: a Cell returning ``(N, classes)`` scores, one input of
    batch size 1, and its label. ``eval`` gives the drop at each position.
    """

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        checks = (('pad_val', pad_val, float), ('margin', margin, int),
                  ('n_batch', n_batch, int))
        for arg, value, kind in checks:
            if isinstance(value, bool) or not isinstance(value, kind):
                raise TypeError(f"OcclusionSensitivity: {arg} must be a {kind.__name__}, got "
                                f"{type(value).__name__}")
        if n_batch < 1:
            raise ValueError(f"OcclusionSensitivity: n_batch must be >= 1, got {n_batch}")
        if b_box is not None and not isinstance(b_box, list):
            raise TypeError(f"OcclusionSensitivity: b_box must be a list or None, got "
                            f"{type(b_box).__name__}")
        self.pad_val, self.margin, self.n_batch, self.b_box = pad_val, margin, n_batch, b_box
        self.clear()

    def clear(self):
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    def _box(self, shape):
        if self.b_box is None:
            return np.zeros(len(shape), int), shape - 1
        if len(self.b_box) != 2 * len(shape):
            raise ValueError(f"OcclusionSensitivity: b_box needs a min and a max for each of "
                             f"the {len(shape)} non-batch dimensions, got {len(self.b_box)} "
                             f"values")
        lo, hi = np.array(self.b_box[::2]), np.array(self.b_box[1::2])
        lo[lo < 0] = 0
        hi[hi < 0] = shape[hi < 0] - 1
        if np.any(hi >= shape) or np.any(lo > hi):
            raise ValueError(f"OcclusionSensitivity: b_box {self.b_box} must lie inside the "
                             f"input's shape {tuple(shape)} with each min <= max")
        return lo, hi

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 3:
            raise ValueError(f"OcclusionSensitivity.update: expected 3 inputs (model, y_pred, "
                             f"label), got {len(inputs)}")
        model, image = inputs[0], self._convert_data(inputs[1])
        label = np.array([[inputs[2]]]) if isinstance(inputs[2], numbers.Integral) else \
            self._convert_data(inputs[2])
        if not isinstance(model, Cell):
            raise TypeError(f"OcclusionSensitivity.update: model must be a Cell, got "
                            f"{type(model).__name__}")
        if image.shape[0] != 1:
            raise RuntimeError(f"OcclusionSensitivity.update: y_pred must have batch size 1, "
                               f"got {image.shape[0]}")
        if label.size != 1:
            raise RuntimeError(f"OcclusionSensitivity.update: label must hold one class, got "
                               f"{label.size}")
        label = int(label.reshape(-1)[0])
        shape = np.array(image.shape[1:])
        lo, hi = self._box(shape)
        out_shape = tuple(hi - lo + 1)
        with no_grad():
            self._baseline = model(Tensor(image)).asnumpy()[0, label].item()
            positions = np.stack(np.unravel_index(np.arange(int(np.prod(out_shape))),
                                                  out_shape), axis=1) + lo
            scores = [self._scores(model, image, label, positions[i:i + self.n_batch], shape)
                      for i in range(0, positions.shape[0], self.n_batch)]
        self._sensitivity_im = np.concatenate(scores).reshape(out_shape)
        self._is_update = True

    def _scores(self, model, image, label, positions, shape):
        """The model's score for ``label`` with a box covered around each position."""
        start = np.maximum(0, positions - self.margin)
        stop = np.minimum(shape, positions + self.margin)
        covered = np.ones((positions.shape[0],) + tuple(shape), bool)
        for axis, size in enumerate(shape):
            coord = np.arange(size)
            inside = (coord >= start[:, axis:axis + 1]) & (coord < stop[:, axis:axis + 1])
            view = [positions.shape[0]] + [1] * len(shape)
            view[axis + 1] = size
            covered &= inside.reshape(view)
        batch = np.where(covered, np.asarray(self.pad_val, image.dtype), image[0][None])
        return model(Tensor(batch.astype(image.dtype))).asnumpy()[:, label]

    def eval(self):
        """The score drop at each position, shaped as the input (or the box) without
        dimensions of size 1.

        Raises:
            RuntimeError: before any ``update``.
        """
        if not self._is_update:
            raise RuntimeError("OcclusionSensitivity.eval: call update before eval")
        return self._baseline - np.squeeze(self._sensitivity_im)
