"""MindSpore's printed form of a tensor (``repr``, and ``str`` of BFloat16); ``str`` of the
other types is NumPy's.

The rules are those of MindSpore 2.10's C++ printer:

- a 0-d tensor prints its value as C++ streams it (``%g``: ``0.1``, ``2``, ``1e+20``);
- complex numbers as ``1+2j`` (each part as ``%g``), unaligned;
- a NaN whose sign bit is set (the NaN x86 produces for ``sqrt(-1)`` or ``0 / 0``) prints as
  ``-nan`` in Float16/32/64, as C's printf prints it;
- floats print in scientific notation, right-aligned in 15 characters with 8 decimals
  (Float16: 11 characters, 4 decimals); integers right-aligned to the widest printed value;
  BFloat16 as integers, each value as ``%g`` prints it; booleans right-aligned in 5
  characters;
- a 1-d tensor longer than 1000 elements, or a row of more than 6 elements of a tensor with 2
  or more dimensions, shows its first 3 and last 3 elements around `` ... ``; an outer
  dimension longer than 6 shows its first 3 and last 3 entries around a ``...`` line;
- a 1-d tensor of more than 3 elements breaks its line after every 12 floats or booleans, or
  24 integers or BFloat16 values (after the last element too when the count is a multiple);
- elements are separated by ``, `` and rows by ``,`` and a new line indented by depth.
"""
import math

import numpy as np

from .._dtype import from_numpy

EDGE = 3                # elements shown at each end of a shortened dimension
ROW_LIMIT = 6           # longer rows (and outer dimensions) are shortened
FLAT_LIMIT = 1000       # longer 1-d tensors are shortened
_LINE_ITEMS = {'f': 12, 'b': 12}    # 1-d line breaks; other kinds (integers): 24
_INT_LINE_ITEMS = 24


def tensor_repr(data):
    """``Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])``."""
    a = np.asarray(data)
    shape = '[' + ', '.join(str(n) for n in a.shape) + ']'
    head = f"Tensor(shape={shape}, dtype={from_numpy(a.dtype)}, value="
    return f"{head}{chr(10) if a.ndim > 1 else ' '}{values_text(a)})"


def values_text(a):
    """The value part of ``tensor_repr``: '' for an empty tensor, a scalar's value, or the
    nested rows."""
    if a.size == 0:
        return ''
    if a.ndim == 0:
        return _scalar(a.item(), a.dtype)
    cells = []                      # (text, is_integer_cell) in printing order
    parts = []
    _rows(a, 0, parts, cells)
    if a.dtype.kind in 'iuV':       # integers are right-aligned to the widest shown value
        width = max(len(t) for t in cells)
        texts = iter(t.rjust(width) for t in cells)
        parts = [next(texts) if p is None else p for p in parts]
    return ''.join(parts)


def _complex(v):
    """``1+2j``, ``2.82843+0j``, ``-2-0j``: each part as ``%g``, the imaginary one signed."""
    re, im = v.real, v.imag
    if re != re or im != im:                # NaN parts keep their sign bit, as C prints them
        text_re = _signed_nan(re).lstrip('+') if re != re else f"{re:g}"
        text_im = _signed_nan(im) if im != im else f"{im:+g}"
        return f"{text_re}{text_im}j"
    return f"{re:g}{im:+g}j"


def _signed_nan(v):
    return '-nan' if math.copysign(1.0, v) < 0 else '+nan'


def _scalar(v, dtype):
    if dtype.kind == 'c':
        return _complex(v)
    if dtype.kind == 'f' and v != v and math.copysign(1.0, v) < 0:
        return '-nan'
    if dtype.kind in 'fV':
        return f"{v:g}"
    return str(v)


def _element(v, kind, itemsize):
    if kind == 'V':                 # BFloat16
        return f"{v:g}"
    if kind == 'f':
        if v != v and math.copysign(1.0, v) < 0:      # a NaN with its sign bit, as C prints it
            return f"{'-nan':>11}" if itemsize == 2 else f"{'-nan':>15}"
        return f"{v:>11.4e}" if itemsize == 2 else f"{v:>15.8e}"
    if kind == 'b':
        return f"{'True' if v else 'False':>5}"
    if kind == 'c':
        return _complex(v)
    return str(v)


def bfloat16_str(a):
    """``str`` of a BFloat16 array as MindSpore prints it: NumPy's layout, each value as
    ``%f`` prints it (``[0.300781 -1.203125]``)."""
    return np.array2string(a, formatter={'all': lambda v: '%f' % float(v)})


def _rows(a, depth, parts, cells):
    """Append the text of ``a`` (``depth`` dimensions in) to ``parts``; integer elements
    are ``None`` placeholders in ``parts``, their texts in ``cells``."""
    parts.append('[')
    n = a.shape[0]
    if a.ndim == 1:
        limit = FLAT_LIMIT if depth == 0 else ROW_LIMIT
        if n > limit:
            _items(a[:EDGE], depth, parts, cells)
            parts.append(' ... ')
            _items(a[n - EDGE:], depth, parts, cells)
        else:
            _items(a, depth, parts, cells)
    else:
        indent = ',\n' + ' ' * (depth + 1)
        for i in range(min(EDGE, n)):
            if i:
                parts.append(indent)
            _rows(a[i], depth + 1, parts, cells)
        if n > ROW_LIMIT:
            parts.append(indent + '...')
        rest = range(max(EDGE, n - EDGE), n)
        for k, i in enumerate(rest):
            parts.append(indent if k or n <= ROW_LIMIT else indent[1:])
            _rows(a[i], depth + 1, parts, cells)
    parts.append(']')


def _items(chunk, depth, parts, cells):
    kind, itemsize = chunk.dtype.kind, chunk.dtype.itemsize
    line = _LINE_ITEMS.get(kind, _INT_LINE_ITEMS)
    breaks = depth == 0 and len(chunk) > EDGE      # a 1-d tensor's own line breaks
    last = len(chunk) - 1
    for i, v in enumerate(chunk.tolist()):
        text = _element(v, kind, itemsize)
        if kind in 'iuV':
            cells.append(text)
            parts.append(None)
        else:
            parts.append(text)
        if i != last:
            parts.append(', ')
        if breaks and (i + 1) % line == 0:
            parts.append('\n ')
