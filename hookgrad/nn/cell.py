"""Cell: the building block of networks (MindSpore's ``mindspore.nn.Cell``).

A Cell owns its parameters and sub-cells, names them, carries the train/predict state, and runs
the call sequence. Hooks live in one slot, ``_hooks``, that is None while the cell has no hook
(before the first registration and after the last removal): such a cell, without a custom
``bprop`` and with no op observer on, calls ``construct`` directly (hookgrad/hooks/cell_hooks.py
has the hooked sequence, hookgrad/hooks/bprop.py the custom backward).
"""
import copy
import weakref

from .._tensor import Tensor
from ..autograd import function as _function, observer as _observer
from ..autograd.state import current as _state
from ..hooks import bprop as _bprop, cell_hooks, replaced as _replaced
from ..hooks.cell_hooks import missing_init
from . import cell_precision as _precision
from .cell_flags import CellFlags
from .cell_precision import CellPrecision
from .cell_state import CellState
from .cell_internals import CellInternals
from .parameter import Parameter, ParameterTuple, generated_name, is_generated_name


class Cell(CellState, CellFlags, CellPrecision, CellInternals):
    """Base class of network layers and networks.

    Subclasses call ``super().__init__()`` first, assign Parameters and Cells as attributes (they
    register themselves) and define ``construct`` (or ``forward``). Calling the cell runs the hooks
    registered on it around ``construct``; see docs/hooks.md.

    Args:
        auto_prefix: prefix the parameter names of sub-cells with their attribute names
            (Default True); wrappers pass False so the networks they hold keep their names.
        flags: a dict given to ``add_flags`` (also kept as ``self.flags``).

    Buffers, ``state_dict`` and their hooks come from hookgrad/nn/cell_state.py; flags, scopes,
    ``to`` and the compiler and parallel settings from hookgrad/nn/cell_flags.py.

    >>> import hookgrad as ms
    >>> class Scale(ms.nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.k = ms.Parameter(ms.Tensor([2.0]))
    ...     def construct(self, x):
    ...         return x * self.k
    >>> Scale()(ms.Tensor([3.0]))
    Tensor(shape=[1], dtype=Float32, value= [ 6.00000000e+00])
    """

    _has_bprop = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if 'forward' in cls.__dict__ and 'construct' not in cls.__dict__ \
                and cls.construct is Cell.construct:
            cls.construct = cls.__dict__['forward']
        cls._has_bprop = callable(getattr(cls, 'bprop', None))

    def __init__(self, auto_prefix=True, flags=None):
        d = self.__dict__
        d['_params'] = {}
        d['_cells'] = {}
        d['training'] = False
        d['phase'] = 'train'
        d['_hooks'] = None
        d['_prefix'] = ''
        d['_parent'] = None
        d['_auto_prefix'] = auto_prefix
        d['flags'] = flags or {}
        d['requires_grad'] = False
        if flags:
            self.add_flags(**flags)

    # ----------------------------------------------------------------- the call
    def _eager_call(self, *args, **kwargs):
        """The call in PyNative mode: hooks around ``construct`` (see docs/hooks.md). An
        exception leaving it is noted with the forward hook whose changed output its code
        received (hookgrad/hooks/replaced.py; from Python 3.11 the ``try`` costs nothing until
        one is raised)."""
        try:
            if self._amp_dtype is not None:  # a compute dtype (hookgrad/nn/cell_precision.py)
                return _precision.call(self, _call, args, kwargs)
            hooks = self.__dict__.get('_hooks', _UNSET)
            if not _function.observing:
                if hooks is None:
                    if not self._has_bprop:
                        return self.construct(*args, **kwargs)
                    return _bprop.call(self, args, kwargs)
                if hooks is not _UNSET:
                    return cell_hooks.call(self, hooks, args, kwargs)
            return _call(self, hooks, args, kwargs)
        except Exception as e:
            _replaced.note(e)
            raise

    def _graph_call(self, *args, **kwargs):
        """The call in GRAPH_MODE: a program of this cell's calls (a call inside another
        jitted call or Cell runs within that one's program)."""
        from ..jit.function import JitFunction, nested
        if nested():
            return self._eager_call(*args, **kwargs)
        compiled = self.__dict__.get('_graph')
        if compiled is None:
            compiled = self.__dict__['_graph'] = JitFunction(self._eager_call)
        inputs = self.__dict__.get('_dynamic_inputs')
        if inputs is not None:
            from ..jit.function import check_inputs
            check_inputs(f"Cell '{self.path()}' (set_inputs)", _flat_tensors(inputs),
                         _flat_tensors(args))
        return compiled(*args, **kwargs)

    __call__ = _eager_call

    def set_inputs(self, *inputs):
        """Declare the inputs of this cell's graph-mode calls: Tensors whose shape may hold None
        for a dimension of any size (``Tensor(shape=[None, 3], dtype=ms.float32)``).

        An input given to ``construct`` as a tuple or list is declared as a tuple or list of
        such Tensors (nested as deeply as the call nests them). Any other value (a number, a
        tuple of ints, None) stands for a constant argument, as in MindSpore, and is not
        checked. Every graph-mode call's Tensors are checked against the declared ones (rank,
        dtype, fixed dimensions); a program is traced once per concrete shape and replayed for
        every call of that shape.
        """
        self.__dict__['_dynamic_inputs'] = inputs

    def set_jit_config(self, jit_config):
        """Keep MindSpore's compile options (a ``JitConfig``) for this cell; tracing needs none
        of them (``jit_config`` reads them back)."""
        from ..jit import JitConfig
        if not isinstance(jit_config, JitConfig):
            raise TypeError(f"Cell '{self.path()}'.set_jit_config: expected a JitConfig, got "
                            f"{type(jit_config).__name__}")
        self.__dict__['jit_config'] = jit_config

    def get_inputs(self):
        """The inputs declared by ``set_inputs`` (None when there are none)."""
        return self.__dict__.get('_dynamic_inputs')

    def construct(self, *args, **kwargs):
        """The computation of this cell; subclasses define it (or ``forward``)."""
        raise TypeError(f"{type(self).__name__} defines no construct (or forward) method")

    # ----------------------------------------------------------------- registration
    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get('_params')
        if params is None:
            if isinstance(value, (Parameter, Cell)):
                raise RuntimeError(missing_init(self))
            object.__setattr__(self, name, value)
            return
        cells = d['_cells']
        if name in d.get('_buffers', ()) and self._set_buffer(name, value):
            return
        if name in d.get('_tuples', ()) and not isinstance(value, ParameterTuple):
            for key in d['_tuples'].pop(name):
                params.pop(key, None)
        if isinstance(value, Parameter):
            cells.pop(name, None)
            self.insert_param_to_cell(name, value)
        elif isinstance(value, ParameterTuple):
            _register_tuple(self, name, value)
            object.__setattr__(self, name, value)
        elif isinstance(value, (list, tuple)) and value and \
                all(isinstance(p, Parameter) for p in value):
            _check_listed_names(self, name, value)
            object.__setattr__(self, name, value)
        elif isinstance(value, Cell):
            params.pop(name, None)
            self._add_child(name, value)
        else:
            if value is None and (name in params or name in cells):
                params.pop(name, None)
                cells.pop(name, None)
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        # only for names not found: a layer's MindSpore primitive attribute (made on first use),
        # else say whether MindSpore's Cell has the name
        if name.startswith('__'):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        for klass in type(self).__mro__:
            make = klass.__dict__.get('_primitive_attributes', {}).get(name)
            if make is not None:
                value = make(self)
                object.__setattr__(self, name, value)
                return value
        from ..compat.names import member_error
        raise member_error('Cell', self, name)

    def __delattr__(self, name):
        d = self.__dict__
        d.get('_params', {}).pop(name, None)
        d.get('_cells', {}).pop(name, None)
        d.get('_buffers', {}).pop(name, None)
        for key in d.get('_tuples', {}).pop(name, ()):
            d['_params'].pop(key, None)
        object.__delattr__(self, name)

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        """Register ``param`` as ``self.<param_name>`` and name it (see SPEC 3)."""
        if not isinstance(param, Parameter):
            raise TypeError(f"insert_param_to_cell: expected a Parameter for '{param_name}', "
                            f"got {type(param).__name__}")
        if check_name_contain_dot and '.' in param_name:
            raise KeyError(f"insert_param_to_cell: the name '{param_name}' must not contain '.'")
        self.__dict__['_params'][param_name] = param
        object.__setattr__(self, param_name, param)
        if _owner(param) is None:
            param._owner = weakref.ref(self)
        _name_param(self, param_name, param)

    def insert_child_to_cell(self, child_name, child_cell):
        """Register ``child_cell`` as ``self.<child_name>`` and prefix its parameters' names;
        None reserves the name (an empty slot, as in MindSpore).

        Raises:
            TypeError: a name that is not a str, or a child that is neither a Cell nor None.
            KeyError: an empty or dotted name, or one another attribute of the cell holds.
        """
        if not isinstance(child_name, str):
            raise TypeError(f"For 'insert_child_to_cell', the type of parameter 'child_name' "
                            f"must be str, but got {type(child_name)}.")
        if not child_name or '.' in child_name:
            raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not be "
                           "None and can not contain '.' ")
        if child_name not in self._cells and hasattr(self, child_name):
            raise KeyError(f"For 'insert_child_to_cell', the {child_name} child cell already "
                           f"exists in the network.Cannot insert another child cell with the "
                           f"same name.")
        if child_cell is None:
            self.__dict__['_cells'][child_name] = None
            object.__setattr__(self, child_name, None)
            return
        if not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be "
                            f"'Cell' if not None, but got type {type(child_cell)}.")
        self._add_child(child_name, child_cell)

    def _add_child(self, child_name, child_cell):
        """Register the Cell ``child_cell`` as ``self.<child_name>`` (attribute assignment and
        the containers come here; ``insert_child_to_cell`` checks the name first)."""
        if '_params' not in child_cell.__dict__:
            raise RuntimeError(missing_init(child_cell))
        self.__dict__['_cells'][child_name] = child_cell
        object.__setattr__(self, child_name, child_cell)
        if child_cell._parent is None:
            child_cell.__dict__['_parent'] = (weakref.ref(self), child_name)
        if self._auto_prefix:
            _set_prefix(child_cell, _join(self._prefix, child_name))

    # ----------------------------------------------------------------- traversal
    def parameters_and_names(self, name_prefix='', expand=True):
        """Yield ``(path, parameter)`` for every parameter, each once, in registration order."""
        seen = set()
        cells = self.cells_and_names(name_prefix) if expand else [(name_prefix, self)]
        for prefix, cell in cells:
            for name, p in cell._params.items():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    yield _join(prefix, name), p

    def parameters_dict(self, recurse=True):
        """An ordered ``{parameter name: parameter}`` dict (``recurse``: sub-cells' too)."""
        return {p.name: p for p in self.get_parameters(expand=recurse)}

    def init_parameters_data(self, auto_parallel_mode=False):
        """Initialize every parameter; returns ``{parameter: initialized parameter}``.

        hookgrad initializes values when a Parameter is created, so each parameter maps to
        itself (MindSpore may replace lazily initialized ones).

        Raises:
            ValueError: for ``auto_parallel_mode=True``: hookgrad has no auto-parallel mode.
        """
        if auto_parallel_mode is not False:
            raise ValueError(f"Cell '{self.path()}'.init_parameters_data: auto_parallel_mode="
                             f"{auto_parallel_mode!r} cannot be honoured: hookgrad has no "
                             f"auto-parallel mode")
        replaced = {}
        for _, cell in self.cells_and_names():
            for p in cell._params.values():
                if p is not None:
                    replaced[p] = p.init_data()
        return replaced

    def get_parameters(self, expand=True):
        """A generator over every parameter (each once)."""
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse=True):
        """The parameters with ``requires_grad=True``, as a list."""
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        """The parameters with ``requires_grad=False``, as a list."""
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def cells_and_names(self, cell_prefix=''):
        """Yield ``(path, cell)`` for this cell (path ``''``) and every sub-cell, each once."""
        seen = set()
        stack = [(cell_prefix, self)]
        while stack:
            prefix, cell = stack.pop()
            if id(cell) in seen:
                continue
            seen.add(id(cell))
            yield prefix, cell
            children = [(_join(prefix, n), c) for n, c in cell._cells.items() if c is not None]
            stack.extend(reversed(children))

    def name_cells(self):
        """The direct sub-cells as an ordered ``{name: cell}`` dict."""
        return dict(self._cells)

    def cells(self):
        """The direct sub-cells, as a list."""
        return list(self._cells.values())

    def apply(self, fn):
        """Call ``fn(cell)`` on every sub-cell and then on this cell; return self."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    # ----------------------------------------------------------------- state
    def set_train(self, mode=True):
        """Train (``True``, phase 'train') or predict (``False``, phase 'predict') mode,
        recursively."""
        mode = bool(mode)
        phase = 'train' if mode else 'predict'
        for _, cell in self.cells_and_names():
            cell.__dict__['training'] = mode
            cell.__dict__['phase'] = phase
            cell.__dict__.setdefault('_func_graph_flags', {})['training'] = mode   # get_flags
        return self

    def set_grad(self, requires_grad=True):
        """Set this cell's ``requires_grad`` flag (MindSpore builds backward graphs for cells
        that have it; hookgrad records whenever an input requires a gradient); returns self."""
        if not isinstance(requires_grad, bool):
            raise TypeError(f"Cell '{self.path()}'.set_grad: requires_grad must be a bool, got "
                            f"{requires_grad!r}")
        self.__dict__['requires_grad'] = requires_grad
        return self

    @property
    def cls_name(self):
        return type(self).__name__

    def path(self):
        """This cell's attribute path from the outermost cell holding it (``'Net.fc1'``)."""
        parts = []
        cell = self
        while True:
            parent = cell._parent
            if parent is None:
                parts.append(type(cell).__name__)
                break
            ref, name = parent
            parts.append(name)
            cell = ref()
            if cell is None:
                break
        return '.'.join(reversed(parts))

    def __deepcopy__(self, memo):
        """A deep copy whose sub-cells' parent links point into the copy (the weak references
        would otherwise keep naming the original tree); a copied sub-cell alone is a root."""
        clone = type(self).__new__(type(self))
        memo[id(self)] = clone
        d = clone.__dict__
        for key, value in self.__dict__.items():
            d[key] = None if key == '_parent' else copy.deepcopy(value, memo)
        if self._parent is not None:
            parent = memo.get(id(self._parent[0]()))
            if parent is not None:
                d['_parent'] = (weakref.ref(parent), self._parent[1])
        return clone

    # ----------------------------------------------------------------- hooks
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """Register ``hook(cell, inputs) -> None | new inputs``, run before ``construct``.

        A non-tuple return is taken as a one-element tuple; the next hook sees the replacement.
        With ``with_kwargs=True`` the hook is ``hook(cell, args, kwargs) -> None | (args, kwargs)``.
        ``prepend=True`` runs it before the hooks already registered. See docs/hooks.md.
        Returns a handle whose ``remove()`` unregisters the hook.
        """
        return cell_hooks.register(self, 'forward_pre', hook, prepend=prepend,
                                   with_kwargs=with_kwargs)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """Register ``hook(cell, inputs, outputs) -> None | new outputs``, run after ``construct``.

        With ``with_kwargs=True`` the hook is ``hook(cell, args, kwargs, outputs)``;
        ``always_call=True`` runs it (with ``outputs=None``) even when ``construct`` raises.
        See docs/hooks.md. Returns a handle whose ``remove()`` unregisters the hook.
        """
        return cell_hooks.register(self, 'forward', hook, prepend=prepend,
                                   with_kwargs=with_kwargs, always_call=always_call)

    def register_backward_pre_hook(self, hook, *, prepend=False):
        """Register ``hook(cell, grad_output) -> None | tuple``, run when the gradient w.r.t.
        ``construct``'s outputs is complete; a returned tuple replaces it. See docs/hooks.md."""
        return cell_hooks.register(self, 'backward_pre', hook, prepend=prepend)

    def register_backward_hook(self, hook, *, prepend=False):
        """Register ``hook(cell, grad_input, grad_output) -> None | tuple``, run when the gradients
        w.r.t. ``construct``'s inputs are complete; a returned tuple replaces grad_input.
        See docs/hooks.md."""
        return cell_hooks.register(self, 'backward', hook, prepend=prepend)

    register_forward_post_hook = register_forward_hook          # Paddle
    register_full_backward_hook = register_backward_hook        # PyTorch
    register_full_backward_pre_hook = register_backward_pre_hook

    def hooks(self):
        """Every cell hook in this cell tree: a list of
        ``HookInfo(kind, cell_path, name, hook)``."""
        return cell_hooks.list_hooks(self)

    def remove_hooks(self, recurse=True):
        """Unregister every cell hook of this cell (and of its sub-cells with ``recurse``).

        Called during backward, it stops the hooks not yet run in that pass, as
        ``handle.remove()`` does (see docs/hooks.md)."""
        cells = [c for _, c in self.cells_and_names()] if recurse else [self]
        for cell in cells:
            hooks = cell.__dict__.get('_hooks')
            if hooks is not None:
                hooks.clear()       # the stores a pass under way reads
            cell.__dict__['_hooks'] = None
        cell_hooks.changed()

    # ----------------------------------------------------------------- printing
    def extend_repr(self):
        """Extra text shown inside this cell's repr (layers describe their configuration)."""
        return ''

    def __repr__(self):
        """MindSpore's form: ``Name(extra)``, sub-cells on indented lines ``(name): repr``."""
        extra = self.extend_repr()
        lines = extra.split('\n') if extra else []
        children = [f"({name}): {_indent(repr(cell))}" for name, cell in self._cells.items()
                    if cell is not None]
        if len(lines) == 1 and not children:
            return f"{type(self).__name__}({lines[0]})"
        body = lines + children
        inner = "\n  " + "\n  ".join(body) + "\n" if body else ''
        return f"{type(self).__name__}({inner})"

    __str__ = __repr__


