"""SGD and Momentum (MindSpore 2.x formulas)."""

import numpy as np

from ...kernels import fused
from ..parameter import Parameter
from .optimizer import _BLOCK_LOCAL_RULES, Optimizer, _nonneg, _who

__all__ = ['SGD', 'Momentum']


def _flag(value, arg, who):
    if not isinstance(value, bool):
        raise TypeError(f"{who}: {arg} must be a bool, got {value!r}")
    return value


def _momentum_parameter(value):
    return Parameter(np.array(value, np.float32), name='momentum', requires_grad=False,
                     device='CPU')       # read on the host each step


class SGD(Optimizer):
    r"""Stochastic gradient descent with optional momentum, dampening and Nesterov momentum.

    With ``g`` the gradient (divided by ``loss_scale``, plus ``weight_decay * w`` for
    parameters without 'beta'/'gamma' in their names, or per group), ``u`` the momentum and
    ``v`` the ``accum`` state::

        v = g                                  at a parameter's first step (``stat`` set)
        v = u * v + (1 - dampening) * g        afterwards
        w -= lr * (g + u * v)                  nesterov
        w -= lr * v                            otherwise

    With ``momentum == 0`` the update is ``w -= lr * g``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 0.1.
        momentum: a float >= 0. Default 0.0.
        dampening: a float >= 0. Default 0.0.
        weight_decay: a float >= 0. Default 0.0.
        nesterov: Nesterov momentum; needs ``momentum > 0`` and ``dampening == 0``.
            Default False.
        loss_scale: gradients are divided by it, a number > 0. Default 1.0.

    Inputs:
        gradients: one gradient per parameter, in the order of ``self.parameters``.

    Outputs:
        True.

    Raises:
        TypeError: for a non-number momentum or dampening, a non-bool nesterov, or the
            errors of ``nn.Optimizer``.
        ValueError: for a negative momentum or dampening, nesterov without momentum or with
            dampening, or the errors of ``nn.Optimizer``.

    >>> import hookgrad as ms
    >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')
    >>> opt = ms.nn.SGD([w], learning_rate=0.5)
    >>> opt((ms.Tensor([1.0, -1.0]),))
    True
    >>> print(w.asnumpy())
    [0.5 2.5]
    """

    _decay = 'after'        # weight_decay * w joins the gradient divided by loss_scale

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, loss_scale=1.0):
        who = _who(self)
        momentum = _nonneg(momentum, 'momentum', who)
        dampening = _nonneg(dampening, 'dampening', who)
        _flag(nesterov, 'nesterov', who)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"{who}: nesterov needs momentum > 0 and dampening == 0, got "
                             f"momentum={momentum}, dampening={dampening}")
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.dampening = dampening
        self.nesterov = nesterov
        self.momentum = _momentum_parameter(momentum)
        self.accum = self._add_state('accum', 0)
        self.stat = self._add_state('stat', 1)

    def _begin(self):
        return float(self.momentum._data)

    def _rule(self, block, g, t, lr, u):
        if u <= 0:
            np.multiply(g, lr, out=t)
            return
        v = block.state['accum']
        _accumulate(block, v, g, t, u, 1.0 - self.dampening)
        if self.nesterov:
            np.multiply(v, u, out=t)
            t += g
            t *= lr
        else:
            np.multiply(v, lr, out=t)


def _accumulate(block, v, g, t, u, keep):
    """``v = g`` where ``stat`` is set (clearing it), ``u * v + keep * g`` elsewhere."""
    stat = block.state['stat']
    if block.mode is None:
        block.mode = 'first' if stat.all() else 'later' if not stat.any() else 'mixed'
    if block.mode == 'first':
        np.copyto(v, g)
        stat.fill(0)
    else:
        v *= u
        if keep != 1.0:
            np.multiply(g, keep, out=t)
            v += t
        else:
            v += g
        if block.mode == 'mixed':
            fresh = stat > 0
            np.copyto(v, g, where=fresh)
            stat[fresh] = 0
    block.mode = 'later'


class Momentum(Optimizer):
    r"""Momentum (MindSpore's ApplyMomentum): ``v = u * v + g``; ``w -= lr * v``, or with
    Nesterov ``w -= lr * (g + u * v)``.

    ``g`` is the gradient plus ``weight_decay * w`` (for parameters without 'beta'/'gamma' in
    their names, or per group), divided by ``loss_scale``. The state ``v`` is ``moments``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``).
        momentum: ``u``, a float >= 0.
        weight_decay: a float >= 0. Default 0.0.
        loss_scale: a number > 0. Default 1.0.
        use_nesterov: Nesterov momentum. Default False.

    Inputs:
        gradients: one gradient per parameter, in the order of ``self.parameters``.

    Outputs:
        True.

    Raises:
        TypeError: for a non-number momentum, a non-bool use_nesterov, or the errors of
            ``nn.Optimizer``.
        ValueError: for a negative momentum, or the errors of ``nn.Optimizer``.

    >>> import hookgrad as ms
    >>> w = ms.Parameter(ms.Tensor([1.0]), name='w')
    >>> opt = ms.nn.Momentum([w], learning_rate=0.1, momentum=0.9)
    >>> _ = opt((ms.Tensor([1.0]),)), opt((ms.Tensor([1.0]),))
    >>> print(w.asnumpy(), opt.moments[0].asnumpy())
    [0.71] [1.9]
    """

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        who = _who(self)
        momentum = _nonneg(momentum, 'momentum', who)
        _flag(use_nesterov, 'use_nesterov', who)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.use_nesterov = use_nesterov
        self.momentum = _momentum_parameter(momentum)
        self.moments = self._add_state('moments', 0)

    def _begin(self):
        return float(self.momentum._data)

    def _fused_rule(self, xp, block, g, w, lr, u, check=False):
        if not check:
            name = 'momentum_nesterov' if self.use_nesterov else 'momentum'
            fused.kernel(xp, name)(g, lr, u, w, block.state['moments'])
        return True

    def _rule(self, block, g, t, lr, u):
        v = block.state['moments']
        v *= u
        v += g
        if self.use_nesterov:
            np.multiply(v, u, out=t)
            t += g
            t *= lr
        else:
            np.multiply(v, lr, out=t)


_BLOCK_LOCAL_RULES.update((SGD._rule, Momentum._rule))
