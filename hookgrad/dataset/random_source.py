"""``RandomDataset`` (MindSpore's ``mindspore.dataset.RandomDataset``): rows of random bytes in
the columns a ``Schema`` describes, for trying out a pipeline without data."""
import numbers

import numpy as np

from .. import _random
from .file_sources import FileSource
from .schema import Schema

__all__ = ['RandomDataset']

_RANDOM_TYPES = ('uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32', 'uint64', 'int64',
                 'float16', 'float32', 'float64', 'bool')
_MAX_RANDOM_ROWS = 1024


class RandomDataset(FileSource):
    """Random rows: each column of a row is filled with one random byte repeated, as MindSpore
    fills them (an int32 column holds values like ``0x3E3E3E3E``).

    Rows are made from one seed drawn from the global generator when the dataset is made, so
    ``ms.set_seed`` makes them repeat, and row ``i`` is the same in every epoch.

    Args:
        total_rows: rows to make. Default None: a random number in [1, 1024].
        schema: a ``Schema`` or the path of a schema JSON file giving each column's name, type
            and shape (a column without a shape gets a random one, rank 1 to 4, sides 1 to 32).
            Default None: 1 to 4 columns ``c0``, ``c1``... of random numeric types and shapes.
        columns_list: the schema columns to keep, in their schema order. Default None: all.
        num_samples, num_parallel_workers, cache, shuffle, num_shards, shard_id: as
            ``MnistDataset``.

    Raises:
        TypeError: for a non-int ``total_rows``, a schema of another kind or a non-list
            ``columns_list``.
        ValueError: for ``total_rows`` < 1, an unknown column in ``columns_list``, a string
            column or conflicting sampling arguments.

    >>> import hookgrad as ms
    >>> schema = ms.dataset.Schema()
    >>> schema.add_column('image', de_type=ms.uint8, shape=[2])
    >>> ds = ms.dataset.RandomDataset(total_rows=3, schema=schema, shuffle=False)
    >>> [row['image'].shape for row in ds.create_dict_iterator(output_numpy=True)]
    [(2,), (2,), (2,)]
    """

    def __init__(self, total_rows=None, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, cache=None, shuffle=None, num_shards=None,
                 shard_id=None):
        who = 'RandomDataset'
        if total_rows is not None and (isinstance(total_rows, bool) or
                                       not isinstance(total_rows, numbers.Integral)):
            raise TypeError(f"{who}: total_rows must be an int or None, got {total_rows!r}")
        if total_rows is not None and total_rows < 1:
            raise ValueError(f"{who}: total_rows must be >= 1, got {total_rows}")
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is not None and not isinstance(schema, Schema):
            raise TypeError(f"{who}: schema must be a Schema or a schema file path, got "
                            f"{type(schema).__name__}")
        if columns_list is not None and (not isinstance(columns_list, list) or
                                         not all(isinstance(c, str) for c in columns_list)):
            raise TypeError(f"{who}: columns_list must be a list of str, got {columns_list!r}")
        FileSource.__init__(self, who, num_samples, num_parallel_workers, shuffle, None,
                            num_shards, shard_id, cache)
        rng = _random.generator()
        specs = self._specs(schema, rng, who)
        if columns_list is not None:
            unknown = [c for c in columns_list if c not in [s[0] for s in specs]]
            if unknown:
                raise ValueError(f"{who}: columns_list names {unknown}, which the schema lacks; "
                                 f"its columns are {[s[0] for s in specs]}")
            specs = [s for s in specs if s[0] in columns_list]
        if total_rows is None:
            total_rows = (schema.num_rows if schema is not None and schema.num_rows else
                          int(rng.integers(1, _MAX_RANDOM_ROWS + 1)))
        self.total_rows = int(total_rows)
        self._specs_kept = specs
        self._seed = int(rng.integers(2 ** 63))
        self._n = self.total_rows
        self._names = [s[0] for s in specs]

    @staticmethod
    def _specs(schema, rng, who):
        """``[(name, dtype, shape)]`` of the columns, random where the schema is silent."""
        def random_shape():
            return tuple(int(d) for d in rng.integers(1, 33, size=int(rng.integers(1, 5))))
        if schema is None or not schema.columns:
            return [(f"c{k}", np.dtype(_RANDOM_TYPES[int(rng.integers(len(_RANDOM_TYPES)))]),
                     random_shape()) for k in range(int(rng.integers(1, 5)))]
        specs = []
        for column in schema.columns:
            if column['type'] in ('string', 'bytes'):
                raise ValueError(f"{who}: column '{column['name']}' is of type "
                                 f"{column['type']}; random data is numeric only")
            shape = tuple(column['shape']) if 'shape' in column else random_shape()
            specs.append((column['name'], np.dtype(column['type']), shape))
        return specs

    def _row(self, i):
        fills = np.random.default_rng([self._seed, i]).integers(0, 256, len(self._specs_kept))
        row = []
        for (_, dtype, shape), byte in zip(self._specs_kept, fills):
            count = int(np.prod(shape, dtype=np.int64))
            raw = np.full(count * dtype.itemsize, byte, np.uint8)
            if dtype == np.bool_:
                raw = raw & 1           # a bool byte holds 0 or 1
            row.append(raw.view(dtype).reshape(shape))
        return tuple(row)
