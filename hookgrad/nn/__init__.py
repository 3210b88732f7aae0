"""``hookgrad.nn``: Cells, Parameters and layers."""
from .parameter import Parameter, ParameterTuple
from .cell import Cell
from .container import SequentialCell, CellList, CellDict
from .layer import *  # noqa: F401,F403  (ReLU, Dense, Dropout... : the layers)
from .layer.sync_batchnorm import SyncBatchNorm  # noqa: F401
from .loss import *  # noqa: F401,F403  (LossBase, MSELoss, CrossEntropyLoss... : the losses)
from .wrap import *  # noqa: F401,F403  (WithLossCell, WithEvalCell, TrainOneStepCell...)
from .optim import *  # noqa: F401,F403  (SGD, Momentum, Adam, AdamWeightDecay, schedules)
from .plugin import attach, PluginHandle
from .grad_cells import *  # noqa: F401,F403  (Jvp, Vjp)
from ..train.metrics import (Metric, rearrange_inputs, Accuracy, Loss, TopKCategoricalAccuracy,
                             Top1CategoricalAccuracy, Top5CategoricalAccuracy, Precision, Recall,
                             Fbeta, F1, MAE, MSE, ConfusionMatrix, ConfusionMatrixMetric, ROC,
                             auc, Perplexity, CosineSimilarity, BleuScore, Dice,
                             HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance,
                             OcclusionSensitivity, names, get_metric_fn, get_metrics)
from ..train.graph_cell import GraphCell  # noqa: F401  (runs a network ms.export wrote)


from ..compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn')
