"""nn.GradAccumulationCell, nn.MicroBatchInterleaved and nn.ParameterUpdate, with the values and
messages MindSpore 2.10 gives on CPU (PyNative)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)), name='w')

    def construct(self, x, y):
        return ops.matmul(x, self.w).sum() + y.sum()


class Double(nn.Cell):
    def construct(self, x):
        return x * 2


X = ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
Y = ms.Tensor(np.arange(4, dtype=np.float32))


@pytest.mark.parametrize('make', [lambda n: nn.GradAccumulationCell(n, 2),
                                  lambda n: nn.MicroBatchInterleaved(n, 2),
                                  lambda n: nn.MicroBatchInterleaved(n, 4)])
def test_sum_over_slices(make):
    net = Net()
    out = make(net)(X, Y)
    assert out.dtype == ms.float32 and out.shape == ()
    assert float(out.asnumpy()) == 368.0            # MindSpore's value, the whole batch's


def test_slices_are_summed_elementwise():
    expected = [[12., 16., 20.], [24., 28., 32.]]            # MindSpore 2.10
    np.testing.assert_array_equal(nn.GradAccumulationCell(Double(), 2)(X).asnumpy(), expected)
    np.testing.assert_array_equal(nn.MicroBatchInterleaved(Double(), 2)(X).asnumpy(), expected)


def test_gradients_accumulate_over_slices():
    net = Net()
    cell = nn.GradAccumulationCell(net, 2)
    grads = ms.grad(cell, grad_position=None, weights=net.trainable_params())(X, Y)
    np.testing.assert_array_equal(grads[0].asnumpy(), [[18., 18.], [22., 22.], [26., 26.]])


def test_wrapped_parameters_keep_their_names():
    net = Net()
    names = [p.name for p in nn.GradAccumulationCell(net, 2).trainable_params()]
    assert names == ['w']


@pytest.mark.parametrize('cls, count', [(nn.GradAccumulationCell, 2),
                                        (nn.MicroBatchInterleaved, 4)])
def test_batch_not_divisible(cls, count):
    with pytest.raises(ValueError, match=r"For micro batch initialization, the 0th dimension "
                                         rf"shape of input\(3\) must be divided by micro size"
                                         rf"\({count}\)"):
        cls(Net(), count)(ms.Tensor(np.ones((3, 3), np.float32)),
                          ms.Tensor(np.ones(3, np.float32)))


@pytest.mark.parametrize('cls, arg', [(nn.GradAccumulationCell, 'micro_size'),
                                      (nn.MicroBatchInterleaved, 'interleave_num')])
def test_count_errors(cls, arg):
    with pytest.raises(TypeError, match=rf"For '{cls.__name__}', the argument '{arg}' must be "
                                        r"integer, but got the type : <class 'float'>"):
        cls(Net(), 2.0)
    with pytest.raises(ValueError, match=rf"For '{cls.__name__}', the argument '{arg}' must be "
                                         r"large than 0, but got 0"):
        cls(Net(), 0)


def test_grad_accumulation_needs_a_cell():
    with pytest.raises(TypeError, match=r"For 'GradAccumulationCell', the argument 'network' "
                                        r"must cell type, but got the type : <class 'int'>"):
        nn.GradAccumulationCell(1, 2)


def test_parameter_update_writes_and_returns_input():
    net = Net()
    update = nn.ParameterUpdate(net.w)
    value = ms.Tensor(np.ones((3, 2), np.int32))
    out = update(value)
    assert out is value
    assert net.w.dtype == ms.float32
    np.testing.assert_array_equal(net.w.asnumpy(), np.ones((3, 2), np.float32))
    assert [name for name, _ in update.parameters_and_names()] == ['_param']


def test_parameter_update_errors():
    with pytest.raises(TypeError, match="For 'ParameterUpdate', 'param' must be 'Parameter'"):
        nn.ParameterUpdate(ms.Tensor(1.0))
    update = nn.ParameterUpdate(Net().w)
    with pytest.raises(ValueError, match=r"'value' must have the same shape as 'variable'. But "
                                         r"got 'value' shape: \(2, 2\), 'variable' shape: "
                                         r"\(3, 2\)"):
        update(ms.Tensor(np.ones((2, 2), np.float32)))
