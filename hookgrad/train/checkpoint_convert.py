"""Checkpoint conversions and asynchronous loading, as ``mindspore.train.serialization`` names
them: ``ckpt_to_safetensors``, ``safetensors_to_ckpt``, ``load_checkpoint_async`` and
``async_ckpt_thread_status``.

``ckpt_to_safetensors`` rewrites a checkpoint (MindSpore's protobuf ``.ckpt``, or an older
hookgrad file) as a plain ``.safetensors`` file that any safetensors reader loads (str entries
in its metadata);
``safetensors_to_ckpt`` turns a safetensors file (one written by another library too) into
MindSpore's ``.ckpt`` (docs/checkpoints.md). Paths follow MindSpore: a single file, or a folder whose ``rank*``
subfolders hold the files.
"""
import concurrent.futures
import numbers
import os
import re

import numpy as np

from .._tensor import Tensor
from ..checkpoint.files import _safetensors, load_checkpoint, save_checkpoint

__all__ = ['ckpt_to_safetensors', 'safetensors_to_ckpt', 'load_checkpoint_async',
           'async_ckpt_thread_status']

_FORMATS = {'safetensors': ('.ckpt', '.safetensors', 'ckpt_to_safetensors'),
            'ckpt': ('.safetensors', '.ckpt', 'safetensors_to_ckpt')}


def _to_safetensors(src, dst, name_map):
    entries = load_checkpoint(src)
    tensors, texts = {}, {}
    for name, value in entries.items():
        name = name_map.get(name, name)
        if isinstance(value, str):
            texts[name] = value             # str entries travel in the metadata
        else:
            tensors[name] = np.ascontiguousarray(value.asnumpy())
    _safetensors().numpy.save_file(tensors, dst, metadata=texts or None)


def _to_ckpt(src, dst, name_map):
    safetensors = _safetensors()
    entries = {}
    with safetensors.safe_open(src, 'numpy') as f:
        for name in f.keys():
            entries[name_map.get(name, name)] = Tensor(f.get_tensor(name))
        for name, text in (f.metadata() or {}).items():
            if name != 'format':
                entries[name_map.get(name, name)] = text
    save_checkpoint(entries, dst)


def _convert(file_path, save_path, name_map, file_name_regex, processes_num, dst_format):
    src_suffix, dst_suffix, who = _FORMATS[dst_format]
    convert = _to_safetensors if dst_format == 'safetensors' else _to_ckpt
    if not isinstance(file_path, (str, os.PathLike)):
        raise TypeError(f"{who}: file_path must be a str, got {type(file_path).__name__}")
    file_path = os.fspath(file_path)
    if save_path is not None and os.path.splitext(os.fspath(save_path))[1]:
        raise ValueError(f"{who}: save_path must be a directory, got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"{who}: name_map must be a dict, got {type(name_map).__name__}")
    if isinstance(processes_num, bool) or not isinstance(processes_num, numbers.Integral) or \
            processes_num < 1:
        raise ValueError(f"{who}: processes_num must be an int >= 1, got {processes_num!r}")
    name_map = name_map or {}
    if os.path.isfile(file_path):
        if not file_path.endswith(src_suffix):
            raise ValueError(f"{who}: the input file must be a {src_suffix} file, got "
                             f"'{file_path}'")
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"{who}: '{file_path}' does not match file_name_regex "
                             f"{file_name_regex!r}")
        folder = os.fspath(save_path) if save_path else os.path.dirname(file_path)
        os.makedirs(folder, exist_ok=True)
        name = os.path.basename(file_path).replace(src_suffix, dst_suffix)
        convert(file_path, os.path.join(folder, name), name_map)
        return
    if not os.path.isdir(file_path):
        raise ValueError(f"{who}: file_path must be a file or a folder, got '{file_path}'")
    ranks = sorted(d for d in os.listdir(file_path)
                   if d.startswith('rank') and os.path.isdir(os.path.join(file_path, d)))
    if not ranks:
        raise ValueError(f"{who}: no folder starting with 'rank' in '{file_path}'")
    for rank in ranks:
        src_dir = os.path.join(file_path, rank)
        dst_dir = os.path.join(os.fspath(save_path), rank) if save_path is not None else src_dir
        os.makedirs(dst_dir, exist_ok=True)
        for name in sorted(os.listdir(src_dir)):
            if name.endswith(src_suffix) and (file_name_regex is None or
                                              re.search(file_name_regex, name)):
                convert(os.path.join(src_dir, name),
                        os.path.join(dst_dir, name.replace(src_suffix, dst_suffix)), name_map)


def ckpt_to_safetensors(file_path, save_path=None, name_map=None, file_name_regex=None,
                        processes_num=1):
    """Write each hookgrad ``.ckpt`` as a plain ``.safetensors`` file.

    Args:
        file_path: a ``.ckpt`` file, or a folder whose ``rank*`` subfolders hold them.
        save_path: the output folder (mirroring ``rank*`` for a folder input). Default: next
            to each input.
        name_map: ``{old name: new name}`` applied to the entries.
        file_name_regex: convert only the files whose names match.
        processes_num: an int >= 1; files are converted one after another.

    Raises:
        ValueError: for a missing path, a file of another suffix, a ``save_path`` with a
            suffix, a ``name_map`` that is not a dict, or a folder without ``rank*``.
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, 'safetensors')


def safetensors_to_ckpt(file_path, save_path=None, name_map=None, file_name_regex=None,
                        processes_num=1):
    """Write each ``.safetensors`` file as a hookgrad ``.ckpt`` that ``load_checkpoint`` reads.

    Args and Raises: as ``ckpt_to_safetensors``, from ``.safetensors`` to ``.ckpt``.
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, 'ckpt')


class ParamDictFuture:
    """The pending result of ``load_checkpoint_async``: ``result()`` waits for it."""

    def __init__(self, executor, param_dict_future):
        self.executor = executor
        self.param_dict_future = param_dict_future

    def result(self):
        """The dict ``load_checkpoint`` returns (its errors are raised here)."""
        try:
            return self.param_dict_future.result()
        finally:
            self.executor.shutdown()


def load_checkpoint_async(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                          dec_key=None, dec_mode='AES-GCM', specify_prefix=None,
                          choice_func=None):
    """``load_checkpoint`` in a background thread; returns a ``ParamDictFuture``.

    >>> import hookgrad as ms                                  # doctest: +SKIP
    >>> future = ms.train.load_checkpoint_async('net.ckpt')    # doctest: +SKIP
    >>> params = future.result()                               # doctest: +SKIP
    """
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix,
                             dec_key, dec_mode, specify_prefix, choice_func)
    return ParamDictFuture(executor, future)


def async_ckpt_thread_status():
    """Whether an asynchronous checkpoint save is running: always False, as hookgrad writes
    every checkpoint before ``save_checkpoint`` returns."""
    return False
