"""Dump every cell's forward and backward tensors of one step, and compare two dumps.

``dump_step`` registers four hooks on every cell for the duration of a ``with`` block and
writes each tensor to its own ``.npy`` file as soon as a hook sees it, so nothing is kept in
memory; ``compare`` finds the first cell whose tensors differ between two dumps, which may come
from hookgrad, PyTorch or MindSpore (the layout is in ``dump_format`` and docs/debugging.md).
"""
import json
import math
import numbers
import os
import weakref
from collections import namedtuple

import numpy as np

from .._tensor import Tensor, detached
from ..autograd.engine import run_backward
from ..autograd.grad_mode import enable_grad
from ..nn.cell import Cell
from ..hooks.handle import in_this_thread
from ..kernels import backend

__all__ = ['dump', 'dump_step', 'compare', 'Comparison', 'DumpRow', 'dump_format']

FORMAT = 'hookgrad-dump'
VERSION = 1
KINDS = ('input', 'output', 'grad_output', 'grad_input')
INDEX = 'index.json'
_FIELDS = ('cell', 'kind', 'call', 'index', 'file')

dump_format = """\
A dump is a directory holding one .npy file per tensor and index.json:

    {"format": "hookgrad-dump", "version": 1, "step": 0, "complete": true,
     "entries": [{"cell": "fc1", "type": "Dense", "kind": "output", "call": 0, "index": 0,
                  "shape": [8, 16], "dtype": "float32", "file": "00003_fc1_output_0_0.npy"},
                 ...]}

- entries are listed in the order they were recorded: forward first, then backward.
- cell: the cell's path as in cells_and_names() (PyTorch: named_modules()); "" is the root.
- kind: "input" (a forward pre-hook: what construct receives), "output" (a forward hook),
  "grad_output" (a backward pre-hook: the gradient w.r.t. the outputs), "grad_input" (a backward
  hook: the gradient w.r.t. the positional inputs).
- call: 0 for the first time that hook kind fired on that cell in the step, 1 for the second...
  (backward calls are numbered in the order backward reaches them, usually the reverse of the
  forward calls).
- index: the position in the hook's flattened tuple of inputs, outputs or gradients; positions
  holding no tensor (None, numbers) have no entry.
- file: the .npy file, relative to the directory. type, shape and dtype are informative.
- complete: false when the step raised; the entries then cover what ran before the error.
Only cell, kind, call, index and file are required; (cell, kind, call, index) is the key two
dumps are matched on.
"""


