"""Hooks on Cells: registration, the hooked call sequence, and the backward boundaries.

Call order inside ``cell(*inputs)`` (SPEC section 5, docs/hooks.md):
1. forward pre-hooks; 2. the backward boundary on construct's tensor inputs; 3. construct (or the
custom-bprop node); 4. the backward boundary on construct's tensor outputs; 5. forward hooks.
The boundaries are identity nodes whose backward runs the backward (pre-)hooks, so those hooks
see exactly construct's gradients: operations added by forward (pre-)hooks lie outside them.
"""
import inspect
from collections import namedtuple

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op, _edge, Node
from ..autograd.grad_mode import state as _grad
from .handle import HookStore, check_hook, hook_name

KINDS = ('forward_pre', 'forward', 'backward_pre', 'backward')
_ARITY = {'forward_pre': ('hook(cell, inputs)', 2), 'forward': ('hook(cell, inputs, outputs)', 3),
          'backward_pre': ('hook(cell, grad_output)', 2),
          'backward': ('hook(cell, grad_input, grad_output)', 3)}
_KW_ARITY = {'forward_pre': ('hook(cell, args, kwargs)', 3),
             'forward': ('hook(cell, args, kwargs, outputs)', 4)}

HookInfo = namedtuple('HookInfo', 'kind cell_path name hook')


class HookEntry:
    """A registered cell hook and how to call it."""

    __slots__ = ('fn', 'with_kwargs', 'always_call')

    def __init__(self, fn, with_kwargs, always_call):
        self.fn = fn
        self.with_kwargs = with_kwargs
        self.always_call = always_call


class CellHooks:
    """The four hook stores of one cell; created at its first registration."""

    __slots__ = KINDS

    def __init__(self):
        for kind in KINDS:
            setattr(self, kind, HookStore())

    def __bool__(self):
        return bool(self.forward_pre or self.forward or self.backward_pre or self.backward)


def register(cell, kind, hook, prepend=False, with_kwargs=False, always_call=False):
    """Add ``hook`` of ``kind`` to ``cell``; check it can take the arguments it will get."""
    if '_params' not in cell.__dict__:
        from ..nn.cell import _missing_init
        raise RuntimeError(_missing_init(cell))
    what = f"Cell '{cell.path()}' register_{kind}_hook"
    check_hook(hook, what)
    spec, n = (_KW_ARITY if with_kwargs else _ARITY)[kind]
    _check_signature(hook, n, spec, what)
    hooks = cell.__dict__.get('_hooks')
    if hooks is None:
        hooks = cell.__dict__['_hooks'] = CellHooks()
    return getattr(hooks, kind).add(HookEntry(hook, with_kwargs, always_call), prepend=prepend)


def _check_signature(hook, n, spec, what):
    try:
        sig = inspect.signature(hook)
    except (TypeError, ValueError):
        return      # builtins without a signature: checked when called
    try:
        sig.bind(*([None] * n))
    except TypeError:
        raise TypeError(f"{what}: hook '{hook_name(hook)}{sig}' cannot be called as {spec} "
                        f"({n} positional arguments)") from None


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


def _invoke(entry, cell, kind, *args):
    try:
        return entry.fn(cell, *args)
    except Exception as e:
        if hasattr(e, 'add_note'):
            e.add_note(f"(raised in {kind.replace('_', ' ')} hook '{hook_name(entry.fn)}' of "
                       f"Cell '{cell.path()}')")
        raise


