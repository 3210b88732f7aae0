"""Hooks on Cells: registration, the hooked call sequence, and the backward boundary.

Call order inside ``cell(*inputs)`` (SPEC section 5, docs/hooks.md):
1. forward pre-hooks; 2. the backward boundary on construct's tensor inputs; 3. construct (or the
custom-bprop node, hookgrad/hooks/bprop.py); 4. the backward boundary on construct's tensor
outputs; 5. forward hooks. A boundary is an identity node whose backward runs the backward
hooks (input side) or backward pre-hooks (output side), so those hooks see exactly construct's
gradients: operations added by forward (pre-)hooks lie outside them. Hooks are called, and what
they return is checked, in hookgrad/hooks/calling.py.
"""
import weakref
from collections import namedtuple
from functools import partial

from .._frames import warn
from .._tensor import Tensor
from ..autograd.function import Node, Op, carries_gradient, effect, is_diff_tensor, link
from ..autograd.state import grad_enabled as _grad_enabled
from ..kernels import backend as _backend
from . import calling, replaced
from .bprop import call as bprop_call
from .handle import HookStore, check_hook, hook_name

KINDS = ('forward_pre', 'forward', 'backward_pre', 'backward')
HookInfo = namedtuple('HookInfo', 'kind cell_path name hook')

version = 0     # bumped by every change of any cell's hooks (graph-mode programs check it)


def changed():
    global version
    version += 1


class HookEntry:
    """A registered cell hook and how to call it."""

    __slots__ = ('fn', 'with_kwargs', 'always_call')

    def __init__(self, fn, with_kwargs, always_call):
        self.fn = fn
        self.with_kwargs = with_kwargs
        self.always_call = always_call


class CellHooks:
    """The four hook stores of one cell; created at its first registration and dropped (the
    cell's ``_hooks`` back to None) when the last hook is removed."""

    __slots__ = KINDS

    def __init__(self, cell):
        emptied = partial(_release, weakref.ref(cell))
        for kind in KINDS:
            setattr(self, kind, HookStore(emptied, changed))

    def __bool__(self):
        return bool(self.forward_pre or self.forward or self.backward_pre or self.backward)

    def clear(self):
        """Unregister every hook, as each handle's ``remove()`` would: the call records of a
        backward pass under way hold these stores, so hooks not yet run in it do not run."""
        for kind in KINDS:
            getattr(self, kind).clear()


def _release(cell_ref):
    cell = cell_ref()
    if cell is not None:
        hooks = cell.__dict__.get('_hooks')
        if hooks is not None and not hooks:
            cell.__dict__['_hooks'] = None      # back on Cell.__call__'s hook-free path


def missing_init(cell):
    """The error message for a cell used before ``super().__init__()`` ran."""
    return (f"{type(cell).__name__}.__init__ must call super().__init__() before assigning "
            f"Parameters or Cells (and before the cell is called)")


def register(cell, kind, hook, prepend=False, with_kwargs=False, always_call=False):
    """Add ``hook`` of ``kind`` to ``cell`` (a hook that cannot take the arguments it gets
    fails when it fires, as in MindSpore: hooks/calling.py)."""
    if '_params' not in cell.__dict__:
        raise RuntimeError(missing_init(cell))
    check_hook(hook, f"Cell '{cell.path()}' register_{kind}_hook")
    hooks = cell.__dict__.get('_hooks')
    if hooks is None:
        hooks = cell.__dict__['_hooks'] = CellHooks(cell)
    return getattr(hooks, kind).add(HookEntry(hook, with_kwargs, always_call), prepend=prepend)


def list_hooks(root):
    """Every cell hook below ``root``, in tree order then kind order then registration order."""
    out = []
    for _, cell in root.cells_and_names():
        hooks = cell.__dict__.get('_hooks')
        if not hooks:
            continue
        for kind in KINDS:
            for entry in getattr(hooks, kind).values():
                out.append(HookInfo(kind, cell.path(), hook_name(entry.fn), entry.fn))
    return out


