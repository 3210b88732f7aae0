"""The one backward loop: ``Tensor.backward``, ``grad``, ``value_and_grad`` and ``vjp`` all use it.

Gradients flow in reverse topological order with dependency counting, so every node and leaf
runs once, with its complete gradient. Leaf ``.grad`` updates and graph freeing are applied only
after the whole pass succeeded: an exception (from a hook, say) leaves nothing half-updated.
"""
import numpy as np

from . import function as _function, observer as _observer
from ..kernels.fp_errors import fp_notes_enter, fp_notes_exit, set_locator
from .._frames import GENERATED, add_note, is_internal
from ..kernels.backend import is_device_array
from .._tensor import Tensor
from .function import Node
from .math import array_math, tensor_math
from .state import current as _state, grad as _grad, update as _update
from ..hooks.calling import run_tensor_hooks

_FREED_MSG = ("backward through a graph that has already been freed: the saved values of "
              "'{op}' were released by an earlier backward. Pass retain_graph=True to the first "
              "backward (or create_graph=True) to run backward twice.")


class OutputHooks:
    """Tensor hooks and the retain_grad flag of one non-leaf output, kept on its node."""

    __slots__ = ('store', 'retain')

    def __init__(self):
        self.store = None
        self.retain = None      # weakref to the tensor whose .grad should be kept


def run_backward(roots, root_grads, targets=None, retain_graph=False, create_graph=False):
    """Propagate ``root_grads`` from ``roots`` through the recorded graph.

    Args:
        roots: output Tensors to start from.
        root_grads: their gradients: arrays, or Tensors when ``create_graph``.
        targets: None to accumulate into every reached leaf's ``.grad``; otherwise Tensors
            whose gradients are returned (a list, None where no gradient arrived) and no
            ``.grad`` is touched.
        retain_graph: keep saved values so backward can run again through this graph.
        create_graph: record the backward computation, for higher-order gradients.
    """
    fp_token = fp_notes_enter()     # NumPy's warnings name the step that met them (locate_step)
    try:
        create_graph = bool(create_graph)
        if create_graph:
            retain_graph = True
        deps, capture = _count_dependencies(roots, targets)
        buf = {}
        for r, g in zip(roots, root_grads):
            node = r._node
            if node is not None and node.n_out > 1:
                slots = buf.setdefault(node, [None] * node.n_out)
                old = slots[r._index]
                slots[r._index] = g if old is None else old + g
            else:
                key = node if node is not None else r
                old = buf.get(key)
                buf[key] = g if old is None else old + g
        ready = []
        for r in roots:
            key = r._node if r._node is not None else r
            if deps[key] == 0:
                for k in ready:
                    if k is key:        # by identity: == on Tensors is elementwise
                        break
                else:
                    ready.append(key)

        captured = [None] * len(targets) if targets is not None else None
        leaf_updates = []       # (leaf, gradient) applied after the pass
        retained = []           # (tensor, gradient) applied after the pass
        processed = []
        observed = _function.observing and bool(_state().observers)
        log = _function.observing and _state().recorder     # a graph-mode trace keeps the order
        log = log.engine_log() if log else None
        if observed:                # observers also learn that a backward pass is running
            previous = _update(backward=True)
        recording = _grad.set(create_graph)
        try:
            while ready:
                key = ready.pop()
                if log is not None:
                    log.append(key)
                if type(key) is not Node:
                    g = buf.pop(key, None)
                    if g is not None:
                        _leaf_gradient(key, g, targets, capture, captured, leaf_updates,
                                       create_graph, Tensor)
                    continue
                node = key
                processed.append(node)
                g = buf.pop(node, None)
                edges = node.next
                if g is not None:
                    gys = g if node.n_out > 1 else [g]
                    if node.hooks is not None:
                        _run_output_hooks(node, gys, create_graph, retained, Tensor)
                    if capture is not None and node in capture:
                        for idx, i in capture[node]:
                            captured[i] = gys[idx]
                        continue        # a captured argument is where differentiation stops
                    if observed:
                        gxs = _observer.run_rule(node, gys, create_graph, _call_backward)
                    elif create_graph or node.n_out > 1:
                        gxs = _call_backward(node, gys, create_graph)
                    else:
                        gxs = node.op.array_rule(node, gys[0])
                        if type(gxs) is not tuple:
                            gxs = (gxs,)
                        if len(gxs) != len(edges):
                            _count_error(node, gxs)
                    if log is not None:     # and the shapes of the gradients, for the plan
                        log.shapes[id(node)] = [None if g is None else g.shape for g in gxs]
                    shapes = node.reduce_to
                    i = 0
                    for e in edges:
                        if e is not None:
                            gx = gxs[i]
                            target = e[0]
                            if gx is not None:
                                if shapes is not None and gx.shape != shapes[i]:
                                    m = tensor_math if create_graph else array_math
                                    gx = m.sum_to(gx, shapes[i])
                                if type(target) is Node and target.n_out > 1:
                                    slots = buf.get(target)
                                    if slots is None:
                                        slots = buf[target] = [None] * target.n_out
                                    old = slots[e[1]]
                                    slots[e[1]] = gx if old is None else old + gx
                                else:
                                    old = buf.get(target)
                                    buf[target] = gx if old is None else old + gx
                            d = deps[target] - 1
                            deps[target] = d
                            if d == 0:
                                ready.append(target)
                        i += 1
                else:
                    for e in edges:
                        if e is not None:
                            target = e[0]
                            d = deps[target] - 1
                            deps[target] = d
                            if d == 0:
                                ready.append(target)
        except Exception as e:
            if type(key) is Node:
                _note_failure(e, key)
            raise
        finally:
            _grad.reset(recording)
            if observed:
                _update(**previous)

        key = None                  # no step runs now (for locate_step)
        if retained or leaf_updates:
            shared = {id(g) for g in root_grads}     # arrays a .grad must not alias
            for t, g in retained + leaf_updates:
                _accumulate_grad(t, g, Tensor, shared)
            recorder = _function.observing and _state().recorder
            if recorder:
                recorder.grads_written([t for t, _ in retained + leaf_updates])
        if not retain_graph:
            for node in processed:
                node.saved = None
                node.ids = None
        if captured is not None:
            for i, g in enumerate(captured):
                if isinstance(g, np.generic):   # a 0-d gradient NumPy gave as a scalar: as an
                    captured[i] = np.asarray(g)     # array, a graph-mode trace can follow it
        return captured
    finally:
        fp_notes_exit(fp_token)


