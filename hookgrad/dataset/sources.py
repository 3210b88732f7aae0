"""Source datasets: ``NumpySlicesDataset`` (arrays in memory) and ``GeneratorDataset`` (a Python
generator function, iterable or random-access object)."""
import copy

import numpy as np

from .. import _dtype
from .. import _random
from .engine import Dataset, check_workers, column_list, split_sizes
from .samplers import (RandomSampler, SequentialSampler, SubsetRandomSampler, SubsetSampler,
                       build_sampler)

__all__ = ['NumpySlicesDataset', 'GeneratorDataset']


class _RandomAccessSplit:
    """``split`` for sources read through a sampler: rows are picked by index."""

    def split(self, sizes, randomize=True):
        if not isinstance(randomize, bool):
            raise TypeError(f"{type(self).__name__}.split: randomize must be a bool, got "
                            f"{randomize!r}")
        who = f"{type(self).__name__}.split"
        if self._sampler is None:
            return Dataset.split(self, sizes, randomize)
        sampler = self._sampler
        whole = (type(sampler) is RandomSampler and not sampler.replacement) or \
            (type(sampler) is SequentialSampler and sampler.start_index == 0)
        if not whole or sampler.num_samples is not None:
            raise ValueError(f"{who}: a dataset read through a sampler, shards or num_samples "
                             f"cannot be split; split the full dataset first")
        n = self._num_rows()
        counts = split_sizes(sizes, n, who)
        order = _random.generator().permutation(n) if randomize else np.arange(n)
        shuffled = isinstance(self._sampler, RandomSampler)
        out, start = [], 0
        for c in counts:
            part = copy.copy(self)
            idx = order[start:start + c]
            part._sampler = SubsetRandomSampler(idx) if shuffled else SubsetSampler(np.sort(idx))
            part._size = None
            out.append(part)
            start += c
        return tuple(out)


def _slices(data, column_names):
    """``(columns, names)`` of NumpySlicesDataset's ``data``."""
    if isinstance(data, dict):
        if not data or not all(isinstance(k, str) for k in data):
            raise TypeError(f"NumpySlicesDataset: a dict of data needs str keys (column names) "
                            f"and at least one column, got keys {list(data)}")
        names, values = list(data), list(data.values())
    elif isinstance(data, tuple):
        if not data:
            raise ValueError("NumpySlicesDataset: data is an empty tuple; give one array per "
                             "column")
        names, values = [f"column_{i}" for i in range(len(data))], list(data)
    elif isinstance(data, (list, np.ndarray)) or hasattr(data, '__array__'):
        names, values = ['column_0'], [data]
    else:
        raise TypeError(f"NumpySlicesDataset: data must be a list, tuple, dict or array, got "
                        f"{type(data).__name__}")
    if column_names is not None:
        given = column_list(column_names, 'NumpySlicesDataset', 'column_names')
        if len(given) != len(values):
            raise ValueError(f"NumpySlicesDataset: column_names {given} names {len(given)} "
                             f"column{'s' if len(given) != 1 else ''}, but data has "
                             f"{len(values)}")
        names = given
    columns = []
    for name, v in zip(names, values):
        try:
            arr = np.asarray(v)
        except ValueError as e:
            raise ValueError(f"NumpySlicesDataset: column '{name}' is not a regular array: "
                             f"{e}") from None
        if arr.ndim == 0:
            raise ValueError(f"NumpySlicesDataset: column '{name}' is a scalar; each column "
                             f"needs a first dimension to slice rows from")
        columns.append(arr)
    lengths = {name: len(c) for name, c in zip(names, columns)}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"NumpySlicesDataset: columns have different numbers of rows: "
                         f"{lengths}")
    return columns, names


class NumpySlicesDataset(_RandomAccessSplit, Dataset):
    """A dataset of rows sliced along the first dimension of in-memory arrays.

    Args:
        data: a dict ``{column name: array}``, a tuple of arrays (one column each, named
            ``column_0``, ``column_1``...), or a single array or list (one column). Every
            column must have the same number of rows.
        column_names: names for the columns (a str or list of str), replacing the defaults.
        num_samples: at most this many rows per epoch. Default None: all.
        num_parallel_workers: accepted for compatibility (an int >= 1).
        shuffle: read rows in a new random order each epoch. Default None: True, unless a
            sampler is given.
        sampler: a ``Sampler`` or an iterable of row indices; excludes ``shuffle``.
        num_shards, shard_id: read only shard ``shard_id`` of ``num_shards`` (see
            ``DistributedSampler``).

    Raises:
        TypeError: for data of another kind or non-str names.
        ValueError: for columns of different lengths, scalar columns, a ``column_names`` of
            the wrong length or conflicting sampling arguments.

    >>> import numpy as np, hookgrad as ms
    >>> ds = ms.dataset.NumpySlicesDataset({'x': np.ones((4, 2)), 'y': np.arange(4)},
    ...                                    shuffle=False)
    >>> ds.get_col_names(), ds.get_dataset_size()
    (['x', 'y'], 4)
    """

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        columns, names = _slices(data, column_names)
        check_workers(num_parallel_workers, 'NumpySlicesDataset')
        self._sampler, _ = build_sampler('NumpySlicesDataset', sampler, shuffle, num_samples,
                                         num_shards, shard_id, random_access=True)
        super().__init__()
        self._columns = columns
        self._names = names

    def get_col_names(self):
        return list(self._names)

    def _num_rows(self):
        return len(self._columns[0])

    def _count(self):
        return self._sampler._size(self._num_rows())

    def _rows(self):
        columns = self._columns
        for i in self._sampler._order(self._num_rows()):
            yield tuple(np.asarray(c[i]) for c in columns)

    def _gather_batches(self, batch_size, drop_remainder):
        # one fancy-index gather per column per batch
        order = self._sampler._order(self._num_rows())
        columns = self._columns
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            if drop_remainder and len(idx) < batch_size:
                return
            yield tuple(c[idx] for c in columns)


