"""Learning-rate schedules (MindSpore 2.x names and formulas).

Two kinds, as in MindSpore:
- functions that return the whole schedule as a Python list, one value per step
  (``piecewise_constant_lr``, ``exponential_decay_lr``, ``cosine_decay_lr``...); an optimizer
  given a list takes its i-th value at step i;
- ``LearningRateSchedule`` Cells called with the step number (a Tensor) that return the rate for
  that step as a 0-d Float32 Tensor (``ExponentialDecayLR``, ``CosineDecayLR``...); an optimizer
  calls them with its ``global_step`` on every update.
"""
import math
import numbers

import numpy as np

from ..._tensor import Tensor
from ..cell import Cell
from ..parameter import Parameter

__all__ = ['LearningRateSchedule', 'ExponentialDecayLR', 'NaturalExpDecayLR', 'InverseDecayLR',
           'CosineDecayLR', 'PolynomialDecayLR', 'WarmUpLR', 'piecewise_constant_lr',
           'exponential_decay_lr', 'natural_exp_decay_lr', 'inverse_decay_lr', 'cosine_decay_lr',
           'polynomial_decay_lr', 'warmup_lr']


# ----------------------------------------------------------------- argument checks
def _positive_int(value, arg, who):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{who}: {arg} must be a positive int, got {value!r}")
    if value <= 0:
        raise ValueError(f"{who}: {arg} must be a positive int, got {value}")
    return int(value)


def _float(value, arg, who, positive=True):
    """``value`` as a float: a Python float (MindSpore rejects ints here), > 0 or >= 0."""
    if not isinstance(value, float):
        raise TypeError(f"{who}: {arg} must be a float, got {type(value).__name__} {value!r}")
    if not math.isfinite(value) or (value <= 0 if positive else value < 0):
        bound = '> 0' if positive else '>= 0'
        raise ValueError(f"{who}: {arg} must be a finite float {bound}, got {value}")
    return value


def _bool(value, arg, who):
    if not isinstance(value, bool):
        raise TypeError(f"{who}: {arg} must be a bool, got {value!r}")
    return value


def _epochs(total_step, step_per_epoch, decay_epoch, who, decay_arg='decay_epoch'):
    return (_positive_int(total_step, 'total_step', who),
            _positive_int(step_per_epoch, 'step_per_epoch', who),
            _positive_int(decay_epoch, decay_arg, who))


# ----------------------------------------------------------------- list schedules
def piecewise_constant_lr(milestone, learning_rates):
    """A list in which ``learning_rates[t]`` fills steps ``milestone[t-1]`` .. ``milestone[t]-1``.

    Args:
        milestone: list/tuple of positive ints, non-decreasing; the last is the list's length.
        learning_rates: list/tuple of floats, as many as ``milestone``.

    Returns:
        list[float] of length ``milestone[-1]``.

    Raises:
        TypeError: for arguments that are not lists/tuples, a milestone that is not an int or a
            rate that is not a float.
        ValueError: for lists of different lengths, a milestone below 1 or smaller than the one
            before it.

    >>> piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01])
    [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]
    """
    who = 'piecewise_constant_lr'
    for arg, value in (('milestone', milestone), ('learning_rates', learning_rates)):
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{who}: {arg} must be a list or tuple, got {type(value).__name__}")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"{who}: milestone has {len(milestone)} entries but learning_rates has "
                         f"{len(learning_rates)}; they must have the same length")
    lr, last = [], 0
    for i, (item, rate) in enumerate(zip(milestone, learning_rates)):
        _positive_int(item, f'milestone[{i}]', who)
        if not isinstance(rate, float):
            raise TypeError(f"{who}: learning_rates[{i}] must be a float, got {rate!r}")
        if item < last:
            raise ValueError(f"{who}: milestone[{i}] = {item} is smaller than milestone[{i - 1}] "
                             f"= {last}; milestones must not decrease")
        lr += [rate] * (item - last)
        last = item
    return lr


