"""More of MindSpore's top-level names defined in other modules: the runtime's settings, core
limits and pluggable allocator (hookgrad/runtime), the checkpoint-transform and sharding
functions (hookgrad/parallel) and the MindIR and obfuscation functions (train/mindir_formats.py).
"""
from .runtime import (MemPool, PluggableAllocator, use_mem_pool, StreamLimitCtx,
                      dispatch_threads_num, get_device_limit, set_device_limit, get_stream_limit,
                      set_stream_limit, reset_stream_limit, memory_replay,
                      set_kernel_launch_capture, set_kernel_launch_group, set_memory)
from .parallel import (Layout, shard, load_segmented_checkpoints, merge_pipeline_strategys,
                       rank_list_for_transform, sync_pipeline_shared_parameters,
                       transform_checkpoint_by_rank, transform_checkpoints, unified_safetensors)
from .train.mindir_formats import (load_mindir, save_mindir, obfuscate_ckpt,
                                   load_obf_params_into_net)

__all__ = ['MemPool', 'PluggableAllocator', 'use_mem_pool', 'StreamLimitCtx',
           'dispatch_threads_num', 'get_device_limit', 'set_device_limit', 'get_stream_limit',
           'set_stream_limit', 'reset_stream_limit', 'memory_replay',
           'set_kernel_launch_capture', 'set_kernel_launch_group', 'set_memory',
           'Layout', 'shard', 'load_segmented_checkpoints', 'merge_pipeline_strategys',
           'rank_list_for_transform', 'sync_pipeline_shared_parameters',
           'transform_checkpoint_by_rank', 'transform_checkpoints', 'unified_safetensors',
           'load_mindir', 'save_mindir', 'obfuscate_ckpt', 'load_obf_params_into_net']
