"""The recorder: an op observer that turns one eager call into a ``Program``.

While a jitted function runs its first call with a signature, the recorder sees every op it
applies (``on_forward``) and every effect (``hookgrad.autograd.function.effect``: hook calls,
cell boundaries, assignments, optimizer updates, backward passes). It gives each value a slot:
the call's Tensor arguments, op outputs, effect results, and outside tensors the call reads
(parameters, constants), and keeps, for each op, which slots it reads and fills.

A Tensor is found by identity first, then by its array: a new Tensor over a recorded array is
the same value (cut from the graph when it needs no gradient). A call whose result depends on
Python reading tensor values (``.item()``, ``if x.sum() > 0``...) cannot be replayed: the
recorder notes the first such read and the function runs eagerly for that signature.
"""
import numpy as np

from .._frames import user_line
from ..autograd.engine import run_backward
from ..autograd.observer import OpObserver
from ..autograd.function import _edge
from ..autograd.state import current as _state, grad_enabled, update as _update
from .._tensor import Tensor
from ..kernels.backend import is_device_array
from .backward import compile_backward
from .program import (ArrayAt, Const, DetachStep, EffectStep, GradModeStep, Mapping, ObjectAt,
                      OpStep, Program, Seq, TensorAt, cell_members)

LARGE = 1 << 16     # bytes: a replay lets go of arrays this large as soon as it can
_IMMUTABLE = (type(None), bool, int, float, complex, str, bytes, type(Ellipsis), slice)


def _is_array(value):
    """Whether ``value`` is an array of any device (the arrays a recording tracks)."""
    return isinstance(value, np.ndarray) or is_device_array(value)


