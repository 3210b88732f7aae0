"""MindSpore's ``mindspore._c_expression`` (its C++ core): the names MindSpore's own tests
import at load time. hookgrad has no C++ core; other names raise ``NotAvailable``."""
import enum

from .compat.names import reporter as _reporter

__all__ = ['CreationType']


class CreationType(enum.IntEnum):
    """How a view tensor was created (MindSpore's values); hookgrad's views record none."""
    DEFAULT = 0
    NO_GRAD_MODE = 1
    MULTI_OUTPUT = 2
    CUSTOM_BPROP = 3


__getattr__ = _reporter('mindspore._c_expression')
