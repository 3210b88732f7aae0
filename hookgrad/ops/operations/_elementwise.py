"""MindSpore's Primitive classes for element-wise math beyond the basic arithmetic of
``_primitive.py``: rounding, special functions, trigonometry, division variants, NaN-aware
extremes, logic and bit operations, closeness tests.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
from .._base import as_tensor
from .. import (arithmetic as _arith, comparison as _cmp, elementwise as _elem, indexing as _index,
               trigonometric as _trig, unary as _unary)
from ._primitive import Add, Primitive

__all__ = ['Reciprocal', 'Inv', 'Floor', 'Ceil', 'Round', 'Rint', 'Trunc', 'Sign', 'Erf', 'Erfc',
           'Expm1', 'Log1p', 'Sinc', 'Asin', 'ACos', 'Atan', 'Sinh', 'Cosh', 'Tan', 'Asinh',
           'Acosh', 'Atanh', 'LogicalNot', 'Invert', 'IsNan', 'IsInf', 'IsFinite', 'TensorAdd',
           'Atan2', 'FloorDiv', 'FloorMod', 'Mod', 'TruncateDiv', 'TruncateMod', 'DivNoNan',
           'MulNoNan', 'Xlogy', 'Xdivy', 'Hypot', 'SquaredDifference', 'Fmax', 'Fmin', 'LogicalAnd',
           'LogicalOr', 'LogicalXor', 'BitwiseAnd', 'BitwiseOr', 'BitwiseXor', 'Lerp', 'Addcmul',
           'Addcdiv', 'AddN', 'IsClose', 'NanToNum', 'Heaviside', 'Logit']


# ----------------------------------------------------------------------------- unary
class _Unary(Primitive):
    function = None

    def construct(self, x):
        return type(self).function(x)


class Reciprocal(_Unary):
    """``Reciprocal()(x)``: ``1 / x``."""
    function = staticmethod(_unary.reciprocal)


class Inv(_Unary):
    """``Inv()(x)``: ``1 / x``."""
    function = staticmethod(_unary.inv)


class Floor(_Unary):
    """``Floor()(x)``: the largest integer not above x."""
    function = staticmethod(_unary.floor)


class Ceil(_Unary):
    """``Ceil()(x)``: the smallest integer not below x."""
    function = staticmethod(_unary.ceil)


class Round(_Unary):
    """``Round()(x)``: x rounded half to even."""
    function = staticmethod(_elem.round)


class Rint(_Unary):
    """``Rint()(x)``: x rounded to the nearest integer, halves to even."""
    function = staticmethod(_elem.round)


class Trunc(_Unary):
    """``Trunc()(x)``: x rounded towards zero."""
    function = staticmethod(_elem.trunc)


class Sign(_Unary):
    """``Sign()(x)``: -1, 0 or 1."""
    function = staticmethod(_unary.sign)


class Erf(_Unary):
    """``Erf()(x)``: the Gauss error function."""
    function = staticmethod(_unary.erf)


class Erfc(_Unary):
    """``Erfc()(x)``: ``1 - erf(x)``."""
    function = staticmethod(_elem.erfc)


class Expm1(_Unary):
    """``Expm1()(x)``: ``e ** x - 1``."""
    function = staticmethod(_unary.expm1)


class Log1p(_Unary):
    """``Log1p()(x)``: ``log(1 + x)``."""
    function = staticmethod(_unary.log1p)


class Sinc(_Unary):
    """``Sinc()(input)``: ``sin(pi x) / (pi x)``, 1 at 0."""
    function = staticmethod(_trig.sinc)


class Asin(_Unary):
    """``Asin()(x)``: arcsine."""
    function = staticmethod(_trig.asin)


class ACos(_Unary):
    """``ACos()(x)``: arccosine."""
    function = staticmethod(_trig.acos)


class Atan(_Unary):
    """``Atan()(x)``: arctangent."""
    function = staticmethod(_trig.atan)


class Sinh(_Unary):
    """``Sinh()(x)``: hyperbolic sine."""
    function = staticmethod(_trig.sinh)


class Cosh(_Unary):
    """``Cosh()(x)``: hyperbolic cosine."""
    function = staticmethod(_trig.cosh)


class Tan(_Unary):
    """``Tan()(x)``: tangent."""
    function = staticmethod(_trig.tan)


class Asinh(_Unary):
    """``Asinh()(x)``: inverse hyperbolic sine."""
    function = staticmethod(_trig.asinh)


class Acosh(_Unary):
    """``Acosh()(x)``: inverse hyperbolic cosine."""
    function = staticmethod(_trig.acosh)


class Atanh(_Unary):
    """``Atanh()(x)``: inverse hyperbolic tangent."""
    function = staticmethod(_trig.atanh)


class LogicalNot(_Unary):
    """``LogicalNot()(x)``: Bool ``not x``."""
    function = staticmethod(_cmp.logical_not)


class Invert(_Unary):
    """``Invert()(x)``: bitwise NOT of an integer tensor."""
    function = staticmethod(_elem.bitwise_not)


class IsNan(_Unary):
    """``IsNan()(x)``: Bool, where x is NaN."""
    function = staticmethod(_cmp.isnan)


class IsInf(_Unary):
    """``IsInf()(x)``: Bool, where x is infinite."""
    function = staticmethod(_cmp.isinf)


class IsFinite(_Unary):
    """``IsFinite()(x)``: Bool, where x is finite."""
    function = staticmethod(_cmp.isfinite)


# ----------------------------------------------------------------------------- binary
class _Binary(Primitive):
    function = None

    def construct(self, x, y):
        return type(self).function(x, y)


TensorAdd = Add      # MindSpore's former name of Add (_primitive.py)


class Atan2(_Binary):
    """``Atan2()(x, y)``: the angle of the point (y, x), ``atan(x / y)`` in the right quadrant."""
    function = staticmethod(_trig.atan2)


class FloorDiv(_Binary):
    """``FloorDiv()(x, y)``: ``floor(x / y)``."""
    function = staticmethod(_elem.floor_div)


class FloorMod(_Binary):
    """``FloorMod()(x, y)``: ``x - floor(x / y) * y``."""
    function = staticmethod(_elem.floor_mod)


class Mod(_Binary):
    """``Mod()(x, y)``: the remainder with the sign of x (C's fmod)."""
    function = staticmethod(_elem.mod_primitive)


class TruncateDiv(_Binary):
    """``TruncateDiv()(x, y)``: ``x / y`` rounded towards zero."""
    function = staticmethod(_elem.truncate_div)


class TruncateMod(_Binary):
    """``TruncateMod()(x, y)``: the remainder with the sign of x."""
    function = staticmethod(_elem.truncate_mod)


class DivNoNan(_Binary):
    """``DivNoNan()(x, y)``: ``x / y``, 0 where y is 0."""
    function = staticmethod(_elem.div_no_nan)


class MulNoNan(Primitive):
    """``MulNoNan()(x, y)``: ``x * y``, 0 where y is 0 (even when x is inf or NaN)."""
    def construct(self, x, y):
        x, y = as_tensor(x, 'x'), as_tensor(y, 'y')
        # only a non-finite x meeting y == 0 is replaced, so the gradient there stays x
        hidden = _cmp.logical_and(_cmp.equal(y, 0), _cmp.logical_not(_cmp.isfinite(x)))
        return _arith.mul(_index.where(hidden, 0, x), y)


class Xlogy(_Binary):
    """``Xlogy()(x, y)``: ``x * log(y)``, 0 where x is 0."""
    function = staticmethod(_elem.xlogy)


class Xdivy(_Binary):
    """``Xdivy()(x, y)``: ``x / y``, 0 where x is 0."""
    function = staticmethod(_elem.xdivy)


class Hypot(_Binary):
    """``Hypot()(x, y)``: ``sqrt(x ** 2 + y ** 2)``."""
    function = staticmethod(_trig.hypot)


class SquaredDifference(_Binary):
    """``SquaredDifference()(x, y)``: ``(x - y) ** 2``."""
    function = staticmethod(_elem.squared_difference)


class Fmax(_Binary):
    """``Fmax()(x1, x2)``: element-wise maximum, NaN ignored."""
    function = staticmethod(_cmp.fmax)


class Fmin(_Binary):
    """``Fmin()(x1, x2)``: element-wise minimum, NaN ignored."""
    function = staticmethod(_cmp.fmin)


class LogicalAnd(_Binary):
    """``LogicalAnd()(x, y)``: Bool ``x and y``."""
    function = staticmethod(_cmp.logical_and)


class LogicalOr(_Binary):
    """``LogicalOr()(x, y)``: Bool ``x or y``."""
    function = staticmethod(_cmp.logical_or)


class LogicalXor(_Binary):
    """``LogicalXor()(x, y)``: Bool ``x xor y``."""
    function = staticmethod(_elem.logical_xor)


class BitwiseAnd(_Binary):
    """``BitwiseAnd()(x, y)``: bitwise AND of integer tensors."""
    function = staticmethod(_elem.bitwise_and)


class BitwiseOr(_Binary):
    """``BitwiseOr()(x, y)``: bitwise OR of integer tensors."""
    function = staticmethod(_elem.bitwise_or)


class BitwiseXor(_Binary):
    """``BitwiseXor()(x, y)``: bitwise XOR of integer tensors."""
    function = staticmethod(_elem.bitwise_xor)


# ----------------------------------------------------------------------------- more inputs, options
class Lerp(Primitive):
    """``Lerp()(start, end, weight)``: ``start + weight * (end - start)``."""
    def construct(self, start, end, weight):
        return _elem.lerp(start, end, weight)


class Addcmul(Primitive):
    """``Addcmul()(input_data, x1, x2, value)``: ``input_data + value * x1 * x2``."""
    def construct(self, input_data, x1, x2, value):
        return _elem.addcmul(input_data, x1, x2, value)


class Addcdiv(Primitive):
    """``Addcdiv()(input_data, x1, x2, value)``: ``input_data + value * x1 / x2``."""
    def construct(self, input_data, x1, x2, value):
        return _elem.addcdiv(input_data, x1, x2, value)


class AddN(Primitive):
    """``AddN()(x)``: the sum of the tensors of the tuple or list x."""
    def construct(self, x):
        return _elem.addn(x)


class IsClose(Primitive):
    """``IsClose(rtol=1e-05, atol=1e-08, equal_nan=False)(x1, x2)``: Bool closeness."""
    def __init__(self, rtol=1e-05, atol=1e-08, equal_nan=False):
        super().__init__(rtol=rtol, atol=atol, equal_nan=equal_nan)

    def construct(self, x1, x2):
        return _elem.isclose(x1, x2, self.rtol, self.atol, self.equal_nan)


class NanToNum(Primitive):
    """``NanToNum(nan=None, posinf=None, neginf=None)(x)``: NaN and infinities replaced."""
    def __init__(self, nan=None, posinf=None, neginf=None):
        super().__init__(nan=nan, posinf=posinf, neginf=neginf)

    def construct(self, x):
        return _elem.nan_to_num(x, self.nan, self.posinf, self.neginf)


class Heaviside(Primitive):
    """``Heaviside()(x, values)``: 0 where x < 0, values where x == 0, 1 where x > 0."""
    def construct(self, x, values):
        return _cmp.heaviside(x, values)


class Logit(Primitive):
    """``Logit(eps=-1.0)(input)``: ``log(x / (1 - x))``, x clamped to [eps, 1 - eps] when eps
    is not negative."""
    def __init__(self, eps=-1.0):
        if not isinstance(eps, float):
            raise TypeError(f"ops.Logit: eps must be a float, got {eps!r}")
        super().__init__(eps=eps)

    def construct(self, input):
        return _elem.logit(input, self.eps)
