"""``mindspore.hal``: which devices there are and what they are, with the memory, stream and
event functions of ``runtime``.

``device_target`` is 'CPU' or 'GPU' ('Ascend' exists in MindSpore, not in hookgrad); None
means the target new tensors are created on (``set_device``).
"""
from ..compat.names import reporter as _reporter
from ..kernels import backend as _backend, gpu_runtime as _gpu_runtime
from ..runtime.device import (synchronize, memory_allocated, max_memory_allocated,
                              memory_reserved, max_memory_reserved, memory_stats, memory_summary,
                              reset_peak_memory_stats, reset_max_memory_allocated,
                              reset_max_memory_reserved, empty_cache)
from ..runtime.streams import (Stream, Event, current_stream, default_stream, set_cur_stream,
                               StreamCtx, communication_stream)

__all__ = ['device_count', 'is_available', 'is_initialized', 'get_device_name',
           'get_device_properties', 'get_device_capability', 'get_arch_list', 'synchronize',
           'memory_allocated', 'max_memory_allocated', 'memory_reserved', 'max_memory_reserved',
           'memory_stats', 'memory_summary', 'reset_peak_memory_stats',
           'reset_max_memory_allocated', 'reset_max_memory_reserved', 'empty_cache', 'Stream',
           'Event', 'current_stream', 'default_stream', 'set_cur_stream', 'StreamCtx',
           'communication_stream']

_TARGETS = ('CPU', 'GPU', 'Ascend')


def _target(device_target, who):
    if device_target is None:
        return _backend.current.target
    if device_target not in _TARGETS:
        raise ValueError(f"{who}: device_target must be one of {', '.join(_TARGETS)}, got "
                         f"{device_target!r}")
    return device_target


def _gpu_reason():
    """Why there is no GPU, or None when there is one."""
    try:
        _backend.gpu()
    except RuntimeError as e:
        return str(e)
    return None


def is_available(device_target):
    """Whether ``device_target`` can run: the CPU always; the GPU when CuPy finds one."""
    target = _target(device_target, 'is_available')
    if target == 'GPU':
        return _gpu_reason() is None
    return target == 'CPU'


def _require(target, who):
    if target == 'Ascend':
        raise ValueError(f"{who}: hookgrad has no Ascend backend; it computes on the CPU or an "
                         f"NVIDIA GPU")
    if target == 'GPU':
        reason = _gpu_reason()
        if reason is not None:
            raise ValueError(f"{who}: the GPU backend is not available: {reason}")


def is_initialized(device_target):
    """Whether ``device_target`` has been started in this process (the CPU never needs to
    be, as in MindSpore)."""
    target = _target(device_target, 'is_initialized')
    return target == 'GPU' and _gpu_runtime.started()


def device_count(device_target=None):
    """How many devices of ``device_target`` there are (1 for the CPU)."""
    target = _target(device_target, 'device_count')
    _require(target, 'device_count')
    return 1 if target == 'CPU' else _gpu_runtime.gpu_count()


class DeviceProperties:
    """A GPU's properties: ``name``, compute capability ``major``.``minor``,
    ``total_memory`` (bytes) and ``multi_processor_count``."""

    def __init__(self, name, major, minor, total_memory, multi_processor_count):
        self.name, self.major, self.minor = name, major, minor
        self.total_memory, self.multi_processor_count = total_memory, multi_processor_count

    def __repr__(self):
        return (f"_GpuDeviceProperties(name='{self.name}', major={self.major}, "
                f"minor={self.minor}, multi_processor_count={self.multi_processor_count}, "
                f"total_memory={self.total_memory // (1 << 20)}MB)")


def get_device_properties(device_id, device_target=None):
    """The GPU's properties (None for the CPU, as in MindSpore)."""
    target = _target(device_target, 'get_device_properties')
    _require(target, 'get_device_properties')
    if target == 'CPU':
        return None
    p = _gpu_runtime.gpu_properties(device_id)
    return DeviceProperties(p['name'], *p['capability'], p['total_memory'],
                            p['multi_processor_count'])


def get_device_name(device_id, device_target=None):
    """The device's name ('CPU' for the CPU)."""
    target = _target(device_target, 'get_device_name')
    _require(target, 'get_device_name')
    return 'CPU' if target == 'CPU' else _gpu_runtime.gpu_properties(device_id)['name']


def get_device_capability(device_id, device_target=None):
    """The GPU's compute capability ``(major, minor)`` (None for the CPU)."""
    target = _target(device_target, 'get_device_capability')
    _require(target, 'get_device_capability')
    return None if target == 'CPU' else _gpu_runtime.gpu_properties(device_id)['capability']


def get_arch_list(device_target=None):
    """The GPU architectures kernels are built for: the device's own, as CuPy compiles its
    kernels for it when first used (None for the CPU)."""
    target = _target(device_target, 'get_arch_list')
    _require(target, 'get_arch_list')
    if target == 'CPU':
        return None
    major, minor = _gpu_runtime.gpu_properties(0)['capability']
    return [f"sm_{major}{minor}"]


__getattr__ = _reporter('mindspore.hal')
