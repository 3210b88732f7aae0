"""``mindspore.ops.operations.nn_ops``: the Primitive classes MindSpore defines there that
hookgrad has (the same classes as ``ops.<name>``)."""
from ... import ops as _ops
from ...compat.names import reexport as _reexport, reporter as _reporter

__all__ = _reexport(globals(), _ops, 'mindspore.ops.operations.nn_ops')
__getattr__ = _reporter('mindspore.ops.operations.nn_ops')
