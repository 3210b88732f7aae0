"""The Adam family of ``mindspore.experimental.optim``: Adam, AdamW, Adamax, NAdam and RAdam
(MindSpore 2.10's formulas; t is the step count, from 1)."""
import math

import numpy as np

from ...compat import checkparam as validator
from .optimizer import Optimizer, check_not_less_than, check_not_less_than_without_equal

__all__ = ['Adam', 'AdamW', 'Adamax', 'NAdam', 'RAdam']


def _check_adam(lr, betas, eps, weight_decay):
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _check_betas(betas, who):
    validator.check_float_range(betas[0], 0., 1., validator.INC_LEFT, 'betas[0]', who)
    validator.check_float_range(betas[1], 0., 1., validator.INC_LEFT, 'betas[1]', who)


class _Moments(Optimizer):
    """Optimizers keeping ``exp_avg`` and ``exp_avg_sq`` and counting steps."""

    def _moments(self):
        self.exp_avg = self._state('exp_avg', 0.0)
        self.exp_avg_sq = self._state('exp_avg_sq', 0.0)

    def _adam_state(self, params, lr, betas, eps, weight_decay, amsgrad, maximize):
        """Adam's and AdamW's construction: checks, groups, moments and the step count."""
        _check_adam(lr, betas, eps, weight_decay)
        Optimizer.__init__(self, params, {'lr': lr, 'betas': betas, 'eps': eps,
                                          'weight_decay': weight_decay, 'amsgrad': amsgrad,
                                          'maximize': maximize})
        self._moments()
        self.max_exp_avg_sq = self._state('max_exp_avg_sq', 0.0)
        self.state_step = self.step_t = self._host_scalar('state_step', 0)

    def _begin(self):
        self.step_t._data += 1

    def _step(self):
        return int(self.step_t._data)


class Adam(_Moments):
    """Adam, with g plus ``weight_decay * w`` (L2): m, v the moments,
    w -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps).
    ``amsgrad`` is accepted and, as in MindSpore 2.10, does not change the update."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        self._adam_state(params, lr, betas, eps, weight_decay, amsgrad, maximize)

    def _update(self, group, i, w, g, lr):
        g = self._decayed(group, w, g)
        (b1, b2), t = group['betas'], self._step()
        m, v = self.exp_avg[i]._data, self.exp_avg_sq[i]._data
        m += (g - m) * np.float32(1 - b1)
        v += (g * g - v) * np.float32(1 - b2)
        lr_t = np.float32(lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t))
        w -= lr_t * m / (np.sqrt(v) + np.float32(group['eps']))


class AdamW(_Moments):
    """AdamW (decoupled weight decay): w *= 1 - lr * weight_decay, then
    w -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps), with v replaced by its
    running maximum under ``amsgrad``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        self._adam_state(params, lr, betas, eps, weight_decay, amsgrad, maximize)

    def _update(self, group, i, w, g, lr):
        (b1, b2), t = group['betas'], self._step()
        m, v = self.exp_avg[i]._data, self.exp_avg_sq[i]._data
        w *= np.float32(1 - lr * group['weight_decay'])
        m[...] = m * np.float32(b1) + g * np.float32(1 - b1)
        v[...] = v * np.float32(b2) + g * g * np.float32(1 - b2)
        if group['amsgrad']:
            v_max = self.max_exp_avg_sq[i]._data
            np.maximum(v_max, v, out=v_max)
            v = v_max
        denom = np.sqrt(v) / np.float32(math.sqrt(1 - b2 ** t)) + np.float32(group['eps'])
        w -= m / denom * np.float32(lr / (1 - b1 ** t))


