"""The learning-rate schedulers of ``mindspore.experimental.optim.lr_scheduler``.

A scheduler changes the learning rates of an optimizer's parameter groups (its host Parameters
``optimizer.lrs``) each time ``step()`` is called, usually once an epoch. The arithmetic is
float32, as MindSpore's (its schedulers compute with float32 Tensors), so the rates are
MindSpore's to the last bit in the common cases.
"""
import math
from bisect import bisect_right
from collections import Counter

import numpy as np

from ..._tensor import Tensor
from ...compat import checkparam as validator
from ...nn.parameter import Parameter
from .optimizer import Optimizer

__all__ = ['StepLR', 'LinearLR', 'LRScheduler', 'ExponentialLR', 'PolynomialLR',
           'MultiplicativeLR', 'ConstantLR', 'MultiStepLR', 'LambdaLR', 'SequentialLR',
           'ReduceLROnPlateau', 'CyclicLR', 'CosineAnnealingWarmRestarts', 'CosineAnnealingLR']

f32 = np.float32


def _host(value, name):
    return Parameter(np.array(value, np.float32), name, requires_grad=False, device='CPU')


def _values(lrs):
    return [Tensor(np.array(lr._data, np.float32)) for lr in lrs]


class LRScheduler:
    """Base class: ``step()`` advances ``last_epoch`` and sets each group's rate to
    ``get_lr()``; ``step(epoch)`` jumps to an epoch (by the closed form when there is one).

    Raises:
        TypeError: optimizer not an experimental Optimizer, last_epoch not an int.
        ValueError: last_epoch < -1. KeyError: resuming (last_epoch >= 0) without
            ``initial_lr`` in the groups.
    """

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        validator.check_value_type('last_epoch', last_epoch, [int])
        if last_epoch < -1:
            raise ValueError(f"Invalid last_epoch: {last_epoch}")
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault('initial_lr', f32(group['lr']._data))
        else:
            for i, group in enumerate(optimizer.param_groups):
                if 'initial_lr' not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] "
                                   f"when resuming an optimizer")
        self.base_lrs = [f32(group['initial_lr']) for group in optimizer.param_groups]
        self.optimizer = optimizer
        self._last_lr = list(optimizer.lrs)
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = _host(last_epoch, f'last_epoch_{type(self).__name__}')
        self.step()

    @property
    def _epoch(self):
        return f32(self.last_epoch._data)

    def _rates(self):
        return [f32(lr._data) for lr in self._last_lr]

    def get_lr(self):
        """The rates of the epoch ``last_epoch`` has reached (from the current ones); each
        scheduler defines it."""
        raise NotImplementedError(f"{type(self).__name__} defines no get_lr: a scheduler "
                                  f"subclass computes its rates there")

    def get_last_lr(self):
        """The current rate of each group, as float32 Tensors."""
        return _values(self._last_lr)

    def step(self, epoch=None):
        """Advance one epoch, or go to ``epoch``; sets every group's rate."""
        if epoch is None:
            self.last_epoch._data += 1
            values = self.get_lr()
        else:
            self.last_epoch._data[...] = epoch
            closed = getattr(self, '_get_closed_form_lr', None)
            values = closed() if closed is not None else self.get_lr()
        for lr, value in zip(self._last_lr, values):
            lr._data[...] = value
        return True


