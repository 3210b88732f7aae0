"""Evaluation metrics (MindSpore's ``mindspore.train`` metrics, also exported from ``nn``).

A metric accumulates over batches: ``clear()`` resets it, ``update(y_pred, y)`` adds one batch
(Tensors, lists or NumPy arrays), ``eval()`` gives the result. All arithmetic is vectorised
NumPy over the whole batch.
"""
import numbers
import sys

import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ['Metric', 'rearrange_inputs', 'Accuracy', 'Loss', 'TopKCategoricalAccuracy',
           'Top1CategoricalAccuracy', 'Top5CategoricalAccuracy', 'Precision', 'Recall', 'Fbeta',
           'F1', 'MAE', 'MSE', 'ConfusionMatrix', 'ConfusionMatrixMetric', 'ROC', 'auc',
           'Perplexity', 'CosineSimilarity', 'BleuScore', 'Dice', 'HausdorffDistance',
           'MeanSurfaceDistance', 'RootMeanSquareDistance', 'OcclusionSensitivity', 'names',
           'get_metric_fn', 'get_metrics']

_EVAL_TYPES = ('classification', 'multilabel')
_EPS = sys.float_info.min


def _is_onehot(y):
    return y.ndim > 1 and np.isin(y, (0, 1)).all() and (y.sum(axis=1) == 1).all()


class _EvaluationBase(Metric):
    """Shared checks of classification / multilabel metrics."""

    def __init__(self, eval_type):
        super().__init__()
        if eval_type not in _EVAL_TYPES:
            raise TypeError(f"{type(self).__name__}: eval_type must be 'classification' or "
                            f"'multilabel', got {eval_type!r}")
        self._type = eval_type
        self._class_num = 0

    def _prepare(self, inputs):
        """Checked ``(y_pred, y)``; classification one-hot labels become indices."""
        who = type(self).__name__
        y_pred, y = self._pair(inputs)
        if self._type == 'classification':
            if y_pred.ndim == y.ndim and _is_onehot(y):
                y = y.argmax(axis=1)
            if y_pred.ndim != y.ndim + 1 or y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"{who}.update: for classification y must have y_pred's shape "
                                 f"without axis 1 (or be one-hot of y_pred's shape); got y_pred "
                                 f"{y_pred.shape} and y {y.shape}")
        else:
            if y_pred.shape != y.shape or y.ndim < 2:
                raise ValueError(f"{who}.update: for multilabel y_pred and y must have the same "
                                 f"shape (N, C, ...); got {y_pred.shape} and {y.shape}")
            if not (np.isin(y_pred, (0, 1)).all() and np.isin(y, (0, 1)).all()):
                raise ValueError(f"{who}.update: for multilabel every value of y_pred and y "
                                 f"must be 0 or 1")
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"{who}.update: y_pred has {y_pred.shape[1]} classes, but earlier "
                             f"batches had {self._class_num}")
        return y_pred, y

    def _labels(self, y_pred, y):
        """Flat predicted and true class indices (classification), labels checked in range."""
        pred = y_pred.argmax(axis=1).reshape(-1)
        true = y.reshape(-1)
        if true.size and (true.min() < 0 or true.max() >= self._class_num
                          or (true != np.round(true)).any()):
            raise ValueError(f"{type(self).__name__}.update: labels must be class indices in "
                             f"[0, {self._class_num}), got values in [{true.min()}, "
                             f"{true.max()}]")
        return pred, true.astype(np.int64)

    def _need_samples(self, empty):
        if empty:
            raise RuntimeError(f"{type(self).__name__}.eval: no samples: call update before "
                               f"eval")


class Accuracy(_EvaluationBase):
    """The fraction of samples whose prediction is right.

    For 'classification' a sample is right when the argmax of ``y_pred`` over axis 1 equals
    its label ``y`` (class indices, or one-hot); for 'multilabel' (0/1 values of the same shape)
    when every label matches.

    Args:
        eval_type: 'classification' (default) or 'multilabel'.

    Raises:
        TypeError: for another ``eval_type`` or inputs that are not Tensors, lists or arrays.
        ValueError: for a wrong number of inputs or shapes that do not match.
        RuntimeError: from ``eval`` before any ``update``.

    >>> import numpy as np, hookgrad as ms
    >>> m = ms.nn.Accuracy()
    >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    >>> float(m.eval())
    0.6666666666666666
    """

    def __init__(self, eval_type='classification'):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._prepare(inputs)
        if self._type == 'classification':
            right = y_pred.argmax(axis=1) == y
        else:
            right = (np.moveaxis(y_pred, 1, -1) == np.moveaxis(y, 1, -1)).all(axis=-1)
        self._correct_num += int(right.sum())
        self._total_num += right.size

    def eval(self):
        self._need_samples(self._total_num == 0)
        return self._correct_num / self._total_num


