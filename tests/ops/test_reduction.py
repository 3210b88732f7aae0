"""Reductions against NumPy: every axis/keep_dims combination, gradients and double gradients."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case, normal
from hookgrad.testing.gradcheck import check_double_grad, check_grad
from tests.ops.rows import params, row_tests

SHAPES = [(5,), (3, 4), (2, 3, 4)]

# Every axis spelling per rank: None, () (all axes), ints (negative too), tuples (any order).
AXES = {
    1: [None, (), 0, -1, (0,)],
    2: [None, (), 0, 1, -1, -2, (0, 1), (1, 0), (-1,)],
    3: [None, (), 0, 1, 2, -1, (0, 2), (2, 0), (1, 2), (0, 1, 2), (-3, -1)],
}
# Ops reducing a single axis (or the flattened input when None).
ONE_AXIS = {1: [None, 0, -1], 2: [None, 0, 1, -2], 3: [None, 0, 1, 2, -1]}

# Representative subsets for double backward: all axes, one axis, a tuple of axes; both keeps.
DOUBLE = [((5,), None, False), ((3, 4), 1, False), ((3, 4), -2, True), ((2, 3, 2), (0, 2), False),
          ((2, 3, 2), (2, 1), True), ((2, 3, 2), None, True)]
WITH_INDEX_DOUBLE = [((5,), None, False), ((3, 4), 1, False), ((2, 3, 2), -2, True),
                     ((2, 3, 2), None, True)]
CUMSUM_DOUBLE = [((5,), 0), ((3, 4), -1), ((2, 3, 2), 1)]


def distinct(rng, shape):
    """Values at least 0.2 apart: max/min have no ties, even under finite differences."""
    n = int(np.prod(shape))
    return (rng.permutation(n).reshape(shape) - n / 2) * 0.3 + rng.uniform(-0.05, 0.05, shape)


def spread(rng, shape):
    """``distinct`` times 10: still distinct when cast to an integer dtype."""
    return distinct(rng, shape) * 10


def nonzero(rng, shape):
    return rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)


def small_integers(rng, shape):
    """Integers in [-5, 4], cast to each checked dtype: sums stay exact."""
    return rng.integers(-5, 5, size=shape).astype(float)


# Mostly-true inputs for all() and mostly-false for any(), so both results occur.
def mostly_true(rng, shape):
    return (rng.random(shape) < 0.8).astype(float)


def mostly_false(rng, shape):
    return (rng.random(shape) < 0.2).astype(float)


def np_axis(axis):
    return None if axis == () else axis


def ref(fn, **kw):
    return lambda a, axis, keep: fn(a, axis=np_axis(axis), keepdims=keep, **kw)


def with_index(pick, arg):
    return lambda a, axis, keep: (pick(a, axis=axis, keepdims=keep),
                                  arg(a, axis=axis, keepdims=keep))


def configurations(table, extra=()):
    """(shape, axis, keep) for every shape, axis spelling in ``table`` and keep, then the
    ``extra`` ones not listed yet."""
    listed = [(shape, axis, keep) for shape in SHAPES for axis in table[len(shape)]
              for keep in (False, True)]
    return listed + [c for c in extra if c not in listed]


def _row(op, name, call, reference, domain, shape, axis, keep, **kw):
    return Case(op, lambda x: call(x, axis, keep), ref=lambda a: reference(a, axis, keep),
                name=f"{name}-axis={axis}-keep={keep}", shapes=[(shape,)], domains=(domain,),
                **kw)


def _rows(op, name, call, reference, domain, table, double=(), **kw):
    """One row per configuration of ``table``; second order on the ``double`` ones."""
    return [_row(op, name, call, reference, domain, shape, axis, keep,
                 double=(shape, axis, keep) in double, **kw)
            for shape, axis, keep in configurations(table, double)]


def _reductions(op, name, call, reference, domain):
    return _rows(op, name, call, reference, domain, AXES, DOUBLE, rtol=1e-12, atol=0)


def _cumsum(shape, axis):
    return Case('CumSum', lambda x: ops.cumsum(x, axis), ref=lambda a: np.cumsum(a, axis),
                name=f"cumsum-axis={axis}", shapes=[(shape,)], domains=(small_integers,),
                double=(shape, axis) in CUMSUM_DOUBLE, rtol=0, atol=0)


REDUCTIONS = [
    *_reductions('ReduceSum', 'sum', ops.sum, ref(np.sum), normal),
    *_reductions('ReduceMean', 'mean', ops.mean, ref(np.mean), normal),
    *_reductions('ReduceProd', 'prod', ops.prod, ref(np.prod), nonzero),
    *_reductions('ReduceMax', 'amax', ops.amax, ref(np.max), distinct),
    *_reductions('ReduceMin', 'amin', ops.amin, ref(np.min), distinct),
    *_reductions('Var', 'var', lambda x, ax, k: ops.var(x, ax, 0, k), ref(np.var), normal),
    *_reductions('Var', 'var_ddof1', lambda x, ax, k: ops.var(x, ax, 1, k), ref(np.var, ddof=1),
                 normal),
    *_reductions('Std', 'std', lambda x, ax, k: ops.std(x, ax, 0, k), ref(np.std), normal),
    *_reductions('Std', 'std_ddof1', lambda x, ax, k: ops.std(x, ax, 1, k), ref(np.std, ddof=1),
                 normal),
]
# values and indices: the values through ExtremeAtIndex, the indices through Argmax/Argmin
WITH_INDEX = [
    *_rows(('ExtremeAtIndex', 'Argmax'), 'max', ops.max, with_index(np.max, np.argmax), spread,
           ONE_AXIS, WITH_INDEX_DOUBLE, rtol=0, atol=0),
    *_rows(('ExtremeAtIndex', 'Argmin'), 'min', ops.min, with_index(np.min, np.argmin), spread,
           ONE_AXIS, WITH_INDEX_DOUBLE, rtol=0, atol=0),
]
ARG = [
    *_rows('Argmax', 'argmax', ops.argmax, ref(np.argmax), distinct, ONE_AXIS, grad=False),
    *_rows('Argmin', 'argmin', ops.argmin, ref(np.argmin), distinct, ONE_AXIS, grad=False),
]
ALL_ANY = [
    *_rows('ReduceAll', 'all', ops.all, ref(np.all), mostly_true, AXES, grad=False),
    *_rows('ReduceAny', 'any', ops.any, ref(np.any), mostly_false, AXES, grad=False),
]
CUMSUM_AXES = [(s, a) for s in SHAPES for a in range(-len(s), len(s))]
CUMSUM = [_cumsum(shape, axis)
          for shape, axis in CUMSUM_AXES + [c for c in CUMSUM_DOUBLE if c not in CUMSUM_AXES]]


def integers(rng, shape):
    """Int32 values in [-5, 4]: an integer mean keeps the dtype, truncated toward zero."""
    return rng.integers(-5, 5, size=shape).astype(np.int32)


def truncated_mean(a, axis, keep):
    return np.trunc(np.mean(a, axis=np_axis(axis), keepdims=keep)).astype(a.dtype)


INTEGER_MEAN = _rows('IntegerMean', 'integer_mean', ops.mean, truncated_mean, integers, AXES,
                     grad=False, rtol=0, atol=0)
CASES = REDUCTIONS + WITH_INDEX + ARG + ALL_ANY + CUMSUM + INTEGER_MEAN


globals().update(row_tests(CASES))


# ----------------------------------------------------------------------------- forward
@pytest.mark.parametrize('case,shapes', params(CASES))
def test_results_are_arrays_not_numpy_scalars(case, shapes):
    for dtype in (np.float32, np.float64):
        y = case.fn(*[ms.Tensor(a) for a in case.arrays(shapes, dtype)])
        assert all(type(t._data) is np.ndarray for t in (y if isinstance(y, tuple) else (y,)))


@pytest.mark.parametrize('case,shapes', params(WITH_INDEX))
def test_max_min_with_indices_forward(case, shapes):
    for dtype in (np.float32, np.float64, np.int32):
        a, = case.arrays(shapes, dtype, seed=1)
        values, indices = case.fn(ms.Tensor(a))
        want_values, want_indices = case.ref(a)
        np.testing.assert_array_equal(values.asnumpy(), want_values)
        np.testing.assert_array_equal(indices.asnumpy(), want_indices)
        assert values._data.dtype == dtype and type(values._data) is np.ndarray
        assert indices.dtype == ms.int64


@pytest.mark.parametrize('case,shapes', params(ARG))
def test_argmax_argmin(case, shapes):
    a, = case.arrays(shapes, seed=2)
    x = ms.Tensor(a, requires_grad=True)
    y = case.fn(x)
    want = ms.int32 if case.label.startswith('argmin') else ms.int64     # MindSpore's dtypes
    assert y.dtype == want and not y.requires_grad and y.grad_fn is None
    np.testing.assert_array_equal(y.asnumpy(), case.ref(a))


@pytest.mark.parametrize('case,shapes', params(ALL_ANY))
def test_all_any(case, shapes):
    for dtype in (np.bool_, np.float32, np.int64):
        a, = case.arrays(shapes, dtype, seed=3)
        y = case.fn(ms.Tensor(a))
        assert y.dtype == ms.bool_ and type(y._data) is np.ndarray
        np.testing.assert_array_equal(y.asnumpy(), case.ref(a))


@pytest.mark.parametrize('case,shapes', params(CUMSUM))
@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.int32, np.int64])
def test_cumsum_forward(case, shapes, dtype):
    a, = case.arrays(shapes, dtype, seed=4)
    y = case.fn(ms.Tensor(a))
    np.testing.assert_array_equal(y.asnumpy(), case.ref(a))
    assert y._data.dtype == dtype


# ----------------------------------------------------------------------------- 0-d inputs
ZERO_D = [
    ('sum', ops.sum, 2.5), ('mean', ops.mean, 2.5), ('prod', ops.prod, 2.5),
    ('amax', ops.amax, 2.5), ('amin', ops.amin, 2.5), ('var', ops.var, 0.0),
    ('all', ops.all, True), ('any', ops.any, True),
    ('max', lambda x, *a: ops.max(x, *a)[0], 2.5), ('min', lambda x, *a: ops.min(x, *a)[0], 2.5),
    ('argmax', ops.argmax, 0), ('argmin', ops.argmin, 0),
]


@pytest.mark.parametrize('name,fn,want', ZERO_D, ids=[z[0] for z in ZERO_D])
@pytest.mark.parametrize('axis', [None, 0, -1])
def test_zero_d_input(name, fn, want, axis):
    y = fn(ms.Tensor(2.5), axis)
    assert y.shape == () and type(y._data) is np.ndarray
    assert y.item() == want


def test_zero_d_gradients():
    for fn in (ops.sum, ops.mean, ops.prod, ops.amax, lambda x: ops.max(x)[0],
               lambda x: ops.cumsum(x, 0)):
        check_grad(fn, np.array(1.5))
    check_grad(lambda x: ops.std(x + ms.Tensor([0.0, 1.0])), np.array(1.5))


# ----------------------------------------------------------------------------- special cases
def test_full_reduction_is_a_0d_array_not_a_numpy_scalar():
    x = ms.Tensor(np.ones((2, 3), np.float32), requires_grad=True)
    for y in (ops.sum(x), ops.mean(x), ops.prod(x), ops.amax(x), ops.var(x), ops.std(x),
              ops.max(x)[0], ops.max(x)[1], ops.argmax(x), ops.all(x), x.sum(), x.mean()):
        assert type(y._data) is np.ndarray and y.shape == ()


def test_integer_and_bool_sums_are_int64():
    for dtype in (np.int32, np.int64, np.uint8, np.bool_):
        a = np.array([[1, 1, 0], [1, 1, 1]], dtype=dtype)
        y = ops.sum(ms.Tensor(a))
        assert y.dtype == ms.int64 and y.item() == 5
        y = ops.sum(ms.Tensor(a), 1, True)
        assert y.dtype == ms.int64
        np.testing.assert_array_equal(y.asnumpy(), [[2], [3]])


def test_integer_prod_is_int64_and_extremes_keep_the_dtype():
    for dtype in (np.int32, np.uint8, np.bool_):
        a = np.array([[1, 2, 3], [1, 0, 2]], dtype=dtype)
        y = ops.prod(ms.Tensor(a), 1)
        assert y.dtype == ms.int64
        np.testing.assert_array_equal(y.asnumpy(), np.prod(a, 1))
        for fn, ref_fn in ((ops.amax, np.max), (ops.amin, np.min)):
            y = fn(ms.Tensor(a), 0)
            assert y._data.dtype == dtype
            np.testing.assert_array_equal(y.asnumpy(), ref_fn(a, 0))


def test_float16_mean_and_sum():
    a = np.random.default_rng(14).standard_normal((4, 5)).astype(np.float16)
    for fn, ref_fn in ((ops.mean, np.mean), (ops.sum, np.sum)):
        y = fn(ms.Tensor(a), 1)
        assert y.dtype == ms.float16
        np.testing.assert_allclose(y.asnumpy(), ref_fn(a, 1), rtol=1e-3)


def test_sum_dtype_converts_first():
    y = ops.sum(ms.Tensor([1, 2, 3]), dtype=ms.float32)
    assert y.dtype == ms.float32 and y.item() == 6.0
    y = ops.sum(ms.Tensor(np.array([1, 2], np.int64)), dtype=ms.int32)
    assert y.dtype == ms.int32
    x = ms.Tensor([1.0, 2.0], ms.float32, requires_grad=True)
    y = ops.sum(x, dtype=ms.float64)
    assert y.dtype == ms.float64
    y.backward()
    assert x.grad.dtype == ms.float32
    np.testing.assert_array_equal(x.grad.asnumpy(), [1.0, 1.0])


def test_integer_var_std_give_float32():
    x = ms.Tensor([[1, 2], [3, 5]])
    for fn, ref_fn in ((ops.var, np.var), (ops.std, np.std)):
        y = fn(x, 0)
        assert y.dtype == ms.float32
        np.testing.assert_allclose(y.asnumpy(), ref_fn(x.asnumpy(), axis=0), rtol=1e-6)


def test_integer_mean_keeps_the_dtype_as_mindspore():
    """MindSpore 2.10: the sum in the input's dtype (uint8 wraps), truncated toward zero."""
    y = ops.mean(ms.Tensor(np.array([[1, 2], [3, -6]], np.int32)), 0)
    assert y.dtype == ms.int32 and y.tolist() == [2, -2]
    y = ops.mean(ms.Tensor(np.array([3, 0, 7, 1, 255, 5], np.uint8)))
    assert y.dtype == ms.uint8 and y.item() == 2          # (271 % 256) // 6


