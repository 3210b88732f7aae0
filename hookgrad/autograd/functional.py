"""Reverse-mode transforms: ``grad``, ``value_and_grad``, ``vjp``, ``get_grad`` and
``GradOperation``, with MindSpore 2.10's signatures and results.

Each evaluates the function with recording on and runs the one backward loop in capture mode
(autograd/capture.py): gradients are returned, no ``.grad`` is touched. A transform evaluated
inside another one's function records its backward pass, so ``grad(grad(f))`` gives second
derivatives.
"""
import numpy as np

from .._tensor import Tensor, detached
from .capture import (ParameterUse, as_weights, capture, prepare, run, split_aux, start,
                      tensor_leaves, used_parameters)


def check_bool(value, name, who):
    """MindSpore's flags are bools, nothing else."""
    if not isinstance(value, bool):
        raise TypeError(f"{who}: {name} must be a bool, got {type(value).__name__}")


def check_callable(fn, who):
    """The function to transform is callable (a function or a Cell)."""
    if not callable(fn):
        raise TypeError(f"{who}: fn must be a function or a Cell, got {type(fn).__name__}")


def as_positions(grad_position, who):
    """``grad_position`` (an int or a tuple of ints, bools counting as ints, as in MindSpore)
    as a tuple of distinct non-negative ints."""
    positions = grad_position if isinstance(grad_position, tuple) else (grad_position,)
    if not isinstance(grad_position, (int, np.integer, tuple)):
        raise TypeError(f"{who}: grad_position must be an int, a tuple of ints or None, "
                        f"got {type(grad_position).__name__}")
    for p in positions:
        if not isinstance(p, (int, np.integer)):
            raise TypeError(f"{who}: every element of grad_position must be an int, "
                            f"got {type(p).__name__}")
        if p < 0:
            raise ValueError(f"{who}: grad_position must be >= 0, got {p}")
    if not positions:
        raise ValueError(f"{who}: grad_position is an empty tuple; give at least one position "
                         f"(or None with weights)")
    if len(set(positions)) != len(positions):
        raise ValueError(f"{who}: grad_position {grad_position} has duplicate positions")
    return tuple(int(p) for p in positions)


def check_range(positions, n, who):
    """Every position indexes one of the ``n`` arguments of the call."""
    for p in positions:
        if p >= n:
            raise ValueError(f"{who}: grad_position {p} is out of range for a function called "
                             f"with {n} argument{'s' if n != 1 else ''}")


def flatten_call(args, kwargs):
    """Positions count the positional arguments, then the keyword arguments in the order
    given (as MindSpore counts them); returns ``(flat list, rebuild)``."""
    flat = list(args) + list(kwargs.values())
    keys = list(kwargs)
    n = len(args)

    def rebuild(values):
        return values[:n], dict(zip(keys, values[n:]))

    return flat, rebuild


def split_sens(args, kwargs, who):
    """``(args, kwargs, sens)``: the sensitivity is ``sens=`` or else the last argument."""
    if 'sens' in kwargs:
        kwargs = dict(kwargs)
        return args, kwargs, kwargs.pop('sens')
    if not args:
        raise TypeError(f"{who}: sens_param=True needs the sensitivity (the gradient of the "
                        f"output) as the last argument or as sens=")
    return args[:-1], kwargs, args[-1]


class _Result:
    """One evaluation: the output, the aux outputs, the positions differentiated (those that
    held Tensors), their gradients, the weights and theirs."""
    __slots__ = ('out', 'aux', 'positions', 'inputs', 'weights', 'weight_list')


def evaluate(fn, args, kwargs, positions, weights, has_aux, sens, who, used=False):
    """Run ``fn`` and its backward pass; a ``_Result``.

    ``positions`` index the positional then keyword arguments; positions that do not hold a
    Tensor are skipped, as MindSpore skips them. ``used``: differentiate the trainable
    Parameters the output depends on, in order of first use (``weights`` is then None).
    """
    flat, rebuild = flatten_call(args, kwargs)
    check_range(positions, len(flat), who)
    kept = tuple(p for p in positions if isinstance(flat[p], Tensor))
    targets, nested = prepare(flat, kept)
    call_args, call_kwargs = rebuild(flat)
    if used:
        with ParameterUse() as use:
            out = run(fn, call_args, call_kwargs)
    else:
        out = run(fn, call_args, call_kwargs, weights)
    out, aux = split_aux(out, has_aux, who)
    roots, grads = start(tensor_leaves(out), sens, nested, who, structure=out)
    if used:
        weights = used_parameters(roots, use)
    n = len(targets)
    gs = capture(roots, grads, targets + (weights or []), False, nested,
                 None if weights is None else n)
    res = _Result()
    res.out = out if nested else detached(out)
    res.aux = None if aux is None else detached(aux)
    res.positions = kept
    res.inputs = gs[:n]
    res.weights = gs[n:]
    res.weight_list = weights
    return res


