"""Effects a replay runs in place, without building Tensors for their arguments.

The common state changes of a training step, ``ops.assign(p, value)`` and ``p.grad = None``,
are effects (hookgrad/autograd/function.py ``effect``). A replay could call them like any other
effect, with a Tensor made for each argument; for these, it writes the arrays directly instead,
through the same helpers the effects use, and calls the effect itself for anything unusual (a
value of another shape, which then raises as eagerly).

Each emitter writes code that leaves the effect's return value in ``r``, or returns False to
have the effect called as usual.
"""
from .._tensor import _set_grad
from ..ops.creation import _assign, assign_array
from .program import Const, Seq, TensorAt


def _assign_tensor(em, step):
    """``ops.assign(variable, tensor)``: copy the array in when the shapes match."""
    args = step.args
    if type(args) is not Seq or len(args.items) != 2 or \
            not all(type(t) is TensorAt for t in args.items):
        return False
    variable = em.tensor(args.items[0].slot)
    value = args.items[1].slot
    em.line(f'if a{value}.shape == {variable}._data.shape: '
            f'{em.const(assign_array, "assign")}({variable}, a{value}); r = {variable}')
    em.line(f"else: r = {em.const(_assign, 'fx')}({variable}, _mk(a{value}, e{value}))")
    return True


def _set_gradient(em, step):
    """``tensor.grad = value`` (checked when it was set)."""
    args = step.args
    if type(args) is not Seq or len(args.items) != 2 or type(args.items[0]) is not TensorAt:
        return False
    value = args.items[1]
    if type(value) is not Const and type(value) is not TensorAt:
        return False
    em.line(f'{em.tensor(args.items[0].slot)}._grad = {value.expr(em)}; r = None')
    return True


EFFECTS = {_assign: _assign_tensor, _set_grad: _set_gradient}
"""Effect function -> emitter."""
