"""Adadelta, Adagrad, RMSprop and Rprop of ``mindspore.experimental.optim`` (MindSpore 2.10's
formulas)."""
import numpy as np

from ...compat import checkparam as validator
from .optimizer import Optimizer, check_not_less_than, check_not_less_than_without_equal

__all__ = ['Adadelta', 'Adagrad', 'RMSprop', 'Rprop']


class Adadelta(Optimizer):
    """Adadelta: a = rho * a + (1 - rho) * g^2, d = sqrt(u + eps) / sqrt(a + eps) * g,
    u = rho * u + (1 - rho) * d^2, w -= lr * d."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *, maximize=False):
        check_not_less_than_without_equal(lr, 'lr', self.cls_name)
        check_not_less_than_without_equal(eps, 'eps', self.cls_name)
        check_not_less_than(weight_decay, 'weight_decay', self.cls_name)
        validator.check_float_range(rho, 0., 1., validator.INC_BOTH, 'rho', self.cls_name)
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize))
        self.accum = self._state('accum', 0.0)
        self.accum_update = self._state('accum_update', 0.0)

    def _update(self, group, i, w, g, lr):
        g = self._decayed(group, w, g)
        rho, eps = np.float32(group['rho']), np.float32(group['eps'])
        a, u = self.accum[i]._data, self.accum_update[i]._data
        a[...] = rho * a + (np.float32(1) - rho) * g * g
        d = np.sqrt(u + eps) / np.sqrt(a + eps) * g
        u[...] = rho * u + (np.float32(1) - rho) * d * d
        w -= lr * d


class Adagrad(Optimizer):
    """Adagrad: a += g^2, w -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(a) + eps)."""

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0,
                 initial_accumulator_value=0.0, eps=1e-10, *, maximize=False):
        check_not_less_than_without_equal(lr, 'lr', self.cls_name)
        check_not_less_than(lr_decay, 'lr_decay', self.cls_name)
        check_not_less_than(weight_decay, 'weight_decay', self.cls_name)
        check_not_less_than(initial_accumulator_value, 'initial_accumulator_value',
                            self.cls_name)
        check_not_less_than_without_equal(eps, 'eps', self.cls_name)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps,
                                      weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      maximize=maximize))
        self.accum = self._state('accum', initial_accumulator_value)
        self.step_t = self._host_scalar('step_t', 0)

    def construct(self, gradients):
        done = super().construct(gradients)
        self.step_t._data += 1           # counted after the step, as MindSpore counts it
        return done

    def _update(self, group, i, w, g, lr):
        g = self._decayed(group, w, g)
        a = self.accum[i]._data
        a += g * g
        decayed_lr = np.float32(lr / (1 + int(self.step_t._data) * group['lr_decay']))
        w -= decayed_lr * g / (np.sqrt(a) + np.float32(group['eps']))


class RMSprop(Optimizer):
    """RMSprop: s = alpha * s + (1 - alpha) * g^2; the step divides g by sqrt(s) + eps (by
    sqrt(s - m^2) + eps, m the mean gradient, when ``centered``), through a momentum buffer
    when momentum > 0."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
                 centered=False, maximize=False):
        check_not_less_than_without_equal(lr, 'lr', self.cls_name)
        check_not_less_than(alpha, 'alpha', self.cls_name)
        check_not_less_than_without_equal(eps, 'eps', self.cls_name)
        check_not_less_than(momentum, 'momentum', self.cls_name)
        check_not_less_than(weight_decay, 'weight_decay', self.cls_name)
        super().__init__(params, {'lr': lr, 'momentum': momentum, 'alpha': alpha, 'eps': eps,
                                  'centered': centered, 'weight_decay': weight_decay,
                                  'maximize': maximize})
        self.mean_grad = self._state('mean_grad', 0.0)
        self.mean_square = self._state('mean_square', 0.0)
        self.moment = self._state('moment', 0.0)

    def _update(self, group, i, w, g, lr):
        g = self._decayed(group, w, g)
        alpha, eps = np.float32(group['alpha']), np.float32(group['eps'])
        s = self.mean_square[i]._data
        s[...] = s * alpha + g * g * (np.float32(1) - alpha)
        if group['centered']:
            m = self.mean_grad[i]._data
            m[...] = m * alpha + g * (np.float32(1) - alpha)
            avg = np.sqrt(s - m * m) + eps
        else:
            avg = np.sqrt(s) + eps
        if group['momentum'] > 0:
            buf = self.moment[i]._data
            buf[...] = buf * np.float32(group['momentum']) + g / avg
            w -= buf * lr
        else:
            w -= lr * g / avg


class Rprop(Optimizer):
    """Rprop: each element's step size grows by etas[1] while its gradient keeps its sign and
    shrinks by etas[0] when it flips (that step then skips the element), clipped to
    ``step_sizes``; w -= sign(g) * step size."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 maximize=False):
        check_not_less_than_without_equal(lr, 'lr', self.cls_name)
        check_not_less_than_without_equal(etas[1], 'etas[1]', self.cls_name, 1.)
        validator.check_float_range(etas[0], 0., 1., validator.INC_NEITHER, 'etas[0]',
                                    self.cls_name)
        super().__init__(params, {'lr': lr, 'etas': etas, 'step_sizes': step_sizes,
                                  'maximize': maximize})
        self.prev = self._state('prev', 0.0)
        self.step_size = self._state('step_size', 0.0)
        self.step_t = self._host_scalar('step_t', 0)

    def _begin(self):
        self.step_t._data += 1

    def _update(self, group, i, w, g, lr):
        eta_minus, eta_plus = (np.float32(e) for e in group['etas'])
        low, high = group['step_sizes']
        prev, size = self.prev[i]._data, self.step_size[i]._data
        if int(self.step_t._data) == 1:
            size[...] = lr
        sign = np.sign(g * prev)
        factor = np.where(sign > 0, eta_plus, np.where(sign < 0, eta_minus, np.float32(1)))
        np.clip(size * factor, np.float32(low), np.float32(high), out=size)
        g = np.where(sign < 0, np.float32(0), g)
        prev[...] = g
        w -= np.sign(g) * size
