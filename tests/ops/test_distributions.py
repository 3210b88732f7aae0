"""Random draws of ops (distributions.py) and the in-place functions (inplace_forms.py):
shapes and dtypes as MindSpore 2.10 gives them, ranges and moments of the draws, seed
reproducibility, in-place updates with autograd, and the errors for bad arguments."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import error_test

F32 = ms.Tensor(np.full(3, 2.0, np.float32))

CASES = [
    Case('DistributionSample', lambda a: ops.gamma((4, 3), a, a), grad=False,
         domains=(lambda rng, s: rng.uniform(1, 2, s),), shapes=(((3,),),), name='gamma'),
    Case('CandidateSample', lambda t: ops.log_uniform_candidate_sampler(t, 1, 3, True, 5),
         grad=False, domains=(lambda rng, s: rng.integers(0, 5, s),), shapes=(((2, 1),),),
         name='log_uniform_candidate_sampler'),
]


def test_randperm_is_a_permutation_and_follows_the_seed():
    ms.set_seed(5)
    a = ops.randperm(50)
    ms.set_seed(5)
    b = ops.randperm(50)
    assert a.dtype == ms.int64 and a.shape == (50,)
    assert sorted(a.asnumpy().tolist()) == list(range(50))
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    c, d = ops.randperm(50, 3, 2, ms.int32), ops.randperm(50, 3, 2, ms.int32)
    assert c.dtype == ms.int32 and (c.asnumpy() == d.asnumpy()).all()
    assert not (c.asnumpy() == ops.randperm(50, 4, 2).asnumpy()).all()
    assert ops.randperm(0).shape == (0,)


@pytest.mark.parametrize('draw,shape,dtype,mean,var', [
    (lambda s: ops.gamma((4000, 3), F32, ms.Tensor(np.float32(4.0)), s), (4000, 3),
     ms.float32, 0.5, 0.125),
    (lambda s: ops.poisson((4000, 3), F32, s), (4000, 3), ms.float32, 2.0, 2.0),
    (lambda s: ops.laplace((4000, 3), ms.Tensor(1.0), ms.Tensor(0.5), s), (4000, 3),
     ms.float32, 1.0, 0.5),
    (lambda s: ops.standard_normal((4000, 3), s), (4000, 3), ms.float32, 0.0, 1.0),
    (lambda s: ops.standard_laplace((4000, 3), s), (4000, 3), ms.float32, 0.0, 2.0),
    (lambda s: ops.random_gamma(ms.Tensor([4000]), F32, s), (4000, 3), ms.float32, 2.0, 2.0),
    (lambda s: ops.random_poisson(ms.Tensor([4000]), F32, s, ms.int32), (4000, 3), ms.int32,
     2.0, 2.0),
])
def test_draws_have_mindspore_shapes_and_the_distribution_moments(draw, shape, dtype, mean,
                                                                   var):
    y = draw(7)
    assert y.shape == shape and y.dtype == dtype
    v = y.asnumpy().astype(np.float64)
    assert abs(v.mean() - mean) < 0.1 and abs(v.var() - var) < 0.15 * var + 0.02
    np.testing.assert_array_equal(draw(7).asnumpy(), y.asnumpy())        # an int seed repeats
    ms.set_seed(11)
    first = draw(None).asnumpy()
    ms.set_seed(11)
    np.testing.assert_array_equal(draw(None).asnumpy(), first)          # so does set_seed
    assert not np.array_equal(draw(None).asnumpy(), first)


def test_gamma_and_poisson_broadcast_their_parameters():
    y = ops.gamma((2, 1), ms.Tensor(np.ones((1, 3), np.float32)), ms.Tensor(np.float32(1.0)))
    assert y.shape == (2, 3) and (y.asnumpy() > 0).all()
    assert ops.poisson((5,), ms.Tensor(np.ones((2, 1), np.float32))).shape == (2, 5)


def test_multinomial_with_replacement_draws_only_weighted_categories():
    x = ms.Tensor(np.array([[0.0, 1.0, 3.0], [1.0, 0.0, 0.0]], np.float32))
    y = ops.multinomial_with_replacement(x, 5, 1, 2000, True)
    assert y.shape == (2, 2000) and y.dtype == ms.int64
    v = y.asnumpy()
    assert set(v[0]) == {1, 2} and set(v[1]) == {0}
    assert abs((v[0] == 2).mean() - 0.75) < 0.05
    again = ops.multinomial_with_replacement(x, ms.Tensor(5, ms.int64), ms.Tensor(1, ms.int64),
                                             2000, True)
    np.testing.assert_array_equal(again.asnumpy(), v)


def test_candidate_samplers_give_mindspore_shapes_and_expected_counts():
    true = ms.Tensor(np.array([[1, 2], [3, 0]], np.int64))
    sampled, true_count, sampled_count = ops.uniform_candidate_sampler(true, 2, 3, True, 5, 9)
    s = sampled.asnumpy()
    assert sampled.dtype == ms.int64 and s.shape == (3,) and len(set(s)) == 3 and s.max() < 5
    assert true_count.shape == (2, 2) and true_count.dtype == ms.float32
    np.testing.assert_allclose(true_count.asnumpy(), 0.6, rtol=1e-6)
    np.testing.assert_allclose(sampled_count.asnumpy(), 0.6, rtol=1e-6)
    sampled, true_count, sampled_count = ops.log_uniform_candidate_sampler(true, 2, 4, False,
                                                                           10, 3)
    p = np.log((true.asnumpy() + 2.0) / (true.asnumpy() + 1.0)) / np.log(11)
    np.testing.assert_allclose(true_count.asnumpy(), 4 * p, rtol=1e-6)
    assert sampled.shape == (4,) and sampled.asnumpy().max() < 10


def test_log_uniform_unique_expected_counts_follow_the_tries():
    """With unique draws, 1 - (1 - P(k)) ^ tries: the counts MindSpore 2.10 gave for
    true_classes [[1], [3]] and range_max 5 when 4 tries gave 3 distinct classes."""
    true = ms.Tensor(np.array([[1], [3]], np.int64))
    _, true_count, _ = ops.log_uniform_candidate_sampler(true, 1, 3, True, 5)
    p = np.log(np.array([[3 / 2], [5 / 4]])) / np.log(6)
    tries = np.log1p(-true_count.asnumpy().astype(np.float64)) / np.log1p(-p)
    np.testing.assert_allclose(tries, np.round(tries[0, 0]), rtol=1e-5)
    assert tries[0, 0] >= 3


# ------------------------------------------------------------------------------ in place
def test_in_place_functions_return_their_input_with_the_new_values():
    x = ms.Tensor(np.array([-2.0, 0.5, 3.0], np.float32))
    assert ops.clamp_(x, -1, 1) is x and x.asnumpy().tolist() == [-1, 0.5, 1]
    assert ops.tanh_(x) is x
    np.testing.assert_allclose(x.asnumpy(), np.tanh([-1, 0.5, 1]), rtol=1e-6)
    y = ms.Tensor(np.array([0.0, 1.0], np.float32))
    assert ops.inplace_sigmoid(y) is y
    np.testing.assert_allclose(y.asnumpy(), [0.5, 1 / (1 + np.exp(-1))], rtol=1e-6)
    z = ms.Tensor(np.array([0.5, -0.25]))
    assert ops.erfinv_(z) is z
    np.testing.assert_allclose([math.erf(v) for v in z.asnumpy()], [0.5, -0.25], rtol=1e-8)
    assert ops.zero_(z) is z and z.asnumpy().tolist() == [0, 0]
    w = ms.Tensor(np.zeros((2, 2), np.float32))
    ops.put_(w, ms.Tensor([0, 3, 3]), ms.Tensor([1.0, 2.0, 3.0]), accumulate=True)
    assert w.asnumpy().tolist() == [[1, 0], [0, 5]]


def test_random_fills_follow_the_seed():
    def fills():
        x = ms.Tensor(np.zeros(4000, np.float32))
        return [ops.uniform_(x, 2, 3).asnumpy().copy(), ops.normal_(x, 1, 2).asnumpy().copy(),
                ops.exponential_(x, 4).asnumpy().copy(), ops.bernoulli_(x, 0.25).asnumpy().copy(),
                ops.random_(ms.Tensor(np.zeros(4000, np.int32)), 0, 5).asnumpy()]
    ms.set_seed(2)
    first = fills()
    ms.set_seed(2)
    for a, b in zip(first, fills()):
        np.testing.assert_array_equal(a, b)
    u, n, e, b, r = first
    assert 2 <= u.min() and u.max() < 3
    assert abs(n.mean() - 1) < 0.1 and abs(n.std() - 2) < 0.1
    assert e.min() >= 0 and abs(e.mean() - 0.25) < 0.02
    assert set(np.unique(b)) == {0, 1} and abs(b.mean() - 0.25) < 0.03
    assert set(np.unique(r)) == {0, 1, 2, 3, 4}


def test_in_place_function_on_a_graph_tensor_keeps_gradients():
    x = ms.Tensor(np.array([0.2, -0.4]), requires_grad=True)
    y = ops.mul(x, 2.0)
    ops.tanh_(y)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 / np.cosh([0.4, -0.8]) ** 2, rtol=1e-10)


ERRORS = [
    (lambda: ops.randperm(-1), ValueError, "ops.randperm: n must be >= 0"),
    (lambda: ops.randperm(2.5), TypeError, "ops.randperm: n must be an int"),
    (lambda: ops.gamma((2,), 1.0, F32), TypeError, "ops.gamma: alpha must be a Tensor"),
    (lambda: ops.gamma((2,), F32, F32), ValueError,
     r"ops.gamma: shape \(2,\) and parameters of shapes .* cannot be broadcast"),
    (lambda: ops.poisson([2, -1], F32), ValueError, "ops.poisson: size .* negative dimension"),
    (lambda: ops.standard_normal((2,), -1), ValueError, "ops.standard_normal: seed must be"),
    (lambda: ops.random_poisson((2,), F32, dtype=ms.bool_), TypeError,
     "ops.random_poisson: dtype must be"),
    (lambda: ops.multinomial_with_replacement(F32, 0, 0, 2, 1), TypeError,
     "ops.multinomial_with_replacement: replacement must be a bool"),
    (lambda: ops.uniform_candidate_sampler(ms.Tensor(np.array([[1]])), 2, 1, True, 5),
     ValueError, "ops.uniform_candidate_sampler: true_classes must have num_true = 2"),
    (lambda: ops.uniform_candidate_sampler(ms.Tensor(np.array([[1]])), 1, 6, True, 5),
     ValueError, "ops.uniform_candidate_sampler: cannot draw 6 unique candidates"),
    (lambda: ops.uniform_candidate_sampler(ms.Tensor(np.array([[1]])), 1, 1, True, 5, 0, True),
     NotImplementedError, "remove_accidental_hits"),
    (lambda: ops.zero_([1.0]), TypeError, "ops.zero_: input must be a Tensor"),
    (lambda: ops.uniform_(ms.Tensor([1.0]), generator=object()), ValueError,
     "Tensor.uniform_: generator objects are not available"),
]
test_errors_name_the_op_and_argument = error_test(ERRORS)


def test_random_poisson_draws_zero_for_a_negative_rate_and_checks_its_tensors():
    # MindSpore 2.10 (CPU): a negative rate draws 0; shape must be an Int32/Int64 Tensor and
    # rate a Float16/32/64 or Int32/64 Tensor (TypeError otherwise)
    shape = ms.Tensor(np.array([50]), ms.int32)
    out = ops.random_poisson(shape, ms.Tensor(np.float32([-1.0, -0.5, 0.0])), seed=1)
    assert out.shape == (50, 3) and out.dtype == ms.float32
    assert not out.asnumpy().any(), 'no events at rates <= 0'
    ints = ops.random_poisson(shape, ms.Tensor(np.array([-3, 4], np.int64)), seed=1,
                              dtype=ms.int64).asnumpy()
    assert not ints[:, 0].any() and ints[:, 1].mean() > 2
    with pytest.raises(TypeError, match="shape must be an Int32 or Int64 Tensor, got tuple"):
        ops.random_poisson((3, 5), ms.Tensor(np.float32([0.5])), seed=1)
    with pytest.raises(TypeError, match="shape must be an Int32 or Int64 Tensor, got Float32"):
        ops.random_poisson(ms.Tensor(np.float32([3, 5])), ms.Tensor(np.float32([0.5])), seed=1)
    with pytest.raises(TypeError, match="rate must be a Float16, .* Tensor, got Bool"):
        ops.random_poisson(shape, ms.Tensor(np.array([True])), seed=1)


def test_random_functions_are_importable_from_mindspores_random_func_module():
    from hookgrad.ops.function import random_func
    assert random_func.random_poisson is ops.random_poisson
    assert random_func.multinomial is ops.multinomial and 'randperm' in random_func.__all__
