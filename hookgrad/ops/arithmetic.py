"""Element-wise arithmetic: add, sub, mul, div, neg, pow, square and the dtype cast."""
import os
import sys

import numpy as np

from .. import _frames
from .._dtype import from_numpy, to_numpy
from .._tensor import Tensor
from ..autograd import complex_support as _complex_support
from ..autograd.function import Op
from ._base import as_tensor, binary, broadcast_error, dtype_arg, operands as _operands
from ..kernels.fp_errors import FPTripped, fp_call, fp_enter, fp_exit, fp_rewarn
from ..kernels.int_division import by_zero

_F32 = np.dtype(np.float32)


class Add(Op):
    """y = a + b."""
    ufunc = np.add

    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, gy):
        return gy, gy


class Sub(Op):
    """y = a - b."""
    ufunc = np.subtract

    @staticmethod
    def forward(ctx, a, b):
        return a - b

    @staticmethod
    def backward(ctx, gy):
        return gy, (-gy if ctx.needs_grad(1) else None)


class Mul(Op):
    """y = a * b."""
    ufunc = np.multiply

    @staticmethod
    def forward(ctx, a, b):
        ctx.save(a, b)
        return a * b

    @staticmethod
    def backward(ctx, gy):
        a, b = ctx.saved
        return (gy * b if ctx.needs_grad(0) else None), (gy * a if ctx.needs_grad(1) else None)


class Div(Op):
    """y = a / b; dy/db = -a / b**2."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save(a, b)
        token = fp_enter()      # fp_call inlined: division is on the hottest path
        try:
            return a / b
        except FPTripped as e:
            flag = e.args[0]
        finally:
            fp_exit(token)
        return fp_rewarn('div', np.true_divide, (a, b), flag)

    @staticmethod
    def backward(ctx, gy):
        a, b = ctx.saved
        ga = gy / b
        return (ga if ctx.needs_grad(0) else None), (-ga * a / b if ctx.needs_grad(1) else None)


class Neg(Op):
    """y = -x."""
    @staticmethod
    def forward(ctx, x):
        return -x

    @staticmethod
    def backward(ctx, gy):
        return -gy


class Pow(Op):
    """y = a ** b; the exponent's gradient, y * log(a), is computed only when wanted."""
    @staticmethod
    def forward(ctx, a, b):
        if a.dtype.kind in 'iu' and b.dtype.kind == 'i' and bool((b < 0).any()):
            y = _integer_power(a, b)
        else:
            y = fp_call('pow', np.power, a, b)
        ctx.save(a, b, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        a, b, y = ctx.saved
        m = ctx.m
        if type(b) is np.ndarray and b.ndim == 0:       # one exponent: no element-wise where
            lower = b - 1 if b != 0 else np.zeros_like(b)
            ga = gy * b * (a if lower == 1 else a ** lower)     # a ** 1 is a copy of a
        else:
            ga = gy * b * a ** (m.where(b == 0, 1, b) - 1)      # d(a**0)/da = 0, also at a = 0
        gb = None
        if ctx.needs_grad(1):
            safe = m.where(a > 0, a, m.ones_like(a))
            gb = gy * y * m.log(safe)
        return ga, gb


def _integer_power(a, b):
    """Integers to integer powers where some exponent is negative (NumPy refuses them): as
    MindSpore's kernel, the power computed in floating point and cast back, so ``2 ** -1`` is 0,
    ``(-1) ** -1`` is -1 and ``0 ** -1`` is the cast of inf (Int32's or Int64's minimum)."""
    neg = b < 0
    exact = np.power(a, np.where(neg, 0, b))
    with np.errstate(all='ignore'):
        inexact = np.power(a.astype(np.float64), b.astype(np.float64)).astype(exact.dtype)
    return np.where(neg, inexact, exact)


class Square(Op):
    """y = x * x."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('square', np.multiply, x, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy * 2 * x


class Cast(Op):
    """y = x converted to another dtype; the gradient is converted back to x's dtype, as
    MindSpore's Cast: through integer and bool dtypes too, so a gradient reaching an integer
    tensor through a promoting cast is truncated to it (``grad`` of ``x.astype(int32) * 2.7`` is
    2), and one leaving a float-to-integer cast becomes a float again. ``exact=True`` (the
    integers of a true division: MindSpore's Div computes them in floating point inside its
    kernel) passes the gradient on unconverted (``grad`` of ``x.astype(int32) / 2`` is 0.5)."""
    @staticmethod
    def forward(ctx, x, dtype, exact=False):
        ctx.src = None if exact else x.dtype
        if dtype.kind in 'iub' and x.dtype.kind in 'fV':
            with np.errstate(invalid='ignore', over='ignore'):  # NaN, inf: the CPU's cast, silent
                return x.astype(dtype)
        if dtype.kind == 'c':
            if x.dtype.kind != 'c':
                ctx.src = (x.dtype,)    # a real input: backward keeps the gradient's real part
        elif x.dtype.kind == 'c':
            x = x.real                  # a complex number cast to a real type keeps its real part
        return x.astype(dtype)

    @staticmethod
    def backward(ctx, gy):
        src = ctx.src
        if src is None:
            return gy
        if type(src) is tuple:
            return ctx.m.cast(ctx.m.real(gy), src[0])
        return ctx.m.cast(gy, src)


class FloorDiv(Op):
    """y = a // b (NumPy's floor_divide; an integer divided by 0 saturates, as MindSpore's
    kernel: kernels/int_division.py); no gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return by_zero('quotient', a, b, fp_call('floor_divide', np.floor_divide, a, b))


