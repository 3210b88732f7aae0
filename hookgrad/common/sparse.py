"""MindSpore's sparse tensors ``COOTensor``, ``CSRTensor`` and the deprecated ``SparseTensor``.

A ``COOTensor(indices, values, shape)`` stands for the 2-d dense tensor that is zero except
``dense[indices[i]] = values[i]``; a ``CSRTensor(indptr, indices, values, shape)`` for the one
whose row ``r`` holds ``values[indptr[r]:indptr[r+1]]`` at the columns
``indices[indptr[r]:indptr[r+1]]``. The index Tensors are integer (int16/int32/int64) and never
take gradients; ``values`` is an ordinary hookgrad Tensor, so the operations that compute new
values with hookgrad ops (``ops.csr_mm``, ``ops.coo_exp``, ``to_dense``...) differentiate
through it. The operations themselves are in ``hookgrad/ops/sparse.py``.
"""
import numpy as np

from .._tensor import Tensor
from .._tensor.format import values_text

__all__ = ['COOTensor', 'CSRTensor', 'SparseTensor']

_INDEX_DTYPES = ('Int16', 'Int32', 'Int64')


def _sparse_ops():
    """hookgrad.ops.sparse, imported when first used (ops imports this module's package)."""
    from ..ops import sparse
    return sparse


def _ops():
    from .. import ops
    return ops


def warning(message):
    """MindSpore's logged warning (hookgrad's logger, imported when first used)."""
    from ..debug.log import warning as log_warning
    log_warning(message)


def _check_sparse_input(indices, values, shape):
    if not isinstance(indices, Tensor):
        raise TypeError(f"For SparseTensors, 'indices' must be Tensor, but got {type(indices)}.")
    if not isinstance(values, Tensor):
        raise TypeError(f"For SparseTensors, 'values' must be Tensor, but got {type(values)}.")
    if not isinstance(shape, tuple):
        raise TypeError(f"For SparseTensors, 'shape' must be tuple, but got {type(shape)}.")


def _check_coo_shape(indices_shp, values_shp, coo_shp):
    if len(coo_shp) != 2:
        raise ValueError(f"For COOTensor, the length of 'shape' must be 2, but got {coo_shp}.")
    if indices_shp == (0,) and values_shp == (0,):
        return
    size = 1
    for sh in coo_shp:
        if sh <= 0:
            raise ValueError(f"For COOTensor, the element of 'shape' must be positive, but got "
                             f"{sh} in {coo_shp}.")
        if not isinstance(sh, int):
            raise TypeError(f"For COOTensor, the element type of 'shape' must be int, but got "
                            f"{type(sh)}")
        size *= sh
    if size < values_shp[0]:
        raise ValueError(f"For COOTensor, shape is too small: ({size}) to hold all "
                         f"values({values_shp[0]}).")
    if len(indices_shp) != 2:
        raise ValueError(f"For COOTensor, 'indices' must be a 2-dimensional tensor, but got a "
                         f"{len(indices_shp)}-dimensional tensor.")
    if len(values_shp) != 1:
        raise ValueError(f"For COOTensor, 'values' must be a 1-dimensional tensor, but got a "
                         f"{len(values_shp)}-dimensional tensor.")
    if indices_shp[0] != values_shp[0]:
        raise ValueError(f"For COOTensor, 'indices.shape[0]' must be euqal to 'values.shape[0]', "
                         f"but got 'indices.shape[0]' = {indices_shp[0]} and 'values.shape[0]' = "
                         f"{values_shp[0]}.")
    if indices_shp[1] != 2:
        raise ValueError(f"For COOTensor, 'indices.shape[1]' must be 2, but got {indices_shp[1]}.")


