"""Primitives of integer arithmetic, decompositions, sequences, blocks and special functions:
MindSpore 2.10's results (CPU) recorded as literals, the functional op they share code with,
and constructor errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops import operations as P


def T(a, dtype=np.float32):
    return ms.Tensor(np.array(a, dtype))


def I(a):
    return T(a, np.int32)


FACTOR = [[2.0, 0.0], [1.0, 1.5]]
TALL = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]

# name, primitive call, MindSpore 2.10's outputs (CPU)
MINDSPORE = [
    ('Gcd', lambda: P.Gcd()(I([12, -18, 7]), I([8, 12, 0])), [[4, 6, 7]]),
    ('Lcm', lambda: P.Lcm()(I([4, -6, 7]), I([6, 4, 0])), [[12, 12, 0]]),
    ('LeftShift', lambda: P.LeftShift()(I([1, 2]), I([33, 1])), [[2, 4]]),
    ('RightShift', lambda: P.RightShift()(I([16, -16, 5]), I([2, 2, 0])), [[4, -4, 5]]),
    ('Cholesky', lambda: P.Cholesky(upper=True)(T([[4.0, 2.0], [2.0, 3.0]])),
     [[[2.0, 1.0], [0.0, 1.4142135381698608]]]),
    ('CholeskyInverse', lambda: P.CholeskyInverse()(T(FACTOR)),
     [[[0.3611111044883728, -0.2222222238779068], [-0.2222222238779068, 0.4444444477558136]]]),
    ('CholeskySolve', lambda: P.CholeskySolve()(T([[1.0], [2.0]]), T(FACTOR)),
     [[[-0.0833333432674408], [0.6666666865348816]]]),
    ('Qr', lambda: P.Qr(True)(T(TALL)),
     [[[-0.169030786, 0.897085011, 0.408248931], [-0.507092476, 0.276026696, -0.816496432],
       [-0.845154226, -0.345033050, 0.408248037]],
      [[-5.91608000, -7.43735695], [0.0, 0.828078449], [0.0, 0.0]]]),
    ('Lstsq', lambda: P.Lstsq()(T([[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]]), T([[1.0], [2.0], [3.0]])),
     [[[-0.19999991], [0.99999994]]]),
    ('LuSolve', lambda: P.LuSolve()(T([[1.0], [2.0]]), T([[4.0, 3.0], [0.5, 0.5]]), I([1, 2])),
     [[[-2.0], [3.0]]]),
    ('Geqrf', lambda: P.Geqrf()(T(TALL)),
     [[[-5.916079521179199, -7.437358856201172], [0.4337717592716217, 0.8280805349349976],
       [0.7229529619216919, 0.8926230669021606]], [1.1690309047698975, 1.1131048202514648]]),
    ('Orgqr', lambda: P.Orgqr()(*P.Geqrf()(T(TALL))),
     [[[-0.16903090476989746, 0.8970855474472046], [-0.5070925951004028, 0.27602559328079224],
       [-0.845154345035553, -0.34503230452537537]]]),
    ('ReverseSequence', lambda: P.ReverseSequence(1)(T([[1.0, 2, 3], [4, 5, 6]]), I([2, 3])),
     [[[2.0, 1.0, 3.0], [6.0, 5.0, 4.0]]]),
    ('Col2Im', lambda: P.Col2Im(2)(T(np.arange(16).reshape(1, 1, 4, 4)), I([3, 3])),
     [[[[[0, 5, 5], [10, 30, 20], [10, 25, 15]]]]]),
    ('NextAfter', lambda: P.NextAfter()(T([1.0, 0.0], np.float64), T([2.0, -1.0], np.float64)),
     [[1.0000000000000002, -5e-324]]),
    ('BesselI0', lambda: P.BesselI0()(T([-1.0, 0.5])), [[1.2660659551620483, 1.063483476638794]]),
]


@pytest.mark.parametrize('name, call, want', MINDSPORE, ids=[row[0] for row in MINDSPORE])
def test_mindspore_values(name, call, want):
    out = call()
    out = out if isinstance(out, tuple) else (out,)
    assert len(out) == len(want)
    for got, expected in zip(out, want):
        np.testing.assert_allclose(got.asnumpy(), np.array(expected, got.asnumpy().dtype),
                                   rtol=2e-6, atol=1e-6)
    assert getattr(ops, name) is getattr(P, name)


def test_ormqr_is_the_functional_op():
    y, tau = ops.geqrf(T(TALL))
    other = T([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    for left, transpose in ((True, False), (True, True)):
        np.testing.assert_array_equal(
            P.Ormqr(left, transpose)(y, tau, other).asnumpy(),
            ops.ormqr(y, tau, other, left, transpose).asnumpy())
    assert repr(P.Ormqr(False)) == 'Prim[Ormqr]<left=False, transpose=False>'


def test_gradients_flow_through_the_primitives():
    factor = ms.Parameter(T(FACTOR))
    g = ms.grad(lambda f: (P.CholeskyInverse()(f) * T([[1.0, 2.0], [3.0, 4.0]])).sum())(factor)
    want = ms.grad(lambda f: (ops.cholesky_inverse(f) * T([[1.0, 2.0], [3.0, 4.0]])).sum())(factor)
    np.testing.assert_array_equal(g.asnumpy(), want.asnumpy())


@pytest.mark.parametrize('make, error, match', [
    (lambda: P.Lstsq(False), TypeError, r'ops.Lstsq: fast must be True, got False'),
    (lambda: P.Lstsq(True, 0.5), TypeError, r'ops.Lstsq: l2_regularizer must be 0.0, got 0.5'),
    (lambda: P.ReverseSequence(1.5), TypeError, r'ops.ReverseSequence: seq_dim must be an int'),
    (lambda: P.Ormqr(left=1), TypeError, r'ops.Ormqr: left must be a bool, got 1'),
    (lambda: P.Qr('yes'), TypeError, r'ops.Qr: full_matrices must be a bool'),
    (lambda: P.Cholesky(upper=None), TypeError, r'ops.Cholesky: upper must be a bool'),
    (lambda: P.Col2Im(2)(T(np.zeros((1, 4, 4))), I([3, 3])), ValueError,
     r'ops.Col2Im: x must be 4-d'),
    (lambda: P.Col2Im(2, padding=-1)(T(np.zeros((1, 1, 4, 4))), I([3, 3])), ValueError,
     r'ops.Col2Im'),
])
def test_argument_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()
