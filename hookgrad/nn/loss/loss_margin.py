"""Margin, ranking and segmentation losses (MindSpore 2.x ``nn``): SoftMarginLoss,
MarginRankingLoss, CosineEmbeddingLoss, HingeEmbeddingLoss, TripletMarginLoss, MultiMarginLoss,
MultiLabelSoftMarginLoss, DiceLoss, FocalLoss."""
import numbers

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ..layer.activation import LogSoftmax
from .loss import LossBase, _check_tensors

__all__ = ['SoftMarginLoss', 'MarginRankingLoss', 'CosineEmbeddingLoss', 'HingeEmbeddingLoss',
           'TripletMarginLoss', 'MultiMarginLoss', 'MultiLabelSoftMarginLoss', 'DiceLoss',
           'FocalLoss']


def _optional_tensor(value, cell, arg):
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"nn.{cell}: {arg} must be a Tensor or None, got {type(value).__name__}")
    return value


class SoftMarginLoss(LossBase):
    """``ops.soft_margin_loss``: ``log(1 + exp(-y x))`` for labels y in {-1, 1}.

    Args:
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
    """

    def construct(self, logits, labels):
        return ops.soft_margin_loss(logits, labels, self.reduction)


class MarginRankingLoss(LossBase):
    """``ops.margin_ranking_loss``: ``max(0, -y (x1 - x2) + margin)``.

    Args:
        margin: a float. Default 0.0.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        TypeError: for a non-float ``margin``.
    """

    def __init__(self, margin=0.0, reduction='mean'):
        super().__init__(reduction)
        if not isinstance(margin, float):
            raise TypeError(f"nn.MarginRankingLoss: margin must be a float, got "
                            f"{type(margin).__name__}")
        self.margin = margin

    def construct(self, input1, input2, target):
        return ops.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """``ops.cosine_embedding_loss`` of two (N, D, ...) inputs and (N, ...) labels in {1, -1}.

    Args:
        margin: a float in [-1.0, 1.0]. Default 0.0.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        TypeError: for a non-float ``margin``.
        ValueError: for a ``margin`` outside [-1, 1].
    """

    def __init__(self, margin=0.0, reduction='mean'):
        super().__init__(reduction)
        if not isinstance(margin, float):
            raise TypeError(f"nn.CosineEmbeddingLoss: margin must be a float, got "
                            f"{type(margin).__name__}")
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"nn.CosineEmbeddingLoss: margin must be in [-1.0, 1.0], got "
                             f"{margin}")
        self.margin = margin

    def construct(self, logits_x1, logits_x2, labels):
        return self.get_loss(ops.cosine_embedding_loss(logits_x1, logits_x2, labels,
                                                       self.margin, 'none'))


class HingeEmbeddingLoss(LossBase):
    """``ops.hinge_embedding_loss``: ``x`` for label 1, ``max(0, margin - x)`` for -1.

    Args:
        margin: a number. Default 1.0.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
    """

    def __init__(self, margin=1.0, reduction='mean'):
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
            raise TypeError(f"nn.HingeEmbeddingLoss: margin must be a float or int, got "
                            f"{type(margin).__name__}")
        self.margin = margin

    def construct(self, logits, labels):
        return ops.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class TripletMarginLoss(LossBase):
    """``ops.triplet_margin_loss``; ``construct(x, positive, negative, margin=1.0)`` uses the
    cell's margin unless that is 1.0 (MindSpore's rule).

    Args:
        p: the norm degree, an int >= 1. Default 2.
        swap: use the distance swap. Default False.
        eps: added inside the distances. Default 1e-6.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
        margin: a number. Default 1.0.
    """

    def __init__(self, p=2, swap=False, eps=1e-06, reduction='mean', margin=1.0):
        super().__init__(reduction)
        if isinstance(p, bool) or not isinstance(p, numbers.Integral) or p < 1:
            raise ValueError(f"nn.TripletMarginLoss: p must be an int >= 1, got {p!r}")
        if not isinstance(swap, bool):
            raise TypeError(f"nn.TripletMarginLoss: swap must be a bool, got {swap!r}")
        self.p = int(p)
        self.swap = swap
        self.eps = eps
        self.margin = margin

    def construct(self, x, positive, negative, margin=1.0):
        if self.margin != 1.0:
            margin = self.margin
        return ops.triplet_margin_loss(x, positive, negative, margin, self.p, self.eps,
                                       self.swap, self.reduction)


class MultiMarginLoss(LossBase):
    """``ops.multi_margin_loss`` of (N, C) scores against (N,) class indices.

    Args:
        p: 1 or 2. Default 1.
        margin: a number. Default 1.0.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
        weight: a (C,) Tensor of class weights, or None; also accepted by construct (the
            cell's wins).

    Raises:
        ValueError: for another ``p``.
    """

    def __init__(self, p=1, margin=1.0, reduction='mean', weight=None):
        super().__init__(reduction)
        if p not in (1, 2) or isinstance(p, bool):
            raise ValueError(f"nn.MultiMarginLoss: p must be 1 or 2, got {p!r}")
        if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
            raise TypeError(f"nn.MultiMarginLoss: margin must be a float, got "
                            f"{type(margin).__name__}")
        self.p = p
        self.margin = float(margin)
        self.weight = _optional_tensor(weight, 'MultiMarginLoss', 'weight')

    def construct(self, x, target, weight=None):
        _check_tensors(self, x=x, target=target)
        if self.weight is not None:
            weight = self.weight
        x = x if x._data.dtype.kind in 'fV' else ops.cast(x, _dtype.float32)
        n, c = x.shape if x.ndim == 2 else (0, 0)
        if x.ndim != 2:
            raise ValueError(f"nn.MultiMarginLoss: x must be 2-d (N, C), got shape {x.shape}")
        hot = ops.cast(ops.one_hot(target, c, 1.0, 0.0), x.dtype)
        picked = ops.sum(x * hot, 1, keepdim=True)
        hinge = ops.maximum(x - picked + self.margin, 0.0) * (1.0 - hot)
        if self.p == 2:
            hinge = hinge * hinge
        if weight is not None:
            hinge = hinge * ops.expand_dims(ops.sum(hot * weight, 1), 1)
        loss = ops.sum(hinge, 1) / c
        if self.reduction == 'none':
            return loss
        return ops.mean(loss) if self.reduction == 'mean' else ops.sum(loss)


