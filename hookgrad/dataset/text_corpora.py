"""Readers of question-answering, classification and translation corpora: ``SQuADDataset`` and
``CLUEDataset`` (JSON), ``Multi30kDataset``, ``IWSLT2016Dataset`` and ``IWSLT2017Dataset``
(parallel text), with MindSpore's columns, dtypes and file order.

They read like ``TextFileDataset``: the files of a usage are dealt to ``num_parallel_workers``
readers whose rows are interleaved, ``num_shards`` gives each shard an equal share and
``shuffle`` takes a ``Shuffle`` mode. Text columns are str arrays.
"""
import json
import os
import re

import numpy as np

from .file_sources import check_choice, check_dir
from .text_sources import _LineFiles, _lines
from .tfrecord import Shuffle

__all__ = ['SQuADDataset', 'CLUEDataset', 'Multi30kDataset', 'IWSLT2016Dataset',
           'IWSLT2017Dataset']

_UINT32_MAX = 2 ** 32 - 1


def _existing(paths, who):
    missing = [p for p in paths if not os.path.isfile(p)]
    if missing:
        raise RuntimeError(f"{who}: dataset file {missing[0]} is invalid or does not exist")
    return paths


class _Corpus(_LineFiles):
    """A line-file source with fixed columns ``_columns``; ``_parse(index)`` makes the rows of
    file ``index``."""

    def get_col_names(self):
        return list(self._columns)

    def _file_rows(self, index):
        if index not in self._read:
            self._read[index] = self._parse(index)
        return self._read[index]


class SQuADDataset(_Corpus):
    """SQuAD 1.1 / 2.0: one row per question, columns ``context``, ``question`` (str),
    ``text`` (str (k,): the k answers) and ``answer_start`` (uint32 (k,)).

    A question without answers (SQuAD 2.0's impossible ones) has ``text == ['']`` and
    ``answer_start == [4294967295]``, as MindSpore gives. ``usage`` 'train' reads
    ``train-v1.1.json`` or ``train-v2.0.json``, 'dev' the ``dev-`` file, 'all' both (train
    first).

    Args:
        dataset_dir: the folder of the JSON files.
        usage: 'train', 'dev' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            ``TextFileDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or bad sampling arguments.
        RuntimeError: when a file of ``usage`` is missing or is not SQuAD JSON.
    """

    _columns = ('context', 'question', 'text', 'answer_start')

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        who = 'SQuADDataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = check_choice(usage, ('train', 'dev', 'all'), who, 'usage', 'all')
        files = []
        for part in (('train', 'dev') if usage == 'all' else (usage,)):
            found = [os.path.join(dataset_dir, f'{part}-v{v}.json') for v in ('1.1', '2.0')]
            found = [f for f in found if os.path.isfile(f)]
            if not found:
                raise RuntimeError(f"{who}: {part}-v1.1.json or {part}-v2.0.json is missing "
                                   f"under {dataset_dir}")
            files.append(found[0])
        self._open(who, files, num_samples, num_parallel_workers, shuffle, num_shards,
                   shard_id, cache, sort=False)
        self.dataset_dir, self.usage = dataset_dir, usage

    def _parse(self, index):
        path = self._files[index]
        try:
            with open(path, encoding='utf-8') as f:
                articles = json.load(f)['data']
            rows = []
            for article in articles:
                for para in article['paragraphs']:
                    context = np.array(para['context'])
                    for qa in para['qas']:
                        answers = qa.get('answers') or []
                        texts = [a['text'] for a in answers] or ['']
                        starts = [a['answer_start'] for a in answers] or [_UINT32_MAX]
                        rows.append((context, np.array(qa['question']), np.array(texts),
                                     np.array(starts, np.uint32)))
        except (ValueError, KeyError, TypeError) as e:
            raise RuntimeError(f"SQuADDataset: {path} is not SQuAD JSON: "
                               f"{type(e).__name__} {e}") from None
        return rows


