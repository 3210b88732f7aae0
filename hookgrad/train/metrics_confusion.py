"""Confusion-matrix metrics: ``ConfusionMatrix`` and the rates derived from true/false
positives/negatives, ``ConfusionMatrixMetric`` (MindSpore's definitions and aliases)."""
import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ['ConfusionMatrix', 'ConfusionMatrixMetric']

_NORMALIZE = ('target', 'prediction', 'all', 'no_norm')
_DECREASE = ('none', 'mean', 'sum', 'mean_batch', 'sum_batch', 'mean_channel', 'sum_channel')
# every accepted name (spaces as '_', lower case) -> the short name of the rate
_ALIASES = {
    'tpr': ('sensitivity', 'recall', 'hit_rate', 'true_positive_rate', 'tpr'),
    'tnr': ('specificity', 'selectivity', 'true_negative_rate', 'tnr'),
    'ppv': ('precision', 'positive_predictive_value', 'ppv'),
    'npv': ('negative_predictive_value', 'npv'),
    'fnr': ('miss_rate', 'false_negative_rate', 'fnr'),
    'fpr': ('fall_out', 'false_positive_rate', 'fpr'),
    'fdr': ('false_discovery_rate', 'fdr'),
    'for': ('false_omission_rate', 'for'),
    'pt': ('prevalence_threshold', 'pt'),
    'ts': ('threat_score', 'critical_success_index', 'ts', 'csi'),
    'acc': ('accuracy', 'acc'),
    'ba': ('balanced_accuracy', 'ba'),
    'f1': ('f1_score', 'f1'),
    'mcc': ('matthews_correlation_coefficient', 'mcc'),
    'fm': ('fowlkes_mallows_index', 'fm'),
    'bm': ('informedness', 'bookmaker_informedness', 'bm'),
    'mk': ('markedness', 'deltap', 'mk'),
}
_SHORT = {alias: short for short, aliases in _ALIASES.items() for alias in aliases}


