"""Compile a Program into one straight-line Python function.

Every step of the program becomes a few lines of Python: an op step calls the op's forward on
local variables and, when a gradient may flow, fills a node as op dispatch does; an effect step
calls its function with Tensors built from locals; a compiled backward pass runs the backward
rules in the order the trace ran them. A replay is then one Python call with no per-step
dispatch, list indexing or Tensor objects for intermediate values. ``Program.source`` shows the
code (it is what runs).

Slot ``k`` is the locals ``a{k}`` (its array or object), ``e{k}`` (its graph edge) and ``v{k}``
(the Tensor standing for it, made once per replay where an effect needs one, so identity holds);
``n{k}`` is the node of the op step whose first output is slot ``k``.
"""
import collections

import numpy as np

from ..kernels.fp_errors import fp_notes_enter, fp_notes_exit
from .._frames import GENERATED
from ..kernels.backend import array_module, asarray
from ..autograd.engine import _accumulate_grad, _call_backward, _count_error, _note_failure
from ..autograd.function import NO_CTX, Node, _edge, no_ctx
from ..autograd.math import array_math
from ..autograd.state import grad, grad_enabled
from ..hooks.calling import run_tensor_hooks
from .._tensor import Tensor
from .inline import fuse
from .program import GradModeStep, cell_members

_LITERALS = (type(None), bool, int, str)


def _mk(a, e):
    """The Tensor standing for a slot: its array on its edge."""
    if e is None:
        return Tensor._wrap(a)
    owner = e[0]
    if type(owner) is Node:
        return Tensor._wrap_output(a, owner, e[1])
    return owner


def _mismatch(got, want):
    raise RuntimeError(f"a replayed effect returned {got} values where the traced call "
                       f"returned {want}")


def _no_grad():
    raise RuntimeError("a replayed backward pass left no gradient where the traced one did")


class _Stale:
    """What a replay returns, having done nothing, when its program no longer fits."""

    def __repr__(self):
        return 'STALE'


STALE = _Stale()


def _as_grads(node, gxs):
    """A rule's gradients as the backward loop takes them: one non-tuple is one gradient."""
    if type(gxs) is not tuple:
        gxs = (gxs,)
    if len(gxs) != len(node.next):
        _count_error(node, gxs)
    return gxs


def _asarray(y):
    return y if type(y) is np.ndarray else asarray(y)


_HELPERS = dict(
    _new=object.__new__, _ndarray=np.ndarray, _wrap=Tensor._wrap, Node=Node, NO_CTX=NO_CTX,
    Tensor=Tensor, _edge=_edge, _mk=_mk, _grad=grad, _grad_enabled=grad_enabled,
    _asarray=_asarray, _mismatch=_mismatch, _no_grad=_no_grad, _as_grads=_as_grads,
    _sum_to=array_math.sum_to, _reduce=np.add.reduce, _run_tensor_hooks=run_tensor_hooks,
    _accumulate_grad=_accumulate_grad, _call_backward=_call_backward, _count_error=_count_error,
    _note_failure=_note_failure, STALE=STALE, _members=cell_members, _fp_enter=fp_notes_enter,
    _fp_exit=fp_notes_exit)


class Emitter:
    """Collects the lines of the function, the objects it refers to, and which slots have a
    Tensor local at the point being emitted."""

    def __init__(self):
        self.lines = []
        self.namespace = dict(_HELPERS)
        self.indent = 1
        self.valid = set()          # slots whose v{k} holds their Tensor here
        self.no_edge = set()        # slots whose e{k} is None here on every replay
        self.rec = None             # grad mode here when every replay has it, else None
        self.used = set()           # slots some step or the result reads (others need no locals)
        self.made = set()           # slots a Tensor was made for (hooks can be put on those)
        self.device = False         # whether the program runs on a device (not the CPU)
        self._names = {}            # id(constant) -> its name
        self._count = 0

    def line(self, text):
        self.lines.append('    ' * self.indent + text)

    def temp(self, prefix='t'):
        """A fresh local variable name."""
        self._count += 1
        return f'{prefix}{self._count}'

    def const(self, value, prefix='k'):
        """An expression for ``value`` (a literal, or a name bound to the object)."""
        if type(value) in _LITERALS:
            return repr(value)
        name = self._names.get(id(value))
        if name is None:
            name = self._names[id(value)] = self.temp(prefix)
            self.namespace[name] = value
        return name

    # ------------------------------------------------------------ slots
    def tensor(self, slot):
        """The local holding slot's Tensor (made here if there is none yet)."""
        if slot not in self.valid:
            self.line(f'v{slot} = _mk(a{slot}, e{slot})')
            self.valid.add(slot)
            self.made.add(slot)
        return f'v{slot}'

    def load(self, slot, src, edge=None):
        """Slot ``slot`` holds the Tensor ``src`` (whose edge is ``edge`` when every replay
        has it: a constant's name or 'None')."""
        self.line(f"v{slot} = {src}; a{slot} = v{slot}._data; "
                  f"e{slot} = {edge or f'_edge(v{slot})'}")
        self.valid.add(slot)
        if edge == 'None':
            self.no_edge.add(slot)
        else:
            self.no_edge.discard(slot)

    def array(self, slot, src):
        """Slot ``slot`` holds the array ``src``, cut from the graph."""
        self.line(f'a{slot} = {src}; e{slot} = None')
        self.valid.discard(slot)
        self.no_edge.add(slot)

    def forget(self, slot, no_edge=False):
        """Slot ``slot`` gets a new value (with no edge, if ``no_edge``): its Tensor local is
        stale."""
        self.valid.discard(slot)
        if no_edge:
            self.no_edge.add(slot)
        else:
            self.no_edge.discard(slot)

    def effect_done(self):
        """After a call that may switch grad mode: read it."""
        self.line('rec = _grad_enabled()')
        self.rec = None