_CLUE_KEYS = {
    'AFQMC': {'train': ('sentence1', 'sentence2', 'label'), 'test': ('id', 'sentence1',
                                                                     'sentence2')},
    'TNEWS': {'train': ('label', 'label_desc', 'sentence', 'keywords'),
              'test': ('id', 'keywords', 'sentence')},
    'IFLYTEK': {'train': ('label', 'label_des', 'sentence'), 'test': ('id', 'sentence')},
    'CMNLI': {'train': ('sentence1', 'sentence2', 'label'), 'test': ('id', 'sentence1',
                                                                     'sentence2')},
    'WSC': {'train': ('span1_index', 'span2_index', 'span1_text', 'span2_text', 'idx', 'text',
                      'label'),
            'test': ('span1_index', 'span2_index', 'span1_text', 'span2_text', 'idx', 'text')},
    'CSL': {'train': ('id', 'abst', 'keyword', 'label'), 'test': ('id', 'abst', 'keyword')},
}


def _clue_value(value):
    if isinstance(value, bool):
        return np.array(str(value).lower())
    if isinstance(value, int):
        return np.array(value, np.uint32)
    if isinstance(value, float):
        return np.array(value, np.float32)
    if isinstance(value, list):
        return np.array([str(v) for v in value])
    return np.array(str(value))


class CLUEDataset(_Corpus):
    """CLUE classification tasks from their JSON-lines files; the columns (in sorted name
    order, as MindSpore gives them) are the task's keys for ``usage``:

    AFQMC and CMNLI: ``sentence1``, ``sentence2``, ``label`` ('test': ``id`` instead of
    ``label``); TNEWS: ``label``, ``label_desc``, ``sentence``, ``keywords`` ('test': ``id``,
    ``keywords``, ``sentence``); IFLYTEK: ``label``, ``label_des``, ``sentence`` ('test':
    ``id``, ``sentence``); WSC: ``span1_index``, ``span2_index``, ``span1_text``,
    ``span2_text`` (from ``target``), ``idx``, ``text``, ``label`` (not in 'test'); CSL:
    ``id``, ``abst``, ``keyword``, ``label`` (not in 'test'). 'eval' has the 'train' columns.
    JSON integers become uint32, strings str and lists str arrays.

    Args:
        dataset_files: a file path or glob pattern, or a list of them; read in sorted order.
        task: 'AFQMC' (default), 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or 'CSL'.
        usage: 'train' (default), 'test' or 'eval'.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            ``TextFileDataset``.

    Raises:
        ValueError: for a bad ``task`` or ``usage``, patterns matching no file or bad
            sampling arguments. Reading raises RuntimeError for a line that is not a JSON
            object holding the task's keys.
    """

    def __init__(self, dataset_files, task='AFQMC', usage='train', num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, cache=None):
        who = 'CLUEDataset'
        task = 'AFQMC' if task is None else task
        usage = 'train' if usage is None else usage
        if task not in _CLUE_KEYS:
            raise ValueError("CLUEDataset: task should be 'AFQMC', 'TNEWS', 'IFLYTEK', "
                             "'CMNLI', 'WSC' or 'CSL'.")
        if usage not in ('train', 'test', 'eval'):
            raise ValueError("CLUEDataset: usage should be 'train', 'test' or 'eval'.")
        self._keys = _CLUE_KEYS[task]['test' if usage == 'test' else 'train']
        self._columns = tuple(sorted(self._keys))
        self._open(who, dataset_files, num_samples, num_parallel_workers, shuffle, num_shards,
                   shard_id, cache)
        self.task, self.usage = task, usage

    def _parse(self, index):
        path, rows = self._files[index], []
        for number, line in enumerate(_lines(path), 1):
            try:
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise ValueError('not an object')
                record = {**record, **record.get('target', {})}
                rows.append(tuple(_clue_value(record[k]) for k in self._columns))
            except (ValueError, KeyError, TypeError) as e:
                raise RuntimeError(f"CLUEDataset: invalid json file, {path} line {number} is "
                                   f"not a JSON object with the keys {list(self._keys)} "
                                   f"({type(e).__name__} {e})") from None
        return rows


