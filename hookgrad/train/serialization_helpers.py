"""The helpers and constants of MindSpore's ``mindspore.train.serialization``: dtype tables for
checkpoint and MindIR files, input checks, ``merge_sliced_parameter`` (``hookgrad.parallel``'s),
and the parallel-strategy readers (which hookgrad, running on one process, cannot honour and
says so).
"""
import datetime
import os
import threading

import numpy as np

from .. import _dtype as mstype
from ..communication import get_group_size, get_rank  # noqa: F401  (MindSpore imports them)
from ..ops import Cast
from ..parallel import merge_sliced_parameter  # one implementation, shared

__all__ = ['ENCRYPT_BLOCK_SIZE', 'INT_64_MAX', 'PARAMETER_SPLIT_SIZE', 'PROTO_LIMIT_SIZE',
           'SLICE_SIZE', 'TOTAL_SAVE', 'tensor_to_np_type', 'tensor_to_ms_type',
           'np_type_convert', 'mindir_to_tensor_type', 'safetensors_to_mstype',
           'check_input_data', 'check_input_dataset', 'Cast', 'cpu_cast', 'vlog_print',
           'get_group_size', 'get_rank', 'merge_sliced_parameter', 'new_merge_sliced_parameter',
           'build_searched_strategy', 'new_build_searched_strategy', 'restore_group_info_list',
           'new_restore_group_info_list']

# MindSpore's sizes for writing checkpoints and MindIR files (bytes, or elements for SLICE_SIZE)
ENCRYPT_BLOCK_SIZE = 64 * 1024
INT_64_MAX = 9223372036854775807
PARAMETER_SPLIT_SIZE = 1024 * 1024 * 1024
PROTO_LIMIT_SIZE = 1024 * 1024 * 2
SLICE_SIZE = 512 * 1024
TOTAL_SAVE = 1024 * 1024

_TENSOR_TO_NP = {"Int8": np.int8, "UInt8": np.uint8, "Int16": np.int16, "UInt16": np.uint16,
                 "Int32": np.int32, "UInt32": np.uint32, "Int64": np.int64, "UInt64": np.uint64,
                 "Float16": np.float16, "Float32": np.float32, "Float64": np.float64,
                 "Bool": np.bool_, "str": "U"}

# a checkpoint's dtype name -> MindSpore dtype
tensor_to_ms_type = {"Int8": mstype.int8, "UInt8": mstype.uint8, "Int16": mstype.int16,
                     "UInt16": mstype.uint16, "Int32": mstype.int32, "UInt32": mstype.uint32,
                     "Int64": mstype.int64, "UInt64": mstype.uint64, "Float16": mstype.float16,
                     "Float32": mstype.float32, "Float64": mstype.float64, "Bool": mstype.bool_,
                     "str": mstype.string, "BFloat16": mstype.bfloat16, "Int4": mstype.qint4x2}
# a dtype name -> NumPy type
np_type_convert = {"int32": np.int32, "float32": np.float32, "float16": np.float16,
                   "float64": np.float64}
# a MindIR (ONNX TensorProto) element type number -> MindSpore dtype
mindir_to_tensor_type = {1: mstype.float32, 2: mstype.uint8, 3: mstype.int8, 4: mstype.uint16,
                         5: mstype.int16, 6: mstype.int32, 7: mstype.int64, 10: mstype.float16,
                         11: mstype.float64, 12: mstype.uint32, 13: mstype.uint64}
# safetensors dtype names MindSpore adds to the format's own
safetensors_to_mstype = {'Int4': mstype.qint4x2}

cpu_cast = Cast()


def tensor_to_np_type(tensor_type_str):
    """The NumPy type of a checkpoint's dtype name ('Float32' -> np.float32; 'str' -> 'U';
    'BFloat16' -> ml_dtypes' bfloat16, the type of hookgrad's bfloat16 arrays), None for an
    unknown name."""
    if tensor_type_str == "BFloat16":
        return mstype.bfloat16.np_dtype.type
    return _TENSOR_TO_NP.get(tensor_type_str)


