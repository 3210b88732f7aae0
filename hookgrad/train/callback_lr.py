"""Callbacks that change the optimizer's learning rate during training:
``LearningRateScheduler`` (a function of the step) and ``ReduceLROnPlateau``."""
import math
import numbers

import numpy as np

from ..nn.parameter import Parameter
from .callback_base import _SMALLER_IS_BETTER, Callback, Monitoring, _non_negative_int

__all__ = ['LearningRateScheduler', 'ReduceLROnPlateau']


def _lr_parameter(cb_params, who):
    """The optimizer's learning rate Parameter (a single, fixed rate)."""
    optimizer = cb_params.get('optimizer')
    lr = getattr(optimizer, 'learning_rate', None)
    if not isinstance(lr, Parameter) or lr.shape != ():
        raise ValueError(f"{who}: needs an optimizer with one fixed learning rate (a scalar "
                         f"Parameter); dynamic and per-group learning rates are not supported, "
                         f"as in MindSpore")
    return lr


def _assign(lr, value):
    lr.set_data(np.asarray(value, dtype=np.float32))        # a host value: no device copy


class LearningRateScheduler(Callback):
    """Set the learning rate after every step to ``learning_rate_function(lr, cur_step_num)``.

    Args:
        learning_rate_function: ``f(lr: float, step: int) -> float``, called after each
            training step with the current rate and the step number (from 1).

    Raises:
        TypeError: for a ``learning_rate_function`` that is not callable.

    >>> import hookgrad as ms
    >>> def halve_every_10(lr, step):
    ...     return lr * 0.5 if step % 10 == 0 else lr
    >>> cb = ms.train.LearningRateScheduler(halve_every_10)
    """

    def __init__(self, learning_rate_function):
        super().__init__()
        if not callable(learning_rate_function):
            raise TypeError(f"LearningRateScheduler: learning_rate_function must be callable, "
                            f"got {type(learning_rate_function).__name__}")
        self.learning_rate_function = learning_rate_function

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        lr = _lr_parameter(cb_params, 'LearningRateScheduler')
        current = float(lr.asnumpy())
        new = self.learning_rate_function(current, cb_params.cur_step_num)
        if not math.isclose(current, new, rel_tol=1e-10):
            _assign(lr, new)


class ReduceLROnPlateau(Monitoring):
    """Multiply the learning rate by ``factor`` when a monitored value stops improving.

    Read at the end of each training epoch: ``'loss'`` is the last step's training loss, any
    other name a value of ``Model.fit``'s evaluation results (``'eval_loss'``, a metric).

    Args:
        monitor: the value to watch. Default 'eval_loss'.
        factor: the multiplier, a float in (0, 1). Default 0.1.
        patience: epochs without improvement before reducing. Default 10.
        verbose: print each reduction.
        mode: 'min', 'max' or 'auto' (min for losses and errors, max otherwise).
        min_delta: the smallest change counted as an improvement (its absolute value).
        cooldown: epochs to wait after a reduction before counting again.
        min_lr: the learning rate's lower bound.

    Raises:
        TypeError, ValueError: for arguments of the wrong type or out of range.
    """

    def __init__(self, monitor='eval_loss', factor=0.1, patience=10, verbose=False, mode='auto',
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__()
        who = 'ReduceLROnPlateau'
        if not isinstance(monitor, str):
            raise TypeError(f"{who}: monitor must be a str, got {type(monitor).__name__}")
        if isinstance(factor, bool) or not isinstance(factor, float) or not 0.0 < factor < 1.0:
            raise ValueError(f"{who}: factor must be a float in (0, 1), got {factor!r}")
        if not isinstance(verbose, bool):
            raise TypeError(f"{who}: verbose must be a bool, got {type(verbose).__name__}")
        if not isinstance(mode, str) or mode not in ('auto', 'min', 'max'):
            raise ValueError(f"{who}: mode must be 'auto', 'min' or 'max', got {mode!r}")
        for arg, value in (('min_delta', min_delta), ('min_lr', min_lr)):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"{who}: {arg} must be a float or int, got "
                                f"{type(value).__name__}")
        self.monitor, self.factor, self.verbose, self.mode = monitor, factor, verbose, mode
        self.patience = _non_negative_int(patience, who, 'patience')
        self.cooldown = _non_negative_int(cooldown, who, 'cooldown')
        self.min_delta = abs(min_delta)
        self.min_lr = min_lr
        self._minimize = mode == 'min' or (mode == 'auto' and monitor in _SMALLER_IS_BETTER)
        self.on_train_begin(None)

    def on_train_begin(self, run_context):
        self.cooldown_counter = 0
        self.wait = 0
        self.best = np.inf if self._minimize else -np.inf

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        lr = _lr_parameter(cb_params, 'ReduceLROnPlateau')
        current = self._monitor_value(cb_params)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._improves(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                rate = float(lr.asnumpy())
                if rate > self.min_lr:
                    new = max(rate * self.factor, self.min_lr)
                    _assign(lr, new)
                    if self.verbose:
                        print(f"Epoch {cb_params.cur_epoch_num:05d}: ReduceLROnPlateau reducing "
                              f"learning rate to {np.float32(new)}.")
                self.cooldown_counter = self.cooldown
                self.wait = 0
