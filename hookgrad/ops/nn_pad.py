"""Padding: ``ops.pad`` with MindSpore's modes 'constant', 'reflect', 'replicate' and
'circular' (and the 'symmetric' mode of ``nn.Pad``), and ``ops.mirror_pad``, composed of
primitives.

A non-constant mode is a gather along each padded axis (``take`` with an index array built
from the axis length), so its gradient adds every copy of an element back into it. Constant
padding concatenates filled blocks (negative amounts crop). The index arrays depend only on
shapes, so graph mode records them as constants of the shape it traces.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..kernels import backend
from ._base import as_tensor, check_size
from .indexing import getitem, take
from .shaping import concat

__all__ = ['pad', 'mirror_pad']

MODES = ('constant', 'reflect', 'replicate', 'circular')


def _source_index(n, before, after, mode):
    """For each position of the padded axis, the input position it copies."""
    i = np.arange(-before, n + after)
    if mode == 'replicate':
        return np.clip(i, 0, n - 1)
    if mode == 'circular':
        return np.mod(i, n)
    if mode == 'reflect':
        period = 2 * (n - 1)
        j = np.mod(i, period) if period else np.zeros_like(i)
        return np.where(j < n, j, period - j)
    # symmetric: the edge element repeats
    period = 2 * n
    j = np.mod(i, period)
    return np.where(j < n, j, period - 1 - j)


def _constant_axis(x, axis, before, after, value):
    """``x`` cropped (negative amounts) and extended with ``value`` along ``axis``."""
    if before < 0 or after < 0:
        stop = x.shape[axis] + min(after, 0)
        key = (slice(None),) * axis + (slice(max(-before, 0), stop),)
        x = getitem(x, key)
    pieces = []
    for amount in (before, after):
        if amount > 0:
            shape = x.shape[:axis] + (amount,) + x.shape[axis + 1:]
            check_size('pad', shape, x._data.itemsize)
            xp = backend.array_module(x._data)
            pieces.append(Tensor._wrap(xp.full(shape, value, dtype=x._data.dtype)))
        else:
            pieces.append(None)
    parts = [p for p in (pieces[0], x, pieces[1]) if p is not None]
    return concat(parts, axis) if len(parts) > 1 else x


def padded(x, pairs, mode, value, op):
    """``x`` padded by ``pairs``: ``(before, after)`` for each of the last axes, last first."""
    for k, (before, after) in enumerate(pairs):
        axis = x.ndim - 1 - k
        n = x.shape[axis]
        if mode == 'constant':
            if n + before + after < 0:
                raise ValueError(f"ops.{op}: padding ({before}, {after}) crops more than the "
                                 f"{n} elements of dimension {axis}")
            x = _constant_axis(x, axis, before, after, value)
            continue
        if before < 0 or after < 0:
            raise ValueError(f"ops.{op}: negative padding ({before}, {after}) is only "
                             f"allowed in 'constant' mode")
        limit = n - 1 if mode == 'reflect' else n
        if mode in ('reflect', 'circular') and (before > limit or after > limit):
            relation = 'less than' if mode == 'reflect' else 'at most'
            raise ValueError(f"ops.{op}: in '{mode}' mode the padding must be {relation} the "
                             f"size of the dimension, got ({before}, {after}) for dimension "
                             f"{axis} of size {n}")
        if n == 0:
            raise ValueError(f"ops.{op}: cannot pad the empty dimension {axis} in '{mode}' "
                             f"mode")
        if before or after:
            x = take(x, _source_index(n, before, after, mode), axis)    # uploaded by take
    return x


def pad(input_x, padding, mode='constant', value=None):
    """Pad the last ``len(padding) // 2`` dimensions of ``input_x``.

    Args:
        input_x: a Tensor.
        padding: a tuple or list of ints ``(left, right, top, bottom, front, back...)``: the
            amounts before and after the last dimension, then the one before it, and so on.
            Negative amounts crop (constant mode).
        mode: 'constant', 'reflect' (mirror without the edge), 'replicate' (repeat the edge)
            or 'circular' (wrap around). Default 'constant'.
        value: the fill value of constant mode. Default None: 0.

    Returns:
        Tensor of the input's dtype.

    Raises:
        TypeError: for a non-Tensor input, or non-int amounts.
        ValueError: for an odd-length padding, more pairs than dimensions, an unknown mode, a
            ``value`` with a mode other than 'constant', or amounts a mode cannot take.

    >>> import hookgrad as ms
    >>> print(ms.ops.pad(ms.Tensor([[1.0, 2.0, 3.0]]), (2, 1), 'reflect'))
    [[3. 2. 1. 2. 3. 2.]]
    """
    if not isinstance(input_x, Tensor):
        raise TypeError(f"ops.pad: input_x must be a Tensor, got {type(input_x).__name__}")
    pairs = _pairs(padding, input_x.ndim, 'pad')
    if mode not in MODES:
        raise ValueError(f"ops.pad: mode must be one of {', '.join(map(repr, MODES))}, got "
                         f"{mode!r}")
    if mode != 'constant' and value is not None:
        raise ValueError(f"ops.pad: the padding mode '{mode}' can not set value, got {value!r}")
    fill = 0 if value is None else value
    if isinstance(fill, bool) or not isinstance(fill, numbers.Real):
        raise TypeError(f"ops.pad: value must be a number, got {type(value).__name__}")
    return padded(input_x, pairs, mode, fill, 'pad')


def _pairs(padding, ndim, op):
    """``((before, after), ...)`` for the last dimensions, last first."""
    if not isinstance(padding, (tuple, list)) or not all(
            isinstance(p, numbers.Integral) and not isinstance(p, bool) for p in padding):
        raise TypeError(f"ops.{op}: padding must be a tuple or list of ints, got {padding!r}")
    if len(padding) % 2:
        raise ValueError(f"ops.{op}: the size of padding must be divisible by 2, got "
                         f"{len(padding)}")
    if len(padding) // 2 > ndim:
        raise ValueError(f"ops.{op}: padding {tuple(padding)} pads {len(padding) // 2} "
                         f"dimensions of a {ndim}-d input")
    return [(int(padding[2 * k]), int(padding[2 * k + 1])) for k in range(len(padding) // 2)]


# ----------------------------------------------------------------------------- mirror padding
def mirror_pad(input_x, paddings, mode):
    """``input_x`` extended by its mirror image: ``paddings`` an (ndim, 2) integer Tensor of
    (before, after) amounts, ``mode`` 'REFLECT' (edge left out) or 'SYMMETRIC' (edge
    repeated)."""
    return mirror_padded(input_x, paddings, mirror_mode(mode, 'mirror_pad'), 'mirror_pad')


def mirror_mode(mode, name):
    """``mode``, which must be 'REFLECT' or 'SYMMETRIC' (the error names op ``name``)."""
    if not isinstance(mode, str) or mode not in ('REFLECT', 'SYMMETRIC'):
        raise ValueError(f"ops.{name}: mode must be 'REFLECT' or 'SYMMETRIC', got {mode!r}")
    return mode


def mirror_padded(input_x, paddings, mode, name):
    """``mirror_pad`` with a checked mode (``ops.MirrorPad``'s form); errors name op ``name``."""
    x = as_tensor(input_x, 'input_x')
    # amounts given as a Tensor are read on the host: they decide the result's shape
    amounts = paddings.tolist() if isinstance(paddings, Tensor) else paddings
    return padded(x, pad_pairs(amounts, x.ndim, name), mode.lower(), 0, name)


def pad_pairs(paddings, ndim, name):
    """``padded``'s pairs, last axis first, from one (before, after) pair per dimension, first
    dimension first (MindSpore's Pad and MirrorPad form)."""
    pairs = [tuple(p) for p in paddings]
    if len(pairs) != ndim or any(len(p) != 2 for p in pairs):
        raise ValueError(f"ops.{name}: paddings must hold one (before, after) pair per "
                         f"dimension ({ndim}), got {paddings!r}")
    if any(v < 0 for p in pairs for v in p):
        raise ValueError(f"ops.{name}: paddings must be >= 0, got {paddings!r}")
    return pairs[::-1]
