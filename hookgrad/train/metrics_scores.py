"""Score metrics: the ROC curve and ``auc``, perplexity, cosine similarity and BLEU, as
MindSpore computes them."""
from collections import Counter

import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ['ROC', 'auc', 'Perplexity', 'CosineSimilarity', 'BleuScore']


def _optional_int(value, who, arg):
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise TypeError(f"{who}: {arg} must be an int or None, got {type(value).__name__}")
    return value


def _binary_curve(y_pred, y, pos_label):
    """False and true positive counts at each distinct score, highest first, and the scores."""
    order = np.argsort(-y_pred, kind='stable')
    y_pred, y = y_pred[order], y[order]
    last = np.append(np.nonzero(y_pred[1:] - y_pred[:-1])[0], y.shape[0] - 1)
    tps = np.cumsum((y == pos_label).astype(np.int64))[last]
    return 1 + last - tps, tps, y_pred[last]


def _roc_one(y_pred, y, pos_label):
    fps, tps, thresholds = _binary_curve(y_pred.reshape(-1), y.reshape(-1), pos_label)
    tps, fps = np.concatenate([[0], tps]), np.concatenate([[0], fps])
    thresholds = np.concatenate([thresholds[:1] + 1, thresholds])
    if fps[-1] <= 0:
        raise ValueError("ROC.eval: y has no negative sample, so the false positive rate is "
                         "undefined")
    if tps[-1] <= 0:
        raise ValueError("ROC.eval: y has no positive sample, so the true positive rate is "
                         "undefined")
    return fps / fps[-1], tps / tps[-1], thresholds


class ROC(Metric):
    """The receiver operating characteristic: false and true positive rates per threshold.

    Args:
        class_num: the number of classes: None or 1 for binary scores of the labels' shape,
            the number of score columns for ``(N, C)`` scores.
        pos_label: the positive class of binary labels (default 1); None with ``(N, C)``
            scores, where each class is positive in turn.

    ``update(y_pred, y)`` keeps the last batch only, as in MindSpore.

    Returns (``eval``): ``(fpr, tpr, thresholds)`` arrays, or three lists of arrays (one per
    class) for ``(N, C)`` scores.

    >>> import numpy as np, hookgrad as ms
    >>> m = ms.train.ROC(pos_label=1)
    >>> m.update(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1]))
    >>> [a.tolist() for a in m.eval()]
    [[0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [1.8, 0.8, 0.4, 0.35, 0.1]]
    """

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        self.class_num = _optional_int(class_num, 'ROC', 'class_num')
        self.pos_label = _optional_int(pos_label, 'ROC', 'pos_label')
        self.clear()

    def clear(self):
        self.y_pred, self.y = 0, 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._pair(inputs)
        if y_pred.ndim == y.ndim:
            if self.class_num not in (None, 1):
                raise ValueError(f"ROC.update: scores of the labels' shape need class_num 1, "
                                 f"got {self.class_num}")
            self.class_num = 1
            self.pos_label = 1 if self.pos_label is None else self.pos_label
            y_pred, y = y_pred.reshape(-1), y.reshape(-1)
        elif y_pred.ndim == y.ndim + 1:
            if self.pos_label is not None:
                raise ValueError(f"ROC.update: with a class axis in y_pred, pos_label must be "
                                 f"None, got {self.pos_label}")
            if self.class_num != y_pred.shape[1]:
                raise ValueError(f"ROC.update: class_num must be y_pred's number of columns "
                                 f"{y_pred.shape[1]}, got {self.class_num}")
            y_pred, y = y_pred.reshape(-1, self.class_num), y.reshape(-1)
        else:
            raise ValueError(f"ROC.update: y_pred must have the ndim of y or one more, got "
                             f"{y_pred.ndim} and {y.ndim}")
        self.y_pred, self.y = y_pred, y
        self._is_update = True

    def eval(self):
        """``(fpr, tpr, thresholds)``.

        Raises:
            RuntimeError: before any ``update``.
            ValueError: when the labels have no positive or no negative sample.
        """
        if not self._is_update:
            raise RuntimeError("ROC.eval: call update before eval")
        y_pred, y = np.squeeze(self.y_pred), np.squeeze(self.y)
        if self.class_num == 1:
            return _roc_one(y_pred, y, self.pos_label)
        curves = [_roc_one(y_pred[:, c], y, c) for c in range(self.class_num)]
        return tuple(list(part) for part in zip(*curves))


