"""ASGD and Rprop: optimizers whose update depends on the step count (``global_step``, which
they advance every step, as MindSpore does, whether or not the learning rate is dynamic)."""
import numpy as np

from ..parameter import Parameter, ParameterTuple
from .adaptive import _float, _spans
from .optimizer import Optimizer, _who

__all__ = ['ASGD', 'Rprop']


class _Counted(Optimizer):
    """Steps numbered from 1: ``_begin`` sees the number of the step being taken."""

    def _step(self):
        return int(self.global_step._data.reshape(-1)[0]) + 1

    def _end(self, scalars):
        if not self.dynamic_lr:                 # the base class advances it for dynamic rates
            self.global_step._data += 1


class ASGD(_Counted):
    r"""Averaged stochastic gradient descent. At step ``t`` (from 1), per parameter::

        eta = lr                                           at t == 1
        w = w * (1 - lambd * eta) - eta * g
        ax = w  if mu == 1,  else  ax + mu * (w - ax)      (the running average, ``ax_``)
        eta = lr / (1 + lambd * lr * t) ** alpha
        mu = 1 / max(1, t - t0)

    ``g`` is the gradient plus ``weight_decay * w`` (for parameters without 'beta'/'gamma' in
    their names, or per group) and centralized where asked. State: the scalars ``mu_<name>``
    and ``eta_<name>`` and the averages ``ax_.<name>``, as MindSpore names them.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 0.1.
        lambd: the decay term, a float. Default 1e-4.
        alpha: the power of the ``eta`` update, a float. Default 0.75.
        t0: the step at which averaging starts, a float. Default 1e6.
        weight_decay: a float >= 0. Default 0.0.

    Raises:
        TypeError: for a non-float lambd, alpha or t0, or the errors of ``nn.Optimizer``.
    """

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6,
                 weight_decay=0.0):
        who = _who(self)
        super().__init__(learning_rate, params, weight_decay)
        self.lambd = _float(lambd, 'lambd', who)
        self.alpha = _float(alpha, 'alpha', who)
        self.t0 = _float(t0, 't0', who)
        mu, eta = [], []
        for i, p in enumerate(self.parameters):
            name = p.name if p.name else str(i)
            mu.append(Parameter(np.array(1.0, np.float32), name=f'mu_{name}',
                                requires_grad=False, device='CPU'))
            eta.append(Parameter(np.array(0.0, np.float32), name=f'eta_{name}',
                                 requires_grad=False, device='CPU'))
        for s in mu + eta:
            self.insert_param_to_cell(s.name, s, check_name_contain_dot=False)
        self.mu, self.eta = ParameterTuple(mu), ParameterTuple(eta)
        self.ax = self._add_state('ax_', 0)

    def _begin(self):
        return {'step': self._step(), 'lr': {}}

    def _rule(self, block, g, t, lr, scalars):
        first, lambd = scalars['step'] == 1, self.lambd
        w = block.gather_params(np.empty_like(g))
        ax = block.state['ax_']
        for i, span in _spans(block):
            scalars['lr'][i] = lr
            eta = lr if first else float(self.eta[i]._data)
            new = w[span] * (1.0 - lambd * eta)
            new -= eta * g[span]
            np.subtract(w[span], new, out=t[span])
            if float(self.mu[i]._data) != 1.0:
                new -= ax[span]
                new *= float(self.mu[i]._data)
                ax[span] += new
            else:
                ax[span] = new

    def _end(self, scalars):
        step = scalars['step']
        for i, lr in scalars['lr'].items():
            self.eta[i]._data[...] = lr / (1.0 + self.lambd * lr * step) ** self.alpha
            self.mu[i]._data[...] = 1.0 / max(1.0, step - self.t0)
        super()._end(scalars)


class Rprop(_Counted):
    r"""Resilient backpropagation: each value moves by its own step size, against the sign of
    its gradient. At step ``t`` (from 1), with ``s`` the step size (``lr`` at t == 1) and
    ``p`` the previous gradient::

        f = etaplus where g * p > 0, etaminus where g * p < 0, else 1
        s = clip(s * f, step_sizes[0], step_sizes[1])
        g = 0 where g * p < 0                  (the sign flipped: skip this step)
        w -= sign(g) * s;  p = g

    ``g`` is the gradient plus ``weight_decay * w`` (for parameters without 'beta'/'gamma' in
    their names, or per group) and centralized where asked. State: ``prev`` and ``step_size``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``); the start step
            size. Default 0.1.
        etas: ``(etaminus, etaplus)``, a tuple of floats with ``0 < etaminus < 1 < etaplus``.
            Default (0.5, 1.2).
        step_sizes: ``(min, max)``, a tuple of floats with ``min <= max``. Default (1e-6, 50.).
        weight_decay: a float >= 0. Default 0.0.

    Raises:
        TypeError: for etas or step_sizes not a tuple, or not floats, or the errors of
            ``nn.Optimizer``.
        ValueError: for a tuple not of two values, etas out of range, min > max, or the
            errors of ``nn.Optimizer``.
    """

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.),
                 weight_decay=0.):
        who = _who(self)
        super().__init__(learning_rate, params, weight_decay)
        for arg, value in (('etas', etas), ('step_sizes', step_sizes)):
            if not isinstance(value, tuple):
                raise TypeError(f"{who}: {arg} must be a tuple, got {type(value).__name__}")
            if len(value) != 2:
                raise ValueError(f"{who}: {arg} must be a tuple of 2 values, got {len(value)}")
        etaminus = _float(etas[0], 'etaminus (etas[0])', who, 0.0, 1.0, True, True)
        etaplus = _float(etas[1], 'etaplus (etas[1])', who, low=1.0, low_open=True)
        low = _float(step_sizes[0], 'step_sizes[0]', who)
        high = _float(step_sizes[1], 'step_sizes[1]', who)
        if low > high:
            raise ValueError(f"{who}: the largest step size must not be less than the smallest, "
                             f"got step_sizes={step_sizes}")
        self.etaminus, self.etaplus = etaminus, etaplus
        self.step_size_min, self.step_size_max = low, high
        self.prev = self._add_state('prev', 0)
        self.step_size = self._add_state('step_size', 0)

    def _begin(self):
        return self._step()

    def _rule(self, block, g, t, lr, step):
        prev, size = block.state['prev'], block.state['step_size']
        if step == 1:
            size.fill(lr)
        np.multiply(g, prev, out=t)
        flipped = t < 0
        factor = np.where(t > 0, self.etaplus, 1.0)
        factor[flipped] = self.etaminus
        size *= factor
        np.clip(size, self.step_size_min, self.step_size_max, out=size)
        g[flipped] = 0
        np.copyto(prev, g)
        np.sign(g, out=t)
        t *= size
