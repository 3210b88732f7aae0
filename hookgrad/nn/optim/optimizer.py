"""Optimizer: the base class of hookgrad's optimizers (MindSpore's ``nn.Optimizer``).

An optimizer is a Cell called with one gradient per parameter, in the order of
``optimizer.parameters``::

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)
    (loss, _), grads = grad_fn(x, y)
    optimizer(grads)

How a step runs: the gradients are checked first (count, type, shape, dtype, each error naming
the parameter) and the learning rates of the step computed, so a failing step changes nothing.
Then the parameters' arrays are updated in place, block by block (see segment.py): the
gradients of a block (several small parameters, or a slice of a large one) are gathered into one
flat array, the update is computed with a handful of whole-array NumPy calls into preallocated
scratch, and each parameter is decremented by its slice of it. Optimizer state (moments...) is
one flat array per segment; each state Parameter is a view of its slice, so it can be saved and
loaded like any parameter (state loaded with ``set_data`` is copied back in before the next
step). Gradients are not checked for NaN or infinity: the update is plain arithmetic on them.

Weight decay follows MindSpore: without groups it applies to the parameters whose names contain
neither 'beta' nor 'gamma' (FTRL decays every parameter, as MindSpore's FTRL does); with
groups, to every parameter of a group whose weight decay is positive.
"""
import math
import numbers

import numpy as np

from ...kernels import threads as _threads
from ...kernels.backend import device_of, is_device_array, to_device
from ..._tensor import Tensor
from ...autograd.function import effect
from ..cell import Cell
from ..parameter import Parameter, ParameterTuple
from .lr import LearningRateSchedule, _IteratorLearningRate
from .segment import Segment

__all__ = ['Optimizer']

_GROUP_KEYS = ('params', 'lr', 'weight_decay', 'grad_centralization', 'order_params')
# Update rules that read and write only their block's arrays (see ``Optimizer._rule``)
_BLOCK_LOCAL_RULES = set()


def _who(opt):
    return f"nn.{type(opt).__name__}"


def _nonneg(value, arg, who):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{who}: {arg} must be a float or int, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{who}: {arg} must be a finite number >= 0, got {value}")
    return value


def _weight_decay(value, arg, who):
    """A float >= 0, or a Cell: a schedule called with the global step each step."""
    if isinstance(value, Cell):
        return value
    return _nonneg(value, arg, who)


def _lr_spec(value, arg, who):
    """``('static', float)``, ``('list', float32 array)`` or ``('schedule', cell)``."""
    if isinstance(value, LearningRateSchedule):
        return 'schedule', value
    if isinstance(value, Tensor):
        data = value._data
        if data.ndim == 0:
            return 'static', _nonneg(float(data), arg, who)
        if data.ndim > 1:
            raise ValueError(f"{who}: {arg} as a Tensor must be 0-d (fixed) or 1-d (one value per "
                             f"step), got shape {value.shape}")
        values = data
    elif isinstance(value, numbers.Real) and not isinstance(value, bool):
        return 'static', _nonneg(value, arg, who)
    elif isinstance(value, (str, bytes, dict, Cell)) or not hasattr(value, '__iter__'):
        raise TypeError(f"{who}: {arg} must be a float, an int, a Tensor, a list of per-step "
                        f"values or a LearningRateSchedule, got {type(value).__name__}")
    else:
        items = list(value)
        if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in items):
            raise TypeError(f"{who}: {arg} as a list must hold numbers, one per step")
        values = np.asarray(items, dtype=np.float64)
    values = np.asarray(values, dtype=np.float32)
    if values.size == 0:
        raise ValueError(f"{who}: {arg} as a list of per-step values must not be empty")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError(f"{who}: every per-step value of {arg} must be a finite number >= 0")
    return 'list', values


def _param_items(parameters, who):
    if parameters is None:
        raise ValueError(f"{who}: parameters must be a list of Parameters or of group dicts, "
                         f"got None")
    if isinstance(parameters, (Tensor, dict, str)) or not hasattr(parameters, '__iter__'):
        raise TypeError(f"{who}: parameters must be a list of Parameters or of group dicts "
                        f"(e.g. net.trainable_params()), got {type(parameters).__name__}")
    items = list(parameters)
    if not items:
        raise ValueError(f"{who}: parameters must not be empty")
    kind = Parameter if isinstance(items[0], Parameter) else dict
    for i, item in enumerate(items):
        if not isinstance(item, kind) or not isinstance(item, (Parameter, dict)):
            raise TypeError(f"{who}: parameters must be all Parameters or all group dicts; item "
                            f"{i} is a {type(item).__name__}")
    return items


