"""Tensor construction, dtypes, printing, conversion and operators."""
import numpy as np
import pytest

import hookgrad as ms


@pytest.mark.parametrize("data, dtype", [
    (1.5, ms.float32), (3, ms.int64), (True, ms.bool_), ([1.0, 2.0], ms.float32),
    ([1, 2], ms.int64), ([[1, 2.5]], ms.float32), (np.ones(2, np.float64), ms.float64),
    (np.ones(2, np.int32), ms.int32), (np.float16(1), ms.float16), ([True, False], ms.bool_),
])
def test_default_dtypes(data, dtype):
    assert ms.Tensor(data).dtype == dtype


def test_explicit_dtype_and_dtype_spellings():
    assert ms.Tensor(1, ms.float32).dtype == ms.float32
    assert ms.Tensor([1, 2], dtype=np.float64).dtype == ms.float64
    assert ms.Tensor([1, 2], dtype='float16').dtype == ms.float16
    assert ms.Tensor(ms.Tensor([1, 2]), ms.float32).dtype == ms.float32
    assert ms.float32 == np.float32 and ms.int64 != ms.int32
    assert str(ms.float32) == 'Float32' and str(ms.uint8) == 'UInt8' and str(ms.bool_) == 'Bool'
    assert repr(ms.uint8) == 'mindspore.uint8' and repr(ms.bool_) == 'mindspore.bool'


def test_bad_construction_errors():
    with pytest.raises(TypeError, match="input_data is required"):
        ms.Tensor()
    with pytest.raises(TypeError, match="input_data must be a number, list, tuple, NumPy array or Tensor, got dict"):
        ms.Tensor({})
    with pytest.raises(TypeError, match="unknown dtype name 'floaty'"):
        ms.Tensor(1, 'floaty')
    with pytest.raises(TypeError, match="is not supported"):
        ms.Tensor(np.array(['a']))


def test_repr_follows_mindspore():
    assert repr(ms.Tensor(2.0)) == "Tensor(shape=[], dtype=Float32, value= 2)"
    assert repr(ms.Tensor([2.0])) == "Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00])"
    assert repr(ms.Tensor([1, 2, 3])) == "Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])"
    assert repr(ms.Tensor(np.ones((1, 2, 1, 1), np.float32))) == (
        "Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n"
        "[[[[ 1.00000000e+00]],\n  [[ 1.00000000e+00]]]])")
    assert repr(ms.Tensor([-1.5, 0.25])) == (
        "Tensor(shape=[2], dtype=Float32, value= [-1.50000000e+00,  2.50000000e-01])")
    assert repr(ms.Tensor(True)) == "Tensor(shape=[], dtype=Bool, value= True)"


def test_str_is_numpy_like():
    assert str(ms.Tensor([2.0])) == "[2.]"
    assert str(ms.Tensor([[1, 2]])) == "[[1 2]]"


def test_properties_and_conversions():
    t = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert t.shape == (2, 3) and t.ndim == 2 and t.size == 6 and len(t) == 2
    assert isinstance(t.asnumpy(), np.ndarray) and t.asnumpy().dtype == np.float32
    assert ms.Tensor([[7.]]).item() == 7.0 and t.item(4) == 4.0
    assert t.astype(ms.int32).dtype == ms.int32
    c = t.copy()
    assert np.array_equal(c.asnumpy(), t.asnumpy()) and c.asnumpy() is not t.asnumpy()
    assert float(ms.Tensor(2.5)) == 2.5 and int(ms.Tensor(3)) == 3
    assert t.T.shape == (3, 2)
    with pytest.raises(ValueError, match="only one-element tensors convert to a Python number, this one has shape \\(2, 3\\)"):
        t.item()
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(ms.Tensor(1.0))
    with pytest.raises(ValueError, match="truth value of a tensor with 6 elements is ambiguous"):
        bool(t)


