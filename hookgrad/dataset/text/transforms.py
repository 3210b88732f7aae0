"""Text transforms (MindSpore's ``mindspore.dataset.text.transforms``) on NumPy string arrays.

Tokenizers take one string (a 0-d array) and return a 1-D array of tokens; with
``with_offsets=True`` also two uint32 arrays, the UTF-8 byte offsets where each token starts and
ends (in the text after the tokenizer's own normalization), as MindSpore does.
"""
import re
import unicodedata

import numpy as np

from ... import _dtype
from ..transforms import _checks
from ..transforms.transforms import TensorOperation
from ._icu_regex import category_class, icu_to_python
from .string_ops import _nfkc_casefold
from .utils import NormalizeForm, Vocab

__all__ = ['Lookup', 'SlidingWindow', 'ToNumber', 'Truncate', 'WhitespaceTokenizer',
           'UnicodeCharTokenizer', 'RegexTokenizer', 'BasicTokenizer']


def _strings(x, who, message):
    """``x`` as an array of str (bytes decoded as UTF-8); RuntimeError for other dtypes."""
    if x.dtype.kind == 'S':
        return np.char.decode(x, 'utf-8')
    if x.dtype.kind != 'U':
        raise RuntimeError(f"{who}: {message}")
    return x


class Lookup(TensorOperation):
    """Tokens to their ids in ``vocab`` (``unknown_token``'s id for the others), as
    ``data_type`` (default int32)."""

    def __init__(self, vocab, unknown_token=None, data_type=_dtype.int32):
        _checks.type_check(vocab, (Vocab,), 'vocab')
        if unknown_token is not None:
            _checks.type_check(unknown_token, (str,), 'unknown_token')
        self.vocab, self.unknown_token = vocab, unknown_token
        self.data_type = _dtype.to_numpy(data_type)

    def _apply(self, x):
        x = _strings(x, 'Lookup', 'input is not string datatype.')
        ids = self.vocab._ids
        unknown = -1
        if self.unknown_token is not None:
            if self.unknown_token not in ids:
                raise RuntimeError(f"Lookup: {self.unknown_token} doesn't exist in vocab.")
            unknown = ids[self.unknown_token]
        flat = [ids.get(t, unknown) for t in x.ravel().tolist()]
        if unknown == -1 and -1 in flat:
            bad = x.ravel()[flat.index(-1)]
            raise RuntimeError(f'Lookup: invalid data, token: "{bad}" doesn\'t exist in vocab '
                               f'and no unknown token is specified.')
        return np.asarray(flat, dtype=self.data_type).reshape(x.shape)


class SlidingWindow(TensorOperation):
    """The windows of ``width`` consecutive elements of a 1-D array, as rows of a 2-D one
    (empty when the array is shorter than ``width``)."""

    def __init__(self, width, axis=0):
        _checks.type_check(width, (int,), 'width')
        _checks.in_range(width, 1, _checks.INT32_MAX, 'width')
        _checks.type_check(axis, (int,), 'axis')
        self.width, self.axis = width, axis

    def _apply(self, x):
        if x.ndim != 1:
            raise RuntimeError(f"SlidingWindow: SlidingWindow supports 1D input only for now, "
                               f"but got {x.ndim}D.")
        if self.axis not in (0, -1):
            raise RuntimeError(f"SlidingWindow: axis is out of bounds, got {self.axis}.")
        if len(x) < self.width:
            return x[:0]
        return np.lib.stride_tricks.sliding_window_view(x, self.width).copy()


class Truncate(TensorOperation):
    """Keep the first ``max_seq_len`` elements of the last axis of a 1-D or 2-D array."""

    def __init__(self, max_seq_len):
        _checks.type_check(max_seq_len, (int,), 'max_seq_len')
        _checks.in_range(max_seq_len, 1, _checks.INT32_MAX, 'max_seq_len')
        self.max_seq_len = max_seq_len

    def _apply(self, x):
        if x.ndim not in (1, 2):
            raise RuntimeError("Truncate: the input tensor should be of dimension 1 or 2.")
        return x[..., :self.max_seq_len].copy()


