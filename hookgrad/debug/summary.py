"""``summary(net, *inputs)``: a table of every cell with shapes, parameters, MACs and memory.

One forward pass runs under ``no_grad`` with a forward pre-hook and a forward hook on every cell;
the hooks are removed afterwards, even when the forward raises. Counting rules:

- Rows: one per cell, in the order of its first call; a cell called several times is one row
  with ``calls`` > 1, the shapes of its first call, and MACs and memory summed over its calls.
  Cells never called come last with ``calls == 0``.
- Parameters: those a cell holds itself (not its sub-cells'); a parameter shared by several
  cells counts once, at the first cell holding it in attribute order.
- MACs (multiply-accumulates): Dense ``out_elements * in_channels``; Conv1d/Conv2d
  ``out_elements * in_channels / group * prod(kernel_size)`` (stride, dilation and padding act
  through the output size; products with padding zeros count, bias additions do not);
  BatchNorm and LayerNorm 2 per output element (normalize, then scale and shift); MaxPool2d
  and AvgPool2d ``out_elements * prod(kernel_size)``; AdaptiveAvgPool2d the sum of its window
  sizes. Activations, Dropout, Flatten and Embedding count 0. Any other cell counts the sum of
  the cells called inside it (its own arithmetic is not seen), and None (shown '-') when
  nothing inside it is counted. A cell with a rule adds its sub-cells' MACs to its own.
- Memory: the bytes of a cell's output tensors. The total counts each distinct buffer once
  (a container returning its last child's output, or a view such as Flatten's, adds nothing).
"""
import math
import numbers
import weakref

import numpy as np

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from ..nn import layer as layers
from ..nn.cell import Cell
from .tables import TextTable
from ..hooks.handle import in_this_thread

__all__ = ['summary', 'Summary', 'Row']


class Shape(tuple):
    """A tensor's shape inside a shape structure; shown as ``[2, 3]``."""

    __slots__ = ()

    def __repr__(self):
        return '[' + ', '.join(str(n) for n in self) + ']'


class Row:
    """One cell of a ``Summary``.

    Attributes: ``path`` (attribute path, '' for the network itself), ``type`` (class name),
    ``depth``, ``calls``, ``input_shapes`` (one entry per positional input: a ``Shape`` for a
    tensor, nested tuples/lists/dicts mirrored, other values as their repr), ``kwarg_shapes``
    (a dict, likewise), ``output_shapes``, ``params`` and ``trainable_params`` (held by this
    cell), ``macs`` (int, or None when not counted) and ``memory`` (bytes of the outputs).
    """

    __slots__ = ('path', 'type', 'depth', 'calls', 'input_shapes', 'kwarg_shapes',
                 'output_shapes', 'params', 'trainable_params', 'macs', 'memory')

    def __init__(self, path, cell, params, trainable):
        self.path = path
        self.type = type(cell).__name__
        self.depth = path.count('.') + 1 if path else 0
        self.calls = 0
        self.input_shapes = self.kwarg_shapes = self.output_shapes = None
        self.params = params
        self.trainable_params = trainable
        self.macs = None
        self.memory = 0

    def __repr__(self):
        return (f"Row({self.path!r}, {self.type}, calls={self.calls}, in={self.inputs_text()}, "
                f"out={_text(self.output_shapes)}, params={self.params}, macs={self.macs}, "
                f"memory={self.memory})")

    def inputs_text(self):
        """The input shapes as shown in the table: positional, then ``name=shape``."""
        if self.input_shapes is None:
            return '-'
        parts = [_text(s) for s in self.input_shapes]
        parts += [f"{k}={_text(s)}" for k, s in self.kwarg_shapes.items()]
        return ', '.join(parts)


