"""save_checkpoint and load_checkpoint (MindSpore's names): MindSpore's checkpoint files.

``save_checkpoint`` writes MindSpore 2.x's protobuf ``.ckpt`` files (``format='ckpt'``, the
default; protobuf_ckpt.py) or its safetensors files (``format='safetensors'``;
safetensors_ckpt.py), atomically (durable.py). ``load_checkpoint`` reads both, and hookgrad's
older files (hookgrad_format.py), telling them apart by their content. See
docs/checkpoints.md.
"""
import numbers
import os

from .._frames import warn
from .._tensor import Tensor
from . import hookgrad_format, protobuf_ckpt, safetensors_ckpt
# _crc32 is imported from here by train/graph_export.py and train/graph_cell.py
from .durable import crc32 as _crc32, write_atomic as _write_atomic  # noqa: F401
from .network import check_bool as _check_bool, load_param_into_net
from ..nn.cell import Cell
from ..nn.parameter import Parameter

__all__ = ['save_checkpoint', 'load_checkpoint']

_FORMATS = ('ckpt', 'safetensors')
_RESERVED = '__metadata__'          # the safetensors header's own key
_SAVE_KWARGS = ('incremental', 'global_step_num', 'remove_redundancy')
_ASYNC_MODES = ('process', 'thread')


# ----------------------------------------------------------------- save
def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode='AES-GCM', choice_func=None,
                    crc_check=False, format='ckpt', **kwargs):
    """Save parameters to a MindSpore checkpoint file, atomically.

    ``format='ckpt'`` writes MindSpore's protobuf ``.ckpt``, ``format='safetensors'`` its
    safetensors file; MindSpore's ``load_checkpoint`` reads both. ``.ckpt`` or
    ``.safetensors`` is appended unless the name ends with the format. The file is written to
    a temporary file in the same directory, flushed to disk and moved onto the target in one
    step: a reader sees the old file or the new one, never a part, and a failed save leaves
    the old file as it was. In data-parallel mode with several processes, whose parameters
    are equal, only rank 0 writes; the others check the arguments and return.

    Args:
        save_obj: a Cell (every parameter, by ``Parameter.name``), a list of Parameters, a list
            of ``{'name': str, 'data': Tensor | str}`` dicts, or a dict ``{name: Parameter |
            Tensor | str}`` such as ``load_checkpoint`` returns.
        ckpt_file_name: the file's path (str or path-like); an existing file is replaced.
        integrated_save: MindSpore's model-parallel merge flag; a bool, without effect here.
        async_save: a bool, ``'process'`` or ``'thread'``; the save is always done before the
            call returns.
        append_dict: extra ``{name: int | float | bool | str | Tensor}`` entries, saved after
            the parameters (numbers become Int64, Float32 or Bool tensors).
        enc_key: must be None: encryption is not supported.
        enc_mode: a str, used only with ``enc_key``.
        choice_func: ``choice_func(name) -> bool`` choosing which parameters to save (not
            applied to ``append_dict``).
        crc_check: a bool: store a CRC32 of the content, which ``load_checkpoint`` checks.
        format: ``'ckpt'`` or ``'safetensors'`` (which cannot hold str entries).
        kwargs: MindSpore's ``incremental`` (a bool, for MapParameter; False with
            safetensors), ``global_step_num`` (an int or None; None with safetensors) and
            ``remove_redundancy`` (a bool or None, recorded in a safetensors file).

    Raises:
        TypeError: for arguments of the wrong type, an unnamed Parameter or an unknown kwarg.
        ValueError: for ``enc_key`` not None, an unknown ``format`` or ``async_save`` mode,
            two different entries with one name, or a str entry with ``format='safetensors'``.
        FileNotFoundError: if the directory does not exist.
        IsADirectoryError: if the path is a directory.
        ImportError: if the ``protobuf`` or ``safetensors`` dependency is missing.
    """
    where = 'save_checkpoint'
    if format not in _FORMATS:
        raise ValueError(f"{where}: format must be 'ckpt' or 'safetensors', got {format!r}")
    path = _save_path(ckpt_file_name, format)
    _check_bool(integrated_save, where, 'integrated_save')
    if not isinstance(async_save, (bool, str)):
        raise TypeError(f"{where}: async_save must be a bool or str, got "
                        f"{type(async_save).__name__}")
    if isinstance(async_save, str) and async_save not in _ASYNC_MODES:
        raise ValueError(f"{where}: async_save can only be 'process' or 'thread', got "
                         f"{async_save!r}")
    _check_common(where, enc_key, enc_mode, 'enc', 'encryption', choice_func, crc_check)
    options = _save_kwargs(kwargs, format)
    if not writes_checkpoints():
        return
    entries = _collect(save_obj, choice_func)
    _append(entries, append_dict)
    if format == 'ckpt':
        payload = protobuf_ckpt.encode(
            [(name, value if isinstance(value, str) else value.asnumpy(),
              None if isinstance(value, str) else value.dtype.name)
             for name, value, _ in entries], crc_check)
    else:
        texts = [name for name, value, _ in entries if isinstance(value, str)]
        if texts:
            raise ValueError(f"{where}: format='safetensors' cannot hold str entries "
                             f"({', '.join(map(repr, texts))}); use format='ckpt'")
        payload = safetensors_ckpt.encode(
            _safetensors(), [(name, value.asnumpy(), value.dtype.name)
                             for name, value, _ in entries],
            crc_check, options['remove_redundancy'])
    _write_atomic(path, payload)


