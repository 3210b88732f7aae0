"""Forward-mode transforms: ``jvp``, ``linearize``, ``jacfwd``, ``jacrev``, ``derivative`` and
``jet``, with MindSpore 2.10's signatures and results.

Jacobian-vector products are computed as MindSpore computes them, with two reverse passes (the
"double vjp"): the backward pass from the outputs is recorded with respect to stand-in
cotangents ``u``, which makes each input's gradient a linear function of ``u``; a second
backward pass from those gradients, seeded with the tangent ``v``, gives ``J v`` as the gradient
with respect to ``u``. ``linearize`` keeps the recorded first pass, so each product costs one
pass. Higher derivatives along a path (``derivative``, ``jet``) nest products.
"""
import math

import numpy as np

from ..kernels.backend import array_module
from .._tensor import Tensor, detached
from .capture import capture, leaves, prepare, run, split_aux, stand_in, tensor_leaves
from .engine import run_backward
from .function import effect
from .functional import as_positions, check_bool, check_callable, check_range

__all__ = ['jvp', 'linearize', 'jacfwd', 'jacrev', 'derivative', 'jet']


def _xp(t):
    """The array module of Tensor ``t``'s device."""
    return array_module(t._data)


class Linearization:
    """``fn`` evaluated at its arguments, with the reverse pass from its outputs recorded as a
    function of stand-in cotangents: ``tangents(vs)`` is then one backward pass.

    Only the arguments at ``positions`` are perturbed; the others stay constants.
    """

    def __init__(self, fn, args, positions, has_aux, who, nested=False):
        flat = list(args)
        self.targets, self.nested = prepare(flat, positions, False)
        self.nested = self.nested or nested
        out = run(fn, flat, {})
        out, self.aux = split_aux(out, has_aux, who)
        for i, o in enumerate(leaves(out)):
            if not isinstance(o, Tensor):
                raise TypeError(f"{who}: fn must return Tensors (or tuples of them), output {i} "
                                f"is {type(o).__name__}")
        self.out = out
        self.outs = tensor_leaves(out)
        live = [o for o in self.outs if o.requires_grad]
        pairs = [effect(stand_in, Tensor._wrap(_xp(o).ones(o.shape, o._data.dtype))) for o in live]
        self.cotangents = {id(o): pair[1] for o, pair in zip(live, pairs)}
        self.gradients = [None] * len(self.targets)
        if live and self.targets:
            self.gradients = effect(run_backward, live, [p[0] for p in pairs], self.targets,
                                    True, True)

    @property
    def value(self):
        """fn's output; with a graph only when the products are recorded."""
        return self.out if self.nested else detached(self.out)

    def aux_value(self):
        """The aux outputs, cut from the graph (as grad returns them): one for one, a tuple
        for several."""
        return detached(self.aux[0] if len(self.aux) == 1 else self.aux)

    def tangents(self, vs, retain):
        """``J v`` for each output Tensor (a list), ``vs`` one tangent per perturbed argument."""
        roots, seeds = [], []
        for g, v in zip(self.gradients, vs):
            if isinstance(g, Tensor) and g.requires_grad:
                roots.append(g)
                seeds.append(v if self.nested else v._data)
        us = [self.cotangents.get(id(o)) for o in self.outs]
        live = [u for u in us if u is not None]
        got = capture(roots, seeds, live, retain or self.nested, self.nested)
        found = dict(zip(map(id, live), got))
        return [found[id(u)] if u is not None else
                Tensor._wrap(_xp(o).zeros(o.shape, o._data.dtype)) for u, o in zip(us, self.outs)]

    def structured(self, flat):
        """``flat`` (one item per output Tensor) in the structure of fn's output."""
        items = iter(flat)
        return _rebuild(self.out, items)


def _rebuild(value, items):
    """``value``'s structure with its leaves taken from the iterator ``items``."""
    if isinstance(value, (tuple, list)):
        return type(value)(_rebuild(v, items) for v in value)
    if isinstance(value, dict):
        return {k: _rebuild(v, items) for k, v in value.items()}
    return next(items)


