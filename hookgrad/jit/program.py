"""A recorded program: the steps of one traced call, compiled to Python and replayed on arrays.

Values live in numbered slots: per slot an array (or, for objects an effect returned, any
Python object), its graph edge (``(node, index)``, ``(leaf, 0)`` or None, as ``Node.next``
holds them) and, once one exists, the Tensor object standing for it. The compiled replay
(hookgrad/jit/codegen.py) keeps slot ``k`` in local variables ``a{k}``, ``e{k}`` and ``v{k}``.
It fills the slots of the call's arguments and of the outside tensors the program reads
(parameters, constants), runs the steps in order and builds the result. Op steps run the op's
forward on the slots' arrays and record a node exactly as op dispatch would, without making a
Tensor per op; effect steps call the recorded function again with Tensors built from the slots
(hooks, assignments, optimizer updates, backward passes), so everything they do happens again,
in the same place.

Each step and template below says what it does by emitting code (``emit``, ``expr``, ``read``).
"""
import numpy as np


# ------------------------------------------------------------------------------ templates
# How an effect's arguments and a program's result are rebuilt from slots (``expr``: a Python
# expression), and how an effect's result is read back into slots (``read``: statements on the
# expression ``src``). Leaves: a slot's Tensor, a slot's array or object, a constant.
class _At:
    """A template of one slot's value."""

    __slots__ = ('slot',)

    def __init__(self, slot):
        self.slot = slot

    def slots(self):
        return (self.slot,)

    def read(self, em, src):
        if self.slot in em.used:        # else no step reads it: nothing to keep
            self._read(em, src)


class TensorAt(_At):
    """A slot's Tensor."""

    __slots__ = ()

    def expr(self, em):
        return em.tensor(self.slot)

    def _read(self, em, src):
        em.load(self.slot, src)


class ArrayAt(_At):
    """A raw array in a slot (a backward pass returns raw gradients)."""

    __slots__ = ()

    def expr(self, em):
        return f'a{self.slot}'

    def _read(self, em, src):
        em.array(self.slot, src)


class ObjectAt(_At):
    """Any other object an effect returned, in a slot."""

    __slots__ = ()

    def expr(self, em):
        return f'a{self.slot}'

    def _read(self, em, src):
        em.line(f'a{self.slot} = {src}')


class Const:
    """A value fixed at trace time. An array is copied per replay: each eager call made a new
    one, which the call may hand out or change."""

    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value

    def expr(self, em):
        name = em.const(self.value)
        return f'{name}.copy()' if isinstance(self.value, np.ndarray) else name

    def slots(self):
        return ()

    def read(self, em, src):
        pass


class Seq:
    """A tuple, list or namedtuple of templates."""

    __slots__ = ('kind', 'items')

    def __init__(self, kind, items):
        self.kind = kind
        self.items = items

    def expr(self, em):
        items = ''.join(f'{t.expr(em)}, ' for t in self.items)
        if self.kind is tuple:
            return f'({items})'
        if self.kind is list:
            return f'[{items}]'
        return f'{em.const(self.kind)}({items})'

    def slots(self):
        return tuple(s for t in self.items for s in t.slots())

    def read(self, em, src):
        n = len(self.items)
        em.line(f'if len({src}) != {n}: _mismatch(len({src}), {n})')
        for i, t in enumerate(self.items):
            if not em.used.isdisjoint(t.slots()):
                item = em.temp()
                em.line(f'{item} = {src}[{i}]')
                t.read(em, item)


class Mapping:
    __slots__ = ('keys', 'items')

    def __init__(self, keys, items):
        self.keys = keys
        self.items = items

    def expr(self, em):
        items = ''.join(f'{em.const(k)}: {t.expr(em)}, ' for k, t in zip(self.keys, self.items))
        return f'{{{items}}}'

    def slots(self):
        return tuple(s for t in self.items for s in t.slots())

    def read(self, em, src):
        for k, t in zip(self.keys, self.items):
            if not em.used.isdisjoint(t.slots()):
                item = em.temp()
                em.line(f'{item} = {src}[{em.const(k)}]')
                t.read(em, item)