def _check_common(where, key, mode, prefix, what, choice_func, crc_check):
    """The arguments saving and loading share: no key (``enc_key``/``dec_key``: hookgrad
    neither encrypts nor decrypts), a str mode, a callable or None ``choice_func``, a bool
    ``crc_check``."""
    if key is not None:
        raise ValueError(f"{where}: {what} is not supported ({prefix}_key must be None)")
    if not isinstance(mode, str):
        raise TypeError(f"{where}: {prefix}_mode must be a str, got {type(mode).__name__}")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"{where}: choice_func must be callable or None, got "
                        f"{type(choice_func).__name__}")
    _check_bool(crc_check, where, 'crc_check')


def _save_kwargs(kwargs, format):
    """MindSpore's ``save_checkpoint`` kwargs, checked, with their defaults."""
    where = 'save_checkpoint'
    for key in kwargs:
        if key not in _SAVE_KWARGS:
            raise TypeError(f"{where}: unexpected keyword argument '{key}' (accepted: "
                            f"{', '.join(_SAVE_KWARGS)})")
    options = {'incremental': False, 'global_step_num': None, 'remove_redundancy': None}
    options.update(kwargs)
    _check_bool(options['incremental'], where, 'incremental')
    step = options['global_step_num']
    if step is not None and (isinstance(step, bool) or not isinstance(step, numbers.Integral)):
        raise TypeError(f"{where}: global_step_num must be an int or None, got "
                        f"{type(step).__name__}")
    if options['remove_redundancy'] is not None:
        _check_bool(options['remove_redundancy'], where, 'remove_redundancy')
    if format == 'safetensors':
        for key in ('incremental', 'global_step_num'):
            default = False if key == 'incremental' else None
            if options[key] != default:
                raise ValueError(f"{where}: with format='safetensors', {key} must be "
                                 f"{default}, got {options[key]!r}")
    return options


def writes_checkpoints():
    """Whether this process writes checkpoints: all but ranks other than 0 in data-parallel
    mode with several processes."""
    from ..nn.wrap.grad_reducer import data_parallel_world
    world = data_parallel_world()
    return world is None or world.rank == 0


