"""Gathers and scatters by index tensors: gather_elements (GatherD), gather_nd, scatter_nd,
scatter / tensor_scatter_elements and the tensor_scatter_* family.

``GatherElements`` and ``ScatterAddElements`` are each other's adjoints, as ``x[key]`` and
``unindex`` are (indexing.py); the n-d forms reuse those two, so their gradients of any order
come from existing rules. Max/min and product scatters have primitives of their own.
"""
import numbers

import numpy as np

from .._dtype import from_numpy
from .._tensor import Tensor
from ..autograd.function import Op
from ..kernels import backend
from ._base import as_tensor
from .arithmetic import add, cast, mul, sub
from .comparison import lt, maximum, minimum
from .creation import tensor_on
from .indexing import GetItem, KeyInput, SetItem, _filled, follow, unindex
from .unary import reciprocal


# ------------------------------------------------------------------------------ primitives
class GatherElements(Op):
    """y = x picked at ``index`` along ``axis`` (elsewhere by position, so the index may be
    smaller than x off the axis); the gradient is added back at the indices."""
    @staticmethod
    def forward(ctx, x, index, axis):
        if ctx.recording:
            ctx.in_shape, ctx.axis, ctx.index = x.shape, axis, index
        return x[_along(ctx.xp, index, axis)]

    @staticmethod
    def backward(ctx, gy):
        return _scatter_add(gy, ctx.index, ctx.in_shape, ctx.axis), None


class AddAt(Op):
    """y = x with ``value`` added at ``key``, one update at a time in index order (so each sum
    rounds as a running total onto x, as MindSpore's scatter kernels do); x's gradient is gy,
    value's is gy[key]."""
    @staticmethod
    def forward(ctx, x, value, *indices, key):
        if indices:
            key = _filled(key, indices)
        y = x.copy()
        ctx.xp.add.at(y, key, value)
        if ctx.recording:
            ctx.key, ctx.n_indices = key, len(indices)
        return y

    @staticmethod
    def backward(ctx, gy):
        gv = ctx.m.getitem(gy, ctx.key) if ctx.needs_grad(1) else None
        return (gy, gv) + (None,) * ctx.n_indices


class ScatterAddElements(Op):
    """y = zeros(shape) with g added at ``index`` along ``axis`` (the adjoint of
    GatherElements); its gradient is a GatherElements of gy."""
    @staticmethod
    def forward(ctx, g, index, shape, axis):
        if ctx.recording:
            ctx.axis, ctx.index = axis, index
        xp = ctx.xp
        out = xp.zeros(shape, g.dtype)
        xp.add.at(out, _along(xp, index, axis), g)
        return out

    @staticmethod
    def backward(ctx, gy):
        return _gather(gy, ctx.index, ctx.axis), None


def _along(xp, index, axis):
    """The fancy-index key that addresses ``index`` along ``axis`` (others by position), in
    the array module ``xp`` of ``index``."""
    n = index.ndim
    return tuple(index if k == axis else
                 xp.arange(size).reshape((1,) * k + (size,) + (1,) * (n - k - 1))
                 for k, size in enumerate(index.shape))


def _gather(x, index, axis):
    """GatherElements on an array (first-order backward) or a Tensor (recorded); the index may
    be smaller than x off the axis, as in GatherElements' forward."""
    if isinstance(x, Tensor):
        return GatherElements.apply(x, Tensor._wrap(index), axis=axis)
    return x[_along(backend.array_module(x), index, axis)]


def _scatter_add(g, index, shape, axis):
    """ScatterAddElements on an array (first-order backward) or a Tensor (recorded)."""
    if isinstance(g, Tensor):
        return ScatterAddElements.apply(g, Tensor._wrap(index), shape=shape, axis=axis)
    xp = backend.array_module(g)
    out = xp.zeros(shape, g.dtype)
    xp.add.at(out, _along(xp, index, axis), g)
    return out


