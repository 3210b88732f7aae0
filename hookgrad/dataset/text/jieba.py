"""``JiebaTokenizer`` (MindSpore's ``text.JiebaTokenizer``): Chinese word segmentation with
the algorithms of cppjieba, from its dictionary files.

``mp_path`` is a dictionary (``"<word> <frequency> <tag>"`` per line) for the maximum
probability segmentation (``JiebaMode.MP``): the text is cut where the product of the words'
probabilities is largest. ``hmm_path`` is a hidden Markov model over the states B, E, M, S
(word begin, end, middle, single): a line of 4 start log-probabilities, 4 lines of transition
log-probabilities and 4 lines of ``"<char>:<log-probability>,..."`` emissions ('#' lines are
comments); ``JiebaMode.HMM`` cuts with its Viterbi path, ``JiebaMode.MIX`` uses it on the runs
of single characters the dictionary leaves.
"""
import enum
import math
import os
import re

import numpy as np

from ..transforms import _checks
from ..transforms.transforms import TensorOperation

__all__ = ['JiebaMode', 'JiebaTokenizer']

_MIN_DOUBLE = -3.14e+100
_MAX_WORD_LENGTH = 512
_SEPARATORS = frozenset(' \t\n\uff0c\u3002')
_B, _E, _M, _S = range(4)
_FLOAT_PREFIX = re.compile(r'\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)',
                           re.IGNORECASE)


class JiebaMode(enum.IntEnum):
    """The segmentation of ``JiebaTokenizer``: both algorithms, maximum probability only, or
    the hidden Markov model only."""
    MIX = 0
    MP = 1
    HMM = 2


def _atof(text):
    m = _FLOAT_PREFIX.match(text)
    return float(m.group()) if m else 0.0


def _split(text, delimiters):
    """``text`` split at each of ``delimiters`` (no empty last field), as cppjieba splits."""
    fields = re.split('[' + re.escape(delimiters) + ']', text)
    if fields[-1] == '':
        fields.pop()
    return fields


def _read_lines(path):
    with open(path, 'rb') as f:
        data = f.read().decode('utf-8')
    lines = data.split('\n')
    if lines[-1] == '':
        lines.pop()
    return lines


