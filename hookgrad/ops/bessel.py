"""The modified Bessel functions i0 and i1, and nextafter.

``i0`` computes in float64 and rounds to the input's type (Float16 included, as MindSpore's
kernel does). Its derivative is ``i1``, an op of its own here so that gradients of any order
exist: ``i1' = i0 - i1 / x`` (1/2 at 0). ``i1`` is the trapezoidal rule on its periodic
integral ``(1/pi) int_0^pi exp(x cos t) cos t dt``, which converges geometrically: with
``sqrt(80 |x|) + 32`` nodes the error is below float64's rounding; the node count is the one
for the largest ``|x|`` whose I1 is finite in the input's type.
"""
import math

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op, apply1
from ..autograd.math import array_math
from ..kernels.backend import array_module
from ._base import binary

_I0_TYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))
_NEXTAFTER_TYPES = (np.dtype(np.float32), np.dtype(np.float64))


# nodes enough for every |x| whose I1 is finite in the type: float16 up to 12, float32 up to 93,
# float64 up to 714
_I1_NODES = {2: int(math.sqrt(80 * 12)) + 32, 4: int(math.sqrt(80 * 93)) + 32,
             8: int(math.sqrt(80 * 714)) + 32}


def _i0_array(xp, x):
    with np.errstate(over='ignore'):        # past the type's range: inf, as MindSpore's
        return xp.i0(x.astype(np.float64)).astype(x.dtype)


def _i1_array(xp, x):
    """I1 of every element of ``x`` (computed in float64, rounded to x's type)."""
    wide = x.astype(np.float64)
    n = _I1_NODES[x.dtype.itemsize]
    cos = xp.cos((xp.arange(n, dtype=np.float64) + 0.5) * (math.pi / n))
    with np.errstate(over='ignore', invalid='ignore'):
        terms = xp.expm1(wide[..., None] * cos) * cos     # the cosines sum to 0: exact near 0
        y = xp.sum(terms, axis=-1) / n
    return xp.where(wide == 0, 0.0, y).astype(x.dtype)


class BesselI0(Op):
    """y = I0(x); dy/dx = I1(x)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return _i0_array(ctx.xp, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy * _i1(ctx.m, x)


class BesselI1(Op):
    """y = I1(x); dy/dx = I0(x) - I1(x) / x, which is 1/2 at 0."""
    @staticmethod
    def forward(ctx, x):
        y = _i1_array(ctx.xp, x)
        ctx.save(x, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        x, y = ctx.saved
        m = ctx.m
        zero = x == 0
        safe = m.where(zero, m.ones_like(x), x)
        slope = m.where(zero, m.ones_like(x) * 0.5, _i0(m, x) - y / safe)
        return gy * slope


def _i0(m, x):
    """I0 of an array (first-order rules) or a Tensor (recorded rules)."""
    if m is array_math:
        return _i0_array(array_module(x), x)
    return apply1(BesselI0, x)


def _i1(m, x):
    if m is array_math:
        return _i1_array(array_module(x), x)
    return apply1(BesselI1, x)


class NextAfter(Op):
    """y = the representable number after a in the direction of b; dy/da = 1, dy/db = 0 (the
    gradients MindSpore gives)."""
    @staticmethod
    def forward(ctx, a, b):
        return ctx.xp.nextafter(a, b)

    @staticmethod
    def backward(ctx, gy):
        zero = ctx.m.zeros_like(gy) if ctx.needs_grad(1) else None
        return (gy if ctx.needs_grad(0) else None), zero


def i0(input):
    """Element-wise modified Bessel function of the first kind of order 0.

    Args:
        input (Tensor): Float16, Float32 or Float64.

    Raises:
        TypeError: input is not a Tensor of those types.

    >>> import hookgrad as ms
    >>> ms.ops.i0(ms.Tensor([0.0, 1.0]))
    Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  1.26606584e+00])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"ops.i0: input must be a Tensor, got {type(input).__name__}")
    if input._data.dtype not in _I0_TYPES:
        raise TypeError(f"ops.i0: input must be a Float16, Float32 or Float64 tensor, got "
                        f"{input.dtype}")
    return apply1(BesselI0, input)


def nextafter(input, other):
    """Element-wise next representable number after ``input`` towards ``other``, with
    broadcasting (``input`` itself where the two are equal).

    The gradient passes to ``input`` unchanged and is zero for ``other``, as MindSpore's.

    Args:
        input, other (Tensor): both Float32 or both Float64.

    Raises:
        TypeError: an argument is not a Tensor of those types, or the types differ.
        ValueError: the shapes do not broadcast.
    """
    for arg, value in (('input', input), ('other', other)):
        if not isinstance(value, Tensor):
            raise TypeError(f"ops.nextafter: {arg} must be a Tensor, got {type(value).__name__}")
        if value._data.dtype not in _NEXTAFTER_TYPES:
            raise TypeError(f"ops.nextafter: {arg} must be a Float32 or Float64 tensor, got "
                            f"{value.dtype}")
    if input._data.dtype != other._data.dtype:
        raise TypeError(f"ops.nextafter: input and other must have the same dtype, got "
                        f"{input.dtype} and {other.dtype}")
    return binary(NextAfter, input, other, 'nextafter')

