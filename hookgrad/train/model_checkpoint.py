"""``ModelCheckpoint`` and ``CheckpointConfig``: save the network during training.

Files are named ``{prefix}-{epoch}_{step in epoch}.ckpt`` (``.safetensors`` with
``format='safetensors'``) and written with ``hookgrad.save_checkpoint`` in MindSpore's formats. When files of the same prefix already exist in the
directory, the prefix becomes ``{prefix}_1``, ``{prefix}_2``... as in MindSpore, so runs never
overwrite each other.
"""
import numbers
import os
import time

from .._tensor import Tensor
from ..nn.cell import Cell
from .callback_base import Callback

__all__ = ['CheckpointConfig', 'ModelCheckpoint']


_INFO = ('epoch_num', 'step_num')
_APPEND_TYPES = (bool, numbers.Integral, numbers.Real, str, Tensor)


def _count(value, who, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{who}: {arg} must be an int >= 0, got {value!r}")
    if value < 0:
        raise ValueError(f"{who}: {arg} must be an int >= 0, got {value!r}")
    return int(value)


def _check_type(value, types, arg, kind):
    if not isinstance(value, types):
        raise TypeError(f"CheckpointConfig: {arg} must be {kind}, got {type(value).__name__}")
    return value


def _append_info(append_info):
    """MindSpore's ``append_info`` list as the dict saved beside the parameters (or None)."""
    if append_info is None or append_info == []:
        return None
    if not isinstance(append_info, list):
        raise TypeError(f"CheckpointConfig: append_info must be a list, got "
                        f"{type(append_info).__name__}")
    info = {key: 0 for key in _INFO if key in append_info}
    dicts = [e for e in append_info if isinstance(e, dict)]
    for element in append_info:
        if isinstance(element, str):
            if element not in _INFO:
                raise ValueError(f"CheckpointConfig: a str in append_info must be one of "
                                 f"{list(_INFO)}, got {element!r}")
        elif not isinstance(element, dict):
            raise TypeError(f"CheckpointConfig: append_info elements must be str or dict, got "
                            f"{type(element).__name__}")
    if len(dicts) > 1:
        raise TypeError(f"CheckpointConfig: append_info may hold one dict, got {len(dicts)}")
    for key, value in (dicts[0].items() if dicts else ()):
        if not isinstance(key, str) or not isinstance(value, _APPEND_TYPES):
            raise TypeError(f"CheckpointConfig: the append_info dict must map str to int, "
                            f"float, bool, str or Tensor, got {key!r}: {type(value).__name__}")
        info[key] = value
    return info


class CheckpointConfig:
    """When ``ModelCheckpoint`` saves, how many files it keeps, and what else goes in them.

    Args:
        save_checkpoint_steps: save every this many steps (0: by time). Default 1.
        save_checkpoint_seconds: with ``save_checkpoint_steps`` 0, save every this many
            seconds (ignored when steps are set, as in MindSpore). Default 0.
        keep_checkpoint_max: keep at most this many files of the run, deleting the oldest.
            Default 5. With 0 and ``keep_checkpoint_per_n_minutes`` 0 it becomes 1.
        keep_checkpoint_per_n_minutes: with ``keep_checkpoint_max`` 0, keep one file per this
            many minutes (a newer file saved within them replaces the others of that span).
        integrated_save: MindSpore's merge of model-parallel slices; a bool that changes
            nothing on one device.
        async_save: False, True, 'thread' or 'process'; files are always written before the
            step returns (a synchronous save stands in for the asynchronous one).
        saved_network: the Cell to save instead of the network being trained.
        append_info: a list of 'epoch_num', 'step_num' (saved with the current counts) and at
            most one dict ``{str: int | float | bool | str | Tensor}`` saved as is.
        enc_key: None. Encrypted checkpoints are not available in hookgrad: bytes raise.
        enc_mode: a str, read only with ``enc_key``.
        exception_save: save ``{prefix}-{epoch}_{step}_breakpoint.ckpt`` when training
            raises, then re-raise.
        crc_check: a bool; whether the files carry MindSpore's CRC of their contents.
        remove_redundancy: a bool, passed to ``save_checkpoint`` (MindSpore drops parameters
            duplicated across devices, which one device has none of).
        format: 'ckpt' (MindSpore's protobuf files) or 'safetensors'.
        kwargs: MindSpore's ``incremental`` (MapParameter saving; a bool, without effect).

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for negative counts, all four counts 0, bad ``append_info`` or
            ``async_save`` values, an ``enc_key`` or another ``format``.
    """

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False,
                 saved_network=None, append_info=None, enc_key=None, enc_mode='AES-GCM',
                 exception_save=False, crc_check=False, remove_redundancy=False, format='ckpt',
                 **kwargs):
        who = 'CheckpointConfig'
        steps = _count(save_checkpoint_steps, who, 'save_checkpoint_steps')
        seconds = _count(save_checkpoint_seconds, who, 'save_checkpoint_seconds')
        keep_max = _count(keep_checkpoint_max, who, 'keep_checkpoint_max')
        per_minutes = _count(keep_checkpoint_per_n_minutes, who, 'keep_checkpoint_per_n_minutes')
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError(f"CheckpointConfig: saved_network must be a Cell or None, got "
                            f"{type(saved_network).__name__}")
        if not (steps or seconds or keep_max or per_minutes):
            raise ValueError("CheckpointConfig: save_checkpoint_steps, save_checkpoint_seconds, "
                             "keep_checkpoint_max and keep_checkpoint_per_n_minutes are all 0")
        self.exception_save = _check_type(exception_save, bool, 'exception_save', 'a bool')
        self._save_checkpoint_steps = steps
        self._save_checkpoint_seconds = None if steps else seconds
        self._keep_checkpoint_max = keep_max
        self._keep_checkpoint_per_n_minutes = None if keep_max else per_minutes
        if not keep_max and not per_minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save = _check_type(integrated_save, bool, 'integrated_save', 'a bool')
        _check_type(async_save, (bool, str), 'async_save', "a bool or str")
        if isinstance(async_save, str) and async_save not in ('process', 'thread'):
            raise ValueError(f"CheckpointConfig: async_save must be a bool, 'process' or "
                             f"'thread', got {async_save!r}")
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_dict = _append_info(append_info)
        _check_type(enc_key, (type(None), bytes), 'enc_key', 'None or bytes')
        self._enc_mode = _check_type(enc_mode, str, 'enc_mode', 'a str')
        if enc_key is not None:
            raise ValueError("CheckpointConfig: encrypted checkpoints are not available in "
                             "hookgrad (enc_key must be None)")
        self._enc_key = None
        self._crc_check = _check_type(crc_check, bool, 'crc_check', 'a bool')
        self.remove_redundancy = _check_type(remove_redundancy, bool, 'remove_redundancy',
                                             'a bool')
        _check_type(format, str, 'format', 'a str')
        if format not in ('ckpt', 'safetensors'):
            raise ValueError(f"CheckpointConfig: format must be 'ckpt' or 'safetensors', got "
                             f"{format!r}")
        self._format = format
        self._map_param_inc = _check_type(kwargs.get('incremental', False), bool,
                                          'incremental', 'a bool')
        self.enable_redundance = kwargs.get('enable_redundance', False)

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps,
                                     doc="Save every this many steps.")
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds,
                                       doc="Save every this many seconds (None: by steps).")
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max,
                                   doc="The most files kept.")
    keep_checkpoint_per_n_minutes = property(
        lambda self: self._keep_checkpoint_per_n_minutes,
        doc="Keep one file per this many minutes (None: by count).")
    integrated_save = property(lambda self: self._integrated_save, doc="The merge flag.")
    async_save = property(lambda self: self._async_save, doc="The asynchronous-save choice.")
    saved_network = property(lambda self: self._saved_network, doc="The Cell saved, or None.")
    append_dict = property(lambda self: self._append_dict,
                           doc="The extra entries saved in each file, or None.")
    enc_key = property(lambda self: self._enc_key, doc="None: no encryption.")
    enc_mode = property(lambda self: self._enc_mode, doc="The encryption mode name.")
    crc_check = property(lambda self: self._crc_check, doc="The CRC flag.")
    format = property(lambda self: self._format,
                      doc="The file format: 'ckpt' or 'safetensors'.")
    map_param_inc = property(lambda self: self._map_param_inc, doc="The incremental flag.")

    def get_checkpoint_policy(self):
        """The saving and keeping policy as a dict (MindSpore's keys)."""
        return {'save_checkpoint_steps': self.save_checkpoint_steps,
                'save_checkpoint_seconds': self.save_checkpoint_seconds,
                'keep_checkpoint_max': self.keep_checkpoint_max,
                'keep_checkpoint_per_n_minutes': self.keep_checkpoint_per_n_minutes,
                'saved_network': self.saved_network}