# ------------------------------------------------------------------------------ steps
class OpStep:
    """One op application: forward on the slots' arrays, and a node when a gradient may flow
    (grad mode on and an input with an edge), built exactly as op dispatch builds it.

    ``scalar`` marks 0-d outputs, which NumPy may return as scalars: dispatch makes them
    arrays, so the replay does too. ``shapes`` are the inputs' shapes when every replay has
    them (inputs from the call's arguments, outside tensors and ops on those; not values a hook
    returned), else None.
    """

    __slots__ = ('op', 'ins', 'outs', 'params', 'tuple_out', 'scalar', 'shapes', 'reload')

    def __init__(self, op, ins, outs, params, tuple_out, scalar=(), shapes=None):
        self.reload = ()            # (slot, tensor) whose array this step replaces
        self.op = op
        self.ins = ins
        self.outs = outs
        self.params = params
        self.tuple_out = tuple_out
        self.scalar = scalar
        self.shapes = shapes

    @property
    def node(self):
        """The local variable holding this step's node (None when it recorded none)."""
        return f'n{self.outs[0]}'

    def reads(self):
        """The slots whose values this step reads (for freeing values no later step needs)."""
        return self.ins

    def edge_reads(self):
        """The slots whose edges alone (not values) this step reads."""
        return ()

    def edges(self, em):
        """The inputs whose edges decide, at replay, whether a node is made here; empty when
        no replay makes one."""
        if not self.op.differentiable or em.rec is False:
            return []
        return [i for i in self.ins if i not in em.no_edge]

    def emit(self, em):
        op, ins, outs = self.op, self.ins, self.outs
        forward = em.const(op.forward, 'f')
        arrays = ''.join(f'a{i}, ' for i in ins)
        arrays += ''.join(f'{k}={em.const(v)}, ' for k, v in self.params.items())
        n = self.node
        edges = self.edges(em)
        record = bool(edges)
        for o in outs:
            em.forget(o, no_edge=not record)
        if record:
            test = ' or '.join(f'e{i} is not None' for i in edges)
            em.line(f"if {test}:" if em.rec else f"if rec and ({test}):")
            em.indent += 1
            em.line(f'{n} = _new(Node); {n}.op = {em.const(op, "op")}; {n}.saved = ()'
                    + (f'; {n}.xp = _XP' if em.device else ''))
            em.line(f"y = {forward}({n}, {arrays})")
            shapes = em.const(self.shapes, 'shapes') if self.shapes is not None else \
                f"[{''.join(f'a{i}.shape, ' for i in ins)}]"
            em.line(f"{n}.next = [{''.join(f'e{i}, ' for i in ins)}]; {n}.reduce_to = {shapes}")
            self._outputs(em, n)
            ids = ''.join(f'id(a{i}), ' for i in ins)
            ids += ''.join(f'id(y[{k}]), ' for k in range(len(outs))) if self.tuple_out else \
                'id(y), '
            em.line(f'{n}.ids = ({ids}) if {n}.saved else None')
            if self.tuple_out:
                em.line(f'{n}.n_out = {len(outs)}; {n}.out_meta = [(x.shape, x.dtype) for x in y]')
            em.indent -= 1
            em.line('else:')
            em.indent += 1
            em.line(f'{n} = None')        # backward plans check that there is no node
        if len(outs) == 1 and not self.tuple_out and not self.scalar:
            em.line(f"a{outs[0]} = {forward}(NO_CTX, {arrays}); e{outs[0]} = None")
        else:
            em.line(f"y = {forward}(NO_CTX, {arrays})")
            self._outputs(em, None)
        if record:
            em.indent -= 1
        self._reload(em)

    def _outputs(self, em, node):
        for k, o in enumerate(self.outs):
            y = f'y[{k}]' if self.tuple_out else 'y'
            if k in self.scalar:
                y = f'_asarray({y})'
            em.line(f"a{o} = {y}; e{o} = {'None' if node is None else f'({node}, {k})'}")

    def _reload(self, em):
        for slot, t in self.reload:
            em.line(f'a{slot} = {em.const(t, "x")}._data')


class EffectStep:
    """A call the program makes again on every replay: ``fn(*args)`` with its arguments
    rebuilt from slots, its result read back into slots; ``grads`` are the ``.grad`` values
    it leaves on tensors, read after it as ``(tensor slot, gradient slot)``. ``log`` is what
    the backward loop processed when the call ran a backward pass while it was traced, and
    ``plan`` that pass compiled (hookgrad/jit/backward.py)."""

    __slots__ = ('fn', 'args', 'result', 'grads', 'reload', 'log', 'plan')

    def __init__(self, fn, args, result):
        self.reload = ()
        self.fn = fn
        self.args = args
        self.result = result
        self.grads = []
        self.log = None
        self.plan = None

    def reads(self):
        slots = self.args.slots() + tuple(t for t, _ in self.grads)
        return slots + self.plan.reads() if self.plan is not None else slots

    def edge_reads(self):
        return self.plan.edge_reads() if self.plan is not None else ()

    def read_result(self, em, edge):
        """Read the result ``r`` of an effect run in place (hookgrad/jit/inline.py), whose
        edge is ``edge`` when it is one Tensor."""
        if type(self.result) is TensorAt:
            if self.result.slot in em.used:
                em.load(self.result.slot, 'r', edge)
        else:
            self.result.read(em, 'r')
        OpStep._reload(self, em)

    def emit(self, em):
        from .inline import EFFECTS
        inline = EFFECTS.get(self.fn)
        edge = inline(em, self) if inline is not None else None
        if edge is not None:        # written in place; grad mode is untouched
            self.read_result(em, edge)
            return
        if self.plan is not None:
            items = [t.expr(em) for t in self.args.items]
            em.line(f"args = ({''.join(f'{x}, ' for x in items)})")
            self.plan.emit(em, 'args', 'r', em.const(self.fn, 'fx'))
            em.effect_done()
        else:
            args = self.args
            if type(args) is Seq and args.kind is tuple:
                call = ''.join(f'{t.expr(em)}, ' for t in args.items)
            else:
                call = f'*{args.expr(em)}'
            em.line(f'r = {em.const(self.fn, "fx")}({call})')
            em.effect_done()
        self.result.read(em, 'r')
        plain = _first_order(self.args)     # then .grad values are Tensors without a graph
        for tslot, gslot in self.grads:
            if gslot not in em.used:
                continue
            g = em.temp()
            em.line(f'{g} = {em.tensor(tslot)}._grad')
            em.line(f'if {g} is None: _no_grad()')
            em.load(gslot, g, 'None' if plain else None)
        OpStep._reload(self, em)


