"""hookgrad's MindRecord shard files: one safetensors file per shard (see docs/data.md).

Each schema field is stored column-wise, under tensor names built from the field name (which
holds only ``[0-9A-Za-z_]``, so the ``.`` suffixes cannot clash):

* numeric field of fixed shape (or a scalar): ``<name>`` of shape ``(rows, *shape)``;
* numeric field with a -1 in its shape: ``<name>.data`` (all rows' elements, flat),
  ``<name>.offsets`` (int64, rows + 1 element offsets) and ``<name>.shape`` (int64, rows x ndim);
* ``string`` (UTF-8) and ``bytes`` fields: ``<name>.data`` (uint8) and ``<name>.offsets``.

The safetensors metadata holds ``format`` ("hookgrad.mindrecord"), ``version``, ``schema`` and
``index_fields`` (JSON), ``desc``, ``shard_id``, ``shard_files`` (JSON list of the shard file
names, in order) and ``rows``.
"""
import json
import os
import re
import struct

import numpy as np

from .exceptions import MRMInvalidSchemaError

FORMAT = 'hookgrad.mindrecord'
VERSION = '1'
NUMERIC = {'int32': np.int32, 'int64': np.int64, 'float32': np.float32, 'float64': np.float64}
TYPES = tuple(NUMERIC) + ('string', 'bytes')
_NAME = re.compile(r'^[0-9A-Za-z_]+$')


def check_schema(content):
    """Validate a MindSpore schema dict ``{field: {'type': ..., 'shape': [...]}}``."""
    if not isinstance(content, dict):
        raise MRMInvalidSchemaError("Schema content should be dict.")
    if not content:
        raise MRMInvalidSchemaError("Schema content is empty.")
    for name, field in content.items():
        if not isinstance(name, str) or not _NAME.match(name):
            raise MRMInvalidSchemaError(f"Field '{name}' should be composed of '0-9' or 'a-z' "
                                        f"or 'A-Z' or '_'.")
        if not isinstance(field, dict) or 'type' not in field or \
                set(field) - {'type', 'shape'}:
            raise MRMInvalidSchemaError(f"Field '{field}' contains illegal attributes: a field "
                                        f"is {{'type': ..., 'shape': [...]}}.")
        kind = field['type']
        if kind not in TYPES:
            raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute '{kind}'; "
                                        f"the types are {list(TYPES)}.")
        if 'shape' in field:
            shape = field['shape']
            if kind not in NUMERIC:
                raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute "
                                            f"'{kind}': a {kind} field has no shape.")
            if not isinstance(shape, list) or not shape or not all(
                    isinstance(d, int) and not isinstance(d, bool) and (d > 0 or d == -1)
                    for d in shape) or shape.count(-1) > 1:
                raise MRMInvalidSchemaError(f"Field '{name}' has shape {shape!r}: a shape is a "
                                            f"non-empty list of positive ints with at most "
                                            f"one -1.")


def check_value(name, field, value, row):
    """The value of ``field`` in a row to write, as an array (or str/bytes), or an error."""
    kind, shape = field['type'], field.get('shape')

    def bad(expected):
        got = f"{value.dtype} array of shape {value.shape}" if isinstance(value, np.ndarray) \
            else type(value).__name__
        return RuntimeError(f"FileWriter.write_raw_data: row {row}, field '{name}': expected "
                            f"{expected}, got {got}")
    if kind == 'string':
        if not isinstance(value, str):
            raise bad('a str')
        return value.encode('utf-8')
    if kind == 'bytes':
        if not isinstance(value, (bytes, bytearray)):
            raise bad('bytes')
        return bytes(value)
    dtype = np.dtype(NUMERIC[kind])
    if shape is None:
        ok = isinstance(value, (int, np.integer)) if dtype.kind == 'i' else \
            isinstance(value, (int, float, np.integer, np.floating))
        if not ok or isinstance(value, bool):
            raise bad(f"a{'n' if kind.startswith('i') else ''} {kind} scalar")
        if dtype.kind == 'i' and not np.iinfo(dtype).min <= value <= np.iinfo(dtype).max:
            raise bad(f"an {kind} in range")
        return np.asarray(value, dtype)
    if not isinstance(value, np.ndarray) or value.dtype != dtype or value.ndim != len(shape) \
            or any(d != -1 and d != s for d, s in zip(shape, value.shape)):
        raise bad(f"a {kind} array of shape {shape}")
    return value


def _encode(name, field, values):
    """The tensors storing one field's values (already checked) of a shard's rows."""
    kind, shape = field['type'], field.get('shape')
    if kind in ('string', 'bytes'):
        lengths = [len(v) for v in values]
        data = np.frombuffer(b''.join(values), np.uint8).copy()
        return {f"{name}.data": data, f"{name}.offsets": _offsets(lengths)}
    dtype = NUMERIC[kind]
    if shape is None or -1 not in shape:
        full = () if shape is None else tuple(shape)
        return {name: np.asarray(values, dtype).reshape((len(values),) + full)}
    flat = [np.ravel(v) for v in values]
    data = np.concatenate(flat).astype(dtype, copy=False) if flat else np.zeros(0, dtype)
    shapes = np.array([v.shape for v in values], np.int64).reshape(len(values), len(shape))
    return {f"{name}.data": data, f"{name}.offsets": _offsets([f.size for f in flat]),
            f"{name}.shape": shapes}


