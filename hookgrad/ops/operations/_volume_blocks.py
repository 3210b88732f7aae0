"""MindSpore's Primitive classes for 5-d resizing (UpsampleNearest3D, UpsampleTrilinear3D) and
for moving spatial blocks into the batch (SpaceToBatch, SpaceToBatchND).

Each is a thin callable over ``ops.resize.upsample_scaled`` and ``ops.space_to_batch_nd``:
the same code, graph and gradients. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
import numbers

import numpy as np

from ..._tensor import Tensor
from .._base import as_tensor
from .. import resize as _resize, spatial as _spatial
from ._primitive import Primitive, _flag, _int

__all__ = ['UpsampleNearest3D', 'UpsampleTrilinear3D', 'SpaceToBatch', 'SpaceToBatchND']


def _values(value):
    """A Tensor's or a sequence's values as a flat list."""
    return np.asarray(value.asnumpy() if isinstance(value, Tensor) else value).ravel().tolist()


class _Upsample3D(Primitive):
    """``Prim(...)(x, output_size=None, scales=None)`` of an (N, C, D, H, W) floating tensor:
    exactly one of ``output_size`` (3 positive ints) and ``scales`` (3 positive floats: the
    size ``floor(in * scale)``, sampled with the step ``1 / scale``)."""
    mode = None

    def construct(self, x, output_size=None, scales=None):
        name = type(self).__name__
        x = as_tensor(x, 'x')
        if x.ndim != 5:
            raise ValueError(f"ops.{name}: x must be 5-d (N, C, D, H, W), got shape {x.shape}")
        if x._data.dtype.kind not in 'fV':
            raise TypeError(f"ops.{name}: x must be floating, got {x.dtype}")
        if (output_size is None) == (scales is None):
            raise ValueError(f"ops.{name}: exactly one of output_size and scales must be given, "
                             f"got output_size={output_size!r} and scales={scales!r}")
        given, what = (output_size, 'output_size') if scales is None else (scales, 'scales')
        items = _values(given)
        if len(items) != 3:
            raise ValueError(f"ops.{name}: {what} must hold 3 values (D, H, W), got {given!r}")
        if scales is None:
            size, factor = tuple(int(v) for v in items), None
            out = size
        else:
            size, factor = None, tuple(float(v) for v in items)
            out = tuple(int(np.floor(n * f)) for n, f in zip(x.shape[2:], factor))
        if min(out) < 1:
            raise ValueError(f"ops.{name}: the output size must be positive, got {out} from "
                             f"{what} {given!r}")
        return _resize.upsample_scaled(x, size, factor, self.mode,
                                       getattr(self, 'align_corners', None),
                                       where=f'ops.{name}')


class UpsampleNearest3D(_Upsample3D):
    """``UpsampleNearest3D()(x, output_size=None, scales=None)``: an (N, C, D, H, W) tensor
    resized by copying the source element ``floor(i * step)`` along each axis (the step is
    ``in / out``, or ``1 / scale`` with ``scales``).

    Raises:
        TypeError: for a non-floating x.
        ValueError: for an x that is not 5-d, both or neither of output_size and scales, a
            count other than 3, or an empty output.
    """
    mode = 'nearest'


class UpsampleTrilinear3D(_Upsample3D):
    """``UpsampleTrilinear3D(align_corners=False)(x, output_size=None, scales=None)``: an
    (N, C, D, H, W) tensor resized by linear interpolation along D, H and W in turn
    (half-pixel centres, or the corners mapped onto each other with align_corners).

    Raises:
        TypeError: for a non-bool align_corners or a non-floating x.
        ValueError: as UpsampleNearest3D.
    """
    mode = 'trilinear'

    def __init__(self, align_corners=False):
        super().__init__(align_corners=_flag(align_corners, 'UpsampleTrilinear3D',
                                             'align_corners'))


def _pairs(value, prim, count=None):
    """``paddings`` as a list of (start, end) pairs of ints >= 0 (``count`` of them)."""
    pairs = np.asarray(value.asnumpy() if isinstance(value, Tensor) else value)
    if pairs.ndim != 2 or pairs.shape[1] != 2 or pairs.dtype.kind not in 'iu' or \
            (pairs < 0).any() or (count is not None and pairs.shape[0] != count):
        want = f"{count} " if count is not None else ''
        raise ValueError(f"ops.{prim}: paddings must be {want}pairs (start, end) of ints >= 0, "
                         f"got {value!r}")
    return pairs.tolist()


class SpaceToBatch(Primitive):
    """``SpaceToBatch(block_size, paddings)(input_x)``: ``space_to_batch_nd`` of the height
    and width of an (N, C, H, W) tensor with the block ``(block_size, block_size)``
    (block_size >= 2, paddings 2 pairs)."""
    def __init__(self, block_size, paddings):
        block_size = _int(block_size, 'SpaceToBatch', 'block_size')
        if block_size < 2:
            raise ValueError(f"ops.SpaceToBatch: block_size must be >= 2, got {block_size}")
        super().__init__(block_size=block_size,
                         paddings=_pairs(paddings, 'SpaceToBatch', count=2))

    def construct(self, input_x):
        return _spatial.space_to_batch_nd(input_x, [self.block_size] * 2, self.paddings)


class SpaceToBatchND(Primitive):
    """``SpaceToBatchND(block_shape, paddings)(input_x)``: ``space_to_batch_nd`` with the
    block shape (an int for every padded dimension, or one int >= 1 each) and paddings."""
    def __init__(self, block_shape, paddings):
        pairs = _pairs(paddings, 'SpaceToBatchND')
        if isinstance(block_shape, numbers.Integral) and not isinstance(block_shape, bool):
            block_shape = [block_shape] * len(pairs)
        blocks = [_int(b, 'SpaceToBatchND', 'block_shape') for b in
                  (block_shape if isinstance(block_shape, (tuple, list)) else [block_shape])]
        if any(b < 1 for b in blocks) or len(blocks) != len(pairs):
            raise ValueError(f"ops.SpaceToBatchND: block_shape must be {len(pairs)} ints >= 1 "
                             f"(one per paddings pair), got {block_shape!r}")
        super().__init__(block_shape=blocks, paddings=pairs)

    def construct(self, input_x):
        return _spatial.space_to_batch_nd(input_x, self.block_shape, self.paddings)
