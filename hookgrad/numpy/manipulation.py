"""Array manipulation of ``mindspore.numpy``: shapes and axes, joining and splitting, tiling
and repeating, flipping and rolling, broadcasting.

Every function is built from differentiable ops (reshape, transpose, concat, indexing), so
gradients flow back to the inputs.
"""
import numpy as np

from .. import ops
from .._tensor import Tensor
from ._args import axis_of, fail, integer, promoted, sequence, shape_of, to_tensor, values


# ----------------------------------------------------------------------------- shape and axes
def reshape(x, new_shape):
    """``x`` with shape ``new_shape`` (one entry may be -1: inferred).

    >>> import hookgrad.numpy as mnp
    >>> mnp.reshape(mnp.arange(6), (2, -1)).shape
    (2, 3)
    """
    x = to_tensor(x, 'reshape')
    if isinstance(new_shape, (int, np.integer)):
        new_shape = (new_shape,)
    if not isinstance(new_shape, (tuple, list)) or not all(
            isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in new_shape):
        raise fail('reshape', f"new_shape must be an int or a tuple of ints, got {new_shape!r}",
                   TypeError)
    try:
        np.empty(x.shape, dtype=np.bool_).reshape(new_shape)
    except ValueError:
        raise fail('reshape', f"cannot reshape an array of shape {x.shape} (size {x.size}) "
                              f"into shape {tuple(new_shape)}") from None
    return ops.reshape(x, tuple(int(n) for n in new_shape))


def ravel(x):
    """``x`` flattened to 1-d."""
    return ops.reshape(to_tensor(x, 'ravel'), (-1,))


def transpose(a, axes=None):
    """``a`` with its axes permuted by ``axes`` (reversed when None)."""
    x = to_tensor(a, 'transpose')
    if axes is None:
        return ops.transpose(x, tuple(range(x.ndim - 1, -1, -1)))
    axes = tuple(axis_of(i, x.ndim, 'transpose') for i in axes)
    if sorted(axes) != list(range(x.ndim)):
        raise fail('transpose', f"axes {axes} are not a permutation of the {x.ndim} axes")
    return ops.transpose(x, axes)


def swapaxes(x, axis1, axis2):
    """``x`` with axes ``axis1`` and ``axis2`` interchanged."""
    x = to_tensor(x, 'swapaxes')
    perm = list(range(x.ndim))
    a = axis_of(axis1, x.ndim, 'swapaxes', 'axis1')
    b = axis_of(axis2, x.ndim, 'swapaxes', 'axis2')
    perm[a], perm[b] = perm[b], perm[a]
    return ops.transpose(x, tuple(perm))