def _group_params(group, g, who):
    params = group['params']
    if isinstance(params, (Tensor, dict, str)) or not hasattr(params, '__iter__'):
        raise TypeError(f"{who}: group {g} 'params' must be a list of Parameters, got "
                        f"{type(params).__name__}")
    params = list(params)
    if not params:
        raise ValueError(f"{who}: group {g} 'params' must not be empty")
    for i, p in enumerate(params):
        if not isinstance(p, Parameter):
            raise TypeError(f"{who}: group {g} 'params' item {i} must be a Parameter, got "
                            f"{type(p).__name__}")
    return params


def _scalar_lr(out, who):
    if isinstance(out, Tensor) and out._data.size == 1:
        return float(out._data.reshape(()))
    if isinstance(out, numbers.Real) and not isinstance(out, bool):
        return float(out)
    shape = out.shape if isinstance(out, Tensor) else type(out).__name__
    raise TypeError(f"{who}: the learning-rate schedule must return a one-element Tensor, got "
                    f"{shape}")


def _call_cell(cell, args, kwargs):
    return Cell.__call__(cell, *args, **kwargs)


class Optimizer(Cell):
    """Base class of optimizers; instantiate a subclass (``nn.SGD``, ``nn.Adam``...).

    Args:
        learning_rate: a float or int >= 0 or a 0-d Tensor (fixed); a list, tuple or 1-d
            Tensor (value i at step i; a step past its end raises); or a
            ``LearningRateSchedule`` (called with ``global_step`` every step).
        parameters: a list of Parameters, or of group dicts with the keys 'params' (required,
            a list of Parameters), 'lr', 'weight_decay' and 'grad_centralization' (a bool:
            centralize the gradients of rank >= 2 whose second dimension is a multiple of
            16), plus at most one ``{'order_params': [...]}`` giving the parameters' order.
        weight_decay: L2 penalty added to the gradient, a float or int >= 0. Default 0.0.
        loss_scale: gradients are divided by it before the update, a number > 0. Default 1.0.

    Inputs:
        gradients: a tuple with one gradient (Tensor or NumPy array) per parameter, in the
            order of ``self.parameters``.

    Outputs:
        True, once every parameter has been updated.

    Raises:
        TypeError / ValueError / KeyError: for invalid arguments, naming the argument. At call
            time, for a wrong number of gradients, a missing or None gradient or one of the
            wrong shape or type, naming the parameter; nothing is updated then.
    """

    _decay_all = False      # True: decay every parameter, not only those without beta/gamma
    _decay = 'before'       # where weight decay joins the gradient (None: the rule applies it)
    _centralizes = True     # whether the subclass applies grad_centralization

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        who = _who(self)
        items = _param_items(parameters, who)
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, numbers.Real):
            raise TypeError(f"{who}: loss_scale must be a number > 0, got {loss_scale!r}")
        if not math.isfinite(loss_scale) or loss_scale <= 0:
            raise ValueError(f"{who}: loss_scale must be a finite number > 0, got {loss_scale}")
        self.loss_scale = float(loss_scale)
        default_wd = _weight_decay(weight_decay, 'weight_decay', who)
        default_lr = _lr_spec(learning_rate, 'learning_rate', who)
        self.is_group = isinstance(items[0], dict)
        groups = items if self.is_group else [{'params': items}]
        params, specs, wds, gcs, order = self._parse_groups(groups, default_lr, default_wd, who)
        _check_unique(params, who)
        if order is not None:
            params, specs, wds, gcs = _reorder(order, params, specs, wds, gcs, who)
        self.is_group_lr = any('lr' in g for g in groups)
        self.dynamic_lr = any(s[1][0] != 'static' for s in specs)
        lengths = {s[1][1].shape[0] for s in specs if s[1][0] == 'list'}
        if len(lengths) > 1:
            raise ValueError(f"{who}: the per-step learning-rate lists must all have the same "
                             f"length, got lengths {sorted(lengths)}")
        self.global_step = Parameter(np.zeros(1, np.int32), name='global_step',
                                     requires_grad=False, device='CPU')     # read on the host
        slots, slot_of = self._build_slots(specs, who)
        if not self._decay_all and not self.is_group:
            wds = [wd if _decays(p) else 0.0 for p, wd in zip(params, wds)]
        # the network's weights: not registered as this cell's parameters (MindSpore registers
        # them, and renames the network's weights when an optimizer is nested in a cell)
        object.__setattr__(self, 'parameters', ParameterTuple(params))
        self.weight_decay = tuple(wds) if self.is_group else default_wd
        self.dynamic_weight_decay = any(isinstance(wd, Cell) for wd in wds)
        self.decay_flags = tuple(isinstance(wd, Cell) or wd > 0 for wd in wds)
        self.grad_centralization = any(gcs)
        self._slots = slots
        self._shapes = tuple(p.shape for p in params)
        self._wds = tuple(wds)
        keyed = {}
        for i, p in enumerate(params):
            keyed.setdefault((p._data.dtype, slot_of[i], wds[i]), []).append(i)
        self._segments = tuple(Segment(idx, [params[i] for i in idx], key[1], key[2],
                                       [gcs[i] for i in idx]) for key, idx in keyed.items())
        self._links = []

    # ----------------------------------------------------------------- construction
    def _parse_groups(self, groups, default_lr, default_wd, who):
        params, specs, wds, gcs, order = [], [], [], [], None
        for g, group in enumerate(groups):
            unknown = [k for k in group if k not in _GROUP_KEYS]
            if unknown:
                raise KeyError(f"{who}: group {g} has unknown keys {unknown}; the keys are "
                               f"{list(_GROUP_KEYS)}")
            if 'order_params' in group:
                if len(group) > 1 or order is not None:
                    raise ValueError(f"{who}: 'order_params' must be alone in its dict and "
                                     f"given once, got the keys {list(group)} in group {g}")
                order = group['order_params']
                continue
            if 'params' not in group:
                raise KeyError(f"{who}: group {g} has no 'params' key")
            ps = _group_params(group, g, who)
            spec = (f'learning_rate_group_{g}', _lr_spec(group['lr'], f"group {g} 'lr'", who)) \
                if 'lr' in group else ('learning_rate', default_lr)
            wd = _weight_decay(group['weight_decay'], f"group {g} 'weight_decay'", who) \
                if 'weight_decay' in group else default_wd
            gc = group.get('grad_centralization', False)
            if not isinstance(gc, bool):
                raise TypeError(f"{who}: group {g} 'grad_centralization' must be a bool, got "
                                f"{gc!r}")
            if gc and not self._centralizes:
                raise ValueError(f"{who} does not apply grad_centralization (group {g})")
            params += ps
            specs += [spec] * len(ps)
            wds += [wd] * len(ps)
            gcs += [gc] * len(ps)
        if not params:
            raise ValueError(f"{who}: the parameter groups hold no parameters")
        return params, specs, wds, gcs, order

    def _build_slots(self, specs, who):
        """One learning-rate holder per distinct spec; ``self.learning_rate`` as MindSpore's."""
        slots, index, slot_of = [], {}, []
        for name, spec in specs:
            if name not in index:
                kind, value = spec
                if kind == 'static':
                    slot = Parameter(np.array(value, np.float32), name=name, requires_grad=False,
                                     device='CPU')      # read on the host each step
                elif kind == 'list':
                    slot = _IteratorLearningRate(value, name, who)
                else:
                    slot = value
                index[name] = len(slots)
                slots.append((name, slot))
            slot_of.append(index[name])
        for name, slot in slots:
            setattr(self, name, slot)          # a Parameter or a schedule Cell
        if self.is_group_lr:
            self.learning_rate = tuple(slots[s][1] for s in slot_of)
        return tuple(slot for _, slot in slots), slot_of

    def _add_state(self, prefix, fill):
        """State named ``<prefix>.<parameter name>``, ``fill`` everywhere, one per parameter."""
        state = [None] * len(self.parameters)
        for seg in self._segments:
            flat = seg.xp.full(seg.size, fill, seg.dtype)      # on the parameters' device
            seg.add_state(prefix, flat)
            for i, view in zip(seg.index, seg.views(flat)):
                p = self.parameters[i]
                s = Parameter(np.zeros(()), name=f"{prefix}.{p.name if p.name else i}",
                              requires_grad=False, device='CPU')
                s._data = view
                state[i] = s
                self._links.append((s, view, seg))
        for s in state:
            self.insert_param_to_cell(s.name, s, check_name_contain_dot=False)
        return ParameterTuple(state)

    # ----------------------------------------------------------------- the step
    def __call__(self, *args, **kwargs):
        # the update writes parameters and state in place: one effect in a graph-mode program
        return effect(_call_cell, self, args, kwargs)

    def construct(self, gradients):
        grads = self._check_gradients(gradients)
        lrs = self._lr_values()
        scalars = self._begin()
        self._sync_state()
        if self.dynamic_weight_decay:
            self._scheduled_decays()
        for seg in self._segments:
            if seg.xp is not np and self._fused_step(seg, grads, lrs[seg.slot], scalars):
                continue
            seg.prepare(grads)
            lr = lrs[seg.slot]
            runs = seg.scratch_runs
            if (len(runs) > 2 and 3 * seg.size >= _threads.SPLIT_MIN
                    and type(self)._rule in _BLOCK_LOCAL_RULES):
                # whole runs of blocks, each with its own scratch, on free cores
                _threads.split(lambda lo, hi, seg=seg, lr=lr, runs=runs: self._update(
                    seg.blocks[runs[lo]:runs[hi]], grads, lr, scalars), len(runs) - 1,
                    3 * seg.size)
            else:
                self._update(seg.blocks, grads, lr, scalars)
        self._end(scalars)
        if self.dynamic_lr or self.dynamic_weight_decay:
            self.global_step._data += 1
        return True

    def _decay_value(self, wd):
        """A weight decay's value this step: a schedule (a Cell) called with the global step."""
        if not isinstance(wd, Cell):
            return wd
        out = _call_cell(wd, (Tensor._wrap(self.global_step._data.copy()),), {})
        return _scalar_lr(out, f"{_who(self)}: the weight_decay schedule")

    def _scheduled_decays(self):
        """Give the blocks of segments with a scheduled weight decay this step's value."""
        for seg in self._segments:
            if isinstance(seg.weight_decay, Cell):
                value = self._decay_value(seg.weight_decay)
                for block in seg.blocks:
                    block.weight_decay = value

    def get_weight_decay(self):
        """This step's weight decay: a float, or a tuple of one per group (schedules called with
        the global step), as MindSpore's ``Optimizer.get_weight_decay``."""
        if self.is_group:
            return tuple(self._decay_value(wd) for wd in self.weight_decay)
        return self._decay_value(self.weight_decay)

    def _begin(self):
        """The step's scalars (momentum, bias corrections); must not change any state."""
        raise NotImplementedError(f"{_who(self)}: nn.Optimizer is a base class: use nn.SGD, "
                                  f"nn.Momentum, nn.Adam or nn.AdamWeightDecay, or subclass it "
                                  f"and define construct(gradients)")

    def _update(self, blocks, grads, lr, scalars):
        """Update the parameters of ``blocks`` in place, one block after another."""
        decay, scale = self._decay, self.loss_scale
        for block in blocks:
            g = block.gather(grads)
            if decay is not None and (block.weight_decay or block.centralize or scale != 1.0):
                self._gradient(block, g, decay, scale)
            self._rule(block, g, block.t, lr, scalars)
            block.apply()

    def _fused_step(self, seg, grads, lr, scalars):
        """Update a device segment with one fused kernel (kernels/fused.py) over its flat
        parameters and state; False when this optimizer has none for it (``_fused_rule``)."""
        block = seg.blocks[0]
        if seg.dtype.kind == 'V' or not _fuses(type(self)) or \
                not self._fused_rule(seg.xp, block, None, None, lr, scalars, check=True):
            return False        # bfloat16 ('V'): the CUDA C kernels are written for float types
        g = block.gather(grads)
        decay, scale = self._decay, self.loss_scale
        if decay is not None and (block.weight_decay or block.centralize or scale != 1.0):
            self._gradient(block, g, decay, scale)
        self._fused_rule(seg.xp, block, g, seg.flat_params(), lr, scalars)
        return True

    def _fused_rule(self, xp, block, g, w, lr, scalars, check=False):
        """Apply the update to the flat parameters ``w`` and the block's state in one kernel;
        with ``check``, only say whether there is such a kernel (the default: none)."""
        return False

    def _rule(self, block, g, t, lr, scalars):
        """Write the block's update (the amount to subtract) into ``t``; ``g`` may be reused.
        Rules in ``_BLOCK_LOCAL_RULES`` touch only their block's arrays, so that a large
        segment's blocks may run on several cores at once; any other rule runs them in
        order on one."""
        raise NotImplementedError(f"{_who(self)} defines no update rule")

    def _end(self, scalars):
        """Store the step's scalar state (after every parameter has been updated)."""

    def _check_gradients(self, gradients):
        """The gradients' arrays, after checking them all against the parameters."""
        who, params = _who(self), self.parameters
        if not isinstance(gradients, (tuple, list)):
            raise TypeError(f"{who}: expected a tuple of gradients, one per parameter, got "
                            f"{type(gradients).__name__}")
        if len(gradients) != len(params):
            missing = '' if len(gradients) > len(params) else \
                f"; parameter '{params[len(gradients)].name}' has none"
            raise ValueError(f"{who}: got {len(gradients)} gradients for {len(params)} "
                             f"parameters{missing}")
        arrays = []
        for p, shape, g in zip(params, self._shapes, gradients):
            if isinstance(g, Tensor):
                a = g._data
            elif isinstance(g, np.ndarray) or is_device_array(g):
                a = g
            elif g is None:
                raise ValueError(f"{who}: the gradient for parameter '{p.name}' is None")
            else:
                raise TypeError(f"{who}: the gradient for parameter '{p.name}' must be a "
                                f"Tensor, got {type(g).__name__}")
            if a.shape != shape:
                raise ValueError(f"{who}: the gradient for parameter '{p.name}' has shape "
                                 f"{a.shape}, but the parameter has shape {shape}")
            if a.dtype.kind not in 'fV':
                raise TypeError(f"{who}: the gradient for parameter '{p.name}' must be "
                                f"floating point, got {a.dtype}")
            arrays.append(a)
        return arrays

    def _lr_values(self):
        """The learning rate of each slot at the current step (nothing changes)."""
        if not self.dynamic_lr:
            return [float(s._data) for s in self._slots]
        step, who = self.global_step, _who(self)
        return [float(s._data) if isinstance(s, Parameter) else _scalar_lr(s(step), who)
                for s in self._slots]

    def _sync_state(self):
        """Copy back state replaced through ``set_data`` (a checkpoint load) into the buffers."""
        for s, view, seg in self._links:
            if s._data is not view:
                view[...] = to_device(s._data, device_of(view))
                s._data = view
                for block in seg.blocks:
                    block.mode = None

    def _gradient(self, block, g, decay, scale):
        """Turn ``g`` into the gradient the update uses, as MindSpore's optimizers form it.

        decay 'before' (Momentum, Adam): ``g + wd * loss_scale * w``, centralized, divided by
        loss_scale. 'after' (SGD): centralized, divided by loss_scale, then ``+ wd * w``.
        """
        wd = block.weight_decay
        if wd and decay == 'before':
            t = block.gather_params(block.t)
            t *= wd * scale
            g += t
        for v, axes in block.centralize:
            v -= v.mean(axis=axes, keepdims=True)
        if scale != 1.0:
            g *= 1.0 / scale
        if wd and decay == 'after':
            t = block.gather_params(block.t)
            t *= wd
            g += t

    # ----------------------------------------------------------------- MindSpore's helpers
    def get_lr(self):
        """The learning rate of the current step; a dynamic rate also advances ``global_step``.

        Returns:
            The ``learning_rate`` Parameter for a fixed rate; a 0-d Float32 Tensor for a
            dynamic one; with per-group rates, a tuple with one entry per parameter.
        """
        if not self.dynamic_lr:
            return self.learning_rate
        values = self._lr_values()
        self.global_step._data += 1
        rates = [Tensor._wrap(np.asarray(v, np.float32)) for v in values]
        if self.is_group_lr:
            index = {id(s): i for i, s in enumerate(self._slots)}
            return tuple(rates[index[id(s)]] for s in self.learning_rate)
        return rates[0]

    def get_lr_parameter(self, param):
        """The learning-rate holder of ``param`` (a Parameter) or of each in a list of them.

        Returns the learning-rate Parameter (fixed rate or per-step list) or the
        LearningRateSchedule that gives its rate.

        Raises:
            TypeError: for something other than a Parameter or a list of them.
            ValueError: for a Parameter this optimizer does not update.
        """
        who = _who(self)
        if isinstance(param, Parameter):
            wanted = [param]
        elif isinstance(param, list) and all(isinstance(p, Parameter) for p in param):
            wanted = param
        else:
            raise TypeError(f"{who}.get_lr_parameter: expected a Parameter or a list of "
                            f"Parameters, got {type(param).__name__}")
        ids = [id(p) for p in self.parameters]
        out = []
        for p in wanted:
            if id(p) not in ids:
                raise ValueError(f"{who}.get_lr_parameter: parameter '{p.name}' is not updated "
                                 f"by this optimizer")
            slot = self.learning_rate[ids.index(id(p))] if self.is_group_lr \
                else self.learning_rate
            out.append(slot.learning_rate if isinstance(slot, _IteratorLearningRate) else slot)
        return out if isinstance(param, list) else out[0]

    def decay_weight(self, gradients):
        """The gradients plus ``weight_decay * loss_scale * parameter`` where decay applies.

        For optimizers written as subclasses; returns a tuple of new Tensors.
        """
        arrays = self._check_gradients(gradients)
        wds = [self._decay_value(wd) for wd in self._wds]
        return tuple(Tensor._wrap(a + (wd * self.loss_scale) * p._data if wd else a.copy())
                     for a, p, wd in zip(arrays, self.parameters, wds))

    def gradients_centralization(self, gradients):
        """The gradients centralized where the parameter's group asks for it (a new tuple)."""
        arrays = self._check_gradients(gradients)
        flags = [False] * len(arrays)
        for seg in self._segments:
            for i, flag in zip(seg.index, seg.gc_flags):
                flags[i] = flag
        return tuple(Tensor._wrap(a - a.mean(axis=tuple(range(1, a.ndim)), keepdims=True)
                                  if flag else a.copy()) for a, flag in zip(arrays, flags))

    def scale_grad(self, gradients):
        """The gradients divided by ``loss_scale`` (a new tuple)."""
        arrays = self._check_gradients(gradients)
        return tuple(Tensor._wrap(a * a.dtype.type(1.0 / self.loss_scale)) for a in arrays)


