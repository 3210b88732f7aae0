"""Gradients through sparse tensors' values and their dense operands against central finite
differences (float64): products, conversions, softmax, sums and the unary functions."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

INDPTR = np.array([0, 2, 2, 4], np.int32)          # a 3x4 matrix, row 1 empty
COLS = np.array([1, 3, 0, 2], np.int32)
COO_INDICES = np.array([[0, 1], [0, 3], [2, 0], [2, 2]], np.int64)
RNG = np.random.default_rng(7)
VALUES = RNG.standard_normal(4)
DENSE42 = RNG.standard_normal((4, 2))


def _csr(values):
    return ms.CSRTensor(ms.Tensor(INDPTR), ms.Tensor(COLS), values, (3, 4))


def _coo(values):
    return ms.COOTensor(ms.Tensor(COO_INDICES), values, (3, 4))


def _weights(shape):
    """Fixed weights that make the scalar loss depend on every output element differently."""
    return np.linspace(-1.5, 2., int(np.prod(shape))).reshape(shape)


def _loss(out):
    """A scalar of an op's output: a Tensor, or a sparse tensor's values."""
    t = out if isinstance(out, ms.Tensor) else out.values
    return (t * ms.Tensor(_weights(t.shape))).sum()


def _numeric(f, arrays, position, eps=1e-6):
    base = [a.copy() for a in arrays]
    grad = np.zeros_like(base[position])
    for i in np.ndindex(grad.shape):
        for sign in (1, -1):
            moved = [a.copy() for a in base]
            moved[position][i] += sign * eps
            value = float(_loss(f(*[ms.Tensor(a) for a in moved])).asnumpy())
            grad[i] += sign * value / (2 * eps)
    return grad


def check_grad(f, *arrays):
    """ms.grad of ``_loss(f(*tensors))`` with respect to every input matches finite
    differences."""
    positions = tuple(range(len(arrays)))
    got = ms.grad(lambda *ts: _loss(f(*ts)), grad_position=positions)(
        *[ms.Tensor(a) for a in arrays])
    got = got if isinstance(got, tuple) else (got,)
    for position, g in enumerate(got):
        np.testing.assert_allclose(g.asnumpy(), _numeric(f, arrays, position), rtol=1e-6,
                                   atol=1e-8, err_msg=f"input {position}")


GRAD_CASES = {
    'csr_mm_dense': (lambda v, d: _csr(v).mm(d), VALUES, DENSE42),
    'csr_mv': (lambda v, d: _csr(v).mv(d), VALUES, DENSE42[:, :1]),
    'csr_to_dense': (lambda v: _csr(v).to_dense(), VALUES),
    'coo_to_dense': (lambda v: _coo(v).to_dense(), VALUES),
    'coo_to_csr': (lambda v: _coo(v).to_csr(), VALUES),
    'csr_to_coo': (lambda v: _csr(v).to_coo(), VALUES),
    'csr_sum': (lambda v: _csr(v).sum(1), VALUES),
    'csr_softmax': (lambda v: ops.csr_softmax(_csr(v), ms.float64), VALUES),
    'csr_mul': (lambda v, d: ops.csr_mul(_csr(v), d), VALUES, RNG.standard_normal((3, 4))),
    'csr_div': (lambda v, d: ops.csr_div(_csr(v), d), VALUES, RNG.uniform(1, 2, (3, 4))),
    'csr_add': (lambda v, w, a: ops.csr_add(_csr(v), _csr(w), a, ms.Tensor(-0.5)), VALUES,
                RNG.standard_normal(4), np.array(1.5)),
    'csr_mm_sparse': (lambda v, w: ops.csr_mm(_csr(v), ms.CSRTensor(
        ms.Tensor(np.array([0, 1, 2, 2, 3], np.int32)), ms.Tensor(np.array([0, 2, 1], np.int32)),
        w, (4, 3))), VALUES, RNG.standard_normal(3)),
    'coo_add': (lambda v, w: ops.coo_add(_coo(v), ms.COOTensor(
        ms.Tensor(np.array([[0, 1], [1, 1]], np.int64)), w, (3, 4)), ms.Tensor(0.)),
        VALUES, RNG.standard_normal(2)),
    'coo_times_dense': (lambda v, d: _coo(v) * d, VALUES, RNG.standard_normal((3, 4))),
    'coo_plus_dense': (lambda v, d: _coo(v) + d, VALUES, RNG.standard_normal((3, 4))),
    'coo_exp': (lambda v: ops.coo_exp(_coo(v)), VALUES),
    'csr_sigmoid': (lambda v: ops.csr_sigmoid(_csr(v)), VALUES),
    'csr_gather': (lambda d: ops.csr_gather(ms.Tensor(INDPTR), ms.Tensor(COLS), d, (3, 4)),
                   RNG.standard_normal((3, 4))),
    # every entry non-zero: a finite step at a zero would change the structure itself
    'dense_to_sparse_coo': (lambda d: ops.dense_to_sparse_coo(d), np.array([[.5, 1.5], [2., -1]])),
    'dense_to_sparse_csr': (lambda d: d.to_csr(), np.array([[.5, 1.5], [2., -1]])),
    'sparse_segment_mean': (lambda x: ops.sparse_segment_mean(
        x, ms.Tensor(np.array([0, 2, 1], np.int32)), ms.Tensor(np.array([0, 0, 2], np.int32))),
        RNG.standard_normal((3, 2))),
    'SparseTensorDenseMatmul': (lambda v, d: ops.SparseTensorDenseMatmul(True, False)(
        ms.Tensor(COO_INDICES), v, (3, 4), d), VALUES, RNG.standard_normal((3, 2))),
}


@pytest.mark.parametrize('name', sorted(GRAD_CASES))
def test_gradient_matches_finite_differences(name):
    f, *arrays = GRAD_CASES[name]
    check_grad(f, *arrays)


def test_index_tensors_take_no_gradient():
    """MindSpore stops gradients at a sparse tensor's index Tensors."""
    c = _coo(ms.Tensor(VALUES))
    assert c.indices.requires_grad is False


def test_check_grad_detects_a_wrong_gradient():
    wrong = ops.stop_gradient
    with pytest.raises(AssertionError):
        check_grad(lambda v: _csr(v * 2 + wrong(v)).to_dense(), VALUES)