def moveaxis(a, source, destination):
    """``a`` with the axes ``source`` moved to positions ``destination`` (ints or tuples of
    ints), the other axes keeping their order."""
    x = to_tensor(a, 'moveaxis')
    src = (source,) if isinstance(source, (int, np.integer)) else tuple(source)
    dst = (destination,) if isinstance(destination, (int, np.integer)) else tuple(destination)
    if len(src) != len(dst):
        raise fail('moveaxis', f"source {source!r} and destination {destination!r} must have "
                               f"the same number of elements")
    src = [axis_of(i, x.ndim, 'moveaxis', 'source') for i in src]
    dst = [axis_of(i, x.ndim, 'moveaxis', 'destination') for i in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise fail('moveaxis', "repeated axis in source or destination")
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return ops.transpose(x, tuple(order))


def rollaxis(x, axis, start=0):
    """``x`` with ``axis`` moved to lie before position ``start``."""
    x = to_tensor(x, 'rollaxis')
    axis = axis_of(axis, x.ndim, 'rollaxis')
    start = integer(start, 'rollaxis', 'start')
    if not -x.ndim <= start <= x.ndim:
        raise fail('rollaxis', f"start {start} must be in [{-x.ndim}, {x.ndim}]")
    start %= x.ndim + 1
    if start > axis:
        start -= 1
    return moveaxis(x, axis, start)


def expand_dims(a, axis):
    """``a`` with new axes of length 1 at positions ``axis`` (an int or a tuple)."""
    x = to_tensor(a, 'expand_dims')
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    ndim = x.ndim + len(axes)
    axes = sorted(axis_of(i, ndim, 'expand_dims') for i in axes)
    if len(set(axes)) != len(axes):
        raise fail('expand_dims', f"repeated axis in {axis!r}")
    shape = list(x.shape)
    for i in axes:
        shape.insert(i, 1)
    return ops.reshape(x, tuple(shape))


def squeeze(a, axis=None):
    """``a`` without its axes of length 1 (only ``axis`` when given).

    Raises:
        ValueError: when a given axis does not have length 1.
    """
    x = to_tensor(a, 'squeeze')
    if axis is None:
        return ops.reshape(x, tuple(n for n in x.shape if n != 1))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    axes = {axis_of(i, x.ndim, 'squeeze') for i in axes}
    for i in axes:
        if x.shape[i] != 1:
            raise fail('squeeze', f"cannot select an axis to squeeze out which has size not "
                                  f"equal to one (axis {i} of shape {x.shape})")
    return ops.reshape(x, tuple(n for i, n in enumerate(x.shape) if i not in axes))


def atleast_1d(*arys):
    """Each input with at least 1 dimension (a list when several are given)."""
    return _at_least(arys, 1, lambda s: (1,) + s, 'atleast_1d')


def atleast_2d(*arys):
    """Each input with at least 2 dimensions (1-d ``(n,)`` becomes ``(1, n)``)."""
    return _at_least(arys, 2, lambda s: (1,) * (2 - len(s)) + s, 'atleast_2d')


def atleast_3d(*arys):
    """Each input with at least 3 dimensions (``(n,)`` becomes ``(1, n, 1)``, ``(m, n)``
    becomes ``(m, n, 1)``)."""
    def shape3(s):
        return (1, 1, 1) if not s else (1,) + s + (1,) if len(s) == 1 else s + (1,)
    return _at_least(arys, 3, shape3, 'atleast_3d')


def _at_least(arys, n, widen, name):
    out = []
    for a in arys:
        x = to_tensor(a, name)
        out.append(x if x.ndim >= n else ops.reshape(x, widen(x.shape)))
    return out[0] if len(out) == 1 else out


def size(a, axis=None):
    """The number of elements of ``a`` (along ``axis`` when given), a Python int."""
    x = to_tensor(a, 'size')
    if axis is None:
        return x.size
    return x.shape[axis_of(axis, x.ndim, 'size')]


def broadcast_to(array, shape):
    """``array`` broadcast to ``shape`` (the gradient sums back)."""
    x = to_tensor(array, 'broadcast_to')
    shape = shape_of(shape, 'broadcast_to')
    try:
        if np.broadcast_shapes(x.shape, shape) != shape:
            raise ValueError
    except ValueError:
        raise fail('broadcast_to', f"cannot broadcast an array of shape {x.shape} to "
                                   f"{shape}") from None
    return ops.broadcast_to(x, shape) if x.shape != shape else ops.identity(x)


def broadcast_arrays(*args):
    """The inputs broadcast against each other, as a list."""
    xs = [to_tensor(a, 'broadcast_arrays') for a in args]
    try:
        shape = np.broadcast_shapes(*[x.shape for x in xs])
    except ValueError:
        raise fail('broadcast_arrays', f"shapes {[x.shape for x in xs]} cannot be broadcast "
                                       f"together") from None
    return [broadcast_to(x, shape) for x in xs]


# ----------------------------------------------------------------------------- joining
def concatenate(arrays, axis=0):
    """The arrays joined along ``axis`` (flattened first when ``axis`` is None); mixed dtypes
    are promoted."""
    xs = promoted(sequence(arrays, 'concatenate'))
    if axis is None:
        return ops.concat([ops.reshape(x, (-1,)) for x in xs], 0)
    ndim = xs[0].ndim
    if ndim == 0:
        raise fail('concatenate', "zero-dimensional arrays cannot be concatenated")
    axis = axis_of(axis, ndim, 'concatenate')
    for x in xs:
        if x.ndim != ndim:
            raise fail('concatenate', f"all the input arrays must have the same number of "
                                      f"dimensions, got {xs[0].shape} and {x.shape}")
        if x.shape[:axis] + x.shape[axis + 1:] != xs[0].shape[:axis] + xs[0].shape[axis + 1:]:
            raise fail('concatenate', f"shapes {xs[0].shape} and {x.shape} differ outside "
                                      f"axis {axis}")
    return ops.concat(xs, axis)


def append(arr, values, axis=None):
    """``values`` appended to ``arr`` along ``axis`` (both flattened when None)."""
    return concatenate([arr, values], axis)


def stack(arrays, axis=0):
    """The arrays (all of one shape) joined along a new axis ``axis``."""
    xs = promoted(sequence(arrays, 'stack'))
    for x in xs:
        if x.shape != xs[0].shape:
            raise fail('stack', f"all input arrays must have the same shape, got "
                                f"{xs[0].shape} and {x.shape}")
    return ops.stack(xs, axis_of(axis, xs[0].ndim + 1, 'stack'))


def hstack(tup):
    """The arrays joined column-wise (along axis 1; 1-d arrays end to end)."""
    xs = [atleast_1d(x) for x in sequence(tup, 'hstack')]
    return concatenate(xs, 0 if xs[0].ndim == 1 else 1)


def vstack(tup):
    """The arrays joined row-wise (along axis 0; 1-d arrays become rows)."""
    xs = [atleast_2d(x) for x in sequence(tup, 'vstack')]
    return concatenate(xs, 0)


def dstack(tup):
    """The arrays joined depth-wise (along axis 2, after ``atleast_3d``)."""
    return concatenate([atleast_3d(x) for x in sequence(tup, 'dstack')], 2)


def column_stack(tup):
    """1-d arrays as the columns of a 2-d array (2-d arrays are joined as they are)."""
    xs = []
    for x in sequence(tup, 'column_stack'):
        xs.append(ops.reshape(x, (-1, 1)) if x.ndim < 2 else x)
    return concatenate(xs, 1)


# ----------------------------------------------------------------------------- splitting
def _bounds(n, indices_or_sections, exact, name):
    """The (start, stop) of each piece of an axis of length ``n``."""
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(
            indices_or_sections, bool):
        k = int(indices_or_sections)
        if k <= 0:
            raise fail(name, f"number of sections must be larger than 0, got {k}")
        if exact and n % k:
            raise fail(name, f"array split does not result in an equal division: an axis of "
                             f"length {n} into {k} sections")
        sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
        stops = np.cumsum(sizes).tolist()
        return list(zip([0] + stops[:-1], stops))
    if isinstance(indices_or_sections, (tuple, list)) and all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool)
            for i in indices_or_sections):
        cuts = [0] + [int(i) for i in indices_or_sections] + [n]
        cuts = [max(0, min(n, c if c >= 0 else c + n)) for c in cuts]
        return [(a, max(a, b)) for a, b in zip(cuts[:-1], cuts[1:])]
    raise fail(name, f"indices_or_sections must be an int or a list or tuple of ints, got "
                     f"{indices_or_sections!r}", TypeError)


