"""Readers of standard text datasets, in MindSpore's file order, shards and shuffles (those of
``TextFileDataset``): the text-classification sets kept as headerless CSV files of quoted
fields (``AGNewsDataset``, ``AmazonReviewDataset``, ``DBpediaDataset``, ``SogouNewsDataset``,
``YahooAnswersDataset``, ``YelpReviewDataset``) and the language-modelling sets kept as lines
of text (``PennTreebankDataset``, ``WikiTextDataset``). Every column is a str array of
shape (); ``usage='all'`` reads the files in sorted name order (test before train), except for
``SogouNewsDataset`` and ``YelpReviewDataset``, which read train before test, as in MindSpore."""
import os

import numpy as np

from .file_sources import check_dir
from .text_sources import _LineFiles, _lines, _split_record
from .tfrecord import Shuffle

__all__ = ['AGNewsDataset', 'AmazonReviewDataset', 'DBpediaDataset', 'SogouNewsDataset',
           'YahooAnswersDataset', 'YelpReviewDataset', 'PennTreebankDataset',
           'WikiTextDataset']


class _TextSet(_LineFiles):
    """Rows of the files ``_pattern.format(usage)`` of ``dataset_dir``.

    Subclasses set ``_columns`` (the column names), ``_pattern`` and ``_usages``; a CSV set
    splits each line into quoted fields, a line set keeps the line as its one column.
    """

    _usages = ('train', 'test', 'all')
    _csv = True
    _sorted = True          # read the files in sorted name order, else in usage order

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        who = type(self).__name__
        dataset_dir = check_dir(dataset_dir, who)
        usage = 'all' if usage is None else usage
        if not isinstance(usage, str) or usage not in self._usages:
            raise ValueError(f"{who}: usage {usage!r} is not within the valid set of "
                             f"{list(self._usages)}")
        parts = [u for u in self._usages if u != 'all'] if usage == 'all' else [usage]
        files = [os.path.join(dataset_dir, self._pattern.format(u)) for u in parts]
        missing = [f for f in files if not os.path.isfile(f)]
        if missing:
            raise RuntimeError(f"{who}: {missing} do not exist; usage '{usage}' reads "
                               f"{[os.path.basename(f) for f in files]}")
        self._open(who, files, num_samples, num_parallel_workers, shuffle, num_shards,
                   shard_id, cache, sort=self._sorted)
        self.dataset_dir, self.usage = dataset_dir, usage

    def get_col_names(self):
        return list(self._columns)

    def _file_rows(self, index):
        if index not in self._read:
            path, width, rows = self._files[index], len(self._columns), []
            for number, line in enumerate(_lines(path), 1):
                if not self._csv:
                    rows.append((np.array(line),))
                    continue
                fields = _split_record(line.rstrip('\r'), ',', path, number)
                if len(fields) != width:
                    raise RuntimeError(f"{type(self).__name__}: {path} line {number} has "
                                       f"{len(fields)} fields, expected {width}: "
                                       f"{self._columns}")
                rows.append(tuple(np.array(f) for f in fields))
            self._read[index] = rows
        return self._read[index]


_CSV_DOC = """{what}: columns {columns}, read from ``train.csv`` and ``test.csv``.

    Args:
        dataset_dir: the folder of ``train.csv`` and ``test.csv``.
        usage: 'train', 'test' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            ``TextFileDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or bad sampling arguments.
        RuntimeError: for a missing file; iterating raises RuntimeError for a line with
            another number of fields or a misplaced quote.
    """


def _csv_set(name, what, columns, signature='workers first'):
    cls = type(name, (_TextSet,), {
        '_columns': columns, '_pattern': '{}.csv',
        '__doc__': _CSV_DOC.format(what=what, columns=', '.join(f'``{c}``' for c in columns)),
        '__module__': __name__})
    if signature != 'workers first':         # MindSpore's order of arguments and of files
        cls._sorted = False

        def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                     num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
            _TextSet.__init__(self, dataset_dir, usage, num_samples, num_parallel_workers,
                              shuffle, num_shards, shard_id, cache)
        cls.__init__ = __init__
    return cls


AGNewsDataset = _csv_set('AGNewsDataset', 'AG News', ['index', 'title', 'description'])
AmazonReviewDataset = _csv_set('AmazonReviewDataset', 'Amazon reviews (Polarity or Full)',
                               ['label', 'title', 'content'])
DBpediaDataset = _csv_set('DBpediaDataset', 'DBpedia ontology classes',
                          ['class', 'title', 'content'])
SogouNewsDataset = _csv_set('SogouNewsDataset', 'Sogou News', ['index', 'title', 'content'],
                            signature='workers last')
YahooAnswersDataset = _csv_set('YahooAnswersDataset', 'Yahoo! Answers topics',
                               ['class', 'title', 'content', 'answer'])
YelpReviewDataset = _csv_set('YelpReviewDataset', 'Yelp reviews (Polarity or Full)',
                             ['label', 'text'], signature='workers last')


class PennTreebankDataset(_TextSet):
    """Penn Treebank: one column ``text``, the non-empty lines of ``ptb.<usage>.txt``.

    Args:
        dataset_dir: the folder of ``ptb.train.txt``, ``ptb.valid.txt`` and ``ptb.test.txt``.
        usage: 'train', 'valid', 'test' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            ``TextFileDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or bad sampling arguments.
        RuntimeError: for a missing file.
    """

    _columns = ['text']
    _pattern = 'ptb.{}.txt'
    _usages = ('train', 'valid', 'test', 'all')
    _csv = False


class WikiTextDataset(PennTreebankDataset):
    """WikiText-2 / WikiText-103: one column ``text``, the non-empty lines of
    ``wiki.<usage>.tokens``.

    Args and Raises as ``PennTreebankDataset`` (files ``wiki.train.tokens``,
    ``wiki.valid.tokens`` and ``wiki.test.tokens``).
    """

    _pattern = 'wiki.{}.tokens'
