"""Element-wise arithmetic, cast, identity and the broadcast adjoints against NumPy."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.autograd.function import OPS
from hookgrad.autograd.math import _sum_to
from hookgrad.ops import arithmetic, broadcasting as broadcast
from hookgrad.testing.cases import Case, away_from_zero, normal, positive
from hookgrad.testing.gradcheck import check_double_grad, check_grad
from tests.ops.rows import params, row_tests

BINARY_SHAPES = [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((4,), (2, 3, 4)), ((2, 3, 4), (3, 1)),
                 ((), (2, 3)), ((2, 3), ())]
UNARY_SHAPES = [((3, 4),), ((5,),), ((),), ((2, 1, 3),)]


# ----------------------------------------------------------------------------- value domains
def half_integers(rng, shape):
    """k + 0.5 (+-0.1): never within 0.4 of a multiple of an even divisor (no remainder kinks)."""
    return rng.integers(-6, 7, shape) + 0.5 + rng.uniform(-0.1, 0.1, shape)


def even_divisors(rng, shape):
    return rng.choice([-4.0, -2.0, 2.0, 4.0], shape)


def unit(rng, shape):
    return rng.uniform(-1.0, 1.0, shape)


def _binary(op, fn, ref, domains=(normal, normal), **kw):
    return Case(op, fn, ref=ref, shapes=BINARY_SHAPES, domains=domains, **kw)


def _unary(op, fn, ref, domain=normal, **kw):
    return Case(op, fn, ref=ref, shapes=UNARY_SHAPES, domains=(domain,), **kw)


ARITHMETIC = [
    _binary('Add', ops.add, np.add),
    _binary('Sub', ops.sub, np.subtract),
    _binary('Mul', ops.mul, np.multiply),
    _binary('Div', ops.div, np.divide, (normal, away_from_zero)),
    _binary('Pow', ops.pow, np.power, (positive, normal)),
    _unary('Pow', lambda x: ops.pow(x, 3), lambda x: x ** 3, name='pow_int_exponent'),
    _unary('Pow', lambda x: x ** 2.5, lambda x: x ** 2.5, positive, name='pow_float_exponent'),
    _unary('Pow', lambda x: 2.0 ** x, lambda x: 2.0 ** x, name='pow_scalar_base'),
    _binary('Remainder', ops.remainder, np.remainder, (half_integers, even_divisors)),
    _binary('FloorMod', ops.floor_mod, np.remainder, (half_integers, even_divisors)),
    _unary('Sub', lambda x: 1.5 - x, lambda x: 1.5 - x, name='rsub_scalar'),
    _unary('Mul', lambda x: 2 / x, lambda x: 2 / x, away_from_zero,
           name='rdiv_scalar'),
    _unary('Neg', ops.neg, np.negative),
    _unary('Square', ops.square, np.square),
    _unary('Identity', ops.identity, lambda x: x),
    _unary('Identity', lambda x: ops.identity(x, copy=True), lambda x: x, name='identity_copy'),
    Case('BroadcastTo', lambda x: ops.broadcast_to(x, (2, 3, 4)),
         ref=lambda x: np.broadcast_to(x, (2, 3, 4)), name='broadcast_to',
         shapes=[((3, 1),), ((4,),), ((1, 3, 4),), ((),), ((2, 1, 1),)]),
    Case('BroadcastTo', lambda x: ops.broadcast_to(x, (2, -1, 4)),
         ref=lambda x: np.broadcast_to(x, (2, 3, 4)), name='broadcast_to_keep',
         shapes=[((3, 1),), ((1, 3, 4),)]),
    Case('SumTo', lambda x: ops.sum_to(x, (3, 1)), ref=lambda x: _sum_to(x, (3, 1)),
         name='sum_to', shapes=[((2, 3, 4),), ((3, 4),), ((3, 1),)]),
    Case('SumTo', lambda x: ops.sum_to(x, (4,)), ref=lambda x: _sum_to(x, (4,)),
         name='sum_to_lead', shapes=[((2, 3, 4),), ((1, 4),)]),
    Case('SumTo', lambda x: ops.sum_to(x, ()), ref=lambda x: np.asarray(x.sum()),
         name='sum_to_scalar', shapes=[((2, 3),), ((),)]),
]


def _cast(name, fn, ref):
    return Case('Cast', fn, ref=ref, name=name, shapes=[((3, 4),), ((),)], domains=(unit,),
                grad=False)


# Round trips through a narrower float type and back to the input's type. The rounding defeats
# the generic finite-difference step, so test_cast_backward checks their gradients with a wide
# step (casts are linear, so the difference quotient stays exact).
CASTS = [
    _cast('f64_to_f32_and_back', lambda x: ops.cast(ops.cast(x, ms.float32), x.dtype),
          lambda x: x.astype(np.float32).astype(x.dtype)),
    _cast('f64_to_f16_and_back',
          lambda x: ops.cast(ops.cast(x, np.float16), x.asnumpy().dtype.name),
          lambda x: x.astype(np.float16).astype(x.dtype)),
    _cast('tensor_astype', lambda x: x.astype(ms.float32).astype(x.dtype),
          lambda x: x.astype(np.float32).astype(x.dtype)),
]
# finite-difference step and tolerance per cast row
CAST_STEPS = {'f64_to_f32_and_back': (1e-2, 1e-4), 'f64_to_f16_and_back': (0.25, 1e-2),
              'tensor_astype': (1e-2, 1e-4)}

# integer casts (their gradients, MindSpore's, are in test_cast_gradients.py: not finite
# differences) and the ops without a gradient: rounded division
DISCRETE = [
    _unary('Cast', lambda x: ops.cast(x * 4, ms.int32),
           lambda x: (x * 4).astype(np.int32), grad=False, name='cast_to_int32'),
    _unary('Cast', lambda x: ops.cast(x, ms.bool_), lambda x: x.astype(bool),
           grad=False, name='cast_to_bool'),
    _binary('FloorDiv', ops.floor_divide, np.floor_divide, (normal, away_from_zero), grad=False),
    _binary('RoundedDiv', lambda a, b: ops.div(a, b, rounding_mode='floor'),
            lambda a, b: np.floor(a / b), (normal, away_from_zero), grad=False,
            name='div_floor'),
    _binary('RoundedDiv', lambda a, b: ops.div(a, b, rounding_mode='trunc'),
            lambda a, b: np.trunc(a / b), (normal, away_from_zero), grad=False,
            name='div_trunc'),
]

CASES = ARITHMETIC + CASTS + DISCRETE


globals().update(row_tests(CASES))


def test_nonlinear_ops_double_backward_directly():
    rng = np.random.default_rng(3)
    a, b = positive(rng, (3, 1)), normal(rng, (1, 4))
    check_double_grad(ops.pow, a, b)
    check_double_grad(ops.div, normal(rng, (3, 4)), away_from_zero(rng, (4,)))
    check_double_grad(ops.mul, normal(rng, (3, 4)), normal(rng, (3, 1)))
    check_double_grad(ops.square, normal(rng, (2, 3)))


# ----------------------------------------------------------------------------- cast
@pytest.mark.parametrize('case,shapes', params(CASTS))
def test_cast_backward(case, shapes):
    eps, tol = CAST_STEPS[case.label]
    x, = case.arrays(shapes)
    check_grad(case.fn, x, eps=eps, atol=tol, rtol=tol)
    check_double_grad(lambda t: ops.square(case.fn(t)), x, eps=eps, atol=10 * tol, rtol=10 * tol)


def test_cast_forward_dtypes_and_gradient_dtype():
    x = ms.Tensor(np.array([1.7, -2.2], np.float32), requires_grad=True)
    y = ops.cast(x, ms.float64)
    assert y.dtype == ms.float64 and y.requires_grad
    y.backward(ms.Tensor(np.array([1.0, 2.0])))
    assert x.grad.dtype == ms.float32
    np.testing.assert_array_equal(x.grad.asnumpy(), [1.0, 2.0])
    i = ops.cast(x, ms.int32)
    assert i.dtype == ms.int32 and i.requires_grad      # MindSpore's Cast passes gradients
    np.testing.assert_array_equal(i.asnumpy(), [1, -2])
    assert not ops.cast(x.detach(), ms.int32).requires_grad
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
     r"ops\.\w+: \w+: expected a Tensor or a Python number, got str"),
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


def test_rows_cover_exactly_the_ops_these_modules_define():
    modules = {arithmetic.__name__, broadcast.__name__}
    defined = {name for name, op in OPS.items() if op.__module__ in modules}
    assert defined == {name for case in CASES for name in case.ops}


@pytest.mark.parametrize('here,default', [('GPU', 'CPU'), ('CPU', 'GPU')])
def test_host_operands_land_on_the_tensors_device(here, default):
    """A number, list or NumPy array beside a Tensor becomes a constant on that Tensor's device,
    whatever the default device; a device's array (one a backward rule saved) is taken as it
    is."""
    from hookgrad.kernels import backend
    from hookgrad.testing.cases import device_named
    x = ms.Tensor(np.array([1.0, 2.0], np.float32)).move_to(here)
    with backend.default_device(device_named(default)):
        ys = [x + [1.0, 2.0], x * np.float32(3.0), x - np.array([1.0, 1.0], np.float32),
              ops.lerp([0.0, 0.0], x, 0.5), ops.addn([x, np.ones(2, np.float32)])]
    want = 'GPU:0' if here == 'GPU' else 'CPU'
    assert [y.device for y in ys] == [want] * len(ys)
    np.testing.assert_array_equal(ys[0].asnumpy(), [2.0, 4.0])
    gpu = x.move_to('GPU')
    np.testing.assert_array_equal((gpu - gpu._data).asnumpy(), [0.0, 0.0])


def test_tuple_of_tensors_operand_is_stacked_and_differentiable():
    # MindSpore 2.10 converts ``(x, y) + t`` by stacking, so gradients reach x and y
    a = ms.Tensor(np.ones(3, np.float32))
    x = ms.Tensor(np.arange(3, dtype=np.float32))
    cases = [(lambda x: ((x, x) + a).sum(), 2.0), (lambda x: (a + (x, x * 2)).sum(), 3.0),
             (lambda x: (a - (x, 2 * x)).sum(), -3.0), (lambda x: ((x, 2 * x) - a).sum(), 3.0),
             (lambda x: ((1.0, 2.0, 3.0) + a * x).sum(), 1.0)]
    for f, want in cases:
        np.testing.assert_array_equal(ms.grad(f)(x).asnumpy(), np.full(3, want, np.float32))
    out = (x, x * 2) + a
    assert out.shape == (2, 3) and out.tolist() == [[1.0, 2.0, 3.0], [1.0, 3.0, 5.0]]
    with pytest.raises(ValueError, match="cannot be made a Tensor: .*same shape"):
        (x, 1.0) + a


def test_number_over_tensor_is_the_reciprocal_times_the_number_as_mindspore():
    # MindSpore 2.10 computes number / tensor as tensor.reciprocal() * number: these are its
    # values (0.1 / 1.25 is 0.08000000566, a true division gives 0.07999999821)
    b = ms.Tensor(np.array([1.25, 1.75, 3.0, 7.0, 3.0], np.float32))
    assert (0.1 / b).asnumpy().tolist() == [0.08000000566244125, 0.05714286118745804,
                                            0.03333333507180214, 0.01428571529686451,
                                            0.03333333507180214]
    assert (3 / b).asnumpy().tolist()[3] == 0.4285714626312256
    i = ms.Tensor(np.array([2, 4, 3], np.int32))
    assert (3 / i).dtype == ms.float32 and (3 / i).asnumpy().tolist() == [1.5, 0.75, 1.0]
    grad = ms.grad(lambda x: (3.0 / x).sum())(ms.Tensor(np.array([1.25, 7.0], np.float32)))
    assert grad.asnumpy().tolist() == [-1.9200000762939453, -0.06122449412941933]