class StepLR(LRScheduler):
    """Multiply the rates by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        if not isinstance(step_size, int):
            raise TypeError(f"For 'StepLR', the 'step_size' must be int, but got "
                            f"{type(step_size)}.")
        if not isinstance(gamma, float):
            raise TypeError(f"For 'StepLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0 or e % self.step_size != 0:
            return self._rates()
        return [lr * f32(self.gamma) for lr in self._rates()]

    def _get_closed_form_lr(self):
        return [base * f32(self.gamma) ** (self._epoch // self.step_size)
                for base in self.base_lrs]


class LinearLR(LRScheduler):
    """Scale the rates linearly from ``start_factor`` to ``end_factor`` over ``total_iters``."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5,
                 last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError('Starting multiplicative factor expected to be greater than 0 and '
                             'less than or equal to 1.')
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError('Ending multiplicative factor expected to be between 0 and 1.')
        if not isinstance(total_iters, int):
            raise TypeError(f"For 'LinearLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0:
            return [lr * f32(self.start_factor) for lr in self._rates()]
        if e > self.total_iters:
            return self._rates()
        span = self.end_factor - self.start_factor
        factor = 1. + span / (self.total_iters * self.start_factor + (e - 1) * span)
        return [lr * f32(factor) for lr in self._rates()]

    def _get_closed_form_lr(self):
        span = self.end_factor - self.start_factor
        factor = self.start_factor + span * min(self.total_iters, self._epoch) / self.total_iters
        return [base * f32(factor) for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the rates by ``gamma`` every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        if not isinstance(gamma, float):
            raise TypeError(f"For 'ExponentialLR', the 'gamma' must be float, but got "
                            f"{type(gamma)}.")
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self._epoch == 0:
            return self._rates()
        return [lr * f32(self.gamma) for lr in self._rates()]

    def _get_closed_form_lr(self):
        return [base * f32(self.gamma) ** self._epoch for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the rates as (1 - epoch / total_iters) ** power, to 0 at ``total_iters``."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        if not isinstance(power, float):
            raise TypeError(f"For 'PolynomialLR', the 'power' must be float, but got "
                            f"{type(power)}.")
        if power < 0:
            raise ValueError(f"For 'PolynomialLR', the 'power' must be >= 0, but got {power}.")
        if not isinstance(total_iters, int):
            raise TypeError(f"For 'PolynomialLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, n = self._epoch, self.total_iters
        if e == 0 or e > n:
            return self._rates()
        factor = ((f32(1.0) - e / f32(n)) / (f32(1.0) - (e - 1) / f32(n))) ** f32(self.power)
        return [lr * factor for lr in self._rates()]

    def _get_closed_form_lr(self):
        n = self.total_iters
        factor = (f32(1.0) - min(f32(n), self._epoch) / f32(n)) ** f32(self.power)
        return [base * factor for base in self.base_lrs]


def _lambdas(optimizer, lr_lambda):
    count = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != count:
            raise ValueError(f"Expected {count} lr_lambdas, but got {len(lr_lambda)}")
        return list(lr_lambda)
    return [lr_lambda] * count


class LambdaLR(LRScheduler):
    """Set each rate to its initial rate times ``lr_lambda(epoch)`` (one function, or one per
    group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = int(self._epoch)
        return [base * f32(fn(e)) for fn, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(LRScheduler):
    """Multiply each rate by ``lr_lambda(epoch)`` every epoch."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = int(self._epoch)
        if e > 0:
            return [lr * f32(fn(e)) for fn, lr in zip(self.lr_lambdas, self._rates())]
        return self._rates()


class MultiStepLR(LRScheduler):
    """Multiply the rates by ``gamma`` at each milestone epoch (twice for a milestone listed
    twice)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        validator.check_value_type('milestones', milestones, [list])
        for milestone in milestones:
            if not isinstance(milestone, int):
                raise TypeError(f"For 'MultiStepLR', elements of the 'milestones' must be type "
                                f"of int, but got one element of 'milestones' type: "
                                f"{type(milestone)}.")
        validator.check_value_type('gamma', gamma, [float, int])
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        times = self.milestones.get(int(self._epoch), 0)
        return [lr * f32(self.gamma) ** times for lr in self._rates()] if times else \
            self._rates()


class ConstantLR(LRScheduler):
    """Scale the rates by ``factor`` until epoch ``total_iters``, then restore them."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError('Constant multiplicative factor expected to be between 0 and 1.')
        if not isinstance(total_iters, int):
            raise TypeError(f"For 'ConstantLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0:
            return [lr * f32(self.factor) for lr in self._rates()]
        if e != self.total_iters:
            return self._rates()
        return [lr / f32(self.factor) for lr in self._rates()]

    def _get_closed_form_lr(self):
        factor = self.factor + (self._epoch >= self.total_iters) * (1 - self.factor)
        return [base * f32(factor) for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Anneal the rates along a cosine from the initial rate to ``eta_min`` over ``T_max``
    epochs (and back, periodically)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):  # noqa: N803
        if not isinstance(eta_min, (float, int)):
            raise TypeError(f"For 'CosineAnnealingLR', the 'eta_min' must be float or int, but "
                            f"got {type(eta_min)}.")
        if not isinstance(T_max, int):
            raise TypeError(f"For 'CosineAnnealingLR', the 'T_max' must be int, but got "
                            f"{type(T_max)}.")
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, t, low = self._epoch, self.T_max, f32(self.eta_min)
        if e == 0:
            return self._rates()
        if (e - 1 - t) % (2 * t) == 0:
            half = (f32(1) - np.cos(f32(math.pi / t))) / f32(2)
            return [lr + (base - low) * half for base, lr in zip(self.base_lrs, self._rates())]
        ratio = (f32(1) + np.cos(f32(math.pi) * e / f32(t))) / \
            (f32(1) + np.cos(f32(math.pi) * (e - 1) / f32(t)))
        return [ratio * (lr - low) + low for lr in self._rates()]

    def _get_closed_form_lr(self):
        low = f32(self.eta_min)
        cos = np.cos(f32(math.pi) * self._epoch / f32(self.T_max))
        return [low + (base - low) * (f32(1) + cos) / f32(2) for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every ``T_i`` epochs, ``T_i`` starting at ``T_0`` and
    multiplied by ``T_mult`` at each restart."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1):  # noqa: N803
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"T_0 should be an integer and equal or greater than 0, but got "
                             f"{T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"T_mult should be an integer and equal or greater than 1, but got "
                             f"{T_mult}")
        validator.check_value_type('eta_min', eta_min, [float, int])
        self.T_0 = T_0
        self.T_i = f32(T_0)
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = f32(last_epoch)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        low = f32(self.eta_min)
        cos = np.cos(f32(math.pi) * self.T_cur / self.T_i)
        return [low + (base - low) * (f32(1) + cos) / f32(2) for base in self.base_lrs]

    def step(self, epoch=None):
        """Advance one epoch, or go to ``epoch`` (>= 0)."""
        if epoch is None and self._epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self._epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur - self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"epoch should be a non-negative integer, but got {epoch}")
            epoch = f32(epoch)
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % f32(self.T_0)
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = f32(epoch - self.T_0 * (self.T_mult ** n - 1) /
                                     (self.T_mult - 1))
                    self.T_i = f32(self.T_0 * self.T_mult ** n)
            else:
                self.T_i = f32(self.T_0)
                self.T_cur = epoch
        self.last_epoch._data[...] = math.floor(epoch)
        for lr, value in zip(self._last_lr, self.get_lr()):
            lr._data[...] = value
        return True


class CyclicLR(LRScheduler):
    """Cycle the rates between ``base_lr`` and ``max_lr``: up over ``step_size_up`` epochs,
    down over ``step_size_down``; the amplitude scaled per cycle ('triangular': 1,
    'triangular2': halved each cycle), per epoch ('exp_range': gamma ** epoch) or by
    ``scale_fn``."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode='triangular', gamma=1.0, scale_fn=None, scale_mode='cycle',
                 last_epoch=-1):
        base_lrs = self._preprocess_input_param(optimizer, base_lr, 'base_lr')
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group['lr']._data[...] = lr
        self.max_lrs = [f32(lr) for lr in self._preprocess_input_param(optimizer, max_lr,
                                                                        'max_lr')]
        step_size_up = float(step_size_up)
        step_size_down = step_size_up if step_size_down is None else float(step_size_down)
        self.total_step_size = step_size_up + step_size_down
        self.step_up_ratio = step_size_up / self.total_step_size
        if mode not in ('triangular', 'triangular2', 'exp_range') and scale_fn is None:
            raise ValueError('mode is invalid and scale_fn is None')
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        if scale_fn is None:
            self.scale_mode = 'iterations' if mode == 'exp_range' else 'cycle'
        super().__init__(optimizer, last_epoch)
        self.base_lrs = [f32(lr) for lr in base_lrs]

    @staticmethod
    def _preprocess_input_param(optimizer, param, name):
        if isinstance(param, (list, tuple)):
            if len(param) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} values for {name}, "
                                 f"got {len(param)}")
            return list(param)
        return [param] * len(optimizer.param_groups)

    def scale_fn(self, x):
        """The amplitude's scale at cycle (or epoch) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == 'triangular':
            return 1.
        if self.mode == 'triangular2':
            return 1 / (2. ** (x - 1))
        return self.gamma ** x

    def get_lr(self):
        e = self._epoch
        cycle = np.floor(f32(1) + e / f32(self.total_step_size))
        x = f32(1.) + e / f32(self.total_step_size) - cycle
        ratio = f32(self.step_up_ratio)
        scale = x / ratio if x <= ratio else (x - f32(1)) / (ratio - f32(1))
        at = cycle if self.scale_mode == 'cycle' else e
        return [base + (top - base) * scale * f32(self.scale_fn(at))
                for base, top in zip(self.base_lrs, self.max_lrs)]


class SequentialLR:
    """Run ``schedulers`` one after another, switching at the ``milestones`` epochs.

    Raises:
        ValueError: a scheduler of another optimizer, or not one milestone fewer than
            schedulers.
    """

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        for i, scheduler in enumerate(schedulers):
            if scheduler.optimizer is not optimizer:
                raise ValueError(f"Sequential Schedulers expects all schedulers to belong to the "
                                 f"same optimizer, but got scheduler at index {i} is different "
                                 f"from the optimizer passed in.")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(f"Sequential Schedulers expects number of schedulers provided to be "
                             f"one more than the number of milestone points, but got number of "
                             f"schedulers {len(schedulers)} and the number of milestones "
                             f"{len(milestones)}")
        self._schedulers = schedulers
        self.milestones = milestones
        self.last_epoch = _host(last_epoch + 1, 'last_epoch_SequentialLR')
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            group['lr']._data[...] = group['initial_lr']
        for scheduler in schedulers:
            scheduler.last_epoch._data -= 1
        schedulers[0].step()
        self._last_lr = schedulers[0]._last_lr

    def step(self):
        """Advance one epoch with the scheduler of this epoch (restarted at its milestone)."""
        self.last_epoch._data += 1
        epoch = int(self.last_epoch._data)
        index = bisect_right(self.milestones, epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self.milestones[index - 1] == epoch:
            scheduler.step(0)
        else:
            scheduler.step()

    def get_last_lr(self):
        """The current rate of each group, as float32 Tensors."""
        return _values(self._last_lr)


class ReduceLROnPlateau:
    """Multiply the rates by ``factor`` (not below ``min_lr``) once ``metrics`` passed to
    ``step`` has not improved for more than ``patience`` epochs, then wait ``cooldown``.

    Raises:
        ValueError: factor >= 1, a bad mode or threshold_mode, a min_lr list of the wrong
            length. TypeError: optimizer not an experimental Optimizer.
    """

    def __init__(self, optimizer, mode='min', factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode='rel', cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("The lr factor should be less than 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"Expected an `Optimizer`, but got type {type(optimizer).__name__}")
        groups = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != groups:
                raise ValueError(f"Expected {groups} min_lrs, got {len(min_lr)}")
            self.min_lrs = [f32(lr) for lr in min_lr]
        else:
            self.min_lrs = [f32(min_lr)] * groups
        if mode not in ('min', 'max'):
            raise ValueError(f"`mode` should be 'min' or 'max', but got {mode}.")
        if threshold_mode not in ('rel', 'abs'):
            raise ValueError(f"`threshold mode` should be 'rel' or 'abs', but got "
                             f"{threshold_mode}.")
        self.factor, self.optimizer, self.mode, self.patience = factor, optimizer, mode, patience
        self.threshold, self.threshold_mode, self.cooldown, self.eps = \
            threshold, threshold_mode, cooldown, eps
        self.last_epoch = 0
        self.best = f32('inf') if mode == 'min' else f32('-inf')
        self.cooldown_counter = 0
        self.wait = 0
        self._last_lr = [group['lr'] for group in optimizer.param_groups]

    def step(self, metrics):
        """Record this epoch's ``metrics`` (a number or a 0-d Tensor)."""
        current = f32(metrics.asnumpy() if isinstance(metrics, Tensor) else metrics)
        self.last_epoch += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        else:
            self.wait += 1
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.wait > self.patience:
            for lr, low in zip(self._last_lr, self.min_lrs):
                old = f32(lr._data)
                new = max(old * f32(self.factor), low)
                if old > new + f32(self.eps):
                    lr._data[...] = new
            self.cooldown_counter = self.cooldown
            self.wait = 0
        return True

    def in_cooldown(self):
        """Whether the scheduler is waiting after a reduction."""
        return self.cooldown_counter > 0

    def _is_improvement(self, current, best):
        if self.mode == 'min' and self.threshold_mode == 'rel':
            return current < best * f32(1. - self.threshold)
        if self.mode == 'min':
            return current < best - f32(self.threshold)
        if self.threshold_mode == 'rel':
            return current > best * f32(self.threshold + 1.)
        return current > best + f32(self.threshold)

    def get_last_lr(self):
        """The current rate of each group, as float32 Tensors."""
        return _values(self._last_lr)
