"""MindSpore's ``mindspore.ops.function.grad.grad_func``: the same objects as ``ops.grad``,
``ops.jvp``... (hookgrad/ops/grad_ops.py) and ``ops.stop_gradient``."""
from ...creation import stop_gradient
from ...grad_ops import (derivative, get_grad, grad, jacfwd, jacrev, jet, jvp, linearize,
                         value_and_grad, vjp)

__all__ = ['derivative', 'get_grad', 'grad', 'jacfwd', 'jacrev', 'jet', 'jvp', 'linearize',
           'stop_gradient', 'value_and_grad', 'vjp']
