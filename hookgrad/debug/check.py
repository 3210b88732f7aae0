"""``check(net, *inputs)``: one forward and backward pass that finds the silent traps of training.

The traps are those that ruin training without an error: differentiating a network left in
predict mode, parameters that no gradient reaches, dead or saturated activations, gradients that
vanish or explode across depth, inputs that were never normalized, and a learning rate that
moves the weights by a large part of their norm in one step (docs/debugging.md).

Everything is measured on the public hooks and an op observer during one pass, and put back
afterwards: the hooks and the observer are removed, every parameter (BatchNorm's moving
statistics included) gets its values back, the global random generator its state, and no
``.grad`` is touched (the backward pass runs in capture mode). The statistics are reduced with
the array module of the tensors, so the check runs on any device, and are read to the host in
one transfer.
"""
import inspect
import math
import numbers
import re
import weakref

import numpy as np

from .. import _random
from .._tensor import Tensor
from ..autograd.engine import run_backward
from ..autograd.grad_mode import enable_grad
from ..autograd.observer import OpObserver
from ..hooks.handle import in_this_thread
from ..kernels import backend
from ..nn.cell import Cell
from ..nn.optim import Optimizer
from .check_report import CheckFinding, CheckReport, KINDS
from .check_rules import findings
from .stats import StatsRecorder
from .stats_measure import _read

__all__ = ['check', 'CheckReport', 'CheckFinding', 'KINDS']

# activation ops whose outputs are measured: op name -> what counts as dead or saturated
_DEAD_OPS = ('ReLU', 'ReLU6')
_SATURATING_OPS = ('Sigmoid', 'Tanh')


