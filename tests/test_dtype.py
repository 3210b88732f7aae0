"""Dtypes: names, printed forms, groups, MindSpore's helpers, unsupported types, promotion.

Expected values are MindSpore 2.10's.
"""
import pickle

import ml_dtypes
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import _dtype
from hookgrad.common import dtype as mstype

# MindSpore 2.10: the dtype of Tensor(a) + Tensor(b); 'TypeError' where it refuses the pair
_TYPES = ['bool_', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
          'float16', 'float32', 'float64']
_E = 'TypeError'
_PROMOTION = {
    'bool_': ['Bool', 'Int8', 'Int16', 'Int32', 'Int64', 'UInt8', 'UInt16', 'UInt32', 'UInt64',
              'Float16', 'Float32', 'Float64'],
    'int8': ['Int8', 'Int8', 'Int16', 'Int32', 'Int64', 'Int16', _E, _E, _E,
             'Float16', 'Float32', 'Float64'],
    'int16': ['Int16', 'Int16', 'Int16', 'Int32', 'Int64', 'Int16', _E, _E, _E,
              'Float16', 'Float32', 'Float64'],
    'int32': ['Int32', 'Int32', 'Int32', 'Int32', 'Int64', 'Int32', _E, _E, _E,
              'Float16', 'Float32', 'Float64'],
    'int64': ['Int64', 'Int64', 'Int64', 'Int64', 'Int64', 'Int64', _E, _E, _E,
              'Float16', 'Float32', 'Float64'],
    'uint8': ['UInt8', 'Int16', 'Int16', 'Int32', 'Int64', 'UInt8', _E, _E, _E,
              'Float16', 'Float32', 'Float64'],
    'uint16': ['UInt16', _E, _E, _E, _E, _E, 'UInt16', _E, _E, _E, _E, _E],
    'uint32': ['UInt32', _E, _E, _E, _E, _E, _E, 'UInt32', _E, _E, _E, _E],
    'uint64': ['UInt64', _E, _E, _E, _E, _E, _E, _E, 'UInt64', _E, _E, _E],
    'float16': ['Float16', 'Float16', 'Float16', 'Float16', 'Float16', 'Float16', _E, _E, _E,
                'Float16', 'Float32', 'Float64'],
    'float32': ['Float32', 'Float32', 'Float32', 'Float32', 'Float32', 'Float32', _E, _E, _E,
                'Float32', 'Float32', 'Float64'],
    'float64': ['Float64', 'Float64', 'Float64', 'Float64', 'Float64', 'Float64', _E, _E, _E,
                'Float64', 'Float64', 'Float64'],
}


@pytest.mark.parametrize('a', _TYPES)
@pytest.mark.parametrize('b', _TYPES)
def test_binary_promotion_follows_mindspore(a, b):
    want = _PROMOTION[a][_TYPES.index(b)]
    x = ms.Tensor(np.array([1], getattr(np, a)))
    y = ms.Tensor(np.array([1], getattr(np, b)))
    if want == _E:
        msg = (f"implicit type conversion between {x.dtype} and {y.dtype} is not supported "
               r"\(MindSpore converts UInt16, UInt32 and UInt64 only to themselves\); cast one "
               r"operand first, e.g. x.astype\(ms.int64\)")
        with pytest.raises(TypeError, match=msg):
            x + y
    else:
        assert str((x + y).dtype) == want


@pytest.mark.parametrize('name', ['uint8', 'uint16', 'uint32', 'uint64'])
def test_python_int_scalars_keep_an_unsigned_tensor_type(name):
    x = ms.Tensor(np.array([1, 5], getattr(np, name)))
    assert (x * 2).dtype == getattr(ms, name) and (x * 2).tolist() == [2, 10]
    assert (x + True).dtype == getattr(ms, name) and (x + True).tolist() == [2, 6]
    assert (x / 2).dtype == ms.float32 and (x / 2).tolist() == [0.5, 2.5]


def test_float_scalars_with_wide_unsigned_tensors():
    assert (ms.Tensor(np.array([1, 5], np.uint8)) * 2.5).tolist() == [2.5, 12.5]
    with pytest.raises(TypeError, match="implicit type conversion between UInt32 and Float32 "
                                        "is not supported"):
        ms.Tensor(np.array([1, 5], np.uint32)) * 2.5


def test_unsigned_tensors_hold_their_values():
    labels = ms.Tensor(np.array([7, 4294967295], np.uint32))     # MNIST labels are UInt32
    assert labels.dtype == ms.uint32 and labels.asnumpy().dtype == np.uint32
    assert labels.astype(ms.int64).tolist() == [7, 4294967295]
    assert ms.Tensor([1, 2], ms.uint16).asnumpy().dtype == np.uint16
    assert ms.Tensor([1, 2], 'uint64').dtype == ms.uint64


