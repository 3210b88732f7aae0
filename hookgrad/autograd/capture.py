"""What the gradient transforms share: the arguments they differentiate, the outputs and
sensitivities a backward pass starts from, and one capture-mode pass of the backward loop.

``grad``, ``value_and_grad``, ``vjp``, ``GradOperation`` (functional.py), ``jvp`` and the
Jacobians (forward_mode.py) run the function with recording on, one transform deeper, so that a
transform evaluated inside it records its own backward pass; then the one backward loop runs in
capture mode: gradients are returned and no ``.grad`` is touched.

As in MindSpore, the reverse-mode transforms take gradients with respect to tensor objects (a
Tensor passed at several positions gets one gradient, the total over all of them), the
forward-mode ones and the Jacobians with respect to positions.
"""

from .._tensor import Tensor
from ..kernels.backend import array_module
from .engine import run_backward
from .function import Node, effect, link_arrays, new_node
from .grad_mode import check_transforms_allowed
from .observer import OpObserver
from .state import depth, integer_leaves, restore_grad, switch_grad
from ..hooks.calling import run_tensor_hooks


def run(fn, args, kwargs, weights=None):
    """``fn(*args, **kwargs)`` with grad mode on, one transform deeper; integer ``weights``
    get edges in the graph it records, so that they get gradients."""
    check_transforms_allowed(getattr(fn, '__name__', type(fn).__name__))
    deeper = depth.set(depth.get() + 1)
    recording = switch_grad(True)
    integers = [w for w in weights or () if w._data.dtype.kind not in 'fVc']
    marked = integer_leaves.set(integer_leaves.get() | {id(w) for w in integers}) \
        if integers else None
    try:
        return fn(*args, **kwargs)
    finally:
        if marked is not None:
            integer_leaves.reset(marked)
        restore_grad(recording)
        depth.reset(deeper)


def stand_in(x, separate=False):
    """``(value to call the function with, tensor whose gradient is captured)`` for ``x``.

    A tensor that requires grad is used as it is, so its gradient stays connected to a larger
    graph (``separate``: through an identity node of its own, so that each position gets its
    own gradient). A floating tensor that does not is replaced by a leaf over the same array
    that requires grad and shares its hooks. An integer or bool tensor is replaced by such a
    leaf behind an identity node (the backward loop gives integer leaves no edge of their
    own); its gradient is cast to its dtype at the end, as MindSpore computes it.
    """
    if x.requires_grad:
        if separate:
            from ..ops.arithmetic import identity
            x = identity(x)
        return x, x
    leaf = Tensor._wrap(x._data)
    leaf.requires_grad = True
    if x._hooks:
        leaf._hooks = x._hooks
    if x._data.dtype.kind in 'fVc':
        return leaf, leaf
    from ..ops.arithmetic import Identity
    node = new_node(Identity)
    link_arrays(node, [(leaf, 0)], [leaf._data], leaf._data, False)
    return Tensor._wrap_output(leaf._data, node, 0), leaf


def prepare(flat, positions, by_object=True):
    """Replace the Tensors at ``positions`` of the list ``flat`` by their stand-ins.

    ``by_object``: the same stand-in wherever the same Tensor appears in ``flat``, so it gets
    one gradient, the total (MindSpore's PyNative transforms: grad, vjp, GradOperation);
    otherwise each position is a separate variable (MindSpore's jvp and Jacobians, which run
    as compiled graphs).

    Returns:
        ``(targets, nested)``: the tensor to capture for each position, and whether the pass
        must be recorded (inside another transform, or an argument requires grad).
    """
    nested = depth.get() > 0 or any(flat[p].requires_grad for p in positions)
    if not by_object:
        targets = []
        for p in positions:
            flat[p], target = effect(stand_in, flat[p], True)
            targets.append(target)
        return targets, nested
    made = {}
    targets = []
    for p in positions:
        x = flat[p]
        pair = made.get(id(x))
        if pair is None:
            pair = made[id(x)] = effect(stand_in, x)
        targets.append(pair[1])
    if made:
        for i, a in enumerate(flat):
            if isinstance(a, Tensor) and id(a) in made:
                flat[i] = made[id(a)][0]
    return targets, nested


def leaves(value):
    """The items of ``value`` that are not tuples, lists or dicts (dict values in order)."""
    if isinstance(value, (tuple, list)):
        return [item for v in value for item in leaves(v)]
    if isinstance(value, dict):
        return [item for v in value.values() for item in leaves(v)]
    return [value]


def tensor_leaves(value):
    """The Tensors in ``value`` (nested tuples, lists and dicts), in order."""
    return [v for v in leaves(value) if isinstance(v, Tensor)]


def split_aux(out, has_aux, who):
    """``(first output, the others as a tuple)`` with ``has_aux``; else ``(out, None)``."""
    if not has_aux:
        return out, None
    if not isinstance(out, tuple) or len(out) < 2:
        raise ValueError(f"{who}: has_aux=True needs fn to return a tuple of at least two "
                         f"outputs (value, aux...), got {type(out).__name__}")
    return out[0], out[1:]


