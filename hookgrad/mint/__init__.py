"""``mindspore.mint``: MindSpore 2.10's PyTorch-style API (``dim=``, ``keepdim=``, int64
indices, ``(values, indices)`` pairs), built on hookgrad's ops and layers.

The functions live by subject in ``elementwise``, ``reduction``, ``shaping``, ``creation``,
``products`` and ``normalization``; the submodules are ``nn`` (with ``nn.functional``),
``optim``, ``special``, ``linalg`` and ``distributed``. A MindSpore mint name hookgrad lacks
raises ``NotAvailable`` saying so.
"""
from .. import ops as _ops
from .._tensor import Tensor
from . import elementwise, reduction, shaping, creation, products, normalization
from .elementwise import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .shaping import *  # noqa: F401,F403
from .creation import *  # noqa: F401,F403
from .products import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from . import nn, optim, special, linalg, distributed
from .nn.functional import conv2d, softmax
from .nn.convolution import conv_tbc
from ..compat.names import reporter as _reporter

__all__ = ['Tensor', 'nn', 'optim', 'special', 'linalg', 'distributed', 'conv2d', 'softmax',
           'conv_tbc', 'item', 'npu_gelu', 'equal', *elementwise.__all__, *reduction.__all__,
           *shaping.__all__, *creation.__all__, *products.__all__, *normalization.__all__]


def item(input):
    """The value of a one-element tensor as a Python number."""
    return input.item()


def npu_gelu(input, approximate='none'):
    """``gelu``, under the name of MindSpore's Ascend kernel."""
    return nn.functional.gelu(input, approximate)


def equal(input, other):
    """Whether the two tensors have the same shape and elements: a Python bool."""
    return tuple(input.shape) == tuple(other.shape) and bool(_ops.all(_ops.eq(input, other)))


__getattr__ = _reporter('mindspore.mint')
