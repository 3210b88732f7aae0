"""A Cell's flags, scopes, dtype moves and the compiler and parallel settings of MindSpore 2.10's
``nn.Cell`` that one CPU process can take.

Settings that only change how MindSpore places or schedules work (``recompute``, ``shard``,
``set_data_parallel``, ``set_comm_fusion``, ``pipeline_stage``) change no value: in one process
MindSpore gives the same results with or without them, and so does hookgrad, which checks their
arguments as MindSpore does and keeps the flags they set. What needs a graph compiler that
hookgrad does not have raises an error saying so.
"""
from collections import OrderedDict
import re

import numpy as np

from .._frames import warn
from .. import _dtype
from .._tensor import Tensor
from ..autograd.function import effect
from ..compat.checkparam import GE, check_integral
from .cell_internals import check_property_type
from .parameter import _replace_data

_NAME_PATTERN = re.compile(r'^\w*[0-9a-zA-Z\_\.\-]*$', re.ASCII)
_RECOMPUTE_KEYS = ('mp_comm_recompute', 'parallel_optimizer_comm_recompute',
                   'recompute_slice_activation')


class CellFlags:
    """Flags, scopes, names and settings; mixed into ``nn.Cell``."""

    # ----------------------------------------------------------------- flags
    def add_flags(self, **flags):
        """Set ``flags`` as attributes of this cell and keep them for ``get_flags``; returns
        self."""
        self.__dict__.setdefault('_func_graph_flags', {}).update(flags)
        self.__dict__.update(flags)
        return self

    def add_flags_recursive(self, **flags):
        """``add_flags`` on this cell and every sub-cell; returns self."""
        self.add_flags(**flags)
        for cell in self.cells():
            cell.add_flags_recursive(**flags)
        return self

    def get_flags(self):
        """The flags set by ``add_flags`` (and the ``flags`` argument), as a dict."""
        return self.__dict__.setdefault('_func_graph_flags', {})

    def set_boost(self, boost_type):
        """MindSpore's accelerating algorithm ``'less_bn'``: sets the flag ``less_bn=True`` on
        every cell (read by MindSpore's boost training; hookgrad has none); returns self.

        Raises:
            ValueError: for another ``boost_type``.
        """
        if boost_type not in ('less_bn',):
            raise ValueError(f"For 'set_boost', the argument 'boost_type' must be 'less_bn', "
                             f"but got {boost_type}.")
        return self.add_flags_recursive(less_bn=True)

    def set_broadcast_flag(self, mode=True):
        """Set the flag ``broadcast_flag`` on every cell; returns self."""
        return self.add_flags_recursive(broadcast_flag=mode)

    @property
    def bprop_debug(self):
        """Whether a custom ``bprop`` runs in Python (it always does in hookgrad)."""
        return self.__dict__.get('_bprop_debug', False)

    @bprop_debug.setter
    def bprop_debug(self, value):
        check_property_type('bprop_debug', value, bool, 'bool')
        self.__dict__['_bprop_debug'] = value

    @property
    def enable_backward_hook(self):
        """Whether this cell has a backward hook or backward pre-hook registered."""
        hooks = self.__dict__.get('_hooks')
        return bool(hooks is not None and (hooks.backward or hooks.backward_pre))

    @property
    def cell_init_args(self):
        """A string describing how this cell was built (set by ``lazy_inline``), or None."""
        return self.__dict__.get('_cell_init_args')

    @cell_init_args.setter
    def cell_init_args(self, value):
        check_property_type('cell_init_args', value, str, 'string')
        self.__dict__['_cell_init_args'] = value

    # ----------------------------------------------------------------- names and scopes
    def get_scope(self):
        """This cell's scope ('Default/fc1-Dense' once ``generate_scope`` ran on the
        network, 'recompute_...' under ``recompute``), or None."""
        return self.__dict__.get('_scope')

    def generate_scope(self):
        """Give every sub-cell its scope: 'Default/<path>' with each step as
        '<name>-<ClassName>' (or '<name>' with ``reserve_class_name_in_scope=False``)."""
        from ..context import get_context
        with_class = get_context('reserve_class_name_in_scope') is not False  # default True
        stack = [('Default', self)]
        while stack:
            prefix, cell = stack.pop()
            for name, child in cell.name_cells().items():
                scope = f"{prefix}/{name}" + (f"-{type(child).__name__}" if with_class else '')
                _set_scope(child, scope)
                stack.append((scope, child))

    def update_parameters_name(self, prefix='', recurse=True):
        """Rename every parameter to ``prefix`` + its attribute path.

        Raises:
            TypeError: ``prefix`` is not a str. ValueError: it holds characters other than
            letters, digits, '_', '.' and '-'.
        """
        if not isinstance(prefix, str):
            raise TypeError(f"Cell '{self.path()}'.update_parameters_name: prefix must be a "
                            f"str, got {type(prefix).__name__}")
        if _NAME_PATTERN.match(prefix) is None:
            raise ValueError(f"The '{prefix}' is illegal, it must be match regular"
                             f"'^\\w*[0-9a-zA-Z\\_\\.\\-]*$' by flags're.ASCII.'")
        for name, param in list(self.parameters_and_names(expand=recurse)):
            param.name = prefix + name

    def update_cell_prefix(self):
        """Set every cell's ``param_prefix`` to its path from this cell ('' for this cell)."""
        for path, cell in self.cells_and_names():
            cell.__dict__['_param_prefix'] = path

    @property
    def param_prefix(self):
        """The path set by ``update_cell_prefix`` ('' before)."""
        return self.__dict__.get('_param_prefix', '')

    def update_cell_type(self, cell_type):
        """Set ``cell_type`` (MindSpore's quantization tools write 'quant' or 'second-order')."""
        self.__dict__['cell_type'] = cell_type

    def parameters_broadcast_dict(self, recurse=True):
        """``{name: parameter}`` of the parameters that are not layerwise parallel (those a
        broadcast would send), or None when there are none."""
        params = OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse)
                             if p.layerwise_parallel is False)
        return params or None

    @property
    def exist_names(self):
        """The names of the parameters this cell keeps in lists and tuples."""
        return set(self.__dict__.get('_listed', {}))

    def check_names(self):
        """Check that every parameter of the network has a distinct name.

        Raises:
            ValueError: naming the first parameter whose name is taken.
        """
        names = set()
        for path, param in self.parameters_and_names():
            if param.name in names:
                raise ValueError(f"The value of {path} is {param}, its name '{param.name}' "
                                 f"already exists. Please set a unique name for the parameter.")
            names.add(param.name)

    def check_names_and_refresh_name(self):
        """When parameter names repeat, rename every parameter by its path and check again."""
        names = [p.name for _, p in self.parameters_and_names()]
        if len(set(names)) < len(names):
            self.update_parameters_name()
            self.check_names()

    # ----------------------------------------------------------------- dtype
    def to(self, *args, **kwargs):
        """Cast the floating-point parameters and buffers of this cell and its sub-cells.

        Forms: ``to(device=None, dtype=None, non_blocking=False)``, ``to(dtype,
        non_blocking=False)``, ``to(tensor, non_blocking=False)`` (the tensor's dtype).
        Parameters are changed in place (optimizers holding them see the new dtype); buffers
        are replaced. Integer and bool ones keep their dtype.

        Returns:
            Cell, self.

        Raises:
            TypeError: for arguments that fit no form, or a dtype that is not floating point.
            ValueError: for a device other than 'CPU' (hookgrad computes on the CPU).
        """
        device, dtype = _parse_to(self, args, kwargs)
        if device is not None and device != 'CPU':
            raise ValueError(f"Cell.to: hookgrad computes on the CPU (with NumPy); device "
                             f"{device!r} is not available")
        if dtype is None:
            return self
        np_dtype = _dtype.to_numpy(dtype)
        for _, cell in self.cells_and_names():
            for p in cell._params.values():
                if p is not None and p._data.dtype.kind in 'fV':
                    effect(_replace_data, p, p._data.astype(np_dtype))
            buffers = cell.__dict__.get('_buffers', {})
            for name, buf in buffers.items():
                if buf is not None and buf._data.dtype.kind in 'fV':
                    new = Tensor._wrap(buf._data.astype(np_dtype))
                    buffers[name] = new
                    object.__setattr__(cell, name, new)
        return self

    # ----------------------------------------------------------------- compiler and parallel
    def recompute(self, *, use_reentrant=True, output_recompute=False, early_stop=True,
                  context_fn=None, **kwargs):
        """Accepted: MindSpore recomputes this cell's activations in backward instead of
        keeping them, trading time for memory; values and gradients are the same, and hookgrad
        keeps them. Sets the flag ``output_recompute`` and the 'recompute_' scope as MindSpore.

        Raises:
            TypeError: ``output_recompute`` or a ``*_recompute`` keyword is not a bool.
            ValueError: for another keyword.
        """
        if not isinstance(output_recompute, bool):
            raise TypeError(f"The parameter 'output_recompute' must be <class 'bool'>, but got "
                            f"{type(output_recompute)}")
        for key in ('mp_comm_recompute', 'parallel_optimizer_comm_recompute'):
            if key in kwargs and not isinstance(kwargs[key], bool):
                raise TypeError(f"The parameter '{key}' must be <class 'bool'>, but got "
                                f"{type(kwargs[key])}")
        for key in kwargs:
            if key not in _RECOMPUTE_KEYS:
                raise ValueError(f"For 'recompute', keyword '{key}' is not recognized! the key "
                                 f"kwargs must be 'mp_comm_recompute', "
                                 f"'parallel_optimizer_comm_recompute', "
                                 f"'recompute_slice_activation'")
        _recompute(self, True, output_recompute)

    def set_data_parallel(self):
        """Accepted: MindSpore reads it only in AUTO_PARALLEL graph mode; one process is data
        parallel already, so nothing changes."""

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None):
        """Accepted: MindSpore returns at once when there is one device (the case here), so the
        strategies change nothing; returns None."""

    def set_comm_fusion(self, fusion_type, recurse=True):
        """Accepted: the fusion group of gradient communication between devices (none in one
        process); ``fusion_type`` is checked as MindSpore checks it. Returns self.

        Raises:
            TypeError: ``fusion_type`` is not an int. ValueError: it is negative.
        """
        check_integral(fusion_type, 0, GE)
        return self

    @property
    def pipeline_stage(self):
        """The pipeline stage of this cell (read by pipeline parallel training), or None."""
        return self.__dict__.get('_pipeline_stage')

    @pipeline_stage.setter
    def pipeline_stage(self, value):
        self.__dict__['_pipeline_stage'] = _stage('pipeline_stage', value)

    @property
    def pipeline_segment(self):
        """The pipeline segment of this cell (zero-bubble-v pipelines), or None."""
        return self.__dict__.get('_pipeline_segment')

    @pipeline_segment.setter
    def pipeline_segment(self, value):
        self.__dict__['_pipeline_segment'] = _stage('pipeline_segment', value)

    def run_construct(self, cast_inputs, kwargs):
        """``construct(*cast_inputs, **kwargs)`` with this cell's hooks (deprecated in
        MindSpore, which warns; MindSpore 2.10 passes the tuple and the dict to construct as
        two arguments, so the documented call fails there)."""
        warn(f"The 'run_construct' function of '{type(self).__name__}' will be removed "
             f"in a future version. Calling this function is not recommended.",
             DeprecationWarning)
        if not isinstance(cast_inputs, tuple):
            cast_inputs = (cast_inputs,)
        return self._eager_call(*cast_inputs, **(kwargs or {}))

    def compile(self, *args, **kwargs):
        """Not available: hookgrad builds a cell's program while running its first graph-mode
        call with those inputs, so it cannot compile without running (``compile_and_run``)."""
        raise RuntimeError(f"Cell '{self.path()}'.compile: hookgrad records a cell's "
                           f"graph-mode program while running its first call with those "
                           f"inputs and has no separate compiler; use compile_and_run(*inputs) "
                           f"or set_context(mode=GRAPH_MODE)")

    def compile_and_run(self, *args, **kwargs):
        """Run this cell as a graph-mode program (recorded at the first call with these input
        shapes, replayed afterwards), whatever the context's mode; returns its outputs."""
        return self._graph_call(*args, **kwargs)

    def register_parameter_forward_hook(self, hook):
        """Not available: MindSpore runs these hooks only in its compiled graphs."""
        raise RuntimeError(f"Cell '{self.path()}'.register_parameter_forward_hook: MindSpore "
                           f"applies parameter forward hooks only in its compiled graphs "
                           f"(jit or GRAPH_MODE); hookgrad does not implement them. Read the "
                           f"parameter through a function in construct, or use a forward "
                           f"pre-hook")

    def register_saved_tensors_hooks(self, pack_hook, unpack_hook):
        """Not available: hookgrad's ops keep the tensors their backward needs themselves."""
        from .._runtime import saved_tensors_error
        raise saved_tensors_error(f"Cell '{self.path()}'.register_saved_tensors_hooks")


