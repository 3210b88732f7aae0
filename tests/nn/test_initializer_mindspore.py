"""After ``set_seed``, layers and initializers start from MindSpore 2.10's values: the same
NumPy seed draws, expanded by MindSpore's Philox stream (hookgrad/kernels/philox.py).

tests/nn/initializer_values_ms210.json holds MindSpore's values for the cases of
tests/nn/initializer_cases.py (written by tools/initializer_values.py). Uniform and normal
values are equal bit for bit; truncated normal ones within two float32 rounding steps, since the
normal quantile's last digits decide the rounding."""
import json
import math
import pathlib

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.common import initializer
from hookgrad.kernels import philox
from tests.nn import initializer_cases as cases

RECORDED = json.loads((pathlib.Path(__file__).parent / 'initializer_values_ms210.json')
                      .read_text())
OURS = cases.run(ms, nn, initializer, (philox.uniform, philox.normal, philox.truncated_normal))


def test_every_case_was_recorded():
    assert sorted(OURS) == sorted(RECORDED)


@pytest.mark.parametrize('name', sorted(RECORDED))
def test_initial_values_equal_mindspores(name):
    got, want = np.array(OURS[name]), np.array(RECORDED[name])
    assert got.shape == want.shape
    if 'truncated_normal' in name:
        ulps = np.abs(got.astype(np.float32).view(np.int32).astype(np.int64) -
                      want.astype(np.float32).view(np.int32).astype(np.int64))
        assert ulps.max() <= 2, (got, want)
    else:
        np.testing.assert_array_equal(got, want)


def test_set_seed_seeds_numpy_and_refuses_what_numpy_cannot_take():
    ms.set_seed(6)
    first = np.random.rand(2)
    ms.set_seed(6)
    np.testing.assert_array_equal(np.random.rand(2), first)
    with pytest.raises(ValueError, match=r"Seed must be between 0 and 2\*\*32 - 1"):
        ms.set_seed(2 ** 32)


def test_far_upper_tail_intervals_keep_their_digits():
    """Beyond five standard deviations MindSpore's CDF formula loses every digit; hookgrad
    draws there in the lower tail instead (still within the interval, crowded at its inner
    end)."""
    x = philox.truncated_normal(7, (20000,), 6.0, 7.0, 0.0, 1.0)
    assert x.min() >= 6.0 and x.max() <= 7.0
    density = [np.exp(-v * v / 2) for v in (6.0, 7.0)]      # E[z | 6 <= z <= 7] - 6, the
    mass = [0.5 * math.erfc(v / math.sqrt(2)) for v in (6.0, 7.0)]   # tails' ratio
    expected = (density[0] - density[1]) / math.sqrt(2 * math.pi) / (mass[0] - mass[1]) - 6.0
    assert x.mean() - 6.0 == pytest.approx(expected, rel=0.02)
