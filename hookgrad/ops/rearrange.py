"""More shape ops, composed from reshape, transpose, flip, slicing and take: roll,
repeat_interleave, meshgrid, swapaxes/moveaxis, unbind/unstack, narrow, slice,
strided_slice, fliplr/flipud/rot90/reverse, t, ravel, expand/expand_as/view_as, atleast_*d,
the stack variants (hstack, vstack, dstack, column_stack) and the split variants
(tensor_split, hsplit...).

Only ``Roll`` is a primitive of its own; everything else takes its gradient from the ops it
applies.
"""
import builtins
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op, value_read
from ._base import as_tensor, check_size
from .broadcasting import broadcast_to
from .indexing import GetItem, take
from .inspection import tensor_arg
from .shaping import _axis, _int_tuple, _split as _pieces, concat, flip, reshape, transpose


_slice = builtins.slice     # the module defines ops.slice


class Roll(Op):
    """y = x shifted cyclically by ``shifts`` along ``dims`` (np.roll); the gradient rolls
    back by the opposite shifts."""
    @staticmethod
    def forward(ctx, x, shifts, dims):
        ctx.shifts, ctx.dims = shifts, dims
        return np.roll(x, shifts, dims)

    @staticmethod
    def backward(ctx, gy):
        back = tuple(-s for s in ctx.shifts) if ctx.dims is not None else -ctx.shifts[0]
        if isinstance(gy, Tensor):
            return Roll.apply(gy, shifts=back if isinstance(back, tuple) else (back,),
                              dims=ctx.dims)
        return np.roll(gy, back, ctx.dims)


def _int(value, name, what):
    if isinstance(value, Tensor) and value.size == 1 and value._data.dtype.kind in 'iu':
        value_read(value)
        value = value._data.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{name}: {what} must be an int, got {value!r}")
    return int(value)


# ------------------------------------------------------------------------------ roll, repeat
def roll(input, shifts, dims=None):
    """``input`` shifted cyclically by ``shifts`` along ``dims`` (the flattened input when
    None); elements leaving one end come back at the other.

    Raises:
        ValueError: when shifts and dims differ in length or a dim is out of range.
    """
    x = as_tensor(input)
    shifts = _int_tuple(shifts, 'roll', 'shifts')
    if dims is None:
        if len(shifts) != 1:
            raise ValueError(f"ops.roll: without dims, shifts must be one int, got {shifts}")
        return Roll.apply(x, shifts=shifts, dims=None)
    dims = _int_tuple(dims, 'roll', 'dims')
    if len(dims) != len(shifts):
        raise ValueError(f"ops.roll: shifts {shifts} and dims {dims} differ in length")
    dims = tuple(_axis(d, max(x.ndim, 1), 'roll') for d in dims)
    return Roll.apply(x, shifts=shifts, dims=dims)


def repeat_interleave(input, repeats, axis=None):
    """Each element (or slice along ``axis``) repeated ``repeats`` times in place:
    ``[1, 2] -> [1, 1, 2, 2]``. ``repeats`` is an int or one count per slice (a sequence or
    1-d Tensor); with ``axis`` None the input is flattened first.

    Raises:
        ValueError: for negative counts or a count list of the wrong length.
    """
    x = as_tensor(input)
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = _axis(axis, max(x.ndim, 1), 'repeat_interleave')
    if x.ndim == 0:
        x = reshape(x, (1,))
    n = x.shape[axis]
    counts = _int_tuple(repeats, 'repeat_interleave', 'repeats')
    if len(counts) == 1:
        counts = counts * n
    if len(counts) != n or any(c < 0 for c in counts):
        raise ValueError(f"ops.repeat_interleave: repeats {list(counts)} must be non-negative, "
                         f"one per slice ({n}) or one int")
    check_size('repeat_interleave', x.shape[:axis] + (sum(counts),) + x.shape[axis + 1:],
               x._data.itemsize)
    index = np.repeat(np.arange(n), counts)     # uploaded to x's device by take
    return take(x, index, axis)


def repeat_elements(x, rep, axis=0):
    """Each slice of ``x`` along ``axis`` repeated ``rep`` times in place."""
    rep = _int(rep, 'repeat_elements', 'rep')
    return repeat_interleave(x, rep, axis)


