"""Pipeline nodes that drop, join or pad rows: ``FilterDataset`` (``Dataset.filter``),
``ConcatDataset`` (``Dataset.concat`` and ``+``), ``PaddedBatchDataset``
(``Dataset.padded_batch``) and ``BucketBatchByLengthDataset``
(``Dataset.bucket_batch_by_length``), with MindSpore 2.10's argument checks and messages.

Where MindSpore finds an error only when the pipeline runs (an unknown column of ``filter`` or
``pad_info``, rows that cannot be batched), these nodes raise RuntimeError at the same point:
when rows are read (``get_dataset_size`` reads them for a node whose size depends on the data).
"""
import inspect
import numbers

import numpy as np

from .._frames import warn
from .engine import Dataset, check_workers, column_list
from .pipeline import BatchInfo, RepeatDataset
from .combine import SyncWaitDataset, find_nodes

__all__ = ['FilterDataset', 'ConcatDataset', 'PaddedBatchDataset',
           'BucketBatchByLengthDataset', 'type_error']

_INT32_MAX = 2147483647


def type_error(name, value, types):
    """MindSpore's message for an argument of the wrong type."""
    return TypeError(f"Argument {name} with value {value} is not of type {list(types)}, but got "
                     f"{type(value)}.")


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_type(value, types, name):
    if isinstance(value, bool) and bool not in types:
        raise type_error(name, value, types)
    if not isinstance(value, types):
        raise type_error(name, value, types)


def _check_pos_int32(value, name):
    _check_type(value, (int,), name)
    if not 1 <= value <= _INT32_MAX:
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[1, {_INT32_MAX}].")


def check_pad_info(pad_info):
    """Validate ``pad_info`` as MindSpore does: ``{column: (shape list or None, value)}``."""
    if pad_info is None:
        return None
    _check_type(pad_info, (dict,), "pad_info")
    for key, val in pad_info.items():
        _check_type(key, (str,), "key in pad_info")
        if val is None:
            continue
        if len(val) != 2:
            raise ValueError("value of pad_info should be a tuple of size 2.")
        _check_type(val, (tuple,), "value in pad_info")
        if val[0] is not None:
            _check_type(val[0], (list,), "shape in pad_info")
            for dim in val[0]:
                if dim is not None:
                    _check_pos_int32(dim, "dim of shape in pad_info")
        if val[1] is not None:
            _check_type(val[1], (int, float, str, bytes), "pad_value")
    return {k: (None, None) if v is None else v for k, v in pad_info.items()}


def _shape_text(shape):
    return '<' + ','.join(str(d) for d in shape) + '>'


def _stack_column(arrays, j):
    first = arrays[0].shape
    for a in arrays[1:]:
        if a.shape != first:
            raise RuntimeError(f"Cannot batch tensors with different shapes in column {j}. First "
                               f"element had shape {_shape_text(first)} and this element had "
                               f"shape {_shape_text(a.shape)}")
    return np.stack(arrays)


def _pad_column(arrays, shape, value, name, boundary=None):
    """``arrays`` padded (or cut) to one shape and stacked; None dims: the largest in the batch
    (or ``boundary - 1`` with ``pad_to_bucket_boundary``)."""
    ndim = arrays[0].ndim
    if any(a.ndim != ndim for a in arrays):
        raise RuntimeError(f"Invalid data, column '{name}' has rows of different ranks "
                           f"{sorted({a.ndim for a in arrays})} in one batch; they cannot be "
                           f"padded to one shape")
    largest = [max(a.shape[i] for a in arrays) for i in range(ndim)]
    if shape is None:
        target = largest
    else:
        if len(shape) != ndim:
            raise RuntimeError(f"Invalid pad_info, the pad shape {list(shape)} of column "
                               f"'{name}' has rank {len(shape)}, but its rows have rank {ndim}")
        target = [(largest[i] if boundary is None else boundary - 1) if d is None else d
                  for i, d in enumerate(shape)]
    dtype = np.result_type(*[a.dtype for a in arrays])
    if value is None:
        value = b'' if dtype.kind == 'S' else '' if dtype.kind == 'U' else 0
    out = np.full([len(arrays)] + target, value, dtype=dtype)
    for k, a in enumerate(arrays):
        cut = tuple(slice(0, min(n, t)) for n, t in zip(a.shape, target))
        out[(k,) + cut] = a[cut]
    return out


def pad_batch(rows, names, pad_info, boundary=None):
    """One batch row of ``rows``: columns named in ``pad_info`` (every column for ``{}``)
    padded, the others stacked (their rows must agree in shape). ``pad_info`` None: no padding.
    """
    out = []
    for j, (name, column) in enumerate(zip(names, zip(*rows))):
        if pad_info is not None and (not pad_info or name in pad_info):
            shape, value = pad_info.get(name, (None, None))
            out.append(_pad_column(column, shape, value, name, boundary))
        else:
            out.append(_stack_column(column, j))
    return tuple(out)


