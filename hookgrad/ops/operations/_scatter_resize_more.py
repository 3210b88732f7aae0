"""MindSpore's Primitive classes of indexed writes (InplaceUpdateV2, ScatterAddWithAxis,
InplaceIndexAdd, IndexPut, MaskedScatter, FillDiagonal, FillV2), block rearrangements
(BatchToSpace, BatchToSpaceNDV2, Im2Col), 1-D resizing (ResizeLinear1D), triangular solves,
and the generated forms LogSoftmaxExt, LerpScalar and RandomCategorical.

Each is a thin callable over the functional ops of ``hookgrad/ops`` or the Tensor methods
(see ``_primitive.py``): the same code, graph and errors. Constructor and call arguments,
output order and dtypes follow MindSpore 2.10's Primitives.
"""
import numbers

import numpy as np

from .. import (activation as _activation, elementwise as _elementwise, folding as _folding,
                resize as _resize, sampling as _sampling, scatter_gather as _scatter,
                selection as _selection, spatial as _spatial)
from ..._dtype import (float16 as _float16, float32 as _float32, int16 as _int16,
                       int32 as _int32, int64 as _int64)
from ..._tensor import Tensor
from ..arithmetic import cast as _cast
from ..broadcasting import broadcast_to as _broadcast_to
from ..creation import assign as _assign
from ..shaping import reshape as _reshape
from ._primitive import Primitive, _flag, _float, _int

__all__ = ['InplaceUpdateV2', 'ScatterAddWithAxis', 'InplaceIndexAdd', 'IndexPut',
           'MaskedScatter', 'FillDiagonal', 'FillV2', 'BatchToSpace', 'BatchToSpaceNDV2',
           'Im2Col', 'ResizeLinear1D', 'MatrixTriangularSolve', 'LogSoftmaxExt', 'LerpScalar',
           'RandomCategorical']


def _host(value):
    """A Tensor's or a sequence's values as a NumPy array."""
    return np.asarray(value.asnumpy() if isinstance(value, Tensor) else value)


def _sizes(value, prim, what, lengths):
    """An int or a sequence of positive ints (of one of ``lengths``), as a tuple."""
    items = tuple(value) if isinstance(value, (list, tuple)) else (value,)
    if len(items) not in lengths:
        raise ValueError(f"ops.{prim}: {what} must hold {' or '.join(map(str, lengths))} "
                         f"values, got {value!r}")
    for i, item in enumerate(items):
        if isinstance(item, bool) or not isinstance(item, numbers.Integral):
            raise TypeError(f"ops.{prim}: {what} must be int or a tuple/list of ints, got "
                            f"{value!r}")
        if item <= 0 and what != 'pads' or item < 0:
            raise ValueError(f"ops.{prim}: {what}[{i}] must be int and must > "
                             f"{-1 if what == 'pads' else 0}, got {item}")
    return tuple(int(item) for item in items)


# ----------------------------------------------------------------------------- writes
class InplaceUpdateV2(Primitive):
    """``InplaceUpdateV2()(x, indices, v)``: x with rows ``indices`` replaced by ``v``."""
    def construct(self, x, indices, v):
        return _selection.inplace_update(x, v, indices)


class ScatterAddWithAxis(Primitive):
    """``ScatterAddWithAxis(axis=0)(input_x, indices, updates)``: input_x with each update
    added at its index along ``axis`` (the other coordinates its own)."""
    def __init__(self, axis=0):
        super().__init__(axis=_int(axis, 'ScatterAddWithAxis', 'axis'))

    def construct(self, input_x, indices, updates):
        return _scatter.tensor_scatter_elements(input_x, indices, updates, self.axis, 'add')


class InplaceIndexAdd(Primitive):
    """``InplaceIndexAdd(axis)(var, indices, updates)``: adds the slices of ``updates`` to
    var's slices ``indices`` along ``axis``, in place; returns var."""
    def __init__(self, axis):
        super().__init__(axis=_int(axis, 'InplaceIndexAdd', 'axis'))

    def construct(self, var, indices, updates):
        return _assign(var, _selection.index_add(var, indices, updates, self.axis))


