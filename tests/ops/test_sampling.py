"""rand, randn, randint, uniform, normal, the *_like forms, multinomial and the random
Primitives: values drawn by seed, distributions, dtypes, fresh draws under jit, errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def _uniform_ref(seed):
    def ref(a):
        rng = np.random.default_rng(seed)
        if a.dtype == np.float64:
            return rng.random(a.shape)
        return rng.random(a.shape, dtype=np.float32)
    return ref


def _normal_ref(seed, mean=0.0, std=1.0):
    def ref(a):
        rng = np.random.default_rng(seed)
        noise = rng.standard_normal(a.shape) if a.dtype == np.float64 else \
            rng.standard_normal(a.shape, dtype=np.float32)
        return mean + std * noise
    return ref


def _normal_tensor_ref(seed):
    def ref(m, s):
        rng = np.random.default_rng(seed)
        shape = np.broadcast_shapes((2, 1, 1), m.shape, s.shape)
        noise = rng.standard_normal(shape) if m.dtype == np.float64 else \
            rng.standard_normal(shape, dtype=np.float32)
        return s * noise + m
    return ref


def _positive(rng, shape):
    return rng.uniform(0.5, 2.0, size=shape)


def _normal_domain(rng, shape):
    return rng.standard_normal(shape)


def _one_hot_rows(rng, shape):
    """Rows of weights with one positive entry: every draw is that entry's index."""
    rows = np.zeros(shape)
    flat = rows.reshape(-1, shape[-1])
    flat[np.arange(flat.shape[0]), rng.integers(0, shape[-1], flat.shape[0])] = 2.0
    return rows


def _repeated_argmax(a):
    return np.repeat(np.argmax(a, -1)[..., None], 5, -1).reshape(a.shape[:-1] + (5,))


def _int_ref(seed, low, high):
    return lambda a: np.random.default_rng(seed).integers(low, high, size=a.shape,
                                                          dtype=np.int64)


SHAPES = [((),), ((4,),), ((2, 3),)]
CASES = [
    Case('UniformReal', lambda x: ops.rand(*x.shape, dtype=x.dtype, seed=3),
         ref=_uniform_ref(3), shapes=SHAPES[1:], grad=False, rtol=0, atol=0, name='rand'),
    Case('UniformReal', lambda x: ops.rand(x.shape, dtype=x.dtype, seed=4),
         ref=_uniform_ref(4), shapes=SHAPES, grad=False, rtol=0, atol=0, name='rand-tuple'),
    Case('UniformReal', lambda x: ops.rand_like(x, 5), ref=_uniform_ref(5), shapes=SHAPES,
         grad=False, rtol=0, atol=0, name='rand_like'),
    Case('StandardNormal', lambda x: ops.randn(*x.shape, dtype=x.dtype, seed=6),
         ref=_normal_ref(6), shapes=SHAPES[1:], grad=False, rtol=0, atol=0, name='randn'),
    Case('StandardNormal', lambda x: ops.randn_like(x, seed=7), ref=_normal_ref(7),
         shapes=SHAPES, grad=False, rtol=0, atol=0, name='randn_like'),
    Case('UniformInt', lambda x: ops.randint(-3, 9, x.shape, seed=8), ref=_int_ref(8, -3, 9),
         shapes=SHAPES, grad=False, rtol=0, atol=0, name='randint'),
    Case('UniformInt', lambda x: ops.randint_like(x, 0, 4, 9, dtype=ms.int64),
         ref=_int_ref(9, 0, 4), shapes=SHAPES, grad=False, rtol=0, atol=0, name='randint_like'),
    Case(('StandardNormal', 'Mul', 'Add'), lambda m, s: ops.normal((2, 1, 1), m, s, seed=10),
         ref=_normal_tensor_ref(10), shapes=[((3,), ()), ((1, 4), (3, 1))],
         domains=(_normal_domain, _positive), rtol=1e-12, name='normal'),
    Case(('StandardNormal', 'Mul', 'Add'),
         lambda x: ops.normal(x.shape, 1.5, 2.0, seed=11) * ops.ones_like(x),
         ref=lambda a: (np.float32(1.5) + np.float32(2.0) * np.random.default_rng(11)
                        .standard_normal(a.shape, dtype=np.float32)).astype(a.dtype),
         shapes=[((4,),)], grad=False, rtol=1e-6, atol=1e-6, name='normal-numbers'),
    Case('Uniform', lambda lo, hi: ops.cast(ops.uniform((2, 3), ops.cast(lo, ms.float32),
                                                        ops.cast(hi, ms.float32), seed=12),
                                            lo.dtype),
         ref=lambda lo, hi: (lo.astype(np.float32) + (hi - lo).astype(np.float32)
                             * np.random.default_rng(12).random((2, 3), dtype=np.float32)
                             ).astype(lo.dtype),
         shapes=[((3,), ())], grad=False, rtol=1e-6, atol=1e-6, name='uniform'),
    Case('Multinomial', lambda p: ops.multinomial(p, 5, seed=13), ref=_repeated_argmax,
         shapes=[((4,),), ((2, 3),)], domains=(_one_hot_rows,), grad=False,
         name='multinomial'),
    Case('Multinomial', lambda p: ops.multinomial(p, 1, False), ref=lambda a: np.argmax(
        a, -1)[..., None], shapes=[((2, 3),)], domains=(_one_hot_rows,), grad=False,
         name='multinomial-without-replacement'),
]


