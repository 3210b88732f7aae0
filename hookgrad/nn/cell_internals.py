"""MindSpore's Cell members for its graph compiler and parallel training (``phase``,
``compile_cache``, ``parameter_layout_dict``, ``create_time``, ``total_instance_count``,
``to_empty``...), with MindSpore 2.10's defaults and checks.

hookgrad runs ``construct`` eagerly and on one process: there is never a compiled graph, a
compile cache entry or a parallel layout, so those members keep MindSpore's values for a cell
that was never compiled, and accept the settings code writes into them.
"""
import time
import weakref
from typing import Any, Dict, TypeVar

__all__ = ['CellInternals']

_LIVE_CELLS = weakref.WeakSet()


class _InstanceCount:
    """``Cell.total_instance_count``: how many cells exist now (made and not yet freed)."""

    def __get__(self, obj, owner=None):
        return len(_LIVE_CELLS)


def _lazy(cell, key, make):
    d = cell.__dict__
    value = d.get(key)
    if value is None:
        value = d[key] = make()
    return value


def check_property_type(name, value, kind, what):
    """TypeError, in MindSpore's words, unless the value set on Cell property ``name`` is a
    ``kind`` (named ``what`` in the message)."""
    if not isinstance(value, kind):
        raise TypeError(f"For 'Cell', the property '{name}' must be {what} type, but got type "
                        f"{type(value)}.")


class CellInternals:
    """Cell's members for MindSpore's compiler and parallel training."""

    IGNORE_LIST = ['_scope', '_cell_init_args', '_auto_prefix', '_cells', '_params',
                   '_create_time', '_func_graph_flags', '_parameter_layout_dict',
                   '_params_list', '_phase', '_bprop_debug', '_forward_pre_hook',
                   '_forward_hook', '_backward_pre_hook', '_backward_hook',
                   '_cell_backward_pre_hook', '_cell_backward_hook', '_param_prefix',
                   'requires_grad', 'cell_type', '_in_strategy', '_out_strategy']
    T_destination = TypeVar('T_destination', bound=Dict[str, Any])
    total_instance_count = _InstanceCount()
    global_cells = weakref.WeakKeyDictionary()  # filled by MindSpore's auto lazy inline only

    def __new__(cls, *args, **kwargs):
        cell = super().__new__(cls)
        cell.__dict__['_create_time'] = int(time.time() * 1e9)
        _LIVE_CELLS.add(cell)
        return cell

    @property
    def create_time(self):
        """When the cell was made, in nanoseconds since the epoch."""
        return self.__dict__['_create_time']

    @property
    def phase(self):
        """'train' or 'predict' (``set_train``), or the phase code sets."""
        return self.__dict__.get('phase', 'train')

    @phase.setter
    def phase(self, value):
        check_property_type('phase', value, str, 'string')
        self.__dict__['phase'] = value

    @property
    def compile_phase(self):
        """The compile phase set on this cell (default None)."""
        return self.__dict__.get('_compile_phase')

    @compile_phase.setter
    def compile_phase(self, value):
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', 'compile_phase' must be string type, but got type "
                            f"{type(value)}.")
        self.__dict__['_compile_phase'] = value
        for cell in self._cells.values():
            if cell is not None:
                cell.compile_phase = value

    @property
    def compiled(self):
        """False: hookgrad runs ``construct`` eagerly and compiles no graph."""
        return False

    @property
    def compile_cache(self):
        """The set of compiled-graph keys (always empty here)."""
        return _lazy(self, '_compile_cache', set)

    @property
    def phase_cache(self):
        """Compiled graphs by phase (always empty here)."""
        return _lazy(self, '_phase_cache', dict)

    @property
    def exist_objs(self):
        """The set MindSpore's parser keeps of objects a cell refers to (empty here)."""
        return _lazy(self, '_exist_objs', set)

    @property
    def jit_config_dict(self):
        """The options of the ``JitConfig`` given to ``set_jit_config`` ({} without one)."""
        config = self.__dict__.get('jit_config')
        return dict(config.jit_config_dict) if config is not None else {}

    @property
    def parameter_layout_dict(self):
        """Each parameter's parallel tensor layout (empty on one process)."""
        return _lazy(self, '_parameter_layout_dict', dict)

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value):
        check_property_type('parameter_layout_dict', value, dict, 'dict')
        self.__dict__['_parameter_layout_dict'] = value

    @property
    def parallel_parameter_name_list(self):
        """The names of the parameters a parallel strategy covers (``()`` until set)."""
        return _lazy(self, '_parallel_parameter_name_list', tuple)

    @parallel_parameter_name_list.setter
    def parallel_parameter_name_list(self, value):
        check_property_type('parallel_parameter_name_list', value, list, 'list')
        self.__dict__['_parallel_parameter_name_list'] = value

    @property
    def parallel_parameter_merge_net_dict(self):
        """Nets whose parameters a parallel checkpoint merge uses (empty until set)."""
        return _lazy(self, '_parallel_parameter_merge_net_dict', dict)

    @parallel_parameter_merge_net_dict.setter
    def parallel_parameter_merge_net_dict(self, value):
        check_property_type('parallel_parameter_merge_net_dict', value, dict, 'dict')
        self.__dict__['_parallel_parameter_merge_net_dict'] = value

    def to_empty(self, *, device=None, recurse=True):
        """Give every Parameter and buffer (of sub-cells too when ``recurse``) new,
        uninitialised storage of its shape and dtype, on ``device`` ('CPU' or 'GPU'; None:
        where it is); returns the cell. Fill the values afterwards (``load_param_into_net``).
        """
        if device is not None and not isinstance(device, str):
            raise TypeError(f"Cell.to_empty: device must be a str such as 'CPU', got "
                            f"{type(device).__name__}")
        from ..kernels import backend
        tensors = list(self.get_parameters(expand=recurse)) + list(self.buffers(recurse))
        for t in tensors:
            if t is None:
                continue
            t._data = backend.array_module(t._data).empty_like(t._data)
            if device is not None:
                t._data = t.move_to(device)._data
        return self

    def remove_redundant_parameters(self):
        """Nothing to remove: MindSpore's version does nothing either (it is deprecated).
        Returns None."""
        return None

    def offload(self, backward_prefetch="Auto"):
        """Accept MindSpore's activation-offload setting (a graph-mode memory saving; it
        changes no result): ``backward_prefetch`` is 'Auto' or an int > 0. Returns None.

        Raises:
            ValueError: for any other ``backward_prefetch``.
        """
        ok = backward_prefetch == "Auto" if isinstance(backward_prefetch, str) else (
            isinstance(backward_prefetch, int) and not isinstance(backward_prefetch, bool)
            and backward_prefetch > 0)
        if not ok:
            raise ValueError(f"Cell.offload: backward_prefetch must be 'Auto' or an int > 0, "
                             f"got {backward_prefetch!r}")
        self.__dict__['_offload_backward_prefetch'] = backward_prefetch
        return None

    def get_func_graph_proto(self):
        """Not available: hookgrad builds no graph to serialise.

        Raises:
            NotImplementedError: always.
        """
        raise NotImplementedError("Cell.get_func_graph_proto: hookgrad runs construct eagerly "
                                  "and builds no graph, so there is no graph proto")
