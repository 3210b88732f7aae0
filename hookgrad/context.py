"""MindSpore's ``mindspore.context``: the execution mode and the other global settings.

``mode`` is the only setting that changes what hookgrad does: ``GRAPH_MODE`` runs every call of
a Cell made from outside any Cell as a graph-mode program (hookgrad/jit: traced on its first call
with a signature, replayed after, every hook still firing); ``PYNATIVE_MODE`` (the default) runs
everything eagerly. ``device_target`` is checked and kept. The other settings MindSpore accepts
(``device_id``, ``save_graphs``, ``max_call_depth``, ``jit_config``, ...) concern its compiler,
devices and memory pools: they are accepted, kept and returned by ``get_context``, and change
nothing here. A key MindSpore does not know is a ValueError, as there.

The auto-parallel and parameter-server settings are kept the same way: hookgrad trains in one
process, which is what ``ParallelMode.STAND_ALONE`` (the default) and a data-parallel group of
one device mean.
"""

PYNATIVE_MODE = 1
GRAPH_MODE = 0
STRICT, COMPATIBLE, LAX = 0, 1, 2       # jit_syntax_level
RELEASE, DEBUG = 0, 1                   # debug_level

_TARGETS = ('CPU', 'GPU', 'Ascend')

# Settings MindSpore 2.10 accepts, with the value get_context gives before any is set. hookgrad
# keeps them; only 'mode' and 'device_target' mean something here.
_DEFAULTS = {
    'mode': PYNATIVE_MODE, 'device_target': 'CPU', 'device_id': 0, 'save_graphs': 0,
    'save_graphs_path': '.', 'max_call_depth': 1000, 'runtime_num_threads': 2,
    'deterministic': 'OFF', 'jit_syntax_level': LAX, 'pynative_synchronize': False,
    'enable_graph_kernel': False, 'max_device_memory': 1024.0, 'debug_level': RELEASE,
    'memory_optimize_level': 0, 'enable_compile_cache': None, 'jit_level': '', 'jit_config': {},
    'enable_reduce_precision': True, 'check_bprop': False, 'enable_profiling': False,
}
_ACCEPTED = frozenset(_DEFAULTS) | frozenset((
    'aoe_config', 'aoe_job_type', 'aoe_tune_mode', 'ascend_config', 'atomic_clean_policy',
    'auto_tune_mode', 'bias_add_comm_swap', 'compile_cache_path',
    'compute_communicate_fusion_level', 'conv_allow_hf32', 'conv_allow_tf32', 'conv_dgrad_algo',
    'conv_fprop_algo', 'conv_wgrad_algo', 'cur_step_num', 'dataset_broadcast_opt_level',
    'disable_format_transform', 'enable_allreduce_slice_to_reducescatter',
    'enable_auto_mixed_precision', 'enable_begin_end_inline_opt', 'enable_concat_eliminate_opt',
    'enable_flash_attention_load_balance', 'enable_fused_cast_add_opt', 'enable_grad_comm_opt',
    'enable_interleave_parallel_branch', 'enable_interleave_split_concat_branch',
    'enable_offloading_packed_experts', 'enable_opt_shard_comm_opt', 'enable_parallel_split',
    'enable_sparse', 'enable_task_opt', 'env_config_path', 'exec_order', 'ge_options',
    'gpu_config', 'graph_kernel_flags', 'hccl_watchdog', 'host_scheduling_max_threshold',
    'infer_boost', 'inter_op_parallel_num', 'interleaved_layernorm_comm',
    'interleaved_matmul_comm', 'jit_compile', 'last_triggered_step', 'matmul_allow_hf32',
    'matmul_allow_tf32', 'matmul_grad_comm_overlap', 'mempool_block_size', 'need_ckpt',
    'op_debug_option', 'op_precision_mode', 'op_timeout', 'pp_1f1b_overlap', 'precision_mode',
    'print_file_path', 'profiling_options', 'recompute_allgather_overlap_fagrad',
    'recompute_comm_overlap', 'reserve_class_name_in_scope', 'save_checkpoint_steps',
    'topo_order', 'variable_memory_max_size'))

_context = dict(_DEFAULTS)


def set_context(**kwargs):
    """Set execution options (see the module docstring): ``mode`` (``GRAPH_MODE`` or
    ``PYNATIVE_MODE``), ``device_target`` ('CPU', 'GPU', 'Ascend'), and MindSpore's other
    options, which are kept and change nothing.

    Raises:
        ValueError: an unknown option, a bad ``mode``, ``device_target`` or ``save_graphs``.
    """
    for key, value in kwargs.items():
        if key not in _ACCEPTED:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not "
                             f"recognized!")
        if key == 'mode':
            if value not in (PYNATIVE_MODE, GRAPH_MODE):
                raise ValueError(f"set_context: mode must be ms.PYNATIVE_MODE or ms.GRAPH_MODE, "
                                 f"got {value!r}")
            from .nn.cell import Cell
            Cell.__call__ = Cell._graph_call if value == GRAPH_MODE else Cell._eager_call
        elif key == 'device_target':
            if value not in _TARGETS:
                raise ValueError(f"set_context: device_target must be one of {_TARGETS}, "
                                 f"got {value!r}")
            _target_device(value, kwargs.get('device_id', _context.get('device_id')))
        elif key == 'deterministic':
            if value not in ('ON', 'OFF'):
                raise ValueError(f"For 'context.set_context', the argument 'deterministic' must "
                                 f"be one of ['ON', 'OFF'], but got {value}.")
            from .kernels import conv_plan
            conv_plan.set_deterministic(value == 'ON')
        elif key == 'save_graphs':
            value = {True: 2, False: 0}.get(value, value) if isinstance(value, bool) else value
            if not isinstance(value, int) or not 0 <= value <= 3:
                raise ValueError(f"value for save_graphs should be 0-3 but got '{value}'")
        _context[key] = value