# --------------------------------------------------------------------------- the hooked call
def call(cell, args, kwargs):
    """``cell(*args, **kwargs)`` for a cell with hooks or a custom bprop."""
    hooks = cell.__dict__['_hooks']
    if hooks is not None and hooks.forward_pre:
        for entry in hooks.forward_pre.snapshot():
            if entry.with_kwargs:
                r = _invoke(entry, cell, 'forward_pre', args, kwargs)
                if r is not None:
                    if not (isinstance(r, tuple) and len(r) == 2 and isinstance(r[1], dict)):
                        raise TypeError(f"Cell '{cell.path()}' forward pre hook "
                                        f"'{hook_name(entry.fn)}' (with_kwargs) must return None "
                                        f"or (args, kwargs), got {type(r).__name__}")
                    args = r[0] if isinstance(r[0], tuple) else (r[0],)
                    kwargs = r[1]
            else:
                r = _invoke(entry, cell, 'forward_pre', args)
                if r is not None:
                    args = r if isinstance(r, tuple) else (r,)
    record = None
    inner = args
    if hooks is not None and (hooks.backward or hooks.backward_pre) and _grad.enabled:
        record = _CallRecord(cell, hooks)
        if hooks.backward:
            inner = _input_boundary(record, args)
    try:
        if cell._has_bprop:
            out = _bprop_call(cell, inner, kwargs)
        else:
            out = cell.construct(*inner, **kwargs)
    except Exception:
        if hooks is not None and hooks.forward:
            _always_call_hooks(cell, hooks, args, kwargs)
        raise
    if record is not None:
        out = _output_boundary(record, out)
    if hooks is not None and hooks.forward:
        for entry in hooks.forward.snapshot():
            if entry.with_kwargs:
                r = _invoke(entry, cell, 'forward', args, kwargs, out)
            else:
                r = _invoke(entry, cell, 'forward', args, out)
            if r is not None:
                out = r
    return out


def _always_call_hooks(cell, hooks, args, kwargs):
    import warnings
    for entry in hooks.forward.snapshot():
        if entry.always_call:
            try:
                if entry.with_kwargs:
                    entry.fn(cell, args, kwargs, None)
                else:
                    entry.fn(cell, args, None)
            except Exception as e:      # the original exception is the one to report
                warnings.warn(f"forward hook '{hook_name(entry.fn)}' of Cell '{cell.path()}' "
                              f"raised {e!r} while handling an exception from construct")


class _CallRecord:
    """One call of a hooked cell: links its two boundaries within a backward pass."""

    __slots__ = ('cell', 'hooks', 'n_inputs', 'positions', 'out_positions', 'n_outputs',
                 'grad_output')

    def __init__(self, cell, hooks):
        self.cell = cell
        self.hooks = hooks
        self.grad_output = None


def _is_diff_tensor(x):
    return isinstance(x, Tensor) and x._data.dtype.kind == 'f'


_FIRST = (0,)


def _input_boundary(record, args):
    if len(args) == 1 and _is_diff_tensor(args[0]):        # the common case, unrolled
        record.n_inputs = 1
        record.positions = _FIRST
        return (_identity_node(CellInputBoundary, record, args)[0],)
    positions = [i for i, a in enumerate(args) if _is_diff_tensor(a)]
    record.n_inputs = len(args)
    record.positions = positions
    if not positions:
        return args
    outs = _identity_node(CellInputBoundary, record, [args[i] for i in positions])
    new = list(args)
    for i, t in zip(positions, outs):
        new[i] = t
    return tuple(new)


def _output_boundary(record, out):
    if isinstance(out, Tensor):                             # the common case, unrolled
        record.n_outputs = 1
        if out.requires_grad and out._data.dtype.kind == 'f':
            record.out_positions = _FIRST
            return _identity_node(CellOutputBoundary, record, (out,))[0]
        record.out_positions = ()
        return out
    items = list(out) if isinstance(out, (tuple, list)) else [out]
    positions = [i for i, o in enumerate(items) if _is_diff_tensor(o) and o.requires_grad]
    record.out_positions = positions
    record.n_outputs = len(items)
    if not positions:
        return out
    wrapped = _identity_node(CellOutputBoundary, record, [items[i] for i in positions])
    for i, t in zip(positions, wrapped):
        items[i] = t
    if isinstance(out, (tuple, list)):
        return type(out)(items)
    return items[0]


