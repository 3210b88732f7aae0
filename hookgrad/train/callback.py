"""Training callbacks (MindSpore's ``mindspore.train.Callback`` family).

``Model.train``/``eval``/``fit`` call each callback's ``on_train_*`` / ``on_eval_*`` methods
with a ``RunContext``; ``run_context.original_args()`` is the ``cb_params`` namespace
(``cur_epoch_num``, ``cur_step_num``, ``batch_num``, ``net_outputs``, ``epoch_num``,
``train_network``, ``optimizer``...) and ``run_context.request_stop()`` ends training after the
current step. The base methods call the short aliases ``begin``, ``epoch_begin``,
``step_begin``, ``step_end``, ``epoch_end``, ``end``, so a callback may override either form.
"""
import math
import numbers
import time

from .callback_base import (_SMALLER_IS_BETTER, Callback, Monitoring, RunContext,
                            _non_negative_int, loss_value)

__all__ = ['Callback', 'RunContext', 'LossMonitor', 'TimeMonitor', 'LambdaCallback', 'History',
           'EarlyStopping', 'CheckpointConfig', 'ModelCheckpoint', 'LearningRateScheduler',
           'ReduceLROnPlateau', 'OnRequestExit', 'BackupAndRestore', 'SummaryCollector',
           'SummaryLandscape', 'FlopsUtilizationCollector', 'TrainFaultTolerance']


class LossMonitor(Callback):
    """Print the training loss every ``per_print_times`` steps; stop on a NaN or infinite loss.

    Prints ``epoch: 1 step: 5, loss is 0.6931...`` (the step counted within the epoch) and,
    in ``Model.fit``, ``Eval result: epoch 1, metrics: {...}`` after each evaluation.

    Args:
        per_print_times: print every this many steps; 0 prints nothing. Default 1.

    Raises:
        ValueError: for a ``per_print_times`` that is not an int >= 0; during training, for a
            NaN or infinite loss.
    """

    def __init__(self, per_print_times=1):
        super().__init__()
        self._per_print_times = _non_negative_int(per_print_times, 'LossMonitor',
                                                  'per_print_times')
        self._last_print_time = 0

    def on_train_begin(self, run_context):
        self._last_print_time = 0

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        loss = loss_value(cb_params.net_outputs)
        step = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        epoch = cb_params.get('cur_epoch_num', 1)
        if loss is not None and not math.isfinite(loss):
            raise ValueError(f"LossMonitor: in epoch {epoch} step {step} the loss is {loss}; "
                             f"training cannot continue")
        if self._per_print_times and \
                cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {epoch} step: {step}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        metrics = cb_params.get('metrics')
        if metrics:
            print(f"Eval result: epoch {cb_params.cur_epoch_num}, metrics: {metrics}", flush=True)


class TimeMonitor(Callback):
    """Print each epoch's time and time per step: ``Train epoch time: 12.345 ms, per step time:
    1.234 ms`` (``Eval ...`` when evaluating).

    Args:
        data_size: the steps per epoch to divide by when ``cb_params`` has no ``batch_num``.
        data_time: also print the mean time per step spent fetching data.

    Raises:
        ValueError: for a ``data_size`` that is not None or an int >= 1.
        TypeError: for a non-bool ``data_time``.
    """

    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        if data_size is not None and (isinstance(data_size, bool) or
                                      not isinstance(data_size, numbers.Integral) or
                                      data_size < 1):
            raise ValueError(f"TimeMonitor: data_size must be None or an int >= 1, got "
                             f"{data_size!r}")
        if not isinstance(data_time, bool):
            raise TypeError(f"TimeMonitor: data_time must be a bool, got {data_time!r}")
        self.data_size = data_size
        self.data_time = data_time
        self._epoch_start = time.perf_counter()
        self._data_start = 0.0
        self._data_sum = 0.0

    def epoch_begin(self, run_context):
        self._epoch_start = self._data_start = time.perf_counter()
        self._data_sum = 0.0

    def on_train_step_begin(self, run_context):
        self._data_sum += time.perf_counter() - self._data_start

    def on_train_step_end(self, run_context):
        self._data_start = time.perf_counter()

    def epoch_end(self, run_context):
        epoch_ms = (time.perf_counter() - self._epoch_start) * 1000
        cb_params = run_context.original_args()
        steps = cb_params.get('batch_num') or self.data_size
        if not steps:
            raise ValueError("TimeMonitor: cb_params has no batch_num; give data_size")
        text = (f"{str(cb_params.get('mode', '')).title()} epoch time: {epoch_ms:5.3f} ms, "
                f"per step time: {epoch_ms / steps:5.3f} ms")
        if self.data_time:
            text += f" (data time: {self._data_sum * 1000 / steps:5.3f} ms)"
        print(text, flush=True)