def _fuses(cls):
    """Whether ``cls``'s fused kernel is the update of its ``_rule``: both come from one
    class (a subclass that changes ``_rule`` alone gets its own rule, unfused)."""
    for owner in cls.__mro__:
        if '_fused_rule' in owner.__dict__:
            return owner is not Optimizer and cls._rule is owner.__dict__['_rule']
    return False


def _decays(p):
    name = p.name or ''
    return 'beta' not in name and 'gamma' not in name


def _reorder(order, params, specs, wds, gcs, who):
    if isinstance(order, (Tensor, dict, str)) or not hasattr(order, '__iter__'):
        raise TypeError(f"{who}: 'order_params' must be a list of Parameters, got "
                        f"{type(order).__name__}")
    order = list(order)
    position = {id(p): i for i, p in enumerate(params)}
    if len(order) != len(params):
        raise ValueError(f"{who}: 'order_params' lists {len(order)} parameters, but the groups "
                         f"hold {len(params)}; it must list each of them once")
    picked = []
    for p in order:
        i = position.get(id(p))
        if i is None:
            raise ValueError(f"{who}: 'order_params' lists parameter "
                             f"'{getattr(p, 'name', p)}', which is in no group")
        picked.append(i)
    if len(set(picked)) != len(picked):
        raise ValueError(f"{who}: 'order_params' lists a parameter twice")
    return ([params[i] for i in picked], [specs[i] for i in picked], [wds[i] for i in picked],
            [gcs[i] for i in picked])


def _check_unique(params, who):
    seen, names = set(), {}
    for i, p in enumerate(params):
        if id(p) in seen:
            raise ValueError(f"{who}: parameter '{p.name}' is given twice; each parameter may "
                             f"appear once")
        seen.add(id(p))
        if p._data.dtype.kind not in 'fV':
            raise TypeError(f"{who}: parameter '{p.name}' has dtype {p.dtype}; only floating "
                            f"point parameters can be optimized")
        if p.name is not None:
            if p.name in names:
                raise ValueError(f"{who}: parameters {names[p.name]} and {i} are both named "
                                 f"'{p.name}'; names must be unique (the state is named after "
                                 f"them)")
            names[p.name] = i


from .init_args import opt_init_args_register  # noqa: E402,F401  (MindSpore imports it here)
