"""``mindspore.device_context.cpu``: the CPU backend, always present (one device)."""
from ..compat.names import reporter as _reporter

__all__ = ['device_count', 'is_available']


def device_count():
    """1: the CPU is one device, whatever its cores."""
    return 1


def is_available():
    """True: the CPU backend always runs."""
    return True


__getattr__ = _reporter('mindspore.device_context.cpu')
