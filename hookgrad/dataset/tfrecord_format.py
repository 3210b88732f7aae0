"""TFRecord files and ``tf.train.Example`` messages, without TensorFlow.

A TFRecord file is a run of records, each framed as::

    uint64 length | uint32 masked CRC32C of those 8 bytes | data | uint32 masked CRC32C of data

(little-endian). The data of a record in a dataset file is a serialized ``Example``, whose
schema (TensorFlow's ``example.proto`` and ``feature.proto``) is built here with protobuf's
descriptor API in a private pool::

    message BytesList { repeated bytes value = 1; }
    message FloatList { repeated float value = 1 [packed = true]; }
    message Int64List { repeated int64 value = 1 [packed = true]; }
    message Feature { oneof kind { BytesList bytes_list = 1; FloatList float_list = 2;
                                   Int64List int64_list = 3; } }
    message Features { map<string, Feature> feature = 1; }
    message Example { Features features = 1; }
"""
import functools
import struct

import numpy as np

from .crc32c import masked_crc32c

__all__ = ['example_class', 'read_records', 'split_records', 'write_records', 'encode_example',
           'decode_example', 'BadRecord']


class BadRecord(RuntimeError):
    """A TFRecord file that is truncated or fails its CRC check; the message says where."""


@functools.lru_cache(maxsize=None)
def example_class():
    """The ``tensorflow.Example`` message class, built once on first use."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError as e:
        raise ImportError("TFRecord files need the 'protobuf' package, a dependency of hookgrad "
                          "that is missing here; install it with: pip install protobuf") from e
    F = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name='hookgrad_tf_example.proto',
                                               package='tensorflow', syntax='proto3')

    def message(name, *fields, nested=()):
        msg = proto.message_type.add(name=name)
        msg.nested_type.extend(nested)
        for number, (field, label, kind, type_name) in enumerate(fields, 1):
            msg.field.add(name=field, number=number, label=label, type=kind,
                          type_name=type_name, json_name=field)
        return msg

    message('BytesList', ('value', F.LABEL_REPEATED, F.TYPE_BYTES, None))
    message('FloatList', ('value', F.LABEL_REPEATED, F.TYPE_FLOAT, None))
    message('Int64List', ('value', F.LABEL_REPEATED, F.TYPE_INT64, None))
    feature = message('Feature', ('bytes_list', F.LABEL_OPTIONAL, F.TYPE_MESSAGE,
                                  '.tensorflow.BytesList'),
                      ('float_list', F.LABEL_OPTIONAL, F.TYPE_MESSAGE, '.tensorflow.FloatList'),
                      ('int64_list', F.LABEL_OPTIONAL, F.TYPE_MESSAGE, '.tensorflow.Int64List'))
    feature.oneof_decl.add(name='kind')
    for f in feature.field:
        f.oneof_index = 0
    entry = descriptor_pb2.DescriptorProto(name='FeatureEntry')
    entry.options.map_entry = True
    entry.field.add(name='key', number=1, label=F.LABEL_OPTIONAL, type=F.TYPE_STRING,
                    json_name='key')
    entry.field.add(name='value', number=2, label=F.LABEL_OPTIONAL, type=F.TYPE_MESSAGE,
                    type_name='.tensorflow.Feature', json_name='value')
    message('Features', ('feature', F.LABEL_REPEATED, F.TYPE_MESSAGE,
                         '.tensorflow.Features.FeatureEntry'), nested=[entry])
    message('Example', ('features', F.LABEL_OPTIONAL, F.TYPE_MESSAGE, '.tensorflow.Features'))
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName('tensorflow.Example'))


# ----------------------------------------------------------------- record framing
def read_records(path):
    """The data of each record of the TFRecord file ``path``, CRCs checked (a generator)."""
    with open(path, 'rb') as f:
        blob = f.read()
    return split_records(blob, path)


def split_records(blob, path):
    """The data of each record of ``blob``, the bytes of TFRecord file ``path``."""
    pos, n, k = 0, len(blob), 0
    while pos < n:
        if pos + 12 > n:
            raise BadRecord(f"{path}: record {k} is truncated (its header needs 12 bytes, "
                            f"{n - pos} left)")
        head = blob[pos:pos + 8]
        (length,) = struct.unpack('<Q', head)
        (head_crc,) = struct.unpack('<I', blob[pos + 8:pos + 12])
        if masked_crc32c(head) != head_crc:
            raise BadRecord(f"{path}: record {k} at byte {pos} fails its length CRC check; the "
                            f"file is corrupted or not a TFRecord file")
        start, end = pos + 12, pos + 12 + length
        if end + 4 > n:
            raise BadRecord(f"{path}: record {k} is truncated ({length} data bytes and a CRC "
                            f"announced, {n - start} left)")
        data = blob[start:end]
        (data_crc,) = struct.unpack('<I', blob[end:end + 4])
        if masked_crc32c(data) != data_crc:
            raise BadRecord(f"{path}: record {k} at byte {pos} fails its data CRC check; the "
                            f"file is corrupted")
        yield data
        pos, k = end + 4, k + 1


def write_records(path, records):
    """Write the byte strings ``records`` as a TFRecord file."""
    with open(path, 'wb') as f:
        for data in records:
            head = struct.pack('<Q', len(data))
            f.write(head + struct.pack('<I', masked_crc32c(head)) + data
                    + struct.pack('<I', masked_crc32c(data)))


# ----------------------------------------------------------------- Example messages
def encode_example(features):
    """A serialized ``Example`` of ``{name: values}``: ints become an Int64List, floats a
    FloatList, bytes/str a BytesList (a scalar is a list of one)."""
    example = example_class()()
    for name, values in features.items():
        arr = np.asarray(values)
        feature = example.features.feature[name]
        if arr.dtype.kind in 'SUO':
            items = [v.encode('utf-8') if isinstance(v, str) else bytes(v)
                     for v in arr.ravel().tolist()]
            feature.bytes_list.value.extend(items)
        elif arr.dtype.kind in 'iub':
            feature.int64_list.value.extend(arr.astype(np.int64).ravel().tolist())
        elif arr.dtype.kind in 'fV':
            feature.float_list.value.extend(arr.astype(np.float32).ravel().tolist())
        else:
            raise TypeError(f"encode_example: feature '{name}' has dtype {arr.dtype}; give ints, "
                            f"floats, bytes or str")
    return example.SerializeToString()


def decode_example(data):
    """``{name: (kind, values)}`` of a serialized ``Example``: kind 'int64' (an int64 array),
    'float' (float32 array) or 'bytes' (a list of bytes)."""
    example = example_class()()
    try:
        example.ParseFromString(data)
    except Exception as e:          # protobuf's DecodeError
        raise BadRecord(f"a record is not a tf.train.Example message: {e}") from None
    out = {}
    for name, feature in example.features.feature.items():
        kind = feature.WhichOneof('kind')
        if kind == 'int64_list':
            out[name] = ('int64', np.array(feature.int64_list.value, np.int64))
        elif kind == 'float_list':
            out[name] = ('float', np.array(feature.float_list.value, np.float32))
        elif kind == 'bytes_list':
            out[name] = ('bytes', list(feature.bytes_list.value))
        else:
            out[name] = (None, None)
    return out
