"""Comparisons, logic and tests of ``mindspore.numpy``: element-wise comparisons, NaN and
infinity tests, logical operations, closeness, whole-array equality and set membership.

All results are Bool (unless ``dtype`` says otherwise) and carry no gradient.
"""
import numbers

import numpy as np

from .. import ops
from .._tensor import Tensor
from . import _array_ops as A
from ._args import fail, np_dtype, operands, promoted, result, to_tensor


def _compare(fn, x1, x2, dtype, name):
    x1, x2 = operands(x1, x2, name)
    shapes = [x.shape if isinstance(x, Tensor) else () for x in (x1, x2)]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise fail(name, f"shapes {shapes[0]} and {shapes[1]} cannot be broadcast "
                         f"together") from None
    return result(fn(x1, x2), dtype, name)


def equal(x1, x2, dtype=None):
    """Element-wise ``x1 == x2``.

    >>> import hookgrad.numpy as mnp
    >>> mnp.equal(mnp.array([1, 2]), 2)
    Tensor(shape=[2], dtype=Bool, value= [False,  True])
    """
    return _compare(ops.equal, x1, x2, dtype, 'equal')


def not_equal(x1, x2, dtype=None):
    """Element-wise ``x1 != x2``."""
    return _compare(ops.ne, x1, x2, dtype, 'not_equal')


def less(x1, x2, dtype=None):
    """Element-wise ``x1 < x2``."""
    return _compare(ops.lt, x1, x2, dtype, 'less')


def less_equal(x1, x2, dtype=None):
    """Element-wise ``x1 <= x2``."""
    return _compare(ops.le, x1, x2, dtype, 'less_equal')


def greater(x1, x2, dtype=None):
    """Element-wise ``x1 > x2``."""
    return _compare(ops.gt, x1, x2, dtype, 'greater')


def greater_equal(x1, x2, dtype=None):
    """Element-wise ``x1 >= x2``."""
    return _compare(ops.ge, x1, x2, dtype, 'greater_equal')


def isnan(x, dtype=None):
    """Element-wise test for NaN."""
    return result(ops.isnan(to_tensor(x, 'isnan')), dtype, 'isnan')


def isinf(x, dtype=None):
    """Element-wise test for positive or negative infinity."""
    return result(ops.isinf(to_tensor(x, 'isinf')), dtype, 'isinf')


def isfinite(x, dtype=None):
    """Element-wise test for finiteness (neither infinite nor NaN)."""
    return result(ops.isfinite(to_tensor(x, 'isfinite')), dtype, 'isfinite')


def isposinf(x):
    """Element-wise test for positive infinity."""
    t = to_tensor(x, 'isposinf')
    return ops.logical_and(ops.isinf(t), ops.gt(t, 0))


def isneginf(x):
    """Element-wise test for negative infinity."""
    t = to_tensor(x, 'isneginf')
    return ops.logical_and(ops.isinf(t), ops.lt(t, 0))


def signbit(x, dtype=None):
    """Element-wise ``x < 0`` (MindSpore's definition: ``-0.0`` counts as positive).

    Raises:
        TypeError: for a ``dtype`` other than Bool.
    """
    if dtype is not None and np_dtype(dtype, 'signbit') != np.bool_:
        raise fail('signbit', f"the result of signbit is Bool, cannot cast it to {dtype}",
                   TypeError)
    return ops.lt(to_tensor(x, 'signbit'), 0)


def isscalar(element):
    """Whether ``element`` is a Python or NumPy scalar (a Tensor, even 0-d, is not)."""
    return isinstance(element, (numbers.Number, str, bytes, np.generic))


def logical_and(x1, x2, dtype=None):
    """Element-wise logical and (nonzero is true)."""
    return _compare(ops.logical_and, x1, x2, dtype, 'logical_and')


def logical_or(x1, x2, dtype=None):
    """Element-wise logical or."""
    return _compare(ops.logical_or, x1, x2, dtype, 'logical_or')


def logical_xor(x1, x2, dtype=None):
    """Element-wise logical exclusive or."""
    def xor(a, b):
        return ops.ne(ops.ne(a, 0) if a._data.dtype != np.bool_ else a,
                      ops.ne(b, 0) if b._data.dtype != np.bool_ else b)
    return _compare(lambda a, b: xor(to_tensor(a), to_tensor(b)), x1, x2, dtype,
                    'logical_xor')


def logical_not(a, dtype=None):
    """Element-wise logical not."""
    return result(ops.logical_not(to_tensor(a, 'logical_not')), dtype, 'logical_not')


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise ``|a - b| <= atol + rtol * |b|``; NaNs are equal only with
    ``equal_nan``, infinities only to themselves."""
    for v, what in ((rtol, 'rtol'), (atol, 'atol')):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
            raise fail('isclose', f"{what} must be a non-negative number, got {v!r}", TypeError)
    a, b = promoted([to_tensor(a, 'isclose'), to_tensor(b, 'isclose')])
    return ops.isclose(a, b, rtol, atol, bool(equal_nan))


def array_equal(a1, a2, equal_nan=False):
    """Whether ``a1`` and ``a2`` have the same shape and elements, as a 0-d Bool Tensor."""
    if not isinstance(equal_nan, bool):
        raise fail('array_equal', f"equal_nan must be a bool, got {equal_nan!r}", TypeError)
    a1, a2 = to_tensor(a1, 'array_equal'), to_tensor(a2, 'array_equal')
    if a1.shape != a2.shape:
        return Tensor._wrap(np.asarray(False))
    same = ops.equal(a1, a2)
    if equal_nan:
        same = ops.logical_or(same, ops.logical_and(ops.isnan(a1), ops.isnan(a2)))
    return ops.all(same)


def array_equiv(a1, a2):
    """Whether ``a1`` and ``a2`` broadcast together and are equal everywhere, as a 0-d Bool
    Tensor."""
    a1, a2 = to_tensor(a1, 'array_equiv'), to_tensor(a2, 'array_equiv')
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return Tensor._wrap(np.asarray(False))
    return ops.all(ops.equal(a1, a2))


def sometrue(a, axis=None, keepdims=False):
    """Whether any element over ``axis`` is nonzero."""
    from .reductions import _axes
    x = to_tensor(a, 'sometrue')
    axes = _axes(x, axis, 'sometrue')
    nonzero = ops.ne(x, 0) if x._data.dtype != np.bool_ else x
    return ops.any(nonzero, axes, bool(keepdims)) if axes else ops.identity(nonzero)


def isin(element, test_elements, invert=False):
    """Whether each element of ``element`` occurs in ``test_elements`` (negated with
    ``invert``); the result has the shape of ``element``."""
    x = to_tensor(element, 'isin')
    test = to_tensor(test_elements, 'isin')
    return A.IsIn.apply(x, test, invert=bool(invert))


def in1d(ar1, ar2, invert=False):
    """``isin`` of the flattened ``ar1``: a 1-d Bool Tensor."""
    return isin(ops.reshape(to_tensor(ar1, 'in1d'), (-1,)), ar2, invert)


__all__ = ['equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal', 'isnan',
           'isinf', 'isfinite', 'isposinf', 'isneginf', 'signbit', 'isscalar', 'logical_and',
           'logical_or', 'logical_xor', 'logical_not', 'isclose', 'array_equal', 'array_equiv',
           'sometrue', 'isin', 'in1d']
