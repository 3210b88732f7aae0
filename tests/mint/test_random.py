"""mint's random and uninitialised tensors: shapes and dtypes (MindSpore 2.10's, where its CPU
build runs them: rand, empty, empty_like), ranges, moments, and seeding by ``set_seed`` or a
``Generator``."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import mint
from hookgrad.kernels import backend

N = 20000


def stats(t):
    a = t.asnumpy().astype(np.float64)
    return a.mean(), a.std()


def test_shapes_and_dtypes():
    assert (mint.rand(2, 3).shape, mint.rand(2, 3).dtype) == ((2, 3), ms.float32)
    assert mint.rand((2, 3), dtype=ms.float64).dtype == ms.float64
    assert (mint.randn((4,)).shape, mint.randn(4).dtype) == ((4,), ms.float32)
    assert (mint.empty(2, 3).shape, mint.empty(2, 3).dtype) == ((2, 3), ms.float32)
    assert mint.empty_like(ms.Tensor(np.ones(3, np.int32))).dtype == ms.int32
    assert mint.randint(0, 5, (3,)).dtype == ms.int64 and mint.randint(5, (2, 2)).shape == (2, 2)
    assert mint.randperm(5).dtype == ms.int64
    assert mint.rand_like(ms.Tensor(np.ones(3, np.float64))).dtype == ms.float64
    assert mint.randn_like(ms.Tensor(np.ones((2, 2), np.float32))).shape == (2, 2)
    assert mint.randint_like(ms.Tensor(np.ones(3, np.float32)), 4).dtype == ms.float32
    assert mint.normal(0.0, 1.0, (2, 5)).shape == (2, 5)
    assert mint.normal(ms.Tensor(np.zeros((3, 1), np.float32)), 1.0).shape == (3, 1)
    assert mint.multinomial(ms.Tensor(np.ones((2, 4), np.float32)), 2).dtype == ms.int64


def test_values_have_their_distributions():
    ms.set_seed(3)
    u = mint.rand(N).asnumpy()
    assert u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 0.01
    mean, std = stats(mint.randn(N))
    assert abs(mean) < 0.03 and abs(std - 1) < 0.03
    mean, std = stats(mint.normal(2.0, 0.5, (N,)))
    assert abs(mean - 2) < 0.02 and abs(std - 0.5) < 0.02
    i = mint.randint(-2, 3, (N,)).asnumpy()
    assert set(np.unique(i)) == {-2, -1, 0, 1, 2}
    assert sorted(mint.randperm(7).asnumpy().tolist()) == list(range(7))
    p = ms.Tensor(np.array([0.0, 0.25, 1.0], np.float32))
    draws = np.stack([mint.bernoulli(p).asnumpy() for _ in range(400)])
    assert draws[:, 0].sum() == 0 and draws[:, 2].sum() == 400
    assert 0.18 < draws[:, 1].mean() < 0.32
    picks = mint.multinomial(ms.Tensor(np.array([[0.0, 1.0, 0.0, 3.0]], np.float32)), 2)
    assert sorted(picks.asnumpy()[0].tolist()) == [1, 3]        # without replacement


def test_set_seed_repeats_the_draws():
    ms.set_seed(7)
    first = (mint.rand(4).asnumpy(), mint.randint(0, 100, (4,)).asnumpy())
    ms.set_seed(7)
    again = (mint.rand(4).asnumpy(), mint.randint(0, 100, (4,)).asnumpy())
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[1], again[1])


@pytest.mark.parametrize('draw', [
    lambda g: mint.rand(5, generator=g), lambda g: mint.randn(5, generator=g),
    lambda g: mint.randint(0, 9, (5,), generator=g), lambda g: mint.randperm(5, generator=g),
    lambda g: mint.normal(0.0, 1.0, (5,), g),
    lambda g: mint.bernoulli(ms.Tensor(np.full(5, 0.5, np.float32)), generator=g),
    lambda g: mint.multinomial(ms.Tensor(np.ones(5, np.float32)), 3, generator=g)])
def test_a_generator_repeats_its_draws_and_advances(draw):
    g = ms.Generator().manual_seed(11)
    first, second = draw(g).asnumpy(), draw(g).asnumpy()
    g.manual_seed(11)
    np.testing.assert_array_equal(draw(g).asnumpy(), first)
    np.testing.assert_array_equal(draw(g).asnumpy(), second)


def test_dropout_functions_in_training():
    ms.set_seed(0)
    x = mint.ones((64, 8, 2, 2))
    y = mint.nn.functional.dropout2d(x, 0.5).asnumpy()
    per_channel = y.reshape(64, 8, -1)
    assert set(np.unique(per_channel.std(-1))) == {0.0}     # whole channels kept or zeroed
    assert set(np.unique(y)) == {0.0, 2.0}
    z = mint.nn.functional.dropout(x, 0.25).asnumpy()
    assert set(np.unique(z)) == {0.0, np.float32(1 / 0.75)}


def test_a_device_argument_makes_the_tensor_there():
    gpu = backend.gpu()         # the CUDA stand-in in CI
    assert backend.device_of(mint.rand(2, device='GPU')._data) is gpu
    x = mint.randn(3, device='cuda')
    assert backend.device_of(x._data) is gpu
    assert backend.device_of(mint.rand_like(x, device='CPU')._data) is backend.CPU
    assert backend.device_of(mint.randn_like(x)._data) is gpu
    assert backend.device_of(mint.randint(0, 3, (2,), device='GPU')._data) is gpu
    assert backend.device_of(mint.randint_like(x, 4, device='GPU')._data) is gpu
    assert backend.device_of(mint.empty(2, device='GPU')._data) is gpu
    assert backend.device_of(mint.empty_like(x)._data) is gpu
    with pytest.raises(ValueError, match="mint.rand: hookgrad has no device 'Ascend'; use 'CPU' "
                                         "or 'GPU'"):
        mint.rand(2, device='Ascend')
