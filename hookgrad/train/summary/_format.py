"""MindSpore's summary files (what MindInsight reads): the ``Event`` schema and its records.

A summary file is TFRecord-framed (hookgrad/dataset/tfrecord_format.py); each record is a
serialized ``mindspore.irpb.Event`` (MindSpore's ``summary.proto``, proto2), built here with
protobuf's descriptor API in a private pool::

    message Event { required double wall_time = 1; optional int64 step = 2;
                    oneof what { string version = 3; Summary summary = 5; } }
    message Summary { repeated Value value = 1;
      message Value { required string tag = 1;
                      oneof value { float scalar_value = 3; Image image = 4;
                                    TensorProto tensor = 8; Histogram histogram = 9; } }
      message Image { required int32 height = 1, width = 2, colorspace = 3;
                      required bytes encoded_image = 4; }
      message Histogram { repeated bucket buckets = 1; int64 nan_count = 2;
                          int64 pos_inf_count = 3, neg_inf_count = 4;
                          double max = 5, min = 6, sum = 7; int64 count = 8;
        message bucket { required double left = 1, width = 2; required int64 count = 3; } } }
    message TensorProto { repeated int64 dims = 1; DataType data_type = 2;
                          repeated float float_data = 3 [packed]; ... }   // anf_ir.proto

(the graph, explain and loss-landscape fields of MindSpore's schema are left out: hookgrad
writes none of them, and a parse keeps them as unknown fields). The first record of a file is
an Event whose ``version`` is ``'MindSpore.Event:1'``; each ``SummaryRecord.record`` that has
values writes one Event with the step and every value in the order they were added (grouped by
plugin, the plugins in the order of their first value).
"""
import functools
import io
import platform
import struct
import time

import numpy as np

from ...dataset.crc32c import masked_crc32c
from ...dataset.tfrecord_format import split_records

__all__ = ['event_class', 'event_file_name', 'version_event', 'summary_event', 'frame',
           'read_events', 'histogram_bins', 'image_pixels', 'VERSION']

VERSION = 'MindSpore.Event:1'
FILE_MARK = '.out.events.summary.'
_F32_MAX = float(np.finfo(np.float32).max)

# anf_ir.proto's DataType numbers for the dtypes a tensor summary takes
_DATA_TYPES = {np.dtype(k): v for k, v in (
    ('bool', 1), ('int8', 2), ('int16', 3), ('int32', 4), ('int64', 5), ('uint8', 6),
    ('uint16', 7), ('uint32', 8), ('uint64', 9), ('float16', 10), ('float32', 11),
    ('float64', 12))}
_DATA_TYPE_NAMES = ("['np.bool_', 'np.int8', 'np.int16', 'np.int32', 'np.int64', 'np.uint8', "
                    "'np.uint16', 'np.uint32', 'np.uint64', 'np.float16', 'np.float32', "
                    "'np.float64']")


