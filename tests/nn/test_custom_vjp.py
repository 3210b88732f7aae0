"""ops.custom_vjp: a function with its own backward rule; values from MindSpore 2.10."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


@ops.custom_vjp
def scaled(x, y):
    return x * y


scaled.defbwd(lambda x, y, out, dout: (dout * 2 * x, dout * 3))

X = ms.Tensor(np.array([1.0, 2.0], np.float32))
Y = ms.Tensor(np.array([3.0, 4.0], np.float32))


def test_forward_runs_the_function_and_backward_the_rule():
    np.testing.assert_array_equal(scaled(X, Y).asnumpy(), [3.0, 8.0])
    gx, gy = ms.grad(scaled, (0, 1))(X, Y)
    np.testing.assert_array_equal(gx.asnumpy(), [2.0, 4.0])       # MindSpore 2.10
    np.testing.assert_array_equal(gy.asnumpy(), [3.0, 3.0])


def test_rule_composes_with_the_rest_of_the_graph():
    gx, gy = ms.grad(lambda a, b: (scaled(a, b) * a).sum(), (0, 1))(X, Y)
    np.testing.assert_array_equal(gx.asnumpy(), [5.0, 16.0])      # MindSpore 2.10
    np.testing.assert_array_equal(gy.asnumpy(), [3.0, 6.0])


def test_called_with_no_function_it_is_a_decorator():
    f = ops.custom_vjp()(lambda x: x * x)
    f.defbwd(lambda x, out, dout: (dout * 10,))
    assert float(ms.grad(f)(ms.Tensor(3.0))) == 10.0


def test_errors():
    f = ops.custom_vjp(lambda x: x * x)
    with pytest.raises(RuntimeError, match=r"custom_vjp: <lambda> has no backward rule; set one "
                                           r"with <lambda>\.defbwd\(bwd\)"):
        ms.grad(f)(ms.Tensor(3.0))
    with pytest.raises(TypeError, match="custom_vjp: defbwd needs a function, got int"):
        f.defbwd(3)
    with pytest.raises(TypeError, match="custom_vjp: expected a function, got str"):
        ops.custom_vjp('x')
