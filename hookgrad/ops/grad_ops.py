"""The differentiation transforms MindSpore 2.10 has in ``mindspore.ops`` (``hookgrad/ops``
star-imports this module): the same objects as the top-level ``ms.grad``, ``ms.jvp``...,
with ``derivative``, ``jet``, ``linearize`` and ``custom_vjp``, which MindSpore has only
there."""
from ..autograd.forward_mode import derivative, jacfwd, jacrev, jet, jvp, linearize
from ..autograd.functional import get_grad, grad, value_and_grad, vjp
from ..autograd.vmap import vmap

__all__ = ['grad', 'value_and_grad', 'vjp', 'jvp', 'vmap', 'jacfwd', 'jacrev', 'get_grad',
           'derivative', 'jet', 'linearize', 'custom_vjp']


def custom_vjp(fn=None):
    """Give a function a backward rule of its own: ``@custom_vjp`` makes ``fn`` a Cell, and
    ``f.defbwd(bwd)`` sets its rule, ``bwd(*inputs, out, dout) -> (grad of each input, ...)``
    (hookgrad/nn/custom_vjp.py)."""
    from ..nn.custom_vjp import custom_vjp as make     # nn imports ops: resolved on call
    return make(fn)
