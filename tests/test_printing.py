"""Printing: repr, str and format of tensors of every dtype and shape, as MindSpore 2.10
prints them (the expected texts are MindSpore's output)."""
import numpy as np
import pytest

import hookgrad as ms

# (label, NumPy data, MindSpore repr, MindSpore str)
CASES = [
    ('T(0.1)', np.float32(0.1),
     'Tensor(shape=[], dtype=Float32, value= 0.1)',
     '0.1'),
    ('T(2.0)', np.float32(2.0),
     'Tensor(shape=[], dtype=Float32, value= 2)',
     '2.0'),
    ('f64 0.1', np.float64(0.1),
     'Tensor(shape=[], dtype=Float64, value= 0.1)',
     '0.1'),
    ('f16 0.1', np.float16(0.1),
     'Tensor(shape=[], dtype=Float16, value= 0.0999756)',
     '0.1'),
    ('int 3', np.int64(3),
     'Tensor(shape=[], dtype=Int64, value= 3)',
     '3'),
    ('bool', np.bool_(True),
     'Tensor(shape=[], dtype=Bool, value= True)',
     'True'),
    ('big', np.float32(1e20),
     'Tensor(shape=[], dtype=Float32, value= 1e+20)',
     '1e+20'),
    ('small', np.float32(1e-20),
     'Tensor(shape=[], dtype=Float32, value= 1e-20)',
     '1e-20'),
    ('nan', np.float32(np.nan),
     'Tensor(shape=[], dtype=Float32, value= nan)',
     'nan'),
    ('-inf', np.float32(-np.inf),
     'Tensor(shape=[], dtype=Float32, value= -inf)',
     '-inf'),
    ('123456.7', np.float32(123456.7),
     'Tensor(shape=[], dtype=Float32, value= 123457)',
     '123456.7'),
    ('u32 scalar', np.uint32(7),
     'Tensor(shape=[], dtype=UInt32, value= 7)',
     '7'),
    ('empty', np.zeros((0,), np.float32),
     'Tensor(shape=[0], dtype=Float32, value= )',
     '[]'),
    ('empty 2d', np.zeros((2, 0), np.float32),
     'Tensor(shape=[2, 0], dtype=Float32, value=\n'
     ')',
     '[]'),
    ('bools', np.array([True, False]),
     'Tensor(shape=[2], dtype=Bool, value= [ True, False])',
     '[ True False]'),
    ('f16', np.array([1.5, 2.25], np.float16),
     'Tensor(shape=[2], dtype=Float16, value= [ 1.5000e+00,  2.2500e+00])',
     '[1.5  2.25]'),
    ('f64', np.array([1.5, 2.25]),
     'Tensor(shape=[2], dtype=Float64, value= [ 1.50000000e+00, '
     ' 2.25000000e+00])',
     '[1.5  2.25]'),
    ('wide range', np.array([1e20, 1.0], np.float32),
     'Tensor(shape=[2], dtype=Float32, value= [ 1.00000002e+20, '
     ' 1.00000000e+00])',
     '[1.e+20 1.e+00]'),
    ('non-finite', np.array([np.nan, np.inf, -np.inf, 1], np.float32),
     'Tensor(shape=[4], dtype=Float32, value= [            nan, '
     '            inf,            -inf,  1.00000000e+00])',
     '[ nan  inf -inf   1.]'),
    ('ints', np.array([-1, 100, 3], np.int32),
     'Tensor(shape=[3], dtype=Int32, value= [ -1, 100,   3])',
     '[ -1 100   3]'),
    ('u8', np.array([1, 255], np.uint8),
     'Tensor(shape=[2], dtype=UInt8, value= [  1, 255])',
     '[  1 255]'),
    ('i8', np.array([-1, 2], np.int8),
     'Tensor(shape=[2], dtype=Int8, value= [-1,  2])',
     '[-1  2]'),
    ('u64', np.array([0, 2**64 - 1], np.uint64),
     'Tensor(shape=[2], dtype=UInt64, value= [                  '
     ' 0, 18446744073709551615])',
     '[                   0 18446744073709551615]'),
    ('2d float', np.arange(6, dtype=np.float32).reshape(2, 3),
     'Tensor(shape=[2, 3], dtype=Float32, value=\n'
     '[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00],\n'
     ' [ 3.00000000e+00,  4.00000000e+00,  5.00000000e+00]])',
     '[[0. 1. 2.]\n'
     ' [3. 4. 5.]]'),
    ('3d int', np.arange(12).reshape(2, 3, 2),
     'Tensor(shape=[2, 3, 2], dtype=Int64, value=\n'
     '[[[ 0,  1],\n'
     '  [ 2,  3],\n'
     '  [ 4,  5]],\n'
     ' [[ 6,  7],\n'
     '  [ 8,  9],\n'
     '  [10, 11]]])',
     '[[[ 0  1]\n'
     '  [ 2  3]\n'
     '  [ 4  5]]\n'
     '\n'
     ' [[ 6  7]\n'
     '  [ 8  9]\n'
     '  [10 11]]]'),
    ('2000 floats', np.arange(2000, dtype=np.float32),
     'Tensor(shape=[2000], dtype=Float32, value= [ 0.00000000e+0'
     '0,  1.00000000e+00,  2.00000000e+00 ...  1.99700000e+03,  '
     '1.99800000e+03,  1.99900000e+03])',
     '[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]'),
    ('1001 ints', np.arange(1001),
     'Tensor(shape=[1001], dtype=Int64, value= [   0,    1,    2'
     ' ...  998,  999, 1000])',
     '[   0    1    2 ...  998  999 1000]'),
    ('long rows', np.arange(3000).reshape(3, 1000),
     'Tensor(shape=[3, 1000], dtype=Int64, value=\n'
     '[[   0,    1,    2 ...  997,  998,  999],\n'
     ' [1000, 1001, 1002 ... 1997, 1998, 1999],\n'
     ' [2000, 2001, 2002 ... 2997, 2998, 2999]])',
     '[[   0    1    2 ...  997  998  999]\n'
     ' [1000 1001 1002 ... 1997 1998 1999]\n'
     ' [2000 2001 2002 ... 2997 2998 2999]]'),
    ('tall', np.arange(2000).reshape(1000, 2),
     'Tensor(shape=[1000, 2], dtype=Int64, value=\n'
     '[[   0,    1],\n'
     ' [   2,    3],\n'
     ' [   4,    5],\n'
     ' ...\n'
     ' [1994, 1995],\n'
     ' [1996, 1997],\n'
     ' [1998, 1999]])',
     '[[   0    1]\n'
     ' [   2    3]\n'
     ' [   4    5]\n'
     ' ...\n'
     ' [1994 1995]\n'
     ' [1996 1997]\n'
     ' [1998 1999]]'),
    ('20 floats', np.arange(20, dtype=np.float32),
     'Tensor(shape=[20], dtype=Float32, value= [ 0.00000000e+00,'
     '  1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.000'
     '00000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+'
     '00,  8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.'
     '10000000e+01, \n'
     '  1.20000000e+01,  1.30000000e+01,  1.40000000e+01,  1.500'
     '00000e+01,  1.60000000e+01,  1.70000000e+01,  1.80000000e+'
     '01,  1.90000000e+01])',
     '[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 1'
     '4. 15. 16. 17.\n'
     ' 18. 19.]'),
    ('30 ints', np.arange(30),
     'Tensor(shape=[30], dtype=Int64, value= [ 0,  1,  2,  3,  4'
     ',  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, '
     '19, 20, 21, 22, 23, \n'
     ' 24, 25, 26, 27, 28, 29])',
     '[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 '
     '19 20 21 22 23\n'
     ' 24 25 26 27 28 29]'),
    ('24 ints', np.arange(24),
     'Tensor(shape=[24], dtype=Int64, value= [ 0,  1,  2,  3,  4'
     ',  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, '
     '19, 20, 21, 22, 23\n'
     ' ])',
     '[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 '
     '19 20 21 22 23]'),
    ('12 floats', np.arange(12, dtype=np.float32),
     'Tensor(shape=[12], dtype=Float32, value= [ 0.00000000e+00,'
     '  1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.000'
     '00000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+'
     '00,  8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.'
     '10000000e+01\n'
     ' ])',
     '[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11.]'),
    ('13 bools', np.arange(13) % 2 == 0,
     'Tensor(shape=[13], dtype=Bool, value= [ True, False,  True'
     ', False,  True, False,  True, False,  True, False,  True, False, \n'
     '  True])',
     '[ True False  True False  True False  True False  True Fal'
     'se  True False\n'
     '  True]'),
    ('row of 7', np.arange(14).reshape(2, 7),
     'Tensor(shape=[2, 7], dtype=Int64, value=\n'
     '[[ 0,  1,  2 ...  4,  5,  6],\n'
     ' [ 7,  8,  9 ... 11, 12, 13]])',
     '[[ 0  1  2  3  4  5  6]\n'
     ' [ 7  8  9 10 11 12 13]]'),
    ('7 x 7', np.arange(49).reshape(7, 7),
     'Tensor(shape=[7, 7], dtype=Int64, value=\n'
     '[[ 0,  1,  2 ...  4,  5,  6],\n'
     ' [ 7,  8,  9 ... 11, 12, 13],\n'
     ' [14, 15, 16 ... 18, 19, 20],\n'
     ' ...\n'
     ' [28, 29, 30 ... 32, 33, 34],\n'
     ' [35, 36, 37 ... 39, 40, 41],\n'
     ' [42, 43, 44 ... 46, 47, 48]])',
     '[[ 0  1  2  3  4  5  6]\n'
     ' [ 7  8  9 10 11 12 13]\n'
     ' [14 15 16 17 18 19 20]\n'
     ' [21 22 23 24 25 26 27]\n'
     ' [28 29 30 31 32 33 34]\n'
     ' [35 36 37 38 39 40 41]\n'
     ' [42 43 44 45 46 47 48]]'),
    ('8 x 1 x 1', np.arange(8).reshape(8, 1, 1),
     'Tensor(shape=[8, 1, 1], dtype=Int64, value=\n'
     '[[[0]],\n'
     ' [[1]],\n'
     ' [[2]],\n'
     ' ...\n'
     ' [[5]],\n'
     ' [[6]],\n'
     ' [[7]]])',
     '[[[0]]\n'
     '\n'
     ' [[1]]\n'
     '\n'
     ' [[2]]\n'
     '\n'
     ' [[3]]\n'
     '\n'
     ' [[4]]\n'
     '\n'
     ' [[5]]\n'
     '\n'
     ' [[6]]\n'
     '\n'
     ' [[7]]]'),
    ('7 x 2 x 2', np.arange(28).reshape(7, 2, 2),
     'Tensor(shape=[7, 2, 2], dtype=Int64, value=\n'
     '[[[ 0,  1],\n'
     '  [ 2,  3]],\n'
     ' [[ 4,  5],\n'
     '  [ 6,  7]],\n'
     ' [[ 8,  9],\n'
     '  [10, 11]],\n'
     ' ...\n'
     ' [[16, 17],\n'
     '  [18, 19]],\n'
     ' [[20, 21],\n'
     '  [22, 23]],\n'
     ' [[24, 25],\n'
     '  [26, 27]]])',
     '[[[ 0  1]\n'
     '  [ 2  3]]\n'
     '\n'
     ' [[ 4  5]\n'
     '  [ 6  7]]\n'
     '\n'
     ' [[ 8  9]\n'
     '  [10 11]]\n'
     '\n'
     ' [[12 13]\n'
     '  [14 15]]\n'
     '\n'
     ' [[16 17]\n'
     '  [18 19]]\n'
     '\n'
     ' [[20 21]\n'
     '  [22 23]]\n'
     '\n'
     ' [[24 25]\n'
     '  [26 27]]]'),
    ('f16 2d', np.arange(8, dtype=np.float16).reshape(2, 4),
     'Tensor(shape=[2, 4], dtype=Float16, value=\n'
     '[[ 0.0000e+00,  1.0000e+00,  2.0000e+00,  3.0000e+00],\n'
     ' [ 4.0000e+00,  5.0000e+00,  6.0000e+00,  7.0000e+00]])',
     '[[0. 1. 2. 3.]\n'
     ' [4. 5. 6. 7.]]'),
    ('f64 extremes', np.array([1e100, -1e-100, -2]),
     'Tensor(shape=[3], dtype=Float64, value= [1.00000000e+100, '
     '-1.00000000e-100, -2.00000000e+00])',
     '[ 1.e+100 -1.e-100 -2.e+000]'),
    ('4 floats', np.arange(4, dtype=np.float32),
     'Tensor(shape=[4], dtype=Float32, value= [ 0.00000000e+00, '
     ' 1.00000000e+00,  2.00000000e+00,  3.00000000e+00])',
     '[0. 1. 2. 3.]'),
]


