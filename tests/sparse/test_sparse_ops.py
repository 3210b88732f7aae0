"""Sparse operations beyond the recorded cases: random matrices against NumPy's dense results,
the CSR x CSR product MindSpore runs only on GPU, the inputs hookgrad refuses (with the reason),
and the constructors, field getters and Primitives."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def random_sparse(rows, cols, density, seed):
    rng = np.random.default_rng(seed)
    dense = rng.standard_normal((rows, cols)) * (rng.random((rows, cols)) < density)
    return dense


def test_random_csr_products_match_dense_numpy():
    a = random_sparse(30, 20, 0.15, 1)
    b = np.random.default_rng(2).standard_normal((20, 5))
    csr = ms.Tensor(a).to_csr()
    np.testing.assert_allclose(csr.mm(ms.Tensor(b)).asnumpy(), a @ b, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(csr.mv(ms.Tensor(b[:, :1])).asnumpy(), a @ b[:, :1],
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(csr.sum(1).asnumpy(), a.sum(1, keepdims=True), atol=1e-12)
    np.testing.assert_array_equal(csr.to_dense().asnumpy(), a)
    np.testing.assert_array_equal(csr.to_coo().to_dense().asnumpy(), a)


@pytest.mark.parametrize('flags', [{}, {'trans_a': True}, {'trans_b': True},
                                   {'adjoint_a': True}, {'trans_a': True, 'trans_b': True}])
def test_csr_times_csr_matches_dense_numpy(flags):
    a = random_sparse(6, 6, 0.4, 3)
    b = random_sparse(6, 6, 0.4, 4)
    out = ops.csr_mm(ms.Tensor(a).to_csr(), ms.Tensor(b).to_csr(), **flags)
    left = a.T if flags.get('trans_a') or flags.get('adjoint_a') else a
    right = b.T if flags.get('trans_b') else b
    assert isinstance(out, ms.CSRTensor) and out.shape == (6, 6)
    np.testing.assert_allclose(out.to_dense().asnumpy(), left @ right, atol=1e-12)
    # entries ordered by row, then column, with no position repeated
    rows = np.repeat(np.arange(6), np.diff(out.indptr.asnumpy()))
    keys = rows * 6 + out.indices.asnumpy()
    assert np.all(np.diff(keys) > 0)


def test_csr_times_csr_shapes_and_mismatch():
    a = ms.Tensor(random_sparse(2, 3, 0.9, 5)).to_csr()
    b = ms.Tensor(random_sparse(3, 4, 0.9, 6)).to_csr()
    assert a.mm(b).shape == (2, 4)
    with pytest.raises(ValueError, match=r"columns of a \(3\) must equal the rows of b \(2\)"):
        ops.csr_mm(a, a)


def test_coo_concat_and_coalesce_match_numpy():
    rng = np.random.default_rng(8)
    parts, dense_parts = [], []
    for rows in (3, 2, 4):
        idx = np.stack([rng.integers(0, rows, 6), rng.integers(0, 5, 6)], 1).astype(np.int64)
        values = rng.standard_normal(6)
        coo = ms.COOTensor(ms.Tensor(idx), ms.Tensor(values), (rows, 5))
        parts.append(coo)
        dense_parts.append(coo.to_dense().asnumpy())
    joined = ops.coo_concat(parts, 0)
    assert joined.shape == (9, 5)
    np.testing.assert_allclose(joined.to_dense().asnumpy(), np.concatenate(dense_parts),
                               atol=1e-12)
    merged = joined.coalesce()
    keys = merged.indices.asnumpy() @ np.array([5, 1])
    assert np.all(np.diff(keys) > 0)
    np.testing.assert_allclose(merged.to_dense().asnumpy(), np.concatenate(dense_parts),
                               atol=1e-12)


def test_coo_add_drops_shared_positions_below_thresh_only():
    a = ms.COOTensor(ms.Tensor(np.array([[0, 0], [1, 1]], np.int64)), ms.Tensor([1., 0.1]),
                     (2, 2))
    b = ms.COOTensor(ms.Tensor(np.array([[0, 0], [0, 1]], np.int64)), ms.Tensor([-0.9, 0.2]),
                     (2, 2))
    out = ops.coo_add(a, b, ms.Tensor(0.5))
    # (0,0) sums to 0.1 < 0.5 and is dropped; (0,1) and (1,1) are held by one input and kept
    np.testing.assert_array_equal(out.indices.asnumpy(), [[0, 1], [1, 1]])
    np.testing.assert_allclose(out.values.asnumpy(), [0.2, 0.1], rtol=1e-6)


def test_unsorted_inputs_are_refused_with_the_reason():
    unsorted = ms.COOTensor(ms.Tensor(np.array([[1, 0], [0, 1]], np.int64)), ms.Tensor([1., 2.]),
                            (2, 2))
    with pytest.raises(ValueError, match="strictly increasing row-major order.*coalesce"):
        ops.coo_add(unsorted, unsorted.coalesce(), ms.Tensor(0.))
    columns_down = ms.CSRTensor(ms.Tensor(np.array([0, 2, 2], np.int32)),
                                ms.Tensor(np.array([1, 0], np.int32)), ms.Tensor([1., 2.]), (2, 2))
    with pytest.raises(ValueError, match="For csr_add, hookgrad needs each row's column indices "
                                         "strictly increasing"):
        columns_down + columns_down
    with pytest.raises(ValueError, match="'segment_ids' must be sorted"):
        ops.sparse_segment_mean(ms.Tensor([[1.], [2.]]), ms.Tensor(np.array([0, 1], np.int32)),
                                ms.Tensor(np.array([1, 0], np.int32)))


def test_constructors_and_field_getters():
    indices = ms.Tensor(np.array([[0, 1]], np.int32))
    values = ms.Tensor([2.])
    coo = ops.make_coo_tensor(indices, values, (2, 3))
    assert isinstance(coo, ms.COOTensor) and coo.shape == (2, 3)
    assert ops.coo_tensor_get_dense_shape(coo) == (2, 3)
    copy = ms.COOTensor(coo_tensor=coo)
    np.testing.assert_array_equal(copy.to_dense().asnumpy(), coo.to_dense().asnumpy())
    csr = ops.make_csr_tensor(ms.Tensor(np.array([0, 1, 1], np.int32)),
                              ms.Tensor(np.array([1], np.int32)), values, (2, 3))
    assert ops.csr_tensor_get_dense_shape(csr) == (2, 3)
    assert ms.CSRTensor(csr_tensor=csr).to_tuple()[3] == (2, 3)
    with pytest.raises(TypeError, match="If input `csr_tensor` is provided"):
        ms.CSRTensor(csr.indptr, csr_tensor=csr)
    assert ms.common.COOTensor is ms.COOTensor and ms.common.CSRTensor is ms.CSRTensor


def test_row_tensor_functions(capsys):
    rows = ops.make_row_tensor(ms.Tensor(np.array([0, 2], np.int32)), ms.Tensor(np.ones((2, 3))),
                               (4, 3))
    assert "'RowTensor' is deprecated" in capsys.readouterr().out
    assert isinstance(rows, ms.RowTensor)
    assert ops.row_tensor_get_dense_shape(rows) == (4, 3)
    np.testing.assert_array_equal(ops.row_tensor_get_indices(rows).asnumpy(), [0, 2])
    assert ops.row_tensor_get_values(rows).shape == (2, 3)


def test_sparse_tensor_keeps_its_fields():
    st = ms.SparseTensor(ms.Tensor(np.array([[0, 1, 2]], np.int64)), ms.Tensor([3.]), (2, 3, 4))
    assert st.shape == (2, 3, 4) and st.values.shape == (1,) and st.indices.shape == (1, 3)


def test_sparse_slice_and_coalesce_primitives():
    indices, values, shape = ops.SparseSlice()(
        ms.Tensor(np.array([[0, 1], [1, 2], [2, 0], [1, 3]], np.int64)),
        ms.Tensor([1., 2., 3., 4.]),
        ms.Tensor(np.array([3, 4], np.int64)), ms.Tensor(np.array([1, 1], np.int64)),
        ms.Tensor(np.array([5, 2], np.int64)))
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 1]])
    np.testing.assert_array_equal(values.asnumpy(), [2.])
    np.testing.assert_array_equal(shape.asnumpy(), [2, 2])
    y_indices, y_values, y_shape = ops.Coalesce()(
        ms.Tensor(np.array([[0, 0, 1], [1, 1, 2]], np.int64)), ms.Tensor([1., 2., 3.]),
        ms.Tensor(np.array([3, 4], np.int64)))
    np.testing.assert_array_equal(y_indices.asnumpy(), [[0, 1], [1, 2]])
    np.testing.assert_array_equal(y_values.asnumpy(), [3., 3.])
    np.testing.assert_array_equal(y_shape.asnumpy(), [3, 4])


def test_primitive_flags_and_shapes_are_checked():
    with pytest.raises(TypeError, match="adjoint_st must be a bool"):
        ops.SparseTensorDenseMatmul(1)
    with pytest.raises(ValueError, match="must equal the dense matrix's rows"):
        ops.SparseTensorDenseMatmul()(ms.Tensor(np.array([[0, 1]], np.int64)), ms.Tensor([1.]),
                                      (2, 3), ms.Tensor(np.ones((2, 2))))
    with pytest.raises(ValueError, match="x1_shape"):
        ops.SparseTensorDenseAdd()(ms.Tensor(np.array([[0, 1]], np.int64)), ms.Tensor([1.]),
                                   ms.Tensor(np.array([2, 3], np.int64)),
                                   ms.Tensor(np.ones((2, 2))))
    with pytest.raises(ValueError, match="nnz is 3"):
        ops.csr2coo(ms.Tensor(np.array([0, 1, 2], np.int32)), 3)


def test_layers_and_functional_exports():
    layer = ms.nn.SparseTensorDenseMatmul(adjoint_dt=True)
    out = layer(ms.Tensor(np.array([[0, 1]], np.int32)), ms.Tensor([2.]), (2, 3),
                ms.Tensor(np.arange(6.).reshape(2, 3)))
    np.testing.assert_array_equal(out.asnumpy(), [[2., 8.], [0., 0.]])
    assert ops.functional.csr_mm is ops.csr_mm and ops.functional.coo_tanh is ops.coo_tanh
    assert ops.operations.SparseToDense is ops.SparseToDense
