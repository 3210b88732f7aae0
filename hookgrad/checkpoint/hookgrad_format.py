"""hookgrad's own checkpoint files, from before hookgrad wrote MindSpore's formats: still read.

A safetensors file whose metadata says ``format: hookgrad.checkpoint`` and lists the entries
(dtype, shape, ``requires_grad``, a CRC32 each) with a CRC32 of the metadata itself (version
2; version 1 has none). ``encode`` writes one, for tests and for converting old files by hand.
See docs/checkpoints.md.
"""
import json

from .. import _dtype
from ..nn.parameter import Parameter
from .durable import crc32, metadata_crc32
from .protobuf_ckpt import from_le

__all__ = ['FORMAT', 'encode', 'read']

FORMAT = 'hookgrad.checkpoint'
VERSION = '2'           # 2: shapes in the records and a CRC32 of the metadata ('crc32')
_VERSIONS = ('1', '2')  # version 1 files (no metadata CRC32) still load


def encode(safetensors, entries):
    """The bytes of a hookgrad checkpoint for ``[(name, Tensor | str, requires_grad)]``."""
    tensors, records = {}, []
    for name, value, requires_grad in entries:
        if isinstance(value, str):
            records.append({'name': name, 'kind': 'str', 'value': value})
            continue
        arr = value.asnumpy()
        if not arr.flags.c_contiguous:
            arr = arr.copy(order='C')
        tensors[name] = arr
        records.append({'name': name, 'kind': 'tensor', 'dtype': value.dtype.name,
                        'shape': list(arr.shape), 'requires_grad': requires_grad,
                        'crc32': crc32(arr)})
    text = json.dumps(records)
    metadata = {'format': FORMAT, 'version': VERSION, 'entries': text,
                'crc32': str(metadata_crc32(FORMAT, VERSION, text))}
    return safetensors.numpy.save(tensors, metadata=metadata)


def is_hookgrad(metadata):
    """Whether safetensors metadata is a hookgrad checkpoint's: its ``format``, or its
    ``entries`` list when a damaged ``format`` (which the metadata CRC32 covers) hides it."""
    return metadata.get('format') == FORMAT or 'entries' in metadata


def read(handle, library_call, path, wanted, data):
    """``{name: Parameter | str}`` from an open ``safe_open`` handle of a hookgrad checkpoint
    and the file's bytes ``data``, for the names ``wanted(name)`` accepts (all if None)."""
    records = _read_records(library_call(handle.metadata, path),
                            set(library_call(handle.keys, path)), path)
    n = int.from_bytes(data[:8], 'little')      # safe_open has checked the header
    header = json.loads(data[8:8 + n])
    parameter_dict = {}
    for rec in records:
        name = rec['name']
        if wanted is not None and not wanted(name):
            continue
        if rec['kind'] == 'str':
            parameter_dict[name] = rec['value']
        elif header[name]['dtype'] == 'BF16':   # the library's NumPy API has no bfloat16
            start, end = header[name]['data_offsets']
            arr = from_le(data[8 + n + start:8 + n + end], _dtype.BFLOAT16)
            parameter_dict[name] = _restore(arr.reshape(header[name]['shape']), rec, path)
        else:
            arr = library_call(lambda: handle.get_tensor(name), path)
            parameter_dict[name] = _restore(arr, rec, path)
    return parameter_dict


def _read_records(metadata, tensor_names, path):
    """The entry records of a checkpoint's metadata, checked against the file's tensors."""
    def bad(what):
        return ValueError(f"load_checkpoint: '{path}' {what}")

    version = metadata.get('version')
    if metadata.get('format') != FORMAT:
        raise bad(f"has corrupted metadata (it lists hookgrad checkpoint entries but its "
                  f"'format' is {metadata.get('format')!r}, not {FORMAT!r})")
    if version not in _VERSIONS:
        raise bad(f"has checkpoint format version {version!r}; this hookgrad reads versions "
                  f"{', '.join(map(repr, _VERSIONS))}")
    entries = metadata.get('entries', '')
    if version != '1':
        saved = metadata.get('crc32')
        if not (isinstance(saved, str) and saved.isdigit()
                and int(saved) == metadata_crc32(FORMAT, version, entries)):
            raise bad("has corrupted metadata (its entry names, dtypes, shapes or append_dict "
                      "values do not match the metadata CRC32)")
    try:
        records = json.loads(entries)
    except ValueError as e:
        raise bad(f"has corrupted metadata (its entry list is not valid JSON: {e})") from e
    if not isinstance(records, list) or not all(_valid_record(r) for r in records):
        raise bad("has corrupted metadata (malformed entry list)")
    if len({r['name'] for r in records}) != len(records):
        raise bad("has corrupted metadata (an entry name appears twice)")
    listed = [r['name'] for r in records if r['kind'] == 'tensor']
    if set(listed) != tensor_names:
        raise bad(f"has metadata listing tensors {sorted(listed)} but holds "
                  f"{sorted(tensor_names)}")
    return records


def _valid_record(r):
    if not isinstance(r, dict) or not isinstance(r.get('name'), str):
        return False
    if r.get('kind') == 'str':
        return isinstance(r.get('value'), str)
    shape = r.get('shape', [])          # version 1 records have no shape
    return (r.get('kind') == 'tensor' and isinstance(r.get('dtype'), str)
            and isinstance(r.get('requires_grad'), bool) and isinstance(r.get('crc32'), int)
            and isinstance(shape, list) and all(type(d) is int for d in shape))


def _restore(arr, rec, path):
    """A Parameter from a stored array, after checking its dtype and CRC32 against ``rec``."""
    name = rec['name']
    try:
        dtype = _dtype.to_dtype(rec['dtype'])
    except TypeError:
        dtype = None
    if dtype is None or dtype.np_dtype != arr.dtype:
        raise ValueError(f"load_checkpoint: '{path}' entry '{name}' is stored as {arr.dtype} "
                         f"but its metadata says {rec['dtype']!r}")
    if 'shape' in rec and tuple(rec['shape']) != arr.shape:
        raise ValueError(f"load_checkpoint: '{path}' entry '{name}' is stored with shape "
                         f"{arr.shape} but its metadata says {tuple(rec['shape'])}")
    if crc32(arr) != rec['crc32']:
        raise ValueError(f"load_checkpoint: '{path}' entry '{name}' is corrupted (its data "
                         f"does not match the saved CRC32)")
    return Parameter(arr, name=name, requires_grad=rec['requires_grad'])