def _pack(res, grad_position, single_weight, return_ids):
    """grad's result: one gradient for one differentiated Tensor, a tuple for several, ``()``
    for none; ``(inputs, weights)`` when both were asked for. ``return_ids`` pairs each
    gradient with its position or its Parameter's name."""
    ins = res.inputs
    if return_ids:
        ins = [(p, g) for p, g in zip(res.positions, ins)]
    if grad_position is None:
        in_part = None
    elif len(ins) == 1:
        in_part = ins[0]
    else:
        in_part = tuple(ins)
    if res.weight_list is None:
        return in_part
    ws = res.weights
    if return_ids:
        ws = [(w.name, g) for w, g in zip(res.weight_list, ws)]
    w_part = ws[0] if single_weight else tuple(ws)
    return w_part if in_part is None else (in_part, w_part)


def _transform(fn, grad_position, weights, has_aux, return_ids, sens_param, who):
    """Validate a grad/value_and_grad spec; return ``run(args, kwargs) -> (result, grads)``."""
    check_callable(fn, who)
    for name, flag in (('has_aux', has_aux), ('return_ids', return_ids),
                       ('sens_param', sens_param)):
        check_bool(flag, name, who)
    if grad_position is None and weights is None:
        raise ValueError(f"{who}: grad_position and weights cannot both be None")
    positions = () if grad_position is None else as_positions(grad_position, who)
    wlist, single_weight = as_weights(weights, who)

    def run_transform(args, kwargs):
        sens = None
        if sens_param:
            args, kwargs, sens = split_sens(args, kwargs, who)
        res = evaluate(fn, args, kwargs, positions, wlist, has_aux, sens, who)
        return res, _pack(res, grad_position, single_weight, return_ids)

    return run_transform


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False,
                   sens_param=False):
    """A function returning ``(fn(*args), gradients)``.

    Args:
        fn: function (or Cell) of Tensors. Its output may be a Tensor or tuples, lists and dicts
            of them: each output Tensor is differentiated with an all-ones sensitivity and the
            gradients add up.
        grad_position: int or tuple of ints: which arguments to differentiate (positional
            arguments first, then keyword arguments in the order given); None (with
            ``weights``) for weights only. Arguments that are not Tensors are skipped. The
            gradient of an integer or bool Tensor is computed as for floats and cast to its
            dtype, as MindSpore does.
        weights: a Parameter, or a list/tuple/ParameterTuple of them, to differentiate too.
        has_aux: only fn's first output is differentiated; the others are returned as aux.
        return_ids: replace each gradient by ``(position, gradient)`` or
            ``(parameter name, gradient)`` (see ``get_grad``).
        sens_param: the returned function takes the sensitivity (the gradient of the output,
            shaped like it) as its last argument or as ``sens=``, instead of all ones.
    Returns:
        ``(value, grads)``; with ``has_aux`` ``((value, *aux), grads)``. ``grads`` is one Tensor
        for one differentiated argument, a tuple for several (``()`` for none),
        ``(inputs_grads, weights_grads)`` when both are asked for. A gradient that does not
        reach its argument is zeros of its shape.
    Raises:
        TypeError: a flag is not a bool, grad_position is not an int or tuple of ints, or
            weights are not Parameters.
        ValueError: both grad_position and weights are None, a position is negative,
            repeated or (when called) out of range.

    >>> import hookgrad as ms
    >>> ms.value_and_grad(lambda x: x * x)(ms.Tensor(3.0))
    (Tensor(shape=[], dtype=Float32, value= 9), Tensor(shape=[], dtype=Float32, value= 6))
    """
    run_transform = _transform(fn, grad_position, weights, has_aux, return_ids, sens_param,
                               'value_and_grad')

    def value_and_grad_fn(*args, **kwargs):
        res, grads = run_transform(args, kwargs)
        value = res.out if not has_aux else (res.out,) + res.aux
        return value, grads

    return value_and_grad_fn


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """A function returning the gradients of ``fn`` (see ``value_and_grad`` for the arguments).

    With ``has_aux`` it returns ``(grads, (aux, ...))``.

    >>> import hookgrad as ms
    >>> ms.grad(lambda x, y: x * y, grad_position=(0, 1))(ms.Tensor(2.0), ms.Tensor(5.0))
    (Tensor(shape=[], dtype=Float32, value= 5), Tensor(shape=[], dtype=Float32, value= 2))
    """
    run_transform = _transform(fn, grad_position, weights, has_aux, return_ids, sens_param,
                               'grad')

    def grad_fn(*args, **kwargs):
        res, grads = run_transform(args, kwargs)
        return (grads, res.aux) if has_aux else grads

    return grad_fn