class RoundedDiv(Op):
    """y = a / b rounded down ('floor') or towards zero ('trunc'); integers stay integers (the
    exact integer quotient), floats round the true quotient. No gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b, mode, zero=None):
        if a.dtype.kind in 'iu':
            q = np.floor_divide(a, b)
            if mode == 'trunc':
                q = q + ((q < 0) & (q * b != a))
            # integers over 0, as MindSpore's kernels: truncate_div's, or div's (by mode)
            return by_zero(zero or ('quotient' if mode == 'floor' else 'wide_min'), a, b, q)
        q = a / b
        return np.floor(q) if mode == 'floor' else np.trunc(q)


def add(input, other):
    """Element-wise ``input + other`` with broadcasting; either side may be a Python number.

    >>> import hookgrad as ms
    >>> ms.ops.add(ms.Tensor([1.0, 2.0]), 1)
    Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  3.00000000e+00])
    """
    return binary(Add, input, other, 'add')


def sub(input, other):
    """Element-wise ``input - other`` with broadcasting."""
    return binary(Sub, input, other, 'sub')


def mul(input, other):
    """Element-wise ``input * other`` with broadcasting."""
    return binary(Mul, input, other, 'mul')


def div(input, other, *, rounding_mode=None):
    """Element-wise ``input / other``; ``rounding_mode`` 'floor' or 'trunc' rounds (no gradient)."""
    if rounding_mode is None:
        a = as_tensor(input)
        if a._data.dtype.kind not in 'fVc' and not (isinstance(other, Tensor) and
                                                     other._data.dtype.kind in 'fVc'):
            a = Cast.apply(a, dtype=_F32, exact=True)   # true division of integers: Float32
        return binary(Div, a, other, 'div')
    if rounding_mode not in ('floor', 'trunc'):
        raise ValueError(f"ops.div: rounding_mode must be None, 'floor' or 'trunc', "
                         f"got {rounding_mode!r}")
    a, b = _operands(input, other)
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error('div', a, b) from None
    return RoundedDiv.apply(a, b, mode=rounding_mode)       # integers stay integers, as MindSpore


def neg(input):
    """Element-wise ``-input``."""
    return Neg.apply(as_tensor(input))


def pow(input, exponent):
    """Element-wise ``input ** exponent``; either may be a Tensor or a number. Integers to
    negative integer powers give MindSpore's values (``2 ** -1`` is 0, ``0 ** -1`` Int32's or
    Int64's minimum)."""
    return binary(Pow, input, exponent, 'pow')


