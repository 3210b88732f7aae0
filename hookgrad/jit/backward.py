"""A backward pass compiled from the one a trace ran: the same rules in the same order.

While a recorder traces a call, the backward loop (autograd/engine.py) logs the nodes and
leaves it processes, in order. From that log and the traced graph a ``BackwardPlan`` fixes, for
each node, which gradient buffers feed it and which its gradients go to. The replay runs the
rules on the nodes its op steps just made, in that order, as straight-line code: no dependency
counting, no dictionaries. Gradients are summed in the order the loop summed them, so the
results are the loop's, bit for bit; leaves get their hooks, ``.grad`` and captures exactly as
the loop gives them (with its own helpers).

The plan holds only while the replay's graph is the traced one. Before it runs, the replay
checks what could differ: that every node exists and was not freed, that no tensor hook was put
on one (where a Tensor of it was made, the only way to put one), and that every edge into it that
did not come from the program's own ops or from the call's arguments (an outside tensor, a value
a hook returned) points where it pointed in the trace. If a check fails, the replay runs the loop
itself, which is always right.

Only first-order passes without hooks on non-leaf tensors are compiled; others run the loop.
"""
from ..autograd.function import Node
from ..autograd.math import summed_axes
from .program import Const, OpStep, Seq, TensorAt


class BackwardPlan:
    """The checks, buffers and entries of one compiled backward pass; ``emit`` writes it."""

    def __init__(self, checks, owners, entries, seeds, n_buffers, n_targets, retain):
        self.checks = checks        # ('node', k, outs), ('none', i), ('edge', i, k), ('owner', ...)
        self.owners = owners        # (owner) of every node processed, to free them
        self.entries = entries      # ('rule', ...) and ('leaf', ...) in order
        self.seeds = seeds          # the buffer of each root
        self.n_buffers = n_buffers
        self.n_targets = n_targets  # None: leaves accumulate into .grad
        self.retain = retain

    def reads(self):
        """The slots whose values (leaf Tensors) the plan reads."""
        return tuple(e[1] for e in self.entries if e[0] == 'leaf') + \
            tuple(c[2][1] for c in self.checks if c[0] == 'owner' and c[2][0] == 'v')

    def edge_reads(self):
        """The slots whose edges the plan's checks read."""
        return tuple(c[1] for c in self.checks if c[0] != 'node')

    def emit(self, em, args, result, loop):
        """Code running the plan on ``args`` (run_backward's arguments) into ``result``, or
        the loop (``loop``, the name of run_backward) when a check fails."""
        owners = {}

        def owner(o):
            kind, slot = o
            if kind == 'n':
                return f'n{slot}'
            return owners.setdefault(o, em.tensor(slot))

        for check in self.checks:       # leaf Tensors used below exist before the branch
            if check[0] == 'owner':
                owner(check[2])
        for entry in self.entries:
            if entry[0] == 'leaf':
                owner(('v', entry[1]))
        conditions = []
        nodes = {c[1] for c in self.checks if c[0] == 'node'}
        for check in self.checks:
            kind, i = check[0], check[1]
            if kind == 'node':
                c = f'n{i} is not None and n{i}.saved is not None'
                if not em.made.isdisjoint(check[2]):    # a Tensor of it may have got a hook
                    c += f' and n{i}.hooks is None'
                conditions.append(c)
            elif kind == 'none':
                conditions.append(f'e{i} is None')
            elif kind == 'edge':
                if check[2] not in nodes:       # else: its node is checked to exist
                    conditions.append(f'e{i} is not None')
            else:
                _, _, o, j = check
                c = f'e{i} is not None and e{i}[0] is {owner(o)}'
                conditions.append(c if j is None else f'{c} and e{i}[1] == {j}')
        b = [em.temp('b') for _ in range(self.n_buffers)]
        updates = [(entry[1], em.temp('u')) for entry in self.entries
                   if entry[0] == 'leaf' and entry[4]]     # leaf slot, its gradient local
        em.line(f"if {' and '.join(conditions) or 'True'}:")
        em.indent += 1
        if b or updates:
            em.line(f"{' = '.join(b + [u for _, u in updates])} = None")
        em.line(f'roots_grads = {args}[1]')
        for k, s in enumerate(self.seeds):
            em.line(f'{b[s]} = roots_grads[{k}] if {b[s]} is None else {b[s]} + roots_grads[{k}]')
        if self.n_targets is not None:
            em.line(f'cap = [None] * {self.n_targets}')
        em.line('cur = None; btoken = _grad.set(False); fptoken = _fp_enter()')
        em.line('try:')
        em.indent += 1
        local = dict(updates)
        for entry in self.entries:
            if entry[0] == 'rule':
                _rule(em, b, *entry[1:])
            else:
                _leaf(em, b, owner(('v', entry[1])), local, *entry[1:])
        em.indent -= 1
        em.line('except Exception as exc:')
        em.line('    if cur is not None: _note_failure(exc, cur)')
        em.line('    raise')
        em.line('finally:')
        em.line('    _grad.reset(btoken); _fp_exit(fptoken)')
        if updates:         # .grad is written once the whole pass succeeded, in the loop's order
            em.line(f"if {' or '.join(f'{u} is not None' for _, u in updates)}:")
            em.line('    shared = {id(g) for g in roots_grads}')
            for slot, u in updates:
                t = owner(('v', slot))
                # engine._accumulate_grad, whose commonest case (a first gradient, an array
                # of the tensor's dtype owned by nobody else) is written out here
                em.line(f'    if {u} is not None:')
                em.line(f'        if {t}._grad is None and type({u}) is _ndarray and {u}.dtype is '
                        f'{t}._data.dtype and {u}.flags.owndata and {u}.flags.writeable and '
                        f'id({u}) not in shared:')
                em.line(f'            shared.add(id({u})); {t}._grad = _wrap({u})')
                em.line(f'        else: _accumulate_grad({t}, {u}, Tensor, shared)')
        if not self.retain:
            em.line(''.join(f'{owner(o)}.saved = ' for o in self.owners) + 'None')
        em.line(f"{result} = {'cap' if self.n_targets is not None else 'None'}")
        em.indent -= 1
        em.line('else:')
        em.line(f"    {result} = {loop}(*{args})")