def tensor_list(value, name, who):
    """``value`` (a Tensor, or a tuple/list of Tensors) as a list of Tensors."""
    items = list(value) if isinstance(value, (tuple, list)) else [value]
    wrong = [x for x in items if not isinstance(x, Tensor)]
    if wrong or not items:
        what = type(value).__name__
        if wrong and isinstance(value, (tuple, list)):
            what += f" holding {type(wrong[0]).__name__}"
        raise TypeError(f"{who}: {name} must be a Tensor or a tuple/list of Tensors, got {what}")
    return items


def check_tangents(xs, vs, who):
    """Check the tangents: one per input, each of its input's shape and dtype."""
    if len(vs) != len(xs):
        raise ValueError(f"{who}: v has {len(vs)} tangent{'s' if len(vs) != 1 else ''} for "
                         f"{len(xs)} input{'s' if len(xs) != 1 else ''}")
    for i, (x, v) in enumerate(zip(xs, vs)):
        if v.shape != x.shape:
            raise ValueError(f"{who}: tangent {i} has shape {v.shape}, its input {x.shape}")
        if v._data.dtype != x._data.dtype:
            raise TypeError(f"{who}: tangent {i} has dtype {v.dtype}, its input {x.dtype}")


def jvp(fn, inputs, v, has_aux=False):
    """The Jacobian-vector product of ``fn`` at ``inputs`` along ``v`` (forward-mode AD).

    Args:
        fn: function (or Cell) of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor, or a tuple/list of Tensors: the arguments of ``fn``.
        v: the tangent: Tensors like ``inputs`` (same count, shapes and dtypes).
        has_aux: only fn's first output is differentiated; the others are returned as aux
            (one value for two outputs, a tuple for more).
    Returns:
        ``(fn(*inputs), jvp)`` or ``(fn(*inputs), jvp, aux)``, ``jvp`` shaped like the output.
    Raises:
        TypeError: ``inputs`` or ``v`` are not Tensors, a dtype differs, has_aux is not a bool.
        ValueError: ``v`` has another length or shape than ``inputs``.

    >>> import hookgrad as ms
    >>> ms.jvp(lambda x: x ** 3, ms.Tensor([2.0]), ms.Tensor([1.0]))[1]
    Tensor(shape=[1], dtype=Float32, value= [ 1.20000000e+01])
    """
    check_callable(fn, 'jvp')
    check_bool(has_aux, 'has_aux', 'jvp')
    xs, vs = tensor_list(inputs, 'inputs', 'jvp'), tensor_list(v, 'v', 'jvp')
    check_tangents(xs, vs, 'jvp')
    lin = Linearization(fn, xs, range(len(xs)), has_aux, 'jvp')
    tangent = lin.structured(lin.tangents(vs, False))
    if has_aux:
        return lin.value, tangent, lin.aux_value()
    return lin.value, tangent


def linearize(fn, inputs):
    """``fn`` evaluated at ``inputs`` and a function giving its Jacobian-vector products there.

    The reverse pass is recorded once; each ``jvp_fn(v)`` then costs one backward pass.

    Args:
        fn: function (or Cell) of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor, or a tuple/list of Tensors.
    Returns:
        ``(output, jvp_fn)``: ``jvp_fn(v)`` takes tangents like ``inputs`` (a Tensor, or a
        tuple/list) and returns the product, shaped like the output.
    Raises:
        TypeError: ``inputs`` (or later ``v``) are not Tensors.

    >>> import hookgrad as ms
    >>> out, jvp_fn = ms.ops.linearize(lambda x: x * x, ms.Tensor([3.0]))
    >>> jvp_fn(ms.Tensor([1.0]))
    Tensor(shape=[1], dtype=Float32, value= [ 6.00000000e+00])
    """
    check_callable(fn, 'linearize')
    xs = tensor_list(inputs, 'inputs', 'linearize')
    lin = Linearization(fn, xs, range(len(xs)), False, 'linearize')

    def jvp_fn(v):
        vs = tensor_list(v, 'v', 'jvp_fn')
        check_tangents(xs, vs, 'jvp_fn')
        return lin.structured(lin.tangents(vs, True))

    return lin.value, jvp_fn


