"""``mindspore._Function``: PyTorch-style custom autograd functions; the values are MindSpore
2.10's on the CPU."""
import numpy as np
import pytest

import hookgrad as ms

X = np.float32([1.0, 3.0])


class Scale(ms._Function):
    """k * x * x with a non-Tensor argument and a saved tensor."""

    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return x * x * k

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2 * x * ctx.k, None


class Two(ms._Function):
    """Two outputs; backward gets one gradient per output."""

    @staticmethod
    def forward(ctx, a, b):
        return a + b, a * b

    @staticmethod
    def backward(ctx, ga, gb):
        return ga + gb * 2, ga - gb


def test_forward_and_the_custom_backward():
    x = ms.Tensor(X)
    np.testing.assert_array_equal(Scale.apply(x, 2.0).asnumpy(), [2, 18])
    np.testing.assert_array_equal(ms.grad(lambda a: Scale.apply(a, 2.0).sum())(x).asnumpy(),
                                  [4, 12])


def test_several_outputs_and_inputs():
    a, b = ms.Tensor(X), ms.Tensor(X.copy())
    ga, gb = ms.grad(lambda a, b: sum(o.sum() for o in Two.apply(a, b)), (0, 1))(a, b)
    np.testing.assert_array_equal(ga.asnumpy(), [3, 3])
    np.testing.assert_array_equal(gb.asnumpy(), [0, 0])


def test_ctx_says_which_inputs_need_a_gradient_and_hooks_see_the_call():
    seen = []

    class Triple(ms._Function):
        @staticmethod
        def forward(ctx, a, n):
            seen.append(ctx.needs_input_grad)
            return a * 3

        @staticmethod
        def backward(ctx, g):
            return g * 3, None

    grads = ms.grad(lambda a: Triple.apply(a, 2).sum())(ms.Tensor(X))
    np.testing.assert_array_equal(grads.asnumpy(), [3, 3])
    assert seen == [(True, False)]
    w = ms.Tensor(X)
    w.register_hook(lambda g: g * 10)
    out = ms.grad(lambda a: Triple.apply(a * 1.0, 2).sum())(w)
    assert out.shape == (2,)


def test_a_wrong_number_of_gradients_is_an_error():
    class Bad(ms._Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    with pytest.raises(ValueError, match="Bad.backward returned 2 gradients for 1 inputs"):
        ms.grad(lambda a: Bad.apply(a).sum())(ms.Tensor(X))
    with pytest.raises(NotImplementedError, match="must define forward"):
        ms._Function.apply(ms.Tensor(X))


def test_a_sensitivity_in_the_structure_of_a_dict_output_with_a_constant():
    # MindSpore 2.10 (PyNative and GRAPH_MODE, with and without jit): the constant entry's
    # sensitivity is ignored; the gradient is [2, 6]
    class Net(ms.nn.Cell):
        def construct(self, x):
            return {'a': x * 2, 'b': 1}

    grad = ms.ops.GradOperation(sens_param=True)
    x = ms.Tensor(X)
    sens = {'a': ms.Tensor(np.float32([1.0, 3.0])), 'b': 1}
    for fn in (Net(), ms.jit(Net().construct)):
        np.testing.assert_array_equal(grad(fn)(x, sens).asnumpy(), [2, 6])
    with pytest.raises(ValueError, match="got 3 sensitivities for 1 output"):
        grad(Net())(x, (sens['a'], 1, 2))