def check(net, *inputs, loss_fn=None, target=None, optimizer=None, lr=None, verbose=True,
          dead_above=0.9, saturated_above=0.95, saturation_margin=0.01, vanish_below=1e-3,
          explode_above=1e3, input_mean_above=2.0, input_std_above=5.0, input_std_below=0.05,
          update_above=0.1):
    """Run one forward and backward pass of ``net`` and report the traps that ruin training
    silently, each with the cell or parameter concerned and a one-line fix.

    The backward pass starts from ``loss_fn(net(*inputs), target)`` (``loss_fn(outputs)`` when
    ``target`` is None); without ``loss_fn``, from the sum over the floating-point outputs of
    ``mean(output * r)``, ``r`` a fixed standard-normal tensor of the output's shape (from a
    generator of its own: the global one is untouched). That gives every output element a
    gradient of its own, which no normalization of the outputs cancels (the gradient of
    ``mean(output ** 2)`` would vanish behind a final BatchNorm). A loss with more than one
    element is summed. The network runs in the mode it is in: the check reports that mode,
    it does not change it.

    What is found (``CheckFinding.kind``, thresholds as keyword arguments):

    - ``predict_mode``: a cell whose behaviour depends on the mode (BatchNorm, Dropout, any cell
      whose ``construct`` reads ``self.training`` or ``self.phase``) ran in predict mode. A new
      Cell starts in predict mode: BatchNorm then normalizes with its moving statistics and
      does not update them, Dropout does nothing. Fix: ``net.set_train()``.
    - ``no_gradient`` / ``zero_gradient``: a trainable parameter that no gradient reaches, or
      whose gradient is exactly zero everywhere.
    - ``dead``: a ReLU or ReLU6 (cell or functional op) whose outputs are zero (for ReLU6: 0 or
      6, where its gradient is zero too) for more than ``dead_above`` of the elements.
    - ``saturated``: a sigmoid or tanh whose outputs lie within ``saturation_margin`` of their
      bounds (0 and 1, -1 and 1) for more than ``saturated_above`` of the elements.
    - ``vanishing`` / ``exploding``: a layer (a cell holding trainable parameters, in the order
      the forward pass first uses them) whose gradient norm (over its own parameters) divided
      by the last layer's is below ``vanish_below`` or above ``explode_above``.
    - ``input_scale``: a floating-point input whose mean is beyond ``input_mean_above`` in
      absolute value, or whose standard deviation is above ``input_std_above`` or (non-zero)
      below ``input_std_below``; such as raw 0..255 pixels.
    - ``large_update``: with ``optimizer`` or ``lr``, a parameter whose first update would be
      more than ``update_above`` times its norm. The update is estimated from the gradient:
      ``lr * ||g||`` for SGD, Momentum and ASGD (times ``1 + momentum`` with Nesterov, and for
      ``lr`` alone), ``lr * sqrt(n)`` for Adam, AdamWeightDecay, LazyAdam and AdaMax (their
      first step moves each of the ``n`` elements with a non-zero gradient by about ``lr``), and
      ``lr * ||w||`` for Lamb. Weight decay is left out. Parameters whose norm is zero
      (biases at their start) are skipped.
    - ``not_optimized``: a trainable parameter of ``net`` that ``optimizer`` does not update.
    - ``nonfinite``: the loss or a gradient holds NaN or Inf (``nan_guard`` finds where);
      the gradient rules are then skipped.

    Args:
        net: the network (a Cell).
        *inputs: its inputs, as for a training step.
        loss_fn: None or a callable (a loss Cell) applied to the outputs.
        target: the second argument of ``loss_fn`` (the labels), if it takes one.
        optimizer: an ``nn.Optimizer`` (SGD, Momentum, ASGD, Adam, AdamWeightDecay, LazyAdam,
            AdaMax or Lamb) whose first update is estimated; its learning rate at its current
            step is read per parameter.
        lr: a learning rate (a number > 0) used as plain SGD's, instead of an optimizer.
        verbose: print the report. Default True.
        dead_above: fraction of zero outputs beyond which a ReLU layer is dead. Default 0.9.
        saturated_above: fraction of outputs at the bounds beyond which a sigmoid or tanh is
            saturated. Default 0.95.
        saturation_margin: how close to a bound an output counts as at it. Default 0.01.
        vanish_below: gradient-norm ratio (layer / last layer) below which it vanishes.
            Default 1e-3.
        explode_above: gradient-norm ratio above which it explodes. Default 1e3.
        input_mean_above: absolute input mean beyond which an input is not normalized.
            Default 2.0.
        input_std_above, input_std_below: the input standard deviations beyond which it is not
            normalized. Defaults 5.0 and 0.05.
        update_above: first-update-to-weight ratio above which the learning rate is too large.
            Default 0.1.

    Returns:
        CheckReport: the findings (``report.ok`` is True when there are none).

    Raises:
        TypeError: a net that is not a Cell, no inputs, a loss_fn that is not callable or does
            not return a Tensor, an optimizer that is not an ``nn.Optimizer`` or is not one of
            those above, or a threshold that is not a number.
        ValueError: a target without loss_fn, both optimizer and lr, a threshold out of its
            range, or a net without trainable parameters.

    >>> import hookgrad as ms
    >>> net = ms.nn.SequentialCell(ms.nn.Dense(3, 4), ms.nn.BatchNorm1d(4), ms.nn.ReLU())
    >>> report = check(net, ms.ops.randn(8, 3), verbose=False)
    >>> [(f.kind, f.cell, f.fix) for f in report]
    [('predict_mode', '1', 'net.set_train() before training')]
    >>> check(net.set_train(), ms.ops.randn(8, 3), verbose=False).ok
    True
    """
    rules = _check_arguments(net, inputs, loss_fn, target, optimizer, lr, verbose, dict(
        dead_above=dead_above, saturated_above=saturated_above,
        saturation_margin=saturation_margin, vanish_below=vanish_below,
        explode_above=explode_above, input_mean_above=input_mean_above,
        input_std_above=input_std_above, input_std_below=input_std_below,
        update_above=update_above))
    params = [(name, p) for name, p in net.parameters_and_names() if p.requires_grad]
    if not params:
        raise ValueError(f"check: {type(net).__name__} has no trainable parameter; there is "
                         f"nothing to train")
    rates = _learning_rates(optimizer, lr, params)      # refuses an optimizer before the pass
    m = _run(net, inputs, loss_fn, target, params, rules['saturation_margin'])
    m.lr = rates
    m.optimizer = None if optimizer is None else type(optimizer).__name__
    report = CheckReport(findings(m, rules), rules, m.loss, len(m.ran), len(params))
    if verbose:
        report.print()
    return report