def _split(x, indices_or_sections, axis, exact, name):
    x = to_tensor(x, name)
    if x.ndim == 0:
        raise fail(name, "cannot split a 0-d array")
    axis = axis_of(axis, x.ndim, name)
    key = [slice(None)] * x.ndim
    out = []
    for start, stop in _bounds(x.shape[axis], indices_or_sections, exact, name):
        key[axis] = slice(start, stop)
        out.append(ops.getitem(x, tuple(key)))
    return out


def split(x, indices_or_sections, axis=0):
    """``x`` split along ``axis`` into equal sections (an int) or at the given indices.

    Raises:
        ValueError: when an int does not divide the axis evenly.
    """
    return _split(x, indices_or_sections, axis, True, 'split')


def array_split(x, indices_or_sections, axis=0):
    """``split`` that allows unequal sections (the first ones one longer)."""
    return _split(x, indices_or_sections, axis, False, 'array_split')


def _split_at_least(x, n, indices_or_sections, axis, name):
    t = to_tensor(x, name)
    if t.ndim < n:
        raise fail(name, f"only works on arrays of {n} or more dimensions, got {t.ndim}-d")
    return _split(t, indices_or_sections, axis, True, name)


def hsplit(x, indices_or_sections):
    """``split`` along axis 1 (axis 0 for 1-d arrays)."""
    t = to_tensor(x, 'hsplit')
    return _split_at_least(t, 1, indices_or_sections, 1 if t.ndim > 1 else 0, 'hsplit')


def vsplit(x, indices_or_sections):
    """``split`` along axis 0 of an array of at least 2 dimensions."""
    return _split_at_least(x, 2, indices_or_sections, 0, 'vsplit')


def dsplit(x, indices_or_sections):
    """``split`` along axis 2 of an array of at least 3 dimensions."""
    return _split_at_least(x, 3, indices_or_sections, 2, 'dsplit')


# ----------------------------------------------------------------------------- rearranging
def tile(a, reps):
    """``a`` repeated ``reps`` times along each axis."""
    x = to_tensor(a, 'tile')
    reps = shape_of(reps, 'tile')
    ndim = max(x.ndim, len(reps))
    x = ops.reshape(x, (1,) * (ndim - x.ndim) + x.shape)
    return ops.tile(x, (1,) * (ndim - len(reps)) + reps)


