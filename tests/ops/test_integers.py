"""gcd, lcm, bitwise_left_shift and bitwise_right_shift: MindSpore 2.10's values (its CPU
kernels' shift counts modulo the shift width included), dtypes, broadcasting and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def ints(rng, shape):
    return rng.integers(-40, 40, shape).astype(np.int32)


def counts(rng, shape):
    return rng.integers(-3, 70, shape).astype(np.int32)


def _c_shift(a, b, left):
    """The C shift of Int32 values: count modulo 32, result wrapped to 32 bits."""
    wide, n = a.astype(np.int64), b.astype(np.int64) & 31
    return (np.left_shift(wide, n) if left else np.right_shift(wide, n)).astype(a.dtype)


def near_zero(rng, shape):
    return rng.integers(-3, 4, shape).astype(np.int32)


def _int_inv(a):
    """MindSpore's Int32 1 / x: 1 and -1 stay, 0 gives Int32's minimum, others truncate to 0."""
    return np.where(a == 0, np.iinfo(np.int32).min, np.where(np.abs(a) == 1, a, 0)).astype(a.dtype)


BROADCAST = [((3, 4), (3, 4)), ((2, 3), (3,)), ((2, 1), (1, 4))]
CASES = [
    Case('Gcd', ops.gcd, ref=np.gcd, shapes=BROADCAST, domains=(ints, ints), grad=False),
    Case('Lcm', ops.lcm, ref=np.lcm, shapes=BROADCAST, domains=(ints, ints), grad=False),
    Case('LeftShift', ops.bitwise_left_shift, ref=lambda a, b: _c_shift(a, b, True),
         shapes=BROADCAST, domains=(ints, counts), grad=False),
    Case('RightShift', ops.bitwise_right_shift, ref=lambda a, b: _c_shift(a, b, False),
         shapes=BROADCAST, domains=(ints, counts), grad=False),
    Case('IntegerInv', ops.inv, ref=_int_inv, shapes=[((3, 4),), ((5,),)],
         domains=(near_zero,), grad=False, name='inv-int32'),
]

globals().update(row_tests(CASES))


def t(values, dtype):
    return ms.Tensor(np.array(values, dtype))


def check(got, values, dtype):
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.asnumpy(), np.array(values))


# MindSpore 2.10's results (CPU)
def test_gcd_lcm_values_and_dtypes():
    a, b = t([[12, -18, 0], [7, 0, -4]], np.int32), t([8, 6, 0], np.int32)
    check(ops.gcd(a, b), [[4, 6, 0], [1, 6, 4]], ms.int32)
    check(ops.lcm(a, b), [[24, 18, 0], [56, 0, 0]], ms.int32)
    check(a.gcd(b), [[4, 6, 0], [1, 6, 4]], ms.int32)
    check(a.lcm(b), [[24, 18, 0], [56, 0, 0]], ms.int32)
    check(ops.gcd(t([12, -18], np.int64), t([8, 6], np.int32)), [4, 6], ms.int64)
    check(ops.gcd(t([12, -18], np.int16), t([8, 6], np.int16)), [4, 6], ms.int16)
    check(ops.gcd(t([-2 ** 31, -2 ** 31], np.int32), t([0, 6], np.int32)), [-2 ** 31, 2],
          ms.int32)
    check(ops.lcm(t([65536 * 3, -4], np.int32), t([65536 * 5, 6], np.int32)), [983040, 12],
          ms.int32)


def test_shift_values():
    i, s = t([[1, -2, 8], [3, 0, -16]], np.int32), t([1, 2, 3], np.int32)
    check(ops.bitwise_left_shift(i, s), [[2, -8, 64], [6, 0, -128]], ms.int32)
    check(ops.bitwise_right_shift(i, s), [[0, -1, 1], [1, 0, -2]], ms.int32)
    check(i.bitwise_left_shift(s), [[2, -8, 64], [6, 0, -128]], ms.int32)
    check(i.bitwise_right_shift(s), [[0, -1, 1], [1, 0, -2]], ms.int32)
    check(ops.bitwise_left_shift(i, t([[1], [2]], np.int32)), [[2, -4, 16], [12, 0, -64]],
          ms.int32)


def test_shift_counts_outside_the_width_wrap_as_mindspore_computes():
    i, big = t([[1, -2, 8], [3, 0, -16]], np.int32), t([33, 40, -1], np.int32)
    check(ops.bitwise_left_shift(i, big), [[2, -512, 0], [6, 0, 0]], ms.int32)
    check(ops.bitwise_right_shift(i, big), [[0, -1, 0], [1, 0, -1]], ms.int32)
    check(ops.bitwise_left_shift(t([64, -3], np.int8), t([1, 7], np.int8)), [-128, -128],
          ms.int8)
    check(ops.bitwise_left_shift(t([200, 3], np.uint8), t([1, 9], np.uint8)), [144, 0],
          ms.uint8)
    check(ops.bitwise_right_shift(t([200, 3], np.uint8), t([1, 9], np.uint8)), [100, 0],
          ms.uint8)
    check(ops.bitwise_right_shift(t([-128], np.int8), t([33], np.int8)), [-64], ms.int8)
    check(ops.bitwise_right_shift(t([255], np.uint8), t([33], np.uint8)), [127], ms.uint8)
    check(ops.bitwise_left_shift(t([3], np.uint32), t([33], np.uint32)), [6], ms.uint32)
    check(ops.bitwise_left_shift(t([3], np.int64), t([65], np.int64)), [6], ms.int64)
    check(ops.bitwise_right_shift(t([3], np.int64), t([65], np.int64)), [1], ms.int64)


def test_shift_scalars_take_the_tensor_type():
    i = t([[1, -2, 8], [3, 0, -16]], np.int32)
    check(ops.bitwise_left_shift(i, 2), [[4, -8, 32], [12, 0, -64]], ms.int32)
    check(ops.bitwise_left_shift(2, i), [[4, -2 ** 31, 512], [16, 2, 131072]], ms.int32)
    check(ops.bitwise_right_shift(1000, t([1, 2], np.int8)), [-12, -6], ms.int8)
    check(t([1, 2], np.int64).bitwise_left_shift(1), [2, 4], ms.int64)
    check(t([100, 2], np.int8).bitwise_left_shift(2), [-112, 8], ms.int8)
    check(ops.bitwise_right_shift(t([1, 2], np.int8), True), [0, 1], ms.int8)


ERRORS = [
    (lambda: ops.gcd(t([1.0], np.float64), t([2.0], np.float64)), TypeError,
     r"ops\.gcd: input must be an Int16, Int32 or Int64 tensor, got Float64"),
    (lambda: ops.gcd(t([1], np.uint8), t([2], np.uint8)), TypeError,
     r"ops\.gcd: input must be an Int16, Int32 or Int64 tensor, got UInt8"),
    (lambda: ops.lcm(t([1], np.int32), 4), TypeError, r"ops\.lcm: other must be a Tensor, got int"),
    (lambda: ops.gcd(t(np.ones((2, 3)), np.int32), t([1, 1], np.int32)), ValueError,
     r"ops\.gcd: shapes \(2, 3\) and \(2,\) cannot be broadcast together"),
    (lambda: ops.bitwise_left_shift(t([1], np.int64), t([1], np.int32)), TypeError,
     r"ops\.bitwise_left_shift: input and other must have the same dtype, got Int64 and Int32"),
    (lambda: ops.bitwise_left_shift(t([1.0], np.float32), t([1.0], np.float32)), TypeError,
     r"ops\.bitwise_left_shift: input must be an integer tensor, got Float32"),
    (lambda: ops.bitwise_right_shift(t([True], np.bool_), t([True], np.bool_)), TypeError,
     r"ops\.bitwise_right_shift: input must be an integer tensor, got Bool"),
    (lambda: ops.bitwise_right_shift(t([1], np.int8), 1.5), TypeError,
     r"ops\.bitwise_right_shift: other must be a Tensor or an int, got float"),
    (lambda: ops.bitwise_left_shift(3, 2), TypeError,
     r"ops\.bitwise_left_shift: at least one of input and other must be a Tensor"),
    (lambda: ops.bitwise_left_shift(t(np.ones((2, 3)), np.int32), t([1, 1], np.int32)),
     ValueError, r"ops\.bitwise_left_shift: shapes \(2, 3\) and \(2,\) cannot be broadcast"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
