"""MindSpore's private ``_Buffer`` and ``_is_parameter_generated`` of
``mindspore.common.parameter``, which MindSpore's tests import."""
from .._tensor import Tensor

__all__ = ['_Buffer', '_is_parameter_generated']

_GENERATED_PARAMETER_NAME_PREFIX = 'Parameter#'


class _Buffer(Tensor):
    """A Tensor that is a cell's state but no parameter (BatchNorm's running mean): the data of
    ``data`` without its gradient history, flagged ``_is_buffer``, with ``persistent`` (whether
    ``state_dict`` holds it)."""

    def __new__(cls, data, *, persistent=True):
        if data is None:
            raise ValueError('For create Buffer, input data should not be None')
        if not isinstance(data, Tensor):
            raise TypeError('For create Buffer, type of input data should be Tensor')
        buffer = Tensor.__new__(cls)
        buffer._data = data._data             # shared, as stop_gradient shares it
        buffer._node = None
        buffer._index = 0
        buffer.requires_grad = False
        buffer._is_buffer = True
        buffer.persistent = persistent
        return buffer

    def __init__(self, data, *, persistent=True):
        """Everything is set by ``__new__``."""


def _is_parameter_generated(param_name):
    """Whether ``param_name`` is one MindSpore generates for an unnamed Parameter."""
    return isinstance(param_name, str) and param_name.startswith(_GENERATED_PARAMETER_NAME_PREFIX)
