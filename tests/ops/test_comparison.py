"""Comparisons, maximum/minimum, clamp, logical ops and NaN/Inf tests against NumPy."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.autograd.function import OPS
from hookgrad.ops import comparison
from hookgrad.testing.gradcheck import check_double_grad, check_grad

COVERED_OPS = {'Greater', 'GreaterEqual', 'Less', 'LessEqual', 'Equal', 'NotEqual', 'Maximum',
               'Minimum', 'Clamp', 'LogicalNot', 'LogicalAnd', 'LogicalOr', 'IsNan', 'IsInf',
               'IsFinite'}

BINARY_SHAPES = [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((4,), (2, 3, 4)), ((2, 3, 4), (3, 1)),
                 ((), (2, 3)), ((2, 3), ())]


def grid(rng, shape, offset=0.0):
    """Values on a 0.5-spaced grid plus ``offset`` and small noise: two grids with offsets
    0 and 0.25 never tie, and never come within 0.15 of each other (no kinks)."""
    return (rng.integers(-4, 5, size=shape) * 0.5 + offset
            + rng.uniform(-0.05, 0.05, size=shape))


# ----------------------------------------------------------------------------- comparisons
COMPARISONS = [
    ('gt', ops.gt, np.greater), ('ge', ops.ge, np.greater_equal), ('lt', ops.lt, np.less),
    ('le', ops.le, np.less_equal), ('equal', ops.equal, np.equal), ('ne', ops.ne, np.not_equal),
]
ALIASES = [(ops.greater, ops.gt), (ops.greater_equal, ops.ge), (ops.less, ops.lt),
           (ops.less_equal, ops.le), (ops.not_equal, ops.ne), (ops.clip, ops.clamp)]


@pytest.mark.parametrize('name,fn,ref', COMPARISONS, ids=[c[0] for c in COMPARISONS])
@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.int64])
@pytest.mark.parametrize('sa,sb', BINARY_SHAPES)
def test_comparison_forward(name, fn, ref, dtype, sa, sb):
    rng = np.random.default_rng(0)
    a = rng.integers(-2, 3, size=sa).astype(dtype)      # small ints: plenty of ties
    b = rng.integers(-2, 3, size=sb).astype(dtype)
    y = fn(ms.Tensor(a), ms.Tensor(b))
    assert y.dtype == ms.bool_
    assert not y.requires_grad
    np.testing.assert_array_equal(y.asnumpy(), ref(a, b))


@pytest.mark.parametrize('name,fn,ref', COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_comparison_with_python_scalars(name, fn, ref):
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


@pytest.mark.parametrize('name,fn,ref', COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_comparison_shape_error_names_op_and_shapes(name, fn, ref):
    with pytest.raises(ValueError, match=rf"ops\.{name}: shapes \(2, 3\) and \(4,\) cannot be "
                                         rf"broadcast"):
        fn(ms.Tensor(np.zeros((2, 3))), ms.Tensor(np.zeros(4)))


def test_comparison_rejects_non_numbers():
    with pytest.raises(TypeError, match="unsupported operand.*got str"):
        ops.gt(ms.Tensor([1.0]), 'a')


# ----------------------------------------------------------------------------- differentiable ops
def _two_grids(rng, sa, sb):
    return grid(rng, sa), grid(rng, sb, 0.25)


def _clamp_inputs(rng, sx, sb):
    """x on the 0.25-offset grid; bounds on the plain grid with hi >= lo + 0.5."""
    lo = grid(rng, sb)
    return grid(rng, sx, 0.25), lo, lo + 0.5 * rng.integers(1, 4, size=sb)


# name, function of Tensors, NumPy reference, input maker(rng, *shapes), shape tuples
DIFF_CASES = [
    ('maximum', ops.maximum, np.maximum, _two_grids, BINARY_SHAPES),
    ('minimum', ops.minimum, np.minimum, _two_grids, BINARY_SHAPES),
    ('clamp_numbers', lambda x: ops.clamp(x, -0.5, 1.0), lambda x: np.clip(x, -0.5, 1.0),
     lambda rng, s: (grid(rng, s, 0.25),), [((5,),), ((3, 4),), ((),)]),
    ('clamp_min_only', lambda x: ops.clamp(x, min=0.0), lambda x: np.maximum(x, 0.0),
     lambda rng, s: (grid(rng, s, 0.25),), [((3, 4),)]),
    ('clamp_max_only', lambda x: ops.clamp(x, max=0.0), lambda x: np.minimum(x, 0.0),
     lambda rng, s: (grid(rng, s, 0.25),), [((3, 4),)]),
    ('clip_by_value', lambda x: ops.clip_by_value(x, -1, 1), lambda x: np.clip(x, -1, 1),
     lambda rng, s: (grid(rng, s, 0.25),), [((3, 4),)]),
    ('clamp_tensors', ops.clamp, np.clip, _clamp_inputs,
     [((3, 4), (3, 4)), ((3, 4), (4,)), ((4,), (3, 4)), ((2, 3, 4), ())]),
]
DIFF_IDS = [c[0] for c in DIFF_CASES]


def _expand(cases):
    for name, fn, ref, make, shape_list in cases:
        for shapes in shape_list:
            yield pytest.param(fn, ref, make, shapes, id=f"{name}-{shapes}")


def _inputs(make, shapes, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    return [np.asarray(a, dtype) for a in make(rng, *shapes)]


@pytest.mark.parametrize('fn,ref,make,shapes', list(_expand(DIFF_CASES)))
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_forward_matches_numpy(fn, ref, make, shapes, dtype):
    arrays = _inputs(make, shapes, dtype)
    y = fn(*[ms.Tensor(a) for a in arrays])
    want = ref(*arrays)
    assert y.shape == want.shape
    assert y.asnumpy().dtype == dtype
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-6)


@pytest.mark.parametrize('fn,ref,make,shapes', list(_expand(DIFF_CASES)))
def test_backward_matches_finite_differences(fn, ref, make, shapes):
    check_grad(fn, *_inputs(make, shapes))


@pytest.mark.parametrize('fn,ref,make,shapes', list(_expand(DIFF_CASES)))
def test_double_backward_matches_finite_differences(fn, ref, make, shapes):
    # the ops are piecewise linear, so square the output to give the VJP an input dependence
    check_double_grad(lambda *xs: ops.square(fn(*xs)), *_inputs(make, shapes))


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
LOGICAL_BINARY = [('logical_and', ops.logical_and, np.logical_and),
                  ('logical_or', ops.logical_or, np.logical_or)]


@pytest.mark.parametrize('name,fn,ref', LOGICAL_BINARY, ids=[c[0] for c in LOGICAL_BINARY])
@pytest.mark.parametrize('sa,sb', BINARY_SHAPES)
def test_logical_binary(name, fn, ref, sa, sb):
    rng = np.random.default_rng(1)
    a, b = rng.random(sa) > 0.5, rng.random(sb) > 0.5
    y = fn(ms.Tensor(a), ms.Tensor(b))
    assert y.dtype == ms.bool_
    np.testing.assert_array_equal(y.asnumpy(), ref(a, b))


@pytest.mark.parametrize('name,fn,ref', LOGICAL_BINARY, ids=[c[0] for c in LOGICAL_BINARY])
def test_logical_binary_numbers_and_scalars(name, fn, ref):
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


@pytest.mark.parametrize('fn,ref', [(ops.isnan, np.isnan), (ops.isinf, np.isinf),
                                    (ops.isfinite, np.isfinite)])
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_nan_inf_tests(fn, ref, dtype):
    a = np.array([[0.0, np.nan, np.inf], [-np.inf, 1.5, -0.0]], dtype)
    x = ms.Tensor(a, requires_grad=True)
    y = fn(x)
    assert y.dtype == ms.bool_ and not y.requires_grad
    np.testing.assert_array_equal(y.asnumpy(), ref(a))
    np.testing.assert_array_equal(fn(ms.Tensor([1, 2])).asnumpy(), ref(np.array([1, 2])))


def test_covered_ops_are_exactly_the_ops_this_family_defines():
    defined = {name for name, op in OPS.items() if op.__module__ == comparison.__name__}
    assert defined == COVERED_OPS
    assert all(not OPS[n].differentiable for n in COVERED_OPS - {'Maximum', 'Minimum', 'Clamp'})
