"""Element-wise arithmetic, cast, identity and the broadcast adjoints against NumPy."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.autograd.function import OPS
from hookgrad.autograd.math import _sum_to
from hookgrad.ops import arithmetic, broadcast
from hookgrad.testing.gradcheck import check_double_grad, check_grad

COVERED_OPS = {'Add', 'Sub', 'Mul', 'Div', 'Neg', 'Pow', 'Square', 'Cast', 'Identity',
               'Remainder', 'BroadcastTo', 'SumTo'}

BINARY_SHAPES = [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((4,), (2, 3, 4)), ((2, 3, 4), (3, 1)),
                 ((), (2, 3)), ((2, 3), ())]
UNARY_SHAPES = [((3, 4),), ((5,),), ((),), ((2, 1, 3),)]


# ----------------------------------------------------------------------------- value domains
def normal(rng, shape):
    return rng.standard_normal(shape)


def away_from_zero(rng, shape):
    """|v| in [0.5, 2] with a random sign (divisors)."""
    return rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)


def positive(rng, shape):
    return rng.uniform(0.5, 2.0, shape)


def half_integers(rng, shape):
    """k + 0.5 (+-0.1): never within 0.4 of a multiple of an even divisor (no remainder kinks)."""
    return rng.integers(-6, 7, shape) + 0.5 + rng.uniform(-0.1, 0.1, shape)


def even_divisors(rng, shape):
    return rng.choice([-4.0, -2.0, 2.0, 4.0], shape)


# name, function of Tensors, NumPy reference, one domain per input, shape tuples
CASES = [
    ('add', ops.add, np.add, (normal, normal), BINARY_SHAPES),
    ('sub', ops.sub, np.subtract, (normal, normal), BINARY_SHAPES),
    ('mul', ops.mul, np.multiply, (normal, normal), BINARY_SHAPES),
    ('div', ops.div, np.divide, (normal, away_from_zero), BINARY_SHAPES),
    ('pow', ops.pow, np.power, (positive, normal), BINARY_SHAPES),
    ('pow_int_exponent', lambda x: ops.pow(x, 3), lambda x: x ** 3, (normal,), UNARY_SHAPES),
    ('pow_float_exponent', lambda x: x ** 2.5, lambda x: x ** 2.5, (positive,), UNARY_SHAPES),
    ('pow_scalar_base', lambda x: 2.0 ** x, lambda x: 2.0 ** x, (normal,), UNARY_SHAPES),
    ('remainder', ops.remainder, np.remainder, (half_integers, even_divisors), BINARY_SHAPES),
    ('rsub_scalar', lambda x: 1.5 - x, lambda x: 1.5 - x, (normal,), UNARY_SHAPES),
    ('rdiv_scalar', lambda x: 2 / x, lambda x: 2 / x, (away_from_zero,), UNARY_SHAPES),
    ('neg', ops.neg, np.negative, (normal,), UNARY_SHAPES),
    ('square', ops.square, np.square, (normal,), UNARY_SHAPES),
    ('identity', ops.identity, lambda x: x, (normal,), UNARY_SHAPES),
    ('identity_copy', lambda x: ops.identity(x, copy=True), lambda x: x, (normal,), UNARY_SHAPES),
    ('broadcast_to', lambda x: ops.broadcast_to(x, (2, 3, 4)),
     lambda x: np.broadcast_to(x, (2, 3, 4)), (normal,),
     [((3, 1),), ((4,),), ((1, 3, 4),), ((),), ((2, 1, 1),)]),
    ('broadcast_to_keep', lambda x: ops.broadcast_to(x, (2, -1, 4)),
     lambda x: np.broadcast_to(x, (2, 3, 4)), (normal,), [((3, 1),), ((1, 3, 4),)]),
    ('sum_to', lambda x: ops.sum_to(x, (3, 1)), lambda x: _sum_to(x, (3, 1)), (normal,),
     [((2, 3, 4),), ((3, 4),), ((3, 1),)]),
    ('sum_to_lead', lambda x: ops.sum_to(x, (4,)), lambda x: _sum_to(x, (4,)), (normal,),
     [((2, 3, 4),), ((1, 4),)]),
    ('sum_to_scalar', lambda x: ops.sum_to(x, ()), lambda x: np.asarray(x.sum()), (normal,),
     [((2, 3),), ((),)]),
]


def _expand(cases):
    for name, fn, ref, domains, shape_list in cases:
        for shapes in shape_list:
            yield pytest.param(fn, ref, domains, shapes, id=f"{name}-{shapes}")


def _inputs(domains, shapes, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    return [np.asarray(d(rng, s), dtype) for d, s in zip(domains, shapes)]


@pytest.mark.parametrize('fn,ref,domains,shapes', list(_expand(CASES)))
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_forward_matches_numpy(fn, ref, domains, shapes, dtype):
    arrays = _inputs(domains, shapes, dtype)
    y = fn(*[ms.Tensor(a) for a in arrays])
    want = np.asarray(ref(*arrays))
    assert y.shape == want.shape
    assert y.asnumpy().dtype == dtype
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-6 if dtype == np.float64 else 1e-5,
                               atol=1e-6)


@pytest.mark.parametrize('fn,ref,domains,shapes', list(_expand(CASES)))
def test_backward_matches_finite_differences(fn, ref, domains, shapes):
    check_grad(fn, *_inputs(domains, shapes))


@pytest.mark.parametrize('fn,ref,domains,shapes', list(_expand(CASES)))
def test_double_backward_matches_finite_differences(fn, ref, domains, shapes):
    # squaring gives linear ops a VJP that depends on the inputs, and tests their rule on Tensors
    check_double_grad(lambda *xs: ops.square(fn(*xs)), *_inputs(domains, shapes))


def test_nonlinear_ops_double_backward_directly():
    rng = np.random.default_rng(3)
    a, b = positive(rng, (3, 1)), normal(rng, (1, 4))
    check_double_grad(ops.pow, a, b)
    check_double_grad(ops.div, normal(rng, (3, 4)), away_from_zero(rng, (4,)))
    check_double_grad(ops.mul, normal(rng, (3, 4)), normal(rng, (3, 1)))
    check_double_grad(ops.square, normal(rng, (2, 3)))


# ----------------------------------------------------------------------------- cast
# name, function, finite-difference step and tolerance (a narrow float type rounds the output:
# a wide step keeps the difference quotient accurate; casts are linear, so it stays exact)
CAST_CASES = [
    ('f64_to_f32_and_back', lambda x: ops.cast(ops.cast(x, ms.float32), ms.float64), 1e-2, 1e-4),
    ('f64_to_f16_and_back', lambda x: ops.cast(ops.cast(x, np.float16), 'float64'), 0.25, 1e-2),
    ('tensor_astype', lambda x: x.astype(ms.float32).astype(ms.float64), 1e-2, 1e-4),
]


@pytest.mark.parametrize('fn,eps,tol', [c[1:] for c in CAST_CASES], ids=[c[0] for c in CAST_CASES])
@pytest.mark.parametrize('shape', [(3, 4), ()])
def test_cast_backward(fn, eps, tol, shape):
    x = np.random.default_rng(0).uniform(-1, 1, shape)
    check_grad(fn, x, eps=eps, atol=tol, rtol=tol)
    check_double_grad(lambda t: ops.square(fn(t)), x, eps=eps, atol=10 * tol, rtol=10 * tol)


def test_cast_forward_dtypes_and_gradient_dtype():
    x = ms.Tensor(np.array([1.7, -2.2], np.float32), requires_grad=True)
    y = ops.cast(x, ms.float64)
    assert y.dtype == ms.float64 and y.requires_grad
    y.backward(ms.Tensor(np.array([1.0, 2.0])))
    assert x.grad.dtype == ms.float32
    np.testing.assert_array_equal(x.grad.asnumpy(), [1.0, 2.0])
    i = ops.cast(x, ms.int32)
    assert i.dtype == ms.int32 and not i.requires_grad
    np.testing.assert_array_equal(i.asnumpy(), [1, -2])
    assert ops.cast(x, ms.float32) is x
    assert ops.cast(ms.Tensor([1, 0]), ms.bool_).dtype == ms.bool_


def test_cast_rejects_unknown_dtype():
    with pytest.raises(TypeError, match="unknown dtype name 'complex'"):
        ops.cast(ms.Tensor([1.0]), 'complex')


# ----------------------------------------------------------------------------- dtypes, scalars
@pytest.mark.parametrize('fn,ref', [(ops.add, np.add), (ops.sub, np.subtract),
                                    (ops.mul, np.multiply), (ops.div, np.divide),
                                    (ops.pow, np.power), (ops.remainder, np.remainder)])
def test_python_scalars_on_either_side(fn, ref):
    a = np.array([1.5, 2.0, 3.0], np.float32)
    x = ms.Tensor(a)
    for left, right in ((x, 2), (2, x), (x, 0.5), (0.5, x)):
        y = fn(left, right)
        assert y.dtype == ms.float32
        want = ref(a if left is x else left, a if right is x else right)
        np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-6)


PROMOTIONS = [
    (lambda: ops.add(ms.Tensor([1, 2]), 1.5), ms.float32),
    (lambda: ops.add(ms.Tensor([1, 2]), 1), ms.int64),
    (lambda: ops.add(ms.Tensor([1.0], ms.float32), ms.Tensor([1.0], ms.float64)), ms.float64),
    (lambda: ops.mul(ms.Tensor([1], ms.int32), ms.Tensor([1.0], ms.float16)), ms.float16),
    (lambda: ops.mul(ms.Tensor([1], ms.int32), ms.Tensor([1], ms.int64)), ms.int64),
    (lambda: ops.div(ms.Tensor([1, 2]), ms.Tensor([2, 4])), ms.float32),
    (lambda: ops.div(1, ms.Tensor([1, 2])), ms.float32),
    (lambda: ops.div(ms.Tensor([1, 2]), ms.Tensor([2.0], ms.float64)), ms.float64),
    (lambda: ops.add(ms.Tensor([1.0], ms.float64), 1), ms.float64),
    (lambda: ops.remainder(ms.Tensor([5, -5]), 3), ms.int64),
]


@pytest.mark.parametrize('call,dtype', PROMOTIONS)
def test_result_dtypes(call, dtype):
    assert call().dtype == dtype


def test_integer_arithmetic_values():
    a, b = ms.Tensor([7, -7, 5]), ms.Tensor([2, 2, -3])
    np.testing.assert_allclose(ops.div(a, b).asnumpy(), [3.5, -3.5, 5 / -3], rtol=1e-6)
    np.testing.assert_array_equal(ops.remainder(a, b).asnumpy(), [1, 1, -1])
    np.testing.assert_array_equal(ops.floor_divide(a, b).asnumpy(), [3, -4, -2])
    np.testing.assert_array_equal((a // b).asnumpy(), [3, -4, -2])
    np.testing.assert_array_equal((a % b).asnumpy(), [1, 1, -1])


def test_div_rounding_modes():
    a = ms.Tensor([7.0, -7.0, 5.0])
    b = ms.Tensor([2.0, 2.0, -3.0])
    np.testing.assert_array_equal(ops.div(a, b, rounding_mode='floor').asnumpy(), [3, -4, -2])
    np.testing.assert_array_equal(ops.div(a, b, rounding_mode='trunc').asnumpy(), [3, -3, -1])
    assert ops.div(a, b, rounding_mode='floor').dtype == ms.float32


def test_div_rounding_mode_keeps_integer_dtype():
    assert ops.div(ms.Tensor([7, -7]), 2, rounding_mode='floor').dtype == ms.int64


def test_operators_and_aliases():
    x = ms.Tensor([1.0, 2.0])
    np.testing.assert_array_equal((x + 1).asnumpy(), [2, 3])
    np.testing.assert_array_equal((1 - x).asnumpy(), [0, -1])
    np.testing.assert_array_equal((x * x).asnumpy(), [1, 4])
    np.testing.assert_array_equal((1 / x).asnumpy(), [1, 0.5])
    np.testing.assert_array_equal((-x).asnumpy(), [-1, -2])
    np.testing.assert_array_equal((x ** 2).asnumpy(), [1, 4])
    assert ops.subtract is ops.sub and ops.multiply is ops.mul
    assert ops.divide is ops.div and ops.negative is ops.neg


def test_identity_copy_does_not_share_memory():
    x = ms.Tensor([1.0, 2.0])
    assert not np.shares_memory(ops.identity(x, copy=True).asnumpy(), x.asnumpy())
    assert ops.identity(x).asnumpy() is x.asnumpy()


def test_gradient_accumulates_over_reuse_and_broadcast():
    x = ms.Tensor(np.ones((3, 1)), requires_grad=True)
    y = ops.mul(x, ms.Tensor(np.arange(4.0))) + x
    y.backward(ms.Tensor(np.ones((3, 4))))
    assert x.grad.shape == (3, 1)
    np.testing.assert_array_equal(x.grad.asnumpy(), np.full((3, 1), 6 + 4))


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize('name,fn', [('add', ops.add), ('sub', ops.sub), ('mul', ops.mul),
                                     ('div', ops.div), ('pow', ops.pow),
                                     ('remainder', ops.remainder)])
def test_binary_shape_errors_name_op_and_shapes(name, fn):
    a, b = ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((4,)))
    with pytest.raises(ValueError, match=rf"ops\.{name}: shapes \(2, 3\) and \(4,\) cannot be "
                                         rf"broadcast together"):
        fn(a, b)


ERRORS = [
    (lambda: ops.add(ms.Tensor([1.0]), 'a'), TypeError,
     r"unsupported operand: expected a Tensor or a Python number, got str"),
    (lambda: ops.neg('a'), TypeError, r"input must be a Tensor, got str"),
    (lambda: ops.div(ms.Tensor([1.0]), 2, rounding_mode='round'), ValueError,
     r"ops\.div: rounding_mode must be None, 'floor' or 'trunc', got 'round'"),
    (lambda: ops.broadcast_to(ms.Tensor(np.ones((2, 3))), (3,)), ValueError,
     r"ops\.broadcast_to: cannot broadcast shape \(2, 3\) to \(3,\)"),
    (lambda: ops.broadcast_to(ms.Tensor(np.ones(3)), (2, 4)), ValueError,
     r"ops\.broadcast_to: cannot broadcast shape \(3,\) to \(2, 4\)"),
    (lambda: ops.broadcast_to(ms.Tensor(np.ones((2, 1))), (1, 4)), ValueError,
     r"ops\.broadcast_to: cannot broadcast shape \(2, 1\) to \(1, 4\)"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize('target', [(4,), (2, 1, 3)])
def test_sum_to_rejects_unreachable_shapes(target):
    with pytest.raises(ValueError, match=r"ops\.sum_to: .*\(2, 3\).*" + str(target[0])):
        ops.sum_to(ms.Tensor(np.ones((2, 3))), target)


def test_covered_ops_are_exactly_the_ops_these_modules_define():
    modules = {arithmetic.__name__, broadcast.__name__}
    defined = {name for name, op in OPS.items() if op.__module__ in modules}
    assert defined == COVERED_OPS
