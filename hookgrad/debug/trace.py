"""``trace(net)``: read, save and replace any cell's inputs, outputs and gradients by name.

``with trace(net) as t:`` puts a forward pre-hook, a forward hook, a backward pre-hook and a
backward hook on every traced cell and removes them all on exit, also when the block raises.
What a capture holds, per call of the cell:

- ``inputs`` and ``kwargs``: as ``construct`` received them (after input patches);
- ``outputs``: as the rest of the network received them (after output patches);
- ``grad_outputs``: the gradient w.r.t. ``construct``'s outputs, as its backward received it
  (after ``grad_output`` patches); ``grad_inputs``: the gradient w.r.t. its positional inputs,
  as it flows on (after ``grad_input`` patches). None in the places of non-tensors; the latest
  backward pass wins. A call whose outputs receive no gradient has ``None`` there.

Captured tensors are detached Tensors that share memory with the network's arrays (no copy,
no graph: an in-place write to an array after the capture shows in it). ``outputs`` mirrors
what ``construct`` returned (one Tensor, or a tuple), so it reads as the cell's output; the
other fields are tuples because hooks receive tuples. The trace holds the network weakly and
keeps its captures after the with-block (``keep=False`` releases them on exit). A trace left
open across a training loop keeps at most ``max_records`` calls and ``max_bytes`` of captured
tensors: past either, the oldest calls are dropped, with one warning.
"""
import collections
import difflib
import fnmatch
import functools
import os
import weakref

import numpy as np

from .._frames import warn
from .._tensor import Tensor, detached
from ..nn.cell import Cell
from .summary import _tensors
from ..hooks.handle import in_this_thread
from ..kernels import backend

__all__ = ['Trace', 'trace', 'CellTrace', 'Call']

_FIELDS = ('inputs', 'kwargs', 'outputs', 'grad_outputs', 'grad_inputs')


class Call:
    """One call of a traced cell: ``inputs``, ``kwargs``, ``outputs``, ``grad_outputs``,
    ``grad_inputs`` (see the module docstring)."""

    __slots__ = _FIELDS + ('_held',)

    def __init__(self, inputs, kwargs, outputs):
        self._held = None               # its entry in the trace's budget
        self.inputs = inputs
        self.kwargs = kwargs
        self.outputs = outputs
        self.grad_outputs = None
        self.grad_inputs = None


def _field(name):
    def get(self):
        return getattr(self._only(), name)
    get.__doc__ = f"``{name}`` of the cell's one call (``calls[i].{name}`` for reused cells)."
    return property(get)


class CellTrace:
    """What a trace captured for one cell: ``calls``, one ``Call`` per call, in order.

    ``inputs``, ``kwargs``, ``outputs``, ``grad_outputs`` and ``grad_inputs`` read the one call
    of a cell called once; for a cell called several times read ``calls[i]``.
    """

    __slots__ = ('name', '_calls')

    def __init__(self, name):
        self.name = name
        self._calls = []

    @property
    def calls(self):
        """The list of this cell's ``Call`` records."""
        if self._calls is None:
            raise RuntimeError(f"trace: the captures of Cell '{self.name}' were released when "
                               f"the trace ended (pass keep=True to keep them)")
        return self._calls

    def _only(self):
        calls = self.calls
        if len(calls) == 1:
            return calls[0]
        if not calls:
            raise RuntimeError(f"trace: Cell '{self.name}' was not called during the trace")
        raise RuntimeError(f"trace: Cell '{self.name}' was called {len(calls)} times: read "
                           f"t[{self.name!r}].calls[i] (i from 0 to {len(calls) - 1})")

    inputs = _field('inputs')
    kwargs = _field('kwargs')
    outputs = _field('outputs')
    grad_outputs = _field('grad_outputs')
    grad_inputs = _field('grad_inputs')

    def __repr__(self):
        n = 'released' if self._calls is None else f"{len(self._calls)} calls"
        return f"CellTrace({self.name!r}, {n})"


