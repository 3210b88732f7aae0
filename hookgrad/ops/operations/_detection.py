"""MindSpore's Primitive classes for object detection: box encoding and decoding against
anchors, overlaps, validity checks, non-maximum suppression and RoI Align.

Boxes are (x1, y1, x2, y2). Encoding, decoding and IOU use MindSpore's pixel convention
(a box spans ``x2 - x1 + 1`` pixels) and compute through hookgrad's ops, so gradients reach
the deltas and boxes; the validity check and NMS select boxes and carry no gradient. RoI Align
gathers feature values with fixed bilinear weights, so gradients reach the features.
Constructor and call arguments follow MindSpore 2.10's Primitives.
"""
import math
import numbers

import numpy as np

from ..._tensor import Tensor
from ...kernels.backend import device_of, to_device, to_host
from .._base import as_tensor
from .. import arithmetic as _arith, comparison as _cmp, shaping as _shape, unary as _unary
from ..indexing import gather as _gather
from ..reduction import reduce_sum as _reduce_sum
from ._primitive import Primitive, _constant

__all__ = ['BoundingBoxEncode', 'BoundingBoxDecode', 'IOU', 'CheckValid', 'NMSWithMask',
           'ROIAlign']


def _four(value, prim, what):
    items = tuple(value) if isinstance(value, (tuple, list)) else None
    if items is None or len(items) != 4 or not all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in items):
        raise TypeError(f"ops.{prim}: {what} must be a tuple of 4 floats, got {value!r}")
    return tuple(float(v) for v in items)


def _boxes(x, prim, what, width=4):
    t = as_tensor(x, what)
    if t.ndim != 2 or t.shape[1] != width:
        raise ValueError(f"ops.{prim}: {what} must have shape (N, {width}), got {t.shape}")
    return t


def _columns(t):
    return _shape.split(t, 1, 1)


def _centres(box):
    """(cx, cy, w, h) of (N, 4) boxes, each (N, 1), in the +1 pixel convention."""
    x1, y1, x2, y2 = _columns(box)
    w, h = _arith.add(_arith.sub(x2, x1), 1.0), _arith.add(_arith.sub(y2, y1), 1.0)
    return (_arith.mul(_arith.add(x1, x2), 0.5), _arith.mul(_arith.add(y1, y2), 0.5), w, h)