@pytest.mark.parametrize('label, data, want_repr, want_str', CASES,
                         ids=[c[0] for c in CASES])
def test_repr_and_str_match_mindspore(label, data, want_repr, want_str):
    t = ms.Tensor(data)
    assert repr(t) == want_repr
    assert str(t) == want_str


def test_a_thousand_ints_are_shown_whole_with_a_break_every_24():
    text = repr(ms.Tensor(np.arange(1000)))
    lines = text.split('\n')
    assert '...' not in text and len(lines) == 42
    assert lines[0].startswith('Tensor(shape=[1000], dtype=Int64, value= [  0,   1,')
    assert lines[0].endswith(' 22,  23, ') and lines[1] == ' ' + ', '.join(
        f'{i:3d}' for i in range(24, 48)) + ', '
    assert lines[-1] == ' 984, 985, 986, 987, 988, 989, 990, 991, 992, 993, 994, 995, 996, 997, ' \
                        '998, 999])'


def test_a_parameter_prints_its_description_as_mindspore_does():
    # MindSpore 2.10: print(Parameter) and str() give the repr; the values print through a Tensor
    p = ms.Parameter(ms.Tensor(np.arange(8, dtype=np.float32)), name='w')
    assert str(p) == repr(p) == "Parameter (name=w, shape=(8,), dtype=Float32, requires_grad=True)"
    assert str(p.value()) == str(ms.Tensor(np.arange(8, dtype=np.float32)))


