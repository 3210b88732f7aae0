"""mint's interpolate with a scale factor samples with the step ``1 / scale_factor`` (MindSpore's
Upsample* operators, PyTorch's definition), not ``in / out``: 'linear' and 'bilinear', whose
kernels MindSpore 2.10 has only on Ascend, against that definition written out in NumPy
('nearest' is checked against MindSpore's own values in tests/mint/cases.py)."""
import itertools
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import mint
from hookgrad.testing import check_grad

F = mint.nn.functional


def linear_weights(n_in, n_out, align_corners, scale):
    """PyTorch's upsample_linear weights along one axis: the source clamped at 0, the upper
    neighbour at the last pixel."""
    m = np.zeros((n_out, n_in))
    for i in range(n_out):
        if align_corners:
            src = i * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        else:
            step = 1.0 / scale if scale is not None else n_in / n_out
            src = max((i + 0.5) * step - 0.5, 0.0)
        lo = min(int(math.floor(src)), n_in - 1)
        hi = min(lo + 1, n_in - 1)
        frac = src - lo
        m[i, lo] += 1.0 - frac
        m[i, hi] += frac
    return m


SCALED = list(itertools.product((1.7, 0.6, 2.5, 0.35), (False, True), (None, True)))


@pytest.mark.parametrize('scale, align_corners, recompute', SCALED)
def test_linear_and_bilinear_sample_with_the_scale_factors_step(scale, align_corners, recompute):
    rng = np.random.default_rng(0)
    seq = rng.standard_normal((2, 3, 7))
    img = rng.standard_normal((1, 2, 5, 6))
    got = F.interpolate(ms.Tensor(seq), scale_factor=scale, mode='linear',
                        align_corners=align_corners, recompute_scale_factor=recompute)
    out = math.floor(7 * scale)
    want = seq @ linear_weights(7, out, align_corners, None if recompute else scale).T
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-6)
    got = F.interpolate(ms.Tensor(img), scale_factor=scale, mode='bilinear',
                        align_corners=align_corners, recompute_scale_factor=recompute)
    h, w = math.floor(5 * scale), math.floor(6 * scale)
    step = None if recompute else scale
    want = linear_weights(5, h, align_corners, step) @ img @ \
        linear_weights(6, w, align_corners, step).T
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-6)


def test_a_scale_factor_that_keeps_the_size_copies_the_input():
    x = np.random.default_rng(1).standard_normal((1, 1, 5, 6)).astype(np.float32)
    for mode in ('nearest', 'bilinear', 'bicubic'):
        got = F.interpolate(ms.Tensor(x), scale_factor=1.1, mode=mode)
        np.testing.assert_array_equal(got.asnumpy(), x)


def test_nearest_with_a_scale_factor_takes_floor_of_i_over_the_scale():
    x = ms.Tensor(np.arange(5, dtype=np.float32).reshape(1, 1, 5))
    got = F.interpolate(x, scale_factor=1.7).asnumpy().ravel()
    assert got.tolist() == [0, 0, 1, 1, 2, 2, 3, 4]              # floor(i / 1.7)
    got = F.interpolate(x, scale_factor=1.7, recompute_scale_factor=True).asnumpy().ravel()
    assert got.tolist() == [0, 0, 1, 1, 2, 3, 3, 4]              # floor(i * 5 / 8)


def test_scaled_linear_gradients_match_central_differences():
    x = ms.Tensor(np.random.default_rng(2).standard_normal((1, 2, 4, 5)))
    check_grad(lambda t: F.interpolate(t, scale_factor=1.7, mode='bilinear'), x)
    check_grad(lambda t: F.interpolate(t, scale_factor=0.6, mode='bilinear',
                                       align_corners=True), x)