class ScatterElements(Op):
    """y = x with ``src`` written at ``index`` along ``axis``; where an index repeats the last
    write wins. x's gradient is gy zeroed where written; every src element gets gy gathered at
    its index, overwritten ones too (MindSpore's rule)."""
    @staticmethod
    def forward(ctx, x, src, index, axis):
        xp = ctx.xp
        y = x.copy()
        key = _along(xp, index, axis)
        host = type(x) is np.ndarray
        if not host:
            target = _flat_positions(key, x.shape).reshape(-1)
            order = xp.arange(target.size)
            last = xp.full(x.size, -1, order.dtype)
            xp.maximum.at(last, target, order)
            wins = (last[target] == order).reshape(index.shape)
        if host:
            y[key] = src            # NumPy writes in order: the last write wins
        else:                       # a GPU's writes race: only the last of each is made
            y[tuple(xp.broadcast_to(k, index.shape)[wins] for k in key)] = src[wins]
        if ctx.recording:
            written = xp.zeros(x.shape, bool)
            written[key] = True
            ctx.save(written)
            ctx.index, ctx.axis = index, axis
        return y

    @staticmethod
    def backward(ctx, gy):
        written, = ctx.saved
        gx = ctx.m.where(written, 0, gy) if ctx.needs_grad(0) else None
        gs = _gather(gy, ctx.index, ctx.axis) if ctx.needs_grad(1) else None
        return gx, gs, None


class ScatterExtreme(Op):
    """y = a fill of ``shape`` (the dtype's lowest for max, highest for min) with each
    position the max (min) of the updates scattered to it; updates equal to their position's
    result share its gradient."""
    @staticmethod
    def forward(ctx, u, *indices, shape, largest):
        xp = ctx.xp
        key = tuple(indices)
        if u.dtype.kind in 'fV':
            fill = -np.inf if largest else np.inf
        else:
            info = np.iinfo(u.dtype)
            fill = info.min if largest else info.max
        if xp is np:
            y = np.full(shape, fill, u.dtype)
            (np.maximum if largest else np.minimum).at(y, key, u)
        else:
            y = _device_extreme(xp, u, key, shape, largest, fill)
        if ctx.recording:
            hit = (u == y[key]).astype(u.dtype)
            count = xp.zeros(shape, u.dtype)
            xp.add.at(count, key, hit)
            ctx.save(hit / count[key])
            ctx.key, ctx.n_indices = key, len(indices)
        return y

    @staticmethod
    def backward(ctx, gy):
        (share,) = ctx.saved
        return (ctx.m.getitem(gy, ctx.key) * share,) + (None,) * ctx.n_indices


class ScatterProduct(Op):
    """y = ones of ``shape`` with each position the product of the updates scattered to it;
    an update's gradient is gy times the product of the others at its position."""
    @staticmethod
    def forward(ctx, u, *indices, shape):
        key = tuple(indices)
        if ctx.xp is not np:
            return _device_product(ctx, u, key, shape)
        y = np.ones(shape, u.dtype)
        np.multiply.at(y, key, u)
        if ctx.recording:
            flat = np.ravel_multi_index(key, shape)
            counts = np.bincount(flat.ravel(), minlength=int(np.prod(shape)))
            ctx.repeated = bool((counts > 1).any())
            if ctx.repeated:
                # the product of the others without division: nonzero product and zero count
                zero = u == 0
                nonzero_prod = np.ones(shape, u.dtype)
                np.multiply.at(nonzero_prod, key, np.where(zero, 1, u))
                zeros = np.zeros(shape, np.int64)
                np.add.at(zeros, key, zero)
                others_zero = zeros[key] - zero
                ctx.save(np.where(others_zero > 0, 0, nonzero_prod[key] / np.where(zero, 1, u)))
            ctx.key, ctx.n_indices = key, len(indices)
        return y

    @staticmethod
    def backward(ctx, gy):
        g = ctx.m.getitem(gy, ctx.key)
        repeated = ctx.repeated
        if repeated is None:        # the device's forward saves the products in any case
            if not isinstance(gy, Tensor):
                return (g * ctx.saved[0],) + (None,) * ctx.n_indices
            positions = ctx.positions       # sorted: a repeat is two equal neighbours
            repeated = bool((positions[1:] == positions[:-1]).any())   # a host read
        if repeated:
            if isinstance(gy, Tensor):
                raise NotImplementedError("gradients of second order through a product scatter "
                                          "with repeated indices are not implemented")
            g = g * ctx.saved[0]
        return (g,) + (None,) * ctx.n_indices


