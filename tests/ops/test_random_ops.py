"""Random ops (dropout, dropout2d and their primitives): masks, scaling, gradients, seeds."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import _random, ops
from hookgrad.testing.cases import Case
from tests.ops.rows import params, row_tests


def _dropout2d_seeded(p, seed=11):
    """dropout2d with the global generator re-seeded first, so every call draws the same mask."""
    def fn(x):
        ms.set_seed(seed)
        return ops.dropout2d(x, p)
    return fn


def _channel_dropout_primitive(keep_prob, seed=12):
    def fn(x):
        ms.set_seed(seed)
        return ops.Dropout2D(keep_prob)(x)[0]
    return fn


def _masked_ref(generator_seed, p, channels):
    """x times the scaled mask the op draws from a generator seeded with ``generator_seed``:
    float32 uniforms below the keep probability, one per element or per (n, c) channel."""
    keep_prob = 1 - p

    def ref(x):
        shape = x.shape[:2] + (1, 1) if channels else x.shape
        mask = np.random.default_rng(generator_seed).random(shape, dtype=np.float32) < keep_prob
        return x * (mask * x.dtype.type(1 / keep_prob))
    return ref


def _rated(op, name, fn, p, generator_seed, shapes):
    """A row whose call draws one fixed mask, with its drop probability."""
    row = Case(op, fn, ref=_masked_ref(generator_seed, p, op == 'Dropout2D'),
               shapes=[(shape,) for shape in shapes], name=name, rtol=1e-12, atol=1e-12)
    return row, p


RATED = [
    _rated('Dropout', 'dropout', lambda x: ops.dropout(x, 0.5, seed=3), 0.5, 3,
           [(), (7,), (3, 4), (2, 3, 4)]),
    _rated('Dropout', 'dropout-p0.2', lambda x: ops.dropout(x, p=0.2, seed=4), 0.2, 4,
           [(5,), (4, 5)]),
    _rated('Dropout', 'dropout-p0.9', lambda x: ops.dropout(x, p=0.9, seed=5), 0.9, 5, [(3, 6)]),
    _rated('Dropout', 'Dropout-prim', lambda x: ops.Dropout(0.6, 7, 8)(x)[0], 0.4, [7, 8],
           [(2, 5)]),
    _rated('Dropout2D', 'dropout2d', _dropout2d_seeded(0.5), 0.5, 11,
           [(2, 3, 2, 2), (1, 4, 1, 3), (3, 2, 2, 1)]),
    _rated('Dropout2D', 'dropout2d-p0.3', _dropout2d_seeded(0.3), 0.3, 11, [(2, 4, 2, 3)]),
    _rated('Dropout2D', 'Dropout2D-prim', _channel_dropout_primitive(0.75), 0.25, 12,
           [(2, 3, 2, 2)]),
]
CASES = [row for row, _ in RATED]
DROP_PROBABILITY = {row.label: p for row, p in RATED}


def _away_from_zero(rng, shape):
    """Values with |x| >= 0.5, so a zero in the output can only come from the mask."""
    return np.asarray(rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.5, 2.0, size=shape))


globals().update(row_tests(CASES))


@pytest.mark.parametrize('case,shapes', params(CASES))
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_forward_zeroes_or_scales_each_element(case, shapes, dtype):
    (shape,), p = shapes, DROP_PROBABILITY[case.label]
    x = _away_from_zero(np.random.default_rng(0), shape).astype(dtype)
    y = case.fn(ms.Tensor(x)).asnumpy()
    assert y.shape == shape and y.dtype == dtype
    kept = y != 0
    want = np.where(kept, x * dtype(1 / (1 - p)), 0)
    np.testing.assert_allclose(y, want, rtol=1e-6 if dtype == np.float32 else 1e-12)
    if 'Dropout2D' in case.ops:     # one decision per (n, c) feature map
        assert np.all(kept == kept[:, :, :1, :1])


@pytest.mark.parametrize('case,shapes', params(CASES))
def test_gradient_is_the_scaled_mask(case, shapes):
    (shape,), p = shapes, DROP_PROBABILITY[case.label]
    x = ms.Tensor(_away_from_zero(np.random.default_rng(3), shape).astype(np.float32))
    x.requires_grad_(True)
    y = case.fn(x)
    y.backward(ms.ops.ones(shape))
    kept = y.asnumpy() != 0
    assert x.grad.dtype == ms.float32
    np.testing.assert_allclose(x.grad.asnumpy(), kept / np.float32(1 - p), rtol=1e-6)


# ------------------------------------------------------------------------------ special rates
@pytest.mark.parametrize('fn', [ops.dropout, ops.dropout2d])
def test_p_zero_and_predict_mode_return_the_input_itself(fn):
    x = ms.Tensor(np.ones((2, 3, 2, 2), np.float32))
    assert fn(x, p=0.0) is x
    assert fn(x, p=0.7, training=False) is x


@pytest.mark.parametrize('fn', [ops.dropout, ops.dropout2d])
def test_p_one_gives_zeros_and_zero_gradients(fn):
    x = ms.Tensor(np.ones((2, 3, 2, 2), np.float32), requires_grad=True)
    y = fn(x, p=1.0)
    assert y.dtype == ms.float32
    np.testing.assert_array_equal(y.asnumpy(), 0)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), 0)


def test_float16_keeps_its_dtype():
    y = ops.dropout(ms.Tensor(np.ones(100, np.float16)), 0.5)
    assert y.dtype == ms.float16
    assert set(np.unique(y.asnumpy()).tolist()) <= {0.0, 2.0}


def test_dropout_accepts_parameters_and_records_their_gradient():
    w = ms.Parameter(ms.Tensor(np.ones((4, 5), np.float32)), name='w')
    g = ms.grad(lambda: ops.dropout(w, 0.5, seed=1).sum(), grad_position=None, weights=[w])()
    y = ops.dropout(w, 0.5, seed=1)
    np.testing.assert_array_equal(g[0].asnumpy(), y.asnumpy())


# ------------------------------------------------------------------------------ statistics
def test_dropout_drops_a_fraction_p_and_keeps_the_mean():
    ms.set_seed(0)
    x = ms.Tensor(np.ones((200, 500), np.float32))
    for p in (0.1, 0.3, 0.5, 0.8):
        y = ops.dropout(x, p).asnumpy()
        assert abs((y == 0).mean() - p) < 0.01              # n = 1e5: std <= 0.0016
        assert abs(y.mean() - 1.0) < 0.05
        np.testing.assert_allclose(np.unique(y), [0.0, np.float32(1 / (1 - p))], rtol=1e-6)


def test_dropout2d_drops_a_fraction_p_of_channels():
    ms.set_seed(0)
    x = ms.Tensor(np.ones((50, 400, 2, 3), np.float32))
    for p in (0.2, 0.5):
        y = ops.dropout2d(x, p).asnumpy()
        dropped = y[:, :, 0, 0] == 0                        # 20000 channels: std <= 0.0036
        assert abs(dropped.mean() - p) < 0.02
        assert np.all((y == 0) == dropped[:, :, None, None])


def test_masks_are_independent_across_positions():
    ms.set_seed(0)
    y = ops.dropout(ms.Tensor(np.ones((400, 400), np.float32)), 0.5).asnumpy() != 0
    # neighbours agree about half of the time, in rows and in columns
    assert abs((y[:, 1:] == y[:, :-1]).mean() - 0.5) < 0.01
    assert abs((y[1:] == y[:-1]).mean() - 0.5) < 0.01


# ------------------------------------------------------------------------------ reproducibility
@pytest.mark.parametrize('fn', [lambda x: ops.dropout(x, 0.5), lambda x: ops.dropout2d(x, 0.5),
                                lambda x: ops.Dropout(0.5)(x)[1],
                                lambda x: ops.Dropout2D(0.5)(x)[1]])
def test_set_seed_repeats_the_masks_and_later_calls_differ(fn):
    x = ms.Tensor(np.ones((4, 8, 3, 3), np.float32))
    ms.set_seed(7)
    a1, a2 = fn(x).asnumpy(), fn(x).asnumpy()
    ms.set_seed(7)
    b1, b2 = fn(x).asnumpy(), fn(x).asnumpy()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, a2)


def test_explicit_seed_gives_one_mask_and_leaves_the_global_generator_alone():
    x = ms.Tensor(np.ones((30, 30), np.float32))
    ms.set_seed(1)
    a = ops.dropout(x, 0.5, seed=5).asnumpy()
    after = _random.generator().random()
    ms.set_seed(1)
    assert _random.generator().random() == after
    np.testing.assert_array_equal(ops.dropout(x, 0.5, seed=5).asnumpy(), a)
    assert not np.array_equal(ops.dropout(x, 0.5, seed=6).asnumpy(), a)


def test_seeded_primitive_repeats_its_sequence_of_masks():
    x = ms.Tensor(np.ones((20, 20), np.float32))
    first, second = ops.Dropout(0.5, 3, 4), ops.Dropout(0.5, 3, 4)
    m1, m2 = first(x)[1].asnumpy(), first(x)[1].asnumpy()
    assert not np.array_equal(m1, m2)
    np.testing.assert_array_equal(second(x)[1].asnumpy(), m1)
    np.testing.assert_array_equal(second(x)[1].asnumpy(), m2)
    assert not np.array_equal(ops.Dropout(0.5, 3, 5)(x)[1].asnumpy(), m1)


# ------------------------------------------------------------------------------ primitives
def test_dropout_primitive_returns_output_and_a_mask_in_the_input_dtype():
    x = ms.Tensor(np.random.default_rng(0).uniform(0.5, 1.5, (3, 4, 5)))
    out, mask = ops.Dropout(keep_prob=0.8)(x)
    assert mask.shape == x.shape and mask.dtype == ms.float64 and not mask.requires_grad
    assert set(np.unique(mask.asnumpy()).tolist()) == {0.0, 1.0}
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * mask.asnumpy() / 0.8, rtol=1e-12)


def test_dropout2d_primitive_returns_a_bool_mask_of_the_input_shape():
    x = ms.Tensor(np.random.default_rng(0).uniform(0.5, 1.5, (2, 6, 3, 4)).astype(np.float32))
    x.requires_grad_(True)
    out, mask = ops.Dropout2D(keep_prob=0.5)(x)
    m = mask.asnumpy()
    assert mask.shape == x.shape and mask.dtype == ms.bool_ and not mask.requires_grad
    assert np.all(m == m[:, :, :1, :1])
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * m / 0.5, rtol=1e-6)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), m * 2.0)
    zeros, all_false = ops.Dropout2D(keep_prob=0.0)(x)
    assert not zeros.asnumpy().any() and not all_false.asnumpy().any()


# ------------------------------------------------------------------------------ errors
X2 = ms.Tensor(np.ones((2, 3), np.float32))
X4 = ms.Tensor(np.ones((1, 2, 3, 3), np.float32))

ERRORS = [
    (lambda: ops.dropout(X2, p='0.5'), TypeError, r"ops\.dropout: p must be a float, got str"),
    (lambda: ops.dropout(X2, p=True), TypeError, r"ops\.dropout: p must be a float, got bool"),
    (lambda: ops.dropout(X2, p=1.5), ValueError, r"ops\.dropout: p must be in \[0, 1\], got 1\.5"),
    (lambda: ops.dropout(X2, p=-0.1), ValueError, r"ops\.dropout: p must be in \[0, 1\], got -0\.1"),
    (lambda: ops.dropout(X2, training=1), TypeError,
     r"ops\.dropout: training must be a bool, got 1"),
    (lambda: ops.dropout(X2, seed=1.5), TypeError,
     r"ops\.dropout: seed must be None or an int >= 0, got 1\.5"),
    (lambda: ops.dropout(X2, seed=-1), ValueError,
     r"ops\.dropout: seed must be None or an int >= 0, got -1"),
    (lambda: ops.dropout(ms.Tensor([1, 2]), 0.5), TypeError,
     r"ops\.dropout: expected a floating tensor \(Float16, Float32 or Float64\), got dtype Int64"),
    (lambda: ops.dropout('x'), TypeError, r"input must be a Tensor, got str"),
    (lambda: ops.dropout2d(X2), ValueError,
     r"ops\.dropout2d: expected a 4-d input of shape \(N, C, H, W\), got shape \(2, 3\)"),
    (lambda: ops.dropout2d(X2, training=False), ValueError,
     r"ops\.dropout2d: expected a 4-d input .* got shape \(2, 3\)"),
    (lambda: ops.dropout2d(X4, p=2), ValueError, r"ops\.dropout2d: p must be in \[0, 1\], got 2\.0"),
    (lambda: ops.dropout2d(X4, p=None), TypeError,
     r"ops\.dropout2d: p must be a float, got NoneType"),
    (lambda: ops.dropout2d(X4, training='yes'), TypeError,
     r"ops\.dropout2d: training must be a bool, got 'yes'"),
    (lambda: ops.dropout2d(ms.Tensor(np.ones((1, 2, 3, 3), np.uint8))), TypeError,
     r"ops\.dropout2d: expected a Float16, Float32, Float64, Int8, Int16, Int32 or Int64 "
     r"tensor, got dtype UInt8"),
    (lambda: ops.Dropout3D()(ms.Tensor(np.ones((1, 2, 1, 3, 3), np.bool_))), TypeError,
     r"ops\.Dropout3D: expected a Float16, .* got dtype Bool"),
    (lambda: ops.Dropout(keep_prob=0.0), ValueError,
     r"ops\.Dropout: keep_prob must be in \(0, 1\], got 0\.0"),
    (lambda: ops.Dropout(keep_prob='a'), TypeError,
     r"ops\.Dropout: keep_prob must be a float, got str"),
    (lambda: ops.Dropout(Seed0=1.0), TypeError, r"ops\.Dropout: Seed0 must be an int, got 1\.0"),
    (lambda: ops.Dropout(Seed1=-2), ValueError, r"ops\.Dropout: Seed1 must be >= 0, got -2"),
    (lambda: ops.Dropout()(ms.Tensor([True])), TypeError,
     r"ops\.Dropout: expected a floating tensor .* got dtype Bool"),
    (lambda: ops.Dropout2D(keep_prob=1.2), ValueError,
     r"ops\.Dropout2D: keep_prob must be in \[0, 1\], got 1\.2"),
    (lambda: ops.Dropout2D()(X2), ValueError,
     r"ops\.Dropout2D: expected a 4-d input of shape \(N, C, H, W\), got shape \(2, 3\)"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# MindSpore 2.10 (CPU) scales by 1 / keep_prob rounded to Float32 and multiplies in Float32, so
# kept integers are truncated and Float32 values can differ from x / keep_prob in the last bit
@pytest.mark.parametrize('dtype, values, scaled', [
    (np.int32, [-15015, -15004, 15015, 15004], [-27300, -27280, 27300, 27280]),
    (np.int64, [-15015, -15004, 15015, 15004], [-27300, -27280, 27300, 27280]),
    (np.int16, [-7508, -7502, 7507, 7502], [-13650, -13640, 13649, 13640]),
    (np.float32, [-1991.0, -1980.0, 1991.5, 3.3],
     [-3619.999755859375, -3599.999755859375, 3620.908935546875, 5.999999523162842]),
])
def test_channel_dropout_scales_as_mindspore(dtype, values, scaled):
    ms.set_seed(5)
    x = np.tile(np.array(values, dtype).reshape(1, 4, 1, 1), (64, 1, 1, 1))
    out, mask = ops.Dropout2D(0.55)(ms.Tensor(x))
    out, mask = out.asnumpy().reshape(64, 4), mask.asnumpy().reshape(64, 4)
    assert out.dtype == dtype and mask.dtype == np.bool_
    assert mask.any(axis=0).all() and not mask.all(axis=0).any()
    for col in range(4):
        np.testing.assert_array_equal(out[mask[:, col], col], scaled[col])
        np.testing.assert_array_equal(out[~mask[:, col], col], 0)


def test_dropout3d_takes_integers():
    ms.set_seed(1)
    out, mask = ops.Dropout3D(0.4)(ms.Tensor(np.full((8, 3, 1, 1, 2), 7, np.int16)))
    assert out.dtype == ms.int16 and mask.shape == (8, 3, 1, 1, 2)
    assert set(out.asnumpy().ravel().tolist()) == {0, 17}     # trunc(7 * 2.5)