class _Measurements:
    """What one checked pass measured, read to the host (the rules in check_rules.py read it).

    Attributes:
        root_training: the network's train flag.
        ran: ``{cell path: cell}`` of the cells that ran, in the order of their first call.
        mode_cells: ``[(path, cell)]`` of the mode-dependent cells that ran in predict mode.
        params: ``[(name, owner cell path)]`` of the trainable parameters.
        depth: the depth profile of the cells holding trainable parameters, in forward order
            (``StatsHistory.depth_profile``: each one's output-gradient norm and its ratio to
            the last layer's).
        grads: per parameter ``(squared norm of the finite values, non-zero count, non-finite
            count)``, or None when no gradient arrived.
        weight_norms: per parameter, the norm before the check.
        activations: ``[(cell path, op name, hits, count)]``: dead or saturated outputs.
        inputs: ``[(position, mean, std)]`` of the floating-point inputs.
        loss: the loss (a float).
        lr: None, or per parameter ``(rule, learning rate, factor)``: rule 'sgd', 'sign' or
            'lamb', the rate None for a parameter the optimizer does not update, and the factor
            of a first Nesterov step (``1 + momentum``; else 1).
        optimizer: the optimizer's class name, or None.
    """


def _run(net, inputs, loss_fn, target, params, margin):
    """One forward and backward pass with the probes on; everything put back afterwards."""
    paths = {id(cell): path for path, cell in net.cells_and_names()}
    owner = {}
    for path, cell in net.cells_and_names():
        for name, p in cell.parameters_and_names(name_prefix=path, expand=False):
            owner.setdefault(id(p), path)
    saved = [(p, p._data, p._data.copy()) for p in net.get_parameters()]
    generator = _random.generator()
    rng_state = generator.bit_generator.state
    probe = _Probe(paths, margin)
    handles = []
    layers = list(dict.fromkeys(owner.get(id(p), '') for _, p in params))
    recorder = None
    try:
        recorder = StatsRecorder(net, include=[re.compile('^' + re.escape(path) + '$')
                                               for path in layers],
                                 kinds=('grad_output',), params=False)
        for path, cell in net.cells_and_names():
            if _depends_on_mode(cell):
                handles.append(cell.register_forward_pre_hook(
                    in_this_thread(_ModeHook(probe, path))))
        with enable_grad():
            with probe:
                out = net(*inputs)
                loss = _loss(out, loss_fn, target)
            roots = [loss] if loss.requires_grad else []
            got = run_backward(roots, [backend.array_module(loss._data).ones(
                loss.shape, loss._data.dtype)], targets=[p for _, p in params]) if roots \
                else [None] * len(params)
    finally:
        for handle in handles:
            handle.remove()
        probe.disable()
        if recorder is not None:
            recorder.close()
        for p, array, copy in saved:
            backend.array_module(array).copyto(array, copy)
            p._data = array
        generator.bit_generator.state = rng_state
    m = _Measurements()
    m.root_training = net.training
    m.ran = probe.ran
    m.mode_cells = probe.mode_cells
    m.params = [(name, owner.get(id(p), '')) for name, p in params]
    m.depth = recorder.history.depth_profile()
    _read_values(m, probe, loss, got, [p for _, p in params],
                 {id(p): copy for p, _, copy in saved}, inputs)
    return m