class GeneratorDataset(_RandomAccessSplit, Dataset):
    """A dataset whose rows come from Python code.

    ``source`` is one of: a random-access object (with ``__getitem__`` and ``__len__``:
    ``source[i]`` is row ``i``), a generator function (called once per epoch) or an iterable
    (``iter(source)`` once per epoch). A row is a tuple with one value per column (a single
    non-tuple value is one column); values become NumPy arrays.

    Args:
        source: the rows, as above.
        column_names: the column names (a str or list of str); required.
        column_types: dtypes (``ms.float32``, NumPy dtypes...) to cast each column to.
        schema: not supported: give ``column_names`` (and ``column_types``).
        num_samples: at most this many rows per epoch. Default None: all.
        num_parallel_workers: accepted for compatibility (an int >= 1).
        shuffle: read rows in a new random order each epoch (random-access sources only).
            Default None: True for a random-access source without a sampler.
        sampler: a ``Sampler`` or an iterable of row indices (random-access sources only).
        num_shards, shard_id: read only one shard (random-access sources only).
        python_multiprocessing, max_rowsize: accepted for compatibility; rows are made in
            this process.

    Raises:
        TypeError: for a source of another kind or bad names/types.
        ValueError: without column_names, with a schema, or for sampling arguments on a
            source without random access. Iterating raises ValueError for a row with the
            wrong number of columns.

    >>> import numpy as np, hookgrad as ms
    >>> def gen():
    ...     for i in range(3):
    ...         yield np.array([i, i]), np.array(i * 10)
    >>> ds = ms.dataset.GeneratorDataset(gen, column_names=['x', 'y'])
    >>> [int(y) for x, y in ds.create_tuple_iterator(output_numpy=True)]
    [0, 10, 20]
    """

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None):
        if hasattr(source, '__getitem__') and hasattr(source, '__len__'):
            kind = 'random'
        elif callable(source):
            kind = 'function'
        elif hasattr(source, '__iter__'):
            kind = 'iterable'
        else:
            raise TypeError(f"GeneratorDataset: source must be a generator function, an iterable "
                            f"or an object with __getitem__ and __len__, got "
                            f"{type(source).__name__}")
        if schema is not None:
            raise ValueError("GeneratorDataset: schema is not supported; give column_names "
                             "(and column_types)")
        if column_names is None:
            raise ValueError("GeneratorDataset: column_names is required (a str or list of str)")
        names = column_list(column_names, 'GeneratorDataset', 'column_names')
        types = None
        if column_types is not None:
            if not isinstance(column_types, (list, tuple)) or len(column_types) != len(names):
                raise TypeError(f"GeneratorDataset: column_types must be a list of "
                                f"{len(names)} dtype{'s' if len(names) != 1 else ''}, one per "
                                f"column of {names}, got {column_types!r}")
            types = [_dtype.to_numpy(t) for t in column_types]
        check_workers(num_parallel_workers, 'GeneratorDataset')
        if not isinstance(python_multiprocessing, bool):
            raise TypeError(f"GeneratorDataset: python_multiprocessing must be a bool, got "
                            f"{python_multiprocessing!r}")
        self._sampler, self._num_samples = build_sampler(
            'GeneratorDataset', sampler, shuffle, num_samples, num_shards, shard_id,
            random_access=kind == 'random')
        super().__init__()
        self.source = source
        self._kind = kind
        self._names = names
        self._types = types

    def get_col_names(self):
        return list(self._names)

    def _num_rows(self):
        return len(self.source)

    def _count(self):
        if self._sampler is not None:
            return self._sampler._size(self._num_rows())
        return sum(1 for _ in self._source_rows())

    def _source_rows(self):
        """The source's raw rows for one epoch."""
        if self._kind == 'random':
            source = self.source
            return (source[int(i)] for i in self._sampler._order(self._num_rows()))
        if self._kind == 'function':
            rows = self.source()
            if not hasattr(rows, '__next__') and not hasattr(rows, '__iter__'):
                raise TypeError(f"GeneratorDataset: source() returned "
                                f"{type(rows).__name__}, expected an iterator of rows")
            rows = iter(rows)
        else:
            rows = iter(self.source)
        return rows if self._num_samples is None else \
            (row for _, row in zip(range(self._num_samples), rows))

    def _rows(self):
        names, types, ncols = self._names, self._types, len(self._names)
        for k, row in enumerate(self._source_rows()):
            values = row if isinstance(row, tuple) else (row,)
            if len(values) != ncols:
                raise ValueError(f"GeneratorDataset: row {k} has {len(values)} column"
                                 f"{'s' if len(values) != 1 else ''}, but column_names names "
                                 f"{ncols}: {names}")
            if types is None:
                yield tuple(np.asarray(v) for v in values)
            else:
                yield tuple(np.asarray(v).astype(t, copy=False) for v, t in zip(values, types))
