"""save_checkpoint and load_checkpoint (MindSpore's names): the checkpoint file format.

Files are safetensors files (a format whose loading runs no code) named ``*.ckpt``; the hookgrad
dtype, shape, ``requires_grad`` flag and a CRC32 of every entry travel in the safetensors
metadata, with a CRC32 of the metadata itself. Writing and the checksums live in durable.py.
They are not MindSpore's protobuf checkpoints: see docs/checkpoints.md. ``safetensors`` is a
dependency of hookgrad, imported on first use.
"""
import functools
import json
import numbers
import os

from .. import _dtype
from .._tensor import Tensor
from .durable import crc32 as _crc32, metadata_crc32, write_atomic as _write_atomic
from .network import check_bool as _check_bool, load_param_into_net
from ..nn.cell import Cell
from ..nn.parameter import Parameter

__all__ = ['save_checkpoint', 'load_checkpoint']

FORMAT = 'hookgrad.checkpoint'
VERSION = '2'           # 2: shapes in the records and a CRC32 of the metadata ('crc32')
_VERSIONS = ('1', '2')  # version 1 files (no metadata CRC32) still load
_SUFFIX = '.ckpt'
_RESERVED = '__metadata__'          # the safetensors header's own key
_SAVE_KWARGS = ('incremental',)     # MindSpore's kwargs (MapParameter export: none here)


# ----------------------------------------------------------------- save
def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode='AES-GCM', choice_func=None,
                    **kwargs):
    """Save parameters to ``ckpt_file_name`` (``.ckpt`` is appended if missing), atomically.

    The file is written to a temporary file in the same directory, flushed to disk and moved
    onto the target in one step: a reader sees the old file or the new one, never a part, and
    a failed save leaves the old file as it was. Temporary files left by killed saves of the
    same path are removed first (docs/checkpoints.md). In data-parallel mode with several
    processes, whose parameters are equal, only rank 0 writes; the others check the arguments
    and return.

    Args:
        save_obj: a Cell (every parameter, by ``Parameter.name``), a list of Parameters, a list
            of ``{'name': str, 'data': Tensor | str}`` dicts, or a dict ``{name: Parameter |
            Tensor | str}`` such as ``load_checkpoint`` returns.
        ckpt_file_name: the file's path (str or path-like); an existing file is replaced.
        integrated_save: MindSpore's model-parallel merge flag; a bool, without effect here.
        async_save: a bool; the save is always done before the call returns.
        append_dict: extra ``{name: int | float | bool | str | Tensor}`` entries, saved after
            the parameters (numbers become Int64, Float32 or Bool tensors).
        enc_key: must be None: encryption is not supported.
        enc_mode: a str, used only with ``enc_key``.
        choice_func: ``choice_func(name) -> bool`` choosing which parameters to save (not
            applied to ``append_dict``).
        kwargs: ``incremental`` (a bool, for MindSpore's MapParameter) is accepted.

    Raises:
        TypeError: for arguments of the wrong type, an unnamed Parameter or an unknown kwarg.
        ValueError: for ``enc_key`` not None, or two different entries with one name.
        FileNotFoundError: if the directory does not exist.
        IsADirectoryError: if the path is a directory.
        ImportError: if the ``safetensors`` dependency is missing.
    """
    path = _save_path(ckpt_file_name)
    _check_bool(integrated_save, 'save_checkpoint', 'integrated_save')
    _check_bool(async_save, 'save_checkpoint', 'async_save')
    if enc_key is not None:
        raise ValueError("save_checkpoint: encryption is not supported (enc_key must be None); "
                         "hookgrad checkpoints are plain safetensors files")
    if not isinstance(enc_mode, str):
        raise TypeError(f"save_checkpoint: enc_mode must be a str, got {type(enc_mode).__name__}")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"save_checkpoint: choice_func must be callable or None, got "
                        f"{type(choice_func).__name__}")
    for key, value in kwargs.items():
        if key not in _SAVE_KWARGS:
            raise TypeError(f"save_checkpoint: unexpected keyword argument '{key}' (accepted: "
                            f"{', '.join(_SAVE_KWARGS)})")
        _check_bool(value, 'save_checkpoint', key)
    if not writes_checkpoints():
        return
    entries = _collect(save_obj, choice_func)
    _append(entries, append_dict)

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
                        'crc32': _crc32(arr)})
    entries = json.dumps(records)
    metadata = {'format': FORMAT, 'version': VERSION, 'entries': entries,
                'crc32': str(metadata_crc32(FORMAT, VERSION, entries))}
    payload = _safetensors().numpy.save(tensors, metadata=metadata)
    _write_atomic(path, payload)


