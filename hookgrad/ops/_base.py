"""What every op family shares: turning arguments into Tensors, promotion, shape errors."""
import functools
import math
import os
import sys
import threading

import numpy as np

from .._dtype import promote, scalar_dtype, to_numpy
from .._tensor import Tensor
from ..autograd.function import apply2
from ..kernels import backend

_ndarray = np.ndarray

_scalars = {}
_OPS_PACKAGE = __name__.rsplit('.', 1)[0]


def calling_op(value=None, arg=None):
    """``(op, argument)``: the public op running now and the name it gave ``value``.

    Walks out of the frames of ``hookgrad.ops`` to the outermost one (the op the user called:
    a function, or a Primitive's ``construct``) and looks for the parameter holding ``value``
    there. Runs only when an error is being built, so the happy path pays nothing.
    """
    frame, outer = sys._getframe(1), None
    while frame is not None:
        if frame.f_globals.get('__name__', '').startswith(_OPS_PACKAGE):
            outer = frame
        elif outer is not None:
            break
        frame = frame.f_back
    if outer is None:
        return 'op', arg or 'input'
    code, local = outer.f_code, outer.f_locals
    op = code.co_name
    owner = local.get('self')
    if owner is not None and op in ('construct', '__call__', '__init__'):
        op = type(owner).__name__
    elif op == 'binary' and isinstance(local.get('name'), str):
        op = local['name']      # a Tensor operator: name the op it runs
    if value is not None:
        params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        held = [p for p in params if p != 'self' and local.get(p) is value]
        if held and arg not in held:
            arg = held[0]
        arg = {'a': 'input', 'b': 'other'}.get(arg, arg) if code is binary.__code__ else arg
    return op.lstrip('_'), arg or 'input'


def op_error(kind, value, arg, what):
    """``kind('ops.<op>: <arg> <what>')`` for the op running now (see ``calling_op``)."""
    op, arg = calling_op(value, arg)
    return kind(f"ops.{op}: {arg}{'' if what.startswith(':') else ' '}{what}")


_constants = threading.local()          # .exact: inside a composition keeping its constants


def exact_constants(fn):
    """Decorate a composition of ops whose Python float constants (and float arguments) must
    keep every digit in Float64, as the MindSpore kernel it stands for computes with them:
    inside it, float operands are not rounded to float32 (``_scalar_array``)."""
    @functools.wraps(fn)
    def composed(*args, **kwargs):
        if getattr(_constants, 'exact', False):
            return fn(*args, **kwargs)
        _constants.exact = True
        try:
            return fn(*args, **kwargs)
        finally:
            _constants.exact = False
    return composed


def _scalar_array(value, dtype, exact=False):
    """A Python scalar as a 0-d array of the dtype it takes with ``dtype``, as MindSpore's
    operators convert it: a float is a float32 value, also where it meets a Float64 or
    Complex128 tensor (``Tensor(x, float64) * 0.1`` multiplies by 0.10000000149011612), unless
    ``exact``; an int out of an integer type's range wraps into it (``Tensor([15], int8) +
    250`` is ``[9]``)."""
    dt = scalar_dtype(value, dtype)
    if not exact and dt.itemsize >= 8 and dt.kind in 'fc' and isinstance(value, float) and \
            not getattr(_constants, 'exact', False):
        with np.errstate(over='ignore'):
            value = float(np.float32(value))
    try:
        if dt.itemsize < 4 and type(value) is float:
            with np.errstate(over='ignore'):        # 1e5 in float16 is inf, silently
                return np.asarray(value, dtype=dt)
        return np.asarray(value, dtype=dt)
    except OverflowError:
        if dt.kind not in 'iu' or not -2 ** 63 <= value < 2 ** 64:
            raise
        return np.asarray(np.asarray(value, np.uint64 if value >= 2 ** 63 else np.int64)
                          .astype(dt))


def out_of_range(value, dtype):
    """Whether the Python int ``value`` lies outside the integer ``dtype``'s range."""
    if type(value) is not int or dtype.kind not in 'iu':
        return False
    info = np.iinfo(dtype)
    return not info.min <= value <= info.max