def _decay_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair,
                  who):
    _float(learning_rate, 'learning_rate', who)
    _float(decay_rate, 'decay_rate', who)
    _bool(is_stair, 'is_stair', who)
    return _epochs(total_step, step_per_epoch, decay_epoch, who)


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """``learning_rate * decay_rate ** (epoch / decay_epoch)``, ``epoch = i // step_per_epoch``.

    Args:
        learning_rate: the initial rate, a float > 0.
        decay_rate: the decay factor, a float > 0.
        total_step: the list's length, a positive int.
        step_per_epoch: steps in one epoch, a positive int.
        decay_epoch: epochs per decay period, a positive int.
        is_stair: decay once per ``decay_epoch`` epochs (floor of the exponent). Default False.

    Returns:
        list[float] of length ``total_step``.

    Raises:
        TypeError: for a rate that is not a float, a count that is not an int or a non-bool
            ``is_stair``.
        ValueError: for a rate <= 0 or a count < 1.

    >>> exponential_decay_lr(0.1, 0.9, 6, 2, 1)
    [0.1, 0.1, 0.09000000000000001, 0.09000000000000001, 0.08100000000000002, 0.08100000000000002]
    """
    total, per_epoch, decay = _decay_inputs(learning_rate, decay_rate, total_step, step_per_epoch,
                                            decay_epoch, is_stair, 'exponential_decay_lr')
    lr = []
    for i in range(total):
        p = math.floor(i / per_epoch) / decay
        lr.append(learning_rate * decay_rate ** (math.floor(p) if is_stair else p))
    return lr


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """``learning_rate * e ** (-decay_rate * epoch)`` for each step (epoch rounded down to a
    multiple of ``decay_epoch`` when ``is_stair``). Arguments and errors as
    ``exponential_decay_lr``.

    >>> natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True)
    [0.1, 0.1, 0.1, 0.1, 0.016529888822158657, 0.016529888822158657]
    """
    total, per_epoch, decay = _decay_inputs(learning_rate, decay_rate, total_step, step_per_epoch,
                                            decay_epoch, is_stair, 'natural_exp_decay_lr')
    lr = []
    for i in range(total):
        epoch = math.floor(i / per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay) * decay
        lr.append(learning_rate * math.e ** (-decay_rate * epoch))
    return lr


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False):
    """``learning_rate / (1 + decay_rate * epoch / decay_epoch)`` for each step (the ratio
    floored when ``is_stair``). Arguments and errors as ``exponential_decay_lr``.

    >>> inverse_decay_lr(0.1, 0.5, 6, 1, 1, True)
    [0.1, 0.06666666666666667, 0.05, 0.04, 0.03333333333333333, 0.028571428571428574]
    """
    total, per_epoch, decay = _decay_inputs(learning_rate, decay_rate, total_step, step_per_epoch,
                                            decay_epoch, is_stair, 'inverse_decay_lr')
    lr = []
    for i in range(total):
        epoch = math.floor(i / per_epoch)
        if is_stair:
            lr.append(learning_rate / (1 + decay_rate * math.floor(epoch / decay)))
        else:
            lr.append(learning_rate / (1 + decay_rate * epoch / decay))
    return lr


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """``min_lr + (max_lr - min_lr) / 2 * (1 + cos(pi * min(epoch, decay_epoch) / decay_epoch))``.

    Args:
        min_lr: the final rate, a float >= 0.
        max_lr: the initial rate, a float > ``min_lr``.
        total_step, step_per_epoch, decay_epoch: positive ints, as ``exponential_decay_lr``.

    Returns:
        list[float] of length ``total_step``.

    Raises:
        TypeError: for a rate that is not a float or a count that is not an int.
        ValueError: for ``min_lr < 0``, ``max_lr <= min_lr`` or a count < 1.

    >>> cosine_decay_lr(0.01, 0.1, 6, 2, 2)
    [0.1, 0.1, 0.05500000000000001, 0.05500000000000001, 0.01, 0.01]
    """
    who = 'cosine_decay_lr'
    _float(min_lr, 'min_lr', who, positive=False)
    _float(max_lr, 'max_lr', who)
    total, per_epoch, decay = _epochs(total_step, step_per_epoch, decay_epoch, who)
    if min_lr >= max_lr:
        raise ValueError(f"{who}: max_lr must be greater than min_lr, got max_lr={max_lr}, "
                         f"min_lr={min_lr}")
    delta = 0.5 * (max_lr - min_lr)
    lr = []
    for i in range(total):
        epoch = min(math.floor(i / per_epoch), decay)
        lr.append(min_lr + delta * (1 + math.cos(math.pi * epoch / decay)))
    return lr


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch,
                        power, update_decay_epoch=False):
    """``(learning_rate - end) * (1 - e / D) ** power + end`` with ``e = min(epoch, D)``,
    ``D = decay_epoch`` (with ``update_decay_epoch``: ``e = epoch`` and ``D`` the next multiple of
    ``decay_epoch`` at or above it, at least ``decay_epoch``).

    Raises:
        TypeError / ValueError: as ``exponential_decay_lr``; ``end_learning_rate`` must be a
            float >= 0 and ``power`` a float > 0.

    >>> polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5)
    [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01]
    """
    who = 'polynomial_decay_lr'
    _float(learning_rate, 'learning_rate', who)
    _float(end_learning_rate, 'end_learning_rate', who, positive=False)
    _float(power, 'power', who)
    total, per_epoch, decay = _epochs(total_step, step_per_epoch, decay_epoch, who)
    _bool(update_decay_epoch, 'update_decay_epoch', who)
    delta = learning_rate - end_learning_rate
    lr = []
    for i in range(total):
        epoch = math.floor(i / per_epoch)
        if update_decay_epoch:
            span, e = decay * max(math.ceil(epoch / decay), 1), epoch
        else:
            span, e = decay, min(epoch, decay)
        lr.append(delta * (1 - e / span) ** power + end_learning_rate)
    return lr


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """``learning_rate * min(epoch, warmup_epoch) / warmup_epoch`` for each step.

    Raises:
        TypeError / ValueError: ``learning_rate`` must be a float >= 0, the counts positive ints.

    >>> warmup_lr(0.1, 6, 2, 2)
    [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]
    """
    who = 'warmup_lr'
    _float(learning_rate, 'learning_rate', who, positive=False)
    total, per_epoch, warmup = _epochs(total_step, step_per_epoch, warmup_epoch, who,
                                       'warmup_epoch')
    return [learning_rate * min(math.floor(i / per_epoch), warmup) / warmup
            for i in range(total)]


