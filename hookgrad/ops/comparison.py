"""Comparisons, element-wise maximum/minimum (and the NaN-ignoring fmax/fmin), clamp, the
Heaviside step, logical ops and the NaN/Inf tests."""
import numpy as np

from .._dtype import promote
from .._tensor import Tensor
from ..autograd.function import Op, apply2
from ..kernels import backend
from ._base import (as_tensor, as_tensors, binary, broadcast_error, check_broadcast, operands,
                    out_of_range, scalar_like)
from .arithmetic import cast
from .indexing import where
from .inspection import tensor_arg

_ndarray = np.ndarray


class Greater(Op):
    """y = a > b (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.greater(a, b)


class GreaterEqual(Op):
    """y = a >= b (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.greater_equal(a, b)


class Less(Op):
    """y = a < b (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.less(a, b)


class LessEqual(Op):
    """y = a <= b (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.less_equal(a, b)


class Equal(Op):
    """y = a == b (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.equal(a, b)


class NotEqual(Op):
    """y = a != b (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.not_equal(a, b)


def _unordered(a, b):
    """Where ``a`` or ``b`` is NaN (only NaN differs from itself); works on arrays and on the
    Tensors of a double backward."""
    return (a != a) | (b != b)


class Maximum(Op):
    """y = max(a, b); the gradient goes to the larger input, split equally on ties;
    where either is NaN both get all of it (MindSpore's MaximumGrad)."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save(a, b)
        return np.maximum(a, b)

    @staticmethod
    def backward(ctx, gy):
        a, b = ctx.saved
        half = (a == b) * (gy * 0.5)
        nan = _unordered(a, b)
        ga = ((a > b) | nan) * gy + half if ctx.needs_grad(0) else None
        gb = ((b > a) | nan) * gy + half if ctx.needs_grad(1) else None
        return ga, gb


class Minimum(Op):
    """y = min(a, b); the gradient goes to the smaller input, split equally on ties;
    where either is NaN both get all of it (MindSpore's MinimumGrad)."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save(a, b)
        return np.minimum(a, b)

    @staticmethod
    def backward(ctx, gy):
        a, b = ctx.saved
        half = (a == b) * (gy * 0.5)
        nan = _unordered(a, b)
        ga = ((a < b) | nan) * gy + half if ctx.needs_grad(0) else None
        gb = ((b < a) | nan) * gy + half if ctx.needs_grad(1) else None
        return ga, gb


class Clamp(Op):
    """y = min(max(x, lo), hi); x gets the gradient where lo <= x <= hi, the bounds elsewhere.

    When lo > hi every element is hi (NumPy's and MindSpore's convention).
    """
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save(x, lo, hi)
        return np.minimum(np.maximum(x, lo), hi)     # np.clip's semantics, at half its overhead

    @staticmethod
    def backward(ctx, gy):
        x, lo, hi = ctx.saved
        gx = glo = ghi = None
        if ctx.needs_grad(0):
            gx = ((x >= lo) * (x <= hi)) * gy
        if ctx.needs_grad(1):
            glo = ((x < lo) * (lo <= hi)) * gy
        if ctx.needs_grad(2):
            ghi = ((x > hi) + (lo > hi)) * gy
        return gx, glo, ghi


class LogicalNot(Op):
    """y = not x (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return np.logical_not(x)


class LogicalAnd(Op):
    """y = a and b (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.logical_and(a, b)


class LogicalOr(Op):
    """y = a or b (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return np.logical_or(a, b)


class IsNan(Op):
    """y = x is NaN (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return np.isnan(x)


class IsInf(Op):
    """y = x is +-inf (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return np.isinf(x)


class IsFinite(Op):
    """y = x is neither NaN nor +-inf (Bool, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        return np.isfinite(x)


# ----------------------------------------------------------------------------- comparisons
def _compare(op, a, b, name):
    """A comparison with MindSpore promotion (it never records: the op is not differentiable)."""
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or a._data.dtype is not b._data.dtype:
        for t, n in ((a, b), (b, a)):
            if isinstance(t, Tensor) and out_of_range(n, t._data.dtype):
                raise OverflowError(
                    f"ops.{name}: {n} is out of the range of {t.dtype}; MindSpore 2.10 compares "
                    f"such a number differently per operator (exactly for less, after wrapping "
                    f"it into {t.dtype} for greater), so hookgrad refuses it: cast the tensor "
                    f"to a wider dtype first")
        a, b = operands(a, b)
    try:
        return apply2(op, a, b)
    except ValueError:
        check_broadcast(name, a, b)
        raise


def gt(input, other):
    """Element-wise ``input > other`` as a Bool tensor; either side may be a Python number.

    >>> import hookgrad as ms
    >>> ms.ops.gt(ms.Tensor([1.0, 3.0]), 2)
    Tensor(shape=[2], dtype=Bool, value= [False,  True])
    """
    return _compare(Greater, input, other, 'gt')


def ge(input, other):
    """Element-wise ``input >= other`` as a Bool tensor."""
    return _compare(GreaterEqual, input, other, 'ge')


def lt(input, other):
    """Element-wise ``input < other`` as a Bool tensor."""
    return _compare(Less, input, other, 'lt')


def le(input, other):
    """Element-wise ``input <= other`` as a Bool tensor."""
    return _compare(LessEqual, input, other, 'le')


def equal(input, other):
    """Element-wise ``input == other`` as a Bool tensor."""
    return _compare(Equal, input, other, 'equal')


def ne(input, other):
    """Element-wise ``input != other`` as a Bool tensor."""
    return _compare(NotEqual, input, other, 'ne')


eq = equal
greater = gt
greater_equal = ge
less = lt
less_equal = le
not_equal = ne


# ----------------------------------------------------------------------------- max / min / clamp
def maximum(input, other):
    """Element-wise maximum with broadcasting; on ties each input gets half the gradient."""
    return binary(Maximum, input, other, 'maximum')


def minimum(input, other):
    """Element-wise minimum with broadcasting; on ties each input gets half the gradient."""
    return binary(Minimum, input, other, 'minimum')


_extremes = {}


def _unbounded(dt, upper, like):
    """A constant 0-d Tensor that never clips in dtype ``dt`` (an absent clamp bound), on the
    device of the array ``like``."""
    kind = type(like)
    key = (dt, upper) if kind is _ndarray else (dt, upper, kind)
    t = _extremes.get(key)
    if t is None:
        if dt.kind in 'fV':
            v = np.inf if upper else -np.inf
        elif dt.kind in 'iu':
            info = np.iinfo(dt)
            v = info.max if upper else info.min
        else:
            v = bool(upper)
        arr = np.asarray(v, dtype=dt)
        if kind is _ndarray:
            arr.flags.writeable = False
        else:
            arr = backend.to_device(arr, backend.device_of(like))
        t = _extremes[key] = Tensor._wrap(arr)
    return t


def clamp(input, min=None, max=None):
    """Limit every element to ``[min, max]``; the bounds may be numbers or Tensors.

    The gradient with respect to ``input`` is 1 where ``min <= input <= max`` and 0 elsewhere;
    Tensor bounds receive the gradient of the elements they clip.

    Raises:
        ValueError: when both bounds are None, or the shapes cannot be broadcast together.
    """
    if min is None and max is None:
        raise ValueError("ops.clamp: at least one of min and max must be given, got both None")
    x = as_tensor(input)
    lo = None if min is None else scalar_like(min, x)
    hi = None if max is None else scalar_like(max, x)
    dt = x._data.dtype
    for b in (lo, hi):
        if b is not None and b._data.dtype != dt:
            dt = promote(dt, b._data.dtype)
    if lo is None:
        lo = _unbounded(dt, False, x._data)
    if hi is None:
        hi = _unbounded(dt, True, x._data)
    if x._data.dtype != dt or lo._data.dtype != dt or hi._data.dtype != dt:
        x, lo, hi = cast(x, dt), cast(lo, dt), cast(hi, dt)
    try:
        return Clamp.apply(x, lo, hi)
    except ValueError:
        for what, a, b in (('input and min', x, lo), ('input and max', x, hi),
                           ('min and max', lo, hi)):
            try:
                np.broadcast_shapes(a.shape, b.shape)
            except ValueError:
                raise ValueError(f"ops.clamp: {what} have shapes {a.shape} and {b.shape}, "
                                 f"which cannot be broadcast together") from None
        raise


clip = clamp


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Limit every element of ``x`` to ``[clip_value_min, clip_value_max]`` (see clamp)."""
    return clamp(x, clip_value_min, clip_value_max)


def fmax(input, other):
    """Element-wise maximum that ignores NaN: where one side is NaN the other is taken."""
    x, y = as_tensors((input, other), ('input', 'other'))
    return where(isnan(y), x, where(isnan(x), y, maximum(x, y)))


def fmin(input, other):
    """Element-wise minimum that ignores NaN: where one side is NaN the other is taken."""
    x, y = as_tensors((input, other), ('input', 'other'))
    return where(isnan(y), x, where(isnan(x), y, minimum(x, y)))


def heaviside(input, values):
    """The Heaviside step: 0 where x < 0, ``values`` where x == 0, 1 where x > 0."""
    x, v = as_tensors((input, values), ('input', 'values'))
    if x.dtype != v.dtype:
        raise TypeError(f"ops.heaviside: input and values must have one dtype, got {x.dtype} "
                        f"and {v.dtype}")
    step = cast(gt(x, 0), x.dtype)
    return where(equal(x, 0), v, step)


# ----------------------------------------------------------------------------- logical and tests
def _logical(op, input, other, name):
    a, b = as_tensors((input, other), ('input', 'other'))
    try:
        return op.apply(a, b)
    except ValueError:
        try:
            np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            raise broadcast_error(name, a, b) from None
        raise


def logical_not(input):
    """Element-wise logical NOT (any dtype, nonzero is True) as a Bool tensor."""
    return LogicalNot.apply(as_tensor(input))


def logical_and(input, other):
    """Element-wise logical AND as a Bool tensor, with broadcasting."""
    return _logical(LogicalAnd, input, other, 'logical_and')


def logical_or(input, other):
    """Element-wise logical OR as a Bool tensor, with broadcasting."""
    return _logical(LogicalOr, input, other, 'logical_or')


def isnan(input):
    """Bool tensor: True where ``input`` is NaN."""
    return IsNan.apply(as_tensor(input))


def isinf(input):
    """Bool tensor: True where ``input`` is positive or negative infinity."""
    return IsInf.apply(as_tensor(input))


def isfinite(input):
    """Bool tensor: True where ``input`` is neither NaN nor infinite."""
    return IsFinite.apply(as_tensor(input))


def isposinf(input):
    """Bool, where ``input`` is +inf."""
    x = tensor_arg(input, 'isposinf')
    return logical_and(isinf(x), gt(x, 0))


def isneginf(input):
    """Bool, where ``input`` is -inf."""
    x = tensor_arg(input, 'isneginf')
    return logical_and(isinf(x), lt(x, 0))


# MindSpore's names of the comparison operators
tensor_gt = gt
tensor_ge = ge
tensor_lt = lt
tensor_le = le