class Summary(TextTable):
    """The result of ``summary``: ``rows`` and the totals; ``str()`` gives the table,
    ``print()`` fits it to the terminal; ``repr()`` is one line (``summary`` prints the table
    itself, so a REPL shows it once).

    Attributes: ``rows`` (list of ``Row``), ``total_params``, ``trainable_params``,
    ``total_macs`` (the network's MACs), ``activation_bytes`` (distinct output buffers) and
    ``param_bytes``. ``summary[path]`` is the row of that cell.
    """

    __slots__ = ('rows', 'total_params', 'trainable_params', 'total_macs', 'activation_bytes',
                 'param_bytes', '_by_path')
    right = frozenset({'Params', 'MACs', 'Memory', 'Calls'})

    def __init__(self, rows, total_params, trainable_params, total_macs, activation_bytes,
                 param_bytes):
        self.rows = rows
        self.total_params = total_params
        self.trainable_params = trainable_params
        self.total_macs = total_macs
        self.activation_bytes = activation_bytes
        self.param_bytes = param_bytes
        self._by_path = {r.path: r for r in rows}

    def __getitem__(self, path):
        row = self._by_path.get(path)
        if row is None:
            raise KeyError(f"summary: no cell named {path!r}; the cells are "
                           f"{[r.path for r in self.rows][:20]}")
        return row

    def __repr__(self):
        # One line: summary() has printed the table already, so a REPL shows it once.
        return (f"<Summary of {len(self.rows)} cells: {self.total_params:,} parameters, "
                f"{self.total_macs:,} MACs; print() it or call .print() for the table>")

    def table(self):
        """The column headers, the rows' cells and the totals row, all as strings."""
        body = [[_indent(r), r.type, r.inputs_text(),
                 _text(r.output_shapes),
                 _params_text(r.params, r.trainable_params),
                 '-' if r.macs is None else f"{r.macs:,}", _bytes(r.memory) if r.calls else '-',
                 str(r.calls)] for r in self.rows]
        total = ['Total', '', '', '', _params_text(self.total_params, self.trainable_params),
                 f"{self.total_macs:,}", _bytes(self.activation_bytes), '']
        return _COLUMNS, body, total

    def footer(self):
        """The lines printed under the table."""
        return [f"Total params: {self.total_params:,}",
                f"Trainable params: {self.trainable_params:,}",
                f"Non-trainable params: {self.total_params - self.trainable_params:,}",
                f"Total MACs: {self.total_macs:,} ({_si(self.total_macs)})",
                f"Activation memory: {_bytes(self.activation_bytes)} "
                f"({self.activation_bytes:,} bytes, distinct output buffers)",
                f"Parameter memory: {_bytes(self.param_bytes)} ({self.param_bytes:,} bytes)"]


_COLUMNS = ('Layer', 'Type', 'Input shape', 'Output shape', 'Params', 'MACs', 'Memory', 'Calls')


