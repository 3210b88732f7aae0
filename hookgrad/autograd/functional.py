"""Functional transforms: ``grad``, ``value_and_grad``, ``vjp`` and ``GradOperation``.

All of them evaluate the function with recording on and run the one backward loop in capture
mode: gradients are returned, no ``.grad`` is touched. A transform evaluated inside another one's
function records its backward pass, so ``grad(grad(f))`` gives second derivatives.
"""
import numpy as np

from .._tensor import Tensor, detached
from .engine import run_backward
from .function import effect
from .state import depth as _depth, restore_grad, switch_grad


class _Result:
    __slots__ = ('out', 'aux', 'inputs', 'weights')


def _as_positions(grad_position, nargs, who):
    if grad_position is None:
        return ()
    single = isinstance(grad_position, (int, np.integer)) and not isinstance(grad_position, bool)
    positions = (grad_position,) if single else grad_position
    if not isinstance(positions, tuple) or not all(
            isinstance(p, (int, np.integer)) and not isinstance(p, bool) for p in positions):
        raise TypeError(f"{who}: grad_position must be an int, a tuple of ints or None, "
                        f"got {grad_position!r}")
    for p in positions:
        if not -nargs <= p < nargs:
            raise IndexError(f"{who}: grad_position {p} is out of range for a function called "
                             f"with {nargs} positional argument{'s' if nargs != 1 else ''}")
    return tuple(int(p) % nargs for p in positions)


def _as_weights(weights, who):
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


def _differentiable(x, pos, who):
    """The argument to call ``fn`` with so that its gradient can be captured."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{who}: the argument at grad_position {pos} must be a Tensor, "
                        f"got {type(x).__name__}")
    if x._data.dtype.kind != 'f':
        raise TypeError(f"{who}: can only differentiate with respect to floating-point Tensors; "
                        f"the argument at grad_position {pos} has dtype {x.dtype}")
    if x.requires_grad:
        from ..ops.arithmetic import identity
        return identity(x)      # a node of its own: captured there, connected to outer graphs
    t = Tensor._wrap(x._data)
    t.requires_grad = True
    if x._hooks:
        t._hooks = x._hooks     # hooks registered on the argument still fire
    return t


def _run(fn, args, kwargs):
    """``fn(*args, **kwargs)`` with grad mode on, one transform deeper."""
    deeper = _depth.set(_depth.get() + 1)
    recording = switch_grad(True)
    try:
        return fn(*args, **kwargs)
    finally:
        restore_grad(recording)
        _depth.reset(deeper)


def _evaluate(fn, args, kwargs, positions, weights, has_aux, sens, who):
    """Run ``fn`` and its backward; return a _Result with outputs and captured gradients."""
    call_args = list(args)
    targets = []
    for p in positions:
        t = effect(_differentiable, args[p], p, who)
        call_args[p] = t
        targets.append(t)
    nested = _depth.get() > 0 or any(args[p].requires_grad for p in positions)
    out = _run(fn, call_args, kwargs)
    aux = None
    if has_aux:
        if not isinstance(out, tuple) or len(out) < 2:
            raise TypeError(f"{who}: has_aux=True needs fn to return a tuple of at least two "
                            f"outputs (value, aux...), got {type(out).__name__}")
        aux = tuple(a.detach() if isinstance(a, Tensor) else a for a in out[1:])
        out = out[0]
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    if sens is None:
        live = [o for o in outs if isinstance(o, Tensor) and o.requires_grad]
        grads = [Tensor._wrap(np.ones(o.shape, o._data.dtype)) if nested
                 else np.ones(o.shape, o._data.dtype) for o in live]
    else:
        sens = list(sens) if isinstance(sens, (tuple, list)) else [sens]
        if len(sens) != len(outs):
            raise ValueError(f"{who}: got {len(sens)} sensitivities for {len(outs)} outputs")
        live, grads = [], []
        for o, s in zip(outs, sens):
            if not isinstance(o, Tensor):
                continue
            s = s if isinstance(s, Tensor) else Tensor(s, dtype=o.dtype)
            if s.shape != o.shape:
                raise ValueError(f"{who}: sensitivity of shape {s.shape} does not match the "
                                 f"output shape {o.shape}")
            if o.requires_grad:
                live.append(o)
                grads.append(s if nested else s._data.astype(o._data.dtype, copy=False))
    all_targets = targets + (weights or [])
    captured = [None] * len(all_targets)
    if live and all_targets:
        captured = effect(run_backward, live, grads, all_targets, False, nested)
    res = _Result()
    res.out = out if nested else detached(out)
    res.aux = aux
    gs = [_finish(g, t) for g, t in zip(captured, all_targets)]
    res.inputs = gs[:len(targets)]
    res.weights = gs[len(targets):]
    return res


def _finish(g, target):
    """A captured gradient as a Tensor of the target's dtype (zeros where none arrived)."""
    if g is None:
        return Tensor._wrap(np.zeros(target.shape, target._data.dtype))
    if not isinstance(g, Tensor):
        g = Tensor._wrap(g)
    return g if g._data.dtype == target._data.dtype else g.astype(target._data.dtype)


