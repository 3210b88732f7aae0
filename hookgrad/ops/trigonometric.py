"""Trigonometric and hyperbolic functions and their inverses, atan2, hypot, sinc and the angle
units (deg2rad, rad2deg).

Integer and Bool inputs give Float32 (as every floating function in hookgrad); floating inputs
keep their dtype. MindSpore's ``arc*`` names are aliases.
"""
import math

import numpy as np

from ..autograd.function import Op, apply1
from ._base import binary, operands
from ..kernels.fp_errors import fp_call
from .arithmetic import div, mul
from .comparison import equal
from .indexing import where
from .unary import _floating, sin


class Tangent(Op):
    """y = tan(x); dy/dx = 1 + y**2, so keep y."""
    @staticmethod
    def forward(ctx, x):
        y = np.tan(x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return gy * (1 + y * y)


class Asin(Op):
    """y = arcsin(x); dy/dx = 1 / sqrt(1 - x**2)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('asin', np.arcsin, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy / ctx.m.sqrt(1 - x * x)


class Acos(Op):
    """y = arccos(x); dy/dx = -1 / sqrt(1 - x**2)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('acos', np.arccos, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return -gy / ctx.m.sqrt(1 - x * x)


class Atan(Op):
    """y = arctan(x); dy/dx = 1 / (1 + x**2)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return np.arctan(x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy / (1 + x * x)


class HyperbolicSine(Op):
    """y = sinh(x); dy/dx = cosh(x) = (e**x + e**-x) / 2."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('sinh', np.sinh, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        m = ctx.m
        return gy * (m.exp(x) + m.exp(-x)) * 0.5


class HyperbolicCosine(Op):
    """y = cosh(x); dy/dx = sinh(x) = (e**x - e**-x) / 2."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('cosh', np.cosh, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        m = ctx.m
        return gy * (m.exp(x) - m.exp(-x)) * 0.5


class Asinh(Op):
    """y = arcsinh(x); dy/dx = 1 / sqrt(x**2 + 1)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return np.arcsinh(x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy / ctx.m.sqrt(x * x + 1)


class Acosh(Op):
    """y = arccosh(x) (x >= 1); dy/dx = 1 / sqrt(x**2 - 1)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('acosh', np.arccosh, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy / ctx.m.sqrt(x * x - 1)


class Atanh(Op):
    """y = arctanh(x) (|x| < 1); dy/dx = 1 / (1 - x**2)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('atanh', np.arctanh, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy / (1 - x * x)


class Atan2(Op):
    """y = atan2(a, b), the angle of the point (b, a); da = b / r**2, db = -a / r**2."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save(a, b)
        return np.arctan2(a, b)

    @staticmethod
    def backward(ctx, gy):
        a, b = ctx.saved
        g = gy / (a * a + b * b)
        return (g * b if ctx.needs_grad(0) else None), (-g * a if ctx.needs_grad(1) else None)


class Hypotenuse(Op):
    """y = sqrt(a**2 + b**2) without overflow; da = a / y, db = b / y (0 where y = 0)."""
    @staticmethod
    def forward(ctx, a, b):
        y = np.hypot(a, b)
        ctx.save(a, b, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        a, b, y = ctx.saved
        m = ctx.m
        zero = y == 0
        g = m.where(zero, 0, gy / m.where(zero, m.ones_like(y), y))
        return (g * a if ctx.needs_grad(0) else None), (g * b if ctx.needs_grad(1) else None)


# ------------------------------------------------------------------------------ public functions
def tan(input):
    """Element-wise tangent (radians)."""
    return apply1(Tangent, _floating(input))


def asin(input):
    """Element-wise arcsine (NaN outside [-1, 1])."""
    return apply1(Asin, _floating(input))


def acos(input):
    """Element-wise arccosine (NaN outside [-1, 1])."""
    return apply1(Acos, _floating(input))


def atan(input):
    """Element-wise arctangent."""
    return apply1(Atan, _floating(input))


def sinh(input):
    """Element-wise hyperbolic sine."""
    return apply1(HyperbolicSine, _floating(input))


def cosh(input):
    """Element-wise hyperbolic cosine."""
    return apply1(HyperbolicCosine, _floating(input))


def asinh(input):
    """Element-wise inverse hyperbolic sine."""
    return apply1(Asinh, _floating(input))


def acosh(input):
    """Element-wise inverse hyperbolic cosine (NaN below 1)."""
    return apply1(Acosh, _floating(input))


def atanh(input):
    """Element-wise inverse hyperbolic tangent (NaN outside [-1, 1])."""
    return apply1(Atanh, _floating(input))


def _float_pair(input, other):
    a, b = operands(input, other)
    if a._data.dtype.kind not in 'fV':
        a, b = _floating(a), _floating(b)
    return a, b


def atan2(input, other):
    """Element-wise ``atan(input / other)`` in the quadrant of the point (other, input), with
    broadcasting; integers give Float32.

    >>> import hookgrad as ms
    >>> round(ms.ops.atan2(ms.Tensor([1.0]), 2).item(), 6)
    0.463648
    """
    a, b = _float_pair(input, other)
    return binary(Atan2, a, b, 'atan2')


def hypot(input, other):
    """Element-wise ``sqrt(input ** 2 + other ** 2)`` with broadcasting, without overflow."""
    a, b = _float_pair(input, other)
    return binary(Hypotenuse, a, b, 'hypot')


# MindSpore aliases
def sinc(input):
    """``sin(pi x) / (pi x)``, 1 at 0; integer input gives Float32."""
    x = _floating(input)
    zero = equal(x, 0.0)
    px = mul(where(zero, 1.0, x), math.pi)
    return where(zero, 1.0, div(sin(px), px))


def deg2rad(x):
    """Degrees to radians."""
    return mul(_floating(x), math.pi / 180.0)


def rad2deg(x):
    """Radians to degrees."""
    return mul(_floating(x), 180.0 / math.pi)


arcsin = asin
arccos = acos
arctan = atan
arcsinh = asinh
arccosh = acosh
arctanh = atanh
arctan2 = atan2
