"""MindSpore's ``mindspore.experimental.optim``: PyTorch-style optimizers (parameter groups,
per-group hyper-parameters) and their learning-rate schedulers (``lr_scheduler``).

    optimizer = optim.Adam(net.trainable_params(), lr=0.1)
    loss, grads = ms.value_and_grad(forward, None, optimizer.parameters)(x, y)
    optimizer(grads)
"""
from .optimizer import Optimizer
from .sgd import SGD, ASGD
from .adam import Adam, AdamW, Adamax, NAdam, RAdam
from .adaptive import Adadelta, Adagrad, RMSprop, Rprop
from . import lr_scheduler
from ...compat.names import reporter as _reporter

__all__ = ['Optimizer', 'AdamW', 'SGD', 'Adam', 'Adadelta', 'Adagrad', 'ASGD', 'Adamax',
           'RMSprop', 'Rprop', 'RAdam', 'NAdam', 'lr_scheduler']
__getattr__ = _reporter('mindspore.experimental.optim')
