"""geqrf, orgqr and ormqr: MindSpore 2.10's values (ormqr, which its CPU build cannot compute,
against its documented definition), shapes and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def _geqrf_ref(a):
    h, tau = np.linalg.qr(a, mode='raw')
    return np.swapaxes(h, -1, -2), tau


def _q(a):
    return np.linalg.qr(a, mode='complete')[0]


def _orgqr(a):
    y, tau = ops.geqrf(a)
    return ops.orgqr(y, tau)


def _ormqr(a, c, left, transpose):
    y, tau = ops.geqrf(a)
    return ops.ormqr(y, tau, c, left, transpose)


def _ormqr_ref(a, c, left, transpose):
    q = _q(a)
    q = np.swapaxes(q, -1, -2) if transpose else q
    return q @ c if left else c @ q


CASES = [
    Case('Geqrf', ops.geqrf, ref=_geqrf_ref, shapes=[((4, 3),), ((3, 4),), ((2, 3, 2),)],
         grad=False, rtol=1e-10, atol=1e-10, atol32=1e-5),
    Case(('Orgqr', 'Geqrf'), _orgqr, ref=lambda a: np.linalg.qr(a)[0],
         shapes=[((4, 3),), ((2, 3, 3),)], grad=False, rtol=1e-10, atol=1e-10, atol32=1e-5,
         name='orgqr'),
    Case(('Ormqr', 'Geqrf'), lambda a, c: _ormqr(a, c, True, False),
         ref=lambda a, c: _ormqr_ref(a, c, True, False), shapes=[((4, 3), (4, 2))],
         grad=False, rtol=1e-10, atol=1e-10, atol32=1e-5, name='ormqr'),
    Case(('Ormqr', 'Geqrf'), lambda a, c: _ormqr(a, c, True, True),
         ref=lambda a, c: _ormqr_ref(a, c, True, True), shapes=[((2, 4, 3), (2, 4, 2))],
         grad=False, rtol=1e-10, atol=1e-10, atol32=1e-5, name='ormqr_transposed'),
    Case(('Ormqr', 'Geqrf'), lambda a, c: _ormqr(a, c, False, False),
         ref=lambda a, c: _ormqr_ref(a, c, False, False), shapes=[((3, 3), (2, 3))],
         grad=False, rtol=1e-10, atol=1e-10, atol32=1e-5, name='ormqr_right'),
    Case(('Ormqr', 'Geqrf'), lambda a, c: _ormqr(a, c, False, True),
         ref=lambda a, c: _ormqr_ref(a, c, False, True), shapes=[((4, 2), (3, 4))],
         grad=False, rtol=1e-10, atol=1e-10, atol32=1e-5, name='ormqr_right_transposed'),
]

globals().update(row_tests(CASES))

M = [[1.0, 2.0], [3.0, -1.0], [0.5, 4.0]]


def t(values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


def close(got, want, dtype=ms.float32):
    assert got.dtype == dtype
    np.testing.assert_allclose(got.asnumpy(), np.array(want), rtol=1e-5, atol=1e-6)


# MindSpore 2.10's results (CPU)
def test_geqrf_and_orgqr_values():
    y, tau = ops.geqrf(t(M))
    close(y, [[-3.20156192779541, -0.3123469948768616], [0.7140200138092041, 4.57191801071167],
              [0.11900299787521362, -0.5156909823417664]])
    close(tau, [1.3123470544815063, 1.5798579454421997])
    yw, tauw = t(np.array(M).T).geqrf()
    close(yw, [[-2.2360680103302, -0.4472140073776245, -3.8013150691986084],
               [0.6180340051651001, -3.130495071411133, 1.3416409492492676]])
    close(tauw, [1.4472140073776245, 0.0])
    yb, taub = ops.geqrf(t([M, M]))
    assert yb.shape == (2, 3, 2) and taub.shape == (2, 2)
    y64, _ = ops.geqrf(t(M, np.float64))
    assert y64.dtype == ms.float64
    close(ops.orgqr(y, tau), [[-0.3123469948768616, 0.4161140024662018],
                              [-0.9370430111885071, -0.28274399042129517],
                              [-0.15617400407791138, 0.8642370104789734]])
    close(y.orgqr(tau[:1]), [[-0.3123469948768616, -0.9370430111885071],
                             [-0.9370430111885071, 0.33093300461769104],
                             [-0.15617400407791138, -0.1115109995007515]])
    # MindSpore's documented example
    y, tau = ops.geqrf(t([[-2.0, -1.0], [1.0, 2.0]]))
    close(y, [[2.236068, 1.7888544], [-0.236068, 1.3416407]])
    close(tau, [1.8944271, 0.0])
    close(ops.orgqr(y, tau), [[-8.94427061e-01, 4.47213590e-01], [4.47213590e-01, 8.94427180e-01]])


def test_ormqr_multiplies_by_q():
    y, tau = ops.geqrf(t(M))
    q = np.linalg.qr(np.array(M), 'complete')[0]
    c = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 3.0]])
    close(ops.ormqr(y, tau, t(c)), q @ c)
    close(y.ormqr(tau, t(c), transpose=True), q.T @ c)
    close(ops.ormqr(y, tau, t(c.T), left=False), c.T @ q)
    close(ops.ormqr(y, tau, t(c.T), False, True), c.T @ q.T)
    assert not ops.geqrf(ms.Tensor(np.array(M, np.float32), requires_grad=True))[0].requires_grad


Y = t(M)
TAU = t([1.0, 1.5])
ERRORS = [
    (lambda: ops.geqrf(t([1.0, 2.0])), ValueError, r"ops\.geqrf: input must have rank >= 2"),
    (lambda: ops.geqrf(t(M, np.float16)), TypeError,
     r"ops\.geqrf: input must be a Float32 or Float64 tensor, got Float16"),
    (lambda: ops.orgqr(t(np.array(M).T), TAU), ValueError,
     r"ops\.orgqr: input must have at least as many rows as columns, got shape \(2, 3\)"),
    (lambda: ops.orgqr(Y, t([1.0, 1.0, 1.0])), ValueError,
     r"ops\.orgqr: tau of shape \(3,\) does not fit input of shape \(3, 2\)"),
    (lambda: ops.orgqr(Y, t([1.0, 1.0], np.float64)), TypeError,
     r"ops\.orgqr: input and tau must have the same dtype, got Float32 and Float64"),
    (lambda: ops.ormqr(Y, TAU, t(np.ones((2, 2)))), ValueError,
     r"ops\.ormqr: input of shape \(3, 2\) does not fit other of shape \(2, 2\)"),
    (lambda: ops.ormqr(Y, TAU, t(np.ones((3, 2))), left=1), TypeError,
     r"ops\.ormqr: left must be a bool, got 1"),
    (lambda: ops.ormqr(Y, TAU, t(np.ones((3, 2)), np.float64)), TypeError,
     r"ops\.ormqr: input and other must have the same dtype, got Float32 and Float64"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
