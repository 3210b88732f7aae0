"""Reductions: sum, mean, prod, max/min, argmax/argmin, cumsum, var/std, all/any.

Every primitive takes ``axis`` already normalised (None for all axes, else a sorted tuple of
distinct non-negative axes; an int for the ops that reduce one axis) and returns a real ndarray,
0-d for a full reduction, never a NumPy scalar.
"""
import math

import numpy as np

from .._frames import warn
from ..autograd.function import Op
from ..autograd.math import array_math
from ..kernels.fp_errors import fp_call
from ..kernels.half import BFLOAT16 as _BF16, add_reduce
from ._base import as_tensor, normalize_axis
from .arithmetic import cast

_INT64 = np.dtype(np.int64)
_INT32 = np.dtype(np.int32)


def _axes(x, axis, name):
    """``axis`` checked against ``x``: None (all axes) or a sorted tuple of distinct axes."""
    if axis is None:
        return None
    axes = normalize_axis(axis, x.ndim, name)
    if x.ndim == 0:
        return None
    if type(axes) is int:
        return (axes,)
    if len(set(axes)) != len(axes):
        raise ValueError(f"ops.{name}: axis {tuple(axis)} names an axis more than once")
    if not axes or len(axes) == x.ndim:
        return None     # () means all axes, as in MindSpore's reduce_* ops
    return tuple(sorted(axes))


def _one_axis(x, axis, name):
    """A single reduction axis (int) checked against ``x``; None for all axes or a 0-d input."""
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        raise TypeError(f"ops.{name}: axis must be an int or None, got {axis!r}")
    axis = normalize_axis(axis, x.ndim, name)
    return None if x.ndim == 0 else axis


def _keep_shape(ctx):
    """The output shape with reduced axes kept as size 1."""
    axes = (ctx.axis,) if type(ctx.axis) is int else ctx.axis
    return tuple(1 if i in axes else n for i, n in enumerate(ctx.shape))


def _unreduce(ctx, g, keepdims=None):
    """``g`` (a reduction's output or gradient) with its reduced axes re-inserted as size 1."""
    if ctx.axis is None or (ctx.keepdims if keepdims is None else keepdims):
        return g
    return ctx.m.reshape(g, _keep_shape(ctx))


def _remember(ctx, x, axis, keepdims):
    ctx.shape = x.shape
    ctx.axis = axis
    ctx.keepdims = keepdims


def _count(shape, axis):
    """How many elements each output element of a reduction over ``axis`` summarises."""
    if axis is None:
        return math.prod(shape)
    return math.prod(shape[i] for i in axis)


def _spread(name, x, axis, ddof, keepdims):
    """``x.var`` or ``x.std`` (``name``), its warnings at the user's line: NumPy's floating-point
    ones, and NaN where ``ddof`` leaves no degrees of freedom (a std of one value, ddof=1)."""
    n = _count(x.shape, axis)
    if n > ddof:
        return fp_call(name, lambda a: getattr(a, name)(axis=axis, ddof=ddof, keepdims=keepdims),
                       x)
    warn(f"ops.{name}: ddof={ddof} leaves no degrees of freedom for {n} value"
         f"{'s' if n != 1 else ''} per result: the result is NaN", RuntimeWarning)
    with np.errstate(all='ignore'):        # (an Inf among the values: inf * 0 is NaN too)
        return x.sum(axis=axis, keepdims=keepdims) * 0 + math.nan


def _check_nonempty(name, x, axis):
    """Max/min/arg* have no value for an empty slice: refuse one before NumPy does."""
    if x._data.size:
        return
    axes = range(x.ndim) if axis is None else (axis,) if type(axis) is int else axis
    if 0 in [x.shape[i] for i in axes]:    # (the builtins sum/max/any are shadowed here)
        raise _empty_error(name, x)


def _empty_error(name, x):
    return ValueError(f"ops.{name}: cannot reduce over a zero-size axis of a tensor of shape "
                      f"{x.shape}")


# ---------------------------------------------------------------------------- primitives
class ReduceSum(Op):
    """y = sum of x over ``axis``; the gradient is gy spread back over the summed axes.
    bfloat16 is summed in float32 and the sum rounded once."""
    @staticmethod
    def forward(ctx, x, axis, keepdims, dtype=None):
        _remember(ctx, x, axis, keepdims)
        if dtype is None:
            if x.dtype.kind in 'biu':
                dtype = _INT64
            elif x.dtype is _BF16:
                return add_reduce(x, axis, keepdims)
        return ctx.xp.asarray(np.add.reduce(x, axis=axis, dtype=dtype, keepdims=keepdims))

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.broadcast_to(_unreduce(ctx, gy), ctx.shape)