def _rule(em, b, k, op, n_in, bufs, routes, shapes, first, traced):
    """A node's entry: its rule on its gradients, which go to the buffers of its inputs."""
    n = f'n{k}'
    em.line(f'cur = {n}')
    if len(bufs) == 1:
        em.line(f'if {b[bufs[0]]} is not None:')
        em.indent += 1
        em.line(f'gxs = {em.const(op.array_rule, "rule")}({n}, {b[bufs[0]]}); '
                f'{b[bufs[0]]} = None')
        em.line(f'if type(gxs) is not tuple or len(gxs) != {n_in}: gxs = _as_grads({n}, gxs)')
    else:
        em.line(f"if {' or '.join(f'{b[x]} is not None' for x in bufs)}:")
        em.indent += 1
        em.line(f"gxs = _call_backward({n}, [{', '.join(b[x] for x in bufs)}], False); "
                f"{' = '.join(b[x] for x in bufs)} = None")
    if routes and shapes is None:
        em.line(f'rt = {n}.reduce_to')
    for (i, target), new in zip(routes, first):
        em.line(f'gx = gxs[{i}]')
        if shapes is None:
            reduce = f'if rt is not None and gx.shape != rt[{i}]: gx = _sum_to(gx, rt[{i}])'
        elif traced[i] is None:
            shape = em.const(shapes[i], 'shape')
            reduce = f'if gx.shape != {shape}: gx = _sum_to(gx, {shape})'
        elif traced[i] == shapes[i]:    # shapes follow from the (fixed) input shapes
            reduce = None
        else:                   # the traced sum, unless the gradient's shape differs
            reduce = _summed(em, traced[i], shapes[i])
        if reduce is not None:
            em.line('if gx is not None:')
            em.line(f'    {reduce}')
        if new:             # the first gradient for this buffer: it holds None
            em.line(f'{b[target]} = gx')
        elif reduce is None:
            em.line(f'if gx is not None: {b[target]} = gx if {b[target]} is None else '
                    f'{b[target]} + gx')
        else:
            em.line(f'    {b[target]} = gx if {b[target]} is None else {b[target]} + gx')
    if not routes:
        em.line('pass')
    em.indent -= 1


def _leaf(em, b, leaf, updates, slot, buf, positions, accumulate):
    """A leaf's entry: its hooks on its complete gradient, which is captured or kept for its
    ``.grad``."""
    if not accumulate and not positions:
        return              # reached, but neither captured nor accumulated: the loop drops it
    g = b[buf]
    em.line(f'if {g} is not None and {leaf}._hooks: '
            f'cur = None; {g} = _run_tensor_hooks({leaf}._hooks, {g}, False)')
    if accumulate:
        em.line(f'{updates[slot]} = {g}')
    for i in positions:
        em.line(f'cap[{i}] = {g}')


