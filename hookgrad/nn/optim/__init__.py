"""``hookgrad.optim``: optimizers and learning-rate schedules, exported from ``hookgrad.nn``."""
from .optimizer import Optimizer
from .sgd import SGD, Momentum
from .adam import Adam, AdamWeightDecay
from .lr import (LearningRateSchedule, ExponentialDecayLR, NaturalExpDecayLR, InverseDecayLR,
                 CosineDecayLR, PolynomialDecayLR, WarmUpLR, piecewise_constant_lr,
                 exponential_decay_lr, natural_exp_decay_lr, inverse_decay_lr, cosine_decay_lr,
                 polynomial_decay_lr, warmup_lr)

__all__ = ['Optimizer', 'SGD', 'Momentum', 'Adam', 'AdamWeightDecay', 'LearningRateSchedule',
           'ExponentialDecayLR', 'NaturalExpDecayLR', 'InverseDecayLR', 'CosineDecayLR',
           'PolynomialDecayLR', 'WarmUpLR', 'piecewise_constant_lr', 'exponential_decay_lr',
           'natural_exp_decay_lr', 'inverse_decay_lr', 'cosine_decay_lr', 'polynomial_decay_lr',
           'warmup_lr']


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.optim')