@pytest.mark.parametrize('dtype, text, shown', [
    (ms.float32, 'Float32', 'mindspore.float32'), (ms.bool_, 'Bool', 'mindspore.bool'),
    (ms.uint16, 'UInt16', 'mindspore.uint16'), (ms.int_, 'Int', 'mindspore.int'),
    (ms.float_, 'Float', 'mindspore.float'), (ms.uint, 'UInt', 'mindspore.uint'),
    (ms.number, 'Number', 'mindspore.number'), (ms.bfloat16, 'BFloat16', 'mindspore.bfloat16'),
    (ms.qint4x2, 'Int4', 'mindspore.int4'), (ms.complex64, 'Complex64', 'mindspore.complex64'),
    (ms.float8_e4m3fn, 'Float8E4M3FN', 'mindspore.float8_e4m3fn'),
    (ms.hifloat8, 'HiFloat8', 'mindspore.hifloat8'), (ms.string, 'String', 'mindspore.string_'),
    (ms.type_none, 'None', 'mindspore.type_none'), (ms.tensor_type, 'Tensor', 'mindspore.tensor'),
    (mstype.function, 'Func', 'mindspore.function'),
    (mstype.type_type, 'TypeType', 'mindspore.type_type'),
])
def test_printed_names(dtype, text, shown):
    assert str(dtype) == text and repr(dtype) == shown


def test_mindspore_aliases():
    assert ms.int is ms.int32 and ms.float is ms.float32 and ms.bool is ms.bool_
    assert mstype.int is ms.int32 and mstype.float is ms.float32 and mstype.bool is ms.bool_
    assert ms.dtype.int is ms.int32
    assert (ms.byte, ms.ubyte, ms.short, ms.ushort) == (ms.int8, ms.uint8, ms.int16, ms.uint16)
    assert (ms.intc, ms.uintc, ms.intp, ms.uintp, ms.long) == (
        ms.int32, ms.uint32, ms.int64, ms.uint64, ms.int64)
    assert ms.cfloat is ms.complex64 and ms.cdouble is ms.complex128
    assert ms.Type is ms.DType and isinstance(ms.float32, ms.Type)


def test_type_groups():
    assert mstype.int_type == (ms.int8, ms.int16, ms.int32, ms.int64)
    assert mstype.uint_type == (ms.uint8, ms.uint16, ms.uint32, ms.uint64)
    assert repr(mstype.float_type) == (
        '(mindspore.float16, mindspore.float32, mindspore.float64, mindspore.bfloat16, '
        'mindspore.float8_e4m3fn, mindspore.float8_e5m2, mindspore.hifloat8)')
    assert mstype.complex_type == (ms.complex64, ms.complex128)
    assert len(mstype.number_type) == 18 and len(mstype.signed_type) == 14
    assert mstype.all_types[0] is ms.bool_ and mstype.all_types[1:] == mstype.number_type
    assert ms.float32 in mstype.float_type and ms.float_ not in mstype.float_type
    assert ms.float32 != ms.float_ and ms.int_ != ms.int64


def test_dtype_to_nptype():
    assert mstype.dtype_to_nptype(ms.int8) is np.int8
    assert ms.dtype_to_nptype(ms.uint32) is np.uint32
    assert ms.dtype_to_nptype(ms.bool_) is np.bool_
    assert ms.dtype_to_nptype(ms.bfloat16) is ml_dtypes.bfloat16
    with pytest.raises(TypeError, match=r"mindspore.float8_e4m3fn \(Float8E4M3FN\) cannot be a "
                                        r"hookgrad tensor's dtype: NumPy, which holds hookgrad "
                                        r"tensors, has no such type; use float16 or float32"):
        ms.dtype_to_nptype(ms.float8_e4m3fn)
    for bad in ('float32', 3, ms.number, ms.string):    # MindSpore: KeyError
        with pytest.raises(KeyError):
            ms.dtype_to_nptype(bad)


def test_dtype_to_pytype():
    assert ms.dtype_to_pytype(ms.bool_) is bool and ms.dtype_to_pytype(ms.uint16) is int
    assert ms.dtype_to_pytype(ms.float16) is float and ms.dtype_to_pytype(ms.int_) is int
    assert ms.dtype_to_pytype(ms.float_) is float and ms.dtype_to_pytype(ms.bfloat16) is float
    assert ms.dtype_to_pytype(ms.complex64) is complex
    assert ms.dtype_to_pytype(ms.string) is str and ms.dtype_to_pytype(ms.list_) is list
    assert ms.dtype_to_pytype(ms.type_none) is type(None)
    for bad in (ms.number, ms.uint, ms.tensor_type, 'float32'):
        with pytest.raises(KeyError):
            ms.dtype_to_pytype(bad)