def compile_program(program):
    """The replay function of ``program`` and its source: ``run(flat_args)`` -> result."""
    em = Emitter()
    em.device = program.device is not None
    if em.device:                   # the ops' ctx and nodes on the program's device
        em.namespace.update(NO_CTX=no_ctx(program.device), _XP=array_module(program.device))
    reads = collections.Counter(slot for step in program.steps
                                for slot in step.reads() + step.edge_reads())
    reads.update(program.result.slots())
    em.used = set(reads)
    _guards(em, program)
    for slot, i, edge in program.args:
        em.load(slot, f'flat[{i}]', None if edge else 'None')   # the signature fixes which
    switches = any(type(step) is GradModeStep for step in program.steps)
    if switches:
        em.line('token = _grad.set(_grad.get())     # steps switch grad mode; restored at the end')
        em.line('try:')
        em.indent += 1
    em.line('rec = _grad.get()')
    em.rec = program.grad_mode           # the signature holds it
    steps, dead = program.steps, _last_reads(program)
    i = 0
    while i < len(steps):
        done = 2 if i + 1 < len(steps) and fuse(em, steps[i], steps[i + 1], reads) else 1
        if done == 1:
            steps[i].emit(em)
        for slots in dead[i:i + done]:
            if slots:
                em.line(' = '.join(f'a{s} = v{s}' for s in slots) + ' = None')   # edges stay
                em.valid.difference_update(slots)
        i += done
    em.line(f'return {program.result.expr(em)}')
    if switches:
        em.indent -= 1
        em.line('finally:')
        em.line('    _grad.reset(token)')
    source = 'def replay(flat):\n' + '\n'.join(em.lines) + '\n'
    code = compile(source, f'{GENERATED} {id(program):#x}>', 'exec')
    exec(code, em.namespace)
    return em.namespace['replay'], source


def _guards(em, program):
    """Return STALE unless the outside tensors and cells are as traced (Program.stale); load
    the outside tensors. Their graph edges follow from what is checked: an outside tensor's
    node never changes."""
    for slot, t, shape, dtype, requires_grad in program.externals:
        x, d = em.const(t, 'x'), em.const(dtype, 'dt')
        a = f'a{slot}'
        em.line(f'{a} = {x}._data')
        em.line(f'if {a}.shape != {shape!r} or ({a}.dtype is not {d} and {a}.dtype != {d}) or '
                f'{x}.requires_grad != {requires_grad}: return STALE')
        edge = _edge(t)
        em.line(f"v{slot} = {x}; e{slot} = {'None' if edge is None else em.const(edge, 'edge')}")
        em.valid.add(slot)
        if edge is None:
            em.no_edge.add(slot)
    for cell, training, members in program.cells:
        c = em.const(cell, 'cell')
        em.line(f'if {c}.training != {training} or _members({c}) != '
                f'{em.const(members, "m")}: return STALE')


def _last_reads(program):
    """Per step, the large slots whose values no later step (nor the result) reads."""
    last = {}
    for index, step in enumerate(program.steps):
        for slot in step.reads():
            if slot in program.large:
                last[slot] = index
    for slot in program.result.slots():
        last.pop(slot, None)
    dead = [[] for _ in program.steps]
    for slot, index in last.items():
        dead[index].append(slot)
    return dead
