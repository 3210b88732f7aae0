"""``GradientAccumulation``: average the gradients of several steps, then take one optimizer
step with them (MindSpore's ``mindspore.boost.grad_accumulation``)."""
from .. import _dtype
from .._tensor import Tensor
from ..nn.cell import Cell
from ..nn.parameter import Parameter
from ..ops import assign, assign_add, depend, partial, zeros_like
from ..ops.composite import HyperMap, MultitypeFuncGraph

__all__ = ['GradientAccumulation', 'gradient_accumulation_op', 'gradient_clear_op']

gradient_accumulation_op = MultitypeFuncGraph('gradient_accumulation_op')
gradient_clear_op = MultitypeFuncGraph('gradient_clear_op')


@gradient_accumulation_op.register('Int', 'Tensor', 'Tensor')
def _cumulative_grad_process(accumulation_step, cumulative_grad, grad):
    """cumulative_grad += grad / accumulation_step (the running mean's share of one step)."""
    assign_add(cumulative_grad, grad / accumulation_step)
    return cumulative_grad


@gradient_clear_op.register('Tensor')
def _clear_grad(cumulative_grad):
    """cumulative_grad = 0."""
    return assign(cumulative_grad, zeros_like(cumulative_grad))


class GradientAccumulation(Cell):
    """Call as ``loss = accumulation(loss, grads)`` each step: the grads are averaged, and every
    ``max_accumulation_step``-th call runs ``optimizer`` on the average, then clears it.

    Args:
        max_accumulation_step (int): steps to accumulate.
        optimizer (Cell): the optimizer (its ``parameters`` are what the grads are for).
    """

    def __init__(self, max_accumulation_step, optimizer):
        super().__init__()
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = HyperMap()
        self._grad_accumulation = self.weights.clone(prefix='grad_accumulation', init='zeros')
        self._accumulation_step = Parameter(Tensor(0, dtype=_dtype.int32),
                                            name='accumulation_step')

    def construct(self, loss, grads):
        loss = depend(loss, self.hyper_map(
            partial(gradient_accumulation_op, self._max_accumulation_step),
            self._grad_accumulation, grads))
        self._accumulation_step += 1
        if self._accumulation_step >= self._max_accumulation_step:
            loss = depend(loss, self.optimizer(self._grad_accumulation))
            assign(self._accumulation_step, 0)
        if self._accumulation_step == 0:
            loss = depend(loss, self.hyper_map(partial(gradient_clear_op),
                                               self._grad_accumulation))
        return loss
