"""Tensor methods: layout, casts, new_* constructors, shaping, selection, sorting, scatters."""
import ml_dtypes
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.testing import check_grad

A = np.arange(6, dtype=np.float32).reshape(2, 3)


def t(a=A):
    return ms.Tensor(np.array(a))


def test_layout_queries():
    x = t()
    assert x.dim() == x.ndimension() == 2 and x.numel() == x.nelement() == 6
    assert x.strides == (12, 4) and x.stride() == [3, 1] and x.stride(0) == 3     # as MindSpore
    assert x.stride(-1) == 1 and x.storage_offset() == 0
    assert x.is_contiguous() and x.contiguous() is x
    xt = x.T
    assert not xt.is_contiguous() and xt.contiguous().is_contiguous()
    np.testing.assert_array_equal(xt.contiguous().asnumpy(), A.T)
    with pytest.raises(IndexError, match="Tensor.stride: dim 2 is out of range"):
        x.stride(2)


def test_data_aliases_and_replaces_values():
    x = t()
    d = x.data
    d[0, 0] = 9.0                       # MindSpore: writes through .data change the tensor
    assert x[0, 0].item() == 9.0 and not d.requires_grad
    x.data = ms.Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(x.asnumpy(), np.ones((2, 3)))
    with pytest.raises(TypeError, match="Tensor.data: the new value must be a Tensor, got int"):
        x.data = 3


@pytest.mark.parametrize("method, dtype", [
    ('int', ms.int32), ('long', ms.int64), ('short', ms.int16), ('byte', ms.uint8),
    ('bool', ms.bool_), ('half', ms.float16), ('double', ms.float64),
])
def test_cast_methods(method, dtype):
    y = getattr(t(), method)()
    assert y.dtype == dtype
    np.testing.assert_array_equal(y.asnumpy().astype(np.float64), A.astype(dtype.np_dtype))


def test_bfloat16_casts():
    y = t().bfloat16()
    assert y.dtype == ms.bfloat16
    np.testing.assert_array_equal(y.asnumpy(), t().asnumpy().astype(ml_dtypes.bfloat16))


def test_type_and_type_as():
    x = t()
    assert x.type() == 'Float32'
    assert x.type(ms.float16).dtype == ms.float16 and x.type('Float16').dtype == ms.float16
    assert x.type_as(ms.Tensor([1])).dtype == ms.int64
    assert x.is_floating_point() and x.is_signed() and not ms.Tensor([1], ms.uint8).is_signed()
    assert not x.is_complex() and x.conj() is x and x.real() is x
    assert x.isreal().asnumpy().all() and not x.imag().asnumpy().any()
    with pytest.raises(TypeError, match="Tensor.type: unknown dtype name 'Floaty'"):
        x.type('Floaty')


def test_new_constructors():
    x = t()
    assert x.new_ones((2,)).dtype == ms.float32 and x.new_ones(2).asnumpy().tolist() == [1, 1]
    z = x.new_zeros((1, 2), ms.int32)
    assert z.dtype == ms.int32 and z.shape == (1, 2) and not z.asnumpy().any()
    assert x.new_full((2,), 3).asnumpy().tolist() == [3.0, 3.0]
    assert x.new_full([2], 1, dtype=ms.int64).dtype == ms.int64
    assert x.new_empty((2, 1)).shape == (2, 1)
    with pytest.raises(ValueError, match="Tensor.new_empty: device 'Ascend' is not available"):
        x.new_empty((2,), device='Ascend')
    with pytest.raises(TypeError, match="Tensor.new_zeros: size must be ints"):
        x.new_zeros((2.5,))


def test_from_numpy_shares_memory():
    a = np.ones(2)
    y = ms.Tensor.from_numpy(a)
    a[0] = 5
    assert y.dtype == ms.float64 and y.asnumpy().tolist() == [5.0, 1.0]
    with pytest.raises(TypeError, match="Tensor.from_numpy: array must be a numpy.ndarray"):
        ms.Tensor.from_numpy([1, 2])


def test_matrix_views():
    x = t()
    for y in (x.H, x.mT, x.mH, x.adjoint(), x.t()):
        np.testing.assert_array_equal(y.asnumpy(), A.T)
    v = ms.Tensor([1.0, 2.0])
    assert v.t() is v
    b = ms.Tensor(np.zeros((4, 2, 3)))
    assert b.mT.shape == (4, 3, 2)
    with pytest.raises(ValueError, match="Tensor.t: the tensor must have rank <= 2"):
        b.t()
    with pytest.raises(ValueError, match="Tensor.mT: the tensor must have rank >= 2"):
        _ = v.mT


