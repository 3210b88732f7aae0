"""The sparse-tensor calls checked against MindSpore 2.10's recorded results: one table shared
by the recording script (run with MindSpore) and the tests (run with hookgrad). Each case is a
function of the framework module ``ms`` building its inputs afresh (MindSpore's csr_softmax
writes into its input's values) and returning a Tensor, a COOTensor, a CSRTensor or a tuple of
them; a case that raises records the exception's type and first line."""
import numpy as np


def _coo(ms, rows, cols, values, shape, index=np.int32, dtype=np.float32):
    indices = np.stack([np.asarray(rows), np.asarray(cols)], axis=1).astype(index)
    return ms.COOTensor(ms.Tensor(indices), ms.Tensor(np.asarray(values, dtype)), shape)


def _csr(ms, indptr, cols, values, shape, index=np.int32, dtype=np.float32):
    return ms.CSRTensor(ms.Tensor(np.asarray(indptr, index)), ms.Tensor(np.asarray(cols, index)),
                        ms.Tensor(np.asarray(values, dtype)), shape)


def coo_a(ms, index=np.int32, dtype=np.float32):
    """A 3x4 matrix with entries at (0,1), (1,2), (2,0)."""
    return _coo(ms, [0, 1, 2], [1, 2, 0], [1., -2., 3.], (3, 4), index, dtype)


def coo_sorted_b(ms):
    return _coo(ms, [0, 1, 2], [1, 2, 3], [2.5, 1.2, 5.], (3, 4), np.int64)


def csr_a(ms, dtype=np.float32):
    """A 3x4 matrix: row 0 has columns 1 and 3, row 1 none, row 2 column 0."""
    return _csr(ms, [0, 2, 2, 3], [1, 3, 0], [1., -2., 3.], (3, 4), dtype=dtype)


def csr_b(ms):
    return _csr(ms, [0, 1, 3, 4], [3, 0, 2, 0], [0.5, 4., -1., 2.], (3, 4))


def csr_square(ms, dtype=np.float32):
    """A 4x4 matrix for products with itself."""
    return _csr(ms, [0, 2, 3, 3, 5], [0, 2, 3, 1, 2], [1., 2., -1., 0.5, 3.], (4, 4), dtype=dtype)


def _dense(ms, a, dtype=np.float32):
    return ms.Tensor(np.asarray(a, dtype))


_X34 = np.arange(12.).reshape(3, 4) - 5.
_X23 = [[0., 1.5, 0.], [-2., 0., 4.]]


