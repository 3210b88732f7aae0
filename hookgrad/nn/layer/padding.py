"""Padding layers (MindSpore 2.x): Pad, ZeroPad2d, ConstantPad1d/2d/3d, ReflectionPad1d/2d,
ReplicationPad1d/2d; each pads through ``ops.pad``'s composition of primitives."""
import numbers

from ... import ops
from ..._tensor import Tensor
from ...ops.nn_pad import padded
from ..cell import Cell

__all__ = ['Pad', 'ZeroPad2d', 'ConstantPad1d', 'ConstantPad2d', 'ConstantPad3d',
           'ReflectionPad1d', 'ReflectionPad2d', 'ReplicationPad1d', 'ReplicationPad2d']


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


class Pad(Cell):
    """Pad with one ``(before, after)`` pair per dimension, from the first (NumPy's order).

    Args:
        paddings: a tuple of at most 4 pairs of ints; dimensions without a pair are not
            padded (the pairs apply to the first dimensions).
        mode: 'CONSTANT' (zeros), 'REFLECT' (mirror without the edge) or 'SYMMETRIC' (mirror
            with it). Default 'CONSTANT'.

    Raises:
        TypeError: for ``paddings`` that is not a tuple.
        ValueError: for an unknown mode, pairs that are not pairs, more than 4 of them, or
            (at call time) more pairs than the input has dimensions.

    >>> import hookgrad as ms
    >>> print(ms.nn.Pad(((1, 0), (0, 2)))(ms.Tensor([[1.0, 2.0]])))
    [[0. 0. 0. 0.]
     [1. 2. 0. 0.]]
    """

    def __init__(self, paddings, mode='CONSTANT'):
        super().__init__()
        if mode not in ('CONSTANT', 'REFLECT', 'SYMMETRIC'):
            raise ValueError(f"nn.Pad: mode must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', got "
                             f"{mode!r}")
        if not isinstance(paddings, tuple):
            raise TypeError(f"nn.Pad: paddings must be a tuple, got {type(paddings).__name__}")
        for item in paddings:
            if not isinstance(item, (tuple, list)) or len(item) != 2 or \
                    not all(_is_int(v) and v >= 0 for v in item):
                raise ValueError(f"nn.Pad: paddings must be pairs of ints >= 0 (shape (n, 2)), "
                                 f"got {paddings}")
        if len(paddings) > 4:
            raise ValueError(f"nn.Pad: only paddings of up to 4 dimensions are supported, got "
                             f"{len(paddings)}")
        self.mode = mode
        self.paddings = paddings

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"nn.Pad: expected a Tensor input, got {type(x).__name__}")
        if len(self.paddings) > x.ndim:
            raise ValueError(f"nn.Pad '{self.path()}': {len(self.paddings)} pairs of paddings "
                             f"for an input of shape {x.shape}")
        pairs = [tuple(p) for p in self.paddings] + [(0, 0)] * (x.ndim - len(self.paddings))
        mode = {'CONSTANT': 'constant', 'REFLECT': 'reflect', 'SYMMETRIC': 'symmetric'}[self.mode]
        if mode == 'symmetric':
            for axis, (before, after) in enumerate(pairs):
                if before > x.shape[axis] or after > x.shape[axis]:
                    raise ValueError(f"nn.Pad '{self.path()}': in 'SYMMETRIC' mode the padding "
                                     f"must be at most the size of the dimension, got "
                                     f"({before}, {after}) for dimension {axis} of size "
                                     f"{x.shape[axis]}")
        return padded(x, pairs[::-1], mode, 0, 'Pad')


def _expand(padding, pairs, name):
    """An int as ``2 * pairs`` equal amounts, a tuple checked."""
    if _is_int(padding):
        return (int(padding),) * (2 * pairs)
    if not isinstance(padding, tuple):
        raise TypeError(f"nn.{name}: padding must be an int or a tuple, got "
                        f"{type(padding).__name__}")
    if len(padding) % 2:
        raise ValueError(f"nn.{name}: the length of padding must be a multiple of 2, got "
                         f"{len(padding)}")
    if not all(_is_int(v) for v in padding):
        raise TypeError(f"nn.{name}: every element of padding must be an int, got {padding}")
    return padding


class _ConstantPadNd(Cell):
    """Constant padding of the last dimensions (``ops.pad`` in constant mode)."""

    _pairs = 1

    def __init__(self, padding, value):
        super().__init__()
        name = type(self).__name__
        padding = _expand(padding, self._pairs, name)
        if len(padding) > 2 * self._pairs or (self._pairs == 1 and len(padding) != 2):
            raise ValueError(f"nn.{name}: padding must hold at most {2 * self._pairs} ints, got "
                             f"{len(padding)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"nn.{name}: value must be an int or a float, got "
                            f"{type(value).__name__}")
        self.padding = padding
        self.value = value

    def construct(self, x):
        return ops.pad(x, self.padding, 'constant', self.value)


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dimension with ``value``.

    Args:
        padding: an int (both sides) or a pair (left, right); negative amounts crop.
        value: the fill value, an int or a float.

    Raises:
        TypeError: for another type of padding or value.
        ValueError: for a tuple that is not a pair.
    """

    _pairs = 1


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dimensions with ``value``.

    Args:
        padding: an int (every side) or a tuple of up to 4 ints (left, right, top, bottom).
        value: the fill value, an int or a float.
    """

    _pairs = 2


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dimensions with ``value``.

    Args:
        padding: an int (every side) or a tuple of up to 6 ints (left, right, top, bottom,
            front, back).
        value: the fill value, an int or a float.
    """

    _pairs = 3


class ZeroPad2d(ConstantPad2d):
    """Pad the last two dimensions with zeros.

    Args:
        padding: an int (every side) or a tuple of up to 4 ints (left, right, top, bottom).
    """

    def __init__(self, padding):
        super().__init__(padding, 0)


class _MirrorPadNd(Cell):
    """Reflection or replication padding of the last dimensions."""

    _pairs = 1
    _mode = 'reflect'

    def __init__(self, padding):
        super().__init__()
        name = type(self).__name__
        padding = _expand(padding, self._pairs, name)
        if self._mode == 'reflect' and not all(v >= 0 for v in padding):
            raise ValueError(f"nn.{name}: every element of padding must be >= 0, got {padding}")
        self.padding = padding

    def construct(self, x):
        return ops.pad(x, self.padding, self._mode)


class ReflectionPad1d(_MirrorPadNd):
    """Mirror the last dimension (without repeating the edge).

    Args:
        padding: an int (both sides) or a tuple (left, right), each less than the size.
    """


class ReflectionPad2d(_MirrorPadNd):
    """Mirror the last two dimensions (without repeating the edge).

    Args:
        padding: an int (every side) or a tuple (left, right, top, bottom).
    """

    _pairs = 2


class ReplicationPad1d(_MirrorPadNd):
    """Repeat the edge values of the last dimension.

    Args:
        padding: an int (both sides) or a tuple (left, right).
    """

    _mode = 'replicate'


class ReplicationPad2d(_MirrorPadNd):
    """Repeat the edge values of the last two dimensions.

    Args:
        padding: an int (every side) or a tuple (left, right, top, bottom).
    """

    _pairs = 2
    _mode = 'replicate'
