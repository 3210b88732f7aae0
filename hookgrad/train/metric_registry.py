"""MindSpore's metric names: ``names``, ``get_metric_fn`` and ``get_metrics`` (the sets of names
``Model(metrics=...)`` takes)."""
from .metrics import (Metric, Accuracy, Precision, Recall, F1, TopKCategoricalAccuracy,
                      Top1CategoricalAccuracy, Top5CategoricalAccuracy, MAE, MSE, Loss)
from .metrics_confusion import ConfusionMatrix, ConfusionMatrixMetric
from .metrics_scores import ROC, auc, Perplexity, CosineSimilarity, BleuScore
from .metrics_segmentation import (Dice, HausdorffDistance, MeanSurfaceDistance,
                                   RootMeanSquareDistance, OcclusionSensitivity)

__all__ = ['names', 'get_metric_fn', 'get_metrics']

_FACTORY = {
    'accuracy': Accuracy, 'acc': Accuracy, 'precision': Precision, 'recall': Recall, 'F1': F1,
    'dice': Dice, 'roc': ROC, 'auc': auc, 'bleu_score': BleuScore,
    'cosine_similarity': CosineSimilarity, 'occlusion_sensitivity': OcclusionSensitivity,
    'topk': TopKCategoricalAccuracy, 'hausdorff_distance': HausdorffDistance,
    'top_1_accuracy': Top1CategoricalAccuracy, 'top_5_accuracy': Top5CategoricalAccuracy,
    'mae': MAE, 'mse': MSE, 'loss': Loss, 'mean_surface_distance': MeanSurfaceDistance,
    'root_mean_square_distance': RootMeanSquareDistance, 'perplexity': Perplexity,
    'confusion_matrix': ConfusionMatrix, 'confusion_matrix_metric': ConfusionMatrixMetric,
}


def names():
    """The metric names ``get_metric_fn`` and ``Model(metrics={...})`` accept, sorted."""
    return sorted(_FACTORY)


def get_metric_fn(name, *args, **kwargs):
    """A new metric of the given name (see ``names()``), built with ``args``/``kwargs``.

    Raises:
        KeyError: for an unknown name.

    >>> import hookgrad as ms
    >>> type(ms.train.get_metric_fn('acc')).__name__
    'Accuracy'
    """
    if name not in _FACTORY:
        raise KeyError(f"get_metric_fn: unknown metric {name!r}; known: {names()}")
    return _FACTORY[name](*args, **kwargs)


def get_metrics(metrics):
    """``{name: Metric}`` from a set of names or a dict of name -> Metric (None gives {}).

    Raises:
        TypeError: for another type, or a dict with non-str keys or non-Metric values.
        KeyError: for an unknown name in a set.
    """
    if metrics is None:
        return {}
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"metrics: a dict must map str names to Metric objects, got "
                                f"{name!r}: {type(metric).__name__}")
        return dict(metrics)
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in sorted(metrics, key=str)}
    raise TypeError(f"metrics must be None, a set of names or a dict of name -> Metric, got "
                    f"{type(metrics).__name__}")