def _check_csr_shape(indptr_shp, indices_shp, values_shp, csr_shp):
    if indptr_shp == (0,) and indices_shp == (0,) and values_shp == (0,):
        return
    size = values_size = 1
    for item in csr_shp:
        if item <= 0:
            raise ValueError(f"For CSRTensor, the element of shape must be positive, but got "
                             f"{item}")
        if not isinstance(item, int):
            raise TypeError(f"For CSRTensor, the element type of shape must be int, but got "
                            f"{type(item)}")
        size *= item
    for item in values_shp:
        if item <= 0:
            raise ValueError(f"The element of shape must be positive, but got {item}")
        values_size *= item
    if size < values_size:
        raise ValueError(f"Shape total size: {size} is too small to hold {values_size} non-zero "
                         f"values.")
    if len(indices_shp) != 1:
        raise ValueError(f"For CSRTensor, indices must be a 1-dimensional tensor, but got a "
                         f"{len(indices_shp)} dimension tensor.")
    if len(indptr_shp) != 1:
        raise ValueError(f"For CSRTensor, indptr must be a 1-dimensional tensor, but got a "
                         f"{len(indptr_shp)} dimension tensor.")
    if csr_shp[0] + 1 != indptr_shp[0]:
        raise ValueError(f"For CSRTensor, indptr must have length (1 + shape[0]), but got: "
                         f"{indptr_shp[0]}")
    if indices_shp[0] != values_shp[0]:
        raise ValueError(f"For CSRTensor, indices and values must equal in their shape, but got "
                         f"indices shape: {indices_shp[0]}, values shape: {values_shp[0]}.")
    if len(values_shp) + 1 != len(csr_shp):
        raise ValueError(f"Values' dimension should equal to CSRTensor's dimension - 1, but got"
                         f"Values' dimension: {len(values_shp)} , CSRTensor's dimension: "
                         f"{len(csr_shp)}")
    if tuple(values_shp[1:]) != tuple(csr_shp[2:]):
        raise ValueError(f"CSRTensor's shape[2: ] must be equal to value's shape[1: ],but "
                         f"CSRTensor's shape[2: ] got: {csr_shp[2:]} and value's shape[1: ]got: "
                         f"{values_shp[1:]}")


def _inner_repr(t):
    """A Tensor as MindSpore prints it inside a sparse tensor: its values without commas."""
    a = t.asnumpy()
    shape = '[' + ', '.join(str(n) for n in a.shape) + ']'
    text = values_text(a).replace(',', '')
    return (f"Tensor(shape={shape}, dtype={t.dtype}, value={chr(10) if a.ndim > 1 else ''}"
            f"{text})")


def _shape_text(shape):
    return '[' + ', '.join(str(n) for n in shape) + ']'


class _SparseBase:
    """What COOTensor and CSRTensor share: values' dtype and sizes."""

    @property
    def values(self):
        """The stored (non-zero) values."""
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def shape(self):
        """The dense tensor's shape (a tuple)."""
        return self._shape

    @property
    def dtype(self):
        """The values' dtype."""
        return self._values.dtype

    @property
    def size(self):
        """The number of stored values."""
        return self._values.size

    @property
    def itemsize(self):
        """Bytes per value."""
        return self._values.itemsize

    @property
    def ndim(self):
        """The dense tensor's number of dimensions."""
        return len(self._shape)


