"""MindSpore's operations on COOTensor and CSRTensor (``ops.csr_mm``, ``ops.coo_add``...).

The sparsity structure (row/column indices, row pointers) is computed with NumPy on the host:
sorting, ``bincount``, ``unique``, no Python loop over the stored entries. The values are always
computed with hookgrad ops on the ``values`` Tensor (gathers, segment sums, products), so
gradients flow to the values and to the dense operands as MindSpore's do.

Where MindSpore's result depends on an ordering its kernels assume (``coo_add``, ``csr_add`` and
``sparse_segment_mean`` merge sorted inputs), unsorted input raises a ValueError that says so
instead of giving a different answer.
"""
import numpy as np

from .._tensor import Tensor
from .. import _dtype
from ..common.sparse import COOTensor, CSRTensor
from .arithmetic import cast
from .broadcasting import broadcast_to
from .creation import zeros, stop_gradient
from .indexing import gather
from .scatter_gather import gather_nd, tensor_scatter_add
from .segment import unsorted_segment_sum, unsorted_segment_max
from .shaping import concat, reshape
from .unary import exp

__all__ = ['coalesce', 'coo2csr', 'csr2coo', 'csr_gather', 'csr_mul', 'csr_div', 'csr_mv',
           'csr_mm', 'csr_reduce_sum', 'csr_to_coo', 'csr_to_dense', 'csr_softmax', 'csr_add',
           'coo_add', 'coo_concat', 'dense_to_sparse_coo', 'dense_to_sparse_csr',
           'coo_tensor_get_dense_shape', 'coo_tensor_get_indices', 'coo_tensor_get_values',
           'csr_tensor_get_dense_shape', 'csr_tensor_get_indices', 'csr_tensor_get_indptr',
           'csr_tensor_get_values', 'make_coo_tensor', 'make_csr_tensor', 'make_sparse_tensor',
           'make_row_tensor', 'make_row_tensor_inner', 'row_tensor_get_values',
           'row_tensor_get_indices', 'row_tensor_get_dense_shape', 'sparse_segment_mean']


# ----------------------------------------------------------------- helpers
def _host(t):
    return t.asnumpy()


def _index_tensor(a, like):
    """An index Tensor holding ``a`` with the NumPy dtype of the index Tensor ``like``."""
    return Tensor(np.ascontiguousarray(a, dtype=_dtype.to_numpy(like.dtype)))


def _positions(a):
    """A host array of positions as an int64 Tensor (for gathers and segment ids)."""
    return Tensor(np.ascontiguousarray(a, dtype=np.int64))


def _cast_to(t, np_dtype):
    return t if _dtype.to_numpy(t.dtype) == np_dtype else cast(t, _dtype.from_numpy(np_dtype))


def _promote(a, b):
    """a and b cast to MindSpore's promoted dtype of the pair."""
    common = _dtype.promote(_dtype.to_numpy(a.dtype), _dtype.to_numpy(b.dtype))
    return _cast_to(a, common), _cast_to(b, common)


def _csr_rows(csr):
    """The row of every stored entry of a CSRTensor (host int64)."""
    indptr = _host(csr.indptr).astype(np.int64)
    return np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))


def _indptr_of(rows, height):
    """Row pointers of entries whose (sorted) rows are ``rows``."""
    counts = np.bincount(rows, minlength=height)[:height]
    return np.concatenate(([0], np.cumsum(counts)))


def _take(values, order):
    """values' entries (first axis) at host positions ``order``."""
    return gather(values, _positions(order), 0)


def _require_int64(t, prim, arg):
    if str(t.dtype) != 'Int64':
        raise TypeError(f"For primitive[{prim}], the input argument[{arg}] must be a type of "
                        f"{{Tensor[Int64]}}, but got Tensor[{t.dtype}].")


def _require_csr(x, message):
    if not isinstance(x, CSRTensor):
        raise TypeError(message)


# ----------------------------------------------------------------- conversions
def coo2csr(row_indices, height):
    """Row pointers (length ``height + 1``) of entries whose sorted rows are ``row_indices``."""
    rows = _host(row_indices).astype(np.int64)
    if rows.size and (rows.min() < 0 or rows.max() >= height):
        raise ValueError(f"For 'COO2CSR', row indices must be in [0, {height}), got "
                         f"{rows.min()}..{rows.max()}")
    return _index_tensor(_indptr_of(rows, height), row_indices)