class ToNumber(TensorOperation):
    """Strings to numbers of ``data_type`` (an int, uint or float type); RuntimeError for a
    string that is no number or out of the type's range."""

    def __init__(self, data_type):
        try:
            np_type = _dtype.to_numpy(data_type)
        except TypeError:
            np_type = None
        if np_type is None or np_type.kind not in 'iufV':
            raise TypeError(f"data_type: {data_type} is not numeric data type.")
        self.data_type = np_type

    def _apply(self, x):
        x = _strings(x, 'ToNumber', 'input should be string datatype.')
        kind = self.data_type.kind
        values = []
        for s in x.ravel().tolist():
            try:
                v = float(s)
            except ValueError:
                raise RuntimeError(f'ToNumber: it is invalid to convert "{s}" to a '
                                   f'number.') from None
            if kind in 'iu':
                info = np.iinfo(self.data_type)
                v = int(v)
                if not info.min <= v <= info.max:
                    raise RuntimeError(f"ToNumber: string input {s} will be out of bounds if "
                                       f"cast to {self.data_type}. The valid range is: "
                                       f"[{info.min}, {info.max}].")
            elif self.data_type == np.float16 and abs(v) > 65504:
                raise RuntimeError(f"ToFloat16: value {v:f}in input data is outside of valid "
                                   f"float16 range [65504.000000, -65504.000000].")
            values.append(v)
        return np.asarray(values, dtype=self.data_type).reshape(x.shape)


def _utf8_offsets(text, spans):
    """Character spans of ``text`` as (start, end) UTF-8 byte offsets, two uint32 arrays."""
    sizes = np.fromiter((len(c.encode('utf-8')) for c in text), np.int64, len(text))
    pos = np.concatenate([[0], np.cumsum(sizes)])
    spans = np.asarray(spans, np.int64).reshape(-1, 2)
    return pos[spans[:, 0]].astype(np.uint32), pos[spans[:, 1]].astype(np.uint32)


class _Tokenizer(TensorOperation):
    """A tokenizer of one string; subclasses give ``_spans(text)`` -> (text, [(start, end)])."""

    def __init__(self, with_offsets=False):
        if not isinstance(with_offsets, bool):
            raise TypeError("Wrong input type for with_offsets, should be boolean.")
        self.with_offsets = with_offsets

    def _apply(self, x):
        who = type(self).__name__ + ('Op' if isinstance(self, WhitespaceTokenizer) else '')
        if x.ndim != 0 or x.dtype.kind not in 'US':
            raise RuntimeError(f"{who}: the input shape should be scalar and the input "
                               f"datatype should be string.")
        text = x.item()
        text = text.decode('utf-8') if isinstance(text, bytes) else text
        text, spans = self._spans(text)
        if not spans:                       # MindSpore gives one empty token
            tokens, spans = [''], [(0, 0)]
        else:
            tokens = [text[a:b] for a, b in spans]
        tokens = np.array(tokens)
        if not self.with_offsets:
            return tokens
        return (tokens,) + _utf8_offsets(text, spans)


class WhitespaceTokenizer(_Tokenizer):
    """Split a string at runs of white space."""

    def _spans(self, text):
        return text, [m.span() for m in re.finditer(r'\S+', text)]


class UnicodeCharTokenizer(_Tokenizer):
    """Split a string into its characters (code points)."""

    def _spans(self, text):
        return text, [(i, i + 1) for i in range(len(text))]


def _regex_spans(text, delim, keep):
    """Pieces of ``text`` between matches of ``delim``, with the matches that ``keep`` fully
    matches as pieces of their own."""
    spans, start = [], 0
    for m in delim.finditer(text):
        if m.start() == m.end():
            continue
        if m.start() > start:
            spans.append((start, m.start()))
        if keep is not None and keep.fullmatch(m.group()):
            spans.append(m.span())
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