def _identity_node(op, record, xs):
    """Record one boundary node over ``xs`` and return its outputs, which share xs's arrays.

    Built directly rather than through ``Op.apply``: an identity needs no forward call, saves
    nothing and never broadcasts, so the node costs a few slot stores per call.
    """
    node = _new(Node)
    node.op = op
    node.saved = ()
    node.ids = None
    node.shapes = None
    node.record = record
    node.next = [_edge(x) for x in xs]
    if len(xs) > 1:
        node.n_out = len(xs)
        node.out_meta = [(x.shape, x._data.dtype) for x in xs]
    wrap = Tensor._wrap_output
    return [wrap(x._data, node, i) for i, x in enumerate(xs)]


_new = object.__new__


def _as_tensors(gys):
    return tuple(g if isinstance(g, Tensor) else Tensor._wrap(g) for g in gys)


def _replacement(r, expected, cell, kind, hook, name):
    """Check a backward (pre-)hook's returned tuple against the gradients it replaces."""
    if isinstance(r, Tensor) and len(expected) == 1:
        r = (r,)
    if not isinstance(r, (tuple, list)):
        raise TypeError(f"Cell '{cell.path()}' {kind} hook '{hook_name(hook)}' must return None "
                        f"or a tuple of gradients, got {type(r).__name__}")
    if len(r) != len(expected):
        raise ValueError(f"Cell '{cell.path()}' {kind} hook '{hook_name(hook)}' returned "
                         f"{len(r)} gradient{'s' if len(r) != 1 else ''}, expected "
                         f"{len(expected)} ({name})")
    for i, (new, old) in enumerate(zip(r, expected)):
        if old is None:
            continue
        if not isinstance(new, Tensor) or new.shape != old.shape:
            got = new.shape if isinstance(new, Tensor) else type(new).__name__
            raise ValueError(f"Cell '{cell.path()}' {kind} hook '{hook_name(hook)}' returned "
                             f"{name}[{i}] of shape {got}, expected shape {old.shape}")
    return tuple(r)


class CellOutputBoundary(Op):
    """Identity on construct's outputs; backward runs the backward pre-hooks."""
    name = 'CellOutputBoundary'

    @staticmethod
    def forward(ctx, *xs, record):
        ctx.record = record
        return xs if len(xs) > 1 else xs[0]

    @staticmethod
    def backward(ctx, *gys):
        record = ctx.record
        positions = record.out_positions
        grad_output = _spread(gys, positions, record.n_outputs)
        store = record.hooks.backward_pre
        replaced = False
        if store:
            cell = record.cell
            for entry in store.snapshot():
                r = _invoke(entry, cell, 'backward_pre', grad_output)
                if r is not None:
                    grad_output = _replacement(r, grad_output, cell, 'backward pre', entry.fn,
                                               'grad_output')
                    replaced = True
        record.grad_output = grad_output
        return _gather(grad_output, positions, gys) if replaced else gys


class CellInputBoundary(Op):
    """Identity on construct's tensor inputs; backward runs the backward hooks."""
    name = 'CellInputBoundary'

    @staticmethod
    def forward(ctx, *xs, record):
        ctx.record = record
        return xs if len(xs) > 1 else xs[0]

    @staticmethod
    def backward(ctx, *gys):
        record = ctx.record
        positions = record.positions
        grad_input = _spread(gys, positions, record.n_inputs)
        cell = record.cell
        replaced = False
        for entry in record.hooks.backward.snapshot():
            r = _invoke(entry, cell, 'backward', grad_input, record.grad_output)
            if r is not None:
                grad_input = _replacement(r, grad_input, cell, 'backward', entry.fn, 'grad_input')
                replaced = True
        return _gather(grad_input, positions, gys) if replaced else gys


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
    return tuple(None if grads[i] is None else grads[i]._data.astype(o.dtype, copy=False)
                 for i, o in zip(positions, old))


