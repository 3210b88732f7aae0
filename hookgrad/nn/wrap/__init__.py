"""``mindspore.nn.wrap``: the training wrappers (hookgrad/nn/wrap/cell_wrapper.py, as MindSpore
lays them out)."""
from .cell_wrapper import *  # noqa: F401,F403
from .cell_wrapper import __all__

from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.wrap')