CASES = {
    # construction, fields and conversions
    'coo_repr': lambda ms: coo_a(ms),
    'coo_str': lambda ms: str(coo_a(ms)),
    'csr_str': lambda ms: str(csr_a(ms, np.float64)),
    'sparse_tensor_repr': lambda ms: repr(ms.SparseTensor(
        ms.Tensor(np.array([[0, 1], [1, 0]], np.int64)), ms.Tensor(np.array([2, -3], np.int32)),
        (2, 2))),
    'coo_int64_bool': lambda ms: _coo(ms, [0], [1], [True], (2, 2), np.int64, np.bool_),
    'coo_float16': lambda ms: _coo(ms, [0], [1], [1.5], (2, 2), np.int64, np.float16),
    'coo_to_dense': lambda ms: coo_a(ms).to_dense(),
    'coo_to_csr': lambda ms: _coo(ms, [2, 0, 1, 0], [0, 3, 2, 1], [1., 2., 3., 4.],
                                  (3, 4)).to_csr(),
    'coo_astype': lambda ms: coo_a(ms).astype(ms.float64),
    'coo_abs': lambda ms: coo_a(ms).abs(),
    'coo_neg': lambda ms: -coo_a(ms),
    'coo_plus_dense': lambda ms: coo_a(ms) + _dense(ms, _X34),
    'coo_minus_dense': lambda ms: coo_a(ms) - _dense(ms, _X34),
    'coo_times_dense': lambda ms: coo_a(ms) * _dense(ms, _X34),
    'coo_over_dense': lambda ms: coo_a(ms) / _dense(ms, _X34 + 10),
    'coo_coalesce': lambda ms: _coo(ms, [1, 0, 1], [2, 1, 2], [1., -2., 3.], (3, 4),
                                    np.int64).coalesce(),
    'coo_to_tuple': lambda ms: coo_a(ms).to_tuple()[:2],
    'coo_fields': lambda ms: (ms.ops.coo_tensor_get_indices(coo_a(ms)),
                              ms.ops.coo_tensor_get_values(coo_a(ms))),
    'csr_repr': lambda ms: csr_a(ms),
    'csr_3d_repr': lambda ms: ms.CSRTensor(ms.Tensor(np.array([0, 1, 1], np.int32)),
                                           ms.Tensor(np.array([0], np.int32)),
                                           ms.Tensor(np.array([[1., 2.]], np.float32)),
                                           (2, 3, 2)),
    'csr_to_dense': lambda ms: csr_a(ms).to_dense(),
    'csr_to_coo': lambda ms: csr_a(ms).to_coo(),
    'csr_astype': lambda ms: csr_a(ms).astype(ms.float64),
    'csr_neg': lambda ms: -csr_a(ms),
    'csr_fields': lambda ms: (ms.ops.csr_tensor_get_indptr(csr_a(ms)),
                              ms.ops.csr_tensor_get_indices(csr_a(ms)),
                              ms.ops.csr_tensor_get_values(csr_a(ms))),
    'tensor_to_coo': lambda ms: _dense(ms, _X23).to_coo(),
    'tensor_to_csr': lambda ms: _dense(ms, _X23).to_csr(),
    'dense_to_sparse_coo': lambda ms: ms.ops.dense_to_sparse_coo(_dense(ms, _X23, np.float64)),
    'dense_to_sparse_csr': lambda ms: ms.ops.dense_to_sparse_csr(_dense(ms, _X23, np.int32)),
    'coo2csr': lambda ms: ms.ops.coo2csr(ms.Tensor(np.array([0, 0, 1, 3], np.int32)), 5),
    'csr2coo': lambda ms: ms.ops.csr2coo(ms.Tensor(np.array([0, 2, 2, 3, 4], np.int32)), 4),
    'csr_to_coo_fn': lambda ms: ms.ops.csr_to_coo(csr_b(ms)),
    'csr_to_dense_fn': lambda ms: ms.ops.csr_to_dense(csr_b(ms)),
    'csr_gather': lambda ms: ms.ops.csr_gather(
        ms.Tensor(np.array([0, 2, 2, 3], np.int32)), ms.Tensor(np.array([1, 3, 0], np.int32)),
        _dense(ms, np.arange(24.).reshape(3, 4, 2)), (3, 4, 2)),
    # products, reductions and element-wise operations with a dense tensor
    'csr_mv': lambda ms: csr_a(ms).mv(_dense(ms, [[1.], [2.], [-1.], [0.5]])),
    'csr_mv_fn': lambda ms: ms.ops.csr_mv(csr_b(ms), _dense(ms, [[1.], [2.], [-1.], [0.5]])),
    'csr_mm_dense': lambda ms: csr_a(ms).mm(_dense(ms, np.arange(8.).reshape(4, 2))),
    'csr_sum': lambda ms: csr_a(ms).sum(1),
    'csr_reduce_sum': lambda ms: ms.ops.csr_reduce_sum(csr_b(ms), -1),
    'csr_mul_dense': lambda ms: ms.ops.csr_mul(csr_a(ms), _dense(ms, _X34)),
    'csr_mul_row': lambda ms: csr_a(ms) * _dense(ms, [1., 2., 3., 4.]),
    'csr_mul_column_int': lambda ms: ms.ops.csr_mul(csr_a(ms), _dense(ms, [[1], [2], [3]],
                                                                      np.int32)),
    'csr_mul_scalar': lambda ms: csr_a(ms) * 2.,
    'csr_div_dense': lambda ms: ms.ops.csr_div(csr_b(ms), _dense(ms, _X34 + 10)),
    'csr_add': lambda ms: ms.ops.csr_add(csr_a(ms), csr_b(ms), _dense(ms, 1.5), _dense(ms, -2.)),
    'csr_add_method': lambda ms: csr_a(ms).add(csr_b(ms), _dense(ms, 1.), _dense(ms, 2.)),
    'csr_plus_csr': lambda ms: csr_a(ms) + csr_b(ms),
    'csr_minus_self': lambda ms: csr_a(ms) - csr_a(ms),
    'csr_softmax': lambda ms: ms.ops.csr_softmax(csr_square(ms), ms.float32),
    'csr_softmax_f64': lambda ms: ms.ops.csr_softmax(csr_square(ms, np.float64), ms.float64),
    # COO merges (MindSpore's kernels take int64 indices)
    'coo_add': lambda ms: ms.ops.coo_add(_coo(ms, [0, 1, 2], [1, 2, 0], [1., -2., 3.], (3, 4),
                                              np.int64), coo_sorted_b(ms), _dense(ms, 1.)),
    'coo_add_method': lambda ms: _coo(ms, [0, 1], [1, 2], [1., -1.], (3, 4), np.int64).add(
        coo_sorted_b(ms), _dense(ms, 0.)),
    'coo_concat_0': lambda ms: ms.ops.coo_concat((coo_sorted_b(ms), _coo(
        ms, [1, 0], [0, 2], [7., 8.], (2, 4), np.int64)), 0),
    'coo_concat_1': lambda ms: ms.ops.coo_concat((coo_sorted_b(ms), _coo(
        ms, [2, 0], [0, 1], [7., 8.], (3, 2), np.int64)), 1),
    'coalesce_fn': lambda ms: ms.ops.coalesce(
        ms.Tensor(np.array([[2, 0, 2, 1], [0, 3, 0, 1]], np.int64)),
        _dense(ms, [1., 2., 3., 4.]), ms.Tensor(np.array([3, 4], np.int64))),
    'sparse_segment_mean': lambda ms: ms.ops.sparse_segment_mean(
        _dense(ms, [[1., 2.], [3., 4.], [5., 6.]]), ms.Tensor(np.array([0, 1, 2, 0], np.int32)),
        ms.Tensor(np.array([0, 0, 2, 2], np.int32))),
    # Primitives and layers
    'SparseToDense': lambda ms: ms.ops.SparseToDense()(
        ms.Tensor(np.array([[0, 1], [1, 2]], np.int32)), _dense(ms, [1., 2.]), (3, 4)),
    'SparseTensorDenseMatmul': lambda ms: ms.ops.SparseTensorDenseMatmul()(
        ms.Tensor(np.array([[0, 1], [1, 2], [2, 0]], np.int64)), _dense(ms, [1., 2., -1.]),
        (3, 4), _dense(ms, np.arange(8.).reshape(4, 2))),
    'SparseTensorDenseMatmul_adjoint': lambda ms: ms.ops.SparseTensorDenseMatmul(True, False)(
        ms.Tensor(np.array([[0, 1], [1, 2]], np.int64)), _dense(ms, [1., 2.]), (3, 4),
        _dense(ms, np.arange(6.).reshape(3, 2))),
    'SparseTensorDenseAdd': lambda ms: ms.ops.SparseTensorDenseAdd()(
        ms.Tensor(np.array([[0, 1], [1, 2]], np.int32)), _dense(ms, [1., 2.]),
        ms.Tensor(np.array([3, 4], np.int32)), _dense(ms, np.ones((3, 4)))),
    'SparseSlice': lambda ms: ms.ops.SparseSlice()(
        ms.Tensor(np.array([[0, 1], [1, 2], [2, 0]], np.int64)), _dense(ms, [1., 2., 3.]),
        ms.Tensor(np.array([3, 4], np.int64)), ms.Tensor(np.array([0, 1], np.int64)),
        ms.Tensor(np.array([2, 3], np.int64))),
    'nn_SparseToDense': lambda ms: ms.nn.SparseToDense()(coo_a(ms)),
    'nn_SparseTensorDenseMatmul': lambda ms: ms.nn.SparseTensorDenseMatmul()(
        ms.Tensor(np.array([[0, 1], [1, 2]], np.int32)), _dense(ms, [1., 2.]), (3, 4),
        _dense(ms, np.arange(8.).reshape(4, 2))),
    # bad input: MindSpore's exception type and message
    'err_coo_indices_type': lambda ms: ms.COOTensor([[0, 1]], _dense(ms, [1.]), (2, 2)),
    'err_coo_shape_type': lambda ms: ms.COOTensor(ms.Tensor(np.array([[0, 1]], np.int32)),
                                                  _dense(ms, [1.]), [2, 2]),
    'err_coo_rank': lambda ms: _coo(ms, [0], [1], [1.], (2, 2, 2)),
    'err_coo_nonpositive': lambda ms: _coo(ms, [0], [1], [1.], (2, 0)),
    'err_coo_too_small': lambda ms: _coo(ms, [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1.] * 5, (2, 2)),
    'err_coo_count': lambda ms: ms.COOTensor(ms.Tensor(np.array([[0, 1]], np.int32)),
                                             _dense(ms, [1., 2.]), (2, 2)),
    'err_coo_columns': lambda ms: ms.COOTensor(ms.Tensor(np.array([[0, 1, 1]], np.int32)),
                                               _dense(ms, [1.]), (2, 2)),
    'err_coo_index_dtype': lambda ms: ms.COOTensor(ms.Tensor(np.array([[0, 1]], np.float32)),
                                                   _dense(ms, [1.]), (2, 2)),
    'err_coo_copy': lambda ms: ms.COOTensor(coo_tensor=csr_a(ms)),
    'err_csr_indptr_type': lambda ms: ms.CSRTensor([0, 1], ms.Tensor(np.array([0], np.int32)),
                                                   _dense(ms, [1.]), (1, 2)),
    'err_csr_indptr_length': lambda ms: _csr(ms, [0, 1], [0], [1.], (2, 2)),
    'err_csr_count': lambda ms: _csr(ms, [0, 1, 1], [0, 1], [1.], (2, 2)),
    'err_csr_index_dtype': lambda ms: ms.CSRTensor(ms.Tensor(np.array([0, 1, 1], np.float32)),
                                                   ms.Tensor(np.array([0], np.int32)),
                                                   _dense(ms, [1.]), (2, 2)),
    'err_csr_values_rank': lambda ms: _csr(ms, [0, 1, 1], [0], [[1.]], (2, 2)),
    'err_csr_mv_type': lambda ms: csr_a(ms).mv([1., 2.]),
    'err_csr_mv_shape': lambda ms: csr_a(ms).mv(_dense(ms, np.ones((3, 1)))),
    'err_csr_mv_rank': lambda ms: csr_a(ms).mv(_dense(ms, np.ones(4))),
    'err_csr_mm_shape': lambda ms: csr_a(ms).mm(_dense(ms, np.ones((3, 2)))),
    'err_csr_mm_dense_fn': lambda ms: ms.ops.csr_mm(csr_a(ms), _dense(ms, np.ones((4, 2)))),
    'err_csr_sum_axis': lambda ms: csr_a(ms).sum(0),
    'err_csr_softmax_dtype': lambda ms: ms.ops.csr_softmax(csr_square(ms), ms.int32),
    'err_coo_add_int32': lambda ms: coo_a(ms) + coo_a(ms),
    'err_coo_concat_one': lambda ms: ms.ops.coo_concat((coo_sorted_b(ms),), 0),
    'err_coo_concat_int32': lambda ms: ms.ops.coo_concat((coo_a(ms), coo_a(ms)), 0),
    'err_coalesce_int32': lambda ms: coo_a(ms).coalesce(),
    'err_coo_exp_type': lambda ms: ms.ops.coo_exp(_dense(ms, [1.])),
    'err_csr_relu_type': lambda ms: ms.ops.csr_relu(coo_a(ms)),
    'err_dense_to_coo_type': lambda ms: ms.ops.dense_to_sparse_coo([[1.]]),
    'err_dense_to_csr_rank': lambda ms: ms.ops.dense_to_sparse_csr(_dense(ms, np.ones((2, 2, 2)))),
    'err_dense_to_coo_1d': lambda ms: ms.ops.dense_to_sparse_coo(_dense(ms, [1., 0., 2.])),
    'err_coo_add_dense_shape': lambda ms: coo_a(ms) + _dense(ms, np.ones((2, 2))),
    'err_csr_add_type': lambda ms: csr_a(ms) + _dense(ms, np.ones((3, 4))),
    'err_csr_to_coo_fn_type': lambda ms: ms.ops.csr_to_coo(coo_a(ms)),
    'err_sparse_tensor_types': lambda ms: ms.SparseTensor([[0, 1]], _dense(ms, [1.]), (2, 2)),
}

