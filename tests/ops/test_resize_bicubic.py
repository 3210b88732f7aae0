"""Bicubic resizing: ``ops.interpolate(mode='bicubic')``, ``nn.Upsample``, ``ops.ResizeBicubic``
against MindSpore 2.10's CPU outputs and input gradients (bicubic_mindspore_values.npz, written
by make_bicubic_values.py), ``mint.nn.functional.interpolate(mode='bicubic')`` (MindSpore's
UpsampleBicubic2D, PyTorch's definition), finite-difference gradients, the weight cache,
devices and argument errors."""
import os
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import mint, nn, ops
from hookgrad.kernels import backend
from hookgrad.ops import operations as P, resize
from hookgrad.testing import check_grad
from hookgrad.testing.cases import device_named
from tests.ops import make_bicubic_values as recorded

F = mint.nn.functional
CALLS = {name: (call, kwargs) for name, _, _, call, kwargs in recorded.CASES}
VALUES = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              'bicubic_mindspore_values.npz'))


def _resizer(call, kwargs):
    """hookgrad's form of a case of make_bicubic_values.py."""
    if call == 'interpolate':
        return lambda x: ops.interpolate(x, mode='bicubic', **kwargs)
    flags = {k: v for k, v in kwargs.items() if k != 'size'}
    return lambda x: P.ResizeBicubic(**flags)(x, kwargs['size'])


def _value_and_grad(fn, x, w):
    """fn(x) and the gradient of sum(fn(x) * w) with respect to x."""
    t = ms.Tensor(x, requires_grad=True)
    y = fn(t)
    (y * ms.Tensor(w)).sum().backward()
    return y, t.grad


def _assert_matches(name, y, grad):
    want_y, want_grad = VALUES[f'{name}/y'], VALUES[f'{name}/grad']
    assert y.shape == want_y.shape and y.dtype == ms.Tensor(want_y).dtype
    # MindSpore's kernel computes in float32, for float64 inputs too
    for got, want in ((y.asnumpy(), want_y), (grad.asnumpy(), want_grad)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())


@pytest.mark.parametrize('name,call,kwargs', [pytest.param(n, c, k, id=n)
                                              for n, _, _, c, k in recorded.CASES])
def test_values_and_gradients_match_mindspore(name, call, kwargs):
    x, w = VALUES[f'{name}/x'], VALUES[f'{name}/w']
    _assert_matches(name, *_value_and_grad(_resizer(call, kwargs), x, w))


@pytest.mark.parametrize('name,kwargs', [pytest.param(n, k, id=n)
                                         for n, _, _, c, k in recorded.CASES
                                         if c == 'interpolate'])
def test_upsample_layer_matches_mindspore(name, kwargs):
    x, w = VALUES[f'{name}/x'], VALUES[f'{name}/w']
    _assert_matches(name, *_value_and_grad(nn.Upsample(mode='bicubic', **kwargs), x, w))


def test_table_rounding_is_needed():
    """MindSpore reads the kernel at positions rounded to 1/1024 pixel: exact positions would
    be off by ~1e-3 here, which the comparison above catches."""
    exact = resize.upsample_bicubic_matrix(5, 7, True)     # a = -0.75, taps clamped, as legacy
    table = resize.bicubic_matrix(5, 7, True, False)
    assert 1e-4 < np.abs(exact - table).max() < 2e-3


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
def test_runs_on_the_input_device(device):
    name = 'down_and_up_corners'
    x, w = VALUES[f'{name}/x'], VALUES[f'{name}/w']
    with backend.default_device(device_named(device)):
        y, grad = _value_and_grad(_resizer(*CALLS[name]), x, w)
        assert backend.device_of(y._data) is device_named(device)
        assert backend.device_of(grad._data) is device_named(device)
    _assert_matches(name, y, grad)


