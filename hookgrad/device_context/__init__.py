"""``mindspore.device_context``: each backend's device count, availability and settings
(``gpu.op_precision``: TF32 math)."""
from . import ascend, cpu, gpu  # noqa: F401

__all__ = ['ascend', 'cpu', 'gpu']
