"""MindSpore's optimizer, graph-control, conversion, random-choice and extra math Primitives,
and the functional ops beside them: values from MindSpore 2.10 recorded as literals or from
NumPy formulas, in-place updates, gradients and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import backend
from hookgrad.ops import functional as F
from hookgrad.ops import operations as P
from hookgrad.testing import check_grad
from hookgrad.testing.cases import device_named
from tests.ops.rows import error_test

GRAD = np.float32([0.5, -1.0, 2.0])
SEG_X = np.float32([[1, 2], [3, 4], [5, 6]])
SEG_IDS = np.int32([1, 0, 1])


def T(a):
    return ms.Tensor(np.asarray(a))


def param(values, name):
    return ms.Parameter(T(np.float32(values)), name=name)


# ----------------------------------------------------------------------------- optimizers
def test_apply_momentum_updates_in_place_as_mindspore():
    w, acc = param([1, 2, -1], 'w'), param([0.1, 0.2, 0.3], 'acc')
    out = P.ApplyMomentum()(w, acc, 0.1, T(GRAD), 0.9)
    # MindSpore 2.10
    np.testing.assert_allclose(w.asnumpy(), [0.941, 2.082, -1.227], rtol=1e-6)
    np.testing.assert_allclose(acc.asnumpy(), [0.59, -0.82, 2.27], rtol=1e-6)
    assert out is w


def test_apply_momentum_nesterov_is_the_documented_formula():
    w, acc = param([1, 2, -1], 'w'), param([0.1, 0.2, 0.3], 'acc')
    P.ApplyMomentum(use_nesterov=True)(w, acc, T(np.float32(0.1)), T(GRAD), T(np.float32(0.9)))
    a = 0.9 * np.float32([0.1, 0.2, 0.3]) + GRAD
    np.testing.assert_allclose(w.asnumpy(), [1, 2, -1] - 0.1 * (GRAD + 0.9 * a), rtol=1e-6)


@pytest.mark.parametrize('args,stat,want_w,want_acc', [
    # MindSpore 2.10: the first step (stat 1) takes the gradient as the momentum
    ((0.0, 0.01, False), 1.0, [0.949, 2.098, -1.199], [0.51, -0.98, 1.99]),
    ((0.2, 0.01, False), 0.0, [0.9502, 2.0604, -1.1862], [0.498, -0.604, 1.862]),
    ((0.0, 0.0, True), 0.0, [0.8969, 2.1738, -1.4043], [0.59, -0.82, 2.27]),
])
def test_sgd_matches_mindspore(args, stat, want_w, want_acc):
    w, acc, st = param([1, 2, -1], 'w'), param([0.1, 0.2, 0.3], 'acc'), param([stat] * 3, 's')
    out = P.SGD(*args)(w, T(GRAD), T(np.float32(0.1)), acc, T(np.float32(0.9)), st)
    assert out is w
    np.testing.assert_allclose(w.asnumpy(), want_w, rtol=1e-5)
    np.testing.assert_allclose(acc.asnumpy(), want_acc, rtol=1e-5)
    np.testing.assert_array_equal(st.asnumpy(), [0, 0, 0])


@pytest.mark.parametrize('nesterov,want_w', [
    (False, [0.99993736, 1.9999642, -1.0002095]),      # MindSpore 2.10
    (True, [0.99992126, 2.0000124, -1.0002776]),
])
def test_adam_matches_mindspore(nesterov, want_w):
    w, m, v = param([1, 2, -1], 'w'), param([0.1, 0.2, 0.3], 'm'), param([0.5] * 3, 'v')
    out = P.Adam(use_nesterov=nesterov)(w, m, v, 0.9, 0.999, 0.001, 0.9, 0.999, 1e-8, T(GRAD))
    assert out[0] is w and out[1] is m and out[2] is v
    np.testing.assert_allclose(w.asnumpy(), want_w, rtol=1e-6)
    np.testing.assert_allclose(m.asnumpy(), [0.14, 0.08, 0.47], rtol=1e-5)
    np.testing.assert_allclose(v.asnumpy(), [0.49975, 0.5005, 0.5035], rtol=1e-5)


def test_rmsprop_adagrad_and_gradient_descent_match_mindspore():
    w, ms_, mom = param([1, 2, -1], 'w'), param([0.1, 0.2, 0.3], 'ms'), param([0.5] * 3, 'mo')
    P.ApplyRMSProp()(w, ms_, mom, T(np.float32(0.01)), T(GRAD), 0.9, 0.8, 1e-6)
    np.testing.assert_allclose(w.asnumpy(), [0.58525586, 1.6188982, -1.424434], rtol=1e-5)
    np.testing.assert_allclose(ms_.asnumpy(), [0.115, 0.28, 0.67], rtol=1e-5)
    np.testing.assert_allclose(mom.asnumpy(), [0.41474414, 0.38110182, 0.4244339], rtol=1e-5)
    w, acc = param([1, 2, -1], 'w'), param([0.1, 0.2, 0.3], 'acc')
    var, accum = P.ApplyAdagrad()(w, acc, T(np.float32(0.01)), T(GRAD))
    np.testing.assert_allclose(var.asnumpy(), [0.99154848, 2.00912881, -1.00964487], rtol=1e-6)
    np.testing.assert_allclose(accum.asnumpy(), [0.35, 1.2, 4.3], rtol=1e-6)
    w = param([1, 2, -1], 'w')
    P.ApplyGradientDescent()(w, 0.1, T(GRAD))
    np.testing.assert_allclose(w.asnumpy(), [0.95, 2.1, -1.2], rtol=1e-6)


def test_optimizer_updates_record_no_graph():
    w, acc = param([1, 2, -1], 'w'), param([0.1, 0.2, 0.3], 'acc')
    g = T(GRAD).requires_grad_(True)
    out = P.ApplyMomentum()(w, acc, 0.1, g, 0.9)
    assert out is w and w.is_leaf and acc.is_leaf
    assert w.grad_fn is None and acc.grad_fn is None


# ----------------------------------------------------------------------------- extra math
# name, primitive factory, inputs, expected outputs: all from MindSpore 2.10 (CPU)
MINDSPORE = [
    ('Inv', lambda: P.Inv(), (np.float32([2, 4, -0.5]),), [0.5, 0.25, -2.0]),
    ('Rint', lambda: P.Rint(), (np.float32([-1.5, -0.5, 0.5, 1.5, 2.5, 2.6]),),
     [-2, -0, 0, 2, 2, 3]),
    ('Fmax', lambda: P.Fmax(), (np.float32([1, np.nan, 3]), np.float32([2, 1, np.nan])),
     [2, 1, 3]),
    ('MulNoNan', lambda: P.MulNoNan(), (np.float32([1, np.inf, 3]), np.float32([0, 0, 2])),
     [0, 0, 6]),
    ('Sinc', lambda: P.Sinc(), (np.float32([0, 0.5, 1.5]),), [1.0, 0.63661975, -0.21220659]),
    ('Heaviside', lambda: P.Heaviside(), (np.float32([-1, 0, 2]), np.float32([0.5] * 3)),
     [0, 0.5, 1]),
    ('Logit', lambda: P.Logit(), (np.float32([0.2, 0.5, 0.9]),),
     [-1.38629436, 0.0, 2.19722438]),
    ('Logit-eps', lambda: P.Logit(0.25), (np.float32([0.1, 0.5, 0.9]),),
     [-1.09861231, 0.0, 1.09861231]),
    ('UnsortedSegmentSum', lambda: P.UnsortedSegmentSum(), (SEG_X, SEG_IDS, 3),
     [[3, 4], [6, 8], [0, 0]]),
    ('UnsortedSegmentMax', lambda: P.UnsortedSegmentMax(), (SEG_X, SEG_IDS, 3),
     [[3, 4], [5, 6], [-3.4028234663852886e+38] * 2]),
    ('UnsortedSegmentMin', lambda: P.UnsortedSegmentMin(), (SEG_X, SEG_IDS, 3),
     [[3, 4], [1, 2], [3.4028234663852886e+38] * 2]),
    ('UnsortedSegmentProd', lambda: P.UnsortedSegmentProd(), (SEG_X, SEG_IDS, 3),
     [[3, 4], [5, 12], [1, 1]]),
    ('EqualCount', lambda: P.EqualCount(), (np.int32([1, 2, 3]), np.int32([1, 2, 4])), [2]),
    ('SquareSumAll', lambda: P.SquareSumAll(), (np.float32([1, 2]), np.float32([3, 4])),
     (5.0, 25.0)),
    ('TensorShape', lambda: P.TensorShape(), (np.zeros((2, 3), np.float32),), [2, 3]),
    ('Fills', lambda: P.Fills(), (np.float32([[1, 2], [3, 4]]), 2.5), [[2.5, 2.5], [2.5, 2.5]]),
    ('Fills-int', lambda: P.Fills(), (np.int32([1, 2]), 2.5), [2, 2]),
    ('Depend', lambda: P.Depend(), (np.float32([1, 2]), np.float32([3])), [1, 2]),
    ('IdentityN', lambda: P.IdentityN(), ([np.float32([1]), np.float32([2])],), ([1], [2])),
]


def _arg(a):
    if isinstance(a, np.ndarray):
        return T(a)
    if isinstance(a, list):
        return [T(v) for v in a]
    return a


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
@pytest.mark.parametrize('make,args,want', [pytest.param(m, a, w, id=n)
                                             for n, m, a, w in MINDSPORE])
def test_primitive_values_match_mindspore(make, args, want, device):
    with backend.default_device(device_named(device)):
        got = make()(*[_arg(a) for a in args])
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), np.asarray(w, g.asnumpy().dtype), rtol=1e-6)


def test_output_dtypes_follow_mindspore():
    assert P.EqualCount()(T(np.int32([1])), T(np.int32([1]))).dtype == ms.int32
    assert P.TensorShape()(T(np.zeros(3))).dtype == ms.int64
    assert P.Fills()(T(np.int32([1, 2])), 2.5).dtype == ms.int32
    assert P.LinSpace()(T(np.float32(1)), T(np.float32(2)), 5).asnumpy().tolist() == \
        [1.0, 1.25, 1.5, 1.75, 2.0]


def test_split_v_and_invert_permutation_match_mindspore():
    pieces = P.SplitV((1, 2, -1), 1, 3)(T(np.arange(12, dtype=np.float32).reshape(2, 6)))
    assert [p.asnumpy().tolist() for p in pieces] == [[[0], [6]], [[1, 2], [7, 8]],
                                                      [[3, 4, 5], [9, 10, 11]]]
    assert P.InvertPermutation()((3, 4, 0, 2, 1)) == (2, 4, 3, 0, 1)    # MindSpore 2.10


def test_scalar_cast_matches_mindspore():
    assert P.ScalarCast()(-2.7, ms.int64) == -2 and isinstance(P.ScalarCast()(3, ms.float64),
                                                              float)
    assert P.ScalarCast()(0, ms.bool_) is False


def test_random_choice_with_mask_is_seeded_and_padded():
    x = T(np.array([[True, False], [True, True]]))
    index, mask = P.RandomChoiceWithMask(5, 1, 2)(x)
    assert index.dtype == ms.int32 and mask.dtype == ms.bool_
    assert index.shape == (5, 2) and mask.asnumpy().tolist() == [True] * 3 + [False] * 2
    assert sorted(map(tuple, index.asnumpy()[:3].tolist())) == [(0, 0), (1, 0), (1, 1)]
    assert index.asnumpy()[3:].tolist() == [[0, 0], [0, 0]]
    again = P.RandomChoiceWithMask(5, 1, 2)(x)[0]
    np.testing.assert_array_equal(again.asnumpy(), index.asnumpy())


def test_random_choice_with_mask_takes_negative_seeds_but_only_ints():
    # MindSpore 2.10 accepts RandomChoiceWithMask(seed=-5, seed2=-1024) (the other random
    # Primitives refuse negative seeds) and raises TypeError for a seed that is not an int
    x = T(np.array([True, False, True, True]))
    first = P.RandomChoiceWithMask(3, -5, -1024)(x)[0].asnumpy()
    assert sorted(first.ravel().tolist()) == [0, 2, 3]
    np.testing.assert_array_equal(P.RandomChoiceWithMask(3, -5, -1024)(x)[0].asnumpy(), first)
    for kw in (dict(seed=1.5), dict(seed2='a'), dict(seed=True)):
        with pytest.raises(TypeError, match=r"ops\.RandomChoiceWithMask: seed2? must be an int"):
            P.RandomChoiceWithMask(3, **kw)


def test_print_writes_each_argument_on_a_line(capsys):
    assert P.Print()('hello', T(np.float32([1.0, 2.0])), 3) is None
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == 'hello' and lines[1].startswith('Tensor(shape=[2], dtype=Float32')
    assert lines[2] == '3'


def test_ascend_float_status_primitives_are_refused_when_called():
    for cls in (P.NPUGetFloatStatus, P.NPUAllocFloatStatus, P.NPUClearFloatStatus):
        prim = cls()
        with pytest.raises(RuntimeError, match=rf"ops\.{cls.__name__} reads the float-overflow "
                                               r"status register of Ascend NPUs"):
            prim(T(np.zeros(8, np.float32)))


# ----------------------------------------------------------------------------- functional
def test_functional_forms_match_numpy():
    x = np.float32([[-1.5, 0.0, 2.0], [np.nan, 3.0, -0.5]])
    np.testing.assert_allclose(ops.nansum(T(x)).asnumpy(), np.nansum(x), rtol=1e-6)
    np.testing.assert_allclose(ops.nanmean(T(x), 1).asnumpy(), np.nanmean(x, 1), rtol=1e-6)
    np.testing.assert_array_equal(ops.fmin(T(x), T(np.zeros_like(x))).asnumpy(),
                                  np.fmin(x, 0))
    np.testing.assert_array_equal(ops.copysign(T(np.float32([1, -2, 3])),
                                               T(np.float32([-1, 1, -0.0]))).asnumpy(),
                                  [-1, 2, 3])       # MindSpore: negative where other < 0
    np.testing.assert_allclose(ops.deg2rad(T(np.float32([180]))).asnumpy(), [np.pi])
    np.testing.assert_allclose(ops.rad2deg(T(np.float32([np.pi]))).asnumpy(), [180])
    assert ops.float_power(T(np.float32([2])), 3).dtype == ms.float64
    assert ops.rank(T(x)) == 2 and ops.size(T(x)) == 6 and ops.numel(T(x)) == 6
    assert ops.dtype(T(x)) == ms.float32 and ops.is_floating_point(T(x))
    assert ops.is_tensor(T(x)) and not ops.is_tensor(x) and not ops.is_complex(T(x))
    np.testing.assert_array_equal(ops.ravel(T(x)).shape, (6,))
    assert ops.t(T(x)).shape == (3, 2)
    np.testing.assert_array_equal(ops.reverse(T(np.float32([1, 2, 3])), (0,)).asnumpy(),
                                  [3, 2, 1])
    np.testing.assert_array_equal(ops.isposinf(T(np.float32([np.inf, -np.inf, 1]))).asnumpy(),
                                  [True, False, False])
    np.testing.assert_array_equal(ops.isneginf(T(np.float32([np.inf, -np.inf, 1]))).asnumpy(),
                                  [False, True, False])
    values, index = ops.top_k(T(np.float32([1, 3, 2])), 2)
    assert values.asnumpy().tolist() == [3, 2] and index.asnumpy().tolist() == [1, 2]
    np.testing.assert_array_equal(ops.fills(T(x), 1.0).asnumpy(), np.ones_like(x))
    np.testing.assert_array_equal(ops.unsorted_segment_sum(T(SEG_X), T(SEG_IDS), 2).asnumpy(),
                                  [[3, 4], [6, 8]])


# MindSpore 2.10 CPU: a row with a negative segment id joins no segment (the gradient of
# such a row is 0); the values below are what MindSpore gives for these inputs
NEG_X = np.arange(1, 13, dtype=np.float32).reshape(4, 3)
NEG_IDS = np.int32([2, -1, 0, -3])


@pytest.mark.parametrize('name,expect', [
    ('unsorted_segment_sum', [[7, 8, 9], [0, 0, 0], [1, 2, 3]]),
    ('unsorted_segment_prod', [[7, 8, 9], [1, 1, 1], [1, 2, 3]]),
    ('unsorted_segment_max', [[7, 8, 9], [np.finfo(np.float32).min] * 3, [1, 2, 3]]),
    ('unsorted_segment_min', [[7, 8, 9], [np.finfo(np.float32).max] * 3, [1, 2, 3]]),
])
def test_unsorted_segment_rows_with_negative_ids_are_left_out(name, expect):
    fn = getattr(ops, name)
    np.testing.assert_array_equal(fn(T(NEG_X), T(NEG_IDS), 3).asnumpy(), expect)
    grad = ms.grad(lambda a: fn(a, T(NEG_IDS), 3)[::2].sum())(T(NEG_X)).asnumpy()
    np.testing.assert_array_equal(grad, [[1, 1, 1], [0, 0, 0], [1, 1, 1], [0, 0, 0]])


def test_functional_names_are_reexported_under_mindsporess_paths():
    for name in ('inv', 'sinc', 'unsorted_segment_sum', 'fills', 'bias_add', 'mirror_pad',
                 'tensor_add', 'rank', 'scalar_cast', 'print_'):
        assert getattr(F, name) is getattr(ops, name)
    for name in ('ApplyMomentum', 'SoftmaxCrossEntropyWithLogits', 'Conv2DTranspose',
                 'UnsortedSegmentSum', 'NPUGetFloatStatus'):
        assert getattr(P, name) is getattr(ops, name)


RNG = np.random.default_rng(11)
GRADS = [
    ('UnsortedSegmentSum', lambda x: P.UnsortedSegmentSum()(x, T(SEG_IDS), 3),
     (RNG.standard_normal((3, 2)),)),
    ('UnsortedSegmentMax', lambda x: P.UnsortedSegmentMax()(x, T(SEG_IDS), 2),
     (RNG.standard_normal((3, 2)),)),
    ('UnsortedSegmentProd', lambda x: P.UnsortedSegmentProd()(x, T(SEG_IDS), 2),
     (RNG.standard_normal((3, 2)),)),
    ('Sinc', lambda x: P.Sinc()(x), (RNG.uniform(0.2, 2, 4),)),
    ('Logit', lambda x: P.Logit()(x), (RNG.uniform(0.1, 0.9, 4),)),
    ('MulNoNan', lambda x, y: P.MulNoNan()(x, y), (RNG.standard_normal(4),
                                                   np.array([0.0, 1.5, -2.0, 0.5]))),
    ('Fmax', lambda x, y: P.Fmax()(x, y), (np.array([1.0, -2.0, 3.0]), np.array([2.0, 0.5, 1.0]))),
    ('SplitV', lambda x: P.SplitV((2, -1), 0, 2)(x), (RNG.standard_normal((5, 2)),)),
    ('SquareSumAll', lambda x, y: P.SquareSumAll()(x, y), (RNG.standard_normal(3),
                                                           RNG.standard_normal(3))),
    ('nanmean', lambda x: ops.nanmean(x, 0), (RNG.standard_normal((3, 2)),)),
]


@pytest.mark.parametrize('fn,arrays', [pytest.param(f, a, id=n) for n, f, a in GRADS])
def test_gradients_match_finite_differences(fn, arrays):
    check_grad(fn, *arrays)


ERRORS = [
    (lambda: P.SGD(0.1, 0.0, True), ValueError,
     r"ops\.SGD: dampening must be 0 when nesterov is True, got 0\.1"),
    (lambda: P.SGD(nesterov=1), TypeError, r"ops\.SGD: nesterov must be a bool, got 1"),
    (lambda: P.ApplyMomentum(use_nesterov=1), TypeError,
     r"ops\.ApplyMomentum: use_nesterov must be a bool, got 1"),
    (lambda: P.ApplyMomentum(gradient_scale=1), TypeError,
     r"ops\.ApplyMomentum: gradient_scale must be a float, got 1"),
    (lambda: P.Adam(use_locking=1), TypeError, r"ops\.Adam: use_locking must be a bool, got 1"),
    (lambda: P.ApplyGradientDescent()(np.zeros(3), 0.1, T(GRAD)), TypeError,
     r"ops\.ApplyGradientDescent: var must be a Parameter, got ndarray"),
    (lambda: P.ScalarCast()(2.7, ms.int32), ValueError,
     r"ops\.ScalarCast: the supported types are Int64, Float64 and Bool, got Int32"),
    (lambda: P.RandomChoiceWithMask(0), ValueError,
     r"ops\.RandomChoiceWithMask: count must be an int > 0, got 0"),
    (lambda: P.RandomChoiceWithMask()(T(np.float32([1]))), TypeError,
     r"ops\.RandomChoiceWithMask: input_x must be Bool, got Float32"),
    (lambda: P.Fills()(T(GRAD), 'a'), TypeError, r"ops\.Fills: value must be a number, got 'a'"),
    (lambda: P.Logit(1), TypeError, r"ops\.Logit: eps must be a float, got 1"),
    (lambda: P.SplitV((1, 2), 0, 3), ValueError,
     r"ops\.SplitV: num_split 3 must equal the number of size_splits 2"),
    (lambda: P.SplitV((1, -1, -1), 0, 3), ValueError,
     r"ops\.SplitV: size_splits must be sizes >= 0 with at most one -1"),
    (lambda: P.SplitV((1, 2), 0, 2)(T(np.zeros(4))), ValueError,
     r"ops\.SplitV: size_splits \(1, 2\) do not add up to the size 4 of dimension 0"),
    (lambda: P.InvertPermutation()((0, 2)), ValueError,
     r"ops\.InvertPermutation: input_x must be a permutation of 0\.\.1, got \(0, 2\)"),
    (lambda: P.UnsortedSegmentSum()(T(np.float32([1, 2, 3])), T(np.int32([-1, 0, 5])), 2),
     ValueError, r"ops\.unsorted_segment_sum: segment_ids must be below num_segments 2, got "
                 r"values up to 5"),
    (lambda: P.UnsortedSegmentSum()(T(SEG_X), T(np.float32([0, 1, 0])), 2), TypeError,
     r"ops\.unsorted_segment_sum: segment_ids must be an integer Tensor"),
    (lambda: P.EqualCount()(T(GRAD), T(GRAD[:2])), ValueError,
     r"ops\.EqualCount: x and y must have one shape, got \(3,\) and \(2,\)"),
    (lambda: P.Heaviside()(T(GRAD), T(np.float64([1, 1, 1]))), TypeError,
     r"ops\.heaviside: input and values must have one dtype"),
    (lambda: ops.t(T(np.zeros((1, 2, 3)))), ValueError,
     r"ops\.t: input must have rank <= 2, got shape \(1, 2, 3\)"),
    (lambda: ops.positive(T(np.array([True]))), TypeError,
     r"ops\.positive: input must not be Bool"),
]


test_errors_name_the_primitive_and_argument = error_test(ERRORS)


def test_constructor_arguments_and_repr():
    assert repr(P.SGD()) == 'Prim[SGD]<dampening=0.0, weight_decay=0.0, nesterov=False>'
    assert repr(P.ApplyMomentum()) == \
        'Prim[ApplyMomentum]<use_nesterov=False, use_locking=False, gradient_scale=1.0>'
    r = P.RandomChoiceWithMask()
    assert (r.count, r.seed, r.seed2) == (256, 0, 0)
    assert P.SplitV([1, -1], 0, 2).size_splits == (1, -1)


def test_every_primitive_has_mindspores_attribute_methods():
    # model-zoo Primitive subclasses call them in __init__, on any Primitive class
    p = P.ReLU()
    assert p.add_prim_attr('mode', 1) is p and p.mode == 1
    p.init_prim_io_names(['x'], ['output'])
    assert p.attrs == {'mode': 1, 'input_names': ['x'], 'output_names': ['output']}
    assert repr(p).startswith("Prim[ReLU]<mode=1")
    assert p.del_prim_attr('mode') is p and 'mode' not in p.attrs
    assert p.set_prim_instance_name('relu1').instance_name == 'relu1'


def test_primitive_user_data_is_kept_per_instance():
    # MindSpore 2.10: set_user_data returns None; any value; a missing key is a RuntimeError
    cast = P.Cast()
    t = ms.Tensor(np.ones((1, 2, 3)), ms.float64)
    assert cast.set_user_data('__user_data__', t) is None
    assert cast.get_user_data('__user_data__') is t
    cast.set_user_data('k', None)
    assert cast.get_user_data('k') is None
    with pytest.raises(RuntimeError, match="no user data under the key 'zz'"):
        cast.get_user_data('zz')
    with pytest.raises(RuntimeError, match="key '__user_data__'"):
        P.Cast().get_user_data('__user_data__')
    with pytest.raises(TypeError, match="key must be a str, got int 1"):
        cast.set_user_data(1, 2)