class LambdaCallback(Callback):
    """A callback made of functions: each given ``on_*`` function replaces that method.

    Every function takes the ``run_context``.

    Raises:
        TypeError: for an argument that is neither None nor callable.

    >>> import hookgrad as ms
    >>> cb = ms.train.LambdaCallback(on_train_begin=lambda ctx: print('start'))
    >>> cb.on_train_begin(ms.train.RunContext({}))
    start
    """

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None,
                 on_train_step_begin=None, on_train_step_end=None, on_train_begin=None,
                 on_train_end=None, on_eval_epoch_begin=None, on_eval_epoch_end=None,
                 on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        fns = dict(on_train_epoch_begin=on_train_epoch_begin,
                   on_train_epoch_end=on_train_epoch_end,
                   on_train_step_begin=on_train_step_begin, on_train_step_end=on_train_step_end,
                   on_train_begin=on_train_begin, on_train_end=on_train_end,
                   on_eval_epoch_begin=on_eval_epoch_begin, on_eval_epoch_end=on_eval_epoch_end,
                   on_eval_step_begin=on_eval_step_begin, on_eval_step_end=on_eval_step_end,
                   on_eval_begin=on_eval_begin, on_eval_end=on_eval_end)
        for name, fn in fns.items():
            if fn is not None and not callable(fn):
                raise TypeError(f"LambdaCallback: {name} must be callable or None, got "
                                f"{type(fn).__name__}")
        self.__dict__.update({name: fn for name, fn in fns.items() if fn is not None})


class History(Callback):
    """Record, per training epoch, the epoch number (``self.epoch``), the last step's loss and
    any evaluation metrics (``self.history``: ``{'net_output': [...], 'accuracy': [...]}``)."""

    def __init__(self):
        super().__init__()
        self.epoch = []
        self.history = {}

    def on_train_begin(self, run_context):
        self.epoch = []
        self.history = {}

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        self.epoch.append(cb_params.cur_epoch_num)
        loss = loss_value(cb_params.get('net_outputs'))
        if loss is not None:
            self.history.setdefault('net_output', []).append(loss)
        for name, value in (cb_params.get('metrics') or {}).items():
            self.history.setdefault(name, []).append(value)


class EarlyStopping(Monitoring):
    """Stop training when a monitored value stops improving.

    At the end of each training epoch the monitored value is read: ``'loss'`` is the last
    step's training loss; any other name is looked up in the evaluation results of
    ``Model.fit`` (``'eval_loss'`` or a metric name). After ``patience`` epochs without an
    improvement larger than ``min_delta`` it requests a stop.

    Args:
        monitor: the value to watch. Default 'eval_loss'.
        min_delta: the smallest change counted as an improvement (its absolute value).
        patience: epochs without improvement to wait. Default 0.
        verbose: print when stopping and restoring.
        mode: 'min', 'max' or 'auto' (min for losses and errors, max otherwise).
        baseline: a value the monitored value must beat before the wait restarts.
        restore_best_weights: on stopping, put back the parameters of the best epoch.

    Raises:
        TypeError, ValueError: for arguments of the wrong type or an unknown ``mode``.
    """

    def __init__(self, monitor='eval_loss', min_delta=0, patience=0, verbose=False, mode='auto',
                 baseline=None, restore_best_weights=False):
        super().__init__()
        if not isinstance(monitor, str):
            raise TypeError(f"EarlyStopping: monitor must be a str, got {monitor!r}")
        for arg, value in (('min_delta', min_delta), ('baseline', baseline)):
            if value is not None and (isinstance(value, bool) or
                                      not isinstance(value, numbers.Real)):
                raise TypeError(f"EarlyStopping: {arg} must be a number, got {value!r}")
        for arg, value in (('verbose', verbose), ('restore_best_weights', restore_best_weights)):
            if not isinstance(value, bool):
                raise TypeError(f"EarlyStopping: {arg} must be a bool, got {value!r}")
        if mode not in ('auto', 'min', 'max'):
            raise ValueError(f"EarlyStopping: mode must be 'auto', 'min' or 'max', got {mode!r}")
        self.monitor = monitor
        self.min_delta = abs(float(min_delta))
        self.patience = _non_negative_int(patience, 'EarlyStopping', 'patience')
        self.verbose = verbose
        self.mode = mode
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self._minimize = mode == 'min' or (mode == 'auto' and monitor in _SMALLER_IS_BETTER)
        self.on_train_begin(None)


    def on_train_begin(self, run_context):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = math.inf if self._minimize else -math.inf
        self._best_weights = None

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        current = self._monitor_value(cb_params)
        if current is None:
            return
        params = list(cb_params.train_network.get_parameters()) \
            if self.restore_best_weights else []
        if self.restore_best_weights and self._best_weights is None:
            self._best_weights = [p.value() for p in params]       # copies on their device
        self.wait += 1
        if self._improves(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self._best_weights = [p.value() for p in params]
            if self.baseline is None or self._improves(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.cur_epoch_num
            run_context.request_stop()
            if self.restore_best_weights:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                for p, value in zip(params, self._best_weights):
                    p.set_data(value)

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping")


# MindSpore's mindspore.train.callback holds these too; they subclass Callback, so come last
from .model_checkpoint import CheckpointConfig, ModelCheckpoint  # noqa: E402
from .callback_lr import LearningRateScheduler, ReduceLROnPlateau  # noqa: E402
from .callback_recovery import OnRequestExit, BackupAndRestore  # noqa: E402
from .callback_unavailable import (SummaryLandscape,  # noqa: E402
                                   FlopsUtilizationCollector, TrainFaultTolerance)
from .summary_collector import SummaryCollector  # noqa: E402

from ..compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.train.callback')
