"""MindSpore's ``mindspore.common.tensor``: the Tensor class and the ``tensor`` function."""
from .._tensor import Tensor
from .._toplevel import tensor
from ..compat.names import reporter as _reporter

__all__ = ['Tensor', 'tensor']
__getattr__ = _reporter('mindspore.common.tensor')
