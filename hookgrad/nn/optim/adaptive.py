"""Adagrad, RMSProp, Adadelta and AdaMax: per-value step sizes from running gradient
statistics (MindSpore 2.x kernels: ApplyAdagrad, ApplyRMSProp, ApplyCenteredRMSProp,
ApplyAdadelta, ApplyAdaMax)."""
import math

import numpy as np

from ..parameter import Parameter
from .optimizer import Optimizer, _who

__all__ = ['Adagrad', 'RMSProp', 'Adadelta', 'AdaMax']


def _float(value, arg, who, low=None, high=None, low_open=False, high_open=False):
    """``value`` as a float; MindSpore takes a Python float here (not an int or a bool)."""
    if not isinstance(value, float):
        raise TypeError(f"{who}: {arg} must be a float, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{who}: {arg} must be finite, got {value}")
    bad_low = low is not None and (value <= low if low_open else value < low)
    bad_high = high is not None and (value >= high if high_open else value > high)
    if bad_low or bad_high:
        if high is None:
            bound = f"> {low}" if low_open else f">= {low}"
        elif low is None:
            bound = f"< {high}" if high_open else f"<= {high}"
        else:
            bound = f"in {'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
        raise ValueError(f"{who}: {arg} must be {bound}, got {value}")
    return value


def _bool(value, arg, who):
    if not isinstance(value, bool):
        raise TypeError(f"{who}: {arg} must be a bool, got {value!r}")
    return value


def _spans(block):
    """``(i, slice)`` per piece of ``block``: the parameter's position and its values' range
    in the block's flat arrays (gradient, scratch and state alike)."""
    offset = 0
    for i, _, a, b, _, _ in block.pieces:
        yield i, slice(offset, offset + b - a)
        offset += b - a


class Adagrad(Optimizer):
    r"""Adagrad: ``accum += g * g``; ``w -= lr * g / sqrt(accum)``.

    ``g`` is the gradient plus ``weight_decay * w`` (for parameters without 'beta'/'gamma' in
    their names, or per group), centralized where asked and divided by ``loss_scale``. The state
    ``accum`` starts at ``accum``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        accum: the start value of the accumulators, a float >= 0. Default 0.1.
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 1e-3.
        update_slots: a bool, checked and kept. MindSpore 2.10's CPU kernel updates ``accum``
            whether it is True or False, and so does hookgrad, giving the same numbers.
            Default True.
        loss_scale: a number > 0. Default 1.0.
        weight_decay: a float >= 0. Default 0.0.

    Raises:
        TypeError: for a non-float accum, a non-bool update_slots, or the errors of
            ``nn.Optimizer``.
        ValueError: for a negative accum, or the errors of ``nn.Optimizer``.

    >>> import hookgrad as ms
    >>> w = ms.Parameter(ms.Tensor([1.0]), name='w')
    >>> opt = ms.nn.Adagrad([w], accum=0.0, learning_rate=0.5)
    >>> _ = opt((ms.Tensor([2.0]),))
    >>> print(w.asnumpy())
    [0.5]
    """

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0,
                 weight_decay=0.0):
        who = _who(self)
        accum = _float(accum, 'accum', who, low=0.0)
        _bool(update_slots, 'update_slots', who)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.update_slots = update_slots
        self.accum = self._add_state('accum', accum)

    def _begin(self):
        return None

    def _rule(self, block, g, t, lr, scalars):
        accum = block.state['accum']
        np.multiply(g, g, out=t)
        accum += t
        np.sqrt(accum, out=t)
        np.divide(g, t, out=t)
        t *= lr


class RMSProp(Optimizer):
    r"""RMSProp, optionally centered, with momentum::

        s = decay * s + (1 - decay) * g * g                    (``mean_square``, starts at 1)
        c = decay * c + (1 - decay) * g                        (``mean_grad``, centered only)
        m = momentum * m + lr * g / sqrt(s + epsilon)          (``s - c * c`` when centered)
        w -= m

    ``g`` is the gradient plus ``weight_decay * w`` (for parameters without 'beta'/'gamma' in
    their names, or per group), centralized where asked and divided by ``loss_scale``.
    State: ``mean_square``, ``moment`` and, centered, ``mean_grad``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 0.1.
        decay: the decay of the running averages, a float >= 0. Default 0.9.
        momentum: a float >= 0. Default 0.0.
        epsilon: added under the square root, a float > 0. Default 1e-10.
        use_locking: accepted for MindSpore compatibility (updates never race here).
        centered: subtract the squared running mean of the gradient. Default False.
        loss_scale: a number > 0. Default 1.0.
        weight_decay: a float >= 0. Default 0.0.

    Raises:
        TypeError: for a non-float decay, momentum or epsilon, a non-bool flag, or the errors
            of ``nn.Optimizer``.
        ValueError: for a negative decay or momentum, epsilon <= 0, or the errors of
            ``nn.Optimizer``.
    """

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        who = _who(self)
        decay = _float(decay, 'decay', who, low=0.0)
        momentum = _float(momentum, 'momentum', who, low=0.0)
        epsilon = _float(epsilon, 'epsilon', who, low=0.0, low_open=True)
        _bool(use_locking, 'use_locking', who)
        _bool(centered, 'centered', who)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.decay, self.momentum, self.epsilon = decay, momentum, epsilon
        self.use_locking = use_locking
        self.centered = centered
        if centered:
            self.mg = self._add_state('mean_grad', 0)
        self.ms = self._add_state('mean_square', 1)
        self.moment = self._add_state('moment', 0)

    def _begin(self):
        return None

    def _rule(self, block, g, t, lr, scalars):
        decay = self.decay
        s, m = block.state['mean_square'], block.state['moment']
        s *= decay
        np.multiply(g, g, out=t)
        t *= 1.0 - decay
        s += t
        if self.centered:
            c = block.state['mean_grad']
            c *= decay
            np.multiply(g, 1.0 - decay, out=t)
            c += t
            np.multiply(c, c, out=t)
            np.subtract(s, t, out=t)
        else:
            np.copyto(t, s)
        t += self.epsilon
        np.sqrt(t, out=t)
        np.divide(g, t, out=t)
        t *= lr
        m *= self.momentum
        m += t
        np.copyto(t, m)