class Adamax(_Moments):
    """Adamax: u = max(beta2 * u, |g| + eps), w -= lr / (1 - beta1^t) * m / u."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *,
                 maximize=False):
        check_not_less_than_without_equal(lr, 'lr', self.cls_name)
        check_not_less_than(weight_decay, 'weight_decay', self.cls_name)
        check_not_less_than_without_equal(eps, 'eps', self.cls_name)
        _check_betas(betas, self.cls_name)
        super().__init__(params, {'lr': lr, 'betas': betas, 'eps': eps,
                                  'weight_decay': weight_decay, 'maximize': maximize})
        self.step_t = self._host_scalar('step_t', 0)
        self.exp_avg = self._state('exp_avg', 0.0)
        self.exp_inf = self._state('exp_inf', 0.0)

    def _update(self, group, i, w, g, lr):
        g = self._decayed(group, w, g)
        (b1, b2), t = group['betas'], self._step()
        m, u = self.exp_avg[i]._data, self.exp_inf[i]._data
        m[...] = m * np.float32(b1) + g * np.float32(1 - b1)
        np.maximum(u * np.float32(b2), np.abs(g) + np.float32(group['eps']), out=u)
        w -= np.float32(lr / (1 - b1 ** t)) * m / u


class NAdam(_Moments):
    """NAdam: Nesterov momentum with the schedule mu_t = beta1 * (1 - 0.5 * 0.96^(t * decay))."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 momentum_decay=4e-3):
        check_not_less_than_without_equal(lr, 'lr', self.cls_name)
        check_not_less_than_without_equal(eps, 'eps', self.cls_name)
        check_not_less_than(weight_decay, 'weight_decay', self.cls_name)
        check_not_less_than(momentum_decay, 'momentum_decay', self.cls_name)
        _check_betas(betas, self.cls_name)
        super().__init__(params, {'lr': lr, 'betas': betas, 'eps': eps,
                                  'weight_decay': weight_decay,
                                  'momentum_decay': momentum_decay})
        self.step_t = self._host_scalar('step_t', 0)
        self._moments()
        self.mu_product = [self._host_scalar(f"mu_product_{p.name}", 1.0, np.float32)
                           for p in self.parameters]

    def _update(self, group, i, w, g, lr):
        g = self._decayed(group, w, g)
        (b1, b2), t, decay = group['betas'], self._step(), group['momentum_decay']
        mu = b1 * (1. - 0.5 * 0.96 ** (t * decay))
        mu_next = b1 * (1. - 0.5 * 0.96 ** ((t + 1) * decay))
        product = self.mu_product[i]._data
        product *= np.float32(mu)
        m, v = self.exp_avg[i]._data, self.exp_avg_sq[i]._data
        m[...] = m * np.float32(b1) + g * np.float32(1 - b1)
        v[...] = v * np.float32(b2) + g * g * np.float32(1 - b2)
        denom = np.sqrt(v / np.float32(1 - b2 ** t)) + np.float32(group['eps'])
        w -= np.float32(lr * (1. - mu) / (1. - float(product))) * g / denom
        w -= np.float32(lr * mu_next / (1. - float(product) * mu_next)) * m / denom


class RAdam(_Moments):
    """RAdam: Adam whose adaptive step is rectified once the variance estimate is tractable
    (rho_t > 5), plain momentum SGD before."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        check_not_less_than_without_equal(lr, 'lr', self.cls_name)
        check_not_less_than(weight_decay, 'weight_decay', self.cls_name)
        check_not_less_than_without_equal(eps, 'eps', self.cls_name)
        _check_betas(betas, self.cls_name)
        super().__init__(params, {'lr': lr, 'betas': betas, 'eps': eps,
                                  'weight_decay': weight_decay})
        self.step_t = self._host_scalar('step_t', 0)
        self._moments()

    def _update(self, group, i, w, g, lr):
        g = self._decayed(group, w, g)
        (b1, b2), t = group['betas'], self._step()
        m, v = self.exp_avg[i]._data, self.exp_avg_sq[i]._data
        m[...] = m * np.float32(b1) + g * np.float32(1 - b1)
        v[...] = v * np.float32(b2) + g * g * np.float32(1 - b2)
        bias1, bias2 = 1 - b1 ** t, 1 - b2 ** t
        rho_inf = 2 / (1 - b2) - 1
        rho_t = rho_inf - 2 * t * b2 ** t / bias2
        if rho_t > 5.0:
            rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf /
                             ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            adaptive = np.float32(math.sqrt(bias2)) / (np.sqrt(v) + np.float32(group['eps']))
            w -= m / np.float32(bias1) * np.float32(lr) * adaptive * np.float32(rect)
        else:
            w -= m / np.float32(bias1) * np.float32(lr)