def summary(net, *inputs, set_train=False, verbose=True, **kwargs):
    """Run ``net(*inputs, **kwargs)`` once and tabulate every cell (see the module docstring).

    The forward runs without recording gradients, in predict mode unless ``set_train=True``;
    afterwards the train state of every cell and the values of the non-trainable parameters
    (BatchNorm's moving statistics) are restored.

    Args:
        net: the Cell to summarize.
        *inputs: its positional inputs.
        set_train: run in train mode. Default False.
        verbose: print the table (fitted to the terminal). Default True, as Keras'
            ``model.summary()`` and torchinfo's ``summary`` print.
        **kwargs: keyword inputs of ``net``.

    Returns:
        Summary: the rows and totals, for ``save_run``; its repr is one line, so that in a
        REPL the table appears once.

    Raises:
        TypeError: when ``net`` is not a Cell. Whatever the forward raises propagates, with
            every hook removed.

    >>> import hookgrad as ms
    >>> from hookgrad.debug import summary
    >>> net = ms.nn.SequentialCell(ms.nn.Dense(4, 3), ms.nn.ReLU())
    >>> s = summary(net, ms.ops.ones((2, 4)), verbose=False)
    >>> s.total_params, s.total_macs, [r.path for r in s.rows]
    (15, 24, ['', '0', '1'])
    """
    if not isinstance(net, Cell):
        raise TypeError(f"summary: net must be a Cell, got {type(net).__name__}")
    named = list(net.cells_and_names())
    rows = {}
    seen_params = set()
    for path, cell in named:
        own = [p for p in cell._params.values() if p is not None and id(p) not in seen_params]
        seen_params.update(id(p) for p in own)
        rows[id(cell)] = Row(path, cell, sum(p.size for p in own),
                             sum(p.size for p in own if p.requires_grad))
    params = list(net.get_parameters())
    state = [(cell, cell.training, cell.phase) for _, cell in named]
    buffers = [(p, p._data.copy()) for p in params if not p.requires_grad]
    run = _Run(rows, inputs, kwargs)
    handles = []
    try:
        for _, cell in named:
            handles.append(cell.register_forward_pre_hook(in_this_thread(run.pre),
                                                          with_kwargs=True))
            handles.append(cell.register_forward_hook(in_this_thread(run.post),
                                                      with_kwargs=True))
        net.set_train(set_train)
        with no_grad():
            net(*inputs, **kwargs)
    finally:
        for h in handles:
            h.remove()
        for cell, training, phase in state:
            cell.__dict__['training'] = training
            cell.__dict__['phase'] = phase
        for p, data in buffers:
            p._data = data
    ordered = sorted(rows.values(), key=lambda r: run.order.get(r.path, len(rows)))
    result = Summary(ordered, sum(p.size for p in params),
                     sum(p.size for p in params if p.requires_grad), run.root_macs,
                     run.activation_bytes, sum(p.nbytes for p in params))
    if verbose:
        result.print()
    return result


class _Run:
    """The hooks' state during the summary's forward: rows, call stack, seen buffers."""

    __slots__ = ('rows', 'order', 'stack', 'buffers', 'activation_bytes', 'root_macs')

    def __init__(self, rows, inputs, kwargs):
        self.rows = rows
        self.order = {}
        self.stack = []         # [row, MACs of sub-cell calls, whether any was counted]
        self.buffers = {}
        self.activation_bytes = 0
        self.root_macs = 0
        for t in _tensors((inputs, kwargs)):   # views of the inputs are not activations
            self._new_buffer(t)

    def pre(self, cell, args, kwargs):
        row = self.rows[id(cell)]
        if row.calls == 0:
            self.order[row.path] = len(self.order)
            row.input_shapes = tuple(_shapes(a) for a in args)
            row.kwarg_shapes = {k: _shapes(v) for k, v in kwargs.items()}
        row.calls += 1
        self.stack.append([row, 0, False])

    def post(self, cell, args, kwargs, out):
        row, inner, counted = self.stack.pop()
        if row.output_shapes is None:
            row.output_shapes = _shapes(out)
        own = cell_macs(cell, args, out)
        if own is not None or counted:
            macs = inner + (own or 0)
            row.macs = (row.macs or 0) + macs
            if self.stack:
                parent = self.stack[-1]
                parent[1] += macs
                parent[2] = True
            else:
                self.root_macs += macs
        for t in _tensors(out):
            row.memory += t.nbytes
            if self._new_buffer(t):
                self.activation_bytes += _root(t._data).nbytes

    def _new_buffer(self, t):
        """Whether ``t``'s memory is seen for the first time (then remember it, weakly)."""
        root = _root(t._data)
        ref = self.buffers.get(id(root))
        if ref is not None and ref() is root:
            return False
        self.buffers[id(root)] = weakref.ref(root)
        return True


def _root(a):
    """The array owning ``a``'s memory (``a`` itself unless it is a view)."""
    kind = np.ndarray if type(a) is np.ndarray else type(a)
    while isinstance(a.base, kind):
        a = a.base
    return a