class IndexPut(Primitive):
    """``IndexPut(accumulate=0)(x1, x2, indices)``: x1 with ``x2`` written (added, when
    accumulate is 1) at ``x1[indices]``, ``indices`` a tuple/list of index Tensors."""
    def __init__(self, accumulate=0):
        super().__init__(accumulate=_int(accumulate, 'IndexPut', 'accumulate'))

    def construct(self, x1, x2, indices):
        return x1.index_put(tuple(indices), x2, bool(self.accumulate))


class MaskedScatter(Primitive):
    """``MaskedScatter()(input, mask, updates)``: input with its elements where ``mask``
    holds replaced, in row-major order, by the first elements of ``updates``."""
    def construct(self, input, mask, updates):
        return input.masked_scatter(mask, updates)


class FillDiagonal(Primitive):
    """``FillDiagonal(fill_value, wrap=False)(input_x)``: input_x with its main diagonal set
    to fill_value (for tall matrices, ``wrap`` restarts it every ``ncols + 1`` rows)."""
    def __init__(self, fill_value, wrap=False):
        super().__init__(fill_value=_float(fill_value, 'FillDiagonal', 'fill_value'),
                         wrap=_flag(wrap, 'FillDiagonal', 'wrap'))

    def construct(self, input_x):
        return input_x.fill_diagonal(self.fill_value, self.wrap)


class FillV2(Primitive):
    """``FillV2()(shape, value)``: a Tensor of ``shape`` filled with the 0-d Tensor
    ``value``, of value's dtype."""
    def construct(self, shape, value):
        dims = tuple(int(d) for d in _host(shape).reshape(-1))
        if not isinstance(value, Tensor) or value.size != 1:
            raise ValueError(f"ops.FillV2: value must be a Tensor of one element, got "
                             f"{value!r}")
        return _broadcast_to(_reshape(value, ()), dims)


# ----------------------------------------------------------------------------- blocks
class BatchToSpace(Primitive):
    """``BatchToSpace(block_size, crops)(x)``: ``batch_to_space_nd`` with the block
    ``(block_size, block_size)``: batch blocks moved into height and width, then cropped."""
    def __init__(self, block_size, crops):
        block_size = _int(block_size, 'BatchToSpace', 'block_size')
        if block_size < 2:
            raise ValueError(f"ops.BatchToSpace: block_size must be >= 2, got {block_size}")
        pairs = np.asarray(crops)
        if pairs.shape != (2, 2) or pairs.dtype.kind not in 'iu' or (pairs < 0).any():
            raise ValueError(f"ops.BatchToSpace: crops must be 2 pairs of non-negative ints, "
                             f"got {crops!r}")
        super().__init__(block_size=block_size, crops=pairs.tolist())

    def construct(self, x):
        return _spatial.batch_to_space_nd(x, [self.block_size] * 2, self.crops)


class BatchToSpaceNDV2(Primitive):
    """``BatchToSpaceNDV2()(input_x, block_shape, crops)``: ``batch_to_space_nd`` with the
    block shape and crops given as Tensors."""
    def construct(self, input_x, block_shape, crops):
        return _spatial.batch_to_space_nd(input_x, _host(block_shape).tolist(),
                                          _host(crops).tolist())


class Im2Col(Primitive):
    """``Im2Col(ksizes, strides=1, dilations=1, pads=0)(x)``: the sliding blocks of an
    (N, C, H, W) image as (N, C, kh * kw, L)."""
    def __init__(self, ksizes, strides=1, dilations=1, pads=0):
        super().__init__(ksizes=_sizes(ksizes, 'Im2Col', 'ksizes', (1, 2)),
                         strides=_sizes(strides, 'Im2Col', 'strides', (1, 2)),
                         dilations=_sizes(dilations, 'Im2Col', 'dilations', (1, 2)),
                         pads=_sizes(pads, 'Im2Col', 'pads', (1, 2, 4)))

    def construct(self, x):
        pads = self.pads
        if len(pads) == 4:
            if pads[0] != pads[1] or pads[2] != pads[3]:
                raise ValueError(f"ops.Im2Col: hookgrad pads top and bottom (and left and "
                                 f"right) alike, got pads {pads}")
            pads = (pads[0], pads[2])
        pair = lambda v: v * 2 if len(v) == 1 else v    # noqa: E731
        cols = _folding.unfold(x, pair(self.ksizes), pair(self.dilations), pair(pads),
                               pair(self.strides))
        kh, kw = pair(self.ksizes)
        return _reshape(cols, (x.shape[0], x.shape[1], kh * kw, cols.shape[-1]))


