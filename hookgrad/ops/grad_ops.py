"""The differentiation transforms MindSpore 2.10 has in ``mindspore.ops`` (``hookgrad/ops``
star-imports this module): the same objects as the top-level ``ms.grad``, ``ms.jvp``...,
with ``derivative``, ``jet``, ``linearize`` and ``custom_vjp``, which MindSpore has only
there."""
from ..autograd.forward_mode import derivative, jacfwd, jacrev, jet, jvp, linearize
from ..autograd.functional import get_grad, grad, value_and_grad, vjp
from ..autograd.vmap import vmap
from ..nn.custom_vjp import custom_vjp

__all__ = ['grad', 'value_and_grad', 'vjp', 'jvp', 'vmap', 'jacfwd', 'jacrev', 'get_grad',
           'derivative', 'jet', 'linearize', 'custom_vjp']
