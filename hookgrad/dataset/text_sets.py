"""Readers of standard text datasets, in MindSpore's file order, shards and shuffles (those of
``TextFileDataset``): the text-classification sets kept as headerless CSV files of quoted
fields (``AGNewsDataset``, ``AmazonReviewDataset``, ``DBpediaDataset``, ``SogouNewsDataset``,
``YahooAnswersDataset``, ``YelpReviewDataset``) and the language-modelling sets kept as lines
of text (``PennTreebankDataset``, ``WikiTextDataset``, ``EnWik9Dataset``), ``SST2Dataset``
(TSV), the tagged-sentence sets (``CoNLL2000Dataset``, ``UDPOSDataset``) and ``IMDBDataset``
(one file per review). Text columns are str arrays; ``usage='all'`` reads the files in sorted
name order (test before train), except for
``SogouNewsDataset`` and ``YelpReviewDataset``, which read train before test, as in MindSpore."""
import os

import numpy as np

from .file_sources import FileSource, check_dir, check_usage
from .text_sources import _LineFiles, _lines, _split_record
from .tfrecord import Shuffle

__all__ = ['AGNewsDataset', 'AmazonReviewDataset', 'DBpediaDataset', 'SogouNewsDataset',
           'YahooAnswersDataset', 'YelpReviewDataset', 'PennTreebankDataset',
           'WikiTextDataset', 'SST2Dataset', 'EnWik9Dataset', 'CoNLL2000Dataset', 'UDPOSDataset',
           'IMDBDataset']


class _TextSet(_LineFiles):
    """Rows of the files ``_pattern.format(usage)`` of ``dataset_dir``.

    Subclasses set ``_columns`` (the column names), ``_pattern`` and ``_usages``; a CSV set
    splits each line into quoted fields, a line set keeps the line as its one column.
    """

    _usages = ('train', 'test', 'all')
    _file_names = {}        # the file name part of a usage, where it differs
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
        parts = [u for u in self._usages if u != 'all'] or ['all'] if usage == 'all' else \
            [usage]
        files = [os.path.join(dataset_dir, self._pattern.format(self._file_names.get(u, u)))
                 for u in parts]
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


def _raw_lines(path):
    """The lines of a file as str (UTF-8), empty ones included, without the final empty piece
    after a last '\\n'."""
    with open(path, 'rb') as f:
        data = f.read().decode('utf-8', 'replace')
    lines = data.split('\n')
    return lines[:-1] if lines and not lines[-1] else lines


class SST2Dataset(_TextSet):
    """SST-2: columns ``sentence`` and ``label`` (str) from ``train.tsv`` or ``dev.tsv``; only
    ``sentence`` from ``test.tsv``. The header line of each file is skipped and the fields are
    split at tabs.

    Args:
        dataset_dir: the folder of ``train.tsv``, ``dev.tsv`` and ``test.tsv``.
        usage: 'train' (default, also None), 'dev' or 'test'.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            ``TextFileDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or bad sampling arguments.
        RuntimeError: for a missing file; iterating raises RuntimeError for a line without
            the fields of its file.
    """

    _usages = ('train', 'dev', 'test')
    _pattern = '{}.tsv'

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        usage = 'train' if usage is None else usage
        self._columns = ['sentence'] if usage == 'test' else ['sentence', 'label']
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)

    def _file_rows(self, index):
        if index not in self._read:
            path, rows = self._files[index], []
            for number, line in enumerate(_lines(path)[1:], 2):
                fields = line.rstrip('\r').split('\t')
                if len(fields) != 2:
                    raise RuntimeError(f"SST2Dataset: {path} line {number} has {len(fields)} "
                                       f"tab-separated fields, expected 2")
                rows.append((np.array(fields[1]),) if self.usage == 'test' else
                            tuple(np.array(f) for f in fields))
            self._read[index] = rows
        return self._read[index]


class EnWik9Dataset(_TextSet):
    """enwik9: one column ``text``, every line of the file ``enwik9`` (empty lines included,
    unlike ``TextFileDataset``).

    Args:
        dataset_dir: the folder of ``enwik9``.
        num_samples, num_parallel_workers, num_shards, shard_id, cache: as ``TextFileDataset``.
        shuffle: as ``TextFileDataset``; default True (``Shuffle.GLOBAL``).

    Raises:
        ValueError: for a missing folder or bad sampling arguments.
        RuntimeError: when ``enwik9`` does not exist.
    """

    _columns = ['text']
    _pattern = 'enwik9'
    _usages = ('all',)

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=True,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, 'all', num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)

    def _file_rows(self, index):
        if index not in self._read:
            self._read[index] = [(np.array(line),) for line in _raw_lines(self._files[index])]
        return self._read[index]


