"""Selection by value and position: masked_select, nonzero/argwhere, unique,
unique_consecutive, index_add, index_fill, inplace_update/add/sub, and the in-place scatters
into Parameters (scatter_add, scatter_update, scatter_max..., scatter_nd_add...).

The in-place forms compute the new values with ops on the variable's current values, then
write them in with ``ops.assign`` (an effect, so a graph-mode program performs it on every
replay) and return the variable itself, as MindSpore's Ref-updating primitives do.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op
from ..kernels import backend
from ._base import as_tensor, scalar_like
from .arithmetic import cast
from .broadcasting import broadcast_to
from .creation import assign, stop_gradient, tensor_on
from .indexing import GetItem, Where, follow
from .rearrange import moveaxis
from .shaping import expand_dims
from .scatter_gather import (_nd_key, scatter_divide, scatter_nd_values, tensor_scatter_add,
                             tensor_scatter_div, tensor_scatter_max, tensor_scatter_min,
                             tensor_scatter_mul, tensor_scatter_sub, tensor_scatter_update)

_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)


class NonZero(Op):
    """y = the (N, ndim) Int64 positions of the nonzero elements of x, in row-major order."""
    differentiable = False
    shape_from_values = True

    @staticmethod
    def forward(ctx, x):
        return np.argwhere(x).astype(_I64, copy=False)


class Unique(Op):
    """(values, inverse): the distinct elements of x in order of first appearance, and for
    each element of x the position of its value in ``values``."""
    differentiable = False
    shape_from_values = True

    @staticmethod
    def forward(ctx, x, index_dtype):
        flat = x.reshape(-1)
        values, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
        order = np.argsort(first, kind='stable')           # sorted -> first-appearance order
        rank = np.empty_like(order)
        rank[order] = ctx.xp.arange(order.size)
        return values[order], rank[inverse.reshape(-1)].reshape(x.shape).astype(index_dtype)


class UniqueConsecutive(Op):
    """(values, inverse, counts): runs of equal elements (or slices along ``axis``) collapsed
    to one; inverse maps each element to its run, counts gives each run's length."""
    differentiable = False
    shape_from_values = True

    @staticmethod
    def forward(ctx, x, axis):
        if axis is None:
            x = x.reshape(-1)
            axis = 0
        xp = ctx.xp
        moved = np.moveaxis(x, axis, 0)
        n = moved.shape[0]
        if n == 0:
            return x, xp.zeros(0, _I64), xp.zeros(0, _I64)
        flat = moved.reshape(n, -1)
        starts = np.concatenate([xp.ones(1, np.bool_), (flat[1:] != flat[:-1]).any(axis=1)])
        inverse = np.cumsum(starts) - 1
        counts = np.diff(np.concatenate([np.flatnonzero(starts), xp.full(1, n, _I64)]))
        values = np.moveaxis(moved[starts], 0, axis)
        return values, inverse.astype(_I64), counts.astype(_I64)


# ------------------------------------------------------------------------------ by mask
def masked_select(input, mask):
    """The elements of ``input`` where the Bool ``mask`` (broadcast with it) is True, as a
    1-d tensor in row-major order.

    Raises:
        TypeError: for a mask that is not Bool.
        ValueError: when the shapes do not broadcast.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ms.ops.masked_select(x, x > 2).tolist()
    [3.0, 4.0]
    """
    x = as_tensor(input)
    m = follow(tensor_on(mask, x, 'mask'), x)
    if m._data.dtype != np.bool_:
        raise TypeError(f"ops.masked_select: mask must be a Bool tensor, got {m.dtype}")
    try:
        shape = np.broadcast_shapes(x.shape, m.shape)
    except ValueError:
        raise ValueError(f"ops.masked_select: mask of shape {m.shape} does not broadcast with "
                         f"input of shape {x.shape}") from None
    if x.shape != shape:
        x = broadcast_to(x, shape)
    if m.shape != shape:
        m = broadcast_to(m, shape)
    from .indexing import KeyInput
    return GetItem.apply(x, m, key=KeyInput(0))


def nonzero(input, *, as_tuple=False):
    """The positions of the nonzero elements: an (N, ndim) Int64 tensor, or with ``as_tuple``
    one 1-d Int64 tensor per dimension.

    Raises:
        ValueError: for a 0-d input.
    """
    x = as_tensor(input)
    if x.ndim == 0:
        raise ValueError("ops.nonzero: input must have rank >= 1, got shape ()")
    y = NonZero.apply(x)
    if not as_tuple:
        return y
    from .rearrange import unbind
    return unbind(y, 1)


