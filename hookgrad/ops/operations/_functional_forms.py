"""``ops`` functions that MindSpore 2.10 defines as a call of one of its Primitives, where
hookgrad's Primitive holds the computation: lrn, iou, bounding_box_encode,
bounding_box_decode, check_valid and invert (``ops.X(args)`` is ``ops.Prim(attrs)(args)``)."""
from ._detection import IOU, BoundingBoxDecode, BoundingBoxEncode, CheckValid
from ._elementwise import Invert
from ._normalization import LRN

__all__ = ['lrn', 'iou', 'bounding_box_encode', 'bounding_box_decode', 'check_valid', 'invert']


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS'):
    """Local response normalization of (N, C, H, W) across channels: ``x / (bias + alpha *
    sum of x^2 over channels within depth_radius) ^ beta``; see ``ops.LRN``."""
    return LRN(depth_radius, bias, alpha, beta, norm_region)(x)


def iou(anchor_boxes, gt_boxes, mode='iou'):
    """The (N_gt, N_anchor) overlaps of (x1, y1, x2, y2) boxes: intersection over union
    ('iou') or over the ground-truth box ('iof'); see ``ops.IOU``."""
    return IOU(mode)(anchor_boxes, gt_boxes)


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0)):
    """Deltas (dx, dy, dw, dh) of ground-truth boxes against anchors, normalised by ``means``
    and ``stds``; see ``ops.BoundingBoxEncode``."""
    return BoundingBoxEncode(means, stds)(anchor_box, groundtruth_box)


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    """Boxes from anchors and deltas, clipped to ``max_shape`` (height, width); see
    ``ops.BoundingBoxDecode``."""
    return BoundingBoxDecode(max_shape, means, stds, wh_ratio_clip)(anchor_box, deltas)


def check_valid(bboxes, img_metas):
    """Bool (N,): whether each box lies inside the image of ``img_metas`` (height, width,
    ratio); see ``ops.CheckValid``."""
    return CheckValid()(bboxes, img_metas)


def invert(x):
    """Bitwise NOT of an integer tensor; see ``ops.Invert``."""
    return Invert()(x)
