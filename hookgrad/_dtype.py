"""MindSpore's types (``mindspore.common.dtype``) over NumPy dtypes, and the promotion rule.

Three families, as in MindSpore:

- tensor element types hookgrad stores: Bool, Int8-Int64, UInt8-UInt64, Float16-Float64,
  Complex64 and Complex128, each a NumPy dtype, and BFloat16, the NumPy dtype of
  ``ml_dtypes`` (its ``kind`` is ``'V'``, so code that asks whether a dtype is a float tests
  ``kind in 'fV'``); the ops that take complex tensors are listed in
  hookgrad/autograd/complex_support.py;
- element types hookgrad cannot store: the 8-bit floats and Int4 (NumPy has no such types).
  They exist, print and compare as in MindSpore; making a tensor of one raises a TypeError
  saying why;
- types that are not element types: the generic ``int_``, ``uint``, ``float_`` and ``number``,
  and ``string``, ``list_``, ``tuple_``, ``type_none``, ``tensor_type``, ``function`` and
  ``type_type`` (what ``get_py_obj_dtype`` returns).

``str(ms.float32)`` is ``Float32``, ``repr(ms.float32)`` is ``mindspore.float32``. MindSpore's
``mstype.int``, ``mstype.float`` and ``mstype.bool`` (Int32, Float32, Bool) are reached as
attributes of this module and of ``hookgrad.common.dtype``, never as globals here, so the
builtins keep their meaning in this code.

Promotion of two tensors follows MindSpore 2.10: Bool gives way to any type, integers widen
(UInt8 with Int8 gives Int16), a float wins over integers, BFloat16 with Float16 gives
Float32, a complex type wins over integers and floats (Complex64 with Float64 gives Complex128);
UInt16, UInt32 and UInt64 mix only
with themselves and Bool: any other pair with one of them is a TypeError, as in MindSpore. A
Python scalar takes the tensor's type (a float scalar with an integer tensor gives Float32).
"""
import builtins
import inspect

import ml_dtypes
import numpy as np

__all__ = ['DType', 'Type', 'TensorType', 'float16', 'float32', 'float64', 'int8', 'int16',
           'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'bool_', 'bfloat16',
           'float8_e4m3fn', 'float8_e5m2', 'hifloat8', 'qint4x2', 'complex64', 'complex128',
           'half', 'single', 'double', 'byte', 'ubyte', 'short', 'ushort', 'intc', 'uintc',
           'intp', 'uintp', 'long', 'cfloat', 'cdouble', 'int_', 'uint', 'float_', 'number',
           'string', 'list_', 'tuple_', 'type_none', 'tensor_type', 'function', 'type_type',
           'int_type', 'uint_type', 'float_type', 'complex_type', 'signed_type', 'number_type',
           'all_types', 'dtype_to_nptype', 'dtype_to_pytype', 'pytype_to_dtype',
           'get_py_obj_dtype', 'bool', 'int', 'float']


class DType:
    """A MindSpore type; ``str`` gives ``Float32``, ``repr`` ``mindspore.float32``.

    Attributes:
        name: the printed name (``Float32``).
        np_dtype: the NumPy dtype of an element type hookgrad stores, else None.
        is_floating, is_integer: for element types.
    """

    __slots__ = ('name', 'np_dtype', 'is_floating', 'is_integer', '_repr', '_why')

    def __init__(self, name, repr_name, np_dtype=None, why=None, kind=''):
        self.name = name
        self._repr = repr_name
        self.np_dtype = None if np_dtype is None else np.dtype(np_dtype)
        kind = kind or (self.np_dtype.kind if self.np_dtype is not None else '')
        self.is_floating = kind == 'f'
        self.is_integer = kind in ('i', 'u')
        self._why = why

    def __repr__(self):
        return self._repr

    def __str__(self):
        return self.name

    def __eq__(self, other):
        if isinstance(other, DType):
            if self.np_dtype is not None and other.np_dtype is not None:
                return self.np_dtype == other.np_dtype
            return self is other or (type(self) is type(other) and self._repr == other._repr)
        if self.np_dtype is None:
            return False
        try:
            return self.np_dtype == to_numpy(other)
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self.np_dtype) if self.np_dtype is not None else hash(self._repr)

    def __reduce__(self):
        if self.np_dtype is not None:
            return (from_numpy, (self.np_dtype,))
        return (_by_repr, (self._repr,))

    def _unsupported(self):
        """The TypeError for using this type as a tensor's element type."""
        return TypeError(f"{self._repr} ({self.name}) cannot be a hookgrad tensor's dtype: "
                         f"{self._why}")


