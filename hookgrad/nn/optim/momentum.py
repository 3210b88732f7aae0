"""``mindspore.nn.optim.momentum``: where MindSpore code imports ``Momentum`` from."""
from .sgd import Momentum

__all__ = ['Momentum']