# ----------------------------------------------------------------- Cell schedules
def _step_value(global_step, who):
    """The step number carried by ``global_step`` (a one-element Tensor or an int), a float."""
    if isinstance(global_step, Tensor):
        data = global_step._data
        if data.size != 1 or data.dtype.kind not in 'iufV':
            raise ValueError(f"{who}: global_step must be a one-element integer or float Tensor, "
                             f"got shape {global_step.shape} and dtype {global_step.dtype}")
        return float(np.float32(data.reshape(())))
    if isinstance(global_step, numbers.Integral) and not isinstance(global_step, bool):
        return float(np.float32(global_step))
    raise TypeError(f"{who}: global_step must be a Tensor (or an int), got "
                    f"{type(global_step).__name__}")


_F = np.float32


def _pow(base, exponent):
    """``base ** exponent`` of float32 numbers as MindSpore's Pow kernel computes it: in float64,
    rounded once."""
    return _F(np.power(np.float64(_F(base)), np.float64(_F(exponent))))


def _rate(value):
    """A 0-d Float32 Tensor. Schedules compute in float32, step by step as MindSpore's ops do
    (``0.1 * 0.9`` is 0.089999996, not float64's product rounded once), so the rates, and the
    training that follows them, are MindSpore's to the bit."""
    return Tensor._wrap(np.asarray(value, dtype=np.float32))


class LearningRateSchedule(Cell):
    """Base class of schedules: ``construct(global_step)`` returns the rate as a 0-d Tensor.

    Subclass it and define ``construct``; pass an instance as an optimizer's
    ``learning_rate``: the optimizer calls it with its ``global_step`` (an Int32 Tensor of
    shape (1,)) on every update.
    """

    def construct(self, global_step):
        raise NotImplementedError(f"{type(self).__name__} must define construct(global_step), "
                                  f"returning the learning rate as a one-element Tensor")


class _DecaySchedule(LearningRateSchedule):
    """Shared checks of ExponentialDecayLR, NaturalExpDecayLR and InverseDecayLR."""

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        who = f"nn.{type(self).__name__}"
        self.learning_rate = _float(learning_rate, 'learning_rate', who)
        self.decay_rate = _float(decay_rate, 'decay_rate', who)
        self.decay_steps = _positive_int(decay_steps, 'decay_steps', who)
        self.is_stair = _bool(is_stair, 'is_stair', who)


