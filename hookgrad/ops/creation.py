"""Tensor creation (fill, fills, ones, arange, one_hot, eye...), Python numbers as Tensors
(scalar_to_tensor, tuple_to_array, scalar_cast), stop_gradient and assign.

Created tensors are constants: they never require grad, and one_hot passes no gradient to
its on/off values (as MindSpore's OneHot).
"""
import numbers

import numpy as np

from .._dtype import bool_ as _bool, float32 as _float32, float64 as _float64, to_numpy
from .._dtype import int32 as _int32, int64 as _int64
from .._tensor import Tensor
from ..autograd.function import Op, effect, value_read
from ..kernels import backend
from ._base import as_tensor, check_size, dtype_arg

_F32 = np.dtype(np.float32)
_I64 = np.dtype(np.int64)


class OneHot(Op):
    """y[..., k, ...] = on if indices[...] == k else off, with the new axis of length depth."""
    differentiable = False

    @staticmethod
    def forward(ctx, indices, *, on, off, depth, axis, is_mask=False):
        shape = indices.shape
        classes = ctx.xp.arange(depth).reshape((depth,) + (1,) * (len(shape) - axis))
        hot = indices.reshape(shape[:axis] + (1,) + shape[axis:]) == classes
        if is_mask:         # on 1 and off 0 (known on the host): the mask is the result
            return hot.astype(on.dtype)
        return np.where(hot, on, off)


