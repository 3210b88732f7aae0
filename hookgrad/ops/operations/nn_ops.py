"""``mindspore.ops.operations.nn_ops``: the Primitive classes MindSpore defines there that
hookgrad has (the same classes as ``ops.<name>``)."""
from ...compat.names import reexport as _reexport, reporter as _reporter
from . import _catalog

__all__ = _reexport(globals(), _catalog, 'mindspore.ops.operations.nn_ops')
__getattr__ = _reporter('mindspore.ops.operations.nn_ops')
