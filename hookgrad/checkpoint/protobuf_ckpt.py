"""MindSpore's protobuf ``.ckpt`` files: the ``Checkpoint`` schema, encoding and decoding.

The schema is MindSpore's ``checkpoint.proto``, built here with protobuf's descriptor API in a
private descriptor pool (so it never clashes with MindSpore's own module in one process)::

    message Checkpoint { message Value { required string tag = 1;
                                         oneof value { TensorProto tensor = 2;
                                                       MapTensorProto maptensor = 3; } }
                         repeated Value value = 1; }
    message TensorProto { repeated int64 dims = 1; required string tensor_type = 2;
                          required bytes tensor_content = 3; }
    message MapTensorProto { repeated TensorProto tensor = 1; }

MindSpore writes one serialized ``Checkpoint`` per entry (a tensor over 512 MiB as several,
with the same tag, whose contents join), one after another: their concatenation is one valid
``Checkpoint``. With ``crc_check`` it appends ``b'crc_num'`` and the CRC32 of everything before
it as 10 big-endian bytes. A str entry is ``dims [0]``, ``tensor_type 'str'`` and the text as
NumPy's UTF-32 bytes. See docs/checkpoints.md.
"""
import functools
import zlib

import numpy as np

from .._dtype import BFLOAT16 as _BF16

__all__ = ['schema', 'encode', 'decode', 'BadFile']

CRC_MARK = b'crc_num'
_CRC_TRAILER = len(CRC_MARK) + 10
UNREADABLE = "is not a readable checkpoint (corrupted, truncated or another format)"
CHUNK_BYTES = 512 * 1024 * 1024     # MindSpore's SLICE_SIZE: one message per 512 MiB

# tensor_type -> little-endian NumPy dtype, for the types a hookgrad tensor holds; BFloat16 is
# ml_dtypes' bfloat16 (native order: from_le and le_bytes go through its 16 bits)
NUMPY_TYPES = {name: np.dtype(code) for name, code in (
    ('Float16', '<f2'), ('Float32', '<f4'), ('Float64', '<f8'), ('BFloat16', _BF16),
    ('Int8', 'i1'), ('Int16', '<i2'), ('Int32', '<i4'), ('Int64', '<i8'), ('UInt8', 'u1'),
    ('UInt16', '<u2'), ('UInt32', '<u4'), ('UInt64', '<u8'), ('Bool', '?'),
    ('Complex64', '<c8'), ('Complex128', '<c16'))}
_REFUSED = {
    'Int4': "NumPy, which holds hookgrad tensors, has no 4-bit integers",
}


@functools.lru_cache(maxsize=None)
def schema():
    """``(Checkpoint, UnknownFieldSet)``: the message class, built once on first use."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError as e:
        raise ImportError("MindSpore .ckpt files need the 'protobuf' package, a dependency of "
                          "hookgrad that is missing here; install it with: "
                          "pip install protobuf") from e
    try:
        from google.protobuf.unknown_fields import UnknownFieldSet
    except ImportError:                 # protobuf before 4.22: the message method
        def UnknownFieldSet(message):
            return message.UnknownFields()
    F = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name='checkpoint.proto', syntax='proto2')

    def message(name, *fields, nested=()):
        msg = descriptor_pb2.DescriptorProto(name=name)
        msg.nested_type.extend(nested)
        for number, (field, label, kind, type_name) in enumerate(fields, 1):
            msg.field.add(name=field, number=number, label=label, type=kind,
                          type_name=type_name)
        return msg

    value = message('Value', ('tag', F.LABEL_REQUIRED, F.TYPE_STRING, None),
                    ('tensor', F.LABEL_OPTIONAL, F.TYPE_MESSAGE, '.TensorProto'),
                    ('maptensor', F.LABEL_OPTIONAL, F.TYPE_MESSAGE, '.MapTensorProto'))
    value.oneof_decl.add(name='value')
    value.field[1].oneof_index = value.field[2].oneof_index = 0
    proto.message_type.extend([
        message('Checkpoint', ('value', F.LABEL_REPEATED, F.TYPE_MESSAGE, '.Checkpoint.Value'),
                nested=[value]),
        message('TensorProto', ('dims', F.LABEL_REPEATED, F.TYPE_INT64, None),
                ('tensor_type', F.LABEL_REQUIRED, F.TYPE_STRING, None),
                ('tensor_content', F.LABEL_REQUIRED, F.TYPE_BYTES, None)),
        message('MapTensorProto', ('tensor', F.LABEL_REPEATED, F.TYPE_MESSAGE, '.TensorProto')),
    ])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    checkpoint = message_factory.GetMessageClass(pool.FindMessageTypeByName('Checkpoint'))
    return checkpoint, UnknownFieldSet


# ----------------------------------------------------------------- encode
def encode(entries, crc_check):
    """The bytes of a MindSpore ``.ckpt`` file for ``[(name, ndarray | str, dtype_name)]``."""
    checkpoint, _ = schema()
    parts = []
    for name, value, dtype_name in entries:
        if isinstance(value, str):
            dims, dtype_name, content = [0], 'str', _str_bytes(value)
        else:
            dims = list(value.shape)
            content = le_bytes(value)
        view = memoryview(content)
        for start in range(0, max(len(content), 1), CHUNK_BYTES):
            message = checkpoint()
            entry = message.value.add()
            entry.tag = name
            entry.tensor.dims.extend(dims)
            entry.tensor.tensor_type = dtype_name
            entry.tensor.tensor_content = bytes(view[start:start + CHUNK_BYTES])
            parts.append(message.SerializeToString())
    payload = b''.join(parts)
    if crc_check:
        payload += CRC_MARK + zlib.crc32(payload).to_bytes(10, 'big')
    return payload


def le_bytes(arr):
    """The array's elements as little-endian bytes, in C order (bfloat16 as its 16 bits)."""
    if arr.dtype == _BF16:
        arr = arr.view(np.uint16)
    return arr.astype(arr.dtype.newbyteorder('<'), copy=False).tobytes()


