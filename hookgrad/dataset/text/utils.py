"""``Vocab`` (MindSpore's ``mindspore.dataset.text.Vocab``): a mapping of tokens to ids."""
import collections
import enum
import numbers
import os

import numpy as np

from ..transforms import _checks

__all__ = ['Vocab', 'NormalizeForm', 'to_bytes', 'to_str']


class NormalizeForm(enum.IntEnum):
    """Unicode normalization forms (``BasicTokenizer(normalization_form=...)``)."""
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


def _specials(special_tokens, special_first):
    if special_tokens is None:
        special_tokens = []
    _checks.type_check(special_tokens, (list,), 'special_tokens')
    for t in special_tokens:
        _checks.type_check(t, (str,), 'special_tokens')
    if len(set(special_tokens)) != len(special_tokens):
        raise ValueError("special_tokens contains duplicate token.")
    _checks.type_check(special_first, (bool,), 'special_first')
    return list(special_tokens)


def _ordered(words, specials, special_first):
    """``{token: id}`` for ``words`` (in order) with ``specials`` before or after them."""
    dup = set(words) & set(specials)
    if dup:
        raise ValueError(f"special_tokens and word_list contain duplicate word :{dup}.")
    tokens = specials + words if special_first else words + specials
    return {t: i for i, t in enumerate(tokens)}