def test_expand_repeat_view_as():
    v = ms.Tensor([1.0, 2.0])
    np.testing.assert_array_equal(v.expand(3, -1).asnumpy(), np.tile([1.0, 2.0], (3, 1)))
    assert v.expand((2, 3, 2)).shape == (2, 3, 2)
    a = ms.Tensor([[0, 1, 2], [3, 4, 5]])
    np.testing.assert_array_equal(a.repeat(3, 2).asnumpy(), np.tile(a.asnumpy(), (3, 2)))
    assert a.repeat((2, 1, 3)).shape == (2, 2, 9)       # MindSpore's docstring example
    np.testing.assert_array_equal(t().repeat_interleave(2, 0).asnumpy(), np.repeat(A, 2, 0))
    assert t().view_as(ms.Tensor(np.ones(6))).shape == (6,)
    assert t().reshape_as(ms.Tensor(np.ones((3, 2)))).shape == (3, 2)
    np.testing.assert_array_equal(t().sum_to_size(1, 3).asnumpy(), A.sum(0, keepdims=True))
    np.testing.assert_array_equal(t().sum_to_size((3,)).asnumpy(), A.sum(0))
    with pytest.raises(ValueError, match="Tensor.repeat: repeats \\(2,\\) must have at least"):
        a.repeat(2)
    with pytest.raises(ValueError, match="Tensor.expand: size \\(2,\\) has fewer dimensions"):
        a.expand(2)


def test_axis_moves_and_flips():
    x = t()
    assert x.moveaxis(0, 1).shape == x.movedim(0, 1).shape == x.swapdims(0, 1).shape == (3, 2)
    np.testing.assert_array_equal(x.roll(1, 1).asnumpy(), np.roll(A, 1, 1))
    np.testing.assert_array_equal(x.rot90(1, (0, 1)).asnumpy(), np.rot90(A))
    np.testing.assert_array_equal(x.fliplr().asnumpy(), A[:, ::-1])
    np.testing.assert_array_equal(x.flipud().asnumpy(), A[::-1])
    np.testing.assert_array_equal(x.reverse([1]).asnumpy(), A[:, ::-1])


def test_split_chunk_unbind_narrow():
    x = t()
    assert [p.shape for p in x.split(1, 1)] == [(2, 1)] * 3
    assert [p.shape for p in x.split([1, 2], axis=1)] == [(2, 1), (2, 2)]
    assert [p.shape for p in x.chunk(2, 1)] == [(2, 2), (2, 1)]
    assert [p.shape for p in x.chunk(2, axis=1)] == [(2, 2), (2, 1)]
    assert [p.asnumpy().tolist() for p in x.unbind(1)] == [[0, 3], [1, 4], [2, 5]]
    np.testing.assert_array_equal(x.narrow(1, 1, 2).asnumpy(), A[:, 1:])
    assert [p.shape for p in x.tensor_split(2, 1)] == [(2, 2), (2, 1)]
    assert [p.shape for p in x.hsplit(3)] == [(2, 1)] * 3
    assert [p.shape for p in x.vsplit(2)] == [(1, 3)] * 2


def test_select_take_where():
    x = t()
    assert x.select(1, 2).asnumpy().tolist() == [2, 5]
    assert x.select(0, -1).asnumpy().tolist() == [3, 4, 5]
    cond = ms.Tensor([[True, False, True], [False, True, False]])
    np.testing.assert_array_equal(x.select(cond, 0.0).asnumpy(), np.where(cond.asnumpy(), A, 0))
    # MindSpore 2.10: out-of-range indices clip by default, wrap with mode='wrap'
    assert x.take(ms.Tensor([0, 7])).asnumpy().tolist() == [0, 5]
    assert x.take(ms.Tensor([7]), mode='wrap').asnumpy().tolist() == [1]
    np.testing.assert_array_equal(x.take(ms.Tensor([0, 2]), 1).asnumpy(), A[:, [0, 2]])
    np.testing.assert_array_equal(x.where(x > 2, ms.Tensor(0.0)).asnumpy(), np.where(A > 2, A, 0))
    assert x.masked_select(x > 2).asnumpy().tolist() == [3, 4, 5]
    assert x.nonzero().asnumpy().tolist() == np.argwhere(A).tolist()
    assert x.argwhere().asnumpy().tolist() == np.argwhere(A).tolist()
    with pytest.raises(IndexError, match="Tensor.select: index 3 is out of range"):
        x.select(1, 3)
    with pytest.raises(ValueError, match="Tensor.take: mode must be 'clip', 'wrap' or 'raise'"):
        x.take(ms.Tensor([0]), mode='fill')


