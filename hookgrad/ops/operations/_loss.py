"""MindSpore's Primitive classes for losses: cross-entropies, L2, smooth L1, KL divergence,
negative log-likelihood and soft margin.

Each computes through the functional ops it names, so it is differentiable and observed
like them. Constructor and call arguments, and the tuple outputs
(``SoftmaxCrossEntropyWithLogits``'s ``(loss, dlogits)``, ``NLLLoss``'s ``(loss,
total_weight)``), follow MindSpore 2.10's Primitives.
"""
import numbers

import numpy as np

from ..._tensor import Tensor
from .._base import as_tensor
from .. import (activation as _act, arithmetic as _arith, creation as _create, indexing as _index,
               loss as _loss, nn_loss as _nnloss, pointwise_loss as _pwloss,
               reduction as _red, scatter_gather as _scatter,
               shaping as _shape)
from ._primitive import Primitive

__all__ = ['SoftmaxCrossEntropyWithLogits', 'SparseSoftmaxCrossEntropyWithLogits',
           'SigmoidCrossEntropyWithLogits', 'BinaryCrossEntropy', 'BCEWithLogitsLoss', 'L2Loss',
           'SmoothL1Loss', 'KLDivLoss', 'NLLLoss', 'SoftMarginLoss']


def _reduction(value, prim, allowed=('none', 'mean', 'sum')):
    if value not in allowed:
        raise ValueError(f"ops.{prim}: reduction must be one of "
                         f"{', '.join(map(repr, allowed))}, got {value!r}")
    return value


def _logits_2d(logits, prim):
    x = as_tensor(logits, 'logits')
    if x.ndim != 2:
        raise ValueError(f"ops.{prim}: logits must be 2-d (N, C), got shape {x.shape}")
    return x


def _class_labels(labels, x, prim):
    t = as_tensor(labels, 'labels')
    if t._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.{prim}: labels must be an integer Tensor, got dtype {t.dtype}")
    if t.shape != x.shape[:1]:
        raise ValueError(f"ops.{prim}: labels must have shape {x.shape[:1]} for logits of "
                         f"shape {x.shape}, got {t.shape}")
    return t


class SoftmaxCrossEntropyWithLogits(Primitive):
    """``SoftmaxCrossEntropyWithLogits()(logits, labels)``: ``(loss, dlogits)`` for (N, C)
    logits and (N, C) label distributions: ``loss = -sum(labels * log_softmax(logits), 1)``
    (shape (N,)) and ``dlogits = softmax(logits) - labels``."""
    def construct(self, logits, labels):
        x = _logits_2d(logits, 'SoftmaxCrossEntropyWithLogits')
        y = as_tensor(labels, 'labels')
        if y.shape != x.shape:
            raise ValueError(f"ops.SoftmaxCrossEntropyWithLogits: labels must have the logits' "
                             f"shape {x.shape}, got {y.shape}")
        loss = _arith.neg(_red.reduce_sum(_arith.mul(y, _act.log_softmax(x, -1)), -1))
        return loss, _arith.sub(_act.softmax(x, -1), y)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """``SparseSoftmaxCrossEntropyWithLogits(is_grad=False)(logits, labels)``: the mean
    cross-entropy of (N, C) logits against (N,) class indices, a 0-d Tensor; with
    ``is_grad=True`` its gradient ``(softmax(logits) - one_hot(labels)) / N`` instead."""
    def __init__(self, is_grad=False):
        if not isinstance(is_grad, bool):
            raise TypeError(f"ops.SparseSoftmaxCrossEntropyWithLogits: is_grad must be a bool, "
                            f"got {is_grad!r}")
        super().__init__(is_grad=is_grad)

    def construct(self, logits, labels):
        prim = 'SparseSoftmaxCrossEntropyWithLogits'
        x = _logits_2d(logits, prim)
        t = _class_labels(labels, x, prim)
        if not self.is_grad:
            return _red.reduce_mean(_loss.sparse_softmax_cross_entropy(x, t))
        onehot = _create.one_hot(t, x.shape[1], 1.0, 0.0)
        diff = _arith.sub(_act.softmax(x, -1), _arith.cast(onehot, x.dtype))
        return _arith.div(diff, float(max(x.shape[0], 1)))


class SigmoidCrossEntropyWithLogits(Primitive):
    """``SigmoidCrossEntropyWithLogits()(logits, label)``: element-wise binary cross-entropy
    of ``sigmoid(logits)`` against label, computed from the logits."""
    def construct(self, logits, label):
        return _pwloss.binary_cross_entropy_with_logits(logits, label, reduction='none')


class BinaryCrossEntropy(Primitive):
    """``BinaryCrossEntropy(reduction='mean')(logits, labels, weight=None)``: binary
    cross-entropy of probabilities ``logits`` against labels."""
    def __init__(self, reduction='mean'):
        super().__init__(reduction=_reduction(reduction, 'BinaryCrossEntropy'))

    def construct(self, logits, labels, weight=None):
        return _nnloss.binary_cross_entropy(logits, labels, weight, self.reduction)


