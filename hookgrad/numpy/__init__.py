"""MindSpore's ``mindspore.numpy`` (being written)."""
from ..compat.names import reporter as _reporter

__all__ = []
__getattr__ = _reporter('mindspore.numpy')
