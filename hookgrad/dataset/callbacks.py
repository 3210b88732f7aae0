"""Dataset pipeline callbacks (MindSpore's ``mindspore.dataset.DSCallback``).

A ``DSCallback`` given to ``Dataset.map(..., callbacks=...)`` is called as rows pass through
that map: ``ds_begin`` once when an iterator first reads the pipeline, ``ds_epoch_begin`` /
``ds_epoch_end`` around each epoch and ``ds_step_begin`` / ``ds_step_end`` around every
``step_size``-th row of an epoch (rows 1, 1 + step_size, ...). Each receives a run context with
``cur_epoch_num`` (from 1), ``cur_step_num_in_epoch`` (from 1) and ``cur_step_num`` (rows since
the pipeline started, from 1), as MindSpore passes them. hookgrad reads the pipeline in the
consumer's thread, so a row's ``ds_step_end`` comes before the next row's ``ds_step_begin``.
"""
import numbers

from .row_state import current_iterator

__all__ = ['DSCallback', 'DSRunContext', 'check_callbacks', 'CallbackRunner']

_INT32_MAX = 2 ** 31 - 1
_HOOKS = ('ds_begin', 'ds_epoch_begin', 'ds_epoch_end', 'ds_step_begin', 'ds_step_end')


class DSRunContext:
    """What a dataset callback learns of the pipeline: epoch and step numbers."""

    __slots__ = ('cur_epoch_num', 'cur_step_num_in_epoch', 'cur_step_num')

    def __init__(self, cur_epoch_num=0, cur_step_num_in_epoch=0, cur_step_num=0):
        self.cur_epoch_num = cur_epoch_num
        self.cur_step_num_in_epoch = cur_step_num_in_epoch
        self.cur_step_num = cur_step_num

    def __repr__(self):
        return (f"DSRunContext(cur_epoch_num={self.cur_epoch_num}, cur_step_num_in_epoch="
                f"{self.cur_step_num_in_epoch}, cur_step_num={self.cur_step_num})")


def check_step_size(step_size, who):
    """``step_size`` as an int in [1, 2**31 - 1]."""
    if isinstance(step_size, bool) or not isinstance(step_size, numbers.Integral):
        raise TypeError(f"{who}: step_size must be an int, got {step_size!r}")
    if not 1 <= step_size <= _INT32_MAX:
        raise ValueError(f"{who}: step_size must be in [1, {_INT32_MAX}], got {step_size}")
    return int(step_size)


class DSCallback:
    """Base class of dataset pipeline callbacks; override the ``ds_*`` methods you need.

    Args:
        step_size: call ``ds_step_begin`` / ``ds_step_end`` every ``step_size`` rows of an
            epoch (rows 1, 1 + step_size, ...). Default 1: every row.

    Raises:
        TypeError, ValueError: for a ``step_size`` that is not an int in [1, 2**31 - 1].
        AttributeError: from ``Dataset.map``, for a subclass that overrides no ``ds_*`` method.

    >>> import hookgrad as ms
    >>> class Steps(ms.dataset.DSCallback):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.seen = []
    ...     def ds_step_begin(self, ds_run_context):
    ...         self.seen.append(ds_run_context.cur_step_num)
    >>> cb = Steps()
    >>> ds = ms.dataset.NumpySlicesDataset([1, 2], shuffle=False).map(lambda x: x, callbacks=cb)
    >>> _ = [r for r in ds.create_tuple_iterator(num_epochs=1)]
    >>> cb.seen
    [1, 2]
    """

    def __init__(self, step_size=1):
        self.step_size = check_step_size(step_size, type(self).__name__)

    def ds_begin(self, ds_run_context):
        """Called once, before the pipeline yields its first row."""

    def ds_epoch_begin(self, ds_run_context):
        """Called before each epoch."""

    def ds_epoch_end(self, ds_run_context):
        """Called after each epoch's last row."""

    def ds_step_begin(self, ds_run_context):
        """Called before every ``step_size``-th row of an epoch is processed."""

    def ds_step_end(self, ds_run_context):
        """Called after every ``step_size``-th row of an epoch is processed."""

    def _ds_hooks(self):
        """``{hook name: bound method}`` for the hooks this callback overrides."""
        return {name: getattr(self, name) for name in _HOOKS
                if getattr(type(self), name) is not getattr(DSCallback, name)}


def check_callbacks(callbacks, who):
    """``callbacks`` (None, a DSCallback or a list of them) as a checked list."""
    if callbacks is None:
        return []
    given = list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks]
    out = []
    for i, cb in enumerate(given):
        if not isinstance(cb, DSCallback):
            raise TypeError(f"{who}: callbacks[{i}] must be a DSCallback, got "
                            f"{type(cb).__name__}")
        hooks = cb._ds_hooks()
        if not hooks:
            raise AttributeError("Inheriting Callback class without overriding any methods, "
                                 "check the usage of user defined Callback.")
        out.append(cb)
    return out


class CallbackRunner:
    """Counts a map's epochs and rows and calls its callbacks at the right moments.

    A new iterator over the pipeline starts a new run (``ds_begin``, epoch 1), as in MindSpore
    where every iterator launches its own pipeline.
    """

    def __init__(self, callbacks):
        self.callbacks = [(cb.step_size, cb._ds_hooks()) for cb in callbacks]
        self.waits = any(getattr(cb, '_ds_waits', False) for cb in callbacks)
        self._owner = object()          # no run yet
        self.epoch = self.step = self.step_in_epoch = 0

    def _call(self, name, step=None):
        context = DSRunContext(self.epoch, self.step_in_epoch, self.step)
        for step_size, hooks in self.callbacks:
            hook = hooks.get(name)
            if hook is not None and (step is None or (step - 1) % step_size == 0):
                hook(context)

    def begin_epoch(self):
        owner = current_iterator()
        if owner is not self._owner:
            self._owner = owner
            self.epoch = self.step = self.step_in_epoch = 0
            self._call('ds_begin')
        self.epoch += 1
        self.step_in_epoch = 0
        self._call('ds_epoch_begin')

    def begin_step(self):
        self.step += 1
        self.step_in_epoch += 1
        self._call('ds_step_begin', self.step_in_epoch)
        return self.step_in_epoch, self.step

    def end_step(self, step_in_epoch, step):
        context_now = self.step_in_epoch, self.step
        self.step_in_epoch, self.step = step_in_epoch, step
        self._call('ds_step_end', step_in_epoch)
        self.step_in_epoch, self.step = context_now

    def end_epoch(self):
        self._call('ds_epoch_end')
