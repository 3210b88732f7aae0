"""Moving tensors between devices: ``Tensor.move_to`` as a differentiable op."""
from .._tensor import Tensor
from ..autograd.function import Op
from ..kernels import backend

_TARGETS = ('CPU', 'GPU', 'Ascend')


class MoveTo(Op):
    """y = x on another device; the gradient goes back to x's device."""

    @staticmethod
    def forward(ctx, x, device):
        ctx.source = backend.device_of(x)
        y = backend.to_device(x, device)
        return y.copy() if y is x else y        # a new tensor, as MindSpore's

    @staticmethod
    def backward(ctx, gy):
        if isinstance(gy, Tensor):
            return (move_to(gy, ctx.source.target),)
        return (backend.to_device(gy, ctx.source),)


def move_to(input, to):
    """A copy of ``input`` on device ``to`` ('CPU' or 'GPU'), through which gradients flow
    back to ``input``'s device.

    Raises:
        ValueError: ``to`` is not 'CPU', 'GPU' or 'Ascend', or names a device hookgrad cannot
            use ('Ascend'; 'GPU' without CuPy or a CUDA device).
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"move_to: input must be a Tensor, got {type(input).__name__}")
    if to not in _TARGETS:
        raise ValueError(f"move_to: to must be one of {list(_TARGETS)}, but got {to!r}")
    if to == 'Ascend':
        raise ValueError("move_to: hookgrad has no Ascend device; 'CPU' and 'GPU' are available")
    if to == 'CPU':
        device = backend.CPU
    else:
        try:
            device = backend.gpu()
        except RuntimeError as e:
            raise ValueError(f"move_to: no GPU to move to: {e}") from None
    return MoveTo.apply(input, device=device)