class Vocab:
    """A token-to-id mapping, built with ``from_list``, ``from_dict``, ``from_file`` or
    ``from_dataset`` and used by ``text.Lookup``.

    >>> import hookgrad.dataset.text as text
    >>> v = text.Vocab.from_list(['a', 'b'], special_tokens=['<unk>'])
    >>> v.tokens_to_ids(['b', 'x']), v.ids_to_tokens([0, 1])
    ([2, -1], ['<unk>', 'a'])
    """

    def __init__(self):
        self._ids = {}
        self._tokens = {}

    @classmethod
    def _of(cls, mapping):
        v = cls()
        v._ids = dict(mapping)
        v._tokens = {i: t for t, i in mapping.items()}
        return v

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids in list order (special tokens first or last); words must not repeat."""
        _checks.type_check(word_list, (list,), 'word_list')
        for w in word_list:
            _checks.type_check(w, (str,), 'word_list')
        if len(set(word_list)) != len(word_list):
            dup = next(w for w, c in collections.Counter(word_list).items() if c > 1)
            raise ValueError(f"word_list contains duplicate word: {dup}.")
        specials = _specials(special_tokens, special_first)
        return cls._of(_ordered(list(word_list), specials, special_first))

    @classmethod
    def from_dict(cls, word_dict):
        """The given ``{word: id}`` mapping; ids are ints in [0, 2147483647]."""
        _checks.type_check(word_dict, (dict,), 'word_dict')
        for word, wid in word_dict.items():
            _checks.type_check(word, (str,), 'word')
            _checks.type_check(wid, (int,), 'word_id')
            _checks.in_range(wid, 0, _checks.INT32_MAX, 'word_id')
        return cls._of(word_dict)

    @classmethod
    def from_file(cls, file_path, delimiter='', vocab_size=None, special_tokens=None,
                  special_first=True):
        """One word per line of a UTF-8 file: the line, or its part before ``delimiter``;
        the first ``vocab_size`` lines (None: all)."""
        _checks.type_check(file_path, (str,), 'file_path')
        if not os.path.isfile(file_path):
            raise ValueError(f"The file {file_path} does not exist or permission denied!")
        _checks.type_check(delimiter, (str,), 'delimiter')
        if vocab_size is not None:
            _checks.type_check(vocab_size, (int,), 'vocab_size')
            _checks.in_range(vocab_size, 1, _checks.INT32_MAX, 'vocab_size')
        specials = _specials(special_tokens, special_first)
        words = []
        with open(file_path, encoding='utf-8') as f:
            for line in f:
                if vocab_size is not None and len(words) == vocab_size:
                    break
                word = line.rstrip('\r\n')
                if delimiter:
                    word = word.split(delimiter, 1)[0]
                if word in words:
                    raise RuntimeError(f"from_file: word_list contains duplicate word:{word}")
                words.append(word)
        return cls._of(_ordered(words, specials, special_first))

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None,
                     special_tokens=None, special_first=True):
        """Words of string ``columns`` of ``dataset`` (one epoch), by falling frequency (ties
        in alphabetical order), kept when their count lies in ``freq_range`` (min, max), then
        the ``top_k`` most frequent."""
        if columns is None:
            columns = dataset.get_col_names()
        elif isinstance(columns, str):
            columns = [columns]
        _checks.type_check(columns, (list,), 'columns')
        low, high = (0, None) if freq_range is None else freq_range
        if freq_range is not None:
            _checks.type_check(freq_range, (tuple,), 'freq_range')
            if len(freq_range) != 2:
                raise ValueError("freq_range needs to be a tuple of 2 element.")
            low = 0 if low is None else low
            high = _checks.INT32_MAX if high is None else high
            for v in (low, high):
                _checks.type_check(v, (int,), 'freq_range')
            if not 0 <= low <= high:
                raise ValueError(f"frequency range [a,b] should be 0 <= a <= b (a,b are "
                                 f"inclusive), got {freq_range}.")
        if top_k is not None:
            _checks.type_check(top_k, (int,), 'top_k')
            _checks.in_range(top_k, 1, _checks.INT32_MAX, 'top_k')
        specials = _specials(special_tokens, special_first)
        counts = collections.Counter()
        for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
            for col in columns:
                arr = row[col]
                if arr.dtype.kind not in 'US':
                    raise RuntimeError(f"from_dataset: column '{col}' is not of string "
                                       f"type.")
                counts.update(_as_str(t) for t in arr.ravel().tolist())
        words = sorted(counts, key=lambda w: (-counts[w], w))
        words = [w for w in words if counts[w] >= low and (high is None or counts[w] <= high)]
        if top_k is not None:
            words = words[:top_k]
        words = [w for w in words if w not in specials]
        return cls._of(_ordered(words, specials, special_first))

    def vocab(self):
        """The ``{token: id}`` dict."""
        return dict(self._ids)

    def tokens_to_ids(self, tokens):
        """The id of a token (or a list of ids of a list/array of tokens); -1 for unknown."""
        if isinstance(tokens, np.ndarray):
            tokens = tokens.tolist()
        if isinstance(tokens, (str, bytes)):
            return self._ids.get(_as_str(tokens), -1)
        _checks.type_check(tokens, (list,), 'tokens')
        return [self._ids.get(_as_str(t), -1) for t in tokens]

    def ids_to_tokens(self, ids):
        """The token of an id (or a list of tokens of a list/array of ids); '' for unknown."""
        if isinstance(ids, np.ndarray):
            ids = ids.tolist()
        if isinstance(ids, numbers.Integral) and not isinstance(ids, bool):
            _checks.in_range(ids, 0, _checks.INT32_MAX, 'ids')
            return self._tokens.get(int(ids), '')
        _checks.type_check(ids, (list,), 'ids')
        for i in ids:
            _checks.type_check(i, (int,), 'ids')
            _checks.in_range(i, 0, _checks.INT32_MAX, 'ids')
        return [self._tokens.get(i, '') for i in ids]


def _as_str(token):
    return token.decode('utf-8') if isinstance(token, bytes) else token


def to_bytes(array, encoding='utf8'):
    """A NumPy array of ``str`` as an array of ``bytes`` in ``encoding``."""
    if not isinstance(array, np.ndarray):
        raise ValueError('input should be a NumPy array.')
    return np.char.encode(array, encoding)


def to_str(array, encoding='utf8'):
    """A NumPy array of ``bytes`` as an array of ``str`` decoded from ``encoding``."""
    if not isinstance(array, np.ndarray):
        raise TypeError('input should be a NumPy array.')
    return np.char.decode(array, encoding)