class ExponentialDecayLR(_DecaySchedule):
    """``learning_rate * decay_rate ** p``, ``p = step / decay_steps`` (floored if ``is_stair``).

    Args:
        learning_rate: the initial rate, a float > 0.
        decay_rate: the decay factor, a float > 0.
        decay_steps: steps per decay period, a positive int.
        is_stair: decay once every ``decay_steps`` steps. Default False.

    Inputs:
        global_step: the step number, a one-element Tensor (or an int).

    Outputs:
        Float32 Tensor of shape ().

    Raises:
        TypeError: for a rate that is not a float, a non-int ``decay_steps`` or a non-bool
            ``is_stair``.
        ValueError: for a rate <= 0 or ``decay_steps`` < 1.

    >>> import hookgrad as ms
    >>> print(ms.nn.ExponentialDecayLR(0.1, 0.9, 4)(ms.Tensor(2, ms.int32)))
    0.094868325
    """

    def construct(self, global_step):
        p = _F(_step_value(global_step, 'nn.ExponentialDecayLR')) / _F(self.decay_steps)
        if self.is_stair:
            p = np.floor(p)
        return _rate(_F(self.learning_rate) * _pow(self.decay_rate, p))


class NaturalExpDecayLR(_DecaySchedule):
    """``learning_rate * e ** (-decay_rate * p)``, ``p = step`` (rounded down to a multiple of
    ``decay_steps`` if ``is_stair``). Arguments, inputs and errors as ``ExponentialDecayLR``.

    >>> import hookgrad as ms
    >>> print(ms.nn.NaturalExpDecayLR(0.1, 0.9, 4, True)(ms.Tensor(2, ms.int32)))
    0.1
    """

    def construct(self, global_step):
        p = _F(_step_value(global_step, 'nn.NaturalExpDecayLR'))
        if self.is_stair:
            p = np.floor_divide(p, _F(self.decay_steps)) * _F(self.decay_steps)
        return _rate(_F(self.learning_rate) * _pow(math.e, -_F(self.decay_rate) * p))


class InverseDecayLR(_DecaySchedule):
    """``learning_rate / (1 + decay_rate * p)``, ``p = step / decay_steps`` (floored if
    ``is_stair``). Arguments, inputs and errors as ``ExponentialDecayLR``.

    >>> import hookgrad as ms
    >>> print(ms.nn.InverseDecayLR(0.1, 0.5, 2)(ms.Tensor(4, ms.int32)))
    0.05
    """

    def construct(self, global_step):
        p = _F(_step_value(global_step, 'nn.InverseDecayLR')) / _F(self.decay_steps)
        if self.is_stair:
            p = np.floor(p)
        # a number over a tensor is its reciprocal times the number in MindSpore
        return _rate(_F(self.learning_rate) * (_F(1) / (_F(1) + _F(self.decay_rate) * p)))


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + (max_lr - min_lr) / 2 * (1 + cos(pi * min(step, decay_steps) / decay_steps))``.

    Args:
        min_lr: the final rate, a float >= 0.
        max_lr: the initial rate, a float > ``min_lr``.
        decay_steps: steps to decay over, a positive int.

    Inputs:
        global_step: the step number, a one-element Tensor (or an int).

    Outputs:
        Float32 Tensor of shape ().

    Raises:
        TypeError: for a rate that is not a float or a non-int ``decay_steps``.
        ValueError: for ``min_lr < 0``, ``max_lr <= min_lr`` or ``decay_steps`` < 1.

    >>> import hookgrad as ms
    >>> print(ms.nn.CosineDecayLR(0.01, 0.1, 4)(ms.Tensor(2, ms.int32)))
    0.055
    """

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        who = 'nn.CosineDecayLR'
        self.min_lr = _float(min_lr, 'min_lr', who, positive=False)
        self.max_lr = _float(max_lr, 'max_lr', who)
        self.decay_steps = _positive_int(decay_steps, 'decay_steps', who)
        if min_lr >= max_lr:
            raise ValueError(f"{who}: max_lr must be greater than min_lr, got max_lr={max_lr}, "
                             f"min_lr={min_lr}")
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step):
        p = _F(min(_step_value(global_step, 'nn.CosineDecayLR'), self.decay_steps))
        turn = _F(np.sin(np.float64(_F(math.pi) * (p / _F(self.decay_steps) + _F(0.5)))))
        return _rate(_F(self.min_lr) + _F(self.delta) * (_F(1) + turn))


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end_learning_rate) * (1 - s / D) ** power + end_learning_rate``.

    ``s = min(step, decay_steps)`` and ``D = decay_steps``; with ``update_decay_steps``,
    ``s = step`` and ``D = decay_steps * max(ceil(step / decay_steps), 1)``.

    Args:
        learning_rate: the initial rate, a float > 0.
        end_learning_rate: the final rate, a float >= 0.
        decay_steps: steps to decay over, a positive int.
        power: the polynomial's power, a float > 0.
        update_decay_steps: restart the decay every ``decay_steps`` steps. Default False.

    Inputs:
        global_step: the step number, a one-element Tensor (or an int).

    Outputs:
        Float32 Tensor of shape ().

    Raises:
        TypeError: for a rate or power that is not a float, a non-int ``decay_steps`` or a
            non-bool ``update_decay_steps``.
        ValueError: for a rate or power out of range or ``decay_steps`` < 1.

    >>> import hookgrad as ms
    >>> print(ms.nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)(ms.Tensor(2, ms.int32)))
    0.07363961
    """

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        who = 'nn.PolynomialDecayLR'
        self.start_learning_rate = _float(learning_rate, 'learning_rate', who)
        self.end_learning_rate = _float(end_learning_rate, 'end_learning_rate', who,
                                        positive=False)
        self.decay_steps = _positive_int(decay_steps, 'decay_steps', who)
        self.power = _float(power, 'power', who)
        self.update_decay_steps = _bool(update_decay_steps, 'update_decay_steps', who)
        self.diff_learning_rate = learning_rate - end_learning_rate

    def construct(self, global_step):
        step = _F(_step_value(global_step, 'nn.PolynomialDecayLR'))
        span = _F(self.decay_steps)
        if self.update_decay_steps:
            span = span * max(np.ceil(step / span), _F(1))
        else:
            step = min(step, span)
        return _rate(_F(self.diff_learning_rate) * _pow(_F(1) - step / span, self.power)
                     + _F(self.end_learning_rate))


