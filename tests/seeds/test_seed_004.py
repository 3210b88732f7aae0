"""Seed 004 (Paddle hook article): tensor hooks on leaves and on a non-leaf."""
import numpy as np

import hookgrad as ms


def test_tensor_hooks_example():
    printed = []

    def print_hook_fn(grad):
        printed.append(grad.asnumpy().copy())

    def double_hook_fn(grad):
        grad = grad * 2
        return grad

    x = ms.Tensor([0., 1., 2., 3.], requires_grad=True)
    y = ms.Tensor([4., 5., 6., 7.], requires_grad=True)
    z = ms.Tensor([1., 2., 3., 4.])
    h = x.register_hook(print_hook_fn)
    x.register_hook(double_hook_fn)
    w = x + y
    w.retain_grad()
    w.register_hook(lambda grad: grad * 2)
    o = z.matmul(w)
    o.backward()
    assert len(printed) == 1
    np.testing.assert_array_equal(printed[0], [2., 4., 6., 8.])
    np.testing.assert_array_equal(w.grad.asnumpy(), [1., 2., 3., 4.])
    np.testing.assert_array_equal(x.grad.asnumpy(), [4., 8., 12., 16.])
    np.testing.assert_array_equal(y.grad.asnumpy(), [2., 4., 6., 8.])
    h.remove()
    h.remove()      # idempotent
    o2 = z.matmul(x + y)
    o2.backward()
    assert len(printed) == 1                                     # removed hook stays silent
    np.testing.assert_array_equal(x.grad.asnumpy(), [6., 12., 18., 24.])   # accumulates