def _offsets(lengths):
    out = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=out[1:])
    return out


def write_shard(path, schema, desc, index_fields, rows, shard_id, shard_files):
    """Write one shard file of ``rows`` (a list of dicts of checked values)."""
    from safetensors.numpy import save_file
    tensors = {}
    for name, field in schema.items():
        tensors.update(_encode(name, field, [r[name] for r in rows]))
    meta = {'format': FORMAT, 'version': VERSION, 'schema': json.dumps(schema),
            'index_fields': json.dumps(index_fields), 'desc': desc or '',
            'shard_id': str(shard_id), 'shard_files': json.dumps(shard_files),
            'rows': str(len(rows))}
    save_file(tensors, path, metadata=meta)


class Column:
    """One field's values over the rows of one or more shards; ``column[i]`` is row ``i``."""

    def __init__(self, field, tensors):
        self.kind, self.shape = field['type'], field.get('shape')
        self.data = tensors.get('data')
        self.offsets = tensors.get('offsets')
        self.shapes = tensors.get('shape')

    @classmethod
    def concat(cls, field, parts):
        """One column from per-shard tensor dicts (keys '', 'data', 'offsets', 'shape')."""
        if 'data' not in parts[0]:
            return cls(field, {'data': np.concatenate([p[''] for p in parts])})
        lengths = np.concatenate([np.diff(p['offsets']) for p in parts])
        joined = {'data': np.concatenate([p['data'] for p in parts]),
                  'offsets': _offsets(lengths)}
        if 'shape' in parts[0]:
            joined['shape'] = np.concatenate([p['shape'] for p in parts])
        return cls(field, joined)

    def __getitem__(self, i):
        if self.offsets is None:
            return np.asarray(self.data[i])
        chunk = self.data[self.offsets[i]:self.offsets[i + 1]]
        if self.kind == 'string':
            return np.array(chunk.tobytes().decode('utf-8'))
        if self.kind == 'bytes':
            return np.array([chunk.tobytes()])          # MindSpore: a (1,) bytes array
        return chunk.reshape(self.shapes[i])


def _mindspore_header(path):
    """True when ``path`` starts like a file of MindSpore's own MindRecord format."""
    try:
        with open(path, 'rb') as f:
            (n,) = struct.unpack('<Q', f.read(8))
            head = json.loads(f.read(min(n, 1 << 24)))
        return isinstance(head, dict) and 'header_size' in head and 'page_size' in head
    except (OSError, ValueError, struct.error):
        return False


def not_ours(path, who, reason):
    """The error for a file that is not a hookgrad MindRecord shard."""
    kind = "a file of MindSpore's own MindRecord format" if _mindspore_header(path) else \
        f"not a hookgrad MindRecord file ({reason})"
    return RuntimeError(f"{who}: {path} is {kind}. hookgrad's FileWriter and "
                        f"MindDataset use hookgrad's own MindRecord format (one safetensors file "
                        f"per shard, described in docs/data.md), not MindSpore's binary format; "
                        f"write the data again with hookgrad.mindrecord.FileWriter")


def open_shard(path, who):
    """``(meta, tensors)`` of a shard file: its parsed metadata and ``{name: array}``."""
    from safetensors import SafetensorError, safe_open
    if not os.path.isfile(path):
        raise ValueError(f"{who}: the file {path} does not exist or permission denied!")
    try:
        with safe_open(path, framework='np') as f:
            meta = f.metadata() or {}
            if meta.get('format') != FORMAT:
                raise not_ours(path, who, "a safetensors file without hookgrad's MindRecord "
                                          "metadata")
            tensors = {k: f.get_tensor(k) for k in f.keys()}
    except SafetensorError as e:
        raise not_ours(path, who, str(e)) from None
    parsed = {'schema': json.loads(meta['schema']), 'desc': meta['desc'],
              'index_fields': json.loads(meta['index_fields']),
              'shard_id': int(meta['shard_id']), 'rows': int(meta['rows']),
              'shard_files': json.loads(meta['shard_files'])}
    return parsed, tensors


def field_parts(name, tensors):
    """The tensors of field ``name`` keyed '', 'data', 'offsets', 'shape'."""
    if name in tensors:
        return {'': tensors[name]}
    return {k: tensors[f"{name}.{k}"] for k in ('data', 'offsets', 'shape')
            if f"{name}.{k}" in tensors}


def read_shards(paths, who):
    """``(schema, columns, rows, metas)`` of the shard files ``paths``, read in order.

    A single path stands for its whole set of shards (the files listed in its metadata, in
    the same folder), as MindSpore's ``MindDataset`` and ``FileReader`` do.
    """
    if isinstance(paths, str):
        meta, _ = open_shard(paths, who)
        folder = os.path.dirname(paths)
        paths = [os.path.join(folder, f) for f in meta['shard_files']]
    opened = [open_shard(p, who) for p in paths]
    schema = opened[0][0]['schema']
    for p, (meta, _) in zip(paths, opened):
        if meta['schema'] != schema:
            raise RuntimeError(f"{who}: {p} has schema {meta['schema']}, but {paths[0]} has "
                               f"{schema}; the files of one dataset share one schema")
    columns = {name: Column.concat(field, [field_parts(name, t) for _, t in opened])
               for name, field in schema.items()}
    return schema, columns, sum(m['rows'] for m, _ in opened), [m for m, _ in opened]