Type = DType        # MindSpore's base class of types


class TensorType(DType):
    """The type of a tensor (``mindspore.tensor[float32]``), or of any tensor without an
    element type (``tensor_type``)."""

    __slots__ = ('_element',)

    def __init__(self, element=None):
        if element is not None and not isinstance(element, DType):
            raise TypeError(f"TensorType: element must be a dtype such as ms.float32, got "
                            f"{type(element).__name__}")
        self._element = element
        if element is None:
            super().__init__('Tensor', 'mindspore.tensor', why='it is the type of a tensor')
        else:
            super().__init__(f'Tensor[{element}]',
                             f"mindspore.tensor[{element._repr[len('mindspore.'):]}]",
                             why='it is the type of a tensor')

    def element_type(self):
        """The element type (None for ``tensor_type``)."""
        return self._element


def _element(name, np_type):
    return DType(name, f"mindspore.{name.lower()}", np_type)


float16 = _element('Float16', np.float16)
float32 = _element('Float32', np.float32)
float64 = _element('Float64', np.float64)
int8 = _element('Int8', np.int8)
int16 = _element('Int16', np.int16)
int32 = _element('Int32', np.int32)
int64 = _element('Int64', np.int64)
uint8 = _element('UInt8', np.uint8)
uint16 = _element('UInt16', np.uint16)
uint32 = _element('UInt32', np.uint32)
uint64 = _element('UInt64', np.uint64)
bool_ = DType('Bool', 'mindspore.bool', np.bool_)

_NO_NUMPY = 'NumPy, which holds hookgrad tensors, has no such type; use float16 or float32'
bfloat16 = DType('BFloat16', 'mindspore.bfloat16', ml_dtypes.bfloat16, kind='f')
BFLOAT16 = bfloat16.np_dtype
float8_e4m3fn = DType('Float8E4M3FN', 'mindspore.float8_e4m3fn', why=_NO_NUMPY, kind='f')
float8_e5m2 = DType('Float8E5M2', 'mindspore.float8_e5m2', why=_NO_NUMPY, kind='f')
hifloat8 = DType('HiFloat8', 'mindspore.hifloat8', why=_NO_NUMPY, kind='f')
qint4x2 = DType('Int4', 'mindspore.int4', kind='i',
                why='NumPy, which holds hookgrad tensors, has no 4-bit integers; use int8')
complex64 = _element('Complex64', np.complex64)
complex128 = _element('Complex128', np.complex128)

# MindSpore's other names of element types
half, single, double = float16, float32, float64
byte, ubyte, short, ushort = int8, uint8, int16, uint16
intc, uintc, intp, uintp, long = int32, uint32, int64, uint64, int64
cfloat, cdouble = complex64, complex128

_GENERIC = "it is a generic type, not an element type; use a sized one such as "
int_ = DType('Int', 'mindspore.int', why=_GENERIC + 'ms.int32', kind='i')
uint = DType('UInt', 'mindspore.uint', why=_GENERIC + 'ms.uint8', kind='u')
float_ = DType('Float', 'mindspore.float', why=_GENERIC + 'ms.float32', kind='f')
number = DType('Number', 'mindspore.number', why=_GENERIC + 'ms.float32')
_NOT_ELEMENT = 'it is not a tensor element type'
string = DType('String', 'mindspore.string_', why=_NOT_ELEMENT)
list_ = DType('List', 'mindspore.list_', why=_NOT_ELEMENT)
tuple_ = DType('Tuple', 'mindspore.tuple_', why=_NOT_ELEMENT)
type_none = DType('None', 'mindspore.type_none', why=_NOT_ELEMENT)
function = DType('Func', 'mindspore.function', why=_NOT_ELEMENT)
type_type = DType('TypeType', 'mindspore.type_type', why=_NOT_ELEMENT)
tensor_type = TensorType()

int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16, float8_e4m3fn, float8_e5m2, hifloat8)
complex_type = (complex64, complex128)
signed_type = (int8, int16, int32, int64, float16, float32, float64, bfloat16, complex64,
               complex128, qint4x2, float8_e4m3fn, float8_e5m2, hifloat8)
number_type = (int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
               float64, bfloat16, complex64, complex128, qint4x2, float8_e4m3fn, float8_e5m2,
               hifloat8)
all_types = (bool_,) + number_type