def meshgrid(*inputs, indexing='xy'):
    """Coordinate grids from 1-d tensors: one tensor per input, each of the shape
    ``(len(inputs[1]), len(inputs[0]), ...)`` ('xy') or ``(len(inputs[0]), ...)`` ('ij').

    Raises:
        ValueError: for another indexing, or an input that is not 1-d.
    """
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    if indexing not in ('xy', 'ij'):
        raise ValueError(f"ops.meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    xs = [as_tensor(t, 'inputs') for t in inputs]
    for t in xs:
        if t.ndim != 1:
            raise ValueError(f"ops.meshgrid: inputs must be 1-d, got shape {t.shape}")
    shape = [t.shape[0] for t in xs]
    if indexing == 'xy' and len(xs) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for k, t in enumerate(xs):
        place = k if indexing == 'ij' or len(xs) < 2 else (1 - k if k < 2 else k)
        view = [1] * len(xs)
        view[place] = t.shape[0]
        out.append(broadcast_to(reshape(t, tuple(view)), tuple(shape)))
    return tuple(out)


# ------------------------------------------------------------------------------ axes
def swapaxes(input, axis0, axis1):
    """``input`` with axes ``axis0`` and ``axis1`` exchanged; a bool axis counts as 0 or 1, as
    in MindSpore."""
    x = as_tensor(input)
    n = max(x.ndim, 1)
    a, b = (_axis(int(v) if isinstance(v, bool) else v, n, 'swapaxes') for v in (axis0, axis1))
    perm = list(range(x.ndim))
    if x.ndim:
        perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, tuple(perm))


def swapdims(input, dim0, dim1):
    """``input`` with dimensions ``dim0`` and ``dim1`` exchanged."""
    return swapaxes(input, dim0, dim1)