def test_max_gradient_goes_to_the_index_on_ties():
    x = ms.Tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], requires_grad=True)
    values, indices = ops.max(x, 1)
    np.testing.assert_array_equal(indices.asnumpy(), [1, 0])
    assert not indices.requires_grad and indices.grad_fn is None
    ops.sum(values * ms.Tensor([1.0, 10.0])).backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [[0, 1, 0], [10, 0, 0]])


def test_min_gradient_goes_to_the_index_on_ties_full_reduction():
    x = ms.Tensor([[1.0, 0.0], [0.0, 4.0]], requires_grad=True)
    values, index = ops.min(x)
    assert index.item() == 1
    values.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [[0, 1], [0, 0]])


@pytest.mark.parametrize('fn', [ops.amax, ops.reduce_max], ids=['amax', 'reduce_max'])
def test_amax_splits_ties_evenly(fn):
    x = ms.Tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]], requires_grad=True)
    ops.sum(fn(x, 1)).backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    y = ms.Tensor([5.0, 1.0, 5.0], requires_grad=True)
    fn(y).backward()
    np.testing.assert_allclose(y.grad.asnumpy(), [0.5, 0, 0.5])


def test_amin_splits_ties_evenly():
    x = ms.Tensor([[0.0, 0.0, 1.0]], requires_grad=True)
    ops.amin(x, -1, True).backward(ms.Tensor([[4.0]]))
    np.testing.assert_allclose(x.grad.asnumpy(), [[2.0, 2.0, 0.0]])


