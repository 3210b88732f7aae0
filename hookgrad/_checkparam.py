"""``mindspore._checkparam``: the argument checks (hookgrad/compat/checkparam.py)."""
from .compat.checkparam import *  # noqa: F401,F403
from .compat.checkparam import __all__  # noqa: F401