class Trace:
    """Capture and patch the inputs, outputs and gradients of a network's cells by name.

    Args:
        net: the Cell to trace.
        names: the cells to capture: None (default) for every cell, or a name or list of
            names, attribute paths as in ``net.cells_and_names()`` ('' is ``net`` itself);
            a name with ``*``, ``?`` or ``[`` is a pattern (``'layer1.*'``). ``[]`` captures
            nothing (for patching only).
        keep: keep the captures after the with-block (default True); False releases them
            on exit.
        max_records: the most calls kept, all cells together (default 100,000); None for
            no limit. Past it the oldest calls are dropped, with one warning.
        max_bytes: the most bytes of captured tensors kept (default 1 GiB; a tensor captured
            in two places, one cell's output and the next one's input, counts twice); None
            for no limit. Past it the oldest calls are dropped, with one warning.

    Raises:
        TypeError: for a non-Cell ``net``, a non-str name or a non-bool ``keep``.
        ValueError: for a ``max_records`` or ``max_bytes`` that is not a positive int.
        KeyError: for a name no cell has (the message lists the closest names).

    >>> import hookgrad as ms
    >>> from hookgrad.debug import trace
    >>> net = ms.nn.SequentialCell(ms.nn.Dense(2, 2, 'ones', 'zeros'), ms.nn.ReLU())
    >>> with trace(net) as t:
    ...     net(ms.Tensor([[1.0, 2.0]])).sum().backward()
    ...     print(t['0'].outputs, t['0'].grad_outputs[0])
    [[3. 3.]] [[1. 1.]]
    """

    def __init__(self, net, names=None, *, keep=True, max_records=100_000, max_bytes=1 << 30):
        if not isinstance(net, Cell):
            raise TypeError(f"trace: net must be a Cell, got {type(net).__name__}")
        if not isinstance(keep, bool):
            raise TypeError(f"trace: keep must be a bool, got {keep!r}")
        for what, value in (('max_records', max_records), ('max_bytes', max_bytes)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or value < 1):
                raise ValueError(f"trace: {what} must be a positive int or None, got {value!r}")
        valid = [path for path, _ in net.cells_and_names()]
        self._names = _resolve(names, valid, type(net).__name__)
        self._net_type = type(net).__name__
        self._net = weakref.ref(net)
        self._keep = keep
        self._active = False
        self._records = {}
        self._slots = {}
        self._handles = []
        self._tensor_handles = []
        self._budget = _Budget(max_records, max_bytes)

    # ----------------------------------------------------------------- context
    def __enter__(self):
        if self._active:
            raise RuntimeError("trace: this trace is already active")
        self._records = {name: CellTrace(name) for name in self._names}
        self._budget.clear()
        self._active = True
        try:
            cells = self._cells()
            for name in self._names:
                self._slot(name, cells[name])
        except BaseException:
            self._close(keep=False)
            raise
        return self

    def __exit__(self, *exc):
        self._close(self._keep)
        return False

    def _close(self, keep):
        for h in self._handles + self._tensor_handles:
            h.remove()
        self._handles.clear()
        self._tensor_handles.clear()
        self._slots.clear()
        self._active = False
        if not keep:
            self._budget.clear()
            for record in self._records.values():
                record._calls = None

    # ----------------------------------------------------------------- reading
    @property
    def names(self):
        """The names of the traced cells, in attribute order."""
        return list(self._names)

    def __getitem__(self, name):
        record = self._records.get(name)
        if record is None:
            if name in self._names:     # not entered yet
                raise RuntimeError(f"trace: Cell '{name}' has no captures: use the trace as "
                                   f"'with trace(net) as t:' and call the network inside")
            raise KeyError(_unknown(name, self._names, f"trace of {self._net_type}",
                                    'traced cell'))
        return record

    def save(self, path):
        """Write every captured tensor to one ``.npz`` file (``numpy.savez``).

        Keys are ``'<cell>/<call>/<field>[/<position>...]'``: ``'fc/0/outputs'``,
        ``'layer1.0.conv1/0/grad_inputs/0'``, ``'fc/0/kwargs/mask'``; the network itself is
        ``'(root)'``. None entries are skipped.

        Args:
            path: the file name ('.npz' is appended when missing).

        Returns:
            str: the path written.

        Raises:
            RuntimeError: when the captures were released (the trace ended without keep=True).
        """
        arrays = {}
        for name, record in self._records.items():
            for k, call in enumerate(record.calls):
                for field in _FIELDS:
                    prefix = f"{name or '(root)'}/{k}/{field}"
                    for key, t in _flatten(getattr(call, field), prefix):
                        arrays[key] = t.asnumpy()
        path = os.fspath(path)
        if not path.endswith('.npz'):
            path += '.npz'
        np.savez(path, **arrays)
        return path

    # ----------------------------------------------------------------- patching
    def patch(self, name, *, output=None, inputs=None):
        """Replace cell ``name``'s output and/or inputs on every call until the trace ends.

        A value is a Tensor (or NumPy array), a tuple/list with one entry per output or
        positional input, or a function: ``output=fn`` gets the original output and
        ``inputs=fn`` gets the original inputs unpacked (``fn(*inputs)``); a function returns
        the replacement, or None to keep the original. Its result keeps the gradient path
        when it is computed from the original; a constant cuts it (the cells before get
        zeros). Shapes and dtypes are checked at each call. A new patch of the same kind
        replaces the old one.

        Raises:
            RuntimeError: outside the with-block.
            KeyError: for an unknown cell name.
            TypeError: when neither is given or a value is of another kind; at call time,
                for a replacement of the wrong kind or dtype (ValueError: of the wrong shape
                or count), naming the cell.
        """
        self._add_patch('patch', name, output=output, inputs=inputs)

    def patch_grad(self, name, *, grad_output=None, grad_input=None):
        """Replace the gradient w.r.t. cell ``name``'s outputs (``grad_output``, before its
        backward runs) and/or w.r.t. its inputs (``grad_input``, before it flows on).

        Values as in ``patch``: a Tensor for a one-entry gradient, a tuple with one entry per
        output (or positional input), or ``fn(*grads) -> replacement | None``.

        Raises:
            As ``patch``.
        """
        self._add_patch('patch_grad', name, grad_output=grad_output, grad_input=grad_input)

    def _add_patch(self, where, name, **values):
        if not self._active:
            raise RuntimeError(f"trace.{where}: the trace is not active (patch inside "
                               f"'with trace(net) as t:')")
        cells = self._cells()
        if name not in cells:
            raise KeyError(_unknown(name, list(cells), f"trace.{where}: {self._net_type}",
                                    'cell'))
        given = {k: v for k, v in values.items() if v is not None}
        if not given:
            raise TypeError(f"trace.{where}: give at least one of "
                            f"{', '.join(values)} for Cell '{name}'")
        for kind, value in given.items():
            if not (callable(value) or isinstance(value, (Tensor, np.ndarray, tuple, list))):
                raise TypeError(f"trace.{where}: {kind} for Cell '{name}' must be a Tensor, a "
                                f"NumPy array, a tuple or a function, got "
                                f"{type(value).__name__}")
        self._slot(name, cells[name]).patches.update(given)

    # ----------------------------------------------------------------- internals
    def _cells(self):
        net = self._net()
        if net is None:
            raise RuntimeError("trace: the traced network no longer exists")
        return dict(net.cells_and_names())

    def _slot(self, name, cell):
        slot = self._slots.get(name)
        if slot is None:
            slot = self._slots[name] = _Slot(name, self._records.get(name),
                                             self._tensor_handles, self._budget)
            self._handles += [
                cell.register_forward_pre_hook(in_this_thread(slot.forward_pre)),
                cell.register_forward_hook(in_this_thread(slot.forward), with_kwargs=True),
                cell.register_backward_pre_hook(in_this_thread(slot.backward_pre)),
                cell.register_backward_hook(in_this_thread(slot.backward))]
        return slot

    def __repr__(self):
        state = 'active' if self._active else 'inactive'
        return f"<trace of {self._net_type}: {len(self._names)} cells, {state}>"