PROD_WITH_ZEROS = [
    np.array([1.5, 0.0, -2.0, 0.5]),                        # one zero
    np.array([[0.0, 2.0, 3.0], [1.5, 0.0, 0.0], [1.0, 2.0, -1.0]]),   # 1, 2 and no zeros per row
    np.array([[0.0, 0.0], [0.0, 0.0]]),
]


@pytest.mark.parametrize('a', PROD_WITH_ZEROS, ids=['1d', '2d', 'all-zero'])
@pytest.mark.parametrize('axis', [None, -1, 0])
@pytest.mark.parametrize('keep', [False, True])
def test_prod_grad_with_zeros(a, axis, keep):
    if axis == 0 and a.ndim == 1:
        axis = None
    check_grad(lambda x: ops.prod(x, axis, keep), a)


@pytest.mark.parametrize('a,axis', [(np.array([1.5, 0.0, -2.0, 0.5]), None),
                                    (np.array([[0.0, 2.0, 3.0], [1.5, -1.0, 0.0],
                                               [1.0, 2.0, -1.0]]), 1),
                                    (np.array([[0.0, 2.0], [1.5, 0.5]]), 0)])
def test_prod_double_grad_with_one_zero_per_slice(a, axis):
    check_double_grad(lambda x: ops.prod(x, axis), a)
    check_double_grad(lambda x: ops.prod(x, axis, True) * 2.0, a, seed=3)


