"""MindSpore's ``mindspore.ops.functional`` (imported as ``F``): the functional ops.

Every name MindSpore has here that ``hookgrad.ops`` has is the same object as ``ops.<name>``.
"""
from .. import ops as _ops
from ..compat.names import reexport as _reexport, reporter as _reporter

__all__ = _reexport(globals(), _ops, 'mindspore.ops.functional')
__getattr__ = _reporter('mindspore.ops.functional')
