"""Element-wise math of ``mindspore.numpy``: arithmetic, powers, exponentials and logarithms,
trigonometric and hyperbolic functions, rounding, bitwise operations.

Every function takes ``dtype`` (the result is cast to it) where MindSpore's does. Floating
functions of integers give Float32. Everything with a derivative is differentiable; rounding,
sign, comparisons and integer functions pass no gradient.
"""
import numpy as np

from .. import ops
from .._tensor import Tensor
from ..autograd.function import apply1, apply2
from . import _elementwise_ops as E
from ._args import fail, floating, operands, result, to_tensor


def _unary(fn, x, dtype, name):
    return result(fn(to_tensor(x, name)), dtype, name)


def _floating_op(op, x, dtype, name):
    return result(apply1(op, floating(to_tensor(x, name))), dtype, name)


def _binary(fn, x1, x2, dtype, name):
    x1, x2 = operands(x1, x2, name)
    try:
        return result(fn(x1, x2), dtype, name)
    except ValueError as e:
        _shape_error(x1, x2, name, e)
        raise


def _shape_error(x1, x2, name, error):
    shapes = [np.shape(x._data) if isinstance(x, Tensor) else () for x in (x1, x2)]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise fail(name, f"shapes {shapes[0]} and {shapes[1]} cannot be broadcast "
                         f"together") from error


def _same_dtype(x1, x2):
    """Two Tensors cast to their common dtype (MindSpore's promotion)."""
    from ._args import promoted
    return promoted([x1, x2])


def _on_floats(fn):
    """``fn`` of two operands, integer Tensors first made Float32."""
    def call(a, b):
        return fn(*(floating(t) if isinstance(t, Tensor) else t for t in (a, b)))
    return call


def _integers(x1, x2, name):
    x1, x2 = _same_dtype(to_tensor(x1, name), to_tensor(x2, name))
    for x in (x1, x2):
        if x._data.dtype.kind not in 'iub':
            raise fail(name, f"expected integer or bool arrays, got dtype {x.dtype}", TypeError)
    return x1, x2


# ----------------------------------------------------------------------------- arithmetic
def add(x1, x2, dtype=None):
    """Element-wise ``x1 + x2`` with broadcasting.

    >>> import hookgrad.numpy as mnp
    >>> mnp.add(mnp.array([1, 2]), 2)
    Tensor(shape=[2], dtype=Int32, value= [3, 4])
    """
    return _binary(ops.add, x1, x2, dtype, 'add')


def subtract(x1, x2, dtype=None):
    """Element-wise ``x1 - x2``."""
    return _binary(ops.sub, x1, x2, dtype, 'subtract')


def multiply(x1, x2, dtype=None):
    """Element-wise ``x1 * x2``."""
    return _binary(ops.mul, x1, x2, dtype, 'multiply')


def divide(x1, x2, dtype=None):
    """Element-wise true division; integers give Float32."""
    return _binary(ops.div, x1, x2, dtype, 'divide')


def true_divide(x1, x2, dtype=None):
    """Element-wise true division (``divide``)."""
    return _binary(ops.div, x1, x2, dtype, 'true_divide')


def floor_divide(x1, x2, dtype=None):
    """Element-wise ``floor(x1 / x2)``, of the inputs' dtype."""
    return _binary(ops.floor_divide, x1, x2, dtype, 'floor_divide')


def remainder(x1, x2, dtype=None):
    """Element-wise remainder of floor division: the sign of ``x2`` (Python's ``%``)."""
    return _binary(ops.remainder, x1, x2, dtype, 'remainder')


mod = remainder


def fmod(x1, x2, dtype=None):
    """Element-wise remainder of truncated division: the sign of ``x1`` (C's ``fmod``)."""
    return _binary(ops.fmod, x1, x2, dtype, 'fmod')


def divmod(x1, x2, dtype=None):  # noqa: A001  (NumPy's name)
    """``(floor_divide(x1, x2), remainder(x1, x2))``."""
    return floor_divide(x1, x2, dtype), remainder(x1, x2, dtype)


def power(x1, x2, dtype=None):
    """Element-wise ``x1 ** x2``."""
    return _binary(ops.pow, x1, x2, dtype, 'power')


def float_power(x1, x2, dtype=None):
    """Element-wise ``x1 ** x2`` computed in Float32 (MindSpore's rule: not Float64)."""
    x1 = ops.cast(to_tensor(x1, 'float_power'), np.float32)
    x2 = ops.cast(to_tensor(x2, 'float_power'), np.float32)
    return _binary(ops.pow, x1, x2, dtype, 'float_power')