class TopKCategoricalAccuracy(Metric):
    """The fraction of samples whose label is among the ``k`` highest scores.

    Args:
        k: an int >= 1.

    Raises:
        TypeError, ValueError: for a ``k`` that is not an int >= 1; ValueError from ``update``
            for mismatched shapes; RuntimeError from ``eval`` before any ``update``.

    >>> import numpy as np, hookgrad as ms
    >>> x = np.array([[0.2, 0.5, 0.3, 0.6, 0.2], [0.1, 0.35, 0.5, 0.2, 0.],
    ...               [0.9, 0.6, 0.2, 0.01, 0.3]])
    >>> float(ms.nn.TopKCategoricalAccuracy(3)(x, np.array([2, 0, 1])))
    0.6666666666666666
    """

    def __init__(self, k):
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, numbers.Integral):
            raise TypeError(f"{type(self).__name__}: k must be an int >= 1, got {k!r}")
        if k < 1:
            raise ValueError(f"{type(self).__name__}: k must be an int >= 1, got {k}")
        self.k = int(k)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._pair(inputs)
        if y_pred.ndim == y.ndim and _is_onehot(y):
            y = y.argmax(axis=1)
        if y_pred.ndim != 2 or y.shape != (y_pred.shape[0],):
            raise ValueError(f"{type(self).__name__}.update: expected y_pred of shape (N, C) and "
                             f"y of shape (N,) or one-hot (N, C); got {y_pred.shape} and "
                             f"{y.shape}")
        top = np.argsort(-y_pred, axis=1, kind='stable')[:, :self.k]
        self._correct_num += int((top == y.reshape(-1, 1)).any(axis=1).sum())
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"{type(self).__name__}.eval: no samples: call update before eval")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """``TopKCategoricalAccuracy`` with k = 1."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """``TopKCategoricalAccuracy`` with k = 5."""

    def __init__(self):
        super().__init__(5)


class _PerClass(_EvaluationBase):
    """Precision and Recall: true positives over a per-class (or per-sample) denominator."""

    def __init__(self, eval_type='classification'):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._class_num = 0
        self._true_positives = np.zeros(0)
        self._denominator = np.zeros(0)

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._prepare(inputs)
        if self._type == 'classification':
            c = self._class_num
            pred, true = self._labels(y_pred, y)
            tp = np.bincount(pred[pred == true], minlength=c).astype(np.float64)
            den = np.bincount(self._counted(pred, true), minlength=c).astype(np.float64)
            if self._true_positives.size == 0:
                self._true_positives, self._denominator = np.zeros(c), np.zeros(c)
            self._true_positives += tp
            self._denominator += den
        else:       # per sample, over the classes of axis 1
            y_pred = np.moveaxis(y_pred, 1, -1).reshape(-1, self._class_num)
            y = np.moveaxis(y, 1, -1).reshape(-1, self._class_num)
            tp = (y * y_pred).sum(axis=1).astype(np.float64)
            den = self._counted(y_pred, y).sum(axis=1).astype(np.float64)
            self._true_positives = np.concatenate((self._true_positives, tp))
            self._denominator = np.concatenate((self._denominator, den))

    def eval(self, average=False):
        """Per class ('classification') or per sample ('multilabel'); their mean if ``average``.

        Raises:
            TypeError: for a non-bool ``average``; RuntimeError before any ``update``.
        """
        if not isinstance(average, bool):
            raise TypeError(f"{type(self).__name__}.eval: average must be a bool, got "
                            f"{average!r}")
        self._need_samples(self._class_num == 0)
        result = self._true_positives / (self._denominator + _EPS)
        return result.mean() if average else result


class Precision(_PerClass):
    """Precision: true positives / predicted positives, per class.

    'classification' takes scores ``y_pred`` (N, C) and class indices (or one-hot) ``y``;
    'multilabel' takes 0/1 arrays of the same shape and gives one value per sample.

    Args:
        eval_type: 'classification' (default) or 'multilabel'.

    Raises:
        TypeError, ValueError, RuntimeError: as ``Accuracy``; ValueError for labels outside
            [0, C).

    >>> import numpy as np, hookgrad as ms
    >>> m = ms.nn.Precision()
    >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    >>> m.eval().tolist()
    [0.5, 1.0]
    """

    @staticmethod
    def _counted(pred, true):
        return pred


class Recall(_PerClass):
    """Recall: true positives / actual positives, per class (arguments as ``Precision``).

    >>> import numpy as np, hookgrad as ms
    >>> m = ms.nn.Recall()
    >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    >>> m.eval().tolist()
    [1.0, 0.5]
    """

    @staticmethod
    def _counted(pred, true):
        return true


class Fbeta(_EvaluationBase):
    """F-beta score per class: ``(1 + b^2) tp / (b^2 (tp + fn) + tp + fp)``.

    Args:
        beta: a number > 0 weighting recall against precision.

    Raises:
        TypeError, ValueError: for a ``beta`` that is not a number > 0; as ``Precision`` in
            ``update`` and ``eval``.
    """

    def __init__(self, beta):
        super().__init__('classification')
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
            raise TypeError(f"{type(self).__name__}: beta must be a number > 0, got {beta!r}")
        if not beta > 0:
            raise ValueError(f"{type(self).__name__}: beta must be a number > 0, got {beta}")
        self.beta = float(beta)
        self.clear()

    def clear(self):
        self._class_num = 0
        self._true_positives = self._actual = self._predicted = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._prepare(inputs)
        pred, true = self._labels(y_pred, y)
        c = self._class_num
        self._true_positives = self._true_positives + np.bincount(pred[pred == true],
                                                                  minlength=c)
        self._actual = self._actual + np.bincount(true, minlength=c)
        self._predicted = self._predicted + np.bincount(pred, minlength=c)

    def eval(self, average=False):
        """Per class; their mean if ``average``.

        Raises:
            TypeError: for a non-bool ``average``; RuntimeError before any ``update``.
        """
        if not isinstance(average, bool):
            raise TypeError(f"{type(self).__name__}.eval: average must be a bool, got "
                            f"{average!r}")
        self._need_samples(self._class_num == 0)
        b2 = self.beta ** 2
        result = (1 + b2) * self._true_positives / (b2 * self._actual + self._predicted + _EPS)
        return result.mean() if average else result


class F1(Fbeta):
    """``Fbeta`` with beta = 1: the harmonic mean of precision and recall."""

    def __init__(self):
        super().__init__(1.0)


class Loss(Metric):
    """The mean of the loss values given to ``update``, one per batch (a 1-d loss is averaged).

    Raises:
        ValueError: for another number of inputs or a loss of more than one dimension;
            RuntimeError from ``eval`` before any ``update``.

    >>> import numpy as np, hookgrad as ms
    >>> m = ms.nn.Loss()
    >>> m.update(ms.Tensor(0.5)); m.update(np.array([1.0, 2.0]))
    >>> float(m.eval())
    1.0
    """

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0.0
        self._total_num = 0

    def update(self, *inputs):
        if len(inputs) != 1:
            raise ValueError(f"Loss.update: expected 1 input (the loss), got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim > 1:
            raise ValueError(f"Loss.update: the loss must be a scalar or 1-d, got shape "
                             f"{loss.shape}")
        self._sum_loss += float(loss.mean())
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("Loss.eval: no samples: call update before eval")
        return self._sum_loss / self._total_num


class _Error(Metric):
    """MAE and MSE: summed errors over all elements, divided by the number of samples."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._pair(inputs)
        if y.size != y_pred.size:
            raise ValueError(f"{type(self).__name__}.update: y of shape {y.shape} does not match "
                             f"y_pred of shape {y_pred.shape}")
        self._error_sum += float(self._error(y.reshape(y_pred.shape) - y_pred).sum())
        self._samples_num += y_pred.shape[0] if y_pred.ndim else 1

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"{type(self).__name__}.eval: no samples: call update before eval")
        return self._error_sum / self._samples_num


class MAE(_Error):
    """Mean absolute error: ``sum(|y - y_pred|) / N`` over N samples."""

    _error = staticmethod(np.abs)


class MSE(_Error):
    """Mean squared error: ``sum((y - y_pred) ** 2) / N`` over N samples."""

    _error = staticmethod(np.square)


# MindSpore's other metrics live in modules by topic, and the name registry beside them; they
# import the base classes above, so they are imported last
from .metrics_confusion import ConfusionMatrix, ConfusionMatrixMetric  # noqa: E402
from .metrics_scores import ROC, auc, Perplexity, CosineSimilarity, BleuScore  # noqa: E402
from .metrics_segmentation import (Dice, HausdorffDistance, MeanSurfaceDistance,  # noqa: E402
                                   RootMeanSquareDistance, OcclusionSensitivity)
from .metric_registry import names, get_metric_fn, get_metrics  # noqa: E402
