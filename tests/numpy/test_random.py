"""rand, randn and randint: shapes, dtypes, ranges, seeding, and draws made inside ops."""
import numpy as np

import hookgrad as ms
import hookgrad.numpy as mnp
from hookgrad.autograd.observer import OpObserver


def test_rand_is_uniform_in_the_unit_interval():
    x = mnp.rand(200, 50)
    assert x.shape == (200, 50) and x.dtype == ms.float32
    a = x.asnumpy()
    assert a.min() >= 0.0 and a.max() < 1.0
    assert abs(a.mean() - 0.5) < 0.02


def test_rand_takes_a_shape_tuple_and_a_float_dtype():
    x = mnp.rand((3, 2), dtype=mnp.float64)
    assert x.shape == (3, 2) and x.dtype == ms.float64


def test_randn_is_standard_normal():
    a = mnp.randn(100, 100).asnumpy()
    assert a.dtype == np.float32
    assert abs(a.mean()) < 0.05 and abs(a.std() - 1.0) < 0.05


def test_randint_bounds_shape_and_dtype():
    x = mnp.randint(-3, 4, (1000,))
    assert x.dtype == ms.int32 and x.shape == (1000,)
    assert set(np.unique(x.asnumpy())) == set(range(-3, 4))
    y = mnp.randint(5, shape=(2, 3), dtype=mnp.int64)
    assert y.dtype == ms.int64 and y.shape == (2, 3)
    assert 0 <= y.asnumpy().min() and y.asnumpy().max() < 5
    assert mnp.randint(1, 3).shape == (1,)


def test_set_seed_repeats_the_draws():
    ms.set_seed(11)
    first = [mnp.rand(4).asnumpy(), mnp.randn(3).asnumpy(), mnp.randint(0, 100, (5,)).asnumpy()]
    ms.set_seed(11)
    again = [mnp.rand(4).asnumpy(), mnp.randn(3).asnumpy(), mnp.randint(0, 100, (5,)).asnumpy()]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(mnp.rand(4).asnumpy(), first[0])


def test_each_draw_is_an_op():
    class Names(OpObserver):
        def __init__(self):
            self.names = []

        def on_forward(self, call):
            self.names.append(call.name)

    with Names() as seen:
        mnp.rand(2)
        mnp.randn(2)
        mnp.randint(0, 3, (2,))
    assert len(seen.names) == 3
    assert seen.names[0] != seen.names[1]