class BoundingBoxEncode(Primitive):
    """``BoundingBoxEncode(means=(0.0,) * 4, stds=(1.0,) * 4)(anchor_box, groundtruth_box)``:
    the (N, 4) deltas ``((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph))``,
    less ``means`` and divided by ``stds``."""
    def __init__(self, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
        super().__init__(means=_four(means, 'BoundingBoxEncode', 'means'),
                         stds=_four(stds, 'BoundingBoxEncode', 'stds'))

    def construct(self, anchor_box, groundtruth_box):
        a = _boxes(anchor_box, 'BoundingBoxEncode', 'anchor_box')
        g = _boxes(groundtruth_box, 'BoundingBoxEncode', 'groundtruth_box')
        if a.shape != g.shape:
            raise ValueError(f"ops.BoundingBoxEncode: anchor_box and groundtruth_box must have "
                             f"one shape, got {a.shape} and {g.shape}")
        px, py, pw, ph = _centres(a)
        gx, gy, gw, gh = _centres(g)
        deltas = _shape.concat([_arith.div(_arith.sub(gx, px), pw),
                                _arith.div(_arith.sub(gy, py), ph),
                                _unary.log(_arith.div(gw, pw)),
                                _unary.log(_arith.div(gh, ph))], 1)
        means = _constant(np.float32(self.means).astype(a._data.dtype), a)
        stds = _constant(np.float32(self.stds).astype(a._data.dtype), a)
        return _arith.div(_arith.sub(deltas, means), stds)


class BoundingBoxDecode(Primitive):
    """``BoundingBoxDecode(max_shape, means=(0.0,) * 4, stds=(1.0,) * 4,
    wh_ratio_clip=0.016)(anchor_box, deltas)``: the boxes the deltas describe, the inverse of
    ``BoundingBoxEncode``; the size deltas are clipped to ``|log(wh_ratio_clip)|`` and the boxes
    to ``[0, max_shape[1]] x [0, max_shape[0]]`` (max_shape is (height, width))."""
    def __init__(self, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                 wh_ratio_clip=0.016):
        if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
            raise ValueError(f"ops.BoundingBoxDecode: max_shape must be a (height, width) pair, "
                             f"got {max_shape!r}")
        if not isinstance(wh_ratio_clip, float):
            raise TypeError(f"ops.BoundingBoxDecode: wh_ratio_clip must be a float, got "
                            f"{wh_ratio_clip!r}")
        if not wh_ratio_clip > 0:
            raise ValueError(f"ops.BoundingBoxDecode: wh_ratio_clip must be > 0, got "
                             f"{wh_ratio_clip!r}")
        super().__init__(max_shape=tuple(max_shape),
                         means=_four(means, 'BoundingBoxDecode', 'means'),
                         stds=_four(stds, 'BoundingBoxDecode', 'stds'),
                         wh_ratio_clip=wh_ratio_clip)

    def construct(self, anchor_box, deltas):
        a = _boxes(anchor_box, 'BoundingBoxDecode', 'anchor_box')
        d = _boxes(deltas, 'BoundingBoxDecode', 'deltas')
        if a.shape != d.shape:
            raise ValueError(f"ops.BoundingBoxDecode: anchor_box and deltas must have one "
                             f"shape, got {a.shape} and {d.shape}")
        means = _constant(np.float32(self.means).astype(d._data.dtype), d)
        stds = _constant(np.float32(self.stds).astype(d._data.dtype), d)
        dx, dy, dw, dh = _columns(_arith.add(_arith.mul(d, stds), means))
        limit = abs(math.log(self.wh_ratio_clip))
        dw, dh = _cmp.clamp(dw, -limit, limit), _cmp.clamp(dh, -limit, limit)
        px, py, pw, ph = _centres(a)
        gx, gy = _arith.add(px, _arith.mul(pw, dx)), _arith.add(py, _arith.mul(ph, dy))
        half_w = _arith.mul(_arith.mul(pw, _unary.exp(dw)), 0.5)
        half_h = _arith.mul(_arith.mul(ph, _unary.exp(dh)), 0.5)
        height, width = (float(v) for v in self.max_shape)
        return _shape.concat([
            _cmp.clamp(_arith.add(_arith.sub(gx, half_w), 0.5), 0.0, width),
            _cmp.clamp(_arith.add(_arith.sub(gy, half_h), 0.5), 0.0, height),
            _cmp.clamp(_arith.sub(_arith.add(gx, half_w), 0.5), 0.0, width),
            _cmp.clamp(_arith.sub(_arith.add(gy, half_h), 0.5), 0.0, height)], 1)


def _area(box):
    x1, y1, x2, y2 = _columns(box)
    return _arith.mul(_arith.add(_arith.sub(x2, x1), 1.0), _arith.add(_arith.sub(y2, y1), 1.0))


class IOU(Primitive):
    """``IOU(mode='iou')(anchor_boxes, gt_boxes)``: the (N_gt, N_anchor) overlaps, the
    intersection's area over the union's ('iou') or over the ground-truth box's ('iof')."""
    def __init__(self, mode='iou'):
        if mode not in ('iou', 'iof'):
            raise KeyError(f"ops.IOU: mode must be 'iou' or 'iof', got {mode!r}")
        super().__init__(mode=mode)

    def construct(self, anchor_boxes, gt_boxes):
        a = _boxes(anchor_boxes, 'IOU', 'anchor_boxes')
        g = _boxes(gt_boxes, 'IOU', 'gt_boxes')
        ax1, ay1, ax2, ay2 = (_shape.reshape(c, (1, -1)) for c in _columns(a))
        gx1, gy1, gx2, gy2 = _columns(g)                     # (N_gt, 1) against (1, N_anchor)
        iw = _cmp.maximum(_arith.add(_arith.sub(_cmp.minimum(ax2, gx2),
                                                _cmp.maximum(ax1, gx1)), 1.0), 0.0)
        ih = _cmp.maximum(_arith.add(_arith.sub(_cmp.minimum(ay2, gy2),
                                                _cmp.maximum(ay1, gy1)), 1.0), 0.0)
        inter = _arith.mul(iw, ih)
        area_g = _area(g)
        if self.mode == 'iof':
            return _arith.div(inter, area_g)
        union = _arith.sub(_arith.add(_shape.reshape(_area(a), (1, -1)), area_g), inter)
        return _arith.div(inter, union)


class CheckValid(Primitive):
    """``CheckValid()(bboxes, img_metas)``: Bool (N,), whether each box lies in the image:
    ``x1 >= 0``, ``y1 >= 0``, ``x2 <= width * ratio - 1`` and ``y2 <= height * ratio - 1``
    with img_metas (height, width, ratio)."""
    def construct(self, bboxes, img_metas):
        b = _boxes(bboxes, 'CheckValid', 'bboxes')
        meta = as_tensor(img_metas, 'img_metas')
        if meta.shape != (3,):
            raise ValueError(f"ops.CheckValid: img_metas must be (height, width, ratio), got "
                             f"shape {meta.shape}")
        # the limits computed in float64 as Python floats would be, on the boxes' device
        dtype = b._data.dtype if b._data.dtype.kind in 'fV' else np.float64
        height, width, ratio = meta._data.astype(np.float64)
        x1, y1, x2, y2 = (b._data[:, i] for i in range(4))
        valid = (x1 >= 0) & (y1 >= 0) & (x2 <= (width * ratio - 1).astype(dtype)) & \
            (y2 <= (height * ratio - 1).astype(dtype))
        return Tensor._wrap(valid)


class NMSWithMask(Primitive):
    """``NMSWithMask(iou_threshold=0.5)(bboxes)``: ``(selected_boxes, selected_idx,
    selected_mask)`` for (N, 5) rows (x1, y1, x2, y2, score).

    The rows come back sorted by descending score; selected_idx is Int32 ``0..N-1`` (their
    positions in that order, as MindSpore's kernel returns them) and selected_mask is True for
    the rows kept: a row is dropped when its overlap (area intersection over union, boxes
    spanning ``x2 - x1``) with a kept higher-scoring row exceeds iou_threshold.
    """
    def __init__(self, iou_threshold=0.5):
        if isinstance(iou_threshold, bool) or not isinstance(iou_threshold, float):
            raise TypeError(f"ops.NMSWithMask: iou_threshold must be a float, got "
                            f"{iou_threshold!r}")
        super().__init__(iou_threshold=iou_threshold)

    def construct(self, bboxes):
        b = _boxes(bboxes, 'NMSWithMask', 'bboxes', width=5)
        data = to_host(b._data)         # a greedy pass, row by row: on the host
        order = np.argsort(-data[:, 4], kind='stable')
        boxes = data[order]
        x1, y1, x2, y2 = (boxes[:, i] for i in range(4))
        area = (x2 - x1) * (y2 - y1)
        iw = np.maximum(np.minimum(x2[:, None], x2) - np.maximum(x1[:, None], x1), 0)
        ih = np.maximum(np.minimum(y2[:, None], y2) - np.maximum(y1[:, None], y1), 0)
        inter = iw * ih
        with np.errstate(divide='ignore', invalid='ignore'):
            over = inter / (area[:, None] + area - inter) > self.iou_threshold
        keep = np.ones(len(boxes), bool)
        for i in range(len(boxes)):          # greedy: each kept row suppresses later ones
            if keep[i]:
                keep[i + 1:] &= ~over[i, i + 1:]
        device = device_of(b._data)
        return tuple(Tensor._wrap(to_device(a, device)) for a in
                     (np.ascontiguousarray(boxes), np.arange(len(boxes), dtype=np.int32), keep))


def _int_attr(value, prim, what):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"ops.{prim}: {what} must be an int, got {value!r}")
    return value


