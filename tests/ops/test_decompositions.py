"""cholesky, cholesky_inverse, cholesky_solve, qr, lstsq and lu_solve: MindSpore 2.10's values,
dtypes and errors; gradients (of every order) against finite differences."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case, normal
from tests.ops.rows import row_tests


def spd(x):
    """A well-conditioned symmetric positive definite matrix from any square x."""
    n = x.shape[-1]
    return ops.matmul(x, x.swapaxes(-1, -2)) + ms.Tensor(np.eye(n) * n, x.dtype)


def _spd_ref(a):
    return a @ np.swapaxes(a, -1, -2) + np.eye(a.shape[-1]) * a.shape[-1]


def factor(rng, shape):
    """Lower triangular with a diagonal in [1.5, 2.5): a well-conditioned Cholesky factor."""
    n = shape[-1]
    diagonal = rng.uniform(1.5, 2.5, shape[:-1])[..., None] * np.eye(n)
    return np.tril(rng.standard_normal(shape) * 0.3, -1) + diagonal


def transposed(domain):
    """The domain's matrices transposed (C-ordered, as finite differences need)."""
    return lambda rng, shape: np.ascontiguousarray(domain(rng, shape).swapaxes(-1, -2))


def near_factor(rng, shape):
    """A factor plus small values above its diagonal (read by cholesky_inverse)."""
    return factor(rng, shape) + np.triu(rng.standard_normal(shape) * 0.2, 1)


def pivots(rng, shape):
    n = shape[-1]
    """Valid 1-based row interchanges: row i swaps with a row at or below it."""
    return np.stack([rng.integers(i + 1, n + 1, shape[:-1]) for i in range(n)],
                    -1).astype(np.int32)


def packed_lu(rng, shape):
    return rng.standard_normal(shape) * 0.3 + np.eye(shape[-1]) * 2


def _lu_solve_ref(b, lu, piv):
    n = lu.shape[-1]
    batch = np.broadcast_shapes(b.shape[:-2], lu.shape[:-2], piv.shape[:-1])
    b = np.broadcast_to(b, batch + b.shape[-2:]).copy()
    lu = np.broadcast_to(lu, batch + lu.shape[-2:])
    piv = np.broadcast_to(piv, batch + (n,))
    out = np.empty_like(b)
    for k in np.ndindex(*batch):
        rows = b[k].copy()
        for i in range(n):
            j = piv[k][i] - 1
            rows[[i, j]] = rows[[j, i]]
        low = np.tril(lu[k], -1) + np.eye(n)
        out[k] = np.linalg.solve(np.triu(lu[k]), np.linalg.solve(low, rows))
    return out


def _chol_solve_ref(b, u, upper=False):
    t = np.triu(u) if upper else np.tril(u)
    a = np.swapaxes(t, -1, -2) @ t if upper else t @ np.swapaxes(t, -1, -2)
    return np.linalg.solve(a, b)


def _inv_ref(u, upper=False):
    t = np.swapaxes(u, -1, -2)
    return np.linalg.inv(t @ u if upper else u @ t)