class dump_step:
    """Context manager: dump every cell's tensors of the step run inside the block.

    ``with dump_step(net, 'dump/a'): loss_fn(net(x), y).backward()`` writes, for every cell of
    ``net`` and every call, its inputs, outputs, output gradients and input gradients as ``.npy``
    files plus ``index.json`` (see ``dump_format``). Any forward/backward code may run in the
    block (``ms.value_and_grad``, ``TrainOneStepCell``...). The hooks are removed on exit, also
    after an exception (the index is then written with ``"complete": false``). The network is
    held weakly and no tensor is kept after its file is written.

    Args:
        net: the Cell whose cells are dumped.
        directory: where to write; created if missing; must not hold a dump already.
        step: an int >= 0 recorded in the index. Default 0.

    Attributes:
        entries: the index entries written so far (dicts, as in index.json).

    Raises:
        TypeError: if net is not a Cell, directory not a path or step not an int.
        ValueError: if step is negative.
        NotADirectoryError: if directory exists and is not a directory.
        FileExistsError: if directory already holds an index.json.
    """

    __slots__ = ('_net', 'directory', 'step', 'entries', '_handles', '_calls', '_entered')

    def __init__(self, net, directory, step=0):
        if not isinstance(net, Cell):
            raise TypeError(f"dump_step: net must be a Cell, got {type(net).__name__}")
        self.directory = _check_target_directory(directory, 'dump_step')
        if isinstance(step, bool) or not isinstance(step, numbers.Integral):
            raise TypeError(f"dump_step: step must be an int, got {type(step).__name__}")
        if step < 0:
            raise ValueError(f"dump_step: step must be >= 0, got {step}")
        self._net = weakref.ref(net)
        self.step = int(step)
        self.entries = []
        self._handles = []
        self._calls = {}
        self._entered = False

    def __enter__(self):
        if self._entered:
            raise RuntimeError("dump_step: a dump_step can be entered once; make a new one")
        net = self._net()
        if net is None:
            raise RuntimeError("dump_step: the network was deleted; dump_step holds it weakly, so "
                               "keep a reference to the network while using it")
        self._entered = True
        _check_target_directory(self.directory, 'dump_step')
        os.makedirs(self.directory, exist_ok=True)
        try:
            for path, cell in net.cells_and_names():
                self._watch(path, cell)
        except BaseException:
            self._remove_hooks()
            raise
        return self

    def __exit__(self, exc_type, exc, tb):
        self._remove_hooks()
        index = {'format': FORMAT, 'version': VERSION, 'step': self.step,
                 'complete': exc_type is None, 'entries': self.entries}
        tmp = os.path.join(self.directory, INDEX + '.tmp')
        with open(tmp, 'w') as f:
            json.dump(index, f, indent=1)
        os.replace(tmp, os.path.join(self.directory, INDEX))
        return False

    def _watch(self, path, cell):
        save = self._save
        name = type(cell).__name__
        add = self._handles.append
        add(cell.register_forward_pre_hook(
            in_this_thread(lambda c, inputs: save(path, name, 'input', inputs))))
        add(cell.register_forward_hook(
            in_this_thread(lambda c, inputs, out: save(path, name, 'output', out))))
        add(cell.register_backward_pre_hook(
            in_this_thread(lambda c, gy: save(path, name, 'grad_output', gy))))
        add(cell.register_backward_hook(
            in_this_thread(lambda c, gx, gy: save(path, name, 'grad_input', gx))))

    def _save(self, path, type_name, kind, values):
        """Write the tensors of one hook call; returns None so nothing is replaced."""
        key = (path, kind)
        call = self._calls.get(key, 0)
        self._calls[key] = call + 1
        for index, v in enumerate(_flatten(values)):
            if not isinstance(v, Tensor):
                continue
            a = v.asnumpy()         # on a device: one host read per tensor written
            file = f"{len(self.entries):05d}_{path or 'root'}_{kind}_{call}_{index}.npy"
            np.save(os.path.join(self.directory, file), a)
            self.entries.append({'cell': path, 'type': type_name, 'kind': kind, 'call': call,
                                 'index': index, 'shape': list(a.shape), 'dtype': str(a.dtype),
                                 'file': file})

    def _remove_hooks(self):
        for handle in self._handles:
            handle.remove()
        self._handles.clear()


def dump(net, directory, *inputs, loss_fn=None, target=None, step=0):
    """Run one forward and backward step of ``net`` and dump every cell's tensors.

    The backward pass starts from ``loss_fn(net(*inputs), target)`` (``loss_fn(outputs)`` when
    target is None), or from the outputs with all-ones gradients without a loss_fn. It runs in
    capture mode: no parameter's ``.grad`` is touched and nothing is updated (in train mode,
    BatchNorm's moving statistics are updated by the forward pass as usual).

    Args:
        net: the Cell to run.
        directory: where to write (see ``dump_step``).
        *inputs: the network's inputs.
        loss_fn: None or a callable (a loss Cell) applied to the outputs.
        target: the second argument of loss_fn, if any.
        step: the step number recorded in the index. Default 0.

    Returns:
        The loss (or the outputs), detached from the graph.

    Raises:
        TypeError: if no inputs are given or loss_fn is not callable; see also ``dump_step``.

    >>> import pathlib, tempfile, hookgrad as ms
    >>> with tempfile.TemporaryDirectory() as d:
    ...     loss = dump(ms.nn.Dense(3, 2), d, ms.Tensor([[1.0, 2.0, 3.0]]))
    ...     index = json.loads(pathlib.Path(d, 'index.json').read_text())
    >>> [(e['kind'], e['shape']) for e in index['entries']]
    [('input', [1, 3]), ('output', [1, 2]), ('grad_output', [1, 2]), ('grad_input', [1, 3])]
    """
    if not inputs:
        raise TypeError("dump: expected at least one input for the network")
    if loss_fn is not None and not callable(loss_fn):
        raise TypeError(f"dump: loss_fn must be callable or None, got {type(loss_fn).__name__}")
    with dump_step(net, directory, step=step), enable_grad():
        out = net(*inputs)
        if loss_fn is None:
            value = out
        else:
            value = loss_fn(out) if target is None else loss_fn(out, target)
        roots = [t for t in _flatten(value) if isinstance(t, Tensor) and t.requires_grad]
        if roots:
            run_backward(roots, [backend.array_module(r._data).ones(r.shape, r._data.dtype)
                                 for r in roots], targets=[])
    return detached(value)