class WarmUpLR(LearningRateSchedule):
    """``learning_rate * min(step, warmup_steps) / warmup_steps``.

    Args:
        learning_rate: the rate reached after warm-up, a float >= 0.
        warmup_steps: the number of warm-up steps, a positive int.

    Inputs:
        global_step: the step number, a one-element Tensor (or an int).

    Outputs:
        Float32 Tensor of shape ().

    Raises:
        TypeError: for a non-float ``learning_rate`` or a non-int ``warmup_steps``.
        ValueError: for ``learning_rate < 0`` or ``warmup_steps`` < 1.

    >>> import hookgrad as ms
    >>> print(ms.nn.WarmUpLR(0.1, 2)(ms.Tensor(1, ms.int32)))
    0.05
    """

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        who = 'nn.WarmUpLR'
        self.learning_rate = _float(learning_rate, 'learning_rate', who, positive=False)
        self.warmup_steps = _positive_int(warmup_steps, 'warmup_steps', who)

    def construct(self, global_step):
        p = _F(min(_step_value(global_step, 'nn.WarmUpLR'), self.warmup_steps)) / \
            _F(self.warmup_steps)
        return _rate(_F(self.learning_rate) * p)


class _IteratorLearningRate(LearningRateSchedule):
    """A per-step list of rates held in a 1-d Float32 Parameter: step i takes value i.

    A step past the end raises (as MindSpore's gather of the list does on CPU and GPU) rather
    than silently reusing a value.
    """

    def __init__(self, values, name, who):
        super().__init__(auto_prefix=False)
        self.learning_rate = Parameter(values, name=name, requires_grad=False)
        self._who = who

    def construct(self, global_step):
        values = self.learning_rate._data
        step = int(global_step._data.reshape(()))
        if not 0 <= step < values.shape[0]:
            raise ValueError(f"{self._who}: the learning-rate list '{self.learning_rate.name}' "
                             f"has {values.shape[0]} values (steps 0..{values.shape[0] - 1}), "
                             f"but this is step {step}; give one value per step or use a "
                             f"LearningRateSchedule")
        return Tensor._wrap(values[step].copy())
