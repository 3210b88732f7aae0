"""MindSpore's ``mindspore.common.tensor``: the Tensor class."""
from .._tensor import Tensor
from ..compat.names import reporter as _reporter

__all__ = ['Tensor']
__getattr__ = _reporter('mindspore.common.tensor')