def _leaf_gradient(leaf, g, targets, capture, captured, leaf_updates, create_graph, Tensor):
    """A leaf's complete gradient: run its hooks, then capture it or queue the .grad update."""
    if targets is None:
        if leaf._hooks:
            g = run_tensor_hooks(leaf._hooks, g, create_graph)
        leaf_updates.append((leaf, g))
        return
    slot = capture.get(leaf)
    if slot is not None:
        if leaf._hooks:
            g = run_tensor_hooks(leaf._hooks, g, create_graph)
        for i in slot:
            captured[i] = g


def _note_failure(e, node):
    """Name the node whose backward raised, and where it was created when that was recorded
    (an op observer with ``record_source``, such as nan_guard, was on in forward)."""
    where = ''
    if node.source is not None:
        where = f", created at {node.source[0]}:{node.source[1]}"
    add_note(e, f"(raised in {_step(node, where)})")


def _step(node, where=''):
    """How reports name a node's backward step: ``"the backward of 'Div'"``, then ``where``,
    then the cell that created the node when that was recorded."""
    if node.cell is not None:
        where += f" in Cell '{_observer.frame_path(node.cell)}'"
    return f"the backward of '{node.op.name}'{where}"


def locate_step(frame):
    """``(what, source)`` naming the backward step that runs the Python ``frame``, for a
    floating-point warning: the current node of the innermost backward loop (or graph-mode
    replay of one) and the forward line that created it, or the user's code that a hook runs."""
    f = frame
    while f is not None:
        code = f.f_code
        if code is _LOOP:
            return _describe(f.f_locals.get('key'))
        if code.co_filename.startswith(GENERATED):
            return _describe(f.f_locals.get('cur'))
        if not is_internal(f):
            return "a hook run by the backward pass", (code.co_filename, f.f_lineno)
        f = f.f_back
    return "the backward pass", None


def _describe(key):
    if type(key) is Node:
        return _step(key), key.source
    if isinstance(key, Tensor):
        return "a hook of a leaf tensor", None
    return "the backward pass", None


def _count_error(node, gxs):
    raise RuntimeError(f"op '{node.op.name}' backward returned {len(gxs)} gradients, "
                       f"expected {len(node.next)}")