def _unique_prefix(directory, prefix, extension='.ckpt'):
    """``prefix``, or ``prefix_N`` when checkpoint files of ``prefix`` already exist."""
    if not os.path.isdir(directory):
        return prefix
    suffix = 0
    for name in os.listdir(directory):
        if not name.endswith(extension) or not name.startswith(prefix):
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

    In data-parallel mode with several processes only rank 0 writes and deletes the files.

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
        self._extension = '.' + config.format
        self._prefix = _unique_prefix(self._directory, prefix, self._extension)
        self._config = config
        self._last_triggered_step = 0
        self._last_time = time.monotonic()
        self._saved = []
        self._latest_ckpt_file_name = ''
        self._append_dict = dict(config.append_dict or {})
        self._append_start = {k: self._append_dict.get(k, 0) for k in _INFO}
        self._cb_params = None

    @property
    def latest_ckpt_file_name(self):
        """The path of the last checkpoint written ('' before the first)."""
        return self._latest_ckpt_file_name

    def on_train_begin(self, run_context):
        self._last_time = time.monotonic()
        self._last_triggered_step = 0       # step numbers restart with each run
        self._cb_params = run_context.original_args()

    def on_train_step_end(self, run_context):
        self._save(run_context.original_args(), force=False)

    def on_train_end(self, run_context):
        self._save(run_context.original_args(), force=True)
        self._cb_params = None

    def __exit__(self, exc_type, exc, tb):
        """With ``exception_save``, a failed run leaves a ``_breakpoint.ckpt`` file."""
        cb_params, self._cb_params = self._cb_params, None
        if exc_type is not None and cb_params is not None and self._config.exception_save and \
                not issubclass(exc_type, (KeyboardInterrupt, SystemExit)):
            name = (f"{self._prefix}-{cb_params.cur_epoch_num}_{cb_params.cur_step_num}"
                    f"_breakpoint{self._extension}")
            self._fill_counts(cb_params)
            os.makedirs(self._directory, exist_ok=True)
            self._write(cb_params, os.path.join(self._directory, name))
        return None

    def _write(self, cb_params, path):
        from .. import save_checkpoint
        config = self._config
        save_checkpoint(self._network(cb_params), path, append_dict=self._append_dict or None,
                        crc_check=config.crc_check, format=config.format,
                        remove_redundancy=config.remove_redundancy)

    def _network(self, cb_params):
        network = self._config.saved_network
        return cb_params.train_network if network is None else network

    def _fill_counts(self, cb_params):
        for key, now in (('epoch_num', cb_params.cur_epoch_num),
                         ('step_num', cb_params.cur_step_num)):
            if key in self._append_dict:
                self._append_dict[key] = self._append_start[key] + now

    def _due(self, cb_params, force):
        steps, seconds = self._config.save_checkpoint_steps, self._config.save_checkpoint_seconds
        if steps:
            return force or cb_params.cur_step_num >= self._last_triggered_step + steps
        if not seconds:
            return False                    # MindSpore saves nothing by steps 0, seconds 0
        now = time.monotonic()
        if force or now - self._last_time > seconds:
            self._last_time = now
            return True
        return False

    def _save(self, cb_params, force):
        from ..checkpoint.files import writes_checkpoints
        if cb_params.cur_step_num == self._last_triggered_step or \
                not self._due(cb_params, force) or not writes_checkpoints():
            return      # (in data parallel, rank 0 alone writes and keeps the files)
        step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}{self._extension}"
        path = os.path.join(self._directory, name)
        os.makedirs(self._directory, exist_ok=True)
        self._keep_files(path)
        self._fill_counts(cb_params)
        self._write(cb_params, path)
        self._saved.append(path)
        self._last_triggered_step = cb_params.cur_step_num
        self._latest_ckpt_file_name = path

    def _keep_files(self, path):
        """Delete the files the keep policy drops before ``path`` is written."""
        if path in self._saved:
            self._saved.remove(path)
        self._saved = [f for f in self._saved if os.path.exists(f)]
        keep = self._config.keep_checkpoint_max
        minutes = self._config.keep_checkpoint_per_n_minutes
        if keep:
            while len(self._saved) >= keep:
                os.remove(self._saved.pop(0))
        elif minutes:
            # of the files written in the last ``minutes``, only the oldest stays
            now = time.time()
            recent = [f for f in self._saved if now - os.path.getmtime(f) < 60 * minutes]
            for f in recent[1:]:
                os.remove(f)
                self._saved.remove(f)