def _jacobian_spec(fn, grad_position, has_aux, who):
    """Check jacfwd's or jacrev's arguments; the positions as a tuple."""
    check_callable(fn, who)
    check_bool(has_aux, 'has_aux', who)
    return as_positions(grad_position, who)


def _jacobian_args(args, positions, who):
    """Every position is in range and holds a Tensor."""
    check_range(positions, len(args), who)
    for p in positions:
        if not isinstance(args[p], Tensor):
            raise TypeError(f"{who}: the argument at grad_position {p} must be a Tensor, got "
                            f"{type(args[p]).__name__}")


def _assemble(rows, out_shape, in_shape, axis):
    """One Jacobian block from its rows (``axis=0``, one per output element) or columns
    (``axis=-1``, one per input element): shape ``out_shape + in_shape``. Built with ops, so a
    graph-mode program replays it and a higher-order transform differentiates it."""
    from ..ops import reshape, stack
    return reshape(stack(rows, axis), out_shape + in_shape)


def _jacobian_result(out, blocks, grad_position):
    """``blocks[o][p]`` in MindSpore's structure: per output (a tuple when fn returns several),
    per position (a tuple when grad_position is a tuple of several)."""
    several = isinstance(grad_position, tuple) and len(grad_position) > 1
    per_out = [tuple(b) if several else b[0] for b in blocks]
    return tuple(per_out) if isinstance(out, (tuple, list)) else per_out[0]


def jacrev(fn, grad_position=0, has_aux=False):
    """A function returning the Jacobian of ``fn`` by reverse mode (one backward pass per
    output element).

    Args:
        fn: function (or Cell) of Tensors returning a Tensor or a tuple of Tensors.
        grad_position: int or tuple of ints: the arguments to differentiate.
        has_aux: only fn's first output is differentiated; the others are returned as aux.
    Returns:
        A function of fn's arguments returning the Jacobian (``(jacobian, aux)`` with has_aux):
        for output ``o`` and argument ``x`` a Tensor of shape ``o.shape + x.shape``; a tuple
        over outputs when fn returns several, over positions when grad_position is a tuple of
        several.
    Raises:
        TypeError: has_aux is not a bool, grad_position is not an int or tuple of ints, or
            (when called) an argument to differentiate is not a Tensor.
        ValueError: a position is negative, repeated or out of range.

    >>> import hookgrad as ms
    >>> ms.jacrev(lambda x: x * x)(ms.Tensor([1.0, 2.0]))
    Tensor(shape=[2, 2], dtype=Float32, value=
    [[ 2.00000000e+00,  0.00000000e+00],
     [ 0.00000000e+00,  4.00000000e+00]])
    """
    positions = _jacobian_spec(fn, grad_position, has_aux, 'jacrev')

    def jacobian_fn(*args):
        _jacobian_args(args, positions, 'jacrev')
        flat = list(args)
        targets, nested = prepare(flat, positions, False)
        out = run(fn, flat, {})
        out, aux = split_aux(out, has_aux, 'jacrev')
        blocks = []
        for o in leaves(out):
            if not isinstance(o, Tensor):
                raise TypeError(f"jacrev: fn must return Tensors, got {type(o).__name__}")
            rows = []
            for k in range(o.size):
                seed = _xp(o).zeros(o.size, o._data.dtype)
                seed[k] = 1
                seed = seed.reshape(o.shape)
                roots = [o] if o.requires_grad else []
                rows.append(capture(roots, [Tensor._wrap(seed) if nested else seed], targets,
                                    True, nested))
            blocks.append([_assemble([r[i] for r in rows], o.shape, t.shape, 0)
                           if rows else _zeros_block(o, t) for i, t in enumerate(targets)])
        jac = _jacobian_result(out, blocks, grad_position)
        if not has_aux:
            return jac
        return jac, detached(aux[0] if len(aux) == 1 else aux)

    return jacobian_fn


