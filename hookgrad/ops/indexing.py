"""Indexing and selection: getitem/setitem (``x[key]``), take/gather, where and masked_fill.

Reading ``x[key]`` and scattering a gradient back into zeros (``unindex``) are each other's
adjoints, as are ``take`` and ``untake``; each pair is two primitives whose backward calls the
other, so gradients of any order come out of the same two rules.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op, effect, value_read
from ..autograd.state import grad_enabled as _grad_enabled
from ..autograd.math import array_math
from ..kernels import backend
from ._base import as_tensor, operands, scalar_like
from .arithmetic import cast
from .creation import tensor_on

_BASIC = frozenset((int, slice, type(None), type(Ellipsis)))


# Index arrays that come from Tensors are inputs of the indexing ops, not parameters: ``key`` is
# a template whose ``KeyInput(i)`` entries stand for the i-th index input, so a recorded program
# (hookgrad/jit) feeds each call its own indices.
class GetItem(Op):
    """y = x[key] (NumPy basic and advanced indexing); the gradient is scattered back, adding
    repeated positions."""
    shape_from_values = True        # a boolean mask selects as many elements as it holds True

    @staticmethod
    def forward(ctx, x, *indices, key):
        if indices:
            key = _filled(key, indices)
        if ctx.recording:
            ctx.key, ctx.in_shape, ctx.n_indices = key, x.shape, len(indices)
        y = x[key]
        return y if type(y) is np.ndarray else ctx.xp.asarray(y)

    @staticmethod
    def backward(ctx, gy):
        return (ctx.m.unindex(gy, ctx.in_shape, ctx.key),) + (None,) * ctx.n_indices


class Unindex(Op):
    """y = zeros(shape) with g added at ``key`` (the adjoint of x[key]); its gradient is gy[key]."""
    @staticmethod
    def forward(ctx, g, *indices, shape, key):
        if indices:
            key = _filled(key, indices)
        if ctx.recording:
            ctx.key, ctx.n_indices = key, len(indices)
        return array_math.unindex(g, shape, key)

    @staticmethod
    def backward(ctx, gy):
        return (ctx.m.getitem(gy, ctx.key),) + (None,) * ctx.n_indices


class SetItem(Op):
    """y = x with y[key] = value; x's gradient is gy zeroed at key, value's is gy[key].

    With repeated indices NumPy keeps one write, but every copy receives gy at its position.
    """
    @staticmethod
    def forward(ctx, x, value, *indices, key):
        if indices:
            key = _filled(key, indices)
        y = x.copy()
        y[key] = value
        if ctx.recording:
            keep = ctx.xp.ones(x.shape, np.bool_)
            keep[key] = False
            ctx.save(keep)
            ctx.key, ctx.n_indices = key, len(indices)
        return y

    @staticmethod
    def backward(ctx, gy):
        (keep,) = ctx.saved
        m = ctx.m
        gx = m.where(keep, gy, 0) if ctx.needs_grad(0) else None
        gv = m.getitem(gy, ctx.key) if ctx.needs_grad(1) else None
        return (gx, gv) + (None,) * ctx.n_indices


class Take(Op):
    """y = np.take(x, indices, axis); the gradient is added back at the indices."""
    @staticmethod
    def forward(ctx, x, indices, axis):
        if ctx.recording:
            ctx.indices, ctx.axis, ctx.in_shape = indices, axis, x.shape
        return np.take(x, indices, axis)

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.untake(gy, ctx.in_shape, ctx.indices, ctx.axis), None


class Untake(Op):
    """y = zeros(shape) with g added at ``indices`` along ``axis``; its gradient is a take."""
    @staticmethod
    def forward(ctx, g, indices, shape, axis):
        if ctx.recording:
            ctx.indices, ctx.axis = indices, axis
        return array_math.untake(g, shape, indices, axis)

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.take(gy, ctx.indices, ctx.axis), None


class Where(Op):
    """y = x where condition else y (broadcast); each branch gets gy where it was chosen."""
    @staticmethod
    def forward(ctx, condition, x, y):
        ctx.save(condition)
        return np.where(condition, x, y)

    @staticmethod
    def backward(ctx, gy):
        (c,) = ctx.saved
        m = ctx.m
        gx = m.where(c, gy, 0) if ctx.needs_grad(1) else None
        gz = m.where(c, 0, gy) if ctx.needs_grad(2) else None
        return None, gx, gz


# ------------------------------------------------------------------------------ keys
class KeyInput:
    """In a key template, the place of the i-th index input of an indexing op."""

    __slots__ = ('i',)

    def __init__(self, i):
        self.i = i

    def __repr__(self):
        return f"KeyInput({self.i})"


def _key(index, x):
    """An index with every Tensor and list replaced by an array on the device of the Tensor
    ``x`` it indexes (what ``x._data[key]`` takes)."""
    template, tensors = _split_key(index, x)
    return _filled(template, [t._data for t in tensors]) if tensors else template


def _split_key(index, x):
    """``(template, index tensors)``: the Tensors of an index become op inputs, stood for by
    ``KeyInput`` in the template; lists become arrays. Index arrays and Tensors go to the
    device of the Tensor ``x`` the key indexes (indices given on the host follow the data)."""
    t = type(index)
    if t in _BASIC:
        return index, ()
    tensors = []
    if t is tuple:
        if all(type(i) in _BASIC for i in index):
            return index, ()
        template = tuple(_key_item(i, tensors) for i in index)
    else:
        template = _key_item(index, tensors)
    if type(x._data) is not np.ndarray:
        return _on_device(template, tensors, x)
    return template, tensors


def follow(t, x):
    """The index Tensor ``t`` on the device of the Tensor ``x`` it indexes: indices given on
    another device (the host) follow the data, through a differentiable move."""
    if type(t._data) is type(x._data):
        return t
    from .device import MoveTo
    return MoveTo.apply(t, device=backend.device_of(x._data))


def _on_device(template, tensors, x):
    """A key template and its index Tensors moved to the device of ``x``."""
    device = backend.device_of(x._data)
    tensors = [follow(t, x) for t in tensors]

    def put(k):
        return backend.to_device(k, device) if isinstance(k, np.ndarray) else k
    template = tuple(map(put, template)) if type(template) is tuple else put(template)
    return template, tensors


def _key_item(i, tensors):
    if isinstance(i, Tensor):
        tensors.append(i)
        return KeyInput(len(tensors) - 1)
    if isinstance(i, list):
        parts = [v for v in i if isinstance(v, Tensor)]
        for v in parts:
            value_read(v)       # a list of Tensors is built into one array from their values
        a = np.asarray([backend.to_host(v._data) if isinstance(v, Tensor) else v for v in i])
        return a.astype(np.intp) if a.size == 0 else a
    return i


def _filled(template, indices):
    """The key a template stands for, with its ``KeyInput`` places filled from ``indices``."""
    if type(template) is tuple:
        return tuple(indices[k.i] if type(k) is KeyInput else k for k in template)
    return indices[template.i] if type(template) is KeyInput else template


def _describe(index):
    """A short text for an index in error messages (arrays by shape when large)."""
    if isinstance(index, tuple):
        return '(' + ', '.join(_describe(i) for i in index) + (',)' if len(index) == 1 else ')')
    if isinstance(index, Tensor):
        index = index._data
    if backend.is_device_array(index):
        index = backend.to_host(index)      # an error message: a host read is fine
    if isinstance(index, np.ndarray):
        if index.size <= 8:
            return repr(index.tolist())
        return f"<{index.dtype} array of shape {index.shape}>"
    if index is Ellipsis:
        return '...'
    if isinstance(index, slice):
        parts = ['' if v is None else str(v) for v in (index.start, index.stop, index.step)]
        return ':'.join(parts[:2] if index.step is None else parts)
    return repr(index)


def _indices(indices, name, x):
    """Integer indices as a Tensor (an input of the op that uses them) on the device of the
    Tensor ``x`` they index."""
    if isinstance(indices, Tensor):
        t = follow(indices, x)
    else:
        a = indices if backend.is_device_array(indices) else np.asarray(indices)
        if type(a) is not type(x._data):
            a = backend.to_device(a, backend.device_of(x._data))
        t = Tensor._wrap(a)
    a = t._data
    if a.dtype.kind not in 'iu':
        if a.size == 0:
            return Tensor._wrap(a.astype(np.intp))
        raise TypeError(f"ops.{name}: indices must be integers, got dtype {a.dtype}")
    return t


def _axis(axis, ndim, name):
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"ops.{name}: axis must be an int, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"ops.{name}: axis {axis} is out of range for a tensor of rank {ndim}")
    return int(axis) % ndim


class GatherIndexError(IndexError, RuntimeError):
    """An index of ``ops.gather`` out of its axis: an IndexError, and the RuntimeError MindSpore's
    Gather kernel raises for it, with MindSpore's sentence first."""


