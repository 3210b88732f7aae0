"""Custom backward for Cells: a cell that defines ``bprop`` gets one node whose backward calls it.

``bprop(self, x1, ..., xn, out, dout)`` returns a tuple of n input gradients (SPEC section 6);
with ``self.internal_params = [...]`` it may return ``(input_grads, {param: grad})``. construct
runs without recording; the node connects the cell's floating-point tensor inputs (and its
internal parameters) to its tensor outputs. Gradients are checked as hook returns are
(hookgrad/hooks/calling.py): one per input, each of its input's shape, cast to its dtype.
"""
import numpy as np

from .._tensor import Tensor, detached
from ..autograd.function import Op, effect, link, new_node
from ..autograd.state import grad_enabled, restore_grad, switch_grad
from ..hooks.calling import gradient
from ..hooks.cell_hooks import is_diff_tensor


def call(cell, args, kwargs):
    """Run ``cell.construct`` unrecorded and record the node whose backward is ``cell.bprop``."""
    internal = list(getattr(cell, 'internal_params', None) or ())
    positions = [i for i, a in enumerate(args) if is_diff_tensor(a)]
    wanted = [args[i] for i in positions] + internal
    if not grad_enabled() or not any(t.requires_grad for t in wanted):
        return cell.construct(*args, **kwargs)
    token = switch_grad(False)
    try:
        out = cell.construct(*args, **kwargs)
    finally:
        restore_grad(token)
    return effect(_attach, cell, args, out, wanted, positions, internal)


def _attach(cell, args, out, wanted, positions, internal):
    """The CellBprop node from ``wanted`` (the differentiable inputs and internal parameters)
    to construct's floating outputs; returns ``out`` with those outputs on the graph."""
    items = list(out) if isinstance(out, (tuple, list)) else [out]
    out_positions = [i for i, o in enumerate(items) if is_diff_tensor(o)]
    if not out_positions:
        return out
    node = new_node(CellBprop)
    node.owner = cell
    node.args = tuple(a.detach() if isinstance(a, Tensor) else a for a in args)
    node.positions = positions
    node.internal = internal
    node.out = detached(out)
    node.out_positions = out_positions
    node.structured = isinstance(out, (tuple, list))
    ys = [items[i]._data for i in out_positions]
    outs = link(node, wanted, [t._data for t in wanted], ys[0] if len(ys) == 1 else tuple(ys))
    for k, i in enumerate(out_positions):
        items[i] = outs if len(ys) == 1 else outs[k]
    return type(out)(items) if node.structured else items[0]


class CellBprop(Op):
    """The node of a cell with a custom ``bprop``: backward calls ``cell.bprop``.

    The gradients ``bprop`` returns are taken as they are: a higher-order gradient through the
    cell treats them as constants.
    """

    @staticmethod
    def forward(ctx, *xs):
        raise TypeError("CellBprop nodes are made by calling a Cell that defines bprop")

    @staticmethod
    def backward(ctx, *gys):
        cell = ctx.owner
        raw = not isinstance(gys[0], Tensor)
        grads = tuple(g if isinstance(g, Tensor) else Tensor._wrap(g) for g in gys)
        if ctx.structured:
            full = [Tensor._zeros(o.shape, o._data.dtype) if isinstance(o, Tensor) else None
                    for o in ctx.out]
            for i, g in zip(ctx.out_positions, grads):
                full[i] = g
            dout = type(ctx.out)(full)
        else:
            dout = grads[0]
        where = f"bprop of Cell '{cell.path()}'"
        try:
            result = cell.bprop(*ctx.args, ctx.out, dout)
        except Exception as e:
            if hasattr(e, 'add_note'):
                e.add_note(f"(raised in {where})")
            raise
        param_grads = {}
        if ctx.internal and isinstance(result, tuple) and len(result) == 2 \
                and isinstance(result[1], dict):
            result, param_grads = result
        if isinstance(result, Tensor):
            result = (result,)
        if not isinstance(result, (tuple, list)):
            raise TypeError(f"{where} must return a tuple of input gradients, "
                            f"got {type(result).__name__}")
        if len(result) != len(ctx.args):
            raise ValueError(f"{where} returned {len(result)} gradient"
                             f"{'s' if len(result) != 1 else ''}, expected {len(ctx.args)} "
                             f"(one per input)")
        unknown = [k for k in param_grads if not any(k is p for p in ctx.internal)]
        if unknown:
            raise ValueError(f"{where} returned gradients for parameters not in "
                             f"internal_params: {[getattr(k, 'name', k) for k in unknown]}")
        out = [_checked(result[i], ctx.args[i], f"{where} returned gradient {i}", raw)
               for i in ctx.positions]
        for p in ctx.internal:
            g = param_grads.get(p)
            out.append(None if g is None else
                       _checked(g, p, f"{where} returned the gradient of parameter '{p.name}'",
                                raw))
        return tuple(out)


def _checked(g, like, name, raw):
    """A bprop gradient for input ``like``: None, or a Tensor (arrays and numbers are taken as
    values of ``like``'s dtype) checked as hook replacements are."""
    if g is None:
        return None
    if not isinstance(g, Tensor) and isinstance(g, (np.ndarray, np.generic, int, float, list)):
        g = Tensor(np.asarray(g, like._data.dtype))
    return gradient(g, like._data if raw else like, name, raw)
