"""MindSpore's ``mindspore.common.dtype`` (imported as ``mstype``): the tensor element types.

``ms.float32`` and ``mstype.float32`` are the same object; ``ms.dtype`` is this module.
"""
from .._dtype import *  # noqa: F401,F403
from .._dtype import __all__  # noqa: F401
from ..compat.names import reporter as _reporter

__getattr__ = _reporter('mindspore.common.dtype')
