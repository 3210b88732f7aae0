"""A Python float meeting a Float64 (or Complex128) tensor in an operator enters as a float32
value, as MindSpore converts it: ``Tensor(x, float64) * 0.1`` multiplies by
0.10000000149011612. Creation (``Tensor``, ``ops.full``) and index tensors keep every digit.
The expected values are MindSpore 2.10's (CPU) for the same calls."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import mint, ops

X = np.array([1.0, 3.0])


def x64():
    return ms.Tensor(X, ms.float64)


CALLS = [  # (call, MindSpore 2.10's result)
    (lambda x: x * 0.1, [0.10000000149011612, 0.30000000447034836]),
    (lambda x: 0.1 * x, [0.10000000149011612, 0.30000000447034836]),
    (lambda x: x + 0.1, [1.1000000014901161, 3.100000001490116]),
    (lambda x: 0.1 - x, [-0.8999999985098839, -2.899999998509884]),
    (lambda x: x / 0.1, [9.99999985098839, 29.99999955296517]),
    (lambda x: 0.1 / x, [0.10000000149011612, 0.033333333830038704]),
    (lambda x: x ** 0.1, [1.0, 1.1161231758610648]),
    (lambda x: x % 0.1, [0.09999998658895493, 0.09999995678663254]),
    (lambda x: x == 1.00000001, [True, False]),
    (lambda x: ops.mul(x, 0.1), [0.10000000149011612, 0.30000000447034836]),
    (lambda x: ops.maximum(x, 1.1), [1.100000023841858, 3.0]),
    (lambda x: ops.clamp(x, 1.1, 2.1), [1.100000023841858, 2.0999999046325684]),
    (lambda x: mint.add(x, x, alpha=0.1), [1.1000000014901161, 3.3000000044703484]),
    (lambda x: x.sub(0.1), [0.8999999985098839, 2.899999998509884]),
    (lambda x: ops.where(x > 2, x, 0.1), [0.10000000149011612, 3.0]),
    (lambda x: ops.masked_fill(x, x > 2, 0.1), [1.0, 0.10000000149011612]),
    (lambda x: x * (1 / 3), [0.3333333432674408, 1.0000000298023224]),
    (lambda x: x * np.float64(0.1), [0.10000000149011612, 0.30000000447034836]),
    # exact: tensors, creation, index_fill
    (lambda x: x * ms.Tensor(0.1, ms.float64), [0.1, 0.30000000000000004]),
    (lambda x: ops.full((2,), 0.1, dtype=ms.float64), [0.1, 0.1]),
    (lambda x: ops.index_fill(x, 0, ms.Tensor([1], ms.int32), 0.1), [1.0, 0.1]),
    (lambda x: x * 16777217, [16777217.0, 50331651.0]),
    # attributes
    (lambda x: ops.leaky_relu(-x, 0.1), [-0.10000000149011612, -0.30000000447034836]),
    (lambda x: ops.threshold(x, 2.0, 0.1), [0.1, 3.0]),
]


@pytest.mark.parametrize('k', range(len(CALLS)))
def test_float_operands_enter_as_float32_values(k):
    fn, want = CALLS[k]
    got = fn(x64())
    assert got.dtype in (ms.float64, ms.bool_)
    np.testing.assert_array_equal(got.asnumpy(), np.array(want))


def test_complex128_takes_a_float32_value_too():
    got = ms.Tensor(np.array([1 + 1j]), ms.complex128) * 0.1
    assert got.asnumpy().tolist() == [0.10000000149011612 + 0.10000000149011612j]


@pytest.mark.parametrize('index, want', [
    (0, [0.10000000149011612, -3.0, 2.0]),              # an int: float32
    (slice(0, 2), [0.10000000149011612, 0.10000000149011612, 2.0]),
    ('mask', [0.1, -3.0, 0.1]),                         # a mask or index tensor: exact
    ('tensor', [0.1, -3.0, 0.1]),
])
def test_setitem_writes_floats_as_mindspore(index, want):
    for grad in (False, True):
        x = ms.Tensor(np.array([1.0, -3.0, 2.0]), ms.float64)
        if grad:                # a recorded write (a tensor in a graph)
            x = x * 1
            x.requires_grad = True
            x = x + 0
        key = x > 0 if index == 'mask' else ms.Tensor([0, 2]) if index == 'tensor' else index
        x[key] = 0.1
        np.testing.assert_array_equal(x.asnumpy(), want)


def test_in_place_arithmetic_takes_float32_values():
    x = ms.Tensor(np.array([1.0, -3.0, 2.0]), ms.float64)
    x += 0.1
    np.testing.assert_array_equal(
        x.asnumpy(), [1.1000000014901161, -2.899999998509884, 2.100000001490116])


def test_smooth_l1_takes_beta_as_float32():
    x = ms.Tensor(np.array([0.1, -0.35, 0.69, 0.71, -2.5, 1.3]), ms.float64)
    got = ops.smooth_l1_loss(x, ops.zeros_like(x), 0.7, 'none')
    np.testing.assert_array_equal(got.asnumpy(), [
        0.007142857264499278, 0.08750000149011614, 0.3400714343628105, 0.36000000596046444,
        2.1500000059604645, 0.9500000059604645])


def test_compositions_standing_for_kernels_keep_exact_constants():
    """selu's constants are not float operands of the user's: they keep every digit."""
    x = ms.Tensor(np.array([0.5, -0.5]), ms.float64)
    scale, alpha = 1.0507009873554805, 1.6732632423543772
    want = [scale * 0.5, scale * alpha * np.expm1(-0.5)]
    np.testing.assert_allclose(ops.selu(x).asnumpy(), want, rtol=1e-15)