def _device_extreme(xp, u, key, shape, largest, fill):
    """The max (min) scatter of ``u`` at ``key`` into a ``fill`` of ``shape`` on a device,
    without atomics (CuPy's float64 ``maximum.at`` rounds through float32): the updates sorted
    by position, then by value, and each position's last (first) written once. A NaN update
    makes its position NaN, as ``np.maximum.at`` does."""
    key = tuple(xp.broadcast_arrays(*key)) if len(key) > 1 else key
    n = len(key)
    rest = int(np.prod(shape[n:], dtype=np.int64))
    prefix = _flat_positions(key, shape[:n])
    target = (prefix.reshape(-1, 1) * rest + xp.arange(rest)).reshape(-1)
    values = xp.broadcast_to(u, prefix.shape + tuple(shape[n:])).reshape(-1)
    by_value = xp.argsort(values, kind='stable')
    order = by_value[xp.argsort(target[by_value], kind='stable')]   # by position, then value
    t, v = target[order], values[order]
    edge = t[1:] != t[:-1]
    end = xp.ones(1, bool)
    pick = xp.concatenate([edge, end]) if largest else xp.concatenate([end, edge])
    y = xp.full(int(np.prod(shape, dtype=np.int64)), fill, u.dtype)
    y[t[pick]] = v[pick]
    if u.dtype.kind == 'f':
        nan = xp.zeros(y.size, bool)
        nan[target[xp.isnan(values)]] = True
        y = xp.where(nan, xp.asarray(np.nan, u.dtype), y)
    return y.reshape(shape)


def _flat_positions(key, shape):
    """The row-major positions that the index arrays ``key`` address in an array of
    ``shape`` (broadcast together)."""
    flat = key[0].astype(np.int64)
    for k, n in zip(key[1:], shape[1:]):
        flat = flat * n + k
    return flat


def _segment_products(xp, runs, v):
    """Inclusive running products of the rows of ``v`` within runs of equal ``runs`` (sorted),
    by doubling: log2(n) whole-array steps, no loop over the values."""
    n = runs.shape[0]
    lift = (-1,) + (1,) * (v.ndim - 1)
    k = 1
    while k < n:
        same = (runs[k:] == runs[:-k]).reshape(lift)
        v = xp.concatenate([v[:k], xp.where(same, v[k:] * v[:-k], v[k:])])
        k *= 2
    return v


def _exclusive(xp, runs, inclusive):
    """Running products within runs that leave each row out (1 at a run's start)."""
    lift = (-1,) + (1,) * (inclusive.ndim - 1)
    same = (runs[1:] == runs[:-1]).reshape(lift)
    one = xp.ones((1,) + inclusive.shape[1:], inclusive.dtype)
    return xp.concatenate([one, xp.where(same, inclusive[:-1], 1)])


def _device_product(ctx, u, key, shape):
    """ScatterProduct's forward on a device, whose ``multiply.at`` CuPy lacks: the updates
    sorted by position, multiplied within each position's run (``_segment_products``), and
    each position given its run's product. When recording, each update's gradient factor
    (the product of the others at its position) comes from the products before and after it."""
    xp = ctx.xp
    depth = len(key)
    rest = tuple(shape[depth:])
    flat = _flat_positions(key, shape).reshape(-1)
    n = flat.shape[0]
    v = u.reshape((n,) + rest)
    order = xp.argsort(flat, kind='stable')
    runs = flat[order]
    inclusive = _segment_products(xp, runs, v[order])
    m = int(np.prod(shape[:depth]))
    last = xp.full(m, -1, order.dtype)
    xp.maximum.at(last, runs, xp.arange(n))
    picked = inclusive[xp.maximum(last, 0)]
    y = xp.where((last >= 0).reshape((-1,) + (1,) * len(rest)), picked, 1).astype(u.dtype)
    if ctx.recording:
        before = _exclusive(xp, runs, inclusive)
        after = _exclusive(xp, runs[::-1], _segment_products(xp, runs[::-1], v[order][::-1]))
        others = xp.empty_like(v)
        others[order] = before * after[::-1]
        ctx.save(others.reshape(u.shape))
        ctx.key, ctx.n_indices, ctx.repeated, ctx.positions = key, len(key), None, runs
    return y.reshape(shape)


# ------------------------------------------------------------------------------ checks
def _index_tensor(index, name, what, like):
    """An integer index Tensor on the device of the Tensor ``like`` it addresses."""
    t = index if isinstance(index, Tensor) else tensor_on(index, like, what)
    if t._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.{name}: {what} must be an Int32 or Int64 tensor, got {t.dtype}")
    return follow(t, like)


