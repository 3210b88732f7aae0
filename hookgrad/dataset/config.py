"""``mindspore.dataset.config``: global settings of data pipelines.

Settings that change what hookgrad does:

* ``set_seed`` re-seeds hookgrad's one global generator (``hookgrad._random``; the same as
  ``ms.set_seed``), Python's ``random`` and ``numpy.random``, so shuffles, samplers and random
  operations in ``Dataset.map`` repeat from run to run. Unlike MindSpore, where the dataset seed
  is separate, ``ms.get_seed()`` then returns it too.
* ``set_num_parallel_workers`` is the number of workers of ``Dataset.map`` and ``Dataset.batch``
  when they are given ``num_parallel_workers=None``.
* ``set_prefetch_size`` is how many rows per worker a parallel ``map`` keeps in flight.

The other setters (autotune, shared memory, watchdog, NUMA, timeouts...) tune MindSpore's C++
pipeline, which hookgrad does not have: they check their argument like MindSpore, keep the value
for the matching getter, and change nothing else.
"""
import enum
import json
import numbers
import os
import random

import numpy as np

from .. import _random

__all__ = ['set_seed', 'get_seed', 'set_num_parallel_workers', 'get_num_parallel_workers',
           'set_prefetch_size', 'get_prefetch_size', 'set_numa_enable', 'get_numa_enable',
           'set_monitor_sampling_interval', 'get_monitor_sampling_interval',
           'set_auto_num_workers', 'get_auto_num_workers', 'set_callback_timeout',
           'get_callback_timeout', 'set_enable_autotune', 'get_enable_autotune',
           'set_autotune_interval', 'get_autotune_interval', 'set_enable_shared_mem',
           'get_enable_shared_mem', 'set_sending_batches', 'set_auto_offload',
           'get_auto_offload', 'set_enable_watchdog', 'get_enable_watchdog',
           'set_multiprocessing_timeout_interval', 'get_multiprocessing_timeout_interval',
           'set_dynamic_shape', 'get_dynamic_shape', 'set_fast_recovery', 'get_fast_recovery',
           'set_debug_mode', 'get_debug_mode', 'set_error_samples_mode',
           'get_error_samples_mode', 'set_iterator_mode', 'get_iterator_mode',
           'set_multiprocessing_start_method', 'get_multiprocessing_start_method',
           'set_video_backend', 'get_video_backend', 'load', 'ErrorSamplesMode']

INT32_MAX = 2 ** 31 - 1
UINT32_MAX = 2 ** 32 - 1
DEFAULT_SEED = 5489          # std::mt19937's default seed, MindSpore's get_seed() before set_seed


class ErrorSamplesMode(enum.IntEnum):
    """What a pipeline does with a row whose operation fails (kept; hookgrad always raises)."""
    RETURN = 0
    REPLACE = 1
    SKIP = 2


_settings = {
    'num_parallel_workers': min(8, os.cpu_count() or 1), 'prefetch_size': 16, 'numa_enable': False,
    'monitor_sampling_interval': 1000, 'auto_num_workers': False, 'callback_timeout': 60,
    'enable_autotune': False, 'autotune_interval': 0, 'enable_shared_mem': True,
    'sending_batches': 0, 'auto_offload': False, 'enable_watchdog': True,
    'multiprocessing_timeout_interval': 300, 'dynamic_shape': False, 'fast_recovery': True,
    'debug_mode': False, 'error_samples_mode': ErrorSamplesMode.RETURN,
    'iterator_mode': {'do_copy': False, 'parallel_convert': False},
    'multiprocessing_start_method': 'fork', 'video_backend': 'CPU',
}


