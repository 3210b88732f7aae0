"""``mindspore.device_context.ascend``: hookgrad has no Ascend backend (it computes on the CPU
or an NVIDIA GPU)."""
from ..compat.names import reporter as _reporter

__all__ = ['device_count', 'is_available']


def device_count():
    """Raises: RuntimeError, as MindSpore does where there is no Ascend device."""
    raise RuntimeError("Device_target Ascend not exist: hookgrad has no Ascend backend (it "
                       "computes on the CPU or an NVIDIA GPU)")


def is_available():
    """False: hookgrad has no Ascend backend."""
    return False


__getattr__ = _reporter('mindspore.device_context.ascend')
