"""Arguments of ``mindspore.numpy`` functions: Tensors, dtypes and axes, MindSpore's way.

Python data becomes a Tensor as ``mindspore.numpy.asarray`` makes it: ints Int32, floats
Float32, bools Bool; NumPy arrays keep their dtype. A Python number beside a Tensor stays a
number, so the Tensor's dtype wins (``add(int32_tensor, 2)`` is Int32).
"""
import numbers

import numpy as np

from .. import ops
from .._dtype import promote, to_numpy
from .._tensor import Tensor
from ..autograd.function import value_read

_PY_DTYPES = {int: np.dtype(np.int32), float: np.dtype(np.float32), 'int': np.dtype(np.int32),
              'float': np.dtype(np.float32)}


def fail(name, text, kind=ValueError):
    """The error of ``mindspore.numpy.<name>``, naming it."""
    return kind(f"numpy.{name}: {text}")


def np_dtype(dtype, name='dtype'):
    """The NumPy dtype of a dtype argument (None stays None)."""
    if dtype is None:
        return None
    if isinstance(dtype, (type, str)) and dtype in _PY_DTYPES:     # mindspore.numpy: int is Int32
        return _PY_DTYPES[dtype]
    try:
        return to_numpy(dtype)
    except TypeError as e:
        raise TypeError(f"numpy.{name}: {e}") from None


def _python_dtype(values):
    """The dtype ``asarray`` gives nested Python numbers: Bool, Int32 or Float32."""
    if all(isinstance(v, bool) for v in values):
        return np.dtype(np.bool_)
    if all(isinstance(v, int) for v in values):
        return np.dtype(np.int32)
    return np.dtype(np.float32)


def _flat(obj, out):
    for v in obj:
        if isinstance(v, (list, tuple)):
            _flat(v, out)
        else:
            out.append(v)
    return out


def to_tensor(obj, name='asarray', dtype=None):
    """``obj`` as a Tensor with ``asarray``'s rules; a Tensor is returned as it is (or cast)."""
    dt = np_dtype(dtype, name)
    if isinstance(obj, Tensor):
        return obj if dt is None or obj._data.dtype == dt else ops.cast(obj, dt)
    if isinstance(obj, (bool, int, float)) and not isinstance(obj, np.generic):
        return Tensor(np.asarray(obj, dt or _python_dtype([obj])))
    if isinstance(obj, (np.ndarray, np.generic)):
        return Tensor(np.asarray(obj, dt))
    if isinstance(obj, (list, tuple)):
        items = _flat(obj, [])
        if any(isinstance(v, Tensor) for v in items):
            return _stack_nested(obj, name, dt)
        if not all(isinstance(v, (numbers.Number, np.generic)) for v in items):
            bad = next(v for v in items if not isinstance(v, (numbers.Number, np.generic)))
            raise fail(name, f"a sequence must hold numbers or Tensors, got "
                             f"{type(bad).__name__}", TypeError)
        if dt is None and not any(isinstance(v, np.generic) for v in items):
            dt = np.dtype(_python_dtype(items))
        try:
            return Tensor(np.array(obj, dt))
        except ValueError as e:
            raise fail(name, f"cannot make an array from a ragged sequence ({e})") from None
    raise fail(name, f"expected a Tensor, a number, a list or a tuple, got "
                     f"{type(obj).__name__}", TypeError)


def _stack_nested(obj, name, dt):
    """A nested sequence holding Tensors, stacked (so gradients reach the Tensors)."""
    parts = [_stack_nested(v, name, dt) if isinstance(v, (list, tuple)) else to_tensor(v, name, dt)
             for v in obj]
    shapes = {p.shape for p in parts}
    if len(shapes) > 1:
        raise fail(name, f"cannot make an array from elements of shapes {sorted(shapes)}")
    return ops.stack(promoted(parts))


def operand(x, name):
    """A binary operand: Tensors and Python numbers pass (the op types the number by the
    Tensor); sequences and arrays become Tensors."""
    if isinstance(x, Tensor) or (isinstance(x, (bool, int, float))
                                 and not isinstance(x, np.generic)):
        return x
    return to_tensor(x, name)


def operands(x1, x2, name):
    """Two binary operands; two Python numbers become Tensors by ``asarray``'s rules."""
    x1, x2 = operand(x1, name), operand(x2, name)
    if not isinstance(x1, Tensor) and not isinstance(x2, Tensor):
        x1 = to_tensor(x1, name)
    return x1, x2


def result(y, dtype, name):
    """``y`` cast to ``dtype`` when one is given (MindSpore's ``dtype=`` argument)."""
    dt = np_dtype(dtype, name)
    if dt is None or y._data.dtype == dt:
        return y
    return ops.cast(y, dt)


def floating(x):
    """``x`` as a floating Tensor: integers and bools become Float32."""
    return x if x._data.dtype.kind in 'fV' else ops.cast(x, np.float32)


def values(t):
    """The array of ``t``, for code that decides on its values (a graph-mode trace notes it)."""
    value_read(t)
    return t._data


def integer(value, name, what):
    """A Python int from an int (or an integer 0-d Tensor)."""
    if isinstance(value, Tensor) and value._data.dtype.kind in 'iu' and value.size == 1:
        return int(values(value).reshape(()))
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    raise fail(name, f"{what} must be an int, got {value!r}", TypeError)


def axis_of(axis, ndim, name, what='axis'):
    """An axis checked against ``ndim``, made non-negative."""
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise fail(name, f"{what} must be an int, got {axis!r}", TypeError)
    if not -ndim <= axis < ndim:
        raise fail(name, f"{what} {axis} is out of bounds for an array of dimension {ndim}")
    return int(axis) % ndim


def axes_of(axis, ndim, name):
    """None (every axis), an int or a tuple of ints, as a tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    seq = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(axis_of(a, ndim, name) for a in seq)
    if len(set(out)) != len(out):
        raise fail(name, f"repeated axis in {axis!r}")
    return out


def shape_of(shape, name):
    """A shape argument (an int or a sequence of ints) as a tuple of non-negative ints."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in shape):
        raise fail(name, f"shape must be an int or a tuple of ints, got {shape!r}", TypeError)
    if any(n < 0 for n in shape):
        raise fail(name, f"negative dimensions are not allowed, got {tuple(shape)}")
    return tuple(int(n) for n in shape)


def sequence(tup, name):
    """A list or tuple of arrays as a list of Tensors."""
    if isinstance(tup, Tensor):
        return [tup[i] for i in range(tup.shape[0])] if tup.ndim else [tup]
    if not isinstance(tup, (list, tuple)):
        raise fail(name, f"expected a list or tuple of Tensors, got {type(tup).__name__}",
                   TypeError)
    if not tup:
        raise fail(name, "need at least one array")
    return [to_tensor(t, name) for t in tup]


def promoted(ts):
    """Tensors cast to their common dtype (MindSpore's promotion)."""
    dt = ts[0]._data.dtype
    for t in ts[1:]:
        dt = promote(dt, t._data.dtype)
    return [t if t._data.dtype == dt else ops.cast(t, dt) for t in ts]