SQUARE = [((3, 3),), ((2, 3, 3),)]
CASES = [
    Case(('Cholesky', 'MatrixInverse'), lambda x: ops.cholesky(spd(x)),
         ref=lambda a: np.linalg.cholesky(_spd_ref(a)), shapes=SQUARE, rtol=1e-10),
    Case(('Cholesky', 'MatrixInverse'), lambda x: ops.cholesky(spd(x), upper=True),
         ref=lambda a: np.swapaxes(np.linalg.cholesky(_spd_ref(a)), -1, -2), shapes=SQUARE,
         rtol=1e-10, name='cholesky_upper'),
    Case(('MatrixInverse', 'MatMul'), ops.cholesky_inverse, ref=_inv_ref, shapes=[((3, 3),)],
         domains=(near_factor,), rtol=1e-10, name='cholesky_inverse'),
    Case(('MatrixInverse', 'MatMul'), lambda u: ops.cholesky_inverse(u, True),
         ref=lambda u: _inv_ref(u, True), shapes=[((3, 3),)],
         domains=(transposed(near_factor),), rtol=1e-10,
         name='cholesky_inverse_upper'),
    # the factor's other triangle is masked so that finite differences see what forward reads
    Case(('CholeskySolve', 'MatrixInverse'), lambda b, u: ops.cholesky_solve(b, ops.tril(u)),
         ref=_chol_solve_ref, shapes=[((3, 2), (3, 3)), ((2, 3, 1), (2, 3, 3))],
         domains=(normal, factor), rtol=1e-10, name='cholesky_solve'),
    Case(('CholeskySolve', 'MatrixInverse'),
         lambda b, u: ops.cholesky_solve(b, ops.triu(u), upper=True),
         ref=lambda b, u: _chol_solve_ref(b, u, True), shapes=[((3, 2), (3, 3))],
         domains=(normal, transposed(factor)), rtol=1e-10,
         name='cholesky_solve_upper'),
    Case('Qr', ops.qr, ref=np.linalg.qr, shapes=[((4, 3),), ((3, 4),), ((2, 3, 3),)],
         grad=False, rtol=1e-10, atol=1e-10, atol32=1e-5),
    Case('Qr', lambda x: ops.qr(x, 'complete'), ref=lambda a: np.linalg.qr(a, 'complete'),
         shapes=[((4, 3),), ((3, 4),)], grad=False, rtol=1e-10, atol=1e-10, atol32=1e-5,
         name='qr_complete'),
    Case('Lstsq', ops.lstsq, ref=lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0],
         shapes=[((4, 2), (4, 3)), ((2, 4), (2, 1))], grad=False, rtol=1e-10, atol=1e-10,
         rtol32=1e-4, atol32=1e-5),
    Case('LuSolve', ops.lu_solve, ref=_lu_solve_ref,
         shapes=[((3, 2), (3, 3), (3,)), ((2, 3, 1), (3, 3), (2, 3)), ((4, 4), (2, 4, 4), (4,))],
         domains=(normal, packed_lu, pivots), grad=False, rtol=1e-5, atol=1e-6),
]

globals().update(row_tests(CASES))