def csr2coo(indptr, nnz):
    """The row of each of the ``nnz`` entries of row pointers ``indptr``."""
    pointers = _host(indptr).astype(np.int64)
    rows = np.repeat(np.arange(len(pointers) - 1), np.diff(pointers))
    if rows.size != nnz:
        raise ValueError(f"For 'CSR2COO', indptr holds {rows.size} entries, but nnz is {nnz}")
    return _index_tensor(rows, indptr)


def coo_to_csr(coo):
    """COOTensor.to_csr: the entries ordered by row (stably) under row pointers."""
    idx = _host(coo.indices).astype(np.int64)
    order = np.argsort(idx[:, 0], kind='stable')
    indptr = _indptr_of(idx[order, 0], coo.shape[0])
    return CSRTensor(_index_tensor(indptr, coo.indices), _index_tensor(idx[order, 1], coo.indices),
                     _take(coo.values, order), coo.shape)


def csr_to_coo(tensor):
    """The COOTensor of a 2-d CSRTensor."""
    _require_csr(tensor, "For functional operator csr_to_coo, input argument must be a "
                         "CSRTensor.")
    if len(tensor.shape) > 2:
        raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
    rows = _csr_rows(tensor)
    indices = np.stack([rows, _host(tensor.indices).astype(np.int64)], axis=1)
    return COOTensor(_index_tensor(indices, tensor.indices), tensor.values, tensor.shape)


def csr_to_dense(csr_tensor):
    """The dense Tensor of a 2-d CSRTensor (differentiable in its values)."""
    _require_csr(csr_tensor, "For functional operator csr_to_dense, input argument must be a "
                             "CSRTensor.")
    if len(csr_tensor.shape) > 2:
        raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
    coords = np.stack([_csr_rows(csr_tensor), _host(csr_tensor.indices).astype(np.int64)], 1)
    dense = zeros(csr_tensor.shape, csr_tensor.values.dtype)
    return tensor_scatter_add(dense, _positions(coords), csr_tensor.values)


def _dense_nonzero(tensor, name, kind):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For functional operator {name}, input argument must be a Tensor.")
    if tensor.ndim > 2:
        raise ValueError(f"Currently only support 2-D Tensor when converting to {kind}.")
    coords = np.argwhere(_host(tensor) != 0).astype(np.int32)
    return coords, gather_nd(tensor, Tensor(coords))


def dense_to_sparse_coo(tensor):
    """The COOTensor (int32 indices, row-major order) of a 2-d Tensor's non-zero entries."""
    coords, values = _dense_nonzero(tensor, 'dense_to_sparse_coo', 'COOTensor')
    return COOTensor(Tensor(coords), values, tuple(tensor.shape))


def dense_to_sparse_csr(tensor):
    """The CSRTensor (int32 indices) of a 2-d float or complex Tensor's non-zero entries."""
    coords, values = _dense_nonzero(tensor, 'dense_to_sparse_csr', 'CSRTensor')
    if str(tensor.dtype) not in ('Float32', 'Float64', 'Complex64', 'Complex128'):
        raise TypeError(f"For primitive[DenseToCSRSparseMatrix], the input argument[dense_input] "
                        f"must be a type of {{Tensor[Complex128], Tensor[Complex64], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{tensor.dtype}].")
    indptr = _indptr_of(coords[:, 0].astype(np.int64), tensor.shape[0]).astype(np.int32)
    return CSRTensor(Tensor(indptr), Tensor(np.ascontiguousarray(coords[:, 1])), values,
                     tuple(tensor.shape))


def csr_gather(indptr, indices, dense, sparse_shape):
    """The entries of ``dense`` at the positions of a CSR structure: shape
    ``(nnz,) + dense.shape[2:]``."""
    pointers = _host(indptr).astype(np.int64)
    rows = np.repeat(np.arange(len(pointers) - 1), np.diff(pointers))
    coords = np.stack([rows, _host(indices).astype(np.int64)], axis=1)
    return gather_nd(dense, _positions(coords))