class RegexTokenizer(_Tokenizer):
    """Split a string at matches of ``delim_pattern``; matches that ``keep_delim_pattern``
    matches are kept as tokens. Patterns are ICU's as far as Python's ``re`` shares their
    syntax, with ICU's ``\\p{...}`` classes of general categories and scripts."""

    def __init__(self, delim_pattern, keep_delim_pattern='', with_offsets=False):
        _checks.type_check(delim_pattern, (str,), 'delim_pattern')
        _checks.type_check(keep_delim_pattern, (str,), 'keep_delim_pattern')
        super().__init__(with_offsets)
        self.delim_pattern, self.keep_delim_pattern = delim_pattern, keep_delim_pattern
        self._delim = re.compile(icu_to_python(delim_pattern))
        self._keep = re.compile(icu_to_python(keep_delim_pattern)) if keep_delim_pattern \
            else None

    def _spans(self, text):
        return text, _regex_spans(text, self._delim, self._keep)


_UNUSED = r'\[CLS\]|\[SEP\]|\[UNK\]|\[PAD\]|\[MASK\]|\[unused\d+\]|'
_UNUSED_WORDS = re.compile(r'\[(?:CLS|SEP|UNK|PAD|MASK)\]')
_CJK = ('\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002b73f'
        '\U0002b740-\U0002b81f\U0002b820-\U0002ceaf\uf900-\ufaff\U0002f800-\U0002fa1f')
def _nfkc_casefold_keeping_unused_words(text):
    """``text`` case-folded (NFKC_Casefold) except ``[CLS]``, ``[SEP]``, ``[UNK]``, ``[PAD]``
    and ``[MASK]``."""
    out, start = [], 0
    for m in _UNUSED_WORDS.finditer(text):
        out += [_nfkc_casefold(text[start:m.start()]), m.group()]
        start = m.end()
    out.append(_nfkc_casefold(text[start:]))
    return ''.join(out)


class BasicTokenizer(_Tokenizer):
    """BERT's basic tokenizer: split at white space, punctuation and CJK characters.

    With ``lower_case`` the text is case-folded (NFKC_Casefold, ``[CLS]``-like words kept with
    ``preserve_unused_token``) and its accents stripped (NFD, nonspacing marks removed), else
    normalized with ``normalization_form``; control and format characters then become ' '.
    Punctuation (ASCII symbols included) and CJK characters become tokens of their own, runs
    of white space too with ``keep_whitespace``; with ``preserve_unused_token``, ``[CLS]``,
    ``[SEP]``, ``[UNK]``, ``[PAD]``, ``[MASK]`` and ``[unusedN]`` stay whole.
    """

    def __init__(self, lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        for name, value in (('lower_case', lower_case), ('keep_whitespace', keep_whitespace),
                            ('preserve_unused_token', preserve_unused_token)):
            if not isinstance(value, bool):
                raise TypeError(f"Wrong input type for {name}, should be boolean.")
        _checks.type_check(normalization_form, (NormalizeForm,), 'normalization_form')
        super().__init__(with_offsets)
        self.lower_case, self.keep_whitespace = lower_case, keep_whitespace
        self.normalization_form = normalization_form
        self.preserve_unused_token = preserve_unused_token
        self._patterns = None

    def _compile(self):
        common = r'[!-/:-@\[-`{-~' + category_class(('P',)) + _CJK + ']'
        delim = r'\s+|' + common
        keep = delim if self.keep_whitespace else common
        if self.preserve_unused_token:
            delim, keep = _UNUSED + delim, _UNUSED + keep
        self._patterns = re.compile(delim), re.compile(keep)
        self._control = re.compile('[' + category_class(('Cc', 'Cf')) + ']')
        self._marks = re.compile('[' + category_class(('Mn',)) + ']')

    def _normalize(self, text):
        if self.lower_case:
            if self.preserve_unused_token:
                text = _nfkc_casefold_keeping_unused_words(text)
            else:
                text = _nfkc_casefold(text)
            return self._marks.sub('', unicodedata.normalize('NFD', text))
        if self.normalization_form != NormalizeForm.NONE:
            return unicodedata.normalize(self.normalization_form.name, text)
        return text

    def _spans(self, text):
        if self._patterns is None:
            self._compile()
        text = self._control.sub(' ', self._normalize(text))
        delim, keep = self._patterns
        return text, _regex_spans(text, delim, keep)