def writes_checkpoints():
    """Whether this process writes checkpoints: all but ranks other than 0 in data-parallel
    mode with several processes."""
    from ..nn.wrap.grad_reducer import data_parallel_world
    world = data_parallel_world()
    return world is None or world.rank == 0


def _save_path(ckpt_file_name):
    path = _fspath(ckpt_file_name, 'save_checkpoint')
    if not path.endswith(_SUFFIX):
        path += _SUFFIX
    path = os.path.abspath(path)
    if os.path.isdir(path):
        raise IsADirectoryError(f"save_checkpoint: '{path}' is a directory, expected a file name")
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"save_checkpoint: the directory '{directory}' of '{path}' "
                                f"does not exist")
    return path


def _collect(save_obj, choice_func):
    """``[(name, Tensor | str, requires_grad)]`` for ``save_obj``, filtered by ``choice_func``."""
    where = 'save_checkpoint'
    if isinstance(save_obj, Cell):
        items = [(p.name if p.name is not None else path, p)
                 for path, p in save_obj.parameters_and_names()]
    elif isinstance(save_obj, dict):
        items = []
        for key, value in save_obj.items():
            if not isinstance(key, str):
                raise TypeError(f"{where}: the keys of a dict save_obj must be str, got "
                                f"{type(key).__name__}")
            items.append((key, _check_data(value, f"{where}: save_obj['{key}']")))
    elif isinstance(save_obj, (list, tuple)):
        items = [_list_item(item, i) for i, item in enumerate(save_obj)]
    else:
        raise TypeError(f"{where}: save_obj must be a Cell, a list of Parameters or of "
                        f"{{'name': ..., 'data': ...}} dicts, or a dict, got "
                        f"{type(save_obj).__name__}")
    entries, seen = [], {}
    for name, value in items:
        if choice_func is not None and not choice_func(name):
            continue
        _check_entry_name(name, where)
        other = seen.get(name)
        if other is not None:
            if other is value:
                continue            # one Parameter listed twice is saved once
            raise ValueError(f"{where}: two different entries are named '{name}'; names "
                             f"must be unique")
        seen[name] = value
        requires_grad = value.requires_grad if isinstance(value, Parameter) else True
        entries.append((name, value, bool(requires_grad)))
    return entries


def _list_item(item, i):
    where = f"save_checkpoint: save_obj[{i}]"
    if isinstance(item, Parameter):
        if item.name is None:
            raise TypeError(f"{where} is a Parameter without a name; name it to save it")
        return item.name, item
    if isinstance(item, dict):
        if 'name' not in item or 'data' not in item:
            raise TypeError(f"{where} must have the keys 'name' and 'data', got "
                            f"{sorted(map(str, item))}")
        if not isinstance(item['name'], str):
            raise TypeError(f"{where}['name'] must be a str, got {type(item['name']).__name__}")
        return item['name'], _check_data(item['data'], f"{where}['data']")
    raise TypeError(f"{where} must be a Parameter or a {{'name': ..., 'data': ...}} dict, got "
                    f"{type(item).__name__}")


def _check_data(value, where):
    if not isinstance(value, (Tensor, str)):
        raise TypeError(f"{where} must be a Parameter, Tensor or str, got {type(value).__name__}")
    return value


