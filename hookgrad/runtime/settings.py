"""MindSpore's runtime settings: the memory pool (``set_memory``), dispatch threads, kernel
launch groups and capture, and the Ascend core limits of a device (``set_device_limit``).

Each is checked as MindSpore checks it (same errors and messages, the same "cannot be set
repeatedly" rule) and kept; ``set_memory``'s ``optimize_level`` is reported by
``get_context('memory_optimize_level')`` and a device's limits by ``get_device_limit``.

None of them changes how hookgrad computes, as on MindSpore's CPU backend: CPU tensors are
NumPy arrays and GPU tensors come from CuPy's memory pool, which grows as needed (so the pool
sizes bound nothing); ops run in the calling thread (MindSpore's dispatch and launch threads
have no counterpart: OpenBLAS's threads are chosen per product, hookgrad/kernels/threads.py);
kernel-launch capture is MindSpore's graph capture of its op dispatch; and cube / vector cores
are Ascend's. ``memory_replay`` replays an Ascend memory log and raises.
"""
import numbers
import os
import re

from .. import context as _context

__all__ = ['set_memory', 'dispatch_threads_num', 'set_kernel_launch_group',
           'set_kernel_launch_capture', 'get_device_limit', 'set_device_limit', 'memory_replay']

_MEMORY_PATTERN = r'[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB'
_RESERVE_PATTERN = r'[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB'

# What was set, as MindSpore's RuntimeConf keeps it (read by tests and by the getters).
configured = {}
_device_limits = {}