class BCEWithLogitsLoss(Primitive):
    """``BCEWithLogitsLoss(reduction='mean')(logits, label, weight=None, pos_weight=None)``:
    binary cross-entropy of ``sigmoid(logits)``, with per-element and positive-class
    weights."""
    def __init__(self, reduction='mean'):
        super().__init__(reduction=_reduction(reduction, 'BCEWithLogitsLoss'))

    def construct(self, logits, label, weight=None, pos_weight=None):
        return _pwloss.binary_cross_entropy_with_logits(logits, label, weight, pos_weight,
                                                      self.reduction)


class L2Loss(Primitive):
    """``L2Loss()(input)``: ``sum(x ** 2) / 2``, a 0-d Tensor."""
    def construct(self, input):
        return _arith.mul(_red.reduce_sum(_arith.square(input)), 0.5)


class SmoothL1Loss(Primitive):
    """``SmoothL1Loss(beta=1.0, reduction='none')(prediction, target)``: ``0.5 d ** 2 / beta``
    where ``|d| < beta``, else ``|d| - 0.5 beta``, with ``d = prediction - target``.

    Raises:
        TypeError: when beta is not a float. ValueError: when beta is not positive.
    """
    def __init__(self, beta=1.0, reduction='none'):
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
            raise TypeError(f"ops.SmoothL1Loss: beta must be a float, got {beta!r}")
        if beta <= 0:
            raise ValueError(f"ops.SmoothL1Loss: beta must be > 0, got {beta!r}")
        super().__init__(beta=float(beta), reduction=_reduction(reduction, 'SmoothL1Loss'))

    def construct(self, prediction, target):
        return _nnloss.smooth_l1_loss(prediction, target, self.beta, self.reduction)


class KLDivLoss(Primitive):
    """``KLDivLoss(reduction='mean')(logits, labels)``: ``labels * (log(labels) - logits)``
    reduced by 'none', 'mean', 'batchmean' or 'sum'."""
    def __init__(self, reduction='mean'):
        super().__init__(reduction=_reduction(reduction, 'KLDivLoss',
                                              ('none', 'mean', 'batchmean', 'sum')))

    def construct(self, logits, labels):
        return _nnloss.kl_div(logits, labels, self.reduction)


class NLLLoss(Primitive):
    """``NLLLoss(reduction='mean', ignore_index=-100)(logits, labels, weight)``: ``(loss,
    total_weight)`` for (N, C) log-probabilities, (N,) class indices and (C,) class weights.

    Each sample's loss is ``-weight[label] * logits[i, label]`` (0 for ``ignore_index``);
    total_weight is the sum of the weights of the samples not ignored. 'mean' divides the
    summed loss by total_weight.
    """
    def __init__(self, reduction='mean', ignore_index=-100):
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, numbers.Integral):
            raise TypeError(f"ops.NLLLoss: ignore_index must be an int, got {ignore_index!r}")
        super().__init__(reduction=_reduction(reduction, 'NLLLoss'),
                         ignore_index=int(ignore_index))

    def construct(self, logits, labels, weight):
        x = _logits_2d(logits, 'NLLLoss')
        t = _class_labels(labels, x, 'NLLLoss')
        w = as_tensor(weight, 'weight')
        if w.shape != x.shape[1:]:
            raise ValueError(f"ops.NLLLoss: weight must have shape {x.shape[1:]}, got {w.shape}")
        keep = t._data != self.ignore_index
        idx = np.where(keep, t._data, 0).astype(np.int64)
        if np.any((idx < 0) | (idx >= x.shape[1])):
            raise ValueError(f"ops.NLLLoss: labels must be in [0, {x.shape[1]}), got "
                             f"{t._data[keep].tolist()}")
        idx_t = Tensor._wrap(idx)
        picked = _shape.reshape(_scatter.gather_elements(
            x, 1, _shape.reshape(idx_t, (-1, 1))), (-1,))
        wt = _arith.mul(_index.gather(_arith.cast(w, x.dtype), idx_t, 0),
                        Tensor._wrap(keep.astype(x._data.dtype)))
        loss = _arith.neg(_arith.mul(picked, wt))
        total = _red.reduce_sum(wt)
        if self.reduction == 'none':
            return loss, total
        summed = _red.reduce_sum(loss)
        if self.reduction == 'sum':
            return summed, total
        return _arith.div(summed, total), total


class SoftMarginLoss(Primitive):
    """``SoftMarginLoss(reduction='mean')(input, target)``: ``log(1 + exp(-target * input))``,
    target in {-1, 1}."""
    def __init__(self, reduction='mean'):
        super().__init__(reduction=_reduction(reduction, 'SoftMarginLoss'))

    def construct(self, input, target):
        return _nnloss.soft_margin_loss(input, target, self.reduction)