def get_context(attr_key):
    """The value of an option (its default when it was never set).

    Raises:
        ValueError: an option MindSpore does not know.
    """
    if attr_key not in _ACCEPTED:
        raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized!")
    return _context.get(attr_key)


def get_jit_config():
    """The ``jit_config`` dictionary given to ``set_context`` ({} by default)."""
    return dict(_context.get('jit_config') or {})


class ParallelMode:
    """The parallel modes of ``set_auto_parallel_context(parallel_mode=...)``."""

    STAND_ALONE = 'stand_alone'
    DATA_PARALLEL = 'data_parallel'
    HYBRID_PARALLEL = 'hybrid_parallel'
    SEMI_AUTO_PARALLEL = 'semi_auto_parallel'
    AUTO_PARALLEL = 'auto_parallel'
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_PARALLEL_DEFAULTS = {
    'parallel_mode': ParallelMode.STAND_ALONE, 'device_num': 1, 'global_rank': 0,
    'gradients_mean': False, 'gradient_fp32_sync': True, 'loss_repeated_mean': True,
    'pipeline_stages': 1, 'parameter_broadcast': False, 'full_batch': False,
    'enable_parallel_optimizer': False, 'search_mode': 'recursive_programming',
    'auto_parallel_search_mode': 'recursive_programming', 'strategy_ckpt_load_file': '',
    'strategy_ckpt_save_file': '', 'grad_accumulation_step': 1, 'comm_fusion': {},
    'all_reduce_fusion_config': [], 'dataset_strategy': (), 'pipeline_config': {},
    'parallel_optimizer_config': {}, 'force_fp32_communication': False,
    'auto_pipeline': False, 'pipeline_result_broadcast': False, 'pipeline_segments': 1,
    'group_ckpt_save_file': '', 'communi_parallel_mode': 'all_group_parallel',
    'optimizer_weight_shard_size': -1, 'optimizer_weight_shard_aggregated_save': False,
    'sharding_propagation': False, 'enable_alltoall': False, 'strategy_ckpt_config': {},
    'dump_local_norm': False, 'dump_local_norm_path': '', 'dump_device_local_norm': False,
    'auto_parallel_new_interface': False, 'init_param_in_compile': True,
}
_parallel = dict(_PARALLEL_DEFAULTS)


def set_auto_parallel_context(**kwargs):
    """Set auto-parallel options (``parallel_mode``, ``device_num``, ``gradients_mean``, ...).
    hookgrad keeps them; a ``device_num`` above the number of processes launched is said
    once, with how to launch more.

    Raises:
        ValueError: an unknown option or parallel mode.
    """
    for key, value in kwargs.items():
        if key not in _PARALLEL_DEFAULTS:
            raise ValueError(f"For 'context.set_auto_parallel_context', the keyword argument "
                             f"{key} is not recognized!")
        if key == 'parallel_mode' and value not in ParallelMode.MODE_LIST:
            raise ValueError(f"For 'context.set_auto_parallel_context', the argument "
                             f"'parallel_mode' must be in {ParallelMode.MODE_LIST}, but got "
                             f"{value!r}.")
        _parallel[key] = value
    if 'device_num' in kwargs:
        from .communication.management import check_device_num
        check_device_num(kwargs['device_num'])


def get_auto_parallel_context(attr_key):
    """The value of an auto-parallel option.

    Raises:
        ValueError: an unknown option.
    """
    if attr_key not in _PARALLEL_DEFAULTS:
        raise ValueError(f"For 'context.get_auto_parallel_context', the argument {attr_key} is "
                         f"not recognized!")
    return _parallel[attr_key]


def reset_auto_parallel_context():
    """Every auto-parallel option back to its default."""
    _parallel.clear()
    _parallel.update(_PARALLEL_DEFAULTS)


_PS_DEFAULTS = {'enable_ps': False, 'config_file_path': '', 'enable_ssl': False,
                'client_password': '', 'server_password': '', 'scheduler_manage_port': 11202}
_ps = dict(_PS_DEFAULTS)


def set_ps_context(**kwargs):
    """Parameter-server options, kept (hookgrad has no parameter server).

    Raises:
        ValueError: an unknown option; ``enable_ps=True``, which hookgrad cannot honour.
    """
    for key, value in kwargs.items():
        if key not in _PS_DEFAULTS:
            raise ValueError(f"For 'context.set_ps_context', the keyword argument {key} is not "
                             f"recognized!")
        if key == 'enable_ps' and value:
            raise ValueError("set_ps_context: enable_ps=True is not available in hookgrad (it "
                             "has no parameter server)")
        _ps[key] = value


def get_ps_context(attr_key):
    """The value of a parameter-server option."""
    if attr_key not in _PS_DEFAULTS:
        raise ValueError(f"For 'context.get_ps_context', the argument {attr_key} is not "
                         f"recognized!")
    return _ps[attr_key]


def reset_ps_context():
    """Every parameter-server option back to its default."""
    _ps.clear()
    _ps.update(_PS_DEFAULTS)


from .compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.context')


def _target_device(target, device_id):
    """``set_context(device_target=...)``: the GPU when one is there, the CPU otherwise; a
    target hookgrad has no device for ('Ascend', 'GPU' without one) is kept for
    ``get_context`` with a warning that the CPU computes (scripts often set it first thing)."""
    from .kernels import backend
    try:
        device = backend.select(target, device_id, 'set_context')
    except ValueError as e:
        from ._frames import warn
        warn(f"{e}; computing on the CPU", RuntimeWarning)
        device = backend.CPU
    backend.set_default(device)
