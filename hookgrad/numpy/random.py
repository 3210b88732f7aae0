"""Random arrays of ``mindspore.numpy``: rand, randn, randint.

Values are drawn by ``hookgrad.ops`` samplers from the global generator (``ms.set_seed``
re-seeds it), so every call, and every replay of a recorded program, draws afresh.
"""
import numpy as np

from .. import ops
from ._args import fail, np_dtype, shape_of

_INTEGERS = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))


def _shape(shape, name):
    """``*shape`` as given to rand/randn: ints, or one tuple or list."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return shape_of(tuple(shape), name)


def _float_dtype(dtype, name):
    dt = np_dtype(dtype, name)
    if dt.kind not in 'fV':
        raise fail(name, f"dtype must be a float type, got {dtype}")
    return dt


def rand(*shape, dtype=np.float32):
    """Uniform samples in [0, 1) of ``shape`` (Float32 by default).

    >>> import hookgrad.numpy as mnp
    >>> mnp.rand(2, 3).shape
    (2, 3)
    """
    return ops.rand(_shape(shape, 'rand'), dtype=_float_dtype(dtype, 'rand'))


def randn(*shape, dtype=np.float32):
    """Standard normal samples of ``shape`` (Float32 by default)."""
    return ops.randn(_shape(shape, 'randn'), dtype=_float_dtype(dtype, 'randn'))


def randint(minval, maxval=None, shape=None, dtype=np.int32):
    """Integers drawn uniformly from [minval, maxval) (from [0, minval) when ``maxval`` is
    None) of ``shape`` (``(1,)`` when None), Int32 by default.

    Raises:
        ValueError: for an empty interval or a non-integer dtype.
    """
    for v, what in ((minval, 'minval'), (maxval, 'maxval')):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise fail('randint', f"{what} must be an int, got {v!r}", TypeError)
    if maxval is None:
        if minval <= 0:
            raise fail('randint', f"minval must be > 0 when maxval is None, got {minval}")
        minval, maxval = 0, minval
    elif minval >= maxval:
        raise fail('randint', f"minval ({minval}) must be less than maxval ({maxval})")
    dt = np_dtype(dtype, 'randint')
    if dt not in _INTEGERS:
        raise fail('randint', f"dtype must be Int8, Int16, Int32 or Int64, got {dtype}")
    info = np.iinfo(dt)
    if minval < info.min or maxval - 1 > info.max:
        raise fail('randint', f"[{minval}, {maxval}) does not fit dtype {dtype}")
    shape = (1,) if shape is None else shape_of(shape, 'randint')
    return ops.randint(minval, maxval, shape, dtype=dt)


__all__ = ['rand', 'randn', 'randint']