class ReduceMean(Op):
    """y = mean of x over ``axis``; each input gets gy / (number of elements averaged).
    float16 and bfloat16 are summed in float32 and the mean rounded once."""
    @staticmethod
    def forward(ctx, x, axis, keepdims):
        _remember(ctx, x, axis, keepdims)
        if x.dtype.itemsize < 4:
            if x.dtype is _BF16:
                total = x.sum(axis=axis, dtype=np.float32, keepdims=keepdims)
                return ctx.xp.asarray(total / _count(x.shape, axis)).astype(_BF16)
            return ctx.xp.asarray(x.mean(axis=axis, keepdims=keepdims))     # in float32
        return ctx.xp.asarray(np.add.reduce(x, axis=axis, keepdims=keepdims) /
                              _count(x.shape, axis))

    @staticmethod
    def backward(ctx, gy):
        n = _count(ctx.shape, ctx.axis)
        return ctx.m.broadcast_to(_unreduce(ctx, gy) / n, ctx.shape)


class IntegerMean(Op):
    """y = mean of an integer x over ``axis`` in x's dtype, as MindSpore's ReduceMean: the sum
    taken in that dtype (wrapping as it does), divided, truncated toward zero; no gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, axis, keepdims):
        total = np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
        return ctx.xp.asarray(np.trunc(total / _count(x.shape, axis))).astype(x.dtype)


class ReduceProd(Op):
    """y = product of x over ``axis``; dy/dx_i is the product of the other elements.

    Without zeros that is y / x_i. Where a slice holds a zero the rule multiplies exclusive
    running products from both ends of the slice (no division), recorded as ops, so gradients
    of every order are exact with any number of zeros.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, axis, keepdims):
        _remember(ctx, x, axis, keepdims)
        dtype = _INT64 if x.dtype.kind in 'biu' else None
        y = ctx.xp.asarray(x.prod(axis=axis, keepdims=keepdims, dtype=dtype))
        if not ctx.recording:
            return y
        if ctx.xp is not np or (x == 0).any():     # a device skips the host read: no division
            ctx.save(x)
        else:
            ctx.save(x, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        gy = _unreduce(ctx, gy)
        if len(ctx.saved) == 2:
            x, y = ctx.saved
            return gy * _unreduce(ctx, y) / x
        (x,) = ctx.saved
        return gy * _product_of_others(ctx.m, x, ctx.axis)


def _product_of_others(m, x, axis):
    """For each element, the product of the other elements of its slice over ``axis``.

    The reduced axes are moved last and flattened into one; the left and right exclusive
    running products along it multiply to the answer without dividing by x.
    """
    nd = x.ndim
    axes = tuple(range(nd)) if axis is None else tuple(sorted(a % nd for a in axis))
    keep = tuple(i for i in range(nd) if i not in axes)
    perm = keep + axes
    xt = m.transpose(x, perm) if perm != tuple(range(nd)) else x
    lead = tuple(xt.shape[:len(keep)])
    flat = m.reshape(xt, lead + (-1,))
    last = len(lead)
    if m is array_math:
        cumprod = np.cumprod        # on the arrays of every device
    else:
        from .statistics import cumprod
    ones = m.ones_like(m.getitem(flat, (Ellipsis, slice(0, 1))))
    head = m.getitem(flat, (Ellipsis, slice(None, -1)))
    left = cumprod(m.concat([ones, head], last), last)
    rev = m.flip(flat, (last,))
    tail = m.getitem(rev, (Ellipsis, slice(None, -1)))
    right = m.flip(cumprod(m.concat([ones, tail], last), last), (last,))
    others = m.reshape(left * right, tuple(xt.shape))
    if perm == tuple(range(nd)):
        return others
    inverse = tuple(int(i) for i in np.argsort(perm))
    return m.transpose(others, inverse)


def _tie_split(ctx, gy):
    """Gradient of a max/min over ``axis``: gy shared evenly by the elements equal to it."""
    m = ctx.m
    x, y = ctx.saved
    hit = m.cast(x == _unreduce(ctx, y), ctx.dtype)
    return hit / m.sum(hit, ctx.axis, True) * _unreduce(ctx, gy)


class ReduceMax(Op):
    """y = max of x over ``axis``; ties share the gradient evenly."""
    @staticmethod
    def forward(ctx, x, axis, keepdims):
        _remember(ctx, x, axis, keepdims)
        ctx.dtype = x.dtype
        y = ctx.xp.asarray(x.max(axis=axis, keepdims=keepdims))
        ctx.save(x, y)
        return y

    backward = staticmethod(_tie_split)


class ReduceMin(Op):
    """y = min of x over ``axis``; ties share the gradient evenly."""
    @staticmethod
    def forward(ctx, x, axis, keepdims):
        _remember(ctx, x, axis, keepdims)
        ctx.dtype = x.dtype
        y = ctx.xp.asarray(x.min(axis=axis, keepdims=keepdims))
        ctx.save(x, y)
        return y

    backward = staticmethod(_tie_split)


class ExtremeAtIndex(Op):
    """y = max (``largest``) or min of x over one axis; the gradient goes to ``index`` only.

    ``index`` is the argmax/argmin computed beside it (into the flattened x when axis is None),
    so tied elements do not share the gradient, as MindSpore's ArgMaxWithValue.
    """
    @staticmethod
    def forward(ctx, x, index, axis, keepdims, largest):
        _remember(ctx, x, axis, keepdims)
        pick = x.max if largest else x.min
        y = ctx.xp.asarray(pick(axis=axis, keepdims=keepdims))
        if ctx.recording:
            # positions along the axis, compared with the index in backward to route gy
            if axis is None:
                grid = ctx.xp.arange(x.size).reshape(x.shape)
            else:
                grid = ctx.xp.arange(x.shape[axis]).reshape((-1,) + (1,) * (x.ndim - 1 - axis))
            ctx.dtype = x.dtype
            ctx.save(grid, index)
        return y

    @staticmethod
    def backward(ctx, gy):
        grid, index = ctx.saved
        hit = ctx.m.cast(grid == _unreduce(ctx, index), ctx.dtype)
        return hit * _unreduce(ctx, gy), None


class Argmax(Op):
    """Int64 index of the maximum over one axis (of the flattened input when axis is None)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, axis, keepdims):
        return ctx.xp.asarray(x.argmax(axis=axis, keepdims=keepdims)).astype(_INT64, copy=False)


class Argmin(Op):
    """Index of the minimum over one axis (of the flattened input when axis is None), Int64
    unless ``dtype`` says otherwise."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, axis, keepdims, dtype=_INT64):
        return ctx.xp.asarray(x.argmin(axis=axis, keepdims=keepdims)).astype(dtype, copy=False)


class CumSum(Op):
    """y = running sum along ``axis``; the gradient is the running sum of gy taken backwards."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, axis):
        ctx.axis = axis
        dtype = _INT64 if x.dtype.kind == 'b' else x.dtype
        if axis is None:                # a 0-d input: its own running sum
            return x.astype(dtype)
        return np.cumsum(x, axis, dtype=dtype)

    @staticmethod
    def backward(ctx, gy):
        m = ctx.m
        if ctx.axis is None:
            return gy
        flip = (ctx.axis,)
        return m.flip(m.cumsum(m.flip(gy, flip), ctx.axis), flip)


class Var(Op):
    """y = sum of (x - mean)**2 over ``axis`` / (n - ddof); dy/dx = 2 (x - mean) / (n - ddof)."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, axis, ddof, keepdims):
        _remember(ctx, x, axis, keepdims)
        ctx.ddof = ddof
        ctx.save(x)
        return ctx.xp.asarray(_spread('var', x, axis, ddof, keepdims))

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        n = _count(ctx.shape, ctx.axis)
        centred = x - ctx.m.sum(x, ctx.axis, True) / n
        return centred * (_unreduce(ctx, gy) * 2 / (n - ctx.ddof))


class Std(Op):
    """y = sqrt(var(x)); dy/dx = (x - mean) / ((n - ddof) y), so keep y."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, axis, ddof, keepdims):
        _remember(ctx, x, axis, keepdims)
        ctx.ddof = ddof
        y = ctx.xp.asarray(_spread('std', x, axis, ddof, keepdims))
        ctx.save(x, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        x, y = ctx.saved
        n = _count(ctx.shape, ctx.axis)
        centred = x - ctx.m.sum(x, ctx.axis, True) / n
        return centred * (_unreduce(ctx, gy) / (_unreduce(ctx, y) * (n - ctx.ddof)))


class ReduceAll(Op):
    """Bool: whether every element over ``axis`` is nonzero."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, axis, keepdims):
        return ctx.xp.asarray(x.all(axis=axis, keepdims=keepdims))


class ReduceAny(Op):
    """Bool: whether some element over ``axis`` is nonzero."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, axis, keepdims):
        return ctx.xp.asarray(x.any(axis=axis, keepdims=keepdims))


# ---------------------------------------------------------------------------- public functions
def _floating(x):
    """``x`` itself when floating, else cast to Float32 (for means and variances of integers)."""
    if x._data.dtype.kind in 'fV':
        return x
    return cast(x, np.float32)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over ``dim`` (None or () for all axes; an int or a tuple of ints).

    Integer and Bool inputs sum to Int64. ``dtype`` converts the input first.

    Raises:
        ValueError: when an axis is out of range for the input's rank.

    >>> import hookgrad as ms
    >>> ms.ops.sum(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), 1)
    Tensor(shape=[2], dtype=Float32, value= [ 3.00000000e+00,  7.00000000e+00])
    """
    x = as_tensor(input)
    axis = _axes(x, dim, 'sum')
    if dtype is None:
        return ReduceSum.apply(x, axis=axis, keepdims=bool(keepdim))
    x = cast(x, dtype)
    return ReduceSum.apply(x, axis=axis, keepdims=bool(keepdim), dtype=x._data.dtype)


def mean(input, axis=None, keep_dims=False):
    """Mean over ``axis`` (None or () for all axes).

    An integer input keeps its dtype, as in MindSpore: the sum in that dtype divided and
    truncated toward zero (``mean([1, 2]) == 1``); Bool gives Float32.
    """
    x = as_tensor(input)
    axes = _axes(x, axis, 'mean')
    kind = x._data.dtype.kind
    if kind in 'fVc':
        return ReduceMean.apply(x, axis=axes, keepdims=bool(keep_dims))
    if kind in 'iu':
        return IntegerMean.apply(x, axis=axes, keepdims=bool(keep_dims))
    return ReduceMean.apply(cast(x, np.float32), axis=axes, keepdims=bool(keep_dims))


def prod(input, axis=None, keep_dims=False):
    """Product over ``axis`` (None or () for all axes); integers give Int64; zeros are fine."""
    x = as_tensor(input)
    axes = _axes(x, axis, 'prod')
    return ReduceProd.apply(x, axis=axes, keepdims=bool(keep_dims))


def _select_initial(x, initial, where, name, limit):
    """MindSpore's ``initial``/``where`` for max/min: clamp by initial, then replace where False.

    ``limit`` names the clamp, 'maximum' or 'minimum' (hookgrad.ops.comparison).
    """
    if initial is not None and (isinstance(initial, bool) or not isinstance(initial, (int, float))):
        raise TypeError(f"ops.{name}: initial must be a number, got {type(initial).__name__}")
    if initial is not None:
        from . import comparison
        x = getattr(comparison, limit)(x, initial)
    if where is not None:
        if initial is None:
            raise ValueError(f"ops.{name}: a where mask needs initial, the value used where it "
                             f"is False")
        from .indexing import where as select
        x = select(as_tensor(where, 'where', x), x, initial)
    return x


def _extreme(arg, largest, input, axis, keepdims, initial, where, name, limit):
    x = as_tensor(input)
    if initial is not None or where is not None:
        x = _select_initial(x, initial, where, name, limit)
    axis = _one_axis(x, axis, name)
    _check_nonempty(name, x, axis)
    keepdims = bool(keepdims)
    indices = arg.apply(x, axis=axis, keepdims=keepdims)
    values = ExtremeAtIndex.apply(x, indices, axis=axis, keepdims=keepdims, largest=largest)
    return values, indices


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(values, indices) of the maximum over ``axis`` (an int, or None for the flattened input).

    The gradient of the values goes to the position the index names.

    Args:
        initial: a number; the result is at least this.
        where: Bool Tensor; where False the element is replaced by ``initial``.
    Returns:
        ``(values, indices)``, indices Int64.

    >>> import hookgrad as ms
    >>> ms.ops.max(ms.Tensor([1.0, 3.0, 2.0]))[1]
    Tensor(shape=[], dtype=Int64, value= 1)
    """
    return _extreme(Argmax, True, input, axis, keepdims, initial, where, 'max', 'maximum')


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(values, indices) of the minimum over ``axis``; see ``max``."""
    return _extreme(Argmin, False, input, axis, keepdims, initial, where, 'min', 'minimum')


def _extreme_values(op, input, axis, keepdims, initial, where, name, limit):
    x = as_tensor(input)
    if initial is not None or where is not None:
        x = _select_initial(x, initial, where, name, limit)
    axes = _axes(x, axis, name)
    _check_nonempty(name, x, axes)
    return op.apply(x, axis=axes, keepdims=bool(keepdims))


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Maximum over ``axis`` (None or () for all axes); tied maxima share the gradient."""
    return _extreme_values(ReduceMax, input, axis, keepdims, initial, where, 'amax', 'maximum')


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Minimum over ``axis`` (None or () for all axes); tied minima share the gradient."""
    return _extreme_values(ReduceMin, input, axis, keepdims, initial, where, 'amin', 'minimum')


def _arg(op, input, axis, keepdims, name, **params):
    x = as_tensor(input)
    axis = _one_axis(x, axis, name)
    _check_nonempty(name, x, axis)
    return op.apply(x, axis=axis, keepdims=bool(keepdims), **params)


def argmax(input, dim=None, keepdim=False):
    """Int64 index of the maximum over ``dim`` (None: index into the flattened input)."""
    return _arg(Argmax, input, dim, keepdim, 'argmax')


def argmin(input, axis=None, keepdims=False):
    """Int32 index of the minimum over ``axis`` (None: index into the flattened input), as
    MindSpore's (argmax gives Int64)."""
    return _arg(Argmin, input, axis, keepdims, 'argmin', dtype=_INT32)


def reduce_sum(x, axis=(), keep_dims=False):
    """Sum over ``axis`` (() or None for all axes): MindSpore's ReduceSum."""
    return sum(x, axis, keep_dims)


def reduce_mean(x, axis=(), keep_dims=False):
    """Mean over ``axis`` (() or None for all axes): MindSpore's ReduceMean."""
    return mean(x, axis, keep_dims)


def reduce_max(x, axis=(), keep_dims=False):
    """Maximum over ``axis`` (() or None for all axes): MindSpore's ReduceMax."""
    return amax(x, axis, keep_dims)


def reduce_min(x, axis=(), keep_dims=False):
    """Minimum over ``axis`` (() or None for all axes): MindSpore's ReduceMin."""
    return amin(x, axis, keep_dims)


def reduce_prod(x, axis=(), keep_dims=False):
    """Product over ``axis`` (() or None for all axes): MindSpore's ReduceProd."""
    return prod(x, axis, keep_dims)


def cumsum(x, axis, dtype=None):
    """Running sum along ``axis``; integer inputs keep their dtype (as MindSpore's), Bool gives
    Int64; ``dtype`` converts first.

    >>> import hookgrad as ms
    >>> ms.ops.cumsum(ms.Tensor([1, 2, 3], ms.int32), 0)
    Tensor(shape=[3], dtype=Int32, value= [1, 3, 6])
    """
    x = as_tensor(x, 'x')
    if axis is None or isinstance(axis, (tuple, list)):
        raise TypeError(f"ops.cumsum: axis must be an int, got {axis!r}")
    axis = _one_axis(x, axis, 'cumsum')
    if dtype is not None:
        x = cast(x, dtype)
    return CumSum.apply(x, axis=axis)


def _ddof(ddof, name):
    if isinstance(ddof, bool):
        return int(ddof)    # MindSpore accepts unbiased=True/False here
    if not isinstance(ddof, (int, np.integer)):
        raise TypeError(f"ops.{name}: ddof must be an int, got {ddof!r}")
    return int(ddof)


def var(input, axis=None, ddof=0, keepdims=False):
    """Variance over ``axis`` (None or () for all axes), dividing by n - ddof."""
    x = as_tensor(input)
    axes = _axes(x, axis, 'var')
    return Var.apply(_floating(x), axis=axes, ddof=_ddof(ddof, 'var'), keepdims=bool(keepdims))


def std(input, axis=None, ddof=0, keepdims=False):
    """Standard deviation over ``axis`` (None or () for all axes), dividing by n - ddof."""
    x = as_tensor(input)
    axes = _axes(x, axis, 'std')
    return Std.apply(_floating(x), axis=axes, ddof=_ddof(ddof, 'std'), keepdims=bool(keepdims))


def all(input, axis=None, keep_dims=False):
    """Bool: whether all elements over ``axis`` (None or () for all axes) are nonzero."""
    x = as_tensor(input)
    return ReduceAll.apply(x, axis=_axes(x, axis, 'all'), keepdims=bool(keep_dims))


def any(input, axis=None, keep_dims=False):
    """Bool: whether any element over ``axis`` (None or () for all axes) is nonzero."""
    x = as_tensor(input)
    return ReduceAny.apply(x, axis=_axes(x, axis, 'any'), keepdims=bool(keep_dims))
