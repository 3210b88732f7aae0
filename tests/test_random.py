"""The global seeded generator: set_seed, get_seed, generator."""
import subprocess
import sys

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import _random
from hookgrad.common.initializer import initializer


@pytest.fixture(autouse=True)
def keep_global_generator():
    saved = _random._seed, _random._generator
    yield
    _random._seed, _random._generator = saved


def test_generator_is_a_numpy_generator():
    assert isinstance(_random.generator(), np.random.Generator)


def test_same_seed_repeats_the_sequence():
    ms.set_seed(123)
    first = [_random.generator().random(4), initializer('normal', (3, 2)).asnumpy()]
    ms.set_seed(123)
    again = [_random.generator().random(4), initializer('normal', (3, 2)).asnumpy()]
    for x, y in zip(first, again):
        np.testing.assert_array_equal(x, y)


def test_different_seeds_give_different_values():
    ms.set_seed(1)
    a = initializer('uniform', (100,)).asnumpy()
    ms.set_seed(2)
    b = initializer('uniform', (100,)).asnumpy()
    assert not np.array_equal(a, b)


def test_set_seed_replaces_the_generator():
    ms.set_seed(5)
    g = _random.generator()
    ms.set_seed(5)
    assert _random.generator() is not g


def test_get_seed_returns_the_last_seed():
    ms.set_seed(42)
    assert ms.get_seed() == 42
    ms.set_seed(np.int64(7))
    assert ms.get_seed() == 7 and type(ms.get_seed()) is int
    ms.set_seed(0)
    assert ms.get_seed() == 0


@pytest.mark.parametrize('seed', [-1, -100])
def test_negative_seed_is_rejected(seed):
    before = _random.generator()
    with pytest.raises(ValueError, match=rf"set_seed: seed must be an int >= 0, got {seed}"):
        ms.set_seed(seed)
    assert _random.generator() is before


@pytest.mark.parametrize('seed, shown', [(1.5, r"1\.5 \(float\)"), ('3', r"'3' \(str\)"),
                                         (True, r"True \(bool\)"), (None, r"None \(NoneType\)")])
def test_non_int_seed_is_rejected(seed, shown):
    with pytest.raises(TypeError, match=rf"set_seed: seed must be an int >= 0, got {shown}"):
        ms.set_seed(seed)


def _fresh_process(code):
    return subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_unseeded_process_has_no_seed_and_varies_between_runs():
    code = ("import hookgrad as ms; from hookgrad import _random; "
            "print(ms.get_seed(), _random.generator().integers(1 << 62))")
    runs = [_fresh_process(code).split() for _ in range(2)]
    assert runs[0][0] == runs[1][0] == 'None'
    assert runs[0][1] != runs[1][1]


def test_seeded_processes_repeat():
    code = ("import hookgrad as ms; ms.set_seed(9); "
            "print(ms.common.initializer.initializer('he_uniform', (4, 3)).asnumpy().tolist())")
    assert _fresh_process(code) == _fresh_process(code)