class _TaggedSentences(_TextSet):
    """One row per sentence of a file of ``word tag tag`` lines, sentences ended by an empty
    line; as in MindSpore, a last sentence with no empty line after it is not read."""

    _separator = ' '

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)

    def _file_rows(self, index):
        if index not in self._read:
            path, width, rows, sentence = self._files[index], len(self._columns), [], []
            for number, line in enumerate(_raw_lines(path), 1):
                line = line.rstrip('\r')
                if not line.strip():
                    if sentence:
                        rows.append(tuple(np.array(c) for c in zip(*sentence)))
                    sentence = []
                    continue
                fields = line.split(self._separator)
                if len(fields) != width:
                    raise RuntimeError(f"{type(self).__name__}: {path} line {number} has "
                                       f"{len(fields)} fields, expected {width}: "
                                       f"{self._columns}")
                sentence.append(fields)
            self._read[index] = rows
        return self._read[index]


class CoNLL2000Dataset(_TaggedSentences):
    """CoNLL-2000 chunking: columns ``word``, ``pos_tag`` and ``chunk_tag``, each a 1-d str
    array with one entry per word of a sentence, from ``train.txt`` and ``test.txt``
    (space-separated fields).

    Args:
        dataset_dir: the folder of ``train.txt`` and ``test.txt``.
        usage: 'train', 'test' or 'all' (None: 'all').
        num_samples, shuffle, num_shards, shard_id, num_parallel_workers, cache: as
            ``TextFileDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or bad sampling arguments.
        RuntimeError: for a missing file; iterating raises RuntimeError for a line without 3
            fields.
    """

    _columns = ['word', 'pos_tag', 'chunk_tag']
    _pattern = '{}.txt'


class UDPOSDataset(_TaggedSentences):
    """Universal Dependencies POS tags: columns ``word``, ``universal`` and ``stanford``, each a
    1-d str array with one entry per word of a sentence, from ``en-ud-tag.v2.<train | dev |
    test>.txt`` (tab-separated fields).

    Args:
        dataset_dir: the folder of the three files.
        usage: 'train', 'valid' (the dev file), 'test' or 'all' (None: 'all').
        num_samples, shuffle, num_shards, shard_id, num_parallel_workers, cache: as
            ``TextFileDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or bad sampling arguments.
        RuntimeError: for a missing file; iterating raises RuntimeError for a line without 3
            fields.
    """

    _columns = ['word', 'universal', 'stanford']
    _pattern = 'en-ud-tag.v2.{}.txt'
    _usages = ('train', 'valid', 'test', 'all')
    _file_names = {'valid': 'dev'}
    _separator = '\t'


class IMDBDataset(FileSource):
    """IMDB movie reviews: columns ``text`` (str) and ``label`` (int32: 1 positive, 0
    negative).

    Reviews are ``<train | test>/<pos | neg>/<file>.txt``, read train before test, positive
    before negative, files in sorted name order. As in MindSpore, ``text`` is the last line
    of the file (the whole review, for the published files, which are one line each).

    Args:
        dataset_dir: the folder of ``train`` and ``test``.
        usage: 'train', 'test' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a bad ``usage``, a missing folder or conflicting sampling
            arguments.
        RuntimeError: when there is no review.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'IMDBDataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = check_usage(usage, who)
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        self._files = []
        for part in (('train', 'test') if usage == 'all' else (usage,)):
            for polarity, label in (('pos', 1), ('neg', 0)):
                folder = os.path.join(dataset_dir, part, polarity)
                if not os.path.isdir(folder):
                    continue
                self._files += [(os.path.join(folder, name), label)
                                for name in sorted(os.listdir(folder))
                                if os.path.isfile(os.path.join(folder, name))]
        if not self._files:
            raise RuntimeError(f"{who}: no review under {dataset_dir} for usage '{usage}' "
                               f"(expected <train|test>/<pos|neg>/*.txt)")
        self.dataset_dir, self.usage = dataset_dir, usage
        self._n = len(self._files)
        self._names = ['text', 'label']

    def _class_ids(self):
        return np.array([label for _, label in self._files], np.int64)

    def _row(self, i):
        path, label = self._files[i]
        lines = _raw_lines(path)
        return np.array(lines[-1] if lines else ''), np.array(label, np.int32)
