"""``TFRecordDataset``: rows of ``tf.train.Example`` records in TFRecord files, read without
TensorFlow (see ``tfrecord_format``), and the ``Shuffle`` modes of file sources.

Rows come out in MindSpore's order: the files, sorted by path, are dealt to
``num_parallel_workers`` readers in turn (file ``i`` to reader ``i % workers``), and the readers'
rows are interleaved one at a time; with one worker the files are read one after another.
"""
import enum
import glob
import gzip
import math
import os
import zlib

import numpy as np

from .. import _random
from .cache import check_cache
from .engine import Dataset, check_workers
from .schema import Schema
from .tfrecord_format import decode_example, read_records, split_records
from .workers import resolve_workers

__all__ = ['TFRecordDataset', 'Shuffle']


class Shuffle(str, enum.Enum):
    """How a file source shuffles: ``FALSE`` not at all, ``FILES`` the file order, ``INFILE``
    the rows within each file, ``GLOBAL`` (and ``ADAPTIVE``/``PARTIAL``) files and rows."""
    FALSE = 'false'
    ADAPTIVE = 'adaptive'
    GLOBAL = 'global'
    PARTIAL = 'partial'
    FILES = 'files'
    INFILE = 'infile'



def find_files(dataset_files, who):
    """The files of ``dataset_files`` (a path or glob pattern, or a list of them)."""
    patterns = [dataset_files] if isinstance(dataset_files, (str, os.PathLike)) else dataset_files
    if not isinstance(patterns, (list, tuple)) or not patterns:
        raise TypeError(f"{who}: dataset_files must be a str or a non-empty list of str, got "
                        f"{dataset_files!r}")
    files, unmatched = [], []
    for pattern in patterns:
        pattern = os.fspath(pattern)
        found = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else \
            ([pattern] if os.path.isfile(pattern) else [])
        if not found:
            unmatched.append(pattern)
        files.extend(found)
    if unmatched:
        raise ValueError(f"The following patterns did not match any files: {unmatched}.")
    return files


def _shuffle_mode(shuffle, who):
    if shuffle is None or shuffle is True:
        return Shuffle.GLOBAL
    if shuffle is False:
        return Shuffle.FALSE
    if not isinstance(shuffle, Shuffle):
        raise TypeError(f"{who}: shuffle must be a bool or a Shuffle, got {shuffle!r}")
    return shuffle


def _column_value(spec, kind, values, path):
    """One feature as the array the schema ``spec`` (or, for None, the feature) asks for."""
    name = spec['name'] if spec else None
    wanted = spec['type'] if spec else None
    if kind is None:
        arr = np.zeros(0, np.float32)
    elif kind == 'bytes':
        if wanted == 'string':
            arr = np.array([v.decode('utf-8', 'replace') for v in values])
        elif wanted == 'bytes':
            arr = np.array(values, dtype=object).astype(bytes)
        elif len(values) == 1 or wanted in (None, 'uint8', 'int8'):
            arr = np.frombuffer(b''.join(values), np.uint8).copy()
            if wanted == 'int8':
                arr = arr.view(np.int8)
        else:
            raise RuntimeError(f"TFRecordDataset: {path}: column {name} holds bytes, which "
                               f"cannot be read as {wanted}.")
    else:
        arr = values
        if wanted is not None:
            if wanted in ('string', 'bytes'):
                raise RuntimeError(f"TFRecordDataset: {path}: column {name} holds numbers, "
                                   f"which cannot be read as {wanted}.")
            arr = arr.astype(wanted)
    if spec and 'shape' in spec:
        shape = spec['shape']
        known = [n for n in shape if n != -1]
        size = math.prod(known)
        if (-1 in shape and (size == 0 or arr.size % size)) or \
                (-1 not in shape and arr.size != size):
            raise RuntimeError(f"TFRecordDataset: {path}: Column shape of {name} defined in "
                               f"schema does not match the shape actually load.")
        arr = arr.reshape(shape)
    return arr