@functools.lru_cache(maxsize=None)
def event_class():
    """The ``mindspore.irpb.Event`` message class, built once on first use."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError as e:
        raise ImportError("MindSpore summary files need the 'protobuf' package, a dependency of "
                          "hookgrad that is missing here; install it with: "
                          "pip install protobuf") from e
    F = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name='hookgrad_ms_summary.proto',
                                               package='mindspore.irpb', syntax='proto2')
    req, opt, rep = F.LABEL_REQUIRED, F.LABEL_OPTIONAL, F.LABEL_REPEATED

    def message(name, fields, nested=(), oneof=None):
        msg = descriptor_pb2.DescriptorProto(name=name)
        msg.nested_type.extend(nested)
        if oneof:
            msg.oneof_decl.add(name=oneof[0])
        for field, number, label, kind, type_name in fields:
            f = msg.field.add(name=field, number=number, label=label, type=kind,
                              type_name=type_name)
            if field == 'float_data':       # packed in anf_ir.proto (dims is not)
                f.options.packed = True
            if oneof and field in oneof[1]:
                f.oneof_index = 0
        return msg

    dtype = descriptor_pb2.EnumDescriptorProto(name='DataType')
    dtype.value.add(name='DT_UNDEFINED', number=0)
    for np_type, number in _DATA_TYPES.items():
        dtype.value.add(name=f'DT_{np_type.name.upper()}', number=number)
    proto.enum_type.append(dtype)
    bucket = message('bucket', [('left', 1, req, F.TYPE_DOUBLE, None),
                                ('width', 2, req, F.TYPE_DOUBLE, None),
                                ('count', 3, req, F.TYPE_INT64, None)])
    histogram = message('Histogram', [
        ('buckets', 1, rep, F.TYPE_MESSAGE, '.mindspore.irpb.Summary.Histogram.bucket'),
        ('nan_count', 2, opt, F.TYPE_INT64, None), ('pos_inf_count', 3, opt, F.TYPE_INT64, None),
        ('neg_inf_count', 4, opt, F.TYPE_INT64, None), ('max', 5, opt, F.TYPE_DOUBLE, None),
        ('min', 6, opt, F.TYPE_DOUBLE, None), ('sum', 7, opt, F.TYPE_DOUBLE, None),
        ('count', 8, opt, F.TYPE_INT64, None)], nested=[bucket])
    image = message('Image', [('height', 1, req, F.TYPE_INT32, None),
                              ('width', 2, req, F.TYPE_INT32, None),
                              ('colorspace', 3, req, F.TYPE_INT32, None),
                              ('encoded_image', 4, req, F.TYPE_BYTES, None)])
    kinds = ('scalar_value', 'image', 'tensor', 'histogram')
    value = message('Value', [
        ('tag', 1, req, F.TYPE_STRING, None), ('scalar_value', 3, opt, F.TYPE_FLOAT, None),
        ('image', 4, opt, F.TYPE_MESSAGE, '.mindspore.irpb.Summary.Image'),
        ('tensor', 8, opt, F.TYPE_MESSAGE, '.mindspore.irpb.TensorProto'),
        ('histogram', 9, opt, F.TYPE_MESSAGE, '.mindspore.irpb.Summary.Histogram')],
        oneof=('value', kinds))
    proto.message_type.extend([
        message('TensorProto', [('dims', 1, rep, F.TYPE_INT64, None),
                                ('data_type', 2, opt, F.TYPE_ENUM, '.mindspore.irpb.DataType'),
                                ('float_data', 3, rep, F.TYPE_FLOAT, None)]),
        message('Summary', [('value', 1, rep, F.TYPE_MESSAGE, '.mindspore.irpb.Summary.Value')],
                nested=[image, histogram, value]),
        message('Event', [('wall_time', 1, req, F.TYPE_DOUBLE, None),
                          ('step', 2, opt, F.TYPE_INT64, None),
                          ('version', 3, opt, F.TYPE_STRING, None),
                          ('summary', 5, opt, F.TYPE_MESSAGE, '.mindspore.irpb.Summary')],
                oneof=('what', ('version', 'summary'))),
    ])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName('mindspore.irpb.Event'))


# ----------------------------------------------------------------- files and framing
def event_file_name(prefix, suffix, time_second, device_id=0):
    """``<prefix>.out.events.summary.<seconds>.<device id>.<host name><suffix>``."""
    return f'{prefix}{FILE_MARK}{time_second}.{device_id}.{platform.node()}{suffix}'


def frame(data):
    """One TFRecord-framed record of ``data``."""
    head = struct.pack('<Q', len(data))
    return head + struct.pack('<I', masked_crc32c(head)) + data + \
        struct.pack('<I', masked_crc32c(data))


def read_events(path):
    """The ``Event`` messages of summary file ``path``, CRCs checked (a list)."""
    event = event_class()
    with open(path, 'rb') as f:
        blob = f.read()
    out = []
    for data in split_records(blob, path):
        e = event()
        e.ParseFromString(data)
        out.append(e)
    return out


def version_event():
    """The serialized Event that opens a summary file."""
    e = event_class()(wall_time=time.time(), version=VERSION)
    return e.SerializeToString()


# ----------------------------------------------------------------- values
def summary_event(values, step, wall_time):
    """The serialized Event of ``[(plugin, tag, ndarray)]`` at ``step``."""
    e = event_class()(wall_time=wall_time, step=int(step))
    summary = e.summary
    for plugin, tag, value in values:
        v = summary.value.add(tag=tag)
        if plugin == 'scalar':
            if value.size == 0:
                del summary.value[-1]
                continue
            v.scalar_value = next(value.flat).item()
        elif plugin == 'tensor':
            _fill_tensor(value, v.tensor)
        elif plugin == 'histogram':
            _fill_histogram(value, v.histogram)
        elif plugin == 'image':
            image = image_pixels(value)
            if image is None:
                del summary.value[-1]
                continue
            v.image.height, v.image.width, v.image.colorspace = image.shape
            v.image.encoded_image = _png(image)
    return e.SerializeToString()


def _fill_tensor(value, tensor):
    number = _DATA_TYPES.get(value.dtype)
    if number is None:
        raise TypeError(f"Transform numpy type failed in Summary, expect numpy type is one of "
                        f"{_DATA_TYPE_NAMES}.")
    tensor.data_type = number
    tensor.float_data.extend(value.reshape(-1).tolist())
    tensor.dims.extend(value.shape)


def histogram_bins(count):
    """How many buckets a histogram of ``count`` finite values has: 1 for none, 2 up to 5,
    3 up to 10, ``count // 10 + 1`` up to 880 (about ten values a bucket), then 90."""
    if not count:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    return count // 10 + 1 if count <= 880 else 90


