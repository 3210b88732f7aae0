"""Cummax / Cummin over NaN (values and indices as MindSpore 2.10 gives them on the CPU), and
``ops.operations._inner_ops``, where MindSpore's tests import Cummin from."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

NAN = float('nan')
X = [4, np.inf, 1.5, -np.inf, 0, NAN, 1, -2, NAN, 5]


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_a_nan_is_kept_and_each_later_nan_takes_the_index(dtype):
    x = ms.Tensor(np.array(X, dtype))
    values, index = ops.Cummax(0)(x)
    np.testing.assert_array_equal(values.asnumpy(),
                                  np.array([4, np.inf, np.inf, np.inf, np.inf] + [NAN] * 5, dtype))
    assert index.asnumpy().tolist() == [0, 1, 1, 1, 1, 5, 5, 5, 8, 8]
    values, index = ops.Cummin(0)(x)
    np.testing.assert_array_equal(values.asnumpy(),
                                  np.array([4, 4, 1.5, -np.inf, -np.inf] + [NAN] * 5, dtype))
    assert index.asnumpy().tolist() == [0, 0, 2, 3, 3, 5, 5, 5, 8, 8]


def test_without_nan_a_tie_still_takes_the_last_index():
    values, index = ops.cummax(ms.Tensor(np.array([[15.0, 15.0, 6.0, 11.0]])), 1)
    assert values.asnumpy().tolist() == [[15.0, 15.0, 15.0, 15.0]]
    assert index.asnumpy().tolist() == [[0, 1, 1, 1]]


def test_inner_ops_holds_cummin():
    from hookgrad.ops.operations import _inner_ops
    assert _inner_ops.Cummin is ops.Cummin and _inner_ops.Cast is ops.Cast
    values, index = _inner_ops.Cummin(1)(ms.Tensor(np.array([[9, 5, 5, 10]], np.int32)))
    assert values.asnumpy().tolist() == [[9, 5, 5, 5]]
    assert index.asnumpy().tolist() == [[0, 1, 2, 2]]
    with pytest.raises(AttributeError, match="_inner_ops"):
        _inner_ops.NoSuchPrimitive


# MindSpore 2.10 CPU values
def test_tensor_copy_slices_writes_value_into_the_region():
    from hookgrad.ops.operations import _inner_ops
    x = ms.Tensor(np.zeros((4, 3), np.float32))
    op = _inner_ops.TensorCopySlices()
    out = op(x, ms.Tensor(np.float32([[8, 9]])), (2, 1), (3, 3), (1, 1))
    assert out.asnumpy().tolist() == [[0, 0, 0], [0, 0, 0], [0, 8, 9], [0, 0, 0]]
    out = op(x, ms.Tensor(np.float32([1, 2, 3, 4, 5, 6])), (1,), (3,), (1,))
    assert out.asnumpy().tolist() == [[0, 0, 0], [1, 2, 3], [4, 5, 6], [0, 0, 0]]
    assert not x.asnumpy().any()
    weights = ms.Tensor(np.float32([1, 2, 3]))
    gx, gv = ms.grad(lambda a, b: (op(a, b, (1,), (3,), (1,)) * weights).sum(), (0, 1))(
        ms.Tensor(np.float32([1, 1, 1])), ms.Tensor(np.float32([5, 5])))
    assert gx.asnumpy().tolist() == [1, 0, 0] and gv.asnumpy().tolist() == [2, 3]


@pytest.mark.parametrize('args,error,message', [
    ((np.int32([1, 2]), (0,), (2,), (1,)), TypeError, r"value must have x's dtype Float32"),
    ((np.float32([1, 2]), (0,), (4,), (2,)), ValueError, r"strides must all be 1, got \(2,\)"),
    ((np.float32([1]), (0,), (2,), (1,)), ValueError,
     r"value of shape \(1,\) does not fill the region of shape \(2, 3\)"),
])
def test_tensor_copy_slices_checks(args, error, message):
    from hookgrad.ops.operations import _inner_ops
    with pytest.raises(error, match=r"ops\.TensorCopySlices: " + message):
        _inner_ops.TensorCopySlices()(ms.Tensor(np.zeros((4, 3), np.float32)),
                                      ms.Tensor(args[0]), *args[1:])


def test_inner_ops_copy_with_slice_writes_in_place():
    # MindSpore 2.10: src written into x (through a transposed view too); RuntimeError otherwise
    from hookgrad.ops.operations._inner_ops import CopyWithSlice
    c = CopyWithSlice()
    assert repr(c) == 'Prim[CopyWithSlice]<side_effect_mem=True>'
    a = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    c(a, ms.Tensor(np.full((2, 3), 7.0, np.float32)))
    assert a.tolist() == [[7.0] * 3] * 2
    t = ms.ops.transpose(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), (1, 0))
    c(t, ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)))
    assert t.tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    with pytest.raises(RuntimeError, match=r"src's shape \(3, 2\) is not x's shape \(2, 3\)"):
        c(a, ms.Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(RuntimeError, match="src's dtype Int32 is not x's dtype Float32"):
        c(a, ms.Tensor(np.ones((2, 3), np.int32)))
    with pytest.raises(RuntimeError, match="src must be a Tensor, got float"):
        c(a, 1.0)
    assert a.tolist() == [[7.0] * 3] * 2
