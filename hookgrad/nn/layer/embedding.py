"""Embedding tables: Embedding (a lookup table of vectors indexed by integer ids),
EmbeddingLookup, MultiFieldEmbeddingLookup and EmbeddingExt (MindSpore 2.x signatures and
parameter names).

The parallel slicing options of the lookups (``slice_mode``, ``manual_shapes``,
``feature_num_list``) only shard the table under MindSpore's auto-parallel modes; in a single
process, where hookgrad runs, MindSpore ignores them too.
"""
import numbers

import numpy as np

from ... import _dtype
from ...kernels import half as _half
from ... import ops
from ..._tensor import Tensor
from ..cell import Cell
from ..parameter import Parameter
from .basic import _init_value, _positive_int
from ...common.initializer import Normal, initializer
from ...ops.conv import _is_int

__all__ = ['Embedding', 'EmbeddingLookup', 'MultiFieldEmbeddingLookup', 'EmbeddingExt']


class Embedding(Cell):
    """Map each integer id in the input to a row of ``embedding_table``.

    The output has shape ``ids.shape + (embedding_size,)``. The lookup is a gather along the
    rows, whose gradient adds each output row's gradient into its table row (repeated ids
    accumulate). As in MindSpore, ``padding_idx`` only sets that row's initial values to zero:
    the row is looked up and trained like any other.

    Args:
        vocab_size: the number of rows, a positive int.
        embedding_size: the length of each row, a positive int.
        use_one_hot: look up through a one-hot matrix product instead of a gather (same values
            and gradients). Default False.
        embedding_table: the table's initial values: an initializer name, an Initializer, a
            number or a Tensor of shape (vocab_size, embedding_size). Default 'normal'
            (N(0, 0.01**2)).
        dtype: the numeric dtype of the one-hot values. Default ``ms.float32``.
        padding_idx: None or a row index in [0, vocab_size) whose initial values are zeros.
            Default None.

    Raises:
        TypeError: for arguments of the wrong type, or ids that are not an integer Tensor.
        ValueError: for sizes below 1, ``padding_idx`` out of range, or ids outside
            [0, vocab_size).

    >>> import hookgrad as ms
    >>> emb = ms.nn.Embedding(5, 3, padding_idx=0)
    >>> out = emb(ms.Tensor([[0, 2], [4, 4]]))
    >>> out.shape, out[0, 0].tolist()
    ((2, 2, 3), [0.0, 0.0, 0.0])
    """

    # MindSpore's primitive attributes, which subclasses in model zoos call (Cell.__getattr__)
    _primitive_attributes = {
        'gather': lambda c: ops.operations.Gather(),
        'array_mul': lambda c: ops.operations.MatMul(),
        'one_hot': lambda c: ops.operations.OneHot(),
        'reshape': lambda c: ops.operations.Reshape(),
        'reshape_flat': lambda c: ops.operations.Reshape(),
        'get_shp': lambda c: ops.operations.Shape()}
    on_value = 1.0          # MindSpore's one-hot values
    off_value = 0.0

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table='normal',
                 dtype=_dtype.float32, padding_idx=None):
        super().__init__()
        self.vocab_size = _positive_int(vocab_size, 'Embedding', 'vocab_size')
        self.embedding_size = _positive_int(embedding_size, 'Embedding', 'embedding_size')
        if not isinstance(use_one_hot, bool):
            raise TypeError(f"nn.Embedding: use_one_hot must be a bool, got {use_one_hot!r}")
        try:
            kind = _dtype.to_numpy(dtype).kind
        except TypeError as e:
            raise TypeError(f"nn.Embedding: dtype: {e}") from None
        if kind not in 'iufV':
            raise TypeError(f"nn.Embedding: dtype must be a number type, got {dtype}")
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, numbers.Integral):
                raise TypeError(f"nn.Embedding: padding_idx must be an int or None, got "
                                f"{padding_idx!r}")
            if not 0 <= padding_idx < self.vocab_size:
                raise ValueError(f"nn.Embedding: padding_idx must be in [0, {self.vocab_size}), "
                                 f"got {padding_idx}")
            padding_idx = int(padding_idx)
        table = _init_value(embedding_table, (self.vocab_size, self.embedding_size),
                            _dtype.float32, 'Embedding', 'embedding_table')
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        self.padding_idx = padding_idx
        self.embedding_table = Parameter(table, name='embedding_table')
        if padding_idx is not None:
            self.embedding_table._data[padding_idx] = 0

    def construct(self, ids):
        if not isinstance(ids, Tensor) or ids._data.dtype.kind not in 'iu':
            got = f"dtype {ids.dtype}" if isinstance(ids, Tensor) else type(ids).__name__
            raise TypeError(f"nn.Embedding '{self.path()}': expected a Tensor of integer ids, "
                            f"got {got}")
        data = ids._data
        if data.size and (data.min() < 0 or data.max() >= self.vocab_size):
            bad = data.min() if data.min() < 0 else data.max()
            raise ValueError(f"nn.Embedding '{self.path()}': ids must be in [0, "
                             f"{self.vocab_size}), got {int(bad)}")
        table = self.embedding_table
        if self.use_one_hot:
            hot = ops.one_hot(ids, self.vocab_size, 1.0, 0.0)
            return ops.matmul(ops.cast(hot, table.dtype), table)
        return ops.gather(table, ids, 0)

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table!r}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")


