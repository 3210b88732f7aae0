"""The transforms inside ms.jit: replayed programs give eager's results, call after call."""
import numpy as np

import hookgrad as ms
from hookgrad import nn, ops


def T(v, dtype=np.float32):
    return ms.Tensor(np.asarray(v, dtype=dtype))


def check_replays(fn, inputs):
    """Run ``fn`` jitted and eagerly on each input; the results are equal and the jitted
    function was traced once and replayed after."""
    jitted = ms.jit(fn)
    for x in inputs:
        got, want = jitted(x), fn(x)
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())
    assert jitted.traces == 1 and jitted.replays == len(inputs) - 1


X = [T([1., 2., 3.]) * k for k in (1, 2, 3)]


def test_grad_operation_without_weights_and_a_dict_output():
    w = ms.Parameter(T([2., 2., 2.]), name='w')
    b = ms.Parameter(T([1., 1., 1.]), name='b')
    grad_fn = ops.GradOperation(get_by_list=True)(lambda a: {'s': a * b * 2 + a * w * 3})
    check_replays(grad_fn, X)


def test_gradients_of_integer_arguments():
    check_replays(ms.grad(lambda a: (a * 1.5) ** 2), [T([1, 2, 3], np.int32) * k for k in (1, 2, 3)])


def test_vmap_jvp_and_jacobians():
    check_replays(ms.vmap(lambda r: (r * r).sum()), [T(np.arange(6).reshape(3, 2)) + k
                                                      for k in (0, 1, 2)])
    check_replays(lambda a: ms.jvp(lambda q: q ** 3, a, ops.ones_like(a))[1], X)
    check_replays(ms.jacrev(ops.sin), X)
    check_replays(ms.jacfwd(ops.sin), X)
    check_replays(lambda a: ops.derivative(ops.sin, a, 2)[1], X)
    check_replays(lambda a: ops.jet(ops.sin, a, ops.stack([a, a]))[1], X)


def test_second_derivative_through_a_custom_bprop():
    class CubeRule(nn.Cell):
        def construct(self, x):
            return x * x

        def bprop(self, x, out, dout):
            return (3 * x * x * dout,)

    check_replays(ms.grad(ms.grad(CubeRule())), X)