def _zeros_block(o, t):
    """The Jacobian block of an empty output or input."""
    return Tensor._wrap(_xp(t).zeros(o.shape + t.shape, t._data.dtype))


def jacfwd(fn, grad_position=0, has_aux=False):
    """A function returning the Jacobian of ``fn`` by forward mode (one Jacobian-vector product
    per element of the differentiated arguments); arguments and results as ``jacrev``.

    >>> import hookgrad as ms
    >>> ms.jacfwd(lambda x: x * x)(ms.Tensor([1.0, 2.0]))
    Tensor(shape=[2, 2], dtype=Float32, value=
    [[ 2.00000000e+00,  0.00000000e+00],
     [ 0.00000000e+00,  4.00000000e+00]])
    """
    positions = _jacobian_spec(fn, grad_position, has_aux, 'jacfwd')

    def jacobian_fn(*args):
        _jacobian_args(args, positions, 'jacfwd')
        lin = Linearization(fn, args, positions, has_aux, 'jacfwd')
        xs = [args[p] for p in positions]
        columns = [[] for _ in xs]          # [position][element] -> J v per output
        for i, x in enumerate(xs):
            for k in range(x.size):
                vs = [Tensor._wrap(_xp(y).zeros(y.shape, y._data.dtype)) for y in xs]
                basis = _xp(x).zeros(x.size, x._data.dtype)
                basis[k] = 1
                vs[i] = Tensor._wrap(basis.reshape(x.shape))
                columns[i].append(lin.tangents(vs, True))
        blocks = [[_assemble([c[j] for c in columns[i]], o.shape, x.shape, -1)
                   if columns[i] else _zeros_block(o, x) for i, x in enumerate(xs)]
                  for j, o in enumerate(lin.outs)]
        jac = _jacobian_result(lin.out, blocks, grad_position)
        return (jac, lin.aux_value()) if has_aux else jac

    return jacobian_fn


def _taylor(fn, primals, series):
    """``(outputs, derivatives)``: fn at ``primals`` and ``d^k/dt^k fn(x(t))`` at ``t = 0`` for
    k = 1..n, along ``x(t) = x + sum_k series[k-1] t^k / k!`` (one list per output)."""
    n = len(series[0])
    dtype = primals[0]._data.dtype
    xp = _xp(primals[0])
    t0 = Tensor._wrap(xp.zeros((), dtype))
    one = Tensor._wrap(xp.ones((), dtype))
    count = []              # the number of output Tensors, known once fn has run

    def path(t):
        xs = []
        for x, s in zip(primals, series):
            for k, sk in enumerate(s, 1):
                x = x + sk * (t ** k) * (1.0 / math.factorial(k))
            xs.append(x)
        outs = tuple(tensor_leaves(fn(*xs)))
        count[:] = [len(outs)]
        return outs

    level = path
    for k in range(n):
        level = _differentiated(level, count, one, k == n - 1 and
                                any(x.requires_grad for x in primals))
    values = level(t0)
    m = count[0]
    return list(values[:m]), [list(values[m * k:m * (k + 1)]) for k in range(1, n + 1)]


def _differentiated(level, count, one, nested):
    """``t -> level(t) + (d/dt of its last values, one per output of fn)``."""
    def next_level(t):
        lin = Linearization(level, [t], (0,), False, 'derivative', nested)
        tangents = lin.tangents([one], False)
        return tuple(lin.value) + tuple(tangents[-count[0]:])
    return next_level


def _as_float(x):
    """Integer primals are taken as Float32, as MindSpore takes them."""
    if x._data.dtype.kind in 'fV':
        return x
    from ..ops import cast
    return cast(x, np.float32)


