"""A Cell's state beyond its parameters: buffers, ``state_dict`` / ``load_state_dict`` and their
hooks, and lookups by dotted path (MindSpore 2.10's ``nn.Cell`` methods of those names).

Buffers are Tensors a cell keeps that are not Parameters (no gradient, not trained); a
persistent buffer is part of ``state_dict``. They live in ``__dict__['_buffers']`` (created at
the first ``register_buffer``) and as plain attributes, so reading one costs nothing extra.
"""
from collections import OrderedDict, namedtuple

import numpy as np

from .._tensor import Tensor
from ..autograd.function import effect
from ..hooks.calling import call
from ..hooks.handle import HookStore, check_hook
from .parameter import Parameter, _replace_data

EXTRA_STATE_KEY = '_extra_state'
_KINDS = ('state_dict_pre', 'state_dict_post', 'load_state_dict_pre', 'load_state_dict_post')


class IncompatibleKeys(namedtuple('IncompatibleKeys', ['missing_keys', 'unexpected_keys'])):
    """What ``load_state_dict`` returns: the keys it expected and did not find, and the keys it
    found and did not expect."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, " \
               f"unexpected_keys={self.unexpected_keys!r})"

    __str__ = __repr__


class CellState:
    """Buffers, state dicts and path lookups; mixed into ``nn.Cell``."""

    # ----------------------------------------------------------------- buffers
    def register_buffer(self, name, tensor, persistent=True):
        """Keep ``tensor`` as the buffer ``self.<name>``: state that is not a Parameter.

        Args:
            name (str): the attribute name (no '.', not empty, not another attribute's).
            tensor (Tensor): the buffer, or None (then it is left out of ``state_dict``).
            persistent (bool): whether ``state_dict`` holds it. Default True.

        Raises:
            TypeError: ``name`` is not a str, or ``tensor`` not a Tensor or None.
            KeyError: ``name`` holds '.', is empty, or is an attribute that is not a buffer.
        """
        d = self.__dict__
        if '_params' not in d:
            raise AttributeError("cannot assign buffer before Cell.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string.But got this type: {type(name)}")
        if '.' in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == '':
            raise KeyError('buffer name can\'t be empty string ""')
        buffers = d.get('_buffers', {})
        if name not in buffers and (name in d or hasattr(type(self), name)):
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' "
                            f"(mindspore Tensor or None required)")
        buffers = d.setdefault('_buffers', {})
        buffers[name] = tensor
        object.__setattr__(self, name, tensor)
        transient = d.setdefault('_transient_buffers', set())
        if persistent:
            transient.discard(name)
        else:
            transient.add(name)

    def _set_buffer(self, name, value):
        """``self.<name> = value`` for a buffer's name: None empties it; any other value is an
        error, as in MindSpore (``register_buffer`` replaces a buffer)."""
        if isinstance(value, (Parameter, CellState)):
            del self.__dict__['_buffers'][name]     # registered as what it now is
            self.__dict__.get('_transient_buffers', set()).discard(name)
            return False
        if value is not None:
            raise TypeError(f"Buffer '{name}' already exists in network, can not assign this "
                            f"type: '{type(value)}' as a buffer (register_buffer('{name}', ...) "
                            f"replaces it)")
        self.__dict__['_buffers'][name] = None
        object.__setattr__(self, name, None)
        return True

    def named_buffers(self, prefix='', recurse=True, remove_duplicate=True):
        """Yield ``(path, buffer)`` for every buffer that is not None, in registration order.

        Args:
            prefix (str): put before every path. recurse (bool): sub-cells' buffers too.
            remove_duplicate (bool): a buffer held twice is yielded once.
        """
        seen = set()
        cells = self.cells_and_names(prefix) if recurse else [(prefix, self)]
        for cell_prefix, cell in cells:
            for name, buf in cell.__dict__.get('_buffers', {}).items():
                if buf is None or id(buf) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(buf))
                yield (f"{cell_prefix}.{name}" if cell_prefix else name), buf

    def buffers(self, recurse=True):
        """Yield every buffer (each once); ``recurse``: sub-cells' too."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_sub_cell(self, target):
        """The sub-cell at the dotted path ``target`` ('' is this cell).

        Raises:
            AttributeError: a name on the path is missing or is not a Cell.
        """
        if target == '':
            return self
        cell = self
        for item in target.split('.'):
            if item not in cell.__dict__ and not hasattr(type(cell), item):
                raise AttributeError(f"{type(cell).__name__} has no attribute `{item}`")
            cell = getattr(cell, item)
            if not isinstance(cell, CellState):
                raise AttributeError(f"`{item}` is not an nn.Cell")
        return cell

    def get_buffer(self, target):
        """The buffer at the dotted path ``target`` (``'net_b.buffer_c'``).

        Raises:
            AttributeError: the path is missing, or names something that is not a buffer.
        """
        cell_path, _, name = target.rpartition('.')
        cell = self.get_sub_cell(cell_path)
        if name not in cell.__dict__ and not hasattr(type(cell), name):
            raise AttributeError(f"{type(cell).__name__} has no attribute `{name}`")
        if name not in cell.__dict__.get('_buffers', {}):
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(cell, name)

    # ----------------------------------------------------------------- extra state
    def get_extra_state(self):
        """The extra state ``state_dict`` stores under ``'<prefix>_extra_state'``; a subclass
        that has some defines this and ``set_extra_state``."""
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be "
                           "called.")

    def set_extra_state(self, state):
        """Take back the extra state ``get_extra_state`` gave (called by ``load_state_dict``)."""
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be "
                           "called.")

    # ----------------------------------------------------------------- hooks
    def register_state_dict_pre_hook(self, hook):
        """Register ``hook(cell, prefix, keep_vars) -> None``, run before this cell's entries
        are put in a ``state_dict``. Returns a removable handle."""
        return _register(self, 'state_dict_pre', hook)

    def register_state_dict_post_hook(self, hook):
        """Register ``hook(cell, state_dict, prefix, local_metadata) -> None``, run once this
        cell and its sub-cells are in ``state_dict``; it may change the dict in place."""
        return _register(self, 'state_dict_post', hook)

    def register_load_state_dict_pre_hook(self, hook):
        """Register ``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs) -> None``, run before ``load_state_dict`` loads this cell."""
        return _register(self, 'load_state_dict_pre', hook)

    def register_load_state_dict_post_hook(self, hook):
        """Register ``hook(cell, incompatible_keys) -> None``, run after ``load_state_dict``
        loaded this cell and its sub-cells; it may edit the key lists in place."""
        return _register(self, 'load_state_dict_post', hook)

    # ----------------------------------------------------------------- state dicts
    def state_dict(self, *args, destination=None, prefix='', keep_vars=False):
        """An ordered ``{key: value}`` of this cell's state: per cell, its parameters, then its
        persistent buffers, then its extra state, then its sub-cells', keyed by attribute path.

        Values are the Parameters and buffers themselves (references, not copies, whatever
        ``keep_vars`` says: MindSpore 2.10 checks ``keep_vars`` and stores references).

        Args:
            destination (dict): filled and returned instead of a new OrderedDict.
            prefix (str): put before every key.
            keep_vars (bool): passed to the pre-hooks.

        Raises:
            TypeError: for a ``destination`` that is not a dict, a ``prefix`` that is not a str
                or a ``keep_vars`` that is not a bool.
        """
        if args:
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == '' else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"The type of destination must be OrderedDict, but got "
                            f"{type(destination)}")
        if not isinstance(prefix, str):
            raise TypeError(f"The type of prefix must be string, but got {type(prefix)}")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"The type of keep_vars must be bool, but got {type(keep_vars)}")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {}
        if hasattr(destination, '_metadata'):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in _hooks(self, 'state_dict_pre'):
            call(hook, (self, prefix, keep_vars), 'state_dict pre-hook', self)
        for name, value in _local_state(self).items():
            destination[prefix + name] = value
        if _overrides(self, 'get_extra_state'):
            destination[prefix + EXTRA_STATE_KEY] = self.get_extra_state()
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=f"{prefix}{name}.",
                                keep_vars=keep_vars)
        for hook in _hooks(self, 'state_dict_post'):
            if call(hook, (self, destination, prefix, local_metadata), 'state_dict post-hook',
                    self) is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def load_state_dict(self, state_dict, strict=True):
        """Copy the values of ``state_dict`` into this cell's parameters and persistent buffers
        (in place, cast to their dtypes), and hand extra state to ``set_extra_state``.

        Args:
            state_dict (Mapping): keys as ``state_dict`` gives them.
            strict (bool): raise when keys are missing or unexpected. Default True.

        Returns:
            IncompatibleKeys: ``(missing_keys, unexpected_keys)``, filled whatever ``strict``.

        Raises:
            TypeError: ``state_dict`` is not a mapping.
            RuntimeError: a value is not a Tensor or has another shape, or (``strict``) keys
                are missing or unexpected; every problem is listed, and the values that
                could be loaded are loaded.
        """
        from collections.abc import Mapping
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, '_metadata', None)
        state_dict = OrderedDict(state_dict)
        keys = IncompatibleKeys(missing, unexpected)
        _load(self, state_dict, '', metadata, keys, errors)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return keys


