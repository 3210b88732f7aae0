"""``SummaryRecord``: writes MindSpore's summary files (for MindInsight), as MindSpore 2.10.

The file, ``<log_dir>/<file_prefix>.out.events.summary.<seconds>.<device id>.<host
name><file_suffix>``, is created on the first record that has something to write (a
SummaryRecord that records nothing leaves no file), with mode 0o600, made read-only (0o400) on
``close``. Its records are described in ``_format.py``. MindSpore writes from a pool of
processes; hookgrad writes in the calling thread, buffered until ``flush``/``close`` (the file
holds the same records in the same order; only their ``wall_time`` differ).
"""
import atexit
import os
import re
import shutil
import threading
import time
from collections import defaultdict

import numpy as np

from ... import log as _logger
from ..._tensor import Tensor
from ...compat.checkparam import check_value_type
from ...ops.operations import _summary as _summary_ops
from . import _format

__all__ = ['SummaryRecord', 'check_type', 'make_directory', 'process_export_options']

_instance_lock = threading.Lock()
_FREE_DISK_SPACE_TIMES = 32
_NAME_RE = r"^\w+[0-9a-zA-Z\_\.]*$"
_TENSOR_PLUGINS = ('tensor', 'scalar', 'image', 'histogram')
_LINEAGE_PLUGINS = ('train_lineage', 'eval_lineage', 'dataset_graph', 'custom_lineage_data')
_OP_TAGS = {'TensorSummary': '[:Tensor]', 'ScalarSummary': '[:Scalar]',
            'ImageSummary': '[:Image]', 'HistogramSummary': '[:Histogram]'}
_EXPORT_OPTIONS = {'tensor_format': ('npy', None)}   # MindSpore lists a set: either order
MAX_PATH_LENGTH = 4096


def _check_name(target):
    if re.match(_NAME_RE, target, re.ASCII) is None:
        raise ValueError(f"The '{target}' is illegal, it must be match regular'{_NAME_RE}' by "
                         f"flags'{re.ASCII}.'")


def make_directory(path, arg_name):
    """``path`` made absolute and created (mode 0o700) if missing; MindSpore's checks."""
    if not isinstance(path, str):
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    if path.strip() == "":
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank.")
    path = os.path.realpath(path)
    if len(path) > MAX_PATH_LENGTH:
        raise ValueError(f"The {arg_name} length is too long, it should be limited in "
                         f"{MAX_PATH_LENGTH}.")
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise NotADirectoryError(f"The path({path}) is a file path, it should be a "
                                     f"directory path.")
    else:
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
        except PermissionError as e:
            raise TypeError("No write permission on the directory.") from e
    return path


def check_type(arg_name, arg_value, valid_types):
    """``arg_value`` is one of ``valid_types`` (a bool only if ``bool`` is listed), else the
    TypeError of MindSpore's summary checks."""
    valid_types = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)
    if not isinstance(arg_value, valid_types) or \
            (isinstance(arg_value, bool) and bool not in valid_types):
        raise TypeError(f"For `{arg_name}` the type should be a valid type of "
                        f"{[t.__name__ for t in valid_types]}, but got "
                        f"{type(arg_value).__name__}.")


def process_export_options(export_options):
    """``export_options`` checked as MindSpore checks them (None or ``{'tensor_format':
    'npy' | None}``)."""
    if export_options is None:
        return None
    check_type('export_options', export_options, [dict, type(None)])
    for option, fmt in export_options.items():
        check_type('export_option', option, [str])
        check_type('export_format', fmt, [str, type(None)])
    unexpected = set(export_options) - set(_EXPORT_OPTIONS)
    if unexpected:
        raise ValueError(f'For "SummaryRecord", the keys {unexpected} of "export_options" are '
                         f'unsupported, expect the follow keys: {list(_EXPORT_OPTIONS.keys())}')
    for option, fmt in export_options.items():
        bad = {fmt} - set(_EXPORT_OPTIONS[option])
        if bad:
            raise ValueError(f'For "SummaryRecord", the export_format {bad} of "export_options" '
                             f'are unsupported for {option}, expect the follow values: '
                             f'{list(_EXPORT_OPTIONS[option])}')
    return export_options


