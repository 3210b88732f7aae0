"""``nn.Jvp`` and ``nn.Vjp``: MindSpore's Cell forms of the Jacobian-vector and vector-Jacobian
products (deprecated there since 1.9 in favour of ``ops.jvp`` / ``ops.vjp``, still public)."""
from .._frames import warn
from .._tensor import detached
from ..autograd.capture import capture, prepare, run, start, tensor_leaves
from ..autograd.forward_mode import Linearization, check_tangents, tensor_list
from .cell import Cell

__all__ = ['Jvp', 'Vjp']


def _deprecated(name, substitute):
    warn(f"'{name}' is deprecated from version 1.9 and will be removed in a future "
         f"version, use '{substitute}' instead.", DeprecationWarning)


class Jvp(Cell):
    """The Jacobian-vector product of ``fn`` as a Cell: ``Jvp(fn)(*inputs, v)`` returns
    ``(fn(*inputs), J v)``, ``v`` a Tensor for one input, a tuple for several.

    Args:
        fn: the function or Cell to differentiate (a Cell becomes the sub-cell ``fn``).

    >>> import warnings, hookgrad as ms
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter('ignore')
    ...     jvp_cell = ms.nn.Jvp(lambda x: x ** 3)
    >>> jvp_cell(ms.Tensor([2.0]), ms.Tensor([1.0]))[1]
    Tensor(shape=[1], dtype=Float32, value= [ 1.20000000e+01])
    """

    def __init__(self, fn):
        _deprecated('Jvp', 'ops.jvp')
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        if len(args) < 2:
            raise TypeError(f"Jvp: expected the inputs of fn and then v, got {len(args)} "
                            f"argument{'s' if len(args) != 1 else ''}")
        xs = tensor_list(list(args[:-1]), 'inputs', 'Jvp')
        vs = tensor_list(args[-1], 'v', 'Jvp')
        check_tangents(xs, vs, 'Jvp')
        lin = Linearization(self.fn, xs, range(len(xs)), False, 'Jvp')
        return lin.value, lin.structured(lin.tangents(vs, False))


class Vjp(Cell):
    """The vector-Jacobian product of ``fn`` as a Cell: ``Vjp(fn)(*inputs, v)`` returns
    ``(fn(*inputs), v J)``, the gradients one Tensor for one input, a tuple for several; ``v``
    is shaped like the output (a tuple for several outputs).

    Args:
        fn: the function or Cell to differentiate (a Cell becomes the sub-cell ``fn``).

    >>> import warnings, hookgrad as ms
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter('ignore')
    ...     vjp_cell = ms.nn.Vjp(lambda x: x ** 3)
    >>> vjp_cell(ms.Tensor([2.0]), ms.Tensor([1.0]))[1]
    Tensor(shape=[1], dtype=Float32, value= [ 1.20000000e+01])
    """

    def __init__(self, fn):
        _deprecated('Vjp', 'ops.vjp')
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        if len(args) < 2:
            raise TypeError(f"Vjp: expected the inputs of fn and then v, got {len(args)} "
                            f"argument{'s' if len(args) != 1 else ''}")
        flat = tensor_list(list(args[:-1]), 'inputs', 'Vjp')
        targets, nested = prepare(flat, range(len(flat)), False)
        out = run(self.fn, flat, {})
        roots, grads = start(tensor_leaves(out), args[-1], nested, 'Vjp', False, 'cotangent')
        gs = capture(roots, grads, targets, False, nested)
        value = out if nested else detached(out)
        return value, (gs[0] if len(gs) == 1 else tuple(gs))
