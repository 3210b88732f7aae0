"""ops.HookBackward: identity forward; the hook sees and may replace the arriving gradients."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def test_hook_sees_gradient_tuple_and_may_replace_it():
    seen = []

    def hook_fn(grads):
        seen.append(tuple(g.asnumpy().tolist() for g in grads))
        return (grads[0] * 10,)

    hook = ops.HookBackward(hook_fn)
    x = ms.Tensor([1., 2.], requires_grad=True)
    y = hook(x * 2)
    assert np.array_equal(y.asnumpy(), [2., 4.])
    (y * 3).backward()
    assert seen == [([3., 3.],)]
    np.testing.assert_allclose(x.grad.asnumpy(), [60., 60.])


def test_several_inputs_share_one_hook_call():
    seen = []
    hook = ops.HookBackward(lambda grads: seen.append(len(grads)))
    a = ms.Tensor([1.], requires_grad=True)
    b = ms.Tensor([2.], requires_grad=True)
    a2, b2 = hook(a * 1, b * 1)
    (a2 * b2).backward()
    assert seen == [2]
    np.testing.assert_allclose(a.grad.asnumpy(), [2.])
    np.testing.assert_allclose(b.grad.asnumpy(), [1.])


def test_unused_output_gets_a_zero_gradient_in_the_tuple():
    seen = []
    hook = ops.HookBackward(lambda grads: seen.append([g.asnumpy().tolist() for g in grads]))
    a = ms.Tensor([1.], requires_grad=True)
    b = ms.Tensor([2.], requires_grad=True)
    a2, b2 = hook(a, b)
    (a2 * 5).backward()
    assert seen == [[[5.], [0.]]]


def test_hook_backward_works_in_higher_order_gradients():
    hook = ops.HookBackward(lambda grads: (grads[0] * 2,))
    f = lambda x: hook(x * x)
    d2 = ms.grad(ms.grad(f))(ms.Tensor(3.0, ms.float64))
    assert d2.item() == pytest.approx(4.0)


def test_bad_hook_returns_raise_errors_naming_the_hook():
    def wrong_count(grads):
        return (grads[0], grads[0])

    def wrong_shape(grads):
        return (ms.Tensor([1., 2., 3.]),)

    x = ms.Tensor([1., 2.], requires_grad=True)
    with pytest.raises(TypeError, match=r"HookBackward hook '.*wrong_count' returned 2 gradients, expected 1 \(grads\)"):
        ops.HookBackward(wrong_count)(x * 1).backward()
    with pytest.raises(ValueError, match=r"wrong_shape' returned grads\[0\] of shape \(3,\), expected shape \(2,\)"):
        ops.HookBackward(wrong_shape)(x * 1).backward()
    with pytest.raises(TypeError, match="ops.HookBackward: Expected a callable hook function"):
        ops.HookBackward(None)
