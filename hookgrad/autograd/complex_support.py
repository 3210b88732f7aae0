"""Which ops take complex tensors, enforced in one place.

NumPy computes most ops on complex arrays, but an op written for real numbers can still be
wrong there without a word: an order (``maximum``, ``sort``, ``relu``) means nothing for
complex numbers, a cast to a float drops the imaginary part, and a backward rule written as
``gy * b`` for ``a * b`` misses the conjugate that the gradient of a real loss with respect to
a complex input needs (``gy * conj(b)``, PyTorch's and MindSpore's convention: the gradient is
``dL/dx + i dL/dy`` for ``z = x + iy``). So complex arrays reach only the ops listed here:

- ``GRADIENT``: forward and backward hold for complex numbers (the rules are linear in the
  incoming gradient, or written for complex inputs);
- ``HOLOMORPHIC``: complex-differentiable functions whose real rule multiplies the incoming
  gradient by the derivative (``gy * b`` for ``a * b``): on complex inputs the rule runs on the
  conjugated gradient and its results are conjugated, giving ``gy * conj(f'(z))``;
- ``FORWARD``: forward holds, backward does not: a backward pass through one of them with a
  complex gradient raises TypeError, as MindSpore raises for ``Pow`` ("gradient not support for
  complex type");
- every other op raises TypeError when given a complex array.

The check costs nothing until the process makes its first complex array: ``enable()`` (called
where complex arrays are made: Tensor construction, casts, the complex ops) then wraps the
forward (or the backward rules) of every op that is not in ``GRADIENT``; ops registered later
are wrapped as they register.
"""
import functools
import inspect

GRADIENT = frozenset({
    # linear in the incoming gradient: the same rule serves complex numbers
    'Add', 'Sub', 'Neg', 'Identity', 'Reshape', 'Transpose', 'BroadcastTo', 'SumTo', 'Concat',
    'Stack', 'GetItem', 'SetItem', 'Flip', 'Roll', 'Tile', 'Diagonal', 'EmbedDiagonal',
    'Triangle', 'Where', 'ReduceSum', 'ReduceMean', 'CumSum', 'Take', 'Untake', 'Unindex',
    'Pieces', 'MoveTo', 'HookBackward', 'CellBoundary', 'CellBprop',
    # written for complex numbers
    'Cast', 'Real', 'Imag', 'Conj', 'Complex', 'ComplexAbs', 'Angle', 'Polar', 'ViewAsReal',
    'FFTN', 'RFFTN', 'IRFFTN',
})
HOLOMORPHIC = frozenset({
    'Mul', 'Div', 'MatMul', 'Exp', 'Log', 'Sqrt', 'Rsqrt', 'Square', 'Reciprocal', 'Sin',
    'Cos', 'Tangent', 'Tanh', 'HyperbolicSine', 'HyperbolicCosine', 'Expm1', 'Log1p',
    'Log10', 'Log2', 'MatrixInverse',
})
FORWARD = frozenset({
    'Einsum', 'Pow', 'ReduceProd', 'CumProd', 'Equal', 'NotEqual', 'IsFinite', 'IsInf',
    'IsNan', 'ReduceAll', 'ReduceAny', 'LogicalNot', 'CountNonZero', 'NonZero', 'ComplexSign',
})

_enabled = False


def enable():
    """Start checking ops for complex inputs (once per process; later calls return at once)."""
    global _enabled
    if _enabled:
        return
    _enabled = True
    from .function import OPS
    for op in list(OPS.values()):
        guard(op)


def admit(np_dtype):
    """Check that hookgrad holds ``np_dtype`` (TypeError naming it otherwise), and start the
    checks above when it is complex: for code that wraps arrays it did not make."""
    from .._dtype import from_numpy
    from_numpy(np_dtype)
    if np_dtype.kind == 'c':
        enable()


def guard(op):
    """Wrap ``op``'s forward (ops outside the lists) or backward rules (``HOLOMORPHIC`` and
    ``FORWARD`` ops) as its membership above calls for (while enabled)."""
    if not _enabled or op.name in GRADIENT or op.__dict__.get('_complex_guarded'):
        return
    op._complex_guarded = True
    if op.name in HOLOMORPHIC or op.name in FORWARD:
        wrap = _conjugated if op.name in HOLOMORPHIC else _refused(op.name)
        if op.array_rule is not None:
            op.array_rule = staticmethod(wrap(op.array_rule))
        if getattr(op, 'backward', None) is not None:
            op.backward = staticmethod(wrap(op.backward))
        return
    forward = _unguarded(op, 'forward')
    name = op.name

    @functools.wraps(forward)
    def checked(ctx, *arrays, **params):
        for a in arrays:
            if getattr(a, 'dtype', None) is not None and a.dtype.kind == 'c':
                raise TypeError(f"{name} does not support complex inputs (got {a.dtype}): "
                                f"hookgrad computes it on real numbers")
        return forward(ctx, *arrays, **params)

    op.forward = staticmethod(checked)


def _unguarded(op, attr):
    """``op.attr`` as the class defines it before any wrapping, bound to ``op`` when it is a
    classmethod (a subclass's ``cls`` must stay itself)."""
    raw = op.__dict__.get(attr)
    if raw is None:
        raw = getattr(op, '_unguarded_' + attr, None) or inspect.getattr_static(op, attr)
    setattr(op, '_unguarded_' + attr, raw)
    if isinstance(raw, classmethod):
        return raw.__func__.__get__(op, op)
    if isinstance(raw, staticmethod):
        return raw.__func__
    return raw


def _is_complex(a):
    return a is not None and getattr(a, '_data', a).dtype.kind == 'c'


def _conjugated(rule):
    """``rule`` for complex inputs: ``conj(rule(conj(gy)))``, the real rule unchanged."""
    @functools.wraps(rule)
    def wrapped(ctx, *grads):
        if not (any(map(_is_complex, grads)) or any(map(_is_complex, ctx.saved))):
            return rule(ctx, *grads)
        conj = ctx.m.conj
        out = rule(ctx, *[None if g is None else conj(g) for g in grads])
        if type(out) is tuple:
            return tuple(None if g is None else conj(g) for g in out)
        return None if out is None else conj(out)
    return wrapped


def _refused(name):
    """A backward rule wrapper that refuses complex gradients, as MindSpore does for ``Mul``."""
    def wrap(rule):
        @functools.wraps(rule)
        def wrapped(ctx, *grads):
            if any(map(_is_complex, grads)) or any(map(_is_complex, ctx.saved)):
                raise TypeError(f"For '{name}', gradient not support for complex type currently "
                                f"(as in MindSpore 2.10): compute it on the real and imaginary "
                                f"parts (ops.real, ops.imag) to differentiate")
            return rule(ctx, *grads)
        return wrapped
    return wrap