def _to_numpy(plugin, tensor, prim=False):
    value = np.array(tensor.asnumpy(), copy=True)
    who = plugin.capitalize() + "Summary" if prim else "SummaryRecord"
    if plugin == 'scalar' and value.size != 1:
        raise ValueError(f'For "{who}", the v rank must be less than or equal to 1, but got '
                         f'{len(value)}.')
    if plugin == 'image' and value.ndim != 4:
        raise ValueError(f'For "{who}", the tensor seems not to hold a valid image.')
    if plugin in ('tensor', 'histogram') and value.ndim == 0:
        raise ValueError(f'For "{who}", the value should not be empty.')
    return value


def _check_op_value(op_name, name, value):
    plugin = op_name.split('Summary')[0].lower()
    if not isinstance(name, str) or not name:
        raise TypeError(f'For "{op_name}", the name must be valid string, but got "{name}".')
    if not isinstance(value, Tensor):
        raise TypeError(f'For "{op_name}", the parameter "value" expect to be Tensor, but got '
                        f'{type(value).__name__}')
    _to_numpy(plugin, value, prim=True)


class _Writer:
    """One summary file: opened (with its version record) on the first write; ``max_file_size``
    bytes at most, records and their 16 bytes of framing counted."""

    def __init__(self, path, max_file_size, raise_exception):
        self.path, self.left, self.raise_exception = path, max_file_size, raise_exception
        self.file, self.dead = None, False

    def write(self, data):
        if self.dead:
            return
        try:
            if self.file is None:
                self.file = open(self.path, 'wb')
                os.chmod(self.path, 0o600)
                self._put(_format.version_event())
            self._put(data)
        except RuntimeWarning as e:
            _logger.warning(str(e))
            self.close()
        except (RuntimeError, OSError) as e:
            _logger.error(str(e))
            self.close()
            if self.raise_exception:
                raise

    def _put(self, data):
        need = len(data) + 16
        if shutil.disk_usage(self.path).free < need * _FREE_DISK_SPACE_TIMES:
            raise RuntimeError(f"The disk space may be soon exhausted by the '{self.path}'.")
        if self.left is not None:
            if self.left < need:
                raise RuntimeWarning(f"'max_file_size' reached: There are {self.left} bytes "
                                     f"remaining, but the '{self.path}' requires to write {need} "
                                     f"bytes.")
            self.left -= need
        self.file.write(_format.frame(data))

    def flush(self):
        if self.file is not None and not self.dead:
            self.file.flush()

    def close(self):
        self.dead = True
        if self.file is not None:
            self.file.close()
            self.file = None
        if os.path.exists(self.path):
            os.chmod(self.path, 0o400)