def derivative(fn, primals, order):
    """The ``order``-th derivative of ``fn`` along the all-ones direction:
    ``d^order/dt^order fn(primals + t)`` at ``t = 0`` (every primal moves with ``t``).

    Args:
        fn: function (or Cell) of Tensors.
        primals: a Tensor or a tuple of Tensors (integer ones are taken as Float32).
        order: the order, an int >= 1.
    Returns:
        ``(out_primals, out_series)``: fn's output and its derivative; lists of them when fn
        returns several outputs.
    Raises:
        TypeError: ``order`` is not an int, or primals are not Tensors.
        ValueError: ``order`` is less than 1.

    >>> import hookgrad as ms
    >>> ms.ops.derivative(lambda x: x ** 3, ms.Tensor([2.0]), 2)[1]
    Tensor(shape=[1], dtype=Float32, value= [ 1.20000000e+01])
    """
    check_callable(fn, 'derivative')
    if not isinstance(order, int) or isinstance(order, bool):
        raise TypeError(f"derivative: order must be an int, got {type(order).__name__}")
    if order < 1:
        raise ValueError(f"derivative: order must be at least 1, got {order}")
    xs = [_as_float(x) for x in tensor_list(primals, 'primals', 'derivative')]
    series = [[Tensor._wrap(_xp(x).ones(x.shape, x._data.dtype))] +
              [Tensor._wrap(_xp(x).zeros(x.shape, x._data.dtype))] * (order - 1) for x in xs]
    outs, derivatives = _taylor(fn, xs, series)
    if len(outs) == 1:
        return outs[0], derivatives[-1][0]
    return outs, derivatives[-1]


def jet(fn, primals, series):
    """Derivatives of ``fn`` along a path given by its Taylor data (Taylor-mode AD).

    The path is ``x(t) = x + sum_k series[k-1] t^k / k!``: ``series[k-1]`` is the k-th
    derivative of the input. The result holds the k-th derivatives of ``fn(x(t))`` at
    ``t = 0``, k = 1..n.

    Args:
        fn: function (or Cell) of Tensors.
        primals: a Tensor, or a tuple of Tensors (integer ones are taken as Float32).
        series: for a Tensor primal, a Tensor of shape ``(n,) + primal.shape`` (or the primal's
            shape for n = 1); for a tuple, a tuple of those.
    Returns:
        ``(out_primals, out_series)``: fn's output and the derivatives stacked on a first axis
        of length n; lists of them when fn returns several outputs.
    Raises:
        TypeError: primals and series are not both Tensors or both tuples.
        ValueError: their lengths or shapes do not match.

    >>> import hookgrad as ms
    >>> ms.ops.jet(lambda x: x * x, ms.Tensor([3.0]), ms.Tensor([[1.0], [0.0]]))[1]
    Tensor(shape=[2, 1], dtype=Float32, value=
    [[ 6.00000000e+00],
     [ 2.00000000e+00]])
    """
    check_callable(fn, 'jet')
    if isinstance(primals, Tensor) and isinstance(series, Tensor):
        primals, series = (primals,), (series,)
    elif not (isinstance(primals, tuple) and isinstance(series, tuple)):
        raise TypeError(f"jet: primals and series must both be Tensors or both tuples, got "
                        f"{type(primals).__name__} and {type(series).__name__}")
    if len(primals) != len(series):
        raise ValueError(f"jet: {len(primals)} primals but {len(series)} series")
    from ..ops import cast, stack
    xs = [_as_float(x) for x in tensor_list(primals, 'primals', 'jet')]
    rows = []
    for x, s in zip(xs, tensor_list(series, 'series', 'jet')):
        if s.shape == x.shape:
            s = s.reshape((1,) + x.shape)
        if s.shape[1:] != x.shape:
            raise ValueError(f"jet: a series of shape {s.shape} for a primal of shape {x.shape}; "
                             f"each term must have the primal's shape")
        rows.append([cast(s[k], x._data.dtype) for k in range(s.shape[0])])
    if len({len(r) for r in rows}) != 1:
        raise ValueError("jet: every series must have the same number of terms")
    outs, derivatives = _taylor(fn, xs, rows)
    stacked = [stack([d[j] for d in derivatives]) for j in range(len(outs))]
    if len(outs) == 1:
        return outs[0], stacked[0]
    return outs, stacked
