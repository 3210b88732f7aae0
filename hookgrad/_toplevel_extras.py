"""More of MindSpore's top-level names defined in other modules: the runtime's settings, core
limits and pluggable allocator (hookgrad/runtime)."""
from .runtime import (MemPool, PluggableAllocator, use_mem_pool, StreamLimitCtx,
                      dispatch_threads_num, get_device_limit, set_device_limit, get_stream_limit,
                      set_stream_limit, reset_stream_limit, memory_replay,
                      set_kernel_launch_capture, set_kernel_launch_group, set_memory)

__all__ = ['MemPool', 'PluggableAllocator', 'use_mem_pool', 'StreamLimitCtx',
           'dispatch_threads_num', 'get_device_limit', 'set_device_limit', 'get_stream_limit',
           'set_stream_limit', 'reset_stream_limit', 'memory_replay',
           'set_kernel_launch_capture', 'set_kernel_launch_group', 'set_memory']