def positive(a, dtype=None):
    """A copy of ``a``."""
    return _unary(ops.identity, a, dtype, 'positive')


def negative(a, dtype=None):
    """Element-wise ``-a``."""
    return _unary(ops.neg, a, dtype, 'negative')


def absolute(x, dtype=None):
    """Element-wise ``|x|``; integers stay integers."""
    return _unary(ops.abs, x, dtype, 'absolute')


abs = absolute  # noqa: A001
fabs = absolute


def _sign(x):
    if x._data.dtype == np.bool_:
        raise fail('sign', "sign does not accept dtype Bool", TypeError)
    return ops.sign(floating(x))


def sign(x, dtype=None):
    """Element-wise -1, 0 or 1, as Float32 for integer input (MindSpore's rule)."""
    return _unary(_sign, x, dtype, 'sign')


def copysign(x1, x2, dtype=None):
    """``|x1|`` with the sign of ``x2``: negative where ``x2 < 0`` (so ``-0.0`` counts as
    positive, as in MindSpore)."""
    x1, x2 = to_tensor(x1, 'copysign'), to_tensor(x2, 'copysign')
    if np.bool_ in (x1._data.dtype, x2._data.dtype):
        raise fail('copysign', "copysign does not accept dtype Bool", TypeError)
    x1, x2 = _same_dtype(x1, x2)
    magnitude = ops.abs(x1)
    return _binary(lambda a, b: ops.where(ops.lt(b, 0), ops.neg(a), a), magnitude, x2, dtype,
                   'copysign')


def square(x, dtype=None):
    """Element-wise ``x * x``."""
    return _unary(ops.square, x, dtype, 'square')


def sqrt(x, dtype=None):
    """Element-wise square root."""
    return _unary(ops.sqrt, x, dtype, 'sqrt')


def cbrt(x, dtype=None):
    """Element-wise cube root (real for negative ``x``)."""
    return _floating_op(E.Cbrt, x, dtype, 'cbrt')


def _reciprocal(x):
    if x._data.dtype.kind in 'iu':      # 1 / x truncated: 1 and -1 keep their value, else 0
        return ops.where(ops.equal(ops.abs(x), 1), x, Tensor._wrap(np.zeros((), x._data.dtype)))
    return ops.reciprocal(x)


def reciprocal(x, dtype=None):
    """Element-wise ``1 / x``; for integers the quotient truncated (0 unless |x| is 1)."""
    return _unary(_reciprocal, x, dtype, 'reciprocal')


# ----------------------------------------------------------------------------- exp and log
def exp(x, dtype=None):
    """Element-wise ``e ** x``."""
    return _unary(ops.exp, x, dtype, 'exp')


def exp2(x, dtype=None):
    """Element-wise ``2 ** x`` (integers stay integers)."""
    return _unary(lambda t: ops.pow(Tensor._wrap(np.asarray(2, t._data.dtype)), t), x, dtype,
                  'exp2')


def expm1(x, dtype=None):
    """Element-wise ``e ** x - 1``, exact near 0."""
    return _unary(ops.expm1, x, dtype, 'expm1')


def log(x, dtype=None):
    """Element-wise natural logarithm."""
    return _unary(ops.log, x, dtype, 'log')


def log2(x, dtype=None):
    """Element-wise base-2 logarithm."""
    return _unary(ops.log2, x, dtype, 'log2')


def log10(x, dtype=None):
    """Element-wise base-10 logarithm."""
    return _unary(ops.log10, x, dtype, 'log10')


def log1p(x, dtype=None):
    """Element-wise ``log(1 + x)``, exact near 0."""
    return _unary(ops.log1p, x, dtype, 'log1p')


def logaddexp(x1, x2, dtype=None):
    """Element-wise ``log(exp(x1) + exp(x2))``, without overflow."""
    return _binary(_on_floats(ops.logaddexp), x1, x2, dtype, 'logaddexp')


def logaddexp2(x1, x2, dtype=None):
    """Element-wise ``log2(2**x1 + 2**x2)``, without overflow."""
    return _binary(_on_floats(ops.logaddexp2), x1, x2, dtype, 'logaddexp2')


