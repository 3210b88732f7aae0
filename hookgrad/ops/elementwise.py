"""More element-wise math: log2/log10/exp2, logaddexp, logit, float_power, rounding (round,
trunc, frac), remainders (fmod and MindSpore's floor/truncate forms), xlogy/xdivy, lerp,
addcmul/addcdiv, isclose, nan_to_num, signbit, logical_xor and the bitwise ops.

Functions that are compositions of existing ops (frac, lerp, addcmul, xlogy...) need no
primitive of their own: their gradients come from the ops they apply.
"""
import math
import numbers

import numpy as np

from .._dtype import float64 as _float64, from_numpy
from .._tensor import Tensor
from ..autograd.function import Op, apply1
from ._base import as_tensor, as_tensors, binary, broadcast_error, check_broadcast, operands
from ..kernels import half as _half
from ..kernels.fp_errors import fp_call
from ..kernels.int_division import by_zero
from .arithmetic import (RoundedDiv, add, cast, div, floor_divide, floor_mod, mul, pow, remainder,
                         sub)
from .comparison import clamp, equal, gt, logical_and, logical_not, logical_or, lt
from .indexing import where
from .unary import _floating, erf, log

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


class Log2(Op):
    """y = log2(x); dy/dx = 1 / (x ln 2)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('log2', np.log2, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy / (x * _LN2)


class Log10(Op):
    """y = log10(x); dy/dx = 1 / (x ln 10)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return fp_call('log10', np.log10, x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy / (x * _LN10)


class Exp2(Op):
    """y = 2 ** x; dy/dx = y ln 2, so keep y."""
    @staticmethod
    def forward(ctx, x):
        y = fp_call('exp2', np.exp2, x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return gy * y * _LN2


class LogAddExp(Op):
    """y = log(e**a + e**b) without overflow; da = e**(a - y), db = e**(b - y)."""
    @staticmethod
    def forward(ctx, a, b):
        y = np.logaddexp(a, b)
        ctx.save(a, b, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        a, b, y = ctx.saved
        m = ctx.m
        return (gy * m.exp(a - y) if ctx.needs_grad(0) else None), \
            (gy * m.exp(b - y) if ctx.needs_grad(1) else None)


class LogAddExp2(Op):
    """y = log2(2**a + 2**b); da = 2**(a - y), db = 2**(b - y)."""
    @staticmethod
    def forward(ctx, a, b):
        y = np.logaddexp2(a, b)
        ctx.save(a, b, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        a, b, y = ctx.saved
        m = ctx.m
        return (gy * m.exp((a - y) * _LN2) if ctx.needs_grad(0) else None), \
            (gy * m.exp((b - y) * _LN2) if ctx.needs_grad(1) else None)


class Round(Op):
    """y = x rounded half to even at ``decimals`` places; piecewise constant, no gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, decimals):
        if x.dtype.kind not in 'fV':
            return x.copy() if decimals >= 0 else np.round(x, decimals)
        return np.round(x, decimals)


class RoundTowardZero(Op):
    """y = x rounded towards zero; piecewise constant, no gradient. Integers stay as they are."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return np.trunc(x) if x.dtype.kind in 'fV' else x.copy()


class TruncatedRemainder(Op):
    """y = a - trunc(a / b) * b (the sign of a, C's fmod); da = 1, db = -trunc(a / b), a
    piecewise constant kept from forward. ``zero`` names what an integer over 0 gives
    (kernels/int_division.py; None: 0)."""
    @staticmethod
    def forward(ctx, a, b, zero=None):
        y = fp_call('fmod', np.fmod, a, b)
        if zero is not None:
            y = by_zero(zero, a, b, y)
        if ctx.recording:
            ctx.save((a - y) / b)
        return y

    @staticmethod
    def backward(ctx, gy):
        return gy, (-gy * ctx.saved[0] if ctx.needs_grad(1) else None)


class SignBit(Op):
    """y = x < 0 (MindSpore's definition: -0.0 and NaN give False); no gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return x < 0


class IsClose(Op):
    """y = |a - b| <= atol + rtol * |b| (NaNs equal when ``equal_nan``); no gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b, rtol, atol, equal_nan):
        return np.isclose(a, b, rtol, atol, equal_nan)


class NanToNum(Op):
    """y = x with NaN, +inf and -inf replaced by numbers; the gradient passes where x was
    finite and is 0 at the replaced elements; infinities become the dtype's extremes by
    default."""
    @staticmethod
    def forward(ctx, x, nan, posinf, neginf):
        if ctx.recording:
            ctx.save(np.isfinite(x))
        if x.dtype is _half.BFLOAT16:       # NumPy's nan_to_num has no bfloat16 extremes
            top = float(_half.finfo(x.dtype).max)
            return np.nan_to_num(x.astype(np.float32), nan=nan,
                                 posinf=top if posinf is None else posinf,
                                 neginf=-top if neginf is None else neginf).astype(x.dtype)
        return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)

    @staticmethod
    def backward(ctx, gy):
        (finite,) = ctx.saved
        return ctx.m.where(finite, gy, 0)


class LogicalXor(Op):
    """y = a xor b (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.logical_xor(a, b)


class BitAnd(Op):
    """y = a & b on integers or bools (no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.bitwise_and(a, b)


class BitOr(Op):
    """y = a | b on integers or bools (no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.bitwise_or(a, b)


class BitXor(Op):
    """y = a ^ b on integers or bools (no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.bitwise_xor(a, b)


class BitNot(Op):
    """y = ~x on integers or bools (no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return np.invert(x)


# ------------------------------------------------------------------------------ exp and log
def log2(input):
    """Element-wise base-2 logarithm (integers give Float32)."""
    return apply1(Log2, _floating(input))


def log10(input):
    """Element-wise base-10 logarithm (integers give Float32)."""
    return apply1(Log10, _floating(input))


def exp2(input):
    """Element-wise ``2 ** input`` (integers give Float32)."""
    return apply1(Exp2, _floating(input))


def _float_operands(input, other, name):
    a, b = operands(input, other)
    if a._data.dtype.kind not in 'fV':
        raise TypeError(f"ops.{name}: input and other must be floating tensors, got "
                        f"{as_tensor(input).dtype} and {as_tensor(other).dtype}")
    return a, b


def logaddexp(input, other):
    """Element-wise ``log(exp(input) + exp(other))``, without overflow.

    Raises:
        TypeError: for integer inputs (as MindSpore).
    """
    return binary(LogAddExp, *_float_operands(input, other, 'logaddexp'), 'logaddexp')


def logaddexp2(input, other):
    """Element-wise ``log2(2 ** input + 2 ** other)``, without overflow.

    Raises:
        TypeError: for integer inputs (as MindSpore).
    """
    return binary(LogAddExp2, *_float_operands(input, other, 'logaddexp2'), 'logaddexp2')


def erfc(input):
    """Element-wise ``1 - erf(input)`` (absolute error about 1e-16 in Float64)."""
    return sub(1.0, erf(input))


def logit(input, eps=None):
    """``log(x / (1 - x))``, x first clamped to [eps, 1 - eps] when ``eps`` is given (None or
    a negative eps clamps nothing).

    Raises:
        TypeError: when eps is neither None nor a float.
    """
    if eps is not None and (isinstance(eps, bool) or not isinstance(eps, numbers.Real)):
        raise TypeError(f"ops.logit: eps must be a float or None, got {eps!r}")
    x = _floating(input)
    if eps is not None and eps >= 0:
        x = clamp(x, float(eps), 1.0 - float(eps))
    return log(div(x, sub(1.0, x)))


def float_power(input, exponent):
    """``input ** exponent`` computed in Float64."""
    x = as_tensor(input, 'input')
    x = x if x._data.dtype == np.float64 else cast(x, _float64)
    if isinstance(exponent, Tensor) and exponent._data.dtype != np.float64:
        exponent = cast(exponent, _float64)
    return pow(x, exponent)


# ------------------------------------------------------------------------------ rounding
def round(input, *, decimals=0):
    """Element-wise rounding half to even, at ``decimals`` decimal places; no gradient.

    >>> import hookgrad as ms
    >>> ms.ops.round(ms.Tensor([0.5, 1.5, 2.5])).tolist()
    [0.0, 2.0, 2.0]
    """
    if isinstance(decimals, bool) or not isinstance(decimals, numbers.Integral):
        raise TypeError(f"ops.round: decimals must be an int, got {decimals!r}")
    return Round.apply(as_tensor(input), decimals=int(decimals))


def trunc(input):
    """Element-wise rounding towards zero; no gradient. Integers are returned as they are."""
    return RoundTowardZero.apply(as_tensor(input))


def frac(x):
    """Element-wise fractional part ``x - trunc(x)`` (sign of x); its gradient is 1."""
    t = as_tensor(x, 'x')
    return sub(t, trunc(t))


# ------------------------------------------------------------------------------ divisions
def fmod(input, other):
    """Element-wise remainder of ``input / other`` with the sign of ``input`` (C's fmod); an
    integer over 0 gives ``input``, as MindSpore's kernel."""
    return _truncated_remainder(input, other, 'keep', 'fmod')


def truncate_mod(x, y):
    """``fmod``, except that an integer over 0 gives 0, as MindSpore's TruncateMod kernel."""
    return _truncated_remainder(x, y, None, 'truncate_mod')


def mod_primitive(x, y):
    """``ops.Mod()``: ``fmod``, except that an integer over 0 gives what MindSpore's Mod kernel
    gives (Int32's or Int64's minimum where ``x`` is not 0, else 0)."""
    return _truncated_remainder(x, y, 'wide_min_nonzero', 'Mod')


def _truncated_remainder(x, y, zero, name):
    a, b = operands(x, y)
    try:
        return TruncatedRemainder.apply(a, b, zero=zero)
    except ValueError:
        check_broadcast(name, a, b)
        raise


def truncate_div(x, y):
    """Element-wise ``x / y`` rounded towards zero; integers stay integers; no gradient.

    Raises:
        TypeError: when x and y are both Bool (one Bool operand takes the other's dtype).
    """
    a, b = operands(x, y)
    if a._data.dtype == np.bool_ and b._data.dtype == np.bool_:
        raise TypeError("ops.truncate_div: x and y must not both be Bool")
    check_broadcast('truncate_div', a, b)
    return RoundedDiv.apply(a, b, mode='trunc', zero='quotient')   # an integer over 0 saturates


def div_no_nan(x, y):
    """Element-wise ``x / y``, and 0 where ``y`` is 0."""
    a, b = operands(x, y)
    zero = equal(b, 0)
    return where(zero, 0, div(a, where(zero, 1, b)))


def true_divide(dividend, divisor):
    """Element-wise true division (integers give Float32)."""
    return div(dividend, divisor)


def _float_pair(x, y):
    a, b = operands(x, y)
    if a._data.dtype.kind not in 'fV':
        a, b = cast(a, np.float32), cast(b, np.float32)
    return a, b


def xlogy(input, other):
    """Element-wise ``input * log(other)``, and 0 where ``input`` is 0 (as MindSpore
    documents; the gradient reaching ``other`` there is 0 too).

    >>> import hookgrad as ms
    >>> ms.ops.xlogy(ms.Tensor([0.0, 1.0]), ms.Tensor([0.0, 1.0])).tolist()
    [0.0, 0.0]
    """
    a, b = _float_pair(input, other)
    # where input is 0 and log(other) is not finite (other <= 0, inf or NaN), log(1) stands in
    undefined = logical_and(equal(a, 0), logical_not(logical_and(gt(b, 0), lt(b, math.inf))))
    return mul(a, log(where(undefined, 1, b)))


def xdivy(x, y):
    """Element-wise ``x / y``, and 0 where ``x`` is 0 whatever ``y`` (0, NaN or negative), as
    MindSpore documents and computes it; the gradients there are 0."""
    a, b = _float_pair(x, y)
    # where x is 0 and y is 0 or NaN, 1 stands in; + 0.0 turns 0 / -y's -0 into MindSpore's 0
    undefined = logical_and(equal(a, 0), logical_or(equal(b, 0), logical_not(equal(b, b))))
    return add(div(a, where(undefined, 1, b)), 0.0)


def squared_difference(x, y):
    """Element-wise ``(x - y) ** 2``."""
    d = sub(x, y)
    return mul(d, d)


# ------------------------------------------------------------------------------ combinations
def lerp(input, end, weight):
    """Element-wise ``input + weight * (end - input)``; ``weight`` a number or a Tensor.

    Raises:
        TypeError: for non-floating ``input`` or ``end`` (as MindSpore).
    """
    a, b = as_tensors((input, end), ('input', 'end'))
    for what, t in (('input', a), ('end', b)):
        if t._data.dtype.kind not in 'fV':
            raise TypeError(f"ops.lerp: {what} must be a floating tensor, got {t.dtype}")
    return add(a, mul(weight, sub(b, a)) if isinstance(weight, Tensor)
               else mul(sub(b, a), weight))


def _value(value, name):
    if not isinstance(value, Tensor) and (isinstance(value, bool)
                                          or not isinstance(value, numbers.Number)):
        raise TypeError(f"ops.{name}: value must be a number or a Tensor, got {value!r}")
    return value


def addcmul(input, tensor1, tensor2, value=1):
    """Element-wise ``input + value * tensor1 * tensor2`` with broadcasting."""
    value = _value(value, 'addcmul')
    return add(input, mul(mul(tensor1, tensor2), value))


def addcdiv(input, tensor1, tensor2, value=1):
    """Element-wise ``input + value * tensor1 / tensor2`` with broadcasting."""
    value = _value(value, 'addcdiv')
    return add(input, mul(div(tensor1, tensor2), value))


def addn(x):
    """The element-wise sum of the Tensors of the tuple or list ``x``.

    Raises:
        TypeError: when ``x`` is not a non-empty tuple or list.
        ValueError: when the shapes differ.
    """
    if not isinstance(x, (tuple, list)) or not x:
        raise TypeError(f"ops.addn: x must be a non-empty tuple or list of Tensors, got {x!r}")
    xs = as_tensors(x, ('x',) * len(x))
    for t in xs[1:]:
        if t.shape != xs[0].shape:
            raise ValueError(f"ops.addn: all tensors must have one shape, got {xs[0].shape} and "
                             f"{t.shape}")
    total = xs[0]
    for t in xs[1:]:
        total = add(total, t)
    return total


# ------------------------------------------------------------------------------ tests
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Bool: ``|input - other| <= atol + rtol * |other|`` element-wise (with broadcasting).

    Raises:
        ValueError: for a negative rtol or atol.
    """
    for what, v in (('rtol', rtol), ('atol', atol)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"ops.isclose: {what} must be a number, got {v!r}")
        if v < 0:
            raise ValueError(f"ops.isclose: {what} must be non-negative, got {v}")
    a, b = operands(input, other)
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error('isclose', a, b) from None
    return IsClose.apply(a, b, rtol=float(rtol), atol=float(atol), equal_nan=bool(equal_nan))


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """``input`` with NaN replaced by ``nan`` (default 0), +inf by ``posinf`` and -inf by
    ``neginf`` (default: the largest and lowest finite values of the dtype).

    Raises:
        TypeError: for a non-floating input (as MindSpore).
    """
    x = as_tensor(input)
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"ops.nan_to_num: input must be a floating tensor, got {x.dtype}")
    for what, v in (('nan', nan), ('posinf', posinf), ('neginf', neginf)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, numbers.Real)):
            raise TypeError(f"ops.nan_to_num: {what} must be a number or None, got {v!r}")
    return NanToNum.apply(x, nan=0.0 if nan is None else float(nan), posinf=posinf,
                          neginf=neginf)


def signbit(input):
    """Bool: whether each element is less than 0 (MindSpore's rule: -0.0 gives False)."""
    return SignBit.apply(as_tensor(input))


# ------------------------------------------------------------------------------ logic and bits
def logical_xor(input, other):
    """Element-wise logical XOR (nonzero is True) as a Bool tensor, with broadcasting."""
    a, b = as_tensors((input, other), ('input', 'other'))
    try:
        return LogicalXor.apply(a, b)
    except ValueError:
        raise broadcast_error('logical_xor', a, b) from None


def _bits(input, other, name):
    a, b = operands(input, other)
    if a._data.dtype.kind not in 'biu':
        raise TypeError(f"ops.{name}: inputs must be integer or Bool tensors, got "
                        f"{from_numpy(a._data.dtype)}")
    return a, b


def bitwise_and(input, other):
    """Element-wise bitwise AND of integer or Bool tensors, with broadcasting."""
    return binary(BitAnd, *_bits(input, other, 'bitwise_and'), 'bitwise_and')


def bitwise_or(input, other):
    """Element-wise bitwise OR of integer or Bool tensors, with broadcasting."""
    return binary(BitOr, *_bits(input, other, 'bitwise_or'), 'bitwise_or')


def bitwise_xor(input, other):
    """Element-wise bitwise XOR of integer or Bool tensors, with broadcasting."""
    return binary(BitXor, *_bits(input, other, 'bitwise_xor'), 'bitwise_xor')


def bitwise_not(input):
    """Element-wise bitwise NOT of an integer or Bool tensor."""
    x = as_tensor(input)
    if x._data.dtype.kind not in 'biu':
        raise TypeError(f"ops.bitwise_not: input must be an integer or Bool tensor, got "
                        f"{x.dtype}")
    return BitNot.apply(x)


# MindSpore aliases
floor_div = floor_divide
floordiv = floor_divide
floormod = floor_mod
tensor_floordiv = floor_divide
tensor_mod = floor_mod