def _pack(res, grad_position, positions, weights, single_weight, return_ids, wlist):
    inputs = res.inputs
    if return_ids:
        inputs = [(p, g) for p, g in zip(positions, inputs)]
    if grad_position is None:
        in_part = None
    elif len(inputs) == 1:
        in_part = inputs[0]     # an int, or a one-element tuple, gives one gradient (MindSpore)
    else:
        in_part = tuple(inputs)
    if weights is None:
        return in_part
    ws = res.weights
    if return_ids:
        ws = [(getattr(w, 'name', None), g) for w, g in zip(wlist, ws)]
    w_part = ws[0] if single_weight else tuple(ws)
    return w_part if in_part is None else (in_part, w_part)


def _transform(fn, grad_position, weights, has_aux, return_ids, who):
    """Validate a grad/value_and_grad spec; return ``run(args, kwargs) -> (result, grads)``."""
    if grad_position is None and weights is None:
        raise ValueError(f"{who}: grad_position and weights cannot both be None")
    wlist, single_weight = _as_weights(weights, who)

    def run(args, kwargs):
        positions = _as_positions(grad_position, len(args), who)
        res = _evaluate(fn, args, kwargs, positions, wlist, has_aux, None, who)
        return res, _pack(res, grad_position, positions, weights, single_weight, return_ids,
                          wlist)

    return run


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function returning ``(fn(*args), gradients)``.

    Args:
        fn: function (or Cell) of Tensors returning a Tensor or a tuple of Tensors. A non-scalar
            output is differentiated with an all-ones sensitivity; several outputs add up.
        grad_position: int or tuple of ints: which positional arguments to differentiate;
            None (with ``weights``) for parameters only.
        weights: a Parameter or a list/ParameterTuple of them to differentiate too.
        has_aux: only fn's first output is differentiated; the others are returned as aux.
        return_ids: pair each gradient with its position (inputs) or name (weights).
    Returns:
        ``(value, grads)``; with ``has_aux`` ``((value, *aux), grads)``. ``grads`` is one Tensor
        for an int position, a tuple for several, ``(inputs_grads, weights_grads)`` when both.
        A gradient that does not reach an input is zeros of its shape.

    >>> import hookgrad as ms
    >>> ms.value_and_grad(lambda x: x * x)(ms.Tensor(3.0))
    (Tensor(shape=[], dtype=Float32, value= 9), Tensor(shape=[], dtype=Float32, value= 6))
    """
    run = _transform(fn, grad_position, weights, has_aux, return_ids, 'value_and_grad')

    def value_and_grad_fn(*args, **kwargs):
        res, grads = run(args, kwargs)
        value = res.out if not has_aux else (res.out,) + res.aux
        return value, grads

    return value_and_grad_fn


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function returning the gradients of ``fn`` (see ``value_and_grad`` for the arguments).

    With ``has_aux`` it returns ``(grads, (aux, ...))``.

    >>> import hookgrad as ms
    >>> ms.grad(lambda x, y: x * y, grad_position=(0, 1))(ms.Tensor(2.0), ms.Tensor(5.0))
    (Tensor(shape=[], dtype=Float32, value= 5), Tensor(shape=[], dtype=Float32, value= 2))
    """
    run = _transform(fn, grad_position, weights, has_aux, return_ids, 'grad')

    def grad_fn(*args, **kwargs):
        res, grads = run(args, kwargs)
        return (grads, res.aux) if has_aux else grads

    return grad_fn