@pytest.mark.parametrize('a,axis', [(np.array([0.0, 0.0, 3.0]), None),
                                    (np.array([[0.0, 2.0, 0.0], [0.0, 0.0, 0.0],
                                               [1.0, 0.0, -1.0]]), 1),
                                    (np.array([[[0.0, 2.0], [0.0, 1.5]],
                                               [[0.5, 0.0], [1.0, 0.0]]]), (0, 2))])
def test_prod_double_grad_with_several_zeros_per_slice(a, axis):
    check_double_grad(lambda x: ops.prod(x, axis), a)
    check_double_grad(lambda x: ops.prod(x, axis, True) * 2.0, a, seed=3)


def test_prod_second_derivative_with_two_zeros():
    # d/dx sum(d prod(x) / dx) at [0, 0, 3] (PyTorch and finite differences agree)
    x = ms.Tensor([0.0, 0.0, 3.0], ms.float64)
    first = ms.grad(lambda t: ops.prod(t))
    second = ms.grad(lambda t: ops.sum(first(t)))(x)
    np.testing.assert_allclose(second.asnumpy(), [3.0, 3.0, 0.0])


def test_prod_values_with_zeros():
    a = PROD_WITH_ZEROS[1]
    x = ms.Tensor(a, requires_grad=True)
    np.testing.assert_array_equal(ops.prod(x, 1).asnumpy(), np.prod(a, 1))
    ops.sum(ops.prod(x, 1)).backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [[6, 0, 0], [0, 0, 0], [-2, -1, 2]])


