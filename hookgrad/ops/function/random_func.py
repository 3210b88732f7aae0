"""``mindspore.ops.function.random_func``: the random functions MindSpore defines there that
hookgrad has (the same objects as ``ops.<name>``); imported on first use, once ``hookgrad.ops``
is whole."""
from ...compat.names import reexport as _reexport, reporter as _reporter
from ... import ops as _ops

__all__ = _reexport(globals(), _ops, 'mindspore.ops.function.random_func')
__getattr__ = _reporter('mindspore.ops.function.random_func')
