"""matmul, bmm and mm against NumPy: 1-d operands, batch broadcasting, gradients, errors."""
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.autograd import math as autograd_math
from hookgrad.testing.cases import Case
from tests.ops.rows import params, row_tests

MATMUL_SHAPES = [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)),
    ((2, 3), (5, 3, 4)), ((5, 1, 2, 3), (4, 3, 2)), ((3,), (2, 3, 4)), ((2, 2, 3), (3,)),
    ((2, 2, 3), (2, 3, 4)), ((2, 1, 2, 3), (1, 3, 3, 2)),
]

PRODUCTS = [
    Case('MatMul', ops.matmul, ref=np.matmul, shapes=MATMUL_SHAPES, rtol=1e-12),
    Case('MatMul', ops.bmm, ref=np.matmul, shapes=[((4, 2, 3), (4, 3, 5)), ((1, 1, 1), (1, 1, 2))],
         rtol=1e-12, atol=0, name='bmm'),
    Case('MatMul', ops.mm, ref=np.matmul, shapes=[((2, 3), (3, 4))], rtol=1e-12, atol=0,
         name='mm'),
]
ONE_SIDED = [
    Case('MatMul', ops.matmul, ref=np.matmul, shapes=MATMUL_SHAPES, rtol=1e-12,
         name='matmul_wrt_a', wrt=(0,), double=False),
    Case('MatMul', ops.matmul, ref=np.matmul, shapes=MATMUL_SHAPES, rtol=1e-12,
         name='matmul_wrt_b', wrt=(1,), double=False),
]
DENSE_SHAPES = [((4, 3), (2, 3), (2,)), ((3,), (2, 3), (2,)), ((2, 5, 3), (4, 3), (4,)),
                ((4, 3), (2, 3), ()), ((4, 3), (3,), ()), ((3,), (3,), ())]
DENSE = [
    Case('Dense', ops.dense, ref=lambda x, w, b: x @ w.T + b, shapes=DENSE_SHAPES, rtol=1e-12),
    Case('Dense', lambda x, w: ops.dense(x, w), ref=lambda x, w: x @ w.T, name='dense_no_bias',
         shapes=[s[:2] for s in DENSE_SHAPES[:3]] + [((2, 4), (4,))], rtol=1e-12),
    Case('Dense', ops.dense, ref=lambda x, w, b: x @ w.T + b, shapes=DENSE_SHAPES[:3],
         rtol=1e-12, name='dense_wrt_weight', wrt=(1,)),
]
CASES = PRODUCTS + ONE_SIDED + DENSE


globals().update(row_tests(CASES))


@pytest.mark.parametrize('case,shapes', params(PRODUCTS))
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_result_is_an_array_not_a_numpy_scalar(case, shapes, dtype):
    y = case.fn(*[ms.Tensor(a) for a in case.arrays(shapes, dtype)])
    assert type(y._data) is np.ndarray


def pair(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


def test_matmul_skips_the_gradient_nobody_wants(monkeypatch):
    calls = []
    real = autograd_math.array_math.matmul

    def counting(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(type(autograd_math.array_math), 'matmul', staticmethod(counting))
    a = ms.Tensor(np.ones((2, 3)), requires_grad=True)
    b = ms.Tensor(np.ones((3, 4)))
    ops.sum(ops.matmul(a, b)).backward()
    assert len(calls) == 1
    np.testing.assert_array_equal(a.grad.asnumpy(), np.full((2, 3), 4.0))


def test_matmul_dtypes():
    y = ops.matmul(ms.Tensor([[1, 2]]), ms.Tensor([[3], [4]]))
    assert y.dtype == ms.int64 and y.asnumpy().tolist() == [[11]]
    y = ops.matmul(ms.Tensor([[1, 2]]), ms.Tensor([[0.5], [0.25]], ms.float32))
    assert y.dtype == ms.float32 and y.asnumpy().tolist() == [[1.0]]
    y = ops.matmul(np.array([1.0, 2.0]), [3.0, 4.0])
    assert y.shape == () and y.item() == 11.0


def test_matmul_operator():
    a, b = pair(((2, 3), (3,)), 6)
    x = ms.Tensor(a, requires_grad=True)
    y = x @ ms.Tensor(b)
    np.testing.assert_allclose(y.asnumpy(), a @ b, rtol=1e-12)
    ops.sum(y).backward()
    np.testing.assert_allclose(x.grad.asnumpy(), np.broadcast_to(b, (2, 3)), rtol=1e-12)


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize('sa,sb,ka,kb', [((2, 3), (4, 5), 3, 4), ((3,), (4,), 3, 4),
                                         ((2, 3), (2,), 3, 2), ((5, 2, 3), (2, 3), 3, 2)])
def test_matmul_shapes_do_not_align(sa, sb, ka, kb):
    msg = f"ops.matmul: shapes {sa} and {sb} do not align ({ka} != {kb})"
    with pytest.raises(ValueError, match=re.escape(msg)):
        ops.matmul(ms.Tensor(np.ones(sa)), ms.Tensor(np.ones(sb)))


def test_matmul_error_message_exact():
    with pytest.raises(ValueError) as info:
        ops.matmul(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((4, 5))))
    assert str(info.value) == "ops.matmul: shapes (2, 3) and (4, 5) do not align (3 != 4)"


def test_matmul_batch_dims_do_not_broadcast():
    with pytest.raises(ValueError, match=r"ops\.matmul: batch dimensions of shapes \(2, 2, 3\) "
                                         r"and \(3, 3, 4\) cannot be broadcast together"):
        ops.matmul(ms.Tensor(np.ones((2, 2, 3))), ms.Tensor(np.ones((3, 3, 4))))


def test_matmul_rejects_0d():
    with pytest.raises(ValueError, match=r"ops\.matmul: operands must be at least 1-d, got "
                                         r"shapes \(\) and \(3,\)"):
        ops.matmul(ms.Tensor(1.0), ms.Tensor(np.ones(3)))


def test_bmm_errors():
    with pytest.raises(ValueError, match=r"ops\.bmm: expected tensors of at least 2 dimensions, "
                                         r"got shapes \(3,\) and \(3, 4\)"):
        ops.bmm(ms.Tensor(np.ones(3)), ms.Tensor(np.ones((3, 4))))
    with pytest.raises(ValueError, match=r"ops\.bmm: shapes \(2, 3\) and \(2, 3, 4\) have "
                                         r"different batch dimensions \(\(\) != \(2,\)\)"):
        ops.bmm(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((2, 3, 4))))
    with pytest.raises(ValueError, match=r"ops\.bmm: shapes \(2, 2, 3\) and \(3, 3, 4\) have "
                                         r"different batch dimensions \(\(2,\) != \(3,\)\)"):
        ops.bmm(ms.Tensor(np.ones((2, 2, 3))), ms.Tensor(np.ones((3, 3, 4))))
    with pytest.raises(ValueError, match=r"ops\.bmm: shapes \(2, 2, 3\) and \(2, 4, 5\) do not "
                                         r"align \(3 != 4\)"):
        ops.bmm(ms.Tensor(np.ones((2, 2, 3))), ms.Tensor(np.ones((2, 4, 5))))
    # MindSpore's CPU BatchMatMul broadcasts no batch dimension
    with pytest.raises(ValueError, match=r"different batch dimensions"):
        ops.bmm(ms.Tensor(np.ones((2, 1, 1, 3))), ms.Tensor(np.ones((2, 4, 3, 4))))


