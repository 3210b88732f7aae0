"""MindSpore's Primitive classes for math: element-wise functions, reductions, norms, products
and random draws.

Each is a thin callable over the functional op it names (see ``primitives.py``): the same code,
graph and errors. Constructor and call arguments follow MindSpore 2.10's Primitives.
"""
import numpy as np

from .._dtype import int32 as _int32, int64 as _int64, to_numpy
from .primitives import Primitive, _flag
from . import (arithmetic as _arith, comparison as _cmp, elementwise as _elem, norms as _norms,
               products as _products, reduction as _red, sampling as _sampling,
               sorting as _sort, statistics as _stats, trigonometric as _trig, unary as _unary)

__all__ = [
    'Reciprocal', 'Floor', 'Ceil', 'Round', 'Trunc', 'Sign', 'Erf', 'Erfc', 'Expm1', 'Log1p',
    'Asin', 'ACos', 'Atan', 'Sinh', 'Cosh', 'Tan', 'Asinh', 'Acosh', 'Atanh', 'Atan2',
    'FloorDiv', 'FloorMod', 'Mod', 'TruncateDiv', 'TruncateMod', 'DivNoNan', 'Xlogy', 'Xdivy',
    'Hypot', 'Lerp', 'Addcmul', 'Addcdiv', 'SquaredDifference', 'AddN',
    'LogicalAnd', 'LogicalOr', 'LogicalNot', 'LogicalXor', 'BitwiseAnd', 'BitwiseOr',
    'BitwiseXor', 'Invert', 'IsNan', 'IsInf', 'IsFinite', 'IsClose', 'NanToNum',
    'ReduceAll', 'ReduceAny', 'ReduceStd', 'Argmin', 'ArgMinWithValue', 'CumSum', 'CumProd',
    'Cummax', 'Cummin', 'CumulativeLogsumexp', 'L2Normalize', 'Cdist', 'Einsum',
    'UniformReal', 'StandardNormal', 'UniformInt', 'Multinomial',
]


# ----------------------------------------------------------------------------- element-wise
class _Unary(Primitive):
    function = None

    def construct(self, x):
        return type(self).function(x)


class Reciprocal(_Unary):
    """``Reciprocal()(x)``: ``1 / x``."""
    function = staticmethod(_unary.reciprocal)


class Floor(_Unary):
    """``Floor()(x)``: the largest integer not above x."""
    function = staticmethod(_unary.floor)


class Ceil(_Unary):
    """``Ceil()(x)``: the smallest integer not below x."""
    function = staticmethod(_unary.ceil)


class Round(_Unary):
    """``Round()(x)``: x rounded half to even."""
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


class _Binary(Primitive):
    function = None

    def construct(self, x, y):
        return type(self).function(x, y)


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
    function = staticmethod(_elem.fmod)


class TruncateDiv(_Binary):
    """``TruncateDiv()(x, y)``: ``x / y`` rounded towards zero."""
    function = staticmethod(_elem.truncate_div)


class TruncateMod(_Binary):
    """``TruncateMod()(x, y)``: the remainder with the sign of x."""
    function = staticmethod(_elem.fmod)


class DivNoNan(_Binary):
    """``DivNoNan()(x, y)``: ``x / y``, 0 where y is 0."""
    function = staticmethod(_elem.div_no_nan)


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


# ----------------------------------------------------------------------------- reductions
class ReduceAll(Primitive):
    """``ReduceAll(keep_dims=False)(x, axis=())``: Bool, whether all are nonzero."""
    def __init__(self, keep_dims=False):
        super().__init__(keep_dims=_flag(keep_dims, 'ReduceAll', 'keep_dims'))

    def construct(self, x, axis=()):
        return _red.all(x, axis, self.keep_dims)


class ReduceAny(Primitive):
    """``ReduceAny(keep_dims=False)(x, axis=())``: Bool, whether any is nonzero."""
    def __init__(self, keep_dims=False):
        super().__init__(keep_dims=_flag(keep_dims, 'ReduceAny', 'keep_dims'))

    def construct(self, x, axis=()):
        return _red.any(x, axis, self.keep_dims)


class ReduceStd(Primitive):
    """``ReduceStd(axis=(), unbiased=True, keep_dims=False)(x)``: ``(std, mean)`` over axis."""
    def __init__(self, axis=(), unbiased=True, keep_dims=False):
        super().__init__(axis=axis, unbiased=_flag(unbiased, 'ReduceStd', 'unbiased'),
                         keep_dims=_flag(keep_dims, 'ReduceStd', 'keep_dims'))

    def construct(self, x):
        axis = None if self.axis in ((), []) else self.axis
        return _stats.std_mean(x, axis, int(self.unbiased), self.keep_dims)


class Argmin(Primitive):
    """``Argmin(axis=-1, output_type=int32)(x)``: index of the minimum along ``axis``."""
    def __init__(self, axis=-1, output_type=_int32):
        if output_type not in (_int32, _int64):
            raise ValueError(f"ops.Argmin: output_type must be mindspore.int32 or "
                             f"mindspore.int64, got {output_type!r}")
        super().__init__(axis=axis, output_type=output_type)

    def construct(self, x):
        return _arith.cast(_red.argmin(x, self.axis), self.output_type)