class ConfusionMatrix(Metric):
    """The ``num_classes x num_classes`` confusion matrix: row = true class, column = predicted.

    Args:
        num_classes: the number of classes, an int.
        normalize: 'no_norm' (counts), 'target' (rows sum to 1), 'prediction' (columns sum
            to 1) or 'all' (the matrix sums to 1); empty rows/columns give 0.
        threshold: a float; predictions with the labels' shape are binarised with
            ``y_pred >= threshold``.

    ``update(y_pred, y)``: ``y_pred`` of shape ``(N, C, ...)`` (scores; argmax over axis 1) or
    ``(N, ...)`` (class indices, or probabilities when float), ``y`` of shape ``(N, ...)``.

    >>> import numpy as np, hookgrad as ms
    >>> m = ms.train.ConfusionMatrix(num_classes=2)
    >>> m.update(np.array([1, 0, 1, 0]), np.array([1, 0, 0, 1]))
    >>> m.eval()
    array([[1., 1.],
           [1., 1.]])
    """

    def __init__(self, num_classes, normalize='no_norm', threshold=0.5):
        super().__init__()
        if not isinstance(num_classes, int) or isinstance(num_classes, bool):
            raise TypeError(f"ConfusionMatrix: num_classes must be an int, got "
                            f"{type(num_classes).__name__}")
        if normalize not in _NORMALIZE:
            raise ValueError(f"ConfusionMatrix: normalize must be one of {_NORMALIZE}, got "
                             f"{normalize!r}")
        if not isinstance(threshold, float):
            raise TypeError(f"ConfusionMatrix: threshold must be a float, got "
                            f"{type(threshold).__name__}")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, threshold
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._pair(inputs)
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError(f"ConfusionMatrix.update: y_pred must have the ndim of y or one "
                             f"more, got {y_pred.ndim} and {y.ndim}")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif y_pred.dtype.kind in 'fV':
            y_pred = (y_pred >= self.threshold).astype(int)
        code = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        if code.size and (code.min() < 0 or code.max() >= self.num_classes ** 2):
            raise ValueError(f"ConfusionMatrix.update: classes must lie in [0, "
                             f"{self.num_classes}), got y_pred in [{y_pred.min()}, "
                             f"{y_pred.max()}] and y in [{y.min()}, {y.max()}]")
        counts = np.bincount(code, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        """The matrix (float64), normalised as chosen.

        Raises:
            RuntimeError: before any ``update``.
        """
        if not self._is_update:
            raise RuntimeError("ConfusionMatrix.eval: call update before eval")
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == 'no_norm':
            return matrix
        total = {'target': matrix.sum(axis=1, keepdims=True),
                 'prediction': matrix.sum(axis=0, keepdims=True),
                 'all': matrix.sum()}[self.normalize]
        with np.errstate(invalid='ignore', divide='ignore'):
            out = matrix / total
        return np.nan_to_num(out, nan=0.0)


def _rate(short, cm):
    """The rate ``short`` from counts ``cm[..., (tp, fp, tn, fn)]``: nan where undefined."""
    tp, fp, tn, fn = np.moveaxis(cm, -1, 0)
    p, n = tp + fn, fp + tn
    nan = np.array(np.nan)
    with np.errstate(invalid='ignore', divide='ignore'):
        tpr = np.where(p > 0, tp / p, nan)
        tnr = np.where(n > 0, tn / n, nan)
        ppv = np.where(tp + fp > 0, tp / (tp + fp), nan)
        ratios = {
            'tpr': (tp, p), 'tnr': (tn, n), 'ppv': (tp, tp + fp), 'npv': (tn, tn + fn),
            'fnr': (fn, p), 'fpr': (fp, n), 'fdr': (fp, fp + tp), 'for': (fn, fn + tn),
            'pt': (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0),
            'ts': (tp, tp + fn + fp), 'acc': (tp + tn, p + n),
            'f1': (2.0 * tp, 2.0 * tp + fn + fp),
            'mcc': (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
        }
        if short in ratios:
            num, den = ratios[short]
            return np.where(den != 0, num / den, nan)
        if short == 'ba':
            return (tpr + tnr) / 2.0
        if short == 'fm':
            return np.sqrt(ppv * tpr)
        if short == 'bm':
            return tpr + tnr - 1.0
        return ppv + tn / (tn + fn) - 1.0       # 'mk'


def _reduce(chart, decrease):
    """Reduce a (batch, class) table of rates, ignoring nans: (reduced, count of non-nans)."""
    nans = np.isnan(chart)
    not_nans = (~nans).astype(float)
    chart = np.where(nans, 0.0, chart)
    zero = np.zeros(1)
    if decrease == 'mean':
        per_batch = not_nans.sum(axis=1)
        with np.errstate(invalid='ignore', divide='ignore'):
            chart = np.where(per_batch > 0, chart.sum(axis=1) / per_batch, zero)
        count = (per_batch > 0).astype(float).sum(axis=0)
        with np.errstate(invalid='ignore', divide='ignore'):
            return np.where(count > 0, chart.sum(axis=0) / count, zero), count
    if decrease == 'sum':
        return chart.sum(axis=(0, 1)), not_nans.sum(axis=(0, 1))
    if decrease in ('mean_batch', 'mean_channel'):
        axis = 0 if decrease == 'mean_batch' else 1
        count = not_nans.sum(axis=axis)
        with np.errstate(invalid='ignore', divide='ignore'):
            return np.where(count > 0, chart.sum(axis=axis) / count, zero), count
    if decrease in ('sum_batch', 'sum_channel'):
        axis = 0 if decrease == 'sum_batch' else 1
        return chart.sum(axis=axis), not_nans.sum(axis=axis)
    return chart, not_nans                      # 'none'


class ConfusionMatrixMetric(Metric):
    """A rate from the confusion counts of one-hot predictions and labels (sensitivity,
    precision, F1, Matthews correlation... 17 rates under their common names).

    Args:
        skip_channel: a bool. As in MindSpore, False leaves out channel 0 (often the
            background) and True keeps every channel.
        metric_name: the rate, e.g. 'sensitivity', 'specificity', 'precision', 'f1 score',
            'matthews correlation coefficient', 'informedness', 'markedness' (spaces or '_',
            any case).
        calculation_method: False sums the counts over everything, then takes the rate (for
            classification). True takes the rate of each sample and channel, reduces it with
            ``decrease`` and averages the batches.
        decrease: 'none', 'mean', 'sum', 'mean_batch', 'sum_batch', 'mean_channel' or
            'sum_channel'.

    ``update(y_pred, y)``: binary one-hot arrays of shape ``(N, C, ...)``, at least 2-D.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for an unknown ``decrease``.
        NotImplementedError: for an unknown ``metric_name`` (MindSpore's error type).
    """

    def __init__(self, skip_channel=True, metric_name='sensitivity', calculation_method=False,
                 decrease='mean'):
        super().__init__()
        for arg, value, kind in (('skip_channel', skip_channel, bool),
                                 ('calculation_method', calculation_method, bool),
                                 ('metric_name', metric_name, str), ('decrease', decrease, str)):
            if not isinstance(value, kind):
                raise TypeError(f"ConfusionMatrixMetric: {arg} must be a {kind.__name__}, got "
                                f"{type(value).__name__}")
        if decrease not in _DECREASE:
            raise ValueError(f"ConfusionMatrixMetric: decrease must be one of {_DECREASE}, got "
                             f"{decrease!r}")
        short = _SHORT.get(metric_name.replace(' ', '_').lower())
        if short is None:
            raise NotImplementedError(f"ConfusionMatrixMetric: metric_name {metric_name!r} is "
                                      f"not a known rate; known: {sorted(_SHORT)}")
        self.skip_channel, self.metric_name = skip_channel, metric_name
        self.calculation_method, self.decrease = calculation_method, decrease
        self._short = short
        self.clear()

    def clear(self):
        self._total_num = 0.0
        self._class_num = 0
        self._counts = np.zeros(4)

    def _confusion(self, y_pred, y):
        """Counts (tp, fp, tn, fn) per sample and channel: shape (N, C, 4)."""
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("ConfusionMatrixMetric.update: y must be binary (one-hot)")
        if y_pred.ndim < 2:
            raise ValueError(f"ConfusionMatrixMetric.update: y_pred must have at least 2 "
                             f"dimensions, got {y_pred.ndim}")
        if not self.skip_channel:
            y = y[:, 1:] if y.shape[1] > 1 else y
            y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
        if y.shape != y_pred.shape:
            raise ValueError(f"ConfusionMatrixMetric.update: y_pred and y must have one shape, "
                             f"got {y_pred.shape} and {y.shape}")
        batch, channels = y_pred.shape[:2]
        y_pred = y_pred.astype(float).reshape(batch, channels, -1)
        y = y.astype(float).reshape(batch, channels, -1)
        tp = ((y_pred + y) == 2).sum(axis=2).astype(float)
        tn = ((y_pred + y) == 0).sum(axis=2).astype(float)
        p = y.sum(axis=2)
        n = y.shape[-1] - p
        return np.stack([tp, n - tn, tn, p - tp], axis=-1)

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._pair(inputs)
        cm = self._confusion(y_pred, y)
        per_sample = self.calculation_method and not (
            y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1))
        if per_sample:
            score, not_nans = _reduce(_rate(self._short, cm), self.decrease)
            not_nans = int(np.asarray(not_nans).item())
            self._total_num += np.asarray(score).item() * not_nans
            self._class_num += not_nans
        else:
            self._counts = self._counts + cm.reshape(-1, 4).sum(axis=0)

    def eval(self):
        """The rate: an array of shape (1,) for summed counts, a float per sample.

        Raises:
            RuntimeError: with ``calculation_method`` and no sample counted.
        """
        if self.calculation_method and self._class_num:
            return self._total_num / self._class_num
        if self.calculation_method and not self._counts.any():
            raise RuntimeError("ConfusionMatrixMetric.eval: no sample was counted; call update "
                               "with non-empty inputs before eval")
        return _rate(self._short, self._counts[None])
