"""MindSpore's lookup, diagonal, bound, LRN, sequence, index-grid, in-place scatter and
weight-decay optimizer Primitives: values from MindSpore 2.10 recorded as literals or from
NumPy formulas, gradients and constructor errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.kernels import backend
from hookgrad.ops import operations as P
from hookgrad.testing import check_grad
from hookgrad.testing.cases import device_named
from tests.ops.rows import error_test

TABLE = np.arange(8, dtype=np.float32).reshape(4, 2)
SORTED = np.float32([[1, 2, 3], [2, 4, 6]])
VALUES = np.float32([[2, 3], [5, 6]])
LRN_X = (np.arange(20).reshape(2, 5, 2, 1) * 0.1).astype(np.float32)


def T(a):
    return ms.Tensor(np.asarray(a))


# name, primitive factory, inputs, expected outputs: all from MindSpore 2.10 (CPU)
MINDSPORE = [
    ('EmbeddingLookup', lambda: P.EmbeddingLookup(), (TABLE, np.int32([[1, 5], [3, 0]]), 1),
     [[[0, 1], [0, 0]], [[4, 5], [0, 0]]]),
    ('SparseGatherV2', lambda: P.SparseGatherV2(), (TABLE, np.int32([3, 0]), 0),
     [[6, 7], [0, 1]]),
    ('DiagPart', lambda: P.DiagPart(), (np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2),),
     [[0, 5], [10, 15]]),
    ('Cross', lambda: P.Cross(), (np.float32([[1, 2, 3], [4, 5, 6]]),
                                  np.float32([[0, 1, 0], [1, 0, 1]])),
     [[-3, 0, 1], [5, 2, -5]]),
    ('IndexFill', lambda: P.IndexFill(), (np.float32([[1, 2, 3], [4, 5, 6]]), 1,
                                          np.int32([0, 2]), np.float32(9)),
     [[9, 2, 9], [9, 5, 9]]),
    ('UpperBound', lambda: P.UpperBound(), (SORTED, VALUES), [[2, 3], [2, 3]]),
    ('LowerBound', lambda: P.LowerBound(), (SORTED, VALUES), [[1, 2], [2, 2]]),
    ('InTopK', lambda: P.InTopK(2), (np.float32([[1, 3, 2], [5, 4, 6]]), np.int32([2, 0])),
     [True, True]),
    ('LRN', lambda: P.LRN(1, 1.0, 0.5, 0.75), (LRN_X,),
     [[[[0.0], [0.09640688]], [[0.18620250], [0.26582319]], [[0.33239350], [0.38539195]],
       [[0.42575371], [0.45519692]], [[0.59023035], [0.61820078]]],
      [[[0.54983866], [0.56171775]], [[0.50155526], [0.50001878]], [[0.49683902], [0.49248523]],
       [[0.48730975], [0.48157629]], [[0.64859563], [0.64189190]]]]),
    ('LRN-default', lambda: P.LRN(), (LRN_X,),
     [[[[0.0], [0.06142952]], [[0.13483997], [0.18428856]], [[0.26967993], [0.30714759]],
       [[0.40451992], [0.43000662]], [[0.53935987], [0.55286562]]],
      [[[0.29880714], [0.30927685]], [[0.35856858], [0.36550900]], [[0.41832998], [0.42174116]],
       [[0.47809145], [0.47797331]], [[0.53785282], [0.53420544]]]]),
    ('UniqueConsecutive', lambda: P.UniqueConsecutive(True, True),
     (np.int32([1, 1, 2, 2, 3, 1, 1]),), ([1, 2, 3, 1], [0, 0, 1, 1, 2, 3, 3], [2, 2, 1, 2])),
    ('UniqueConsecutive-default', lambda: P.UniqueConsecutive(),
     (np.int32([1, 1, 2, 2, 3, 1, 1]),), ([1, 2, 3, 1], 0, 0)),
    ('Padding', lambda: P.Padding(4), (np.float32([[8], [10]]),), [[8, 0, 0, 0], [10, 0, 0, 0]]),
    ('ReverseSequence', lambda: P.ReverseSequence(1),
     (np.arange(12, dtype=np.float32).reshape(3, 4), np.int32([1, 2, 4])),
     [[0, 1, 2, 3], [5, 4, 6, 7], [11, 10, 9, 8]]),
    ('ReverseSequence-batch1', lambda: P.ReverseSequence(0, 1),
     (np.arange(12, dtype=np.float32).reshape(4, 3), np.int32([1, 2, 4])),
     [[0, 4, 11], [3, 1, 8], [6, 7, 5], [9, 10, 2]]),
    ('TrilIndices', lambda: P.TrilIndices(3, 3, 0), (), [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]),
    ('TriuIndices', lambda: P.TriuIndices(3, 4, 1), (), [[0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3]]),
    ('LogSpace', lambda: P.LogSpace(5, 2), (np.float32(1), np.float32(3)),
     [2.0, 2.82842708, 4.0, 5.65685415, 8.0]),
    ('Ger', lambda: P.Ger(), (np.float32([1, 2]), np.float32([3, 4, 5])),
     [[3, 4, 5], [6, 8, 10]]),
    ('MaxPoolWithArgmaxV2', lambda: P.MaxPoolWithArgmaxV2(2, 2),
     (np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4),),
     ([[[[6, 8], [14, 16]]]], [[[[5, 7], [13, 15]]]])),
]


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
@pytest.mark.parametrize('make,args,want', [pytest.param(m, a, w, id=n)
                                             for n, m, a, w in MINDSPORE])
def test_primitive_values_match_mindspore(make, args, want, device):
    with backend.default_device(device_named(device)):
        got = make()(*[T(a) if isinstance(a, (np.ndarray, np.generic)) else a for a in args])
    got = list(got) if isinstance(got, tuple) else [got]
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), np.asarray(w, g.asnumpy().dtype), rtol=1e-5)


def test_output_dtypes_follow_mindspore():
    assert P.UpperBound()(T(SORTED), T(VALUES)).dtype == ms.int32
    assert P.LowerBound(ms.int64)(T(SORTED), T(VALUES)).dtype == ms.int64
    assert P.TrilIndices(2, 2)().dtype == ms.int32
    assert P.MaxPoolWithArgmaxV2(2)(T(np.zeros((1, 1, 2, 2), np.float32)))[1].dtype == ms.int64
    assert P.InTopK(1)(T(np.float32([[1, 2]])), T(np.int32([1]))).dtype == ms.bool_


def test_in_place_scatters_match_mindspore():
    x = ms.Parameter(T(np.float32([1, 2, 3, 4])), name='x')
    out = P.ScatterNdMax()(x, T(np.int32([[0], [2], [0]])), T(np.float32([5, 1, 7])))
    assert out is x
    np.testing.assert_array_equal(x.asnumpy(), [7, 2, 3, 4])      # MindSpore 2.10
    x = ms.Parameter(T(np.float32([1, 2, 3, 4])), name='x')
    P.ScatterNonAliasingAdd()(x, T(np.int32([[0], [2], [0]])), T(np.float32([5, 1, 7])))
    np.testing.assert_array_equal(x.asnumpy(), [13, 2, 4, 4])
    x = ms.Parameter(T(np.float32([1, 2, 3, 4])), name='x')
    P.ScatterNdMul()(x, T(np.int32([[1], [3]])), T(np.float32([3, 0.5])))
    np.testing.assert_array_equal(x.asnumpy(), [1, 6, 3, 2])


def test_adam_weight_decay_and_adagrad_v2_match_mindspore():
    def param(values, name):
        return ms.Parameter(T(np.float32(values)), name=name)
    g = T(np.float32([0.5, -1.0, 2.0]))
    w, m, v = param([1, 2, -1], 'w'), param([0.1, 0.2, 0.3], 'm'), param([0.5] * 3, 'v')
    out = P.AdamWeightDecay()(w, m, v, 0.001, 0.9, 0.999, 1e-8, 0.01, g)
    assert out[0] is w
    np.testing.assert_allclose(w.asnumpy(), [0.999792, 1.999867, -1.0006523], rtol=1e-6)
    np.testing.assert_allclose(m.asnumpy(), [0.14, 0.08, 0.47], rtol=1e-5)
    np.testing.assert_allclose(v.asnumpy(), [0.49975, 0.5005, 0.5035], rtol=1e-5)
    w, a = param([1, 2, -1], 'w'), param([0.1, 0.2, 0.3], 'a')
    P.ApplyAdagradV2(1e-6)(w, a, 0.01, g)
    np.testing.assert_allclose(w.asnumpy(), [0.99154848, 2.00912881, -1.00964487], rtol=1e-6)
    np.testing.assert_allclose(a.asnumpy(), [0.35, 1.2, 4.3], rtol=1e-6)


def test_lrn_matches_its_numpy_formula():
    x = np.random.default_rng(2).standard_normal((2, 6, 3, 2))
    got = P.LRN(2, 2.0, 1e-2, 0.75)(T(x)).asnumpy()
    sq = np.pad(x ** 2, ((0, 0), (2, 2), (0, 0), (0, 0)))
    total = sum(sq[:, i:i + 6] for i in range(5))
    np.testing.assert_allclose(got, x / (2.0 + 1e-2 * total) ** 0.75, rtol=1e-12)


def test_assert_raises_on_a_false_condition():
    P.Assert()(T(np.array([True, True])), [T(np.float32([1]))])
    with pytest.raises(ValueError, match=r"ops\.Assert: the condition is False; input_data: "
                                         r"\[\[1\.0, 2\.0, 3\.0\]\]"):
        P.Assert()(T(np.array([True, False])), [T(np.float32([1, 2, 3, 4]))])


RNG = np.random.default_rng(9)
GRADS = [
    ('EmbeddingLookup', lambda t: P.EmbeddingLookup()(t, T(np.int32([[2, 9], [1, 2]])), 1),
     (RNG.standard_normal((4, 3)),)),
    ('DiagPart', lambda x: P.DiagPart()(x), (RNG.standard_normal((2, 3, 2, 3)),)),
    ('Cross', lambda a, b: P.Cross(1)(a, b), (RNG.standard_normal((2, 3)),
                                              RNG.standard_normal((2, 3)))),
    ('LRN', lambda x: P.LRN(1, 1.0, 0.5, 0.75)(x), (RNG.standard_normal((1, 4, 2, 2)),)),
    ('ReverseSequence', lambda x: P.ReverseSequence(0, 1)(x, T(np.int32([1, 3, 2]))),
     (RNG.standard_normal((4, 3, 2)),)),
    ('Padding', lambda x: P.Padding(3)(x), (RNG.standard_normal((2, 1)),)),
    ('Ger', lambda a, b: P.Ger()(a, b), (RNG.standard_normal(2), RNG.standard_normal(3))),
]


@pytest.mark.parametrize('fn,arrays', [pytest.param(f, a, id=n) for n, f, a in GRADS])
def test_gradients_match_finite_differences(fn, arrays):
    check_grad(fn, *arrays)


ERRORS = [
    (lambda: P.DiagPart()(T(np.zeros((2, 3)))), ValueError,
     r"ops\.DiagPart: input_x must have shape \(D1\.\.Dk, D1\.\.Dk\), got \(2, 3\)"),
    (lambda: P.Cross()(T(np.zeros((2, 2))), T(np.zeros((2, 2)))), ValueError,
     r"ops\.Cross: no dimension of size 3 in shape \(2, 2\)"),
    (lambda: P.Cross(1.0), TypeError, r"ops\.Cross: dim must be an int, got 1\.0"),
    (lambda: P.UpperBound(ms.float32), TypeError,
     r"ops\.UpperBound: out_type must be Int32 or Int64, got Float32"),
    (lambda: P.LowerBound()(T(SORTED), T(VALUES[:1])), ValueError,
     r"ops\.LowerBound: sorted_x and values must be 2-d with one number of rows"),
    (lambda: P.InTopK(1.5), TypeError, r"ops\.InTopK: k must be an int, got 1\.5"),
    (lambda: P.LRN(norm_region='WITHIN'), ValueError,
     r"ops\.LRN: norm_region must be 'ACROSS_CHANNELS', got 'WITHIN'"),
    (lambda: P.LRN(bias=1), TypeError, r"ops\.LRN: bias must be a float, got 1"),
    (lambda: P.Padding(0), ValueError, r"ops\.Padding: pad_dim_size must be > 0, got 0"),
    (lambda: P.Padding()(T(np.zeros((2, 2)))), ValueError,
     r"ops\.Padding: the last dimension of x must be 1, got shape \(2, 2\)"),
    (lambda: P.ReverseSequence(1)(T(np.zeros((2, 3))), T(np.int32([1, 4]))), RuntimeError,
     r"ops\.reverse_sequence: seq_lengths\[1\] is 4, outside \[0, 3\]"),
    (lambda: P.TrilIndices(-1, 2), ValueError,
     r"ops\.TrilIndices: row and col must be >= 0, got -1 and 2"),
    (lambda: P.MaxPoolWithArgmaxV2(2, argmax_type=ms.float32), TypeError,
     r"ops\.MaxPoolWithArgmaxV2: argmax_type must be Int32 or Int64, got Float32"),
    (lambda: P.ApplyAdagradV2(1), TypeError,
     r"ops\.ApplyAdagradV2: epsilon must be a float, got 1"),
    (lambda: P.AdamWeightDecay(use_locking=None), TypeError,
     r"ops\.AdamWeightDecay: use_locking must be a bool, got None"),
    (lambda: P.UniqueConsecutive(return_counts=1), TypeError,
     r"ops\.UniqueConsecutive: return_counts must be a bool, got 1"),
]


test_errors_name_the_primitive_and_argument = error_test(ERRORS)


def test_constructor_arguments_and_repr():
    assert repr(P.Cross()) == 'Prim[Cross]<dim=-65530>'
    lrn = P.LRN()
    assert (lrn.depth_radius, lrn.bias, lrn.alpha, lrn.beta) == (5, 1.0, 1.0, 0.5)
    mp = P.MaxPoolWithArgmaxV2(3)
    assert (mp.kernel_size, mp.strides, mp.pads, mp.dilation) == ((3, 3), (3, 3), (0, 0),
                                                                   (1, 1))
    assert P.SparseGatherV2.__mro__[1] is P.GatherV2