# ----------------------------------------------------------------------------- trigonometry
def sin(x, dtype=None):
    """Element-wise sine."""
    return _unary(ops.sin, x, dtype, 'sin')


def cos(x, dtype=None):
    """Element-wise cosine."""
    return _unary(ops.cos, x, dtype, 'cos')


def tan(x, dtype=None):
    """Element-wise tangent."""
    return _unary(ops.tan, x, dtype, 'tan')


def arcsin(x, dtype=None):
    """Element-wise inverse sine, in [-pi/2, pi/2]."""
    return _unary(ops.arcsin, x, dtype, 'arcsin')


def arccos(input, dtype=None):  # noqa: A002  (MindSpore's parameter name)
    """Element-wise inverse cosine, in [0, pi]."""
    return _unary(ops.arccos, input, dtype, 'arccos')


def arctan(x, dtype=None):
    """Element-wise inverse tangent, in (-pi/2, pi/2)."""
    return _unary(ops.arctan, x, dtype, 'arctan')


def arctan2(x1, x2, dtype=None):
    """Element-wise angle of the point ``(x2, x1)``, in [-pi, pi]."""
    return _binary(ops.arctan2, x1, x2, dtype, 'arctan2')


def hypot(x1, x2, dtype=None):
    """Element-wise ``sqrt(x1**2 + x2**2)``, without overflow."""
    return _binary(ops.hypot, x1, x2, dtype, 'hypot')


def sinh(x, dtype=None):
    """Element-wise hyperbolic sine."""
    return _unary(ops.sinh, x, dtype, 'sinh')


def cosh(x, dtype=None):
    """Element-wise hyperbolic cosine."""
    return _unary(ops.cosh, x, dtype, 'cosh')


def tanh(x, dtype=None):
    """Element-wise hyperbolic tangent."""
    return _unary(ops.tanh, x, dtype, 'tanh')


def arcsinh(x, dtype=None):
    """Element-wise inverse hyperbolic sine."""
    return _unary(ops.arcsinh, x, dtype, 'arcsinh')


def arccosh(x, dtype=None):
    """Element-wise inverse hyperbolic cosine (``x >= 1``)."""
    return _unary(ops.arccosh, x, dtype, 'arccosh')


def arctanh(x, dtype=None):
    """Element-wise inverse hyperbolic tangent (``|x| < 1``)."""
    return _unary(ops.arctanh, x, dtype, 'arctanh')


def deg2rad(x, dtype=None):
    """Degrees to radians."""
    return _unary(lambda t: ops.mul(floating(t), np.pi / 180.0), x, dtype, 'deg2rad')


radians = deg2rad


def rad2deg(x, dtype=None):
    """Radians to degrees."""
    return _unary(lambda t: ops.mul(floating(t), 180.0 / np.pi), x, dtype, 'rad2deg')


# ----------------------------------------------------------------------------- rounding
def floor(x, dtype=None):
    """Element-wise floor, as a float (Float32 for integers)."""
    return _unary(lambda t: ops.floor(floating(t)), x, dtype, 'floor')


def ceil(x, dtype=None):
    """Element-wise ceiling, as a float (Float32 for integers)."""
    return _unary(lambda t: ops.ceil(floating(t)), x, dtype, 'ceil')


def trunc(x, dtype=None):
    """Element-wise rounding towards zero, as a float (Float32 for integers)."""
    return _unary(lambda t: ops.trunc(floating(t)), x, dtype, 'trunc')


def fix(x):
    """Element-wise rounding towards zero, as a float (``trunc``)."""
    return _unary(lambda t: ops.trunc(floating(t)), x, None, 'fix')


def _rint(x, decimals=0):
    return ops.round(x, decimals=decimals) if x._data.dtype.kind in 'fV' else ops.identity(x)


def rint(x, dtype=None):
    """Element-wise rounding to the nearest integer, halves to even; integers are kept."""
    return _unary(_rint, x, dtype, 'rint')


def around(a, decimals=0):
    """``a`` rounded to ``decimals`` decimal places, halves to even; integers are kept."""
    if not isinstance(decimals, int) or isinstance(decimals, bool):
        raise fail('around', f"decimals must be an int, got {decimals!r}", TypeError)
    return _rint(to_tensor(a, 'around'), decimals)


round = around  # noqa: A001


