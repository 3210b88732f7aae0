"""``hookgrad.dataset.text``: text transforms (MindSpore's ``mindspore.dataset.text``).

``Vocab`` and ``Lookup`` map tokens to ids; ``SlidingWindow``, ``ToNumber`` and ``Truncate``
reshape or convert token arrays; ``WhitespaceTokenizer``, ``UnicodeCharTokenizer``,
``RegexTokenizer`` and ``BasicTokenizer`` split strings (with byte offsets on request).
``PadEnd`` is ``dataset.transforms.PadEnd``.
"""
from . import jieba, string_ops, tokenizers, transforms, utils, vectors
from .jieba import JiebaMode, JiebaTokenizer
from .string_ops import (AddToken, CaseFold, Ngram, NormalizeUTF8, RegexReplace,
                         TruncateSequencePair)
from .transforms import (BasicTokenizer, Lookup, RegexTokenizer, SlidingWindow, ToNumber,
                         Truncate, UnicodeCharTokenizer, WhitespaceTokenizer)
from .tokenizers import (BertTokenizer, PythonTokenizer, UnicodeScriptTokenizer,
                         WordpieceTokenizer)
from .utils import NormalizeForm, Vocab, to_bytes, to_str
from .vectors import CharNGram, FastText, GloVe, ToVectors, Vectors

__all__ = (transforms.__all__ + utils.__all__ + string_ops.__all__ +
           tokenizers.__all__ + vectors.__all__ +
           jieba.__all__)


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.dataset.text')
