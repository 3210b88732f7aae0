"""What every kind of hook may return: one policy, checked at the hook (docs/hooks.md)."""
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops


class Triple(nn.Cell):
    def construct(self, x):
        return x * 3.0


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.triple = Triple()

    def construct(self, x):
        return self.triple(x)


def x0():
    return ms.Tensor(np.array([1.0, 2.0], np.float32))


# Each kind runs ``change(grads) -> replacement`` on the gradients its hook receives, inside
# d sum((3x)**2) / dx, and returns that gradient. ``change`` gets and returns the kind's own
# form: one Tensor for tensor hooks, a tuple for the others.
def tensor_hook(change):
    x = x0()

    def f(x):
        y = x * 3.0
        y.register_hook(lambda g: change(g))
        return ops.sum(y * y)
    return ms.grad(f)(x)


def hook_backward(change):
    hook = ops.HookBackward(lambda grads: change(grads))
    return ms.grad(lambda x: ops.sum(hook(x * 3.0) ** 2))(x0())


def backward_pre_hook(change):
    net = Net()
    net.triple.register_backward_pre_hook(lambda cell, grad_output: change(grad_output))
    return ms.grad(lambda x: ops.sum(net(x) ** 2))(x0())


def backward_hook(change):
    net = Net()
    net.triple.register_backward_hook(lambda cell, grad_input, grad_output: change(grad_input))
    return ms.grad(lambda x: ops.sum(net(x) ** 2))(x0())


KINDS = {
    'tensor': (tensor_hook, r"tensor hook '.*<lambda>'", 'a gradient'),
    'HookBackward': (hook_backward, r"HookBackward hook '.*<lambda>'", r'grads\[0\]'),
    'backward_pre': (backward_pre_hook,
                     r"Cell 'Net.triple' backward pre hook '.*<lambda>'", r'grad_output\[0\]'),
    'backward': (backward_hook, r"Cell 'Net.triple' backward hook '.*<lambda>'",
                 r'grad_input\[0\]'),
}


def each(kind, fn):
    """Apply ``fn`` to the one gradient of the kind's form."""
    if kind == 'tensor':
        return fn
    return lambda grads: (fn(grads[0]),)


def plain(kind):
    return KINDS[kind][0](lambda g: None)


@pytest.mark.parametrize('kind', KINDS)
def test_a_float64_replacement_is_cast_to_the_gradient_dtype(kind):
    run = KINDS[kind][0]
    doubled = run(each(kind, lambda g: (g * 2).astype(ms.float64)))
    assert doubled.dtype == ms.float32
    np.testing.assert_array_equal(doubled.asnumpy(), 2 * plain(kind).asnumpy())


@pytest.mark.parametrize('kind', KINDS)
def test_a_non_floating_replacement_is_rejected(kind):
    run, who, what = KINDS[kind]
    with pytest.raises(TypeError, match=f"{who} returned {what} of dtype Int32, expected a "
                                        r"floating-point gradient \(Float32\)"):
        run(each(kind, lambda g: g.astype(ms.int32)))


@pytest.mark.parametrize('kind', KINDS)
def test_a_replacement_of_another_shape_is_rejected(kind):
    run, who, what = KINDS[kind]
    with pytest.raises(ValueError, match=rf"{who} returned {what} of shape \(3,\), expected "
                                         r"shape \(2,\)"):
        run(each(kind, lambda g: ms.Tensor(np.zeros(3, np.float32))))


@pytest.mark.parametrize('kind', KINDS)
def test_a_non_tensor_replacement_is_rejected(kind):
    run, who, what = KINDS[kind]
    if kind == 'tensor':        # a RuntimeError in MindSpore's words, as MindSpore 2.10 raises
        error, match = RuntimeError, (f"{who}: Tensor hook should be return Tensor, but get "
                                      rf"type: ndarray \(it must return a Tensor or None\)")
    else:
        error, match = TypeError, f"{who} returned {what} of type ndarray, expected a Tensor"
    with pytest.raises(error, match=match):
        run(each(kind, lambda g: np.zeros(2, np.float32)))


@pytest.mark.parametrize('kind', ['HookBackward', 'backward_pre', 'backward'])
def test_a_wrong_number_of_replacements_is_rejected(kind):
    run, who, _ = KINDS[kind]
    with pytest.raises(TypeError, match=f"{who} returned 2 gradients, expected 1"):
        run(lambda grads: (grads[0], grads[0]))
    with pytest.raises(TypeError, match=f"{who} must return None or a tuple of 1 gradient, "
                                        f"got str"):
        run(lambda grads: 'no')


@pytest.mark.parametrize('kind', ['HookBackward', 'backward_pre', 'backward'])
def test_one_tensor_replaces_a_single_gradient(kind):
    got = KINDS[kind][0](lambda grads: grads[0] * 0.5)
    np.testing.assert_array_equal(got.asnumpy(), 0.5 * plain(kind).asnumpy())