def auc(x, y, reorder=False):
    """The area under the curve through the points ``(x, y)``, by the trapezoidal rule.

    Args:
        x, y: NumPy arrays of one length (1-D, or 2-D with one column), ``x`` increasing or
            decreasing unless ``reorder``.
        reorder: sort the points by ``x`` (then ``y``) first.

    Raises:
        TypeError: for inputs that are not NumPy arrays.
        ValueError: for lengths that differ, fewer than 2 points, or an unsorted ``x``.

    >>> import numpy as np, hookgrad as ms
    >>> float(ms.train.auc(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0])))
    0.75
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"auc: x and y must be NumPy arrays, got {type(x).__name__} and "
                        f"{type(y).__name__}")
    if x.ndim == 0 or y.ndim == 0 or x.shape[0] != y.shape[0]:
        raise ValueError(f"auc: x and y must hold the same number of points, got shapes "
                         f"{x.shape} and {y.shape}")
    for name, a in (('x', x), ('y', y)):
        if not (a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1)):
            raise ValueError(f"auc: {name} must be 1-D or 2-D with one column, got shape "
                             f"{a.shape}")
    x, y = x.ravel(), y.ravel()
    if x.shape[0] < 2:
        raise ValueError(f"auc: at least 2 points are needed, got {x.shape[0]}")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError(f"auc: x must be increasing or decreasing (or reorder=True), "
                                 f"got {x}")
            direction = -1
    trapezoid = getattr(np, 'trapezoid', None) or np.trapz
    return direction * trapezoid(y, x)


class Perplexity(Metric):
    """exp of the mean negative log-probability of the labels: ``exp(-mean(log p[label]))``.

    Args:
        ignore_label: a label whose positions are left out, or None.

    ``update(preds, labels)``: probabilities of shape ``(..., C)`` and labels with one entry
    per row of ``preds``.
    """

    def __init__(self, ignore_label=None):
        super().__init__()
        self.ignore_label = _optional_int(ignore_label, 'Perplexity', 'ignore_label')
        self.clear()

    def clear(self):
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        preds, labels = self._pair(inputs)
        if preds.ndim == 0 or labels.size != preds.size / preds.shape[-1]:
            raise RuntimeError(f"Perplexity.update: labels need one entry per row of preds, got "
                               f"shapes {preds.shape} and {labels.shape}")
        labels = labels.reshape(-1)
        picked = preds.reshape(-1, preds.shape[-1])[np.arange(labels.size),
                                                    labels.astype(int)]
        num = picked.size
        if self.ignore_label is not None:
            ignore = (labels == self.ignore_label).astype(picked.dtype)
            num -= np.sum(ignore)
            picked = picked * (1 - ignore) + ignore
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._num_inst += num

    def eval(self):
        """The perplexity, a float.

        Raises:
            RuntimeError: when no label was counted.
        """
        if self._num_inst == 0:
            raise RuntimeError("Perplexity.eval: no label was counted; call update before eval")
        return float(np.exp(self._sum_metric / self._num_inst))


class CosineSimilarity(Metric):
    """The pairwise similarity matrix of the rows of one input.

    Args:
        similarity: 'cosine' or 'dot'.
        reduction: 'none' (the matrix), 'sum' or 'mean' (over each row).
        zero_diagonal: set the self-similarities to 0 first.

    ``update(x)``: an ``(N, D)`` array; only the last update is kept, as in MindSpore.
    """

    def __init__(self, similarity='cosine', reduction='none', zero_diagonal=True):
        super().__init__()
        for arg, value, options in (('similarity', similarity, ('dot', 'cosine')),
                                    ('reduction', reduction, ('none', 'sum', 'mean'))):
            if not isinstance(value, str):
                raise TypeError(f"CosineSimilarity: {arg} must be a str, got "
                                f"{type(value).__name__}")
            if value not in options:
                raise ValueError(f"CosineSimilarity: {arg} must be one of {options}, got "
                                 f"{value!r}")
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"CosineSimilarity: zero_diagonal must be a bool, got "
                            f"{type(zero_diagonal).__name__}")
        self.similarity, self.reduction = similarity, reduction
        self.zero_diagonal = zero_diagonal
        self.clear()

    def clear(self):
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        x = self._convert_data(inputs)
        if x.ndim != 2:
            raise ValueError(f"CosineSimilarity.update: the input must be 2-D (N, D), got shape "
                             f"{x.shape}")
        if self.similarity == 'cosine':
            x = x / np.linalg.norm(x, ord=2, axis=1, keepdims=True)
        self.sqr_mtx_res = x @ x.T
        self._is_update = True

    def eval(self):
        """The similarities: ``(N, N)`` for 'none', ``(N,)`` otherwise.

        Raises:
            RuntimeError: before any ``update``.
        """
        if not self._is_update:
            raise RuntimeError("CosineSimilarity.eval: call update before eval")
        out = np.array(self.sqr_mtx_res)
        if self.zero_diagonal:
            np.fill_diagonal(out, 0)
        if self.reduction == 'mean':
            return out.mean(axis=-1)
        if self.reduction == 'sum':
            return out.sum(axis=-1)
        return out


def _ngrams(tokens, n_gram):
    """Counts of every 1..n_gram-gram of ``tokens``."""
    return Counter(tuple(tokens[j:j + i]) for i in range(1, n_gram + 1)
                   for j in range(len(tokens) - i + 1))


class BleuScore(Metric):
    """BLEU of candidate sentences against their references (corpus level).

    Args:
        n_gram: the longest n-gram, 1..4.
        smooth: add 1 to the counts of every n-gram order.

    ``update(candidate_corpus, reference_corpus)``: a list of token lists, and for each a
    list of reference token lists.

    >>> import hookgrad as ms
    >>> m = ms.train.BleuScore(n_gram=2)
    >>> m.update([['the', 'cat', 'sat']], [[['the', 'cat', 'sat', 'down']]])
    >>> round(float(m.eval()), 4)
    0.7165
    """

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        if not isinstance(n_gram, int) or isinstance(n_gram, bool):
            raise TypeError(f"BleuScore: n_gram must be an int, got {type(n_gram).__name__}")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"BleuScore: n_gram must be in [1, 4], got {n_gram}")
        if not isinstance(smooth, bool):
            raise TypeError(f"BleuScore: smooth must be a bool, got {type(smooth).__name__}")
        self.n_gram, self.smooth = n_gram, smooth
        self.clear()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"BleuScore.update: expected 2 inputs (candidate_corpus, "
                             f"reference_corpus), got {len(inputs)}")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"BleuScore.update: the corpora must be of one length, got "
                             f"{len(candidates)} and {len(references)}")
        for candidate, refs in zip(candidates, references):
            self._c += len(candidate)
            lengths = [len(ref) for ref in refs]
            diffs = [abs(len(candidate) - n) for n in lengths]
            self._r += lengths[diffs.index(min(diffs))]
            counts = _ngrams(candidate, self.n_gram)
            ref_counts = Counter()
            for ref in refs:
                ref_counts |= _ngrams(ref, self.n_gram)
            for gram, n in (counts & ref_counts).items():
                self._numerator[len(gram) - 1] += n
            for gram, n in counts.items():
                self._denominator[len(gram) - 1] += n
        self._is_update = True

    def eval(self):
        """The BLEU score, a 0-d array (0 when some order has no match).

        Raises:
            RuntimeError: before any ``update``.
        """
        if not self._is_update:
            raise RuntimeError("BleuScore.eval: call update before eval")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._numerator + 1) / (self._denominator + 1)
        else:
            precision = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.log(precision) / self.n_gram))
        brevity = np.array(1.0) if self._c > self._r else np.exp(1 - self._r / self._c)
        return brevity * geometric_mean