def moveaxis(x, source, destination):
    """``x`` with the axes ``source`` moved to positions ``destination`` (ints or tuples),
    the other axes keeping their order.

    Raises:
        ValueError: when source and destination differ in length or repeat an axis.
    """
    t = as_tensor(x, 'x')
    n = max(t.ndim, 1)
    src = [_axis(a, n, 'moveaxis') for a in _int_tuple(source, 'moveaxis', 'source')]
    dst = [_axis(a, n, 'moveaxis') for a in _int_tuple(destination, 'moveaxis', 'destination')]
    if len(src) != len(dst) or len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"ops.moveaxis: source {source!r} and destination {destination!r} "
                         f"must be distinct axes of one length")
    order = [a for a in range(t.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(t, tuple(order))


movedim = moveaxis


def unbind(input, dim=0):
    """The slices of ``input`` along ``dim``, as a tuple of Tensors one rank lower."""
    x = as_tensor(input)
    if x.ndim == 0:
        raise ValueError("ops.unbind: cannot unbind a 0-d tensor")
    d = _axis(dim, x.ndim, 'unbind')
    if x.shape[d] == 0:
        return ()
    return _pieces(x, d, (1,) * x.shape[d], squeeze=True)


def unstack(input_x, axis=0):
    """The slices of ``input_x`` along ``axis``, as a tuple (ops.unbind)."""
    return unbind(input_x, axis)


# ------------------------------------------------------------------------------ slicing
def narrow(input, axis, start, length):
    """``length`` elements of ``input`` along ``axis`` from ``start`` (a view-like slice).

    Raises:
        ValueError: when start or length leave the axis.
    """
    x = as_tensor(input)
    ax = _axis(axis, max(x.ndim, 1), 'narrow')
    start, length = _int(start, 'narrow', 'start'), _int(length, 'narrow', 'length')
    n = x.shape[ax]
    if not -n <= start <= n:
        raise ValueError(f"ops.narrow: start {start} is out of range for axis {ax} of size {n}")
    if start < 0:
        start += n
    if not 0 <= length <= n - start:
        raise ValueError(f"ops.narrow: length {length} from start {start} exceeds axis {ax} of "
                         f"size {n}")
    return GetItem.apply(x, key=(_slice(None),) * ax + (_slice(start, start + length),))


def slice(input_x, begin, size):
    """The block of ``input_x`` starting at ``begin`` with extents ``size`` (-1: to the end).

    Raises:
        ValueError: when begin or size do not fit the shape.
    """
    x = as_tensor(input_x, 'input_x')
    begin = _int_tuple(begin, 'slice', 'begin')
    size = _int_tuple(size, 'slice', 'size')
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError(f"ops.slice: begin {begin} and size {size} must have one entry per "
                         f"dimension of shape {x.shape}")
    key = []
    for b, s, n in zip(begin, size, x.shape):
        end = n if s == -1 else b + s
        if not 0 <= b <= n or s < -1 or end > n:
            raise ValueError(f"ops.slice: begin {begin} and size {size} do not fit shape "
                             f"{x.shape}")
        key.append(_slice(b, end))
    return GetItem.apply(x, key=tuple(key))


def _bits(mask):
    return [bool(mask >> k & 1) for k in range(64)]


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """``input_x[begin:end:strides]`` per dimension, with TensorFlow's masks: bit i of
    ``begin_mask`` / ``end_mask`` ignores begin[i] / end[i], of ``ellipsis_mask`` makes entry
    i an ellipsis, of ``new_axis_mask`` inserts a new axis, of ``shrink_axis_mask`` takes
    index begin[i] and drops the axis.

    Raises:
        ValueError: when begin, end and strides differ in length, or a stride is 0.
    """
    x = as_tensor(input_x, 'input_x')
    begin = _int_tuple(begin, 'strided_slice', 'begin')
    end = _int_tuple(end, 'strided_slice', 'end')
    strides = _int_tuple(strides, 'strided_slice', 'strides')
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"ops.strided_slice: begin {begin}, end {end} and strides {strides} "
                         f"must have one length")
    if 0 in strides:
        raise ValueError(f"ops.strided_slice: strides {strides} must not contain 0")
    masks = [_bits(int(m)) for m in (begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                                     shrink_axis_mask)]
    bmask, emask, ellipsis, new_axis, shrink = masks
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        if ellipsis[i]:
            key.append(Ellipsis)
        elif new_axis[i]:
            key.append(None)
        elif shrink[i]:
            key.append(b)
        else:
            key.append(_slice(None if bmask[i] else b, None if emask[i] else e, s))
    try:
        return GetItem.apply(x, key=tuple(key))
    except IndexError as err:
        raise IndexError(f"ops.strided_slice: begin {begin} does not fit shape {x.shape}: "
                         f"{err}") from None


# ------------------------------------------------------------------------------ flips, views
def fliplr(input):
    """``input`` reversed along axis 1 (rank >= 2)."""
    x = as_tensor(input)
    if x.ndim < 2:
        raise ValueError(f"ops.fliplr: input must have rank >= 2, got shape {x.shape}")
    return flip(x, 1)


def flipud(input):
    """``input`` reversed along axis 0 (rank >= 1)."""
    x = as_tensor(input)
    if x.ndim < 1:
        raise ValueError("ops.flipud: input must have rank >= 1, got shape ()")
    return flip(x, 0)


def rot90(input, k, dims):
    """``input`` rotated by 90 degrees ``k`` times in the plane of ``dims``, from the first
    axis towards the second.

    Raises:
        ValueError: for dims that are not two distinct axes.
    """
    x = as_tensor(input)
    k = _int(k, 'rot90', 'k') % 4
    dims = _int_tuple(dims, 'rot90', 'dims')
    if len(dims) != 2:
        raise ValueError(f"ops.rot90: dims must be two axes, got {dims}")
    a, b = (_axis(d, max(x.ndim, 1), 'rot90') for d in dims)
    if a == b:
        raise ValueError(f"ops.rot90: dims {dims} must be two distinct axes")
    if k == 0:
        return x
    if k == 2:
        return flip(x, (a, b))
    if k == 1:
        return swapaxes(flip(x, b), a, b)
    return flip(swapaxes(x, a, b), b)


def reverse(x, axis):
    """``x`` reversed along the axes ``axis`` (``ops.flip``)."""
    return flip(x, tuple(axis) if isinstance(axis, (tuple, list)) else axis)


def t(input):
    """The transpose of a 2-d tensor (a 0-d or 1-d one is returned as it is).

    Raises:
        ValueError: for rank above 2.
    """
    x = tensor_arg(input, 't')
    if x.ndim > 2:
        raise ValueError(f"ops.t: input must have rank <= 2, got shape {x.shape}")
    return transpose(x, (1, 0)) if x.ndim == 2 else x


def ravel(input):
    """``input`` flattened to 1-d."""
    return reshape(tensor_arg(input, 'ravel'), (-1,))


def expand(input_x, size):
    """``input_x`` broadcast to ``size`` (a tuple or 1-d Tensor; -1 keeps a dimension)."""
    return broadcast_to(input_x, _int_tuple(size, 'expand', 'size'))


def expand_as(input, other):
    """``input`` broadcast to the shape of ``other``."""
    return broadcast_to(input, as_tensor(other, 'other').shape)


def view_as(input, other):
    """``input`` reshaped to the shape of ``other``."""
    return reshape(input, as_tensor(other, 'other').shape)


def _atleast(inputs, rank, place):
    def one(t):
        x = as_tensor(t, 'inputs')
        if x.ndim >= rank:
            return x
        return reshape(x, place(x.shape))
    if isinstance(inputs, (tuple, list)):
        return tuple(one(t) for t in inputs)
    return one(inputs)


def atleast_1d(inputs):
    """A tensor (or each of a tuple or list) viewed with at least one dimension."""
    return _atleast(inputs, 1, lambda s: (1,))


def atleast_2d(inputs):
    """A tensor (or each of a tuple or list) viewed with at least two dimensions."""
    return _atleast(inputs, 2, lambda s: (1,) * (2 - len(s)) + s)


def atleast_3d(inputs):
    """At least three dimensions: a 1-d (N,) becomes (1, N, 1), a 2-d (M, N) (M, N, 1)."""
    return _atleast(inputs, 3, lambda s: (1, 1, 1) if not s else (1, s[0], 1) if len(s) == 1
                    else s + (1,))


# ------------------------------------------------------------------------------ stacks, splits
def _sequence(tensors, name):
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError(f"ops.{name}: expected a non-empty tuple or list of Tensors, got "
                        f"{tensors!r}")
    return [as_tensor(t, 'tensors') for t in tensors]


def hstack(tensors):
    """The tensors joined along axis 1 (axis 0 for 1-d tensors)."""
    xs = _sequence(tensors, 'hstack')
    xs = list(atleast_1d(xs))
    return concat(xs, 0 if xs[0].ndim == 1 else 1)


def vstack(inputs):
    """The tensors joined along axis 0, 1-d ones as rows."""
    return concat(list(atleast_2d(_sequence(inputs, 'vstack'))), 0)


row_stack = vstack


def dstack(tensors):
    """The tensors joined along axis 2, after viewing each with at least 3 dimensions."""
    return concat(list(atleast_3d(_sequence(tensors, 'dstack'))), 2)


def column_stack(tensors):
    """1-d tensors as columns (and 2-d ones as they are), joined along axis 1."""
    xs = [reshape(x, (-1, 1)) if x.ndim < 2 else x for x in _sequence(tensors, 'column_stack')]
    return concat(xs, 1)


def tensor_split(input, indices_or_sections, axis=0):
    """``input`` cut along ``axis``: an int n gives n pieces (the first ``size % n`` one
    longer); a sequence gives the cut positions (pieces may be empty).

    Raises:
        ValueError: for a non-positive number of sections.
    """
    x = as_tensor(input)
    if x.ndim == 0:
        raise ValueError("ops.tensor_split: cannot split a 0-d tensor")
    ax = _axis(axis, x.ndim, 'tensor_split')
    n = x.shape[ax]
    if isinstance(indices_or_sections, numbers.Integral) and \
            not isinstance(indices_or_sections, bool):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"ops.tensor_split: sections must be positive, got {sections}")
        q, r = divmod(n, sections)
        sizes = [q + 1] * r + [q] * (sections - r)
    else:
        cuts = [min(max(c if c >= 0 else c + n, 0), n)
                for c in _int_tuple(indices_or_sections, 'tensor_split', 'indices_or_sections')]
        bounds = [0] + cuts + [n]
        sizes = [max(b - a, 0) for a, b in zip(bounds, bounds[1:])]
        starts = bounds[:-1]
        lead = (_slice(None),) * ax
        return tuple(GetItem.apply(x, key=lead + (_slice(s, s + size),))
                     for s, size in zip(starts, sizes))
    return _pieces(x, ax, sizes)


