"""``mindspore.nn.dynamic_lr``: learning rates as per-step lists (see nn/optim/lr.py)."""
from .optim.lr import (piecewise_constant_lr, exponential_decay_lr, natural_exp_decay_lr,
                       inverse_decay_lr, cosine_decay_lr, polynomial_decay_lr, warmup_lr)

__all__ = ['piecewise_constant_lr', 'exponential_decay_lr', 'natural_exp_decay_lr',
           'inverse_decay_lr', 'cosine_decay_lr', 'polynomial_decay_lr', 'warmup_lr']

from ..compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.dynamic_lr')