def _range_error(x, idx, axis, name, cause):
    """The error for an index out of range; for gather MindSpore's words lead: the first bad
    index, a negative one counted once from the end as its kernel reports it."""
    message = (f"ops.{name}: index out of range for axis {axis} of a tensor of shape "
               f"{x.shape}: {cause}")
    if name != 'gather':
        return IndexError(message)
    n = x.shape[axis] if x.ndim else 1
    flat = backend.to_host(idx._data).reshape(-1).astype(np.int64)
    shifted = np.where(flat < 0, flat + n, flat)
    bad = shifted[(shifted < 0) | (shifted >= n)]
    got = int(bad[0]) if bad.size else cause
    return GatherIndexError(f"For 'Gather', the 'input_indices' should be in the range [0, {n}), "
                            f"but got {got} ({message})")


def _take(x, idx, axis, name):
    try:
        return Take.apply(x, idx, axis=axis)
    except IndexError as e:
        raise _range_error(x, idx, axis, name, e) from None


# ------------------------------------------------------------------------------ public
def getitem(x, index):
    """``x[index]`` with NumPy's basic and advanced indexing; Tensors may serve as indices.

    Raises:
        IndexError: for an index out of range or of an unsupported type (names index and shape).

    >>> import hookgrad as ms
    >>> ms.Tensor([[1, 2], [3, 4]])[:, 1].tolist()
    [2, 4]
    """
    x = as_tensor(x, 'x')
    key, indices = _split_key(index, x)
    try:
        return GetItem.apply(x, *indices, key=key)
    except IndexError as e:
        raise IndexError(f"ops.getitem: index {_describe(index)} is invalid for a tensor of shape "
                         f"{x.shape}: {e}") from None


