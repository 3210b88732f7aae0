"""Tokenizers of ``mindspore.dataset.text``: ``UnicodeScriptTokenizer``,
``WordpieceTokenizer``, ``BertTokenizer`` and ``PythonTokenizer``.

Offsets are UTF-8 byte offsets (two uint32 arrays), as MindSpore gives them.
"""
import bisect

import numpy as np

from ..transforms import _checks
from .string_ops import _nonempty
from .transforms import BasicTokenizer, _Tokenizer
from .utils import NormalizeForm, Vocab, to_str
from ._unicode_scripts import SCRIPT_CODES, SCRIPT_STARTS

__all__ = ['UnicodeScriptTokenizer', 'WordpieceTokenizer', 'BertTokenizer', 'PythonTokenizer']

UINT32_MAX = 4294967295

# Unicode's White_Space property (what ICU's u_isUWhiteSpace tests).
_WHITE_SPACE = frozenset('\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005'
                         '\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000')


def _script(char):
    """The four-letter Unicode script code of ``char``."""
    i = bisect.bisect_right(SCRIPT_STARTS, ord(char)) - 1
    return SCRIPT_CODES[4 * i:4 * i + 4]


def _bool_arg(value, name):
    if not isinstance(value, bool):
        raise TypeError(f"Wrong input type for {name}, should be boolean.")


class UnicodeScriptTokenizer(_Tokenizer):
    """Split a string where the Unicode script changes (``'Hello世界'`` gives ``'Hello'``,
    ``'世界'``) and around white space, which is dropped unless ``keep_whitespace``.

    Punctuation, digits and symbols are of the Common script, combining marks of the
    Inherited one, so they form tokens of their own next to letters.
    """

    def __init__(self, keep_whitespace=False, with_offsets=False):
        _bool_arg(keep_whitespace, 'keep_whitespace')
        super().__init__(with_offsets)
        self.keep_whitespace = keep_whitespace

    def _apply(self, x):
        if x.ndim != 0 or x.dtype.kind not in 'US':
            raise RuntimeError("UnicodeScriptTokenizerOp: the input shape should be scalar "
                               "and the input datatype should be string.")
        return super()._apply(x)

    def _spans(self, text):
        spans, start, last = [], 0, None
        for i, char in enumerate(text):
            kind = (char in _WHITE_SPACE, _script(char))
            if i > start and kind != last:
                if self.keep_whitespace or not last[0]:
                    spans.append((start, i))
                start = i
            if i == start:
                last = kind
        if start < len(text) and (self.keep_whitespace or not last[0]):
            spans.append((start, len(text)))
        return text, spans


def _check_wordpiece_args(vocab, suffix_indicator, max_bytes_per_token, unknown_token,
                          with_offsets):
    if not isinstance(vocab, Vocab):
        raise TypeError("Wrong input type for vocab, should be text.Vocab object.")
    if not isinstance(suffix_indicator, str):
        raise TypeError("Wrong input type for suffix_indicator, should be string.")
    if not isinstance(unknown_token, str):
        raise TypeError("Wrong input type for unknown_token, should be string.")
    _checks.type_check(max_bytes_per_token, (int,), 'max_bytes_per_token')
    _checks.in_range(max_bytes_per_token, 0, UINT32_MAX)
    _bool_arg(with_offsets, 'with_offsets')


class _Wordpiece:
    """Greedy longest-match-first splitting of one word into vocabulary pieces (BERT's
    WordPiece); offsets are UTF-8 byte offsets from ``base``."""

    def __init__(self, vocab, suffix_indicator, max_bytes_per_token, unknown_token):
        self.ids, self.suffix = vocab._ids, suffix_indicator
        self.max_bytes, self.unknown = max_bytes_per_token, unknown_token

    def split(self, word, base):
        """``[(token, start, end)]`` for ``word``; a word longer than ``max_bytes_per_token``
        or with a part that matches no piece becomes ``unknown_token`` (the word itself when
        that is '')."""
        size = len(word.encode('utf-8'))
        if size > self.max_bytes:
            if self.unknown:
                return [(self.unknown, base, base + len(self.unknown.encode('utf-8')))]
            return [(word, base, base + size)]
        pieces, start, byte_start = [], 0, 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else self.suffix + word[start:end]
                if piece in self.ids:
                    break
            else:
                return [(self.unknown or word, base, base + size)]
            byte_end = byte_start + len(word[start:end].encode('utf-8'))
            pieces.append((piece, base + byte_start, base + byte_end))
            start, byte_start = end, byte_end
        return pieces


