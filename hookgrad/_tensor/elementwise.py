"""Tensor's elementwise math, comparison and logic methods, MindSpore-named.

Each is a call into ``hookgrad.ops``; the few functions hookgrad.ops lacks (``sinc``, ``logit``,
``copysign``...) are compositions of ops, so gradients flow through them.
"""
import math

from .. import _dtype

_ops = None     # hookgrad.ops, bound once it has imported (hookgrad/_tensor/__init__.py)


class MathMethods:
    """Elementwise methods: arithmetic, trigonometry, rounding, comparisons, logic, bits."""

    __slots__ = ()

    # ----------------------------------------------------------------- arithmetic
    def divide(self, other, *, rounding_mode=None):
        return _ops.div(self, other, rounding_mode=rounding_mode)

    def true_divide(self, other):
        return _ops.div(self, other)

    def floor_divide(self, other):
        return _ops.floor_divide(self, other)

    def fmod(self, other):
        return _ops.fmod(self, other)

    def remainder(self, other=None, *, divisor=None):
        return _ops.remainder(self, divisor if other is None else other)

    def multiply(self, value):
        return _ops.mul(self, value)

    def subtract(self, other, *, alpha=1):
        """``self - alpha * other``."""
        return _ops.sub(self, other if alpha == 1 else _ops.mul(other, alpha))

    def negative(self):
        return _ops.neg(self)

    def positive(self):
        """The tensor itself (unary plus)."""
        return self

    def absolute(self):
        return _ops.abs(self)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        """``self + value * tensor1 / tensor2``."""
        return _ops.addcdiv(self, tensor1, tensor2, value)

    def addcmul(self, tensor1, tensor2, value=1):
        """``self + value * tensor1 * tensor2``."""
        return _ops.addcmul(self, tensor1, tensor2, value)

    def float_power(self, other):
        """``self ** other`` computed in Float64."""
        other = _ops.cast(other, _dtype.float64) if hasattr(other, '_data') else other
        return _ops.pow(_ops.cast(self, _dtype.float64), other)

    def hypot(self, other):
        return _ops.hypot(self, other)

    def lerp(self, end, weight):
        """``self + weight * (end - self)``."""
        return _ops.lerp(self, end, weight)

    def xlogy(self, other):
        return _ops.xlogy(self, other)

    def xdivy(self, y):
        return _ops.xdivy(self, y)

    def ldexp(self, other):
        """``self * 2 ** other``."""
        x = self if self._data.dtype.kind in 'fV' else _ops.cast(self, _dtype.float32)
        if not hasattr(other, '_data'):         # a number: a scalar factor keeps x's dtype
            return _ops.mul(x, 2.0 ** float(other))
        return _ops.mul(x, _ops.pow(2.0, _ops.cast(other, x.dtype)))

    def copysign(self, other):
        """``|self|`` with the sign of ``other``: negative where ``other < 0``."""
        return _ops.copysign(self, other)

    def fmax(self, other):
        """Elementwise maximum that ignores NaN (NaN only where both are NaN)."""
        return _nan_ignoring(self, other, _ops.maximum)

    def fmin(self, other):
        """Elementwise minimum that ignores NaN (NaN only where both are NaN)."""
        return _nan_ignoring(self, other, _ops.minimum)

    def heaviside(self, values):
        """0 where ``self < 0``, ``values`` where ``self == 0``, 1 where ``self > 0``."""
        step = _ops.cast(_ops.gt(self, 0), self.dtype)
        return _ops.where(_ops.eq(self, 0), _ops.cast(values, self.dtype), step)

    # ----------------------------------------------------------------- unary math
    def acos(self):
        return _ops.acos(self)

    def acosh(self):
        return _ops.acosh(self)

    def asin(self):
        return _ops.asin(self)

    def asinh(self):
        return _ops.asinh(self)

    def atan(self):
        return _ops.atan(self)

    def atanh(self):
        return _ops.atanh(self)

    def atan2(self, other):
        return _ops.atan2(self, other)

    arccos = acos
    arccosh = acosh
    arcsin = asin
    arcsinh = asinh
    arctan = atan
    arctanh = atanh
    arctan2 = atan2

    def tan(self):
        return _ops.tan(self)

    def sinh(self):
        return _ops.sinh(self)

    def cosh(self):
        return _ops.cosh(self)

    def sinc(self):
        """``sin(pi x) / (pi x)``, 1 at 0."""
        zero = _ops.eq(self, 0)
        px = _ops.mul(_ops.where(zero, _ops.ones_like(self), self), math.pi)
        return _ops.where(zero, _ops.ones_like(px), _ops.div(_ops.sin(px), px))

    def deg2rad(self):
        return _ops.mul(self, math.pi / 180)

    def rad2deg(self):
        return _ops.mul(self, 180 / math.pi)

    def log2(self):
        return _ops.log2(self)

    def log10(self):
        return _ops.log10(self)

    def logaddexp(self, other):
        return _ops.logaddexp(self, other)

    def logaddexp2(self, other):
        return _ops.logaddexp2(self, other)

    def logit(self, eps=None):
        """``log(p / (1 - p))``, with ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given."""
        p = self if eps is None else _ops.clamp(self, eps, 1 - eps)
        return _ops.log(_ops.div(p, _ops.sub(1, p)))

    def erf(self):
        return _ops.erf(self)

    def erfc(self):
        return _ops.erfc(self)

    def inv(self):
        return _ops.inv(self)

    def sgn(self):
        return _ops.sgn(self)

    def signbit(self):
        return _ops.signbit(self)

    def angle(self):
        """The complex argument: of complex values, ``ops.angle``; of real ones, pi where
        negative, else 0."""
        if self._data.dtype.kind == 'c':
            return _ops.angle(self)
        if self._data.dtype.kind not in 'fV':
            raise TypeError(f"Tensor.angle: the tensor must be floating-point, got {self.dtype}")
        return _ops.mul(_ops.cast(_ops.lt(self, 0), self.dtype), math.pi)

    def hardshrink(self, lambd=0.5):
        return _ops.hardshrink(self, lambd)

    def soft_shrink(self, lambd=0.5):
        return _ops.softshrink(self, lambd)

    def nan_to_num(self, nan=None, posinf=None, neginf=None):
        return _ops.nan_to_num(self, nan, posinf, neginf)

    # ----------------------------------------------------------------- rounding
    def floor(self):
        return _ops.floor(self)

    def ceil(self):
        return _ops.ceil(self)

    def trunc(self):
        return _ops.trunc(self)

    def frac(self):
        return _ops.frac(self)

    def round(self, decimals=0):
        return _ops.round(self, decimals=decimals)

    # ----------------------------------------------------------------- comparisons
    def eq(self, other):
        return _ops.eq(self, other)

    def ne(self, other):
        return _ops.ne(self, other)

    def lt(self, other):
        return _ops.lt(self, other)

    def le(self, other):
        return _ops.le(self, other)

    def gt(self, other):
        return _ops.gt(self, other)

    def ge(self, other):
        return _ops.ge(self, other)

    equal = eq
    not_equal = ne
    less = lt
    less_equal = le
    greater = gt
    greater_equal = ge

    def isclose(self, other=None, rtol=1e-05, atol=1e-08, equal_nan=False, *, x2=None):
        return _ops.isclose(self, x2 if other is None else other, rtol, atol, equal_nan)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """Whether every element is close to ``other`` (a Python bool)."""
        return bool(_ops.all(_ops.isclose(self, other, rtol, atol, equal_nan)))

    def approximate_equal(self, other, tolerance=1e-05):
        """``|self - other| < tolerance`` elementwise."""
        return _ops.lt(_ops.abs(_ops.sub(self, other)), tolerance)

    def isneginf(self):
        return _ops.logical_and(_ops.isinf(self), _ops.lt(self, 0))

    def isposinf(self):
        return _ops.logical_and(_ops.isinf(self), _ops.gt(self, 0))

    # ----------------------------------------------------------------- logic and bits
    def logical_and(self, other):
        return _ops.logical_and(self, other)

    def logical_or(self, other):
        return _ops.logical_or(self, other)

    def logical_xor(self, other):
        return _ops.logical_xor(self, other)

    def logical_not(self):
        return _ops.logical_not(self)

    def bitwise_and(self, other):
        return _ops.bitwise_and(self, other)

    def bitwise_or(self, other):
        return _ops.bitwise_or(self, other)

    def bitwise_xor(self, other):
        return _ops.bitwise_xor(self, other)

    def invert(self):
        """Bitwise NOT of an integer tensor."""
        if self._data.dtype.kind not in 'iu':
            raise TypeError(f"Tensor.invert: the tensor must have an integer dtype, got "
                            f"{self.dtype}")
        return _ops.Invert()(self)

    def bitwise_not(self):
        """Bitwise NOT (logical NOT for a Bool tensor)."""
        if self._data.dtype.kind == 'b':
            return _ops.logical_not(self)
        return self.invert()


def _nan_ignoring(x, other, pick):
    """``pick(x, other)`` where neither is NaN, else the one that is not NaN."""
    other = other if hasattr(other, '_data') else _ops.full_like(x, other)
    return pick(_ops.where(_ops.isnan(x), other, x), _ops.where(_ops.isnan(other), x, other))
