"""MindSpore's distributed-checkpoint and sharding functions.

``load_segmented_checkpoints`` means the same in one process: every ``.ckpt`` file of a folder
loaded into one dict (and into ``net``). ``get_ckpt_path_with_strategy`` returns the current
rank's checkpoint when it exists, as MindSpore does first.

The others need a sharding strategy: shard a function or network across ranks (``shard``,
``Layout``), read or merge MindSpore's strategy and group-info files (protobuf files its
auto-parallel compiler writes), or cut and join checkpoints by them. hookgrad trains
data-parallel only (every rank a whole replica) and has neither the compiler nor its files, so
they raise ``NotImplementedError`` saying so; with whole parameters on every rank,
``load_checkpoint`` reads any rank's checkpoint.
"""
import glob
import os

from ..checkpoint import load_checkpoint

__all__ = ['load_segmented_checkpoints', 'get_ckpt_path_with_strategy', 'shard', 'Layout',
           'sync_pipeline_shared_parameters', 'merge_pipeline_strategys', 'rank_list_for_transform',
           'transform_checkpoint_by_rank', 'transform_checkpoints', 'unified_safetensors',
           'load_distributed_checkpoint']

_DATA_PARALLEL = ("hookgrad trains data-parallel only (every rank holds whole parameters) and "
                  "has no auto-parallel compiler or strategy files")


def _unsupported(name, what):
    raise NotImplementedError(f"{name}: {what} is not supported: {_DATA_PARALLEL}; "
                              f"load_checkpoint reads any rank's checkpoint")


def load_segmented_checkpoints(ckpt_file_dir, net=None, strict_load=False, filter_prefix=None,
                               dec_key=None, dec_mode="AES-GCM", specify_prefix=None,
                               choice_func=None):
    """Every ``*.ckpt`` file in ``ckpt_file_dir``, loaded with ``load_checkpoint`` (into
    ``net`` when given, with the same arguments), in one dict (a later file's value wins).

    Raises:
        TypeError: ``ckpt_file_dir`` is not a str.
        ValueError: it is not a folder; as ``load_checkpoint`` for each file.
    """
    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"The dst_strategy_file: {ckpt_file_dir} doesn't exist. Or it's not a "
                         f"directory")
    parameter_dict = {}
    for checkpoint_file in sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt"))):
        parameter_dict.update(load_checkpoint(checkpoint_file, net, strict_load, filter_prefix,
                                              dec_key, dec_mode, specify_prefix, choice_func))
    return parameter_dict


def get_ckpt_path_with_strategy(cur_ckpt_path, cur_strategy_path):
    """``cur_ckpt_path`` when it names this rank (``rank_{id}``) and exists.

    Raises:
        NotImplementedError: otherwise (MindSpore then reads ``cur_strategy_path`` for the
            ranks holding the same slices).
    """
    from ..communication import get_rank
    if f"rank_{get_rank()}" in cur_ckpt_path and os.path.isfile(cur_ckpt_path):
        return cur_ckpt_path
    _unsupported('get_ckpt_path_with_strategy',
                 f"finding another rank's checkpoint through the strategy file "
                 f"'{cur_strategy_path}'")


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None):
    """Raises NotImplementedError: sharding ``fn`` across ranks needs the auto-parallel
    compiler."""
    _unsupported('shard', 'sharding a function or Cell across ranks')


class Layout:
    """Raises NotImplementedError: a Layout describes how ``shard`` cuts a tensor over a device
    matrix."""

    def __init__(self, device_matrix, alias_name, rank_list=None):
        _unsupported('Layout', 'a tensor layout over a device matrix')


def sync_pipeline_shared_parameters(net):
    """Raises NotImplementedError: pipeline stages are not supported."""
    _unsupported('sync_pipeline_shared_parameters', 'sharing parameters between pipeline stages')


def merge_pipeline_strategys(src_strategy_dirs, dst_strategy_file):
    """Raises NotImplementedError: merges MindSpore's per-stage strategy files."""
    _unsupported('merge_pipeline_strategys', 'merging pipeline strategy files')


def rank_list_for_transform(rank_id, src_strategy_file=None, dst_strategy_file=None):
    """Raises NotImplementedError: transforms checkpoints between strategies."""
    _unsupported('rank_list_for_transform', 'transforming checkpoints between strategies')


def transform_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name,
                                 src_strategy_file=None, dst_strategy_file=None):
    """Raises NotImplementedError: transforms checkpoints between strategies."""
    _unsupported('transform_checkpoint_by_rank', 'transforming checkpoints between strategies')


def transform_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix,
                          src_strategy_file=None, dst_strategy_file=None, process_num=1,
                          output_format="ckpt"):
    """Raises NotImplementedError: transforms checkpoints between strategies."""
    _unsupported('transform_checkpoints', 'transforming checkpoints between strategies')


def unified_safetensors(src_dir, src_strategy_file, dst_dir, merge_with_redundancy=True,
                        file_suffix=None, max_process_num=64, choice_func=None,
                        split_dst_file=()):
    """Raises NotImplementedError: joins sliced safetensors files by a strategy file."""
    _unsupported('unified_safetensors', 'joining sliced safetensors files by a strategy file')


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None,
                                dec_mode='AES-GCM', format='ckpt', unified_safetensors_dir=None,
                                dst_safetensors_dir=None, rank_id=None,
                                output_format='safetensors', name_map=None, max_process_num=64,
                                return_param_dict=False):
    """Raises NotImplementedError: joins sliced checkpoints by strategy files."""
    _unsupported('load_distributed_checkpoint', 'loading checkpoints sliced by a strategy')