def scalar_like(value, like, exact=False):
    """A constant 0-d Tensor for a Python scalar, typed to meet ``like`` (MindSpore's rules:
    see ``_scalar_array``; ``exact`` keeps a float's every digit)."""
    if isinstance(value, Tensor):
        return value
    if not isinstance(value, (bool, int, float, complex)):
        if isinstance(value, (np.ndarray, np.generic, list, tuple)):
            return as_tensor(value, 'other', like)
        if backend.is_device_array(value):
            return Tensor(value)            # on its own device: a mix is the op's error
        raise op_error(TypeError, value, 'other',
                       f": expected a Tensor or a Python number, got {type(value).__name__}")
    data = like._data
    if not exact and type(value) is not int and data.dtype.itemsize >= 8:
        exact = getattr(_constants, 'exact', False)     # only Float64/Complex128 round floats
    if type(data) is _ndarray:
        key = (type(value), value, data.dtype) if not exact else \
            (type(value), value, data.dtype, True)
        t = _scalars.get(key)
        if t is not None:
            return t
        arr = _scalar_array(value, data.dtype, exact)
        arr.flags.writeable = False
    else:                                   # on the device of ``like``
        key = (type(value), value, data.dtype, type(data), exact)
        t = _scalars.get(key)
        if t is not None:
            return t
        arr = backend.to_device(_scalar_array(value, data.dtype, exact),
                                backend.device_of(data))
    t = Tensor._wrap(arr)
    if len(_scalars) < 4096:
        _scalars[key] = t
    return t


def exact(value, like):
    """The number ``value`` as a constant 0-d Tensor meeting ``like`` with every digit kept:
    for the constants of hookgrad's own compositions where MindSpore's kernels compute with
    the exact value (a plain Python float operand enters as float32, as in MindSpore)."""
    return scalar_like(value, like, exact=True)


def as_tensor(x, name='input', like=None):
    """Accept a Tensor, a Python number or a NumPy array where an op expects a tensor.

    Host data (a number, a list, a NumPy array) is made a Tensor on the device of the Tensor
    ``like`` when one is given (the op's other input), else on the default device; a device's
    array stays where it is.
    """
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (list, tuple)) and _holds_tensor(x):
        return _stacked(x, name, like)
    if isinstance(x, (bool, int, float, np.ndarray, np.generic, list, tuple)):
        try:
            t = Tensor(x)
        except (TypeError, ValueError) as e:
            raise op_error(type(e), x, name, f"cannot be made a Tensor: {e}") from None
        if like is not None and type(t._data) is not type(like._data):
            t = Tensor._wrap(backend.to_device(t._data, backend.device_of(like._data)))
        return t
    if backend.is_device_array(x):
        return Tensor(x)
    raise op_error(TypeError, x, name, f"must be a Tensor, got {type(x).__name__}")


def _holds_tensor(seq):
    """Whether the list or tuple ``seq`` holds a Tensor at any depth."""
    return any(isinstance(v, Tensor) or (isinstance(v, (list, tuple)) and _holds_tensor(v))
               for v in seq)


def _stacked(seq, name, like):
    """A list or tuple holding Tensors as one Tensor, its elements stacked along a new first
    axis, so that gradients reach them (MindSpore converts ``(x, y) + t`` so too)."""
    from .shaping import stack
    parts = [as_tensor(v, name, like) for v in seq]
    try:
        return stack(parts, 0)
    except (TypeError, ValueError) as e:
        raise op_error(type(e), seq, name, f"cannot be made a Tensor: {e}") from None