def _valid(item, data_class):
    if data_class is None:
        return item is None
    if isinstance(item, data_class):
        if hasattr(item, 'size') and item.size == 0:
            raise ValueError("The input data can not be empty.")
        return True
    return False


def check_input_data(*data, data_class):
    """Check that every item (through lists, tuples and dict values) is a ``data_class`` (a
    type, None or a tuple of them) and not empty.

    Raises:
        TypeError: for an item of another type.
        ValueError: for an empty one.
    """
    for item in data:
        if isinstance(item, (list, tuple)):
            for v in item:
                check_input_data(v, data_class=data_class)
        elif isinstance(item, dict):
            for v in item.values():
                check_input_data(v, data_class=data_class)
        else:
            kinds = data_class if isinstance(data_class, (tuple, list)) else (data_class,)
            if not any(_valid(item, k) for k in kinds):
                if isinstance(data_class, (tuple, list)):
                    name = tuple(getattr(k, '__name__', k) for k in data_class)
                else:
                    name = data_class if data_class is None else data_class.__name__
                got = item if item is None else type(item).__name__
                raise TypeError(f'The types of input data must be in the Union({name}, '
                                f'tuple[{name}], list[{name}], dict[{name}]), but got type '
                                f'{got}.')


def check_input_dataset(*dataset, dataset_type):
    """Whether there is at least one dataset and all are ``dataset_type``."""
    return bool(dataset) and all(isinstance(d, dataset_type) for d in dataset)


def _vlog_range(text):
    """MindSpore's ``VLOG_v`` setting: '3' or '(1,5)', '(3,)', '(,5)' -> (valid, (low, high))."""
    text = (text or '').strip()
    if not text:
        return False, ()
    if not (text.startswith('(') and text.endswith(')')):
        try:
            return True, (int(text), int(text))
        except ValueError:
            return False, ()
    parts = [p.strip() for p in text[1:-1].split(',')]
    if len(parts) != 2:
        return False, ()
    try:
        low = int(parts[0]) if parts[0] else 1
        high = int(parts[1]) if parts[1] else float('inf')
    except ValueError:
        return False, ()
    return True, (low, high)


def vlog_print(level, module, file, line, message):
    """Print a verbose-log line when ``level`` is in the ``VLOG_v`` environment variable's
    range (a level '3' or a range '(1,5)'), in MindSpore's format."""
    target = int(level)
    valid, bounds = _vlog_range(os.environ.get("VLOG_v"))
    if valid and bounds[0] <= target <= bounds[1]:
        now = datetime.datetime.now()
        stamp = now.strftime("%Y-%m-%d-%H:%M:%S.%f")[:-3] + f".{now.microsecond // 1000}"
        path = 'mindspore' + file.split("mindspore")[-1]
        print(f"[V{level}] {module}({os.getpid()},{threading.get_ident()},python):{stamp} "
              f"[{path}:{line}] {message}", flush=True)


_STRATEGY = ("reads the parallel strategy (or communication group) file that MindSpore's "
             "distributed training writes; hookgrad trains on one process and writes none, so "
             "there is no layout to read")


def build_searched_strategy(strategy_filename):
    """Not available.

    Raises:
        NotImplementedError: always (see the message).
    """
    raise NotImplementedError(f"build_searched_strategy {_STRATEGY}")


def restore_group_info_list(group_info_file_name):
    """Not available.

    Raises:
        NotImplementedError: always (see the message).
    """
    raise NotImplementedError(f"restore_group_info_list {_STRATEGY}")


# MindSpore's module also holds these under the names it imports them by
new_merge_sliced_parameter = merge_sliced_parameter
new_build_searched_strategy = build_searched_strategy
new_restore_group_info_list = restore_group_info_list