def _int_in(value, low, high, who, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"config.{who}: {arg} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"config.{who}: {arg} must be in [{low}, {high}], got {value}")
    return int(value)


def _bool(value, who, arg):
    if not isinstance(value, bool):
        raise TypeError(f"config.{who}: {arg} must be a bool, got {value!r}")
    return value


def _choice(value, choices, who, arg):
    if not isinstance(value, str):
        raise TypeError(f"config.{who}: {arg} must be a str, got {value!r}")
    if value not in choices:
        raise ValueError(f"config.{who}: {arg} must be one of {choices}, got {value!r}")
    return value


def set_seed(seed):
    """Seed the data pipelines' random draws (and hookgrad's, ``random``'s and NumPy's).

    Args:
        seed: an int in [0, 4294967295].

    Raises:
        TypeError: for a non-int seed. ValueError: for one out of range.

    >>> import numpy as np, hookgrad.dataset as ds
    >>> ds.config.set_seed(3); a = [int(x) for (x,) in ds.NumpySlicesDataset(np.arange(9))]
    >>> ds.config.set_seed(3); b = [int(x) for (x,) in ds.NumpySlicesDataset(np.arange(9))]
    >>> a == b and ds.config.get_seed() == 3
    True
    """
    seed = _int_in(seed, 0, UINT32_MAX, 'set_seed', 'seed')
    _random.set_seed(seed)
    random.seed(seed)
    np.random.seed(seed)


def get_seed():
    """The seed last set (by this ``set_seed`` or ``ms.set_seed``); 5489 before any."""
    seed = _random.get_seed()
    return DEFAULT_SEED if seed is None else seed


def set_num_parallel_workers(num):
    """Workers of ``map``/``batch`` given ``num_parallel_workers=None``; an int in [1, 2**31-1]."""
    _settings['num_parallel_workers'] = _int_in(num, 1, INT32_MAX, 'set_num_parallel_workers',
                                                'num')


def get_num_parallel_workers():
    """The default number of parallel workers (until set: the CPU count, at most 8)."""
    return _settings['num_parallel_workers']


def set_prefetch_size(size):
    """Rows per worker a parallel ``map`` keeps in flight; an int in [1, 2**31-1]."""
    _settings['prefetch_size'] = _int_in(size, 1, INT32_MAX, 'set_prefetch_size', 'size')


def get_prefetch_size():
    """Rows per worker kept in flight (16 until set)."""
    return _settings['prefetch_size']


def _kept(name, check):
    """A setter/getter pair for a setting kept only for its getter (see the module docstring)."""
    def setter(value):
        _settings[name] = check(value, f"set_{name}")

    def getter():
        return _settings[name]
    setter.__name__, getter.__name__ = f"set_{name}", f"get_{name}"
    setter.__doc__ = f"Keep ``{name}`` (no effect in hookgrad: no C++ pipeline to tune)."
    getter.__doc__ = f"The ``{name}`` last set (MindSpore's default until then)."
    return setter, getter


set_numa_enable, get_numa_enable = _kept(
    'numa_enable', lambda v, who: _bool(v, who, 'numa_enable'))
set_monitor_sampling_interval, get_monitor_sampling_interval = _kept(
    'monitor_sampling_interval', lambda v, who: _int_in(v, 0, INT32_MAX, who, 'interval'))
set_auto_num_workers, get_auto_num_workers = _kept(
    'auto_num_workers', lambda v, who: _bool(v, who, 'enable'))
set_callback_timeout, get_callback_timeout = _kept(
    'callback_timeout', lambda v, who: _int_in(v, 1, INT32_MAX, who, 'timeout'))
set_autotune_interval, get_autotune_interval = _kept(
    'autotune_interval', lambda v, who: _int_in(v, 0, INT32_MAX, who, 'interval'))
set_enable_shared_mem, get_enable_shared_mem = _kept(
    'enable_shared_mem', lambda v, who: _bool(v, who, 'enable'))
set_auto_offload, get_auto_offload = _kept(
    'auto_offload', lambda v, who: _bool(v, who, 'offload'))
set_enable_watchdog, get_enable_watchdog = _kept(
    'enable_watchdog', lambda v, who: _bool(v, who, 'enable'))
set_multiprocessing_timeout_interval, get_multiprocessing_timeout_interval = _kept(
    'multiprocessing_timeout_interval', lambda v, who: _int_in(v, 1, INT32_MAX, who, 'interval'))
set_dynamic_shape, get_dynamic_shape = _kept(
    'dynamic_shape', lambda v, who: _bool(v, who, 'is_dynamic'))
set_fast_recovery, get_fast_recovery = _kept(
    'fast_recovery', lambda v, who: _bool(v, who, 'fast_recovery'))
set_multiprocessing_start_method, get_multiprocessing_start_method = _kept(
    'multiprocessing_start_method',
    lambda v, who: _choice(v, ['fork', 'spawn'], who, 'start_method'))
set_video_backend, get_video_backend = _kept(
    'video_backend', lambda v, who: _choice(v, ['CPU', 'Ascend'], who, 'backend'))


def set_sending_batches(batch_num):
    """Keep the number of batches sent to a device (no effect: hookgrad sends none)."""
    _settings['sending_batches'] = _int_in(batch_num, 0, INT32_MAX, 'set_sending_batches',
                                           'batch_num')


def set_enable_autotune(enable, filepath_prefix=None):
    """Keep the autotune flag (no effect); ``filepath_prefix`` must be None or a str."""
    _bool(enable, 'set_enable_autotune', 'enable')
    if filepath_prefix is not None and not isinstance(filepath_prefix, str):
        raise TypeError(f"config.set_enable_autotune: filepath_prefix must be a str or None, "
                        f"got {filepath_prefix!r}")
    _settings['enable_autotune'] = enable


def get_enable_autotune():
    """The autotune flag last set (False until then)."""
    return _settings['enable_autotune']


def set_debug_mode(debug_mode_flag, debug_hook_list=None):
    """Keep the debug-mode flag; hookgrad's pipelines always run in the calling thread order."""
    _bool(debug_mode_flag, 'set_debug_mode', 'debug_mode_flag')
    if debug_hook_list is not None:
        raise ValueError("config.set_debug_mode: debug_hook_list is not supported: hookgrad's "
                         "data pipelines have no debug hooks; use Dataset.map with a function")
    _settings['debug_mode'] = debug_mode_flag


def get_debug_mode():
    """The debug-mode flag last set (False until then)."""
    return _settings['debug_mode']


def set_error_samples_mode(error_samples_mode):
    """Keep ``error_samples_mode``; only ``ErrorSamplesMode.RETURN`` (raise) is honoured."""
    if not isinstance(error_samples_mode, ErrorSamplesMode):
        raise TypeError(f"config.set_error_samples_mode: error_samples_mode must be an "
                        f"ErrorSamplesMode, got {error_samples_mode!r}")
    if error_samples_mode is not ErrorSamplesMode.RETURN:
        raise ValueError(f"config.set_error_samples_mode: {error_samples_mode!r} is not "
                         f"supported: hookgrad's pipelines raise the first error "
                         f"(ErrorSamplesMode.RETURN)")
    _settings['error_samples_mode'] = error_samples_mode


def get_error_samples_mode():
    """The error-samples mode (``ErrorSamplesMode.RETURN``)."""
    return _settings['error_samples_mode']


def set_iterator_mode(do_copy=False, parallel_convert=False):
    """Keep the iterator mode (no effect: ``create_*_iterator(do_copy=)`` decides copies)."""
    _bool(do_copy, 'set_iterator_mode', 'do_copy')
    _bool(parallel_convert, 'set_iterator_mode', 'parallel_convert')
    _settings['iterator_mode'] = {'do_copy': do_copy, 'parallel_convert': parallel_convert}


def get_iterator_mode():
    """The iterator mode last set, as ``{'do_copy': ..., 'parallel_convert': ...}``."""
    return dict(_settings['iterator_mode'])


_LOADABLE = {'seed': set_seed, 'numParallelWorkers': set_num_parallel_workers,
             'opConnectorSize': set_prefetch_size, 'monitorSamplingInterval':
             set_monitor_sampling_interval, 'callbackTimeout': set_callback_timeout}


def load(file):
    """Apply the settings in a MindSpore JSON config file (keys such as ``seed``,
    ``numParallelWorkers``, ``opConnectorSize``); other keys are ignored like MindSpore's
    C++-only ones.

    Raises:
        TypeError: for a non-str path. RuntimeError: for a file that is not a JSON object.
    """
    if not isinstance(file, str):
        raise TypeError(f"config.load: file must be a str path, got {file!r}")
    try:
        with open(file, encoding='utf-8') as f:
            content = json.load(f)
    except (OSError, ValueError) as e:
        raise RuntimeError(f"config.load: cannot read the config file {file}: {e}") from None
    if not isinstance(content, dict):
        raise RuntimeError(f"config.load: {file} must hold a JSON object")
    for key, setter in _LOADABLE.items():
        if key in content:
            setter(content[key])