# ----------------------------------------------------------------- element-wise with a dense
def _csr_elementwise(x, y, combine):
    if isinstance(y, (int, float, bool)):
        y = Tensor(y)
    if y.size == 1 and len(y.shape) <= 2:
        if y.ndim > x.ndim:
            raise ValueError("dense tensor cannot broadcast to the sparse tensor.")
        return reshape(combine(x.values, y), x.values.shape)
    values, y = _promote(x.values, y)
    coords = np.stack([_csr_rows(x), _host(x.indices).astype(np.int64)], axis=1)
    picked = gather_nd(broadcast_to(y, x.shape), _positions(coords))
    return CSRTensor(x.indptr, x.indices, combine(values, picked), x.shape)


def csr_mul(x, y):
    """x's values times ``y`` broadcast to x's shape, at x's positions (a CSRTensor); a scalar
    ``y`` gives the Tensor ``x.values * y``, as MindSpore does."""
    return _csr_elementwise(x, y, lambda a, b: a * b)


def csr_div(x, y):
    """x's values divided by ``y`` broadcast to x's shape, at x's positions (a CSRTensor); a
    scalar ``y`` gives the Tensor ``x.values / y``."""
    return _csr_elementwise(x, y, lambda a, b: a / b)


# ----------------------------------------------------------------- products and reductions
def _csr_times_dense(csr, dense):
    """Row r of the result: sum over r's entries of value * dense[column]."""
    values, dense = _promote(csr.values, dense)
    cols = _positions(_host(csr.indices).astype(np.int64))
    picked = gather(dense, cols, 0)                                 # (nnz, K)
    products = reshape(values, (-1, 1)) * picked
    return unsorted_segment_sum(products, _positions(_csr_rows(csr)), csr.shape[0])


def csr_mv(csr_tensor, dense):
    """The CSR matrix (M, N) times the dense column ``dense`` (N, 1): shape (M, 1)."""
    if dense.ndim != 2:
        raise ValueError(f"Currently, only support 2-D inputs! But csr tensor has "
                         f"{len(csr_tensor.shape)} dimensions, and dense tensor has "
                         f"{dense.ndim} dimension(s). ")
    if tuple(dense.shape) != (csr_tensor.shape[1], 1):
        raise ValueError(f"The dense_vector's shape should be ({csr_tensor.shape[1]}, 1), but "
                         f"its current shape is: {tuple(dense.shape)}.")
    return _csr_times_dense(csr_tensor, dense)


def csr_mm_dense(csr_tensor, dense):
    """CSRTensor.mm with a dense matrix: (M, N) times (N, K) gives a dense (M, K)."""
    if dense.ndim != 2:
        raise ValueError(f"Currently, only support 2-D inputs! But csr tensor has "
                         f"{len(csr_tensor.shape)} dimensions, and dense tensor has "
                         f"{dense.ndim} dimension(s). ")
    if dense.shape[0] != csr_tensor.shape[1]:
        raise ValueError(f"The dense's shape[0] should be equal to csr tensor's shape[1], but "
                         f"dense's shape[0] is: {dense.shape[0]} and csr tensor's shape[1] is "
                         f"{csr_tensor.shape[1]}")
    return _csr_times_dense(csr_tensor, dense)


def _triples(csr, transpose, conjugate):
    """(rows, cols, values, shape) of a CSR matrix, transposed and/or conjugated."""
    rows, cols = _csr_rows(csr), _host(csr.indices).astype(np.int64)
    values, shape = csr.values, csr.shape
    if conjugate and str(values.dtype).startswith('Complex'):
        values = values.conj()
    if transpose or conjugate:
        rows, cols, shape = cols, rows, (shape[1], shape[0])
    return rows, cols, values, shape


def _structure(rows, cols, values, shape, index_like, pointer_like):
    """The CSRTensor of entries (rows, cols, values) with repeated positions summed, ordered
    by row then column."""
    keys = rows * shape[1] + cols
    unique, inverse = np.unique(keys, return_inverse=True)
    summed = unsorted_segment_sum(values, _positions(inverse.reshape(-1)), len(unique))
    out_rows, out_cols = np.divmod(unique, shape[1])
    return CSRTensor(_index_tensor(_indptr_of(out_rows, shape[0]), pointer_like),
                     _index_tensor(out_cols, index_like), summed, shape)


