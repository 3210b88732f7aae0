"""``mindspore.version``: the installed version, the same string as ``hookgrad.__version__``."""
from . import __version__  # noqa: F401