def square(input):
    """Element-wise ``input * input``."""
    return Square.apply(as_tensor(input))


def cast(input, dtype):
    """Convert to ``dtype``; the gradient is converted back (between any two dtypes, as
    MindSpore's).

    >>> import hookgrad as ms
    >>> ms.ops.cast(ms.Tensor([1, 2]), ms.float32).dtype
    mindspore.float32
    """
    x = as_tensor(input)
    try:
        dt = to_numpy(dtype)
    except (TypeError, ValueError):
        dt = dtype_arg(dtype)       # raises, naming the op and the argument
    if x._data.dtype == dt:
        return x
    if dt.kind == 'c':
        _complex_support.enable()
    elif x._data.dtype.kind == 'c' and not _asked_by_user():
        raise TypeError(f"an op of hookgrad would convert a {x.dtype} tensor to "
                        f"{from_numpy(dt)}, dropping its imaginary part: that op takes real "
                        f"tensors only (hookgrad/autograd/complex_support.py lists the ops that "
                        f"take complex ones); use ops.real, ops.imag or ops.abs first")
    return Cast.apply(x, dtype=dt)


_CAST_ENTRIES = tuple(os.path.join(os.path.dirname(os.path.dirname(__file__)), d) + os.sep
                      for d in ('_tensor', os.path.join('ops', 'operations')))


def _asked_by_user():
    """Whether ``cast`` was called by the user's code, directly or through a Tensor method or a
    Primitive (``x.astype(ms.float32)``, ``ops.Cast()(x, ...)``), rather than by an op that
    converts its input: a complex number cast to a real type keeps its real part only when the
    user asked for it (as MindSpore's astype does)."""
    f = sys._getframe(2)
    while f is not None and _frames.is_internal(f):
        if not f.f_code.co_filename.startswith(_CAST_ENTRIES):
            return False
        f = f.f_back
    return True


# MindSpore aliases
subtract = sub
multiply = mul
divide = div
negative = neg
tensor_add = add
tensor_sub = sub
tensor_mul = mul
tensor_div = div
tensor_pow = pow


class Identity(Op):
    """y = x (a copy when asked); the gradient passes through unchanged."""
    @staticmethod
    def forward(ctx, x, copy=False):
        return x.copy() if copy else x

    @staticmethod
    def backward(ctx, gy):
        return gy


class Remainder(Op):
    """y = a - floor(a / b) * b (Python's sign convention); an integer over 0 gives ``a``, as
    MindSpore's ``remainder`` computes it."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save(a, b)
        return by_zero('keep', a, b, fp_call('remainder', np.remainder, a, b))

    @staticmethod
    def backward(ctx, gy):
        a, b = ctx.saved
        return gy, -gy * ((a - a % b) / b)      # d/db = -floor(a / b)


class FloorMod(Remainder):
    """``Remainder`` as MindSpore's FloorMod kernel (``%``, ``floor_mod``): an integer over 0
    gives Int32's or Int64's minimum (0 for narrower types) instead of ``a``."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save(a, b)
        return by_zero('wide_min', a, b, fp_call('floor_mod', np.remainder, a, b))


def identity(input, copy=False):
    """``input`` itself as a new graph node (a fresh copy of the values when ``copy``)."""
    return Identity.apply(as_tensor(input), copy=copy)


def floor_divide(input, other):
    """Element-wise floor of ``input / other`` (no gradient)."""
    a, b = _operands(input, other)
    return binary(FloorDiv, a, b, 'floor_divide')


def remainder(input, other):
    """Element-wise ``input mod other`` with the sign of ``other`` (Python's convention)."""
    return binary(Remainder, input, other, 'remainder')


def floor_mod(x, y):
    """``remainder`` as ``%`` computes it: the same values, except an integer over 0 (MindSpore's
    FloorMod kernel gives Int32's or Int64's minimum there, ``remainder`` gives ``x``)."""
    return binary(FloorMod, x, y, 'floor_mod')