class COOTensor(_SparseBase):
    """Non-zero ``values`` of a 2-d tensor of ``shape`` at the ``(row, column)`` pairs of
    ``indices`` (shape ``(N, 2)``); ``coo_tensor`` copies another COOTensor instead.

    Repeated coordinates are kept as they are (``to_dense`` sums them, ``coalesce`` merges
    them).

    Raises:
        TypeError: inputs that are not Tensors / a tuple, indices not int16/int32/int64.
        ValueError: shapes that do not fit together (MindSpore's messages).
    """

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        self.init_finished = False
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError(f"Expect input `coo_tensor` to be a COOTensor, but got "
                                f"{type(coo_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `coo_tensor` is provided, `indices`, `values`, "
                                "`shapes` should all be `None`")
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        else:
            _check_sparse_input(indices, values, shape)
            _check_coo_shape(tuple(indices.shape), tuple(values.shape), shape)
            if str(indices.dtype) not in _INDEX_DTYPES:
                raise TypeError(f"For COOTensor, the type of 'indices' must be one of [int16, "
                                f"int32, int64], but got {indices.dtype}.")
            indices = _ops().stop_gradient(indices)
        self._indices, self._values, self._shape = indices, values, tuple(shape)
        self.init_finished = True

    def __repr__(self):
        if not self.init_finished:
            return ''
        return (f"COOTensor(shape={_shape_text(self.shape)}, dtype={self.dtype}, "
                f"indices={_inner_repr(self.indices)}, values={_inner_repr(self.values)})")

    __str__ = __repr__

    def __neg__(self):
        return COOTensor(self.indices, -self.values, self.shape)

    def __add__(self, other):
        if not self.shape == other.shape:
            raise ValueError("Input tensors should have the same shape.")
        if isinstance(other, Tensor):
            return _ops().tensor_scatter_add(other, self.indices, self.values)
        if isinstance(other, COOTensor):
            return _sparse_ops().coo_add(self, other, Tensor(0, self.values.dtype))
        raise TypeError("COOTensor add with %s is not supported." % type(other))

    def __sub__(self, other):
        if not self.shape == other.shape:
            raise ValueError("Input tensors should have the same shape.")
        if isinstance(other, Tensor):
            return _ops().tensor_scatter_add(-other, self.indices, self.values)
        if isinstance(other, COOTensor):
            return _sparse_ops().coo_add(self, -other, Tensor(0, self.values.dtype))
        raise TypeError("COOTensor subtract with %s is not supported." % type(other))

    def __mul__(self, other):
        if not self.shape == other.shape:
            raise ValueError("Input tensors should have the same shape.")
        if isinstance(other, Tensor):
            return COOTensor(self.indices, self.values * _ops().gather_nd(other, self.indices),
                             self.shape)
        raise TypeError("COOTensor multiply with %s is not supported." % type(other))

    def __truediv__(self, other):
        if not self.shape == other.shape:
            raise ValueError("Input tensors should have the same shape.")
        if isinstance(other, Tensor):
            warning("For sparse divide, zero values in the dense tensor are ignored.")
            return COOTensor(self.indices, self.values / _ops().gather_nd(other, self.indices),
                             self.shape)
        raise TypeError("COOTensor divide with %s is not supported." % type(other))

    __div__ = __truediv__

    def coalesce(self):
        """A copy with repeated coordinates merged (values summed) and the coordinates sorted
        (indices must be int64, as MindSpore's Coalesce requires)."""
        indices, values, _ = _sparse_ops().coalesce(
            self.indices.transpose(), self.values, Tensor(np.array(self.shape, np.int64)))
        return COOTensor(indices.transpose(), values, self.shape)

    def to_csr(self):
        """The CSRTensor of the same matrix (entries ordered by row, stably)."""
        return _sparse_ops().coo_to_csr(self)

    def to_dense(self):
        """The dense Tensor (values at repeated coordinates are summed)."""
        zeros = _ops().zeros(self.shape, self.values.dtype)
        return _ops().tensor_scatter_add(zeros, self.indices, self.values)

    def astype(self, dtype):
        """A copy with the values cast to ``dtype``."""
        return COOTensor(self.indices, self.values.astype(dtype), self.shape)

    def to_tuple(self):
        """``(indices, values, shape)``."""
        return self.indices, self.values, self.shape

    def abs(self):
        """The element-wise absolute value."""
        return COOTensor(self.indices, self.values.abs(), self.shape)

    def add(self, other, thresh):
        """``ops.coo_add(self, other, thresh)``."""
        return _sparse_ops().coo_add(self, other, thresh)