def test_weights_are_built_once_per_shape():
    x = ms.Tensor(np.ones((1, 1, 6, 10), np.float32))
    ops.interpolate(x, size=(13, 11), mode='bicubic')
    before = resize._on_device.cache_info()
    ops.interpolate(x * 2, size=(13, 11), mode='bicubic')
    after = resize._on_device.cache_info()
    assert after.hits == before.hits + 2 and after.misses == before.misses


def test_matrices_are_read_only():
    with pytest.raises(ValueError, match='read-only'):
        resize.bicubic_matrix(3, 5, False, True)[0, 0] = 1.0


# ----------------------------------------------------------------------------- mint
def _pytorch_bicubic(x, out, align_corners, scales=(None, None)):
    """PyTorch's upsample_bicubic2d, one output pixel at a time (the definition MindSpore's
    UpsampleBicubic2D follows): a = -0.75, the 4 x 4 taps clamped to the border."""
    def kernel(t):
        t, a = abs(t), -0.75
        if t <= 1:
            return ((a + 2) * t - (a + 3)) * t * t + 1
        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a

    def source(i, n_in, n_out, scale):
        if align_corners:
            return i * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
        return (i + 0.5) * (1 / scale if scale else n_in / n_out) - 0.5

    h, w = x.shape[2:]
    y = np.zeros(x.shape[:2] + tuple(out))
    for i in range(out[0]):
        sy = source(i, h, out[0], scales[0])
        for j in range(out[1]):
            sx = source(j, w, out[1], scales[1])
            by, bx = int(np.floor(sy)), int(np.floor(sx))
            for p in range(-1, 3):
                for q in range(-1, 3):
                    weight = kernel(sy - by - p) * kernel(sx - bx - q)
                    y[:, :, i, j] += weight * x[:, :, min(max(by + p, 0), h - 1),
                                                min(max(bx + q, 0), w - 1)]
    return y


def test_mint_gives_pytorchs_values():
    """PyTorch's documented output of ``interpolate([[1, 2], [3, 4]], scale_factor=2,
    mode='bicubic')``."""
    x = ms.Tensor(np.float32([[[[1, 2], [3, 4]]]]))
    want = [[0.68359375, 1.015625, 1.5625, 1.89453125],
            [1.34765625, 1.6796875, 2.2265625, 2.55859375],
            [2.44140625, 2.7734375, 3.3203125, 3.65234375],
            [3.10546875, 3.4375, 3.984375, 4.31640625]]
    np.testing.assert_allclose(F.interpolate(x, scale_factor=2, mode='bicubic').asnumpy()[0, 0],
                               want, rtol=1e-6)
    np.testing.assert_allclose(mint.nn.Upsample(scale_factor=2.0, mode='bicubic')(x)
                               .asnumpy()[0, 0], want, rtol=1e-6)


@pytest.mark.parametrize('shape,kwargs,out,scales', [
    ((1, 2, 5, 4), dict(size=(9, 7)), (9, 7), (None, None)),
    ((1, 2, 5, 4), dict(size=(9, 7), align_corners=True), (9, 7), (None, None)),
    ((1, 1, 5, 7), dict(scale_factor=1.5), (7, 10), (1.5, 1.5)),
    ((1, 1, 5, 7), dict(scale_factor=1.5, recompute_scale_factor=True), (7, 10), (None, None)),
    ((1, 1, 6, 9), dict(scale_factor=(0.6, 0.7)), (3, 6), (0.6, 0.7)),
    ((1, 1, 6, 9), dict(scale_factor=0.6, align_corners=True), (3, 5), (None, None)),
    ((1, 1, 7, 5), dict(size=(3, 8)), (3, 8), (None, None)),
    ((1, 1, 4, 5), dict(scale_factor=1.1), (4, 5), (None, None)),       # same size: a copy
], ids=str)
def test_mint_matches_pytorchs_definition(shape, kwargs, out, scales):
    x = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    got = F.interpolate(ms.Tensor(x), mode='bicubic', **kwargs).asnumpy()
    want = _pytorch_bicubic(x.astype(np.float64), out, kwargs.get('align_corners', False),
                            scales)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_mint_scale_factor_sets_the_sampling_step():
    x = ms.Tensor(np.random.default_rng(6).standard_normal((1, 1, 5, 7)).astype(np.float32))
    by_scale = F.interpolate(x, scale_factor=1.5, mode='bicubic').asnumpy()
    by_size = F.interpolate(x, size=(7, 10), mode='bicubic').asnumpy()
    recomputed = F.interpolate(x, scale_factor=1.5, mode='bicubic',
                               recompute_scale_factor=True).asnumpy()
    np.testing.assert_array_equal(recomputed, by_size)
    assert np.abs(by_scale - by_size).max() > 1e-2


