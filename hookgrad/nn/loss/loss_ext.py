"""More MindSpore 2.x ``nn`` losses: CTCLoss, MultiClassDiceLoss, MultilabelMarginLoss,
TripletMarginWithDistanceLoss, SampledSoftmaxLoss, L1LossExt. Each is composed of ops (CTCLoss
of the ``ctc_loss`` op), so gradients come from autograd."""
import numpy as np

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...ops.ctc import ctc_loss
from ..cell import Cell
from ..layer.activation import get_activation
from .loss import LossBase, _check_tensors
from .loss_margin import DiceLoss

__all__ = ['CTCLoss', 'MultiClassDiceLoss', 'MultilabelMarginLoss',
           'TripletMarginWithDistanceLoss', 'SampledSoftmaxLoss', 'L1LossExt']


class L1LossExt(LossBase):
    """Absolute error ``|logits - labels|`` (broadcast), reduced.

    Args:
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        ValueError: for another ``reduction``.
        TypeError: for inputs that are not Tensors.
    """

    def construct(self, logits, labels):
        _check_tensors(self, logits=logits, labels=labels)
        loss = ops.abs(logits - labels)
        if self.reduction == 'none':
            return loss
        return ops.mean(loss) if self.reduction == 'mean' else ops.sum(loss)


class CTCLoss(LossBase):
    """Connectionist temporal classification loss (``ops.ctc_loss`` in hookgrad/ops/ctc.py).

    ``construct(log_probs, targets, input_lengths, target_lengths)``: log-probabilities
    (T, N, C) against padded targets (N, S), or one unbatched sequence (T, C) with targets (S,)
    or (1, S).

    Args:
        blank: the blank class. Default 0.
        reduction: 'none', 'mean' (each loss divided by its target length, then averaged) or
            'sum'. Default 'mean'.
        zero_infinity: whether impossible alignments get loss and gradient 0. Default False.

    Raises:
        TypeError: for non-Tensor log_probs or targets.
        ValueError: for unbatched targets of more than 2 dimensions, or 2-d ones of more than
            one row; ``ops.ctc_loss``'s errors otherwise.
    """

    def __init__(self, blank=0, reduction='mean', zero_infinity=False):
        super().__init__(reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        _check_tensors(self, log_probs=log_probs, targets=targets)
        unbatched = log_probs.ndim == 2
        if unbatched:
            if targets.ndim > 2 or (targets.ndim == 2 and targets.shape[0] != 1):
                raise ValueError(f"nn.CTCLoss: for log_probs (T, C) the targets must be (S,) or "
                                 f"(1, S), got shape {targets.shape}")
            targets = ops.reshape(targets, (1, -1))
            log_probs = ops.expand_dims(log_probs, -2)
        loss, _ = ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                           self.reduction, self.zero_infinity)
        return ops.squeeze(loss, 0) if unbatched and self.reduction == 'none' else loss