def _flatten(values):
    """Hook values as a flat list: tuples and lists are opened depth first."""
    if not isinstance(values, (tuple, list)):
        return [values]
    out = []
    for v in values:
        out.extend(_flatten(v))
    return out


def _check_target_directory(directory, who):
    if not isinstance(directory, (str, os.PathLike)):
        raise TypeError(f"{who}: directory must be a str or path, got {type(directory).__name__}")
    directory = os.fspath(directory)
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise NotADirectoryError(f"{who}: '{directory}' exists and is not a directory")
    if os.path.exists(os.path.join(directory, INDEX)):
        raise FileExistsError(f"{who}: '{directory}' already holds a dump ({INDEX}); "
                              f"use a new directory for each dump")
    return directory


# --------------------------------------------------------------------------- compare
DumpRow = namedtuple('DumpRow', 'cell kind call index shape_a shape_b max_abs_diff '
                                'allclose_ratio cosine ok')
DumpRow.__doc__ = """One tensor present in both dumps and how far apart its two values are.

``max_abs_diff`` is ``max |a - b|`` (NaN where the shapes differ), ``allclose_ratio`` the
fraction of elements with ``|a - b| <= atol + rtol * |b|`` (NaNs in the same place count as
equal), ``cosine`` the cosine similarity of the flattened arrays (1 for two all-zero arrays,
0 when only one is zero), ``ok`` whether shapes agree and every element is within tolerance.
"""


class Comparison:
    """The result of ``compare``: one ``DumpRow`` per tensor present in both dumps.

    Attributes:
        rows: the rows, in the first dump's recording order (forward, then backward).
        missing: keys ``(cell, kind, call, index)`` of the first dump absent from the second.
        extra: keys of the second dump absent from the first.
        first_divergence: the first row that is not ``ok``, or None.
    """

    __slots__ = ('dir_a', 'dir_b', 'rtol', 'atol', 'rows', 'missing', 'extra',
                 'first_divergence')

    def __init__(self, dir_a, dir_b, rtol, atol, rows, missing, extra):
        self.dir_a, self.dir_b, self.rtol, self.atol = dir_a, dir_b, rtol, atol
        self.rows, self.missing, self.extra = rows, missing, extra
        self.first_divergence = next((r for r in rows if not r.ok), None)

    @property
    def diverged(self):
        """The rows whose tensors differ beyond tolerance."""
        return [r for r in self.rows if not r.ok]

    @property
    def ok(self):
        """True when every shared tensor matches and neither dump has entries the other lacks."""
        return self.first_divergence is None and not self.missing and not self.extra

    def __str__(self):
        header = ('cell', 'kind', 'call', 'index', 'shape', 'max|a-b|', 'allclose', 'cosine', '')
        table = [header] + [(_cell(r.cell), r.kind, str(r.call), str(r.index), _shapes(r),
                             f"{r.max_abs_diff:.3g}", f"{r.allclose_ratio:.4f}",
                             f"{r.cosine:.6f}", '' if r.ok else 'DIFFERS') for r in self.rows]
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        lines = [f"compare '{self.dir_a}' with '{self.dir_b}' (rtol={self.rtol:g}, "
                 f"atol={self.atol:g}): {len(self.rows)} tensors, {len(self.diverged)} differ, "
                 f"{len(self.missing)} missing, {len(self.extra)} extra"]
        lines += ['  '.join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in table]
        r = self.first_divergence
        lines.append('first divergence: ' + ('none' if r is None else
                                             f"{_cell(r.cell)} {r.kind}[{r.index}] call {r.call}"))
        for what, keys in (('missing from the second dump', self.missing),
                           ('only in the second dump', self.extra)):
            if keys:
                lines.append(f"{what}: " + ', '.join(f"{_cell(c)} {k}[{i}] call {n}"
                                                      for c, k, n, i in keys))
        return '\n'.join(lines)

    def __repr__(self):
        r = self.first_divergence
        first = 'None' if r is None else f"'{_cell(r.cell)} {r.kind}[{r.index}] call {r.call}'"
        return (f"<Comparison {len(self.rows)} tensors, {len(self.diverged)} differ, "
                f"first_divergence={first}>")


def _cell(path):
    return path or '(root)'


def _shapes(r):
    a = 'x'.join(map(str, r.shape_a)) or 'scalar'
    if r.shape_a == r.shape_b:
        return a
    return f"{a} vs {'x'.join(map(str, r.shape_b)) or 'scalar'}"


