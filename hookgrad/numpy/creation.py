"""Array creation of ``mindspore.numpy``: from data, filled, ranges, grids, windows.

Arrays made from Python numbers are constants. Functions of Tensors (``array`` of a Tensor,
``full`` with a Tensor fill value, ``linspace`` between Tensors, ``meshgrid``) are built from
differentiable ops, so gradients reach those Tensors.
"""
import numpy as np

from .. import ops
from .._dtype import from_numpy
from .._tensor import Tensor
from ._args import fail, floating, integer, np_dtype, shape_of, to_tensor, values

_F32 = np.dtype(np.float32)
_I32 = np.dtype(np.int32)


def _const(a, dtype=None):
    """A constant Tensor over the array ``a`` (cast to ``dtype``)."""
    a = np.asarray(a)
    return Tensor._wrap(a if dtype is None or a.dtype == dtype else a.astype(dtype))


# ----------------------------------------------------------------------------- from data
def array(obj, dtype=None, copy=True, ndmin=0):
    """A Tensor from ``obj`` (a Tensor, number, nested list or tuple, NumPy array).

    Python ints give Int32, floats Float32, bools Bool. A Tensor is copied when ``copy`` (the
    copy stays on the graph); ``ndmin`` prepends axes of length 1.

    >>> import hookgrad.numpy as mnp
    >>> mnp.array([1, 2], ndmin=2)
    Tensor(shape=[1, 2], dtype=Int32, value=
    [[1, 2]])
    """
    if not isinstance(ndmin, int) or isinstance(ndmin, bool) or ndmin < 0:
        raise fail('array', f"ndmin must be a non-negative int, got {ndmin!r}", TypeError)
    x = to_tensor(obj, 'array', dtype)
    if copy and x is obj:
        x = ops.identity(x)
    if x.ndim < ndmin:
        x = ops.reshape(x, (1,) * (ndmin - x.ndim) + x.shape)
    return x


def asarray(a, dtype=None):
    """``a`` as a Tensor, without a copy when it is already one of ``dtype``."""
    return to_tensor(a, 'asarray', dtype)


def asfarray(a, dtype=np.float32):
    """``a`` as a floating Tensor (Float32 by default; a non-floating ``dtype`` gives
    Float32)."""
    dt = np_dtype(dtype, 'asfarray')
    return to_tensor(a, 'asfarray', dt if dt.kind in 'fV' else _F32)


def copy(a):
    """A copy of ``a`` (on the graph: gradients flow through it)."""
    return ops.identity(to_tensor(a, 'copy'))


def array_str(a):
    """The values of ``a`` as NumPy prints them."""
    return np.array_str(values(to_tensor(a, 'array_str')))


# ----------------------------------------------------------------------------- filled
def _dtype_or(dtype, default, name):
    dt = np_dtype(dtype, name)
    return default if dt is None else dt


def empty(shape, dtype=np.float32):
    """A Tensor of ``shape`` and ``dtype``; its values are zeros (hookgrad never leaves memory
    uninitialised)."""
    return _const(np.zeros(shape_of(shape, 'empty'), _dtype_or(dtype, _F32, 'empty')))


def zeros(shape, dtype=np.float32):
    """Zeros of ``shape`` (Float32 by default)."""
    return _const(np.zeros(shape_of(shape, 'zeros'), _dtype_or(dtype, _F32, 'zeros')))


def ones(shape, dtype=np.float32):
    """Ones of ``shape`` (Float32 by default)."""
    return _const(np.ones(shape_of(shape, 'ones'), _dtype_or(dtype, _F32, 'ones')))


def full(shape, fill_value, dtype=None):
    """``fill_value`` (a number or an array broadcast to ``shape``) everywhere; the dtype is the
    fill value's unless ``dtype`` is given. A Tensor fill value gets the gradient."""
    shape = shape_of(shape, 'full')
    value = to_tensor(fill_value, 'full', dtype)
    try:
        np.broadcast_shapes(value.shape, shape)
    except ValueError:
        raise fail('full', f"fill_value of shape {value.shape} cannot be broadcast to "
                           f"{shape}") from None
    return ops.broadcast_to(value, shape) if value.shape != shape else ops.identity(value)


def _like(a, dtype, shape, name):
    x = to_tensor(a, name)
    dt = _dtype_or(dtype, x._data.dtype, name)
    return dt, (x.shape if shape is None else shape_of(shape, name))


