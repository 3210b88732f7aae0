"""Custom backward for Cells: a cell that defines ``bprop`` gets one node whose backward calls it.

``bprop(self, x1, ..., xn, out, dout)`` returns a tuple of n input gradients (SPEC section 6);
with ``self.internal_params = [...]`` it may return ``(input_grads, {param: grad})``. construct
runs without recording; the node connects the cell's tensor inputs that carry a gradient
(floating ones, and integer ones a transform differentiates, whose gradient is ``bprop``'s as
in MindSpore) and its internal parameters to its tensor outputs. As in MindSpore, gradients beyond the n are
ignored, a gradient in a shape its input broadcasts to is summed to the input's shape, and
other dtypes are cast to the input's; anything else fails as a hook return would
(hookgrad/hooks/calling.py). The node keeps the inputs and outputs it was given, so that a
higher-order gradient differentiates what ``bprop`` computed: when the backward pass is
recorded, ``bprop`` receives inputs and ``out`` connected to the graph.
"""
import numpy as np

from .._frames import add_note
from .._tensor import Tensor, detached
from ..kernels.backend import array_module, device_of, is_host, to_device
from ..autograd.function import (Op, carries_gradient, effect, is_diff_tensor, link,
                                 new_node)
from ..autograd.math import array_math, tensor_math
from ..autograd.state import grad_enabled, restore_grad, switch_grad
from .calling import gradient


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
    to construct's outputs that carry a gradient; returns ``out`` with those outputs on the graph."""
    items = list(out) if isinstance(out, (tuple, list)) else [out]
    # construct ran unrecorded: its integer outputs carry a gradient when an integer input
    # does (a transform differentiating integer tensors, as MindSpore does)
    integer = any(t._data.dtype.kind not in 'fV' and carries_gradient(t) for t in wanted)
    out_positions = [i for i, o in enumerate(items)
                     if is_diff_tensor(o) or (integer and isinstance(o, Tensor))]
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
    if not is_host(ys[0]):
        node.xp = array_module(ys[0])       # zeros for unused outputs go there
    arrays = [t._data for t in wanted]
    node.save(*arrays, *ys)     # re-attached to the graph when a higher order is recorded
    outs = link(node, wanted, arrays, ys[0] if len(ys) == 1 else tuple(ys))
    for k, i in enumerate(out_positions):
        items[i] = outs if len(ys) == 1 else outs[k]
    return type(out)(items) if node.structured else items[0]


class CellBprop(Op):
    """The node of a cell with a custom ``bprop``: backward calls ``cell.bprop``.

    On a recorded backward pass (a higher-order gradient) ``bprop`` gets the inputs, the
    internal parameters and ``out`` as Tensors connected to the graph, so what it computes is
    differentiated in turn, as in MindSpore.
    """

    @staticmethod
    def forward(ctx, *xs):
        raise TypeError("CellBprop nodes are made by calling a Cell that defines bprop")

    @staticmethod
    def backward(ctx, *gys):
        cell = ctx.owner
        raw = not isinstance(gys[0], Tensor)
        grads = tuple(g if isinstance(g, Tensor) else Tensor._wrap(g) for g in gys)
        args, out = ctx.args, ctx.out
        if not raw:
            args, out = _connected(ctx)
        if ctx.structured:
            full = [Tensor._zeros(o.shape, o._data.dtype, o._data) if isinstance(o, Tensor)
                    else None for o in ctx.out]
            for i, g in zip(ctx.out_positions, grads):
                full[i] = g
            dout = type(ctx.out)(full)
        else:
            dout = grads[0]
        where = f"bprop of Cell '{cell.path()}'"
        try:
            result = cell.bprop(*args, out, dout)
        except Exception as e:
            add_note(e, f"(raised in {where})")
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
        if len(result) < len(ctx.args):
            raise RuntimeError(f"{where} returned {len(result)} gradient"
                             f"{'s' if len(result) != 1 else ''}, expected {len(ctx.args)} "
                             f"(one per input)")
        unknown = [k for k in param_grads if not any(k is p for p in ctx.internal)]
        if unknown:
            raise ValueError(f"{where} returned gradients for parameters not in "
                             f"internal_params: {[getattr(k, 'name', k) for k in unknown]}")
        gxs = [_checked(result[i], ctx.args[i], f"{where} returned gradient {i}", raw)
               for i in ctx.positions]
        for p in ctx.internal:
            g = param_grads.get(p)
            gxs.append(None if g is None else
                       _checked(g, p, f"{where} returned the gradient of parameter '{p.name}'",
                                raw))
        return tuple(gxs)


def _connected(ctx):
    """``(args, out)`` for ``bprop`` on a recorded pass: the saved inputs and outputs as the
    engine re-attached them to the graph (``ctx.saved``: the wanted tensors, then the
    outputs)."""
    saved = ctx.saved
    args = list(ctx.args)
    for k, i in enumerate(ctx.positions):
        args[i] = saved[k]
    ys = saved[len(ctx.positions) + len(ctx.internal):]
    if not ctx.structured:
        return tuple(args), ys[0]
    items = list(ctx.out)
    for k, i in enumerate(ctx.out_positions):
        items[i] = ys[k]
    return tuple(args), type(ctx.out)(items)


def _checked(g, like, name, raw):
    """A bprop gradient for input ``like``: None, or a Tensor checked as hook replacements are,
    after MindSpore's conversions: arrays and numbers are taken as values of ``like``'s dtype,
    integer and bool gradients are cast to it, and a gradient in a shape ``like`` broadcasts to
    is summed down to ``like``'s shape."""
    if g is None:
        return None
    want = like._data.dtype
    if not isinstance(g, Tensor) and isinstance(g, (np.ndarray, np.generic, int, float, list)):
        g = Tensor._wrap(to_device(np.asarray(g, want), device_of(like._data)))
    if isinstance(g, Tensor):
        if g._data.dtype.kind not in 'fV' and want.kind in 'fV':
            g = Tensor._wrap(g._data.astype(want)) if raw else g.astype(want)
        if g.shape != like.shape and _broadcasts(like.shape, g.shape):
            g = Tensor._wrap(array_math.sum_to(g._data, like.shape)) if raw \
                else tensor_math.sum_to(g, like.shape)
    return gradient(g, like._data if raw else like, name, raw)


def _broadcasts(shape, to):
    """Whether an array of ``shape`` broadcasts to ``to``."""
    try:
        return np.broadcast_shapes(shape, to) == tuple(to)
    except ValueError:
        return False
