"""Forward hooks that changed a cell's output, named in the error their change causes.

A forward hook may return outputs of another shape or dtype than construct's, and a forward
pre-hook inputs of another shape or dtype than the cell was given (calling.py). When the change
breaks the code that consumes it (the next layer raises a shape error), the error arises far
from the hook, and its traceback does not show the hook. So a replacement that changed a shape
or a dtype is remembered, in this thread, and an exception leaving a Cell call whose code
received that value gets a note naming the hook, where it is defined, the cell it is registered
on, and what it returned in place of what.

"Received": a frame the exception passed through holds the value (the Tensor or its array) as a
local variable, among the frames inside the innermost line of user code it passed (a layer's
construct and the ops it ran, not the user's ``construct`` that merely holds the value), or in
that line's own frame when the exception was raised there. When no frame holds it (the value
went through a layer that keeps shapes, a ReLU, before one that failed), a replacement made by
a hook on another cell of the same network is still named, as a change made earlier in the
network, if the error's message shows the shape the hook gave. The note is made once, by the
outermost Cell call the exception leaves, which sees every frame.

Cost: a hook that returns None, or outputs of the same shapes and dtypes, leaves nothing; a cell
call pays nothing unless an exception leaves it. The record holds weak references to the values
only, so it never keeps a Tensor alive, and it lasts until another replacement by the same hook
on the same cell (or ``_LIMIT`` newer ones) takes its place.
"""
import sys
import threading
import weakref

from .._frames import add_note, is_internal
from .._tensor import Tensor
from .calling import who
from .handle import hook_site

_LIMIT = 8          # replacements remembered per thread
_local = threading.local()


class _Replacement:
    """One hook call that changed the shape or dtype of outputs (or inputs) of its cell."""

    __slots__ = ('kind', 'hook', 'cell', 'changes')

    def __init__(self, kind, hook, cell, changes):
        self.kind = kind            # 'forward hook' or 'forward pre hook'
        self.hook = hook
        self.cell = weakref.ref(cell)
        self.changes = changes      # [(position or None, weakref of the new Tensor, old, new)]

    def _parts(self, index):
        cell = self.cell()
        name = who(self.kind, self.hook, cell) if cell is not None else who(self.kind, self.hook)
        site = hook_site(self.hook)
        where = f" (defined at {site})" if site else ''
        what, had = ('input', 'the cell was given') if self.kind == 'forward pre hook' else \
            ('output', 'construct returned')
        what = f"the cell's {what}" if index is None else f"the cell's {what} {index}"
        return name + where, what, had

    def describe(self, index, old, new):
        """The note naming the hook and what it returned at position ``index``, used here."""
        name, what, had = self._parts(index)
        return (f"(a value used here was returned by {name} in place of {what}: a Tensor of "
                f"shape {new[0]} and dtype {new[1]}, where {had} shape {old[0]} and dtype "
                f"{old[1]})")

    def describe_earlier(self, index, old, new):
        """The note for a change made earlier in the network, whose value is not seen here."""
        name, what, had = self._parts(index)
        return (f"(earlier in this network, {name} replaced {what} with a Tensor of shape "
                f"{new[0]} and dtype {new[1]}, where {had} shape {old[0]} and dtype {old[1]}: "
                f"a layer after it may not expect that)")


def remember(kind, hook, cell, new, old):
    """After ``hook`` of ``kind`` on ``cell`` replaced construct's outputs (or the cell's
    inputs, a tuple) ``old`` with ``new``, checked to have the same structure: remember the
    Tensors whose shape or dtype it changed."""
    if isinstance(old, Tensor):
        pairs = ((None, new, old),)
    elif isinstance(old, (tuple, list)) and isinstance(new, (tuple, list)):
        pairs = [(i, n, o) for i, (n, o) in enumerate(zip(new, old))]
    else:
        pairs = ()          # an output of another kind: nothing to compare
    changes = []
    for i, n, o in pairs:
        if isinstance(n, Tensor) and isinstance(o, Tensor):
            a, b = n._data, o._data
            if a.shape != b.shape or a.dtype != b.dtype:
                changes.append((i, weakref.ref(n), (tuple(b.shape), o.dtype),
                                (tuple(a.shape), n.dtype)))
    records = getattr(_local, 'records', None)
    if records is None:
        if not changes:
            return
        records = _local.records = []
    for k, r in enumerate(records):
        if r.hook is hook and r.cell() is cell:
            del records[k]
            break
    if changes:
        records.append(_Replacement(kind, hook, cell, changes))
        if len(records) > _LIMIT:
            del records[0]


def note(error):
    """Add to ``error``, leaving the outermost Cell call, a note for each remembered replacement
    whose value the code it passed through received, or, when none was, made on another cell of
    the network that failed (see the module docstring). Called by ``Cell._eager_call``."""
    records = getattr(_local, 'records', None)
    if not records:
        return
    here = sys._getframe(1)
    outer = here.f_back
    while outer is not None:
        if outer.f_code is here.f_code:
            return                  # an outer Cell call notes it, with every frame
        outer = outer.f_back
    live = {}
    for r in records:
        for change in r.changes:
            t = change[1]()
            if t is not None:
                live[id(t)] = live[id(t._data)] = (r, change, t)
    found = {}          # (id of the record, output index) -> (record, change), in found order
    frames = _frames(error.__traceback__)
    for frame in _receiving(frames):
        for value in frame.f_locals.values():
            for v in (value if type(value) in (tuple, list) else (value,)):
                hit = live.get(id(v))
                if hit is not None and (v is hit[2] or v is hit[2]._data):
                    found.setdefault((id(hit[0]), hit[1][0]), hit[:2])
    for r, (index, _, old, new) in found.values():
        add_note(error, r.describe(index, old, new))
    failing = _failing_cell(frames, here.f_code)
    if failing is None:
        return
    root = _root(failing)
    message = str(error)
    for r in records:
        cell = r.cell()
        if cell is None or cell is failing or _root(cell) is not root:
            continue
        for index, _, old, new in r.changes:
            shown = str(new[0]) in message or str(list(new[0])) in message
            if shown and (id(r), index) not in found:
                add_note(error, r.describe_earlier(index, old, new))


def _frames(tb):
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    return frames


def _failing_cell(frames, call_code):
    """The innermost Cell whose call the exception left (its ``_eager_call`` frame's self)."""
    for frame in reversed(frames):
        if frame.f_code is call_code:
            return frame.f_locals.get('self')
    return None


def _root(cell):
    """The outermost cell holding ``cell``."""
    while cell._parent is not None:
        parent = cell._parent[0]()
        if parent is None:
            break
        cell = parent
    return cell


def _receiving(frames):
    """The frames inside the innermost frame of user code (that frame itself when it is the
    innermost frame: the user's code raised)."""
    for k in range(len(frames) - 1, -1, -1):
        if not is_internal(frames[k]):
            return frames[k + 1:] or frames[k:]
    return frames