def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """The product of two CSRTensors as a CSRTensor (each optionally transposed, or
    conjugate-transposed by ``adjoint_*``)."""
    if not isinstance(a, CSRTensor) or not isinstance(b, CSRTensor):
        raise TypeError("For functional operator csr_mm, inputs a and b must be type of "
                        "CSRTensor currently.")
    a_rows, a_cols, a_values, a_shape = _triples(a, trans_a, adjoint_a)
    b_rows, b_cols, b_values, b_shape = _triples(b, trans_b, adjoint_b)
    if a_shape[1] != b_shape[0]:
        raise ValueError(f"For 'csr_mm', the columns of a ({a_shape[1]}) must equal the rows of "
                         f"b ({b_shape[0]}).")
    a_values, b_values = _promote(a_values, b_values)
    b_order = np.argsort(b_rows, kind='stable')
    b_starts = _indptr_of(b_rows[b_order], b_shape[0])
    counts = np.diff(b_starts)[a_cols]                  # b entries each a entry meets
    a_pos = np.repeat(np.arange(a_cols.size), counts)
    first = np.repeat(b_starts[a_cols], counts)
    offsets = np.arange(a_pos.size) - np.repeat(np.cumsum(counts) - counts, counts)
    b_pos = b_order[first + offsets]
    products = _take(a_values, a_pos) * _take(b_values, b_pos)
    return _structure(a_rows[a_pos], b_cols[b_pos], products, (a_shape[0], b_shape[1]),
                      a.indices, a.indptr)


def csr_reduce_sum(csr_tensor, axis):
    """The row sums of a 2-d CSRTensor, shape (M, 1); ``axis`` must be 1 (or 1 - ndim)."""
    one_minus_dim = 1 - len(csr_tensor.shape)
    if axis not in (1, one_minus_dim):
        raise ValueError(f"For CSRReduceSum, `axis` should be 1 or 1-dim. But got `axis`: "
                         f"{axis}and `1- dim`: {one_minus_dim}.")
    sums = unsorted_segment_sum(csr_tensor.values, _positions(_csr_rows(csr_tensor)),
                                csr_tensor.shape[0])
    return reshape(sums, (csr_tensor.shape[0], 1) + tuple(csr_tensor.values.shape[1:]))


def csr_softmax(logits, dtype):
    """Softmax over each row's stored entries (the structure is kept); ``dtype`` must be
    float32 or float64 (the result keeps the values' dtype, as MindSpore's does)."""
    if not isinstance(logits, CSRTensor):
        raise TypeError("For functional operator sparse_matrix_softmax, logits must be type of "
                        "CSRTensor.")
    if str(dtype) not in ('Float32', 'Float64'):
        raise TypeError(f"Only float32 and float64 type data are supported, but got {dtype}")
    rows = _positions(_csr_rows(logits))
    height = logits.shape[0]
    top = stop_gradient(unsorted_segment_max(logits.values, rows, height))
    e = exp(logits.values - gather(top, rows, 0))
    total = unsorted_segment_sum(e, rows, height)
    return CSRTensor(logits.indptr, logits.indices, e / gather(total, rows, 0), logits.shape)


def _require_sorted_columns(csr, name):
    rows, cols = _csr_rows(csr), _host(csr.indices).astype(np.int64)
    keys = rows * csr.shape[1] + cols
    if keys.size > 1 and np.any(np.diff(keys) <= 0):
        raise ValueError(f"For {name}, hookgrad needs each row's column indices strictly "
                         f"increasing (MindSpore's kernel assumes it and gives other values "
                         f"otherwise); sort them first, e.g. x.to_coo().coalesce().to_csr().")
    return rows, cols