class MultiLabelSoftMarginLoss(LossBase):
    """``ops.multilabel_soft_margin_loss``.

    Args:
        weight: a Tensor of class weights, or None.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
    """

    def __init__(self, weight=None, reduction='mean'):
        super().__init__(reduction)
        self.weight = _optional_tensor(weight, 'MultiLabelSoftMarginLoss', 'weight')

    def construct(self, x, target):
        return ops.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class DiceLoss(LossBase):
    """Dice loss ``1 - 2 sum(x y) / (sum(x x) + sum(y y) + smooth)`` over all elements.

    Args:
        smooth: a positive float keeping the denominator away from 0. Default 1e-5.

    Raises:
        ValueError: for a non-positive ``smooth``, or inputs of different shapes.
    """

    def __init__(self, smooth=1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float) or smooth <= 0:
            raise ValueError(f"nn.DiceLoss: smooth must be a positive float, got {smooth!r}")
        self.smooth = smooth

    def construct(self, logits, label):
        _check_tensors(self, logits=logits, labels=label)
        if logits.shape != label.shape:
            raise ValueError(f"nn.DiceLoss: logits and labels must have one shape, got "
                             f"{logits.shape} and {label.shape}")
        for arg, x in (('logits', logits), ('labels', label)):
            if x._data.dtype == 'uint8':
                raise TypeError(f"nn.DiceLoss: the dtype of {arg} can not be UInt8")
        x = ops.reshape(logits, (-1,))
        y = ops.reshape(label, (-1,))
        if y.dtype != x.dtype:
            y = ops.cast(y, x.dtype)
        intersection = ops.sum(x * y)
        union = ops.sum(x * x) + ops.sum(y * y)
        return 1.0 - 2.0 * intersection / (union + self.smooth)


class FocalLoss(LossBase):
    """Focal loss ``-(1 - p) ** gamma * log(p)`` of softmax probabilities over axis 1.

    Labels are class indices of shape (N, 1, ...) or one-hot (N, C, ...); the loss is averaged
    over the positions (and, one-hot, kept per class) before the reduction.

    Args:
        weight: a (C,) Tensor of class weights, or None.
        gamma: the focusing exponent, a float. Default 2.0.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        TypeError: for a non-float ``gamma``, or a ``weight`` that is not a Tensor.
        ValueError: for a weight that is not 1-d, logits or labels of rank outside [2, 4], or
            labels whose axis 1 is neither 1 nor C.
    """

    def __init__(self, weight=None, gamma=2.0, reduction='mean'):
        super().__init__(reduction)
        if not isinstance(gamma, float):
            raise TypeError(f"nn.FocalLoss: gamma must be a float, got {type(gamma).__name__}")
        _optional_tensor(weight, 'FocalLoss', 'weight')
        if weight is not None and weight.ndim != 1:
            raise ValueError(f"nn.FocalLoss: weight must be 1-d, got shape {weight.shape}")
        self.gamma = gamma
        self.weight = weight
        self.logsoftmax = LogSoftmax(1)

    def construct(self, logits, labels):
        _check_tensors(self, logits=logits, labels=labels)
        for arg, x in (('logits', logits), ('labels', labels)):
            if not 2 <= x.ndim <= 4:
                raise ValueError(f"nn.FocalLoss: {arg} must have 2 to 4 dimensions, got shape "
                                 f"{x.shape}")
        if logits.ndim != labels.ndim:
            raise ValueError(f"nn.FocalLoss: logits and labels must have the same rank, got "
                             f"{logits.shape} and {labels.shape}")
        n, c = logits.shape[:2]
        if c == 1 or labels.shape[1] not in (1, c):
            raise ValueError(f"nn.FocalLoss: labels.shape[1] must be 1 or C={c} (and C > 1), "
                             f"got labels of shape {labels.shape}")
        x = ops.reshape(logits, (n, c, -1))
        logp = self.logsoftmax(x)
        indexed = labels.shape[1] == 1
        if indexed:
            idx = ops.reshape(labels, (n, -1))
            hot = ops.transpose(ops.cast(ops.one_hot(ops.cast(idx, _dtype.int64), c, 1.0, 0.0),
                                         logp.dtype), (0, 2, 1))
            logp = ops.sum(logp * hot, 1)
        else:
            hot = ops.reshape(ops.cast(labels, logp.dtype), (n, c, -1))
        p = ops.exp(logp)
        if self.weight is not None:
            w = ops.reshape(ops.cast(self.weight, logp.dtype), (1, c, 1))
            logp = logp * (ops.sum(hot * w, 1) if indexed else w)
        focus = (1.0 - p) ** self.gamma
        if indexed:
            loss = ops.mean(-focus * logp, 1)
        else:
            loss = ops.mean(-focus * hot * logp, -1)
        return self.get_loss(loss)
