"""Shape ops (reshape, transpose, squeeze, expand_dims, flatten, tile, concat, stack, split,
chunk, flip): forward against NumPy, gradients against finite differences, and error messages."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from hookgrad.testing.gradcheck import check_grad
from tests.ops.rows import params, row_tests


def _split_ref(a, bounds, axis):
    return tuple(np.split(a, bounds, axis))


def _row(op, name, fn, ref, *shapes):
    """Shape ops move values without arithmetic: the forward must match exactly."""
    return Case(op, fn, ref=ref, shapes=[shapes], name=name, rtol=0, atol=0)


CASES = [
    _row('Reshape', 'reshape', lambda x: ops.reshape(x, (4, -1)), lambda a: a.reshape(4, -1),
         (2, 3, 2)),
    _row('Reshape', 'reshape_list', lambda x: ops.reshape(x, [3, 2]), lambda a: a.reshape(3, 2),
         (6,)),
    _row('Reshape', 'reshape_0d', lambda x: ops.reshape(x, (1, 1)), lambda a: a.reshape(1, 1),
         ()),
    _row('Reshape', 'reshape_to_0d', lambda x: ops.reshape(x, ()), lambda a: a.reshape(()),
         (1, 1)),
    _row('Transpose', 'transpose', lambda x: ops.transpose(x, (2, 0, 1)),
         lambda a: a.transpose(2, 0, 1), (2, 3, 4)),
    _row('Transpose', 'transpose_negative', lambda x: ops.transpose(x, (-1, 0, 1)),
         lambda a: a.transpose(2, 0, 1), (2, 3, 4)),
    _row('Transpose', 'permute', lambda x: ops.permute(x, (1, 0)), lambda a: a.T, (3, 5)),
    _row('Reshape', 'squeeze_all', lambda x: ops.squeeze(x), lambda a: a.squeeze(),
         (1, 3, 1, 2)),
    _row('Reshape', 'squeeze_axis', lambda x: ops.squeeze(x, 2), lambda a: a.squeeze(2),
         (1, 3, 1, 2)),
    _row('Reshape', 'squeeze_tuple', lambda x: ops.squeeze(x, (0, -2)),
         lambda a: a.squeeze((0, 2)), (1, 3, 1, 2)),
    _row('Reshape', 'expand_dims', lambda x: ops.expand_dims(x, 1), lambda a: a[:, None], (2, 3)),
    _row('Reshape', 'expand_dims_negative', lambda x: ops.expand_dims(x, -1),
         lambda a: a[..., None], (2, 3)),
    _row('Reshape', 'expand_dims_tuple', lambda x: ops.expand_dims(x, (0, 3)),
         lambda a: np.expand_dims(a, (0, 3)), (2, 3)),
    _row('Reshape', 'unsqueeze', lambda x: ops.unsqueeze(x, 0), lambda a: a[None], (4,)),
    _row('Reshape', 'flatten', lambda x: ops.flatten(x), lambda a: a.reshape(2, -1), (2, 3, 4)),
    _row('Reshape', 'flatten_dims', lambda x: ops.flatten(x, start_dim=0, end_dim=1),
         lambda a: a.reshape(6, 4), (2, 3, 4)),
    _row('Reshape', 'flatten_middle', lambda x: ops.flatten(x, start_dim=1, end_dim=2),
         lambda a: a.reshape(2, 12, 5), (2, 3, 4, 5)),
    _row(('Transpose', 'Reshape'), 'flatten_F', lambda x: ops.flatten(x, 'F'),
         lambda a: a.T.reshape(4, -1), (2, 3, 4)),
    _row('Reshape', 'flatten_1d', lambda x: ops.flatten(x), lambda a: a.reshape(-1), (5,)),
    _row('Reshape', 'flatten_0d', lambda x: ops.flatten(x), lambda a: a.reshape(-1), ()),
    _row('Tile', 'tile', lambda x: ops.tile(x, (2, 1, 3)), lambda a: np.tile(a, (2, 1, 3)),
         (2, 3, 2)),
    _row('Tile', 'tile_fewer_dims', lambda x: ops.tile(x, (2,)), lambda a: np.tile(a, 2), (2, 3)),
    _row('Tile', 'tile_more_dims', lambda x: ops.tile(x, (2, 3, 1)),
         lambda a: np.tile(a, (2, 3, 1)), (3, 2)),
    _row('Tile', 'tile_ones', lambda x: ops.tile(x, (1, 1)), lambda a: np.tile(a, (1, 1)),
         (3, 2)),
    _row('Tile', 'tile_0d', lambda x: ops.tile(x, (3,)), lambda a: np.tile(a, 3), ()),
    _row('Concat', 'concat', lambda a, b, c: ops.concat([a, b, c]),
         lambda a, b, c: np.concatenate([a, b, c]), (1, 3), (2, 3), (4, 3)),
    _row('Concat', 'concat_last_axis', lambda a, b: ops.concat((a, b), -1),
         lambda a, b: np.concatenate([a, b], -1), (2, 3, 1), (2, 3, 4)),
    _row('Concat', 'cat', lambda a, b: ops.cat([a, b], 1), lambda a, b: np.concatenate([a, b], 1),
         (2, 2), (2, 3)),
    _row('Stack', 'stack', lambda a, b: ops.stack([a, b]), lambda a, b: np.stack([a, b]),
         (2, 3), (2, 3)),
    _row('Stack', 'stack_last_axis', lambda a, b, c: ops.stack((a, b, c), -1),
         lambda a, b, c: np.stack([a, b, c], -1), (2, 3), (2, 3), (2, 3)),
    _row('Stack', 'stack_middle', lambda a, b: ops.stack([a, b], 1),
         lambda a, b: np.stack([a, b], 1), (4,), (4,)),
    _row('Pieces', 'split_size', lambda x: ops.split(x, 2, 1),
         lambda a: _split_ref(a, [2, 4], 1), (3, 5)),
    _row('Pieces', 'split_sections', lambda x: ops.split(x, [1, 3], 0),
         lambda a: _split_ref(a, [1], 0), (4, 2)),
    _row('Pieces', 'split_one_output_used', lambda x: ops.split(x, [2, 1, 2], -1)[1],
         lambda a: a[:, 2:3], (3, 5)),
    _row('Pieces', 'chunk', lambda x: ops.chunk(x, 3, -1), lambda a: _split_ref(a, [3, 6], -1),
         (2, 7)),
    _row('Pieces', 'chunk_some_outputs_used', lambda x: ops.chunk(x, 3)[::2],
         lambda a: (a[:2], a[4:]), (6, 2)),
    _row('Flip', 'flip', lambda x: ops.flip(x, (0, 2)), lambda a: a[::-1, :, ::-1], (2, 3, 4)),
    _row('Flip', 'flip_int', lambda x: ops.flip(x, -1), lambda a: a[..., ::-1], (2, 3)),
]


globals().update(row_tests(CASES))


@pytest.mark.parametrize('case,shapes', params(CASES))
def test_float32_outputs_are_tensors_with_exact_values(case, shapes):
    arrays = case.arrays(shapes, np.float32)
    got = case.fn(*[ms.Tensor(a) for a in arrays])
    want = case.ref(*arrays)
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
    else:
        got, want = (got,), (want,)
    for g, w in zip(got, want):
        assert isinstance(g, ms.Tensor)
        np.testing.assert_array_equal(g.asnumpy(), w)


def test_split_gradient_fills_unused_pieces_with_zeros():
    x = ms.Tensor(np.arange(10, dtype=np.float64), requires_grad=True)
    pieces = ops.split(x, 4)
    assert [p.shape for p in pieces] == [(4,), (4,), (2,)]
    (pieces[1] * 3.0).backward(ms.Tensor(np.ones(4)))
    np.testing.assert_array_equal(x.grad.asnumpy(), [0, 0, 0, 0, 3, 3, 3, 3, 0, 0])


def test_chunk_may_return_fewer_pieces():
    pieces = ops.chunk(ms.Tensor(np.arange(6.0)), 4)
    assert isinstance(pieces, tuple)
    assert [p.shape for p in pieces] == [(2,), (2,), (2,)]
    assert [p.shape for p in ops.chunk(ms.Tensor(np.arange(5.0)), 5)] == [(1,)] * 5


def test_concat_gradient_only_for_inputs_that_require_grad():
    a = ms.Tensor(np.ones((2, 2)), requires_grad=True)
    b = ms.Tensor(np.ones((1, 2)))
    y = ops.concat([a, b])
    y.backward(ms.Tensor(np.arange(6.0).reshape(3, 2)))
    np.testing.assert_array_equal(a.grad.asnumpy(), [[0, 1], [2, 3]])
    assert b.grad is None


def test_concat_and_stack_promote_dtypes():
    y = ops.concat([ms.Tensor([1, 2]), ms.Tensor([0.5])])
    assert y.dtype == ms.float32
    np.testing.assert_array_equal(y.asnumpy(), [1, 2, 0.5])
    assert ops.stack([ms.Tensor([1.0], ms.float64), ms.Tensor([2.0])]).dtype == ms.float64


def test_reshape_returns_a_new_tensor_and_integer_dtypes_pass_through():
    x = ms.Tensor([[1, 2, 3], [4, 5, 6]])
    y = ops.reshape(x, (3, 2))
    assert y is not x and y.dtype == ms.int64
    assert ops.reshape(x, ms.Tensor([6])).shape == (6,)
    assert ops.reshape(x, (2, 3)) is not x


def test_tensor_methods_use_shape_ops():
    x = ms.Tensor(np.arange(24.0).reshape(2, 3, 4))
    assert x.reshape(4, 6).shape == (4, 6)
    assert x.reshape((4, 6)).shape == (4, 6)
    assert x.T.shape == (4, 3, 2)
    assert x.transpose(1, 0, 2).shape == (3, 2, 4)
    assert x.permute(2, 1, 0).shape == (4, 3, 2)
    assert x.flatten().shape == (24,)           # the method flattens everything by default
    assert x.swapaxes(0, 2).shape == (4, 3, 2)
    assert x.expand_dims(0).squeeze(0).shape == (2, 3, 4)
    assert x.tile((1, 2)).shape == (2, 3, 8)
    np.testing.assert_array_equal(x.flip(0).asnumpy(), x.asnumpy()[::-1])


def test_gradient_through_a_chain_of_shape_ops():
    def fn(x):
        y = ops.transpose(ops.reshape(x, (3, 2, 2)), (1, 2, 0))
        row = ops.expand_dims(ops.squeeze(x[:1]), 0)
        z = ops.concat([ops.flatten(y), ops.tile(row, (2, 1))], 1)
        return ops.stack(ops.chunk(z, 2, 1), 0)
    check_grad(fn, np.random.default_rng(3).standard_normal((3, 4)))


# ----------------------------------------------------------------------------- errors
def _x(*shape):
    return ms.Tensor(np.zeros(shape, np.float32))


ERRORS = [
    (lambda: ops.reshape(_x(2, 3), (4,)), ValueError,
     r"ops\.reshape: cannot reshape \(2, 3\) into \(4,\)"),
    (lambda: ops.reshape(_x(2, 3), (-1, -1)), ValueError,
     r"ops\.reshape: cannot reshape \(2, 3\) into \(-1, -1\)"),
    (lambda: ops.reshape(_x(2, 3), (2.0, 3)), TypeError,
     r"ops\.reshape: shape must be an int or a tuple of ints"),
    (lambda: ops.transpose(_x(2, 3), (0, 0)), ValueError,
     r"ops\.transpose: input_perm \(0, 0\) is not a permutation of the axes of a tensor of "
     r"shape \(2, 3\)"),
    (lambda: ops.transpose(_x(2, 3), (0, 1, 2)), ValueError,
     r"ops\.transpose: input_perm \(0, 1, 2\) is not a permutation"),
    (lambda: ops.permute(_x(2, 3), (0, 5)), ValueError,
     r"ops\.permute: axis \(0, 5\) is not a permutation of the axes of a tensor of shape"),
    (lambda: ops.squeeze(_x(1, 3), 1), ValueError,
     r"ops\.squeeze: cannot squeeze axis 1 of shape \(1, 3\): its size is 3, not 1"),
    (lambda: ops.squeeze(_x(1, 3), 2), ValueError,
     r"ops\.squeeze: axis 2 is out of range for a tensor of shape \(1, 3\)"),
    (lambda: ops.expand_dims(_x(2, 3), 3), ValueError,
     r"ops\.expand_dims: axis 3 is out of range for a tensor of shape \(2, 3\) "
     r"\(valid: -3 to 2\)"),
    (lambda: ops.expand_dims(_x(2), (0, 0)), ValueError,
     r"ops\.expand_dims: repeated axis in \(0, 0\)"),
    (lambda: ops.flatten(_x(2, 3, 4), 'A'), ValueError,
     r"ops\.flatten: order must be 'C' or 'F', got 'A'"),
    (lambda: ops.flatten(_x(2, 3, 4), start_dim=2, end_dim=1), ValueError,
     r"ops\.flatten: start_dim 2 comes after end_dim 1 for a tensor of shape \(2, 3, 4\)"),
    (lambda: ops.flatten(_x(2, 3), start_dim=3), ValueError,
     r"ops\.flatten: start_dim 3 or end_dim -1 is out of range for a tensor of shape \(2, 3\)"),
    (lambda: ops.flatten(_x(2, 3), start_dim=1.0), TypeError,
     r"ops\.flatten: start_dim and end_dim must be ints, got 1\.0"),
    (lambda: ops.tile(_x(2), (-1,)), ValueError, r"ops\.tile: dims \(-1,\) must be non-negative"),
    (lambda: ops.concat([_x(2, 3), _x(2, 4)]), ValueError,
     r"ops\.concat: shapes \(2, 3\) and \(2, 4\) do not match outside axis 0"),
    (lambda: ops.concat([_x(2, 3), _x(2, 3, 1)], 1), ValueError,
     r"ops\.concat: shapes \(2, 3\) and \(2, 3, 1\) do not match outside axis 1"),
    (lambda: ops.concat([]), TypeError,
     r"ops\.concat: expected a non-empty list or tuple of Tensors, got \[\]"),
    (lambda: ops.concat(_x(2, 3)), TypeError,
     r"ops\.concat: expected a non-empty list or tuple of Tensors"),
    (lambda: ops.concat([_x(), _x()]), ValueError, r"ops\.concat: cannot concatenate 0-d tensors"),
    (lambda: ops.concat([_x(2, 3), _x(2, 3)], 2), ValueError,
     r"ops\.concat: axis 2 is out of range for a tensor of rank 2 \(valid: -2 to 1\)"),
    (lambda: ops.stack([_x(2, 3), _x(3, 2)]), ValueError,
     r"ops\.stack: all tensors must have the same shape, got \(2, 3\) and \(3, 2\)"),
    (lambda: ops.stack([_x(2, 3)], 3), ValueError,
     r"ops\.stack: axis 3 is out of range for a tensor of rank 3"),
    (lambda: ops.split(_x(4, 3), [1, 2]), ValueError,
     r"ops\.split: sections \[1, 2\] do not add up to 4, the size of axis 0 of shape \(4, 3\)"),
    (lambda: ops.split(_x(4, 3), 0), ValueError, r"ops\.split: split size must be positive, got 0"),
    (lambda: ops.split(_x(), 1), ValueError, r"ops\.split: cannot split a 0-d tensor"),
    (lambda: ops.split(_x(4), 1, 1), ValueError,
     r"ops\.split: axis 1 is out of range for a tensor of rank 1"),
    (lambda: ops.chunk(_x(4), 0), ValueError, r"ops\.chunk: chunks must be positive, got 0"),
    (lambda: ops.chunk(_x(4), 2.0), TypeError, r"ops\.chunk: chunks must be an int, got 2\.0"),
    (lambda: ops.chunk(_x(), 2), ValueError, r"ops\.chunk: cannot chunk a 0-d tensor"),
    (lambda: ops.flip(_x(2, 3), 2), ValueError,
     r"ops\.flip: dim 2 is out of range for a tensor of shape \(2, 3\)"),
    (lambda: ops.flip(_x(2, 3), (0, -2)), ValueError, r"ops\.flip: repeated dim in \(0, -2\)"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_errors_name_the_op_and_the_shapes(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize('shape', [(-2, 3), (2, -3)])
def test_reshape_allows_no_negative_dimension_but_minus_one(shape):
    x = ms.Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"ops\.reshape: shape .* has a dimension -[23]: only -1 "
                                         r"\(inferred\) may be negative"):
        ops.reshape(x, shape)