def empty_like(prototype, dtype=None, shape=None):
    """A Tensor with the shape and dtype of ``prototype`` (or the given ones), holding zeros."""
    dt, shape = _like(prototype, dtype, shape, 'empty_like')
    return _const(np.zeros(shape, dt))


def zeros_like(a, dtype=None, shape=None):
    """Zeros with the shape and dtype of ``a`` (or the given ones)."""
    dt, shape = _like(a, dtype, shape, 'zeros_like')
    return _const(np.zeros(shape, dt))


def ones_like(a, dtype=None, shape=None):
    """Ones with the shape and dtype of ``a`` (or the given ones)."""
    dt, shape = _like(a, dtype, shape, 'ones_like')
    return _const(np.ones(shape, dt))


def full_like(a, fill_value, dtype=None, shape=None):
    """``fill_value`` with the shape and dtype of ``a`` (or the given ones)."""
    dt, shape = _like(a, dtype, shape, 'full_like')
    return full(shape, fill_value, from_numpy(dt))


# ----------------------------------------------------------------------------- ranges
def _scalar(value, name, what):
    """A Python number from a number or a one-element Tensor."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise fail(name, f"{what} must be a number, got a Tensor of shape {value.shape}")
        return values(value).reshape(()).item()
    if isinstance(value, (bool, int, float, np.generic)):
        return value.item() if isinstance(value, np.generic) else value
    raise fail(name, f"{what} must be a number, got {type(value).__name__}", TypeError)


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)``; Int32 when all arguments are ints, Float32
    otherwise, unless ``dtype`` is given.

    >>> import hookgrad.numpy as mnp
    >>> mnp.arange(1, 5, 2)
    Tensor(shape=[2], dtype=Int32, value= [1, 3])
    """
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    start, stop, step = (_scalar(v, 'arange', what) for v, what in
                         ((start, 'start'), (stop, 'stop'), (step, 'step')))
    if step == 0:
        raise fail('arange', "step must not be 0")
    default = _I32 if all(isinstance(v, int) for v in (start, stop, step)) else _F32
    return _const(np.arange(start, stop, step), _dtype_or(dtype, default, 'arange'))


def _num(num, name):
    num = integer(num, name, 'num')
    if num < 0:
        raise fail(name, f"num must be non-negative, got {num}")
    return num


def _endpoint_tensor(value, name):
    return value if isinstance(value, Tensor) else to_tensor(value, name)


def _spaced(start, stop, num, endpoint, axis, name):
    """``num`` points from ``start`` to ``stop`` (Tensors, broadcast together) stacked on
    ``axis``, and the step, all Float32 or wider; differentiable in start and stop."""
    start = ops.cast(_endpoint_tensor(start, name), _float_of(start))
    stop = ops.cast(_endpoint_tensor(stop, name), _float_of(stop))
    div = (num - 1) if endpoint else num
    shape = np.broadcast_shapes(start.shape, stop.shape)
    ndim = len(shape) + 1
    axis = _axis_in(axis, ndim, name)
    steps = np.arange(num, dtype=np.float64).reshape((num,) + (1,) * len(shape))
    delta = ops.sub(stop, start)
    step = ops.div(delta, div) if div > 0 else delta * np.nan
    frac = steps / div if div > 0 else steps
    y = ops.add(start, ops.mul(delta, Tensor._wrap(frac.astype(delta._data.dtype))))
    if endpoint and num > 1:
        y = ops.concat([y[:-1], ops.expand_dims(ops.broadcast_to(stop, shape), 0)
                        if shape else ops.reshape(stop, (1,))], 0)
    if axis != 0:
        perm = list(range(1, ndim))
        perm.insert(axis, 0)
        y = ops.transpose(y, tuple(perm))
    return y, step


def _float_of(value):
    dt = value._data.dtype if isinstance(value, Tensor) else None
    return dt if dt is not None and dt.kind in 'fV' else _F32


