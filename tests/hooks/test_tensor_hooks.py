"""Tensor.register_hook: order, replacement, leaf/non-leaf rules, handles, errors."""
import functools
import gc
import weakref

import numpy as np
import pytest

import hookgrad as ms


def leaf(v):
    return ms.Tensor(np.asarray(v, np.float32), requires_grad=True)


def test_hooks_run_in_registration_order_each_seeing_the_previous_replacement():
    events = []
    x = leaf([1., 2.])
    x.register_hook(lambda g: events.append(('a', g.asnumpy().tolist())) or g * 10)
    x.register_hook(lambda g: events.append(('b', g.asnumpy().tolist())))
    x.register_hook(lambda g: events.append(('c', g.asnumpy().tolist())) or g + 1)
    (x * 2).backward()
    assert events == [('a', [2., 2.]), ('b', [20., 20.]), ('c', [20., 20.])]
    np.testing.assert_allclose(x.grad.asnumpy(), [21., 21.])


def test_non_leaf_hook_replacement_flows_on_and_retained_grad_is_pre_hook():
    x = leaf([1.])
    y = x * 3
    y.retain_grad()
    y.register_hook(lambda g: g * 100)
    (y * 2).backward()
    np.testing.assert_allclose(y.grad.asnumpy(), [2.])
    np.testing.assert_allclose(x.grad.asnumpy(), [600.])


def test_hooks_fire_through_ms_grad_on_the_argument_tensor():
    seen = []
    x = ms.Tensor([1., 2.])        # does not require grad: ms.grad differentiates it anyway
    x.register_hook(lambda g: seen.append(g.asnumpy().tolist()) or g * 2)
    g = ms.grad(lambda t: t * 5)(x)
    assert seen == [[5., 5.]]
    np.testing.assert_allclose(g.asnumpy(), [10., 10.])


def test_remove_is_idempotent_and_removed_hook_no_longer_fires():
    calls = []
    x = leaf([1.])
    h1 = x.register_hook(lambda g: calls.append(1))
    h2 = x.register_hook(lambda g: calls.append(2))
    assert h1.id != h2.id
    h1.remove()
    h1.remove()
    (x * 1).backward()
    assert calls == [2]
    with h2:
        pass
    (x * 1).backward()
    assert calls == [2]


def test_a_hook_may_remove_itself_while_hooks_run():
    calls = []
    x = leaf([1.])
    handles = []

    def once(g):
        calls.append('once')
        handles[0].remove()

    handles.append(x.register_hook(once))
    x.register_hook(lambda g: calls.append('other'))
    (x * 1).backward()
    (x * 1).backward()
    assert calls == ['once', 'other', 'other']


def test_any_callable_is_a_hook():
    class Scale:
        def __call__(self, g):
            return g * 3

    def scale(g, k):
        return g * k

    x = leaf([1.])
    x.register_hook(Scale())
    x.register_hook(functools.partial(scale, k=2))
    (x * 1).backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [6.])


def test_handle_does_not_keep_the_tensor_alive():
    x = leaf([1.])
    handle = x.register_hook(lambda g: None)
    ref = weakref.ref(x)
    del x
    gc.collect()
    assert ref() is None
    handle.remove()     # harmless after the tensor died


def test_non_callable_hook_is_rejected():
    with pytest.raises(TypeError, match="Tensor.register_hook: Expected a callable hook function, got int"):
        leaf([1.]).register_hook(3)


def test_hook_returning_wrong_shape_or_dtype_names_the_hook():
    def bad_shape(g):
        return ms.Tensor([1., 2., 3.])

    def bad_dtype(g):
        return g.astype(ms.int32)

    x = leaf([1., 2.])
    h = x.register_hook(bad_shape)
    with pytest.raises(ValueError, match=r"tensor hook 'test_hook_returning_wrong_shape_or_dtype_names_the_hook.<locals>.bad_shape' returned a gradient of shape \(3,\).*expected shape \(2,\)"):
        (x * 1).backward()
    assert x.grad is None
    h.remove()
    x.register_hook(bad_dtype)
    with pytest.raises(TypeError, match="bad_dtype' returned a gradient of dtype Int32, expected a floating-point gradient \\(Float32\\)"):
        (x * 1).backward()
    with pytest.raises(RuntimeError, match="Tensor hook should be return Tensor, but get type: "
                                           "list"):
        y = leaf([1.])
        y.register_hook(lambda g: [1.])
        (y * 1).backward()


def test_exception_in_hook_propagates_with_a_note_naming_the_hook():
    def explode(g):
        raise ZeroDivisionError("inside")

    x = leaf([1.])
    x.register_hook(explode)
    with pytest.raises(ZeroDivisionError) as info:
        (x * 1).backward()
    assert any("explode" in n for n in getattr(info.value, '__notes__', []))


def test_hooks_see_tensors_with_graph_when_create_graph():
    x = ms.Tensor([2.], ms.float64, requires_grad=True)
    y = x * x
    seen = []
    y.register_hook(lambda g: seen.append(g.requires_grad))
    y.backward(create_graph=True)
    assert seen == [False] and x.grad.requires_grad


def test_hook_on_an_unused_output_does_not_fire():
    calls = []
    x = leaf([1.])
    unused = x * 5
    unused.register_hook(lambda g: calls.append(g))
    (x * 2).backward()
    assert calls == []
