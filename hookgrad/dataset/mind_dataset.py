"""``MindDataset``: rows of hookgrad MindRecord files (``hookgrad.mindrecord.FileWriter``)."""
import numbers

import numpy as np

from ..mindrecord import shard
from .engine import column_list
from .file_sources import FileSource

__all__ = ['MindDataset']


class MindDataset(FileSource):
    """The rows of hookgrad MindRecord files, one column per schema field.

    hookgrad reads its own MindRecord format (one safetensors file per shard, see
    docs/data.md), not MindSpore's binary one: a file written by MindSpore raises an error
    saying so. Numeric scalars come out as 0-d arrays, arrays in their shape, ``string`` fields
    as 0-d str arrays and ``bytes`` fields as (1,) bytes arrays, as in MindSpore.

    Args:
        dataset_files: one shard file, standing for every shard of its set, or a list of files
            (read in that order).
        columns_list: the fields to read, in order. Default None: all, in sorted name order.
        num_parallel_workers: checked and ignored: files are read in the calling thread.
        shuffle: read in a new random order each epoch. Default None: True without a sampler.
        num_shards, shard_id: read only one shard (see ``DistributedSampler``).
        sampler: a ``Sampler`` or an iterable of row indices.
        padded_sample: a dict with a value for each of ``columns_list``, appended
            ``num_padded`` times so that the rows split evenly into ``num_shards``.
        num_padded: how many padded rows to append.
        num_samples: at most this many rows per epoch (None or 0: all).
        cache: a ``DatasetCache`` keeping the rows in memory, or None.

    Raises:
        ValueError: for a missing file or an unknown column. RuntimeError: for a file that is
        not a hookgrad MindRecord file, padding arguments given without each other or
        ``columns_list``, or padded rows that do not split evenly into ``num_shards``.
    """

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, sampler=None, padded_sample=None,
                 num_padded=None, num_samples=None, cache=None):
        who = 'MindDataset'
        if not isinstance(dataset_files, str) and not (
                isinstance(dataset_files, list) and dataset_files and
                all(isinstance(f, str) for f in dataset_files)):
            raise TypeError(f"{who}: dataset_files must be a str or a non-empty list of str, "
                            f"got {dataset_files!r}")
        if padded_sample is not None and columns_list is None:
            raise RuntimeError(f"{who}: padded_sample is specified and requires columns_list "
                               f"as well.")
        if padded_sample is not None and num_padded is None:
            raise RuntimeError(f"{who}: padded_sample is specified and requires num_padded as "
                               f"well.")
        if num_padded is not None and padded_sample is None:
            raise RuntimeError(f"{who}: num_padded is specified but padded_sample is not.")
        if num_padded is not None and (isinstance(num_padded, bool) or
                                       not isinstance(num_padded, numbers.Integral) or
                                       num_padded < 0):
            raise ValueError(f"{who}: num_padded must be an int >= 0, got {num_padded!r}")
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        schema, columns, n, _ = shard.read_shards(dataset_files, who)
        names = sorted(schema) if columns_list is None else \
            column_list(columns_list, who, 'columns_list')
        unknown = [c for c in names if c not in schema]
        if unknown:
            raise ValueError(f"{who}: columns_list names {unknown}, which are not fields of "
                             f"the schema {sorted(schema)}")
        self._padded = None
        total = n
        if padded_sample is not None:
            if not isinstance(padded_sample, dict) or set(names) - set(padded_sample):
                raise RuntimeError(f"{who}: padded_sample must be a dict with a value for "
                                   f"each of columns_list {names}, got {padded_sample!r}")
            self._padded = tuple(self._pad_value(schema[c], padded_sample[c]) for c in names)
            total = n + num_padded
            if num_shards is not None and total % num_shards:
                raise RuntimeError(f"{who}: invalid data, the size of dataset and padded "
                                   f"samples: {total} can not be divisible by the value of "
                                   f"'num_shards' ({num_shards}).")
        self._cols = [columns[c] for c in names]
        self._stored = n
        self._n = total
        self._names = names

    @staticmethod
    def _pad_value(field, value):
        """A padded row's value in the form rows of ``field`` come out in."""
        if field['type'] == 'string':
            return np.array(str(value))
        if field['type'] == 'bytes':
            return np.array([bytes(value)])
        return np.asarray(value, shard.NUMERIC[field['type']])

    def _row(self, i):
        if i >= self._stored:
            return self._padded
        return tuple(c[i] for c in self._cols)