# the unary functions of the values, on both formats
UNARY = ('abs', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'ceil', 'cos', 'cosh', 'exp',
         'expm1', 'floor', 'inv', 'isfinite', 'isinf', 'isnan', 'log', 'log1p', 'neg', 'relu',
         'relu6', 'round', 'sigmoid', 'sin', 'sinh', 'softsign', 'sqrt', 'square', 'tan', 'tanh')
# inputs in every function's domain (acosh needs >= 1, atanh and asin |x| < 1, log > 0)
_DOMAIN = {'acosh': [1.5, 2., 3.25], 'acos': [0.25, -0.5, 0.75], 'asin': [0.25, -0.5, 0.75],
           'atanh': [0.25, -0.5, 0.75], 'log': [0.5, 2., 3.], 'log1p': [0.5, 2., 3.],
           'sqrt': [0.5, 2., 3.], 'relu6': [-1., 2.5, 7.]}
_DEFAULT_VALUES = [1.25, -2.5, 0.5]


def unary_values(name):
    return _DOMAIN.get(name, _DEFAULT_VALUES)


for _name in UNARY:
    CASES[f'coo_{_name}'] = (lambda name: lambda ms: getattr(ms.ops, f'coo_{name}')(
        _coo(ms, [0, 1, 2], [1, 2, 0], unary_values(name), (3, 4))))(_name)
    CASES[f'csr_{_name}'] = (lambda name: lambda ms: getattr(ms.ops, f'csr_{name}')(
        _csr(ms, [0, 2, 2, 3], [1, 3, 0], unary_values(name), (3, 4))))(_name)
