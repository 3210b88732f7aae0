"""The backward loop: accumulation, ordering, freeing, grad mode, errors, atomicity."""
import gc
import weakref

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def leaf(values):
    return ms.Tensor(np.asarray(values, dtype=np.float32), requires_grad=True)


def test_reused_tensor_accumulates_gradients():
    x = leaf([1., 2., 3.])
    y = x * x + x * 3 + x
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * np.array([1., 2., 3.]) + 4)


def test_diamond_graph_runs_each_node_once_with_complete_gradient():
    x = leaf([2.])
    a = x * 3
    calls = []
    a.register_hook(lambda g: calls.append(g.item()))
    b = a * a + a       # a is used three times
    b.backward()
    assert calls == [2 * 6. + 1]
    np.testing.assert_allclose(x.grad.asnumpy(), [3 * (2 * 6. + 1)])


def test_broadcast_gradients_are_reduced_to_input_shapes():
    a = leaf(np.ones((2, 3)))
    b = leaf(np.ones((3,)))
    c = leaf(np.ones((2, 1)))
    (a * b + c).backward()
    assert a.grad.shape == (2, 3) and b.grad.shape == (3,) and c.grad.shape == (2, 1)
    np.testing.assert_allclose(b.grad.asnumpy(), [2., 2., 2.])
    np.testing.assert_allclose(c.grad.asnumpy(), [[3.], [3.]])


def test_grads_accumulate_across_backward_calls():
    x = leaf([1., 2.])
    (x * 2).backward()
    (x * 3).backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [5., 5.])


def test_backward_with_explicit_gradient_and_its_shape_check():
    x = leaf([1., 2.])
    (x * 2).backward(ms.Tensor([1., 10.]))
    np.testing.assert_allclose(x.grad.asnumpy(), [2., 20.])
    with pytest.raises(ValueError, match=r"gradient has shape \(3,\), expected the tensor's shape \(2,\)"):
        (x * 2).backward(ms.Tensor([1., 1., 1.]))


def test_second_backward_through_freed_graph_raises_clearly():
    x = leaf([1.])
    y = x * x
    y.backward()
    with pytest.raises(RuntimeError, match="already been freed.*retain_graph=True"):
        y.backward()


def test_retain_graph_allows_a_second_backward():
    x = leaf([3.])
    y = x * x
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [12.])


def test_graph_is_freed_after_backward():
    x = leaf(np.ones(4))
    y = ops.exp(x)
    node = y.grad_fn
    assert node.saved
    y.backward()
    assert node.saved is None


def test_nothing_is_recorded_without_requires_grad_or_under_no_grad():
    a = ms.Tensor([1., 2.])
    assert (a * 2).grad_fn is None and not (a * 2).requires_grad
    x = leaf([1., 2.])
    with ms.no_grad():
        y = x * 2
    assert y.grad_fn is None and not y.requires_grad
    assert ms.is_grad_enabled()


def test_no_grad_as_decorator_and_enable_grad_inside():
    x = leaf([1.])

    @ms.no_grad()
    def f():
        with ms.enable_grad():
            inner = x * 2
        return x * 2, inner

    outer, inner = f()
    assert not outer.requires_grad and inner.requires_grad


def test_stop_gradient_and_detach_cut_the_graph():
    x = leaf([2.])
    y = x * ops.stop_gradient(x) + x.detach() * x
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [4.])


def test_backward_on_tensor_without_graph_raises():
    with pytest.raises(RuntimeError, match="does not require grad"):
        ms.Tensor([1.]).backward()


def test_requires_grad_only_for_floating_tensors():
    with pytest.raises(TypeError, match="only floating-point tensors can require gradients.*Int64"):
        ms.Tensor([1, 2], requires_grad=True)
    x = ms.Tensor([1.])
    assert x.requires_grad_() is x and x.requires_grad and x.is_leaf


def test_retain_grad_keeps_non_leaf_gradient():
    x = leaf([1., 2.])
    y = x * 3
    y.retain_grad()
    assert y.retains_grad and not x.retains_grad
    (y * y).backward()
    np.testing.assert_allclose(y.grad.asnumpy(), [6., 12.])
    np.testing.assert_allclose(x.grad.asnumpy(), [18., 36.])


def test_failed_backward_leaves_grads_and_graph_untouched():
    x = leaf([1., 2.])
    y = x * 2
    z = y * 3

    def broken(g):
        raise KeyError("boom")

    handle = y.register_hook(broken)
    with pytest.raises(KeyError, match="boom"):
        z.backward()
    assert x.grad is None
    handle.remove()
    z.backward()        # the graph was not freed by the failed pass
    np.testing.assert_allclose(x.grad.asnumpy(), [6., 6.])


def test_deep_graph_has_no_recursion_limit():
    x = leaf([1.])
    y = x
    for _ in range(20000):
        y = y * 1.0001
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [1.0001 ** 20000], rtol=1e-3)


def test_graph_memory_is_released_when_outputs_die():
    x = leaf(np.ones(3))
    y = ops.exp(x * 2)
    ref = weakref.ref(y.grad_fn)
    del y
    gc.collect()
    assert ref() is None


def test_mixed_dtype_gradients_are_cast_to_each_leaf_dtype():
    a = ms.Tensor(np.ones(2, np.float16), requires_grad=True)
    b = ms.Tensor(np.ones(2, np.float64), requires_grad=True)
    (a * b).backward()
    assert a.grad.dtype == ms.float16 and b.grad.dtype == ms.float64


def test_int_and_float_promote_to_the_float_type():
    assert (ms.Tensor([1, 2], ms.int32) + ms.Tensor([1.], ms.float32)).dtype == ms.float32
    assert (ms.Tensor([1, 2]) * 2.5).dtype == ms.float32
    assert (ms.Tensor([1., 2.], ms.float16) * 2.5).dtype == ms.float16
    assert (2 - ms.Tensor([1., 2.], ms.float64)).dtype == ms.float64


def test_leaf_gradients_are_writeable_and_never_alias():
    a = leaf([1., 2.])
    b = leaf([3., 4.])
    root = ms.Tensor([1., 1.])
    (a + b).backward(root)          # Add passes the same gradient array to both inputs
    ga, gb = a.grad.asnumpy(), b.grad.asnumpy()
    assert ga.flags.writeable and gb.flags.writeable
    assert not np.shares_memory(ga, gb) and not np.shares_memory(ga, root.asnumpy())
    s = leaf(np.ones((2, 3)))
    ops.sum(s).backward()           # a broadcast view in backward becomes an owned array
    s.grad.asnumpy()[0, 0] = 5.
    assert s.grad.asnumpy().sum() == 10.


def test_pow_gradient_at_zero_exponent_is_zero_even_at_zero_base():
    x = leaf([0., 2.])
    (x ** 0).backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [0., 0.])
    # integers to negative powers: MindSpore 2.10's values (computed in floating point, cast back)
    assert (ms.Tensor(np.array([0, 1, -1, 2, -2, 3], np.int32)) ** -1).asnumpy().tolist() == \
        [-2 ** 31, 1, -1, 0, 0, 0]
    assert (ms.Tensor(np.array([0, 1, -1, 2], np.int8)) ** -2).asnumpy().tolist() == [0, 1, 1, 0]
    base, exponent = ms.Tensor(np.array([2, 2, 2], np.int32)), ms.Tensor(np.array([-1, 0, 3]))
    assert (base ** exponent).asnumpy().tolist() == [0, 1, 8]
