"""Embedding: a lookup table of vectors indexed by integer ids (MindSpore 2.x signature)."""
import numbers

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ..cell import Cell
from ..parameter import Parameter
from .basic import _init_value, _positive_int

__all__ = ['Embedding']


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
        if kind not in 'iuf':
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
