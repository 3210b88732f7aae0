"""MindSpore's ``mindspore.common.parameter``: Parameter and ParameterTuple."""
from ..nn.parameter import Parameter, ParameterTuple
from ..compat.names import reporter as _reporter

__all__ = ['Parameter', 'ParameterTuple']
__getattr__ = _reporter('mindspore.common.parameter')
from .buffer import _Buffer, _is_parameter_generated  # noqa: E402,F401  (MindSpore's tests)