trace = Trace


class _Budget:
    """The calls a trace holds, oldest first, with their bytes: drops the oldest past
    ``max_records`` calls or ``max_bytes`` bytes, and warns the first time."""

    __slots__ = ('max_records', 'max_bytes', 'held', 'nbytes', 'dropped', 'warned',
                 'handles_mark')

    def __init__(self, max_records, max_bytes):
        self.max_records = max_records
        self.max_bytes = max_bytes
        self.clear()

    def clear(self):
        self.held = collections.deque()     # [record, call, bytes]
        self.nbytes = 0
        self.dropped = 0
        self.warned = False
        self.handles_mark = 1024

    def add(self, record, call, values):
        """Hold a new call (its captured ``values``), then drop the oldest over the limits."""
        entry = call._held = [record, call, 0]
        self.held.append(entry)
        self.grow(entry, values)

    def grow(self, entry, values):
        """Count the bytes of ``values`` captured for ``entry`` (gradients arrive later)."""
        if entry is None or entry[0] is None:      # dropped already
            return
        n = sum(t._data.nbytes for t in _tensors(values))
        entry[2] += n
        self.nbytes += n
        held = self.held
        while len(held) > 1 and (
                (self.max_records is not None and len(held) > self.max_records) or
                (self.max_bytes is not None and self.nbytes > self.max_bytes)):
            dropped = held.popleft()
            record, call, size = dropped
            dropped[0] = None
            self.nbytes -= size
            self.dropped += 1
            calls = record._calls
            if calls and calls[0] is call:
                calls.pop(0)
            if not self.warned:
                self.warned = True
                warn(
                    f"trace: over max_records={self.max_records} calls or max_bytes="
                    f"{self.max_bytes} bytes of captures; dropping the oldest calls (the first: "
                    f"Cell '{record.name}'), keeping the latest. Pass trace(net, max_records="
                    f"..., max_bytes=...) with larger values (None: no limit) to keep more",
                    ResourceWarning)


