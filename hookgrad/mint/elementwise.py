"""``mindspore.mint``'s element-wise math, comparison and logic, on hookgrad's ops.

Functions whose MindSpore signature is already the ops' are the ops themselves; the others
take PyTorch's keywords (``alpha=``, ``rounding_mode=``...) and call the ops.
"""
from .. import ops
from .. import numpy as _numpy
from ..ops import (abs, acos, acosh, arccos, arccosh, arcsinh, arctan, arctan2, arctanh, asin,
                   asinh, atan, atan2, atanh, bitwise_and, bitwise_or, bitwise_xor, ceil, cos,
                   cosh, erf, erfc, exp, exp2, expm1, float_power, floor, isclose, isfinite,
                   isinf, isneginf, log, log10, log1p, log2, logaddexp, logaddexp2, logical_and,
                   logical_not, logical_or, logical_xor, maximum, minimum, nan_to_num, neg,
                   negative, reciprocal, round, rsqrt, sigmoid, sign, sin, sinc, sinh, sqrt,
                   square, tan, tanh, trunc, greater, gt, le, less_equal, ne, not_equal, equal,
                   mul, div, floor_divide, fmod, remainder, pow, xlogy, lerp, eq, ge, lt)
from .._tensor import Tensor
from ..ops.elementwise import bitwise_not as _bitwise_not

__all__ = ['abs', 'acos', 'acosh', 'arccos', 'arccosh', 'arcsin', 'arcsinh', 'arctan', 'arctan2',
           'arctanh', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'bitwise_and', 'bitwise_or',
           'bitwise_xor', 'bitwise_not', 'ceil', 'cos', 'cosh', 'erf', 'erfc', 'erfinv', 'exp',
           'exp2', 'expm1', 'float_power', 'floor', 'isclose', 'isfinite', 'isinf', 'isneginf',
           'isnan', 'log', 'log10', 'log1p', 'log2', 'logaddexp', 'logaddexp2', 'logical_and',
           'logical_not', 'logical_or', 'logical_xor', 'maximum', 'minimum', 'nan_to_num', 'neg',
           'negative', 'reciprocal', 'round', 'rsqrt', 'sigmoid', 'sign', 'sin', 'sinc', 'sinh',
           'sqrt', 'square', 'tan', 'tanh', 'trunc', 'fix', 'frac', 'greater', 'gt', 'le',
           'less_equal', 'ne', 'not_equal', 'equal', 'eq', 'ge', 'greater_equal', 'lt', 'less',
           'add', 'sub', 'mul', 'div', 'divide', 'floor_divide', 'fmod', 'remainder', 'pow',
           'xlogy', 'addcdiv', 'addcmul', 'lerp', 'clamp', 'clip', 'where', 'allclose', 'gcd',
           'real', 'imag', 'polar']

fix = trunc


def arcsin(x):
    """``asin(x)``, element-wise."""
    return ops.asin(x)


def isnan(tensor):
    """Whether each element is NaN."""
    return ops.isnan(tensor)


def frac(input):
    """The fractional part ``x - trunc(x)``."""
    return ops.frac(input)


def bitwise_not(input):
    """``~x`` of an integer or bool tensor."""
    return _bitwise_not(input)


def erfinv(input):
    """The inverse of ``erf`` on (-1, 1)."""
    return _tensor(input).erfinv()


def _tensor(x):
    return x if isinstance(x, Tensor) else Tensor(x)


def _scaled(other, alpha):
    return other if alpha == 1 else ops.mul(other, alpha)


def add(input, other, *, alpha=1):
    """``input + alpha * other``."""
    return ops.add(input, _scaled(other, alpha))


def sub(input, other, *, alpha=1):
    """``input - alpha * other``."""
    return ops.sub(input, _scaled(other, alpha))


divide = div


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``."""
    return ops.addcdiv(input, tensor1, tensor2, value)


def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``."""
    return ops.addcmul(input, tensor1, tensor2, value)


def clamp(input, min=None, max=None):
    """``input`` limited to ``[min, max]`` (either bound may be None, or a tensor)."""
    if min is None and max is None:
        raise ValueError("For Clamp, at least one of 'min' or 'max' must not be None.")
    return ops.clamp(input, min, max)


clip = clamp


greater_equal = ge


less = lt


def where(condition, input=None, other=None):
    """``input`` where ``condition`` holds, else ``other``; with the condition alone, the
    indices of its true elements, one tensor per dimension."""
    if input is None and other is None:
        return ops.nonzero(condition, as_tuple=True)
    return ops.where(condition, input, other)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of ``input`` is close to ``other``: a Python bool."""
    return _tensor(input).allclose(other, rtol, atol, equal_nan)


def gcd(input, other):
    """The greatest common divisor of integer tensors, element-wise."""
    return _numpy.gcd(input, other)


def real(input):
    """The real part (the tensor itself for real dtypes)."""
    x = _tensor(input)
    return ops.real(x) if x._data.dtype.kind == 'c' else x


def imag(input):
    """The imaginary part of a complex tensor; a real one is refused, as MindSpore refuses it."""
    x = _tensor(input)
    if x._data.dtype.kind != 'c':
        raise TypeError(f"mint.imag: expects a complex tensor, got {x.dtype}")
    return ops.imag(x)


def polar(abs, angle):
    """``abs * (cos(angle) + i sin(angle))``: Complex64 from Float32, Complex128 from Float64."""
    return ops.polar(abs, angle)

