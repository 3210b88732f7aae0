"""ProximalAdagrad and FTRL: Adagrad-scaled steps followed by an L1/L2 proximal step, so
L1 drives weights to exactly zero (MindSpore 2.x kernels ApplyProximalAdagrad, ApplyFtrl)."""
import numpy as np

from .adaptive import _bool, _float
from .optimizer import Optimizer, _who

__all__ = ['ProximalAdagrad', 'FTRL']


def _as_update(block, t, new_w):
    """``t`` <- ``w - new_w``: the amount the block's parameters are decremented by."""
    block.gather_params(t)
    t -= new_w


class ProximalAdagrad(Optimizer):
    r"""Proximal Adagrad::

        accum += g * g
        r = lr / sqrt(accum)
        v = w - r * g
        w = sign(v) * max(|v| - r * l1, 0) / (1 + r * l2)

    ``g`` is the gradient plus ``weight_decay * w`` (for parameters without 'beta'/'gamma' in
    their names, or per group), centralized where asked and divided by ``loss_scale``. The state
    ``accum`` starts at ``accum``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        accum: the start value of the accumulators, a float >= 0. Default 0.1.
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 1e-3.
        l1, l2: the regularization strengths, floats >= 0. Default 0.0.
        use_locking: accepted for MindSpore compatibility (updates never race here).
        loss_scale: a number > 0. Default 1.0.
        weight_decay: a float >= 0. Default 0.0.

    Raises:
        TypeError: for a non-float accum, l1 or l2, a non-bool use_locking, or the errors of
            ``nn.Optimizer``.
        ValueError: for a negative accum, l1 or l2, or the errors of ``nn.Optimizer``.
    """

    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False,
                 loss_scale=1.0, weight_decay=0.0):
        who = _who(self)
        accum = _float(accum, 'accum', who, low=0.0)
        l1 = _float(l1, 'l1', who, low=0.0)
        l2 = _float(l2, 'l2', who, low=0.0)
        _bool(use_locking, 'use_locking', who)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.l1, self.l2, self.use_locking = l1, l2, use_locking
        self.accum = self._add_state('accum', accum)

    def _begin(self):
        return None

    def _rule(self, block, g, t, lr, scalars):
        accum = block.state['accum']
        np.multiply(g, g, out=t)
        accum += t
        np.sqrt(accum, out=t)
        np.divide(lr, t, out=t)                 # t = r, the per-value rate
        g *= t
        v = block.gather_params(np.empty_like(g))
        v -= g
        if self.l1 > 0:
            shrunk = np.abs(v)
            np.multiply(t, self.l1, out=g)
            shrunk -= g
            np.maximum(shrunk, 0, out=shrunk)
            np.sign(v, out=v)
            v *= shrunk
        t *= self.l2
        t += 1
        v /= t
        _as_update(block, t, v)


class FTRL(Optimizer):
    r"""FTRL-proximal (Follow The Regularized Leader), with ``p = -lr_power``::

        n' = n + g * g                                         (``moments``)
        z += g - (n' ** p - n ** p) / lr * w                   (``linear``)
        w = (sign(z) * l1 - z) / (n' ** p / lr + 2 * l2)  where |z| > l1, else 0

    This is the formula MindSpore documents; MindSpore 2.10's CPU kernel gives other numbers
    with l1 > 0 where z < 0 (it takes ``l1 - z``).

    ``g`` is the gradient plus ``weight_decay * w`` (for every parameter, as MindSpore's FTRL
    decays them all, or per group), centralized where asked and divided by ``loss_scale``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``; groups may not
            set 'lr').
        initial_accum: the start value of ``moments``, a float >= 0. Default 0.1.
        learning_rate: a fixed float > 0 (FTRL takes no per-step list or schedule). Default
            1e-3.
        lr_power: a float <= 0 (-0.5 gives Adagrad's scaling). Default -0.5.
        l1, l2: the regularization strengths, floats >= 0. Default 0.0.
        use_locking: accepted for MindSpore compatibility (updates never race here).
        loss_scale: a number > 0. Default 1.0.
        weight_decay: a float >= 0. Default 0.0.

    Raises:
        TypeError: for a non-float argument among initial_accum, learning_rate, lr_power, l1
            and l2, a non-bool use_locking, or the errors of ``nn.Optimizer``.
        ValueError: for a dynamic or per-group learning rate, a learning_rate <= 0, a positive
            lr_power, a negative initial_accum, l1 or l2, or the errors of ``nn.Optimizer``.
    """

    _decay_all = True

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0,
                 l2=0.0, use_locking=False, loss_scale=1.0, weight_decay=0.0):
        who = _who(self)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(f"{who}: the learning rate must be one fixed float: FTRL takes no "
                             f"per-step list, schedule or per-group 'lr' (dynamic_lr="
                             f"{self.dynamic_lr}, is_group_lr={self.is_group_lr})")
        initial_accum = _float(initial_accum, 'initial_accum', who, low=0.0)
        _float(learning_rate, 'learning_rate', who, low=0.0, low_open=True)
        lr_power = _float(lr_power, 'lr_power', who, high=0.0)
        l1 = _float(l1, 'l1', who, low=0.0)
        l2 = _float(l2, 'l2', who, low=0.0)
        _bool(use_locking, 'use_locking', who)
        self.l1, self.l2, self.lr_power, self.use_locking = l1, l2, lr_power, use_locking
        self.lr = learning_rate
        self.moments = self._add_state('moments', initial_accum)
        self.linear = self._add_state('linear', 0)

    def _begin(self):
        return None

    def _rule(self, block, g, t, lr, scalars):
        n, z = block.state['moments'], block.state['linear']
        p = -self.lr_power
        w = block.gather_params(np.empty_like(g))
        old = np.power(n, p)
        np.multiply(g, g, out=t)
        n += t
        new = np.power(n, p)                    # n' ** p
        old -= new
        old *= w / lr                           # -(n' ** p - n ** p) / lr * w
        z += g
        z += old
        new *= 1.0 / lr
        new += 2.0 * self.l2                    # the quadratic term
        np.sign(z, out=t)
        t *= self.l1
        t -= z
        t /= new
        t[np.abs(z) <= self.l1] = 0
        np.subtract(w, t, out=t)
