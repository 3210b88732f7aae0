"""Property tests: every broadcasting binary op agrees with NumPy for any compatible shapes.

For random broadcast-compatible shape pairs the forward matches NumPy and the gradients have the
inputs' shapes and equal central finite differences; incompatible pairs raise a ValueError that
names the op and both shapes.
"""
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, mutually_broadcastable_shapes

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import backend
from hookgrad.testing.cases import device_named
from hookgrad.testing.gradcheck import check_grad
from hookgrad.testing.cases import away_from_zero, normal, positive

FAST = settings(max_examples=20, deadline=None, derandomize=True)
CHEAP = settings(max_examples=40, deadline=None, derandomize=True)

pairs = mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3)
triples = mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3)
seeds = st.integers(0, 2 ** 32 - 1)


# ----------------------------------------------------------------------------- value domains
def grid(rng, shape):
    """0.5-spaced values: ``grid`` and ``grid_offset`` never tie (no max/min kinks)."""
    return rng.integers(-4, 5, shape) * 0.5 + rng.uniform(-0.05, 0.05, shape)


def grid_offset(rng, shape):
    return grid(rng, shape) + 0.25


def small_ints(rng, shape):
    """Values with many ties, for the comparisons."""
    return rng.integers(-2, 3, shape).astype(np.float64)


# name, function, NumPy reference, domain of each input
DIFFERENTIABLE = [
    ('add', ops.add, np.add, normal, normal),
    ('sub', ops.sub, np.subtract, normal, normal),
    ('mul', ops.mul, np.multiply, normal, normal),
    ('div', ops.div, np.divide, normal, away_from_zero),
    ('pow', ops.pow, np.power, positive, normal),
    ('maximum', ops.maximum, np.maximum, grid, grid_offset),
    ('minimum', ops.minimum, np.minimum, grid, grid_offset),
]
COMPARISONS = [
    ('gt', ops.gt, np.greater), ('ge', ops.ge, np.greater_equal), ('lt', ops.lt, np.less),
    ('le', ops.le, np.less_equal), ('equal', ops.equal, np.equal),
    ('ne', ops.ne, np.not_equal),
]
ALL_BINARY = [(c[0], c[1]) for c in DIFFERENTIABLE + COMPARISONS]
on_devices = pytest.mark.parametrize('device', ['CPU', 'GPU'])


@st.composite
def incompatible_pairs(draw):
    """Two shapes that share an aligned axis with two different sizes, both above 1."""
    a = list(draw(array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)))
    b = list(draw(array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)))
    k = draw(st.integers(1, min(len(a), len(b))))
    n = draw(st.integers(2, 3))
    a[-k], b[-k] = n, n + draw(st.integers(1, 2))
    return tuple(a), tuple(b)


# ----------------------------------------------------------------------------- compatible shapes
@on_devices
@pytest.mark.parametrize('fn,ref,da,db', [pytest.param(*c[1:], id=c[0]) for c in DIFFERENTIABLE])
@FAST
@given(shapes=pairs, seed=seeds)
def test_differentiable_binary_ops_broadcast(fn, ref, da, db, shapes, seed, device):
    (sa, sb), result = shapes
    rng = np.random.default_rng(seed)
    a, b = np.asarray(da(rng, sa)), np.asarray(db(rng, sb))
    where = device_named(device)
    with backend.default_device(where):
        for dtype in (np.float32, np.float64):
            y = fn(ms.Tensor(a.astype(dtype)), ms.Tensor(b.astype(dtype)))
            assert y.shape == result and y.asnumpy().dtype == dtype
            assert backend.device_of(y._data) is where
            np.testing.assert_allclose(y.asnumpy(), ref(a, b), rtol=1e-5 if dtype == np.float32
                                       else 1e-12, atol=1e-6)
        ga, gb = check_grad(fn, a, b, device=where)     # also asserts the gradients' shapes
    assert ga.shape == sa and gb.shape == sb


@on_devices
@pytest.mark.parametrize('fn,ref', [pytest.param(*c[1:], id=c[0]) for c in COMPARISONS])
@CHEAP
@given(shapes=pairs, seed=seeds)
def test_comparisons_broadcast(fn, ref, shapes, seed, device):
    (sa, sb), result = shapes
    rng = np.random.default_rng(seed)
    a, b = np.asarray(small_ints(rng, sa)), np.asarray(small_ints(rng, sb))
    where = device_named(device)
    with backend.default_device(where):
        y = fn(ms.Tensor(a, requires_grad=True), ms.Tensor(b))
    assert y.shape == result and y.dtype == ms.bool_ and not y.requires_grad
    assert backend.device_of(y._data) is where
    np.testing.assert_array_equal(y.asnumpy(), ref(a, b))


@on_devices
@FAST
@given(shapes=triples, seed=seeds)
def test_where_broadcasts(shapes, seed, device):
    (sc, sa, sb), result = shapes
    rng = np.random.default_rng(seed)
    cond = np.asarray(rng.random(sc) > 0.5)
    a, b = np.asarray(normal(rng, sa)), np.asarray(normal(rng, sb))
    where = device_named(device)
    with backend.default_device(where):
        c = ms.Tensor(cond)
        y = ops.where(c, ms.Tensor(a), ms.Tensor(b))
        assert y.shape == result and backend.device_of(y._data) is where
        np.testing.assert_array_equal(y.asnumpy(), np.where(cond, a, b))
        ga, gb = check_grad(lambda x1, x2: ops.where(c, x1, x2), a, b, device=where)
    assert ga.shape == sa and gb.shape == sb


# ----------------------------------------------------------------------------- incompatible shapes
@on_devices
@pytest.mark.parametrize('name,fn', ALL_BINARY, ids=[n for n, _ in ALL_BINARY])
@CHEAP
@given(shapes=incompatible_pairs())
def test_incompatible_shapes_name_the_op_and_both_shapes(name, fn, shapes, device):
    sa, sb = shapes
    msg = rf"ops\.{name}: shapes {re.escape(str(sa))} and {re.escape(str(sb))} cannot be broadcast"
    with backend.default_device(device_named(device)), pytest.raises(ValueError, match=msg):
        fn(ms.Tensor(np.ones(sa)), ms.Tensor(np.ones(sb)))


@on_devices
@CHEAP
@given(shapes=incompatible_pairs())
def test_where_incompatible_shapes_name_the_op_and_the_shapes(shapes, device):
    sa, sb = shapes
    with backend.default_device(device_named(device)), \
            pytest.raises(ValueError, match=rf"ops\.where: .*{re.escape(str(sa))}.*"
                                            rf"{re.escape(str(sb))}.*cannot be broadcast"):
        ops.where(ms.Tensor(True), ms.Tensor(np.ones(sa)), ms.Tensor(np.ones(sb)))
