"""A recorded program: the steps of one traced call, replayed on arrays.

Values live in numbered slots: per slot an array (or, for objects an effect returned, any
Python object), its graph edge (``(node, index)``, ``(leaf, 0)`` or None, as ``Node.next``
holds them) and, once one exists, the Tensor object standing for it. A replay fills the slots
of the call's arguments and of the outside tensors the program reads (parameters, constants),
runs the steps in order and builds the result. Op steps run the op's forward on the slots'
arrays and record a node exactly as op dispatch would, without making a Tensor per op; effect
steps call the recorded function again with Tensors built from the slots (hooks, assignments,
optimizer updates, backward passes), so everything they do happens again, in the same place.
"""
from ..autograd import function as _function
from ..autograd.function import NO_CTX, Node, link_arrays
from ..autograd.state import grad, grad_enabled
from .._tensor import Tensor

_new = object.__new__


class Slots:
    """One replay's values: arrays (or objects), edges and Tensor objects, by slot; and
    whether grad mode is on at this point of the replay."""

    __slots__ = ('a', 'e', 'v', 'recording')

    def __init__(self, n):
        self.a = [None] * n
        self.e = [None] * n
        self.v = [None] * n
        self.recording = grad_enabled()

    def load(self, slot, t):
        """Slot ``slot`` holds Tensor ``t`` (an argument, an outside tensor, an effect's
        result)."""
        self.a[slot] = t._data
        self.e[slot] = _function._edge(t)
        self.v[slot] = t

    def tensor(self, slot):
        """The Tensor standing for a slot (made once per replay, so identity holds)."""
        t = self.v[slot]
        if t is None:
            e = self.e[slot]
            if e is None:
                t = Tensor._wrap(self.a[slot])
            elif type(e[0]) is Node:
                t = Tensor._wrap_output(self.a[slot], e[0], e[1])
            else:
                t = e[0]
            self.v[slot] = t
        return t


# ------------------------------------------------------------------------------ templates
# How an effect's arguments and a program's result are rebuilt from slots, and how an effect's
# result is read back into slots. Leaves: a slot's Tensor, a slot's object, a constant.
class TensorAt:
    __slots__ = ('slot',)

    def __init__(self, slot):
        self.slot = slot

    def build(self, s):
        return s.tensor(self.slot)

    def read(self, value, s):
        s.load(self.slot, value)


class ArrayAt:
    """A raw array in a slot (a backward pass returns raw gradients)."""

    __slots__ = ('slot',)

    def __init__(self, slot):
        self.slot = slot

    def build(self, s):
        return s.a[self.slot]

    def read(self, value, s):
        s.a[self.slot], s.e[self.slot], s.v[self.slot] = value, None, None


class ObjectAt:
    __slots__ = ('slot',)

    def __init__(self, slot):
        self.slot = slot

    def build(self, s):
        return s.a[self.slot]

    def read(self, value, s):
        s.a[self.slot] = value


class Const:
    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value

    def build(self, s):
        return self.value

    def read(self, value, s):
        pass


class Seq:
    """A tuple, list or namedtuple of templates."""

    __slots__ = ('kind', 'items')

    def __init__(self, kind, items):
        self.kind = kind
        self.items = items

    def build(self, s):
        items = [t.build(s) for t in self.items]
        if self.kind is tuple or self.kind is list:
            return self.kind(items)
        return self.kind(*items)

    def read(self, value, s):
        if len(value) != len(self.items):
            raise RuntimeError(f"a replayed effect returned {len(value)} values where the "
                               f"traced call returned {len(self.items)}")
        for t, v in zip(self.items, value):
            t.read(v, s)


class Mapping:
    __slots__ = ('keys', 'items')

    def __init__(self, keys, items):
        self.keys = keys
        self.items = items

    def build(self, s):
        return {k: t.build(s) for k, t in zip(self.keys, self.items)}

    def read(self, value, s):
        for k, t in zip(self.keys, self.items):
            t.read(value[k], s)


# ------------------------------------------------------------------------------ steps
class OpStep:
    """One op application: forward on the slots' arrays, a node when a gradient may flow.

    ``op_step`` picks a class by the number of inputs; they differ only in being unrolled.
    """

    __slots__ = ('op', 'ins', 'outs', 'params', 'tuple_out', 'reload')

    def __init__(self, op, ins, outs, params, tuple_out):
        self.reload = ()            # (slot, tensor) whose array this step replaces
        self.op = op
        self.ins = ins
        self.outs = outs
        self.params = params
        self.tuple_out = tuple_out

    def run(self, s):
        a, e = s.a, s.e
        arrays = [a[i] for i in self.ins]
        edges = [e[i] for i in self.ins]
        self._finish(s, arrays, edges, s.recording and any(x is not None for x in edges))

    def _finish(self, s, arrays, edges, record):
        op = self.op
        if record:
            node = _new(Node)
            node.op = op
            node.saved = ()
            y = op.forward(node, *arrays, **self.params)
            link_arrays(node, edges, arrays, y)
        else:
            node = None
            y = op.forward(NO_CTX, *arrays, **self.params)
        a, e, v = s.a, s.e, s.v
        if self.tuple_out:
            for k, o in enumerate(self.outs):
                a[o], e[o], v[o] = y[k], None if node is None else (node, k), None
        else:
            o = self.outs[0]
            a[o], e[o], v[o] = y, None if node is None else (node, 0), None


