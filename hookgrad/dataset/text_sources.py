"""Readers of line-based text files: ``TextFileDataset`` (one row per line), ``CSVDataset``
(one row per comma-separated record) and ``USPSDataset`` (one 16x16 image per libsvm line).

Both read as MindSpore does: the files, sorted by path, are dealt to ``num_parallel_workers``
readers in turn and the readers' rows interleaved one at a time; ``num_shards`` gives every
shard an equal share of the rows, wrapping round to fill the last one; ``shuffle`` takes a
``Shuffle`` mode (True or the default ``Shuffle.GLOBAL``: the file order and the rows).
"""
import numbers
import os
import re

import numpy as np

from .cache import check_cache
from .engine import Dataset, check_workers, column_list
from .file_sources import check_dir, check_usage
from .tfrecord import Shuffle, TFRecordDataset, _shuffle_mode, find_files

__all__ = ['TextFileDataset', 'CSVDataset', 'USPSDataset']

_INT = re.compile(r'[+-]?\d+\Z')
_FLOAT = re.compile(r'[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z|[+-]?(inf|infinity|nan)\Z',
                    re.IGNORECASE)


def _check_common(who, num_samples, num_parallel_workers, num_shards, shard_id):
    """MindSpore's checks of the sampling arguments of a file source; ``num_samples`` or None."""
    check_workers(num_parallel_workers, who)
    if num_samples is not None and (isinstance(num_samples, bool) or
                                    not isinstance(num_samples, numbers.Integral) or
                                    num_samples < 0):
        raise ValueError(f"{who}: num_samples must be None or an int >= 0 (0: all rows), got "
                         f"{num_samples!r}")
    if (num_shards is None) != (shard_id is None):
        raise RuntimeError(f"{who}: num_shards and shard_id must be given together, got "
                           f"num_shards={num_shards!r}, shard_id={shard_id!r}")
    if num_shards is not None:
        for name, value in (('num_shards', num_shards), ('shard_id', shard_id)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{who}: {name} must be an int, got {value!r}")
        if num_shards < 1:
            raise ValueError(f"{who}: num_shards must be >= 1, got {num_shards}")
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"{who}: shard_id must be in [0, {num_shards - 1}], got {shard_id}")
    return int(num_samples) if num_samples else None


def _lines(path):
    """The non-empty lines of a file as str (UTF-8), without their '\\n'."""
    with open(path, 'rb') as f:
        data = f.read()
    return [line.decode('utf-8', 'replace') for line in data.split(b'\n') if line]


class _LineFiles(Dataset):
    """Rows made from the lines of text files, in MindSpore's file order, shards and shuffles.

    Subclasses define ``_file_rows(index)``: the rows of file ``index`` as tuples of arrays.
    """

    # the row order, shards and shuffles of TFRecordDataset, over rows of lines
    _blocks = TFRecordDataset._blocks
    _count = TFRecordDataset._count
    _ordered_rows = TFRecordDataset._ordered_rows
    _rows = TFRecordDataset._rows

    def _open(self, who, dataset_files, num_samples, num_parallel_workers, shuffle, num_shards,
              shard_id, cache, sort=True):
        self._files = find_files(dataset_files, who)
        if sort:
            self._files = sorted(self._files)                       # as MindSpore does
        self._num_samples = _check_common(who, num_samples, num_parallel_workers, num_shards,
                                          shard_id)
        self._cache = check_cache(cache, who)
        self._shuffle = _shuffle_mode(shuffle, who)
        self._shards = (num_shards, shard_id, True)    # always an equal share of the rows
        self._workers = num_parallel_workers
        self._counts = None
        self._read = {}
        Dataset.__init__(self)

    def _count_rows(self):
        if self._counts is None:
            self._counts = [len(self._file_rows(i)) for i in range(len(self._files))]
        return self._counts

    def _block_rows(self, block, rng):
        index, start, stop = block
        rows = self._file_rows(index)[start:stop]
        order = rng.permutation(len(rows)) if rng is not None else range(len(rows))
        for k in order:
            yield rows[k]