def test_gathers():
    x = t()
    assert x.gather_nd(ms.Tensor([[0, 1]])).asnumpy().tolist() == [1]
    assert x.gather_elements(1, ms.Tensor([[0], [2]])).asnumpy().tolist() == [[0], [5]]


def test_sorting():
    v = ms.Tensor([3.0, 1.0, 2.0])
    values, indices = v.sort()      # MindSpore 2.10: indices are Int32
    assert values.asnumpy().tolist() == [1, 2, 3] and indices.asnumpy().tolist() == [1, 2, 0]
    assert indices.dtype == ms.int32
    values, indices = v.sort(axis=0, descending=True)
    assert values.asnumpy().tolist() == [3, 2, 1] and indices.asnumpy().tolist() == [0, 2, 1]
    assert v.argsort().asnumpy().tolist() == [1, 2, 0]
    assert v.argsort(descending=True).asnumpy().tolist() == [0, 2, 1]
    for values, indices in (v.topk(2), v.top_k(2)):
        assert values.asnumpy().tolist() == [3, 2] and indices.asnumpy().tolist() == [0, 2]
    assert v.topk(1, largest=False)[0].asnumpy().tolist() == [1]
    assert ms.Tensor([1.0, 2.0, 3.0]).searchsorted(ms.Tensor([2.5])).asnumpy().tolist() == [2]


def test_unique():
    u = ms.Tensor([3, 1, 3, 2])
    assert u.unique().asnumpy().tolist() == [1, 2, 3]
    values, inverse, counts = u.unique(return_inverse=True, return_counts=True)
    assert inverse.asnumpy().tolist() == [2, 0, 2, 1] and counts.asnumpy().tolist() == [1, 1, 2]
    assert counts.dtype == ms.int64
    assert u.unique(sorted=False).asnumpy().tolist() == [3, 1, 2]
    assert ms.Tensor([1, 1, 2, 1]).unique_consecutive().asnumpy().tolist() == [1, 2, 1]
    with pytest.raises(ValueError, match="Tensor.unique: dim=0 is not supported"):
        u.unique(dim=0)