class Op1Step(OpStep):
    __slots__ = ()

    def run(self, s):
        i = self.ins[0]
        x, edge = s.a[i], s.e[i]
        op = self.op
        if edge is not None and s.recording and op.differentiable:
            self._finish(s, [x], [edge], True)
            return
        o = self.outs[0]
        if self.params or self.tuple_out:
            self._finish(s, [x], [edge], False)
            return
        s.a[o], s.e[o], s.v[o] = op.forward(NO_CTX, x), None, None


class Op2Step(OpStep):
    __slots__ = ()

    def run(self, s):
        i, j = self.ins
        a, e = s.a, s.e
        ea, eb = e[i], e[j]
        op = self.op
        if (ea is not None or eb is not None) and s.recording and op.differentiable:
            xa, xb = a[i], a[j]
            if self.params or self.tuple_out:
                self._finish(s, [xa, xb], [ea, eb], True)
                return
            node = _new(Node)
            node.op = op
            node.saved = ()
            y = op.forward(node, xa, xb)
            link_arrays(node, [ea, eb], (xa, xb), y)
            o = self.outs[0]
            a[o], e[o], s.v[o] = y, (node, 0), None
            return
        if self.params or self.tuple_out:
            self._finish(s, [a[i], a[j]], [ea, eb], False)
            return
        o = self.outs[0]
        a[o], e[o], s.v[o] = op.forward(NO_CTX, a[i], a[j]), None, None


def op_step(op, ins, outs, params, tuple_out):
    """The OpStep for an op application with these input and output slots."""
    cls = {1: Op1Step, 2: Op2Step}.get(len(ins), OpStep)
    return cls(op, ins, outs, params, tuple_out)


class EffectStep:
    """A call the program makes again on every replay: ``fn(*args)`` with its arguments
    rebuilt from slots, its result read back into slots; ``grads`` are the ``.grad`` values
    it leaves on tensors, read after it as ``(tensor slot, gradient slot)``."""

    __slots__ = ('fn', 'args', 'result', 'grads', 'reload')

    def __init__(self, fn, args, result):
        self.reload = ()
        self.fn = fn
        self.args = args
        self.result = result
        self.grads = []

    def run(self, s):
        result = self.fn(*self.args.build(s))
        s.recording = grad_enabled()
        self.result.read(result, s)
        for tslot, gslot in self.grads:
            g = s.tensor(tslot)._grad
            if g is None:
                raise RuntimeError("a replayed backward pass left no gradient where the traced "
                                   "one did")
            s.load(gslot, g)


class DetachStep:
    """A Tensor cut from the graph over a slot's array (``detach()``)."""

    __slots__ = ('src', 'dst')
    reload = ()

    def __init__(self, src, dst):
        self.src = src
        self.dst = dst

    def run(self, s):
        s.a[self.dst], s.e[self.dst], s.v[self.dst] = s.a[self.src], None, None


class GradModeStep:
    """Grad mode switched (``no_grad``, ``enable_grad``, a transform evaluating its function)."""

    __slots__ = ('enabled',)
    reload = ()

    def __init__(self, enabled):
        self.enabled = enabled

    def run(self, s):
        grad.set(self.enabled)
        s.recording = self.enabled


# ------------------------------------------------------------------------------ the program
def cell_members(cell):
    """A cell's parameters and sub-cells, by identity (a program is stale once one is
    replaced)."""
    d = cell.__dict__
    return tuple(map(id, d['_params'].values())) + tuple(map(id, d['_cells'].values()))


class Program:
    """The recorded steps of one call, with what they read from outside.

    Attributes:
        n_slots: how many value slots a replay uses.
        args: ``(slot, position)`` of each Tensor among the call's flattened arguments.
        externals: ``(slot, tensor, shape, dtype)`` of each outside tensor the program reads.
        steps: the steps, in order.
        result: the template of the value the call returns.
        cells: ``(weakref to cell, training, members)`` for every cell whose ops were recorded
            (members: the identities of its parameters and sub-cells).
        n_ops: how many op steps there are.
    """

    def __init__(self, n_slots, args, externals, steps, result, cells):
        self.n_slots = n_slots
        self.args = args
        self.externals = externals
        self.steps = steps
        self.result = result
        self.cells = cells
        self.n_ops = sum(isinstance(step, OpStep) for step in steps)

    def stale(self):
        """Why the program no longer fits the state it reads, or None: an outside tensor
        changed shape or dtype, a cell changed train/predict state or is gone."""
        for _, t, shape, dtype in self.externals:
            if t._data.shape != shape or t._data.dtype != dtype:
                return (f"an outside tensor changed from {shape} {dtype} to "
                        f"{t._data.shape} {t._data.dtype}")
        for ref, training, members in self.cells:
            cell = ref()
            if cell is None:
                return "a cell it ran was deleted"
            if cell_members(cell) != members:
                return f"Cell {type(cell).__name__} has other parameters or sub-cells"
            if cell.training != training:
                return (f"Cell {type(cell).__name__} is in "
                        f"{'train' if cell.training else 'predict'} mode (traced in "
                        f"{'train' if training else 'predict'} mode)")
        return None

    def run(self, flat):
        """Replay on the flattened arguments of a call; returns the call's result."""
        s = Slots(self.n_slots)
        for slot, i in self.args:
            s.load(slot, flat[i])
        for slot, t, _, _ in self.externals:
            s.load(slot, t)
        token = grad.set(grad.get())    # steps may switch grad mode; the call leaves it as found
        try:
            for step in self.steps:
                step.run(s)
                if step.reload:
                    for slot, t in step.reload:
                        s.a[slot] = t._data
        finally:
            grad.reset(token)
        return self.result.build(s)

    def __repr__(self):
        return (f"<Program: {self.n_ops} ops, {len(self.steps) - self.n_ops} other steps, "
                f"{len(self.externals)} outside tensors>")
