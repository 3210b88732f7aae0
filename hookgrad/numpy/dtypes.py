"""Dtypes, constants and dtype promotion of ``mindspore.numpy``.

The dtypes are hookgrad's (``hookgrad.float32`` is ``mindspore.numpy.float32``); ``int_`` is
Int32 and ``float_`` Float32, as in ``mindspore.numpy``.
"""
import numpy as np

from .. import _dtype
from .._dtype import (bool_, float16, float32, float64, int8, int16, int32, int64, uint8,
                      uint16, uint32, uint64)
from .._tensor import Tensor
from ._args import fail, np_dtype

int_ = int32
float_ = float32
numeric_types = ['int_', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32',
                 'uint64', 'float_', 'float16', 'float32', 'float64', 'bool_']

inf = float('inf')
PINF = float('inf')
NINF = float('-inf')
nan = float('nan')
pi = 3.141592653589793


def _promote(a, b):
    """MindSpore's promotion of two NumPy dtypes (NumPy's, except that an integer with a float
    gives that float)."""
    return _dtype.promote(a, b)


def _dtype_of(x, name):
    """The NumPy dtype an operand of ``result_type`` stands for."""
    if isinstance(x, Tensor):
        return x._data.dtype
    if isinstance(x, bool):
        return np.dtype(np.bool_)
    if isinstance(x, int):
        return np.dtype(np.int32)
    if isinstance(x, float):
        return np.dtype(np.float32)
    if isinstance(x, (list, tuple)):
        from ._args import to_tensor
        return to_tensor(x, name)._data.dtype
    return np_dtype(x, name)


def promote_types(type1, type2):
    """The smallest dtype both ``type1`` and ``type2`` can be converted to, MindSpore's way
    (an integer with a float gives that float).

    >>> import hookgrad.numpy as mnp
    >>> print(mnp.promote_types(mnp.int32, mnp.float16))
    Float16
    """
    if isinstance(type1, Tensor) or isinstance(type2, Tensor):
        raise fail('promote_types', "expected dtypes, got a Tensor (use result_type for "
                                    "arrays)", TypeError)
    return _dtype.from_numpy(_promote(np_dtype(type1, 'promote_types'),
                                      np_dtype(type2, 'promote_types')))


def result_type(*arrays_and_dtypes):
    """The dtype that promoting all arguments (Tensors, Python numbers, sequences, dtypes)
    gives; Python ints count as Int32 and floats as Float32.

    >>> import hookgrad.numpy as mnp
    >>> print(mnp.result_type(mnp.ones(2, mnp.int32), 1.0))
    Float32
    """
    if not arrays_and_dtypes:
        raise fail('result_type', "at least one array or dtype is required")
    dt = _dtype_of(arrays_and_dtypes[0], 'result_type')
    for x in arrays_and_dtypes[1:]:
        dt = _promote(dt, _dtype_of(x, 'result_type'))
    return _dtype.from_numpy(dt)


__all__ = ['bool_', 'float16', 'float32', 'float64', 'int8', 'int16', 'int32', 'int64',
           'uint8', 'uint16', 'uint32', 'uint64', 'int_', 'float_', 'numeric_types', 'inf',
           'PINF', 'NINF', 'nan', 'pi',
           'promote_types', 'result_type']