def get_grad(gradients, identifier):
    """The gradient of one position or Parameter in the result of ``grad(...,
    return_ids=True)`` (or the gradients of ``value_and_grad(..., return_ids=True)``).

    Args:
        gradients: tuples of ``(position, gradient)`` and ``(parameter name, gradient)`` pairs,
            nested in tuples as grad returns them.
        identifier: an int position, or a Parameter (matched by name).
    Returns:
        The Tensor gradient.
    Raises:
        TypeError: ``identifier`` is neither an int nor a Parameter.
        RuntimeError: no gradient in ``gradients`` has that identifier.

    >>> import hookgrad as ms
    >>> g = ms.grad(lambda x, y: x * y, (0, 1), return_ids=True)(ms.Tensor(2.0), ms.Tensor(5.0))
    >>> ms.get_grad(g, 1)
    Tensor(shape=[], dtype=Float32, value= 2)
    """
    if isinstance(identifier, Tensor) and identifier._is_parameter:
        key, by_name = identifier.name, True
    elif isinstance(identifier, (int, np.integer)):
        key, by_name = int(identifier), False
    else:
        raise TypeError(f"get_grad: identifier must be an int position or a Parameter, got "
                        f"{type(identifier).__name__}")
    found = _find_grad(gradients, key, by_name)
    if found is None:
        raise RuntimeError(f"get_grad: no gradient for position or Parameter {identifier!r} "
                           f"in the gradients given")
    return found


def _find_grad(value, key, by_name):
    """The Tensor of the first ``(key, Tensor)`` pair in nested tuples, or None."""
    if not isinstance(value, tuple):
        return None
    if len(value) == 2 and isinstance(value[1], Tensor) and \
            isinstance(value[0], (str, int, np.integer)):
        if isinstance(value[0], str) == by_name and value[0] == key:
            return value[1]
        return None
    for item in value:
        found = _find_grad(item, key, by_name)
        if found is not None:
            return found
    return None