def test_scatters():
    x = t()
    idx = ms.Tensor([[0], [1]])
    src = ms.Tensor([[9.0], [9.0]])
    assert x.scatter(1, idx, src).asnumpy().tolist() == [[9, 1, 2], [3, 9, 5]]
    assert x.scatter_add(1, idx, src).asnumpy().tolist() == [[9, 1, 2], [3, 13, 5]]
    assert x.scatter_add(ms.Tensor([[1]]), ms.Tensor([[1.0, 1.0, 1.0]])).asnumpy().tolist() == \
        [[0, 1, 2], [4, 5, 6]]
    assert x.scatter_mul(ms.Tensor([[0]]), ms.Tensor([[2.0, 2.0, 2.0]])).asnumpy().tolist() == \
        [[0, 2, 4], [3, 4, 5]]
    ones = ms.Tensor(np.ones((2, 2), np.float32))
    # MindSpore 2.10 gives [[2, 1, 4], [5, 4, 7]]; the new overload leaves x as it was
    assert x.index_add(1, ms.Tensor([0, 2]), ones, alpha=2).asnumpy().tolist() == \
        [[2, 1, 4], [5, 4, 7]]
    np.testing.assert_array_equal(x.asnumpy(), A)
    assert x.index_fill(1, ms.Tensor([0, 2]), 5.0).asnumpy().tolist() == [[5, 1, 5], [5, 4, 5]]
    assert x.select_scatter(ms.Tensor([9.0, 9.0, 9.0]), 0, 1).asnumpy().tolist() == \
        [[0, 1, 2], [9, 9, 9]]
    assert x.slice_scatter(ms.Tensor([[9.0], [9.0]]), 1, 0, 1).asnumpy().tolist() == \
        [[9, 1, 2], [9, 4, 5]]
    assert x.inplace_update(ms.Tensor([[7.0, 7.0, 7.0]]), ms.Tensor([1])).asnumpy().tolist() == \
        [[0, 1, 2], [7, 7, 7]]
    with pytest.raises(ValueError, match="Tensor.index_add: source must have shape \\(2, 2\\)"):
        x.index_add(1, ms.Tensor([0, 2]), ms.Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(ValueError, match="Tensor: src must have shape \\(2, 1\\)"):
        x.slice_scatter(ms.Tensor([9.0]), 1, 0, 1)


def test_shape_gradients():
    a = np.random.default_rng(0).standard_normal((2, 3))
    check_grad(lambda x: x.expand(4, 2, 3), a)
    check_grad(lambda x: x.repeat(2, 2), a)
    check_grad(lambda x: x.select(1, 2) * x.narrow(1, 0, 1).sum(), a)
    check_grad(lambda x: x.take(ms.Tensor([0, 7, 4])), a)
    check_grad(lambda x: x.sum_to_size(1, 3), a)
    check_grad(lambda x, s: x.index_add(1, ms.Tensor([0, 2]), s, alpha=3), a, a[:, :2])
    check_grad(lambda x, s: x.slice_scatter(s, 1, 1, 3), a, a[:, :2] * 2)
    check_grad(lambda x: x.sort(descending=True)[0], a)
    check_grad(lambda x: x.unbind(1)[2] * 2, a)


def test_value_itemset_resize():
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    v = x.value()
    v[0, 0] = 0.0
    assert x[0, 0].item() == 1.0 and not x.has_init and not x.is_init()
    # values from MindSpore 2.10
    assert x.resize(3, 2).asnumpy().tolist() == [[1, 2], [3, 4], [0, 0]]
    assert x.resize((3,)).asnumpy().tolist() == [1, 2, 3]
    assert x.itemset(0, 5.0) is x and x.itemset((1, 1), 7.0) is x
    assert x.asnumpy().tolist() == [[5, 2], [3, 7]]
    assert ms.Tensor([1.0]).itemset(3.0).asnumpy().tolist() == [3.0]
    with pytest.raises(ValueError, match="Tensor.itemset: a value alone needs a one-element"):
        x.itemset(1.0)


def test_masked_scatter():
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    mask = ms.Tensor([[True, False], [False, True]])
    # value from MindSpore 2.10
    assert x.masked_scatter(mask, ms.Tensor([9.0, 8.0, 7.0])).asnumpy().tolist() == [[9, 2], [3, 8]]
    assert x.masked_scatter(ms.Tensor([False, True]), ms.Tensor([5.0, 6.0])).asnumpy().tolist() \
        == [[1, 5], [3, 6]]
    check_grad(lambda a, s: a.masked_scatter(mask, s), np.ones((2, 2)), np.array([2.0, 3.0, 4.0]))
    with pytest.raises(ValueError, match="Tensor.masked_scatter: mask selects 2 elements but "
                                         "source has only 1"):
        x.masked_scatter(mask, ms.Tensor([1.0]))


def test_init_data_returns_the_initialised_tensor():
    t = ms.Tensor(shape=(2, 3), dtype=ms.float32, init=ms.common.initializer.One())
    assert t.init_data() is t and not t.has_init
    np.testing.assert_array_equal(t.asnumpy(), np.ones((2, 3), np.float32))


def test_the_other_signatures_mindspore_210_accepts():
    # found by tools/tensor_overloads.py; values are MindSpore 2.10's on the CPU
    x = ms.Tensor(np.float32([1, 2]))
    np.testing.assert_array_equal(x.sub(y=ms.Tensor(np.float32([1, 1]))).asnumpy(), [0, 1])
    np.testing.assert_array_equal(x.view(dtype=ms.int32).asnumpy(), [1065353216, 1073741824])
    assert x.to(other=ms.Tensor(np.int32([1]))).dtype == ms.int32
    assert x.to(ms.Tensor([1.0], ms.float64)).dtype == ms.float64
    assert x.to('CPU').device == 'CPU' and x.to(device='CPU', dtype=ms.float16).dtype == ms.float16
    with pytest.raises(TypeError, match="missing the tensor to subtract"):
        x.sub()
