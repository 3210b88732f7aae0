"""``mindspore.runtime``: the device's memory, synchronisation, streams and events.

On the GPU the memory figures are CuPy's memory pool's and the streams and events CUDA's; on
the CPU, which computes when called, there is no device memory (every figure is 0, as
MindSpore's CPU backend gives) and a stream's work is done as soon as it is queued.

``set_sync_debug_mode`` / ``get_sync_debug_mode`` are hookgrad's (PyTorch's names): they report
each read of GPU values by the host (kernels/sync.py).

The settings (``set_memory``, ``dispatch_threads_num``, kernel launch groups and capture,
device and stream core limits) are checked and kept as MindSpore keeps them (settings.py,
limits.py); the pluggable allocator is in mem_pool.py.
"""
from ..compat.names import reporter as _reporter
from .device import (synchronize, launch_blocking, memory_allocated, max_memory_allocated,
                     memory_reserved, max_memory_reserved, memory_stats, memory_summary,
                     reset_peak_memory_stats, reset_max_memory_allocated,
                     reset_max_memory_reserved, empty_cache, set_cpu_affinity)
from ..kernels.sync import set_mode as set_sync_debug_mode, get_mode as get_sync_debug_mode
from .streams import (Stream, Event, current_stream, default_stream, set_cur_stream, StreamCtx,
                      communication_stream)
from .settings import (set_memory, dispatch_threads_num, set_kernel_launch_group,
                       set_kernel_launch_capture, get_device_limit, set_device_limit,
                       memory_replay)
from .limits import get_stream_limit, set_stream_limit, reset_stream_limit, StreamLimitCtx
from .mem_pool import PluggableAllocator, MemPool, use_mem_pool

__all__ = ['synchronize', 'launch_blocking', 'memory_allocated', 'max_memory_allocated',
           'memory_reserved', 'max_memory_reserved', 'memory_stats', 'memory_summary',
           'reset_peak_memory_stats', 'reset_max_memory_allocated', 'reset_max_memory_reserved',
           'empty_cache', 'set_cpu_affinity', 'Stream', 'Event', 'current_stream',
           'default_stream', 'set_cur_stream', 'StreamCtx', 'communication_stream',
           'set_sync_debug_mode', 'get_sync_debug_mode', 'set_memory', 'dispatch_threads_num',
           'set_kernel_launch_group', 'set_kernel_launch_capture', 'get_device_limit',
           'set_device_limit', 'memory_replay', 'get_stream_limit', 'set_stream_limit',
           'reset_stream_limit', 'StreamLimitCtx', 'PluggableAllocator', 'MemPool',
           'use_mem_pool']

__getattr__ = _reporter('mindspore.runtime')