def _split_along(input, indices_or_sections, axis, rank, name):
    x = as_tensor(input)
    if x.ndim < rank:
        raise ValueError(f"ops.{name}: input must have rank >= {rank}, got shape {x.shape}")
    if isinstance(indices_or_sections, bool) or not isinstance(
            indices_or_sections, (numbers.Integral, tuple, list)):
        raise TypeError(f"ops.{name}: indices_or_sections must be an int, tuple(int) or "
                        f"list(int), got {type(indices_or_sections).__name__}")
    return tensor_split(x, indices_or_sections, axis)


def hsplit(input, indices_or_sections):
    """``tensor_split`` along axis 1 (rank >= 2): an int n need not divide the axis, the
    first ``size % n`` pieces are one longer, as in MindSpore."""
    return _split_along(input, indices_or_sections, 1, 2, 'hsplit')


def vsplit(input, indices_or_sections):
    """``tensor_split`` along axis 0 (rank >= 1, as in MindSpore); an int n need not divide
    the axis."""
    return _split_along(input, indices_or_sections, 0, 1, 'vsplit')


def dsplit(input, indices_or_sections):
    """``tensor_split`` along axis 2 (rank >= 3); an int n need not divide the axis."""
    return _split_along(input, indices_or_sections, 2, 3, 'dsplit')