class _Dictionary:
    """The word weights (log probabilities) of a dictionary file, with user words."""

    def __init__(self, path):
        words = []
        for line in _read_lines(path):
            fields = _split(line, ' ')
            if len(fields) != 3:
                raise RuntimeError(f"JiebaTokenizer: split result illegal, line:{line}")
            words.append((fields[0], _atof(fields[1])))
        if not words:
            raise RuntimeError("JiebaTokenizer: the MP dictionary is empty.")
        self.freq_sum = sum(freq for _, freq in words)
        weights = [(w, math.log(freq / self.freq_sum) if freq > 0 else -math.inf)
                   for w, freq in words]
        ordered = sorted(weight for _, weight in weights)
        self.min_weight = ordered[0]
        self.user_default_weight = ordered[len(ordered) // 2]
        self.weights, self.prefixes = {}, set()
        for word, weight in weights:
            self._insert(word, weight)

    def _insert(self, word, weight):
        self.weights[word] = weight
        self.prefixes.update(word[:i] for i in range(1, len(word)))

    def add_user_word(self, word, freq):
        weight = math.log(freq / self.freq_sum) if freq else self.user_default_weight
        self._insert(word, weight)


class _HMMModel:
    """Start, transition and emission log probabilities of the states B, E, M, S."""

    def __init__(self, path):
        lines = iter(_read_lines(path))

        def next_line():
            for line in lines:
                line = line.strip()
                if line and not line.startswith('#'):
                    return line
            raise RuntimeError(f"JiebaTokenizer: invalid HMM model file: {path}")

        def probabilities():
            fields = _split(next_line(), ' ')
            if len(fields) != 4:
                raise RuntimeError(f"JiebaTokenizer: invalid HMM model file: {path}")
            return [_atof(f) for f in fields]

        self.start = probabilities()
        self.trans = [probabilities() for _ in range(4)]
        self.emit = []
        for _ in range(4):
            table = {}
            for item in _split(next_line(), ','):
                parts = _split(item, ':')
                if len(parts) != 2 or len(parts[0]) != 1:
                    raise RuntimeError(f"JiebaTokenizer: invalid HMM model file: {path}")
                table[parts[0]] = _atof(parts[1])
            self.emit.append(table)

    def viterbi(self, chars):
        """The most likely state of each character."""
        start, trans, emit = self.start, self.trans, self.emit
        weight = [[start[y] + emit[y].get(chars[0], _MIN_DOUBLE) for y in range(4)]]
        path = [[-1] * 4]
        for char in chars[1:]:
            prev, row, back = weight[-1], [], []
            for y in range(4):
                emit_prob = emit[y].get(char, _MIN_DOUBLE)
                best, best_from = _MIN_DOUBLE, _E
                for from_y in range(4):
                    value = prev[from_y] + trans[from_y][y] + emit_prob
                    if value > best:
                        best, best_from = value, from_y
                row.append(best)
                back.append(best_from)
            weight.append(row)
            path.append(back)
        state = _E if weight[-1][_E] >= weight[-1][_S] else _S
        states = [0] * len(chars)
        for x in range(len(chars) - 1, -1, -1):
            states[x] = state
            state = path[x][state]
        return states


def _ascii_run(text, i):
    """End of the run of ASCII letters and digits starting with a letter at ``i``, or of the
    number (digits and '.') starting with a digit there; ``i + 1`` for other characters."""
    c = text[i]
    if c.isascii() and c.isalpha():
        j = i + 1
        while j < len(text) and text[j].isascii() and text[j].isalnum():
            j += 1
        return j
    if '0' <= c <= '9':
        j = i + 1
        while j < len(text) and ('0' <= text[j] <= '9' or text[j] == '.'):
            j += 1
        return j
    return i + 1


def _hmm_cut(model, text, begin, end, spans):
    """Cut ``text[begin:end]``: ASCII runs by their own rules, the rest by the model."""
    left = right = begin
    while right < end:
        if ord(text[right]) < 0x80:
            if left != right:
                _viterbi_cut(model, text, left, right, spans)
            left = right
            right = min(_ascii_run(text, left), end)
            spans.append((left, right))
            left = right
        else:
            right += 1
    if left != right:
        _viterbi_cut(model, text, left, right, spans)


def _viterbi_cut(model, text, begin, end, spans):
    left = begin
    for i, state in enumerate(model.viterbi(text[begin:end])):
        if state in (_E, _S):
            spans.append((left, begin + i + 1))
            left = begin + i + 1


def _mp_cut(dictionary, text, begin, end, spans):
    """Cut ``text[begin:end]`` into the words of largest total log probability."""
    n = end - begin
    weights, prefixes = dictionary.weights, dictionary.prefixes
    best = [0.0] * n
    choice = [None] * n
    for i in range(n - 1, -1, -1):
        nexts = [(i, weights.get(text[begin + i]))]
        for j in range(i + 1, min(n, i + _MAX_WORD_LENGTH)):
            piece = text[begin + i:begin + j]
            if piece not in prefixes:
                break
            word_weight = weights.get(text[begin + i:begin + j + 1])
            if word_weight is not None:
                nexts.append((j, word_weight))
        best[i], choice[i] = _MIN_DOUBLE, None
        for j, word_weight in nexts:
            value = 0.0
            if j + 1 < n:
                value += best[j + 1]
            value += dictionary.min_weight if word_weight is None else word_weight
            if value > best[i]:
                best[i], choice[i] = value, (j if word_weight is not None else None)
    i = 0
    while i < n:
        j = choice[i] if choice[i] is not None else i
        spans.append((begin + i, begin + j + 1))
        i = j + 1


def _mix_cut(dictionary, model, text, begin, end, spans):
    """The maximum probability cut, with runs of single characters cut again by the
    model."""
    words = []
    _mp_cut(dictionary, text, begin, end, words)
    single = [b - a == 1 for a, b in words]
    i = 0
    while i < len(words):
        if not single[i]:
            spans.append(words[i])
            i += 1
            continue
        j = i
        while j < len(words) and single[j]:
            j += 1
        _hmm_cut(model, text, words[i][0], words[j - 1][1], spans)
        i = j


def _pieces(text):
    """The ranges between separators (space, tab, newline, '，', '。'), each separator a range
    of its own."""
    start = 0
    for i, c in enumerate(text):
        if c in _SEPARATORS:
            if i > start:
                yield start, i
            yield i, i + 1
            start = i + 1
    if start < len(text):
        yield start, len(text)


class JiebaTokenizer(TensorOperation):
    """Segment Chinese text into words with the dictionary ``mp_path`` and the hidden Markov
    model ``hmm_path`` (cppjieba's files), in ``mode``; ``add_word`` and ``add_dict`` add
    user words."""

    def __init__(self, hmm_path, mp_path, mode=JiebaMode.MIX, with_offsets=False):
        if hmm_path is None:
            raise ValueError("The dict of HMMSegment in cppjieba is not provided.")
        if not isinstance(hmm_path, str):
            raise TypeError("Wrong input type for hmm_path, should be string.")
        if mp_path is None:
            raise ValueError("The dict of MPSegment in cppjieba is not provided.")
        if not isinstance(mp_path, str):
            raise TypeError("Wrong input type for mp_path, should be string.")
        if not isinstance(with_offsets, bool):
            raise TypeError("Wrong input type for with_offsets, should be boolean.")
        if not isinstance(mode, JiebaMode):
            raise TypeError("Wrong input type for mode, should be JiebaMode.")
        for path in (hmm_path, mp_path):
            if not os.path.exists(os.path.realpath(path)):
                raise ValueError(f" jieba mode file {path} is not exist.")
        self.mode, self.hmm_path, self.mp_path = mode, hmm_path, mp_path
        self.with_offsets = with_offsets
        self.words = []
        self._dictionary = self._model = None

    def add_word(self, word, freq=None):
        """Add ``word`` with frequency ``freq`` (None: the dictionary's median weight)."""
        if word is None:
            raise ValueError("word is not provided.")
        if freq is not None:
            _checks.type_check(freq, (int,), '')
            _checks.in_range(freq, 0, 4294967295)
        self.words.append((word, 0 if freq is None else freq))
        self._dictionary = None

    def add_dict(self, user_dict):
        """Add the words of a ``{word: freq}`` dict, or of a file of ``"<word> [freq]"`` lines
        (other lines are skipped)."""
        if isinstance(user_dict, str):
            if not os.path.exists(user_dict):
                raise ValueError(f"user dict file {user_dict} is not exist.")
            line_re = re.compile('^\\s*([^\\s*]+?)\\s*([0-9]+)?\\s*$', re.U)
            with open(os.path.realpath(user_dict), 'r', encoding='UTF-8') as f:
                for item in f:
                    m = line_re.match(item.strip())
                    if m:
                        word, freq = m.groups()
                        self.add_word(word, 0 if freq is None else int(freq))
        elif isinstance(user_dict, dict):
            for word, freq in user_dict.items():
                self.add_word(word, freq)
        else:
            raise TypeError("The type of user_dict must str or dict.")

    def _load(self):
        if self._dictionary is None:
            self._dictionary = _Dictionary(self.mp_path)
            for word, freq in self.words:
                self._dictionary.add_user_word(word, freq)
        if self._model is None:
            self._model = _HMMModel(self.hmm_path)

    def _apply(self, x):
        if x.ndim != 0 or x.dtype.kind != 'U':
            raise RuntimeError("JiebaTokenizerOp: the input shape should be scalar and the "
                               "input datatype should be string.")
        self._load()
        text = x.item()
        spans = []
        for begin, end in _pieces(text):
            if self.mode == JiebaMode.MP:
                _mp_cut(self._dictionary, text, begin, end, spans)
            elif self.mode == JiebaMode.HMM:
                _hmm_cut(self._model, text, begin, end, spans)
            else:
                _mix_cut(self._dictionary, self._model, text, begin, end, spans)
        tokens = np.array([text[a:b] for a, b in spans] or [''], dtype=str)
        if not self.with_offsets:
            return tokens
        sizes = [0]
        for c in text:
            sizes.append(sizes[-1] + len(c.encode('utf-8')))
        return (tokens, np.array([sizes[a] for a, _ in spans], np.uint32),
                np.array([sizes[b] for _, b in spans], np.uint32))