def t(values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


# Inputs of the MindSpore 2.10 results below (its CPU outputs, and its gradients of
# (out * W).sum())
A = [[4.0, 1.0, 0.5], [1.0, 3.0, -0.5], [0.5, -0.5, 2.0]]
L = [[2.0, 0.0, 0.0], [0.5, 1.658312439918518, 0.0], [0.25, -0.376889169216156,
                                                       1.339945673942566]]
W3 = [[1.0, -2.0, 0.5], [3.0, 0.25, -1.0], [2.0, 1.5, -0.75]]
B = [[1.0, 2.0], [-1.0, 0.5], [3.0, 1.0]]
W2 = [[1.0, -1.0], [0.5, 2.0], [-2.0, 1.5]]
M = [[1.0, 2.0], [3.0, -1.0], [0.5, 4.0]]


def close(got, want, dtype=ms.float32, rtol=1e-6, atol=1e-6):
    assert got.dtype == dtype
    np.testing.assert_allclose(got.asnumpy(), np.array(want), rtol=rtol, atol=atol)


def test_cholesky_values():
    close(ops.cholesky(t(A)), L)
    close(t(A).cholesky(True), np.array(L).T)
    close(ops.cholesky(t([A, np.multiply(A, 2).tolist()]))[1],
          [[2.8284270763397217, 0.0, 0.0], [0.7071067690849304, 2.345207929611206, 0.0],
           [0.3535533845424652, -0.5330017805099487, 1.8949693441390991]])
    close(ops.cholesky(t(np.eye(2), np.float16)), np.eye(2), ms.float16)


def test_cholesky_inverse_values_and_gradients():
    want = [[0.29113924503326416, -0.1139240488409996, -0.1012658178806305],
            [-0.113924041390419, 0.39240506291389465, 0.12658226490020752],
            [-0.1012658178806305, 0.12658226490020752, 0.5569620132446289]]
    close(ops.cholesky_inverse(t(L)), want)
    close(t(np.array(L).T).cholesky_inverse(True), want)
    close(ops.cholesky_inverse(t(L, np.float64)), want, ms.float64)
    # the whole matrix is read, not a triangle
    close(ops.cholesky_inverse(t([[2.0, 1.0], [1.0, 2.0]])),
          [[0.5555555820465088, -0.444444477558136], [-0.444444477558136, 0.5555555820465088]])
    g = ms.grad(lambda u: (ops.cholesky_inverse(u, True) * t(W3)).sum())(t(np.array(L).T))
    close(g, [[-0.10759496688842773, -0.2405063360929489, -0.6582278609275818],
              [-0.0782402977347374, -0.015266403555870056, 0.05343233793973923],
              [-0.6159756779670715, 0.24840843677520752, 0.9030302166938782]], rtol=1e-5)


def test_cholesky_solve_values_and_gradients():
    want = [[0.1012658178806305, 0.42405062913894653], [-0.1265822798013687, 0.09493671357631683],
            [1.443037986755371, 0.41772156953811646]]
    close(ops.cholesky_solve(t(B), t(L)), want, rtol=1e-5)
    close(t(B).cholesky_solve(t(np.array(L).T), upper=True), want, rtol=1e-5)
    close(ops.cholesky_solve(t([B, B]), t([L, L]))[1], want, rtol=1e-5)
    # only the factor's triangle is read
    x = [[2.0, 1.0, 0.3], [1.0, 2.0, 0.0], [0.5, 0.0, 1.5]]
    close(ops.cholesky_solve(t(B, np.float64), t(x, np.float64)),
          [[0.13194444444444448, 0.5069444444444444], [-0.375, -0.125],
           [1.222222222222222, 0.2222222222222222]], ms.float64, rtol=1e-14)
    close(ops.cholesky_solve(t(B), t(x), True),
          [[0.2474999874830246, 0.51583331823349], [-0.375, -0.125],
           [1.2666666507720947, 0.31111112236976624]], rtol=1e-5)
    gb, gu = ms.grad(lambda b, u: (ops.cholesky_solve(b, u) * t(W2)).sum(),
                     grad_position=(0, 1))(t(B), t(L))
    close(gb, [[0.43670886754989624, -0.6708860397338867],
               [-0.1708860993385315, 1.0886075496673584],
               [-1.1518988609313965, 1.1898733377456665]], rtol=1e-5)
    close(gu, [[0.6139240264892578, -0.26143699884414673, -0.9886956214904785],
               [-0.8924049735069275, -0.2385374754667282, -0.6256371736526489],
               [-1.1265820264816284, -1.652587652206421, 3.1226043701171875]], rtol=1e-5)
    gu = ms.grad(lambda u: (ops.cholesky_solve(t(B), u, True) * t(W2)).sum())(t(np.array(L).T))
    close(gu, [[0.6139240264892578, -0.8924049735069275, -1.1265820264816284],
               [-0.26143699884414673, -0.2385374754667282, -1.652587652206421],
               [-0.9886956214904785, -0.6256371736526489, 3.1226043701171875]], rtol=1e-5)


def test_qr_values():
    q = [[-0.312347412109375, 0.4161139130592346], [-0.9370425343513489, -0.2827441096305847],
         [-0.15617375075817108, 0.8642367124557495]]
    r = [[-3.2015621662139893, -0.312347412109375], [0.0, 4.571918487548828]]
    got = ops.qr(t(M))
    assert isinstance(got, tuple) and len(got) == 2
    close(got[0], q, atol=1e-6)
    close(got[1], r, atol=1e-6)
    qc, rc = ops.qr(t(M), 'complete')
    close(qc[:, 2], [-0.8539837598800659, 0.20495611429214478, 0.4782307744026184], atol=1e-6)
    assert qc.shape == (3, 3) and rc.shape == (3, 2)
    close(t(M).qr()[1], r, atol=1e-6)
    assert t(M).qr(False)[0].shape == (3, 3)
    qw, rw = ops.qr(t(np.array(M).T))
    close(rw, [[-2.2360680103302, -0.44721364974975586, -3.8013153076171875],
               [0.0, -3.130495309829712, 1.3416409492492676]], atol=1e-6)
    q16, r16 = ops.qr(t(np.ones((2, 2)), np.float16))
    assert q16.dtype == ms.float16 and r16.dtype == ms.float16
    assert not ops.qr(ms.Tensor(np.array(M, np.float32), requires_grad=True))[0].requires_grad


def test_lstsq_values():
    x = t([[1.0], [2.0], [2.5]])
    close(ops.lstsq(x, t(M)), [[0.7333332896232605, 0.8888888955116272]])
    close(x.lstsq(t(M)), [[0.7333332896232605, 0.8888888955116272]])
    close(ops.lstsq(t([[1.0, 0.0], [2.0, 1.0], [2.5, -1.0]]), t(M)),
          [[0.7977527379989624, 0.7865168452262878], [1.449438214302063, -2.303370714187622]],
          rtol=1e-5)
    close(ops.lstsq(t([[1.0], [2.0]]), t(np.array(M).T)),
          [[0.9999998807907104, 0.20000001788139343, 1.6999998092651367]], rtol=1e-5)
    close(ops.lstsq(x, t([1.0, 2.0, 3.0])), [[1.1111111640930176]])
    close(ops.lstsq(x.astype(ms.float16), t(M, np.float16)), [[0.7333984375, 0.888671875]],
          ms.float16, rtol=1e-3)


def test_lu_solve_values():
    lu = t([[2.0, -1.0, 0.5], [0.5, 3.5, -2.25], [0.0, 0.42857143, 1.96428571]])
    b = t(B)
    close(ops.lu_solve(b, lu, t([1, 2, 3], np.int32)),
          [[0.418181836605072, 0.9727272987365723], [0.7636363506317139, 0.2545454502105713],
           [1.8545453548431396, 0.6181818246841431]], rtol=1e-5)
    want = [[-0.19999998807907104, 0.5090909004211426], [1.2000000476837158, 0.5818182229995728],
            [1.2000000476837158, 0.12727272510528564]]
    close(ops.lu_solve(b, lu, t([2, 2, 3], np.int32)), want, rtol=1e-5)
    close(b.lu_solve(lu, t([2, 2, 3], np.int32)), want, rtol=1e-5)
    close(ops.lu_solve(b, lu, t([3, 3, 3], np.int32)),
          [[1.399999976158142, 0.7090908885002136], [-0.4000000059604645, 0.3818182051181793],
           [-0.3999999761581421, -0.072727270424366]], rtol=1e-5)
    batch = ops.lu_solve(t([B, B]), lu, t([2, 2, 3], np.int32))
    assert batch.shape == (2, 3, 2)
    # Float64 is solved in Float32, as MindSpore's kernel does
    close(ops.lu_solve(b.astype(ms.float64), lu.astype(ms.float64), t([2, 2, 3], np.int32)),
          want, ms.float64, rtol=1e-7)
    close(ops.lu_solve(b.astype(ms.float16), lu.astype(ms.float16), t([2, 2, 3], np.int32)),
          [[-0.199951171875, 0.50927734375], [1.2001953125, 0.58203125],
           [1.2001953125, 0.12744140625]], ms.float16, rtol=1e-3)


def test_cholesky_rejects_a_matrix_that_is_not_positive_definite():
    with pytest.raises(RuntimeError, match=r"ops\.cholesky: input_x must be symmetric positive "
                                           r"definite"):
        ops.cholesky(t([[1.0, 2.0], [2.0, 1.0]]))


ERRORS = [
    (lambda: ops.cholesky(t(np.ones((2, 3)))), ValueError,
     r"ops\.cholesky: input_x must hold square matrices, got shape \(2, 3\)"),
    (lambda: ops.cholesky(t([1.0, 2.0])), ValueError,
     r"ops\.cholesky: input_x must have rank >= 2, got shape \(2,\)"),
    (lambda: ops.cholesky(t(np.eye(2), np.int32)), TypeError,
     r"ops\.cholesky: input_x must be a tensor of Float16, Float32, Float64, got Int32"),
    (lambda: ops.cholesky(t(np.eye(2)), upper=1), TypeError,
     r"ops\.cholesky: upper must be a bool, got 1"),
    (lambda: ops.cholesky_inverse(t(np.ones((2, 2, 2)))), ValueError,
     r"ops\.cholesky_inverse: input_x must be 2-d, got shape \(2, 2, 2\)"),
    (lambda: ops.cholesky_inverse(t(np.eye(2), np.float16)), TypeError,
     r"ops\.cholesky_inverse: input_x must be a tensor of Float32, Float64, got Float16"),
    (lambda: ops.cholesky_solve(t(B, np.float64), t(L)), TypeError,
     r"ops\.cholesky_solve: input and input2 must have the same dtype, got Float64 and Float32"),
    (lambda: ops.cholesky_solve(t([B, B]), t(L)), ValueError,
     r"ops\.cholesky_solve: input and input2 must have the same rank"),
    (lambda: ops.cholesky_solve(t(np.ones((2, 2))), t(L)), ValueError,
     r"ops\.cholesky_solve: shapes \(2, 2\) and \(3, 3\) do not fit"),
    (lambda: ops.cholesky_solve(t(np.ones((1, 1, 3, 1))), t(np.ones((1, 1, 3, 3)))),
     ValueError, r"ops\.cholesky_solve: input must be 2-d or 3-d"),
    (lambda: ops.qr(t(M), 'r'), TypeError,
     r"ops\.qr: mode must be 'reduced' or 'complete', got 'r'"),
    (lambda: ops.qr(t([1.0, 2.0])), ValueError, r"ops\.qr: input must have rank >= 2"),
    (lambda: ops.qr(t(np.ones((2, 2)), np.int32)), TypeError, r"ops\.qr: input must be a tensor"),
    (lambda: ops.lstsq(t([1.0, 2.0, 2.5]), t(M)), ValueError,
     r"ops\.lstsq: input must be 2-d, got shape \(3,\)"),
    (lambda: ops.lstsq(t([[1.0], [2.0]]), t(M)), ValueError,
     r"ops\.lstsq: input and A must have the same number of rows, got shapes \(2, 1\) and "
     r"\(3, 2\)"),
    (lambda: ops.lstsq(t([[1.0], [2.0], [2.5]], np.float64), t(M)), TypeError,
     r"ops\.lstsq: input and A must have the same dtype, got Float64 and Float32"),
    (lambda: ops.lu_solve(t(B), t(np.eye(3)), t([2, 2, 3], np.int64)), TypeError,
     r"ops\.lu_solve: LU_pivots must be an Int32 tensor, got Int64"),
    (lambda: ops.lu_solve(t(B, np.float64), t(np.eye(3)), t([2, 2, 3], np.int32)), TypeError,
     r"ops\.lu_solve: b and LU_data must have the same dtype, got Float64 and Float32"),
    (lambda: ops.lu_solve(t(np.ones((2, 2))), t(np.eye(3)), t([2, 2, 3], np.int32)),
     ValueError, r"ops\.lu_solve: b of shape \(2, 2\) does not fit LU_data of shape \(3, 3\)"),
    (lambda: ops.lu_solve(t(B), t(np.eye(3)), t([1, 2], np.int32)), ValueError,
     r"ops\.lu_solve: LU_pivots of shape \(2,\) does not fit LU_data of shape \(3, 3\)"),
    (lambda: ops.lu_solve(t(B), t(np.ones((3, 2))), t([1, 2, 3], np.int32)), ValueError,
     r"ops\.lu_solve: LU_data must hold square matrices"),
    (lambda: ops.lu_solve(t(np.ones((2, 3, 1))), t(np.ones((3, 3, 3))), t([1, 2, 3], np.int32)),
     ValueError, r"ops\.lu_solve: batch dimensions of shapes"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