def vjp(fn, *inputs, weights=None, has_aux=False):
    """Evaluate ``fn(*inputs)`` and return ``(outputs, vjp_fn)`` (``+ aux`` with has_aux).

    Args:
        fn: function (or Cell) of the input Tensors.
        inputs: the Tensors to call ``fn`` with and differentiate.
        weights: a Parameter or a list/ParameterTuple of them to differentiate too.
        has_aux: only fn's first output is differentiated; the others are returned as aux
            (one value for two outputs, a tuple for more).
    Returns:
        ``(outputs, vjp_fn)`` or ``(outputs, vjp_fn, aux)``. ``vjp_fn(v)`` takes one cotangent
        Tensor per output (as separate arguments or one tuple), each of its output's shape and
        dtype, and returns a tuple with the vector-Jacobian product of every input; with
        ``weights``, ``(inputs_grads, weights_grads)``. It may be called repeatedly.
    Raises:
        TypeError: an input or cotangent is not a Tensor, or has_aux is not a bool.

    >>> import hookgrad as ms
    >>> out, vjp_fn = ms.vjp(lambda x: x * x, ms.Tensor([1.0, 2.0]))
    >>> vjp_fn(ms.Tensor([1.0, 1.0]))
    (Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  4.00000000e+00]),)
    """
    check_callable(fn, 'vjp')
    check_bool(has_aux, 'has_aux', 'vjp')
    if not inputs:
        raise TypeError("vjp: expected at least one input Tensor")
    for i, x in enumerate(inputs):
        if not isinstance(x, Tensor):
            raise TypeError(f"vjp: every input must be a Tensor, input {i} is "
                            f"{type(x).__name__}")
    wlist, single_weight = as_weights(weights, 'vjp')
    flat = list(inputs)
    targets, nested = prepare(flat, range(len(flat)))
    out = run(fn, flat, {}, wlist)
    out, aux = split_aux(out, has_aux, 'vjp')
    outs = tensor_leaves(out)
    n = len(targets)

    def vjp_fn(*v):
        if not v:
            raise TypeError("vjp_fn: expected a cotangent Tensor for each output")
        roots, grads = start(outs, v[0] if len(v) == 1 else v, nested, 'vjp_fn', False,
                             'cotangent')
        gs = capture(roots, grads, targets + (wlist or []), True, nested, n)
        in_part = tuple(gs[:n])
        if wlist is None:
            return in_part
        return in_part, (gs[n] if single_weight else tuple(gs[n:]))

    value = out if nested else detached(out)
    if not has_aux:
        return value, vjp_fn
    aux = detached(aux[0] if len(aux) == 1 else aux)
    return value, vjp_fn, aux


class GradOperation:
    """MindSpore's older gradient transform: ``GradOperation(get_all, get_by_list, sens_param)``.

    ``GradOperation()(fn)(*args)`` differentiates with respect to the first argument (``()``
    when it is not a Tensor or there is none); ``get_all`` gives a tuple for every Tensor
    argument (positional, then keyword); ``get_by_list`` with ``GradOperation(...)(fn, weights)`` gives the weights'
    gradients (one Tensor for one Parameter, else a tuple), and without weights those of the
    trainable Parameters the output depends on, in the order they were first used, as
    MindSpore does; both flags give ``(inputs_grads, weights_grads)``. With ``sens_param`` the
    sensitivity (the output's gradient) is the last argument or ``sens=``, instead of all ones.

    Raises:
        TypeError: a flag is not a bool.

    >>> import hookgrad as ms
    >>> ms.ops.GradOperation(get_all=True)(lambda x, y: x * y)(ms.Tensor(2.0), ms.Tensor(5.0))
    (Tensor(shape=[], dtype=Float32, value= 5), Tensor(shape=[], dtype=Float32, value= 2))
    """

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, flag in (('get_all', get_all), ('get_by_list', get_by_list),
                           ('sens_param', sens_param)):
            check_bool(flag, name, 'GradOperation')
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn, weights=None):
        run_grad = self.with_value(fn, weights)

        def grad_fn(*args, **kwargs):
            return run_grad(*args, **kwargs)[1]

        return grad_fn

    def with_value(self, fn, weights=None):
        """Like ``__call__``, but the function returns ``(fn's output, gradients)`` from the
        one evaluation (``nn.ForwardValueAndGrad``)."""
        who = 'GradOperation'
        check_callable(fn, who)
        used = self.get_by_list and weights is None
        wlist, single_weight = (None, False)
        if self.get_by_list and not used:
            wlist, single_weight = as_weights(weights, who)

        def value_and_grad_fn(*args, **kwargs):
            sens = None
            if self.sens_param:
                args, kwargs, sens = split_sens(args, kwargs, who)
            if self.get_all:
                flat = list(args) + list(kwargs.values())
                positions = tuple(i for i, a in enumerate(flat) if isinstance(a, Tensor))
            elif self.get_by_list:
                positions = ()
            elif not args and not kwargs:
                positions = ()          # nothing to differentiate: () as in MindSpore
            else:
                positions = (0,)
            res = evaluate(fn, args, kwargs, positions, wlist, False, sens, who, used)
            if self.get_by_list:
                w_part = res.weights[0] if single_weight else tuple(res.weights)
                grads = (tuple(res.inputs), w_part) if self.get_all else w_part
            elif self.get_all:
                grads = tuple(res.inputs)
            else:
                grads = res.inputs[0] if res.inputs else ()
            return res.out, grads

        return value_and_grad_fn
