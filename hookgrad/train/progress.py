"""``ProgressBar``: a tqdm bar over each training epoch's steps, showing the loss.

tqdm is optional (the ``progress`` extra): without it the callback shows nothing and raises
nothing. ``Model.train`` adds one by default when standard output is a terminal.
"""
import numbers

from .callback_base import Callback, loss_value

__all__ = ['ProgressBar']


def _tqdm():
    """tqdm's ``tqdm`` class, or None when tqdm is not installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm


class ProgressBar(Callback):
    """Show a progress bar per training epoch with the current loss (needs tqdm; without it,
    nothing is shown).

    Args:
        leave: keep each finished epoch's bar on screen. Default True.
        file: the stream to draw on. Default None: tqdm's default (standard error).
        loss_digits: decimals of the loss shown. Default 4.

    Raises:
        TypeError: for a non-bool ``leave`` or a ``loss_digits`` that is not an int >= 0.
    """

    def __init__(self, leave=True, file=None, loss_digits=4):
        super().__init__()
        if not isinstance(leave, bool):
            raise TypeError(f"ProgressBar: leave must be a bool, got {leave!r}")
        if isinstance(loss_digits, bool) or not isinstance(loss_digits, numbers.Integral) \
                or loss_digits < 0:
            raise TypeError(f"ProgressBar: loss_digits must be an int >= 0, got {loss_digits!r}")
        self.leave = leave
        self.file = file
        self.loss_digits = int(loss_digits)
        self._bar = None

    def on_train_epoch_begin(self, run_context):
        tqdm = _tqdm()
        if tqdm is None:
            return
        self._close()
        cb_params = run_context.original_args()
        last = cb_params.get('initial_epoch', 0) + cb_params.get('epoch_num', 0)
        self._bar = tqdm(total=cb_params.batch_num, desc=f"epoch {cb_params.cur_epoch_num}/{last}",
                         leave=self.leave, file=self.file, unit='step')

    def on_train_step_end(self, run_context):
        if self._bar is None:
            return
        loss = loss_value(run_context.original_args().get('net_outputs'))
        if loss is not None:
            self._bar.set_postfix_str(f"loss={loss:.{self.loss_digits}f}", refresh=False)
        self._bar.update(1)

    def on_train_epoch_end(self, run_context):
        self._close()

    def on_train_end(self, run_context):
        self._close()

    def _close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