class Adadelta(Optimizer):
    r"""Adadelta::

        a = rho * a + (1 - rho) * g * g                        (``accum``)
        u = sqrt(d + epsilon) * g / sqrt(a + epsilon)
        d = rho * d + (1 - rho) * u * u                        (``accum_update``)
        w -= lr * u

    ``g`` is the gradient plus ``weight_decay * w`` (for parameters without 'beta'/'gamma' in
    their names, or per group), centralized where asked and divided by ``loss_scale``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 1.0.
        rho: the decay of the running averages, a float in [0, 1]. Default 0.9.
        epsilon: added under the square roots, a float >= 0. Default 1e-6.
        loss_scale: a number > 0. Default 1.0.
        weight_decay: a float >= 0. Default 0.0.

    Raises:
        TypeError: for a non-float rho or epsilon, or the errors of ``nn.Optimizer``.
        ValueError: for rho outside [0, 1], a negative epsilon, or the errors of
            ``nn.Optimizer``.
    """

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0,
                 weight_decay=0.0):
        who = _who(self)
        rho = _float(rho, 'rho', who, low=0.0, high=1.0)
        epsilon = _float(epsilon, 'epsilon', who, low=0.0)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho, self.epsilon = rho, epsilon
        self.accum = self._add_state('accum', 0)
        self.accum_update = self._add_state('accum_update', 0)

    def _begin(self):
        return None

    def _rule(self, block, g, t, lr, scalars):
        rho, eps = self.rho, self.epsilon
        a, d = block.state['accum'], block.state['accum_update']
        a *= rho
        np.multiply(g, g, out=t)
        t *= 1.0 - rho
        a += t
        np.add(d, eps, out=t)
        np.sqrt(t, out=t)
        t *= g
        np.add(a, eps, out=g)                   # g is free from here on: reuse it as scratch
        np.sqrt(g, out=g)
        t /= g                                  # t = u
        d *= rho
        np.multiply(t, t, out=g)
        g *= 1.0 - rho
        d += g
        t *= lr


class AdaMax(Optimizer):
    r"""AdaMax, Adam with the infinity norm::

        m = b1 * m + (1 - b1) * g                              (``moment1``)
        v = max(b2 * v, |g|)                                   (``moment2``)
        w -= lr / (1 - b1 ** t) * m / (v + eps)

    ``g`` is the gradient plus ``weight_decay * w`` (for parameters without 'beta'/'gamma' in
    their names, or per group), centralized where asked and divided by ``loss_scale``.
    ``beta1_power`` (a Float32 Parameter of shape (1,)) holds ``b1 ** t``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 1e-3.
        beta1, beta2: decay rates of the moments, floats in (0, 1). Default 0.9, 0.999.
        eps: added to the denominator, a float > 0. Default 1e-8.
        weight_decay: a float >= 0. Default 0.0.
        loss_scale: a number > 0. Default 1.0.

    Raises:
        TypeError: for a non-float beta or eps, or the errors of ``nn.Optimizer``.
        ValueError: for a beta outside (0, 1), eps <= 0, or the errors of ``nn.Optimizer``.
    """

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08,
                 weight_decay=0.0, loss_scale=1.0):
        who = _who(self)
        beta1 = _float(beta1, 'beta1', who, 0.0, 1.0, True, True)
        beta2 = _float(beta2, 'beta2', who, 0.0, 1.0, True, True)
        eps = _float(eps, 'eps', who, low=0.0, low_open=True)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.beta1_power = Parameter(np.ones(1, np.float32), name='beta1_power',
                                     requires_grad=False, device='CPU')
        self.moment1 = self._add_state('moment1', 0)
        self.moment2 = self._add_state('moment2', 0)

    def _begin(self):
        power = np.float32(self.beta1_power._data[0]) * np.float32(self.beta1)
        return float(power), 1.0 / (1.0 - float(power))

    def _rule(self, block, g, t, lr, scalars):
        b1 = self.beta1
        m, v = block.state['moment1'], block.state['moment2']
        m *= b1
        np.multiply(g, 1.0 - b1, out=t)
        m += t
        v *= self.beta2
        np.abs(g, out=t)
        np.maximum(v, t, out=v)
        np.add(v, self.eps, out=t)
        np.divide(m, t, out=t)
        t *= lr * scalars[1]

    def _end(self, scalars):
        self.beta1_power._data[...] = scalars[0]

