"""``FilterWikipediaXML``: Wikipedia XML dump text to lowercase letters and single spaces, as
MindSpore's C++ operation does it."""
import re

from ..transforms.transforms import TensorOperation
from .string_ops import _map_strings, _require_str

__all__ = ['FilterWikipediaXML']

# MindSpore keeps its (pattern, replacement) pairs in a map, so it applies them in the
# patterns' sorted order (not in the order written); each result is then stripped. Its list
# maps 'R' to '' (dropping capital R) and writes the <ref> rule as '<ef...'; both are kept, so
# the output is MindSpore's. A replacement '\n' stands for 'n' in ICU.
_RULES = {r'<.*>': '', r'&amp;': '&', '&lt;': '<', '&gt;': '>', r'<ef[^<]*<\/ef>': '',
          '<[^>]*>': '', r'\[http:[^] ]*': '[', r'\|thumb': '', r'\|left': '', r'\|right': '',
          r'\|\d+px': '', r'\[\[image:[^\[\]]*\|': '',
          r'\[\[category:([^|\]]*)[^]]*\]\]': r'[[\1]]', r'\[\[[a-z\-]*:[^\]]*\]\]': '',
          r'\[\[[^\|\]]*\|': '[[', r'\{\{[^\}]*\}\}': '', r'\{[^\}]*\}': '', r'\[': '',
          r'\]': '', '&[^;]*;': ' ', **{c: c.lower() for c in 'ABCDEFGHIJKLMNOPQSTUVWXYZ'},
          'R': '', '0': ' zero ', '1': ' one ', '2': ' two ', '3': ' three ', '4': ' four ',
          '5': ' five ', '6': ' six ', '7': ' seven ', '8': ' eight ', '9': ' nine ',
          r'[^a-z\n]+': ' ', r'\n ': '', r'\s+': ' ', r'\n\s*\n': 'n'}
_STEPS = [(re.compile(pattern), _RULES[pattern]) for pattern in sorted(_RULES)]


def filter_wikipedia_text(text):
    """One string filtered: '' for a redirect page, else the text after every rule."""
    if '#redirect' in text or '#REDIRECT' in text:
        return ''
    for regex, replacement in _STEPS:
        text = regex.sub(replacement, text).strip()
    return text


class FilterWikipediaXML(TensorOperation):
    """Filter text in Wikipedia XML dump format to "clean" text: lowercase letters a-z (from
    A-Z) and single spaces, digits spelled out ('2' is 'two'), markup, XML tags and entities
    dropped; a page holding '#redirect' becomes ''.

    The rules are MindSpore's, applied in its order, so the output is MindSpore's, quirks
    included: a capital 'R' is dropped ('Ring' gives 'ing') and ``{{templates}}`` keep their
    words.

    Raises:
        RuntimeError: for input that is not a str array.

    >>> import hookgrad.dataset.text as text
    >>> str(text.FilterWikipediaXML()("Welcome    to    China"))
    'welcome to china'
    """

    def _apply(self, x):
        _require_str(x, "FilterWikipediaXML: input is not of type string.")
        return _map_strings(x, filter_wikipedia_text)
