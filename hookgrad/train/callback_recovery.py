"""Callbacks that let a training run stop and resume: ``OnRequestExit`` (stop on a signal or a
request file, saving a checkpoint) and ``BackupAndRestore`` (a backup each few epochs, loaded
again when the run starts over)."""
import json
import numbers
import os
import signal
import threading

from .callback_base import Callback

__all__ = ['OnRequestExit', 'BackupAndRestore']


def _trained_parameters(cb_params):
    """The network's parameters and the optimizer's state (moments, step, learning rate)."""
    params = list(cb_params.train_network.get_parameters())
    optimizer = cb_params.get('optimizer')
    if optimizer is not None:
        seen = {id(p) for p in params}
        params += [p for p in optimizer.get_parameters() if id(p) not in seen]
    return params


def _restore(path, cb_params):
    from ..checkpoint import load_checkpoint, load_param_into_net
    entries = load_checkpoint(path)
    load_param_into_net(cb_params.train_network, entries)
    if cb_params.get('optimizer') is not None:
        load_param_into_net(cb_params.optimizer, entries)


class OnRequestExit(Callback):
    """Stop training (or evaluation) after the current step when the process receives
    ``sig``, or when ``config_file`` holds ``{"GracefulExit": 1}``, and save a checkpoint.

    Files are ``{directory}/rank_0/{file_name}_train.ckpt`` (and ``_eval.ckpt``), as in
    MindSpore; a run that finds its file at the start loads it first.

    Args:
        save_ckpt: save (and at the start, load) the checkpoint. Default True.
        save_mindir: must be False: MindIR export is not available in hookgrad
            (``hookgrad.export`` writes hookgrad's own format).
        file_name: the files' name prefix. Default 'Net'.
        directory: where ``rank_0/`` is made. Default './' (None: the current folder).
        config_file: a JSON file checked before each step, or None.
        sig: the signal to handle (not SIGKILL). Default SIGTERM.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for ``save_mindir=True`` or SIGKILL.
    """

    def __init__(self, save_ckpt=True, save_mindir=True, file_name='Net', directory='./',
                 config_file=None, sig=signal.SIGTERM):
        super().__init__()
        for arg, value in (('save_ckpt', save_ckpt), ('save_mindir', save_mindir)):
            if not isinstance(value, bool):
                raise TypeError(f"OnRequestExit: {arg} must be a bool, got "
                                f"{type(value).__name__}")
        if isinstance(sig, bool) or not isinstance(sig, numbers.Integral):
            raise TypeError(f"OnRequestExit: sig must be an int (a signal), got "
                            f"{type(sig).__name__}")
        if hasattr(signal, 'SIGKILL') and sig == signal.SIGKILL:
            raise ValueError("OnRequestExit: SIGKILL cannot be handled; choose another signal")
        if save_mindir:
            raise ValueError("OnRequestExit: save_mindir=True is not available: hookgrad cannot "
                             "export MindIR; pass save_mindir=False (the checkpoint is saved)")
        if not isinstance(file_name, str) or not file_name:
            raise TypeError(f"OnRequestExit: file_name must be a non-empty str, got "
                            f"{file_name!r}")
        if config_file is not None and not isinstance(config_file, (str, os.PathLike)):
            raise TypeError(f"OnRequestExit: config_file must be a str or None, got "
                            f"{type(config_file).__name__}")
        self.save_ckpt, self.save_mindir, self.sig = save_ckpt, save_mindir, sig
        self.remote_config_file = config_file
        self.key = 'GracefulExit'
        self.exit = False
        self.lock = threading.Lock()
        folder = os.path.join(os.getcwd() if directory is None else os.fspath(directory),
                              'rank_0')
        self.train_name = os.path.join(folder, f'{file_name}_train')
        self.eval_name = os.path.join(folder, f'{file_name}_eval')
        self._previous = None

    def _handle_signal(self, signum, frame):
        self.exit = True

    def _install(self):
        if self._previous is None and threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(self.sig, self._handle_signal)

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(self.sig, self._previous)
            self._previous = None
        return None

    def _requested(self):
        with self.lock:
            if not self.exit and self.remote_config_file is not None and \
                    os.path.exists(self.remote_config_file):
                try:
                    with open(self.remote_config_file, encoding='utf-8') as f:
                        self.exit = json.load(f).get(self.key) == 1
                except (json.JSONDecodeError, AttributeError):
                    pass
            return self.exit

    def on_train_begin(self, run_context):
        self._install()
        if self.save_ckpt and os.path.isfile(f'{self.train_name}.ckpt'):
            _restore(f'{self.train_name}.ckpt', run_context.original_args())

    def on_train_step_end(self, run_context):
        if self._requested():
            run_context.request_stop()

    def on_train_end(self, run_context):
        if self.exit and self.save_ckpt:
            self._save(self.train_name, _trained_parameters(run_context.original_args()))

    def on_eval_begin(self, run_context):
        self._install()
        if not self.save_ckpt:
            return
        cb_params = run_context.original_args()
        from ..checkpoint.files import load_checkpoint
        for name in (self.eval_name, self.train_name):
            if os.path.isfile(f'{name}.ckpt'):
                load_checkpoint(f'{name}.ckpt', net=cb_params.eval_network)
                return

    def on_eval_step_end(self, run_context):
        if self._requested():
            run_context.request_stop()

    def on_eval_end(self, run_context):
        if self.exit and self.save_ckpt:
            network = run_context.original_args().eval_network
            self._save(self.eval_name, list(network.get_parameters()))

    @staticmethod
    def _save(name, params):
        from ..checkpoint.files import save_checkpoint
        os.makedirs(os.path.dirname(name), exist_ok=True)
        save_checkpoint(params, name)


class BackupAndRestore(Callback):
    """Save ``backup_dir/backup.ckpt`` (the network and the optimizer's state) every
    ``save_freq`` epochs; a run that starts and finds it loads it, so a run killed midway
    resumes from its last backup (give ``initial_epoch`` to count on).

    Args:
        backup_dir: the backup folder (created when needed).
        save_freq: 'epoch' (every epoch) or a positive int of epochs.
        delete_checkpoint: delete the backup when training ends normally. Default True.

    Raises:
        TypeError, ValueError: for arguments of the wrong type or value.
    """

    def __init__(self, backup_dir, save_freq='epoch', delete_checkpoint=True):
        super().__init__()
        if not isinstance(backup_dir, (str, os.PathLike)):
            raise TypeError(f"BackupAndRestore: backup_dir must be a str, got "
                            f"{type(backup_dir).__name__}")
        if save_freq == 'epoch':
            save_freq = 1
        elif isinstance(save_freq, bool) or not isinstance(save_freq, numbers.Integral) or \
                save_freq < 1:
            raise ValueError(f"BackupAndRestore: save_freq must be 'epoch' or an int >= 1, got "
                             f"{save_freq!r}")
        if not isinstance(delete_checkpoint, bool):
            raise TypeError(f"BackupAndRestore: delete_checkpoint must be a bool, got "
                            f"{type(delete_checkpoint).__name__}")
        os.makedirs(backup_dir, exist_ok=True)
        self.backup_file = os.path.join(os.fspath(backup_dir), 'backup.ckpt')
        self.save_freq = int(save_freq)
        self.delete_checkpoint = delete_checkpoint

    def on_train_begin(self, run_context):
        if os.path.exists(self.backup_file):
            _restore(self.backup_file, run_context.original_args())

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            from ..checkpoint.files import save_checkpoint
            save_checkpoint(_trained_parameters(cb_params), self.backup_file)

    def on_train_end(self, run_context):
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            os.remove(self.backup_file)