def _first_order(args):
    """Whether a backward pass with these arguments (run_backward's) records no graph."""
    return type(args) is Seq and len(args.items) == 5 and type(args.items[4]) is Const and \
        args.items[4].value is False


class DetachStep:
    """A Tensor cut from the graph over a slot's array (``detach()``)."""

    __slots__ = ('src', 'dst')
    reload = ()

    def __init__(self, src, dst):
        self.src = src
        self.dst = dst

    def reads(self):
        return (self.src,)

    edge_reads = OpStep.edge_reads

    def emit(self, em):
        em.array(self.dst, f'a{self.src}')


class GradModeStep:
    """Grad mode switched (``no_grad``, ``enable_grad``, a transform evaluating its function)."""

    __slots__ = ('enabled',)
    reload = ()

    def __init__(self, enabled):
        self.enabled = enabled

    def reads(self):
        return ()

    edge_reads = OpStep.edge_reads

    def emit(self, em):
        em.line(f'_grad.set({self.enabled}); rec = {self.enabled}')
        em.rec = self.enabled


# ------------------------------------------------------------------------------ the program
def cell_members(cell):
    """The identities of a cell's parameters and sub-cells (a program is stale once one is
    replaced; the program keeps them alive, so an identity is never reused meanwhile)."""
    d = cell.__dict__
    return tuple(map(id, d['_params'].values())) + tuple(map(id, d['_cells'].values()))


class Program:
    """The recorded steps of one call, with what they read from outside.

    Attributes:
        n_slots: how many value slots a replay uses.
        grad_mode: grad mode when the call starts (the call signature fixes it).
        large: slots of large arrays the call makes: the replay lets go of each after the
            last step that reads it, as eager code drops a value no name holds.
        device: an array of the device the call ran on, None on the CPU: a replay's ops run
            there (the call signature holds the devices of the arguments).
        args: ``(slot, position, has_edge)`` of each Tensor among the call's flattened
            arguments (whether it has a graph edge: the call signature fixes it).
        externals: ``(slot, tensor, shape, dtype, requires_grad)`` of each outside tensor the
            program reads, as they were when it was traced.
        steps: the steps, in order.
        result: the template of the value the call returns.
        cells: ``(cell, training, members)`` for every cell whose ops were recorded (members:
            the identities of its parameters and sub-cells, which ``kept`` holds).
        n_ops: how many op steps there are.
        run: the compiled replay: ``run(flat_args)`` returns the call's result, or ``STALE``
            (having done nothing) when the program no longer fits (see ``stale``).
        source: its Python source.
    """

    def __init__(self, n_slots, args, externals, steps, result, cells, grad_mode, large=(),
                 device=None):
        from .codegen import compile_program
        self.device = device        # an array of the device the call ran on (None: the CPU)
        self.grad_mode = grad_mode
        self.large = large
        self.n_slots = n_slots
        self.args = args
        self.externals = externals
        self.steps = steps
        self.result = result
        self.cells = cells
        self.kept = [(c.__dict__['_params'].copy(), c.__dict__['_cells'].copy())
                     for c, _, _ in cells]
        self.n_ops = sum(isinstance(step, OpStep) for step in steps)
        self.run, self.source = compile_program(self)

    @property
    def compiled_backward(self):
        """How many of the program's backward passes run compiled (the rest run the loop)."""
        return sum(getattr(step, 'plan', None) is not None for step in self.steps)

    def stale(self):
        """Why the program no longer fits the state it reads, or None: an outside tensor
        changed shape, dtype or ``requires_grad``, a cell changed train/predict state or its
        parameters or sub-cells. The replay makes the same checks before it does anything."""
        for _, t, shape, dtype, requires_grad in self.externals:
            if t._data.shape != shape or t._data.dtype != dtype:
                return (f"an outside tensor changed from {shape} {dtype} to "
                        f"{t._data.shape} {t._data.dtype}")
            if t.requires_grad != requires_grad:
                return (f"an outside tensor of shape {shape} changed to requires_grad="
                        f"{t.requires_grad}")
        for cell, training, members in self.cells:
            if cell_members(cell) != members:
                return f"Cell {type(cell).__name__} has other parameters or sub-cells"
            if cell.training != training:
                return (f"Cell {type(cell).__name__} is in "
                        f"{'train' if cell.training else 'predict'} mode (traced in "
                        f"{'train' if training else 'predict'} mode)")
        return None

    def __repr__(self):
        return (f"<Program: {self.n_ops} ops, {len(self.steps) - self.n_ops} other steps, "
                f"{len(self.externals)} outside tensors, {self.compiled_backward} compiled "
                f"backward passes>")
