"""``hookgrad.dataset.text``: text transforms (MindSpore's ``mindspore.dataset.text``).

``Vocab`` and ``Lookup`` map tokens to ids; ``SlidingWindow``, ``ToNumber`` and ``Truncate``
reshape or convert token arrays; ``WhitespaceTokenizer``, ``UnicodeCharTokenizer``,
``RegexTokenizer``, ``BasicTokenizer``, ``UnicodeScriptTokenizer``, ``WordpieceTokenizer``,
``BertTokenizer``, ``JiebaTokenizer``, ``SentencePieceTokenizer`` and ``PythonTokenizer`` split
strings (with byte offsets on request); ``CaseFold``, ``NormalizeUTF8``, ``RegexReplace``,
``AddToken``, ``Ngram`` and ``TruncateSequencePair`` transform them; ``ToVectors`` looks tokens up
in pre-trained ``Vectors`` (``GloVe``, ``FastText``, ``CharNGram``).
``PadEnd`` is ``dataset.transforms.PadEnd``.
"""
from . import jieba, spiece, string_ops, tokenizers, transforms, utils, vectors, wiki
from .jieba import JiebaMode, JiebaTokenizer
from .spiece import (SentencePieceModel, SentencePieceTokenizer, SentencePieceVocab,
                     SPieceTokenizerLoadType, SPieceTokenizerOutType)
from .string_ops import (AddToken, CaseFold, Ngram, NormalizeUTF8, RegexReplace,
                         TruncateSequencePair)
from .transforms import (BasicTokenizer, Lookup, RegexTokenizer, SlidingWindow, ToNumber,
                         Truncate, UnicodeCharTokenizer, WhitespaceTokenizer)
from .tokenizers import (BertTokenizer, PythonTokenizer, UnicodeScriptTokenizer,
                         WordpieceTokenizer)
from .utils import NormalizeForm, Vocab, to_bytes, to_str
from .vectors import CharNGram, FastText, GloVe, ToVectors, Vectors
from .wiki import FilterWikipediaXML

__all__ = (transforms.__all__ + utils.__all__ + string_ops.__all__ +
           tokenizers.__all__ + vectors.__all__ +
           jieba.__all__ + spiece.__all__ + wiki.__all__)


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.dataset.text')
