"""Effects a replay runs in place, without building Tensors for their arguments.

The common state changes of a training step, ``ops.assign(p, value)`` and ``p.grad = None``,
are effects (hookgrad/autograd/function.py ``effect``). A replay could call them like any other
effect, with a Tensor made for each argument; for these, it writes the arrays directly instead,
through the same helpers the effects use, and calls the effect itself for anything unusual (a
value of another shape, which then raises as eagerly).

Each emitter writes code that leaves the effect's return value in ``r`` and returns the graph
edge of that value (an expression), or returns None to have the effect called as usual.
"""
from .._tensor import _set_grad
from ..ops.creation import _assign, assign_array
from .program import Const, EffectStep, OpStep, Seq, TensorAt


def _two_tensors(args):
    """Whether an effect's arguments are two slots' Tensors."""
    return type(args) is Seq and len(args.items) == 2 and \
        all(type(t) is TensorAt for t in args.items)


def _assign_tensor(em, step):
    """``ops.assign(variable, tensor)``: copy the array in when the shapes match."""
    args = step.args
    if not _two_tensors(args):
        return None
    variable = em.tensor(args.items[0].slot)
    value = args.items[1].slot
    em.line(f'if a{value}.shape == {variable}._data.shape: '
            f'{em.const(assign_array, "assign")}({variable}, a{value}); r = {variable}')
    em.line(f"else: r = {em.const(_assign, 'fx')}({variable}, _mk(a{value}, e{value}))")
    em.made.add(value)
    return _edge_of(em, args.items[0].slot)


def _edge_of(em, slot):
    """The edge of slot ``slot`` as an expression ('None' when it has none on any replay)."""
    return 'None' if slot in em.no_edge else f'e{slot}'


def _set_gradient(em, step):
    """``tensor.grad = value`` (checked when it was set)."""
    args = step.args
    if type(args) is not Seq or len(args.items) != 2 or type(args.items[0]) is not TensorAt:
        return None
    value = args.items[1]
    if type(value) is not Const and type(value) is not TensorAt:
        return None
    em.line(f'{em.tensor(args.items[0].slot)}._grad = {value.expr(em)}')
    return 'None'           # returns None


EFFECTS = {_assign: _assign_tensor, _set_grad: _set_gradient}
"""Effect function -> emitter."""


def fuse(em, step, after, reads):
    """``y = a (op) b; ops.assign(p, y)`` with ``y`` needed nowhere else, as one ufunc call
    writing into ``p``'s array (same values: each element is computed once, in place of
    being copied). Returns whether it emitted the pair; ``reads`` counts each slot's readers.
    """
    if type(step) is not OpStep or step.op.ufunc is None or len(step.ins) != 2 or \
            step.params or step.tuple_out or step.scalar or step.edges(em):
        return False
    if type(after) is not EffectStep or after.fn is not _assign or not _two_tensors(after.args):
        return False
    args = after.args
    (y,) = step.outs
    if args.items[1].slot != y or reads.get(y) != 1:
        return False
    a, b = step.ins
    p = em.tensor(args.items[0].slot)
    em.line(f'd = {p}._data')
    em.line(f'if d.flags.writeable and a{a}.shape == d.shape and a{b}.shape == d.shape and '
            f'a{a}.dtype is d.dtype and a{b}.dtype is d.dtype:')
    em.line(f'    {em.const(step.op.ufunc, "ufunc")}(a{a}, a{b}, out=d); r = {p}')
    em.line('else:')
    em.indent += 1
    step.emit(em)
    edge = _assign_tensor(em, after)
    em.indent -= 1
    after.read_result(em, edge)
    return True