def _tokens_and_offsets(pieces, with_offsets):
    if not pieces:                          # MindSpore gives one empty token
        pieces = [('', 0, 0)]
    tokens = np.array([p[0] for p in pieces], dtype=str)
    if not with_offsets:
        return tokens
    return (tokens, np.array([p[1] for p in pieces], np.uint32),
            np.array([p[2] for p in pieces], np.uint32))


class WordpieceTokenizer:
    """Split each word of a 1-D string array into the pieces of ``vocab`` (BERT's WordPiece,
    greedy longest match first); pieces after the first carry ``suffix_indicator``.

    A word longer than ``max_bytes_per_token`` UTF-8 bytes, or with a part that matches no
    piece, becomes ``unknown_token`` (the word itself when that is ''). Offsets count bytes
    from the start of each word.
    """

    def __init__(self, vocab, suffix_indicator='##', max_bytes_per_token=100,
                 unknown_token='[UNK]', with_offsets=False):
        _check_wordpiece_args(vocab, suffix_indicator, max_bytes_per_token, unknown_token,
                              with_offsets)
        self.vocab, self.suffix_indicator = vocab, suffix_indicator
        self.max_bytes_per_token, self.unknown_token = max_bytes_per_token, unknown_token
        self.with_offsets = with_offsets
        self._wordpiece = _Wordpiece(vocab, suffix_indicator, max_bytes_per_token,
                                     unknown_token)

    def __call__(self, words):
        words = np.asarray(words)
        _nonempty(words)
        if words.ndim != 1 or words.dtype.kind != 'U':
            raise RuntimeError("WordpieceTokenizer: The input shape should be 1D scalar the "
                               "input datatype should be string.")
        pieces = [p for w in words.tolist() for p in self._wordpiece.split(w, 0)]
        return _tokens_and_offsets(pieces, self.with_offsets)


class BertTokenizer:
    """BERT's tokenizer: ``BasicTokenizer`` (white space, punctuation, CJK characters; case
    folding and accent stripping with ``lower_case``), then ``WordpieceTokenizer`` on each
    token. Offsets are UTF-8 byte offsets in the text after normalization.
    """

    def __init__(self, vocab, suffix_indicator='##', max_bytes_per_token=100,
                 unknown_token='[UNK]', lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        _check_wordpiece_args(vocab, suffix_indicator, max_bytes_per_token, unknown_token,
                              with_offsets)
        _bool_arg(lower_case, 'lower_case')
        _bool_arg(keep_whitespace, 'keep_whitespace')
        if not isinstance(normalization_form, NormalizeForm):
            raise TypeError("Wrong input type for normalization_form, should be enum of "
                            "'NormalizeForm'.")
        _bool_arg(preserve_unused_token, 'preserve_unused_token')
        self.vocab, self.suffix_indicator = vocab, suffix_indicator
        self.max_bytes_per_token, self.unknown_token = max_bytes_per_token, unknown_token
        self.lower_case, self.keep_whitespace = lower_case, keep_whitespace
        self.normalization_form = normalization_form
        self.preserve_unused_token, self.with_offsets = preserve_unused_token, with_offsets
        self._basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form,
                                     preserve_unused_token, with_offsets=True)
        self._wordpiece = _Wordpiece(vocab, suffix_indicator, max_bytes_per_token,
                                     unknown_token)

    def __call__(self, text):
        text = np.asarray(text)
        if text.ndim != 0:
            raise RuntimeError(f"BasicTokenizer: the input should be a scalar, but got a "
                               f"tensor with rank: {text.ndim}")
        if text.dtype.kind != 'U':
            raise RuntimeError("BasicTokenizer: the input should be of type string.")
        words, starts, _ = self._basic(text)
        pieces = []
        if words.tolist() != ['']:
            for word, start in zip(words.tolist(), starts.tolist()):
                pieces.extend(self._wordpiece.split(word, start))
        return _tokens_and_offsets(pieces, self.with_offsets)


class PythonTokenizer:
    """Apply ``tokenizer`` (a function from a ``str`` to a list of ``str``) to every string
    of an array, each string giving a row of tokens (as MindSpore, through ``np.vectorize``:
    rows after the first take the first row's length by broadcasting)."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError("tokenizer is not a callable Python function.")
        self.pyfunc = tokenizer
        self.tokenizer = np.vectorize(lambda x: np.array(tokenizer(x), dtype='U'),
                                      signature='()->(n)')
        self.random = False

    def __call__(self, in_array):
        if not isinstance(in_array, np.ndarray):
            raise TypeError(f"input should be a NumPy array. Got {type(in_array)}.")
        if in_array.dtype.type is np.bytes_:
            in_array = to_str(in_array)
        try:
            return self.tokenizer(in_array)
        except Exception as e:
            raise RuntimeError(f"Error occurred in Pyfunc [{self.pyfunc.__name__}], error "
                               f"message: {e}") from e