def clip(x, xmin, xmax, dtype=None):
    """``x`` limited to ``[xmin, xmax]`` (either bound may be None, not both); a scalar bound
    takes the dtype of ``x``.

    Raises:
        ValueError: when both bounds are None.
    """
    if xmin is None and xmax is None:
        raise fail('clip', "one of xmin and xmax must be given")
    x = to_tensor(x, 'clip')
    if xmin is not None:
        x = maximum(x, xmin)
    if xmax is not None:
        x = minimum(x, xmax)
    return result(x, dtype, 'clip')


def _extreme(fn, x1, x2, dtype, name):
    """maximum/minimum: with one 0-d operand the result has the other's dtype (MindSpore)."""
    x1, x2 = to_tensor(x1, name), to_tensor(x2, name)
    if dtype is None and (x1.ndim == 0) != (x2.ndim == 0):
        dtype = (x2 if x1.ndim == 0 else x1)._data.dtype
    return _binary(fn, x1, x2, dtype, name)


def maximum(x1, x2, dtype=None):
    """Element-wise larger value; NaN if either is NaN."""
    return _extreme(ops.maximum, x1, x2, dtype, 'maximum')


def minimum(x1, x2, dtype=None):
    """Element-wise smaller value; NaN if either is NaN."""
    return _extreme(ops.minimum, x1, x2, dtype, 'minimum')


def heaviside(x1, x2, dtype=None):
    """The Heaviside step of ``x1``: 0 where negative, 1 where positive, ``x2`` where 0."""
    x1, x2 = _same_dtype(to_tensor(x1, 'heaviside'), to_tensor(x2, 'heaviside'))
    zero = Tensor._wrap(np.zeros((), x1._data.dtype))
    one = Tensor._wrap(np.ones((), x1._data.dtype))
    return _binary(lambda a, b: ops.where(ops.lt(a, 0), zero, ops.where(ops.gt(a, 0), one, b)),
                   x1, x2, dtype, 'heaviside')


# ----------------------------------------------------------------------------- integers
def gcd(x1, x2, dtype=None):
    """Element-wise greatest common divisor of ``|x1|`` and ``|x2|`` (integers)."""
    return _binary(lambda a, b: apply2(E.Gcd, a, b), *_integers(x1, x2, 'gcd'), dtype, 'gcd')


def lcm(x1, x2, dtype=None):
    """Element-wise least common multiple of ``|x1|`` and ``|x2|`` (integers)."""
    return _binary(lambda a, b: apply2(E.Lcm, a, b), *_integers(x1, x2, 'lcm'), dtype, 'lcm')


def bitwise_and(x1, x2, dtype=None):
    """Element-wise ``x1 & x2`` of integers or bools."""
    return _binary(ops.bitwise_and, *_integers(x1, x2, 'bitwise_and'), dtype, 'bitwise_and')


def bitwise_or(x1, x2, dtype=None):
    """Element-wise ``x1 | x2`` of integers or bools."""
    return _binary(ops.bitwise_or, *_integers(x1, x2, 'bitwise_or'), dtype, 'bitwise_or')


def bitwise_xor(x1, x2, dtype=None):
    """Element-wise ``x1 ^ x2`` of integers or bools."""
    return _binary(ops.bitwise_xor, *_integers(x1, x2, 'bitwise_xor'), dtype, 'bitwise_xor')


def invert(x, dtype=None):
    """Element-wise bit inversion ``~x`` of integers (logical not of bools)."""
    t = to_tensor(x, 'invert')
    if t._data.dtype.kind not in 'iub':
        raise fail('invert', f"expected an integer or bool array, got dtype {t.dtype}", TypeError)
    return result(apply1(E.Invert, t), dtype, 'invert')


bitwise_not = invert


__all__ = ['add', 'subtract', 'multiply', 'divide', 'true_divide', 'floor_divide', 'remainder',
           'mod', 'fmod', 'divmod', 'power', 'float_power', 'positive', 'negative', 'absolute',
           'abs', 'fabs', 'sign', 'copysign', 'square', 'sqrt', 'cbrt', 'reciprocal', 'exp',
           'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'logaddexp', 'logaddexp2', 'sin',
           'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'arctan2', 'hypot', 'sinh', 'cosh', 'tanh',
           'arcsinh', 'arccosh', 'arctanh', 'deg2rad', 'radians', 'rad2deg', 'floor', 'ceil',
           'trunc', 'fix', 'rint', 'around', 'round', 'clip', 'maximum', 'minimum', 'heaviside',
           'gcd', 'lcm', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'invert', 'bitwise_not']