def vjp(fn, *inputs, weights=None, has_aux=False):
    """Evaluate ``fn(*inputs)`` and return ``(outputs, vjp_fn)`` (``+ aux`` with has_aux).

    ``vjp_fn(v)`` (``v`` shaped like the outputs; a tuple for several) returns the
    vector-Jacobian products for the inputs: one Tensor for one input, else a tuple; with
    ``weights`` the pair ``(inputs_grads, weights_grads)``. It may be called repeatedly.
    """
    if not inputs:
        raise TypeError("vjp: expected at least one input Tensor")
    wlist, single_weight = _as_weights(weights, 'vjp')
    targets = [effect(_differentiable, x, i, 'vjp') for i, x in enumerate(inputs)]
    out = _run(fn, targets, {})
    aux = None
    if has_aux:
        if not isinstance(out, tuple) or len(out) < 2:
            raise TypeError("vjp: has_aux=True needs fn to return a tuple of at least two outputs")
        aux = out[1:] if len(out) > 2 else out[1]
        aux = detached(aux)
        out = out[0]
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    nested = _depth.get() > 0

    def vjp_fn(*v):
        vs = list(v[0]) if len(v) == 1 and isinstance(v[0], (tuple, list)) else list(v)
        if len(vs) != len(outs):
            raise ValueError(f"vjp_fn: got {len(vs)} cotangents for {len(outs)} outputs")
        roots, grads = [], []
        for o, c in zip(outs, vs):
            c = c if isinstance(c, Tensor) else Tensor(c, dtype=o.dtype)
            if c.shape != o.shape:
                raise ValueError(f"vjp_fn: cotangent of shape {c.shape} does not match the "
                                 f"output shape {o.shape}")
            if o.requires_grad:
                roots.append(o)
                grads.append(c if nested else c._data)
        all_targets = targets + (wlist or [])
        captured = [None] * len(all_targets)
        if roots:
            captured = effect(run_backward, roots, grads, all_targets, True, nested)
        gs = [_finish(g, t) for g, t in zip(captured, all_targets)]
        in_part = gs[0] if len(targets) == 1 else tuple(gs[:len(targets)])
        if wlist is None:
            return in_part
        ws = gs[len(targets):]
        return in_part, (ws[0] if single_weight else tuple(ws))

    value = out if nested else detached(out)
    return (value, vjp_fn, aux) if has_aux else (value, vjp_fn)


class GradOperation:
    """MindSpore's older gradient transform: ``GradOperation(get_all, get_by_list, sens_param)``.

    ``GradOperation()(fn)(*args)`` differentiates w.r.t. the first input;
    ``get_all`` gives a tuple for all Tensor inputs; ``get_by_list`` with
    ``GradOperation(...)(fn, weights)`` gives the weights' gradients; both give
    ``(inputs_grads, weights_grads)``. With ``sens_param`` the last argument is the
    sensitivity (the output gradient) instead of all ones.
    """

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        self.get_all = bool(get_all)
        self.get_by_list = bool(get_by_list)
        self.sens_param = bool(sens_param)

    def __call__(self, fn, weights=None):
        if self.get_by_list and weights is None:
            raise ValueError("GradOperation(get_by_list=True) needs weights: "
                             "GradOperation(...)(fn, weights)")
        wlist = _as_weights(weights, 'GradOperation')[0] if self.get_by_list else None

        def grad_fn(*args, **kwargs):
            sens = None
            if self.sens_param:
                if not args:
                    raise TypeError("GradOperation(sens_param=True): the last argument must be "
                                    "the sensitivity")
                args, sens = args[:-1], args[-1]
            if self.get_all:
                positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
            elif self.get_by_list:
                positions = ()
            else:
                if not args:
                    raise TypeError("GradOperation: the function needs at least one input")
                positions = (0,)
            res = _evaluate(fn, args, kwargs, positions, wlist, False, sens, 'GradOperation')
            if self.get_all and self.get_by_list:
                return tuple(res.inputs), tuple(res.weights)
            if self.get_by_list:
                return tuple(res.weights)
            if self.get_all:
                return tuple(res.inputs)
            return res.inputs[0]

        return grad_fn