def _check_entry_name(name, where):
    if name == _RESERVED:
        raise ValueError(f"{where}: the name '{_RESERVED}' is reserved by the file format")


def _append(entries, append_dict):
    """Add ``append_dict``'s entries (numbers as tensors) after the parameters."""
    if append_dict is None:
        return
    if not isinstance(append_dict, dict):
        raise TypeError(f"save_checkpoint: append_dict must be a dict or None, got "
                        f"{type(append_dict).__name__}")
    names = {name for name, _, _ in entries}
    extra = []
    for key, value in append_dict.items():
        if not isinstance(key, str):
            raise TypeError(f"save_checkpoint: the keys of append_dict must be str, got "
                            f"{type(key).__name__}")
        if not isinstance(value, (numbers.Real, str, Tensor)):
            raise TypeError(f"save_checkpoint: append_dict['{key}'] must be an int, float, "
                            f"bool, str or Tensor, got {type(value).__name__}")
        _check_entry_name(key, 'save_checkpoint')
        if key in names:
            raise ValueError(f"save_checkpoint: append_dict key '{key}' is also the name of a "
                             f"saved parameter")
        if isinstance(value, numbers.Real):
            value = Tensor(value)
        requires_grad = value.requires_grad if isinstance(value, Parameter) else True
        extra.append((key, value, bool(requires_grad)))
    entries.extend(extra)


# ----------------------------------------------------------------- load
def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                    dec_key=None, dec_mode='AES-GCM', specify_prefix=None, choice_func=None):
    """Read a checkpoint written by ``save_checkpoint``; load it into ``net`` if given.

    Args:
        ckpt_file_name: the file's path (str or path-like), ending with ``.ckpt``.
        net: a Cell to load the parameters into with ``load_param_into_net``, or None.
        strict_load: passed to ``load_param_into_net``.
        filter_prefix: a str or list/tuple of str: entries whose names start with one are
            skipped.
        dec_key: must be None: decryption is not supported.
        dec_mode: a str, used only with ``dec_key``.
        specify_prefix: a str or list/tuple of str: only entries whose names start with one
            are read.
        choice_func: ``choice_func(name) -> bool`` choosing the entries to read; ignored when
            ``filter_prefix`` or ``specify_prefix`` is given (as in MindSpore).

    Returns:
        A dict ``{name: Parameter}`` in the saved order, with names, dtypes and
        ``requires_grad`` restored; an ``append_dict`` str value comes back as a str.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for ``dec_key`` not None, a name not ending with ``.ckpt``, an empty
            prefix, a file that is corrupted (a tensor or the metadata fails its CRC32),
            truncated or not a hookgrad checkpoint, or no entry left after filtering.
        FileNotFoundError: if the file does not exist.
        ImportError: if the ``safetensors`` dependency is missing.
        RuntimeError: from ``load_param_into_net`` when the entries do not fit ``net``.
    """
    where = 'load_checkpoint'
    path = _fspath(ckpt_file_name, where)
    if not path.endswith(_SUFFIX):
        raise ValueError(f"{where}: the checkpoint file name must end with '{_SUFFIX}', got "
                         f"'{path}'")
    if net is not None and not isinstance(net, Cell):
        raise TypeError(f"{where}: net must be a Cell or None, got {type(net).__name__}")
    _check_bool(strict_load, where, 'strict_load')
    filter_prefix = _check_prefix(filter_prefix, 'filter_prefix')
    specify_prefix = _check_prefix(specify_prefix, 'specify_prefix')
    if dec_key is not None:
        raise ValueError(f"{where}: decryption is not supported (dec_key must be None); "
                         f"hookgrad checkpoints are plain safetensors files")
    if not isinstance(dec_mode, str):
        raise TypeError(f"{where}: dec_mode must be a str, got {type(dec_mode).__name__}")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"{where}: choice_func must be callable or None, got "
                        f"{type(choice_func).__name__}")
    path = os.path.abspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{where}: the checkpoint file '{path}' does not exist")
    if not os.path.isfile(path):
        raise ValueError(f"{where}: '{path}' is not a regular file")
    safetensors = _safetensors()

    if filter_prefix is not None or specify_prefix is not None:
        def wanted(name):
            return (specify_prefix is None or name.startswith(specify_prefix)) and \
                (filter_prefix is None or not name.startswith(filter_prefix))
    else:
        wanted = choice_func
    parameter_dict = {}
    with _library_call(functools.partial(safetensors.safe_open, path, 'numpy'), path) as f:
        records = _read_records(_library_call(f.metadata, path),
                                set(_library_call(f.keys, path)), path)
        for rec in records:
            name = rec['name']
            if wanted is not None and not wanted(name):
                continue
            if rec['kind'] == 'str':
                parameter_dict[name] = rec['value']
            else:
                arr = _library_call(functools.partial(f.get_tensor, name), path)
                parameter_dict[name] = _restore(arr, rec, path)
    if not parameter_dict:
        raise ValueError(f"{where}: no entry of '{path}' is left after filtering; check "
                         f"filter_prefix, specify_prefix and choice_func")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load)
    return parameter_dict


