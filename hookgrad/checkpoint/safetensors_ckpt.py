"""MindSpore's ``format='safetensors'`` checkpoints: a plain safetensors file, tensors sorted by
name, metadata ``{'format': 'ms'}`` plus ``'crc_num'`` (with ``crc_check``) and
``'remove_redundancy'`` (when given). The CRC32 runs over each tensor's name (UTF-8) and then
its bytes, in name order. str entries cannot be stored (MindSpore fails on them too). BFloat16
is BF16; with ``crc_check`` hookgrad writes its CRC32 too (over the 16-bit values), which
MindSpore 2.10 cannot: its CRC code fails on bfloat16 arrays, saving and under
``load_checkpoint(crc_check=True)``, and without ``crc_check`` it loads the file unchecked. Any
other safetensors file loads the same way, as MindSpore loads it. See docs/checkpoints.md.
"""
import json
import zlib

import numpy as np

from .protobuf_ckpt import BadFile, NUMPY_TYPES, UNREADABLE, from_le, le_bytes

__all__ = ['encode', 'decode']

# safetensors dtype -> MindSpore tensor_type
_TYPES = {'F16': 'Float16', 'F32': 'Float32', 'F64': 'Float64', 'BF16': 'BFloat16',
          'I8': 'Int8', 'I16': 'Int16', 'I32': 'Int32', 'I64': 'Int64', 'U8': 'UInt8',
          'U16': 'UInt16', 'U32': 'UInt32', 'U64': 'UInt64', 'BOOL': 'Bool', 'C64': 'Complex64',
          'C128': 'Complex128'}


def encode(safetensors, entries, crc_check, remove_redundancy):
    """The bytes of a MindSpore safetensors checkpoint for ``[(name, ndarray, dtype_name)]``."""
    for name, arr, _ in entries:
        if arr.dtype == np.complex128:
            raise TypeError(f"save_checkpoint: entry '{name}' is Complex128, which the "
                            f"safetensors format has no type for (it has C64); save it with "
                            f"format='ckpt', or as Complex64")
    tensors = {name: arr.astype(arr.dtype.newbyteorder('<'), order='C', copy=False)
               for name, arr, _ in sorted(entries, key=lambda e: e[0])}
    metadata = {'format': 'ms'}
    if remove_redundancy is not None:
        metadata['remove_redundancy'] = str(remove_redundancy)
    if crc_check:
        crc = 0
        for name, arr in tensors.items():
            crc = zlib.crc32(le_bytes(arr), zlib.crc32(name.encode('utf-8'), crc))
        metadata['crc_num'] = str(crc)
    return safetensors.numpy.save(tensors, metadata=metadata if tensors else None)


def decode(safetensors, data, wanted):
    """``(entries, metadata)`` from the bytes of a safetensors file (already known to be one).

    ``entries`` is ``[(name, ndarray, tensor_type)]`` sorted by name, for the names
    ``wanted(name)`` accepts (all if None); BF16 comes back as bfloat16, bit for bit. A
    ``crc_num`` in the metadata is checked. The library checks that the header's offsets tile
    the data.
    """
    try:
        stored = safetensors.deserialize(data)
    except Exception as e:
        raise BadFile(f"{UNREADABLE}: {e}") from e
    header_len = int.from_bytes(data[:8], 'little')
    metadata = json.loads(data[8:8 + header_len]).get('__metadata__') or {}
    stored = sorted(stored, key=lambda item: item[0])
    if 'crc_num' in metadata:
        crc = 0
        for name, info in stored:
            crc = zlib.crc32(info['data'], zlib.crc32(name.encode('utf-8'), crc))
        if str(crc) != metadata['crc_num']:
            raise BadFile("is corrupted: its tensors do not match the CRC32 in its metadata "
                          "('crc_num')")
    entries = []
    for name, info in stored:
        if wanted is not None and not wanted(name):
            continue
        tensor_type = _TYPES.get(info['dtype'])
        if metadata.get(name) == 'Int4' or tensor_type is None:
            kind = metadata.get(name) or info['dtype']
            raise BadFile(f"entry '{name}' has dtype {kind}, which hookgrad cannot load (its "
                          f"tensors hold {', '.join(NUMPY_TYPES)})")
        arr = from_le(info['data'], NUMPY_TYPES[tensor_type])
        entries.append((name, arr.reshape(info['shape']), tensor_type))
    return entries, metadata
