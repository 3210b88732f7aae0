"""``mindspore.log``: MindSpore's logger (hookgrad/debug/log.py)."""
from .debug.log import *  # noqa: F401,F403
from .debug.log import __all__, _get_logger  # noqa: F401
