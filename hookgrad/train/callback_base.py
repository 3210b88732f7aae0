"""What every training callback builds on: ``Callback`` (the ``on_train_*`` / ``on_eval_*``
methods and their short aliases), ``RunContext``, the ``cb_params`` namespace, the list that
runs several callbacks, and what the callbacks that watch one value share (``Monitoring``)."""
import contextlib
import numbers

import numpy as np

from .._frames import warn
from .._tensor import Tensor


class Callback:
    """Base class of callbacks; every method does nothing but call its short alias.

    Callbacks are context managers: ``Model`` enters each one for the length of a run.

    >>> import hookgrad as ms
    >>> class StepPrinter(ms.train.Callback):
    ...     def on_train_step_end(self, run_context):
    ...         print('step', run_context.original_args().cur_step_num)
    >>> cb = StepPrinter()
    >>> cb.on_train_step_end(ms.train.RunContext({'cur_step_num': 3}))
    step 3
    """

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    # the short aliases (MindSpore's older names), called by both train and eval methods
    def begin(self, run_context):
        """Called once before training or evaluation starts."""

    def epoch_begin(self, run_context):
        """Called before each epoch."""

    def epoch_end(self, run_context):
        """Called after each epoch."""

    def step_begin(self, run_context):
        """Called before each step."""

    def step_end(self, run_context):
        """Called after each step."""

    def end(self, run_context):
        """Called once after training or evaluation ends."""

    def on_train_begin(self, run_context):
        """Called once before training starts."""
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        """Called before each training epoch."""
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        """Called after each training epoch."""
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        """Called before each training step."""
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        """Called after each training step."""
        self.step_end(run_context)

    def on_train_end(self, run_context):
        """Called once after training ends."""
        self.end(run_context)

    def on_eval_begin(self, run_context):
        """Called once before evaluation starts."""
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        """Called before the evaluation pass."""
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        """Called after the evaluation pass."""
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        """Called before each evaluation step."""
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        """Called after each evaluation step."""
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        """Called once after evaluation ends."""
        self.end(run_context)


class InternalCallbackParam(dict):
    """``cb_params``: a dict whose keys read and write as attributes too."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"cb_params has no '{key}'; it holds {sorted(self)}") from None

    def __setattr__(self, key, value):
        self[key] = value


class RunContext:
    """What a callback sees of a run: the ``cb_params`` and a way to stop.

    Args:
        original_args: the ``cb_params`` dict.

    Raises:
        TypeError: when ``original_args`` is not a dict.
    """

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"RunContext: original_args must be a dict, got "
                            f"{type(original_args).__name__}")
        if not isinstance(original_args, InternalCallbackParam):
            original_args = InternalCallbackParam(original_args)
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        """The ``cb_params`` namespace (attribute or key access)."""
        return self._original_args

    def request_stop(self):
        """Stop the run after the current step (and its epoch's end callbacks)."""
        self._stop_requested = True

    def get_stop_requested(self):
        """Whether ``request_stop`` was called."""
        return self._stop_requested


class CallbackList(Callback):
    """Runs a list of callbacks in order; entering it enters each of them."""

    def __init__(self, callbacks, who='Model'):
        if callbacks is None:
            callbacks = []
        elif isinstance(callbacks, Callback):
            callbacks = [callbacks]
        elif isinstance(callbacks, (list, tuple)):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError(f"{who}: every callback must be a Callback, got "
                                    f"{type(cb).__name__}")
            callbacks = list(callbacks)
        else:
            raise TypeError(f"{who}: callbacks must be a Callback or a list of Callbacks, got "
                            f"{type(callbacks).__name__}")
        self.callbacks = callbacks
        self._stack = None

    def __enter__(self):
        self._stack = contextlib.ExitStack()
        entered = []
        try:
            for cb in self.callbacks:
                target = self._stack.enter_context(cb)
                entered.append(target if isinstance(target, Callback) else cb)
        except BaseException:
            self._stack.close()
            raise
        self.callbacks = entered
        return self

    def __exit__(self, *exc):
        return self._stack.__exit__(*exc)

    def on_train_begin(self, run_context):
        for cb in self.callbacks:
            cb.on_train_begin(run_context)

    def on_train_epoch_begin(self, run_context):
        for cb in self.callbacks:
            cb.on_train_epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        for cb in self.callbacks:
            cb.on_train_epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        for cb in self.callbacks:
            cb.on_train_step_begin(run_context)

    def on_train_step_end(self, run_context):
        for cb in self.callbacks:
            cb.on_train_step_end(run_context)

    def on_train_end(self, run_context):
        for cb in self.callbacks:
            cb.on_train_end(run_context)

    def on_eval_begin(self, run_context):
        for cb in self.callbacks:
            cb.on_eval_begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        for cb in self.callbacks:
            cb.on_eval_epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        for cb in self.callbacks:
            cb.on_eval_epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        for cb in self.callbacks:
            cb.on_eval_step_begin(run_context)

    def on_eval_step_end(self, run_context):
        for cb in self.callbacks:
            cb.on_eval_step_end(run_context)

    def on_eval_end(self, run_context):
        for cb in self.callbacks:
            cb.on_eval_end(run_context)


def loss_value(net_outputs):
    """The loss in ``net_outputs`` (a Tensor, or the first of a tuple) as a float, else None."""
    if isinstance(net_outputs, (tuple, list)) and net_outputs:
        net_outputs = net_outputs[0]
    if isinstance(net_outputs, Tensor):
        return float(np.mean(net_outputs.asnumpy()))
    if isinstance(net_outputs, numbers.Real):
        return float(net_outputs)
    return None


def _non_negative_int(value, who, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{who}: {arg} must be an int >= 0, got {value!r}")
    return int(value)


# MindSpore's metrics where smaller is better ('auto' mode of EarlyStopping, ReduceLROnPlateau)
_SMALLER_IS_BETTER = ('hausdorff_distance', 'mae', 'mse', 'loss', 'perplexity',
                      'mean_surface_distance', 'root_mean_square_distance', 'eval_loss')


class Monitoring(Callback):
    """What the callbacks that watch one value share: ``monitor``, ``min_delta`` and
    ``_minimize`` (set by the subclass) decide whether a value improves on the best."""

    def _improves(self, value, reference):
        if self._minimize:
            return value < reference - self.min_delta
        return value > reference + self.min_delta

    def _monitor_value(self, cb_params):
        return monitored_value(cb_params, self.monitor, type(self).__name__)


def monitored_value(cb_params, monitor, who):
    """The value ``monitor`` names this epoch ('loss' or an eval metric), as a float; None
    (with a warning) when the epoch has none."""
    if monitor == 'loss':
        value = loss_value(cb_params.get('net_outputs'))
    else:
        value = (cb_params.get('eval_results') or {}).get(monitor)
    if value is None:
        available = ['loss'] + sorted(cb_params.get('eval_results') or {})
        warn(f"{who}: the monitored value '{monitor}' is not available this epoch; "
             f"available: {available}")
        return None
    value = np.asarray(value)
    if value.shape != ():
        raise ValueError(f"{who}: monitor '{monitor}' must be a scalar, got shape "
                         f"{value.shape}")
    return float(value)