globals().update(row_tests(CASES))


def test_seeded_draws_repeat_and_unseeded_follow_set_seed():
    assert ops.rand(3, seed=1).tolist() == ops.rand(3, seed=1).tolist()
    ms.set_seed(2)
    first = [ops.rand(3), ops.randn(3), ops.randint(0, 100, (3,)), ops.multinomial(
        ms.Tensor([1.0, 2.0, 3.0]), 4)]
    ms.set_seed(2)
    again = [ops.rand(3), ops.randn(3), ops.randint(0, 100, (3,)), ops.multinomial(
        ms.Tensor([1.0, 2.0, 3.0]), 4)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    assert ops.rand(3).tolist() != ops.rand(3).tolist()


def test_distributions():
    ms.set_seed(0)
    u = ops.rand(100000).asnumpy()
    assert u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 0.01
    n = ops.randn(100000).asnumpy()
    assert abs(n.mean()) < 0.02 and abs(n.std() - 1) < 0.02
    k = ops.randint(-2, 3, (100000,)).asnumpy()
    assert set(np.unique(k).tolist()) == {-2, -1, 0, 1, 2}
    g = ops.normal((100000,), ms.Tensor(3.0), ms.Tensor(0.5)).asnumpy()
    assert abs(g.mean() - 3) < 0.02 and abs(g.std() - 0.5) < 0.02
    draws = ops.multinomial(ms.Tensor([1.0, 0.0, 3.0]), 40000).asnumpy()
    counts = np.bincount(draws, minlength=3) / draws.size
    np.testing.assert_allclose(counts, [0.25, 0.0, 0.75], atol=0.01)


def test_multinomial_without_replacement_draws_distinct_categories():
    ms.set_seed(1)
    y = ops.multinomial(ms.Tensor([[0.1, 0.9, 0.0], [1.0, 0.0, 0.0]]), 3, False)
    assert y.dtype == ms.int32 and y.shape == (2, 3)
    for row in y.asnumpy():
        assert sorted(row.tolist()) == [0, 1, 2]
    assert y.asnumpy()[1, 0] == 0       # the only category of positive weight comes first


def test_dtypes_follow_mindspore():
    assert ops.rand(2).dtype == ms.float32 and ops.rand(2, dtype=ms.float64).dtype == ms.float64
    assert ops.rand().shape == (1,) and ops.rand(0).shape == (0,)
    assert ops.randn(2, dtype=ms.float16).dtype == ms.float16
    assert ops.randint(0, 5, (3,)).dtype == ms.int64
    assert ops.randint(0, 5, (2,), dtype=ms.int32).dtype == ms.int32
    assert ops.randn_like(ms.Tensor([1, 2])).dtype == ms.float32
    assert ops.rand_like(ms.Tensor([1, 2]), dtype=ms.float16).dtype == ms.float16
    assert ops.randint_like(ms.Tensor([1.0]), 0, 4, dtype=ms.int32).dtype == ms.int32
    y = ops.uniform((2,), ms.Tensor(1, ms.int32), ms.Tensor(5, ms.int32), dtype=ms.int32)
    assert y.dtype == ms.int32 and ((y.asnumpy() >= 1) & (y.asnumpy() < 5)).all()
    assert ops.normal((3, 1), ms.Tensor([0.0, 10.0]), 1.0).shape == (3, 2)
    assert ops.normal((2,), ms.Tensor([0.0, 1.0], ms.float64), 1.0).dtype == ms.float64


def test_random_primitives():
    a = ops.UniformReal(seed=1, seed2=2)
    b = ops.UniformReal(seed=1, seed2=2)
    first, second = a((3,)), a((3,))
    assert first.tolist() != second.tolist() and first.tolist() == b((3,)).tolist()
    assert ops.StandardNormal()((2, 2)).dtype == ms.float32
    k = ops.UniformInt(3, 4)((100,), ms.Tensor(0, ms.int32), ms.Tensor(4, ms.int32))
    assert k.dtype == ms.int32 and set(np.unique(k.asnumpy()).tolist()) <= {0, 1, 2, 3}
    m = ops.Multinomial(seed=5, dtype=ms.int64)(ms.Tensor([0.0, 1.0]), 3)
    assert m.dtype == ms.int64 and m.tolist() == [1, 1, 1]


def test_random_ops_draw_fresh_values_in_a_jitted_function():
    f = ms.jit(lambda x: x + ops.rand(3) + ops.randn(3) + ops.cast(
        ops.randint(0, 10, (3,)), ms.float32))
    g = lambda x: x + ops.rand(3) + ops.randn(3) + ops.cast(ops.randint(0, 10, (3,)), ms.float32)
    x = ms.Tensor(np.zeros(3, np.float32))
    ms.set_seed(4)
    eager = [g(x).asnumpy() for _ in range(3)]
    ms.set_seed(4)
    jitted = [f(x).asnumpy() for _ in range(3)]
    for a, b in zip(eager, jitted):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(jitted[1], jitted[2]) and f.replays == 2


def test_normal_passes_gradients_to_mean_and_stddev():
    mean = ms.Tensor([1.0, 2.0], requires_grad=True)
    std = ms.Tensor(3.0, requires_grad=True)
    y = ops.normal((2,), mean, std, seed=3)
    ops.sum(y).backward()
    noise = np.random.default_rng(3).standard_normal(2, dtype=np.float32)
    np.testing.assert_array_equal(mean.grad.asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(std.grad.asnumpy(), noise.sum(), rtol=1e-6)


ERRORS = [
    (lambda: ops.rand(2, dtype=ms.int32), ValueError,
     r"ops\.rand: dtype must be a floating type, got Int32"),
    (lambda: ops.rand(2, seed=-1), ValueError, r"ops\.rand: seed must be None or an int >= 0"),
    (lambda: ops.rand(-2), ValueError, r"ops\.rand: size \(-2,\) has a negative dimension"),
    (lambda: ops.rand(2.5), TypeError, r"ops\.rand: size must be ints or one tuple of ints"),
    (lambda: ops.randn(2, seed=1.5), TypeError, r"ops\.randn: seed must be None or an int"),
    (lambda: ops.randint(0, 5, (3,), dtype=ms.float32), ValueError,
     r"ops\.randint: dtype must be an integer type, got Float32"),
    (lambda: ops.randint(5, 5, (3,)), ValueError,
     r"ops\.randint: low must be less than high, got low 5 and high 5"),
    (lambda: ops.randint(0.5, 5, (3,)), TypeError, r"ops\.randint: low must be an int, got 0\.5"),
    (lambda: ops.randint(0, 5, 3), ValueError, r"ops\.randint: size must be a tuple, got 3"),
    (lambda: ops.rand_like(ms.Tensor([1, 2])), ValueError,
     r"ops\.rand_like: dtype must be a floating type, got Int64"),
    (lambda: ops.randint_like(ms.Tensor([1.0]), 0, 4), ValueError,
     r"ops\.randint_like: dtype must be an integer type, got Float32"),
    (lambda: ops.uniform((2,), 1.0, 2.0), TypeError,
     r"ops\.uniform: minval and maxval must be Tensors"),
    (lambda: ops.uniform((2,), ms.Tensor(1.0, ms.float64), ms.Tensor(2.0, ms.float64),
                         dtype=ms.float64), TypeError,
     r"ops\.uniform: dtype must be Float32 or Int32, got Float64"),
    (lambda: ops.uniform((2,), ms.Tensor(1), ms.Tensor(5), dtype=ms.int32), TypeError,
     r"ops\.uniform: minval has dtype Int64, expected Int32"),
    (lambda: ops.uniform((2,), ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor(5.0)), ValueError,
     r"ops\.uniform: shape \(2,\), minval of shape \(3,\) and maxval of shape \(\) cannot"),
    (lambda: ops.uniform((2,), ms.Tensor(3, ms.int32), ms.Tensor(1, ms.int32), dtype=ms.int32),
     ValueError, r"ops\.uniform: minval must be less than maxval"),
    (lambda: ops.normal((2,), ms.Tensor([1.0, 2.0, 3.0]), 1.0), ValueError,
     r"ops\.normal: shape \(2,\), mean of shape \(3,\) and stddev of shape \(\) cannot"),
    (lambda: ops.multinomial(ms.Tensor([[[1.0]]]), 3), ValueError,
     r"ops\.multinomial: input must be 1-d or 2-d, got shape \(1, 1, 1\)"),
    (lambda: ops.multinomial(ms.Tensor([1.0, 2.0]), 3, False), ValueError,
     r"ops\.multinomial: cannot draw 3 samples without replacement from 2 categories"),
    (lambda: ops.multinomial(ms.Tensor([-1.0, 2.0]), 3), ValueError,
     r"ops\.multinomial: probabilities must be finite and non-negative"),
    (lambda: ops.multinomial(ms.Tensor([0.0, 0.0]), 3), ValueError,
     r"ops\.multinomial: every row of probabilities needs a positive sum"),
    (lambda: ops.multinomial(ms.Tensor([1.0]), 0), ValueError,
     r"ops\.multinomial: num_samples must be positive, got 0"),
    (lambda: ops.UniformInt()((2,), ms.Tensor(0), ms.Tensor(4, ms.int32)), TypeError,
     r"ops\.UniformInt: minval must be a 0-d Int32 Tensor"),
    (lambda: ops.UniformReal(seed=-1), ValueError, r"ops\.UniformReal: seed must be an int >= 0, got -1"),
    (lambda: ops.Multinomial(dtype=ms.float32), TypeError,
     r"ops\.Multinomial: dtype must be an integer type, got Float32"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