class Recorder(OpObserver):
    """Records one call of a function as a Program (see the module docstring)."""

    def __init__(self):
        self.steps = []
        self.arrays = []            # slot -> its array during the trace
        self.constant = []          # slot -> whether its value carries no gradient edge
        self.nodes = {}             # slot -> the node that made it, for op outputs
        self.by_tensor = {}         # id(Tensor) -> slot
        self.by_array = {}          # id(array) -> slot
        self.by_object = {}         # id(object an effect returned) -> slot
        self.keep = []              # everything whose id is a key above, alive till the end
        self.args = []
        self.arg_slots = set()
        self.fixed = set()          # slots whose shape every replay has (see OpStep.shapes)
        self.externals = []
        self.producer = {}          # slot -> the step that fills it (op and effect results)
        self.op_steps = {}          # id(node) -> the op step that made it
        self.edge_slot = {}         # id(node) -> the argument slot whose edge it is
        self.detached = {}          # slot -> the slot of its value cut from the graph
        self.cells = {}
        self.suspended = 0          # > 0 inside an effect: what runs there is not recorded
        self.current = None         # the effect step running
        self.failure = None         # (why the call cannot be replayed, (file, line))
        self._previous = None

    # ----------------------------------------------------------------- switch
    def enable(self):
        self.grad_mode_at_start = grad_enabled()
        super().enable()
        self._previous = _update(recorder=self)
        return self

    def disable(self):
        if self.observing:
            _update(**self._previous)
        super().disable()

    def fail(self, why):
        """Note the first reason the call cannot be replayed (where user code did it)."""
        if self.failure is None:
            self.failure = (why, user_line())

    # ----------------------------------------------------------------- slots
    def _slot(self, array, constant):
        self.arrays.append(array)
        self.constant.append(constant)
        return len(self.arrays) - 1

    def bind(self, t):
        """A new slot holding Tensor ``t`` (an argument, an effect's result)."""
        s = self._slot(t._data, t._node is None and not t.requires_grad)
        self.by_tensor[id(t)] = s
        self.by_array[id(t._data)] = s
        if t._node is not None:
            self.nodes[s] = t._node
        self.keep.append(t)
        return s

    def argument(self, t, position):
        s = self.by_tensor.get(id(t))
        if s is None:
            s = self.bind(t)
        self.args.append((s, position, _edge(t) is not None))
        self.arg_slots.add(s)
        self.fixed.add(s)
        if t._node is not None:
            self.edge_slot.setdefault(id(t._node), s)

    def slot_of(self, t):
        """The slot of Tensor ``t``, or None."""
        return self.by_tensor.get(id(t))

    def ref(self, t):
        """The slot of Tensor ``t`` as an input (an outside tensor gets one on first use)."""
        s = self.by_tensor.get(id(t))
        if s is not None and self.arrays[s] is t._data:
            return s
        s = self.by_array.get(id(t._data))
        if s is not None:
            if t._node is None and not t.requires_grad:     # the value, cut from the graph
                return s if self.constant[s] else self._detached(s)
            if t._node is not None and self.nodes.get(s) is t._node:
                return s
        s = self.bind(t)
        self.externals.append((s, t))
        self.fixed.add(s)
        return s

    def _detached(self, s):
        d = self.detached.get(s)
        if d is None:
            d = self.detached[s] = self._slot(self.arrays[s], True)
            self.steps.append(DetachStep(s, d))
            if s in self.fixed:
                self.fixed.add(d)
        return d

    # ----------------------------------------------------------------- ops
    def on_forward(self, call):
        if self.suspended or call.phase == 'backward':
            return                  # run by an effect or a backward pass: they run again
        for cell in call.cells():
            if id(cell) not in self.cells:
                self.cells[id(cell)] = (cell, bool(cell.training), cell_members(cell))
        ins = tuple(self.ref(t) for t in call.tensors)
        self._check_params(call)
        outs = []
        for y in call.outputs:
            s = self._slot(y, call.node is None)
            self.by_array[id(y)] = s
            self.keep.append(y)
            if call.node is not None:
                self.nodes[s] = call.node
            outs.append(s)
        fixed = all(s in self.fixed for s in ins)     # shapes follow from input shapes
        if fixed and not call.op.shape_from_values:
            self.fixed.update(outs)
        step = OpStep(call.op, ins, tuple(outs), call.params, call.returns_tuple,
                      tuple(k for k, y in enumerate(call.outputs) if y.ndim == 0),
                      tuple(x.shape for x in call.inputs) if fixed else None)
        for s in outs:
            self.producer[s] = step
        if call.node is not None:
            self.op_steps[id(call.node)] = step
        self.steps.append(step)
        self._note_replaced()

    def _check_params(self, call):
        """An op parameter holding a recorded array would be replayed with its old values."""
        for value in _leaves(call.params):
            if _is_array(value) and id(value) in self.by_array:
                self.fail(f"op '{call.name}' takes the values of a traced tensor as a parameter")

    def _note_replaced(self):
        """Outside tensors whose array the last step replaced (a moving statistic, set_data):
        a replay reads their new array after that step."""
        step = self.steps[-1]
        for s, t in self.externals:
            if t._data is not self.arrays[s]:
                self.fixed.discard(s)       # set_data may change the shape
                self.arrays[s] = t._data
                self.by_array[id(t._data)] = s
                self.keep.append(t._data)
                step.reload = step.reload + ((s, t),)

    # ----------------------------------------------------------------- effects
    def opaque(self, fn, args):
        """Run ``fn(*args)`` as one effect step of the program."""
        if self.suspended:
            return fn(*args)
        step = EffectStep(fn, self.template(args), None)
        self.steps.append(step)
        first = len(self.arrays)
        outer, self.current = self.current, step
        self.suspended += 1
        try:
            result = fn(*args)
        finally:
            self.suspended -= 1
            self.current = outer
        step.result = self.pattern(result)
        for s in range(first, len(self.arrays)):
            self.producer[s] = step
        if step.log is not None:
            step.plan = compile_backward(step.log, step.args, args, self)
            step.log = None
        self._note_replaced()
        return result

    def engine_log(self):
        """A list for the backward loop to log what it processes into, when the running
        effect is a backward pass (and not one run inside it); else None."""
        step = self.current
        if step is not None and step.fn is run_backward and step.log is None:
            step.log = EngineLog()
            return step.log
        return None

    def grads_written(self, tensors):
        """A backward pass (inside the running effect) set these tensors' ``.grad``."""
        step = self.current
        if step is None:
            self.fail("a backward pass ran outside Tensor.backward and the grad transforms")
            return
        for t in tensors:
            ts = self.ref(t)
            g = t._grad
            step.grads.append((ts, self.bind(g)))

    def grad_mode(self, enabled):
        if not self.suspended:
            self.steps.append(GradModeStep(enabled))

    def alias(self, t, source):
        """``t`` is ``source.detach()``."""
        if not self.suspended:
            s = self.ref(source)
            self.by_tensor[id(t)] = s if self.constant[s] else self._detached(s)
            self.keep.append(t)

    def value_read(self, t):
        """Python code reads the values of ``t``: fine for a constant made in the call, not
        for a value the call computed or a parameter it was given."""
        if self.suspended:
            return
        known = id(t) in self.by_tensor or id(t._data) in self.by_array
        if known or t.requires_grad or type(t) is not Tensor:
            self.fail("Python code reads the values of a tensor the call depends on "
                      "(.item(), .asnumpy(), bool(), a shape or index taken from a tensor...)")

    # ----------------------------------------------------------------- templates
    def template(self, value):
        """How to rebuild ``value`` (an effect's arguments, the call's result) from slots."""
        if isinstance(value, Tensor):
            return TensorAt(self.ref(value))
        if _is_array(value) and id(value) in self.by_array:
            return ArrayAt(self.by_array[id(value)])
        if isinstance(value, (tuple, list)):
            return Seq(type(value), [self.template(v) for v in value])
        if type(value) is dict:
            return Mapping(list(value), [self.template(v) for v in value.values()])
        s = self.by_object.get(id(value))
        return ObjectAt(s) if s is not None else Const(value)

    def pattern(self, value):
        """How to read an effect's result back into (new) slots."""
        if isinstance(value, Tensor):
            return TensorAt(self.bind(value))
        if _is_array(value):
            s = self._slot(value, True)
            self.by_array[id(value)] = s
            self.keep.append(value)
            return ArrayAt(s)
        if isinstance(value, (tuple, list)):
            return Seq(type(value), [self.pattern(v) for v in value])
        if type(value) is dict:
            return Mapping(list(value), [self.pattern(v) for v in value.values()])
        if isinstance(value, _IMMUTABLE):
            return Const(value)
        s = self._slot(value, True)
        self.by_object[id(value)] = s
        self.keep.append(value)
        return ObjectAt(s)

    # ----------------------------------------------------------------- the program
    def program(self, result):
        """The Program of the recorded call, returning (a template of) ``result``."""
        out = self.template(result)
        externals = [(s, t, t._data.shape, t._data.dtype, t.requires_grad)
                     for s, t in self.externals]
        outside = self.arg_slots.union(s for s, _ in self.externals)
        large = {s for s, a in enumerate(self.arrays) if s not in outside and
                 _is_array(a) and a.nbytes >= LARGE}
        device = next((a for a in (self.arrays[slot] for slot, _, _ in self.args)
                       if not isinstance(a, np.ndarray)), None)     # a device array, if any
        return Program(len(self.arrays), self.args, externals, self.steps, out,
                       list(self.cells.values()), self.grad_mode_at_start, large, device)


class EngineLog(list):
    """What the backward loop processed, in order (nodes and leaves), and ``shapes``: by
    ``id(node)``, the shapes of the gradients its rule returned (None where none)."""

    def __init__(self):
        super().__init__()
        self.shapes = {}


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def recording():
    """The recorder tracing this thread, or None."""
    return _state().recorder