def test_max_min_initial_and_where():
    a = np.array([[1.0, 5.0, 2.0], [-1.0, -3.0, 0.5]])
    x = ms.Tensor(a, requires_grad=True)
    values, indices = ops.max(x, 1, initial=1.5)
    np.testing.assert_array_equal(values.asnumpy(), [5.0, 1.5])
    np.testing.assert_array_equal(indices.asnumpy(), [1, 0])
    ops.sum(values).backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [[0, 1, 0], [0, 0, 0]])
    mask = ms.Tensor([[True, False, True], [True, True, True]])
    values, indices = ops.max(ms.Tensor(a), 1, initial=-10.0, where=mask)
    np.testing.assert_array_equal(values.asnumpy(), [2.0, 0.5])
    np.testing.assert_array_equal(indices.asnumpy(), [2, 2])
    values, _ = ops.min(ms.Tensor(a), None, initial=0.0)
    assert values.item() == -3.0
    y = ops.amax(ms.Tensor(a), 1, initial=1.5)
    np.testing.assert_array_equal(y.asnumpy(), [5.0, 1.5])
    y = ops.amin(ms.Tensor(a), 0, where=mask, initial=100.0)
    np.testing.assert_array_equal(y.asnumpy(), np.min(a, 0, where=mask.asnumpy(), initial=100.0))


