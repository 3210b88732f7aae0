"""einsum, outer, dot, inner, tensor_dot, kron, addmm and friends: NumPy values, MindSpore's
results, gradients against finite differences and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def _einsum(equation, *shapes, name):
    return Case('Einsum', lambda *xs: ops.einsum(equation, *xs),
                ref=lambda *a: np.einsum(equation, *a), shapes=[shapes], rtol=1e-12,
                name=f"einsum-{name}")


EINSUM = [
    _einsum('ij,jk->ik', (2, 3), (3, 4), name='matmul'),
    _einsum('ij,kj', (2, 3), (4, 3), name='implicit'),
    _einsum('i,i->', (4,), (4,), name='dot'),
    _einsum('i,j->ij', (2,), (3,), name='outer'),
    _einsum('bij,bjk->bik', (2, 2, 3), (2, 3, 2), name='batched'),
    _einsum('ii->i', (3, 3), name='diagonal'),
    _einsum('ii', (3, 3), name='trace'),
    _einsum('ij->ji', (2, 3), name='transpose'),
    _einsum('ij->', (2, 3), name='sum'),
    _einsum('ijk,k->ij', (2, 3, 4), (4,), name='contract_last'),
    _einsum('...j,j->...', (2, 3, 4), (4,), name='ellipsis'),
    _einsum('...ij,...jk', (2, 2, 3), (3, 2), name='ellipsis_broadcast'),
    _einsum('ij,jk,kl->il', (2, 3), (3, 4), (4, 2), name='three_operands'),
    _einsum('ij,ij->ij', (1, 3), (2, 3), name='size_one_broadcast'),
    _einsum('iij->j', (2, 2, 3), name='diagonal_then_sum'),
]
PRODUCTS = [
    Case('Mul', ops.outer, ref=lambda a, b: np.outer(a, b), shapes=[((3,), (4,)), ((2, 3), (2,))],
         rtol=1e-12, name='outer'),
    Case('Mul', ops.ger, ref=lambda a, b: np.outer(a, b), shapes=[((3,), (2,))], rtol=1e-12,
         name='ger'),
    Case('MatMul', ops.dot, ref=lambda a, b: np.dot(a, b),
         shapes=[((2, 3), (3, 4)), ((2, 3, 4), (4, 2)), ((2, 3), (2, 3, 4))], rtol=1e-12,
         name='dot'),
    Case('MatMul', ops.inner, ref=np.inner, shapes=[((3,), (3,)), ((2, 3), (4, 3)),
                                                   ((2, 2, 3), (3,))], rtol=1e-12, name='inner'),
    Case('Mul', ops.inner, ref=np.inner, shapes=[((), (2, 3))], rtol=1e-12, name='inner_0d'),
    Case(('MatMul', 'Transpose'), lambda a, b: ops.tensor_dot(a, b, ((0, 1), (1, 0))),
         ref=lambda a, b: np.tensordot(a, b, ((0, 1), (1, 0))), shapes=[((2, 3, 4), (3, 2, 5))],
         rtol=1e-12, name='tensor_dot_pairs'),
    Case('MatMul', lambda a, b: ops.tensor_dot(a, b, 1), ref=lambda a, b: np.tensordot(a, b, 1),
         shapes=[((2, 3), (3, 4))], rtol=1e-12, name='tensor_dot_int'),
    Case('MatMul', lambda a, b: ops.tensor_dot(a, b, (1, 0)),
         ref=lambda a, b: np.tensordot(a, b, (1, 0)), shapes=[((2, 3), (3, 4))], rtol=1e-12,
         name='tensor_dot_axis_pair'),
    Case('Mul', ops.kron, ref=np.kron, shapes=[((2, 3), (3, 2)), ((3,), (2, 2)), ((2,), (3,))],
         rtol=1e-12, name='kron'),
]
SCALED = [
    Case(('MatMul', 'Add'), lambda x, a, b: ops.addmm(x, a, b, beta=2, alpha=0.5),
         ref=lambda x, a, b: 2 * x + 0.5 * (a @ b), shapes=[((2, 4), (2, 3), (3, 4)),
                                                            ((4,), (2, 3), (3, 4))],
         rtol=1e-12, name='addmm'),
    Case(('MatMul', 'Add'), ops.addmv, ref=lambda x, a, v: x + a @ v,
         shapes=[((2,), (2, 3), (3,))], rtol=1e-12, name='addmv'),
    Case(('MatMul', 'Add'), lambda x, a, b: ops.baddbmm(x, a, b, 0.5, 2),
         ref=lambda x, a, b: 0.5 * x + 2 * (a @ b), shapes=[((2, 2, 4), (2, 2, 3), (2, 3, 4))],
         rtol=1e-12, name='baddbmm'),
    Case(('MatMul', 'ReduceSum', 'Add'), ops.addbmm, ref=lambda x, a, b: x + (a @ b).sum(0),
         shapes=[((2, 4), (3, 2, 3), (3, 3, 4))], rtol=1e-12, name='addbmm'),
    Case(('Mul', 'Add'), lambda x, a, b: ops.addr(x, a, b, beta=3),
         ref=lambda x, a, b: 3 * x + np.outer(a, b), shapes=[((2, 3), (2,), (3,))], rtol=1e-12,
         name='addr'),
]
CASES = EINSUM + PRODUCTS + SCALED


globals().update(row_tests(CASES))


def test_mindspore_values():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    v = ms.Tensor(np.arange(3, dtype=np.float32))
    assert ops.outer(x, v).shape == (6, 3)
    k = ops.kron(ms.Tensor([1, 2]), ms.Tensor([3, 4]))
    assert k.dtype == ms.int64 and k.tolist() == [3, 4, 6, 8]
    assert ops.tensor_dot(x, x, 2).item() == 55.0
    assert ops.inner(ms.Tensor(2.0), x).tolist() == [[0, 2, 4], [6, 8, 10]]
    assert ops.addmv(v, ms.Tensor(np.ones((3, 2), np.float32)), ms.Tensor([1.0, 2.0])).tolist() \
        == [3, 4, 5]
    y = ops.addbmm(ms.Tensor(np.ones((3, 4), np.float32)),
                   ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4)),
                   ms.Tensor(np.ones((2, 4, 4), np.float32)))
    assert y.asnumpy()[:, 0].tolist() == [61, 93, 125]


def test_einsum_takes_a_list_and_promotes():
    y = ops.einsum('i,i', [ms.Tensor([1, 2]), ms.Tensor([0.5, 0.25])])
    assert y.dtype == ms.float32 and y.item() == 1.0


ERRORS = [
    (lambda: ops.einsum('ij,jk', ms.Tensor(np.ones((2, 3)))), ValueError,
     r"ops\.einsum: equation 'ij,jk' names 2 operands, got 1"),
    (lambda: ops.einsum('ij', ms.Tensor(np.ones(3))), ValueError,
     r"ops\.einsum: subscripts 'ij' do not fit an operand of shape \(3,\)"),
    (lambda: ops.einsum('i1', ms.Tensor(np.ones((3, 3)))), ValueError,
     r"may hold only letters"),
    (lambda: ops.einsum('i->j', ms.Tensor(np.ones(3))), ValueError,
     r"ops\.einsum: output letter 'j' of 'i->j' is in no operand"),
    (lambda: ops.einsum('ij,jk', ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((4, 2)))),
     ValueError, r"ops\.einsum: equation 'ij,jk' does not fit operands of shapes"),
    (lambda: ops.einsum(1, ms.Tensor(1.0)), TypeError, r"ops\.einsum: equation must be a str"),
    (lambda: ops.dot(ms.Tensor([1.0]), ms.Tensor([1.0])), ValueError,
     r"ops\.dot: inputs must have rank >= 2, got shapes \(1,\) and \(1,\)"),
    (lambda: ops.dot(ms.Tensor([[1]]), ms.Tensor([[1]])), TypeError,
     r"ops\.dot: inputs must be floating tensors, got Int64"),
    (lambda: ops.dot(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((2, 3)))), ValueError,
     r"ops\.dot: shapes \(2, 3\) and \(2, 3\) do not align \(3 != 2\)"),
    (lambda: ops.inner(ms.Tensor(np.ones(2)), ms.Tensor(np.ones(3))), ValueError,
     r"ops\.inner: the last axes of shapes \(2,\) and \(3,\) differ \(2 != 3\)"),
    (lambda: ops.tensor_dot(ms.Tensor(np.ones(2)), ms.Tensor(np.ones(3)), 1), ValueError,
     r"ops\.tensor_dot: axis 0 of shape \(2,\) and axis 0 of shape \(3,\) differ"),
    (lambda: ops.tensor_dot(ms.Tensor(np.ones(2)), ms.Tensor(np.ones(2)), 2), ValueError,
     r"ops\.tensor_dot: axes 2 is out of range"),
    (lambda: ops.tensor_dot(ms.Tensor(np.ones(2)), ms.Tensor(np.ones(2)), 'x'), TypeError,
     r"ops\.tensor_dot: axes must be an int or a pair"),
    (lambda: ops.addmm(ms.Tensor(np.ones(2)), ms.Tensor(np.ones(3)), ms.Tensor(np.ones((3, 2)))),
     ValueError, r"ops\.addmm: mat1 must be 2-d, got shape \(3,\)"),
    (lambda: ops.addmm(ms.Tensor(np.ones(5)), ms.Tensor(np.ones((2, 3))),
                       ms.Tensor(np.ones((3, 2)))),
     ValueError, r"ops\.addmm: input of shape \(5,\) does not broadcast"),
    (lambda: ops.addmm(ms.Tensor(np.ones(2)), ms.Tensor(np.ones((2, 3))),
                       ms.Tensor(np.ones((2, 2)))),
     ValueError, r"ops\.addmm: shapes \(2, 3\) and \(2, 2\) do not align \(3 != 2\)"),
    (lambda: ops.addmm(ms.Tensor(np.ones(2)), ms.Tensor(np.ones((2, 3))),
                       ms.Tensor(np.ones((3, 2))), beta='a'),
     TypeError, r"ops\.addmm: beta must be a number, got 'a'"),
    (lambda: ops.baddbmm(ms.Tensor(np.ones(2)), ms.Tensor(np.ones((2, 2, 3))),
                         ms.Tensor(np.ones((3, 3, 2)))),
     ValueError, r"ops\.baddbmm: batch sizes of shapes \(2, 2, 3\) and \(3, 3, 2\) differ"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