# ----------------------------------------------------------------------------- argument checks
def _shape(shape, name):
    """A shape given as an int, a sequence of ints or a 1-d integer Tensor, as a tuple."""
    if isinstance(shape, Tensor):
        if shape._data.dtype.kind not in 'iu' or shape.ndim > 1:
            raise TypeError(f"ops.{name}: a shape Tensor must be a 0-d or 1-d integer tensor, "
                            f"got shape {shape.shape} and dtype {shape.dtype}")
        value_read(shape)
        shape = shape._data.tolist()
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    elif isinstance(shape, (tuple, list)):
        for n in shape:
            if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
                raise TypeError(f"ops.{name}: shape must contain only ints, got {shape!r}")
    else:
        raise TypeError(f"ops.{name}: shape must be an int or a tuple of ints, got {shape!r}")
    shape = tuple(int(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"ops.{name}: shape {shape} has a negative dimension")
    return shape


def _number(value, name, what):
    """A Python number from a number or a one-element Tensor."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"ops.{name}: {what} must be a number or a one-element Tensor, "
                             f"got a Tensor of shape {value.shape}")
        value_read(value)
        return value._data.item()
    if isinstance(value, (bool, int, float, np.generic)):
        return value.item() if isinstance(value, np.generic) else value
    raise TypeError(f"ops.{name}: {what} must be a number, got {type(value).__name__}")


def _carries(value, dt):
    """Whether a fill ``value`` is a Tensor to spread with ops: its gradient reaches it, and a
    compiled program (jit, GRAPH_MODE) reads it on every call instead of running eagerly."""
    return isinstance(value, Tensor) and dt.kind != 'U'


def _spread(value, shape, dt, name, what):
    """A one-element Tensor ``value`` spread over ``shape`` in ``dt`` with ops, so that its
    gradient is the sum of the output's, as MindSpore's fill gives it."""
    if value.size != 1:
        raise ValueError(f"ops.{name}: {what} must be a number or a one-element Tensor, "
                         f"got a Tensor of shape {value.shape}")
    from .arithmetic import cast, mul
    from .shaping import reshape
    v = reshape(value, ())
    if v._data.dtype != dt:
        v = cast(v, dt)
    return mul(Tensor._wrap(backend.array_module(value._data).ones(shape, dt)), v)


def _count(value, name, what):
    """A non-negative int from an int or an integer one-element Tensor."""
    if isinstance(value, Tensor) and value._data.dtype.kind in 'iu' and value.size == 1:
        value_read(value)
        value = value._data.item()
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"ops.{name}: {what} must be an int, got {value!r}")
    if value < 0:
        raise ValueError(f"ops.{name}: {what} must be non-negative, got {value}")
    return int(value)


def _value_dtype(value):
    """The NumPy dtype MindSpore gives a fill value: a Tensor's own, Float32 for floats..."""
    if isinstance(value, Tensor):
        return value._data.dtype
    if isinstance(value, np.generic):
        return value.dtype
    if isinstance(value, bool):
        return np.dtype(np.bool_)
    if isinstance(value, int):
        return _I64
    return _F32


def tensor_on(value, like, name='input'):
    """``value`` as a Tensor on the device of the Tensor ``like``: a Tensor as it is; other data
    (numbers, lists, NumPy arrays) made a Tensor there, with ``as_tensor``'s dtype rules."""
    if isinstance(value, Tensor):
        return value
    device = backend.device_of(like._data)
    if backend.is_device_array(value):      # a saved array, in a rule run on Tensors
        return Tensor._wrap(backend.to_device(value, device))
    if device is backend.default():
        return as_tensor(value, name)
    with backend.default_device(device):
        return as_tensor(value, name)


# ----------------------------------------------------------------------------- filled tensors
def fill(type, shape, value):
    """A tensor of ``shape`` and dtype ``type`` with every element ``value``.

    >>> import hookgrad as ms
    >>> ms.ops.fill(ms.float32, (2,), 3)
    Tensor(shape=[2], dtype=Float32, value= [ 3.00000000e+00,  3.00000000e+00])
    """
    dt = dtype_arg(type, 'type')
    shape = _shape(shape, 'fill')
    check_size('fill', shape, dt.itemsize)
    if _carries(value, dt):
        return _spread(value, shape, dt, 'fill', 'value')
    return Tensor._wrap(backend.default().xp.full(shape, _number(value, 'fill', 'value'),
                                                  dtype=dt))


def full(size, fill_value, *, dtype=None):
    """A tensor of shape ``size`` filled with ``fill_value``, Int64 unless ``dtype`` is given
    (as MindSpore 2.10: ``full((2,), 1.2)`` is Int64 ones; ``mint.full`` infers the dtype from the
    value instead). A one-element Tensor ``fill_value`` gets the sum of the output's gradient,
    as MindSpore's (``fill`` and ``full_like`` too).

    >>> import hookgrad as ms
    >>> ms.ops.full((2,), 1.2)
    Tensor(shape=[2], dtype=Int64, value= [1, 1])
    """
    return _full(size, fill_value, _I64 if dtype is None else to_numpy(dtype), 'full')


def full_inferred(size, fill_value, *, dtype=None):
    """``mint.full``: the dtype of ``fill_value`` by default (Int64 for an int, Float32 for a
    float, Bool for a bool, a Tensor's own)."""
    return _full(size, fill_value, _value_dtype(fill_value) if dtype is None else to_numpy(dtype),
                 'full')


def _full(size, fill_value, dt, name):
    shape = _shape(size, name)
    check_size(name, shape, dt.itemsize)
    if _carries(fill_value, dt):
        return _spread(fill_value, shape, dt, name, 'fill_value')
    value = _number(fill_value, name, 'fill_value')
    with np.errstate(invalid='ignore'):     # NaN or out of range into ints: the CPU's cast, silent
        return Tensor._wrap(backend.default().xp.full(shape, value, dtype=dt))


def ones(shape, dtype=None):
    """A tensor of ones (Float32 unless ``dtype`` is given)."""
    shape, dt = _shape(shape, 'ones'), _F32 if dtype is None else to_numpy(dtype)
    check_size('ones', shape, dt.itemsize)
    return Tensor._wrap(backend.default().xp.ones(shape, dtype=dt))


def zeros(size, dtype=None):
    """A tensor of zeros of shape ``size`` (Float32 unless ``dtype`` is given)."""
    shape, dt = _shape(size, 'zeros'), _F32 if dtype is None else to_numpy(dtype)
    check_size('zeros', shape, dt.itemsize)
    return Tensor._wrap(backend.default().xp.zeros(shape, dtype=dt))


def ones_like(input, *, dtype=None):
    """Ones with the shape of ``input`` and its dtype (or ``dtype``)."""
    x = as_tensor(input)
    dt = x._data.dtype if dtype is None else to_numpy(dtype)
    check_size('ones_like', x._data.shape, dt.itemsize)
    return Tensor._wrap(backend.array_module(x._data).ones(x._data.shape, dt))


def zeros_like(input, *, dtype=None):
    """Zeros with the shape of ``input`` and its dtype (or ``dtype``)."""
    x = as_tensor(input)
    dt = x._data.dtype if dtype is None else to_numpy(dtype)
    check_size('zeros_like', x._data.shape, dt.itemsize)
    return Tensor._wrap(backend.array_module(x._data).zeros(x._data.shape, dt))


def full_like(input, fill_value, *, dtype=None):
    """``fill_value`` everywhere, with the shape of ``input`` and its dtype (or ``dtype``)."""
    x = as_tensor(input)
    dt = x._data.dtype if dtype is None else to_numpy(dtype)
    check_size('full_like', x._data.shape, dt.itemsize)
    if _carries(fill_value, dt):
        return _spread(fill_value, x._data.shape, dt, 'full_like', 'fill_value')
    return Tensor._wrap(backend.array_module(x._data).full(
        x._data.shape, _number(fill_value, 'full_like', 'fill_value'), dtype=dt))


def fills(x, value):
    """A Tensor of ``x``'s shape and dtype filled with ``value`` (a number or a 0-d Tensor)."""
    return filled_like(x, value, 'fills')


def filled_like(x, value, name):
    """``fills``, the errors naming op ``name`` (``ops.Fills`` calls it too)."""
    x = as_tensor(x, 'x')
    if isinstance(value, Tensor):
        if value.ndim:
            raise ValueError(f"ops.{name}: value must be a number or a 0-d Tensor, got "
                             f"shape {value.shape}")
        if value._data.dtype.kind not in 'iufV':
            raise TypeError(f"ops.{name}: value must be a number, got a Tensor of dtype "
                            f"{value.dtype}")
        # the value stays on its device: no read of it on the host
        value = backend.to_device(value._data, backend.device_of(x._data))
    elif isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ops.{name}: value must be a number, got {value!r}")
    check_size(name, x._data.shape, x._data.itemsize)
    return Tensor._wrap(backend.array_module(x._data).full(x._data.shape, value,
                                                           dtype=x._data.dtype))


# ----------------------------------------------------------------------------- Python numbers
def scalar_to_tensor(input_x, dtype=_float32):
    """A 0-d Tensor of ``dtype`` holding the number ``input_x``."""
    return number_tensor(input_x, dtype, 'scalar_to_tensor')


def number_tensor(input_x, dtype, name):
    """``scalar_to_tensor``, the errors naming op ``name``."""
    if isinstance(input_x, bool) or not isinstance(input_x, numbers.Number):
        raise TypeError(f"ops.{name}: input_x must be a number, got {input_x!r}")
    return Tensor(input_x, dtype)


def tuple_to_array(input_x):
    """A 1-d Tensor from a tuple of numbers of one type (Int32 for ints, Float32 for floats)."""
    return tuple_tensor(input_x, 'tuple_to_array')


def tuple_tensor(input_x, name):
    """``tuple_to_array``, the errors naming op ``name``."""
    if not isinstance(input_x, (tuple, list)) or not input_x:
        raise TypeError(f"ops.{name}: input_x must be a non-empty tuple, got {input_x!r}")
    kinds = {type(v) for v in input_x}
    if len(kinds) != 1 or kinds.pop() not in (int, float):
        raise TypeError(f"ops.{name}: all elements of input_x must be ints or all floats, got "
                        f"{input_x!r}")
    return Tensor(list(input_x), _int32 if isinstance(input_x[0], int) else _float32)


_SCALAR_TYPES = {_int64: int, _float64: float, _bool: bool}


def scalar_cast(input_x, input_y):
    """The number ``input_x`` as the type ``input_y`` (int64, float64 or bool); ints truncate
    towards zero.

    Raises:
        ValueError: for another type.
    """
    return cast_number(input_x, input_y, 'scalar_cast')


def cast_number(input_x, input_y, name):
    """``scalar_cast``, the errors naming op ``name``."""
    if input_y not in _SCALAR_TYPES:
        raise ValueError(f"ops.{name}: the supported types are Int64, Float64 and Bool, got "
                         f"{input_y}")
    if isinstance(input_x, Tensor):
        input_x = input_x.item()
    if not isinstance(input_x, numbers.Number):
        raise TypeError(f"ops.{name}: input_x must be a number, got {input_x!r}")
    return _SCALAR_TYPES[input_y](input_x)


# ----------------------------------------------------------------------------- ranges
def arange(start=0, end=None, step=1, *, dtype=None):
    """Values from ``start`` up to (not including) ``end`` by ``step``; ``arange(n)`` is 0..n-1.

    Int64 when all arguments are ints, Float32 otherwise, unless ``dtype`` is given.

    Raises:
        ValueError: when ``step`` is 0 or points away from ``end``.
    """
    if end is None:
        start, end = 0, start
    start = _number(start, 'arange', 'start')
    end = _number(end, 'arange', 'end')
    step = _number(step, 'arange', 'step')
    if step == 0:
        raise ValueError("ops.arange: step must not be 0")
    if (end - start) * step < 0:
        raise ValueError(f"ops.arange: step {step} moves away from end: start {start}, end {end}")
    if dtype is not None:
        dt = to_numpy(dtype)
    elif all(isinstance(v, int) for v in (start, end, step)):
        dt = _I64
    else:
        dt = _F32
    n = int(np.ceil((end - start) / step))
    check_size('arange', (n,), np.dtype(dt).itemsize)
    if all(isinstance(v, int) for v in (start, end, step)):
        values = np.arange(start, end, step)
    else:   # start + i * step in float32, as MindSpore's kernel (0.9000000 is 3 * 0.3f)
        values = _F32.type(start) + np.arange(n, dtype=_F32) * _F32.type(step)
    # computed on the host, so every device holds the same values
    with np.errstate(invalid='ignore'):
        return Tensor._wrap(backend.on_default(values if values.dtype == dt else
                                               values.astype(dt)))


def linspace(start, end, steps):
    """``steps`` evenly spaced Float32 values from ``start`` to ``end``: ``start + i * step`` in
    float32, ``step = (end - start) / (steps - 1)``, as MindSpore's kernel computes them (the
    last value may differ from ``end`` in the last place)."""
    start = _number(start, 'linspace', 'start')
    end = _number(end, 'linspace', 'end')
    steps = _count(steps, 'linspace', 'steps')
    if steps == 0:
        raise ValueError("ops.linspace: steps must be positive, got 0")
    check_size('linspace', (steps,), 8)
    first, last = _F32.type(start), _F32.type(end)
    step = (last - first) / _F32.type(max(steps - 1, 1))
    values = first + np.arange(steps, dtype=_F32) * step
    return Tensor._wrap(backend.on_default(values.astype(_F32, copy=False)))


def eye(n, m=None, dtype=None):
    """An ``n`` x ``m`` matrix (``m`` defaults to ``n``) with ones on the diagonal, Float32."""
    n = _count(n, 'eye', 'n')
    m = n if m is None else _count(m, 'eye', 'm')
    dt = _F32 if dtype is None else to_numpy(dtype)
    check_size('eye', (n, m), dt.itemsize)
    return Tensor._wrap(backend.default().xp.eye(n, m, dtype=dt))


_one_hot_constants = {}


def _one_hot_value(value, dt, what, like):
    """``value`` as a 0-d array of ``dt`` (None: the dtype MindSpore gives the value) on the
    device of the array ``like``."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"ops.one_hot: {what} must be a number or a 0-d Tensor, got a "
                             f"Tensor of shape {value.shape}")
        value_read(value)
        arr = backend.to_device(value._data.reshape(()), backend.device_of(like))
        return arr if dt is None or arr.dtype == dt else arr.astype(dt)
    kind = type(like)
    key = (type(value), value, dt, kind)
    arr = _one_hot_constants.get(key)
    if arr is None:
        number = _number(value, 'one_hot', what)
        arr = np.asarray(number, dtype=_value_dtype(value) if dt is None else dt)
        if kind is not np.ndarray:
            arr = backend.to_device(arr, backend.device_of(like))
        if len(_one_hot_constants) < 256:
            _one_hot_constants[key] = arr
    return arr


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """One-hot encode integer ``indices`` along a new axis of length ``depth``.

    Positions equal to an index get ``on_value``, all others ``off_value``; an index outside
    ``[0, depth)`` gives a row of ``off_value``. The result has ``on_value``'s dtype (Float32
    for a Python float, Int64 for an int). No gradient flows to ``on_value``/``off_value``.

    Raises:
        TypeError: when ``indices`` is not an integer tensor.
        ValueError: when ``depth`` is negative or ``axis`` is out of range.
    """
    x = as_tensor(indices, 'indices')
    if x._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.one_hot: indices must be an integer tensor, got {x.dtype}")
    depth = _count(depth, 'one_hot', 'depth')
    ndim = x._data.ndim
    if not isinstance(axis, (int, np.integer)) or not -ndim - 1 <= axis <= ndim:
        raise ValueError(f"ops.one_hot: axis {axis!r} is out of range for indices of rank "
                         f"{ndim} (expected {-ndim - 1}..{ndim})")
    on = _one_hot_value(on_value, None, 'on_value', x._data)
    off = _one_hot_value(off_value, on.dtype, 'off_value', x._data)
    # no gradient ever flows (to the indices nor to on/off): the op is not differentiable
    is_mask = not isinstance(on_value, Tensor) and not isinstance(off_value, Tensor) and \
        on_value == 1 and off_value == 0
    return OneHot.apply(x, on=on, off=off, depth=depth, axis=int(axis) % (ndim + 1),
                        is_mask=is_mask)


# ----------------------------------------------------------------------------- graph control
def stop_gradient(value):
    """The same values cut from the graph; tuples/lists of Tensors keep their structure."""
    if isinstance(value, Tensor):
        return value.detach()
    if isinstance(value, (tuple, list)):
        items = [stop_gradient(v) for v in value]
        return type(value)(*items) if hasattr(value, '_fields') else type(value)(items)
    return value


def assign(variable, value):
    """Write ``value`` into ``variable``'s data in place, cast to its dtype; returns ``variable``.

    Nothing is recorded for autograd. A Python number fills the whole variable.

    Raises:
        TypeError: when ``variable`` is not a Tensor.
        ValueError: when the shapes differ (names both).
    """
    if not isinstance(variable, Tensor):
        raise TypeError(f"ops.assign: variable must be a Tensor, got {type(variable).__name__}")
    return effect(_assign, variable, value)


def _assign(variable, value):
    data = variable._data
    if isinstance(value, (bool, int, float, np.generic)):
        src = np.asarray(value)
    else:
        src = (value if isinstance(value, Tensor) else tensor_on(value, variable, 'value'))._data
        if src.shape != data.shape:
            raise ValueError(f"ops.assign: value has shape {src.shape}, but variable has shape "
                             f"{data.shape}")
    assign_array(variable, src)
    return variable


def assign_array(variable, src):
    """Write array ``src`` (of ``variable``'s shape, or a 0-d fill value) into ``variable``."""
    data = variable._data
    try:
        writeable = data.flags.writeable
    except AttributeError:          # a device array: CuPy's have no writeable flag
        _assign_device(variable, data, src)
        return
    if writeable:
        np.copyto(data, src, casting='unsafe')
    else:
        # read-only data (a broadcast view, a cached constant) is replaced, never written through
        variable._data = np.array(np.broadcast_to(src, data.shape), dtype=data.dtype)


def _assign_device(variable, data, src):
    """``assign_array`` on a device: ``src`` is brought to ``data``'s device first."""
    xp = backend.array_module(data)
    src = backend.to_device(src, backend.device_of(data))
    if data.size > 1 and 0 in data.strides:
        # a broadcast view: writing through it would write one element many times
        variable._data = xp.array(xp.broadcast_to(src, data.shape), dtype=data.dtype)
    else:
        xp.copyto(data, src, casting='unsafe')


def range(start, end, step, maxlen=1000000):
    """Values from ``start`` up to (not including) ``end`` by ``step``: numbers or 0-d
    Tensors of one kind (Int64 for ints, Float32 for floats, or the Tensors' dtype).

    Raises:
        TypeError: when ints and floats are mixed.
        ValueError: when step is 0, moves away from end, or the result exceeds ``maxlen``.
    """
    values = [_number(v, 'range', what) for v, what in
              ((start, 'start'), (end, 'end'), (step, 'step'))]
    kinds = {isinstance(v, float) for v in values}
    if len(kinds) != 1:
        raise TypeError(f"ops.range: start, end and step must all be ints or all floats, got "
                        f"{tuple(values)}")
    begin, stop, delta = values
    if delta == 0:
        raise ValueError("ops.range: step must not be 0")
    if (stop - begin) * delta < 0:
        raise ValueError(f"ops.range: step {delta} moves away from end: start {begin}, "
                         f"end {stop}")
    tensors = [v for v in (start, end, step) if isinstance(v, Tensor)]
    if tensors:
        dt = tensors[0]._data.dtype
    else:
        dt = _F32 if isinstance(begin, float) else _I64
    out = np.arange(begin, stop, delta).astype(dt)
    if out.size > maxlen:
        raise ValueError(f"ops.range: the result has {out.size} elements, more than maxlen "
                         f"{maxlen}")
    return Tensor._wrap(backend.on_default(out))


def _assign_combined(variable, value, combine, name):
    if not isinstance(variable, Tensor):
        raise TypeError(f"ops.{name}: variable must be a Tensor, got {type(variable).__name__}")
    new = combine(stop_gradient(variable), stop_gradient(value))
    if new.shape != variable.shape:
        raise ValueError(f"ops.{name}: value of shape {as_tensor(value, 'value').shape} does "
                         f"not fit variable of shape {variable.shape}")
    return assign(variable, new)


def assign_add(variable, value):
    """``variable += value`` in place (value broadcast, cast to variable's dtype); returns
    ``variable``. Nothing is recorded for autograd."""
    from .arithmetic import add
    return _assign_combined(variable, value, add, 'assign_add')


def assign_sub(variable, value):
    """``variable -= value`` in place (value broadcast, cast to variable's dtype); returns
    ``variable``. Nothing is recorded for autograd."""
    from .arithmetic import sub
    return _assign_combined(variable, value, sub, 'assign_sub')