def argwhere(input):
    """The (N, ndim) Int64 positions of the nonzero elements of ``input``."""
    return nonzero(input)


def unique(input):
    """``(output, inverse)``: the distinct elements of ``input`` in order of first appearance
    (1-d), and the index of each element's value in ``output`` (input's shape; Int64 for an
    Int64 input, else Int32, as MindSpore gives).

    >>> import hookgrad as ms
    >>> out, idx = ms.ops.unique(ms.Tensor([3, 1, 3, 2]))
    >>> out.tolist(), idx.tolist()
    ([3, 1, 2], [0, 1, 0, 2])
    """
    x = as_tensor(input)
    dt = _I64 if x._data.dtype == _I64 else _I32
    return Unique.apply(x, index_dtype=dt)


def unique_with_pad(x, pad_num):
    """``(output, inverse)`` as ``unique`` gives for the 1-d ``x``, ``output`` padded with
    ``pad_num`` to x's length, so its shape does not depend on the values.

    >>> import hookgrad as ms
    >>> out, idx = ms.ops.unique_with_pad(ms.Tensor([3, 1, 3, 2]), 0)
    >>> out.tolist(), idx.tolist()
    ([3, 1, 2, 0], [0, 1, 0, 2])
    """
    x = as_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"ops.unique_with_pad: x must be 1-d, got shape {x.shape}")
    output, inverse = unique(x)
    missing = x.shape[0] - output.shape[0]
    if missing:
        from .creation import full
        from .shaping import concat
        output = concat((output, full((missing,), pad_num, dtype=output.dtype)))
    return output, inverse


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (or slices along ``dim``) to one.

    Returns:
        ``output``, then ``inverse`` (Int64, each element's run) if asked, then ``counts``
        (Int64, each run's length) if asked, as a tuple when more than one.
    """
    x = as_tensor(input)
    axis = None
    if dim is not None:
        from ._base import normalize_axis
        axis = normalize_axis(dim, max(x.ndim, 1), 'unique_consecutive')
    values, inverse, counts = UniqueConsecutive.apply(x, axis=axis)
    out = (values,) + ((inverse,) if return_inverse else ()) + \
        ((counts,) if return_counts else ())
    return out[0] if len(out) == 1 else out


# ------------------------------------------------------------------------------ by index
def _index_1d(index, name, what, like):
    """A 0-d or 1-d integer index Tensor on the device of the Tensor ``like`` it addresses."""
    t = index if isinstance(index, Tensor) else tensor_on(index, like, what)
    if t._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.{name}: {what} must be an integer tensor, got {t.dtype}")
    if t.ndim > 1:
        raise ValueError(f"ops.{name}: {what} must be 0-d or 1-d, got shape {t.shape}")
    return follow(t, like)


def _axis(axis, ndim, name):
    from ._base import normalize_axis
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"ops.{name}: axis must be an int, got {axis!r}")
    return normalize_axis(axis, max(ndim, 1), name)


def _in_range(index, size, name, what='index'):
    """IndexError for an index outside [-size, size). The check reads the values, so it runs
    on the host only: on a device an index out of range is not diagnosed."""
    a = index._data
    if type(a) is np.ndarray and a.size and (a.min() < -size or a.max() >= size):
        raise IndexError(f"ops.{name}: {what} {a.tolist()} is out of range for a dimension of "
                         f"size {size}")


def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """``x`` with the slices of ``y`` added at ``indices`` along ``axis`` (repeats add up).

    As in MindSpore the sum is also written into ``x`` in place; the returned Tensor carries
    the gradient (to ``x`` and ``y``).

    Raises:
        ValueError: when y's shape is not x's with ``len(indices)`` along ``axis``.
        IndexError: for an index out of range.
    """
    t = as_tensor(x, 'x')
    ax = _axis(axis, t.ndim, 'index_add')
    idx = _index_1d(indices, 'index_add', 'indices', t)
    v = tensor_on(y, t, 'y')
    want = t.shape[:ax] + (idx.size,) + t.shape[ax + 1:]
    if v.shape != want:
        raise ValueError(f"ops.index_add: y must have shape {want}, got {v.shape}")
    if check_index_bound:
        _in_range(idx, t.shape[ax], 'index_add', 'indices')
    if v._data.dtype != t._data.dtype:
        v = cast(v, t._data.dtype)
    # the slices are added one at a time in index order, each onto the running value
    pos = expand_dims(idx.reshape(-1), -1)
    if ax == 0:
        out = tensor_scatter_add(t, pos, v)
    else:
        out = moveaxis(tensor_scatter_add(moveaxis(t, ax, 0), pos, moveaxis(v, ax, 0)), 0, ax)
    assign(t, stop_gradient(out))
    return out


def index_fill(x, axis, index, value):
    """``x`` with ``value`` (a number or 0-d Tensor) at positions ``index`` along ``axis``.

    Raises:
        IndexError: for an index out of range.
    """
    t = as_tensor(x, 'x')
    ax = _axis(axis, t.ndim, 'index_fill')
    idx = _index_1d(index, 'index_fill', 'index', t)
    _in_range(idx, t.shape[ax] if t.ndim else 1, 'index_fill')
    mask = backend.array_module(t._data).zeros(t.shape[ax] if t.ndim else 1, bool)
    mask[idx._data.reshape(-1)] = True
    mask = mask.reshape((-1,) + (1,) * (t.ndim - ax - 1)) if t.ndim else mask.reshape(())
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"ops.index_fill: value must be a number or a 0-d Tensor, got "
                             f"shape {value.shape}")
        v = value if value._data.dtype == t._data.dtype else cast(value, t._data.dtype)
    else:
        v = scalar_like(value, t, exact=True)       # MindSpore's index_fill keeps every digit
    return Where.apply(Tensor._wrap(mask), v, t)


def _rows(indices, name, like):
    """``inplace_*`` indices: an int, a tuple of ints or a 1-d integer Tensor, as a Tensor on
    the device of the Tensor ``like``."""
    device = backend.device_of(like._data)
    if isinstance(indices, numbers.Integral) and not isinstance(indices, bool):
        return Tensor._wrap(backend.to_device(np.asarray([int(indices)]), device))
    if isinstance(indices, tuple):
        if not all(isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in indices):
            raise TypeError(f"ops.{name}: indices must be an int, a tuple of ints or a Tensor, "
                            f"got {indices!r}")
        return Tensor._wrap(backend.to_device(np.asarray(indices, _I64).reshape(-1), device))
    return _index_1d(indices, name, 'indices', like).reshape(-1)


def _row_parts(x, v, indices, name):
    t = as_tensor(x, 'x')
    u = tensor_on(v, t, 'v')
    idx = _rows(indices, name, t)
    if t.ndim == 0:
        raise ValueError(f"ops.{name}: x must have rank >= 1, got shape ()")
    _in_range(idx, t.shape[0], name, 'indices')
    want = (idx.size,) + t.shape[1:]
    if u.shape != want:
        raise ValueError(f"ops.{name}: v must have shape {want}, got {u.shape}")
    from .shaping import expand_dims
    return t, expand_dims(idx, -1), u


def inplace_update(x, v, indices):
    """A copy of ``x`` with rows ``indices`` (along axis 0) replaced by the rows of ``v``."""
    t, idx, u = _row_parts(x, v, indices, 'inplace_update')
    return tensor_scatter_update(t, idx, u)


def inplace_add(x, v, indices):
    """A copy of ``x`` with the rows of ``v`` added to rows ``indices`` (along axis 0)."""
    t, idx, u = _row_parts(x, v, indices, 'inplace_add')
    return tensor_scatter_add(t, idx, u)


def inplace_sub(x, v, indices):
    """A copy of ``x`` with the rows of ``v`` subtracted from rows ``indices`` (axis 0)."""
    t, idx, u = _row_parts(x, v, indices, 'inplace_sub')
    return tensor_scatter_sub(t, idx, u)


# ------------------------------------------------------------------------------ into Parameters
def _write(variable, name, combine, indices, updates, nd):
    """``variable`` updated in place with ``combine(values, indices, updates)``; returns it."""
    if not isinstance(variable, Tensor):
        raise TypeError(f"ops.{name}: input_x must be a Parameter or Tensor, got "
                        f"{type(variable).__name__}")
    current = stop_gradient(variable)
    if not nd:
        idx = tensor_on(indices, variable, 'indices')
        from .shaping import expand_dims
        indices = expand_dims(idx, -1)
    x, columns, u = scatter_nd_values(current, indices, updates, name)
    return assign(variable, combine(x, indices, stop_gradient(u)))


def scatter_add(input_x, indices, updates):
    """Add ``updates`` into rows ``indices`` (axis 0) of ``input_x`` in place; returns it.

    ``updates`` has shape ``indices.shape + input_x.shape[1:]``; repeated rows add up.

    Raises:
        IndexError: for an index out of range.
        ValueError: for updates of the wrong shape.
    """
    return _write(input_x, 'scatter_add', tensor_scatter_add, indices, updates, False)


def scatter_sub(input_x, indices, updates):
    """Subtract ``updates`` from rows ``indices`` of ``input_x`` in place; returns it."""
    return _write(input_x, 'scatter_sub', tensor_scatter_sub, indices, updates, False)


def scatter_update(input_x, indices, updates):
    """Write ``updates`` into rows ``indices`` of ``input_x`` in place (the last write wins);
    returns it."""
    return _write(input_x, 'scatter_update', tensor_scatter_update, indices, updates, False)


def scatter_max(input_x, indices, updates):
    """Rows ``indices`` of ``input_x`` become their maximum with ``updates``, in place."""
    return _write(input_x, 'scatter_max', tensor_scatter_max, indices, updates, False)


def scatter_min(input_x, indices, updates):
    """Rows ``indices`` of ``input_x`` become their minimum with ``updates``, in place."""
    return _write(input_x, 'scatter_min', tensor_scatter_min, indices, updates, False)


def scatter_mul(input_x, indices, updates):
    """Rows ``indices`` of ``input_x`` are multiplied by ``updates``, in place."""
    return _write(input_x, 'scatter_mul', tensor_scatter_mul, indices, updates, False)


def scatter_div(input_x, indices, updates):
    """Rows ``indices`` of ``input_x`` are divided by ``updates``, in place (integers with
    truncation toward zero).

    Raises:
        ValueError: when updates hold a 0 (of any dtype).
    """
    def divide(x, idx, u):
        if u._data.size and bool((u._data == 0).any()):
            raise ValueError("ops.scatter_div: updates must not contain 0")
        return scatter_divide(x, _nd_key(idx, x.shape, 'scatter_div', x)[1], u, 'scatter_div')
    return _write(input_x, 'scatter_div', divide, indices, updates, False)


def scatter_nd_add(input_x, indices, updates, use_locking=False):
    """Add ``updates`` at the n-d positions of ``indices`` into ``input_x`` in place."""
    return _write(input_x, 'scatter_nd_add', tensor_scatter_add, indices, updates, True)


def scatter_nd_sub(input_x, indices, updates, use_locking=False):
    """Subtract ``updates`` at the n-d positions of ``indices`` from ``input_x`` in place."""
    return _write(input_x, 'scatter_nd_sub', tensor_scatter_sub, indices, updates, True)


def scatter_nd_update(input_x, indices, updates, use_locking=True):
    """Write ``updates`` at the n-d positions of ``indices`` into ``input_x`` in place."""
    return _write(input_x, 'scatter_nd_update', tensor_scatter_update, indices, updates, True)


def scatter_nd_max(input_x, indices, updates, use_locking=False):
    """The n-d positions of ``indices`` in ``input_x`` take their maximum with ``updates``."""
    return _write(input_x, 'scatter_nd_max', tensor_scatter_max, indices, updates, True)


def scatter_nd_min(input_x, indices, updates, use_locking=False):
    """The n-d positions of ``indices`` in ``input_x`` take their minimum with ``updates``."""
    return _write(input_x, 'scatter_nd_min', tensor_scatter_min, indices, updates, True)


def scatter_nd_mul(input_x, indices, updates, use_locking=False):
    """The n-d positions of ``indices`` in ``input_x`` are multiplied by ``updates``."""
    return _write(input_x, 'scatter_nd_mul', tensor_scatter_mul, indices, updates, True)


def scatter_nd_div(input_x, indices, updates, use_locking=False):
    """The n-d positions of ``indices`` in ``input_x`` are divided by ``updates``."""
    return _write(input_x, 'scatter_nd_div', tensor_scatter_div, indices, updates, True)
