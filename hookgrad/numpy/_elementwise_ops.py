"""Element-wise primitives ``mindspore.numpy`` needs beyond ``hookgrad.ops``: the cube root
(differentiable), bit inversion, gcd and lcm (integers: no gradient).
"""
import numpy as np

from ..autograd.function import Op
from ..ops.integers import Gcd, Lcm  # noqa: F401  (the ops of ops.gcd and ops.lcm)


class Cbrt(Op):
    """y = x ** (1/3), real for negative x too; dy/dx = 1 / (3 y**2), so keep y."""
    @staticmethod
    def forward(ctx, x):
        y = np.cbrt(x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return gy / (3 * y * y)


class Invert(Op):
    """y = ~x: every bit flipped (two's complement), logical not for bools."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return np.invert(x)