def test_mint_with_aligned_corners_matches_mindspores_cpu_kernel():
    """On whole or half pixel steps MindSpore's table is exact, and ResizeBicubic with
    align_corners is UpsampleBicubic2D's definition: MindSpore's CPU values for both."""
    name = 'half_steps_corners'
    x, w = VALUES[f'{name}/x'], VALUES[f'{name}/w']
    for fn in (lambda t: F.interpolate(t, size=(9, 7), mode='bicubic', align_corners=True),
               mint.nn.Upsample(size=(9, 7), mode='bicubic', align_corners=True),
               lambda t: F.upsample(t, (9, 7), None, 'bicubic', True)):
        _assert_matches(name, *_value_and_grad(fn, x, w))


# ----------------------------------------------------------------------------- gradients
RNG = np.random.default_rng(11)
GRADS = [
    ('interpolate', lambda x: ops.interpolate(x, size=(5, 7), mode='bicubic')),
    ('interpolate-corners', lambda x: ops.interpolate(x, size=(2, 6), mode='bicubic',
                                                      align_corners=True)),
    ('ResizeBicubic-legacy', lambda x: P.ResizeBicubic()(x, (5, 3))),
    ('Upsample', nn.Upsample(scale_factor=1.5, mode='bicubic', recompute_scale_factor=True)),
    ('mint', lambda x: F.interpolate(x, scale_factor=(1.5, 0.6), mode='bicubic')),
    ('mint-corners', lambda x: F.interpolate(x, size=(4, 4), mode='bicubic',
                                             align_corners=True)),
]


@pytest.mark.parametrize('fn', [pytest.param(f, id=n) for n, f in GRADS])
def test_gradients_match_finite_differences(fn):
    check_grad(fn, RNG.standard_normal((2, 2, 3, 5)))


# ----------------------------------------------------------------------------- errors
IMG = np.ones((1, 1, 3, 4), np.float32)
VOLUME = np.ones((1, 1, 2, 3, 4), np.float32)


def T(a):
    return ms.Tensor(np.asarray(a))