def _count_dependencies(roots, targets):
    """Count, for every node and leaf reachable from ``roots``, how many edges lead into it.

    Raises before anything runs if the graph was freed. In capture mode also returns
    ``capture``: leaf -> [target positions], node -> [(output index, target position)].
    """
    capture = None
    stop = ()
    if targets is not None:
        capture = {}
        for i, t in enumerate(targets):
            node = t._node
            if node is None:
                capture.setdefault(t, []).append(i)
            else:
                capture.setdefault(node, []).append((t._index, i))
        stop = capture
    deps = {}
    stack = []
    for r in roots:
        node = r._node
        key = node if node is not None else r
        if key not in deps:
            deps[key] = 0
            if node is not None:
                stack.append(node)
    while stack:
        node = stack.pop()
        if node.saved is None:
            raise RuntimeError(_FREED_MSG.format(op=node.op.name))
        for e in node.next:
            if e is None:
                continue
            t = e[0]
            c = deps.get(t)
            if c is None:
                deps[t] = 1
                if type(t) is Node and t not in stop:
                    stack.append(t)
            else:
                deps[t] = c + 1
    return deps, capture


def _call_backward(node, gys, create_graph):
    """Run a node's backward rule: ``array_rule`` on arrays, or ``backward`` on Tensors with
    ``tensor_math`` when the backward pass is recorded."""
    op = node.op
    if node.n_out > 1 and any(g is None for g in gys):
        zeros = node.xp.zeros       # on the node's device
        gys = [g if g is not None else
               Tensor._wrap(zeros(*meta)) if create_graph else zeros(*meta)
               for g, meta in zip(gys, node.out_meta)]
    if not create_graph:
        gxs = op.array_rule(node, *gys)
    else:
        saved = node.saved
        ids = node.ids
        node.saved = tuple(_saved_tensor(node, s, ids.index(id(s)) if id(s) in ids else None,
                                         Tensor) for s in saved)
        node.m = tensor_math
        try:
            gxs = op.backward(node, *gys)
        finally:
            node.saved = saved
            del node.m
    if type(gxs) is not tuple:
        gxs = (gxs,) if len(node.next) == 1 else tuple(gxs)
    if len(gxs) != len(node.next):
        _count_error(node, gxs)
    return gxs


def _saved_tensor(node, array, origin, Tensor):
    """A saved array as a Tensor connected to the graph, so backward rules differentiate.

    ``origin`` indexes ``node.ids``: an input position, then the outputs; None for a constant.
    """
    if origin is None:
        return Tensor._wrap(array)
    n_in = len(node.next)
    if origin >= n_in:
        return Tensor._wrap_output(array, node, origin - n_in)
    edge = node.next[origin]
    if edge is None:
        return Tensor._wrap(array)
    parent, idx = edge
    if type(parent) is not Node:
        return parent
    return Tensor._wrap_output(array, parent, idx)


def _run_output_hooks(node, gys, create_graph, retained, Tensor):
    for idx, oh in node.hooks.items():
        g = gys[idx]
        if g is None:
            continue
        if oh.retain is not None:
            t = oh.retain()
            if t is not None:
                retained.append((t, g))
        if oh.store:
            gys[idx] = run_tensor_hooks(oh.store, g, create_graph)


def _accumulate_grad(t, g, Tensor, shared):
    """``t.grad += g``, cast to ``t``'s dtype; a Tensor with a graph when g is one.

    A new ``.grad`` array is owned by that tensor alone (writeable, aliasing no other
    gradient, view or user array), so optimizers may update it in place.
    """
    want = t._data.dtype
    old = t._grad
    host = type(g) is np.ndarray
    if host or is_device_array(g):
        if old is not None:
            t._grad = Tensor._wrap((old._data + g).astype(want, copy=False))
            return
        if g.dtype != want:
            g = g.astype(want)
        elif id(g) in shared or not g.flags.owndata or (host and not g.flags.writeable):
            g = g.copy()
        shared.add(id(g))
        t._grad = Tensor._wrap(g)
        return
    if not isinstance(g, Tensor):       # a NumPy scalar
        _accumulate_grad(t, np.array(g), Tensor, shared)
        return
    if g._data.dtype != want:
        g = g.astype(want)
    t._grad = g if old is None else old + g


_LOOP = run_backward.__code__    # its local ``key`` is the step running
set_locator(locate_step)