class TextFileDataset(_LineFiles):
    """The lines of text files: one column ``text`` (a str array of shape ()) per line.

    Empty lines are skipped; a line keeps everything but its '\\n' (a '\\r' before it stays, as
    in MindSpore).

    Args:
        dataset_files: a file path or glob pattern, or a list of them; read in sorted order.
        num_samples: rows per epoch (None or 0: all).
        num_parallel_workers: readers whose rows are interleaved (None: the config default).
        shuffle: ``Shuffle.GLOBAL`` (default, also True or None), ``FILES``, ``INFILE`` or
            ``FALSE`` (also False); drawn from the global generator (``ms.set_seed``).
        num_shards, shard_id: read shard ``shard_id`` of ``num_shards`` equal shares of rows.
        cache: a ``DatasetCache``: the files are read once, then rows come from memory.

    Raises:
        ValueError: for patterns that match no file or bad sampling arguments.
        RuntimeError: for ``num_shards`` without ``shard_id`` or the reverse.
    """

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        self._open('TextFileDataset', dataset_files, num_samples, num_parallel_workers,
                   shuffle, num_shards, shard_id, cache)

    def get_col_names(self):
        return ['text']

    def _file_rows(self, index):
        if index not in self._read:
            self._read[index] = [(np.array(line),) for line in _lines(self._files[index])]
        return self._read[index]


def _split_record(line, delim, path, number):
    """The fields of one CSV line: quoted fields may hold the delimiter and doubled quotes."""
    fields, i, n = [], 0, len(line)
    while True:
        if i < n and line[i] == '"':
            i += 1
            value = []
            while True:
                j = line.find('"', i)
                if j < 0:
                    raise RuntimeError(f"CSVDataset: {path} line {number}: a quoted field is "
                                       f"not closed")
                value.append(line[i:j])
                if j + 1 < n and line[j + 1] == '"':
                    value.append('"')
                    i = j + 2
                    continue
                i = j + 1
                break
            if i < n and line[i] != delim:
                raise RuntimeError(f"CSVDataset: {path} line {number}: unexpected character "
                                   f"after a quoted field")
            fields.append(''.join(value))
        else:
            j = line.find(delim, i)
            j = n if j < 0 else j
            field = line[i:j]
            if '"' in field:
                raise RuntimeError(f"CSVDataset: {path} line {number}: unexpected quote in an "
                                   f"unquoted field")
            fields.append(field)
            i = j
        if i >= n:
            return fields
        i += 1                                  # past the delimiter
        if i == n:
            fields.append('')
            return fields