class TFRecordDataset(Dataset):
    """Rows of TFRecord files of ``tf.train.Example`` records, one column per feature.

    Args:
        dataset_files: a file path or glob pattern, or a list of them; read in sorted order.
        schema: a ``Schema`` or the path of a schema JSON file: the columns, in order, with
            their types and shapes. Default None: every feature of the first record, in name
            order: int64 lists as int64, float lists as float32, bytes as uint8, all 1-D.
        columns_list: the columns to read, in this order. Default None: all.
        num_samples: rows per epoch (None or 0: all).
        num_parallel_workers: readers whose rows are interleaved (None: the config default).
        shuffle: ``Shuffle.GLOBAL`` (default, also True), ``FILES``, ``INFILE`` or ``FALSE``
            (also False); drawn from the global generator (``ms.set_seed``).
        num_shards, shard_id: read shard ``shard_id``: every ``num_shards``-th file, or with
            ``shard_equal_rows`` an equal share of the rows (wrapping round to fill the last).
        cache: a ``DatasetCache``: rows are read from the files once, then from memory.
        compression_type: None, '', 'GZIP' or 'ZLIB' (whole files compressed).

    Raises:
        ValueError: for patterns that match no file or bad sharding arguments.
        RuntimeError: for columns the records lack, a shape that disagrees with the schema,
            or a record that is truncated or fails its CRC check (MindSpore does not check).
    """

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, shard_equal_rows=False, cache=None, compression_type=None):
        who = 'TFRecordDataset'
        self._files = sorted(find_files(dataset_files, who))       # as MindSpore does
        check_workers(num_parallel_workers, who)
        self._cache = check_cache(cache, who)
        self._shuffle = _shuffle_mode(shuffle, who)
        if compression_type not in (None, '', 'GZIP', 'ZLIB'):
            raise ValueError("Input compression_type is not within the valid set of "
                             "['', 'GZIP', 'ZLIB'].")
        self._compression = compression_type or ''
        if num_samples is not None and (isinstance(num_samples, bool) or
                                        not isinstance(num_samples, int) or num_samples < 0):
            raise ValueError("num_samples exceeds the boundary between 0 and "
                             "9223372036854775807(INT64_MAX)!")
        self._num_samples = num_samples or None
        if num_shards is not None and shard_id is None:
            raise RuntimeError("num_shards is specified and currently requires shard_id as "
                               "well.")
        if shard_id is not None and num_shards is None:
            raise RuntimeError("shard_id is specified but num_shards is not.")
        if num_shards is not None:
            for name, value in (('num_shards', num_shards), ('shard_id', shard_id)):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise TypeError(f"Argument {name} with value {value} is not of type "
                                    f"[<class 'int'>], but got {type(value)}.")
            if num_shards < 1:
                raise ValueError("Input num_shards is not within the required interval of "
                                 "[1, 2147483647].")
            if not 0 <= shard_id < num_shards:
                raise ValueError(f"Input shard_id is not within the required interval of "
                                 f"[0, {num_shards - 1}].")
            if not shard_equal_rows and len(self._files) < num_shards:
                raise RuntimeError(f"Invalid file, numbers of tfrecord file should not less "
                                   f"than num_shards when shard_equal_rows is false, but got "
                                   f"numbers of tfrecord file: {len(self._files)}, num_shards: "
                                   f"{num_shards}")
        if not isinstance(shard_equal_rows, bool):
            raise TypeError(f"Argument shard_equal_rows with value {shard_equal_rows} is not of "
                            f"type [<class 'bool'>], but got {type(shard_equal_rows)}.")
        self._shards = (num_shards, shard_id, shard_equal_rows)
        self._workers = num_parallel_workers
        self._specs = self._columns(schema, columns_list)
        self._counts = None
        super().__init__()

    # ----------------------------------------------------------------- columns
    def _columns(self, schema, columns_list):
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is not None and not isinstance(schema, Schema):
            raise TypeError(f"TFRecordDataset: schema must be a Schema or a schema file path, "
                            f"got {type(schema).__name__}")
        if schema is not None and schema.columns:
            specs = list(schema.columns)
        else:
            first = next(self._records(self._files[0]), None)
            if first is None:
                raise RuntimeError(f"TFRecordDataset: {self._files[0]} holds no record to "
                                   f"take the columns from; give a schema")
            specs = [{'name': n, 'inferred': True} for n in sorted(decode_example(first))]
        if columns_list is None:
            return specs
        if isinstance(columns_list, str):
            columns_list = [columns_list]
        by_name = {s['name']: s for s in specs}
        for name in columns_list:
            if name not in by_name:
                raise RuntimeError(f"Invalid columns_list, tfrecord file failed to find column "
                                   f"name: {name}")
        return [by_name[name] for name in columns_list]

    def get_col_names(self):
        return [s['name'] for s in self._specs]

    # ----------------------------------------------------------------- files
    def _records(self, path):
        if not self._compression:
            return read_records(path)
        with open(path, 'rb') as f:
            blob = f.read()
        data = gzip.decompress(blob) if self._compression == 'GZIP' else zlib.decompress(blob)
        return split_records(data, path)

    def _count_rows(self):
        """Records per file, from their length headers."""
        if self._counts is None:
            self._counts = [sum(1 for _ in self._records(p)) for p in self._files]
        return self._counts

    def _blocks(self):
        """``[(file index, first row, stop row)]`` read by this shard, in order."""
        num_shards, shard_id, equal_rows = self._shards
        files = range(len(self._files))
        if num_shards is None:
            return [(i, 0, None) for i in files]
        if not equal_rows:
            return [(i, 0, None) for i in files[shard_id::num_shards]]
        counts = self._count_rows()
        total = sum(counts)
        per = -(-total // num_shards)
        starts = np.concatenate([[0], np.cumsum(counts)])
        blocks, want, pos = [], per, (shard_id * per) % max(total, 1)
        while want > 0 and total:
            i = int(np.searchsorted(starts, pos, side='right') - 1)
            take = min(want, int(starts[i + 1] - pos))
            blocks.append((i, int(pos - starts[i]), int(pos - starts[i]) + take))
            want -= take
            pos = (pos + take) % total
        return blocks

    def _count(self):
        counts = self._count_rows()
        n = sum(len(range(counts[i])[a:b]) for i, a, b in self._blocks())
        return n if self._num_samples is None else min(n, self._num_samples)

    # ----------------------------------------------------------------- rows
    def _block_rows(self, block, rng):
        index, start, stop = block
        path = self._files[index]
        records = list(self._records(path))[start:stop]
        order = rng.permutation(len(records)) if rng is not None else range(len(records))
        for k in order:
            yield self._parse(records[k], path)

    def _parse(self, record, path):
        features = decode_example(record)
        row = []
        for spec in self._specs:
            name = spec['name']
            if name not in features:
                raise RuntimeError(f"TFRecordDataset: {path}: Feature name: {name} is required "
                                   f"in schema but could not be found in tfrecord file.")
            kind, values = features[name]
            row.append(_column_value(None if spec.get('inferred') else spec, kind, values,
                                     path))
        return tuple(row)

    def _ordered_rows(self):
        """One epoch's rows before the row shuffle: readers interleaved one row at a time."""
        blocks = self._blocks()
        mode = self._shuffle
        rng = _random.generator()
        if mode in (Shuffle.FILES, Shuffle.GLOBAL, Shuffle.ADAPTIVE, Shuffle.PARTIAL):
            blocks = [blocks[i] for i in rng.permutation(len(blocks))]
        infile = rng if mode == Shuffle.INFILE else None
        workers = max(1, min(resolve_workers(self._workers), len(blocks)))
        streams = [_chain(self._block_rows(b, infile) for b in blocks[w::workers])
                   for w in range(workers)]
        while streams:
            alive = []
            for stream in streams:
                row = next(stream, None)
                if row is not None:
                    alive.append(stream)
                    yield row
            streams = alive

    def _rows(self):
        rows = self._cache.rows(self, self._ordered_rows) if self._cache is not None else \
            self._ordered_rows()
        if self._shuffle in (Shuffle.GLOBAL, Shuffle.ADAPTIVE, Shuffle.PARTIAL):
            rows = list(rows)
            rows = [rows[i] for i in _random.generator().permutation(len(rows))]
        n = self._num_samples
        for k, row in enumerate(rows):
            if n is not None and k >= n:
                return
            yield row


def _chain(generators):
    for g in generators:
        yield from g

