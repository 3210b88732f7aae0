"""MindSpore's ``mindspore.ops.operations`` (imported as ``P``): the Primitive classes.

Every name MindSpore has here that ``hookgrad.ops`` has is the same class as ``ops.<name>``
(``P.MatMul`` is ``ops.MatMul``).
"""
from ... import ops as _ops
from ...compat.names import reexport as _reexport, reporter as _reporter

__all__ = _reexport(globals(), _ops, 'mindspore.ops.operations')
__getattr__ = _reporter('mindspore.ops.operations')
