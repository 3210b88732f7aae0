"""Tril, Triu, Roll, Norm, OneHot, Range, ReduceLogSumExp, ClipByNorm, Moments, MatrixDiag,
MatrixDiagPart, MatrixSetDiag, MatDet and MatInverse: values against MindSpore 2.10 (or NumPy
where MindSpore runs the layer on GPU only), gradients, repr and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_case, check_layer_grad

# (cell, kwargs, input shapes, output shape, sum, sum of squares, first values): MindSpore
# 2.10's outputs (the first of a pair) for the ``det`` inputs of test_layers_support
CASES = [
    ('Tril', {}, [(3, 4)], (3, 4), 2.13093, 5.09456, [0.0, 0.0, 0.0, 0.0]),
    ('Triu', {}, [(2, 3, 3)], (2, 3, 3), -0.337822, 11.8758, [0.0, 0.542423, 1.01143, 0.0]),
    ('Norm', {'axis': 1}, [(3, 4)], (3,), 5.78026, 11.7049, [1.76701, 2.52115, 1.4921]),
    ('Norm', {}, [(2, 3)], (), 2.72634, 7.43295, [2.72634]),
    ('Norm', {'axis': (0, 2), 'keep_dims': True}, [(2, 3, 2)], (1, 3, 1), 5.78281, 11.7049,
     [1.52964, 1.72639, 2.52679]),
    ('ReduceLogSumExp', {'axis': 1}, [(3, 4)], (3,), 5.91845, 13.0805,
     [2.23026, 2.65188, 1.03631]),
    ('ReduceLogSumExp', {'axis': (0, 2), 'keep_dims': True}, [(2, 3, 2)], (1, 3, 1), 6.50817,
     14.1285, [2.10632, 2.15737, 2.24447]),
    ('ReduceLogSumExp', {'axis': ()}, [(2, 3)], (), 2.88955, 8.34949, [2.88955]),
    ('Moments', {}, [(3, 4)], (), 0.484021, 0.234276, [0.484021]),
    ('Moments', {'axis': 1, 'keep_dims': True}, [(3, 4)], (3, 1), 1.45206, 2.28698,
     [0.724351, 1.22916, -0.501451]),
    ('Moments', {'axis': (0, 2)}, [(2, 3, 2)], (3,), 1.45206, 0.796844,
     [0.630834, 0.586233, 0.234995]),
]

X = np.arange(12, dtype=np.float32).reshape(3, 4) - 5


@pytest.mark.parametrize('case', CASES, ids=lambda c: c[0])
def test_values_match_mindspore(case):
    check_case(*case)


def test_tril_triu_with_a_diagonal_and_integers():
    # MindSpore 2.10's outputs
    np.testing.assert_array_equal(nn.Tril()(ms.Tensor(X), 1).asnumpy(),
                                  [[-5, -4, 0, 0], [-1, 0, 1, 0], [3, 4, 5, 6]])
    np.testing.assert_array_equal(nn.Triu()(ms.Tensor(X), -1).asnumpy(),
                                  [[-5, -4, -3, -2], [-1, 0, 1, 2], [0, 4, 5, 6]])
    y = nn.Tril()(ms.Tensor(np.ones((2, 2, 3), np.int32)))
    assert y.dtype == ms.int32 and y.asnumpy()[1].tolist() == [[1, 0, 0], [1, 1, 0]]


def test_roll_matches_numpy():
    # MindSpore's Roll kernel is GPU only: NumPy's roll is the reference
    np.testing.assert_array_equal(nn.Roll(2, 1)(ms.Tensor(X)).asnumpy(), np.roll(X, 2, 1))
    np.testing.assert_array_equal(nn.Roll((1, -1), [0, 1])(ms.Tensor(X)).asnumpy(),
                                  np.roll(X, (1, -1), (0, 1)))


def test_one_hot_and_range_match_mindspore():
    y = nn.OneHot(depth=3)(ms.Tensor(np.array([0, 2, 1, 5]), ms.int32))
    assert y.dtype == ms.float32
    np.testing.assert_array_equal(y.asnumpy(), [[1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 0, 0]])
    y = nn.OneHot(axis=0, depth=3, on_value=5.0, off_value=-1.0, dtype=ms.int32)(
        ms.Tensor(np.array([[0, 2], [1, -1]]), ms.int32))
    assert y.dtype == ms.int32
    np.testing.assert_array_equal(y.asnumpy(), [[[5, -1], [-1, -1]], [[-1, -1], [5, -1]],
                                                [[-1, 5], [-1, -1]]])
    r = nn.Range(1, 8, 2)()
    assert r.dtype == ms.int32 and r.asnumpy().tolist() == [1, 3, 5, 7]
    r = nn.Range(1.0, 8, 2)()
    assert r.dtype == ms.float32 and r.asnumpy().tolist() == [1.0, 3.0, 5.0, 7.0]
    assert nn.Range(5)().asnumpy().tolist() == [0, 1, 2, 3, 4]


def test_clip_by_norm_matches_mindspore():
    x = ms.Tensor(X)
    np.testing.assert_allclose(nn.ClipByNorm()(x, ms.Tensor(5.0)).asnumpy()[0],
                               [-2.0690148, -1.6552117, -1.2414088, -0.82760584], rtol=1e-6)
    np.testing.assert_allclose(nn.ClipByNorm()(x, 100.0).asnumpy(), X)     # within the norm
    # with an axis, the documented formula x * clip / max(norm, clip) is the reference
    clip = np.array([[3.0, 10.0, 1.0, 1.0]], np.float32)
    norm = np.sqrt((X * X).sum(1, keepdims=True))
    np.testing.assert_allclose(nn.ClipByNorm(1)(x, ms.Tensor(clip)).asnumpy(),
                               X * clip / np.maximum(norm, clip), rtol=1e-6)
    norm = np.sqrt((X * X).sum(0, keepdims=True))
    np.testing.assert_allclose(nn.ClipByNorm((0,))(x, ms.Tensor(3.0)).asnumpy(),
                               X * 3 / np.maximum(norm, 3), rtol=1e-6)


def test_moments_match_mindspore():
    mean, var = nn.Moments()(ms.Tensor(X))
    assert mean.shape == var.shape == ()
    np.testing.assert_allclose([float(mean), float(var)], [0.5, 11.916667], rtol=1e-6)
    mean, var = nn.Moments(1, True)(ms.Tensor(X))
    np.testing.assert_allclose(mean.asnumpy(), [[-3.5], [0.5], [4.5]])
    np.testing.assert_allclose(var.asnumpy(), [[1.25], [1.25], [1.25]])


def test_matrix_diagonal_layers():
    # MindSpore's MatrixDiag* kernels are GPU only: NumPy is the reference
    d = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(nn.MatrixDiag()(ms.Tensor(d)).asnumpy(),
                                  np.stack([np.diag(r) for r in d]))
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(nn.MatrixDiagPart()(ms.Tensor(x)).asnumpy(),
                                  np.stack([np.diag(m) for m in x]))
    y = nn.MatrixSetDiag()(ms.Tensor(x), ms.Tensor(-d)).asnumpy()
    want = x.copy()
    want[:, [0, 1, 2], [0, 1, 2]] = -d
    np.testing.assert_array_equal(y, want)
    # MindSpore's documented example
    x = ms.Tensor([[[-1, 0], [0, 1]], [[-1, 0], [0, 1]], [[-1, 0], [0, 1]]], ms.float32)
    y = nn.MatrixSetDiag()(x, ms.Tensor([[-1., 2.], [-1., 1.], [-1., 1.]], ms.float32))
    np.testing.assert_array_equal(y.asnumpy()[0], [[-1, 0], [0, 2]])


def test_determinant_and_inverse_of_positive_definite_matrices():
    # MindSpore's documented example (its Cholesky kernels are GPU only)
    x = ms.Tensor(np.array([[4, 12, -16], [12, 37, -43], [-16, -43, 98]], np.float32))
    np.testing.assert_allclose(float(nn.MatDet()(x)), 35.999996, rtol=1e-5)
    np.testing.assert_allclose(nn.MatInverse()(x).asnumpy()[0], [49.36112, -13.555558,
                                                                 2.1111116], rtol=1e-5)
    b = np.random.default_rng(18).standard_normal((2, 4, 4))
    b = b @ b.transpose(0, 2, 1) + np.eye(4)
    np.testing.assert_allclose(nn.MatDet()(ms.Tensor(b)).asnumpy(), np.linalg.det(b),
                               rtol=1e-12)
    np.testing.assert_allclose(nn.MatInverse()(ms.Tensor(b)).asnumpy(), np.linalg.inv(b),
                               rtol=1e-10, atol=1e-12)
    with np.errstate(invalid='ignore'):                              # not positive definite
        assert np.isnan(float(nn.MatDet()(ms.Tensor(-np.eye(2)))))


class _Pair(nn.Cell):
    """Both outputs of a two-output cell summed with weights, for a gradient check."""

    def __init__(self, cell):
        super().__init__()
        self.cell = cell

    def construct(self, x):
        a, b = self.cell(x)
        return a * 2.0 + b


class _Second(nn.Cell):
    def __init__(self, cell, second):
        super().__init__()
        self.cell, self.second = cell, second

    def construct(self, x):
        return self.cell(x, self.second)


class _Spd(nn.Cell):
    """a a^T + n I, positive definite for any a, into the cell."""

    def __init__(self, cell):
        super().__init__()
        self.cell = cell

    def construct(self, a):
        n = a.shape[-1]
        return self.cell(ops.matmul(a, ops.swapaxes(a, -1, -2)) + ms.Tensor(n * np.eye(n)))


@pytest.mark.parametrize('net,shape', [
    (nn.Tril(), (3, 4)),
    (nn.Roll((1, -2), (0, 1)), (3, 4)),
    (nn.Norm((0, 2), True), (2, 3, 2)),
    (nn.ReduceLogSumExp(1), (3, 4)),
    (_Second(nn.ClipByNorm(1), ms.Tensor(1.0, ms.float64)), (3, 4)),
    (_Pair(nn.Moments(1)), (3, 4)),
    (nn.MatrixDiag(), (2, 3)),
    (nn.MatrixDiagPart(), (2, 3, 4)),
    (_Second(nn.MatrixSetDiag(), ms.Tensor(np.ones((2, 3)))), (2, 4, 3)),
    (_Spd(nn.MatDet()), (2, 3, 3)),
    (_Spd(nn.MatInverse()), (3, 3)),
], ids=lambda v: type(v).__name__ if isinstance(v, nn.Cell) else '')
def test_gradients(net, shape):
    check_layer_grad(net, np.random.default_rng(8).standard_normal(shape))


def test_reprs_print_as_mindspore():
    assert repr(nn.Norm(1)) == "Norm(axis=1, keep_dims=False)"
    for cell in (nn.Tril(), nn.Roll(1, 0), nn.OneHot(), nn.Range(3), nn.ReduceLogSumExp(0),
                 nn.ClipByNorm(), nn.Moments(), nn.MatrixDiag(), nn.MatrixSetDiag(),
                 nn.MatDet(), nn.MatInverse()):
        assert repr(cell) == f"{type(cell).__name__}()"


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.Roll(1, (0, 1)), ValueError, r"nn.Roll: shift and axis must have the same "
                                             r"length, got 1 shift\(s\) and 2 axis\(es\)"),
    (lambda: nn.Roll(1.5, 0), TypeError, "nn.Roll: shift must be an int or a tuple of ints"),
    (lambda: nn.Norm(keep_dims=1), TypeError, "nn.Norm: keep_dims must be a bool, got 1"),
    (lambda: nn.Range(1, 8, 0), ValueError, "nn.Range: delta can not be zero"),
    (lambda: nn.OneHot(depth=0), ValueError, "nn.OneHot: depth must be >= 1, got 0"),
    (lambda: nn.ReduceLogSumExp('a'), TypeError, "nn.ReduceLogSumExp: axis must be an int"),
    (lambda: nn.Moments(axis=[0]), TypeError, r"nn.Moments: axis must be an int or a tuple "
                                              r"of ints, got \[0\]"),
    (lambda: nn.Moments()(ms.Tensor([1, 2])), TypeError,
     "nn.Moments: expected a floating input, got dtype Int64"),
    (lambda: nn.OneHot(depth=2)(ms.Tensor([0.0])), TypeError,
     "nn.OneHot: indices must be an integer Tensor, got dtype Float32"),
    (lambda: nn.MatrixSetDiag()(ops.ones((2, 3)), ops.ones((3,))), ValueError,
     r"nn.MatrixSetDiag: diagonal must have shape \(2,\) for input_x of shape \(2, 3\), "
     r"got \(3,\)"),
    (lambda: nn.MatDet()(ops.ones((2, 3))), ValueError,
     r"nn.MatDet: expected square matrices \(..., n, n\), got shape \(2, 3\)"),
    (lambda: nn.MatInverse()(ms.Tensor(np.eye(2, dtype=np.int32))), TypeError,
     "nn.MatInverse: expected a floating input, got dtype Int32"),
    (lambda: nn.MatrixDiagPart()(ops.ones((3,))), ValueError,
     "nn.MatrixDiagPart: input_x must have at least 2 axes"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()