def _check_pad_columns(pad_info, names):
    for name in pad_info or {}:
        if name not in names:
            raise RuntimeError(f"Invalid pad_info, column name: {name} does not exist.")


def _counted(node):
    return sum(1 for _ in node._rows())


class FilterDataset(Dataset):
    """Rows for which ``predicate`` holds (see ``Dataset.filter``)."""

    def __init__(self, child, predicate, input_columns=None, num_parallel_workers=None):
        if not callable(predicate):
            raise TypeError("Predicate should be a Python function or a callable Python object.")
        check_workers(num_parallel_workers, 'Dataset.filter')
        self.input_columns = None if input_columns is None else \
            column_list(input_columns, 'Dataset.filter', 'input_columns')
        super().__init__((child,))
        self.predicate = predicate
        self.num_parallel_workers = num_parallel_workers

    def _count(self):
        return _counted(self)

    def _rows(self):
        names = self.children[0].get_col_names()
        if self.input_columns is None:
            pick = list(range(len(names)))
        else:
            for name in self.input_columns:
                if name not in names:
                    raise RuntimeError(f"Invalid parameter, column name: {name} does not exist "
                                       f"in the dataset columns.")
            pick = [names.index(n) for n in self.input_columns]
        for row in self.children[0]._rows():
            try:
                keep = bool(self.predicate(*[row[i] for i in pick]))
            except Exception as e:          # MindSpore reports the user's error this way
                raise RuntimeError(f"Dataset.filter: the predicate raised "
                                   f"{type(e).__name__}: {e}") from e
            if keep:
                yield row


class ConcatDataset(Dataset):
    """The rows of several datasets one after the other (see ``Dataset.concat``)."""

    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"Invalid dataset, expected Dataset object, but got {type(d)}!")
        sizes = [d.get_dataset_size() for d in datasets]
        for k, n in enumerate(sizes):
            if n == 0:
                raise ValueError(f"There are no samples in the dataset number {k}. Please make "
                                 f"sure there are valid samples in the dataset.")
        super().__init__(datasets)
        self._sizes = sizes

    def get_col_names(self):
        names = [list(d.get_col_names()) for d in self.children]
        if any(n != names[0] for n in names[1:]):
            raise RuntimeError("Invalid columns, 'column name' or 'column order' of concat "
                               "datasets should be the same.")
        return names[0]

    def _count(self):
        return sum(self._sizes)

    def _rows(self):
        self.get_col_names()
        for d in self.children:
            yield from d._rows()


def _check_batch_size(batch_size):
    if not (_is_int(batch_size) or callable(batch_size)):
        raise TypeError("batch_size should either be an int or a callable.")
    if callable(batch_size):
        if len(inspect.signature(batch_size).parameters) != 1:
            raise ValueError("callable batch_size should take one parameter (BatchInfo).")
    else:
        _check_pos_int32(int(batch_size), "batch_size")


class PaddedBatchDataset(Dataset):
    """Rows batched after padding them to one shape (see ``Dataset.padded_batch``)."""

    def __init__(self, child, batch_size, drop_remainder=False, num_parallel_workers=None,
                 pad_info=None):
        _check_batch_size(batch_size)
        check_workers(num_parallel_workers, 'Dataset.padded_batch')
        _check_type(drop_remainder, (bool,), "drop_remainder")
        self.pad_info = check_pad_info(pad_info)
        super().__init__((child,))
        if find_nodes(child, RepeatDataset):
            warn("Repeat is located before padded_batch, data from two epochs can be batched "
                 "together.")
        self.batch_size = None if callable(batch_size) else int(batch_size)
        self.batch_size_func = batch_size if callable(batch_size) else None
        for node in find_nodes(child, SyncWaitDataset):     # sync_wait counts in batches
            node.rows_per_batch = self.batch_size or 1
        self.drop_remainder = drop_remainder
        self.num_parallel_workers = num_parallel_workers
        self._epoch = -1

    def get_batch_size(self):
        return -1 if self.batch_size is None else self.batch_size

    def _count(self):
        if self.batch_size is None:
            return _counted(self)
        n = self.children[0].get_dataset_size()
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _size_of(self, batch_num):
        if self.batch_size is not None:
            return self.batch_size
        size = self.batch_size_func(BatchInfo(batch_num, self._epoch))
        if not _is_int(size) or size < 1:
            raise RuntimeError(f"Invalid batch_size function: it returned {size!r}; a batch "
                               f"size is an int >= 1")
        return int(size)

    def _rows(self):
        names = self.children[0].get_col_names()
        _check_pad_columns(self.pad_info, names)
        self._epoch += 1
        rows, batch_num = [], 0
        size = self._size_of(batch_num)
        for row in self.children[0]._rows():
            rows.append(row)
            if len(rows) == size:
                yield pad_batch(rows, names, self.pad_info)
                rows, batch_num = [], batch_num + 1
                size = self._size_of(batch_num)
        if rows and not self.drop_remainder:
            yield pad_batch(rows, names, self.pad_info)