_UNSET = object()


def _call(cell, hooks, args, kwargs):
    """The call of a cell while op observers are on (they are told the executing cell), or of
    a cell whose ``__init__`` skipped ``super().__init__()``."""
    if hooks is _UNSET:
        raise RuntimeError(missing_init(cell))
    frame = _observer.enter_cell(cell) if _state().observers else None
    try:
        if hooks is not None:
            return cell_hooks.call(cell, hooks, args, kwargs)
        if cell._has_bprop:
            return _bprop.call(cell, args, kwargs)
        return cell.construct(*args, **kwargs)
    finally:
        if frame is not None:
            _observer.exit_cell(frame)


def _join(prefix, name):
    return f"{prefix}.{name}" if prefix else name


def _flat_tensors(values):
    """The Tensors of ``values`` and of the tuples and lists in them, depth first, in order."""
    out = []
    for v in values:
        if isinstance(v, Tensor):
            out.append(v)
        elif isinstance(v, (tuple, list)):
            out.extend(_flat_tensors(v))
    return out


def _owner(param):
    """The cell that first registered ``param`` while it is alive, else None. A parameter keeps
    the name that cell's path gave it when other cells hold it too (a tied weight: MindSpore
    names it once)."""
    ref = param._owner
    return None if ref is None else ref()