def test_bmm_takes_any_equal_batch_dimensions():
    """MindSpore 2.10: (2, 4, 1, 3) @ (2, 4, 3, 4) of ones is (2, 4, 1, 4) of threes; two 2-d
    operands are a plain product."""
    out = ops.bmm(ms.Tensor(np.ones((2, 4, 1, 3), np.float32)),
                  ms.Tensor(np.ones((2, 4, 3, 4), np.float32)))
    assert out.shape == (2, 4, 1, 4) and np.all(out.asnumpy() == 3.0)
    assert ms.Tensor(np.ones((2, 3))).bmm(ms.Tensor(np.ones((3, 4)))).shape == (2, 4)


def test_mm_errors():
    with pytest.raises(ValueError, match=r"ops\.mm: expected two 2-d tensors, got shapes "
                                         r"\(3,\) and \(3, 4\)"):
        ops.mm(ms.Tensor(np.ones(3)), ms.Tensor(np.ones((3, 4))))
    with pytest.raises(ValueError, match=r"ops\.mm: shapes \(2, 3\) and \(4, 5\) do not align "
                                         r"\(3 != 4\)"):
        ops.mm(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((4, 5))))


def test_matmul_rejects_non_tensors():
    with pytest.raises(TypeError, match=r"other must be a Tensor, got str"):
        ops.matmul(ms.Tensor(np.ones(3)), 'x')


def test_dense_is_one_node_and_matches_mindspore_example():
    x = ms.Tensor([[-1., 1., 2.], [-3., -3., 1.]])
    w = ms.Tensor([[-2., -2., -2.], [0., -1., 0.]], requires_grad=True)
    y = ops.dense(x, w, ms.Tensor([0., 1.]))
    np.testing.assert_array_equal(y.asnumpy(), [[-4., 0.], [10., 4.]])
    assert y.grad_fn.op.name == 'Dense' and y.dtype == ms.float32
    mixed = ops.dense(ms.Tensor([1, 2]), ms.Tensor([[0.5, 0.25]]))     # int input, float weight
    assert mixed.dtype == ms.float32 and mixed.asnumpy().tolist() == [1.0]


@pytest.mark.parametrize('call,error,message', [
    (lambda: ops.dense([1.0], ms.Tensor([1.0])), TypeError,
     'ops.dense: input must be a Tensor, got list'),
    (lambda: ops.dense(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 2.0, 3.0]])), ValueError,
     r'ops.dense: input of shape \(1, 2\) does not fit weight of shape \(1, 3\)'),
    (lambda: ops.dense(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 2.0]]), ms.Tensor([1.0, 2.0])),
     ValueError, r'ops.dense: bias of shape \(2,\) does not fit weight of shape \(1, 2\) '
                 r'\(expected \(1,\) or \(\)\)'),
    (lambda: ops.dense(ms.Tensor([1.0]), ms.Tensor([1.0]), 1.0), TypeError,
     'ops.dense: bias must be a Tensor, got float'),
])
def test_dense_rejects_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()
