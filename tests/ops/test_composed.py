"""aminmax, batch_dot, approximate_equal and accumulate_n (and their Primitives): MindSpore
2.10's results and gradients (CPU) recorded as literals, and argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.gradcheck import check_double_grad, check_grad


def T(a, dtype=np.float32):
    return ms.Tensor(np.array(a, dtype))


X = [[1.0, 5.0, -2.0], [3.0, 3.0, 0.5]]
A = np.arange(12, dtype=np.float32).reshape(2, 2, 3) / 4
B = np.arange(18, dtype=np.float32).reshape(2, 3, 3) / 5


def test_aminmax_values_and_gradient():
    low, high = ops.aminmax(T(X))
    np.testing.assert_array_equal(low.asnumpy(), [1.0, 3.0, -2.0])
    np.testing.assert_array_equal(high.asnumpy(), [3.0, 5.0, 0.5])
    low, high = ops.aminmax(T(X), axis=1, keepdims=True)
    assert low.shape == (2, 1)
    np.testing.assert_array_equal(low.asnumpy(), [[-2.0], [0.5]])
    np.testing.assert_array_equal(high.asnumpy(), [[5.0], [3.0]])
    low, high = ops.aminmax(T(X, np.int32), axis=-1)
    assert low.dtype == ms.int32
    np.testing.assert_array_equal(high.asnumpy(), [5, 3])
    low, high = ops.aminmax(T(X), axis=None)
    assert low.shape == () and float(low.asnumpy()) == -2.0 and float(high.asnumpy()) == 5.0

    def f(v):
        low, high = ops.aminmax(v, axis=1)
        return (low * T([1.0, 2.0])).sum() + (high * T([3.0, 4.0])).sum()
    # MindSpore 2.10's gradient: a tie (the 3s of row 1) sends it to the first
    np.testing.assert_array_equal(ms.grad(f)(T(X)).asnumpy(), [[0, 3, 1], [4, 0, 2]])


def test_batch_dot_values_and_gradients():
    default = [[[0.75, 0.9, 1.05], [2.1, 2.7, 3.3]], [[12.9, 13.95, 15.0], [18.3, 19.8, 21.3]]]
    np.testing.assert_allclose(ops.batch_dot(T(A), T(B)).asnumpy(), default, rtol=1e-6)
    np.testing.assert_allclose(ops.batch_dot(T(A), T(B), (2, 1)).asnumpy(), default, rtol=1e-6)
    np.testing.assert_allclose(ops.batch_dot(T(A), T(B), 2).asnumpy(),
                               [[[0.25, 0.7, 1.15], [0.7, 2.5, 4.3]],
                                [[10.6, 13.75, 16.9], [15.1, 19.6, 24.1]]], rtol=1e-6)
    pair = ops.batch_dot(T([[1.0, 2.0], [3.0, 4.0]]), T([[5.0, 6.0], [7.0, 8.0]]))
    np.testing.assert_array_equal(pair.asnumpy(), [[17.0], [53.0]])
    weights = T(np.arange(12).reshape(2, 2, 3))
    ga, gb = ms.grad(lambda a, b: (ops.batch_dot(a, b, (2, 1)) * weights).sum(), (0, 1))(
        T(A), T(B))
    np.testing.assert_allclose(ga.asnumpy(), [[[1.0, 2.8, 4.6], [2.8, 10.0, 17.2]],
                                              [[42.4, 55.0, 67.6], [60.4, 78.4, 96.4]]],
                               rtol=1e-6)
    np.testing.assert_allclose(gb.asnumpy()[1], [[29.25, 33.0, 36.75], [33.0, 37.25, 41.5],
                                                 [36.75, 41.5, 46.25]], rtol=1e-6)


def test_batch_dot_shapes_and_second_order():
    x1 = np.random.default_rng(0).normal(size=(2, 3, 4, 5))
    x2 = np.random.default_rng(1).normal(size=(2, 4, 6))
    out = ops.batch_dot(T(x1, np.float64), T(x2, np.float64), (2, 1))
    np.testing.assert_allclose(out.asnumpy(), np.einsum('bijk,bjl->bikl', x1, x2), rtol=1e-12)
    x3 = np.random.default_rng(2).normal(size=(2, 4))
    np.testing.assert_allclose(ops.batch_dot(T(x1[:, 0], np.float64), T(x3, np.float64),
                                             (1, 1)).asnumpy(),
                               np.einsum('bjk,bj->bk', x1[:, 0], x3), rtol=1e-12)
    check_grad(lambda a, b: ops.batch_dot(a, b, (2, 1)), x1, x2)
    check_double_grad(lambda a, b: ops.batch_dot(a, b, (2, 1)) ** 2, x1, x2)


def test_approximate_equal_promotes_types():
    """MindSpore 2.10 promotes the inputs: float16 with float32 (or int32 with float32) compares in
    float32; Tensor.approximate_equal has no rank limit."""
    half, single = T([1.0, 2.0], np.float16), T([1.2, 2.5], np.float32)
    for got in (ops.approximate_equal(half, single, 0.3), ops.ApproximateEqual(0.3)(half, single),
                ops.approximate_equal(T([1, 2], np.int32), single, 0.3)):
        assert got.dtype == ms.bool_ and got.asnumpy().tolist() == [True, False]
    # |1 - 1.19995| is 0.19995 in float32 (float16 would round 1.19995 to 1.2)
    assert ops.approximate_equal(T([1.0], np.float16), T([1.19995], np.float32), 0.2).asnumpy()[0]
    assert T(np.ones([2] * 9)).approximate_equal(T(np.ones([2] * 9))).shape == (2,) * 9


def test_approximate_equal_and_accumulate_n():
    got = ops.approximate_equal(T([1.0, 2, 3]), T([1.5, 2, 4]), 0.6)
    assert got.dtype == ms.bool_
    np.testing.assert_array_equal(got.asnumpy(), [True, True, False])
    np.testing.assert_array_equal(
        ops.approximate_equal(T([1.0, 2, 3]), T([1.000001, 2.1, 3])).asnumpy(),
        [True, False, True])
    np.testing.assert_array_equal(ops.ApproximateEqual(0.6)(T([1.0, 2, 3]),
                                                            T([1.5, 2, 4])).asnumpy(),
                                  [True, True, False])
    total = ops.accumulate_n([T([1.0, 2]), T([3.0, 4]), T([5.0, 6])])
    np.testing.assert_array_equal(total.asnumpy(), [9.0, 12.0])
    np.testing.assert_array_equal(ops.AccumulateNV2()((T([1.0, 2]), T([3.0, 4]))).asnumpy(),
                                  [4.0, 6.0])
    ga, gb = ms.grad(lambda a, b: (ops.accumulate_n([a, b, a]) * T([1.0, 2])).sum(), (0, 1))(
        T([1.0, 2]), T([3.0, 4]))
    np.testing.assert_array_equal(ga.asnumpy(), [2.0, 4.0])
    np.testing.assert_array_equal(gb.asnumpy(), [1.0, 2.0])


@pytest.mark.parametrize('call, error, match', [
    (lambda: ops.aminmax([1.0]), TypeError, r'ops.aminmax: input must be a Tensor'),
    (lambda: ops.aminmax(T(X), axis=2), ValueError, r'ops.aminmax: axis 2 is out of range'),
    (lambda: ops.aminmax(T(X), axis=1.0), TypeError, r'ops.aminmax: axis must be an int'),
    (lambda: ops.aminmax(T(X), keepdims=1), TypeError, r'ops.aminmax: keepdims must be a bool'),
    (lambda: ops.batch_dot(T(A), T(B), (1, 1)), ValueError,
     r'ops.batch_dot: contracted sizes differ'),
    (lambda: ops.batch_dot(T(A), T(B), (0, 1)), ValueError,
     r'ops.batch_dot: axes must be two dimensions other than 0'),
    (lambda: ops.batch_dot(T(A), T(B), 0), ValueError, r'ops.batch_dot: axes must not be 0'),
    (lambda: ops.batch_dot(T(A), T(B), (2, 5)), ValueError, r'ops.batch_dot: axes .* range'),
    (lambda: ops.batch_dot(T(A), T(B), 'x'), TypeError, r'ops.batch_dot: axes must be an int'),
    (lambda: ops.batch_dot(T(A), T(B[:1])), ValueError, r'ops.batch_dot: batch sizes differ'),
    (lambda: ops.batch_dot(T([1.0, 2.0]), T(B)), ValueError,
     r'ops.batch_dot: x1 must be at least 2-d'),
    (lambda: ops.batch_dot(T(A, np.int32), T(B)), TypeError,
     r'ops.batch_dot: x1 must be a floating Tensor'),
    (lambda: ops.batch_dot(T(A, np.float64), T(B)), TypeError,
     r'ops.batch_dot: x1 and x2 must have one dtype'),
    (lambda: ops.approximate_equal(T([1.0]), T([1.0, 2.0])), RuntimeError,
     r"ops.approximate_equal: 'x1' must have the same shape as 'x2', got \(1,\) and \(2,\)"),
    (lambda: ops.approximate_equal(T([1], np.int32), T([1], np.int32), 0.1), TypeError,
     r'ops.approximate_equal: x must be a floating Tensor, got Int32'),
    (lambda: ops.approximate_equal(T([1.0]), T([1.0]), None), TypeError,
     r"ops.approximate_equal: the type of 'tolerance' should be 'float', but got type 'NoneType'"),
    (lambda: ops.approximate_equal(T([1.0]), T([1.0]), 1), TypeError,
     r"the type of 'tolerance' should be 'float', but got type 'int'"),
    (lambda: ops.approximate_equal(T(np.ones([1] * 8)), T(np.ones([1] * 8))), RuntimeError,
     r"ops.approximate_equal: the x's rank should be less than 8, but got: 8"),
    (lambda: ops.ApproximateEqual('a'), TypeError,
     r"ops.ApproximateEqual: the type of 'tolerance' should be 'float', but got type 'str'"),
    (lambda: ops.ApproximateEqual(np.float32(0.5)), TypeError, r"but got type 'float32'"),
    (lambda: ops.accumulate_n(T([1.0])), TypeError,
     r'ops.accumulate_n: x must be a list or tuple of Tensors'),
])
def test_argument_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
