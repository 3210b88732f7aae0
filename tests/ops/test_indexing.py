"""Indexing and selection (getitem, setitem, take, gather, index_select, where, masked_fill and
the unindex/untake adjoints): forward against NumPy, gradients against finite differences."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import params, row_tests

MASK = np.random.default_rng(7).random((4, 5, 3)) > 0.5
ROWS = np.array([True, False, True, True])

# (id, index as hookgrad takes it); x has shape (4, 5, 3)
KEYS = [
    ('int', 2),
    ('negative_int', -1),
    ('slice', slice(1, 3)),
    ('negative_step', slice(None, None, -2)),
    ('tuple_basic', (slice(None), 2)),
    ('ellipsis', (Ellipsis, 1)),
    ('none', (None, 1, slice(None, None, 2))),
    ('scalar_result', (2, 3, 1)),
    ('list_repeated', [0, 0, 3]),
    ('negative_array', (np.array([1, -1, 1]),)),
    ('int_tensor', ms.Tensor([3, 1, 3])),
    ('int_tensor_0d', (slice(None), ms.Tensor(4))),
    ('advanced_separated', ([[0, 1], [3, 3]], slice(None), [2, 0])),
    ('advanced_adjacent', (1, [0, 2, 2], slice(None))),
    ('bool_rows', ROWS),
    ('bool_tensor_rows', (ms.Tensor(ROWS), slice(1, None))),
    ('bool_full_mask', MASK),
    ('bool_mask_tensor', ms.Tensor(MASK)),
    ('empty_list', []),
]


def np_key(index):
    """The same index with Tensors replaced by arrays (what NumPy is given as the reference)."""
    if isinstance(index, tuple):
        return tuple(np_key(i) for i in index)
    return index.asnumpy() if isinstance(index, ms.Tensor) else index


def _row(op, name, fn, ref, *shapes):
    """Indexing and selection copy values (or add them as NumPy does): the forward must match
    exactly."""
    return Case(op, fn, ref=ref, shapes=[shapes], name=name, rtol=0, atol=0)


def _getitem_row(name, key):
    return _row('GetItem', f"getitem-{name}", lambda t: t[key], lambda a: a[np_key(key)],
                (4, 5, 3))


GETITEM = [_getitem_row(name, key) for name, key in KEYS]


# ----------------------------------------------------------------------------- selection ops
def _batched_gather_ref(p, idx, axis, batch_dims):
    """gather with batch_dims by a loop over the batch (the definition)."""
    out = [np.take(p[b], idx[b], axis - batch_dims) for b in range(p.shape[0])]
    return np.stack(out)


def _unindex_ref(g, shape, key):
    out = np.zeros(shape, g.dtype)
    np.add.at(out, key, g)
    return out


def _untake_ref(g, shape, indices, axis):
    out = np.zeros(shape, g.dtype)
    for pos, i in np.ndenumerate(np.asarray(indices)):
        dst = (slice(None),) * axis + (i,)
        src = (slice(None),) * axis + pos
        out[dst] += g[src]
    return out


IDX = np.array([[2, 0], [2, 2], [1, 0]])
SELECTION = [
    _row('Take', 'gather_axis0', lambda x: ops.gather(x, ms.Tensor([3, 0, 3, 3]), 0),
         lambda a: a[[3, 0, 3, 3]], (4, 3)),
    _row('Take', 'gather_nd_indices', lambda x: ops.gather(x, ms.Tensor(IDX), 1),
         lambda a: np.take(a, IDX, 1), (2, 3, 4)),
    _row('Take', 'gather_negative_axis', lambda x: ops.gather(x, ms.Tensor([1, 1]), -1),
         lambda a: a[..., [1, 1]], (2, 3)),
    _row('Take', 'gather_0d_index', lambda x: ops.gather(x, ms.Tensor(2), 1),
         lambda a: a[:, 2], (2, 3)),
    _row('GetItem', 'gather_batch_dims', lambda x: ops.gather(x, ms.Tensor(IDX), 1, batch_dims=1),
         lambda a: _batched_gather_ref(a, IDX, 1, 1), (3, 4, 2)),
    _row(('GetItem', 'Transpose'), 'gather_batch_dims_inner_axis',
         lambda x: ops.gather(x, ms.Tensor(IDX), 2, batch_dims=1),
         lambda a: _batched_gather_ref(a, IDX, 2, 1), (3, 2, 3, 2)),
    _row('GetItem', 'gather_batch_dims_negative',
         lambda x: ops.gather(x, ms.Tensor(IDX), 1, batch_dims=-1),
         lambda a: _batched_gather_ref(a, IDX, 1, 1), (3, 4)),
    _row('Take', 'index_select', lambda x: ops.index_select(x, 1, ms.Tensor([2, 0, 2])),
         lambda a: a[:, [2, 0, 2]], (2, 3, 2)),
    _row(('Reshape', 'Take'), 'take_flat', lambda x: ops.take(x, ms.Tensor([5, -1, 0, 5])),
         lambda a: np.take(a, [5, -1, 0, 5]), (2, 3)),
    _row('Take', 'take_axis', lambda x: ops.take(x, [[0, 1], [1, 1]], axis=-1),
         lambda a: np.take(a, [[0, 1], [1, 1]], -1), (3, 2)),
    _row('Unindex', 'unindex', lambda g: ops.unindex(g, (4, 3), ([0, 0, 2], slice(1, None))),
         lambda a: _unindex_ref(a, (4, 3), ([0, 0, 2], slice(1, None))), (3, 2)),
    _row('Untake', 'untake', lambda g: ops.untake(g, (3, 4), ms.Tensor([[3, 3], [0, 1]]), 1),
         lambda a: _untake_ref(a, (3, 4), [[3, 3], [0, 1]], 1), (3, 2, 2)),
    _row('Where', 'where', lambda a, b: ops.where(ms.Tensor(MASK[0]), a, b),
         lambda a, b: np.where(MASK[0], a, b), (5, 3), (5, 3)),
    _row('Where', 'where_broadcast', lambda a, b: ops.where(ms.Tensor(MASK[:, :, 0]), a, b),
         lambda a, b: np.where(MASK[:, :, 0], a, b), (4, 1), (5,)),
    _row('Where', 'where_condition_broadcasts',
         lambda a, b: ops.where(ms.Tensor(MASK[0, :, :1]), a, b),
         lambda a, b: np.where(MASK[0, :, :1], a, b), (3,), ()),
    _row('Where', 'where_number_y', lambda a: ops.where(ms.Tensor(MASK[0]), a, 2.5),
         lambda a: np.where(MASK[0], a, 2.5), (5, 3)),
    _row('Where', 'where_number_x', lambda b: ops.where(ms.Tensor(MASK[0]), -1, b),
         lambda b: np.where(MASK[0], -1, b), (3,)),
    _row('Where', 'select', lambda a, b: ops.select(ms.Tensor(MASK[1]), a, b),
         lambda a, b: np.where(MASK[1], a, b), (5, 3), (5, 3)),
    _row('Where', 'masked_fill_number', lambda a: ops.masked_fill(a, ms.Tensor(MASK[0]), 0.5),
         lambda a: np.where(MASK[0], 0.5, a), (5, 3)),
    _row('Where', 'masked_fill_tensor', lambda a, v: ops.masked_fill(a, ms.Tensor(MASK[0]), v),
         lambda a, v: np.where(MASK[0], v, a), (5, 3), ()),
    _row('Where', 'masked_fill_broadcast_mask',
         lambda a, v: ops.masked_fill(a, ms.Tensor(MASK[0, 0]), v),
         lambda a, v: np.where(MASK[0, 0], v, a), (2, 3), ()),
]


# ----------------------------------------------------------------------------- setitem
def _assign(y, key, value):
    y[key] = value
    return y


def _setitem_into_non_leaf(a, b):
    y = a * 2.0
    y[1:, [0, 2]] = b       # b (1, 2) broadcasts over the (3, 2) region
    return y * a


def _setitem_row(name, key, vshape, op='SetItem'):
    def fn(a, v):
        return _assign(a * a, key, v) * 3.0
    return _row(op, f"setitem-{name}", fn, fn, (4, 3), vshape)


SETITEM = [
    _row('SetItem', 'setitem-non_leaf', _setitem_into_non_leaf, _setitem_into_non_leaf,
         (4, 3), (1, 2)),
    _setitem_row('int', 0, ()),
    _setitem_row('column', (slice(None), 1), (4,)),
    _setitem_row('bool_rows', ROWS, (1, 3)),
    _setitem_row('bool_mask', MASK[:, :, 0][:, :3], ()),
    _setitem_row('leading_ones', (Ellipsis, -1), (1, 1, 4), op=('SetItem', 'Reshape')),
    _setitem_row('list', [2, 0], (3,)),
]
CASES = GETITEM + SELECTION + SETITEM


globals().update(row_tests(CASES))


@pytest.mark.parametrize('case,shapes', params(CASES))
def test_float32_outputs_are_exact(case, shapes):
    arrays = case.arrays(shapes, np.float32)
    got = case.fn(*[ms.Tensor(a) for a in arrays])
    np.testing.assert_array_equal(got.asnumpy(), case.ref(*arrays))


def test_getitem_repeated_indices_accumulate():
    x = ms.Tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x[[0, 0, 2, 0]]
    y.backward(ms.Tensor([1.0, 10.0, 100.0, 1000.0]))
    np.testing.assert_array_equal(x.grad.asnumpy(), [1011.0, 0.0, 100.0])


def test_getitem_of_a_constant_records_nothing_and_iteration_uses_it():
    x = ms.Tensor([[1, 2], [3, 4]])
    assert x[0].grad_fn is None and not x[0].requires_grad
    assert [r.tolist() for r in x] == [[1, 2], [3, 4]]
    assert isinstance(x[1, 1].asnumpy(), np.ndarray) and x[1, 1].shape == ()


def test_gather_repeated_indices_accumulate():
    x = ms.Tensor(np.ones((3, 2)), requires_grad=True)
    ops.gather(x, ms.Tensor([2, 2, 0, 2]), 0).backward(ms.Tensor(np.ones((4, 2))))
    np.testing.assert_array_equal(x.grad.asnumpy(), [[1, 1], [0, 0], [3, 3]])


def test_where_routes_the_gradient_by_the_condition():
    a = ms.Tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = ms.Tensor([10.0], requires_grad=True)
    ops.where(ms.Tensor([True, False, True]), a, b).backward(ms.Tensor([1.0, 2.0, 4.0]))
    np.testing.assert_array_equal(a.grad.asnumpy(), [1.0, 0.0, 4.0])
    np.testing.assert_array_equal(b.grad.asnumpy(), [2.0])


def test_where_dtypes_and_non_bool_condition():
    c = ms.Tensor([1, 0])
    assert ops.where(c, ms.Tensor([1.0, 2.0]), 0).dtype == ms.float32
    assert ops.where(c, 1, 2).dtype == ms.int64
    np.testing.assert_array_equal(ops.where(c, 1, 2).asnumpy(), [1, 2])


def test_masked_fill_keeps_the_input_dtype():
    x = ms.Tensor([1, 2, 3])
    y = ops.masked_fill(x, ms.Tensor([True, False, True]), 7.0)
    assert y.dtype == ms.int64
    np.testing.assert_array_equal(y.asnumpy(), [7, 2, 7])
    z = ms.Tensor([1.0, 2.0]).masked_fill(ms.Tensor([False, True]), ms.Tensor(5, ms.int32))
    assert z.dtype == ms.float32
    np.testing.assert_array_equal(z.asnumpy(), [1.0, 5.0])


def test_setitem_on_a_non_leaf_rebinds_the_tensor_and_keeps_the_old_value_intact():
    a = ms.Tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 1.0
    old_node = y.grad_fn
    y[1] = 10.0
    assert y.grad_fn is not old_node and y.grad_fn.name == 'SetItem'
    np.testing.assert_array_equal(y.asnumpy(), [1.0, 10.0, 3.0])
    (y * a).backward(ms.Tensor(np.ones(3)))
    np.testing.assert_array_equal(a.grad.asnumpy(), [2.0, 10.0, 6.0])


def test_setitem_on_a_parameter_like_leaf_writes_in_place_without_a_graph():
    data = np.zeros(3, np.float32)
    p = ms.Tensor(data, requires_grad=True)
    arr = p._data
    p[0] = 1.0
    p[1:] = ms.Tensor([2.0, 3.0], requires_grad=True)
    assert p.is_leaf and p.grad_fn is None and p.requires_grad
    assert p._data is arr
    np.testing.assert_array_equal(p.asnumpy(), [1.0, 2.0, 3.0])


def test_setitem_on_a_constant_with_a_value_that_requires_grad_records():
    w = ms.Tensor([2.0, 3.0], requires_grad=True)
    out = ms.Tensor(np.zeros(4))
    out[1:3] = w * w
    assert out.grad_fn is not None
    out.backward(ms.Tensor([1.0, 1.0, 5.0, 1.0]))
    np.testing.assert_array_equal(w.grad.asnumpy(), [4.0, 30.0])


def test_setitem_under_no_grad_writes_in_place():
    a = ms.Tensor([1.0, 2.0], requires_grad=True)
    y = a * 1.0
    node = y.grad_fn
    with ms.no_grad():
        y[0] = 5.0
    assert y.grad_fn is node
    np.testing.assert_array_equal(y.asnumpy(), [5.0, 2.0])


def test_setitem_copies_a_read_only_array_first():
    base = ms.Tensor([1.0, 2.0])
    x = ops.broadcast_to(base, (2, 2))
    x[0, 0] = 9.0
    np.testing.assert_array_equal(x.asnumpy(), [[9.0, 2.0], [1.0, 2.0]])
    np.testing.assert_array_equal(base.asnumpy(), [1.0, 2.0])


def test_setitem_casts_the_value_to_the_tensor_dtype():
    x = ms.Tensor([1, 2, 3])
    x[0] = 7.9
    x[1:] = ms.Tensor([4.5, 5.5])
    assert x.dtype == ms.int64
    np.testing.assert_array_equal(x.asnumpy(), [7, 4, 5])
    a = ms.Tensor([1.0, 2.0], requires_grad=True)
    y = a * 1.0
    y[ms.Tensor([True, False])] = ms.Tensor(4)
    assert y.dtype == ms.float32
    np.testing.assert_array_equal(y.asnumpy(), [4.0, 2.0])


# ----------------------------------------------------------------------------- errors
def _t(*shape):
    return ms.Tensor(np.zeros(shape, np.float32))


def _set(x, key, value):
    x[key] = value


def _set_recorded(key, value):
    y = ms.Tensor(np.zeros(3), requires_grad=True) * 1.0
    y[key] = value


ERRORS = [
    (lambda: _t(4, 5)[4], IndexError,
     r"ops\.getitem: index 4 is invalid for a tensor of shape \(4, 5\): index 4 is out of bounds"),
    (lambda: _t(4, 5)[:, [0, -6]], IndexError,
     r"ops\.getitem: index \(:, \[0, -6\]\) is invalid for a tensor of shape \(4, 5\)"),
    (lambda: _t(4, 5)[ms.Tensor([True, False])], IndexError,
     r"ops\.getitem: index \[True, False\] is invalid for a tensor of shape \(4, 5\)"),
    (lambda: _t(4)[ms.Tensor([0.5])], IndexError,
     r"ops\.getitem: index \[0\.5\] is invalid for a tensor of shape \(4,\)"),
    (lambda: _t(4)[np.arange(20)], IndexError,
     r"ops\.getitem: index <int64 array of shape \(20,\)> is invalid for a tensor of shape"),
    (lambda: _set(_t(3), 5, 1.0), IndexError,
     r"ops\.setitem: index 5 is invalid for a tensor of shape \(3,\)"),
    (lambda: _set(_t(3), slice(0, 2), ms.Tensor([1.0, 2.0, 3.0])), ValueError,
     r"ops\.setitem: cannot assign a value of shape \(3,\) to x\[0:2\] of shape \(2,\)"),
    (lambda: _set_recorded(5, 1.0), IndexError,
     r"ops\.setitem: index 5 is invalid for a tensor of shape \(3,\)"),
    (lambda: _set_recorded(slice(1, None), ms.Tensor([1.0, 2.0, 3.0])), ValueError,
     r"ops\.setitem: cannot assign a value of shape \(3,\) to x\[1:\] of shape \(2,\)"),
    (lambda: ops.setitem([1, 2], 0, 1), TypeError, r"ops\.setitem: x must be a Tensor, got list"),
    (lambda: ops.gather(_t(3, 2), ms.Tensor([3]), 0), IndexError,
     r"ops\.gather: index out of range for axis 0 of a tensor of shape \(3, 2\): index 3"),
    (lambda: ops.gather(_t(3, 2), ms.Tensor([0]), 2), ValueError,
     r"ops\.gather: axis 2 is out of range for a tensor of rank 2"),
    (lambda: ops.gather(_t(3, 2), ms.Tensor([0.0]), 0), TypeError,
     r"ops\.gather: indices must be integers, got dtype float32"),
    (lambda: ops.gather(_t(3, 2), ms.Tensor([[0], [1]]), 1, batch_dims=1), ValueError,
     r"ops\.gather: batch_dims 1 does not fit params of shape \(3, 2\), indices of shape "
     r"\(2, 1\) and axis 1"),
    (lambda: ops.gather(_t(2, 2), ms.Tensor([[0], [2]]), 1, batch_dims=1), IndexError,
     r"ops\.gather: index out of range for axis 1 of a tensor of shape \(2, 2\)"),
    (lambda: ops.index_select(_t(3, 2), 0, ms.Tensor([[0]])), ValueError,
     r"ops\.index_select: index must be 1-D, got shape \(1, 1\)"),
    (lambda: ops.index_select(_t(3, 2), 1, ms.Tensor([-3])), IndexError,
     r"ops\.index_select: index out of range for axis 1 of a tensor of shape \(3, 2\)"),
    (lambda: ops.take(_t(3, 2), [6]), IndexError,
     r"ops\.take: index out of range for axis 0 of a tensor of shape \(6,\)"),
    (lambda: ops.take(_t(3, 2), [0], axis=2.0), TypeError, r"ops\.take: axis must be an int"),
    (lambda: ops.where(ms.Tensor([True, False]), _t(3), 0.0), ValueError,
     r"ops\.where: shapes \(2,\) \(condition\), \(3,\) \(x\) and \(\) \(y\) cannot be broadcast"),
    (lambda: ops.masked_fill(_t(3), ms.Tensor([True, False]), 1.0), ValueError,
     r"ops\.masked_fill: mask of shape \(2,\) does not broadcast with input_x of shape \(3,\)"),
    (lambda: ops.masked_fill(_t(2), ms.Tensor([True, False]), _t(2)), ValueError,
     r"ops\.masked_fill: value must be a number or a 0-d Tensor, got shape \(2,\)"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_errors_name_the_op_the_index_and_the_shape(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_gather_negative_batch_dims_counts_from_the_indices_rank():
    # values from MindSpore 2.10: batch_dims=-1 with 1-d indices is batch_dims=0
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    i = ms.Tensor(np.array([1, 0]), ms.int32)
    expected = [[1.0, 0.0], [4.0, 3.0]]
    np.testing.assert_array_equal(ops.gather(x, i, 1, batch_dims=-1).asnumpy(), expected)
    np.testing.assert_array_equal(ops.Gather(batch_dims=-1)(x, i, 1).asnumpy(), expected)
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    i = ms.Tensor(np.array([[1, 0], [2, 3], [0, 0]]), ms.int32)
    assert ops.gather(x, i, 1, batch_dims=-2).shape == (3, 3, 2)
    assert ops.gather(x, i, 1, batch_dims=-1).shape == (3, 2)
    with pytest.raises(TypeError, match=r"ops\.gather: batch_dims must be an int, got 1\.0"):
        ops.gather(x, i, 1, batch_dims=1.0)


@pytest.mark.parametrize('value', [None, 'a', [None, 1.0], complex(1, 2)])
def test_setitem_refuses_values_that_are_not_numbers(value):
    x = ms.Tensor([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match=r"ops\.setitem: value must be a Tensor, a number or an "
                                        r"array of numbers, got"):
        x[0:2] = value
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0, 3.0])


@pytest.mark.parametrize('fn,kind,message', [
    (lambda g: ops.unindex(g, (2, 3), (slice(None), [0, 5])), IndexError,
     r"ops\.unindex: g of shape \(2, 2\) cannot be added at key \(:, \[0, 5\]\) of a tensor of "
     r"shape \(2, 3\)"),
    (lambda g: ops.unindex(g, 'bad', 0), TypeError,
     r"ops\.unindex: shape must be a tuple of non-negative ints, got 'bad'"),
    (lambda g: ops.untake(g, (5,), ms.Tensor([0, 7]), 0), IndexError,
     r"ops\.untake: g of shape \(2, 2\) cannot be added at indices of shape \(2,\) along axis 0"),
])
def test_adjoint_errors_name_the_op_and_arguments(fn, kind, message):
    with pytest.raises(kind, match=message):
        fn(ms.Tensor(np.ones((2, 2), np.float32)))