@pytest.mark.parametrize('data, want', [
    (0.1, '0.1'), (2.0, '2.0'), (3, '3'), (True, 'True'), (1e20, '1e+20'),
    (np.float16(0.1), '0.1'), (np.float64(0.1), '0.1'), ([1.0, 2.0], '[1. 2.]'),
    ([[1, 2]], '[[1 2]]'),
])
def test_format_without_a_spec_is_str(data, want):
    t = ms.Tensor(data)
    assert f"{t}" == want and format(t, '') == want and f"{t!s}" == want


def test_format_with_a_spec():
    assert f"{ms.Tensor(0.1):.3f}" == '0.100'       # a 0-d tensor takes a number's spec
    assert f"{ms.Tensor(3):5d}" == '    3'
    assert f"{ms.Tensor(0.1)!r}" == 'Tensor(shape=[], dtype=Float32, value= 0.1)'
    with pytest.raises(TypeError, match=r"unsupported format string passed to "
                                        r"Tensor.__format__: '>20' \(only a 0-d tensor takes a "
                                        r"format spec\)"):
        f"{ms.Tensor([1.0, 2.0]):>20}"


def test_a_nan_with_its_sign_bit_prints_as_minus_nan():
    # MindSpore 2.10 prints these lines (C's printf shows the NaN's sign; x86 gives sqrt(-1) one)
    minus_nan = -np.float32(np.nan)
    assert repr(ms.Tensor(np.array([np.nan, minus_nan, 1.0, -np.inf, np.inf], np.float32))) == (
        "Tensor(shape=[5], dtype=Float32, value= [            nan,            -nan,  "
        "1.00000000e+00,            -inf,             inf])")
    assert repr(ms.Tensor(np.array([minus_nan, 2.0], np.float16))) == \
        "Tensor(shape=[2], dtype=Float16, value= [       -nan,  2.0000e+00])"
    assert repr(ms.Tensor(minus_nan)) == "Tensor(shape=[], dtype=Float32, value= -nan)"
    assert repr(ms.Tensor(np.array([[minus_nan, 1], [2, 3]], np.float64))) == (
        "Tensor(shape=[2, 2], dtype=Float64, value=\n[[           -nan,  1.00000000e+00],\n"
        " [ 2.00000000e+00,  3.00000000e+00]])")
    assert repr(ms.Tensor(np.array([minus_nan, 2.0], np.float32)).astype(ms.bfloat16)) == \
        "Tensor(shape=[2], dtype=BFloat16, value= [nan,   2])"