def _axis(axis, ndim, name):
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"ops.{name}: axis must be an int, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"ops.{name}: axis {axis} is out of range for a tensor of rank {ndim}")
    return int(axis) % ndim


def _bounded(index, size, name, what='index'):
    """``index`` (array) with negative entries counted from the end; IndexError when any is
    outside [-size, size). The check reads the values, so it runs on the host only: on a
    device an index out of range is not diagnosed (as CuPy's indexing does not)."""
    if type(index) is np.ndarray and index.size and \
            (index.min() < -size or index.max() >= size):
        bad = index[(index < -size) | (index >= size)].ravel()[0]
        raise IndexError(f"ops.{name}: {what} {bad} is out of range for a dimension of size "
                         f"{size}")
    return np.where(index < 0, index + size, index)


def _element_index(x, index, axis, name):
    """The checked index Tensor of an element-wise gather/scatter along ``axis``, negative
    entries counted from the end. It stays ``index`` itself, or is computed from it by ops, so a
    compiled call reads each call's index (a host-made array would replay the first one)."""
    if index.ndim != x.ndim:
        raise ValueError(f"ops.{name}: index must have the rank of input ({x.ndim}), got shape "
                         f"{index.shape}")
    for k, (n, m) in enumerate(zip(index.shape, x.shape)):
        if k != axis and n > m:
            raise ValueError(f"ops.{name}: index of shape {index.shape} is larger than input of "
                             f"shape {x.shape} outside axis {axis}")
    arr, size = index._data, x.shape[axis]
    _bounded(arr, size, name)
    if type(arr) is np.ndarray and not (arr.size and arr.min() < 0):
        return index
    return add(index, mul(cast(lt(index, 0), arr.dtype), size))


# ------------------------------------------------------------------------------ element-wise
def gather_elements(input, dim, index):
    """``y[i][j][k] = input[index[i][j][k]][j][k]`` for ``dim`` 0 (and so on): elements of
    ``input`` picked along ``dim`` by an index tensor of the same rank.

    Raises:
        TypeError: for a non-integer index.
        ValueError: for a rank that differs or an index larger than the input off ``dim``.
        IndexError: for an index out of range.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> ms.ops.gather_elements(x, 1, ms.Tensor([[0, 0], [1, 2]])).tolist()
    [[1.0, 1.0], [5.0, 6.0]]
    """
    x = as_tensor(input)
    idx = _index_tensor(index, 'gather_elements', 'index', x)
    axis = _axis(dim, max(x.ndim, 1), 'gather_elements')
    return GatherElements.apply(x, _element_index(x, idx, axis, 'gather_elements'), axis=axis)


def gather_d(x, dim, index):
    """``ops.gather_elements``: the elements of x at ``index`` along ``dim``."""
    return gather_elements(x, dim, index)


def scatter(input, axis, index, src):
    """``input`` with ``src[i][j]`` written at ``[index[i][j]][j]`` for axis 0 (and so on):
    the element-wise scatter, the last write winning where an index repeats.

    Raises:
        TypeError: for a non-integer index.
        ValueError: when index and src shapes differ or ranks do not match.
        IndexError: for an index out of range.
    """
    return tensor_scatter_elements(input, index, src, axis, 'none')


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction='none'):
    """``input_x`` with ``updates`` written (``reduction='none'``) or added (``'add'``) at
    ``indices`` along ``axis``, element by element.

    Raises:
        ValueError: for another reduction, shapes that do not match or an axis out of range.
        IndexError: for an index out of range.
    """
    name = 'tensor_scatter_elements'
    if reduction not in ('none', 'add'):
        raise ValueError(f"ops.{name}: reduction must be 'none' or 'add', got {reduction!r}")
    x = as_tensor(input_x, 'input_x')
    idx = _index_tensor(indices, name, 'indices', x)
    src = tensor_on(updates, x, 'updates')
    if src.shape != idx.shape:
        raise ValueError(f"ops.{name}: updates of shape {src.shape} must have the shape of "
                         f"indices {idx.shape}")
    ax = _axis(axis, max(x.ndim, 1), name)
    arr = _element_index(x, idx, ax, name)
    if src._data.dtype != x._data.dtype:
        src = cast(src, x._data.dtype)
    if reduction == 'add':
        return add(x, ScatterAddElements.apply(src, arr, shape=x.shape, axis=ax))
    return ScatterElements.apply(x, src, arr, axis=ax)