class CSRTensor(_SparseBase):
    """A compressed-sparse-row tensor: row ``r`` holds ``values[indptr[r]:indptr[r+1]]`` at the
    columns ``indices[indptr[r]:indptr[r+1]]``; ``values`` has shape ``(N,) + shape[2:]``.
    ``csr_tensor`` copies another CSRTensor instead.

    Raises:
        TypeError: inputs that are not Tensors / a tuple, indptr or indices not integer.
        ValueError: shapes that do not fit together (MindSpore's messages).
    """

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        self.init_finished = False
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"Expect input `csr_tensor` to be a CSRTensor, but got "
                                f"{type(csr_tensor)}")
            if not (indptr is None and indices is None and values is None and shape is None):
                raise TypeError("If input `csr_tensor` is provided, `indptr`, `indices`, "
                                "`values`, `shapes` should all be `None`")
            indptr, indices = csr_tensor.indptr, csr_tensor.indices
            values, shape = csr_tensor.values, csr_tensor.shape
        else:
            if not isinstance(indptr, Tensor):
                raise TypeError(f"For CSRTensor, 'indptr' must be Tensor, but got "
                                f"{type(indptr)}.")
            _check_sparse_input(indices, values, shape)
            _check_csr_shape(tuple(indptr.shape), tuple(indices.shape), tuple(values.shape),
                             shape)
            if str(indptr.dtype) not in _INDEX_DTYPES:
                raise TypeError(f"For CSRTensor, indptr must have int16 or int32 or int64 data "
                                f"type, but got {indptr.dtype}.")
            if str(indices.dtype) not in _INDEX_DTYPES:
                raise TypeError(f"For CSRTensor, indices must have int16 or int32 or int64 data "
                                f"type, but got {indices.dtype}.")
            indptr = _ops().stop_gradient(indptr)
            indices = _ops().stop_gradient(indices)
        self._indptr, self._indices = indptr, indices
        self._values, self._shape = values, tuple(shape)
        self.init_finished = True

    @property
    def indptr(self):
        """Row pointers: row r's entries are ``indptr[r]:indptr[r+1]``."""
        return self._indptr

    def __repr__(self):
        if not self.init_finished:
            return ''
        return (f"CSRTensor(shape={_shape_text(self.shape)}, dtype={self.dtype}, "
                f"indptr={_inner_repr(self.indptr)}, indices={_inner_repr(self.indices)}, "
                f"values={_inner_repr(self.values)})")

    __str__ = __repr__

    def __mul__(self, other):
        return _sparse_ops().csr_mul(self, other)

    def __truediv__(self, other):
        warning("For CSR divide, zero values in the dense tensor are ignored.")
        return _sparse_ops().csr_div(self, other)

    __div__ = __truediv__

    def __neg__(self):
        return CSRTensor(self.indptr, self.indices, -self.values, self.shape)

    def __add__(self, other):
        if not self.shape == other.shape:
            raise ValueError("Input tensors should have the same shape.")
        if isinstance(other, CSRTensor):
            one = Tensor(1, self.values.dtype)
            return _sparse_ops().csr_add(self, other, one, one)
        raise TypeError("CSRTensor add with %s is not supported." % type(other))

    def __sub__(self, other):
        if not self.shape == other.shape:
            raise ValueError("Input tensors should have the same shape.")
        if isinstance(other, CSRTensor):
            return _sparse_ops().csr_add(self, other, Tensor(1, self.values.dtype),
                                         Tensor(-1, self.values.dtype))
        raise TypeError("CSRTensor subtract with %s is not supported." % type(other))

    def to_tuple(self):
        """``(indptr, indices, values, shape)``."""
        return self.indptr, self.indices, self.values, self.shape

    def to_coo(self):
        """The COOTensor of the same 2-d matrix."""
        if self.ndim != 2:
            raise ValueError("Currently only support 2-D CSRTensor when converting to "
                             "COOTensor.")
        return _sparse_ops().csr_to_coo(self)

    def to_dense(self):
        """The dense Tensor."""
        return _sparse_ops().csr_to_dense(self)

    def astype(self, dtype):
        """A copy with the values cast to ``dtype``."""
        return CSRTensor(self.indptr, self.indices, self.values.astype(dtype), self.shape)

    def mv(self, dense_vector):
        """This matrix times the dense column ``dense_vector`` of shape ``(shape[1], 1)``."""
        if not isinstance(dense_vector, Tensor):
            raise TypeError(f"For 'CSRTensor.mv', the type of 'dense_vector' should be one of "
                            f"'['Tensor', 'TensorPy']', but got type "
                            f"'{type(dense_vector).__name__}'.")
        return _sparse_ops().csr_mv(self, dense_vector)

    def mm(self, matrix):
        """This matrix times ``matrix``: a dense Tensor (a dense result) or a CSRTensor (a
        CSRTensor, ``ops.csr_mm``)."""
        if isinstance(matrix, CSRTensor):
            return _sparse_ops().csr_mm(self, matrix)
        if not isinstance(matrix, Tensor):
            raise TypeError(f"For 'CSRTensor.mm', the type of 'matrix' should be one of "
                            f"'['Tensor', 'TensorPy']', but got type '{type(matrix).__name__}'.")
        return _sparse_ops().csr_mm_dense(self, matrix)

    def sum(self, axis):
        """The row sums, shape ``(shape[0], 1)`` (``axis`` must be 1 or -1)."""
        return _sparse_ops().csr_reduce_sum(self, axis)

    def abs(self):
        """The element-wise absolute value."""
        return CSRTensor(self.indptr, self.indices, self.values.abs(), self.shape)

    def add(self, b, alpha, beta):
        """``alpha * self + beta * b`` (``ops.csr_add``)."""
        return _sparse_ops().csr_add(self, b, alpha, beta)


class SparseTensor:
    """The deprecated name of a COO tensor of any rank: ``indices`` (N, ndims), ``values``
    (N,) and ``shape``; MindSpore keeps it for ``Cell.construct`` code that builds one and reads
    its three fields."""

    def __init__(self, indices, values, shape):
        warning("'SparseTensor' is deprecated from version 1.7 and will be removed in a future "
                "version. Please use 'COOTensor' instead.")
        if not (isinstance(indices, Tensor) and isinstance(values, Tensor) and
                isinstance(shape, tuple)):
            raise TypeError("Inputs must follow: COOTensor(indices, values, shape).")
        self._indices, self._values, self._shape = indices, values, shape

    @property
    def indices(self):
        return self._indices

    @property
    def values(self):
        return self._values

    @property
    def shape(self):
        return self._shape

    def __repr__(self):
        return (f"COOTensor(shape={_shape_text(self.shape)}, dtype={self.values.dtype}, "
                f"indices={_inner_repr(self.indices)}, values={_inner_repr(self.values)})")