class ArgMinWithValue(Primitive):
    """``ArgMinWithValue(axis=0, keep_dims=False)(x)``: ``(index, values)`` of the minimum;
    the index is Int32, the values carry the gradient."""
    def __init__(self, axis=0, keep_dims=False):
        super().__init__(axis=axis, keep_dims=_flag(keep_dims, 'ArgMinWithValue', 'keep_dims'))

    def construct(self, x):
        values, index = _red.min(x, self.axis, self.keep_dims)
        return _arith.cast(index, _int32), values


class _Cumulative(Primitive):
    def __init__(self, exclusive=False, reverse=False):
        name = type(self).__name__
        super().__init__(exclusive=_flag(exclusive, name, 'exclusive'),
                         reverse=_flag(reverse, name, 'reverse'))


class CumSum(_Cumulative):
    """``CumSum(exclusive=False, reverse=False)(x, axis)``: running sums along ``axis``."""
    def construct(self, x, axis):
        return _stats.cumulative('sum', x, axis, self.exclusive, self.reverse)


class CumProd(_Cumulative):
    """``CumProd(exclusive=False, reverse=False)(x, axis)``: running products along ``axis``."""
    def construct(self, x, axis):
        return _stats.cumulative('prod', x, axis, self.exclusive, self.reverse)


class CumulativeLogsumexp(_Cumulative):
    """``CumulativeLogsumexp(exclusive=False, reverse=False)(x, axis)``: running
    ``log(sum(exp(x)))`` along ``axis``."""
    def construct(self, x, axis):
        return _stats.cumulative('logsumexp', x, axis, self.exclusive, self.reverse)


class Cummax(Primitive):
    """``Cummax(axis)(x)``: ``(values, indices)`` of the running maximum along ``axis``."""
    def __init__(self, axis):
        super().__init__(axis=axis)

    def construct(self, x):
        return _sort.cummax(x, self.axis)


class Cummin(Primitive):
    """``Cummin(axis)(x)``: ``(values, indices)`` of the running minimum along ``axis``."""
    def __init__(self, axis):
        super().__init__(axis=axis)

    def construct(self, x):
        return _sort.cummin(x, self.axis)


# ----------------------------------------------------------------------------- norms, products
class L2Normalize(Primitive):
    """``L2Normalize(axis=0, epsilon=1e-4)(x)``: ``x / sqrt(max(sum(x ** 2, axis), epsilon))``."""
    def __init__(self, axis=0, epsilon=1e-4):
        super().__init__(axis=axis, epsilon=epsilon)

    def construct(self, x):
        return _norms.l2_normalize(x, self.axis, self.epsilon)


class Cdist(Primitive):
    """``Cdist(p=2.0)(input_x, input_y)``: p-norm distances between rows."""
    def __init__(self, p=2.0):
        super().__init__(p=p)

    def construct(self, input_x, input_y):
        return _norms.cdist(input_x, input_y, self.p)


class Einsum(Primitive):
    """``Einsum(equation)(operands)``: Einstein summation over a tuple of tensors."""
    def __init__(self, equation):
        if not isinstance(equation, str):
            raise TypeError(f"ops.Einsum: equation must be a str, got {equation!r}")
        super().__init__(equation=equation)

    def construct(self, operands):
        return _products.einsum(self.equation, *operands)


# ----------------------------------------------------------------------------- random
class _Random(Primitive):
    def __init__(self, seed=0, seed2=0):
        rng = _sampling.pair_generator(seed, seed2, type(self).__name__)
        super().__init__(seed=seed, seed2=seed2)
        self._rng = rng


class UniformReal(_Random):
    """``UniformReal(seed=0, seed2=0)(shape)``: Float32 samples from [0, 1)."""
    def construct(self, shape):
        shape = _sampling._shape(shape, 'UniformReal')
        return _sampling.UniformReal.apply(shape=shape, dtype=np.dtype(np.float32),
                                           seed=self._rng)


class StandardNormal(_Random):
    """``StandardNormal(seed=0, seed2=0)(shape)``: Float32 samples from N(0, 1)."""
    def construct(self, shape):
        shape = _sampling._shape(shape, 'StandardNormal')
        return _sampling.StandardNormal.apply(shape=shape, dtype=np.dtype(np.float32),
                                              seed=self._rng)


class UniformInt(_Random):
    """``UniformInt(seed=0, seed2=0)(shape, minval, maxval)``: Int32 samples from
    [minval, maxval), the bounds 0-d Int32 Tensors."""
    def construct(self, shape, minval, maxval):
        shape = _sampling._shape(shape, 'UniformInt')
        bounds = _sampling.int_bounds(minval, maxval, 'UniformInt')
        return _sampling.UniformInt.apply(*bounds, shape=shape, dtype=np.dtype(np.int32),
                                          seed=self._rng)


class Multinomial(Primitive):
    """``Multinomial(seed=0, seed2=0, dtype=int32)(x, num_samples)``: category indices drawn
    with replacement from the rows of weights x."""
    def __init__(self, seed=0, seed2=0, dtype=_int32):
        rng = _sampling.pair_generator(seed, seed2, 'Multinomial')
        if to_numpy(dtype).kind not in 'iu':
            raise TypeError(f"ops.Multinomial: dtype must be an integer type, got {dtype}")
        super().__init__(seed=seed, seed2=seed2, dtype=dtype)
        self._rng = rng

    def construct(self, x, num_samples):
        y = _sampling.multinomial_draw(x, num_samples, True, self._rng, 'Multinomial')
        return _arith.cast(y, self.dtype)