class CSVDataset(_LineFiles):
    """The records of CSV files, one column per field.

    Without ``column_names`` the first line of the first file names the columns, and the first
    line of every file is skipped as its header. ``column_defaults`` gives each column's type
    by an example value: an int gives int32, a float float32, a str a string; without it every
    column is a string. A field may be quoted ("a, b"; "" inside quotes is one quote). An
    empty field is an empty string; an empty or unparsable number raises RuntimeError, as in
    MindSpore. Each value is an array of shape ().

    Args:
        dataset_files: a file path or glob pattern, or a list of them; read in sorted order.
        field_delim: the one-character field delimiter. Default ','.
        column_defaults: a list with one int, float or str per column, or None.
        column_names: the column names (a list of str), or None to read them from the header.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            ``TextFileDataset``.

    Raises:
        TypeError: for a ``column_defaults`` holding another type or bad ``column_names``.
        ValueError: for a bad ``field_delim``, patterns that match no file or bad sampling
            arguments.
        RuntimeError: when ``column_defaults`` and the columns differ in number. Iterating
            raises RuntimeError for a record with the wrong number of fields, a misplaced
            quote or a field that is not a number of its column's type.
    """

    def __init__(self, dataset_files, field_delim=',', column_defaults=None, column_names=None,
                 num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        who = 'CSVDataset'
        field_delim = ',' if field_delim is None else field_delim
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in '"\r\n':
            raise ValueError(f"{who}: field_delim is invalid: it must be one character other "
                             f"than a quote or a line break, got {field_delim!r}")
        if column_defaults is not None and (
                not isinstance(column_defaults, list) or
                not all(isinstance(v, (int, float, str)) and not isinstance(v, bool)
                        for v in column_defaults)):
            raise TypeError(f"{who}: column type in column_defaults is invalid: it must be a "
                            f"list of int, float or str values, got {column_defaults!r}")
        if column_names is not None:
            column_names = column_list(column_names, who, 'column_names')
        self._open(who, dataset_files, num_samples, num_parallel_workers, shuffle, num_shards,
                   shard_id, cache)
        self._delim = field_delim
        self._header = column_names is None
        if column_names is None:
            first = _lines(self._files[0])
            if not first:
                raise RuntimeError(f"{who}: {self._files[0]} is empty; give column_names")
            column_names = _split_record(first[0].rstrip('\r'), field_delim, self._files[0], 0)
        self._names = list(column_names)
        if column_defaults is not None and len(column_defaults) != len(self._names):
            raise RuntimeError(f"{who}: column_defaults has {len(column_defaults)} values but "
                               f"there are {len(self._names)} columns {self._names}")
        self._types = [type(v) for v in column_defaults] if column_defaults else \
            [str] * len(self._names)

    def get_col_names(self):
        return list(self._names)

    def _file_rows(self, index):
        if index not in self._read:
            path = self._files[index]
            lines = _lines(path)
            rows = []
            for number, line in enumerate(lines[1:] if self._header else lines,
                                          1 if self._header else 0):
                fields = _split_record(line.rstrip('\r'), self._delim, path, number)
                if len(fields) != len(self._names):
                    raise RuntimeError(f"CSVDataset: {path} line {number} has {len(fields)} "
                                       f"fields, but there are {len(self._names)} columns "
                                       f"{self._names}")
                rows.append(tuple(self._value(f, t, path, number)
                                  for f, t in zip(fields, self._types)))
            self._read[index] = rows
        return self._read[index]

    @staticmethod
    def _value(field, kind, path, number):
        if kind is str:
            return np.array(field)
        if (_INT if kind is int else _FLOAT).match(field.strip()):
            return np.array(int(field) if kind is int else float(field),
                            np.int32 if kind is int else np.float32)
        raise RuntimeError(f"CSVDataset: {path} parse failed at line {number}, type does not "
                           f"match: {field!r} is not {'an int' if kind is int else 'a float'}")


class USPSDataset(_LineFiles):
    """USPS digits from the libsvm-format files ``usps`` (train) and ``usps.t`` (test):
    columns ``image`` (16, 16, 1) uint8 and ``label`` uint32 (0-9).

    A line is the label 1-10, then 256 ``index:value`` pairs with values in [-1, 1], then a
    space (as in the published files; MindSpore rejects a line without it). A pixel is
    ``(value + 1) / 2 * 255`` in float32, truncated; the label is the written one minus 1.

    Args:
        dataset_dir: the folder of ``usps`` and ``usps.t``.
        usage: 'train', 'test' or 'all' (None: 'all', train rows first).
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            ``TextFileDataset``.

    Raises:
        TypeError, ValueError: for a bad ``usage``, a missing folder or bad sampling
            arguments.
        RuntimeError: for a missing file; iterating raises RuntimeError for a malformed line.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        who = 'USPSDataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = check_usage(usage, who)
        names = {'train': ['usps'], 'test': ['usps.t'], 'all': ['usps', 'usps.t']}[usage]
        files = [os.path.join(dataset_dir, n) for n in names]
        for path in files:
            if not os.path.isfile(path):
                raise RuntimeError(f"{who}: {path} does not exist; usage '{usage}' reads "
                                   f"{names}")
        self._open(who, files, num_samples, num_parallel_workers, shuffle, num_shards,
                   shard_id, cache)
        self.dataset_dir, self.usage = dataset_dir, usage

    def get_col_names(self):
        return ['image', 'label']

    def _file_rows(self, index):
        if index not in self._read:
            path = self._files[index]
            self._read[index] = [self._parse(line, path, number)
                                 for number, line in enumerate(_lines(path), 1)]
        return self._read[index]

    @staticmethod
    def _parse(line, path, number):
        fields = line.split(' ')
        if len(fields) != 258 or fields[-1].strip():
            raise RuntimeError(f"USPSDataset: {path} line {number}: expected a label, 256 "
                               f"index:value pairs and a trailing space, got {len(fields) - 1} "
                               f"fields after the label")
        try:
            label = int(fields[0]) - 1
            values = np.array([f.split(':', 1)[1] for f in fields[1:257]], np.float32)
        except (ValueError, IndexError):
            raise RuntimeError(f"USPSDataset: {path} line {number}: a label or value is not "
                               f"a number") from None
        if not 0 <= label <= 9:
            raise RuntimeError(f"USPSDataset: {path} line {number}: label {label + 1} is not "
                               f"in 1-10")
        pixels = (values + np.float32(1)) / np.float32(2) * np.float32(255)
        return (pixels.astype(np.uint8).reshape(16, 16, 1), np.array(label, np.uint32))
