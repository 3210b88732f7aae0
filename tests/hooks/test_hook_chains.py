"""A cell's backward hooks (and backward pre-hooks) run as a chain, as in MindSpore 2.10: each
hook is given what the one before returned; the count is checked at each hook, the shapes once,
on what the chain ends with. Expected values are MindSpore 2.10's (CPU)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.ops import GradOperation


class MatMulNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mul = nn.MatMul()

    def construct(self, x, y):
        return self.mul(x, y) * 2


def wrong_shape(seen):
    def hook(cell, grad_input, grad_output):
        seen.append([tuple(g.shape) for g in grad_input])
        return ms.Tensor(np.ones([1], np.float32)), ms.Tensor(np.ones([1], np.float32))
    return hook


def sevens_and_eights(seen):
    def hook(cell, grad_input, grad_output):
        seen.append([tuple(g.shape) for g in grad_input])
        return (ms.Tensor(np.full([3, 3], 7, np.float32)),
                ms.Tensor(np.full([3, 3], 8, np.float32)))
    return hook


def keeps(seen):
    def hook(cell, grad_input, grad_output):
        seen.append([tuple(g.shape) for g in grad_input])
    return hook


def three_gradients(cell, grad_input, grad_output):
    return grad_input + grad_output


def grads_of(net):
    x = ops.ones((3, 3), ms.float32)
    return GradOperation(get_all=True)(net)(x, ops.ones((3, 3), ms.float32))


def test_a_hook_is_given_what_the_hook_before_returned_and_the_last_one_counts():
    seen = []
    net = MatMulNet()
    net.mul.register_backward_hook(wrong_shape(seen))
    net.mul.register_backward_hook(sevens_and_eights(seen))
    gx, gy = grads_of(net)
    assert seen == [[(3, 3), (3, 3)], [(1,), (1,)]]
    np.testing.assert_array_equal(gx.asnumpy(), np.full([3, 3], 7, np.float32))
    np.testing.assert_array_equal(gy.asnumpy(), np.full([3, 3], 8, np.float32))


def test_the_shapes_the_chain_ends_with_are_checked_naming_the_last_hook_that_returned():
    seen = []
    net = MatMulNet()
    net.mul.register_backward_hook(wrong_shape(seen))
    net.mul.register_backward_hook(keeps(seen))
    with pytest.raises(ValueError, match=r"backward hook 'wrong_shape.<locals>.hook' returned "
                                         r"grad_input\[0\] of shape \(1,\), expected shape \(3, 3\)"):
        grads_of(net)
    assert seen == [[(3, 3), (3, 3)], [(1,), (1,)]]


def test_a_wrong_count_fails_at_the_hook_even_when_a_later_hook_would_fix_it():
    seen = []
    net = MatMulNet()
    net.mul.register_backward_hook(three_gradients)
    net.mul.register_backward_hook(sevens_and_eights(seen))
    with pytest.raises(TypeError, match=r"'three_gradients' returned 3 gradients, expected 2"):
        grads_of(net)
    assert seen == []


def test_a_hook_after_a_wrong_shape_returning_a_wrong_count_raises_type_error():
    # MindSpore's test_pynative_backward_hook_return_error: the first hook's (1,) gradients
    # reach the second, whose three gradients are refused by count (TypeError)
    seen = []
    net = MatMulNet()
    net.mul.register_backward_hook(wrong_shape(seen))
    net.mul.register_backward_hook(three_gradients)
    with pytest.raises(TypeError, match="returned 3 gradients, expected 2"):
        grads_of(net)


class Double(nn.Cell):
    def construct(self, x):
        return x * 2


def test_backward_pre_hooks_chain_too():
    seen = []

    def wrong(cell, grad_output):
        seen.append(tuple(grad_output[0].shape))
        return (ms.Tensor(np.ones([1], np.float32)),)

    def sevens(cell, grad_output):
        seen.append(tuple(grad_output[0].shape))
        return (ms.Tensor(np.full([3], 7, np.float32)),)

    net = Double()
    net.register_backward_pre_hook(wrong)
    net.register_backward_pre_hook(sevens)
    g = ms.grad(net)(ops.ones(3, ms.float32))
    assert seen == [(3,), (1,)]
    np.testing.assert_array_equal(g.asnumpy(), np.array([14, 14, 14], np.float32))

    alone = Double()
    alone.register_backward_pre_hook(wrong)
    with pytest.raises(ValueError, match=r"backward pre hook '.*wrong' returned grad_output\[0\] "
                                         r"of shape \(1,\), expected shape \(3,\)"):
        ms.grad(alone)(ops.ones(3, ms.float32))

    counted = Double()
    counted.register_backward_pre_hook(lambda cell, grad_output: grad_output + grad_output)
    counted.register_backward_pre_hook(sevens)
    with pytest.raises(TypeError, match="returned 2 gradients, expected 1"):
        ms.grad(counted)(ops.ones(3, ms.float32))


class KwargsNet(nn.Cell):
    def construct(self, x, bias=None):
        if bias is not None:
            return x * x + bias
        return x * x


@pytest.mark.parametrize('bad', [lambda c, a, k: (t * 2 for t in a),
                                 lambda c, a, k: a[0] * 2,
                                 lambda c, a, k: (a, k, 1),
                                 lambda c, a, k: [a, k]])
def test_a_with_kwargs_pre_hook_not_returning_args_and_kwargs_raises_runtime_error(bad):
    # MindSpore 2.10 raises RuntimeError ("must return None or a tuple of (new_args,
    # new_kwargs)") for each of these
    net = KwargsNet()
    net.register_forward_pre_hook(bad, with_kwargs=True)
    with pytest.raises(RuntimeError, match=r"\(with_kwargs\) must return None or a tuple of "
                                           r"\(new_args, new_kwargs\)"):
        net(ms.Tensor(2.0, ms.float32))


def test_a_with_kwargs_pre_hook_returning_kwargs_that_are_not_a_dict_raises_type_error():
    net = KwargsNet()
    net.register_forward_pre_hook(lambda c, a, k: (a, 5), with_kwargs=True)
    with pytest.raises(TypeError, match="returned new_kwargs of type int, expected a dict"):
        net(ms.Tensor(2.0, ms.float32))
    good = KwargsNet()
    good.register_forward_pre_hook(lambda c, a, k: (a, {'bias': k['bias'] * 2}), with_kwargs=True)
    out = good(ms.Tensor(2.0, ms.float32), bias=ms.Tensor(3.0, ms.float32))
    assert float(out.asnumpy()) == 10.0     # 2 * 2 + 3 * 2, as MindSpore gives