def test_reduce_aliases_match_the_originals():
    a = distinct(np.random.default_rng(11), (2, 3, 4))
    x = ms.Tensor(a)
    pairs = [(ops.reduce_sum, np.sum), (ops.reduce_mean, np.mean), (ops.reduce_max, np.max),
             (ops.reduce_min, np.min), (ops.reduce_prod, np.prod)]
    for fn, ref_fn in pairs:
        np.testing.assert_allclose(fn(x).asnumpy(), ref_fn(a), rtol=1e-12)
        np.testing.assert_allclose(fn(x, ()).asnumpy(), ref_fn(a), rtol=1e-12)
        np.testing.assert_allclose(fn(x, None, True).asnumpy(), ref_fn(a, keepdims=True),
                                   rtol=1e-12)
        np.testing.assert_allclose(fn(x, (0, 2), True).asnumpy(),
                                   ref_fn(a, axis=(0, 2), keepdims=True), rtol=1e-12)
        np.testing.assert_allclose(fn(x, -1).asnumpy(), ref_fn(a, axis=-1), rtol=1e-12)


def test_tensor_methods_call_the_reductions():
    a = distinct(np.random.default_rng(12), (3, 4))
    x = ms.Tensor(a)
    np.testing.assert_allclose(x.sum(1, keepdims=True).asnumpy(), a.sum(1, keepdims=True))
    np.testing.assert_allclose(x.mean(0).asnumpy(), a.mean(0))
    np.testing.assert_allclose(x.prod(-1).asnumpy(), a.prod(-1))
    np.testing.assert_allclose(x.max(axis=1).asnumpy(), a.max(1))
    values, index = x.max(1)        # MindSpore's max(dim): a (values, indices) pair
    np.testing.assert_allclose(values.asnumpy(), a.max(1))
    np.testing.assert_array_equal(index.asnumpy(), a.argmax(1))
    np.testing.assert_array_equal(x.max(1, return_indices=True)[1].asnumpy(), a.argmax(1))
    np.testing.assert_allclose(x.min().asnumpy(), a.min())
    np.testing.assert_array_equal(x.argmin(0).asnumpy(), a.argmin(0))
    np.testing.assert_allclose(x.cumsum(1).asnumpy(), a.cumsum(1))
    np.testing.assert_allclose(x.var(0, 1).asnumpy(), a.var(0, ddof=1))
    np.testing.assert_allclose(x.std(None, 0, True).asnumpy(), a.std(keepdims=True))
    assert x.all().item() and not (x > 100).any().item()


def test_no_grad_gives_the_same_values():
    a = nonzero(np.random.default_rng(13), (3, 4))
    x = ms.Tensor(a, requires_grad=True)
    for fn in (ops.prod, ops.amax, ops.var, lambda t, ax: ops.max(t, ax)[0]):
        with ms.no_grad():
            plain = fn(x, 1)
        recorded = fn(x, 1)
        assert not plain.requires_grad and recorded.requires_grad
        np.testing.assert_array_equal(plain.asnumpy(), recorded.asnumpy())


def test_cumsum_dtype_and_zero_d():
    y = ops.cumsum(ms.Tensor([1, 2, 3]), 0, dtype=ms.float32)
    assert y.dtype == ms.float32
    np.testing.assert_array_equal(y.asnumpy(), [1.0, 3.0, 6.0])
    y = ops.cumsum(ms.Tensor([True, False, True]), 0)
    assert y.dtype == ms.int64
    np.testing.assert_array_equal(y.asnumpy(), [1, 1, 2])
    y = ops.cumsum(ms.Tensor(4.0), 0)
    assert y.shape == () and y.item() == 4.0