ERRORS = [
    (lambda: ops.interpolate(T(VOLUME), size=(2, 3, 4), mode='bicubic'), ValueError,
     "ops.interpolate: mode 'bicubic' does not take an input of shape (1, 1, 2, 3, 4) "
     "(linear: 3-d, bilinear and bicubic: 4-d"),
    (lambda: ops.interpolate(T(IMG[0]), size=4, mode='bicubic'), ValueError,
     "ops.interpolate: mode 'bicubic' does not take an input of shape (1, 3, 4)"),
    (lambda: ops.interpolate(T(np.ones((1, 1, 3, 4), np.int64)), size=(4, 4), mode='bicubic'),
     TypeError, "ops.interpolate: mode 'bicubic' needs a floating input, got Int64"),
    (lambda: ops.interpolate(T(IMG), scale_factor=2.0, mode='bicubic'), ValueError,
     "ops.interpolate: scale_factor can only be used with recompute_scale_factor=True "
     "(mode 'bicubic')"),
    (lambda: ops.interpolate(T(IMG), size=(0, 2), mode='bicubic'), ValueError,
     "ops.interpolate: size must be a positive int or 2 of them for a 4-d input, got (0, 2)"),
    (lambda: ops.interpolate(T(IMG), size=(2, 2, 2), mode='bicubic'), ValueError,
     "ops.interpolate: size must be a positive int or 2 of them for a 4-d input, got "
     "(2, 2, 2)"),
    (lambda: nn.Upsample(size=(2, 3, 4), mode='bicubic')(T(VOLUME)), ValueError,
     "nn.Upsample 'Upsample': mode 'bicubic' takes a 4-d input, got shape (1, 1, 2, 3, 4)"),
    (lambda: P.ResizeBicubic(True, True), ValueError,
     "ops.ResizeBicubic: align_corners must be False when half_pixel_centers is True"),
    (lambda: P.ResizeBicubic(1), TypeError, "ops.ResizeBicubic: align_corners must be a bool, "
                                            "got 1"),
    (lambda: P.ResizeBicubic()(T(IMG[0]), (2, 2)), ValueError,
     "ops.ResizeBicubic: input must be 4-d (N, C, H, W), got shape (1, 3, 4)"),
    (lambda: P.ResizeBicubic()(T(IMG), (2, 2, 2)), ValueError,
     "ops.ResizeBicubic: size must hold 2 positive ints, got (2, 2, 2)"),
    (lambda: P.ResizeBicubic()(T(IMG), (0, 2)), ValueError,
     "ops.ResizeBicubic: size must hold 2 positive ints, got (0, 2)"),
    (lambda: P.ResizeBicubic()(T(np.ones((1, 1, 3, 4), np.int32)), (2, 2)), TypeError,
     "ops.ResizeBicubic: images must be floating, got Int32"),
    (lambda: F.interpolate(T(VOLUME), size=(2, 3, 4), mode='bicubic'), ValueError,
     "mint.nn.functional.interpolate: mode 'bicubic' takes a 4-d input, got "
     "shape (1, 1, 2, 3, 4)"),
    (lambda: F.interpolate(T(np.ones((1, 1, 3, 4), np.int64)), 4, mode='bicubic'), TypeError,
     "mint.nn.functional.interpolate: mode 'bicubic' needs a floating input, got Int64"),
    (lambda: F.interpolate(T(IMG), (4, 4), 2.0, mode='bicubic'), ValueError,
     "mint.nn.functional.interpolate: size and scale_factor cannot be set simultaneously"),
    (lambda: F.interpolate(T(IMG), mode='bicubic'), ValueError,
     "mint.nn.functional.interpolate: size and scale_factor cannot be both empty"),
    (lambda: F.interpolate(T(IMG), (4, 4), mode='bicubic', recompute_scale_factor=True),
     ValueError, "mint.nn.functional.interpolate: recompute_scale_factor cannot be True with "
                 "an explicit size"),
    (lambda: F.interpolate(T(IMG), (4,), mode='bicubic'), ValueError,
     "mint.nn.functional.interpolate: size must be a positive int or 2 of them for a 4-d "
     "input, got (4,)"),
    (lambda: F.interpolate(T(IMG), scale_factor=-1.0, mode='bicubic'), ValueError,
     "mint.nn.functional.interpolate: scale_factor must be a positive float or 2 of them for "
     "a 4-d input, got -1.0"),
    (lambda: F.interpolate(T(IMG), scale_factor=0.2, mode='bicubic'), ValueError,
     "mint.nn.functional.interpolate: scale_factor 0.2 gives the empty output size (0, 0) for "
     "the input size (3, 4)"),
    (lambda: F.interpolate(T(IMG), 4, mode='bicubic', align_corners=1), TypeError,
     "mint.nn.functional.interpolate: align_corners must be a bool, got 1"),
]


@pytest.mark.parametrize('call,exc,message', ERRORS, ids=[m[:50] for _, _, m in ERRORS])
def test_error(call, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        call()