# ------------------------------------------------------------------------------ n-d indices
def _nd_key(indices, shape, name, like):
    """The last axis of ``indices`` split into one index tensor per addressed dimension,
    bounds-checked (on the host: see ``_bounded``), as (template, index tensors) for
    GetItem/SetItem/Unindex, on the device of the Tensor ``like``."""
    idx = _index_tensor(indices, name, 'indices', like)
    if idx.ndim == 0:
        raise ValueError(f"ops.{name}: indices must have rank >= 1, got shape ()")
    depth = idx.shape[-1]
    if depth > len(shape):
        raise ValueError(f"ops.{name}: indices of shape {idx.shape} address {depth} dimensions, "
                         f"but the tensor has shape {tuple(shape)}")
    columns = []
    for k in range(depth):
        column = idx._data[..., k]
        if type(column) is np.ndarray and column.size and \
                (column.min() < 0 or column.max() >= shape[k]):
            bad = idx._data.reshape(-1, depth)[((column < 0) | (column >= shape[k])).ravel()][0]
            raise IndexError(f"ops.{name}: indices {bad.tolist()} do not index into a tensor of "
                             f"shape {tuple(shape)}")
        columns.append(Tensor._wrap(column))
    return tuple(KeyInput(k) for k in range(depth)), columns


def gather_nd(input_x, indices):
    """Slices of ``input_x`` at the n-d positions in the last axis of ``indices``: the result
    has shape ``indices.shape[:-1] + input_x.shape[indices.shape[-1]:]``.

    Raises:
        IndexError: for a position outside the input (negative entries included).
    """
    x = as_tensor(input_x, 'input_x')
    template, columns = _nd_key(indices, x.shape, 'gather_nd', x)
    return GetItem.apply(x, *columns, key=template)


def _updates(updates, idx_shape, shape, depth, dtype, name, like):
    u = tensor_on(updates, like, 'updates')
    want = tuple(idx_shape[:-1]) + tuple(shape[depth:])
    if u.shape != want:
        raise ValueError(f"ops.{name}: updates must have shape {want} (indices.shape[:-1] + "
                         f"shape[indices.shape[-1]:]), got {u.shape}")
    return u if dtype is None or u._data.dtype == dtype else cast(u, dtype)


def scatter_nd(indices, updates, shape):
    """Zeros of ``shape`` with ``updates`` added at the n-d positions of ``indices`` (repeated
    positions add up).

    Raises:
        ValueError: when updates do not have shape ``indices.shape[:-1] + shape[depth:]``.
        IndexError: for a position outside ``shape``.

    >>> import hookgrad as ms
    >>> ms.ops.scatter_nd(ms.Tensor([[0], [0], [2]]), ms.Tensor([1.0, 2.0, 5.0]), (4,)).tolist()
    [3.0, 0.0, 5.0, 0.0]
    """
    from .shaping import _int_tuple
    shape = _int_tuple(shape, 'scatter_nd', 'shape')
    # the result lives with the updates; indices given elsewhere follow them
    data = updates if isinstance(updates, Tensor) else \
        indices if isinstance(indices, Tensor) else as_tensor(updates, 'updates')
    idx = _index_tensor(indices, 'scatter_nd', 'indices', data)
    template, columns = _nd_key(idx, shape, 'scatter_nd', data)
    u = _updates(updates, idx.shape, shape, len(columns), None, 'scatter_nd', data)
    return unindex(u, shape, tuple(columns))


def _scatter_parts(input_x, indices, updates, name):
    x = as_tensor(input_x, 'input_x')
    idx = _index_tensor(indices, name, 'indices', x)
    template, columns = _nd_key(idx, x.shape, name, x)
    u = _updates(updates, idx.shape, x.shape, len(columns), x._data.dtype, name, x)
    return x, template, columns, u


def tensor_scatter_update(input_x, indices, updates):
    """``input_x`` with ``updates`` written at the n-d positions of ``indices`` (on repeats the
    last write wins; every copy receives its gradient)."""
    x, template, columns, u = _scatter_parts(input_x, indices, updates, 'tensor_scatter_update')
    return SetItem.apply(x, u, *columns, key=template)


