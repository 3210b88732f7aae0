"""``mindspore.log``: MindSpore's logger (hookgrad/debug/log.py)."""
from .debug.log import *  # noqa: F401,F403
from .debug.log import __all__, _get_logger  # noqa: F401
from .compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.log')