def compare(dir_a, dir_b, rtol=1e-5, atol=1e-6):
    """Compare two dumps tensor by tensor and find the first cell where they diverge.

    Args:
        dir_a: the reference dump's directory (its order defines "first").
        dir_b: the other dump's directory.
        rtol, atol: element tolerance ``|a - b| <= atol + rtol * |b|``, as ``np.isclose``.

    Returns:
        A ``Comparison``; ``str()`` of it is a table.

    Raises:
        FileNotFoundError: a directory, its index.json or a listed file is missing.
        ValueError: an index that is not a dump index (wrong format, version, fields,
            duplicate keys), or negative tolerances.
    """
    for name, tol in (('rtol', rtol), ('atol', atol)):
        if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not tol >= 0:
            raise ValueError(f"compare: {name} must be a number >= 0, got {tol!r}")
    index_a, index_b = _read_index(dir_a), _read_index(dir_b)
    rows = []
    for key, entry in index_a.items():
        other = index_b.get(key)
        if other is not None:
            a = _load(dir_a, entry)
            b = _load(dir_b, other)
            rows.append(DumpRow(*key, a.shape, b.shape, *_metrics(a, b, rtol, atol)))
    missing = [k for k in index_a if k not in index_b]
    extra = [k for k in index_b if k not in index_a]
    return Comparison(os.fspath(dir_a), os.fspath(dir_b), rtol, atol, rows, missing, extra)


def _read_index(directory):
    """The entries of a dump as an ordered {(cell, kind, call, index): entry} dict, checked."""
    if not isinstance(directory, (str, os.PathLike)):
        raise TypeError(f"compare: a dump directory must be a str or path, got "
                        f"{type(directory).__name__}")
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"compare: no dump directory '{directory}'")
    path = os.path.join(directory, INDEX)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"compare: '{directory}' holds no {INDEX}; it is not a dump")
    try:
        with open(path) as f:
            index = json.load(f)
    except json.JSONDecodeError as e:
        raise ValueError(f"compare: '{path}' is not valid JSON ({e})") from None
    if not isinstance(index, dict) or index.get('format') != FORMAT:
        raise ValueError(f"compare: '{path}' is not a dump index (expected \"format\": "
                         f"\"{FORMAT}\")")
    if index.get('version') != VERSION:
        raise ValueError(f"compare: '{path}' has version {index.get('version')!r}, this "
                         f"hookgrad reads version {VERSION}")
    entries = index.get('entries')
    if not isinstance(entries, list):
        raise ValueError(f"compare: '{path}' has no list of entries")
    out = {}
    for i, e in enumerate(entries):
        absent = [k for k in _FIELDS if not isinstance(e, dict) or k not in e]
        if absent:
            raise ValueError(f"compare: entry {i} of '{path}' lacks {', '.join(absent)}")
        if e['kind'] not in KINDS:
            raise ValueError(f"compare: entry {i} of '{path}' has kind {e['kind']!r}, expected "
                             f"one of {', '.join(KINDS)}")
        key = (e['cell'], e['kind'], e['call'], e['index'])
        if key in out:
            raise ValueError(f"compare: '{path}' lists {_cell(key[0])} {key[1]}[{key[3]}] "
                             f"call {key[2]} twice")
        out[key] = dict(e, file=os.path.join(directory, e['file']))
    return out


def _load(directory, entry):
    if not os.path.isfile(entry['file']):
        raise FileNotFoundError(f"compare: '{entry['file']}' listed in the index of "
                                f"'{os.fspath(directory)}' is missing")
    return np.load(entry['file'], allow_pickle=False)


def _metrics(a, b, rtol, atol):
    """(max |a - b|, allclose ratio, cosine similarity, ok) of two arrays, in float64."""
    if a.shape != b.shape:
        return math.nan, 0.0, math.nan, False
    if a.size == 0:
        return 0.0, 1.0, 1.0, True
    a = a.astype(np.float64, copy=False)
    b = b.astype(np.float64, copy=False)
    both_nan = np.isnan(a) & np.isnan(b)
    with np.errstate(invalid='ignore'):
        diff = np.where((a == b) | both_nan, 0.0, np.abs(a - b))
    close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
    ratio = float(close.mean())
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na == 0 or nb == 0:
        cosine = 1.0 if na == nb else 0.0
    else:
        cosine = float(np.vdot(a, b) / (na * nb))
    return float(diff.max()), ratio, cosine, bool(close.all())
