"""The two adjoint shape ops the engine itself relies on: broadcast_to and its reverse, sum_to."""
import numpy as np

from ..autograd.function import Op
from ._base import as_tensor, check_size


class BroadcastTo(Op):
    """y = x broadcast to ``shape``; the gradient is summed back to x's shape."""
    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        return np.broadcast_to(x, shape)

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.sum_to(gy, ctx.shape)


class SumTo(Op):
    """y = x summed down to ``shape`` (the adjoint of broadcasting)."""
    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        return ctx.m.sum_to(x, shape)

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.broadcast_to(gy, ctx.shape)


def broadcast_to(input, shape):
    """Broadcast ``input`` to ``shape`` (-1 keeps that dimension).

    Raises:
        ValueError: when the shapes are not broadcast-compatible (names both shapes).
    """
    x = as_tensor(input)
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in shape):
        raise TypeError(f"ops.broadcast_to: shape must be a tuple of ints, got {shape!r}")
    shape = tuple(int(s) for s in shape)
    lead = len(shape) - x.ndim
    if lead < 0:
        raise ValueError(f"ops.broadcast_to: cannot broadcast shape {x.shape} to {shape}")
    shape = tuple(x.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(shape))
    try:
        np.broadcast_shapes(x.shape, shape)
        if np.broadcast_shapes(x.shape, shape) != shape:
            raise ValueError
    except ValueError:
        raise ValueError(f"ops.broadcast_to: cannot broadcast shape {x.shape} to {shape}") from None
    if x.shape == shape:
        return x
    check_size(None, shape, x._data.itemsize, view=True)
    return BroadcastTo.apply(x, shape=shape)


def sum_to(input, shape):
    """Sum ``input`` over broadcast dimensions so that it has ``shape``."""
    x = as_tensor(input)
    shape = tuple(shape)
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    if lead < 0 or any(n != 1 and n != m for n, m in zip(shape, x.shape[lead:])):
        raise ValueError(f"ops.sum_to: cannot sum shape {x.shape} to {shape}: {shape} does not "
                         f"broadcast to {x.shape}")
    return SumTo.apply(x, shape=shape)