def compile_backward(log, args_template, args, rec):
    """The BackwardPlan of a traced pass, or None when it cannot be compiled.

    ``log`` is what the loop processed, in order; ``args`` the pass's arguments (roots,
    root_grads, targets, retain_graph, create_graph) and ``args_template`` how the program
    rebuilds them; ``rec`` the Recorder, which knows each slot's origin. (A target with a
    graph of its own is an argument that requires grad: its pass records a graph for higher
    order, so it is never compiled.)
    """
    roots, _, targets, retain, create = args
    if create or type(args_template) is not Seq or len(args_template.items) != 5:
        return None
    t_roots, _, t_targets, t_retain, _ = args_template.items
    if type(t_retain) is not Const or not _tensor_slots(t_roots):
        return None
    if targets is not None and (not _tensor_slots(t_targets) or
                                any(t._node is not None for t in targets)):
        return None
    checks = {}
    buffers = {}

    def buffer(key, index):
        k = (id(key), index)
        if k not in buffers:
            buffers[k] = len(buffers)
        return buffers[k]

    def owner(key):
        """How the replay names the node or leaf ``key``, or None."""
        if type(key) is Node:
            step = rec.op_steps.get(id(key))
            return None if step is None else ('n', step.outs[0])
        s = rec.slot_of(key)
        return None if s is None else ('v', s)

    def expect(slot, edge):
        """The check that slot ``slot`` has, at replay, the edge it had in the trace."""
        if slot in rec.arg_slots:
            return True
        if edge is None:
            checks[('none', slot)] = None
            return True
        producer = rec.producer.get(slot)
        if type(producer) is OpStep:
            checks[('edge', slot, producer.outs[0])] = None
            return True
        o = owner(edge[0])
        if o is None:
            return False
        multi = type(edge[0]) is Node and edge[0].n_out > 1
        checks[('owner', slot, o, edge[1] if multi else None)] = None
        return True

    positions = {}      # id(leaf) -> its places among the targets
    for i, t in enumerate(targets or ()):
        positions.setdefault(id(t), []).append(i)
    seeds = []
    for r, tmpl in zip(roots, t_roots.items):
        node = r._node
        if node is not None and not expect(tmpl.slot, (node, r._index)):
            return None
        key = node if node is not None else r
        seeds.append(buffer(key, r._index if node is not None and node.n_out > 1 else 0))
    filled = set(seeds)         # buffers that hold a gradient before the first rule runs
    entries, owners = [], []
    for key in log:
        if type(key) is not Node:
            s = rec.slot_of(key)
            if s is None:
                return None
            entries.append(('leaf', s, buffer(key, 0), tuple(positions.get(id(key), ())),
                            targets is None))
            continue
        step = rec.op_steps.get(id(key))
        if step is None or key.hooks is not None:
            return None
        owners.append(('n', step.outs[0]))
        checks[('node', step.outs[0], step.outs)] = None
        routes = []
        for i, (e, slot) in enumerate(zip(key.next, step.ins)):
            if not expect(slot, e):
                return None
            if e is not None:
                target = e[0]
                routes.append((i, buffer(target, e[1] if type(target) is Node and
                                         target.n_out > 1 else 0)))
        first = []
        for _, target in routes:
            first.append(target not in filled)
            filled.add(target)
        traced = log.shapes.get(id(key)) or [None] * len(key.next)
        entries.append(('rule', step.outs[0], key.op, len(key.next),
                        [buffer(key, i) for i in range(key.n_out)], tuple(routes), step.shapes,
                        tuple(first), traced))
    return BackwardPlan(list(checks), owners, entries, seeds, len(buffers),
                        None if targets is None else len(targets), bool(t_retain.value))


def _summed(em, have, shape):
    """A statement summing ``gx`` (of shape ``have`` in the trace) down to ``shape``, as
    ``array_math.sum_to`` does."""
    axis, keepdims = summed_axes(have, shape)
    sum_ = f"_reduce(gx, axis={axis!r}{', keepdims=True' if keepdims else ''})"
    if keepdims and len(have) != len(shape):
        sum_ += f'.reshape({shape!r})'
    shape = em.const(shape, 'shape')
    return f'gx = {sum_} if gx.shape == {have!r} else _sum_to(gx, {shape})'


def _tensor_slots(template):
    return type(template) is Seq and all(type(t) is TensorAt for t in template.items)
