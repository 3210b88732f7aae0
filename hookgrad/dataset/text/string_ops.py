"""String transforms of ``mindspore.dataset.text``: ``AddToken``, ``CaseFold``,
``NormalizeUTF8``, ``RegexReplace``, ``Ngram`` and ``TruncateSequencePair``.

They take NumPy arrays of ``str`` (dtype kind ``'U'``) as MindSpore's do; arrays of ``bytes``
are refused with MindSpore's error, since MindSpore treats them as bytes and not as text.
"""
import re
import unicodedata

import numpy as np

from ..transforms import _checks
from ..transforms.transforms import TensorOperation
from ._icu_regex import icu_to_python
from .utils import NormalizeForm

__all__ = ['AddToken', 'CaseFold', 'NormalizeUTF8', 'RegexReplace', 'Ngram',
           'TruncateSequencePair']


def _nonempty(x):
    """RuntimeError for an array without elements (MindSpore cannot make a tensor of it)."""
    if x.size == 0:
        raise RuntimeError("Input Tensor has no data.")
    return x


def _require_str(x, message):
    _nonempty(x)
    if x.dtype.kind != 'U':
        raise RuntimeError(message)
    return x


def _map_strings(x, fn):
    """``fn`` applied to every string of ``x``, keeping its shape."""
    out = [fn(s) for s in x.ravel().tolist()]
    return np.array(out, dtype=str).reshape(x.shape)


class AddToken(TensorOperation):
    """Put ``token`` before (``begin=True``) or after the tokens of each row of a 1-D or
    2-D string array."""

    def __init__(self, token, begin=True):
        _checks.type_check(token, (str,), 'token')
        _checks.type_check(begin, (bool,), 'begin')
        self.token, self.begin = token, begin

    def _apply(self, x):
        _nonempty(x)
        if x.ndim not in (1, 2):
            raise RuntimeError("AddToken: input tensor rank should be 1 or 2.")
        if x.dtype.kind != 'U':
            raise RuntimeError("AddToken: input tensor type should be string.")
        pad = np.full(x.shape[:-1] + (1,), self.token)
        parts = (pad, x) if self.begin else (x, pad)
        return np.concatenate(parts, axis=-1)


# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): NFKC_Casefold drops them.
_DEFAULT_IGNORABLE = re.compile(
    '[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e'
    '\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3'
    '\U0001d173-\U0001d17a\U000e0000-\U000e0fff]')


def _nfkc_casefold(text):
    """Unicode's NFKC_Casefold mapping (what ICU's NFKC_Casefold normalizer computes):
    default-ignorable characters removed, then case folding and NFKC applied until stable."""
    text = _DEFAULT_IGNORABLE.sub('', text)
    folded = unicodedata.normalize('NFKC', unicodedata.normalize('NFKD', text).casefold())
    while True:
        again = unicodedata.normalize('NFKC', folded.casefold())
        if again == folded:
            return folded
        folded = again


class CaseFold(TensorOperation):
    """Fold the case of every string (Unicode NFKC_Casefold, as MindSpore's ICU-based op:
    ``'ß'`` becomes ``'ss'``, ``'ﬁ'`` becomes ``'fi'``, default-ignorable characters go)."""

    def _apply(self, x):
        _require_str(x, "CaseFold: input is not string datatype.")
        return _map_strings(x, _nfkc_casefold)


