"""Matrix functions (det, slogdet, logdet, inverse, matrix_power, matrix_solve, matrix_exp,
svd, pinv, eig, eigvals), matrix structure (bands, packed diagonals, blocks, vander,
lu_unpack) and vector ops (mv, vecdot, cross, dist, pdist, cov, trapz, renorm, ldexp): NumPy
values, gradients against float64 finite differences, and the errors' messages."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case, positive
from tests.ops.rows import error_test, row_tests

try:
    import scipy.linalg as scipy_linalg
except ImportError:         # the matrix_exp reference is then the Taylor series
    scipy_linalg = None


def well_conditioned(rng, shape):
    return rng.standard_normal(shape) + 3 * np.eye(shape[-1])


def positive_definite(rng, shape):
    m = rng.standard_normal(shape)
    return m @ np.swapaxes(m, -1, -2) + np.eye(shape[-1])


def real_eigenvalues(rng, shape):
    """S diag(w) S^-1 with w spread apart: real, distinct eigenvalues."""
    n = shape[-1]
    s = rng.standard_normal(shape) + 3 * np.eye(n)
    w = np.arange(n) - n / 2 + rng.uniform(0, 0.3, shape[:-1])
    return s @ (w[..., :, None] * np.linalg.inv(s))


def _expm_ref(a):
    if scipy_linalg is not None:
        return np.vectorize(scipy_linalg.expm, signature='(n,n)->(n,n)')(a)
    term, total = np.broadcast_to(np.eye(a.shape[-1]), a.shape), 0
    for k in range(1, 40):
        total = total + term
        term = term @ a / k
    return total


def _polar(u, v):
    return np.matmul(u, np.swapaxes(v, -1, -2))


def _svd_ref(a):
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    return s, u @ vt


def _pinv_ref(a):
    return np.linalg.pinv(a)


def _pdist_ref(x, p=2.0):
    i, j = np.triu_indices(x.shape[-2], 1)
    d = np.abs(x[..., i, :] - x[..., j, :])
    return (d ** p).sum(-1) ** (1 / p)


def _band_ref(a, lower, upper):
    i, j = np.indices(a.shape[-2:])
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return np.where(keep, a, 0)


SQUARE = [((3, 3),), ((2, 4, 4),), ((1, 1),)]
MATRIX = [
    Case(('Log', 'GatherElements'), ops.det, ref=np.linalg.det, shapes=SQUARE,
         domains=(well_conditioned,), rtol=1e-10, name='det'),
    Case(('Log', 'GatherElements'), lambda x: ops.slogdet(x)[1],
         ref=lambda a: np.linalg.slogdet(a)[1], shapes=SQUARE, domains=(well_conditioned,),
         rtol=1e-10, name='slogdet'),
    Case(('Log', 'GatherElements'), ops.logdet, ref=lambda a: np.linalg.slogdet(a)[1],
         shapes=SQUARE, domains=(positive_definite,), rtol=1e-10, name='logdet'),
    Case('MatrixInverse', ops.inverse, ref=np.linalg.inv, shapes=SQUARE,
         domains=(well_conditioned,), rtol=1e-10, name='inverse'),
    Case('MatMul', lambda x: ops.matrix_power(x, 3), ref=lambda a: a @ a @ a,
         shapes=SQUARE, rtol=1e-10, name='matrix_power'),
    Case(('MatMul', 'GatherElements'), lambda x: ops.matrix_power(x, -2),
         ref=lambda a: np.linalg.inv(a @ a), shapes=SQUARE, domains=(well_conditioned,),
         rtol=1e-9, name='matrix_power_negative'),
    Case(('MatMul', 'MatrixInverse'), ops.matrix_solve, ref=np.linalg.solve,
         shapes=[((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 1))],
         domains=(well_conditioned, positive), rtol=1e-10, name='matrix_solve'),
    Case(('MatMul', 'MatrixInverse'), lambda a, b: ops.matrix_solve(a, b, True),
         ref=lambda a, b: np.linalg.solve(np.swapaxes(a, -1, -2), b),
         shapes=[((3, 3), (3, 2))], domains=(well_conditioned,), rtol=1e-10,
         name='matrix_solve_adjoint'),
    Case('MatrixExp', ops.matrix_exp, ref=_expm_ref, shapes=[((3, 3),), ((2, 4, 4),)],
         rtol=1e-10, atol=1e-10, name='matrix_exp'),
    Case('MatrixExp', lambda x: ops.matrix_exp(x * 4), ref=lambda a: _expm_ref(a * 4),
         shapes=[((3, 3),)], rtol=1e-9, atol=1e-9, grad_rtol=1e-4, name='matrix_exp_squared'),
    Case('Svd', lambda x: ops.svd(x, compute_uv=False),
         ref=lambda a: np.linalg.svd(a, compute_uv=False),
         shapes=[((3, 3),), ((2, 4, 3),), ((3, 5),)], rtol=1e-10, name='svd_values'),
    Case('Svd', lambda x: (lambda s, u, v: (s, ops.matmul(u, ops.swapaxes(v, -1, -2))))(
        *ops.svd(x)), ref=_svd_ref, shapes=[((3, 3),), ((2, 4, 3),), ((3, 5),)], rtol=1e-9,
         atol=1e-9, name='svd'),
    Case('Svd', lambda x: (lambda s, u, v: (u * u, v * v))(*ops.svd(x)),
         ref=lambda a: (lambda u, s, vt: (u * u, np.swapaxes(vt, -1, -2) ** 2))(
             *np.linalg.svd(a, full_matrices=False)),
         shapes=[((4, 3),), ((2, 3, 5),)], rtol=1e-9, atol=1e-9, name='svd_vectors'),
    Case('Pinv', ops.pinv, ref=_pinv_ref, shapes=[((3, 4),), ((2, 4, 3),), ((3, 3),)],
         rtol=1e-9, atol=1e-9, name='pinv'),
    Case(('Eig', 'Real'), lambda x: ops.real(ops.eigvals(x)),
         ref=lambda a: np.linalg.eigvals(a).real,
         shapes=[((3, 3),), ((2, 4, 4),)], domains=(real_eigenvalues,), rtol=1e-9, atol=1e-9,
         name='eigvals'),
    Case(('Eig', 'Real'), lambda x: (lambda w, v: (ops.real(w), ops.real(v * v)))(*ops.eig(x)),
         ref=lambda a: (lambda w, v: (w.real, v.real ** 2))(*np.linalg.eig(a)),
         shapes=[((3, 3),), ((2, 4, 4),)], domains=(real_eigenvalues,), rtol=1e-9, atol=1e-9,
         name='eig'),
]

STRUCTURE = [
    Case('Where', lambda x: ops.matrix_band_part(x, 1, 2), ref=lambda a: _band_ref(a, 1, 2),
         shapes=[((4, 5),), ((2, 3, 3),)], rtol=0, atol=0, name='matrix_band_part'),
    Case('Where', lambda x: ops.matrix_band_part(x, -1, 0),
         ref=lambda a: _band_ref(a, -1, 0), shapes=[((4, 5),)], rtol=0, atol=0,
         name='matrix_band_part_lower'),
    Case('Take', lambda x: ops.matrix_diag_part(x, (-1, 1), 0.0),
         ref=lambda a: np.stack([np.concatenate([np.diagonal(a, 1, -2, -1)[..., :3]]),
                                 np.diagonal(a, 0, -2, -1)[..., :3],
                                 np.concatenate([np.diagonal(a, -1, -2, -1),
                                                 np.zeros(a.shape[:-2] + (1,))], -1)], -2),
         shapes=[((3, 4),), ((2, 3, 4),)], rtol=0, atol=0, name='matrix_diag_part'),
    Case('Take', lambda x: ops.matrix_diag(x, 0), ref=lambda a: a[..., None] * np.eye(3),
         shapes=[((3,),), ((2, 3),)], rtol=0, atol=0, name='matrix_diag'),
    Case('Take', lambda x, d: ops.matrix_set_diag(x, d),
         ref=lambda a, d: a * (1 - np.eye(*a.shape[-2:])) + np.eye(*a.shape[-2:]) *
         np.concatenate([d, np.zeros(a.shape[:-2] + (a.shape[-1] - d.shape[-1],))], -1)[
             ..., None, :],
         shapes=[((3, 4), (3,)), ((2, 3, 3), (2, 3))], rtol=0, atol=0, name='matrix_set_diag'),
    Case('Concat', lambda *xs: ops.block_diag(*xs),
         ref=lambda a, b: np.block([[a, np.zeros((a.shape[0], b.shape[-1]))],
                                    [np.zeros((1, a.shape[1])), b.reshape(1, -1)]]),
         shapes=[((2, 3), (4,))], rtol=0, atol=0, name='block_diag'),
    Case('Mul', ops.vander, ref=np.vander, shapes=[((4,),)], rtol=1e-12, name='vander'),
    Case('Triangle', lambda a: ops.lu_unpack(a, ms.Tensor(np.array([2, 2, 3], np.int32)))[1:],
         ref=lambda a: (np.tril(a, -1) + np.eye(3), np.triu(a)), shapes=[((3, 3),)], rtol=0,
         atol=0, name='lu_unpack'),
]

VECTORS = [
    Case('MatMul', ops.mv, ref=np.matmul, shapes=[((3, 4), (4,))], rtol=1e-12, name='mv'),
    Case('ReduceSum', ops.vecdot, ref=lambda a, b: (a * b).sum(-1),
         shapes=[((2, 3), (3,)), ((4, 1, 3), (2, 3))], rtol=1e-12, name='vecdot'),
    Case('Concat', ops.cross, ref=lambda a, b: np.cross(a, b, axis=0),
         shapes=[((3, 4), (3, 4))], rtol=1e-12, name='cross'),
    Case('VectorNorm', ops.dist, ref=lambda a, b: np.sqrt(((a - b) ** 2).sum()),
         shapes=[((2, 3), (2, 3)), ((2, 3), (3,))], rtol=1e-12, name='dist'),
    Case('VectorNorm', ops.pdist, ref=_pdist_ref, shapes=[((4, 3),), ((2, 3, 5),)],
         rtol=1e-12, name='pdist'),
    Case('MatMul', ops.cov, ref=np.cov, shapes=[((3, 5),)], rtol=1e-12, name='cov'),
    Case('ReduceSum', ops.trapz, ref=lambda y: np.trapezoid(y, axis=-1),
         shapes=[((2, 5),), ((4,),)], rtol=1e-12, name='trapz'),
    Case('ReduceSum', lambda y, x: ops.trapz(y, x), ref=lambda y, x: np.trapezoid(y, x),
         shapes=[((2, 4), (4,)), ((3, 4), (3, 4))], rtol=1e-12, name='trapz_x'),
    Case('Mul', lambda x: ops.renorm(x, 2, 0, 1.0),
         ref=lambda a: a * np.minimum(1, 1 / (np.sqrt((a * a).sum(1, keepdims=True)) + 1e-7)),
         shapes=[((3, 4),)], rtol=1e-6, name='renorm'),
    Case('Mul', lambda x: ops.ldexp(x, 3), ref=lambda a: a * 8, shapes=[((2, 3),)],
         rtol=1e-12, name='ldexp'),
]
CASES = MATRIX + STRUCTURE + VECTORS

globals().update(row_tests(CASES))


def test_index_sets_and_grids():
    assert ops.tril_indices(3, 4, 1).asnumpy().tolist() == [list(r) for r in
                                                            np.tril_indices(3, 1, 4)]
    assert ops.triu_indices(3, 3, dtype=ms.int32).dtype == ms.int32
    np.testing.assert_allclose(ops.logspace(0.0, 2.0, 3).asnumpy(), [1, 10, 100])
    assert ops.combinations(ms.Tensor([1.0, 2.0, 3.0]), 2).asnumpy().tolist() == \
        [[1, 2], [1, 3], [2, 3]]
    assert ops.cartesian_prod(ms.Tensor([1, 2]), ms.Tensor([3, 4])).asnumpy().tolist() == \
        [[1, 3], [1, 4], [2, 3], [2, 4]]


def test_lu_unpack_rebuilds_the_matrix():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 4, 4))
    lu, piv = [], []
    for m in a:             # a packed LU with LAPACK's pivots, by partial pivoting
        m, p = m.copy(), []
        for k in range(4):
            j = k + int(np.argmax(np.abs(m[k:, k])))
            p.append(j + 1)
            m[[k, j]] = m[[j, k]]
            m[k + 1:, k] /= m[k, k]
            m[k + 1:, k + 1:] -= np.outer(m[k + 1:, k], m[k, k + 1:])
        lu.append(m)
        piv.append(p)
    P, L, U = ops.lu_unpack(ms.Tensor(np.array(lu)), ms.Tensor(np.array(piv, np.int32)))
    np.testing.assert_allclose((P.asnumpy() @ L.asnumpy() @ U.asnumpy()), a, atol=1e-12)


def test_eig_gives_complex_results_as_mindspore():
    # MindSpore 2.10: Complex64 for Float32 input, even where every eigenvalue is real
    w = ops.eigvals(ms.Tensor(np.array([[0.0, -1.0], [1.0, 0.0]], np.float32)))
    assert repr(w) == "Tensor(shape=[2], dtype=Complex64, value= [0+1j, 0-1j])"
    w, v = ops.eig(ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)))
    assert repr(w) == "Tensor(shape=[2], dtype=Complex64, value= [-0.372281+0j, 5.37228+0j])"
    assert repr(v) == ("Tensor(shape=[2, 2], dtype=Complex64, value=\n"
                       "[[-0.824565+0j, -0.415974+0j],\n [0.565767+0j, -0.909377+0j]])")
    assert ops.eig(ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]])))[0].dtype == ms.complex128


def test_gradient_through_complex_eigenvalues_matches_finite_differences():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 3))         # eigenvalues 0.77 +- 1.02i and 0.08
    weights = rng.standard_normal((2, 3))

    def loss(x):
        w = ops.eigvals(x)
        w = ops.sort(ops.imag(w))[0] * ms.Tensor(weights[0]) + ops.real(w).sum() * weights[1]
        return w.sum()
    got = ms.grad(loss)(ms.Tensor(a)).asnumpy()
    eps, want = 1e-6, np.zeros_like(a)
    for i in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[i] += eps
        down[i] -= eps
        want[i] = (float(loss(ms.Tensor(up))) - float(loss(ms.Tensor(down)))) / (2 * eps)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


_F = ms.Tensor(np.ones((2, 3), np.float32))
_I = ms.Tensor(np.array([[2, 1], [1, 3]]))
test_errors = error_test([
    (lambda: ops.det(_F), ValueError,
     r"For primitive\[MatrixDeterminant\], the row size must be equal to 2, but got 3"),
    (lambda: ops.det(ms.Tensor([1.0, 2.0])), ValueError, r"x rank must be greater than or equal"
     r" to 2, but got 1"),
    (lambda: ops.det(_I), TypeError, r"must be a type of \{Tensor\[Float32\], Tensor\[Float64\]"
     r"\}, but got Tensor\[Int64\]"),
    (lambda: ops.det([[1.0, 2.0], [3.0, 4.0]]), TypeError, "must be a Tensor, but got list"),
    (lambda: ops.slogdet(_F), ValueError, r"primitive\[LogMatrixDeterminant\], the row size"),
    (lambda: ops.inverse(_I), TypeError, r"primitive\[MatrixInverse\].*Tensor\[Int64\]"),
    (lambda: ops.matrix_power(ms.Tensor(np.ones((1, 2, 3))), 2), ValueError,
     r"For MatrixPower, dim\[-1\] and dim\[-2\] of x should be the same, but got dim\[-1\]: 3 "
     r"and dim\[-2\]: 2"),
    (lambda: ops.matrix_exp(_F), ValueError, "For MatrixExp, the input expects a tensor of "
     "squared matrices"),
    (lambda: ops.matrix_exp(_I), TypeError, "For MatrixExp, the input must be a float"),
    (lambda: ops.svd(ms.Tensor([1.0, 2.0])), ValueError, "For Svd, the rank of 'input' must be "
     "great equal than 2"),
    (lambda: ops.pinv(ms.Tensor([1.0, 2.0])), ValueError, "input x should have 2 or more "
     "dimensions, but got 1"),
    (lambda: ops.eig(_F), ValueError, r"For Eig, x should be square\(squares\), but got 2  3"),
    (lambda: ops.eigvals(_I), TypeError, "For Eig, x must be a float32 or float64 Tensor"),
    (lambda: ops.matrix_solve(_F, _F), ValueError, r"primitive\[MatrixSolve\]"),
    (lambda: ops.matrix_band_part(ms.Tensor([1.0]), 1, 0), ValueError,
     r"primitive\[MatrixBandPart\], the x shape size must be greater than or equal to 2"),
    (lambda: ops.matrix_diag_part(_F, (1, 0), 0.0), ValueError, "k.0. must not be greater"),
    (lambda: ops.matrix_diag(ms.Tensor([1.0, 2.0]), 0, 3, 5), ValueError,
     "not consistent with the specified k and x"),
    (lambda: ops.matrix_set_diag(_F, ms.Tensor([1.0])), ValueError,
     r"'diagonal' must have shape \(2,\)"),
    (lambda: ops.matrix_diag_part(_F, 0, 0.0, 'UP'), ValueError, "'align' must be one of"),
    (lambda: ops.lu_unpack(ms.Tensor(np.ones((3, 3))), ms.Tensor([1.0, 2.0, 3.0])), TypeError,
     "'LU_pivots' must be an integer Tensor"),
    (lambda: ops.mv(_F, ms.Tensor([1.0, 2.0])), ValueError, "For 'MatMul' the input dimensions "
     "must be equal, but got 'x1_col': 3 and 'x2_row': 2"),
    (lambda: ops.vander(_F), ValueError, "For vander, x must be 1-D, but got dimension = 2"),
    (lambda: ops.pdist(ms.Tensor([1.0, 2.0])), ValueError,
     r"primitive\[Pdist\], the x dim must be equal to 2, but got 1"),
    (lambda: ops.block_diag(ms.Tensor(np.ones((1, 2, 2)))), ValueError, "rank <= 2"),
    (lambda: ops.renorm(_F, 0, 0, 1.0), ValueError, "'p' must be a positive number"),
    (lambda: ops.tril_indices(-1, 3), ValueError, "'row' and 'col' must be non-negative"),
    (lambda: ops.combinations(_F), ValueError, "'input' must be 1-D"),
])


def test_primitives_follow_mindspores_outputs():
    a = ms.Tensor(np.array([[2.0, 1.0], [1.0, 3.0]]))
    s, u, v = ops.Svd(compute_uv=False)(a)
    assert u.shape == v.shape == (1,) and s.shape == (2,)
    w, vectors = ops.Eig()(a)
    assert vectors.shape == () and sorted(w.asnumpy().round(6)) == [1.381966, 3.618034]
    w, vectors = ops.Eig(True)(a)
    np.testing.assert_allclose(a.asnumpy() @ vectors.asnumpy(), vectors.asnumpy() * w.asnumpy(),
                               atol=1e-12)
    np.testing.assert_allclose(ops.MatrixInverse(True)(a).asnumpy(), np.linalg.inv(a.asnumpy().T))
    sign, logabs = ops.LogMatrixDeterminant()(a)
    assert sign.item() == 1 and logabs.item() == pytest.approx(np.log(5))