class _Slot:
    """The hooks of one cell in one trace: its patches and where its captures go.

    A call's gradients are matched to it exactly, also for a cell called several times: a
    tensor hook on the call's outputs fires just before that call's backward pre-hook, and the
    backward hook receives the grad_output tuple the backward pre-hook left.
    """

    __slots__ = ('name', 'record', 'patches', 'tensor_handles', 'budget', 'arrived', 'pending')

    def __init__(self, name, record, tensor_handles, budget):
        self.name = name
        self.record = record            # None: patch only
        self.patches = {}
        self.tensor_handles = tensor_handles
        self.budget = budget
        self.arrived = None             # the call whose outputs' gradient just arrived
        self.pending = []               # [(grad_output tuple, call)] awaiting the backward hook

    def forward_pre(self, cell, args):
        patch = self.patches.get('inputs')
        if patch is None:
            return None
        new = patch(*args) if callable(patch) else patch
        if new is None:
            return None
        return _conform_all(new, args, f"trace.patch: Cell '{self.name}' inputs")

    def forward(self, cell, args, kwargs, out):
        patch = self.patches.get('output')
        original = out
        if patch is not None:
            new = patch(out) if callable(patch) else patch
            if new is not None:
                out = _conform(new, out, f"trace.patch: Cell '{self.name}' output")
        if self.record is None:
            return out if out is not original else None
        call = Call(detached(args), detached(kwargs), detached(out))
        self.record._calls.append(call)
        self.budget.add(self.record, call, (call.inputs, call.kwargs, call.outputs))
        arrive = functools.partial(self._arrive, call)
        handles = self.tensor_handles
        for t in _tensors(original):
            if t._node is not None:
                handles.append(t.register_hook(in_this_thread(arrive)))
        if len(handles) > self.budget.handles_mark:     # forget those of collected tensors
            handles[:] = [h for h in handles if h._store() is not None]
            self.budget.handles_mark = max(1024, 2 * len(handles))
        return out if out is not original else None

    def _arrive(self, call, grad):
        self.arrived = call

    def backward_pre(self, cell, grad_output):
        patch = self.patches.get('grad_output')
        replaced = None
        if patch is not None:
            new = patch(*grad_output) if callable(patch) else patch
            if new is not None:
                replaced = grad_output = _conform_all(
                    new, grad_output, f"trace.patch_grad: Cell '{self.name}' grad_output")
        call, self.arrived = self.arrived, None
        if self.record is not None and call is not None:
            call.grad_outputs = detached(grad_output)
            self.budget.grow(call._held, call.grad_outputs)
            self.pending.append((grad_output, call))
        return replaced

    def backward(self, cell, grad_input, grad_output):
        patch = self.patches.get('grad_input')
        replaced = None
        if patch is not None:
            new = patch(*grad_input) if callable(patch) else patch
            if new is not None:
                replaced = grad_input = _conform_all(
                    new, grad_input, f"trace.patch_grad: Cell '{self.name}' grad_input")
        pending = self.pending
        if pending:
            i = next((i for i, (g, _) in enumerate(pending) if g is grad_output),
                     len(pending) - 1)
            call = pending.pop(i)[1]
            call.grad_inputs = detached(grad_input)
            self.budget.grow(call._held, call.grad_inputs)
        return replaced