class NormalizeUTF8(TensorOperation):
    """Normalize every string to the Unicode ``normalize_form`` (``NormalizeForm.NONE``: as
    is)."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        if not isinstance(normalize_form, NormalizeForm):
            raise TypeError("Wrong input type for normalization_form, should be enum of "
                            "'NormalizeForm'.")
        self.normalize_form = normalize_form

    def _apply(self, x):
        _require_str(x, "NormalizeUTF8: input is not string datatype.")
        if self.normalize_form == NormalizeForm.NONE:
            return x.copy()
        form = self.normalize_form.name
        return _map_strings(x, lambda s: unicodedata.normalize(form, s))


_ICU_GROUP = re.compile(r'\\(.)|\$(\d)')


def _python_replacement(replace):
    """An ICU replacement string (``$n`` for group n, ``\\c`` for a literal c) as a function
    of a ``re`` match."""
    def expand(match):
        return _ICU_GROUP.sub(lambda g: g.group(1) if g.group(1) is not None
                              else (match.group(int(g.group(2))) or ''), replace)
    return expand


class RegexReplace(TensorOperation):
    """Replace the matches of ``pattern`` in every string by ``replace`` (all matches, or
    only the first with ``replace_all=False``). ``replace`` refers to groups as ``$1``, as
    ICU does. Patterns are ICU's as far as Python's ``re`` shares their syntax, with ICU's
    ``\\p{...}`` classes of general categories and scripts."""

    def __init__(self, pattern, replace, replace_all=True):
        _checks.type_check(pattern, (str,), 'pattern')
        _checks.type_check(replace, (str,), 'replace')
        _checks.type_check(replace_all, (bool,), 'replace_all')
        self.pattern, self.replace, self.replace_all = pattern, replace, replace_all
        try:
            self._regex = re.compile(icu_to_python(pattern))
        except re.error:
            self._regex = None
        self._expand = _python_replacement(replace)

    def _apply(self, x):
        _require_str(x, "RegexReplace: input is not string datatype.")
        if self._regex is None:
            raise RuntimeError("RegexReplace: create icu RegexMatcher failed, you may input "
                               "one error pattern.")
        count = 0 if self.replace_all else 1
        return _map_strings(x, lambda s: self._regex.sub(self._expand, s, count=count))


def _pad_arg(pad, name):
    if not isinstance(pad, tuple) or len(pad) != 2 or not isinstance(pad[0], str) or \
            not isinstance(pad[1], int) or isinstance(pad[1], bool):
        raise ValueError(f"{name} needs to be a tuple of (str, int) str is pad token and int "
                         f"is pad_width.")
    if pad[1] < 0:
        raise ValueError("padding width need to be positive numbers.")
    return pad


class Ngram(TensorOperation):
    """The n-grams of a 1-D string array, for each n of ``n`` in turn, as strings joined by
    ``separator``.

    The sequence is padded with at most ``n - 1`` of ``left_pad`` / ``right_pad``'s tokens
    (``(token, width)``); an n larger than the padded sequence gives one empty string.
    """

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        if isinstance(n, int) and not isinstance(n, bool):
            n = [n]
        if not isinstance(n, list) or not n:
            raise ValueError("n needs to be a non-empty list of positive integers.")
        for i, gram in enumerate(n):
            _checks.type_check(gram, (int,), 'gram')
            if gram <= 0:
                raise ValueError(f"Input gram_{i} must be greater than 0.")
        self.n = list(n)
        self.left_pad = _pad_arg(left_pad, 'left_pad')
        self.right_pad = _pad_arg(right_pad, 'right_pad')
        _checks.type_check(separator, (str,), 'separator')
        self.separator = separator

    def _apply(self, x):
        _nonempty(x)
        if x.ndim != 1 or x.dtype.kind != 'U':
            raise RuntimeError("Ngram: input is not a 1D data with string datatype.")
        tokens = x.tolist()
        grams = []
        for n in self.n:
            left = [self.left_pad[0]] * min(self.left_pad[1], n - 1)
            right = [self.right_pad[0]] * min(self.right_pad[1], n - 1)
            seq = left + tokens + right
            if len(seq) < n:
                grams.append('')
                continue
            grams.extend(self.separator.join(seq[i:i + n]) for i in range(len(seq) - n + 1))
        return np.array(grams, dtype=str)


class TruncateSequencePair(TensorOperation):
    """Shorten two 1-D arrays until their lengths add up to at most ``max_length``, one
    element at a time from the end of the longer one (the second when they are equal)."""

    _one_to_one = False

    def __init__(self, max_length):
        _checks.type_check(max_length, (int,), 'max_length')
        self.max_length = max_length

    def __call__(self, *inputs):
        if len(inputs) != 2:
            raise RuntimeError(f"TruncateSequencePair: Expected two inputs, but got "
                               f"{len(inputs)} inputs.")
        return super().__call__(*inputs)

    def _apply(self, first, second):
        if self.max_length < 0:
            raise RuntimeError(f"TruncateSequencePair : The parameter max_length must be "
                               f"greater than or equal to 0: {self.max_length}")
        _nonempty(first)
        _nonempty(second)
        if first.ndim != 1 or second.ndim != 1:
            raise RuntimeError("TruncateSequencePair: both data column should be of rank 1.")
        len1, len2 = len(first), len(second)
        excess = max(len1 + len2 - self.max_length, 0)
        # Taking from the longer one first, then alternately (second first on a tie).
        cut_longer = min(excess, abs(len1 - len2))
        if len1 > len2:
            len1 -= cut_longer
        else:
            len2 -= cut_longer
        rest = excess - cut_longer
        len2 -= (rest + 1) // 2
        len1 -= rest // 2
        return first[:len1].copy(), second[:len2].copy()