# --------------------------------------------------------------------------- the hooked call
def call(cell, hooks, args, kwargs):
    """``cell(*args, **kwargs)`` for a cell with hooks.

    Each hook call and each boundary goes through ``effect``: a graph-mode program replays them
    as they are (the hooks run again on every call), around the recorded ops of construct.
    """
    if hooks.forward_pre:
        for entry in hooks.forward_pre.snapshot():
            new = effect(_pre_hook, entry, cell, args, kwargs)
            if new is not None:
                args, kwargs = new
    record = None
    inner = args
    if (hooks.backward or hooks.backward_pre) and _grad_enabled():
        record = effect(_CallRecord, cell, hooks)
        if hooks.backward:
            inner = effect(_input_boundary, record, args)
    try:
        if cell._has_bprop:
            out = bprop_call(cell, inner, kwargs)
        else:
            out = cell.construct(*inner, **kwargs)
    except Exception:
        if hooks.forward:
            _always_call_hooks(cell, hooks, args, kwargs)
        raise
    if record is not None:
        out = effect(_output_boundary, record, out)
    if hooks.forward:
        for entry in hooks.forward.snapshot():
            new = effect(_forward_hook, entry, cell, args, kwargs, out)
            if new is not None:
                out = new
    return out


def _pre_hook(entry, cell, args, kwargs):
    """One forward pre-hook: None, or the ``(args, kwargs)`` it replaces them with."""
    if entry.with_kwargs:
        r = calling.call(entry.fn, (cell, args, kwargs), 'forward pre hook', cell)
        if r is None:
            return None
        name = f"{calling.who('forward pre hook', entry.fn, cell)} (with_kwargs)"
        if not (isinstance(r, tuple) and len(r) == 2):      # RuntimeError, as MindSpore's
            raise RuntimeError(f"{name} must return None or a tuple of (new_args, new_kwargs), "
                               f"got {type(r).__name__}")
        if not isinstance(r[1], dict):
            raise TypeError(f"{name} returned new_kwargs of type {type(r[1]).__name__}, "
                            f"expected a dict")
        new, kwargs = (r[0] if isinstance(r[0], tuple) else (r[0],)), r[1]
    else:
        r = calling.call(entry.fn, (cell, args), 'forward pre hook', cell)
        if r is None:
            return None
        new = calling.forward_inputs(r, args, kwargs, entry.fn, cell)
    replaced.remember('forward pre hook', entry.fn, cell, new, args)    # named by errors
    return new, kwargs


def _forward_hook(entry, cell, args, kwargs, out):
    """One forward hook: None, or the outputs it replaces construct's with."""
    if entry.with_kwargs:
        r = calling.call(entry.fn, (cell, args, kwargs, out), 'forward hook', cell)
    else:
        r = calling.call(entry.fn, (cell, args, out), 'forward hook', cell)
    if r is None:
        return None
    r = calling.forward_outputs(r, out, entry.fn, cell)
    replaced.remember('forward hook', entry.fn, cell, r, out)   # named by errors it causes
    return r


def _always_call_hooks(cell, hooks, args, kwargs):
    for entry in hooks.forward.snapshot():
        if entry.always_call:
            try:
                if entry.with_kwargs:
                    entry.fn(cell, args, kwargs, None)
                else:
                    entry.fn(cell, args, None)
            except Exception as e:      # the original exception is the one to report
                warn(f"{calling.who('forward hook', entry.fn, cell)} raised {e!r} "
                     f"while handling an exception from construct")


class _CallRecord:
    """One call of a hooked cell: links its two boundaries within a backward pass."""

    __slots__ = ('cell', 'hooks', 'n_inputs', 'positions', 'out_positions', 'n_outputs',
                 'grad_output')

    def __init__(self, cell, hooks):
        self.cell = cell
        self.hooks = hooks
        self.grad_output = None
        self.positions = ()     # the inputs' boundary sets them, when it is made


_FIRST = (0,)


def _input_boundary(record, args):
    if len(args) == 1 and is_diff_tensor(args[0]):          # the common case, unrolled
        record.n_inputs = 1
        record.positions = _FIRST
        return (_boundary(_INPUTS, record, args)[0],)
    positions = [i for i, a in enumerate(args) if is_diff_tensor(a)]
    record.n_inputs = len(args)
    record.positions = positions
    if not positions:
        return args
    outs = _boundary(_INPUTS, record, [args[i] for i in positions])
    new = list(args)
    for i, t in zip(positions, outs):
        new[i] = t
    return tuple(new)


