"""``mindspore.nn.learning_rate_schedule``: the learning-rate schedule Cells (see
nn/optim/lr.py)."""
from .optim.lr import (LearningRateSchedule, ExponentialDecayLR, NaturalExpDecayLR,
                       InverseDecayLR, CosineDecayLR, PolynomialDecayLR, WarmUpLR)

__all__ = ['LearningRateSchedule', 'ExponentialDecayLR', 'NaturalExpDecayLR', 'InverseDecayLR',
           'CosineDecayLR', 'PolynomialDecayLR', 'WarmUpLR']

from ..compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.learning_rate_schedule')
