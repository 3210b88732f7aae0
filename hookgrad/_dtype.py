"""MindSpore-named dtypes over NumPy dtypes, and the promotion rule binary ops use."""
import numpy as np

__all__ = ['DType', 'float16', 'float32', 'float64', 'int8', 'int16', 'int32', 'int64', 'uint8',
           'bool_', 'half', 'single', 'double', 'int_', 'float_']


class DType:
    """A tensor element type; prints as MindSpore does (``Float32``)."""

    __slots__ = ('name', 'np_dtype', 'is_floating', 'is_integer')

    def __init__(self, name, np_dtype):
        self.name = name
        self.np_dtype = np.dtype(np_dtype)
        self.is_floating = self.np_dtype.kind == 'f'
        self.is_integer = self.np_dtype.kind in 'iu'

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        if isinstance(other, DType):
            return self.np_dtype == other.np_dtype
        try:
            return self.np_dtype == to_numpy(other)
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self.np_dtype)

    def __reduce__(self):
        return (from_numpy, (self.np_dtype,))


float16 = DType('Float16', np.float16)
float32 = DType('Float32', np.float32)
float64 = DType('Float64', np.float64)
int8 = DType('Int8', np.int8)
int16 = DType('Int16', np.int16)
int32 = DType('Int32', np.int32)
int64 = DType('Int64', np.int64)
uint8 = DType('UInt8', np.uint8)
bool_ = DType('Bool', np.bool_)

# MindSpore's short aliases.
half, single, double = float16, float32, float64
int_, float_ = int64, float32

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool_)
_BY_NUMPY = {d.np_dtype: d for d in _ALL}
_BY_NAME = {}
for _d in _ALL:
    _BY_NAME[_d.name.lower()] = _d
    _BY_NAME[_d.np_dtype.name] = _d
_BY_NAME.update({'bool_': bool_, 'half': float16, 'float': float32, 'double': float64,
                 'int': int64, 'long': int64})
_BY_PYTHON = {float: float32, int: int64, bool: bool_}


def from_numpy(np_dtype):
    """The DType of a NumPy dtype; TypeError for types hookgrad does not support."""
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(f"dtype {np.dtype(np_dtype)} is not supported; supported: "
                        f"{', '.join(d.name for d in _ALL)}") from None


def to_numpy(dtype):
    """The NumPy dtype for a DType, NumPy dtype, Python type or name."""
    if isinstance(dtype, DType):
        return dtype.np_dtype
    if isinstance(dtype, str):
        d = _BY_NAME.get(dtype.lower())
        if d is None:
            raise TypeError(f"unknown dtype name {dtype!r}")
        return d.np_dtype
    if dtype in _BY_PYTHON:
        return _BY_PYTHON[dtype].np_dtype
    try:
        npd = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"expected a dtype such as ms.float32, got {dtype!r}") from None
    from_numpy(npd)
    return npd


def to_dtype(dtype):
    """Normalise any accepted dtype spelling to a DType."""
    return _BY_NUMPY[to_numpy(dtype)]


_promotions = {}


def promote(a, b):
    """Result NumPy dtype of a binary op, MindSpore's way: an int with a float gives that float."""
    key = (a, b)
    r = _promotions.get(key)
    if r is None:
        if a.kind == 'f' and b.kind in 'iub':
            r = a
        elif b.kind == 'f' and a.kind in 'iub':
            r = b
        else:
            r = np.promote_types(a, b)
        _promotions[key] = r
    return r


def scalar_dtype(value, other):
    """NumPy dtype a Python scalar takes when it meets an array of dtype ``other``."""
    kind = other.kind
    if isinstance(value, bool):
        return other
    if isinstance(value, int):
        return other if kind in 'fiu' else np.dtype(np.int64)
    if isinstance(value, float):
        return other if kind == 'f' else np.dtype(np.float32)
    raise TypeError(f"unsupported operand type {type(value).__name__}")
