"""Reductions take their axis as an integer Tensor too, as MindSpore's do (values from
MindSpore 2.10 on the CPU)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def _x():
    return ms.Tensor(np.arange(6).reshape(2, 3).astype(np.float32))


def test_a_1d_tensor_is_a_tuple_of_axes():
    assert ops.sum(_x(), ms.Tensor([1])).asnumpy().tolist() == [3.0, 12.0]
    assert ops.ReduceSum()(_x(), ms.Tensor(np.array([-1]))).asnumpy().tolist() == [3.0, 12.0]
    out = ops.ReduceMean(True)(_x(), ms.Tensor(np.array([0, 1], np.int64)))
    assert out.shape == (1, 1) and out.asnumpy().item() == 2.5
    assert ops.ReduceMax()(_x(), ms.Tensor(np.array([0]))).asnumpy().tolist() == [3.0, 4.0, 5.0]
    assert ops.ReduceAll()(_x() > 1, ms.Tensor([0])).asnumpy().tolist() == [False, False, True]


def test_a_0d_tensor_is_one_axis():
    assert ops.mean(_x(), ms.Tensor(1)).asnumpy().tolist() == [1.0, 4.0]


def test_a_float_tensor_axis_is_refused():
    with pytest.raises(TypeError, match=r"ops\.sum: an axis given as a Tensor must hold integers "
                                         r"in at most one dimension, got dtype Float32"):
        ops.ReduceSum()(_x(), ms.Tensor([]))