# MindSpore's ``mstype.bool``, ``mstype.int`` and ``mstype.float``: see __getattr__
_BUILTIN_NAMES = {'bool': bool_, 'int': int32, 'float': float32}


def __getattr__(name):
    """``bool``, ``int`` and ``float``; for other names, the error that says whether MindSpore
    has them (this module is also ``ms.dtype`` and ``ms.common.dtype``)."""
    if name in _BUILTIN_NAMES:
        return _BUILTIN_NAMES[name]
    if name in ('Int', 'QuantDtype', '_NullType', '_null'):     # defined over this module's types
        from . import _dtype_kinds
        return getattr(_dtype_kinds, name)
    from .compat.names import reporter
    return reporter('mindspore.common.dtype')(name)


_ALL = (float16, float32, float64, bfloat16, int8, int16, int32, int64, uint8, uint16, uint32,
        uint64, bool_, complex64, complex128)
_BY_NUMPY = {d.np_dtype: d for d in _ALL}
_BY_REPR = {d._repr: d for d in (_ALL + number_type + (int_, uint, float_, number, string,
                                                        list_, tuple_, type_none, function,
                                                        type_type, tensor_type))}
_BY_NAME = {}
for _d in _ALL:
    _BY_NAME[_d.name.lower()] = _d
    _BY_NAME[_d.np_dtype.name] = _d
_BY_NAME.update({'bool_': bool_, 'half': float16, 'float': float32, 'double': float64,
                 'int': int64, 'long': int64})
_BY_PYTHON = {builtins.float: float32, builtins.int: int64, builtins.bool: bool_}
_UNSIGNED_WIDE = frozenset(np.dtype(t) for t in (np.uint16, np.uint32, np.uint64))


def _by_repr(text):
    return _BY_REPR[text]


def from_numpy(np_dtype):
    """The DType of a NumPy dtype; TypeError for types hookgrad does not support."""
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        npd = np.dtype(np_dtype)
        raise TypeError(f"dtype {npd} is not supported; supported: "
                        f"{', '.join(d.name for d in _ALL)}") from None


def to_numpy(dtype):
    """The NumPy dtype for a DType, NumPy dtype, Python type or name."""
    if isinstance(dtype, DType):
        if dtype.np_dtype is None:
            raise dtype._unsupported()
        return dtype.np_dtype
    if isinstance(dtype, str):
        d = _BY_NAME.get(dtype.lower())
        if d is None:
            raise TypeError(f"unknown dtype name {dtype!r}")
        return d.np_dtype
    try:
        known = _BY_PYTHON.get(dtype)
    except TypeError:                   # unhashable: not a dtype
        known = None
    if known is not None:
        return known.np_dtype
    try:
        npd = np.dtype(dtype)
    except (TypeError, ValueError):
        shown = repr(dtype) if isinstance(dtype, (int, float, type(None))) else \
            f"a {type(dtype).__name__}"
        raise TypeError(f"expected a dtype such as ms.float32, got {shown}") from None
    from_numpy(npd)
    return npd


def to_dtype(dtype):
    """Normalise any accepted dtype spelling to a DType."""
    return _BY_NUMPY[to_numpy(dtype)]


# ----------------------------------------------------------------- mindspore.common.dtype
def dtype_to_nptype(type_):
    """The NumPy scalar type of a MindSpore element type (``ms.int8`` -> ``numpy.int8``).

    Raises:
        TypeError: for an element type NumPy cannot hold (the 8-bit floats, int4).
        KeyError: for anything that is not an element type (as in MindSpore).
    """
    if isinstance(type_, DType):
        if type_.np_dtype is not None:
            return type_.np_dtype.type
        if type_ in number_type:
            raise type_._unsupported()
    raise KeyError(type_)


_PYTHON_OF = {bool_: builtins.bool, int_: builtins.int, float_: builtins.float,
              bfloat16: builtins.float, list_: list, tuple_: tuple, string: str,
              complex64: complex, complex128: complex, type_none: type(None)}


def dtype_to_pytype(type_):
    """The Python type of a MindSpore type (``ms.float16`` -> ``float``, ``ms.bool_`` ->
    ``bool``), as MindSpore's table gives it.

    Raises:
        KeyError: for a type the table lacks (``number``, ``uint``, ``tensor_type``...).
    """
    if isinstance(type_, DType):
        if type_ in int_type or type_ in uint_type:
            return builtins.int
        if type_ in (float16, float32, float64):
            return builtins.float
        for key, value in _PYTHON_OF.items():
            if type_ is key:
                return value
    raise KeyError(type_)


