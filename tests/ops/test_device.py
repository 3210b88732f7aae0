"""Moving tensors between devices (``Tensor.move_to``, ``ops.move_to``): a differentiable copy;
mixing devices in one op is a clear error."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import backend
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

GPU = backend.gpu()



def _round_trip(x):
    """To the other device and back (on the GPU: a copy on the GPU, then back)."""
    here = 'CPU' if x.device == 'CPU' else 'GPU'
    return ops.move_to(ops.move_to(x, 'GPU'), here)


CASES = [
    Case('MoveTo', _round_trip, lambda x: x, name='move_to', shapes=[((3, 4),), ((),),
                                                                    ((2, 1, 3),)]),
]
globals().update(row_tests(CASES))


def test_a_tensor_says_its_device_and_moves():
    x = ms.Tensor([1.0, 2.0])
    assert x.device == 'CPU'
    y = x.move_to('GPU')
    assert y.device == 'GPU:0' and type(y._data) is GPU.array_type
    np.testing.assert_array_equal(y.asnumpy(), [1.0, 2.0])
    z = y.move_to('CPU')
    assert z.device == 'CPU' and z is not x
    assert x.move_to('CPU') is not x                 # a new tensor, as in MindSpore


def test_gradients_flow_back_to_the_source_device():
    x = ms.Tensor([1.0, 2.0], requires_grad=True)
    y = x.move_to('GPU') * 3.0
    assert y.device == 'GPU:0'
    y.backward()
    assert x.grad.device == 'CPU'
    np.testing.assert_array_equal(x.grad.asnumpy(), [3.0, 3.0])


def test_new_tensors_go_to_the_default_device():
    with backend.default_device(GPU):
        t = ms.Tensor(np.ones((2, 2), np.float32))
        assert t.device == 'GPU:0'
        assert ms.Tensor(t).device == 'GPU:0'
    assert ms.Tensor([1.0]).device == 'CPU'


def test_mixing_devices_in_one_op_names_the_op_and_both_devices():
    a = ms.Tensor([1.0, 2.0])
    b = a.move_to('GPU')
    with pytest.raises(RuntimeError, match=r"ops\.(Add|Mul): inputs on different devices "
                                           r"\((CPU and GPU:0|GPU:0 and CPU)\)"):
        a + b
    with pytest.raises(RuntimeError, match="inputs on different devices"):
        b * a


def test_bad_targets():
    x = ms.Tensor([1.0])
    with pytest.raises(ValueError, match=r"move_to: to must be one of \['CPU', 'GPU', "
                                         r"'Ascend'\], but got 'TPU'"):
        x.move_to('TPU')
    with pytest.raises(ValueError, match="hookgrad has no Ascend device"):
        x.move_to('Ascend')
    with pytest.raises(ValueError, match="blocking must be a bool"):
        x.move_to('CPU', blocking=1)
