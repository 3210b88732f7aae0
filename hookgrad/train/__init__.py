"""``hookgrad.train``: the ``Model`` training loop, its callbacks and the evaluation metrics."""
from .callback import (Callback, RunContext, LossMonitor, TimeMonitor, LambdaCallback, History,
                       EarlyStopping)
from .model_checkpoint import CheckpointConfig, ModelCheckpoint
from .progress import ProgressBar
from .metrics import (Metric, rearrange_inputs, Accuracy, Loss, TopKCategoricalAccuracy,
                      Top1CategoricalAccuracy, Top5CategoricalAccuracy, Precision, Recall, Fbeta,
                      F1, MAE, MSE, names, get_metric_fn, get_metrics)
from .model import Model
from .serialization import save_checkpoint, load_checkpoint, load_param_into_net, export, load

__all__ = ['Model', 'Callback', 'RunContext', 'LossMonitor', 'TimeMonitor', 'LambdaCallback',
           'History', 'EarlyStopping', 'CheckpointConfig', 'ModelCheckpoint', 'ProgressBar',
           'Metric', 'rearrange_inputs', 'Accuracy', 'Loss', 'TopKCategoricalAccuracy',
           'Top1CategoricalAccuracy', 'Top5CategoricalAccuracy', 'Precision', 'Recall', 'Fbeta',
           'F1', 'MAE', 'MSE', 'names', 'get_metric_fn', 'get_metrics', 'save_checkpoint',
           'load_checkpoint', 'load_param_into_net', 'export', 'load']


from ..compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.train')
