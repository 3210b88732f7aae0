"""Python ints out of an integer tensor's range, as MindSpore 2.10 treats them.

Arithmetic wraps the number into the tensor's dtype (MindSpore converts the scalar to it);
comparisons are refused by name, because MindSpore 2.10 compares such a number exactly in
``<`` and after wrapping in ``>``. Expected values are MindSpore 2.10's (CPU).
"""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

I8 = np.array([15, -3], np.int8)
U8 = np.array([15, 3], np.uint8)

WRAPPED = [
    ('add', lambda t, u: t + 250, 'int8', [9, -9]),
    ('radd', lambda t, u: 250 + t, 'int8', [9, -9]),
    ('mul', lambda t, u: t * 100, 'int8', [-36, -44]),
    ('sub', lambda t, u: t - 300, 'int8', [-29, -47]),
    ('uint8_add', lambda t, u: u + 300, 'uint8', [59, 47]),
    ('uint8_sub', lambda t, u: u - 20, 'uint8', [251, 239]),
    ('uint8_negative_factor', lambda t, u: u * -1, 'uint8', [241, 253]),
    ('maximum', lambda t, u: ops.maximum(t, 300), 'int8', [44, 44]),
    ('floor_divide', lambda t, u: t // 300, 'int8', [0, -1]),
    ('where', lambda t, u: ops.where(t > 0, t, 300), 'int8', [15, 44]),
    ('int32_add', lambda t, u: ms.Tensor([1], ms.int32) + 2 ** 33, 'int32', [1]),
]


@pytest.mark.parametrize('name,fn,dtype,want', WRAPPED, ids=[w[0] for w in WRAPPED])
def test_arithmetic_wraps_an_out_of_range_int_into_the_tensors_dtype(name, fn, dtype, want):
    out = fn(ms.Tensor(I8), ms.Tensor(U8))
    assert out.dtype == getattr(ms, dtype)
    np.testing.assert_array_equal(out.asnumpy(), np.array(want, dtype))


@pytest.mark.parametrize('compare', [lambda t: t < 200, lambda t: t > 200, lambda t: t == 250,
                                     lambda t: t >= -129, lambda t: 300 < t])
def test_comparing_with_an_out_of_range_int_is_refused_by_name(compare):
    with pytest.raises(OverflowError, match=r"out of the range of Int8.*cast the tensor"):
        compare(ms.Tensor(I8))


def test_in_range_comparisons_and_ints_past_int64_are_unchanged():
    t = ms.Tensor(I8)
    np.testing.assert_array_equal((t > 10).asnumpy(), [True, False])
    with pytest.raises(OverflowError):
        ms.Tensor([1], ms.int64) + 2 ** 70       # MindSpore cannot convert it either