def _check_type(name, value, kind):
    """MindSpore's ``args_type_check``: the exact type (a bool is not an int)."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"The parameter '{name}' must be {kind}, but got {type(value)}")


def _check_regular(value, pattern):
    if re.match(pattern, value, re.ASCII) is None:
        raise ValueError(f"The '{value}' is illegal, it must be match regular'{pattern}' by "
                         f"flags're.ASCII.'")


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """Set the memory pool's sizes ("xxGB") and optimisation level ('O0' or 'O1'), once.

    The sizes are kept (``configured['memory']``, in GB) and bound nothing: hookgrad's pools
    grow as needed (see the module docstring). ``optimize_level`` is what
    ``get_context('memory_optimize_level')`` reports afterwards (0 or 1), as in MindSpore.

    Raises:
        TypeError: an argument that is not a str.
        ValueError: a size not of the form "xxGB" (or "0GB" for a pool size), or another level.
        RuntimeError: when called a second time.
    """
    for name, value in (('init_size', init_size), ('increase_size', increase_size),
                        ('max_size', max_size), ('optimize_level', optimize_level),
                        ('huge_page_reserve_size', huge_page_reserve_size)):
        _check_type(name, value, str)
    if 'memory' in configured:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    for size in (init_size, increase_size, max_size):
        _check_regular(size, _MEMORY_PATTERN)
    _check_regular(huge_page_reserve_size, _RESERVE_PATTERN)
    levels = ["O0", "O1"]
    if optimize_level not in levels:
        raise ValueError(f"The optimize_level must be one of {levels}, but got "
                         f"{optimize_level}.")
    configured['memory'] = {'init_size': float(init_size[:-2]),
                            'increase_size': float(increase_size[:-2]),
                            'max_size': float(max_size[:-2]),
                            'optimize_level': levels.index(optimize_level),
                            'huge_page_reserve_size': float(huge_page_reserve_size[:-2])}
    _context.set_context(memory_optimize_level=levels.index(optimize_level))


def dispatch_threads_num(threads_num):
    """Set the number of MindSpore's runtime dispatch threads (5 by default there), once.

    Kept (``configured['dispatch_threads_num']``); hookgrad dispatches every op in the calling
    thread, so there are no dispatch threads to size.

    Raises:
        TypeError: ``threads_num`` is not an int. ValueError: it is not positive.
        RuntimeError: when called a second time.
    """
    _check_type('threads_num', threads_num, int)
    if 'dispatch_threads_num' in configured:
        raise RuntimeError("The 'dispatch_threads_num' can not be set repeatedly.")
    if threads_num <= 0:
        raise ValueError(f"The 'threads_num' must be int and must > 0, but got '{threads_num}' "
                         f"with type 'int'.")
    configured['dispatch_threads_num'] = threads_num


def set_kernel_launch_group(thread_num=2, kernel_group_num=8):
    """Set MindSpore's parallel kernel launch (``kernel_group_num`` groups over ``thread_num``
    threads), once. Kept (``configured['kernel_launch_group']``); hookgrad launches each op's
    kernels from the calling thread.

    Raises:
        TypeError: an argument that is not an int.
        ValueError: a count below 1, or ``kernel_group_num`` not a multiple of ``thread_num``.
        RuntimeError: when called a second time, or after ``set_kernel_launch_capture``.
    """
    _check_type('thread_num', thread_num, int)
    _check_type('kernel_group_num', kernel_group_num, int)
    if 'kernel_launch_group' in configured:
        raise RuntimeError("The 'kernel_launch_group' can not be set repeatedly.")
    if configured.get('kernel_launch_capture', (False,))[0]:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set "
                           "together")
    if thread_num < 1:
        raise ValueError(f"The value of thread_num should be at least 1, but got {thread_num}")
    if kernel_group_num < 1:
        raise ValueError(f"The value of kernel_group_num should be at least 1, but got "
                         f"{kernel_group_num}")
    if kernel_group_num % thread_num != 0:
        raise ValueError(f"Invalid parameter value, kernel_group_num: {kernel_group_num} cannot "
                         f"be evenly divisible by thread_num: {thread_num}")
    configured['kernel_launch_group'] = (thread_num, kernel_group_num)


def set_kernel_launch_capture(enable_capture_graph, op_capture_skip=None):
    """Turn MindSpore's capture of its op dispatch into a graph on or off (any number of times).
    Kept (``configured['kernel_launch_capture']``: the flag and the skipped op names); hookgrad
    has no dispatch graph to capture (``jit`` traces whole functions instead).

    Raises:
        TypeError: ``enable_capture_graph`` is not a bool, or ``op_capture_skip`` not a list.
        RuntimeError: after ``set_kernel_launch_group``.
    """
    _check_type('enable_capture_graph', enable_capture_graph, bool)
    if 'kernel_launch_group' in configured:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set "
                           "together")
    op_capture_skip = [] if op_capture_skip is None else op_capture_skip
    if not isinstance(op_capture_skip, list):
        raise TypeError("op_capture_skip must be a list")
    configured['kernel_launch_capture'] = (enable_capture_graph, list(op_capture_skip))


def _check_limit(where, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{where}', the argument '{name}' should be int, but got "
                        f"{type(value)}.")
    if value < -1:
        raise ValueError(f"For '{where}', the argument '{name}' should be -1 (not set) or a "
                         f"core count >= 0, but got {value}.")
    return int(value)


def set_device_limit(device, cube_num=-1, vector_num=-1):
    """Limit device ``device`` to ``cube_num`` cube and ``vector_num`` vector cores (Ascend's;
    -1 leaves a count unset). Kept and reported by ``get_device_limit``; the CPU and GPU have
    no such cores, so nothing is limited.

    Raises:
        TypeError: an argument that is not an int. ValueError: a device id below 0 or a
            count below -1.
    """
    device = _check_limit('set_device_limit', 'device', device)
    if device < 0:
        raise ValueError(f"For 'set_device_limit', the argument 'device' should be >= 0, but "
                         f"got {device}.")
    cube_num = _check_limit('set_device_limit', 'cube_num', cube_num)
    vector_num = _check_limit('set_device_limit', 'vector_num', vector_num)
    old_cube, old_vector = _device_limits.get(device, (-1, -1))
    _device_limits[device] = (old_cube if cube_num == -1 else cube_num,
                              old_vector if vector_num == -1 else vector_num)


def get_device_limit(device):
    """The cube and vector core limits set for ``device``:
    ``{'cube_core_num': c, 'vector_core_num': v}``, -1 for a count never set.

    Raises:
        TypeError: ``device`` is not an int.
    """
    device = _check_limit('get_device_limit', 'device', device)
    cube, vector = _device_limits.get(device, (-1, -1))
    return {"cube_core_num": cube, "vector_core_num": vector}


def memory_replay(file_path):
    """Not available: MindSpore replays the allocations and frees of an Ascend memory log
    (``memory_block.csv``) on the device's pool; hookgrad has no Ascend device and its pools
    (NumPy's, CuPy's) do not replay logs.

    Raises:
        RuntimeError: always (MindSpore's CPU backend raises a RuntimeError too).
    """
    raise RuntimeError(f"memory_replay: replaying '{os.path.realpath(file_path)}' needs an "
                       f"Ascend device's memory pool; hookgrad allocates with NumPy (CPU) and "
                       f"CuPy's pool (GPU), which do not replay memory logs")