def _read_values(m, probe, loss, got, params, before, inputs):
    """Reduce the gradients, weights, inputs and activation counts, and read them at once."""
    arrays = [loss._data.reshape(-1).astype(np.float64).sum().reshape(1)]
    for p, g in zip(params, got):
        arrays.append(_squared_norm(before[id(p)]))
        if g is not None:
            arrays.append(_grad_numbers(g._data if isinstance(g, Tensor) else g))
    positions = []
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x._data.dtype.kind in 'fV' and x._data.size > 1:
            positions.append(i)
            arrays.append(_spread(x._data))
    acts = [(key, hits) for key, counts in probe.acts.items() for hits in counts[0]]
    arrays += [hits.reshape(1).astype(np.float64) for _, hits in acts]
    values = iter(_to_host(arrays))
    m.loss = float(next(values)[0])
    m.weight_norms, m.grads = [], []
    for p, g in zip(params, got):
        m.weight_norms.append(math.sqrt(float(next(values)[0])))
        m.grads.append(None if g is None else tuple(float(v) for v in next(values)))
    m.inputs = [(i, *(float(v) for v in next(values))) for i in positions]
    hits = {}
    for key, _ in acts:
        hits[key] = hits.get(key, 0.0) + float(next(values)[0])
    m.activations = [(path, op, hits[(path, op)], counts[1][0])
                     for (path, op), counts in probe.acts.items()]


def _grad_numbers(g):
    """``[squared norm of the finite values, non-zero count, non-finite count]`` of a gradient,
    as a float64 vector (on its device)."""
    f = g.reshape(-1)
    if backend.is_host(f):          # one dot product and one count, unless it is not finite
        sq = float(np.dot(f, f))
        if math.isfinite(sq):
            return np.array([sq, np.count_nonzero(f), 0.0])
    xp = backend.array_module(f)
    f = f.astype(np.float64)
    finite = xp.isfinite(f)
    h = xp.where(finite, f, 0)
    return xp.stack([h @ h, (f != 0).sum().astype(np.float64),
                     (~finite).sum().astype(np.float64)])


def _squared_norm(a):
    """``[sum of squares]`` of an array as a float64 vector (on its device)."""
    f = a.reshape(-1)
    if backend.is_host(f):
        sq = float(np.dot(f, f))
        if math.isfinite(sq):
            return np.array([sq])
    f = f.astype(np.float64)
    return (f @ f).reshape(1)


def _spread(a):
    """``[mean, std]`` of an array's finite values, as a float64 vector on its device."""
    xp = backend.array_module(a)
    f = a.reshape(-1).astype(np.float64)
    finite = xp.isfinite(f)
    n = xp.maximum(finite.sum(), 1)
    mean = xp.where(finite, f, 0).sum() / n
    c = xp.where(finite, f - mean, 0)
    return xp.stack([mean, xp.sqrt((c @ c) / n)])


def _to_host(arrays):
    """Host copies of 1-D arrays; those on a device are read in one transfer."""
    out = list(arrays)
    on_device = [i for i, a in enumerate(out) if not backend.is_host(a)]
    if on_device:
        for i, a in zip(on_device, _read([out[i] for i in on_device])):
            out[i] = a
    return out


def _loss(out, loss_fn, target):
    """The scalar the backward pass starts from."""
    if loss_fn is None:
        outs = [o for o in _flat(out) if isinstance(o, Tensor) and o._data.dtype.kind in 'fV']
        if not outs:
            raise TypeError(f"check: the network returned no floating-point Tensor (got "
                            f"{type(out).__name__}); give a loss_fn")
        loss = None
        rng = np.random.default_rng(0)      # its own generator: the global one is untouched
        for o in outs:
            r = rng.standard_normal(o.shape).astype(o._data.dtype)
            term = (o * Tensor._wrap(backend.to_device(r, backend.device_of(o._data)))).mean()
            loss = term if loss is None else loss + term
        return loss
    loss = loss_fn(out) if target is None else loss_fn(out, target)
    if not isinstance(loss, Tensor) or loss._data.dtype.kind not in 'fV':
        raise TypeError(f"check: loss_fn must return a floating-point Tensor, got "
                        f"{type(loss).__name__}" + (f" of dtype {loss.dtype}"
                                                     if isinstance(loss, Tensor) else ''))
    return loss.sum() if loss.ndim else loss


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [item for v in value for item in _flat(v)]
    if isinstance(value, dict):
        return [item for v in value.values() for item in _flat(v)]
    return [value]


