"""Argument checks of the data transforms, with MindSpore's error types and messages."""
import numbers

import numpy as np

from ... import _dtype

INT32_MAX = 2147483647
SIZE_MAX = 16777216


def type_check(value, types, name):
    """TypeError unless ``value`` is one of ``types`` (a bool is no int, as in MindSpore)."""
    if isinstance(value, bool) and bool not in types and numbers.Number not in types:
        ok = False
    else:
        ok = isinstance(value, types)
    if not ok:
        raise TypeError(f"Argument {name} with value {value} is not of type {list(types)}, but "
                        f"got {type(value)}.")


def in_range(value, low, high, name='', left_open=False, right_open=False):
    """ValueError unless ``low <= value <= high`` (strict on an open side)."""
    below = value <= low if left_open else value < low
    above = value >= high if right_open else value > high
    if below or above:
        label = f"Input {name} is" if name else "Input is"
        raise ValueError(f"{label} not within the required interval of "
                         f"{'(' if left_open else '['}{low}, {high}{')' if right_open else ']'}.")


def int32(value, name, low=0):
    """``value``, checked to be an int in [low, INT32_MAX] (MindSpore's messages)."""
    type_check(value, (int,), name)
    in_range(value, low, INT32_MAX, name)
    return value


def prob(value, name='prob'):
    type_check(value, (float, int), name)
    in_range(value, 0.0, 1.0, name)
    return float(value)


def size(value, name='size'):
    """An int or a (h, w) pair of ints in [1, 16777216], as (h, w)."""
    type_check(value, (int, list, tuple), name)
    if isinstance(value, int):
        in_range(value, 1, SIZE_MAX)
        return value, value
    if len(value) != 2:
        raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
    for v in value:
        type_check(v, (int,), name)
        in_range(v, 1, SIZE_MAX)
    return tuple(int(v) for v in value)


def fill_value(value, name='fill_value'):
    """An int in [0, 255] or a 3-tuple of them, as a 3-tuple."""
    if isinstance(value, tuple) and len(value) == 3:
        for v in value:
            type_check(v, (int,), name)
            in_range(v, 0, 255, name)
        return tuple(value)
    if isinstance(value, int) and not isinstance(value, bool):
        in_range(value, 0, 255, name)
        return (value,) * 3
    raise TypeError(f"{name} should be a single integer or a 3-tuple.")


def padding(value, name='padding'):
    """An int, (left/right, top/bottom) or (left, top, right, bottom), as the 4-tuple."""
    type_check(value, (tuple, list, numbers.Number), name)
    if isinstance(value, numbers.Number):
        type_check(value, (int,), name)
        in_range(value, 0, INT32_MAX, name)
        return (value,) * 4
    if len(value) not in (2, 4):
        raise ValueError("The size of the padding list or tuple should be 2 or 4.")
    for v in value:
        type_check(v, (int,), name)
        in_range(v, 0, INT32_MAX, name)
    return tuple(value) * 2 if len(value) == 2 else tuple(value)


def data_type(value, name='data_type'):
    """A NumPy dtype from a hookgrad DType or a NumPy dtype (or scalar type)."""
    if isinstance(value, _dtype.DType):
        return np.dtype(_dtype.to_numpy(value))
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return np.dtype(value)
    raise TypeError(f"Argument {name} with value {value} is not of type "
                    f"[{_dtype.DType}, {np.dtype}], but got {type(value)}.")


def transform_list(transforms, name='transforms'):
    """A non-empty list of callables."""
    type_check(transforms, (list,), f'{name} list')
    if not transforms:
        raise ValueError(f"{name} list can not be empty.")
    for i, op in enumerate(transforms):
        if not callable(op):
            raise TypeError(f"{name}[{i}] is neither a transforms op (TensorOperation) nor a "
                            f"callable pyfunc.")
    return list(transforms)