def _library_call(call, path):
    """``call()``, with the library's errors (bad header, lengths or JSON, short data)
    re-raised as a ValueError that names the file."""
    try:
        return call()
    except MemoryError:
        raise
    except Exception as e:
        raise ValueError(f"load_checkpoint: '{path}' is not a readable checkpoint (corrupted, "
                         f"truncated or another format): {e}") from e


def _read_records(metadata, tensor_names, path):
    """The entry records of a checkpoint's metadata, checked against the file's tensors."""
    def bad(what):
        return ValueError(f"load_checkpoint: '{path}' {what}")

    if not metadata or metadata.get('format') != FORMAT:
        raise bad(f"is a safetensors file but not a hookgrad checkpoint (its metadata has no "
                  f"'format': '{FORMAT}')")
    version = metadata.get('version')
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
    if _crc32(arr) != rec['crc32']:
        raise ValueError(f"load_checkpoint: '{path}' entry '{name}' is corrupted (its data "
                         f"does not match the saved CRC32)")
    return Parameter(arr, name=name, requires_grad=rec['requires_grad'])


def _check_prefix(prefix, arg):
    """None, or the prefixes as a tuple of non-empty str."""
    if prefix is None:
        return None
    if isinstance(prefix, str):
        prefix = (prefix,)
    elif not isinstance(prefix, (list, tuple)):
        raise TypeError(f"load_checkpoint: {arg} must be a str, a list/tuple of str or None, "
                        f"got {type(prefix).__name__}")
    if not prefix:
        raise ValueError(f"load_checkpoint: {arg} must not be empty")
    for i, p in enumerate(prefix):
        if not isinstance(p, str):
            raise TypeError(f"load_checkpoint: {arg}[{i}] must be a str, got {type(p).__name__}")
        if not p:
            raise ValueError(f"load_checkpoint: {arg} must not contain an empty str")
    return tuple(prefix)


# ----------------------------------------------------------------- shared
def _safetensors():
    """The ``safetensors`` package (with its NumPy API), imported on first use."""
    try:
        import safetensors
        import safetensors.numpy  # noqa: F401  (registers safetensors.numpy)
    except ImportError as e:
        raise ImportError("hookgrad checkpoints need the 'safetensors' package, a dependency "
                          "of hookgrad that is missing here; install it with: "
                          "pip install safetensors") from e
    return safetensors


def _fspath(name, where):
    path = os.fspath(name) if isinstance(name, os.PathLike) else name
    if not isinstance(path, str):
        raise TypeError(f"{where}: ckpt_file_name must be a str or path-like, got "
                        f"{type(name).__name__}")
    return path