_SIMPLE_TYPES = {list: list_, tuple: tuple_, type(None): type_none, builtins.bool: bool_,
                 builtins.int: int64, builtins.float: float64, complex: complex128, str: string,
                 np.bool_: bool_, np.str_: string, np.int8: int8, np.int16: int16,
                 np.int32: int32, np.int64: int64, np.uint8: uint8, np.uint16: uint16,
                 np.uint32: uint32, np.uint64: uint64, np.float16: float16,
                 np.float32: float32, np.float64: float64, ml_dtypes.bfloat16: bfloat16}


def pytype_to_dtype(obj):
    """The MindSpore type of a Python or NumPy type (``int`` -> ``ms.int64``, ``float`` ->
    ``ms.float64``, ``np.dtype('float32')`` -> ``ms.float32``); a MindSpore type is returned
    as it is.

    Raises:
        TypeError: for an ``obj`` that is not a type.
        NotImplementedError: for a type without a MindSpore counterpart.
    """
    if isinstance(obj, np.dtype):
        obj = obj.type
    if isinstance(obj, DType):
        return obj
    if not isinstance(obj, type):
        raise TypeError(f"For 'pytype_to_dtype', the argument 'obj' must be a python type "
                        f"object, such as int, float, str, etc. But got type {type(obj)}.")
    if obj in _SIMPLE_TYPES:
        return _SIMPLE_TYPES[obj]
    raise NotImplementedError(f"The python type {obj} cannot be converted to MindSpore type.")


def get_py_obj_dtype(obj):
    """The MindSpore type of an object or type: ``TensorType(dtype)`` for a tensor,
    ``function`` for a Cell or function, ``type_type`` for a MindSpore type, else
    ``pytype_to_dtype`` of its type (``1`` -> ``ms.int64``).

    Raises:
        NotImplementedError: for an object whose type has no MindSpore counterpart.
    """
    from ._tensor import Tensor
    if isinstance(obj, Tensor):
        return TensorType(obj.dtype)
    if inspect.isfunction(obj) or hasattr(obj, 'construct'):
        return function
    if isinstance(obj, DType):
        return type_type
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    return pytype_to_dtype(type(obj))


# ----------------------------------------------------------------- promotion
_promotions = {}


def promote(a, b):
    """Result NumPy dtype of a binary op on NumPy dtypes ``a`` and ``b``, MindSpore's way
    (see the module docstring).

    Raises:
        TypeError: for a pair MindSpore does not convert implicitly (UInt16/32/64 with any
            other type but Bool).
    """
    key = (a, b)
    r = _promotions.get(key)
    if r is None:
        if a == b or b.kind == 'b':
            r = a
        elif a.kind == 'b':
            r = b
        elif a in _UNSIGNED_WIDE or b in _UNSIGNED_WIDE:
            raise TypeError(f"implicit type conversion between {from_numpy(a)} and "
                            f"{from_numpy(b)} is not supported (MindSpore converts UInt16, "
                            f"UInt32 and UInt64 only to themselves); cast one operand first, "
                            f"e.g. x.astype(ms.int64)")
        elif a.kind in 'fV' and b.kind in 'iu' or a.kind == 'c' and b.kind in 'iuV':
            r = a
        elif b.kind in 'fV' and a.kind in 'iu' or b.kind == 'c' and a.kind in 'iuV':
            r = b
        else:
            r = _float_pair(a, b) if a == BFLOAT16 or b == BFLOAT16 else \
                np.promote_types(a, b)
        _promotions[key] = r
    return r


def _float_pair(a, b):
    """BFloat16 with another float: Float32 with Float16 (neither holds the other), else the
    wider one, as MindSpore promotes."""
    other = b if a == BFLOAT16 else a
    return np.dtype(np.float32) if other.itemsize <= 2 else other


def scalar_dtype(value, other):
    """NumPy dtype a Python scalar takes when it meets an array of dtype ``other``."""
    kind = other.kind
    if isinstance(value, builtins.bool):
        return other
    if isinstance(value, builtins.int):
        return other if kind in 'fiuVc' else np.dtype(np.int64)
    if isinstance(value, builtins.float):
        return other if kind in 'fVc' else np.dtype(np.float32)
    if isinstance(value, builtins.complex):
        return other if kind == 'c' else \
            np.dtype(np.complex128 if other == np.float64 else np.complex64)
    raise TypeError(f"unsupported operand type {type(value).__name__}")
