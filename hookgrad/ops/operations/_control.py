"""MindSpore's Primitive classes for graph control, state and checks beyond Assign, Identity
and StopGradient: in-place adds and subtracts, dependencies, identities of several
tensors, printing, assertions, and the Ascend-only float-status Primitives (refused by
name).

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
import numpy as np

from ..._tensor import Tensor
from .. import (arithmetic as _arith, composite as _composite, creation as _create,
               inspection as _inspect)
from ._primitive import Primitive, _int

__all__ = ['AssignAdd', 'AssignSub', 'Depend', 'IdentityN', 'Print', 'Assert', 'NPUGetFloatStatus',
           'NPUAllocFloatStatus', 'NPUClearFloatStatus']


# ----------------------------------------------------------------------------- state
class AssignAdd(Primitive):
    """``AssignAdd()(variable, value)``: ``variable += value`` in place; returns variable."""
    def construct(self, variable, value):
        return _create.assign_add(variable, value)


class AssignSub(Primitive):
    """``AssignSub()(variable, value)``: ``variable -= value`` in place; returns variable."""
    def construct(self, variable, value):
        return _create.assign_sub(variable, value)


# ----------------------------------------------------------------------------- graph control
class Depend(Primitive):
    """``Depend()(value, expr)``: value; expr has already run (hookgrad runs in program
    order)."""
    def construct(self, value, expr):
        return _composite.depend(value, expr)


class IdentityN(Primitive):
    """``IdentityN()(x)``: the tensors of the tuple or list x, each as a new graph node."""
    def construct(self, x):
        if not isinstance(x, (tuple, list)) or not all(isinstance(t, Tensor) for t in x):
            raise TypeError(f"ops.IdentityN: x must be a tuple or list of Tensors, got {x!r}")
        return type(x)(_arith.identity(t) for t in x)


# ----------------------------------------------------------------------------- printing, checks
class Print(Primitive):
    """``Print()(*args)``: prints each Tensor, string or number on its own line (Tensors in
    their repr); returns None (``ops.print_``)."""
    def construct(self, *args):
        return _inspect.print_(*args)


class Assert(Primitive):
    """``Assert(summarize=3)(condition, input_data)``: raises when the Bool condition is
    False, showing the first ``summarize`` values of each input_data tensor."""
    def __init__(self, summarize=3):
        super().__init__(summarize=_int(summarize, 'Assert', 'summarize'))

    def construct(self, condition, input_data):
        ok = condition.asnumpy().all() if isinstance(condition, Tensor) else bool(condition)
        if not ok:
            shown = [np.asarray(t.asnumpy() if isinstance(t, Tensor) else t).reshape(-1)[
                :self.summarize].tolist() for t in input_data]
            raise ValueError(f"ops.Assert: the condition is False; input_data: {shown}")


# ----------------------------------------------------------------------------- Ascend only
class _AscendOnly(Primitive):
    """Constructed freely (cells build them for their Ascend branch); calling one raises."""
    def construct(self, *args):
        raise RuntimeError(f"ops.{type(self).__name__} reads the float-overflow status "
                           f"register of Ascend NPUs and exists only there; hookgrad runs on "
                           f"CPU: check values with ops.isfinite instead")


class NPUGetFloatStatus(_AscendOnly):
    """``NPUGetFloatStatus()(x)``: Ascend only; calling it raises RuntimeError."""


class NPUAllocFloatStatus(_AscendOnly):
    """``NPUAllocFloatStatus()()``: Ascend only; calling it raises RuntimeError."""


class NPUClearFloatStatus(_AscendOnly):
    """``NPUClearFloatStatus()(x)``: Ascend only; calling it raises RuntimeError."""