class SummaryRecord:
    """Records summary data (scalars, tensors, histograms, images) into a MindSpore summary file
    that MindInsight reads.

    Args:
        log_dir (str): the directory of the file (created if missing).
        file_prefix (str): the file name's prefix. Default ``"events"``.
        file_suffix (str): the file name's suffix. Default ``"_MS"``.
        num_process (int): MindSpore's number of writer processes (hookgrad writes in the
            calling thread; kept). Default ``32``.
        network (Cell): MindSpore records its compiled graph; hookgrad has no graph protobuf
            and records none (kept). Default ``None``.
        max_file_size (int, optional): the most bytes the file may hold; a record that does not
            fit is dropped with a warning and nothing more is written. Default ``None``: no
            limit.
        raise_exception (bool): raise, instead of logging, a RuntimeError/OSError met while
            writing. Default ``False``.
        export_options (dict, optional): ``{'tensor_format': 'npy'}`` also saves each
            ``'tensor'`` value as ``<log_dir>/export_<seconds>/tensor/<tag>_<step>.npy``.

    Only one SummaryRecord may be open at a time; close it (or use ``with``).
    """

    count = 0

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32,
                 network=None, max_file_size=None, raise_exception=False, export_options=None):
        self._check_count()
        with _instance_lock:
            self._check_count()
            SummaryRecord.count += 1
            _summary_ops.open_records = SummaryRecord.count
        self._writer = None
        self._mode, self._data_pool = 'train', defaultdict(list)
        self._status = {'closed': False, 'has_graph': False}
        self.file_info = {'file_name': None, 'file_path': None}
        self.base_log_dir = log_dir
        self.file_prefix, self.file_suffix = file_prefix, file_suffix
        self.network = network
        self.max_file_size = max_file_size
        self._num_process = num_process
        self.raise_exception = raise_exception
        self._export_options = export_options
        self._export_dir = None
        try:
            self._initialize()
        except (TypeError, ValueError):
            SummaryRecord.count -= 1
            raise

    def _initialize(self):
        log_path = make_directory(self.base_log_dir, "log_dir")
        if not isinstance(self.max_file_size, (int, type(None))):
            raise TypeError(f"For '{type(self).__name__}', the 'max_file_size' should be int "
                            f"type, but got type {type(self.max_file_size)}")
        if not isinstance(self.file_prefix, str) or not isinstance(self.file_suffix, str):
            raise TypeError(f"For '{type(self).__name__}', `file_prefix` and `file_suffix`  "
                            f"should be str, but got type {type(self.file_prefix)}")
        _check_name(self.file_prefix)
        _check_name(self.file_suffix)
        if self.max_file_size is not None and self.max_file_size < 0:
            _logger.warning(f"For '{type(self).__name__}', the 'max_file_size' should be greater "
                            f"than 0. but got value {self.max_file_size}.")
            self.max_file_size = None
        check_value_type('raise_exception', self.raise_exception, bool)
        seconds = str(int(time.time()))
        from ... import context
        name = _format.event_file_name(self.file_prefix, self.file_suffix, seconds,
                                       context.get_context('device_id'))
        self.file_info['file_name'] = name
        self.file_info['file_path'] = os.path.join(log_path, name)
        self._export_options = process_export_options(self._export_options)
        if self._export_options is not None:
            self._export_dir = os.path.join(self.base_log_dir, f"export_{seconds}")
        self._writer = _Writer(os.path.join(self.base_log_dir, name), self.max_file_size,
                               self.raise_exception)
        atexit.register(self.close)

    @classmethod
    def _check_count(cls):
        if cls.count > 0:
            raise RuntimeError(
                f"For '{cls.__name__}', only one instance is supported in a training process, "
                f"you are trying to create a new one when the existing instance number is "
                f"{cls.count}. Please check your scripts.")

    def __enter__(self):
        if self._status['closed']:
            raise ValueError(f'For "{type(self).__name__}", SummaryRecord has been closed, '
                             'please check if close() method is called')
        return self

    def __exit__(self, *err):
        self.close()

    def set_mode(self, mode):
        """``'train'`` or ``'eval'``; in ``'eval'`` ``record`` leaves the summary Primitives'
        values cached."""
        if mode not in ('train', 'eval'):
            raise ValueError(f'For "{type(self).__name__}.set_mode", {mode!r} is not a '
                             'recognized mode, expect the parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin, name, value):
        """Add ``value`` (a Tensor) under tag ``name`` for ``plugin`` ('scalar', 'tensor',
        'histogram', 'image'), written at the next ``record``."""
        if plugin in _TENSOR_PLUGINS:
            if not name or not isinstance(name, str):
                raise ValueError(f'For "{type(self).__name__}", the parameter "name" type should '
                                 f'be str, but got {type(name)}.')
            if not isinstance(value, Tensor):
                raise TypeError(f'For "{type(self).__name__}", the parameter "value" expect to '
                                f'be Tensor, but got {type(value).__name__}')
            np_value = _to_numpy(plugin, value)
            if name in {item['tag'] for item in self._data_pool[plugin]}:
                _logger.warning(f'For "{type(self).__name__}.add_value", '
                                f'{repr(f"{name}/{plugin}")} has duplicate values. Only the '
                                f'newest one will be recorded.')
            data = {'tag': name, 'value': np_value}
            if self._export_options is not None and f'{plugin}_format' in self._export_options:
                data['export_option'] = self._export_options[f'{plugin}_format']
            self._data_pool[plugin].append(data)
        elif plugin in _LINEAGE_PLUGINS or plugin in ('graph', 'LANDSCAPE'):
            raise NotImplementedError(
                f"SummaryRecord.add_value: the {plugin!r} plugin takes MindSpore's "
                f"{'lineage' if plugin in _LINEAGE_PLUGINS else plugin} protobuf messages, which "
                f"hookgrad does not build; it records the 'scalar', 'tensor', 'histogram' and "
                f"'image' plugins")
        else:
            raise ValueError(f'For "{type(self).__name__}.add_value", no such "plugin" of '
                             f'{repr(plugin)} , expect value is one of [tensor, scalar, image, '
                             f'histogram, train_lineage, eval_lineage, dataset_graph, '
                             f'custom_lineage_data, graph, landscape]')

    def record(self, step, train_network=None, plugin_filter=None):
        """Write the values added since the last record (and, in 'train' mode, those of the
        summary Primitives) as one event at ``step``; returns whether it wrote."""
        from ...nn import Cell
        check_value_type('step', step, int)
        check_value_type('train_network', train_network, [Cell, type(None)])
        if self._status['closed']:
            _logger.error(f"For '{type(self).__name__}', The record writer is closed, please "
                          "check if close() method is called")
            return False
        if self._mode == 'train':
            self._add_summary_tensor_data()
        pool, self._data_pool = self._data_pool, defaultdict(list)
        values = []
        for plugin, items in pool.items():
            if plugin_filter and not plugin_filter(plugin):
                continue
            for item in items:
                values.append((plugin, item['tag'], item['value']))
                if item.get('export_option') == 'npy':
                    self._export_npy(item, step)
        if values:
            self._writer.write(_format.summary_event(values, step, time.time()))
        return True

    def _add_summary_tensor_data(self):
        items = _summary_ops.take_cache()
        latest = {}
        for op_name, name, value in items:
            _check_op_value(op_name, name, value)
            latest[name + _OP_TAGS.get(op_name, '')] = value
        for full_name, value in latest.items():
            match = re.match(r'(.+)\[:(.+)\]', full_name)
            if match is None:
                _logger.warning(f"The name({full_name!r}) is invalid, expected 'TAG[:TYPE]'.")
                continue
            tag, plugin = match.groups()
            self.add_value(plugin.lower(), tag, value)

    def _export_npy(self, item, step):
        from urllib.parse import quote
        path = make_directory(os.path.join(self._export_dir, 'tensor'), 'path')
        np_path = f"{path}/{quote(item['tag'], safe='')}_{int(step)}.npy"
        np.save(np_path, item['value'])
        os.chmod(np_path, 0o400)

    @property
    def log_dir(self):
        """The full path of the summary file."""
        return self.file_info['file_path']

    def flush(self):
        """Write what is buffered to the file."""
        if self._status['closed']:
            _logger.error(f"For '{type(self).__name__}', the record writer is closed and can not "
                          "flush, please check if close() method is called")
        elif self._writer:
            self._writer.flush()

    def close(self):
        """Flush and close the file (read-only from then on)."""
        if not self._status['closed'] and self._writer:
            atexit.unregister(self.close)
            self._writer.close()
            self._status['closed'] = True
        with _instance_lock:
            if not self._status.get('counted_out'):     # once per instance
                self._status['counted_out'] = True
                SummaryRecord.count -= 1
                _summary_ops.open_records = SummaryRecord.count