def _fill_histogram(value, hist):
    finite_mask = np.isfinite(value) if value.dtype.kind in 'fc' else np.ones(value.shape, bool)
    total, valid = value.size, int(np.count_nonzero(finite_mask))
    hist.count = total
    # each count is set (0 included); one is counted only while values are left unaccounted
    counts = []
    for test in (np.isnan, np.isposinf, np.isneginf):
        counts.append(int(np.count_nonzero(test(value))) if total - valid > sum(counts) else 0)
    hist.nan_count, hist.pos_inf_count, hist.neg_inf_count = counts
    if not valid:
        return
    finite = value[finite_mask]
    hist.min, hist.max = finite.min().item(), finite.max().item()
    hist.sum = float(np.sum(finite, dtype=np.float64))
    first, last = hist.min, hist.max
    if not first < last:
        first, last = first - 0.5, last + 0.5
    # the edges are in the value's dtype (an integer tensor's are truncated), counted over all
    # values (NaN and infinities fall in no bucket)
    edges = np.linspace(first, last, histogram_bins(valid) + 1, dtype=value.dtype)
    counts, edges = np.histogram(value, bins=edges)
    for count, left, right in zip(counts, edges, edges[1:]):
        hist.buckets.add(left=left, width=right - left, count=count)


def image_pixels(value, columns=8):
    """The HWC uint8 RGB canvas of NCHW images ``value`` (C 1 or 3), up to ``columns`` a row,
    as a summary stores it; None when ``value`` is not such images.

    The canvas starts at 0.0 (float64) and holds each image in turn; values all in [0, 1] are
    scaled by 255, any others are mapped as ``(x - min) * 255 / (max - min + 1)`` over the
    canvas (unless max == min); computed in float32, then truncated to uint8."""
    if value.ndim != 4 or value.shape[1] not in (1, 3) or 0 in value.shape:
        return None
    if value.shape[1] == 1:
        value = np.concatenate([value] * 3, 1)
    n, _, h, w = value.shape
    cols = min(n, columns)
    rows = -(-n // cols)
    canvas = np.zeros((3, h * rows, w * cols))
    for i in range(n):
        y, x = divmod(i, cols)
        canvas[:, y * h:(y + 1) * h, x * w:(x + 1) * w] = value[i]
    canvas = canvas.transpose(1, 2, 0)
    hi, lo = canvas.max(), canvas.min()
    scale, shift = 1, 0
    if hi <= 1 and lo >= 0:
        scale = 255
    else:
        if hi != lo:
            scale = 255 / (hi - lo + 1)
        shift = lo
    # in float32 throughout (the shift and scale rounded to float32), as MindSpore's NumPy 1.x
    # computes a float32 array with float64 scalars
    return ((canvas.astype(np.float32) - np.float32(shift)) * np.float32(scale)).astype(np.uint8)


def _png(pixels):
    from PIL import Image
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format='PNG')
    return out.getvalue()
