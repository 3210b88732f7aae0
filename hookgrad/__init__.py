"""hookgrad: a deep-learning framework in which nothing in a network is hidden.

Its public names follow MindSpore 2.x PyNative, so ``import hookgrad as ms`` runs MindSpore code.
"""
from ._dtype import (DType, float16, float32, float64, int8, int16, int32, int64, uint8, bool_,
                     half, single, double, int_, float_)
from ._tensor import Tensor
from .autograd.grad_mode import no_grad, enable_grad, is_grad_enabled
from . import ops

__version__ = '0.1.0'