def test_operators_with_scalars_on_both_sides():
    x = ms.Tensor([1., 2., 4.])
    np.testing.assert_allclose((2 + x).asnumpy(), [3., 4., 6.])
    np.testing.assert_allclose((2 - x).asnumpy(), [1., 0., -2.])
    np.testing.assert_allclose((2 * x).asnumpy(), [2., 4., 8.])
    np.testing.assert_allclose((2 / x).asnumpy(), [2., 1., .5])
    np.testing.assert_allclose((2 ** x).asnumpy(), [2., 4., 16.])
    np.testing.assert_allclose((x ** 2).asnumpy(), [1., 4., 16.])
    np.testing.assert_allclose((-x).asnumpy(), [-1., -2., -4.])
    np.testing.assert_allclose(abs(-x).asnumpy(), [1., 2., 4.])
    np.testing.assert_allclose((x // 3).asnumpy(), [0., 0., 1.])
    np.testing.assert_allclose((x % 3).asnumpy(), [1., 2., 1.])
    np.testing.assert_array_equal((x > 1.5).asnumpy(), [False, True, True])
    np.testing.assert_array_equal((1.5 < x).asnumpy(), [False, True, True])
    np.testing.assert_array_equal((x == 2).asnumpy(), [False, True, False])
    np.testing.assert_allclose((x * np.float32(2)).asnumpy(), [2., 4., 8.])
    m = ms.Tensor(np.eye(3, dtype=np.float32))
    np.testing.assert_allclose((x @ m).asnumpy(), x.asnumpy())


def test_numpy_on_the_left_gives_numpy_results_as_in_mindspore():
    """MindSpore 2.10: NumPy arrays and scalars on the left, and NumPy functions, read the
    Tensor as an array (recorded: nd - T -> ndarray [2. 2.], np.float32(2) * T -> ndarray
    [2. 4.], np.exp(T) -> ndarray, nd < T -> bool ndarray, nd @ T -> float32 11.0)."""
    t = ms.Tensor(np.array([1., 2.], np.float32))
    n = np.array([3., 4.], np.float32)
    cases = [(n - t, [2., 2.]), (np.float32(2) * t, [2., 4.]), (np.add(n, t), [4., 6.]),
             (np.exp(t), np.exp([1., 2.])), (np.abs(-t), [1., 2.]), (n < t, [False, False])]
    for got, want in cases:
        assert type(got) is np.ndarray
        np.testing.assert_allclose(got, want, rtol=1e-6)
    assert (n - t).dtype == np.float32 and (n < t).dtype == np.bool_
    product = n @ t
    assert isinstance(product, np.float32) and product == 11.0
    assert isinstance(t - n, ms.Tensor) and isinstance(t * np.float32(2), ms.Tensor)


def test_integer_true_division_gives_float32():
    assert (ms.Tensor([1, 2]) / 2).dtype == ms.float32


def test_broadcast_error_names_op_and_shapes():
    with pytest.raises(ValueError, match=r"ops.add: shapes \(2, 3\) and \(4,\) cannot be broadcast together"):
        ms.Tensor(np.ones((2, 3))) + ms.Tensor(np.ones(4))
    with pytest.raises(ValueError, match=r"ops.mul: shapes \(2,\) and \(3,\)"):
        ms.Tensor([1., 2.]) * ms.Tensor([1., 2., 3.])


def test_unsupported_operand_is_a_type_error():
    with pytest.raises(TypeError, match="expected a Tensor or a Python number, got str"):
        ms.Tensor([1.]) + "a"


def test_tensor_is_hashable_by_identity():
    a, b = ms.Tensor([1.]), ms.Tensor([1.])
    assert len({a, b}) == 2


def test_in_compares_elements_as_mindspore():
    # MindSpore 2.10: True False True False
    t = ms.Tensor(np.array([[1, 5, 2], [7, 3, 3]], np.int32))
    assert (3 in t, 9 in t, 2.0 in ms.Tensor([1.0, 2.0]), 'a' in t) == (True, False, True, False)
    assert ms.Tensor([1.5]) in ms.Tensor([[1.5, 2.0]])
