"""``ModelCheckpoint`` and ``CheckpointConfig``: save the network during training.

Files are named ``{prefix}-{epoch}_{step in epoch}.ckpt`` and written with
``hookgrad.save_checkpoint(network, path)``. When files of the same prefix already exist in the
directory, the prefix becomes ``{prefix}_1``, ``{prefix}_2``... as in MindSpore, so runs never
overwrite each other.
"""
import numbers
import os
import time

from ..nn.cell import Cell
from .callback import Callback

__all__ = ['CheckpointConfig', 'ModelCheckpoint']


def _count(value, who, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{who}: {arg} must be an int >= 0, got {value!r}")
    return int(value)


class CheckpointConfig:
    """When ``ModelCheckpoint`` saves, and how many files it keeps.

    Args:
        save_checkpoint_steps: save every this many steps (0: by time instead). Default 1.
        save_checkpoint_seconds: with ``save_checkpoint_steps=0``, save every this many
            seconds.
        keep_checkpoint_max: keep at most this many files of the run, deleting the oldest
            (0: keep all). Default 5.
        saved_network: the Cell to save instead of the network being trained.

    Raises:
        ValueError: for negative or non-int counts, or when both ``save_checkpoint_steps`` and
            ``save_checkpoint_seconds`` are 0.
        TypeError: for a ``saved_network`` that is not a Cell.
    """

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 saved_network=None):
        self.save_checkpoint_steps = _count(save_checkpoint_steps, 'CheckpointConfig',
                                            'save_checkpoint_steps')
        self.save_checkpoint_seconds = _count(save_checkpoint_seconds, 'CheckpointConfig',
                                              'save_checkpoint_seconds')
        self.keep_checkpoint_max = _count(keep_checkpoint_max, 'CheckpointConfig',
                                          'keep_checkpoint_max')
        if not self.save_checkpoint_steps and not self.save_checkpoint_seconds:
            raise ValueError("CheckpointConfig: save_checkpoint_steps and save_checkpoint_seconds "
                             "are both 0: nothing would ever be saved")
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError(f"CheckpointConfig: saved_network must be a Cell or None, got "
                            f"{type(saved_network).__name__}")
        self.saved_network = saved_network


def _unique_prefix(directory, prefix):
    """``prefix``, or ``prefix_N`` when checkpoint files of ``prefix`` already exist."""
    if not os.path.isdir(directory):
        return prefix
    suffix = 0
    for name in os.listdir(directory):
        if not name.endswith('.ckpt') or not name.startswith(prefix):
            continue
        rest = name[len(prefix):]
        if rest.startswith('-'):
            suffix = max(suffix, 1)
        elif rest.startswith('_') and '-' in rest:
            num = rest[1:rest.index('-')]
            if num.isdigit():
                suffix = max(suffix, int(num) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class ModelCheckpoint(Callback):
    """Save checkpoints of the trained network at the steps ``config`` chooses, and at the end.

    Args:
        prefix: the file name prefix, a str without '/'. Default 'CKP'.
        directory: the folder to save in (created when needed). Default None: the current
            folder.
        config: a ``CheckpointConfig``. Default None: ``CheckpointConfig()``.

    Raises:
        ValueError: for a ``prefix`` that is not a str or contains '/'.
        TypeError: for a ``directory`` that is not a str, or a ``config`` of another type.
    """

    def __init__(self, prefix='CKP', directory=None, config=None):
        super().__init__()
        if not isinstance(prefix, str) or '/' in prefix or not prefix:
            raise ValueError(f"ModelCheckpoint: prefix must be a non-empty str without '/', got "
                             f"{prefix!r}")
        if directory is not None and not isinstance(directory, (str, os.PathLike)):
            raise TypeError(f"ModelCheckpoint: directory must be a str or None, got "
                            f"{type(directory).__name__}")
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError(f"ModelCheckpoint: config must be a CheckpointConfig, got "
                            f"{type(config).__name__}")
        self._directory = os.fspath(directory) if directory is not None else os.getcwd()
        self._prefix = _unique_prefix(self._directory, prefix)
        self._config = config
        self._last_triggered_step = 0
        self._last_time = time.monotonic()
        self._saved = []
        self._latest_ckpt_file_name = ''

    @property
    def latest_ckpt_file_name(self):
        """The path of the last checkpoint written ('' before the first)."""
        return self._latest_ckpt_file_name

    def on_train_begin(self, run_context):
        self._last_time = time.monotonic()
        self._last_triggered_step = 0       # step numbers restart with each run

    def on_train_step_end(self, run_context):
        self._save(run_context.original_args(), force=False)

    def on_train_end(self, run_context):
        self._save(run_context.original_args(), force=True)

    def _due(self, cb_params, force):
        steps, seconds = self._config.save_checkpoint_steps, self._config.save_checkpoint_seconds
        if steps:
            return force or cb_params.cur_step_num >= self._last_triggered_step + steps
        now = time.monotonic()
        if force or now - self._last_time > seconds:
            self._last_time = now
            return True
        return False

    def _save(self, cb_params, force):
        if cb_params.cur_step_num == self._last_triggered_step or \
                not self._due(cb_params, force):
            return
        from .. import save_checkpoint
        step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.ckpt"
        path = os.path.join(self._directory, name)
        os.makedirs(self._directory, exist_ok=True)
        network = self._config.saved_network
        save_checkpoint(cb_params.train_network if network is None else network, path)
        if path in self._saved:
            self._saved.remove(path)
        self._saved.append(path)
        keep = self._config.keep_checkpoint_max
        while keep and len(self._saved) > keep:
            oldest = self._saved.pop(0)
            if os.path.exists(oldest):
                os.remove(oldest)
        self._last_triggered_step = cb_params.cur_step_num
        self._latest_ckpt_file_name = path