def _register(cell, kind, hook):
    check_hook(hook, f"Cell '{cell.path()}' register_{kind}_hook")
    stores = cell.__dict__.get('_state_hooks')
    if stores is None:
        stores = cell.__dict__['_state_hooks'] = {k: HookStore() for k in _KINDS}
    return stores[kind].add(hook)


def _hooks(cell, kind):
    stores = cell.__dict__.get('_state_hooks')
    return stores[kind].snapshot() if stores is not None else ()


def _overrides(cell, method):
    return getattr(type(cell), method) is not getattr(CellState, method)


def _local_state(cell):
    """This cell's own entries: parameters, then persistent buffers (None ones left out)."""
    d = cell.__dict__
    state = {k: p for k, p in cell._params.items() if p is not None}
    transient = d.get('_transient_buffers', ())
    for k, buf in d.get('_buffers', {}).items():
        if buf is not None and k not in transient:
            state[k] = buf
    return state


def _load(cell, state_dict, prefix, metadata, keys, errors):
    """Load ``cell``, then each sub-cell from the entries under its prefix, then run ``cell``'s
    post-hooks (MindSpore's order)."""
    meta = {} if metadata is None else metadata.get(prefix[:-1], {})
    _load_local(cell, state_dict, prefix, meta, keys.missing_keys, keys.unexpected_keys, errors)
    for name, child in cell._cells.items():
        if child is not None:
            child_prefix = f"{prefix}{name}."
            _load(child, {k: v for k, v in state_dict.items() if k.startswith(child_prefix)},
                  child_prefix, metadata, keys, errors)
    for hook in _hooks(cell, 'load_state_dict_post'):
        if call(hook, (cell, keys), 'load_state_dict post-hook', cell) is not None:
            raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` "
                               "are not expected to return new values, if incompatible_keys "
                               "need to be modified, it should be done inplace.")


def _load_local(cell, state_dict, prefix, metadata, missing, unexpected, errors):
    """Load ``cell``'s own entries (not its sub-cells'), as MindSpore's
    ``Cell._load_from_state_dict`` does; problems go into the three lists."""
    for hook in _hooks(cell, 'load_state_dict_pre'):
        call(hook, (cell, state_dict, prefix, metadata, True, missing, unexpected, errors),
             'load_state_dict pre-hook', cell)
    local = _local_state(cell)
    for name, target in local.items():
        key = prefix + name
        if key not in state_dict:
            missing.append(key)
            continue
        value = state_dict[key]
        if not isinstance(value, Tensor):
            errors.append(f'While copying the parameter named "{key}", expected Tensor or '
                          f'Tensor-like object from checkpoint but received {type(value)}')
        elif value.shape != target.shape:
            errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} "
                          f"from checkpoint, the shape in current model is {target.shape}.")
        else:
            effect(_replace_data, target, np.array(value._data, dtype=target._data.dtype))
    extra_key = prefix + EXTRA_STATE_KEY
    if _overrides(cell, 'set_extra_state'):
        if extra_key in state_dict:
            cell.set_extra_state(state_dict[extra_key])
        else:
            missing.append(extra_key)
    elif extra_key in state_dict:
        unexpected.append(extra_key)
    for key in state_dict:
        if key.startswith(prefix) and key != extra_key:
            head = key[len(prefix):].split('.', 1)
            if len(head) > 1:
                if head[0] not in cell._cells:
                    unexpected.append(key)
            elif head[0] not in local:
                unexpected.append(key)