@pytest.mark.parametrize('obj, want', [
    (int, ms.int64), (float, ms.float64), (bool, ms.bool_), (complex, ms.complex128),
    (str, ms.string), (list, ms.list_), (tuple, ms.tuple_), (type(None), ms.type_none),
    (np.float16, ms.float16), (np.int32, ms.int32), (np.uint16, ms.uint16), (np.bool_, ms.bool_),
    (np.uint64, ms.uint64), (np.dtype('float32'), ms.float32), (ms.float32, ms.float32),
])
def test_pytype_to_dtype(obj, want):
    assert ms.pytype_to_dtype(obj) is want


def test_pytype_to_dtype_errors():
    with pytest.raises(TypeError, match=r"For 'pytype_to_dtype', the argument 'obj' must be a "
                                        r"python type object, such as int, float, str, etc\. "
                                        r"But got type <class 'str'>\."):
        ms.pytype_to_dtype('float32')
    with pytest.raises(NotImplementedError, match=r"The python type <class 'numpy.complex64'> "
                                                  r"cannot be converted to MindSpore type\."):
        ms.pytype_to_dtype(np.complex64)


def test_get_py_obj_dtype():
    assert ms.get_py_obj_dtype(1) is ms.int64 and ms.get_py_obj_dtype(1.0) is ms.float64
    assert ms.get_py_obj_dtype(True) is ms.bool_ and ms.get_py_obj_dtype('a') is ms.string
    assert ms.get_py_obj_dtype([1]) is ms.list_ and ms.get_py_obj_dtype(None) is ms.type_none
    assert ms.get_py_obj_dtype(np.float32(1)) is ms.float32
    t = ms.get_py_obj_dtype(ms.Tensor([1]))
    assert repr(t) == 'mindspore.tensor[int64]' and str(t) == 'Tensor[Int64]'
    assert t.element_type() is ms.int64 and t == ms.TensorType(ms.int64)
    assert t != ms.tensor_type and ms.tensor_type.element_type() is None
    assert ms.get_py_obj_dtype(lambda x: x) is mstype.function
    assert ms.get_py_obj_dtype(ms.nn.Dense(1, 1)) is mstype.function
    assert ms.get_py_obj_dtype(ms.float32) is mstype.type_type
    with pytest.raises(NotImplementedError, match="The python type <class 'dict'> cannot"):
        ms.get_py_obj_dtype({})
    with pytest.raises(TypeError, match="TensorType: element must be a dtype such as "
                                        "ms.float32, got str"):
        ms.TensorType('float32')


@pytest.mark.parametrize('dtype, why', [
    (ms.float8_e4m3fn, "NumPy, which holds hookgrad tensors, has no such type; use float16 "
                       "or float32"),
    (ms.float8_e5m2, "NumPy, which holds hookgrad tensors, has no such type"),
    (ms.qint4x2, "NumPy, which holds hookgrad tensors, has no 4-bit integers; use int8"),
    (ms.int_, "it is a generic type, not an element type; use a sized one such as ms.int32"),
    (ms.float_, "it is a generic type, not an element type; use a sized one such as "
                "ms.float32"),
    (ms.string, "it is not a tensor element type"),
])
def test_types_hookgrad_cannot_store_raise_saying_why(dtype, why):
    msg = f"{repr(dtype)} \\({dtype}\\) cannot be a hookgrad tensor's dtype: {why}"
    with pytest.raises(TypeError, match=msg):
        ms.Tensor([1], dtype)
    with pytest.raises(TypeError, match=msg):
        ms.ops.ones((2,), dtype)


def test_complex_data_makes_complex_tensors():
    # MindSpore 2.10: Python complex numbers give Complex128, NumPy's complex64 stays
    assert ms.Tensor(np.array([1 + 2j])).dtype == ms.complex128
    assert ms.Tensor(1 + 2j).dtype == ms.complex128
    assert ms.Tensor(np.array([1j], np.complex64)).dtype == ms.complex64
    assert ms.Tensor([1.5], ms.complex64).asnumpy().tolist() == [1.5 + 0j]


def test_equality_hashing_and_pickling():
    assert ms.float32 == np.float32 and ms.float32 == 'float32' and ms.uint32 == np.uint32
    assert ms.bfloat16 != np.float32 and ms.bfloat16 == ms.bfloat16
    assert len({ms.float32, mstype.float32, ms.single}) == 1
    for d in (ms.uint64, ms.bfloat16, ms.int_, ms.tensor_type):
        assert pickle.loads(pickle.dumps(d)) is d


def test_common_dtype_exports_every_name():
    for name in _dtype.__all__:
        assert getattr(mstype, name) is getattr(_dtype, name)
    with pytest.raises(AttributeError, match="module 'mindspore.common.dtype' has no attribute "
                                             "'NoSuchType' \\(nor has MindSpore 2.10\\)"):
        mstype.NoSuchType