def _save_path(ckpt_file_name, format):
    path = _fspath(ckpt_file_name, 'save_checkpoint')
    if not path.endswith(format):           # MindSpore's rule: 'netckpt' is kept as it is
        path += '.' + format
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
                    dec_key=None, dec_mode='AES-GCM', specify_prefix=None, choice_func=None,
                    crc_check=False, remove_redundancy=False, format='ckpt'):
    """Read a MindSpore checkpoint (protobuf ``.ckpt`` or safetensors) or an older hookgrad one;
    load it into ``net`` if given.

    The file's content tells its format, whatever its name and ``format``. Loading runs no
    code from the file, and every declared size is checked against the bytes present before
    an array is made.

    Args:
        ckpt_file_name: the file's path (str or path-like).
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
        crc_check: a bool. A CRC32 the file carries is always checked; with True, a file
            without one is loaded with a warning (MindSpore logs one).
        remove_redundancy: a bool, passed to ``load_param_into_net``.
        format: ``'ckpt'`` or ``'safetensors'``; checked, but the content decides.

    Returns:
        A dict ``{name: Parameter | str}`` in the file's order (safetensors files: by name, as
        MindSpore reads them). MindSpore's files give Parameters with ``requires_grad=True``
        (BFloat16 entries as bfloat16 Parameters, bit for bit); hookgrad's older files restore
        each entry's ``requires_grad``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for ``dec_key`` not None, an unknown ``format``, an empty prefix, a file
            that is corrupted (a CRC32 fails, a size does not match), truncated or not a
            checkpoint, an entry of a type hookgrad cannot hold (Int4, MapParameter),
            or no entry left after filtering.
        FileNotFoundError: if the file does not exist.
        ImportError: if the ``protobuf`` or ``safetensors`` dependency is missing.
        RuntimeError: from ``load_param_into_net`` when the entries do not fit ``net``.
    """
    where = 'load_checkpoint'
    path = _fspath(ckpt_file_name, where)
    if net is not None and not isinstance(net, Cell):
        raise TypeError(f"{where}: net must be a Cell or None, got {type(net).__name__}")
    _check_bool(strict_load, where, 'strict_load')
    filter_prefix = _check_prefix(filter_prefix, 'filter_prefix')
    specify_prefix = _check_prefix(specify_prefix, 'specify_prefix')
    _check_common(where, dec_key, dec_mode, 'dec', 'decryption', choice_func, crc_check)
    _check_bool(remove_redundancy, where, 'remove_redundancy')
    if format not in _FORMATS:
        raise ValueError(f"{where}: format must be 'ckpt' or 'safetensors', got {format!r}")
    path = os.path.abspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{where}: the checkpoint file '{path}' does not exist")
    if not os.path.isfile(path):
        raise ValueError(f"{where}: '{path}' is not a regular file")

    if filter_prefix is not None or specify_prefix is not None:
        def wanted(name):
            return (specify_prefix is None or name.startswith(specify_prefix)) and \
                (filter_prefix is None or not name.startswith(filter_prefix))
    else:
        wanted = choice_func
    with open(path, 'rb') as f:
        data = f.read()
    try:
        parameter_dict = _read(data, path, wanted, crc_check)
    except protobuf_ckpt.BadFile as e:
        raise ValueError(f"{where}: '{path}' {e}") from (e.__cause__ or e)
    if not parameter_dict:
        if not data:
            raise ValueError(f"{where}: '{path}' is empty: it holds no entries")
        raise ValueError(f"{where}: no entry of '{path}' is left after filtering; check "
                         f"filter_prefix, specify_prefix and choice_func")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


def _read(data, path, wanted, crc_check):
    """``{name: Parameter | str}`` from a file's bytes, in whichever format they are."""
    if not _is_safetensors(data):
        entries, has_crc = protobuf_ckpt.decode(data, wanted)
    else:
        safetensors = _safetensors()
        with _library_call(lambda: safetensors.safe_open(path, 'numpy'), path) as handle:
            metadata = _library_call(handle.metadata, path) or {}
            if hookgrad_format.is_hookgrad(metadata):
                return hookgrad_format.read(handle, _library_call, path, wanted, data)
        entries, metadata = safetensors_ckpt.decode(safetensors, data, wanted)
        has_crc = 'crc_num' in metadata
    if crc_check and not has_crc:
        warn(f"load_checkpoint: crc_check=True but '{path}' carries no CRC32; it was loaded "
             f"without a check")
    return {name: value if isinstance(value, str) else Parameter(value, name=name)
            for name, value, _ in entries}


def _is_safetensors(data):
    """A safetensors file: an 8-byte header length, then a JSON header starting with '{'.

    A protobuf ``.ckpt`` starts with 0x0A (field 1, length-delimited); its first 8 bytes read
    as a length exceed the file, so one whose 9th byte is '{' is still told apart.
    """
    if len(data) < 10 or data[8:9] != b'{':
        return False
    return data[0] != 0x0A or 8 + int.from_bytes(data[:8], 'little') <= len(data)


def _library_call(call, path):
    """``call()``, with the library's errors (bad header, lengths or JSON, short data)
    re-raised as a ValueError that names the file."""
    try:
        return call()
    except MemoryError:
        raise
    except Exception as e:
        raise ValueError(f"load_checkpoint: '{path}' {protobuf_ckpt.UNREADABLE}: {e}") from e


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