def _output_boundary(record, out):
    if isinstance(out, Tensor):                             # the common case, unrolled
        record.n_outputs = 1
        if out.requires_grad and (out._data.dtype.kind in 'fV' or carries_gradient(out)):
            record.out_positions = _FIRST
            return _boundary(_OUTPUTS, record, (out,))[0]
        record.out_positions = ()
        return out
    items = list(out) if isinstance(out, (tuple, list)) else [out]
    positions = [i for i, o in enumerate(items) if is_diff_tensor(o) and o.requires_grad]
    record.out_positions = positions
    record.n_outputs = len(items)
    if not positions:
        return out
    wrapped = _boundary(_OUTPUTS, record, [items[i] for i in positions])
    for i, t in zip(positions, wrapped):
        items[i] = t
    if isinstance(out, (tuple, list)):
        return type(out)(items)
    return items[0]


_INPUTS, _OUTPUTS = 'inputs', 'outputs'


def _boundary(side, record, xs):
    """One boundary node over ``xs``; its outputs share xs's arrays (an identity saves nothing
    and never broadcasts, so the node costs a few slot stores)."""
    node = _new(Node)       # new_node, inline on the hot path
    node.op = CellBoundary
    node.saved = ()
    node.record = record
    node.side = side
    if len(xs) == 1:
        x = xs[0]._data
        return (link(node, xs, (x,), x, broadcasts=False),)
    arrays = tuple(x._data for x in xs)
    if not _backend.is_host(arrays[0]):
        node.xp = _backend.array_module(arrays[0])     # zeros for unused outputs go there
    return link(node, xs, arrays, arrays, broadcasts=False)


class CellBoundary(Op):
    """Identity on construct's tensor inputs or outputs. Backward on the output side runs the
    cell's backward pre-hooks on ``grad_output``; on the input side its backward hooks on
    ``grad_input`` (with that call's ``grad_output``). Replacements flow on; otherwise the
    arriving gradients pass untouched."""

    @staticmethod
    def forward(ctx, *xs):
        raise TypeError("CellBoundary nodes are made by calling a Cell that has backward hooks")

    @staticmethod
    def backward(ctx, *gys):
        record = ctx.record
        grad_output = None
        if ctx.side is _OUTPUTS:
            positions = record.out_positions
            grads = _spread(gys, positions, record.n_outputs)
            store, kind, label = record.hooks.backward_pre, 'backward pre hook', 'grad_output'
        else:
            # the output side's gradients, for the backward hooks: let go of them here, so that
            # a hooked cell's grad_output lives until its inputs' gradients, not the graph's end
            grad_output, record.grad_output = record.grad_output, None
            positions = record.positions
            grads = _spread(gys, positions, record.n_inputs)
            store, kind, label = record.hooks.backward, 'backward hook', 'grad_input'
        cell = record.cell
        current, last = grads, None     # the chain: each hook is given the one before's return
        for entry in store.snapshot() if store else ():
            args = (cell, current) if ctx.side is _OUTPUTS else (cell, current, grad_output)
            r = calling.call(entry.fn, args, kind, cell)
            if r is not None:
                current = calling.passed_on(r, grads, kind, entry.fn, cell, label)
                last = entry.fn
        replaced = last is not None
        if replaced:
            grads = calling.gradients(current, grads, kind, last, cell, label, raw=False)
        if ctx.side is _OUTPUTS and record.hooks.backward and record.positions:
            record.grad_output = grads      # kept for the backward hooks on the input side
        return _gather(grads, positions, gys) if replaced else gys


def _spread(gys, positions, n):
    """The gradients arriving at a boundary as hooks see them: Tensors, None at non-tensors."""
    if n == 1:
        g = gys[0]
        return (g if type(g) is Tensor else Tensor._wrap(g),)
    full = [None] * n
    for i, g in zip(positions, gys):
        full[i] = g if isinstance(g, Tensor) else Tensor._wrap(g)
    return tuple(full)


def _gather(grads, positions, old):
    """Hook-replaced gradients back in the boundary's slots, as arrays on the array path."""
    if isinstance(old[0], Tensor):
        return tuple(grads[i] for i in positions)
    return tuple(grads[i]._data for i in positions)


_new = object.__new__