def _axis_samples(start, size, bins, grid, limit, dtype):
    """Per bin and sample along one axis: (low index, high index, high weight, inside), each
    (bins, grid), the sample points placed and clamped as MindSpore's kernel does."""
    step = size / dtype.type(bins)
    at = (start + np.arange(bins, dtype=dtype)[:, None] * step +
          (np.arange(grid, dtype=dtype)[None, :] + dtype.type(0.5)) * step / dtype.type(grid))
    inside = (at >= -1) & (at <= limit)
    at = np.maximum(at, 0)
    low = at.astype(np.int64)
    edge = low >= limit - 1
    low = np.where(edge, limit - 1, low)
    high = np.where(edge, low, low + 1)
    frac = np.where(edge, 0, at - low).astype(dtype)
    return low, high, frac, inside


class ROIAlign(Primitive):
    """``ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2,
    roi_end_mode=1)(features, rois)``: for each RoI row (image index, x1, y1, x2, y2) of
    ``rois``, a (C, pooled_height, pooled_width) map of ``features`` (N, C, H, W), each bin the
    mean of its grid of bilinearly interpolated samples.

    Coordinates scale by spatial_scale; roi_end_mode 1 moves the end corner by one scaled
    pixel, roi_end_mode 0 (the legacy form) makes a RoI at least 1 x 1. A bin holds
    ``sample_num`` samples per axis, or, with ``sample_num <= 0``, the RoI's size over the
    pooled size rounded down (a RoI smaller than its pooled size then has no samples and
    gives NaN, as MindSpore's kernel). Samples more than one pixel outside the map count as
    0. The output has the features' dtype; the gradient reaches the features.
    """
    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
        for name, v in (('pooled_height', pooled_height), ('pooled_width', pooled_width),
                        ('sample_num', sample_num), ('roi_end_mode', roi_end_mode)):
            _int_attr(v, 'ROIAlign', name)
        if isinstance(spatial_scale, bool) or not isinstance(spatial_scale, float):
            raise TypeError(f"ops.ROIAlign: spatial_scale must be a float, got "
                            f"{spatial_scale!r}")
        if roi_end_mode not in (0, 1):
            raise ValueError(f"ops.ROIAlign: roi_end_mode must be 0 or 1, got {roi_end_mode}")
        super().__init__(pooled_height=pooled_height, pooled_width=pooled_width,
                         spatial_scale=spatial_scale, sample_num=sample_num,
                         roi_end_mode=roi_end_mode)

    def construct(self, features, rois):
        x = as_tensor(features, 'features')
        r = _boxes(rois, 'ROIAlign', 'rois', width=5)
        if x.ndim != 4:
            raise ValueError(f"ops.ROIAlign: features must have shape (N, C, H, W), got "
                             f"{x.shape}")
        n, c, h, w = x.shape
        ph, pw, sn = self.pooled_height, self.pooled_width, self.sample_num
        dtype = np.dtype(np.float32) if x._data.dtype == np.float16 else x._data.dtype
        boxes = to_host(r._data).astype(dtype)
        scale, shift = dtype.type(self.spatial_scale), dtype.type(self.roi_end_mode)
        flat = _shape.reshape(x, (n, c, h * w))
        outs = []
        for row in boxes:
            b = int(np.rint(row[0]))
            if not 0 <= b < n:
                raise ValueError(f"ops.ROIAlign: a RoI names image {b}, features hold {n}")
            x1, y1 = row[1] * scale, row[2] * scale
            rw, rh = (row[3] + shift) * scale - x1, (row[4] + shift) * scale - y1
            if self.roi_end_mode == 0:
                rw, rh = max(rw, dtype.type(1)), max(rh, dtype.type(1))
            gh = sn if sn > 0 else int(np.floor(rh / dtype.type(ph)))
            gw = sn if sn > 0 else int(np.floor(rw / dtype.type(pw)))
            with np.errstate(divide='ignore', invalid='ignore'):
                norm = dtype.type(1) / dtype.type(gh * gw)
            if gh <= 0 or gw <= 0:      # no samples: 0 / count, as MindSpore's kernel
                with np.errstate(invalid='ignore'):
                    empty = np.full((c, ph, pw), dtype.type(0) * norm, x._data.dtype)
                zero = _arith.mul(_gather(flat[b], Tensor._wrap(np.zeros((ph, pw), np.int32)),
                                          1), 0.0)
                outs.append(_arith.add(zero, Tensor._wrap(to_device(empty, device_of(x._data)))))
                continue
            yl, yh, fy, iny = _axis_samples(y1, rh, ph, gh, h, dtype)
            xl, xh, fx, inx = _axis_samples(x1, rw, pw, gw, w, dtype)
            # (ph, gh, pw, gw) samples, 4 corners each
            idx = np.stack([(ry[:, :, None, None] * w + rx[None, None]) for ry, rx in
                            ((yl, xl), (yl, xh), (yh, xl), (yh, xh))], -1)
            wy = (1 - fy)[:, :, None, None], fy[:, :, None, None]
            wx = (1 - fx)[None, None], fx[None, None]
            wgt = np.stack([wy[0] * wx[0], wy[0] * wx[1], wy[1] * wx[0], wy[1] * wx[1]], -1)
            wgt = wgt * (iny[:, :, None, None] & inx[None, None])[..., None] * norm
            order = (0, 2, 1, 3, 4)         # (ph, pw, gh, gw, 4)
            idx = np.ascontiguousarray(idx.transpose(order)).reshape(ph, pw, -1).astype(np.int32)
            wgt = np.ascontiguousarray(wgt.transpose(order)).reshape(ph, pw, -1)
            device = device_of(x._data)
            vals = _gather(flat[b], Tensor._wrap(to_device(idx, device)), 1)
            weights = Tensor._wrap(to_device(wgt.astype(x._data.dtype), device))
            outs.append(_reduce_sum(_arith.mul(vals, weights), -1))
        if not outs:
            return Tensor._wrap(np.zeros((0, c, ph, pw), x._data.dtype))
        return _shape.stack(outs, 0)
