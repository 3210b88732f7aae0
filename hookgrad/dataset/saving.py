"""``Dataset.save``: one epoch of a pipeline written to MindRecord files with
``hookgrad.mindrecord.FileWriter`` and read back by ``MindDataset``.

The files are hookgrad's MindRecord format (one safetensors file per shard, see docs/data.md),
not MindSpore's binary one. Column types are cast as MindSpore's ``save`` casts them: bool and
integers of up to 32 bits (but uint32) to int32, uint32 and 64-bit integers to int64, float16
and float32 to float32, float64 kept, str to ``string`` and bytes to ``bytes`` (scalars only).
An array column keeps its shape; when rows differ only in their first dim, it is saved as -1.
"""
import numbers

import numpy as np

from ..mindrecord import FileWriter
from .filtering import type_error

__all__ = ['save']

_INT32 = {'b1', 'i1', 'u1', 'i2', 'u2', 'i4'}
_INT64 = {'u4', 'i8', 'u8'}


def _check(file_name, num_files, file_type):
    if isinstance(num_files, bool) or not isinstance(num_files, numbers.Integral):
        raise type_error('num_files', num_files, [int])
    if num_files <= 0 or num_files > 1000:
        raise ValueError("num_files should between 0 and 1000.")
    for name, value in (('file_name', file_name), ('file_type', file_type)):
        if not isinstance(value, str):
            raise type_error(name, value, [str])
    if file_type != 'mindrecord':
        raise ValueError(f"{file_type} dataset format is not supported.")


def _field(name, arrays):
    """``(schema entry, cast)`` of one column from all its values."""
    first = arrays[0]
    code = first.dtype.kind + str(first.dtype.itemsize) if first.dtype.kind != 'b' else 'b1'
    if first.dtype.kind in 'US':
        if any(a.ndim for a in arrays):
            raise RuntimeError(f"Dataset.save: column '{name}' holds arrays of strings or "
                               f"bytes; MindRecord only stores them as scalars")
        kind = 'string' if first.dtype.kind == 'U' else 'bytes'
        return {'type': kind}, lambda a: a.item()
    if code in _INT32:
        kind, dtype = 'int32', np.int32
    elif code in _INT64:
        kind, dtype = 'int64', np.int64
    elif code in ('f2', 'f4'):
        kind, dtype = 'float32', np.float32
    elif code == 'f8':
        kind, dtype = 'float64', np.float64
    else:
        raise RuntimeError(f"Dataset.save: column '{name}' has dtype {first.dtype}, which "
                           f"MindRecord cannot store")
    if first.ndim == 0:
        if any(a.ndim for a in arrays):
            raise RuntimeError(f"Dataset.save: column '{name}' mixes scalars and arrays")
        return {'type': kind}, lambda a: dtype(a)
    shapes = {a.shape for a in arrays}
    if len(shapes) == 1:
        shape = list(first.shape)
    elif len({(a.ndim,) + a.shape[1:] for a in arrays}) == 1:
        shape = [-1] + list(first.shape[1:])
    else:
        raise RuntimeError(f"Dataset.save: column '{name}' has rows of shapes "
                           f"{sorted(shapes)[:3]}...; only the first dim may vary")
    return {'type': kind, 'shape': shape}, lambda a: np.asarray(a, dtype=dtype)


def save(dataset, file_name, num_files=1, file_type='mindrecord'):
    """Write one epoch of ``dataset`` to ``num_files`` MindRecord files (see the module).

    Raises:
        TypeError, ValueError: for arguments MindSpore rejects (its messages).
        RuntimeError: for a dataset without rows or a column MindRecord cannot store.
        hookgrad.mindrecord errors: for files that exist already or a bad column name.
    """
    _check(file_name, num_files, file_type)
    names = dataset.get_col_names()
    rows = list(dataset.create_tuple_iterator(num_epochs=1, output_numpy=True))
    if not rows:
        raise RuntimeError("Dataset.save: the dataset yields no rows to save")
    schema, casts = {}, {}
    for j, name in enumerate(names):
        schema[name], casts[name] = _field(name, [r[j] for r in rows])
    writer = FileWriter(file_name, num_files)
    writer.add_schema(schema, 'saved by Dataset.save')
    writer.write_raw_data([{n: casts[n](v) for n, v in zip(names, r)} for r in rows])
    writer.commit()
