"""MindSpore's Primitive classes for shapes beyond those of ``_primitive.py``: metadata
(shape, rank, size, dtype), broadcasting, reversal, stacking and unstacking, rolls, grids,
slices, uneven splits, padding to a size, sequence reversal and permutation inverses.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
import numbers

import numpy as np

from .._base import as_tensor, normalize_axis
from .. import (broadcasting as _broadcast, inspection as _inspect,
               nn_pad as _pad, rearrange as _rearrange, shaping as _shape)
from ._primitive import Primitive, _constant, _int

__all__ = ['Shape', 'TensorShape', 'Rank', 'Size', 'DType', 'BroadcastTo', 'Expand', 'ReverseV2',
           'Pack', 'Unstack', 'Unpack', 'SplitV', 'Roll', 'Meshgrid', 'Padding',
           'InvertPermutation', 'Slice', 'StridedSlice']


# ----------------------------------------------------------------------------- metadata
class Shape(Primitive):
    """``Shape()(x)``: the shape of x as a tuple of ints."""
    def construct(self, input_x):
        return _shape.shape(input_x)


class TensorShape(Primitive):
    """``TensorShape()(input_x)``: the shape of x as a 1-d Int64 Tensor."""
    def construct(self, input_x):
        x = as_tensor(input_x, 'input_x')
        return _constant(np.array(x.shape, np.int64), x)


class Rank(Primitive):
    """``Rank()(x)``: the number of dimensions of x, an int (``ops.rank``)."""
    def construct(self, input_x):
        return _inspect.tensor_arg(input_x, 'Rank', 'input_x').ndim


class Size(Primitive):
    """``Size()(x)``: the number of elements of x, an int (``ops.size``)."""
    def construct(self, input_x):
        return _inspect.tensor_arg(input_x, 'Size', 'input_x').size


class DType(Primitive):
    """``DType()(x)``: the dtype of x (``ops.dtype``)."""
    def construct(self, input_x):
        return _inspect.tensor_arg(input_x, 'DType', 'input_x').dtype


# ----------------------------------------------------------------------------- shapes
class BroadcastTo(Primitive):
    """``BroadcastTo(shape)(x)``: x broadcast to ``shape`` (-1 keeps a dimension)."""
    def __init__(self, shape):
        super().__init__(shape=tuple(shape))

    def construct(self, input_x):
        return _broadcast.broadcast_to(input_x, self.shape)


class Expand(Primitive):
    """``Expand()(x, shape)``: x broadcast to ``shape`` (a 1-d integer Tensor or tuple)."""
    def construct(self, x, shape):
        return _rearrange.expand(x, shape)


class ReverseV2(Primitive):
    """``ReverseV2(axis)(x)``: x reversed along the axes ``axis``."""
    def __init__(self, axis):
        super().__init__(axis=tuple(axis))

    def construct(self, input_x):
        return _shape.flip(input_x, self.axis)


class Pack(Primitive):
    """``Pack(axis=0)(x)``: the tensors of x stacked along a new ``axis`` (ops.Stack)."""
    def __init__(self, axis=0):
        super().__init__(axis=axis)

    def construct(self, x):
        return _shape.stack(x, self.axis)


class Unstack(Primitive):
    """``Unstack(axis=0, num=None)(x)``: the slices of x along ``axis``, as a tuple."""
    def __init__(self, axis=0, num=None):
        super().__init__(axis=axis, num=num)

    def construct(self, input_x):
        pieces = _rearrange.unstack(input_x, self.axis)
        if self.num is not None and len(pieces) != self.num:
            raise ValueError(f"ops.Unstack: num {self.num} differs from the size "
                             f"{len(pieces)} of axis {self.axis}")
        return pieces


class Unpack(Unstack):
    """``Unpack(axis=0)(x)``: the slices of x along ``axis`` (ops.Unstack)."""
    def __init__(self, axis=0):
        Primitive.__init__(self, axis=axis, num=None)


class SplitV(Primitive):
    """``SplitV(size_splits, split_dim, num_split)(input_x)``: input_x cut along
    ``split_dim`` into pieces of the sizes ``size_splits`` (one of them may be -1: the rest),
    a tuple.

    Raises:
        ValueError: when num_split differs from len(size_splits), more than one size is -1,
            or the sizes do not add up to the dimension.
    """
    def __init__(self, size_splits, split_dim, num_split):
        sizes = tuple(size_splits) if isinstance(size_splits, (tuple, list)) else None
        if sizes is None or not all(isinstance(s, int) and not isinstance(s, bool)
                                    for s in sizes):
            raise TypeError(f"ops.SplitV: size_splits must be a tuple of ints, got "
                            f"{size_splits!r}")
        if isinstance(split_dim, bool) or not isinstance(split_dim, numbers.Integral):
            raise TypeError(f"ops.SplitV: split_dim must be an int, got {split_dim!r}")
        if num_split != len(sizes):
            raise ValueError(f"ops.SplitV: num_split {num_split!r} must equal the number of "
                             f"size_splits {len(sizes)}")
        if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
            raise ValueError(f"ops.SplitV: size_splits must be sizes >= 0 with at most one "
                             f"-1, got {size_splits!r}")
        super().__init__(size_splits=sizes, split_dim=int(split_dim), num_split=num_split)

    def construct(self, input_x):
        x = as_tensor(input_x, 'input_x')
        axis = normalize_axis(self.split_dim, x.ndim, 'SplitV')
        n = x.shape[axis]
        sizes = list(self.size_splits)
        known = sum(s for s in sizes if s != -1)
        if -1 in sizes:
            sizes[sizes.index(-1)] = n - known
        if sum(sizes) != n or min(sizes) < 0:
            raise ValueError(f"ops.SplitV: size_splits {self.size_splits} do not add up to the "
                             f"size {n} of dimension {axis} of shape {x.shape}")
        return tuple(_shape.split(x, sizes, axis))


class Roll(Primitive):
    """``Roll(shifts, dims=None)(x)``: x shifted cyclically along ``dims``."""
    def __init__(self, shifts, dims=None):
        shifts = _shape._int_tuple(shifts, 'Roll', 'shifts')
        dims = None if dims is None else _shape._int_tuple(dims, 'Roll', 'dims')
        super().__init__(shifts=shifts, dims=dims)

    def construct(self, input_x):
        return _rearrange.roll(input_x, self.shifts, self.dims)


class Meshgrid(Primitive):
    """``Meshgrid(indexing='xy')(inputs)``: coordinate grids from a tuple of 1-d tensors."""
    def __init__(self, indexing='xy'):
        if indexing not in ('xy', 'ij'):
            raise ValueError(f"ops.Meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
        super().__init__(indexing=indexing)

    def construct(self, inputs):
        return _rearrange.meshgrid(*inputs, indexing=self.indexing)


class Padding(Primitive):
    """``Padding(pad_dim_size=8)(x)``: x, whose last dimension has size 1, extended with zeros
    to ``pad_dim_size`` along it."""
    def __init__(self, pad_dim_size=8):
        size = _int(pad_dim_size, 'Padding', 'pad_dim_size')
        if size < 1:
            raise ValueError(f"ops.Padding: pad_dim_size must be > 0, got {size}")
        super().__init__(pad_dim_size=size)

    def construct(self, x):
        x = as_tensor(x, 'x')
        if x.ndim < 1 or x.shape[-1] != 1:
            raise ValueError(f"ops.Padding: the last dimension of x must be 1, got shape "
                             f"{x.shape}")
        return _pad.padded(x, [(0, self.pad_dim_size - 1)], 'constant', 0, 'Padding')


class InvertPermutation(Primitive):
    """``InvertPermutation()(input_x)``: the inverse of the permutation ``input_x`` (a tuple
    or list of ints), of the same type: ``y[x[i]] = i``.

    Raises:
        ValueError: when input_x is not a permutation of 0..n-1.
    """
    def construct(self, input_x):
        if not isinstance(input_x, (tuple, list)) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in input_x):
            raise TypeError(f"ops.InvertPermutation: input_x must be a tuple or list of ints, "
                            f"got {input_x!r}")
        if sorted(input_x) != list(range(len(input_x))):
            raise ValueError(f"ops.InvertPermutation: input_x must be a permutation of 0.."
                             f"{len(input_x) - 1}, got {input_x!r}")
        inverse = np.empty(len(input_x), np.int64)
        inverse[list(input_x)] = np.arange(len(input_x))
        return type(input_x)(int(v) for v in inverse)


# ----------------------------------------------------------------------------- slices
class Slice(Primitive):
    """``Slice()(x, begin, size)``: the block at ``begin`` with extents ``size``."""
    def construct(self, input_x, begin, size):
        return _rearrange.slice(input_x, begin, size)


class StridedSlice(Primitive):
    """``StridedSlice(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
    shrink_axis_mask=0)(x, begin, end, strides)``: TensorFlow's strided slice."""
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                 shrink_axis_mask=0):
        super().__init__(begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                         new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)

    def construct(self, input_x, begin, end, strides):
        return _rearrange.strided_slice(input_x, begin, end, strides, self.begin_mask,
                                        self.end_mask, self.ellipsis_mask, self.new_axis_mask,
                                        self.shrink_axis_mask)