# --------------------------------------------------------------------------- custom bprop
def _bprop_call(cell, args, kwargs):
    """Run construct without recording and record one node whose backward is ``cell.bprop``."""
    internal = list(getattr(cell, 'internal_params', None) or ())
    positions = [i for i, a in enumerate(args) if _is_diff_tensor(a)]
    wanted = [args[i] for i in positions] + internal
    if not _grad.enabled or not any(t.requires_grad for t in wanted):
        return cell.construct(*args, **kwargs)
    prev = _grad.enabled
    _grad.enabled = False
    try:
        out = cell.construct(*args, **kwargs)
    finally:
        _grad.enabled = prev
    items = list(out) if isinstance(out, (tuple, list)) else [out]
    out_positions = [i for i, o in enumerate(items) if _is_diff_tensor(o)]
    if not out_positions:
        return out
    node = Node()
    node.op = CellBprop
    node.saved = ()
    node.ids = None
    node.next = [_edge(t) for t in wanted]
    node.shapes = [t.shape for t in wanted]
    node.cell = cell
    node.args = tuple(a.detach() if isinstance(a, Tensor) else a for a in args)
    node.positions = positions
    node.internal = internal
    node.out = _detach_structure(out)
    node.out_positions = out_positions
    node.n_items = len(items)
    node.structured = isinstance(out, (tuple, list))
    if len(out_positions) > 1:
        node.n_out = len(out_positions)
        node.out_meta = [(items[i].shape, items[i]._data.dtype) for i in out_positions]
    for k, i in enumerate(out_positions):
        items[i] = Tensor._wrap_output(items[i]._data, node, k)
    return type(out)(items) if node.structured else items[0]


def _detach_structure(out):
    if isinstance(out, Tensor):
        return out.detach()
    if isinstance(out, (tuple, list)):
        return type(out)(_detach_structure(o) for o in out)
    return out


class CellBprop(Op):
    """The node of a cell with a custom ``bprop``: backward calls ``cell.bprop``."""
    name = 'CellBprop'

    @staticmethod
    def forward(ctx, *xs):
        raise TypeError("CellBprop nodes are made by calling a Cell that defines bprop")

    @staticmethod
    def backward(ctx, *gys):
        cell = ctx.cell
        raw = not isinstance(gys[0], Tensor)
        grads = _as_tensors(gys)
        if ctx.structured:
            full = [Tensor._zeros(o.shape, o._data.dtype) if isinstance(o, Tensor) else None
                    for o in ctx.out]
            for i, g in zip(ctx.out_positions, grads):
                full[i] = g
            dout = type(ctx.out)(full)
        else:
            dout = grads[0]
        try:
            result = cell.bprop(*ctx.args, ctx.out, dout)
        except Exception as e:
            if hasattr(e, 'add_note'):
                e.add_note(f"(raised in bprop of Cell '{cell.path()}')")
            raise
        param_grads = {}
        if ctx.internal and isinstance(result, tuple) and len(result) == 2 \
                and isinstance(result[1], dict):
            result, param_grads = result
        if isinstance(result, Tensor):
            result = (result,)
        where = f"bprop of Cell '{cell.path()}'"
        if not isinstance(result, (tuple, list)):
            raise TypeError(f"{where} must return a tuple of input gradients, "
                            f"got {type(result).__name__}")
        if len(result) != len(ctx.args):
            raise ValueError(f"{where} returned {len(result)} gradient"
                             f"{'s' if len(result) != 1 else ''}, expected {len(ctx.args)} "
                             f"(one per input)")
        out = []
        for i in ctx.positions:
            out.append(_checked(result[i], ctx.args[i], f"{where}: gradient {i}", raw))
        for p in ctx.internal:
            g = param_grads.get(p)
            if g is None:
                out.append(None)
            else:
                out.append(_checked(g, p, f"{where}: gradient of parameter '{p.name}'", raw))
        unknown = [k for k in param_grads if not any(k is p for p in ctx.internal)]
        if unknown:
            raise ValueError(f"{where} returned gradients for parameters not in "
                             f"internal_params: {[getattr(k, 'name', k) for k in unknown]}")
        return tuple(out)


def _checked(g, like, what, raw):
    if g is None:
        return None
    if not isinstance(g, Tensor):
        g = Tensor(np.asarray(g, like._data.dtype))
    if g.shape != like.shape:
        raise ValueError(f"{what} has shape {g.shape}, expected {like.shape}")
    if raw:
        return g._data.astype(like._data.dtype, copy=False)
    return g