def csr_add(a, b, alpha, beta):
    """``alpha * a + beta * b`` for CSRTensors of one shape: the union of their positions
    (sums of exact zeros are kept), columns increasing within each row."""
    if not isinstance(a, CSRTensor) or not isinstance(b, CSRTensor):
        raise TypeError("For functional operator csr_add, both inputs a and b must be type of "
                        "CSRTensor.")
    if not isinstance(alpha, Tensor) or not isinstance(beta, Tensor):
        raise TypeError("For functional operator csr_add, both inputs alpha and beta must be "
                        "Tensor.")
    a_rows, a_cols = _require_sorted_columns(a, 'csr_add')
    b_rows, b_cols = _require_sorted_columns(b, 'csr_add')
    a_values, b_values = _promote(a.values, b.values)
    np_dtype = _dtype.to_numpy(a_values.dtype)
    alpha, beta = _cast_to(alpha, np_dtype), _cast_to(beta, np_dtype)
    values = concat((a_values * alpha, b_values * beta))
    return _structure(np.concatenate([a_rows, b_rows]), np.concatenate([a_cols, b_cols]),
                      values, a.shape, a.indices, a.indptr)


# ----------------------------------------------------------------- COO merges
def _coo_keys(indices, shape):
    idx = _host(indices).astype(np.int64)
    return idx[:, 0] * shape[1] + idx[:, 1]


def coalesce(x_indices, x_values, x_shape):
    """Sorted unique coordinates (``x_indices`` is (ndim, N), int64) with the values at
    repeated ones summed: ``(y_indices, y_values, y_shape)``."""
    _require_int64(x_indices, 'Coalesce', 'x_indices')
    _require_int64(x_shape, 'Coalesce', 'x_shape')
    coords = _host(x_indices)
    dims = tuple(int(d) for d in _host(x_shape))
    keys = np.ravel_multi_index(tuple(coords), dims)
    unique, inverse = np.unique(keys, return_inverse=True)
    values = unsorted_segment_sum(x_values, _positions(inverse.reshape(-1)), len(unique))
    out = np.stack(np.unravel_index(unique, dims)).astype(np.int64)
    return Tensor(out), values, Tensor(np.array(dims, np.int64))


def coo_add(x1, x2, thresh):
    """The sum of two COOTensors of one shape. Positions held by both are summed and dropped
    when ``|sum| < thresh``; the others are kept. Each input's coordinates must be in strictly
    increasing row-major order (MindSpore merges them as sorted lists)."""
    _require_int64(x1.indices, 'SparseAdd', 'x1_indices')
    _require_int64(x2.indices, 'SparseAdd', 'x2_indices')
    v1, v2 = _promote(x1.values, x2.values)
    k1 = _coo_keys(x1.indices, x1.shape)
    k2 = _coo_keys(x2.indices, x1.shape)
    for keys in (k1, k2):
        if keys.size > 1 and np.any(np.diff(keys) <= 0):
            raise ValueError("For coo_add, hookgrad needs each input's indices in strictly "
                             "increasing row-major order (MindSpore merges them as sorted lists "
                             "and gives another order otherwise); call .coalesce() first.")
    keys = np.concatenate([k1, k2])
    unique, inverse = np.unique(keys, return_inverse=True)
    inverse = inverse.reshape(-1)
    summed = unsorted_segment_sum(concat((v1, v2)), _positions(inverse), len(unique))
    shared = np.bincount(inverse, minlength=len(unique)) > 1
    limit = _host(thresh).astype(_dtype.to_numpy(v1.dtype))
    keep = ~shared | (np.abs(_host(summed)) >= limit)
    rows, cols = np.divmod(unique[keep], x1.shape[1])
    return COOTensor(Tensor(np.stack([rows, cols], 1).astype(np.int64)),
                     _take(summed, np.flatnonzero(keep)), x1.shape)


