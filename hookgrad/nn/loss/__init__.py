"""``mindspore.nn.loss``: the loss cells (hookgrad/nn/loss/loss.py, as MindSpore lays them out)."""
from .loss import *  # noqa: F401,F403
from .loss import __all__

from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.loss')