def from_le(content, dtype):
    """A read-only 1-D array of ``dtype`` over little-endian bytes (bfloat16 via its bits)."""
    if dtype == _BF16:
        return np.frombuffer(content, '<u2').astype(np.uint16, copy=False).view(_BF16)
    return np.frombuffer(content, dtype)


def _str_bytes(text):
    """A str as MindSpore stores it: ``np.array(text).tobytes()`` (UTF-32, little-endian)."""
    arr = np.array(text)
    return arr.astype(arr.dtype.newbyteorder('<')).tobytes()


# ----------------------------------------------------------------- decode
class BadFile(ValueError):
    """The file is not a well-formed MindSpore checkpoint; the message says why."""


def decode(data, wanted):
    """``(entries, has_crc)`` from the bytes of a ``.ckpt`` file.

    ``entries`` is ``[(name, ndarray | str, tensor_type)]`` in file order for the names
    ``wanted(name)`` accepts (all if None); BFloat16 arrays come back as bfloat16 (ml_dtypes'
    type), bit for bit. ``has_crc`` tells whether the file carried a CRC32 (checked here: a
    mismatch is an error). Sizes are checked against the bytes present before any array is
    made. Raises BadFile.
    """
    checkpoint, unknown_fields = schema()
    has_crc = len(data) >= _CRC_TRAILER and data[-_CRC_TRAILER:-10] == CRC_MARK
    if has_crc:
        saved = int.from_bytes(data[-10:], 'big')
        data = data[:-_CRC_TRAILER]
        if zlib.crc32(data) != saved:
            raise BadFile("is corrupted: its content does not match the CRC32 it carries")
    message = checkpoint()
    try:
        message.ParseFromString(data)
    except Exception as e:         # DecodeError; other protobuf backends raise other types
        raise BadFile(f"{UNREADABLE}: it is not a safetensors file, and protobuf cannot parse "
                      f"it as MindSpore's Checkpoint message ({e})") from e
    parts = [message] + [v for v in message.value] + [v.tensor for v in message.value]
    if any(len(unknown_fields(part)) for part in parts):
        raise BadFile(f"{UNREADABLE}: it holds protobuf fields that MindSpore's Checkpoint "
                      f"message does not have (or fields of the wrong wire type)")
    if not message.IsInitialized():
        raise BadFile(f"{UNREADABLE}: it lacks fields MindSpore's Checkpoint message requires "
                      f"({', '.join(message.FindInitializationErrors())})")
    return _join(message.value, wanted), has_crc


def _join(values, wanted):
    """Join the chunks of each entry (consecutive values with one tag) and decode them."""
    entries, seen, i = [], set(), 0
    while i < len(values):
        first = values[i]
        j = i + 1
        while j < len(values) and values[j].tag == first.tag:
            j += 1
        name = first.tag
        if name in seen:
            raise BadFile(f"holds the entry '{name}' twice")
        seen.add(name)
        if first.WhichOneof('value') != 'tensor':
            raise BadFile(f"entry '{name}' is a MindSpore MapParameter (or has no tensor); "
                          f"hookgrad has no MapParameter and cannot load it")
        chunks = [v.tensor for v in values[i:j]]
        i = j
        if wanted is not None and not wanted(name):
            continue
        entries.append((name, _value(name, chunks), first.tensor.tensor_type))
    return entries


def _value(name, chunks):
    """The ndarray (or str) of one entry from its chunks."""
    head = chunks[0]
    dims, tensor_type = list(head.dims), head.tensor_type
    for chunk in chunks[1:]:
        if list(chunk.dims) != dims or chunk.tensor_type != tensor_type:
            raise BadFile(f"entry '{name}' is split into parts of different shapes or types")
    content = chunks[0].tensor_content if len(chunks) == 1 else \
        b''.join(c.tensor_content for c in chunks)
    if tensor_type == 'str':
        return _text(name, chunks[-1].tensor_content)
    if tensor_type in NUMPY_TYPES:
        dtype = NUMPY_TYPES[tensor_type]
    elif tensor_type in _REFUSED:
        raise BadFile(f"entry '{name}' has tensor_type '{tensor_type}', which hookgrad cannot "
                      f"load: {_REFUSED[tensor_type]}")
    else:
        raise BadFile(f"entry '{name}' has an unknown tensor_type {tensor_type!r}")
    if any(d < 0 for d in dims):
        raise BadFile(f"entry '{name}' has a negative dimension in its shape {tuple(dims)}")
    if dims == [0] and len(content) == dtype.itemsize:
        dims = []                   # MindSpore reads dims [0] as a scalar
    need = dtype.itemsize * int(np.prod(dims, dtype=object))
    if need != len(content):
        raise BadFile(f"entry '{name}' declares shape {tuple(dims)} of {tensor_type} "
                      f"({need} bytes) but holds {len(content)} bytes")
    return from_le(content, dtype).reshape(dims)


def _text(name, content):
    """A str entry: UTF-32 little-endian, NumPy's trailing NULs dropped (as MindSpore reads)."""
    try:
        return content.decode('utf-32-le').rstrip('\0')
    except UnicodeDecodeError as e:
        raise BadFile(f"str entry '{name}' is not valid UTF-32 text: {e}") from e