def coo_concat(sp_input, concat_dim=0):
    """COOTensors (or ``(indices, values, shape)`` tuples, int64 indices) joined along
    ``concat_dim``; the result's entries are in row-major order."""
    if len(sp_input) < 2:
        raise ValueError("For coo_concat, not support COOTensor input number < 2.")
    parts = [p if isinstance(p, tuple) else (p.indices, p.values, p.shape) for p in sp_input]
    for i, (indices, _, _) in enumerate(parts):
        _require_int64(indices, 'SparseConcat', f'indices{i}')
    shape = list(parts[0][2])
    axis = concat_dim % len(shape)
    coords, offset = [], 0
    for indices, _, part_shape in parts:
        idx = _host(indices).astype(np.int64).copy()
        idx[:, axis] += offset
        offset += part_shape[axis]
        coords.append(idx)
    shape[axis] = offset
    coords = np.concatenate(coords)
    order = np.lexsort(coords.T[::-1])
    values = concat(tuple(v for _, v, _ in parts))
    return COOTensor(Tensor(coords[order]), _take(values, order), tuple(shape))


# ----------------------------------------------------------------- construction and fields
def make_coo_tensor(indices, values, dense_shape):
    """``COOTensor(indices, values, dense_shape)``."""
    return COOTensor(indices, values, dense_shape)


def make_csr_tensor(indptr, indices, values, dense_shape):
    """``CSRTensor(indptr, indices, values, dense_shape)``."""
    return CSRTensor(indptr, indices, values, dense_shape)


def make_row_tensor_inner(indices, values, dense_shape):
    """``RowTensor(indices, values, dense_shape)``."""
    from ..common.sparse_tensor import RowTensor      # it imports the logger, above ops
    return RowTensor(indices, values, dense_shape)


def make_row_tensor(indices, values, dense_shape):
    """A RowTensor, with MindSpore's deprecation notice."""
    print("WARNING: 'RowTensor' is deprecated from version 2.0 and will be removed after "
          "version 2.9.0.")
    return make_row_tensor_inner(indices, values, dense_shape)


make_sparse_tensor = make_row_tensor


def _field_getter(name, field):
    """The function ``name(x)``: ``x.<field>``, one of a sparse tensor's parts."""
    def getter(x):
        return getattr(x, field)
    getter.__name__ = getter.__qualname__ = name
    getter.__doc__ = f"``x.{field}``."
    return getter


coo_tensor_get_indices = _field_getter('coo_tensor_get_indices', 'indices')
coo_tensor_get_values = _field_getter('coo_tensor_get_values', 'values')
coo_tensor_get_dense_shape = _field_getter('coo_tensor_get_dense_shape', 'shape')
csr_tensor_get_indptr = _field_getter('csr_tensor_get_indptr', 'indptr')
csr_tensor_get_indices = _field_getter('csr_tensor_get_indices', 'indices')
csr_tensor_get_values = _field_getter('csr_tensor_get_values', 'values')
csr_tensor_get_dense_shape = _field_getter('csr_tensor_get_dense_shape', 'shape')
row_tensor_get_indices = _field_getter('row_tensor_get_indices', 'indices')
row_tensor_get_values = _field_getter('row_tensor_get_values', 'values')
row_tensor_get_dense_shape = _field_getter('row_tensor_get_dense_shape', 'dense_shape')


# ----------------------------------------------------------------- segments
def sparse_segment_mean(x, indices, segment_ids):
    """Output row s is the mean of ``x[indices[j]]`` over ``segment_ids[j] == s`` (0 for an
    empty segment); ``segment_ids`` must be sorted, the result has ``segment_ids[-1] + 1``
    rows."""
    ids = _host(segment_ids).astype(np.int64)
    if ids.size > 1 and np.any(np.diff(ids) < 0):
        raise ValueError("For sparse_segment_mean, 'segment_ids' must be sorted in ascending "
                         "order (MindSpore's kernel fails on unsorted ids).")
    if indices.shape != segment_ids.shape or indices.ndim != 1:
        raise ValueError(f"For sparse_segment_mean, 'indices' and 'segment_ids' must be 1-d of "
                         f"one length, got {indices.shape} and {segment_ids.shape}")
    count = int(ids[-1]) + 1 if ids.size else 0
    rows = gather(x, _positions(_host(indices).astype(np.int64)), 0)
    sums = unsorted_segment_sum(rows, _positions(ids), count)
    sizes = np.maximum(np.bincount(ids, minlength=count), 1)
    sizes = sizes.reshape((count,) + (1,) * (x.ndim - 1)).astype(_dtype.to_numpy(x.dtype))
    return sums / Tensor(sizes)