class _Probe(OpObserver):
    """Sees the forward ops: which cells ran, and the outputs of the activation ops (counts of dead or saturated elements, kept on their
    device until the pass ends)."""

    def __init__(self, paths, margin):
        self.paths = paths                  # id(cell) -> path in the net
        self.margin = margin
        self.ran = {}                       # path -> cell, in the order of first call
        self.mode_cells = []                # (path, cell) run in predict mode
        self.acts = {}                      # (path, op) -> ([hit counts], element count)

    def on_forward(self, call):
        if call.phase != 'forward':
            return
        path = None
        for cell in call.cells():
            path = self.paths.get(id(cell))
            if path is not None:
                for c in reversed(call.cells()):
                    p = self.paths.get(id(c))
                    if p is not None and p not in self.ran:
                        self.ran[p] = c
                break
        name = call.name
        if path is None or name not in _DEAD_OPS + _SATURATING_OPS:
            return
        a = call.outputs[0]
        if a.dtype.kind not in 'fV' or a.size == 0:
            return
        xp = backend.array_module(a)
        if name == 'ReLU':
            hits = (a == 0).sum()
        elif name == 'ReLU6':
            hits = ((a <= 0) | (a >= 6)).sum()
        elif name == 'Sigmoid':
            hits = ((a <= self.margin) | (a >= 1 - self.margin)).sum()
        else:
            hits = (xp.abs(a) >= 1 - self.margin).sum()
        entry = self.acts.get((path, name))
        if entry is None:
            entry = self.acts[(path, name)] = ([], [0])
        entry[0].append(hits)
        entry[1][0] += a.size

    def mode_call(self, path, cell):
        if path not in self.ran:
            self.ran[path] = cell
        if not cell.training and all(p != path for p, _ in self.mode_cells):
            self.mode_cells.append((path, cell))


class _ModeHook:
    """``hook(cell, inputs)`` on a mode-dependent cell: notes a call in predict mode."""

    __slots__ = ('probe', 'path')

    def __init__(self, probe, path):
        self.probe = probe
        self.path = path

    def __call__(self, cell, inputs):
        self.probe.mode_call(self.path, cell)


_READS_MODE = re.compile(r'\bself\s*\.\s*(training|phase)\b')
_reads_mode_cache = weakref.WeakKeyDictionary()


def _depends_on_mode(cell):
    """Whether the cell behaves differently in train and predict mode: its ``construct`` reads
    ``self.training`` or ``self.phase``, unless it is a BatchNorm with ``use_batch_statistics``
    fixed or a Dropout with a drop probability of 0."""
    if getattr(cell, 'use_batch_statistics', None) is not None:
        return False
    if type(cell).__name__.startswith('Dropout') and getattr(cell, 'p', None) == 0:
        return False
    cls = type(cell)
    known = _reads_mode_cache.get(cls)
    if known is None:
        known = False
        construct = getattr(cls, 'construct', None)
        if construct is not None and construct is not Cell.construct:
            try:
                known = bool(_READS_MODE.search(inspect.getsource(construct)))
            except (OSError, TypeError):
                known = False
        _reads_mode_cache[cls] = known
    return known


