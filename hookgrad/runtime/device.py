"""The device: memory, synchronisation, launch mode and CPU affinity (MindSpore's ``runtime``
functions, which ``hal`` shares).

The figures are those of the device new tensors go to (``set_device``). On the GPU they are
those of CuPy's memory pool, which every GPU array is allocated from: *allocated* is what live
tensors (and the arrays ops keep for backward) hold, *reserved* what the pool holds from the
device, allocated or cached for reuse. The CPU has no device memory: every figure is 0, as
MindSpore's CPU backend reports, and synchronising has nothing to wait for (the CPU computes
when called).
"""
from ..kernels import gpu_runtime

__all__ = ['synchronize', 'launch_blocking', 'memory_allocated', 'max_memory_allocated',
           'memory_reserved', 'max_memory_reserved', 'memory_stats', 'memory_summary',
           'reset_peak_memory_stats', 'reset_max_memory_allocated', 'reset_max_memory_reserved',
           'empty_cache', 'set_cpu_affinity']


def synchronize():
    """Wait until the GPU has finished the work queued so far (a host read waits for it too;
    timing GPU work needs it)."""
    gpu_runtime.synchronize()


def launch_blocking():
    """Run every op synchronously, so that an error in a GPU kernel is raised by the op that
    launched it. The CPU always computes when called; on the GPU this sets
    ``CUDA_LAUNCH_BLOCKING=1``, which CUDA reads when the GPU is first used.

    Raises:
        RuntimeError: the GPU is already in use (CUDA read the setting then).
    """
    gpu_runtime.launch_blocking()


def memory_allocated():
    """Bytes of device memory held by tensors now."""
    return gpu_runtime.memory_allocated()


def max_memory_allocated():
    """The peak of ``memory_allocated`` since the start or ``reset_peak_memory_stats``."""
    return gpu_runtime.max_memory_allocated()


def memory_reserved():
    """Bytes of device memory the pool holds (allocated, and cached for reuse)."""
    return gpu_runtime.memory_reserved()


def max_memory_reserved():
    """The peak of ``memory_reserved`` since the start or the last reset."""
    return gpu_runtime.max_memory_reserved()


def reset_peak_memory_stats():
    """Start the peaks of both figures again from their current values."""
    gpu_runtime.reset_peak_allocated()
    gpu_runtime.reset_peak_reserved()


def reset_max_memory_allocated():
    """Start the peak of ``memory_allocated`` again from its current value."""
    gpu_runtime.reset_peak_allocated()


def reset_max_memory_reserved():
    """Start the peak of ``memory_reserved`` again from its current value."""
    gpu_runtime.reset_peak_reserved()


def empty_cache():
    """Give the pool's cached blocks back to the device, so that other processes can use them
    (tensors keep theirs; ``memory_reserved`` falls to ``memory_allocated``)."""
    gpu_runtime.empty_cache()


def memory_stats():
    """The pool's figures, in MindSpore's dict (bytes)."""
    allocated, reserved = memory_allocated(), memory_reserved()
    pool = {'block_counts': 0, 'block_unit_size': 0, 'blocks_info': {}}
    return {'total_reserved_memory': reserved, 'total_allocated_memory': allocated,
            'total_idle_memory': reserved - allocated, 'total_eager_free_memory': 0,
            'max_reserved_memory': max_memory_reserved(),
            'max_allocated_memory': max_memory_allocated(),
            'common_mem_pool_stats': {'block_unit_size': 0, 'block_counts': 0,
                                      'blocks_info': {}},
            'persistent_mem_pool_stats': pool}


_SUMMARY_ROWS = (('Reserved memory', 'total_reserved_memory'),
                 ('Allocated memory', 'total_allocated_memory'),
                 ('Idle memory', 'total_idle_memory'),
                 ('Eager free memory', 'total_eager_free_memory'),
                 ('Max reserved memory', 'max_reserved_memory'),
                 ('Max allocated memory', 'max_allocated_memory'))


def _size(n):
    """``n`` bytes in the largest unit that keeps it at least 1 (``'0 B'``, ``'1.50 MB'``)."""
    for unit in ('B', 'KB', 'MB', 'GB'):
        if n < 1024 or unit == 'GB':
            return f"{n} {unit}" if unit == 'B' else f"{n:.2f} {unit}"
        n /= 1024


def memory_summary():
    """MindSpore's table of ``memory_stats`` as a str."""
    stats = memory_stats()
    rule, line = '|' + '=' * 45 + '|', '|' + '-' * 45 + '|'
    rows = [rule, f"|{'Memory summary':^45}|", rule,
            f"| {'Metric':<20} | {'Data':<20} |", line]
    for i, (name, key) in enumerate(_SUMMARY_ROWS):
        rows.append(f"| {name:<20} | {_size(stats[key]):>8}{'':<12} |")
        rows.append(line if i < len(_SUMMARY_ROWS) - 1 else rule)
    return '\n'.join(rows) + '\n'


_affinity_set = False


def set_cpu_affinity(enable_affinity, affinity_cpu_list=None, module_to_cpu_dict=None,
                     bind_file=None):
    """Accepted once, as in MindSpore: MindSpore binds its runtime threads to CPUs; hookgrad
    has no runtime threads (NumPy computes in the calling thread), so nothing is bound.

    Raises:
        TypeError: ``enable_affinity`` is not a bool.
        RuntimeError: when called a second time (MindSpore's rule).
    """
    global _affinity_set
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"set_cpu_affinity: enable_affinity must be a bool, got "
                        f"{type(enable_affinity).__name__}")
    if _affinity_set:
        raise RuntimeError("The 'mindspore.runtime.set_cpu_affinity' cannot be set repeatedly.")
    _affinity_set = True