def _axis_in(axis, ndim, name):
    if not isinstance(axis, int) or isinstance(axis, bool) or not -ndim <= axis < ndim:
        raise fail(name, f"axis {axis!r} is out of bounds for the result of dimension {ndim}")
    return axis % ndim


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` (inclusive with ``endpoint``),
    Float32 unless ``dtype`` is given; with ``retstep`` also the step. ``start`` and ``stop``
    may be arrays: the values then run along ``axis``.

    >>> import hookgrad.numpy as mnp
    >>> mnp.linspace(0, 1, 3)
    Tensor(shape=[3], dtype=Float32, value= [ 0.00000000e+00,  5.00000000e-01,  1.00000000e+00])
    """
    num = _num(num, 'linspace')
    if num == 0:
        raise fail('linspace', "num must be positive, got 0")
    y, step = _spaced(start, stop, num, endpoint, axis, 'linspace')
    dt = np_dtype(dtype, 'linspace')
    if dt is not None and dt != y._data.dtype:
        y = ops.cast(ops.floor(y) if dt.kind in 'iu' else y, dt)
    return (y, step) if retstep else y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``base ** linspace(start, stop, num)``: ``num`` values evenly spaced on a log scale."""
    y = linspace(start, stop, num, endpoint, axis=axis)
    y = ops.pow(Tensor._wrap(np.asarray(_scalar(base, 'logspace', 'base'), y._data.dtype)), y)
    dt = np_dtype(dtype, 'logspace')
    return y if dt is None else ops.cast(y, dt)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``num`` values from ``start`` to ``stop`` in geometric progression; both ends must be
    nonzero and of one sign.

    Raises:
        ValueError: when an end is 0 or the ends differ in sign.
    """
    start = floating(_endpoint_tensor(start, 'geomspace'))
    stop = floating(_endpoint_tensor(stop, 'geomspace'))
    a, b = values(start), values(stop)
    if (a == 0).any() or (b == 0).any():
        raise fail('geomspace', "start and stop must be nonzero (a geometric sequence cannot "
                                "include 0)")
    if (np.sign(a) != np.sign(b)).any():
        raise fail('geomspace', "start and stop must have the same sign")
    ln10 = np.log(10.0)
    y = logspace(ops.div(ops.log(ops.abs(start)), ln10), ops.div(ops.log(ops.abs(stop)), ln10),
                 num, endpoint, 10.0, axis=axis)
    sign = ops.sign(start)
    if sign.ndim:
        sign = ops.expand_dims(sign, _axis_in(axis, y.ndim, 'geomspace'))
    y = ops.mul(y, sign)
    dt = np_dtype(dtype, 'geomspace')
    return y if dt is None else ops.cast(y, dt)


# ----------------------------------------------------------------------------- matrices
def eye(N, M=None, k=0, dtype=np.float32):
    """An ``N`` x ``M`` matrix with ones on diagonal ``k`` (0 the main, positive above)."""
    n = integer(N, 'eye', 'N')
    m = n if M is None else integer(M, 'eye', 'M')
    if n < 0 or m < 0:
        raise fail('eye', f"N and M must be non-negative, got {n} and {m}")
    return _const(np.eye(n, m, integer(k, 'eye', 'k'), dtype=_dtype_or(dtype, _F32, 'eye')))


def identity(n, dtype=np.float32):
    """The ``n`` x ``n`` identity matrix."""
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=np.float32):
    """An ``N`` x ``M`` matrix with ones at and below diagonal ``k``, zeros above."""
    n = integer(N, 'tri', 'N')
    m = n if M is None else integer(M, 'tri', 'M')
    if n < 0 or m < 0:
        raise fail('tri', f"N and M must be non-negative, got {n} and {m}")
    return _const(np.tri(n, m, integer(k, 'tri', 'k'), dtype=_dtype_or(dtype, _F32, 'tri')))


def _masked_triangle(m, k, lower, name):
    x = to_tensor(m, name)
    if x.ndim == 0:
        raise fail(name, "input must be at least 1-d")
    k = integer(k, name, 'k')
    rows, cols = (x.shape[0], x.shape[0]) if x.ndim == 1 else x.shape[-2:]
    keep = np.tri(rows, cols, k, dtype=bool) if lower else ~np.tri(rows, cols, k - 1, dtype=bool)
    return ops.where(Tensor._wrap(keep), x, Tensor._wrap(np.zeros((), x._data.dtype)))


def tril(m, k=0):
    """``m`` with the elements above diagonal ``k`` of its last two axes set to 0 (a 1-d
    ``m`` is repeated as the rows of a square matrix)."""
    return _masked_triangle(m, k, True, 'tril')


def triu(m, k=0):
    """``m`` with the elements below diagonal ``k`` of its last two axes set to 0."""
    return _masked_triangle(m, k, False, 'triu')


def _diagonal_positions(rows, cols, offset):
    """Row and column indices of diagonal ``offset`` of a rows x cols matrix."""
    start_r, start_c = (0, offset) if offset >= 0 else (-offset, 0)
    n = max(0, min(rows - start_r, cols - start_c))
    return np.arange(start_r, start_r + n), np.arange(start_c, start_c + n)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """Diagonal ``offset`` of the matrices spanned by ``axis1`` and ``axis2``, as the last axis
    of the result (NumPy's layout)."""
    from ._args import axis_of
    x = to_tensor(a, 'diagonal')
    if x.ndim < 2:
        raise fail('diagonal', f"input must be at least 2-d, got {x.ndim}-d")
    ax1 = axis_of(axis1, x.ndim, 'diagonal', 'axis1')
    ax2 = axis_of(axis2, x.ndim, 'diagonal', 'axis2')
    if ax1 == ax2:
        raise fail('diagonal', f"axis1 and axis2 must differ, both are {ax1}")
    rest = [i for i in range(x.ndim) if i not in (ax1, ax2)]
    x = ops.transpose(x, tuple(rest) + (ax1, ax2))
    rows, cols = _diagonal_positions(x.shape[-2], x.shape[-1], integer(offset, 'diagonal',
                                                                       'offset'))
    return ops.getitem(x, (Ellipsis, rows, cols))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """The sum along diagonal ``offset`` (integers sum to Int64)."""
    y = ops.sum(diagonal(a, offset, axis1, axis2), -1)
    dt = np_dtype(dtype, 'trace')
    return y if dt is None else ops.cast(y, dt)


def diag(v, k=0):
    """The diagonal ``k`` of a 2-d ``v``, or a square matrix with the 1-d ``v`` on diagonal
    ``k``."""
    x = to_tensor(v, 'diag')
    k = integer(k, 'diag', 'k')
    if x.ndim == 2:
        return diagonal(x, k)
    if x.ndim != 1:
        raise fail('diag', f"input must be 1-d or 2-d, got {x.ndim}-d")
    n = x.shape[0] + abs(k)
    rows, cols = _diagonal_positions(n, n, k)
    return ops.unindex(x, (n, n), (rows, cols))


def diagflat(v, k=0):
    """A square matrix with the flattened ``v`` on diagonal ``k``."""
    return diag(ops.reshape(to_tensor(v, 'diagflat'), (-1,)), k)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-d ``x``: columns ``x ** (N-1), ..., x, 1`` (reversed
    with ``increasing``); ``N`` defaults to ``len(x)``."""
    x = to_tensor(x, 'vander')
    if x.ndim != 1:
        raise fail('vander', f"x must be 1-d, got {x.ndim}-d")
    n = x.shape[0] if N is None else integer(N, 'vander', 'N')
    if n < 0:
        raise fail('vander', f"N must be non-negative, got {n}")
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    exps = Tensor._wrap(powers.astype(x._data.dtype))
    return ops.pow(ops.expand_dims(x, 1), exps)


# ----------------------------------------------------------------------------- windows
def _window(M, name, formula):
    """A Float32 window of ``M`` points (empty for M < 1, [1] for M == 1)."""
    m = integer(M, name, 'M')
    if m < 1:
        return _const(np.zeros(0, _F32))
    if m == 1:
        return _const(np.ones(1, _F32))
    n = np.arange(m, dtype=np.float64)
    return _const(formula(n, m).astype(_F32))


def bartlett(M):
    """The Bartlett (triangular) window of ``M`` points."""
    return _window(M, 'bartlett', lambda n, m: 1 - np.abs(2 * n / (m - 1) - 1))


def blackman(M):
    """The Blackman window of ``M`` points."""
    return _window(M, 'blackman', lambda n, m: 0.42 - 0.5 * np.cos(2 * np.pi * n / (m - 1))
                   + 0.08 * np.cos(4 * np.pi * n / (m - 1)))


def hamming(M):
    """The Hamming window of ``M`` points."""
    return _window(M, 'hamming', lambda n, m: 0.54 - 0.46 * np.cos(2 * np.pi * n / (m - 1)))


def hanning(M):
    """The Hann window of ``M`` points."""
    return _window(M, 'hanning', lambda n, m: 0.5 - 0.5 * np.cos(2 * np.pi * n / (m - 1)))


__all__ = ['array', 'asarray', 'asfarray', 'copy', 'array_str', 'empty', 'zeros', 'ones', 'full',
           'empty_like', 'zeros_like', 'ones_like', 'full_like', 'arange', 'linspace', 'logspace',
           'geomspace', 'eye', 'identity', 'tri', 'tril', 'triu', 'diagonal', 'trace', 'diag',
           'diagflat', 'vander', 'bartlett', 'blackman', 'hamming', 'hanning']