class _Parallel(_Corpus):
    """Rows ``(text, translation)`` from pairs of files, one line each."""

    _columns = ('text', 'translation')

    def _start(self, who, pairs, num_samples, num_parallel_workers, shuffle, num_shards,
               shard_id, cache, sort):
        for src, tgt in pairs:
            _existing([src, tgt], who)
        self._targets = dict(pairs)
        self._open(who, [src for src, _ in pairs], num_samples, num_parallel_workers, shuffle,
                   num_shards, shard_id, cache, sort=sort)

    def _parse(self, index):
        src = self._files[index]
        texts, translations = self._read_side(src), self._read_side(self._targets[src])
        if len(texts) != len(translations):
            raise RuntimeError(f"{type(self).__name__}: {src} has {len(texts)} sentences but "
                               f"{self._targets[src]} has {len(translations)}")
        return [(np.array(a), np.array(b)) for a, b in zip(texts, translations)]

    @staticmethod
    def _read_side(path):
        return _lines(path)


class Multi30kDataset(_Parallel):
    """Multi30k: columns ``text`` and ``translation`` (str), from ``training/train.<lang>``,
    ``validation/val.<lang>`` and ``mmt16_task1_test/test.<lang>``.

    Args:
        dataset_dir: the folder of the three folders.
        usage: 'train', 'valid', 'test' or 'all' (None: 'all'; the files in sorted path order).
        language_pair: ('en', 'de') (None, the default) or ('de', 'en'): the languages of
            ``text`` and ``translation``.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            ``TextFileDataset``.

    Raises:
        TypeError, ValueError: for a bad ``usage`` or ``language_pair``, a missing folder or
            bad sampling arguments.
        RuntimeError: for a missing file or files of different lengths.
    """

    _FILES = {'train': ('training', 'train'), 'valid': ('validation', 'val'),
              'test': ('mmt16_task1_test', 'test')}

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, num_shards=None, shard_id=None,
                 cache=None):
        who = 'Multi30kDataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = check_choice(usage, ('train', 'valid', 'test', 'all'), who, 'usage', 'all')
        pair = ('en', 'de') if language_pair is None else language_pair
        if not isinstance(pair, (list, tuple)) or tuple(pair) not in (('en', 'de'), ('de', 'en')):
            raise TypeError(f"{who}: language_pair must be ['en', 'de'] or ['de', 'en'], got "
                            f"{language_pair!r}")
        parts = ('train', 'valid', 'test') if usage == 'all' else (usage,)
        pairs = [tuple(os.path.join(dataset_dir, self._FILES[p][0], f'{self._FILES[p][1]}.{lang}')
                       for lang in pair) for p in parts]
        self._start(who, pairs, num_samples, num_parallel_workers,
                    Shuffle.GLOBAL if shuffle is None else shuffle, num_shards, shard_id, cache,
                    sort=True)
        self.dataset_dir, self.usage, self.language_pair = dataset_dir, usage, list(pair)


_SEG = re.compile(r'<seg[^>]*>(.*?)</seg>', re.S)
_IWSLT_SETS = ('dev2010', 'tst2010', 'tst2011', 'tst2012', 'tst2013', 'tst2014')


class _IWSLT(_Parallel):
    """IWSLT talks: ``train.tags.<pair>.<lang>`` (tag lines skipped, lines stripped) and
    ``IWSLT<yy>.TED.<set>.<pair>.<lang>.xml`` (the ``<seg>`` texts, stripped)."""

    def _files_of(self, base, pair, usage, valid_set, test_set, year):
        src, tgt = pair
        name = f'{src}-{tgt}'
        by_usage = {'train': [f'train.tags.{name}.{{}}'],
                    'valid': [f'IWSLT{year}.TED.{valid_set}.{name}.{{}}.xml'],
                    'test': [f'IWSLT{year}.TED.{test_set}.{name}.{{}}.xml']}
        parts = ('train', 'valid', 'test') if usage == 'all' else (usage,)
        return [(os.path.join(base, f.format(src)), os.path.join(base, f.format(tgt)))
                for p in parts for f in by_usage[p]]

    @staticmethod
    def _read_side(path):
        if path.endswith('.xml'):
            with open(path, encoding='utf-8') as f:
                return [s.strip() for s in _SEG.findall(f.read())]
        return [line.strip() for line in _lines(path)
                if line.strip() and not line.lstrip().startswith('<')]


def _pair(value, supported, default, who):
    if value is None:
        return default
    if not isinstance(value, (list, tuple)) or tuple(value) not in supported:
        raise ValueError(f"{who}: language_pair {value!r} is not within the valid set of "
                         f"{[list(p) for p in supported]}")
    return tuple(value)


