"""What MindSpore code reads off a jitted function: ``jit(fn).__code__.co_name`` is
``'staging_specialize'`` (MindSpore 2.10's wrapper), ``__name__`` stays the function's; and
``mindspore.common._stub_tensor.StubTensor`` exists, with no value an instance of it."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.common._stub_tensor import StubTensor
from hookgrad.jit.function import staging_specialize


def add_one(x):
    return x + 1


def test_a_jitted_function_reports_the_wrapper_code_name_and_keeps_its_own_name():
    jitted = ms.jit(add_one)
    assert add_one.__code__.co_name == 'add_one'
    assert jitted.__code__.co_name == 'staging_specialize'
    assert jitted.__name__ == 'add_one' and jitted.__wrapped__ is add_one
    np.testing.assert_array_equal(jitted(ms.Tensor([1.0, 2.0])).asnumpy(), [2.0, 3.0])
    with pytest.raises(TypeError, match="call the jitted function itself"):
        staging_specialize(1)


class Square(nn.Cell):
    def construct(self, x):
        return x * x


def test_a_cell_construct_swapped_for_its_jitted_version_and_back():
    net = Square()
    x = ms.Tensor([1.0, 3.0])
    assert net.construct.__code__.co_name == 'construct'
    old = net.construct
    net.construct = ms.jit(net.construct)
    assert net.construct.__code__.co_name == 'staging_specialize'
    np.testing.assert_array_equal(net(x).asnumpy(), [1.0, 9.0])
    net.construct = old
    assert net.construct.__code__.co_name == 'construct'
    np.testing.assert_array_equal(net(x).asnumpy(), [1.0, 9.0])


def test_no_value_is_a_stub_tensor():
    x = ms.Tensor([1.0])
    assert not isinstance(x, StubTensor) and not isinstance(x + 1, StubTensor)
    assert StubTensor is not ms.Tensor
