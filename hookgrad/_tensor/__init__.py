"""Tensor and its methods.

``tensor.py`` holds the class: the array, the autograd slots, the operators and conversions.
MindSpore's Tensor methods live by topic in ``info``, ``elementwise``, ``reductions``,
``shaping``, ``inplace`` and ``numeric``, combined in ``methods.TensorMethods``; ``format`` is
the printed form.

Tensor and ``hookgrad.ops`` are tied both ways: every op takes and returns Tensors, and every
Tensor operator and method runs an op. The tie is made once, pointing down: nothing in this
package imports ``hookgrad.ops``; ``hookgrad.ops`` imports Tensor, and once it has finished
importing it calls ``bind_ops`` here, the one place that gives the method modules the ops.
"""
from . import elementwise, info, inplace, methods, numeric, reductions, shaping, tensor
from .tensor import Tensor, declared_shape, detached, _set_grad, _to_array  # noqa: F401


def bind_ops(ops):
    """Give Tensor's operators and methods ``hookgrad.ops`` (called by it, last)."""
    for module in (tensor, methods, info, inplace, elementwise, reductions, shaping, numeric):
        module._ops = ops
    tensor._arith = ops.arithmetic          # the operators' op classes and their dispatch
    tensor._binary = ops._base.binary