class MultiClassDiceLoss(LossBase):
    """The mean over the C channels (axis 1) of the binary ``DiceLoss`` (smooth 1e-5) of each.

    The activation is applied to the logits first; as MindSpore's, 'softmax' and 'logsoftmax'
    act over the last axis. The ignored channel adds 0 but still counts in the mean; with
    ``weights`` (2-d, C rows) channel i's loss is multiplied by row ``weights[i]``, so the loss
    has the rows' shape.

    Args:
        weights: a 2-d Tensor (C, K), or None.
        ignore_indiex: a channel left out (MindSpore's spelling), or None.
        activation: 'softmax', 'logsoftmax', 'relu', 'relu6', 'tanh', 'sigmoid', a Cell, or
            None. Default 'softmax'.

    Raises:
        TypeError: for ``weights`` that is not a Tensor, a non-int ``ignore_indiex``, or an
            activation that is neither a name nor a Cell; non-Tensor inputs.
        ValueError: for ``weights`` that is not 2-d, another activation name, inputs of
            different shapes or of fewer than 2 dimensions, or weights whose rows are not C.
    """

    _ACTIVATIONS = ('softmax', 'logsoftmax', 'relu', 'relu6', 'tanh', 'sigmoid')

    def __init__(self, weights=None, ignore_indiex=None, activation='softmax'):
        super().__init__()
        if weights is not None and not isinstance(weights, Tensor):
            raise TypeError(f"nn.MultiClassDiceLoss: weights must be a Tensor or None, got "
                            f"{type(weights).__name__}")
        if weights is not None and weights.ndim != 2:
            raise ValueError(f"nn.MultiClassDiceLoss: weights must be 2-d, got shape "
                             f"{weights.shape}")
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool)
                                          or not isinstance(ignore_indiex, int)):
            raise TypeError(f"nn.MultiClassDiceLoss: ignore_indiex must be an int or None, got "
                            f"{type(ignore_indiex).__name__}")
        if isinstance(activation, str):
            if activation not in self._ACTIVATIONS:
                raise ValueError(f"nn.MultiClassDiceLoss: activation must be one of "
                                 f"{list(self._ACTIVATIONS)}, got {activation!r}")
            activation = get_activation(activation)
        if activation is not None and not isinstance(activation, Cell):
            raise TypeError(f"nn.MultiClassDiceLoss: activation must be a str, a Cell or None, "
                            f"got {type(activation).__name__}")
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        self.weights = weights
        self.ignore_indiex = ignore_indiex
        self.activation = activation

    def construct(self, logits, label):
        _check_tensors(self, logits=logits, labels=label)
        if logits.shape != label.shape:
            raise ValueError(f"nn.MultiClassDiceLoss: logits and labels must have one shape, "
                             f"got {logits.shape} and {label.shape}")
        if logits.ndim < 2:
            raise ValueError(f"nn.MultiClassDiceLoss: logits and labels must have at least 2 "
                             f"dimensions, got {logits.ndim}")
        channels = label.shape[1]
        if self.weights is not None and self.weights.shape[0] != channels:
            raise ValueError(f"nn.MultiClassDiceLoss: weights must have C = {channels} rows "
                             f"(labels.shape[1]), got {self.weights.shape[0]}")
        if self.activation is not None:
            logits = self.activation(logits)
        total = 0
        for i in range(channels):
            if i != self.ignore_indiex:
                loss = self.binarydiceloss(logits[:, i], label[:, i])
                if self.weights is not None:
                    loss = loss * self.weights[i]
                total = total + loss
        return total / channels


class MultilabelMarginLoss(LossBase):
    """Multi-label hinge loss of scores x (N, C) or (C,) and target classes (same shape).

    Each row of ``target`` lists the sample's classes, ended by the first -1; the loss of a
    sample is ``sum_{j in targets, i not in targets} max(0, 1 - (x[j] - x[i])) / C``.

    Args:
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        TypeError: for non-Tensor inputs or a non-integer target.
        ValueError: for another ``reduction``, x of neither 1 nor 2 dimensions, a target of
            another shape, or target classes outside [-1, C).
    """

    def construct(self, x, target):
        _check_tensors(self, x=x, target=target)
        if x.ndim not in (1, 2) or target.shape != x.shape:
            raise ValueError(f"nn.MultilabelMarginLoss: x must be (C,) or (N, C) and target of "
                             f"its shape, got {x.shape} and {target.shape}")
        labels = target.asnumpy()
        if labels.dtype.kind not in 'iu':
            raise TypeError(f"nn.MultilabelMarginLoss: target must hold integers, got "
                            f"{target.dtype}")
        one = x.ndim == 1
        scores = ops.reshape(x, (1, -1)) if one else x
        labels = labels.reshape(scores.shape).astype(np.int64)
        classes = scores.shape[1]
        if ((labels < -1) | (labels >= classes)).any():
            raise ValueError(f"nn.MultilabelMarginLoss: target classes must be in [-1, "
                             f"{classes}), got values from {labels.min()} to {labels.max()}")
        listed = np.cumprod(labels != -1, axis=1).astype(bool)        # before the first -1
        safe = np.where(listed, labels, 0)
        is_target = ((safe[:, :, None] == np.arange(classes)) & listed[:, :, None]).any(1)
        pairs = listed[:, :, None] & ~is_target[:, None, :]             # (N, j, i)
        picked = ops.gather_elements(scores, 1, Tensor(safe))          # x[y_j]
        hinge = ops.relu(1.0 - (ops.expand_dims(picked, 2) - ops.expand_dims(scores, 1)))
        loss = ops.sum(hinge * Tensor(pairs.astype(_dtype.to_numpy(scores.dtype))),
                       (1, 2)) / classes
        if one:
            loss = ops.reshape(loss, ())
        if self.reduction == 'none':
            return loss
        return ops.mean(loss) if self.reduction == 'mean' else ops.sum(loss)