def repeat(a, repeats, axis=None):
    """Each element of ``a`` repeated ``repeats`` times (an int or one count per element)
    along ``axis`` (of the flattened ``a`` when None)."""
    x = to_tensor(a, 'repeat')
    if axis is None:
        x, axis = ops.reshape(x, (-1,)), 0
    elif x.ndim == 0:
        x = ops.reshape(x, (1,))
    axis = axis_of(axis, x.ndim, 'repeat')
    n = x.shape[axis]
    counts = np.asarray(values(repeats) if isinstance(repeats, Tensor) else repeats)
    if counts.dtype.kind not in 'iu' or counts.ndim > 1:
        raise fail('repeat', f"repeats must be an int or a 1-d sequence of ints, got "
                             f"{repeats!r}", TypeError)
    if (counts < 0).any():
        raise fail('repeat', "repeats may not contain negative values")
    if counts.ndim == 1 and counts.size not in (1, n):
        raise fail('repeat', f"{counts.size} repeats for an axis of length {n}")
    positions = np.repeat(np.arange(n), counts.reshape(-1) if counts.ndim else counts)
    return ops.getitem(x, (slice(None),) * axis + (positions,))


def flip(m, axis=None):
    """``m`` with the order of elements reversed along ``axis`` (all axes when None)."""
    x = to_tensor(m, 'flip')
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
        axes = tuple(axis_of(i, x.ndim, 'flip') for i in axes)
    return ops.flip(x, axes) if axes else ops.identity(x)


def fliplr(m):
    """``m`` flipped left to right (axis 1)."""
    x = to_tensor(m, 'fliplr')
    if x.ndim < 2:
        raise fail('fliplr', f"input must be at least 2-d, got {x.ndim}-d")
    return flip(x, 1)


def flipud(m):
    """``m`` flipped up to down (axis 0)."""
    x = to_tensor(m, 'flipud')
    if x.ndim < 1:
        raise fail('flipud', "input must be at least 1-d")
    return flip(x, 0)


def rot90(a, k=1, axes=(0, 1)):
    """``a`` rotated by 90 degrees ``k`` times in the plane of ``axes``, from the first axis
    towards the second."""
    x = to_tensor(a, 'rot90')
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise fail('rot90', f"k must be an int, got {k!r}", TypeError)
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise fail('rot90', f"axes must be a pair of axes, got {axes!r}")
    a1, a2 = (axis_of(i, x.ndim, 'rot90') for i in axes)
    if a1 == a2:
        raise fail('rot90', f"axes must be different, got {tuple(axes)}")
    k %= 4
    if k == 0:
        return ops.identity(x)
    if k == 2:
        return ops.flip(x, (a1, a2))
    perm = list(range(x.ndim))
    perm[a1], perm[a2] = perm[a2], perm[a1]
    return ops.flip(ops.transpose(x, tuple(perm)), (a1 if k == 1 else a2,))


def roll(a, shift, axis=None):
    """``a`` with its elements shifted by ``shift`` along ``axis`` (of the flattened ``a``
    when None), wrapping around; ``shift`` and ``axis`` may be tuples."""
    x = to_tensor(a, 'roll')
    if axis is None:
        return ops.reshape(roll(ops.reshape(x, (-1,)), shift, 0), x.shape)
    shifts = (shift,) if isinstance(shift, (int, np.integer)) else tuple(shift)
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise fail('roll', f"shift {shift!r} and axis {axis!r} must have the same length")
    total = {}
    for s, ax in zip(shifts, axes):
        ax = axis_of(ax, x.ndim, 'roll')
        total[ax] = total.get(ax, 0) + integer(s, 'roll', 'shift')
    key = [slice(None)] * x.ndim
    for ax, s in total.items():
        n = x.shape[ax]
        key[ax] = (np.arange(n) - s) % n if n else slice(None)
    out = x
    for ax, pos in enumerate(key):      # one axis at a time: index arrays would broadcast
        if not isinstance(pos, slice):
            out = ops.getitem(out, (slice(None),) * ax + (pos,))
    return out


__all__ = ['reshape', 'ravel', 'transpose', 'swapaxes', 'moveaxis', 'rollaxis', 'expand_dims',
           'squeeze', 'atleast_1d', 'atleast_2d', 'atleast_3d', 'size', 'broadcast_to',
           'broadcast_arrays', 'concatenate', 'append', 'stack', 'hstack', 'vstack', 'dstack',
           'column_stack', 'split', 'array_split', 'hsplit', 'vsplit', 'dsplit', 'tile', 'repeat',
           'flip', 'fliplr', 'flipud', 'rot90', 'roll']
