"""SGD and ASGD of ``mindspore.experimental.optim`` (MindSpore 2.10's formulas)."""
import numpy as np

from ...compat import checkparam as validator
from ..._tensor import Tensor
from .optimizer import Optimizer, check_not_less_than, check_not_less_than_without_equal

__all__ = ['SGD', 'ASGD']


class SGD(Optimizer):
    r"""Stochastic gradient descent with momentum, dampening and Nesterov momentum.

    With g the gradient plus ``weight_decay * w`` and v the ``accum`` state: v = g at the first
    step, then v = momentum * v + (1 - dampening) * g; w -= lr * (g + momentum * v) with
    ``nesterov``, else w -= lr * v (w -= lr * g without momentum).

    Raises:
        TypeError: lr, momentum or dampening not a number; nesterov or maximize not a bool.
        ValueError: a negative lr or momentum; nesterov without momentum or with dampening.
    """

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False, *,
                 maximize=False):
        validator.check_value_type('lr', lr, [float, int, Tensor], self.cls_name)
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        validator.check_value_type('momentum', momentum, [int, float], self.cls_name)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        momentum = float(momentum)
        validator.check_value_type('nesterov', nesterov, [bool], self.cls_name)
        validator.check_value_type('maximize', maximize, [bool], self.cls_name)
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                        grad_centralization=False)
        super().__init__(params, defaults)
        for group in self.param_groups:
            validator.check_value_type('dampening', group['dampening'], [int, float],
                                       self.cls_name)
            group['dampening'] = float(group['dampening'])
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                             f"'dampening' must equal to 0.0, but got 'momentum' {momentum}, "
                             f"'dampening' {dampening}")
        self.accum = self._state('accum', 0.0)
        self.stat = self._state('stat', 1.0)

    def _update(self, group, i, w, g, lr):
        g = self._decayed(group, w, g)
        momentum = np.float32(group['momentum'])
        if momentum > 0:
            v, stat = self.accum[i]._data, self.stat[i]._data
            # stat is 1 until the first step: then v starts as g (no read of it on the host)
            v[...] = np.where(stat > 0, g, momentum * v + np.float32(1.0 - group['dampening']) * g)
            stat[...] = 0
            g = g + momentum * v if group['nesterov'] else v
        w -= lr * g


class ASGD(Optimizer):
    """Averaged SGD: w = w * (1 - lambd * eta) - eta * g, ``ax`` the running average of w,
    eta = lr / (1 + lambd * lr * step) ** alpha, mu = 1 / max(1, step - t0).

    Raises:
        TypeError: lambd or t0 not a float. ValueError: lr <= 0, a negative weight decay.
    """

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0,
                 maximize=False):
        check_not_less_than_without_equal(lr, 'lr', self.cls_name)
        check_not_less_than(weight_decay, 'weight_decay', self.cls_name)
        if not isinstance(lambd, float):
            raise TypeError(f"For 'ASGD', the type of lambd must be float, but got "
                            f"{type(lambd)}.")
        if not isinstance(t0, float):
            raise TypeError(f"For 'ASGD', the type of t0 must be float, but got {type(t0)}.")
        defaults = {'lr': lr, 'lambd': lambd, 'alpha': alpha, 't0': t0,
                    'weight_decay': weight_decay, 'maximize': maximize}
        super().__init__(params, defaults)
        self.mu = [self._host_scalar(f"mu_{p.name}", 1.0, np.float32) for p in self.parameters]
        self.eta = [self._host_scalar(f"eta_{p.name}", 0.0, np.float32)
                    for p in self.parameters]
        self.ax = self._state('ax', 0.0)
        self.step_t = self._host_scalar('step_t', 0)

    def _begin(self):
        self.step_t._data += 1

    def _update(self, group, i, w, g, lr):
        g = self._decayed(group, w, g)
        step = int(self.step_t._data)
        eta, mu, ax = self.eta[i]._data, self.mu[i]._data, self.ax[i]._data   # eta, mu: host
        if step == 1:
            eta[...] = lr
        e = np.float32(eta)
        w[...] = w * (np.float32(1.0) - np.float32(group['lambd']) * e) - e * g
        if mu != 1:
            ax += (w - ax) * np.float32(mu)
        else:
            ax[...] = w
        eta[...] = lr / (1.0 + group['lambd'] * lr * step) ** group['alpha']
        mu[...] = 1.0 / max(1.0, step - group['t0'])
