"""``mindspore.ops.function.array_func``: the functions MindSpore defines there that hookgrad has
(the same objects as ``ops.<name>``); imported on first use, once ``hookgrad.ops`` is whole.
``arg_max_with_value_`` and ``arg_min_with_value_`` are the default-configured Primitive
instances MindSpore keeps there: ``(index, values)`` along axis 0."""
from ...compat.names import reexport as _reexport, reporter as _reporter
from ... import ops as _ops

__all__ = _reexport(globals(), _ops, 'mindspore.ops.function.array_func')
__getattr__ = _reporter('mindspore.ops.function.array_func')

arg_max_with_value_ = _ops.ArgMaxWithValue()
arg_min_with_value_ = _ops.ArgMinWithValue()
