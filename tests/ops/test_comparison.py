"""Comparisons, maximum/minimum, clamp, logical ops and NaN/Inf tests against NumPy."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.autograd.function import OPS
from hookgrad.ops import comparison
from hookgrad.testing.cases import Case
from tests.ops.rows import params, row_tests

BINARY_SHAPES = [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((4,), (2, 3, 4)), ((2, 3, 4), (3, 1)),
                 ((), (2, 3)), ((2, 3), ())]
UNARY_SHAPES = [((5,),), ((3, 4),), ((),)]


def grid(rng, shape, offset=0.0):
    """Values on a 0.5-spaced grid plus ``offset`` and small noise: two grids with offsets
    0 and 0.25 never tie, and never come within 0.15 of each other (no kinks)."""
    return (rng.integers(-4, 5, size=shape) * 0.5 + offset
            + rng.uniform(-0.05, 0.05, size=shape))


def offset_grid(rng, shape):
    return grid(rng, shape, 0.25)


def lower_bounds(rng, shape):
    """Plain grid values in [-2, 0]."""
    return rng.integers(-4, 1, size=shape) * 0.5 + rng.uniform(-0.05, 0.05, size=shape)


def upper_bounds(rng, shape):
    """Plain grid values in [0.5, 2]: above every lower bound, so the bounds never cross."""
    return rng.integers(1, 5, size=shape) * 0.5 + rng.uniform(-0.05, 0.05, size=shape)


def small_integers(rng, shape):
    """Integers in [-2, 2], cast to each checked dtype: plenty of ties."""
    return rng.integers(-2, 3, size=shape).astype(float)


def often_zero(rng, shape):
    """0 half the time, else +-1 or +-2: both truth values, whatever the dtype."""
    return (rng.random(shape) < 0.5) * rng.choice([-2.0, -1.0, 1.0, 2.0], shape)


def special_values(rng, shape):
    """0, NaN, Inf, -Inf, 1.5 and -0 in turn."""
    return np.resize([0.0, np.nan, np.inf, -np.inf, 1.5, -0.0], shape)


def _predicate(op, name, fn, ref, domain, shapes=BINARY_SHAPES):
    return Case(op, fn, ref=ref, name=name, shapes=shapes, domains=(domain,) * len(shapes[0]),
                grad=False)


def _selection(op, fn, ref, domains, shapes, **kw):
    return Case(op, fn, ref=ref, shapes=shapes, domains=domains, rtol=1e-6, atol=0, **kw)


COMPARISONS = [
    _predicate('Greater', 'gt', ops.gt, np.greater, small_integers),
    _predicate('GreaterEqual', 'ge', ops.ge, np.greater_equal, small_integers),
    _predicate('Less', 'lt', ops.lt, np.less, small_integers),
    _predicate('LessEqual', 'le', ops.le, np.less_equal, small_integers),
    _predicate('Equal', 'equal', ops.equal, np.equal, small_integers),
    _predicate('NotEqual', 'ne', ops.ne, np.not_equal, small_integers),
]
EXTREMES = [
    _selection('Maximum', ops.maximum, np.maximum, (grid, offset_grid), BINARY_SHAPES),
    _selection('Minimum', ops.minimum, np.minimum, (grid, offset_grid), BINARY_SHAPES),
    _selection('Clamp', lambda x: ops.clamp(x, -0.5, 1.0), lambda x: np.clip(x, -0.5, 1.0),
               (offset_grid,), UNARY_SHAPES, name='clamp_numbers'),
    _selection('Clamp', lambda x: ops.clamp(x, min=0.0), lambda x: np.maximum(x, 0.0),
               (offset_grid,), [((3, 4),)], name='clamp_min_only'),
    _selection('Clamp', lambda x: ops.clamp(x, max=0.0), lambda x: np.minimum(x, 0.0),
               (offset_grid,), [((3, 4),)], name='clamp_max_only'),
    _selection('Clamp', lambda x: ops.clip_by_value(x, -1, 1), lambda x: np.clip(x, -1, 1),
               (offset_grid,), [((3, 4),)], name='clip_by_value'),
    _selection('Clamp', ops.clamp, np.clip, (offset_grid, lower_bounds, upper_bounds),
               [((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), (4,)), ((4,), (3, 4), (3, 4)),
                ((2, 3, 4), (), ())], name='clamp_tensors'),
]
LOGICAL_BINARY = [
    _predicate('LogicalAnd', 'logical_and', ops.logical_and, np.logical_and, often_zero),
    _predicate('LogicalOr', 'logical_or', ops.logical_or, np.logical_or, often_zero),
]
LOGICAL = LOGICAL_BINARY + [
    _predicate('LogicalNot', 'logical_not', ops.logical_not, np.logical_not, often_zero,
               UNARY_SHAPES),
]
NAN_INF = [
    _predicate('IsNan', 'isnan', ops.isnan, np.isnan, special_values, [((2, 3),), ((4, 5),)]),
    _predicate('IsInf', 'isinf', ops.isinf, np.isinf, special_values, [((2, 3),), ((4, 5),)]),
    _predicate('IsFinite', 'isfinite', ops.isfinite, np.isfinite, special_values,
               [((2, 3),), ((4, 5),)]),
]
CASES = COMPARISONS + EXTREMES + LOGICAL + NAN_INF

ALIASES = [(ops.greater, ops.gt), (ops.greater_equal, ops.ge), (ops.less, ops.lt),
           (ops.less_equal, ops.le), (ops.not_equal, ops.ne), (ops.clip, ops.clamp)]


globals().update(row_tests(CASES))


# ----------------------------------------------------------------------------- comparisons
@pytest.mark.parametrize('case,shapes', params(COMPARISONS))
@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.int64])
def test_comparison_gives_exact_bools_for_float_and_integer_inputs(case, shapes, dtype):
    arrays = case.arrays(shapes, dtype)
    y = case.fn(*[ms.Tensor(a) for a in arrays])
    assert y.dtype == ms.bool_
    assert not y.requires_grad
    np.testing.assert_array_equal(y.asnumpy(), case.ref(*arrays))


@pytest.mark.parametrize('case', COMPARISONS, ids=lambda c: c.label)
def test_comparison_with_python_scalars(case):
    fn, ref = case.fn, case.ref
    a = np.array([-1.5, 0.0, 1.0, 2.5], np.float32)
    x = ms.Tensor(a)
    np.testing.assert_array_equal(fn(x, 1).asnumpy(), ref(a, 1))
    np.testing.assert_array_equal(fn(x, 1.0).asnumpy(), ref(a, 1.0))
    np.testing.assert_array_equal(fn(1, x).asnumpy(), ref(1, a))
    ints = np.array([0, 1, 2])
    np.testing.assert_array_equal(fn(ms.Tensor(ints), 1.5).asnumpy(), ref(ints, 1.5))


def test_comparisons_do_not_record_and_mixed_dtypes_promote():
    x = ms.Tensor([1.0, 2.0], requires_grad=True)
    y = ops.gt(x, ms.Tensor([1, 1]))
    assert y.grad_fn is None and not y.requires_grad
    np.testing.assert_array_equal(y.asnumpy(), [False, True])


def test_tensor_operators_use_comparisons():
    a, b = ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([2.0, 2.0, 2.0])
    np.testing.assert_array_equal((a > b).asnumpy(), [False, False, True])
    np.testing.assert_array_equal((a >= b).asnumpy(), [False, True, True])
    np.testing.assert_array_equal((a < b).asnumpy(), [True, False, False])
    np.testing.assert_array_equal((a <= b).asnumpy(), [True, True, False])
    np.testing.assert_array_equal((a == b).asnumpy(), [False, True, False])
    np.testing.assert_array_equal((a != b).asnumpy(), [True, False, True])
    np.testing.assert_array_equal((2 < a).asnumpy(), [False, False, True])


@pytest.mark.parametrize('alias,original', ALIASES)
def test_aliases_are_the_same_function(alias, original):
    assert alias is original


@pytest.mark.parametrize('case', COMPARISONS, ids=lambda c: c.label)
def test_comparison_shape_error_names_op_and_shapes(case):
    with pytest.raises(ValueError, match=rf"ops\.{case.label}: shapes \(2, 3\) and \(4,\) "
                                         rf"cannot be broadcast"):
        case.fn(ms.Tensor(np.zeros((2, 3))), ms.Tensor(np.zeros(4)))


def test_comparison_rejects_non_numbers():
    with pytest.raises(TypeError,
                       match=r"ops\.gt: other: expected a Tensor or a Python number, got str"):
        ops.gt(ms.Tensor([1.0]), 'a')


# ----------------------------------------------------------------------------- differentiable ops
@pytest.mark.parametrize('fn', [ops.maximum, ops.minimum])
def test_ties_split_the_gradient_equally(fn):
    a = ms.Tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = ms.Tensor([1.0, 0.0, 5.0], requires_grad=True)
    fn(a, b).backward(ms.Tensor([1.0, 1.0, 1.0]))
    big = fn is ops.maximum
    np.testing.assert_array_equal(a.grad.asnumpy(), [0.5, 1.0 if big else 0.0,
                                                     0.0 if big else 1.0])
    np.testing.assert_array_equal(b.grad.asnumpy(), [0.5, 0.0 if big else 1.0,
                                                     1.0 if big else 0.0])


@pytest.mark.parametrize('fn', [ops.maximum, ops.minimum])
def test_gradient_to_one_side_only(fn):
    a = ms.Tensor([1.0, 2.0, 3.0])
    b = ms.Tensor([1.0, 0.0, 5.0], requires_grad=True)
    fn(a, b).backward(ms.Tensor([1.0, 1.0, 1.0]))
    want = [0.5, 0.0, 1.0] if fn is ops.maximum else [0.5, 1.0, 0.0]
    np.testing.assert_array_equal(b.grad.asnumpy(), want)
    c = ms.Tensor([2.0, 2.0], requires_grad=True)
    fn(c, 2.0).backward(ms.Tensor([1.0, 1.0]))
    np.testing.assert_array_equal(c.grad.asnumpy(), [0.5, 0.5])


def test_maximum_accepts_scalars_on_either_side():
    x = ms.Tensor([-1.0, 2.0])
    np.testing.assert_array_equal(ops.maximum(x, 0).asnumpy(), [0.0, 2.0])
    np.testing.assert_array_equal(ops.maximum(0, x).asnumpy(), [0.0, 2.0])
    np.testing.assert_array_equal(ops.minimum(1.5, x).asnumpy(), [-1.0, 1.5])
    assert ops.maximum(ms.Tensor([1, 5]), 3).dtype == ms.int64


def test_clamp_gradient_is_one_inside_the_bounds_inclusive():
    x = ms.Tensor([-2.0, -1.0, 0.0, 1.0, 2.0], requires_grad=True)
    ops.clamp(x, -1.0, 1.0).backward(ms.Tensor(np.ones(5, np.float32)))
    np.testing.assert_array_equal(x.grad.asnumpy(), [0, 1, 1, 1, 0])


def test_clamp_with_min_above_max_gives_max_and_its_gradient():
    x = ms.Tensor([-1.0, 0.5, 3.0], requires_grad=True)
    lo = ms.Tensor(2.0, requires_grad=True)
    hi = ms.Tensor(1.0, requires_grad=True)
    y = ops.clamp(x, lo, hi)
    np.testing.assert_array_equal(y.asnumpy(), [1.0, 1.0, 1.0])
    y.backward(ms.Tensor([1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(x.grad.asnumpy(), [0, 0, 0])
    assert lo.grad.item() == 0 and hi.grad.item() == 3


def test_clamp_dtypes():
    ints = ms.Tensor([0, 5, 10])
    y = ops.clamp(ints, 2, 8)
    assert y.dtype == ms.int64
    np.testing.assert_array_equal(y.asnumpy(), [2, 5, 8])
    z = ops.clamp(ints, 2.5)
    assert z.dtype == ms.float32
    np.testing.assert_array_equal(z.asnumpy(), [2.5, 5, 10])
    w = ops.clamp(ints, max=4)
    np.testing.assert_array_equal(w.asnumpy(), [0, 4, 4])
    h = ops.clamp(ms.Tensor([1.0, 9.0], ms.float16), 2, 3)
    assert h.dtype == ms.float16


def test_clamp_errors():
    x = ms.Tensor(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"ops\.clamp: at least one of min and max"):
        ops.clamp(x)
    with pytest.raises(ValueError, match=r"ops\.clamp: input and min have shapes \(2, 3\) and "
                                         r"\(4,\), which cannot be broadcast"):
        ops.clamp(x, ms.Tensor(np.zeros(4)), 1.0)
    with pytest.raises(ValueError, match=r"ops\.clamp: input and max have shapes \(2, 3\) and "
                                         r"\(2,\)"):
        ops.clamp(x, 0.0, ms.Tensor(np.ones(2)))
    with pytest.raises(ValueError, match=r"ops\.clamp: min and max have shapes \(2, 1, 1\) and "
                                         r"\(3, 1, 1\)"):
        ops.clamp(ms.Tensor(np.zeros(1)), ms.Tensor(np.zeros((2, 1, 1))),
                  ms.Tensor(np.ones((3, 1, 1))))


@pytest.mark.parametrize('name,fn', [('maximum', ops.maximum), ('minimum', ops.minimum)])
def test_max_min_shape_errors(name, fn):
    with pytest.raises(ValueError, match=rf"ops\.{name}: shapes \(2, 3\) and \(2,\) cannot"):
        fn(ms.Tensor(np.zeros((2, 3))), ms.Tensor(np.zeros(2)))


# ----------------------------------------------------------------------------- logical, NaN/Inf
@pytest.mark.parametrize('case,shapes', params(LOGICAL))
@pytest.mark.parametrize('dtype', [np.bool_, np.int64])
def test_logical_ops_give_bools_for_bool_and_integer_inputs(case, shapes, dtype):
    arrays = case.arrays(shapes, dtype, seed=1)
    y = case.fn(*[ms.Tensor(a) for a in arrays])
    assert y.dtype == ms.bool_
    np.testing.assert_array_equal(y.asnumpy(), case.ref(*arrays))


@pytest.mark.parametrize('case', LOGICAL_BINARY, ids=lambda c: c.label)
def test_logical_binary_numbers_and_scalars(case):
    name, fn, ref = case.label, case.fn, case.ref
    a = np.array([0.0, 1.5, -2.0, 0.0])
    np.testing.assert_array_equal(fn(ms.Tensor(a), True).asnumpy(), ref(a, True))
    np.testing.assert_array_equal(fn(False, ms.Tensor(a)).asnumpy(), ref(False, a))
    b = np.array([1, 0, 3, 0])
    np.testing.assert_array_equal(fn(ms.Tensor(a), ms.Tensor(b)).asnumpy(), ref(a, b))
    with pytest.raises(ValueError, match=rf"ops\.{name}: shapes \(3,\) and \(2,\) cannot"):
        fn(ms.Tensor([True, False, True]), ms.Tensor([True, False]))


def test_logical_not_and_tensor_operators():
    a = np.array([True, False, True])
    b = np.array([True, True, False])
    x, y = ms.Tensor(a), ms.Tensor(b)
    np.testing.assert_array_equal(ops.logical_not(x).asnumpy(), ~a)
    np.testing.assert_array_equal(ops.logical_not(ms.Tensor([0.0, 2.0])).asnumpy(), [True, False])
    np.testing.assert_array_equal((~x).asnumpy(), ~a)
    np.testing.assert_array_equal((x & y).asnumpy(), a & b)
    np.testing.assert_array_equal((x | y).asnumpy(), a | b)
    assert ops.logical_not(x).dtype == ms.bool_


@pytest.mark.parametrize('case', NAN_INF, ids=lambda c: c.label)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_nan_inf_tests(case, dtype):
    fn, ref = case.fn, case.ref
    a, = case.arrays(((2, 3),), dtype)
    x = ms.Tensor(a, requires_grad=True)
    y = fn(x)
    assert y.dtype == ms.bool_ and not y.requires_grad
    np.testing.assert_array_equal(y.asnumpy(), ref(a))
    np.testing.assert_array_equal(fn(ms.Tensor([1, 2])).asnumpy(), ref(np.array([1, 2])))


def test_rows_cover_exactly_the_ops_this_family_defines():
    defined = {name for name, op in OPS.items() if op.__module__ == comparison.__name__}
    covered = {name for case in CASES for name in case.ops}
    assert defined == covered
    assert all(not OPS[n].differentiable for n in covered - {'Maximum', 'Minimum', 'Clamp'})


def test_constants_land_on_the_inputs_device():
    """clamp's absent bound and host data given to the logical ops, fmax and heaviside are made
    on the input's device (the default device is the CPU here)."""
    x = ms.Tensor(np.array([-1.0, 0.5, 3.0], np.float32)).move_to('GPU')
    ys = [ops.clamp(x, max=1.0), ops.clamp(x, min=0.0), ops.fmax(x, [0.0, 0.0, np.nan]),
          ops.heaviside(x, np.float32(0.5)), ops.logical_and(x, True),
          ops.logical_or([False, True, False], x), ops.logical_xor(x, np.array(True))]
    assert [y.device for y in ys] == ['GPU:0'] * len(ys)
    np.testing.assert_array_equal(ys[0].asnumpy(), [-1.0, 0.5, 1.0])
    np.testing.assert_array_equal(ys[2].asnumpy(), [0.0, 0.5, 3.0])