_SLICE_MODES = ('field_slice', 'table_row_slice', 'table_column_slice', 'batch_slice')


def _indices(cell, x, arg='indices'):
    if not isinstance(x, Tensor) or x._data.dtype.kind not in 'iu':
        got = x.dtype if isinstance(x, Tensor) else type(x).__name__
        raise TypeError(f"nn.{type(cell).__name__} '{cell.path()}': {arg} must be an integer "
                        f"Tensor, got {got}")
    return x


class EmbeddingLookup(Cell):
    """Rows of ``embedding_table`` (vocab_size, embedding_size) looked up by integer ids.

    With target 'CPU' (MindSpore's host-side lookup) ids outside [0, vocab_size) give rows of
    zeros; with 'DEVICE' they are an error. With ``max_norm`` each looked-up row is scaled
    down to that L2 norm when longer: ``row * max_norm / max(norm, max_norm)``.

    Args:
        vocab_size, embedding_size: positive ints.
        param_init: the table's initial values (an initializer name, an Initializer, a number
            or a Tensor). Default 'normal'.
        target: 'CPU' (default) or 'DEVICE'.
        slice_mode, manual_shapes: MindSpore's auto-parallel table sharding (one of
            'field_slice', 'table_row_slice', 'table_column_slice', 'batch_slice'); no
            effect in a single process.
        max_norm: None or a positive float.
        sparse: a bool; must be True with target 'CPU'. Default True.
        dtype: the table's dtype. Default ``ms.float32``.

    Raises:
        TypeError / ValueError: for bad sizes, target, slice_mode, max_norm or flags, or
            non-integer ids.

    >>> import hookgrad as ms
    >>> table = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ms.nn.EmbeddingLookup(2, 2, param_init=table)(ms.Tensor([1, 5])).asnumpy().tolist()
    [[3.0, 4.0], [0.0, 0.0]]
    """

    def __init__(self, vocab_size, embedding_size, param_init='normal', target='CPU',
                 slice_mode='batch_slice', manual_shapes=None, max_norm=None, sparse=True,
                 dtype=_dtype.float32):
        super().__init__()
        name = type(self).__name__
        if not isinstance(sparse, bool):
            raise TypeError(f"nn.{name}: sparse must be a bool, got {sparse!r}")
        self.vocab_size = _positive_int(vocab_size, name, 'vocab_size')
        self.embedding_size = _positive_int(embedding_size, name, 'embedding_size')
        if target not in ('CPU', 'DEVICE'):
            raise ValueError(f"nn.{name}: target must be 'CPU' or 'DEVICE', got {target!r}")
        if not sparse and target == 'CPU':
            raise ValueError(f"nn.{name}: sparse must be True when target is 'CPU'")
        if slice_mode not in _SLICE_MODES:
            raise ValueError(f"nn.{name}: slice_mode must be one of {list(_SLICE_MODES)}, got "
                             f"{slice_mode!r}")
        if max_norm is not None and (not isinstance(max_norm, float) or max_norm <= 0):
            raise ValueError(f"nn.{name}: max_norm must be None or a positive float, got "
                             f"{max_norm!r}")
        self.target, self.sparse, self.slice_mode = target, sparse, slice_mode
        self.manual_shapes = manual_shapes
        self.max_norm = max_norm
        shape = (self.vocab_size, self.embedding_size)
        self.embedding_table = Parameter(_init_value(param_init, shape, dtype, name,
                                                     'param_init'), name='embedding_table')

    def _lookup(self, indices):
        ids = indices._data.astype(np.int64)
        inside = (ids >= 0) & (ids < self.vocab_size)
        if self.target == 'DEVICE' and not inside.all():
            raise ValueError(f"nn.{type(self).__name__} '{self.path()}': indices must be in "
                             f"[0, {self.vocab_size}), got values in [{ids.min()}, "
                             f"{ids.max()}]")
        rows = ops.gather(self.embedding_table, Tensor._wrap(np.where(inside, ids, 0)), 0)
        if not inside.all():
            rows = rows * Tensor._wrap(inside[..., None].astype(rows._data.dtype))
        if self.max_norm is not None:
            norm = ops.sqrt(ops.sum(ops.square(rows), -1, True))
            rows = rows * self.max_norm / ops.maximum(norm, Tensor(self.max_norm, rows.dtype))
        return rows

    def construct(self, indices):
        return self._lookup(_indices(self, indices))


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Look up ids, weight each row by its value, and merge the rows of each (sample, field)
    with ``operator``: the output is (batch, field_size, embedding_size).

    Args:
        vocab_size, embedding_size, param_init, target, slice_mode, max_norm, sparse, dtype:
            as ``EmbeddingLookup`` (``feature_num_list`` stands where it has
            ``manual_shapes``).
        field_size: the number of fields, a positive int.
        operator: 'SUM' (default), 'MAX' (rows of weight 0 left out; an empty field gives
            zeros) or 'MEAN' (the sum divided by the field's sum of |values|, 0 when 0).

    Inputs:
        input_indices (batch, seq) integer ids, input_values (batch, seq) floating weights,
        field_ids (batch, seq) integer fields in [0, field_size).

    Raises:
        TypeError / ValueError: as ``EmbeddingLookup``, for a bad field_size or operator, or
            inputs that are not 2-d of the same shape.
    """

    def __init__(self, vocab_size, embedding_size, field_size, param_init='normal',
                 target='CPU', slice_mode='batch_slice', feature_num_list=None, max_norm=None,
                 sparse=True, operator='SUM', dtype=_dtype.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode,
                         feature_num_list, max_norm, sparse, dtype)
        self.field_size = _positive_int(field_size, 'MultiFieldEmbeddingLookup', 'field_size')
        if operator not in ('SUM', 'MAX', 'MEAN'):
            raise ValueError(f"nn.MultiFieldEmbeddingLookup: operator must be 'SUM', 'MAX' or "
                             f"'MEAN', got {operator!r}")
        self.operator = operator

    def construct(self, input_indices, input_values, field_ids):
        name = f"nn.MultiFieldEmbeddingLookup '{self.path()}'"
        _indices(self, input_indices, 'input_indices')
        _indices(self, field_ids, 'field_ids')
        if not isinstance(input_values, Tensor) or input_values._data.dtype.kind not in 'fV':
            raise TypeError(f"{name}: input_values must be a floating Tensor")
        shape = input_indices.shape
        if len(shape) != 2 or input_values.shape != shape or field_ids.shape != shape:
            raise ValueError(f"{name}: input_indices, input_values and field_ids must be 2-d "
                             f"of one shape, got {shape}, {input_values.shape} and "
                             f"{field_ids.shape}")
        rows = self._lookup(input_indices)                            # (B, S, E)
        values = ops.cast(input_values, rows.dtype)
        weighted = rows * ops.expand_dims(values, -1)
        fields = field_ids._data.astype(np.int64)
        member = (fields[..., None] == np.arange(self.field_size))   # (B, S, F)
        dtype = rows._data.dtype
        if self.operator == 'MAX':
            keep = member & (input_values._data != 0)[..., None]      # (B, S, F)
            lowest = Tensor(_half.finfo(dtype).min, rows.dtype)
            spread = ops.where(Tensor._wrap(keep[..., None]), ops.expand_dims(weighted, 2),
                               lowest)                                 # (B, S, F, E)
            merged = ops.amax(spread, 1)
            present = keep.any(1)[..., None]                           # (B, F, 1)
            return merged * Tensor._wrap(present.astype(dtype))
        onehot = Tensor._wrap(member.astype(dtype))
        merged = ops.matmul(ops.transpose(onehot, (0, 2, 1)), weighted)   # (B, F, E)
        if self.operator == 'MEAN':
            count = (np.abs(input_values._data)[..., None] * member).sum(1)[..., None]
            scale = np.divide(1.0, count, out=np.zeros_like(count), where=count != 0)
            merged = merged * Tensor._wrap(scale.astype(dtype))
        return merged


class EmbeddingExt(Cell):
    """PyTorch's ``Embedding``: rows of ``weight`` (num_embeddings, embedding_dim) looked up
    by integer ids.

    Args:
        num_embeddings, embedding_dim: ints, the table's shape.
        padding_idx: None or a row (in [-num_embeddings, num_embeddings)) whose initial values
            are zero and which receives no gradient.
        max_norm: None or a float: before the lookup, each row looked up whose ``norm_type``
            norm exceeds it is rescaled in place to ``max_norm / (norm + 1e-7)`` of itself.
        norm_type: the p of that norm. Default 2.0.
        scale_grad_by_freq: divide each row's gradient by the number of times the batch looks
            it up. Default False.
        sparse: must be False (sparse gradients are not supported, as in MindSpore).
        _weight: an initial table (a Tensor of the table's shape); default N(0, 1) values.
        _freeze: keep the table out of training. Default False.
        dtype: the table's dtype; None means ``ms.float32``.

    Raises:
        TypeError / ValueError: for arguments of the wrong type, sparse=True, a padding_idx
            out of range, a _weight of another shape, or non-integer ids.

    >>> import hookgrad as ms
    >>> table = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ms.nn.EmbeddingExt(2, 2, _weight=table)(ms.Tensor([1, 1])).asnumpy().tolist()
    [[3.0, 4.0], [3.0, 4.0]]
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        super().__init__()
        where = 'nn.EmbeddingExt'
        if not isinstance(sparse, bool):
            raise TypeError(f"{where}: sparse must be a bool, got {sparse!r}")
        if sparse:
            raise ValueError(f"{where}: sparse=True is not supported")
        for arg, value in (('num_embeddings', num_embeddings), ('embedding_dim', embedding_dim)):
            if not _is_int(value):
                raise TypeError(f"{where}: {arg} must be an int, got {value!r}")
        self.num_embeddings, self.embedding_dim = int(num_embeddings), int(embedding_dim)
        self.dtype = _dtype.float32 if dtype is None else dtype
        for arg, value in (('max_norm', max_norm), ('norm_type', norm_type)):
            if value is not None and not isinstance(value, float):
                raise TypeError(f"{where}: {arg} must be a float, got {type(value).__name__}")
        if not isinstance(scale_grad_by_freq, bool):
            raise TypeError(f"{where}: scale_grad_by_freq must be a bool, got "
                            f"{scale_grad_by_freq!r}")
        if padding_idx is not None and (not _is_int(padding_idx) or not
                                        -self.num_embeddings <= padding_idx
                                        < self.num_embeddings):
            raise ValueError(f"{where}: padding_idx must be in [{-self.num_embeddings}, "
                             f"{self.num_embeddings}), got {padding_idx!r}")
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        shape = (self.num_embeddings, self.embedding_dim)
        if _weight is None:
            table = initializer(Normal(1.0, 0.0), shape, self.dtype)
            if padding_idx is not None:
                table._data[padding_idx] = 0
        else:
            if not isinstance(_weight, Tensor) or _weight.shape != shape:
                raise ValueError(f"{where}: _weight must be a Tensor of shape {shape}, got "
                                 f"{getattr(_weight, 'shape', _weight)!r}")
            table = _weight
        self.weight = Parameter(table, name='weight', requires_grad=not _freeze)

    def construct(self, input):
        ids = _indices(self, input, 'input')._data.astype(np.int64)
        n = self.num_embeddings
        if ids.size and (ids.min() < -n or ids.max() >= n):
            raise ValueError(f"nn.EmbeddingExt '{self.path()}': input ids must be in [{-n}, "
                             f"{n}), got values in [{ids.min()}, {ids.max()}]")
        ids = ids % n
        if self.max_norm is not None:               # in place, outside the gradient, as PyTorch
            table = self.weight._data
            used = np.unique(ids)
            norm = np.linalg.norm(table[used], ord=self.norm_type, axis=1)
            over = norm > self.max_norm
            table[used[over]] *= (self.max_norm / (norm[over] + 1e-7))[:, None]
        rows = ops.gather(self.weight, Tensor._wrap(ids), 0)
        scale = np.ones(ids.shape)
        if self.scale_grad_by_freq:
            uniq, inverse, counts = np.unique(ids, return_inverse=True, return_counts=True)
            scale = 1.0 / counts[inverse.reshape(ids.shape)]
        if self.padding_idx is not None:
            scale = np.where(ids == self.padding_idx % n, 0.0, scale)
        if (scale != 1).any():        # the value of rows, the gradient scaled
            frozen = ops.stop_gradient(rows)
            s = Tensor._wrap(scale[..., None].astype(rows._data.dtype))
            rows = frozen + (rows - frozen) * s
        return rows

    def extend_repr(self):
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}, max_norm={self.max_norm}, "
                f"norm_type={self.norm_type}, scale_grad_by_freq={self.scale_grad_by_freq}, "
                f"dtype={self.dtype}")