class IWSLT2016Dataset(_IWSLT):
    """IWSLT 2016 TED talks: columns ``text`` and ``translation`` (str).

    Files are under ``texts/<src>/<tgt>/<src>-<tgt>/``; 'all' reads train, then ``valid_set``,
    then ``test_set``.

    Args:
        dataset_dir: the folder holding ``texts``.
        usage: 'train', 'valid', 'test' or 'all' (None: 'all').
        language_pair: (src, tgt), one of ('en', 'fr'), ('en', 'de'), ('en', 'cs'),
            ('en', 'ar'), ('fr', 'en'), ('de', 'en'), ('cs', 'en'), ('ar', 'en') (None:
            ('de', 'en')).
        valid_set, test_set: 'dev2010', 'tst2010', 'tst2011', 'tst2012', 'tst2013' or
            'tst2014' (None: 'tst2013' and 'tst2014').
        num_samples, shuffle, num_shards, shard_id, num_parallel_workers, cache: as
            ``TextFileDataset``.

    Raises:
        ValueError: for a bad ``usage``, ``language_pair`` or set, a missing folder or bad
            sampling arguments.
        RuntimeError: for a missing file or files of different lengths.
    """

    _PAIRS = (('en', 'ar'), ('en', 'de'), ('en', 'fr'), ('en', 'cs'), ('ar', 'en'),
              ('fr', 'en'), ('de', 'en'), ('cs', 'en'))

    def __init__(self, dataset_dir, usage=None, language_pair=None, valid_set=None,
                 test_set=None, num_samples=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, num_parallel_workers=None, cache=None):
        who = 'IWSLT2016Dataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = check_choice(usage, ('train', 'valid', 'test', 'all'), who, 'usage', 'all')
        pair = _pair(language_pair, self._PAIRS, ('de', 'en'), who)
        valid_set = check_choice(valid_set, _IWSLT_SETS, who, 'valid_set', 'tst2013')
        test_set = check_choice(test_set, _IWSLT_SETS, who, 'test_set', 'tst2014')
        base = os.path.join(dataset_dir, 'texts', pair[0], pair[1], f'{pair[0]}-{pair[1]}')
        self._start(who, self._files_of(base, pair, usage, valid_set, test_set, '16'),
                    num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache,
                    sort=False)
        self.dataset_dir, self.usage, self.language_pair = dataset_dir, usage, list(pair)
        self.valid_set, self.test_set = valid_set, test_set


class IWSLT2017Dataset(_IWSLT):
    """IWSLT 2017 multilingual TED talks: columns ``text`` and ``translation`` (str).

    Files are under ``texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/``; the valid set is
    'dev2010' and the test set 'tst2010'; 'all' reads train, valid, then test.

    Args:
        dataset_dir: the folder holding ``texts``.
        usage: 'train', 'valid', 'test' or 'all' (None: 'all').
        language_pair: (src, tgt), two different languages of 'en', 'de', 'it', 'nl', 'ro'
            (None: ('de', 'en')).
        num_samples, shuffle, num_shards, shard_id, num_parallel_workers, cache: as
            ``TextFileDataset``.

    Raises:
        ValueError: for a bad ``usage`` or ``language_pair``, a missing folder or bad
            sampling arguments.
        RuntimeError: for a missing file or files of different lengths.
    """

    _PAIRS = tuple((a, b) for a in ('en', 'ro', 'de', 'it', 'nl')
                   for b in ('en', 'ro', 'de', 'it', 'nl') if a != b)

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None,
                 num_parallel_workers=None, cache=None):
        who = 'IWSLT2017Dataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = check_choice(usage, ('train', 'valid', 'test', 'all'), who, 'usage', 'all')
        pair = _pair(language_pair, self._PAIRS, ('de', 'en'), who)
        base = os.path.join(dataset_dir, 'texts', 'DeEnItNlRo', 'DeEnItNlRo',
                            'DeEnItNlRo-DeEnItNlRo')
        self._start(who, self._files_of(base, pair, usage, 'dev2010', 'tst2010', '17'),
                    num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache,
                    sort=False)
        self.dataset_dir, self.usage, self.language_pair = dataset_dir, usage, list(pair)