def _check_int_list(values, name, message_type, positive_message):
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TypeError(message_type)
    if not all(v > 0 for v in values):
        raise ValueError(positive_message)


class BucketBatchByLengthDataset(Dataset):
    """Rows sorted into buckets by length, each bucket padded and batched when full (see
    ``Dataset.bucket_batch_by_length``)."""

    def __init__(self, child, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function=None, pad_info=None, pad_to_bucket_boundary=False,
                 drop_remainder=False):
        for name, value in (('column_names', column_names),
                            ('bucket_boundaries', bucket_boundaries),
                            ('bucket_batch_sizes', bucket_batch_sizes)):
            _check_type(value, (list,), name)
        for name, value in (('pad_to_bucket_boundary', pad_to_bucket_boundary),
                            ('drop_remainder', drop_remainder)):
            _check_type(value, (bool,), name)
        column_list(column_names, 'Dataset.bucket_batch_by_length', 'column_names')
        if element_length_function is None and len(column_names) != 1:
            raise ValueError("If element_length_function is not specified, exactly one column "
                             "name should be passed.")
        if element_length_function is not None and not callable(element_length_function):
            raise TypeError("element_length_function object is not callable.")
        if not bucket_boundaries:
            raise ValueError("bucket_boundaries cannot be empty.")
        _check_int_list(bucket_boundaries, 'bucket_boundaries',
                        "bucket_boundaries should be a list of int.",
                        "bucket_boundaries must only contain positive numbers.")
        if any(b <= a for a, b in zip(bucket_boundaries, bucket_boundaries[1:])):
            raise ValueError("bucket_boundaries should be strictly increasing.")
        if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
            raise ValueError("bucket_batch_sizes must contain one element more than "
                             "bucket_boundaries.")
        _check_int_list(bucket_batch_sizes, 'bucket_batch_sizes',
                        "bucket_batch_sizes should be a list of int.",
                        "bucket_batch_sizes should be a list of positive numbers.")
        self.pad_info = check_pad_info(pad_info) or {}
        super().__init__((child,))
        self.column_names = list(column_names)
        self.bucket_boundaries = list(bucket_boundaries)
        self.bucket_batch_sizes = list(bucket_batch_sizes)
        self.element_length_function = element_length_function
        self.pad_to_bucket_boundary = pad_to_bucket_boundary
        self.drop_remainder = drop_remainder

    def get_col_names(self):
        names = self.children[0].get_col_names()
        for name in self.column_names:
            if name not in names:
                raise RuntimeError(f"Invalid parameter, input column name: {name} doesn't exist "
                                   f"in the dataset columns.")
        return names

    def get_batch_size(self):
        return 1

    def _count(self):
        return _counted(self)

    def _length(self, row, pick):
        args = [row[i] for i in pick]
        if self.element_length_function is None:
            return 0 if args[0].ndim == 0 else args[0].shape[0]
        length = self.element_length_function(*args)
        if not isinstance(length, (numbers.Integral, np.integer)) or isinstance(length, bool) \
                or length < 0:
            raise RuntimeError(f"Invalid element_length_function, element_length_function must "
                               f"return an integer greater than or equal to 0, but got{length}")
        return int(length)

    def _batch(self, rows, index, names):
        boundary = None
        if self.pad_to_bucket_boundary:
            if index >= len(self.bucket_boundaries):
                raise RuntimeError(f"Invalid data, requested to pad to bucket boundary failed, "
                                   f"bucket index should be less than "
                                   f"{len(self.bucket_boundaries) + 1}, but got {index}")
            boundary = self.bucket_boundaries[index]
        return pad_batch(rows, names, self.pad_info, boundary)

    def _rows(self):
        names = self.get_col_names()
        _check_pad_columns(self.pad_info, names)
        pick = [names.index(n) for n in self.column_names]
        buckets = [[] for _ in self.bucket_batch_sizes]
        for row in self.children[0]._rows():
            length = self._length(row, pick)
            index = next((k for k, b in enumerate(self.bucket_boundaries) if length < b),
                         len(self.bucket_boundaries))
            buckets[index].append(row)
            if len(buckets[index]) == self.bucket_batch_sizes[index]:
                yield self._batch(buckets[index], index, names)
                buckets[index] = []
        if not self.drop_remainder:
            for index, rows in enumerate(buckets):
                if rows:
                    yield self._batch(rows, index, names)