# --------------------------------------------------------------------------- MAC rules
def _first(out):
    """The first tensor of an output structure (MaxPool2d with return_indices gives two)."""
    for t in _tensors(out):
        return t
    return None


def _dense(cell, args, y):
    return y.size * cell.in_channels


def _conv(cell, args, y):
    return y.size * (cell.in_channels // cell.group) * math.prod(cell.kernel_size)


def _norm(cell, args, y):
    return 2 * y.size


def _pool(cell, args, y):
    return y.size * math.prod(cell.kernel_size)


def _window_total(size, out):
    """Sum of adaptive pooling window lengths: window i is [floor(i*n/o), ceil((i+1)*n/o))."""
    i = np.arange(out)
    return int((-(-(i + 1) * size // out) - i * size // out).sum())


def _adaptive(cell, args, y):
    x = args[0]
    h, w = x.shape[-2:]
    ho, wo = y.shape[-2:]
    return x.size // (h * w) * _window_total(h, ho) * _window_total(w, wo)


def _zero(cell, args, y):
    return 0


_RULES = {layers.Dense: _dense, layers.Conv1d: _conv, layers.Conv2d: _conv,
          layers.BatchNorm1d: _norm, layers.BatchNorm2d: _norm, layers.LayerNorm: _norm,
          layers.MaxPool2d: _pool, layers.AvgPool2d: _pool, layers.AdaptiveAvgPool2d: _adaptive}
_RULES.update((cls, _zero) for cls in (
    layers.ReLU, layers.ReLU6, layers.LeakyReLU, layers.Sigmoid, layers.Tanh, layers.GELU,
    layers.SiLU, layers.Softmax, layers.LogSoftmax, layers.Dropout, layers.Dropout2d,
    layers.Flatten, layers.Embedding))


def cell_macs(cell, args, out):
    """The MACs of one call of ``cell`` itself (its sub-cells excluded), or None when no rule
    covers its type. ``args`` are its positional inputs and ``out`` its output."""
    for cls in type(cell).__mro__:
        rule = _RULES.get(cls)
        if rule is not None:
            y = _first(out)
            return None if y is None else int(rule(cell, args, y))
    return None


# --------------------------------------------------------------------------- structures
def _tensors(value):
    """Every Tensor in a nested tuple/list/dict structure, depth first."""
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _tensors(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors(v)


def _shapes(value):
    if isinstance(value, Tensor):
        return Shape(value.shape)
    if isinstance(value, (tuple, list)):
        return type(value)(_shapes(v) for v in value)
    if isinstance(value, dict):
        return {k: _shapes(v) for k, v in value.items()}
    if value is None or isinstance(value, (numbers.Number, str)):
        return repr(value)
    return type(value).__name__


def _text(shapes):
    if shapes is None:          # a cell that was not called
        return '-'
    if isinstance(shapes, str):
        return shapes
    if isinstance(shapes, Shape):
        return repr(shapes)
    if isinstance(shapes, dict):
        return '{' + ', '.join(f"{k}: {_text(v)}" for k, v in shapes.items()) + '}'
    inner = ', '.join(_text(s) for s in shapes)
    return f"[{inner}]" if isinstance(shapes, list) else f"({inner})"


# --------------------------------------------------------------------------- rendering
def _indent(row):
    return '  ' * max(row.depth - 1, 0) + (row.path or '(root)')


def _params_text(total, trainable):
    return f"{total:,}" if total == trainable else f"{trainable:,} / {total:,}"


def _bytes(n):
    for unit in ('B', 'KiB', 'MiB', 'GiB'):
        if n < 1024 or unit == 'GiB':
            return f"{n} B" if unit == 'B' else f"{n:.1f} {unit}"
        n /= 1024


def _si(n):
    for value, unit in ((1e12, 'T'), (1e9, 'G'), (1e6, 'M'), (1e3, 'K')):
        if n >= value:
            return f"{n / value:.2f} {unit}"
    return str(n)