def start(outs, sens, nested, who, numbers=True, what='sensitivity', structure=None):
    """The roots and starting gradients of a backward pass from the output Tensors ``outs``.

    Args:
        sens: None for all-ones sensitivities; otherwise one sensitivity per output Tensor,
            in the outputs' structure or any other (tuple, list, dict) with as many leaves.
            Given in the structure of the whole output (``structure``), the sensitivities of
            its non-Tensor entries (a constant in a dict) are ignored, as in MindSpore.
        numbers: whether a Python number is taken as the sensitivity of a 0-d output.
        what: how errors call a sensitivity ('cotangent' for vjp).
    Raises:
        ValueError: the count or a shape does not match the outputs.
        TypeError: a sensitivity is not a Tensor, or its dtype is not its output's.
    """
    if sens is None:
        roots = [o for o in outs if o.requires_grad]
        ones = [array_module(o._data).ones(o.shape, o._data.dtype) for o in roots]
        return roots, [Tensor._wrap(g) for g in ones] if nested else ones
    given = leaves(sens)
    if structure is not None and len(given) != len(outs):
        every = leaves(structure)
        if len(every) == len(given):
            given = [s for o, s in zip(every, given) if isinstance(o, Tensor)]
    if len(given) != len(outs):
        many = 'sensitivities' if what == 'sensitivity' else what + 's'
        raise ValueError(f"{who}: got {len(given)} {what if len(given) == 1 else many} for "
                         f"{len(outs)} output{'s' if len(outs) != 1 else ''}")
    roots, grads = [], []
    for i, (o, s) in enumerate(zip(outs, given)):
        if not isinstance(s, Tensor):
            if not numbers or isinstance(s, bool) or not isinstance(s, (int, float)):
                raise TypeError(f"{who}: {what} {i} must be a Tensor, got "
                                f"{type(s).__name__}")
            s = Tensor._wrap(array_module(o._data).asarray(s, o._data.dtype))
        if s.shape != o.shape:
            raise ValueError(f"{who}: {what} of shape {s.shape} does not match the output "
                             f"shape {o.shape}")
        if s._data.dtype != o._data.dtype:
            raise TypeError(f"{who}: {what} of dtype {s.dtype} does not match the output "
                            f"dtype {o.dtype}")
        if o.requires_grad:
            roots.append(o)
            grads.append(s if nested else s._data)
    return roots, grads


def capture(roots, grads, targets, retain, nested, weights_from=None):
    """One backward pass from ``roots``: the gradient of each target as a Tensor of its dtype,
    zeros where none arrived.

    Targets from index ``weights_from`` on are weights: the tensor hooks of a weight that no
    gradient reached still run, on zeros, and may replace them (MindSpore calls them so).
    """
    got = [None] * len(targets)
    if roots and targets:
        got = effect(run_backward, roots, grads, targets, retain, nested)
    if weights_from is not None:
        missing = [i for i in range(weights_from, len(targets))
                   if got[i] is None and targets[i]._hooks]
        if missing:
            got = effect(_hooks_on_zeros, got, targets, missing, nested)
    return [finish(g, t) for g, t in zip(got, targets)]


def _hooks_on_zeros(got, targets, missing, nested):
    got = list(got)
    done = {}
    for i in missing:
        t = targets[i]
        g = done.get(id(t))
        if g is None:
            zeros = array_module(t._data).zeros(t.shape, t._data.dtype)
            g = done[id(t)] = run_tensor_hooks(t._hooks, Tensor._wrap(zeros) if nested
                                               else zeros, nested)
        got[i] = g
    return got


def finish(g, target):
    """A captured gradient as a Tensor of the target's dtype (zeros where none arrived)."""
    if g is None:
        return Tensor._wrap(array_module(target._data).zeros(target.shape, target._data.dtype))
    if not isinstance(g, Tensor):
        g = Tensor._wrap(g)
    return g if g._data.dtype == target._data.dtype else g.astype(target._data.dtype)


def as_weights(weights, who):
    """``(list of weights, whether one Parameter was given)``; ``(None, False)`` for None."""
    if weights is None:
        return None, False
    if isinstance(weights, Tensor):
        return [weights], True
    try:
        ws = list(weights)
    except TypeError:
        raise TypeError(f"{who}: weights must be a Parameter, a list/tuple of Parameters or a "
                        f"ParameterTuple, got {type(weights).__name__}") from None
    for w in ws:
        if not isinstance(w, Tensor):
            raise TypeError(f"{who}: every weight must be a Parameter, got {type(w).__name__}")
    return ws, False


class ParameterUse(OpObserver):
    """The trainable Parameters the ops of this thread take, in the order of first use."""

    def __init__(self):
        self.order = []
        self._seen = set()

    def on_forward(self, call):
        for t in call.tensors:
            if t.requires_grad and t._node is None and id(t) not in self._seen \
                    and t._is_parameter:
                self._seen.add(id(t))
                self.order.append(t)


def used_parameters(roots, use):
    """The Parameters of ``use.order`` that the graphs of ``roots`` lead to: the weights
    ``GradOperation(get_by_list=True)`` differentiates when it is given none."""
    reached = set()
    stack = [r._node for r in roots if r._node is not None]
    reached.update(id(r) for r in roots if r._node is None)
    seen = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for e in node.next:
            if e is None:
                continue
            if type(e[0]) is Node:
                stack.append(e[0])
            else:
                reached.add(id(e[0]))
    returned = [r for r in roots if r._node is None and r._is_parameter
                and id(r) not in use._seen]       # a Parameter returned as it is
    return [p for p in use.order + returned if id(p) in reached]
