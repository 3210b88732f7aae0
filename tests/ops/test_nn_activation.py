"""Composed activations (elu, selu, hardswish, mish, prelu, glu...): NumPy references, float64
finite differences (first and second order), MindSpore's values and the argument errors."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

SHAPES = [((),), ((5,),), ((3, 4),), ((2, 3, 2),)]
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def away_from(*kinks):
    """Values in (-4, 4) at least 0.1 from every kink (finite differences stay one-sided)."""
    def domain(rng, shape):
        x = rng.uniform(-4.0, 4.0, size=shape)
        for k in kinks:
            x = np.where(np.abs(x - k) < 0.1, x + 0.25, x)
        return np.asarray(x)
    return domain


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softplus(x):
    return np.logaddexp(0, x)


def _elu(x, alpha=1.0, scale=1.0, inner=1.0):
    return scale * np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0) * inner))


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _row(op, name, fn, ref, domain, shapes=SHAPES, **kw):
    return Case(op, fn, ref=ref, shapes=shapes, domains=(domain,), name=name, rtol=1e-10,
                atol=1e-12, **kw)


CASES = [
    _row('Where', 'elu', ops.elu, _elu, away_from(0)),
    _row('Where', 'elu_alpha', lambda x: ops.elu(x, 0.5), lambda x: _elu(x, 0.5), away_from(0)),
    _row('Expm1', 'celu', lambda x: ops.celu(x, 2.0), lambda x: _elu(x, 2.0, 1.0, 0.5),
         away_from(0)),
    _row('Expm1', 'selu', ops.selu, lambda x: _elu(x, SELU_ALPHA, SELU_SCALE), away_from(0)),
    _row('Where', 'hardsigmoid', ops.hardsigmoid, lambda x: np.clip(x / 6 + 0.5, 0, 1),
         away_from(-3, 3)),
    _row('Clamp', 'hardswish', ops.hardswish, lambda x: x * np.clip(x / 6 + 0.5, 0, 1),
         away_from(-3, 3)),
    _row('Softplus', 'mish', ops.mish, lambda x: x * np.tanh(_softplus(x)), away_from()),
    _row('Abs', 'softsign', ops.softsign, lambda x: x / (1 + np.abs(x)), away_from(0)),
    _row('Softmax', 'softmin', ops.softmin, lambda x: _softmax(-x, -1 if x.ndim else None),
         away_from()),
    _row('Softmax', 'softmin_axis0', lambda x: ops.softmin(x, 0), lambda x: _softmax(-x, 0),
         away_from(), shapes=[((3, 4),)]),
    _row('Clamp', 'hardtanh', lambda x: ops.hardtanh(x, -1.0, 2.0),
         lambda x: np.clip(x, -1, 2), away_from(-1, 2)),
    _row('Softplus', 'logsigmoid', ops.logsigmoid, lambda x: -_softplus(-x), away_from()),
    _row('Where', 'hardshrink', ops.hardshrink, lambda x: np.where(np.abs(x) > 0.5, x, 0),
         away_from(-0.5, 0.5)),
    _row('Clamp', 'softshrink', lambda x: ops.softshrink(x, 1.0),
         lambda x: x - np.clip(x, -1, 1), away_from(-1, 1)),
    _row('Tanh', 'tanhshrink', ops.tanhshrink, lambda x: x - np.tanh(x), away_from()),
    _row('Where', 'threshold', lambda x: ops.threshold(x, 0.5, -2.0),
         lambda x: np.where(x > 0.5, x, -2.0), away_from(0.5)),
    _row('Sigmoid', 'glu', ops.glu, lambda x: x[..., :2] * _sigmoid(x[..., 2:]), away_from(),
         shapes=[((4,),), ((3, 4),), ((2, 3, 4),)]),
    _row('Sigmoid', 'glu_axis0', lambda x: ops.glu(x, 0), lambda x: x[:2] * _sigmoid(x[2:]),
         away_from(), shapes=[((4, 3),)]),
    _row('Sigmoid', 'fast_gelu', ops.fast_gelu,
         lambda x: x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x))),
         away_from()),
    Case('Where', ops.prelu, name='prelu',
         ref=lambda x, w: np.where(x > 0, x, x * w.reshape((-1,) + (1,) * (x.ndim - 2))),
         shapes=[((2, 3, 4), (3,)), ((2, 3), (3,)), ((2, 3, 2, 2), (1,)), ((5,), (1,))],
         domains=(away_from(0), lambda rng, s: rng.uniform(0.05, 0.5, size=s)),
         rtol=1e-10, atol=1e-12),
]

globals().update(row_tests(CASES))


# ------------------------------------------------------------------------------ MindSpore
X = ms.Tensor(np.array([-3., -1.5, -0.5, 0., 0.5, 1.5, 3.], np.float32))

# values printed by MindSpore 2.10 (CPU) for X
MINDSPORE = {
    'elu': (ops.elu, [-0.9502129554748535, -0.7768698930740356, -0.39346951246261597, 0.0, 0.5,
                      1.5, 3.0]),
    'celu': (lambda x: ops.celu(x, 2.0), [-1.5537396669387817, -1.0552668571472168,
                                          -0.44239842891693115, 0.0, 0.5, 1.5, 3.0]),
    'selu': (ops.selu, [-1.6705687046051025, -1.3658143281936646, -0.6917581558227539, 0.0,
                        0.5253505110740662, 1.5760514736175537, 3.1521029472351074]),
    'hardswish': (ops.hardswish, [0.0, -0.375, -0.2083333283662796, 0.0, 0.2916666567325592,
                                  1.125, 3.0]),
    'hardsigmoid': (ops.hardsigmoid, [0.0, 0.25, 0.4166666567325592, 0.5, 0.5833333134651184,
                                      0.75, 1.0]),
    'mish': (ops.mish, [-0.14564737677574158, -0.29809969663619995, -0.22074371576309204, 0.0,
                        0.37524521350860596, 1.4033783674240112, 2.98653507232666]),
    'softsign': (ops.softsign, [-0.75, -0.6000000238418579, -0.3333333432674408, 0.0,
                                0.3333333432674408, 0.6000000238418579, 0.75]),
    'softmin': (ops.softmin, [0.7149050831794739, 0.1595168262720108, 0.058682914823293686,
                              0.03559299558401108, 0.021588243544101715, 0.00794184673577547,
                              0.0017720692558214068]),
    'hardtanh': (lambda x: ops.hardtanh(x, -1.0, 2.0), [-1.0, -1.0, -0.5, 0.0, 0.5, 1.5, 2.0]),
    'logsigmoid': (ops.logsigmoid, [-3.0485870838165283, -1.7014130353927612,
                                    -0.9740766882896423, -0.6931470036506653,
                                    -0.47407686710357666, -0.20141324400901794,
                                    -0.04858734458684921]),
    'hardshrink': (ops.hardshrink, [-3.0, -1.5, 0.0, 0.0, 0.0, 1.5, 3.0]),
    'softshrink': (ops.softshrink, [-2.5, -1.0, 0.0, 0.0, 0.0, 1.0, 2.5]),
    'tanhshrink': (ops.tanhshrink, [-2.004944324493408, -0.5948517322540283,
                                    -0.037882834672927856, 0.0, 0.037882834672927856,
                                    0.5948517322540283, 2.004944324493408]),
    'threshold': (lambda x: ops.threshold(x, 0.5, 9.0), [9.0, 9.0, 9.0, 9.0, 9.0, 1.5, 3.0]),
    'fast_gelu': (ops.fast_gelu, [-0.018071310594677925, -0.10833780467510223,
                                  -0.14961156249046326, 0.0, 0.35038843750953674,
                                  1.3916622400283813, 2.981928825378418]),
    'crossed_hardtanh': (lambda x: ops.hardtanh(x, 2.0, 1.0), [1.0] * 7),
}


@pytest.mark.parametrize('name', sorted(MINDSPORE))
def test_values_match_mindspore(name):
    fn, want = MINDSPORE[name]
    y = fn(X)
    assert y.dtype == ms.float32
    np.testing.assert_allclose(y.asnumpy(), want, rtol=2e-6, atol=1e-7)


def test_glu_and_prelu_match_mindspore():
    y = ops.glu(ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 4) / 4))
    np.testing.assert_allclose(y.asnumpy(), [[0.0, 0.1697946935892105],
                                             [0.8175745010375977, 1.0649412870407104]],
                               rtol=1e-6)
    x = ms.Tensor(np.arange(-6, 6, dtype=np.float32).reshape(1, 3, 2, 2))
    y = ops.prelu(x, ms.Tensor(np.array([0.1, 0.2, 0.3], np.float32)))
    np.testing.assert_allclose(y.asnumpy().ravel(), [-0.6, -0.5, -0.4, -0.3, -0.4, -0.2, 0, 1,
                                                     2, 3, 4, 5], rtol=1e-6)


def test_rrelu_draws_slopes_between_the_bounds():
    ms.set_seed(5)
    x = ms.Tensor(-np.ones(2000, np.float32))
    y = ops.rrelu(x, 0.1, 0.3).asnumpy()
    assert y.min() >= -0.3 and y.max() <= -0.1 and abs(y.mean() + 0.2) < 0.01
    assert len(np.unique(y)) > 100
    np.testing.assert_array_equal(ops.rrelu(ms.Tensor([0.0, 2.0])).asnumpy(), [0.0, 2.0])
    assert ops.rrelu(ms.Tensor(-1.0)).shape == ()
    w = ms.Tensor([-1.0, 2.0], requires_grad=True)
    ys = ops.rrelu(w, 0.25, 0.25)
    ys.sum().backward()
    np.testing.assert_allclose(w.grad.asnumpy(), [0.25, 1.0])


def test_extreme_inputs_stay_finite():
    big = ms.Tensor(np.array([-1000.0, 1000.0]), requires_grad=True)
    for fn in (ops.elu, ops.selu, ops.mish, ops.logsigmoid, ops.fast_gelu,
               lambda x: ops.celu(x, 0.5)):
        y = fn(big)
        y.sum().backward()
        assert np.all(np.isfinite(y.asnumpy())) and np.all(np.isfinite(big.grad.asnumpy()))
        big.grad = None


def test_integer_inputs_give_float32():
    for fn in (ops.elu, ops.hardswish, ops.softsign, ops.mish):
        assert fn(ms.Tensor([-1, 2])).dtype == ms.float32


@pytest.mark.parametrize('call, error, message', [
    (lambda: ops.elu(X, 'a'), TypeError, "ops.elu: alpha must be a float or int, got str"),
    (lambda: ops.celu(X, 0.0), ValueError, "ops.celu: alpha must be non-zero, got 0"),
    (lambda: ops.softshrink(X, -1.0), ValueError, "ops.softshrink: lambd must be >= 0"),
    (lambda: ops.rrelu(X, 0.5, 0.1), ValueError,
     "ops.rrelu: upper must be >= lower, got upper=0.1, lower=0.5"),
    (lambda: ops.glu(ms.Tensor(np.ones((2, 3)))), ValueError,
     r"ops.glu: the size of axis -1 must be even, got shape \(2, 3\)"),
    (lambda: ops.glu(X, 1), ValueError, r"ops.glu: axis must be an int in \[-1, 1\), got 1"),
    (lambda: ops.prelu(ms.Tensor(np.ones((2, 3))), ms.Tensor([1.0, 2.0])), ValueError,
     r"ops.prelu: weight must hold 1 value or 3 .* got shape \(2,\)"),
    (lambda: ops.prelu(X, 0.25), TypeError, "ops.prelu: weight must be a Tensor, got float"),
    # MindSpore 2.10's PReLU refuses integer inputs and weights (no cast to float).
    (lambda: ops.prelu(ms.Tensor([-1, 2], ms.int32), ms.Tensor([0.25])), TypeError,
     "ops.prelu: input must be a floating tensor, got Int32"),
    (lambda: ops.prelu(X, ms.Tensor([1], ms.int32)), TypeError,
     "ops.prelu: weight must be a floating tensor, got Int32"),
    (lambda: ops.mish([1.0]), TypeError, "ops.mish: input must be a Tensor, got list"),
    (lambda: ops.threshold(X, None, 1.0), TypeError, "ops.threshold: thr must be a float"),
])
def test_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_selu_constants():
    assert math.isclose(SELU_ALPHA * SELU_SCALE, 1.7580993408473766)


# bit patterns printed by MindSpore 2.10 (CPU): hswish keeps x itself above 3 and rounds
# x * (x + 3) / 6 in the input's precision; hsigmoid rounds (x + 3) / 6, Float16 via Float32
HARD_X = np.array([-1, -2, 0, 2, 1, 3.12754, 3.9673724, -2.7], np.float32)
HARD_BITS = [
    (ops.hardswish, np.float32, [-1096111445, -1096111445, 0, 1070945621, 1059760811,
                                 1078471070, 1081993582, -1106625169]),
    (ops.hardsigmoid, np.float32, [1051372203, 1042983595, 1056964608, 1062557013,
                                   1059760811, 1065353216, 1065353216, 1028443339]),
    (ops.hardswish, np.float16, [-19115, -19115, 0, 16043, 14677, 16961, 17391, -20395]),
    (ops.hardsigmoid, np.float16, [13653, 12629, 14336, 15019, 14677, 15360, 15360, 10859]),
]


@pytest.mark.parametrize('fn, dtype, bits', HARD_BITS)
def test_hard_activations_round_as_mindspore(fn, dtype, bits):
    out = fn(ms.Tensor(HARD_X.astype(dtype))).asnumpy()
    assert out.dtype == dtype, out.dtype
    got = out.view(np.int32 if dtype == np.float32 else np.int16).tolist()
    assert got == bits, (fn.__name__, dtype, out)


def test_mish_rounds_float16_once_as_mindspore():
    # bit patterns printed by MindSpore 2.10 (CPU): Float16 is computed in Float32, then rounded
    x = ms.Tensor(np.array([0.01653, 0.9126, 0.6064, 0.1757, 0.8633, -1.5, 2.0, -0.25],
                           np.float16))
    out = ops.mish(x).asnumpy()
    assert out.dtype == np.float16, out.dtype
    assert out.view(np.int16).tolist() == [8479, 14898, 14222, 12126, 14794, -19259, 16327,
                                           -20440], out
    assert ms.grad(lambda t: ops.mish(t).sum())(x).dtype == ms.float16


def test_hard_primitives_round_as_mindspore():
    x = ms.Tensor(np.array([-1, -2, 0, 2, 1], np.float32))
    np.testing.assert_array_equal(ops.HSwish()(x).asnumpy(), np.array(
        [-0.33333334, -0.33333334, 0., 1.6666666, 0.6666667], np.float32))
    np.testing.assert_array_equal(ops.HSigmoid()(x).asnumpy(), np.array(
        [0.33333334, 0.16666667, 0.5, 0.8333333, 0.6666667], np.float32))


def test_hard_activation_gradients_at_kinks():
    # MindSpore 2.10: hswish' is (2x + 3) / 6 on [-3, 3], hsigmoid' is 1/6 strictly inside
    x = ms.Tensor(np.array([-4, -3, -1, 0, 2.5, 3, 4], np.float32))
    g = ms.grad(lambda t: ops.hardswish(t).sum())(x).asnumpy()
    np.testing.assert_allclose(g, [0, -0.5, 1 / 6, 0.5, 4 / 3, 1.5, 1], rtol=1e-6)
    g = ms.grad(lambda t: ops.hardsigmoid(t).sum())(x).asnumpy()
    np.testing.assert_allclose(g, [0, 0, 1 / 6, 1 / 6, 1 / 6, 0, 0], rtol=1e-6)
    h = ms.Tensor(np.array([-1.0, 1.0], np.float16))
    assert ms.grad(lambda t: ops.hardsigmoid(t).sum())(h).dtype == ms.float16
