"""What every op family shares: turning arguments into Tensors, promotion, shape errors."""
import numpy as np

from .._dtype import promote, scalar_dtype, to_numpy
from .._tensor import Tensor
from ..autograd.function import apply2

_scalars = {}


def scalar_like(value, like):
    """A constant 0-d Tensor for a Python scalar, typed to meet ``like`` (MindSpore's rules)."""
    if isinstance(value, Tensor):
        return value
    if not isinstance(value, (bool, int, float)):
        if isinstance(value, (np.ndarray, np.generic, list, tuple)):
            return Tensor(value)
        raise TypeError(f"unsupported operand: expected a Tensor or a Python number, "
                        f"got {type(value).__name__}")
    dt = like._data.dtype
    key = (type(value), value, dt)
    t = _scalars.get(key)
    if t is None:
        arr = np.asarray(value, dtype=scalar_dtype(value, dt))
        arr.flags.writeable = False
        t = Tensor._wrap(arr)
        if len(_scalars) < 4096:
            _scalars[key] = t
    return t


def as_tensor(x, name='input'):
    """Accept a Tensor, a Python number or a NumPy array where an op expects a tensor."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (bool, int, float, np.ndarray, np.generic, list, tuple)):
        return Tensor(x)
    raise TypeError(f"{name} must be a Tensor, got {type(x).__name__}")


def operands(a, b):
    """Two Tensors of one dtype from any mix of Tensors and Python scalars."""
    if not isinstance(a, Tensor):
        if not isinstance(b, Tensor):
            a = as_tensor(a)
        else:
            a = scalar_like(a, b)
    if not isinstance(b, Tensor):
        b = scalar_like(b, a)
    da, db = a._data.dtype, b._data.dtype
    if da != db:
        from .arithmetic import cast
        dt = promote(da, db)
        if da != dt:
            a = cast(a, dt)
        if db != dt:
            b = cast(b, dt)
    return a, b


def broadcast_error(name, a, b):
    """The ValueError raised when two shapes cannot broadcast, naming the op and both shapes."""
    return ValueError(f"ops.{name}: shapes {tuple(a.shape)} and {tuple(b.shape)} cannot be "
                      f"broadcast together")


def check_broadcast(name, a, b):
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error(name, a, b) from None


def binary(op, a, b, name):
    """Apply a broadcasting binary op with MindSpore promotion and a clear shape error."""
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or a._data.dtype is not b._data.dtype:
        a, b = operands(a, b)
    try:
        return apply2(op, a, b)
    except ValueError:
        check_broadcast(name, a, b)
        raise


def normalize_axis(axis, ndim, name):
    """Check an axis (or tuple of axes) against ndim; return it non-negative."""
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        return tuple(normalize_axis(a, ndim, name) for a in axis)
    if not isinstance(axis, (int, np.integer)):
        raise TypeError(f"ops.{name}: axis must be an int or a tuple of ints, got {axis!r}")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"ops.{name}: axis {axis} is out of range for a tensor of rank {ndim}")
    return int(axis) % max(ndim, 1)


def np_dtype(dtype):
    return None if dtype is None else to_numpy(dtype)