def _pairwise_distance(x, y):
    """The 2-norm of ``|x - y|`` over axis 1 (MindSpore's default distance); its gradient at
    a distance of 0 is 0, as that of MindSpore's LpNorm."""
    d = ops.abs(x - y)
    if d.ndim == 0:
        raise ValueError("nn.TripletMarginWithDistanceLoss: the default distance needs inputs "
                         "of at least 1 dimension, got 0-d")
    squares = ops.sum(d * d, 1)
    zero = ops.eq(squares, 0)
    return ops.where(zero, 0.0, ops.sqrt(ops.where(zero, 1.0, squares)))


class TripletMarginWithDistanceLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)``, reduced, for a distance d.

    Args:
        distance_function: a callable of two Tensors giving their distances, or None for the
            2-norm of the difference over axis 1. Default None.
        swap: use ``min(d(x, negative), d(positive, negative))`` as the negative distance.
            Default False.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
        margin: a float. Default 1.0.

    Raises:
        TypeError: for a non-float ``margin``, a non-bool ``swap``, a ``distance_function``
            that is not callable, or non-Tensor inputs.
        ValueError: for another ``reduction``; 0-d inputs with the default distance.
    """

    def __init__(self, distance_function=None, swap=False, reduction='mean', margin=1.0):
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, float):
            raise TypeError(f"nn.TripletMarginWithDistanceLoss: margin must be a float, got "
                            f"{type(margin).__name__}")
        if not isinstance(swap, bool):
            raise TypeError(f"nn.TripletMarginWithDistanceLoss: swap must be a bool, got "
                            f"{type(swap).__name__}")
        if distance_function is not None and not callable(distance_function):
            raise TypeError(f"nn.TripletMarginWithDistanceLoss: distance_function must be "
                            f"callable or None, got {type(distance_function).__name__}")
        self.distance_function = distance_function or _pairwise_distance
        self.swap = swap
        self.margin = margin

    def construct(self, x, positive, negative):
        _check_tensors(self, x=x, positive=positive, negative=negative)
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = ops.minimum(d2, self.distance_function(positive, negative))
        return self.get_loss(ops.relu(d1 - d2 + self.margin))


class SampledSoftmaxLoss(LossBase):
    """Softmax cross-entropy over the true classes and a sample of the others, for many
    classes: ``construct(weights (C, D), biases (C,), labels (N, num_true), logits (N, D))``
    gives the N losses of the logits ``logits @ weights[ids].T + biases[ids] - log(expected
    count)`` against targets ``1 / num_true`` on the true classes.

    ``sampled_values`` = (sampled ids (num_sampled,), expected counts of the labels
    (N, num_true), expected counts of the sampled ids (num_sampled,)) fixes the sample; without
    it each call draws ``num_sampled`` distinct classes uniformly (from NumPy's generator
    seeded by ``seed``, or hookgrad's global one when 0; with ``remove_accidental_hits``, from
    the classes that are no label of the batch while enough remain), each with expected count
    ``num_sampled / num_classes``. As MindSpore's, the result is the N losses whatever
    ``reduction`` says.

    Args:
        num_sampled: classes sampled, at most ``num_classes``.
        num_classes: the number of classes.
        num_true: labels per sample, >= 1. Default 1.
        sampled_values: the 3-tuple above, or None. Default None.
        remove_accidental_hits: sample no label of the batch. Default True.
        seed: the sampler's seed, >= 0. Default 0.
        reduction: 'none', 'mean' or 'sum' (checked, not applied). Default 'none'.

    Raises:
        ValueError: for ``num_true`` < 1, a negative ``seed``, ``num_sampled`` or ``num_true``
            above ``num_classes``, ``sampled_values`` not of length 3.
        TypeError: for ``sampled_values`` that is not a list or tuple, non-Tensor inputs or
            floating labels.
    """

    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None,
                 remove_accidental_hits=True, seed=0, reduction='none'):
        super().__init__(reduction)
        if num_true < 1:
            raise ValueError(f"nn.SampledSoftmaxLoss: num_true must be >= 1, got {num_true}")
        if seed < 0:
            raise ValueError(f"nn.SampledSoftmaxLoss: seed must be >= 0, got {seed}")
        if num_sampled > num_classes:
            raise ValueError(f"nn.SampledSoftmaxLoss: num_sampled must be <= num_classes, got "
                             f"{num_sampled} and {num_classes}")
        if num_true > num_classes:
            raise ValueError(f"nn.SampledSoftmaxLoss: num_true must be <= num_classes, got "
                             f"{num_true} and {num_classes}")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"nn.SampledSoftmaxLoss: sampled_values must be a list or "
                                f"tuple, got {type(sampled_values).__name__}")
            if len(sampled_values) != 3:
                raise ValueError(f"nn.SampledSoftmaxLoss: sampled_values must have 3 items, "
                                 f"got {len(sampled_values)}")
        self.num_sampled = num_sampled
        self.num_classes = num_classes
        self.num_true = num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits = remove_accidental_hits
        self.seed = seed
        self._rng = np.random.default_rng(seed) if seed else None

    def _sample(self, labels):
        rng = self._rng if self._rng is not None else np.random.default_rng(
            int(np.random.randint(0, 2 ** 31)))
        pool = np.arange(self.num_classes)
        if self.remove_accidental_hits:
            free = np.setdiff1d(pool, labels)
            pool = free if free.size >= self.num_sampled else pool
        sampled = rng.choice(pool, self.num_sampled, replace=False).astype(np.int32)
        count = self.num_sampled / self.num_classes
        return (Tensor(sampled), Tensor(np.full(labels.shape, count, np.float32)),
                Tensor(np.full(self.num_sampled, count, np.float32)))

    def construct(self, weights, biases, labels, logits):
        _check_tensors(self, weights=weights, biases=biases, labels=labels, logits=logits)
        if labels.asnumpy().dtype.kind not in 'iu':
            raise TypeError(f"nn.SampledSoftmaxLoss: labels must be integers, got "
                            f"{labels.dtype}")
        labels = ops.reshape(ops.cast(labels, _dtype.int32), (-1, self.num_true))
        sampled, true_count, sampled_count = (self.sampled_values if self.sampled_values
                                              is not None else self._sample(labels.asnumpy()))
        sampled = ops.cast(sampled, _dtype.int32)
        flat = ops.reshape(labels, (-1,))
        true_w = ops.reshape(ops.gather(weights, flat, 0), (-1, self.num_true,
                                                            weights.shape[1]))
        true_logits = ops.sum(ops.expand_dims(logits, 1) * true_w, -1)
        true_logits = true_logits + ops.reshape(ops.gather(biases, flat, 0),
                                                (-1, self.num_true))
        sampled_logits = ops.matmul(logits, ops.transpose(ops.gather(weights, sampled, 0),
                                                          (1, 0)))
        sampled_logits = sampled_logits + ops.gather(biases, sampled, 0)
        true_logits = true_logits - ops.log(true_count)
        sampled_logits = sampled_logits - ops.log(sampled_count)
        out = ops.concat((true_logits, sampled_logits), 1)
        targets = ops.concat((ops.ones_like(true_logits) / self.num_true,
                              ops.zeros_like(sampled_logits)), 1)
        shifted = ops.exp(out - ops.amax(out, 1, True))
        pred = shifted / ops.sum(shifted, 1, True)
        return -ops.sum(targets * ops.log(pred + 1.0e-20), 1)
