"""Seed 001 (PyTorch hook article): the tensor-hook example on mean(sqrt(x + 3))."""
import numpy as np

import hookgrad as ms
from hookgrad import ops


def test_tensor_hook_sees_gradient_of_mean_sqrt():
    x = ms.Tensor([[0.5681], [0.4868], [0.9277]], requires_grad=True)
    seen = []
    y = x + 3
    z = ops.mean(ops.pow(y, 1 / 2))
    y.register_hook(lambda grad: seen.append(grad.asnumpy().copy()))
    z.backward()
    expected = 1 / (6 * np.sqrt(x.asnumpy() + 3))
    assert len(seen) == 1
    np.testing.assert_allclose(seen[0], expected, rtol=1e-6)
    # the seed prints these values, rounded to four places
    np.testing.assert_allclose(seen[0], [[0.0882], [0.0893], [0.0841]], atol=5e-5)
    np.testing.assert_allclose(x.grad.asnumpy(), expected, rtol=1e-6)
    lr = 1e-3
    new_x = x.asnumpy() - lr * x.grad.asnumpy()
    np.testing.assert_allclose(new_x, [[0.5680], [0.4867], [0.9276]], atol=5e-5)