# --------------------------------------------------------------------------- helpers
def _resolve(names, valid, net_type):
    if names is None:
        return list(valid)
    if isinstance(names, str):
        names = [names]
    names = list(names)
    chosen = set()
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"trace: names must be strings, got {type(name).__name__}")
        if any(c in name for c in '*?['):
            hits = fnmatch.filter(valid, name)
            if not hits:
                raise KeyError(f"trace: no cell of {net_type} matches the pattern {name!r} "
                               f"({len(valid)} cells, e.g. {valid[1:6]})")
            chosen.update(hits)
        elif name in valid:
            chosen.add(name)
        else:
            raise KeyError(_unknown(name, valid, f"trace: {net_type}", 'cell'))
    return [v for v in valid if v in chosen]


def _unknown(name, valid, where, what):
    close = difflib.get_close_matches(str(name), valid, n=5, cutoff=0.5)
    hint = (f"closest: {', '.join(repr(c) for c in close)}" if close else
            f"the {what} names are {valid[:8]}{' ...' if len(valid) > 8 else ''}")
    return f"{where} has no {what} named {name!r}; {hint} ({len(valid)} in all)"


def _flatten(value, key):
    if isinstance(value, Tensor):
        yield key, value
    elif isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            yield from _flatten(v, f"{key}/{i}")
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _flatten(v, f"{key}/{k}")


def _conform(new, old, where):
    """``new`` checked against the value ``old`` it replaces (same structure, shapes, dtypes)."""
    if isinstance(old, (tuple, list)):
        return type(old)(_conform_all(new, old, where))
    if not isinstance(old, Tensor):
        return new
    if isinstance(new, np.ndarray):         # uploaded to the device of the value it replaces
        new = Tensor._wrap(backend.to_device(np.asarray(new, old._data.dtype),
                                             backend.device_of(old._data)))
    if not isinstance(new, Tensor):
        raise TypeError(f"{where}: expected a Tensor of shape {old.shape}, got "
                        f"{type(new).__name__}")
    if new.shape != old.shape:
        raise ValueError(f"{where}: the replacement has shape {new.shape}, expected "
                         f"{old.shape}")
    if new._data.dtype != old._data.dtype:
        raise TypeError(f"{where}: the replacement has dtype {new.dtype}, expected {old.dtype}")
    return new


def _conform_all(new, old, where):
    """A tuple replacing the tuple ``old`` (one Tensor is accepted for one entry)."""
    if not isinstance(new, (tuple, list)):
        if len(old) != 1:
            raise ValueError(f"{where}: expected a tuple of {len(old)} values, got one "
                             f"{type(new).__name__}")
        new = (new,)
    if len(new) != len(old):
        raise ValueError(f"{where}: expected {len(old)} values, got {len(new)}")
    return tuple(_conform(n, o, f"{where}[{i}]") for i, (n, o) in enumerate(zip(new, old)))
