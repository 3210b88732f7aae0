"""``WaitedDSCallback``: a dataset callback kept in step with ``Model.train``'s callbacks
(MindSpore's ``mindspore.dataset.WaitedDSCallback``; ``hookgrad.dataset`` exports it).

Given both to ``Dataset.map(..., callbacks=...)`` and to ``Model.train(..., callbacks=...)``,
it holds the pipeline back before a dataset step (after the first ``step_size`` rows) until the
training step before it has ended, and before an epoch (after the first) until the training
epoch before it has ended; then ``sync_step_begin`` / ``sync_epoch_begin`` run with both run
contexts, so they can adjust the data with what training has just learnt (an augmentation
policy updated from the loss). hookgrad's pipeline reads rows in the training thread, after
the previous step's callbacks have run, so the wait is normally already satisfied; a map
carrying this callback runs its operations on one worker so no row is read ahead.
"""
import threading

from ..dataset import config as _config
from ..dataset.callbacks import DSCallback
from .callback_base import Callback

__all__ = ['WaitedDSCallback']


class WaitedDSCallback(Callback, DSCallback):
    """A dataset callback that waits for the training callbacks; override ``sync_*``.

    Args:
        step_size: rows per step, usually the batch size. Default 1.

    Raises:
        TypeError, ValueError: for a ``step_size`` that is not an int in [1, 2**31 - 1].
        AttributeError: from ``Dataset.map``, for a subclass overriding neither ``sync_*``
            method. Reading raises RuntimeError when the training step or epoch awaited has not
            ended within ``ds.config.get_callback_timeout()`` seconds.
    """

    _ds_waits = True

    def __init__(self, step_size=1):
        super().__init__(step_size)
        self.step_event = threading.Event()
        self.step_run_context = None
        self.epoch_event = threading.Event()
        self.epoch_run_context = None
        self.training_ended = False

    def sync_epoch_begin(self, train_run_context, ds_run_context):
        """Called before a dataset epoch, after the previous training epoch ended."""

    def sync_step_begin(self, train_run_context, ds_run_context):
        """Called before a dataset step, after the previous training step ended."""

    def epoch_end(self, run_context):
        """Training callback: releases the wait of the next dataset epoch."""
        self.epoch_run_context = run_context
        self.epoch_event.set()

    def step_end(self, run_context):
        """Training callback: releases the wait of the next dataset step."""
        self.step_run_context = run_context
        self.step_event.set()

    def end(self, run_context):
        """Training callback: training is over, so nothing waits any more."""
        self.epoch_end(run_context)
        self.step_end(run_context)
        self.training_ended = True

    def _wait(self, event, what):
        if self.training_ended:
            return
        timeout = _config.get_callback_timeout()
        if not event.wait(timeout=timeout):
            raise RuntimeError(f"{what} timed out after {timeout} second(s): the training "
                               f"callback before it never ended; give this callback to "
                               f"Model.train's callbacks too")
        event.clear()

    def ds_epoch_begin(self, ds_run_context):
        """Dataset hook: waits for the training epoch before, then ``sync_epoch_begin``."""
        if ds_run_context.cur_epoch_num > 1:
            self._wait(self.epoch_event, 'ds_epoch_begin')
            self.sync_epoch_begin(self.epoch_run_context, ds_run_context)

    def ds_step_begin(self, ds_run_context):
        """Dataset hook: waits for the training step before, then ``sync_step_begin``."""
        if ds_run_context.cur_step_num > self.step_size:
            self._wait(self.step_event, 'ds_step_begin')
            self.sync_step_begin(self.step_run_context, ds_run_context)

    def _ds_hooks(self):
        hooks = {}
        if type(self).sync_step_begin is not WaitedDSCallback.sync_step_begin:
            hooks['ds_step_begin'] = self.ds_step_begin
        if type(self).sync_epoch_begin is not WaitedDSCallback.sync_epoch_begin:
            hooks['ds_epoch_begin'] = self.ds_epoch_begin
        return hooks