def _learning_rates(optimizer, lr, params):
    """None, or per parameter ``(rule, learning rate or None, factor)`` for the large-update
    rule (see ``_Measurements.lr``)."""
    if optimizer is None and lr is None:
        return None
    if optimizer is None:
        return [('sgd', float(lr), 1.0)] * len(params)
    from ..nn.optim import SGD, Momentum, ASGD, Adam, AdamWeightDecay, LazyAdam, AdaMax, Lamb
    families = (((SGD, Momentum, ASGD), 'sgd'), ((Adam, AdamWeightDecay, LazyAdam, AdaMax),
                                                  'sign'), ((Lamb,), 'lamb'))
    rule = next((r for classes, r in families if isinstance(optimizer, classes)), None)
    if rule is None:
        raise TypeError(f"check: the first update of {type(optimizer).__name__} is not "
                        f"estimated; give an SGD, Momentum, ASGD, Adam, AdamWeightDecay, "
                        f"LazyAdam, AdaMax or Lamb optimizer, or lr= to estimate it as SGD's")
    scale = 1.0
    if getattr(optimizer, 'nesterov', False) or getattr(optimizer, 'use_nesterov', False):
        scale += float(np.asarray(backend.to_host(_plain(optimizer.momentum))).reshape(-1)[0])
    updated = {id(p) for p in optimizer.parameters}
    step = int(backend.to_host(optimizer.global_step._data).reshape(-1)[0])
    out, rates = [], {}         # rates: id(holder) -> rate, each holder read once
    for _, p in params:
        if id(p) not in updated:
            out.append((rule, None, scale))
            continue
        holder = optimizer.get_lr_parameter(p)
        rate = rates.get(id(holder))
        if rate is None:
            if isinstance(holder, Cell):            # a LearningRateSchedule
                value = holder(optimizer.global_step)
                rate = float(backend.to_host(_plain(value)).reshape(-1)[0])
            else:
                values = backend.to_host(holder._data).reshape(-1)
                rate = float(values[min(step, values.size - 1)])
            rates[id(holder)] = rate
        out.append((rule, rate, scale))
    return out


def _plain(value):
    """The array of a Tensor, or the value itself."""
    return value._data if isinstance(value, Tensor) else np.asarray(value)


# ------------------------------------------------------------------------ arguments
_FRACTIONS = ('dead_above', 'saturated_above')


def _check_arguments(net, inputs, loss_fn, target, optimizer, lr, verbose, rules):
    if not isinstance(net, Cell):
        raise TypeError(f"check: net must be a Cell, got {type(net).__name__}")
    if not inputs:
        raise TypeError("check: expected at least one input for the network")
    if loss_fn is not None and not callable(loss_fn):
        raise TypeError(f"check: loss_fn must be callable or None, got {type(loss_fn).__name__}")
    if target is not None and loss_fn is None:
        raise ValueError("check: target is given without a loss_fn to take it")
    if optimizer is not None and not isinstance(optimizer, Optimizer):
        raise TypeError(f"check: optimizer must be an nn.Optimizer or None, got "
                        f"{type(optimizer).__name__}")
    if optimizer is not None and lr is not None:
        raise ValueError("check: give optimizer or lr, not both")
    if lr is not None:
        _number('lr', lr, 0.0, math.inf)
    if not isinstance(verbose, bool):
        raise TypeError(f"check: verbose must be True or False, got {verbose!r}")
    for name in _FRACTIONS:
        _number(name, rules[name], 0.0, 1.0, high_open=True)
    _number('saturation_margin', rules['saturation_margin'], 0.0, 0.5, high_open=True)
    _number('vanish_below', rules['vanish_below'], 0.0, 1.0, high_open=True)
    _number('explode_above', rules['explode_above'], 1.0, math.inf)
    for name in ('input_mean_above', 'input_std_above', 'update_above'):
        _number(name, rules[name], 0.0, math.inf)
    _number('input_std_below', rules['input_std_below'], 0.0, rules['input_std_above'],
            high_open=True)
    return {k: float(v) for k, v in rules.items()}


def _number(name, value, low, high, high_open=False):
    """A finite number in (low, high] (or (low, high) with ``high_open``), else an error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"check: {name} must be a number, got {type(value).__name__}")
    bad = not math.isfinite(value) or value <= low or (value >= high if high_open
                                                        else value > high)
    if bad:
        top = '' if high == math.inf else f" and {'below' if high_open else 'at most'} {high:g}"
        raise ValueError(f"check: {name} must be above {low:g}{top}, got {value!r}")

