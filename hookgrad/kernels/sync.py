"""Sync-debug mode: report each read of GPU values by the host.

A host read (printing a tensor, ``asnumpy``, ``item``, ``float()``, ``bool()``, a condition
on a value) waits until the GPU has finished all the work queued before it, so a read inside a
training step stalls the pipeline of kernel launches. Every read hookgrad makes goes through
``backend.to_host``, which calls ``host_read`` here; in ``'warn'`` mode it warns at the user's
line, in ``'error'`` mode it raises there, as PyTorch's ``torch.cuda.set_sync_debug_mode``.

The mode starts from the environment variable ``HOOKGRAD_SYNC`` (``warn`` or ``error``; unset
or ``default``: off) and is per thread (``set_mode``).
"""
import contextvars
import os

from .. import _frames

MODES = ('default', 'warn', 'error')


class SyncWarning(UserWarning):
    """A host read of GPU values, reported in ``'warn'`` sync-debug mode."""


def _from_environment():
    value = os.environ.get('HOOKGRAD_SYNC', 'default').strip().lower() or 'default'
    if value not in MODES:
        raise ValueError(f"HOOKGRAD_SYNC must be one of {', '.join(MODES)}; got {value!r}")
    return MODES.index(value)


_mode = contextvars.ContextVar('hookgrad_sync_debug_mode', default=_from_environment())


def set_mode(mode):
    """Report host reads of GPU values: ``'default'`` (0) not at all, ``'warn'`` (1) with a
    warning at the user's line, ``'error'`` (2) with a RuntimeError.

    Raises:
        ValueError: ``mode`` is none of those.
    """
    if isinstance(mode, str) and mode in MODES:
        mode = MODES.index(mode)
    elif isinstance(mode, bool) or mode not in (0, 1, 2):
        raise ValueError(f"sync debug mode must be one of {', '.join(MODES)} or 0, 1, 2; "
                         f"got {mode!r}")
    _mode.set(mode)


def get_mode():
    """The current mode as PyTorch numbers it: 0 default, 1 warn, 2 error."""
    return _mode.get()


def host_read(what):
    """Report a host read of GPU values (``what`` says which kind) in the current mode."""
    mode = _mode.get()
    if not mode:
        return
    where = _frames.user_line()
    at = f" at {where[0]}:{where[1]}" if where else ''
    message = (f"{what} reads GPU values on the host{at}: the host waits for the GPU's queued "
               f"work (a synchronisation)")
    if mode == 2:
        raise RuntimeError(message + "; HOOKGRAD_SYNC=error forbids it")
    _frames.warn(message, SyncWarning)
