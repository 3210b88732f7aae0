"""Element-wise math: exp, log, sqrt, rsqrt, abs, sin, cos, tanh, erf, reciprocal (and inv),
sign, rounding, positive and copysign.

Transcendental functions of integer tensors give Float32 results, as MindSpore does; floating
tensors keep their dtype. abs, sign, floor and ceil keep integer dtypes.
"""
import math

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op, apply1
from ._base import as_tensor, scalar_like
from ..kernels.erf import erf_array
from ..kernels.fp_errors import fp_call
from .arithmetic import cast, neg
from .indexing import where

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


# ---------------------------------------------------------------------------------- primitives
class Exp(Op):
    """y = exp(x); dy/dx = y, so keep y rather than x."""
    @staticmethod
    def forward(ctx, x):
        y = fp_call('exp', np.exp, x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return gy * y


class Expm1(Op):
    """y = exp(x) - 1, exact near 0; dy/dx = exp(x) = y + 1, so keep y rather than x."""
    @staticmethod
    def forward(ctx, x):
        y = fp_call('expm1', np.expm1, x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return gy * (y + 1)


class Log1p(Op):
    """y = log(1 + x), exact near 0; dy/dx = 1 / (1 + x)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('log1p', np.log1p, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy / (x + 1)


class Log(Op):
    """y = log(x); dy/dx = 1 / x."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('log', np.log, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy / x


class Sqrt(Op):
    """y = sqrt(x); dy/dx = 1 / (2 y)."""
    @staticmethod
    def forward(ctx, x):
        y = fp_call('sqrt', np.sqrt, x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return gy * 0.5 / y


def _rsqrt(x):
    return 1.0 / np.sqrt(x)


class Rsqrt(Op):
    """y = 1 / sqrt(x); dy/dx = -y**3 / 2."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x):
        y = fp_call('rsqrt', _rsqrt, x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return gy * -0.5 * y * y * y


class Abs(Op):
    """y = |x|; dy/dx = sign(x) (0 at 0)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return np.abs(x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy * ctx.m.sign(x)


class Sin(Op):
    """y = sin(x); dy/dx = cos(x)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return np.sin(x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy * ctx.m.cos(x)


class Cos(Op):
    """y = cos(x); dy/dx = -sin(x)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return np.cos(x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return -gy * ctx.m.sin(x)


class Tanh(Op):
    """y = tanh(x); dy/dx = 1 - y**2, so keep y."""
    @staticmethod
    def forward(ctx, x):
        y = np.tanh(x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return gy * (1 - y * y)


class Erf(Op):
    """y = erf(x); dy/dx = 2 / sqrt(pi) * exp(-x**2)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return erf_array(x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy * _TWO_OVER_SQRT_PI * ctx.m.exp(-x * x)


class Reciprocal(Op):
    """y = 1 / x; dy/dx = -y**2, so keep y."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x):
        y = fp_call('reciprocal', np.true_divide, 1.0, x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return -gy * (y * y)        # y * y first, as MindSpore's ReciprocalGrad rounds it


class Sign(Op):
    """y = sign(x) in {-1, 0, 1}; piecewise constant, so no gradient flows. NaN gives 0 below
    Float64 and stays NaN in Float64, as MindSpore documents."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        if x.dtype == np.float32 or x.dtype == np.float16:
            return np.where(x == x, np.sign(x), 0)
        return np.sign(x)


class Floor(Op):
    """y = floor(x); piecewise constant, so no gradient flows. Integers are returned as they are."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return np.floor(x) if x.dtype.kind in 'fV' else x.copy()


class Ceil(Op):
    """y = ceil(x); piecewise constant, so no gradient flows. Integers are returned as they are."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return np.ceil(x) if x.dtype.kind in 'fV' else x.copy()


# ------------------------------------------------------------------------------ public functions
def _floating(input):
    """``input`` as a Tensor; integer and bool tensors become Float32 (MindSpore's rule), complex
    ones pass (the op itself decides: hookgrad/autograd/complex_support.py)."""
    x = input if type(input) is Tensor else as_tensor(input)
    if x._data.dtype.kind not in 'fVc':
        return cast(x, np.float32)
    return x


def exp(input):
    """Element-wise ``e ** input``.

    >>> import hookgrad as ms
    >>> ms.ops.exp(ms.Tensor([0.0]))
    Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00])
    """
    return apply1(Exp, _floating(input))


def expm1(input):
    """Element-wise ``e ** input - 1``, exact for inputs near 0 where ``exp(x) - 1`` loses
    every digit.

    >>> import hookgrad as ms
    >>> ms.ops.expm1(ms.Tensor([1e-10], ms.float64)).item()
    1.00000000005e-10
    """
    return apply1(Expm1, _floating(input))


def log(input):
    """Element-wise natural logarithm (NaN for negative values, -inf at 0)."""
    return apply1(Log, _floating(input))


def log1p(input):
    """Element-wise ``log(1 + input)``, exact for inputs near 0 (NaN below -1, -inf at -1)."""
    return apply1(Log1p, _floating(input))


def sqrt(input):
    """Element-wise square root (NaN for negative values)."""
    return apply1(Sqrt, _floating(input))


def rsqrt(input):
    """Element-wise ``1 / sqrt(input)``."""
    return apply1(Rsqrt, _floating(input))


def abs(input):
    """Element-wise absolute value; integer dtypes are kept."""
    x = input if type(input) is Tensor else as_tensor(input)
    if x._data.dtype.kind == 'c':       # |x| in the complex dtype, as MindSpore 2.10 gives it
        from .complex import abs_as_complex
        return abs_as_complex(x)
    return apply1(Abs, x)


def sin(input):
    """Element-wise sine (radians)."""
    return apply1(Sin, _floating(input))


def cos(input):
    """Element-wise cosine (radians)."""
    return apply1(Cos, _floating(input))


def tanh(input):
    """Element-wise hyperbolic tangent."""
    return apply1(Tanh, _floating(input))


def sign(input):
    """Element-wise sign: -1, 0 or 1 (NaN: 0, and NaN in Float64); no gradient flows through it.

    Raises:
        TypeError: for a Bool tensor.
    """
    x = input if type(input) is Tensor else as_tensor(input)
    if x._data.dtype.kind == 'b':
        raise TypeError("ops.sign: expected a numeric tensor, got dtype Bool")
    return Sign.apply(x)


def erf(input):
    """Element-wise Gauss error function ``2 / sqrt(pi) * integral_0^x exp(-t**2) dt``."""
    return apply1(Erf, _floating(input))


def reciprocal(input):
    """Element-wise ``1 / input``."""
    return apply1(Reciprocal, _floating(input))


class IntegerInv(Op):
    """1 / x in an integer type, as MindSpore's CPU kernel gives it: 1 and -1 are themselves,
    other values truncate to 0, and 0 gives the minimum of int64 for int64 and of int32 (the
    float's infinity converted) wrapped to the type for int32 and int16 (so 0 for int16)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        xp = ctx.xp
        out = xp.where((x == 1) | (x == -1), x, x.dtype.type(0))
        wide = np.int64 if x.dtype == np.int64 else np.int32
        at_zero = np.array(np.iinfo(wide).min).astype(x.dtype)[()]     # a NumPy scalar
        return xp.where(x == 0, at_zero, out)


def inv(x):
    """``1 / x`` element-wise: ``ops.reciprocal`` on floating tensors; int16, int32 and int64
    tensors keep their type (``IntegerInv``); other integer and Bool tensors are refused."""
    t = x if type(x) is Tensor else as_tensor(x)
    if t._data.dtype.kind in 'biu':
        if t._data.dtype.name not in ('int16', 'int32', 'int64'):
            raise TypeError(f"ops.inv: x must be a float16, float32, float64, int16, int32 or "
                            f"int64 Tensor, got {t.dtype}")
        return IntegerInv.apply(t)
    return reciprocal(t)


def floor(input):
    """Element-wise largest integer not above ``input``; no gradient flows through it."""
    x = input if type(input) is Tensor else as_tensor(input)
    return Floor.apply(x)


def ceil(input):
    """Element-wise smallest integer not below ``input``; no gradient flows through it."""
    x = input if type(input) is Tensor else as_tensor(input)
    return Ceil.apply(x)


def positive(input):
    """``input`` itself (``+x``); Bool input is refused as MindSpore does.

    Raises:
        TypeError: for a Bool tensor.
    """
    x = as_tensor(input, 'input')
    if x._data.dtype == np.bool_:
        raise TypeError("ops.positive: input must not be Bool")
    return x


def copysign(x, other):
    """``|x|`` with the sign of ``other``: negative where ``other < 0`` (MindSpore's rule, so
    -0.0 counts as positive)."""
    t = _floating(x)
    o = scalar_like(other, t)._data     # a number or host data: on the device of ``x``
    negative = Tensor._wrap(o < 0)
    a = abs(t)
    return where(negative, neg(a), a)


# MindSpore aliases
absolute = abs
tensor_exp = exp
tensor_expm1 = expm1
