"""``mindspore.mint.optim``: PyTorch-style ``SGD``, ``Adam`` and ``AdamW``.

As in MindSpore, an optimizer is a Cell called with the gradients, one per parameter in the
order of its groups: ``optimizer(grads)``. ``params`` is a list of Parameters or of groups
(dicts with ``'params'`` and any per-group option). The state (momentum buffers, moments) is
Parameters beside the weights; the updates are whole-tensor ops written into the weights.
"""
import numbers

import numpy as np

from .. import ops
from ..autograd.function import effect
from ..nn.cell import Cell
from ..nn.parameter import Parameter, ParameterTuple
from ..compat.names import reporter as _reporter

__all__ = ['SGD', 'Adam', 'AdamW', 'FusedAdamW']


def _groups(name, params, defaults):
    params = list(params)
    if not params:
        raise ValueError("For 'Optimizer', the argument params must not be empty.")
    groups = params if isinstance(params[0], dict) else [{'params': params}]
    result = []
    for group in groups:
        group = dict(group)
        group['params'] = list(group['params'])
        for p in group['params']:
            if not isinstance(p, Parameter):
                raise TypeError(f"mint.optim.{name}: params must be Parameters, got "
                                f"{type(p).__name__}")
        for key, value in defaults.items():
            group.setdefault(key, value)
        result.append(group)
    return result


def _call_cell(cell, args, kwargs):
    return Cell.__call__(cell, *args, **kwargs)


def _non_negative(arg, value):
    """MindSpore's check and message for a learning rate, momentum, epsilon or decay."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value < 0:
        raise ValueError(f"Invalid {arg}: {value}")


class _Optimizer(Cell):
    """Parameter groups, the flat list of parameters and ``zeros_like`` state per parameter."""

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        self.param_groups = _groups(type(self).__name__, params, defaults)
        # the network's weights: not this cell's own parameters (its state is)
        object.__setattr__(self, 'parameters', ParameterTuple(
            [p for g in self.param_groups for p in g['params']]))

    def _state(self, prefix):
        """Zeros like each weight, registered as ``<prefix>.<weight name>``."""
        state = []
        for i, p in enumerate(self.parameters):
            s = Parameter(ops.zeros_like(p), f"{prefix}.{p.name or i}", requires_grad=False)
            self.insert_param_to_cell(s.name, s, check_name_contain_dot=False)
            state.append(s)
        return ParameterTuple(state)

    def __call__(self, *args, **kwargs):
        # the update writes weights and state in place: one step of a graph-mode program
        return effect(_call_cell, self, args, kwargs)

    def _grouped(self, gradients):
        gradients = tuple(gradients)
        if len(gradients) != len(self.parameters):
            raise ValueError(f"mint.optim.{type(self).__name__}: got {len(gradients)} gradients "
                             f"for {len(self.parameters)} parameters")
        start = 0
        for group in self.param_groups:
            n = len(group['params'])
            yield group, range(start, start + n), gradients[start:start + n]
            start += n


class SGD(_Optimizer):
    """Stochastic gradient descent with optional momentum, dampening, Nesterov momentum and
    L2 weight decay (added to the gradient)."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        for arg, value in (('learning rate', lr), ('momentum value', momentum),
                           ('weight_decay value', weight_decay)):
            _non_negative(arg, value)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                             f"'dampening' must equal to 0.0, but got 'momentum' {momentum}, "
                             f"'dampening' {dampening}")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize))
        self.momentum_buf = self._state('momentum_buf')
        self.step_t = Parameter(np.zeros((), np.int32), 'step_t', requires_grad=False,
                                device='CPU')

    def construct(self, gradients):
        first = int(self.step_t._data) == 0         # a host Parameter: no device read
        for group, indices, grads in self._grouped(gradients):
            momentum = group['momentum']
            for i, g in zip(indices, grads):
                p = self.parameters[i]
                g = ops.neg(g) if group['maximize'] else g
                if group['weight_decay']:
                    g = ops.add(g, ops.mul(p, group['weight_decay']))
                if momentum:
                    buf = self.momentum_buf[i]
                    new = g if first else \
                        ops.add(ops.mul(buf, momentum), ops.mul(g, 1 - group['dampening']))
                    ops.assign(buf, new)
                    g = ops.add(g, ops.mul(new, momentum)) if group['nesterov'] else new
                ops.assign(p, ops.sub(p, ops.mul(g, group['lr'])))
        self.step_t._data += 1
        return True


class Adam(_Optimizer):
    """Adam: moments of the gradient with bias correction; ``weight_decay`` is added to the
    gradient (L2), ``amsgrad`` keeps the largest second moment."""

    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        for arg, value in (('learning rate', lr), ('epsilon value', eps)):
            _non_negative(arg, value)
        for k, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {k}: {beta}")
        _non_negative('weight_decay value', weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps,
                                      weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize))
        self.exp_avg = self._state('exp_avg')
        self.exp_avg_sq = self._state('exp_avg_sq')
        if any(g['amsgrad'] for g in self.param_groups):
            self.max_exp_avg_sq = self._state('max_exp_avg_sq')
        self.state_step = Parameter(np.zeros((1,), np.float32), 'state_step',
                                    requires_grad=False, device='CPU')

    def construct(self, gradients):
        self.state_step._data += 1                   # a host Parameter, as global_step
        t = int(self.state_step._data[0])
        for group, indices, grads in self._grouped(gradients):
            beta1, beta2 = group['betas']
            lr, wd = group['lr'], group['weight_decay']
            step_size = lr / (1 - beta1 ** t)
            sqrt_bc2 = (1 - beta2 ** t) ** 0.5
            for i, g in zip(indices, grads):
                p = self.parameters[i]
                g = ops.neg(g) if group['maximize'] else g
                if wd and self._decoupled:
                    ops.assign(p, ops.mul(p, 1 - lr * wd))
                elif wd:
                    g = ops.add(g, ops.mul(p, wd))
                m = ops.add(ops.mul(self.exp_avg[i], beta1), ops.mul(g, 1 - beta1))
                v = ops.add(ops.mul(self.exp_avg_sq[i], beta2),
                            ops.mul(ops.square(g), 1 - beta2))
                ops.assign(self.exp_avg[i], m)
                ops.assign(self.exp_avg_sq[i], v)
                if group['amsgrad']:
                    v = ops.maximum(self.max_exp_avg_sq[i], v)
                    ops.assign(self.max_exp_avg_sq[i], v)
                denom = ops.add(ops.div(ops.sqrt(v), sqrt_bc2), group['eps'])
                ops.assign(p, ops.sub(p, ops.mul(ops.div(m, denom), step_size)))
        return True


class AdamW(Adam):
    """Adam with decoupled weight decay: the weights shrink by ``lr * weight_decay`` each
    step before the Adam update."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


FusedAdamW = AdamW

__getattr__ = _reporter('mindspore.mint.optim')