# ----------------------------------------------------------------------------- resize, solve
class ResizeLinear1D(Primitive):
    """``ResizeLinear1D(coordinate_transformation_mode='align_corners')(x, size)``: linear
    resizing of the last axis of (N, C, L) to ``size``; 'align_corners' maps the end points
    onto each other, 'half_pixel' samples at pixel centers. Float16 is computed in Float32 and
    rounded once, as MindSpore's kernel does."""
    def __init__(self, coordinate_transformation_mode='align_corners'):
        if coordinate_transformation_mode not in ('align_corners', 'half_pixel'):
            raise ValueError(f"ops.ResizeLinear1D: coordinate_transformation_mode must be "
                             f"'align_corners' or 'half_pixel', got "
                             f"{coordinate_transformation_mode!r}")
        super().__init__(coordinate_transformation_mode=coordinate_transformation_mode)

    def construct(self, x, size):
        length = int(_host(size).reshape(-1)[0])
        corners = self.coordinate_transformation_mode == 'align_corners'
        if getattr(x, 'dtype', None) == _float16:   # computed in Float32, rounded once
            out = _resize.interpolate(_cast(x, _float32), size=length, mode='linear',
                                      align_corners=corners)
            return _cast(out, _float16)
        return _resize.interpolate(x, size=length, mode='linear', align_corners=corners)


class MatrixTriangularSolve(Primitive):
    """``MatrixTriangularSolve(lower=True, adjoint=False)(matrix, rhs)``: X with
    ``matrix @ X = rhs`` (``matrix^H`` with adjoint), matrix lower (or upper) triangular."""
    def __init__(self, lower=True, adjoint=False):
        super().__init__(lower=_flag(lower, 'MatrixTriangularSolve', 'lower'),
                         adjoint=_flag(adjoint, 'MatrixTriangularSolve', 'adjoint'))

    def construct(self, matrix, rhs):
        if self.adjoint and matrix.is_complex():
            matrix = matrix.conj()      # the adjoint: the conjugate of the transpose
        return rhs.triangular_solve(matrix, not self.lower, self.adjoint)[0]


# ----------------------------------------------------------------------------- generated forms
class LogSoftmaxExt(Primitive):
    """``LogSoftmaxExt()(input, dim=None, dtype=None)``: ``x - logsumexp(x)`` along ``dim``
    (the last when None), computed in ``dtype`` when given."""
    def construct(self, input, dim=None, dtype=None):
        x = input if dtype is None else _cast(input, dtype)
        return _activation.log_softmax(x, -1 if dim is None else dim)


class LerpScalar(Primitive):
    """``LerpScalar()(input, end, weight)``: ``input + weight * (end - input)``, weight a
    number."""
    def construct(self, input, end, weight):
        return _elementwise.lerp(input, end, weight)


class RandomCategorical(Primitive):
    """``RandomCategorical(dtype=mstype.int64)(logits, num_sample, seed=0)``: ``num_sample``
    class indices per row of (batch, classes) logits, drawn from their softmax."""
    def __init__(self, dtype=_int64):
        if dtype not in (_int16, _int32, _int64):
            raise TypeError(f"ops.RandomCategorical: dtype must be Int16, Int32 or Int64, got "
                            f"{dtype}")
        super().__init__(dtype=dtype)

    def construct(self, logits, num_sample, seed=0):
        return _sampling.random_categorical(logits, num_sample, seed, self.dtype)