def test_var_ddof_bool_means_unbiased():
    a = np.array([1.0, 2.0, 4.0])
    np.testing.assert_allclose(ops.var(ms.Tensor(a), ddof=True).asnumpy(), np.var(a, ddof=1))
    np.testing.assert_allclose(ops.std(ms.Tensor(a), ddof=False).asnumpy(), np.std(a))


# ----------------------------------------------------------------------------- errors
ALL_AXES_FNS = [('sum', ops.sum), ('mean', ops.mean), ('prod', ops.prod), ('amax', ops.amax),
                ('amin', ops.amin), ('var', ops.var), ('std', ops.std), ('all', ops.all),
                ('any', ops.any), ('sum', ops.reduce_sum), ('amax', ops.reduce_max)]
ONE_AXIS_FNS = [('max', ops.max), ('min', ops.min), ('argmax', ops.argmax),
                ('argmin', ops.argmin), ('cumsum', ops.cumsum)]


@pytest.mark.parametrize('name,fn', ALL_AXES_FNS + ONE_AXIS_FNS,
                         ids=[f[1].__name__ for f in ALL_AXES_FNS + ONE_AXIS_FNS])
@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range(name, fn, axis):
    x = ms.Tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match=rf"ops\.{name}: axis {axis} is out of range for a "
                                         rf"tensor of rank 2"):
        fn(x, axis)


@pytest.mark.parametrize('name,fn', ALL_AXES_FNS, ids=[f[1].__name__ for f in ALL_AXES_FNS])
def test_axis_out_of_range_in_a_tuple_and_repeated(name, fn):
    x = ms.Tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match=rf"ops\.{name}: axis 5 is out of range for a tensor of "
                                         rf"rank 2"):
        fn(x, (0, 5))
    with pytest.raises(ValueError, match=rf"ops\.{name}: axis \(1, -1\) names an axis more "
                                         rf"than once"):
        fn(x, (1, -1))
    with pytest.raises(TypeError, match=rf"ops\.{name}: axis must be an int or a tuple of ints, "
                                        rf"got 0\.5"):
        fn(x, 0.5)


def test_zero_d_axis_out_of_range():
    with pytest.raises(ValueError, match=r"ops\.sum: axis 1 is out of range for a tensor of "
                                         r"rank 0"):
        ops.sum(ms.Tensor(1.0), 1)


@pytest.mark.parametrize('name,fn', ONE_AXIS_FNS[:4], ids=[f[0] for f in ONE_AXIS_FNS[:4]])
def test_single_axis_ops_reject_tuples(name, fn):
    with pytest.raises(TypeError, match=rf"ops\.{name}: axis must be an int or None, got \(0, 1\)"):
        fn(ms.Tensor(np.ones((2, 3))), (0, 1))


def test_cumsum_needs_an_int_axis():
    with pytest.raises(TypeError, match=r"ops\.cumsum: axis must be an int, got None"):
        ops.cumsum(ms.Tensor([1.0]), None)


@pytest.mark.parametrize('name,fn', [('max', ops.max), ('amin', ops.amin), ('argmax', ops.argmax)])
def test_empty_reduction(name, fn):
    with pytest.raises(ValueError, match=rf"ops\.{name}: cannot reduce over a zero-size axis of "
                                         rf"a tensor of shape \(0, 3\)"):
        fn(ms.Tensor(np.ones((0, 3))), 0)


def test_max_initial_and_where_errors():
    x = ms.Tensor([1.0, 2.0])
    with pytest.raises(ValueError, match=r"ops\.max: a where mask needs initial"):
        ops.max(x, where=ms.Tensor([True, False]))
    with pytest.raises(TypeError, match=r"ops\.amin: initial must be a number, got str"):
        ops.amin(x, initial='0')


def test_ddof_must_be_an_int():
    with pytest.raises(TypeError, match=r"ops\.var: ddof must be an int, got 0\.5"):
        ops.var(ms.Tensor([1.0, 2.0]), ddof=0.5)


def test_non_tensor_input():
    with pytest.raises(TypeError, match=r"input must be a Tensor, got str"):
        ops.sum('abc')