def _name_param(cell, attr, param):
    if _owner(param) not in (None, cell):
        return
    prefix = cell._prefix
    if prefix:
        param.name = _join(prefix, attr)
    elif is_generated_name(param.name):
        param.name = attr


def _register_tuple(cell, attr, params):
    """Register the Parameters of a ParameterTuple held as ``cell.<attr>`` under their names,
    as MindSpore does: a generated name becomes 'Parameter$<k>' (k counting per cell)."""
    d = cell.__dict__
    for key in d.setdefault('_tuples', {}).pop(attr, ()):
        d['_params'].pop(key, None)
    keys, seen = [], set()
    for p in params:
        if id(p) in seen:
            continue
        seen.add(id(p))
        if is_generated_name(p.name):
            d['_tuple_ids'] = k = d.get('_tuple_ids', 0) + 1
            p.name = f"Parameter${k}"
        key = p.name
        if key in keys:
            raise ValueError(f"Cell '{cell.path()}': two parameters of '{attr}' are named "
                             f"'{key}'; names must be unique")
        keys.append(key)
        d['_params'][key] = p
        _name_param(cell, key, p)
    d['_tuples'][attr] = keys


def _check_listed_names(cell, attr, params):
    """Parameters kept in lists or tuples of a cell get a generated name when they have none,
    and must have distinct names (MindSpore's check: they are not registered, so nothing else
    would catch a clash in a checkpoint)."""
    listed = cell.__dict__.setdefault('_listed', {})
    for p in params:
        if p.name is None:
            p.name = generated_name()
        other = listed.setdefault(p.name, p)
        if other is not p:
            raise ValueError(f"Cell '{cell.path()}': the parameter in '{attr}': its name "
                             f"'{p.name}' already exists in this cell. Please set a unique name "
                             f"for the parameter.")


def _set_prefix(cell, prefix):
    """Give ``cell`` its path and rename every parameter below it by attribute path, as
    MindSpore renames a cell's parameters when a parent with ``auto_prefix`` takes it (a parent
    with ``auto_prefix=False``, such as WithLossCell, renames nothing, so wrapped networks keep
    their names; a rename from further up still spells the whole attribute path)."""
    cell.__dict__['_prefix'] = prefix
    for attr, p in cell._params.items():
        if p is not None and _owner(p) in (None, cell):
            p.name = _join(prefix, attr)
    for name, child in cell._cells.items():
        if child is not None:
            _set_prefix(child, _join(prefix, name))


def _indent(text):
    return text.replace('\n', '\n  ')