def as_tensors(values, names):
    """``as_tensor`` of each of ``values`` (named ``names``), host data made Tensors on the
    device of the first Tensor among them."""
    like = None
    for v in values:
        if isinstance(v, Tensor):
            like = v
            break
    return [as_tensor(v, n, like) for v, n in zip(values, names)]


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
    """The ValueError raised when two shapes cannot broadcast, naming the op and both shapes
    (the op the user called, and ``name`` when that op failed inside it)."""
    outer = calling_op()[0]
    same = outer.lower().replace('_', '') == name.replace('_', '')     # ops.Add runs ops.add
    where = f" (in ops.{name})" if not same and outer not in ('op', 'binary') else ''
    return ValueError(f"ops.{outer if where else name}: shapes {tuple(a.shape)} and "
                      f"{tuple(b.shape)} cannot be broadcast together{where}")


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
    if isinstance(axis, Tensor):
        axis = _tensor_axis(axis, name)
    if isinstance(axis, (tuple, list)):
        return tuple(normalize_axis(a, ndim, name) for a in axis)
    if not isinstance(axis, (int, np.integer)):
        raise TypeError(f"ops.{name}: axis must be an int or a tuple of ints, got {axis!r}")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"ops.{name}: axis {axis} is out of range for a tensor of rank {ndim}")
    return int(axis) % max(ndim, 1)


def _tensor_axis(axis, name):
    """An integer Tensor given as an axis (MindSpore's reductions take one): a 0-d Tensor is
    one axis, a 1-d Tensor a tuple of axes."""
    a = backend.to_host(axis._data)
    if a.dtype.kind not in 'iu' or a.ndim > 1:
        raise TypeError(f"ops.{name}: an axis given as a Tensor must hold integers in at most one "
                        f"dimension, got dtype {axis.dtype} and shape {axis.shape}")
    return int(a) if a.ndim == 0 else tuple(int(v) for v in a)


def np_dtype(dtype):
    return None if dtype is None else dtype_arg(dtype)


def dtype_arg(dtype, arg='dtype'):
    """The NumPy dtype of a dtype argument; a TypeError naming the op and ``arg`` if unknown."""
    try:
        return to_numpy(dtype)
    except (TypeError, ValueError) as e:
        raise op_error(TypeError, dtype, arg, f"is not a dtype hookgrad knows: {e}") from None


def scalar_arg(value, arg):
    """A number argument given as a Python number or a one-element Tensor, as a Python number;
    a TypeError naming the op and ``arg`` otherwise."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise op_error(TypeError, value, arg, f"must be a number or a one-element Tensor, "
                                                  f"got a Tensor of shape {value.shape}")
        return value._data.reshape(()).item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        raise op_error(TypeError, value, arg, f"must be a number or a one-element Tensor, got "
                                              f"{type(value).__name__}")
    return value


def _physical_memory():
    try:
        return os.sysconf('SC_PHYS_PAGES') * os.sysconf('SC_PAGE_SIZE')
    except (AttributeError, ValueError, OSError):     # no sysconf: no machine bound
        return 1 << 62


MEMORY_BYTES = _physical_memory()
VIEW_ELEMENTS = 1 << 40     # a broadcast view larger than this cannot be reduced in any time


def _bytes(n):
    for unit in ('bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'):
        if n < 1024 or unit == 'PiB':
            return f"{n:.0f} {unit}" if unit == 'bytes' else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} bytes"


def check_size(name, shape, itemsize, view=False):
    """Refuse a result of ``shape`` that could never be computed, before NumPy tries.

    ``name`` None names the public op running now (an op built on another).

    An array must fit in physical memory (MemoryError); a broadcast view, which allocates
    nothing, must hold at most ``VIEW_ELEMENTS`` elements (ValueError): any reduction of a
    larger one would run for hours. One product per call.
    """
    n = math.prod(shape)
    if name is None and n > min(VIEW_ELEMENTS, MEMORY_BYTES):
        name = calling_op()[0]
    if view:
        if n > VIEW_ELEMENTS:
            raise ValueError(f"ops.{name}: a view of shape {tuple(shape)} has {n} elements "
                             f"({n * itemsize} bytes if made an array), more than the "
                             f"{VIEW_ELEMENTS} hookgrad allows")
    elif n * itemsize > MEMORY_BYTES:
        raise MemoryError(f"ops.{name}: a result of shape {tuple(shape)} needs {n * itemsize} "
                          f"bytes ({_bytes(n * itemsize)}), more than this machine's memory "
                          f"({_bytes(MEMORY_BYTES)})")
