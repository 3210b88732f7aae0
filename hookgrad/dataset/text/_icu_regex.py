"""ICU regular expression syntax that Python's ``re`` lacks, rewritten for it: the property
classes ``\\p{...}`` and ``\\P{...}`` of general categories (``\\p{L}``, ``\\p{Lu}``,
``\\p{Letter}``) and scripts (``\\p{Han}``, ``\\p{Script=Cyrillic}``, ``\\p{sc=Latn}``)."""
import re
import unicodedata

from ._unicode_scripts import SCRIPT_CODES, SCRIPT_STARTS

_CATEGORY_RUNS = []
_CATEGORY_NAMES = {
    'letter': 'L', 'cased_letter': 'LC', 'uppercase_letter': 'Lu', 'lowercase_letter': 'Ll',
    'titlecase_letter': 'Lt', 'modifier_letter': 'Lm', 'other_letter': 'Lo', 'mark': 'M',
    'nonspacing_mark': 'Mn', 'spacing_mark': 'Mc', 'enclosing_mark': 'Me', 'number': 'N',
    'decimal_number': 'Nd', 'letter_number': 'Nl', 'other_number': 'No', 'punctuation': 'P',
    'connector_punctuation': 'Pc', 'dash_punctuation': 'Pd', 'open_punctuation': 'Ps',
    'close_punctuation': 'Pe', 'initial_punctuation': 'Pi', 'final_punctuation': 'Pf',
    'other_punctuation': 'Po', 'symbol': 'S', 'math_symbol': 'Sm', 'currency_symbol': 'Sc',
    'modifier_symbol': 'Sk', 'other_symbol': 'So', 'separator': 'Z', 'space_separator': 'Zs',
    'line_separator': 'Zl', 'paragraph_separator': 'Zp', 'other': 'C', 'control': 'Cc',
    'format': 'Cf', 'surrogate': 'Cs', 'private_use': 'Co', 'unassigned': 'Cn'}
_SCRIPT_NAMES = {
    'arabic': 'Arab', 'armenian': 'Armn', 'bengali': 'Beng', 'bopomofo': 'Bopo',
    'common': 'Zyyy', 'cyrillic': 'Cyrl', 'devanagari': 'Deva', 'ethiopic': 'Ethi',
    'georgian': 'Geor', 'greek': 'Grek', 'gujarati': 'Gujr', 'gurmukhi': 'Guru', 'han': 'Hani',
    'hangul': 'Hang', 'hebrew': 'Hebr', 'hiragana': 'Hira', 'inherited': 'Zinh',
    'kannada': 'Knda', 'katakana': 'Kana', 'khmer': 'Khmr', 'lao': 'Laoo', 'latin': 'Latn',
    'malayalam': 'Mlym', 'mongolian': 'Mong', 'myanmar': 'Mymr', 'sinhala': 'Sinh',
    'tamil': 'Taml', 'telugu': 'Telu', 'thaana': 'Thaa', 'thai': 'Thai', 'tibetan': 'Tibt',
    'unknown': 'Zzzz'}
_PROPERTY = re.compile(r'\\([pP])\{([^}]*)\}')


def _range_class(ranges):
    return ''.join(re.escape(chr(a)) + ('-' + re.escape(chr(b - 1)) if b - 1 > a else '')
                   for a, b in ranges)


def _category_runs():
    """``[(first code point, general category)]`` of the runs of equal category (once)."""
    if not _CATEGORY_RUNS:
        last = None
        for code, cat in enumerate(map(unicodedata.category, map(chr, range(0x110000)))):
            if cat != last:
                _CATEGORY_RUNS.append((code, cat))
                last = cat
        _CATEGORY_RUNS.append((0x110000, None))
    return _CATEGORY_RUNS


def category_class(prefixes):
    """A character class body of the code points whose general category starts with one of
    ``prefixes``."""
    runs = _category_runs()
    return _range_class((a, b) for (a, cat), (b, _) in zip(runs, runs[1:])
                        if cat.startswith(prefixes))


def script_class(code):
    """A character class body of the code points of the four-letter script ``code``."""
    ends = SCRIPT_STARTS[1:] + (0x110000,)
    return _range_class((a, b) for i, (a, b) in enumerate(zip(SCRIPT_STARTS, ends))
                        if SCRIPT_CODES[4 * i:4 * i + 4] == code)


def _property_class(name):
    """The class body of the ICU property ``name``, or None for one not known here."""
    key, _, value = name.rpartition('=')
    key, value = key.strip().lower(), value.strip()
    if key in ('', 'gc', 'general_category'):
        category = _CATEGORY_NAMES.get(value.lower(), value)
        if category == 'LC':
            return category_class(('Lu', 'Ll', 'Lt'))
        if category in {c[:n] for c in _CATEGORY_NAMES.values() for n in (1, 2)}:
            return category_class((category,))
        if key:
            return None
    if key in ('', 'sc', 'script'):
        code = _SCRIPT_NAMES.get(value.lower(), value.capitalize())
        if code in {SCRIPT_CODES[i:i + 4] for i in range(0, len(SCRIPT_CODES), 4)}:
            return script_class(code)
    return None


def icu_to_python(pattern):
    """``pattern`` with its ``\\p{...}`` / ``\\P{...}`` classes spelt out for ``re`` (a
    negated one inside ``[...]`` is left, so ``re`` refuses it)."""
    if '\\p' not in pattern and '\\P' not in pattern:
        return pattern
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == '\\':
            m = _PROPERTY.match(pattern, i)
            body = _property_class(m.group(2)) if m else None
            if body is not None and not (in_class and m.group(1) == 'P'):
                negate = m.group(1) == 'P'
                out.append(body if in_class else ('[^' if negate else '[') + body + ']')
                i = m.end()
                continue
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if c == '[' and not in_class:
            in_class = True
            out.append(c)
            i += 1
            for literal in ('^', ']'):
                if pattern[i:i + 1] == literal:
                    out.append(literal)
                    i += 1
            continue
        if c == ']' and in_class:
            in_class = False
        out.append(c)
        i += 1
    return ''.join(out)