@pytest.mark.parametrize('kind', KINDS)
def test_an_exception_in_a_hook_is_noted_with_the_hook_and_cell(kind):
    run, who, _ = KINDS[kind]

    def fail(g):
        raise KeyError('inside')

    with pytest.raises(KeyError, match='inside') as info:
        run(fail)
    assert any(re.fullmatch(rf"\(raised in {who}\)", n)
               for n in info.value.__notes__), info.value.__notes__


def test_cast_replacements_stay_differentiable_for_higher_order():
    def f(x):
        y = x * x
        y.register_hook(lambda g: g.astype(ms.float64) * 3)
        return ops.sum(y)
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    second = ms.grad(lambda x: ops.sum(ms.grad(f)(x)))(x)
    np.testing.assert_allclose(second.asnumpy(), [6.0, 6.0])


def test_a_gradient_where_an_input_has_none_must_stay_none():
    class Pair(nn.Cell):
        def construct(self, x, k):
            return x * k

    cell = Pair()
    cell.register_backward_hook(lambda c, gi, go: (gi[0], ms.Tensor(1.0)))
    with pytest.raises(TypeError, match=r"returned grad_input\[1\] of type Tensor, expected None "
                                        r"\(that input has no gradient\)"):
        ms.grad(lambda x: ops.sum(cell(x, 2)))(x0())


# --------------------------------------------------------------------------- forward hooks
class Affine(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        return self.dense(x)


class TwoOut(nn.Cell):
    def construct(self, x):
        return x * 2.0, x * 3.0


def test_a_pre_hook_returning_inputs_construct_cannot_take_fails_at_the_hook():
    net = Affine()
    net.dense.register_forward_pre_hook(lambda cell, inputs: (inputs[0], inputs[0]))
    with pytest.raises(TypeError, match=r"Cell 'Affine.dense' forward pre hook '.*<lambda>' "
                                        r"returned 2 inputs, which Dense.construct cannot take "
                                        r"\(too many positional arguments\)"):
        net(ms.Tensor(np.ones((1, 2), np.float32)))


def test_a_pre_hook_returning_a_non_tensor_for_a_tensor_fails_at_the_hook():
    net = Affine()
    net.dense.register_forward_pre_hook(lambda cell, inputs: 'text')
    with pytest.raises(TypeError, match=r"forward pre hook '.*<lambda>' returned str as input 0, "
                                        r"expected a Tensor"):
        net(ms.Tensor(np.ones((1, 2), np.float32)))


def test_a_forward_hook_must_keep_the_output_structure():
    cell = TwoOut()
    handle = cell.register_forward_hook(lambda c, i, out: out[0])
    with pytest.raises(TypeError, match=r"Cell 'TwoOut' forward hook '.*<lambda>' returned "
                                        r"Tensor, expected a tuple of 2 outputs"):
        cell(x0())
    handle.remove()
    handle = cell.register_forward_hook(lambda c, i, out: (out[0], 1.0))
    with pytest.raises(TypeError, match="returned float as output 1, expected a Tensor"):
        cell(x0())
    handle.remove()
    net = Affine()
    net.dense.register_forward_hook(lambda c, i, out: (out,))
    with pytest.raises(TypeError, match=r"Cell 'Affine.dense' forward hook '.*<lambda>' returned "
                                        r"tuple, expected a Tensor \(the cell returned one\)"):
        net(ms.Tensor(np.ones((1, 2), np.float32)))


def test_forward_hooks_may_change_shapes_and_dtypes():
    cell = TwoOut()
    cell.register_forward_hook(lambda c, i, out: (out[0].astype(ms.float64), out[1][:1]))
    a, b = cell(x0())
    assert a.dtype == ms.float64 and b.shape == (1,)
    pre = Triple()
    pre.register_forward_pre_hook(lambda c, inputs: inputs[0].astype(ms.float64))
    assert pre(x0()).dtype == ms.float64


# --------------------------------------------------------------------------- registration
def test_tensor_hooks_and_hook_backward_with_the_wrong_signature_fail_when_called():
    # registration accepts them, as in MindSpore; the backward pass that calls them fails
    x = x0()
    x.register_hook(lambda: None)
    with pytest.raises(TypeError, match=r"tensor hook '.*<lambda>\(\)' cannot be called with 1 "
                                        r"positional argument"):
        ms.grad(lambda a: (a * 2).sum())(x)
    hook = ops.HookBackward(lambda a, b: None)
    with pytest.raises(TypeError, match=r"cannot be called with 1 positional argument"):
        ms.grad(lambda a: hook(a * 2).sum())(x0())
    y = x0()
    y.register_hook(lambda *grads: None)            # variadic hooks fit
    ms.grad(lambda a: (a * 2).sum())(y)
    ops.HookBackward(print)                         # builtins are checked when called