def tensor_scatter_add(input_x, indices, updates):
    """``input_x`` with ``updates`` added at the n-d positions of ``indices``."""
    x, template, columns, u = _scatter_parts(input_x, indices, updates, 'tensor_scatter_add')
    return AddAt.apply(x, u, *columns, key=template)


def tensor_scatter_sub(input_x, indices, updates):
    """``input_x`` with ``updates`` subtracted at the n-d positions of ``indices``."""
    x, _, columns, u = _scatter_parts(input_x, indices, updates, 'tensor_scatter_sub')
    return sub(x, unindex(u, x.shape, tuple(columns)))


def tensor_scatter_mul(input_x, indices, updates):
    """``input_x`` multiplied by ``updates`` at the n-d positions of ``indices``."""
    x, _, columns, u = _scatter_parts(input_x, indices, updates, 'tensor_scatter_mul')
    return mul(x, ScatterProduct.apply(u, *columns, shape=x.shape))


def tensor_scatter_div(input_x, indices, updates):
    """``input_x`` divided by ``updates`` at the n-d positions of ``indices``.

    Integer tensors (int16/32/64, uint16/32/64) divide with truncation toward zero, one update
    at a time in index order, and carry no gradient.

    Raises:
        TypeError: for a bool, int8 or uint8 input_x.
        ValueError: for an integer division by zero.
    """
    x, _, columns, u = _scatter_parts(input_x, indices, updates, 'tensor_scatter_div')
    kind, size = x._data.dtype.kind, x._data.dtype.itemsize
    if kind not in 'fV' and (kind not in 'iu' or size < 2):
        raise TypeError(f"ops.tensor_scatter_div: input_x must be a floating tensor or an "
                        f"integer tensor of 16 bits or more, got {from_numpy(x._data.dtype)}")
    return scatter_divide(x, columns, u, 'tensor_scatter_div')


def scatter_divide(x, columns, u, name):
    """x divided by u at the positions of the index tensors ``columns``; integers (any width)
    divide in index order with truncation, floats by the product of their updates."""
    if x._data.dtype.kind in 'fV':
        return mul(x, ScatterProduct.apply(reciprocal(u), *columns, shape=x.shape))
    d = u._data
    if d.size and bool((d == 0).any()):
        raise ValueError(f"ops.{name}: integer updates must not contain 0")
    return Tensor._wrap(_truncating_divide_in_order(
        x._data, tuple(c._data for c in columns), d))


def _truncating_divide_in_order(x, key, u):
    """A copy of the integer array x with x[key] divided (toward zero) by u, in rounds: round r
    divides by each position's r-th update (in index order), the positions of a round distinct."""
    xp = backend.array_module(x)
    depth = len(key)
    rest = x.shape[depth:]
    pos = _flat_positions(key, x.shape).reshape(-1)
    v = xp.broadcast_to(u, key[0].shape + rest).reshape((pos.shape[0],) + rest)
    y = x.copy().reshape((-1,) + rest)
    order = xp.argsort(pos, kind='stable')
    runs = pos[order]
    n = runs.shape[0]
    if not n:
        return y.reshape(x.shape)
    rank = xp.arange(n) - xp.searchsorted(runs, runs)     # the place within a run
    for r in range(int(rank.max()) + 1):
        pick = order[rank == r]
        at, by = pos[pick], v[pick]
        num = y[at]
        q = num // by
        inexact = (q * by != num) & ((num < 0) != (by < 0))
        y[at] = xp.where(inexact, q + 1, q)
    return y.reshape(x.shape)


def tensor_scatter_max(input_x, indices, updates):
    """``input_x`` with each addressed element the maximum of it and the updates sent to it."""
    x, _, columns, u = _scatter_parts(input_x, indices, updates, 'tensor_scatter_max')
    return maximum(x, ScatterExtreme.apply(u, *columns, shape=x.shape, largest=True))


def tensor_scatter_min(input_x, indices, updates):
    """``input_x`` with each addressed element the minimum of it and the updates sent to it."""
    x, _, columns, u = _scatter_parts(input_x, indices, updates, 'tensor_scatter_min')
    return minimum(x, ScatterExtreme.apply(u, *columns, shape=x.shape, largest=False))


def scatter_nd_values(input_x, indices, updates, name):
    """(x, columns, updates) checked for an n-d scatter: what the in-place forms write."""
    x, _, columns, u = _scatter_parts(input_x, indices, updates, name)
    return x, columns, u

