"""``Dataset.send`` / ``Dataset.recv``: a dataset's rows (or given Tensors) sent between ranks
with ``mindspore.mint.distributed`` point-to-point calls, as MindSpore 2.10 sends them.

Each transfer is a metadata Tensor (int64, 2048 entries: the number of Tensors, then per Tensor
its rank, its dims and a dtype code) followed by the Tensors themselves. ``send()`` without a
Tensor sends the next row of the dataset's own iterator (epochs follow one another without
end); ``recv`` from this process's own rank takes that row directly.
"""
import numbers

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from .filtering import type_error

__all__ = ['send', 'recv']

MAX_METADATA_LENGTH = 2048

# MindSpore's codes: where two of its names are one dtype (int and int32...), the later wins
_CODES = {'bool': 0, 'int8': 1, 'int16': 3, 'int32': 5, 'int64': 7, 'uint8': 8,
          'uint16': 9, 'uint32': 10, 'uint64': 11, 'float16': 13, 'float32': 15,
          'float64': 17, 'bfloat16': 18}
_NAMES = {code: name for name, code in _CODES.items()}
_DTYPES = {'bool': 'bool_'}


def _dtype_of(name):
    return getattr(_dtype, _DTYPES.get(name, name))


def _code(t):
    for name, code in _CODES.items():
        if t.dtype == _dtype_of(name):
            return code
    raise RuntimeError(f"Tensor of dtype: {t.dtype} is not supported to send.")


def _ranks(value, name):
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, list)):
        raise type_error(name, value, [int, list])
    ranks = [value] if isinstance(value, numbers.Integral) else value
    for r in ranks:
        if isinstance(r, bool) or not isinstance(r, numbers.Integral) or not \
                0 <= r <= 4294967295:
            raise ValueError(f"Input element of {name} is not within the required interval of "
                             f"[0, 4294967295].")
    return [int(r) for r in ranks]


def _check_group(group):
    if group is not None and not isinstance(group, str):
        raise type_error('group', group, [str])


def _next_row(dataset):
    it = dataset.__dict__.get('_dataset_iter')
    if it is None:
        it = dataset.__dict__['_dataset_iter'] = dataset.create_tuple_iterator()
    while True:
        try:
            return next(it)
        except StopIteration:
            continue


def _flatten(nested):
    """MindSpore's ``flatten_single_lists``: lists of one list lose a level."""
    if not isinstance(nested, list):
        return nested
    if len(nested) == 1 and isinstance(nested[0], list):
        return _flatten(nested[0])
    return [_flatten(item) for item in nested]


def _single(nested):
    flat = _flatten(nested)
    return flat[0] if len(flat) == 1 else flat


def send(dataset, tensor=None, dst=0, group=None):
    """Send ``tensor`` (a Tensor or list of them; None: the dataset's next row) to the ranks
    ``dst`` (an int or list of ints).

    Raises:
        TypeError, ValueError: for arguments of the wrong kind. RuntimeError: for a column
        that is not a Tensor (strings) or a dtype without a code.
    """
    from ..mint import distributed as dist
    if tensor is not None:
        if not isinstance(tensor, (Tensor, list)):
            raise type_error('tensor', tensor, [Tensor, list])
        for item in tensor if isinstance(tensor, list) else ():
            if not isinstance(item, Tensor):
                raise type_error('element of tensor', item, [Tensor])
    dst_list = _ranks(dst, 'dst')
    _check_group(group)
    if tensor is None:
        tensors = _next_row(dataset)
        for index, item in enumerate(tensors):
            if not isinstance(item, Tensor):
                raise RuntimeError(f"The data column at index: {index} is not Tensor which is "
                                   f"not supported to send. You can remove it using the "
                                   f"dataset.project operation.")
    else:
        tensors = [tensor] if isinstance(tensor, Tensor) else tensor
    meta = [len(tensors)]
    for t in tensors:
        meta += [t.ndim] + list(t.shape) + [_code(t)]
    if len(meta) >= MAX_METADATA_LENGTH:
        raise RuntimeError("The metadata for sending data is too large.")
    meta = Tensor(np.array(meta + [0] * (MAX_METADATA_LENGTH - len(meta)), np.int64))
    for rank in dst_list:
        dist.send(meta, rank, group)
        for t in tensors:
            dist.send(t, rank, group)


def _recv_one(src, group):
    from ..mint import distributed as dist
    meta = Tensor(np.zeros(MAX_METADATA_LENGTH, np.int64))
    dist.recv(meta, src, group)
    meta = meta.asnumpy().tolist()
    tensors, k = [], 1
    for _ in range(meta[0]):
        ndim = meta[k]
        shape = meta[k + 1:k + 1 + ndim]
        code = meta[k + 1 + ndim]
        k += ndim + 2
        if code not in _NAMES:
            raise RuntimeError(f"Dataset.recv: unknown dtype code {code} in the metadata")
        tensors.append(Tensor(np.zeros(shape), dtype=_dtype_of(_NAMES[code])))
    for t in tensors:
        dist.recv(t, src, group)
    return _single(tensors)


def recv(dataset, src=0, group=None):
    """What ``send`` sent from each rank of ``src`` (an int or list); from this process's own
    rank, the dataset's next row. One Tensor comes back alone, several as a list.

    Raises:
        TypeError, ValueError: for arguments of the wrong kind.
    """
    from ..mint import distributed as dist
    src_list = _ranks(src, 'src')
    _check_group(group)
    me = dist.get_rank()
    out = [_next_row(dataset) if rank == me else _recv_one(rank, group) for rank in src_list]
    return _single(out)