def _set_scope(cell, name):
    scope = cell.__dict__.get('_scope')
    if scope is None:
        cell.__dict__['_scope'] = name
    elif scope == 'recompute_':
        cell.__dict__['_scope'] = scope + name


def _recompute(cell, add_flag, output_recompute):
    """MindSpore's ``Cell._recompute``: once per cell, scope 'recompute_', the flag on the cell
    asked, the sub-cells configured with ``output_recompute=True`` and no flag."""
    d = cell.__dict__
    if d.get('_has_config_recompute'):
        return
    d['_has_config_recompute'] = True
    scope = d.get('_scope')
    if scope is None:
        d['_scope'] = 'recompute_'
    elif not scope.startswith('recompute_'):
        d['_scope'] = 'recompute_' + scope
    if add_flag:
        cell.add_flags(output_recompute=output_recompute)
    for child in cell.cells():
        _recompute(child, False, True)


def _stage(what, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For 'Cell', the property '{what}' must be int type, but got type : "
                        f"{type(value)}")
    if value < 0:
        raise ValueError(f"For 'Cell', the property '{what}' can not be less than 0, but got "
                         f"{value}")
    return value


def _parse_to(cell, args, kwargs):
    """``(device, dtype)`` from the three forms of ``Cell.to``."""
    unknown = set(kwargs) - {'device', 'dtype', 'non_blocking', 'tensor'}
    if unknown or len(args) > 3:
        raise TypeError(f"Cell.to: expected to(device=None, dtype=None, non_blocking=False), "
                        f"to(dtype, non_blocking=False) or to(tensor, non_blocking=False), got "
                        f"{len(args)} positional arguments and keywords {sorted(kwargs)}")
    device, dtype = kwargs.get('device'), kwargs.get('dtype')
    tensor = kwargs.get('tensor')
    rest = list(args)
    if rest and isinstance(rest[-1], bool):
        rest.pop()
    for a in rest:
        if isinstance(a, Tensor) and tensor is None:
            tensor = a
        elif isinstance(a, str) and device is None:
            device = a
        elif isinstance(a, _dtype.DType) and dtype is None:
            dtype = a
        else:
            raise TypeError(f"Cell.to: expected to(device=None, dtype=None, "
                            f"non_blocking=False), to(dtype, non_blocking=False) or "
                            f"to(tensor, non_blocking=False), got an argument of type "
                            f"{type(a).__name__}")
    if tensor is not None:
        dtype = tensor.dtype
    if device is not None and not isinstance(device, str):
        raise TypeError(f"Cell.to: device must be a str, got {type(device).__name__}")
    if dtype is not None and not (isinstance(dtype, _dtype.DType)
                                  and np.dtype(_dtype.to_numpy(dtype)).kind in 'fV'):
        raise TypeError(f"Cell.to only accepts floating point or complex dtypes, but got "
                        f"desired dtype={dtype}")
    return device, dtype
