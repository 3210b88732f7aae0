"""More of MindSpore's top-level names defined in other modules: the runtime's settings, core
limits and pluggable allocator (hookgrad/runtime), the checkpoint-transform and sharding
functions (hookgrad/parallel), the dtype names of _dtype_kinds.py, common's graph, MindIO and device helpers,
and the MindIR and obfuscation functions (train/mindir_formats.py).
"""
from .runtime import (MemPool, PluggableAllocator, use_mem_pool, StreamLimitCtx,
                      dispatch_threads_num, get_device_limit, set_device_limit, get_stream_limit,
                      set_stream_limit, reset_stream_limit, memory_replay,
                      set_kernel_launch_capture, set_kernel_launch_group, set_memory)
from .parallel import (Layout, shard, load_segmented_checkpoints, merge_pipeline_strategys,
                       rank_list_for_transform, sync_pipeline_shared_parameters,
                       transform_checkpoint_by_rank, transform_checkpoints, unified_safetensors)
from .common.graph_utils import enable_dynamic, ms_memory_recycle, flops_collection
from .common.file_system import set_mindio_server_info, mindio_preload
from .common.device import DeviceCtx
from ._dtype_kinds import Int, QuantDtype, _NullType, _null
from .train.mindir_formats import (load_mindir, save_mindir, obfuscate_ckpt,
                                   load_obf_params_into_net)

__all__ = ['MemPool', 'PluggableAllocator', 'use_mem_pool', 'StreamLimitCtx',
           'dispatch_threads_num', 'get_device_limit', 'set_device_limit', 'get_stream_limit',
           'set_stream_limit', 'reset_stream_limit', 'memory_replay',
           'set_kernel_launch_capture', 'set_kernel_launch_group', 'set_memory',
           'Layout', 'shard', 'load_segmented_checkpoints', 'merge_pipeline_strategys',
           'rank_list_for_transform', 'sync_pipeline_shared_parameters',
           'transform_checkpoint_by_rank', 'transform_checkpoints', 'unified_safetensors',
           'load_mindir', 'save_mindir', 'obfuscate_ckpt', 'load_obf_params_into_net',
           'Int', 'QuantDtype', '_NullType', '_null', 'enable_dynamic', 'ms_memory_recycle',
           'flops_collection', 'set_mindio_server_info', 'mindio_preload', 'DeviceCtx']