def setitem(x, index, value):
    """``x[index] = value`` (``Tensor.__setitem__``); ``value`` (Tensor or number) broadcasts.

    On a tensor in a graph (a non-leaf, or a constant receiving a value that requires grad, with
    grad mode on) the write is recorded and ``x`` is rebound to the result, so gradients flow to
    the untouched part of the old ``x`` and to ``value``. Otherwise (leaves, Parameters included,
    or grad mode off) the values are written in place without recording.

    Raises:
        IndexError: for an index out of range.
        ValueError: when ``value`` does not broadcast to ``x[index]``.
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.setitem: x must be a Tensor, got {type(x).__name__}")
    if not isinstance(value, (Tensor, bool, int, float)):
        _check_value(value)
    if _grad_enabled() and (x._node is not None or (
            not x.requires_grad and isinstance(value, Tensor) and value.requires_grad)):
        _record_setitem(x, index, value)
        return
    effect(_write, x, index, value)


def _check_value(value):
    """Refuse values NumPy would write as NaN or garbage (None, strings, objects)."""
    if isinstance(value, (np.ndarray, np.generic, list, tuple)):
        dtype = np.asarray(value).dtype
        if dtype.kind in 'biufV':
            return
        raise TypeError(f"ops.setitem: value must be a Tensor, a number or an array of numbers, "
                        f"got {type(value).__name__} of dtype {dtype}")
    raise TypeError(f"ops.setitem: value must be a Tensor, a number or an array of numbers, "
                    f"got {value!r}")


def _float32_write(value, index, dtype):
    """A Python float written into a Float64 or Complex128 tensor through ints and slices
    alone, as MindSpore writes it: a float32 value (``x[0] = 0.1`` stores 0.10000000149011612);
    through a mask or index tensor it keeps every digit, as there."""
    if not isinstance(value, float) or dtype.itemsize < 8 or dtype.kind not in 'fc':
        return value
    parts = index if isinstance(index, tuple) else (index,)
    if any(not isinstance(p, (int, slice, type(Ellipsis), type(None))) or isinstance(p, bool)
           for p in parts):
        return value
    with np.errstate(over='ignore'):
        return float(np.float32(value))


def _write(x, index, value):
    """``x[index] = value`` in place, without recording."""
    key = _key(index, x)
    arr = x._data
    value = _float32_write(value, index, arr.dtype)
    if type(arr) is np.ndarray:
        if not arr.flags.writeable:
            arr = np.array(arr)
    elif backend.is_device_array(arr):
        # CuPy's arrays have no writeable flag; a broadcast view would take one write many times
        if arr.size > 1 and 0 in arr.strides:
            arr = arr.copy()
        value = _device_value(value, arr)
    else:
        arr = np.array(arr)
    try:
        arr[key] = value._data if isinstance(value, Tensor) else value
    except IndexError as e:
        raise IndexError(f"ops.setitem: index {_describe(index)} is invalid for a tensor of shape "
                         f"{x.shape}: {e}") from None
    except ValueError:
        raise _value_error(x, index, key, value) from None
    x._data = arr


def _device_value(value, arr):
    """A value written into the device array ``arr``, on its device (host data uploaded)."""
    device = backend.device_of(arr)
    if isinstance(value, Tensor):
        return backend.to_device(value._data, device)
    if isinstance(value, (np.ndarray, np.generic, list, tuple)):
        return backend.to_device(np.asarray(value), device)
    return value


def _indexed_shape(a, key):
    """The shape of ``a[key]``, found on a broadcast view of one value (nothing copied)."""
    if type(a) is np.ndarray:
        return np.broadcast_to(np.int8(0), a.shape)[key].shape
    xp = backend.array_module(a)
    return xp.broadcast_to(xp.zeros((), np.int8), a.shape)[key].shape


def _value_error(x, index, key, value):
    target = _indexed_shape(x._data, key)
    shape = value.shape if isinstance(value, Tensor) else np.shape(value)
    return ValueError(f"ops.setitem: cannot assign a value of shape {tuple(shape)} to "
                      f"x[{_describe(index)}] of shape {target}")


def _record_setitem(x, index, value):
    """Record ``x[index] = value`` as a SetItem node and rebind ``x`` to its output."""
    from .shaping import reshape
    template, indices = _split_key(index, x)
    key = _filled(template, [t._data for t in indices]) if indices else template
    if isinstance(value, (bool, int, float)):
        v = scalar_like(_float32_write(value, index, x._data.dtype), x, exact=True)
    else:
        v = tensor_on(value, x, 'value')
    if v._data.dtype != x._data.dtype:
        v = cast(v, x._data.dtype)
    try:
        target = _indexed_shape(x._data, key)
    except IndexError as e:
        raise IndexError(f"ops.setitem: index {_describe(index)} is invalid for a tensor of shape "
                         f"{x.shape}: {e}") from None
    if v.ndim:
        lead = v.ndim - len(target)
        if lead > 0 and all(s == 1 for s in v.shape[:lead]):
            v = reshape(v, v.shape[lead:])      # NumPy drops leading 1s; so does the gradient
        try:
            ok = np.broadcast_shapes(v.shape, target) == target
        except ValueError:
            ok = False
        if not ok:
            raise _value_error(x, index, key, value)
    y = SetItem.apply(x, v, *indices, key=template)
    x._data, x._node, x._index, x.requires_grad = y._data, y._node, y._index, y.requires_grad


def take(x, indices, axis=None):
    """Elements of ``x`` at ``indices`` along ``axis`` (of the flattened ``x`` when None),
    as ``np.take``; negative indices count from the end.

    Raises:
        IndexError: for an index out of range.
    """
    x = as_tensor(x, 'x')
    idx = _indices(indices, 'take', x)
    if axis is None:
        from .shaping import reshape
        x = reshape(x, (-1,))
        axis = 0
    else:
        axis = _axis(axis, max(x.ndim, 1), 'take')
    return _take(x, idx, axis, 'take')


def unindex(g, shape, key):
    """Zeros of ``shape`` with ``g`` added at ``key``: the adjoint of ``x[key]``, differentiable."""
    g = as_tensor(g, 'g')
    shape = _adjoint_shape(shape, 'unindex')
    template, indices = _split_key(key, g)
    try:
        return Unindex.apply(g, *indices, shape=shape, key=template)
    except (IndexError, ValueError, TypeError) as e:
        raise type(e)(f"ops.unindex: g of shape {g.shape} cannot be added at key "
                      f"{_describe(key)} of a tensor of shape {shape}: {e}") from None


def untake(g, shape, indices, axis):
    """Zeros of ``shape`` with ``g`` added at ``indices`` along ``axis``: the adjoint of take."""
    g = as_tensor(g, 'g')
    shape = _adjoint_shape(shape, 'untake')
    idx = _indices(indices, 'untake', g)
    axis = _axis(axis, max(len(shape), 1), 'untake')
    try:
        return Untake.apply(g, idx, shape=shape, axis=axis)
    except (IndexError, ValueError) as e:
        raise type(e)(f"ops.untake: g of shape {g.shape} cannot be added at indices of shape "
                      f"{tuple(idx.shape)} along axis {axis} of a tensor of shape {shape}: "
                      f"{e}") from None


def _adjoint_shape(shape, name):
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 0
            for n in shape):
        raise TypeError(f"ops.{name}: shape must be a tuple of non-negative ints, got {shape!r}")
    return tuple(int(n) for n in shape)


def gather(input_params, input_indices, axis, batch_dims=0):
    """Slices of ``input_params`` at ``input_indices`` along ``axis``.

    The result has shape ``params.shape[:axis] + indices.shape[batch_dims:] +
    params.shape[axis + 1:]``; with ``batch_dims`` the leading dimensions of params and indices
    are paired (one index set per batch item).

    Raises:
        IndexError: for an index out of range (a GatherIndexError, also a RuntimeError as
            MindSpore's, whose message MindSpore's leads).
        ValueError: for an axis out of range or batch dimensions that do not match.

    >>> import hookgrad as ms
    >>> ms.ops.gather(ms.Tensor([10, 20, 30]), ms.Tensor([2, 0, 2]), 0).tolist()
    [30, 10, 30]
    """
    x = as_tensor(input_params, 'input_params')
    idx = _indices(input_indices, 'gather', x)
    axis = _axis(axis, max(x.ndim, 1), 'gather')
    if isinstance(batch_dims, bool) or not isinstance(batch_dims, (int, np.integer)):
        raise TypeError(f"ops.gather: batch_dims must be an int, got {batch_dims!r}")
    # a negative batch_dims counts from the rank of the indices (MindSpore): -rank is 0
    k = int(batch_dims) + idx.ndim if batch_dims < 0 else int(batch_dims)
    if k == 0:
        return _take(x, idx, axis, 'gather')
    return _batched_gather(x, idx, axis, batch_dims, k)


def _batched_gather(x, idx, axis, batch_dims, k):
    """gather with ``k`` leading dimensions shared by params and indices."""
    from .shaping import transpose
    if not 0 <= k <= min(axis, idx.ndim) or x.shape[:k] != idx.shape[:k]:
        raise ValueError(f"ops.gather: batch_dims {batch_dims} does not fit params of shape "
                         f"{x.shape}, indices of shape {idx.shape} and axis {axis}")
    ni = idx.ndim
    xp = backend.array_module(x._data)
    # one broadcasting arange per batch dimension pairs each batch item with its indices
    key = tuple(xp.arange(n).reshape((1,) * j + (n,) + (1,) * (ni - j - 1))
                for j, n in enumerate(x.shape[:k]))
    key += (slice(None),) * (axis - k) + (KeyInput(0),)
    try:
        y = GetItem.apply(x, idx, key=key)
    except IndexError as e:
        raise _range_error(x, idx, axis, 'gather', e) from None
    mid = axis - k
    if mid == 0:
        return y
    # NumPy put the index dimensions first (the indices are separated by slices): move the
    # dimensions between the batch and ``axis`` back in front of them
    perm = (tuple(range(k)) + tuple(range(ni, ni + mid)) + tuple(range(k, ni))
            + tuple(range(ni + mid, y.ndim)))
    return transpose(y, perm)


def index_select(input, axis, index):
    """Slices of ``input`` along ``axis`` at the positions in the 1-D ``index``.

    Raises:
        ValueError: when ``index`` is not 1-D.
        IndexError: for an index out of range.
    """
    x = as_tensor(input)
    idx = _indices(index, 'index_select', x)
    if idx.ndim == 0:
        idx = idx.reshape(1)
    elif idx.ndim != 1:
        raise ValueError(f"ops.index_select: index must be 1-D, got shape {idx.shape}")
    return _take(x, idx, _axis(axis, max(x.ndim, 1), 'index_select'), 'index_select')


def _condition(condition, like):
    c = condition if isinstance(condition, Tensor) else tensor_on(condition, like, 'condition')
    if c._data.dtype != np.bool_:
        c = cast(c, np.bool_)
    return c


def where(condition, x, y):
    """Elements of ``x`` where ``condition`` holds, else of ``y`` (all three broadcast).

    ``x`` and ``y`` may be Python numbers; the gradient goes to ``x`` where the condition holds
    and to ``y`` elsewhere.

    Raises:
        ValueError: when the shapes do not broadcast together.

    >>> import hookgrad as ms
    >>> ms.ops.where(ms.Tensor([True, False]), ms.Tensor([1.0, 2.0]), 0.0).tolist()
    [1.0, 0.0]
    """
    if not isinstance(x, Tensor) and not isinstance(y, Tensor) and \
            isinstance(condition, Tensor):
        x = tensor_on(x, condition, 'x')        # numbers on the condition's device
    a, b = operands(x, y)
    c = _condition(condition, a)
    try:
        return Where.apply(c, a, b)
    except ValueError:
        raise ValueError(f"ops.where: shapes {c.shape} (condition), {a.shape} (x) and {b.shape} "
                         f"(y) cannot be broadcast together") from None


select = where


def masked_fill(input_x, mask, value):
    """``input_x`` with ``value`` (a number or 0-d Tensor) where ``mask`` is True.

    The gradient flows to ``input_x`` outside the mask and to a Tensor ``value`` summed inside.

    Raises:
        ValueError: when ``value`` is not 0-d or ``mask`` does not broadcast with ``input_x``.
    """
    x = as_tensor(input_x, 'input_x')
    m = _condition(mask, x)
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"ops.masked_fill: value must be a number or a 0-d Tensor, got shape "
                             f"{value.shape}")
        v = value
    else:
        v = scalar_like(value, x)
    if v._data.dtype != x._data.dtype:
        from .arithmetic import cast
        v = cast(v, x._data.dtype)
    try:
        return Where.apply(m, v, x)
    except ValueError:
        raise ValueError(f"ops.masked_fill: mask of shape {m.shape} does not broadcast with "
                         f"input_x of shape {x.shape}") from None
