"""Creation functions, one_hot, stop_gradient and assign against NumPy."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.autograd.function import OPS
from hookgrad.ops import creation
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

DTYPE_SPELLINGS = [ms.float64, np.float64, np.dtype(np.float64), 'float64']


# ----------------------------------------------------------------------------- filled tensors
# name, call, expected NumPy array
FILLED = [
    ('ones_int', lambda: ops.ones(3), np.ones(3, np.float32)),
    ('ones_tuple', lambda: ops.ones((2, 3)), np.ones((2, 3), np.float32)),
    ('ones_list_int32', lambda: ops.ones([2, 1], ms.int32), np.ones((2, 1), np.int32)),
    ('ones_empty', lambda: ops.ones((0, 2)), np.ones((0, 2), np.float32)),
    ('ones_scalar_shape', lambda: ops.ones(()), np.ones((), np.float32)),
    ('zeros_tuple', lambda: ops.zeros((2, 3)), np.zeros((2, 3), np.float32)),
    ('zeros_bool', lambda: ops.zeros(2, dtype=ms.bool_), np.zeros(2, np.bool_)),
    ('zeros_tensor_shape', lambda: ops.zeros(ms.Tensor([2, 2])), np.zeros((2, 2), np.float32)),
    ('fill', lambda: ops.fill(ms.float32, (2, 2), 3), np.full((2, 2), 3, np.float32)),
    ('fill_int', lambda: ops.fill(ms.int32, 3, 7), np.full(3, 7, np.int32)),
    ('fill_tensor_value', lambda: ops.fill(ms.float64, (2,), ms.Tensor(1.5)),
     np.full(2, 1.5, np.float64)),
    # without a dtype, ops.full is Int64 whatever the value (MindSpore 2.10: full((2, 3), 1.2)
    # is Int64 ones, NaN gives Int64's minimum); mint.full takes the value's dtype
    ('full_float', lambda: ops.full((2, 3), 1.5), np.ones((2, 3), np.int64)),
    ('full_negative_float', lambda: ops.full((2,), -3.7), np.array([-3, -3], np.int64)),
    ('full_nan', lambda: ops.full((2,), float('nan')), np.full(2, np.iinfo(np.int64).min)),
    ('full_int', lambda: ops.full((2,), 4), np.full(2, 4, np.int64)),
    ('full_bool', lambda: ops.full((2,), True), np.ones(2, np.int64)),
    ('mint_full_float', lambda: ms.mint.full((2, 3), 1.5), np.full((2, 3), 1.5, np.float32)),
    ('mint_full_int', lambda: ms.mint.full((2,), 4), np.full(2, 4, np.int64)),
    ('mint_full_bool', lambda: ms.mint.full((2,), True), np.full(2, True)),
    ('mint_full_tensor_value', lambda: ms.mint.full((2,), ms.Tensor(3, ms.int32)),
     np.full(2, 3, np.int32)),
    ('full_dtype', lambda: ops.full(3, 2, dtype=ms.float16), np.full(3, 2, np.float16)),
    ('full_tensor_value', lambda: ops.full((2,), ms.Tensor(3, ms.int32)),
     np.full(2, 3, np.int64)),
    ('eye', lambda: ops.eye(3), np.eye(3, dtype=np.float32)),
    ('eye_rect', lambda: ops.eye(2, 4), np.eye(2, 4, dtype=np.float32)),
    ('eye_dtype', lambda: ops.eye(2, dtype=ms.int64), np.eye(2, dtype=np.int64)),
    ('arange_end', lambda: ops.arange(5), np.arange(5)),
    ('arange_start_end', lambda: ops.arange(2, 7), np.arange(2, 7)),
    ('arange_step', lambda: ops.arange(0, 10, 3), np.arange(0, 10, 3)),
    ('arange_negative_step', lambda: ops.arange(5, 0, -2), np.arange(5, 0, -2)),
    ('arange_float', lambda: ops.arange(0, 1, 0.25), np.arange(0, 1, 0.25).astype(np.float32)),
    ('arange_float_end', lambda: ops.arange(2.5), np.arange(2.5).astype(np.float32)),
    ('arange_dtype', lambda: ops.arange(3, dtype=ms.float64), np.arange(3, dtype=np.float64)),
    ('arange_empty', lambda: ops.arange(2, 2), np.arange(2, 2)),
    ('arange_tensors', lambda: ops.arange(ms.Tensor(1), ms.Tensor(4)), np.arange(1, 4)),
    ('linspace', lambda: ops.linspace(0, 1, 5), np.linspace(0, 1, 5).astype(np.float32)),
    ('linspace_one', lambda: ops.linspace(2, 3, 1), np.array([2.0], np.float32)),
    ('linspace_reverse', lambda: ops.linspace(1.0, -1.0, 4),       # MindSpore 2.10's values
     np.array([1.0, 0.3333333134651184, -0.3333333730697632, -1.0], np.float32)),
]


@pytest.mark.parametrize('call,want', [pytest.param(c, w, id=n) for n, c, w in FILLED])
def test_filled_tensors(call, want):
    y = call()
    assert isinstance(y, ms.Tensor)
    assert not y.requires_grad and y.grad_fn is None
    got = y.asnumpy()
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize('dtype', DTYPE_SPELLINGS)
def test_dtype_spellings(dtype):
    for y in (ops.ones(2, dtype), ops.zeros(2, dtype), ops.full(2, 1, dtype=dtype),
              ops.fill(dtype, 2, 1), ops.eye(2, dtype=dtype), ops.arange(2, dtype=dtype),
              ops.ones_like(ms.Tensor([1, 2]), dtype=dtype)):
        assert y.dtype == ms.float64


@pytest.mark.parametrize('fn,value', [(ops.ones_like, 1), (ops.zeros_like, 0),
                                      (lambda x, **kw: ops.full_like(x, 7, **kw), 7)])
def test_like_functions(fn, value):
    x = ms.Tensor(np.arange(6, dtype=np.float64).reshape(2, 3), requires_grad=True)
    y = fn(x)
    assert y.shape == (2, 3) and y.dtype == ms.float64 and not y.requires_grad
    np.testing.assert_array_equal(y.asnumpy(), np.full((2, 3), value))
    z = fn(ms.Tensor([1, 2]), dtype=ms.float32)
    assert z.dtype == ms.float32
    np.testing.assert_array_equal(z.asnumpy(), [value, value])
    assert fn(x).asnumpy() is not x.asnumpy()


def test_like_functions_do_not_alias_each_other():
    a = ops.zeros((2,))
    b = ops.zeros((2,))
    a.asnumpy()[0] = 5
    assert b.asnumpy()[0] == 0


SHAPE_ERRORS = [
    (lambda: ops.ones((2, -1)), ValueError, r"ops\.ones: shape \(2, -1\) has a negative"),
    (lambda: ops.zeros(-3), ValueError, r"ops\.zeros: shape \(-3,\) has a negative"),
    (lambda: ops.ones((2.0, 3)), TypeError, r"ops\.ones: shape must contain only ints"),
    (lambda: ops.zeros('3'), TypeError, r"ops\.zeros: shape must be an int or a tuple"),
    (lambda: ops.full(True, 1), TypeError, r"ops\.full: shape must be an int or a tuple"),
    (lambda: ops.zeros(ms.Tensor([2.0])), TypeError, r"ops\.zeros: a shape Tensor must be"),
    (lambda: ops.fill(ms.float32, (2,), 'a'), TypeError, r"ops\.fill: value must be a number"),
    (lambda: ops.fill('complex', (2,), 1), TypeError, r"unknown dtype name 'complex'"),
    (lambda: ops.full((2,), ms.Tensor([1, 2])), ValueError,
     r"ops\.full: fill_value must be a number or a one-element Tensor, got a Tensor of shape "
     r"\(2,\)"),
    (lambda: ops.eye(-1), ValueError, r"ops\.eye: n must be non-negative, got -1"),
    (lambda: ops.eye(2, 1.5), TypeError, r"ops\.eye: m must be an int, got 1\.5"),
    (lambda: ops.arange(0, 5, 0), ValueError, r"ops\.arange: step must not be 0"),
    (lambda: ops.arange(5, 0), ValueError,
     r"ops\.arange: step 1 moves away from end: start 5, end 0"),
    (lambda: ops.arange(0, 5, -1), ValueError, r"ops\.arange: step -1 moves away from end"),
    (lambda: ops.arange('a', 5), TypeError, r"ops\.arange: start must be a number, got str"),
    (lambda: ops.arange('a'), TypeError, r"ops\.arange: end must be a number, got str"),
    (lambda: ops.linspace(0, 1, 0), ValueError, r"ops\.linspace: steps must be positive, got 0"),
    (lambda: ops.linspace(0, 1, 2.0), TypeError, r"ops\.linspace: steps must be an int"),
    (lambda: ops.ones_like('x'), TypeError, r"input must be a Tensor, got str"),
]


@pytest.mark.parametrize('call,exc,match', SHAPE_ERRORS)
def test_creation_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ----------------------------------------------------------------------------- one_hot
def _one_hot_ref(indices, depth, on, off, axis):
    eye = np.eye(depth)[np.clip(indices, 0, depth - 1)]
    eye[(indices < 0) | (indices >= depth)] = 0
    y = np.where(eye == 1, on, off)
    return np.moveaxis(y, -1, axis)


def _indices(rng, shape):
    """Indices in [-1, 4], with -1 and 4 out of range for depth 4."""
    return rng.integers(-1, 5, size=shape)


def _constant(value):
    return lambda rng, shape: np.full(shape, value)


def _one_hot_row(axis):
    """one_hot at depth 4 with Tensor on/off values; axis 'last' is the rank of the indices."""
    def place(indices):
        return indices.ndim if axis == 'last' else axis

    return Case('OneHot', lambda idx, on, off: ops.one_hot(idx, 4, on, off, place(idx)),
                ref=lambda idx, on, off: _one_hot_ref(idx, 4, on, off, place(idx)),
                shapes=[((5,), (), ()), ((2, 3), (), ()), ((), (), ())],
                domains=(_indices, _constant(2.0), _constant(-1.0)), name=f"one_hot-axis={axis}",
                grad=False, rtol=0, atol=0)


CASES = [_one_hot_row(axis) for axis in (-1, 0, 'last')]


globals().update(row_tests(CASES))


def test_one_hot_dtypes_and_defaults():
    idx = ms.Tensor(np.array([0, 2], np.int32))
    y = ops.one_hot(idx, 3)
    assert y.dtype == ms.int64
    np.testing.assert_array_equal(y.asnumpy(), [[1, 0, 0], [0, 0, 1]])
    assert ops.one_hot(idx, 3, 1.0, 0.0).dtype == ms.float32
    assert ops.one_hot(idx, 3, ms.Tensor(1, ms.int32), 0.0).dtype == ms.int32
    assert ops.one_hot(idx, 3, ms.Tensor(1.0, ms.float64), ms.Tensor(0.0)).dtype == ms.float64
    assert ops.one_hot(idx, 0).shape == (2, 0)


def test_one_hot_passes_no_gradient_to_on_off():
    on = ms.Tensor(1.0, requires_grad=True)
    y = ops.one_hot(ms.Tensor([1, 0]), 2, on, ms.Tensor(0.0))
    assert not y.requires_grad and y.grad_fn is None


ONE_HOT_ERRORS = [
    (lambda: ops.one_hot(ms.Tensor([0.0, 1.0]), 2), TypeError,
     r"ops\.one_hot: indices must be an integer tensor, got Float32"),
    (lambda: ops.one_hot(ms.Tensor([0, 1]), -2), ValueError,
     r"ops\.one_hot: depth must be non-negative, got -2"),
    (lambda: ops.one_hot(ms.Tensor([0, 1]), 2, axis=2), ValueError,
     r"ops\.one_hot: axis 2 is out of range for indices of rank 1 \(expected -2\.\.1\)"),
    (lambda: ops.one_hot(ms.Tensor([0, 1]), 2, ms.Tensor([1.0, 2.0])), ValueError,
     r"ops\.one_hot: on_value must be a number or a 0-d Tensor, got a Tensor of shape \(2,\)"),
    (lambda: ops.one_hot(ms.Tensor([0, 1]), 2, 1, 'x'), TypeError,
     r"ops\.one_hot: off_value must be a number, got str"),
]


@pytest.mark.parametrize('call,exc,match', ONE_HOT_ERRORS)
def test_one_hot_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ----------------------------------------------------------------------------- stop_gradient
def test_stop_gradient_cuts_the_graph():
    x = ms.Tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    s = ops.stop_gradient(y)
    assert not s.requires_grad and s.grad_fn is None
    np.testing.assert_array_equal(s.asnumpy(), [3.0, 6.0])
    z = y * s      # d/dx = 3 * s, the stopped factor is a constant
    z.backward(ms.Tensor([1.0, 1.0]))
    np.testing.assert_array_equal(x.grad.asnumpy(), [9.0, 18.0])


def test_stop_gradient_keeps_structure():
    a = ms.Tensor([1.0], requires_grad=True) * 2
    b = ms.Tensor([2.0], requires_grad=True) * 2
    t = ops.stop_gradient((a, [b, None], 3))
    assert isinstance(t, tuple) and isinstance(t[1], list)
    assert not t[0].requires_grad and not t[1][0].requires_grad
    assert t[1][1] is None and t[2] == 3
    np.testing.assert_array_equal(t[1][0].asnumpy(), [4.0])


# ----------------------------------------------------------------------------- assign
def test_assign_writes_in_place_and_casts():
    v = ms.Tensor(np.zeros((2, 2), np.float32), requires_grad=True)
    data = v.asnumpy()
    out = ops.assign(v, ms.Tensor(np.arange(4, dtype=np.float64).reshape(2, 2)))
    assert out is v
    assert v.asnumpy() is data or np.shares_memory(v.asnumpy(), data)
    assert v.dtype == ms.float32 and v.requires_grad and v.grad_fn is None
    np.testing.assert_array_equal(data, [[0, 1], [2, 3]])


def test_assign_from_numbers_arrays_and_lists():
    v = ms.Tensor(np.zeros(3, np.int32))
    ops.assign(v, 5)
    np.testing.assert_array_equal(v.asnumpy(), [5, 5, 5])
    ops.assign(v, np.array([1.7, 2.2, 3.9]))
    np.testing.assert_array_equal(v.asnumpy(), [1, 2, 3])
    ops.assign(v, [4, 5, 6])
    np.testing.assert_array_equal(v.asnumpy(), [4, 5, 6])
    assert v.dtype == ms.int32


def test_assign_to_read_only_data_replaces_it():
    v = ops.broadcast_to(ms.Tensor([1.0, 2.0]), (2, 2))
    ops.assign(v, ms.Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_array_equal(v.asnumpy(), np.ones((2, 2)))
    assert v.asnumpy().flags.writeable


def test_assign_records_nothing():
    v = ms.Tensor([1.0, 2.0], requires_grad=True)
    w = ms.Tensor([3.0, 4.0], requires_grad=True)
    ops.assign(v, w * 2)
    assert v.is_leaf and v.grad_fn is None


ASSIGN_ERRORS = [
    (lambda: ops.assign(np.zeros(2), ms.Tensor([1.0, 2.0])), TypeError,
     r"ops\.assign: variable must be a Tensor, got ndarray"),
    (lambda: ops.assign(ms.Tensor(np.zeros((2, 3))), ms.Tensor(np.zeros((3, 2)))), ValueError,
     r"ops\.assign: value has shape \(3, 2\), but variable has shape \(2, 3\)"),
    (lambda: ops.assign(ms.Tensor(np.zeros(2)), ms.Tensor(1.0)), ValueError,
     r"ops\.assign: value has shape \(\), but variable has shape \(2,\)"),
]


@pytest.mark.parametrize('call,exc,match', ASSIGN_ERRORS)
def test_assign_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_failed_assign_leaves_the_variable_unchanged():
    v = ms.Tensor([1.0, 2.0])
    with pytest.raises(ValueError, match="ops.assign"):
        ops.assign(v, ms.Tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(v.asnumpy(), [1.0, 2.0])


def test_rows_cover_exactly_the_ops_this_family_defines():
    defined = {name for name, op in OPS.items() if op.__module__ == creation.__name__}
    assert defined == {name for case in CASES for name in case.ops}


@pytest.mark.parametrize('make', [lambda v: ops.full((2, 3), v),
                                  lambda v: ops.fill(ms.float32, (2, 3), v),
                                  lambda v: ops.full_like(ops.zeros((2, 3)), v)])
def test_a_tensor_fill_value_gets_the_sum_of_the_gradient(make):
    w = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    grad = ms.grad(lambda v: (make(v) * w).sum())(ms.Tensor(3.0))
    assert float(grad) == 15.0          # MindSpore 2.10 gives 15.0 for all three


def test_a_tensor_fill_value_is_read_on_every_compiled_call():
    @ms.jit
    def double_filled(v):
        return ops.full((2,), v, dtype=ms.float32) * 2

    assert double_filled(ms.Tensor(1.0)).asnumpy().tolist() == [2.0, 2.0]
    assert double_filled(ms.Tensor(3.0)).asnumpy().tolist() == [6.0, 6.0]
    filled = ms.mint.full((2, 2), ms.Tensor(1.5))
    filled[0, 0] = 5                    # a new, writable tensor
    assert filled.asnumpy().tolist() == [[5.0, 1.5], [1.5, 1.5]]


# MindSpore 2.10's values: start + i * step computed in float32 (not NumPy's float64 grid)
LINSPACE_MINDSPORE = [
    ((0, 1, 7), [0.0, 0.1666666716337204, 0.3333333432674408, 0.5, 0.6666666865348816, 0.8333333730697632, 1.0]),
    ((-1.3, 2.9, 6), [-1.2999999523162842, -0.4599999785423279, 0.3799999952316284, 1.2200000286102295, 2.059999942779541, 2.8999998569488525]),
    ((0.1, 0.7, 13), [0.10000000149011612, 0.15000000596046448, 0.19999998807907104, 0.25, 0.29999998211860657, 0.3499999940395355, 0.3999999761581421, 0.44999995827674866, 0.4999999701976776, 0.550000011920929, 0.5999999642372131, 0.6499999761581421, 0.699999988079071]),
    ((3.1, -2.2, 17), [3.0999999046325684, 2.768749952316284, 2.4375, 2.1062498092651367, 1.7749998569488525, 1.4437499046325684, 1.1124998331069946, 0.7812497615814209, 0.4499998092651367, 0.11874985694885254, -0.21250009536743164, -0.5437502861022949, -0.8750002384185791, -1.2062501907348633, -1.5375003814697266, -1.8687500953674316, -2.200000286102295]),
    ((0.3, 0.3, 4), [0.30000001192092896, 0.30000001192092896, 0.30000001192092896, 0.30000001192092896]),
    ((2, 2.5, 2), [2.0, 2.5]),
    ((1, 5, 1), [1.0]),
]
ARANGE_MINDSPORE = [
    ((0, 1, 0.3), [0.0, 0.30000001192092896, 0.6000000238418579, 0.9000000357627869]),
    ((0.1, 7.3, 0.37), [0.10000000149011612, 0.4699999988079071, 0.8400000333786011, 1.2100000381469727, 1.5800000429153442, 1.9500000476837158, 2.319999933242798, 2.690000057220459, 3.059999942779541, 3.429999828338623, 3.799999952316284, 4.170000076293945, 4.539999961853027, 4.909999847412109, 5.28000020980835, 5.650000095367432, 6.019999980926514, 6.389999866485596, 6.759999752044678, 7.130000114440918]),
    ((-3.3, 5, 0.9), [-3.299999952316284, -2.4000000953674316, -1.5, -0.6000001430511475, 0.2999999523162842, 1.2000000476837158, 2.0999996662139893, 2.999999761581421, 3.8999998569488525, 4.799999237060547]),
    ((5, -2.2, -0.45), [5.0, 4.550000190734863, 4.099999904632568, 3.6500000953674316, 3.200000047683716, 2.75, 2.3000001907348633, 1.8500001430511475, 1.4000000953674316, 0.9500002861022949, 0.5, 0.05000019073486328, -0.39999961853027344, -0.8499999046325684, -1.299999713897705, -1.75]),
    ((0, 10, 1.5), [0.0, 1.5, 3.0, 4.5, 6.0, 7.5, 9.0]),
    ((2, 7, 1), [2, 3, 4, 5, 6]),
]


@pytest.mark.parametrize('args,want', LINSPACE_MINDSPORE)
def test_linspace_computes_in_float32_as_mindspore(args, want):
    got = ops.linspace(*args)
    assert got.dtype == ms.float32
    assert got.asnumpy().tolist() == want


@pytest.mark.parametrize('args,want', ARANGE_MINDSPORE)
def test_float_arange_computes_in_float32_as_mindspore(args, want):
    got = ops.arange(*args)
    assert got.asnumpy().tolist() == want


def test_arange_with_a_dtype_casts_the_float32_values():
    # MindSpore 2.10: float64 holds the float32 values; int32 truncates them
    assert ops.arange(0.5, 3, 0.7, dtype=ms.float64).asnumpy().tolist() == \
        [0.5, 1.2000000476837158, 1.899999976158142, 2.5999999046325684]
    assert ops.arange(0.0, 1.0, 0.1, dtype=ms.int32).asnumpy().tolist() == [0] * 10
