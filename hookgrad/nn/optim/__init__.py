"""``hookgrad.optim``: optimizers and learning-rate schedules, exported from ``hookgrad.nn``."""
from .optimizer import Optimizer
from .sgd import SGD, Momentum
from .adam import Adam, AdamWeightDecay, LazyAdam
from .adaptive import Adagrad, RMSProp, Adadelta, AdaMax
from .proximal import ProximalAdagrad, FTRL
from .stepwise import ASGD, Rprop
from .large_batch import Lamb
from .adafactor import AdaFactor
from .lars import LARS
from .lr import (LearningRateSchedule, ExponentialDecayLR, NaturalExpDecayLR, InverseDecayLR,
                 CosineDecayLR, PolynomialDecayLR, WarmUpLR, piecewise_constant_lr,
                 exponential_decay_lr, natural_exp_decay_lr, inverse_decay_lr, cosine_decay_lr,
                 polynomial_decay_lr, warmup_lr)

__all__ = ['Optimizer', 'SGD', 'Momentum', 'Adam', 'AdamWeightDecay', 'LazyAdam', 'Adagrad',
           'RMSProp', 'Adadelta', 'AdaMax', 'ProximalAdagrad', 'FTRL', 'ASGD', 'Rprop', 'Lamb',
           'AdaFactor', 'LARS',
           'LearningRateSchedule',
           'ExponentialDecayLR', 'NaturalExpDecayLR', 'InverseDecayLR', 'CosineDecayLR',
           'PolynomialDecayLR', 'WarmUpLR', 'piecewise_constant_lr', 'exponential_decay_lr',
           'natural_exp_decay_lr', 'inverse_decay_lr', 'cosine_decay_lr', 'polynomial_decay_lr',
           'warmup_lr']


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.optim')
