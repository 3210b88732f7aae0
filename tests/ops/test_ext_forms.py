"""ops' ext forms, add-then-normalize ops and older forms (hookgrad/ops/ext_forms.py and
operations/_instance_forms.py): MindSpore 2.10's recorded CPU values for the calls of
ext_forms_inputs.py, NumPy formulas for those MindSpore runs only on Ascend, gradients against
finite differences in Float64, seeding, and the messages for bad input."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from tests.ops.ext_forms_inputs import CALLS, INPUTS

with open(os.path.join(os.path.dirname(__file__), 'ext_forms_mindspore_values.json')) as _f:
    RECORDED = json.load(_f)

RNG = np.random.default_rng(5)


def T(a):
    return ms.Tensor(np.asarray(a))


def run_call(source):
    made = []

    def p(key):
        made.append(ms.Parameter(T(INPUTS[key].copy()), name=key))
        return made[-1]

    result = eval(source, {'ops': ops, 't': lambda key: T(INPUTS[key]), 'p': p})
    return made[0] if made else result


@pytest.mark.parametrize('name', sorted(CALLS))
def test_matches_mindspore(name):
    got = run_call(CALLS[name])
    want = RECORDED[name]
    assert str(got.dtype) == want['dtype'] and list(got.shape) == want['shape']
    expected = np.array([np.nan if v is None else v for v in np.ravel(want['value'])]
                        if want['value'] else [], dtype=got.asnumpy().dtype)
    np.testing.assert_allclose(got.asnumpy().ravel(), expected, rtol=1e-6, atol=1e-6)


def test_the_functional_module_holds_the_same_objects():
    from hookgrad.ops import functional as F
    for name in ('baddbmm_ext', 'add_rms_norm', 'intopk', 'shuffle', 'pows', 'reshape_',
                 'inplace_index_add', 'tensor_muls', 'padding'):
        assert getattr(F, name) is getattr(ops, name)
    assert isinstance(ops.pows, ops.Pow) and isinstance(ops.reshape_, ops.Reshape)


# ------------------------------------------------------------------ Ascend-only: NumPy formulas
def test_ascend_only_ext_forms_follow_their_formulas():
    x = RNG.normal(size=(2, 4, 6))
    got = ops.adaptive_avg_pool2d_ext(T(x), (2, 3)).asnumpy()
    np.testing.assert_allclose(got, x.reshape(2, 2, 2, 3, 2).mean(axis=(2, 4)))
    a, b1, b2 = RNG.normal(size=(2, 3, 4)), RNG.normal(size=(2, 3, 5)), RNG.normal(size=(2, 5, 4))
    np.testing.assert_allclose(ops.baddbmm_ext(T(a), T(b1), T(b2), beta=0.5, alpha=2).asnumpy(),
                               0.5 * a + 2 * b1 @ b2)
    with pytest.raises(TypeError):
        ops.baddbmm_ext(T(a), T(b1), T(b2), 0.5)      # beta and alpha are keyword-only
    np.testing.assert_allclose(ops.einsum_ext('bij,bjk->bik', T(b1), T(b2)).asnumpy(), b1 @ b2)


def test_bernoulli_ext_draws_by_probability_and_generator():
    p = np.array([0.0, 1.0, 0.0, 1.0], np.float32)
    y = ops.bernoulli_ext(T(p))
    assert y.dtype == ms.float32 and y.asnumpy().tolist() == p.tolist()
    half = ops.bernoulli_ext(T(np.full(20000, 0.3))).asnumpy()
    assert set(np.unique(half)) <= {0.0, 1.0} and abs(half.mean() - 0.3) < 0.02
    draws = [ops.bernoulli_ext(T(np.full(64, 0.5, np.float32)),
                               generator=ms.Generator().manual_seed(4)).asnumpy()
             for _ in range(2)]
    np.testing.assert_array_equal(draws[0], draws[1])
    with pytest.raises(TypeError, match=r"ops.bernoulli_ext: input must be float16, float32 or "
                                        r"float64, got Int32"):
        ops.bernoulli_ext(T(np.ones(3, np.int32)))


def _layer_norm_numpy(x, gamma, beta, eps, k):
    axes = tuple(range(x.ndim - k, x.ndim))
    mean = x.mean(axes, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(axes, keepdims=True) + eps)
    return (x - mean) * rstd * gamma + beta, mean, rstd


def test_add_layer_norm_returns_y_mean_rstd_and_the_sum():
    x1, x2 = RNG.normal(size=(2, 3, 4)), RNG.normal(size=(2, 3, 4))
    gamma, beta = RNG.normal(size=4), RNG.normal(size=4)
    y, mean, rstd, x = ops.add_layer_norm(T(x1), T(x2), T(gamma), T(beta), 1e-3, True)
    wants = _layer_norm_numpy(x1 + x2, gamma, beta, 1e-3, 1) + (x1 + x2,)
    for got, want in zip((y, mean, rstd, x), wants):
        assert got.shape == want.shape
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10)
    gamma2, beta2 = RNG.normal(size=(3, 4)), RNG.normal(size=(3, 4))
    y2, mean2, _, _ = ops.add_layer_norm(T(x1), T(x2), T(gamma2), T(beta2))
    want_y, want_mean, _ = _layer_norm_numpy(x1 + x2, gamma2, beta2, 1e-5, 2)
    assert mean2.shape == (2, 1, 1)
    np.testing.assert_allclose(y2.asnumpy(), want_y, rtol=1e-8)
    np.testing.assert_allclose(mean2.asnumpy(), want_mean, rtol=1e-10)


def test_add_rms_norm_returns_y_rstd_and_the_sum():
    x1, x2 = RNG.normal(size=(3, 5)).astype(np.float32), RNG.normal(size=(3, 5)).astype(np.float32)
    gamma = RNG.normal(size=5).astype(np.float32)
    y, rstd, x = ops.add_rms_norm(T(x1), T(x2), T(gamma), 1e-4)
    s = (x1 + x2).astype(np.float64)
    want_rstd = 1 / np.sqrt((s * s).mean(-1, keepdims=True) + 1e-4)
    assert (y.dtype, rstd.dtype, rstd.shape) == (ms.float32, ms.float32, (3, 1))
    np.testing.assert_allclose(rstd.asnumpy(), want_rstd, rtol=1e-5)
    np.testing.assert_allclose(y.asnumpy(), s * want_rstd * gamma, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(x.asnumpy(), x1 + x2)


# ------------------------------------------------------------------ gradients
def numeric_grad(f, arrays, index, eps=1e-6):
    base = [a.copy() for a in arrays]
    g = np.zeros_like(base[index])
    for i in np.ndindex(g.shape):
        hi = [a.copy() for a in base]
        lo = [a.copy() for a in base]
        hi[index][i] += eps
        lo[index][i] -= eps
        g[i] = (f(*map(T, hi)).asnumpy().sum() - f(*map(T, lo)).asnumpy().sum()) / (2 * eps)
    return g


GRAD_CASES = {
    'add_layer_norm': (lambda a, b, g, be: ops.add_layer_norm(a, b, g, be)[0] * W34,
                       [(3, 4), (3, 4), (4,), (4,)]),
    'add_layer_norm_mean_rstd': (lambda a, b, g, be: ops.add_layer_norm(a, b, g, be)[2] * 3 +
                                 ops.add_layer_norm(a, b, g, be)[1], [(3, 4), (3, 4), (4,), (4,)]),
    'add_rms_norm': (lambda a, b, g: ops.add_rms_norm(a, b, g)[0] * W34,
                     [(3, 4), (3, 4), (4,)]),
    'bidense': (lambda a, b, w, c: ops.bidense(a, b, w, c) * W34[:2, :3],
                [(2, 2), (2, 4), (3, 2, 4), (3,)]),
    'padding': (lambda a: ops.padding(a, 4) * W34, [(3, 1)]),
    'diff_ext': (lambda a: ops.diff_ext(a, 2) * W34[:, :2], [(3, 4)]),
    'float_power_ext': (lambda a, b: ops.float_power_ext(ops.abs(a) + 0.5, b), [(4,), (4,)]),
    'baddbmm_ext': (lambda a, b, c: ops.baddbmm_ext(a, b, c, beta=0.5, alpha=2),
                    [(2, 2, 3), (2, 2, 4), (2, 4, 3)]),
    'tensor_muls': (lambda a: ops.tensor_muls(a, 2.5) * W34, [(3, 4)]),
    'pows': (lambda a: ops.pows(ops.abs(a) + 0.5, 3.0), [(3, 4)]),
    'adaptive_avg_pool2d_ext': (lambda a: ops.adaptive_avg_pool2d_ext(a, (2, 3)) * W34[:2, :3],
                                [(1, 3, 4)]),
}
W34 = ms.Tensor(np.arange(12, dtype=np.float64).reshape(3, 4) % 5 - 2)


@pytest.mark.parametrize('name', sorted(GRAD_CASES))
def test_gradients_match_finite_differences(name):
    f, shapes = GRAD_CASES[name]
    arrays = [RNG.normal(size=s) for s in shapes]
    grads = ms.grad(lambda *a: f(*a).sum(), tuple(range(len(arrays))))(*map(T, arrays))
    grads = grads if isinstance(grads, tuple) else (grads,)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g.asnumpy(), numeric_grad(f, arrays, i), rtol=1e-5, atol=1e-6)


def test_shuffle_gradient_follows_the_permutation():
    x = T(np.arange(8.0).reshape(4, 2))
    w = T(np.arange(8.0).reshape(4, 2) * 3)
    ms.set_seed(9)
    y = ops.shuffle(x) * w
    ms.set_seed(9)
    g = ms.grad(lambda u: (ops.shuffle(u) * w).sum())(x)
    perm = (y.asnumpy() / np.where(w.asnumpy() == 0, 1, w.asnumpy()))[:, 1].astype(int) // 2
    np.testing.assert_array_equal(g.asnumpy()[perm], w.asnumpy())


# ------------------------------------------------------------------ shuffle and set_seed
def test_shuffle_permutes_the_first_axis_and_follows_seeds():
    x = T(np.arange(40).reshape(20, 2))
    y = ops.shuffle(x).asnumpy()
    assert sorted(y[:, 0].tolist()) == list(range(0, 40, 2)) and (y[:, 1] == y[:, 0] + 1).all()
    ms.set_seed(3)
    a = ops.shuffle(x).asnumpy()
    ms.set_seed(3)
    np.testing.assert_array_equal(ops.shuffle(x).asnumpy(), a)
    np.testing.assert_array_equal(ops.shuffle(x, 5).asnumpy(), ops.shuffle(x, 5).asnumpy())
    assert not np.array_equal(ops.shuffle(x, 5).asnumpy(), ops.shuffle(x, 6).asnumpy())
    assert ops.shuffle(T(np.float32(3))).asnumpy() == 3


# ------------------------------------------------------------------ bad input
BAD = [
    (lambda: ops.intopk(T(np.ones((2, 3), np.int32)), T(np.array([0, 1])), 1), TypeError,
     "ops.intopk: x1 must be float16 or float32, got Int32"),
    (lambda: ops.intopk(T(np.ones(3, np.float32)), T(np.array([0])), 1), ValueError,
     r"ops.intopk: x1 must be 2-D, got shape \(3,\)"),
    (lambda: ops.intopk(T(np.ones((2, 3), np.float32)), T(np.array([0, 1, 2])), 1), ValueError,
     r"ops.intopk: x2 must be 1-D with x1's 2 rows, got shape \(3,\)"),
    (lambda: ops.intopk(T(np.ones((2, 3), np.float32)), T(np.array([0, 1])), 1.0), TypeError,
     "ops.intopk: k must be an int, got 1.0"),
    (lambda: ops.intopk(T(np.ones((2, 3), np.float32)), T(np.array([0., 1.])), 1), TypeError,
     "ops.intopk: x2 must be an integer Tensor, got Float64"),
    (lambda: ops.shuffle(T(np.ones(3)), seed=-1), ValueError,
     "ops.shuffle: seed must be None or an int >= 0, got -1"),
    (lambda: ops.shuffle(T(np.ones(3)), seed=1.5), TypeError, "ops.shuffle: seed must be an int"),
    (lambda: ops.shuffle(np.ones(3)), TypeError, "ops.shuffle: x must be a Tensor, got ndarray"),
    (lambda: ops.padding(T(np.ones((2, 2))), 4), ValueError,
     r"ops.padding: the last axis of x must be 1, got shape \(2, 2\)"),
    (lambda: ops.padding(T(np.ones((2, 1))), 0), ValueError,
     "ops.padding: pad_dim_size must be > 0, got 0"),
    (lambda: ops.padding(T(np.ones((2, 1))), 2.0), TypeError,
     "ops.padding: pad_dim_size must be an int, got 2.0"),
    (lambda: ops.padding(T(np.ones(1)), 3), ValueError,
     r"ops.padding: x must have rank >= 2, got shape \(1,\)"),
    (lambda: ops.bidense(T(np.ones((2, 2))), T(np.ones((3, 3))), T(np.ones((4, 2, 3)))),
     ValueError, r"ops.bidense: the axes but the last of input1 \(2, 2\) and input2 \(3, 3\)"),
    (lambda: ops.bidense(T(np.ones((2, 2))), T(np.ones((2, 3))), T(np.ones((4, 3, 3)))),
     ValueError, r"ops.bidense: weight must have shape \(out_channels, 2, 3\), got \(4, 3, 3\)"),
    (lambda: ops.bidense(T(np.ones((2, 2))), T(np.ones((2, 3))), T(np.ones((4, 2, 3))),
                         T(np.ones(3))),
     ValueError, r"ops.bidense: bias must have shape \(4,\) or \(\), got \(3,\)"),
    (lambda: ops.tensor_muls(T(np.ones(2)), T(np.ones(2))), TypeError,
     "ops.tensor_muls: other must be a Python number, got Tensor"),
    (lambda: ops.float_power_ext(2, 3), TypeError,
     "ops.float_power_ext: at least one of input and exponent must be a Tensor, got int and int"),
    (lambda: ops.add_layer_norm(T(np.ones((2, 3))), T(np.ones((2, 4))), T(np.ones(3)),
                                T(np.ones(3))),
     ValueError, r"ops.add_layer_norm: x1 and x2 must have the same shape, got \(2, 3\) and "
                 r"\(2, 4\)"),
    (lambda: ops.add_layer_norm(T(np.ones((2, 3))), T(np.ones((2, 3))), T(np.ones(4)),
                                T(np.ones(4))),
     ValueError, r"ops.add_layer_norm: x1 of shape \(2, 3\) must end with gamma's shape \(4,\)"),
    (lambda: ops.add_layer_norm(T(np.ones((2, 3))), T(np.ones((2, 3))), T(np.ones(3)),
                                T(np.ones(3)), additional_output=1),
     TypeError, "ops.add_layer_norm: additional_output must be a bool, got 1"),
    (lambda: ops.add_rms_norm(T(np.ones((2, 3))), T(np.ones((3, 3))), T(np.ones(3))),
     ValueError, r"ops.add_rms_norm: x1 and x2 must have the same shape"),
    (lambda: ops.add_rms_norm(T(np.ones((2, 3))), T(np.ones((2, 3))), T(np.ones(3)), 2.0),
     ValueError, r"epsilon must be a float in \(0, 1\], got 2.0"),
]


@pytest.mark.parametrize('case', range(len(BAD)))
def test_bad_input_messages(case):
    call, error, message = BAD[case]
    with pytest.raises(error, match=message):
        call()
