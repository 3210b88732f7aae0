"""batch_to_space_nd, affine_grid and bernoulli (and BatchToSpaceND, AffineGrid, Bernoulli):
MindSpore 2.10's results and gradients (CPU) recorded as literals, gradients of first and
second order against finite differences, sampling statistics and argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.gradcheck import check_double_grad, check_grad


def T(a, dtype=np.float32):
    return ms.Tensor(np.array(a, dtype))


X = np.arange(16, dtype=np.float32).reshape(4, 1, 2, 2)
THETA = [[[0.8, 0.5, 0.0], [-0.5, 0.8, 0.1]]]


def test_batch_to_space_nd_matches_mindspore():
    want = [[[[0, 4, 1, 5], [8, 12, 9, 13], [2, 6, 3, 7], [10, 14, 11, 15]]]]
    np.testing.assert_array_equal(ops.batch_to_space_nd(T(X), (2, 2), ((0, 0), (0, 0))).asnumpy(),
                                  want)
    np.testing.assert_array_equal(ops.BatchToSpaceND([2, 2], [[0, 0], [0, 0]])(T(X)).asnumpy(),
                                  want)
    np.testing.assert_array_equal(
        ops.batch_to_space_nd(T(X), (2, 2), ((0, 1), (1, 0))).asnumpy(),
        [[[[4, 1, 5], [12, 9, 13], [6, 3, 7]]]])
    np.testing.assert_array_equal(
        ops.batch_to_space_nd(T(np.arange(12).reshape(4, 3, 1)), (2,), ((1, 0),)).asnumpy(),
        [[[6], [7], [8]], [[9], [10], [11]]])
    ints = ops.batch_to_space_nd(T(X, np.int32), 2, ((0, 0), (0, 0)))
    assert ints.dtype == ms.int32
    np.testing.assert_array_equal(ints.asnumpy(), want)
    np.testing.assert_array_equal(
        ops.batch_to_space_nd(T(X), (2, 2, 1), ((0, 0), (0, 0), (0, 0))).asnumpy(),
        [[[[0, 1], [4, 5], [2, 3], [6, 7]], [[8, 9], [12, 13], [10, 11], [14, 15]]]])
    weights = T(np.arange(9).reshape(1, 1, 3, 3))
    g = ms.grad(lambda v: (ops.batch_to_space_nd(v, (2, 2), ((0, 1), (1, 0))) * weights).sum())(
        T(X))
    np.testing.assert_array_equal(g.asnumpy(), [[[[0, 1], [0, 7]]], [[[0, 2], [6, 8]]],
                                                [[[0, 4], [0, 0]]], [[[3, 5], [0, 0]]]])


def test_affine_grid_matches_mindspore():
    np.testing.assert_allclose(
        ops.affine_grid(T(THETA), (1, 1, 2, 3)).asnumpy(),
        [[[[-0.7833333611488342, 0.03333333879709244], [-0.25, -0.30000001192092896],
           [0.28333336114883423, -0.6333333253860474]],
          [[-0.28333336114883423, 0.8333333730697632], [0.25, 0.5],
           [0.7833333611488342, 0.1666666567325592]]]], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(
        ops.AffineGrid(True)(T(THETA), (1, 1, 2, 3)).asnumpy(),
        [[[[-1.3, -0.2], [-0.5, -0.7], [0.3, -1.2]], [[-0.3, 1.4], [0.5, 0.9], [1.3, 0.4]]]],
        rtol=1e-6, atol=1e-7)
    grid = ops.affine_grid(T(np.arange(12).reshape(1, 3, 4) / 10), (1, 1, 2, 2, 3))
    assert grid.shape == (1, 2, 2, 3, 3)
    np.testing.assert_allclose(grid.asnumpy()[0, 1, 1],
                               [[0.45000001788139343, 0.9833333492279053, 1.5166666507720947],
                                [0.45000001788139343, 1.25, 2.049999952316284],
                                [0.45000001788139343, 1.5166666507720947, 2.5833334922790527]],
                               rtol=1e-6)
    weights = T(np.arange(12).reshape(1, 2, 3, 2))
    g = ms.grad(lambda t: (ops.affine_grid(t, (1, 1, 2, 3)) * weights).sum())(T(THETA))
    np.testing.assert_allclose(g.asnumpy(), [[[5.333333969116211, 9.0, 30.0],
                                              [5.3333330154418945, 9.0, 36.0]]], rtol=1e-6)


def test_gradients_of_first_and_second_order():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 2, 3, 2))
    check_grad(lambda v: ops.batch_to_space_nd(v, (2, 2, 2), ((0, 1), (1, 0), (0, 2))), x)
    check_double_grad(lambda v: ops.batch_to_space_nd(v, (4, 1), ((1, 1), (0, 0))) ** 2, x)
    theta = rng.normal(size=(2, 3, 4))
    check_grad(lambda t: ops.affine_grid(t, (2, 1, 3, 2, 4), True), theta)
    check_double_grad(lambda t: ops.affine_grid(t, (2, 1, 1, 2, 3)) ** 2, theta)


def test_bernoulli():
    # MindSpore 2.10: the certain outcomes, and the input's dtype
    np.testing.assert_array_equal(ops.bernoulli(T([0.0, 1.0, 0.5]), T([0.0, 1.0, 1.0])).asnumpy(),
                                  [0.0, 1.0, 1.0])
    ints = ops.bernoulli(T([1, 2, 3], np.int32), 1.0)
    assert ints.dtype == ms.int32
    np.testing.assert_array_equal(ints.asnumpy(), [1, 1, 1])
    assert ops.bernoulli(T(np.zeros(5)), 0.0).asnumpy().sum() == 0
    draws = ops.bernoulli(T(np.zeros(20000)), 0.3, seed=3).asnumpy()
    assert set(np.unique(draws)) == {0.0, 1.0} and abs(draws.mean() - 0.3) < 0.015
    np.testing.assert_array_equal(ops.bernoulli(T(np.zeros(50)), seed=7).asnumpy(),
                                  ops.bernoulli(T(np.zeros(50)), seed=7).asnumpy())
    prim = ops.Bernoulli(seed=5)
    first, second = prim(T(np.zeros(50)), 0.5), prim(T(np.zeros(50)), 0.5)
    assert not np.array_equal(first.asnumpy(), second.asnumpy())
    np.testing.assert_array_equal(ops.Bernoulli(seed=5)(T(np.zeros(50)), 0.5).asnumpy(),
                                  first.asnumpy())
    x = ms.Parameter(T([0.2, 0.7]))
    assert not ops.bernoulli(x, 0.5).requires_grad


@pytest.mark.parametrize('call, error, match', [
    (lambda: ops.batch_to_space_nd(T(X), (3, 2), ((0, 0), (0, 0))), ValueError,
     r'ops.batch_to_space_nd: the batch size 4 must be divisible by the product 6'),
    (lambda: ops.batch_to_space_nd(T(X), (2, 2), ((0, 4), (0, 0))), ValueError,
     r'ops.batch_to_space_nd: crops .* leave nothing'),
    (lambda: ops.batch_to_space_nd(T(X), (2, 2), ((0, 0),)), ValueError,
     r'ops.batch_to_space_nd: block_shape and crops must have one length'),
    (lambda: ops.batch_to_space_nd(T(X), (2, 0), ((0, 0), (0, 0))), TypeError,
     r'ops.batch_to_space_nd: block_shape must be an int >= 1'),
    (lambda: ops.batch_to_space_nd(T(X), (2, 2), ((0, -1), (0, 0))), TypeError,
     r'ops.batch_to_space_nd: crops must be'),
    (lambda: ops.batch_to_space_nd(T(X[:, 0, 0]), (2, 2), ((0, 0), (0, 0))), ValueError,
     r'ops.batch_to_space_nd: input_x must have more than 2 dimensions'),
    (lambda: ops.batch_to_space_nd(X, 2, ((0, 0), (0, 0))), TypeError,
     r'ops.batch_to_space_nd: input_x must be a Tensor'),
    (lambda: ops.affine_grid(T(THETA), (1, 1, 2, 2, 3)), ValueError,
     r'ops.affine_grid: theta must have shape \(1, 3, 4\)'),
    (lambda: ops.affine_grid(T(THETA), (1, 1, 2)), ValueError,
     r'ops.affine_grid: size must have 4'),
    (lambda: ops.affine_grid(T(THETA), (1, 1, 2, 0)), TypeError,
     r'ops.affine_grid: size must be a tuple of positive ints'),
    (lambda: ops.affine_grid(T(THETA, np.int32), (1, 1, 2, 3)), TypeError,
     r'ops.affine_grid: theta must be a floating Tensor'),
    (lambda: ops.affine_grid(T(THETA), (1, 1, 2, 3), 1), TypeError,
     r'ops.affine_grid: align_corners must be a bool'),
    (lambda: ops.AffineGrid(align_corners=None), TypeError,
     r'ops.AffineGrid: align_corners must be a bool'),
    (lambda: ops.bernoulli(T([1.0]), 1.5), ValueError, r'ops.bernoulli: p must be in \[0, 1\]'),
    (lambda: ops.bernoulli(T([1.0]), 'a'), TypeError, r'ops.bernoulli: p must be a float'),
    (lambda: ops.bernoulli(T([1.0]), T([1], np.int32)), TypeError,
     r'ops.bernoulli: p must be a float or a floating Tensor, got Int32'),
    (lambda: ops.bernoulli(T([1.0]), seed=-2), ValueError, r'ops.bernoulli: seed must be None'),
    (lambda: ops.Bernoulli(seed=-2), ValueError, r'ops.Bernoulli: seed must be -1 or an int'),
    (lambda: ops.Bernoulli()([1.0], 0.5), TypeError, r'ops.Bernoulli: input must be a Tensor'),
])
def test_argument_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
