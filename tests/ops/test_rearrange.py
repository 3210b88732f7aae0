"""roll, repeat_interleave, meshgrid, swapaxes/moveaxis, unbind, narrow, slice,
strided_slice, fliplr/flipud/rot90, expand/view_as, atleast_*d, stack and split variants,
range: NumPy values, MindSpore's results, gradients, errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def _row(op, name, fn, ref, *shapes):
    """Rearrangements move values without arithmetic: the forward must match exactly."""
    return Case(op, fn, ref=ref, shapes=[shapes], name=name, rtol=0, atol=0)


ARANGE = np.arange(24).reshape(2, 3, 4)
CASES = [
    _row('Roll', 'roll', lambda x: ops.roll(x, 2), lambda a: np.roll(a, 2), (3, 4)),
    _row('Roll', 'roll_dims', lambda x: ops.roll(x, (1, -1), (0, 1)),
         lambda a: np.roll(a, (1, -1), (0, 1)), (3, 4)),
    _row('Roll', 'Roll', lambda x: ops.Roll(-2, 1)(x), lambda a: np.roll(a, -2, 1), (2, 5)),
    _row(('Take', 'Untake'), 'repeat_interleave', lambda x: ops.repeat_interleave(x, 2),
         lambda a: np.repeat(a, 2), (2, 3)),
    _row(('Take', 'Untake'), 'repeat_interleave_counts',
         lambda x: ops.repeat_interleave(x, ms.Tensor([1, 0, 3]), 1),
         lambda a: np.repeat(a, [1, 0, 3], 1), (2, 3)),
    _row(('Take', 'Untake'), 'repeat_elements', lambda x: ops.repeat_elements(x, 3, 0),
         lambda a: np.repeat(a, 3, 0), (2, 3)),
    _row(('Reshape', 'BroadcastTo'), 'meshgrid', lambda a, b: ops.meshgrid(a, b),
         lambda a, b: tuple(np.meshgrid(a, b)), (3,), (2,)),
    _row(('Reshape', 'BroadcastTo'), 'meshgrid_ij',
         lambda a, b, c: ops.meshgrid((a, b, c), indexing='ij'),
         lambda a, b, c: tuple(np.meshgrid(a, b, c, indexing='ij')), (3,), (2,), (4,)),
    _row(('Reshape', 'BroadcastTo'), 'meshgrid_xy3', lambda a, b, c: ops.meshgrid(a, b, c),
         lambda a, b, c: tuple(np.meshgrid(a, b, c)), (3,), (2,), (4,)),
    _row('Transpose', 'swapaxes', lambda x: ops.swapaxes(x, 0, -1),
         lambda a: np.swapaxes(a, 0, -1), (2, 3, 4)),
    _row('Transpose', 'swapdims', lambda x: ops.swapdims(x, 1, 2),
         lambda a: np.swapaxes(a, 1, 2), (2, 3, 4)),
    _row('Transpose', 'moveaxis', lambda x: ops.moveaxis(x, 0, -1),
         lambda a: np.moveaxis(a, 0, -1), (2, 3, 4)),
    _row('Transpose', 'movedim', lambda x: ops.movedim(x, (0, 1), (2, 0)),
         lambda a: np.moveaxis(a, (0, 1), (2, 0)), (2, 3, 4)),
    _row('Pieces', 'unbind', lambda x: ops.unbind(x, 1),
         lambda a: tuple(np.moveaxis(a, 1, 0)), (2, 3)),
    _row('Pieces', 'unstack', ops.unstack, lambda a: tuple(a), (3, 2)),
    _row('Pieces', 'Unstack', lambda x: ops.Unstack(axis=-1)(x),
         lambda a: tuple(np.moveaxis(a, -1, 0)), (2, 3)),
    _row('GetItem', 'narrow', lambda x: ops.narrow(x, 1, 1, 2), lambda a: a[:, 1:3], (2, 4)),
    _row('GetItem', 'narrow_negative', lambda x: ops.narrow(x, 0, -2, 1), lambda a: a[-2:-1],
         (3, 2)),
    _row('GetItem', 'slice', lambda x: ops.slice(x, (0, 1), (-1, 2)), lambda a: a[:, 1:3],
         (2, 4)),
    _row('GetItem', 'Slice', lambda x: ops.Slice()(x, (1, 0, 2), (1, 2, 2)),
         lambda a: a[1:2, 0:2, 2:4], (2, 3, 4)),
    _row('GetItem', 'strided_slice', lambda x: ops.strided_slice(x, (0, 0), (2, 4), (1, 2)),
         lambda a: a[0:2, 0:4:2], (2, 4)),
    _row('GetItem', 'strided_slice_shrink',
         lambda x: ops.strided_slice(x, (1, 0, 0), (2, 1, 3), (1, 1, 1), 0, 0, 0, 0, 1),
         lambda a: a[1, 0:1, 0:3], (2, 3, 4)),
    _row('GetItem', 'strided_slice_masks',
         lambda x: ops.StridedSlice(begin_mask=1, end_mask=2, new_axis_mask=4)(
             x, (1, 1, 0), (2, 2, 1), (1, -1, 1)), lambda a: a[:2, 1::-1, None], (3, 4)),
    _row('GetItem', 'strided_slice_ellipsis',
         lambda x: ops.strided_slice(x, (0, 1), (0, 3), (1, 1), ellipsis_mask=1),
         lambda a: a[..., 1:3], (2, 3, 4)),
    _row('Flip', 'fliplr', ops.fliplr, np.fliplr, (2, 3)),
    _row('Flip', 'flipud', ops.flipud, np.flipud, (2, 3)),
    _row(('Flip', 'Transpose'), 'rot90', lambda x: ops.rot90(x, 1, (0, 1)),
         lambda a: np.rot90(a, 1, (0, 1)), (2, 3)),
    _row(('Flip', 'Transpose'), 'rot90_back', lambda x: ops.rot90(x, -1, [1, 2]),
         lambda a: np.rot90(a, -1, (1, 2)), (2, 3, 4)),
    _row('Flip', 'rot90_half', lambda x: ops.rot90(x, 2, (1, 0)), lambda a: np.rot90(a, 2, (1, 0)),
         (2, 3)),
    _row('BroadcastTo', 'expand', lambda x: ops.expand(x, ms.Tensor([2, -1])),
         lambda a: np.broadcast_to(a, (2, 3)), (3,)),
    _row('BroadcastTo', 'expand_as', lambda x, y: ops.expand_as(x, y),
         lambda a, b: np.broadcast_to(a, b.shape), (3, 1), (3, 4)),
    _row('Reshape', 'view_as', lambda x, y: ops.view_as(x, y),
         lambda a, b: a.reshape(b.shape), (2, 3), (3, 2)),
    _row('Reshape', 'atleast_1d', ops.atleast_1d, np.atleast_1d, ()),
    _row('Reshape', 'atleast_2d', ops.atleast_2d, np.atleast_2d, (3,)),
    _row('Reshape', 'atleast_3d', ops.atleast_3d, np.atleast_3d, (2, 3)),
    _row('Reshape', 'atleast_3d_list', lambda a, b: ops.atleast_3d([a, b]),
         lambda a, b: tuple(np.atleast_3d(a, b)), (3,), ()),
    _row('Concat', 'hstack', lambda a, b: ops.hstack((a, b)), lambda a, b: np.hstack((a, b)),
         (2,), (3,)),
    _row('Concat', 'hstack_2d', lambda a, b: ops.hstack([a, b]), lambda a, b: np.hstack((a, b)),
         (2, 1), (2, 3)),
    _row('Concat', 'vstack', lambda a, b: ops.vstack((a, b)), lambda a, b: np.vstack((a, b)),
         (3,), (2, 3)),
    _row('Concat', 'row_stack', lambda a, b: ops.row_stack((a, b)),
         lambda a, b: np.vstack((a, b)), (3,), (3,)),
    _row('Concat', 'dstack', lambda a, b: ops.dstack((a, b)), lambda a, b: np.dstack((a, b)),
         (3,), (3,)),
    _row('Concat', 'column_stack', lambda a, b: ops.column_stack((a, b)),
         lambda a, b: np.column_stack((a, b)), (3,), (3, 2)),
    _row('Pieces', 'tensor_split', lambda x: ops.tensor_split(x, 3),
         lambda a: tuple(np.array_split(a, 3)), (7,)),
    _row('GetItem', 'tensor_split_indices', lambda x: ops.tensor_split(x, [1, 5], 1),
         lambda a: tuple(np.split(a, [1, 5], 1)), (2, 3)),
    _row('Pieces', 'hsplit', lambda x: ops.hsplit(x, 2), lambda a: tuple(np.hsplit(a, 2)),
         (2, 4)),
    _row('GetItem', 'vsplit', lambda x: ops.vsplit(x, [1]), lambda a: tuple(np.vsplit(a, [1])),
         (3, 2)),
    _row('Pieces', 'dsplit', lambda x: ops.dsplit(x, 2), lambda a: tuple(np.dsplit(a, 2)),
         (1, 2, 4)),
]


globals().update(row_tests(CASES))


def test_mindspore_values():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert ops.rot90(x, 1, (0, 1)).asnumpy().ravel().tolist() == [2, 5, 1, 4, 0, 3]
    assert ops.repeat_interleave(x, (1, 2), 0).tolist() == [[0, 1, 2], [3, 4, 5], [3, 4, 5]]
    assert ops.repeat_elements(x, 2).shape == (4, 3)
    assert ops.atleast_3d(ms.Tensor([1.0, 2.0, 3.0])).shape == (1, 3, 1)
    assert ops.dstack((ms.Tensor([1.0]), ms.Tensor([2.0]))).shape == (1, 1, 2)
    y = ops.strided_slice(x, (1, 0), (0, 0), (1, 1), 3, 2)
    assert y.shape == (0, 3)
    assert ops.strided_slice(x, (0,), (1,), (1,), 0, 0, 0, 1, 0).shape == (1, 2, 3)
    assert ops.StridedSlice()(x, (0,), (1,), (1,)).tolist() == [[0, 1, 2]]
    pieces = ops.tensor_split(ms.Tensor(np.arange(7)), 3)
    assert [p.tolist() for p in pieces] == [[0, 1, 2], [3, 4], [5, 6]]
    grids = ops.Meshgrid('ij')((ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0, 5.0])))
    assert grids[0].shape == (2, 3) and grids[1].tolist()[0] == [3, 4, 5]


def test_hsplit_vsplit_dsplit_take_uneven_sections_as_mindspore():
    """An int number of sections need not divide the axis: MindSpore 2.10 gives the first
    ``size % n`` pieces one more element, as tensor_split; vsplit also takes a 1-d tensor."""
    x = ms.Tensor(np.arange(20, dtype=np.float32).reshape(10, 2))
    assert [p.shape for p in ops.vsplit(x, 3)] == [(4, 2), (3, 2), (3, 2)]
    assert [p.shape for p in x.vsplit(3)] == [(4, 2), (3, 2), (3, 2)]
    assert x.vsplit(3)[1].tolist() == [[8, 9], [10, 11], [12, 13]]
    y = ms.Tensor(np.arange(20, dtype=np.float32).reshape(2, 10))
    assert [p.shape for p in y.hsplit(3)] == [(2, 4), (2, 3), (2, 3)]
    z = ms.Tensor(np.arange(20, dtype=np.float32).reshape(1, 2, 10))
    assert [p.shape for p in z.dsplit(3)] == [(1, 2, 4), (1, 2, 3), (1, 2, 3)]
    assert [p.shape for p in ops.vsplit(ms.Tensor(np.arange(6.0)), 4)] == [(2,), (2,), (1,), (1,)]
    w = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert [p.shape for p in ops.hsplit(w, 5)] == [(3, 1)] * 4 + [(3, 0)]


def test_swapaxes_follows_mindspore():
    t = ms.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert t.swapaxes(0, 1).shape == (3, 2)
    assert t.swapaxes(-2, -1).tolist() == [[1, 4], [2, 5], [3, 6]]
    assert t.swapaxes(True, 1).shape == (2, 3) and ops.swapaxes(t, 0, True).shape == (3, 2)
    assert t.swapdims(1, 0).shape == (3, 2)


def test_range_follows_mindspore():
    y = ops.range(0, 5, 2)
    assert y.dtype == ms.int64 and y.tolist() == [0, 2, 4]
    assert ops.range(5, 0, -2).tolist() == [5, 3, 1]
    y = ops.range(ms.Tensor(0.0), ms.Tensor(1.0), ms.Tensor(0.25))
    assert y.dtype == ms.float32 and y.tolist() == [0.0, 0.25, 0.5, 0.75]
    y = ops.Range()(ms.Tensor(0, ms.int32), ms.Tensor(3, ms.int32), ms.Tensor(1, ms.int32))
    assert y.dtype == ms.int32 and y.tolist() == [0, 1, 2]


ERRORS = [
    (lambda: ops.roll(ms.Tensor([1.0]), (1, 2)), ValueError,
     r"ops\.roll: without dims, shifts must be one int, got \(1, 2\)"),
    (lambda: ops.roll(ms.Tensor([1.0]), (1, 2), 0), ValueError,
     r"ops\.roll: shifts \(1, 2\) and dims \(0,\) differ in length"),
    (lambda: ops.repeat_interleave(ms.Tensor([1.0, 2.0]), (1, 2, 3)), ValueError,
     r"ops\.repeat_interleave: repeats \[1, 2, 3\] must be non-negative, one per slice"),
    (lambda: ops.repeat_elements(ms.Tensor([1.0]), 1.5), TypeError,
     r"ops\.repeat_elements: rep must be an int, got 1\.5"),
    (lambda: ops.meshgrid(ms.Tensor([1.0]), indexing='xx'), ValueError,
     r"ops\.meshgrid: indexing must be 'xy' or 'ij', got 'xx'"),
    (lambda: ops.meshgrid(ms.Tensor([[1.0]])), ValueError,
     r"ops\.meshgrid: inputs must be 1-d, got shape \(1, 1\)"),
    (lambda: ops.moveaxis(ms.Tensor(np.ones((2, 3))), (0, 1), 0), ValueError,
     r"ops\.moveaxis: source \(0, 1\) and destination 0 must be distinct axes of one length"),
    (lambda: ops.unbind(ms.Tensor(1.0)), ValueError, r"ops\.unbind: cannot unbind a 0-d tensor"),
    (lambda: ops.narrow(ms.Tensor(np.ones((2, 3))), 0, 1, 5), ValueError,
     r"ops\.narrow: length 5 from start 1 exceeds axis 0 of size 2"),
    (lambda: ops.slice(ms.Tensor(np.ones((2, 3))), (0,), (1, 1)), ValueError,
     r"ops\.slice: begin \(0,\) and size \(1, 1\) must have one entry per dimension"),
    (lambda: ops.slice(ms.Tensor(np.ones((2, 3))), (1, 0), (2, 1)), ValueError,
     r"ops\.slice: begin \(1, 0\) and size \(2, 1\) do not fit shape \(2, 3\)"),
    (lambda: ops.strided_slice(ms.Tensor(np.ones(3)), (0,), (1,), (0,)), ValueError,
     r"ops\.strided_slice: strides \(0,\) must not contain 0"),
    (lambda: ops.strided_slice(ms.Tensor(np.ones(3)), (0,), (1, 2), (1,)), ValueError,
     r"ops\.strided_slice: begin \(0,\), end \(1, 2\) and strides \(1,\) must have one length"),
    (lambda: ops.fliplr(ms.Tensor([1.0])), ValueError,
     r"ops\.fliplr: input must have rank >= 2, got shape \(1,\)"),
    (lambda: ops.rot90(ms.Tensor(np.ones((2, 2))), 1, (0, 0)), ValueError,
     r"ops\.rot90: dims \(0, 0\) must be two distinct axes"),
    (lambda: ops.hsplit(ms.Tensor(np.ones(3)), [1]), ValueError,
     r"ops\.hsplit: input must have rank >= 2, got shape \(3,\)"),
    (lambda: ops.dsplit(ms.Tensor(np.ones((2, 3))), 2), ValueError,
     r"ops\.dsplit: input must have rank >= 3, got shape \(2, 3\)"),
    (lambda: ops.vsplit(ms.Tensor(np.ones((3, 2))), 0), ValueError,
     r"ops\.tensor_split: sections must be positive, got 0"),
    (lambda: ops.hsplit(ms.Tensor(np.ones((3, 2))), 2.0), TypeError,
     r"ops\.hsplit: indices_or_sections must be an int, tuple\(int\) or list\(int\), got float"),
    (lambda: ops.hsplit(ms.Tensor(np.ones((3, 2))), True), TypeError,
     r"ops\.hsplit: indices_or_sections must be an int, tuple\(int\) or list\(int\), got bool"),
    (lambda: ops.swapaxes(ms.Tensor(np.ones((2, 3))), 0, (1,)), TypeError,
     r"ops\.swapaxes: axis must be an int, got \(1,\)"),
    (lambda: ms.Tensor(np.ones((2, 3))).swapaxes(0, 3), ValueError,
     r"ops\.swapaxes: axis 3 is out of range for a tensor of rank 2"),
    (lambda: ops.tensor_split(ms.Tensor(np.ones(3)), 0), ValueError,
     r"ops\.tensor_split: sections must be positive, got 0"),
    (lambda: ops.hstack([]), TypeError, r"ops\.hstack: expected a non-empty tuple or list"),
    (lambda: ops.range(0.0, 1, 0.5), TypeError,
     r"ops\.range: start, end and step must all be ints or all floats"),
    (lambda: ops.range(0, 5, 0), ValueError, r"ops\.range: step must not be 0"),
    (lambda: ops.range(0, 5, -1), ValueError, r"ops\.range: step -1 moves away from end"),
    (lambda: ops.range(0, 10, 1, 5), ValueError,
     r"ops\.range: the result has 10 elements, more than maxlen 5"),
    (lambda: ops.Unstack(num=3)(ms.Tensor(np.ones((2, 3)))), ValueError,
     r"ops\.Unstack: num 3 differs from the size 2 of axis 0"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
