"""MindSpore's ``Int`` type class, ``QuantDtype`` and the null type (``_null``, ``_NullType``)
of ``mindspore.common.dtype``.

``Int`` is the class of the signed integer types: ``isinstance(ms.int32, Int)`` holds,
``Int(32)`` is ``ms.int32`` and ``Int()`` the generic ``mindspore.int``. ``QuantDtype`` names
the quantisation bit widths (``INT1``-``INT16``, ``UINT1``-``UINT16``) with MindSpore's values.
``_null`` (``mindspore.Null``) is the type of a missing value.
"""
import enum

from . import _dtype
from ._dtype import DType

__all__ = ['Int', 'QuantDtype', '_NullType', '_null']

_INT_BITS = {8: _dtype.int8, 16: _dtype.int16, 32: _dtype.int32, 64: _dtype.int64}


class _IntKind(type):
    """Makes every signed integer type (and ``mindspore.int``) an instance of ``Int``."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, DType) and (obj is _dtype.int_ or any(
            obj is t for t in _INT_BITS.values()))

    def __call__(cls, nbits=None):
        if nbits is None:
            return _dtype.int_
        if nbits not in _INT_BITS:
            raise RuntimeError(f"For Int type only support number of 8bits, 16bits, 32bits and "
                               f"64bits, but got {nbits}bits")
        return _INT_BITS[nbits]


class Int(metaclass=_IntKind):
    """The class of signed integer types: ``Int(nbits)`` gives ``ms.int8`` ... ``ms.int64``,
    ``Int()`` the generic ``mindspore.int``.

    Raises:
        RuntimeError: for a width other than 8, 16, 32 or 64 (MindSpore's message).
    """


class QuantDtype(enum.Enum):
    """Quantisation data types, ``INT1``-``INT16`` (0-15) and ``UINT1``-``UINT16``
    (100-115), as MindSpore numbers them; ``str`` is the name and ``value()`` the number."""
    INT1 = 0
    INT2 = 1
    INT3 = 2
    INT4 = 3
    INT5 = 4
    INT6 = 5
    INT7 = 6
    INT8 = 7
    INT9 = 8
    INT10 = 9
    INT11 = 10
    INT12 = 11
    INT13 = 12
    INT14 = 13
    INT15 = 14
    INT16 = 15

    UINT1 = 100
    UINT2 = 101
    UINT3 = 102
    UINT4 = 103
    UINT5 = 104
    UINT6 = 105
    UINT7 = 106
    UINT8 = 107
    UINT9 = 108
    UINT10 = 109
    UINT11 = 110
    UINT12 = 111
    UINT13 = 112
    UINT14 = 113
    UINT15 = 114
    UINT16 = 115

    def __str__(self):
        return f"{self.name}"

    def value(self):    # MindSpore's: a method, used to serialise the type
        """The number of the type (``QuantDtype.INT8.value()`` is 7)."""
        return self._value_


class _NullType(DType):
    """The type of a missing value: one instance, ``_null`` (``mindspore.Null``)."""

    __slots__ = ()

    def __init__(self):
        super().__init__('Null', 'mindspore.Null', why='it is the type of a missing value')


_null = _NullType()
