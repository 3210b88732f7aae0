"""``hookgrad.train``: the ``Model`` training loop, its callbacks and the evaluation metrics."""
from .callback import (Callback, RunContext, LossMonitor, TimeMonitor, LambdaCallback, History,
                       EarlyStopping)
from .callback_lr import LearningRateScheduler, ReduceLROnPlateau
from .callback_recovery import OnRequestExit, BackupAndRestore
from .callback_unavailable import (SummaryLandscape, FlopsUtilizationCollector,
                                   TrainFaultTolerance)
from .summary import SummaryRecord
from .summary_collector import SummaryCollector
from .model_checkpoint import CheckpointConfig, ModelCheckpoint
from .progress import ProgressBar
from .metrics import (Metric, rearrange_inputs, Accuracy, Loss, TopKCategoricalAccuracy,
                      Top1CategoricalAccuracy, Top5CategoricalAccuracy, Precision, Recall, Fbeta,
                      F1, MAE, MSE, ConfusionMatrix, ConfusionMatrixMetric, ROC, auc, Perplexity,
                      CosineSimilarity, BleuScore, Dice, HausdorffDistance, MeanSurfaceDistance,
                      RootMeanSquareDistance, OcclusionSensitivity, names, get_metric_fn,
                      get_metrics)
from .model import Model
from .loss_scale_manager import LossScaleManager, FixedLossScaleManager, DynamicLossScaleManager
from .serialization import (save_checkpoint, load_checkpoint, load_param_into_net, export, load,
                            ckpt_to_safetensors, safetensors_to_ckpt, load_checkpoint_async,
                            async_ckpt_thread_status, merge_sliced_parameter,
                            build_searched_strategy, restore_group_info_list)
from .dataset_helper import DatasetHelper, connect_network_with_dataset, data_sink
from .thor_convert import ConvertModelUtils, ConvertNetUtils
from .mindir_formats import export_split_mindir
from ..amp.build import build_train_network
from ..parallel import load_distributed_checkpoint, get_ckpt_path_with_strategy

__all__ = ['Model', 'LossScaleManager', 'FixedLossScaleManager', 'DynamicLossScaleManager',
           'Callback', 'RunContext', 'LossMonitor', 'TimeMonitor', 'LambdaCallback',
           'History', 'EarlyStopping', 'LearningRateScheduler', 'ReduceLROnPlateau',
           'OnRequestExit', 'BackupAndRestore', 'SummaryCollector', 'SummaryRecord',
           'SummaryLandscape', 'FlopsUtilizationCollector', 'TrainFaultTolerance',
           'CheckpointConfig', 'ModelCheckpoint', 'ProgressBar', 'Metric', 'rearrange_inputs',
           'Accuracy', 'Loss', 'TopKCategoricalAccuracy', 'Top1CategoricalAccuracy',
           'Top5CategoricalAccuracy', 'Precision', 'Recall', 'Fbeta', 'F1', 'MAE', 'MSE',
           'ConfusionMatrix', 'ConfusionMatrixMetric', 'ROC', 'auc', 'Perplexity',
           'CosineSimilarity', 'BleuScore', 'Dice', 'HausdorffDistance', 'MeanSurfaceDistance',
           'RootMeanSquareDistance', 'OcclusionSensitivity', 'names', 'get_metric_fn',
           'get_metrics', 'save_checkpoint', 'load_checkpoint', 'load_param_into_net', 'export',
           'load', 'ckpt_to_safetensors', 'safetensors_to_ckpt', 'load_checkpoint_async',
           'async_ckpt_thread_status', 'merge_sliced_parameter', 'build_searched_strategy',
           'restore_group_info_list', 'DatasetHelper', 'connect_network_with_dataset',
           'data_sink', 'ConvertModelUtils', 'ConvertNetUtils', 'export_split_mindir',
           'build_train_network', 'load_distributed_checkpoint', 'get_ckpt_path_with_strategy']


from ..compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.train')
