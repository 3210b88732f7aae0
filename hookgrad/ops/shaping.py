"""Shape ops: reshape (which also serves squeeze, expand_dims and flatten), transpose, tile,
concat, stack, flip; split and chunk return slices (indexing's GetItem).

Every rule here moves values without changing them, so each backward is the inverse move; a
forward keeps the input shapes its backward needs on ``ctx``.
"""
import math

import numpy as np

from .._dtype import promote
from .._tensor import Tensor
from ..autograd.function import Op, value_read
from ._base import as_tensor, check_size


class Reshape(Op):
    """y = x with a new shape (same element order); the gradient is reshaped back."""
    @staticmethod
    def forward(ctx, x, shape):
        if ctx.recording:
            ctx.in_shape = x.shape
        return x.reshape(shape)

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.reshape(gy, ctx.in_shape)


class Transpose(Op):
    """y = x with axes permuted by ``perm``; the gradient is permuted by the inverse."""
    @staticmethod
    def forward(ctx, x, perm):
        ctx.perm = perm
        return x.transpose(perm)

    @staticmethod
    def backward(ctx, gy):
        n = len(ctx.perm)
        inverse = [0] * n
        for i, p in enumerate(ctx.perm):
            inverse[p % n] = i
        return ctx.m.transpose(gy, tuple(inverse))


class Tile(Op):
    """y = x repeated ``reps`` times along each axis; the gradient sums the repeats."""
    @staticmethod
    def forward(ctx, x, reps):
        if ctx.recording:
            ctx.reps, ctx.in_shape = reps, x.shape
        return np.tile(x, reps)

    @staticmethod
    def backward(ctx, gy):
        shape = ctx.in_shape
        n = max(len(ctx.reps), len(shape))
        reps = (1,) * (n - len(ctx.reps)) + tuple(ctx.reps)
        padded = (1,) * (n - len(shape)) + tuple(shape)
        # view gy as (r0, s0, r1, s1, ...) keeping only the repeated axes, then sum those
        dims, axes = [], []
        for r, s in zip(reps, padded):
            if r != 1:
                axes.append(len(dims))
                dims.append(r)
            dims.append(s)
        m = ctx.m
        g = m.sum(m.reshape(gy, tuple(dims)), tuple(axes)) if axes else gy
        return m.reshape(g, shape)


class Concat(Op):
    """y = the inputs joined along ``axis``; each input's gradient is its slice of gy."""
    @staticmethod
    def forward(ctx, *xs, axis):
        if ctx.recording:
            ctx.axis, ctx.sizes = axis, [x.shape[axis] for x in xs]
        return np.concatenate(xs, axis)

    @staticmethod
    def backward(ctx, gy):
        axis = ctx.axis
        lead = (slice(None),) * axis
        grads = []
        start = 0
        for i, size in enumerate(ctx.sizes):
            stop = start + size
            grads.append(ctx.m.getitem(gy, lead + (slice(start, stop),)) if ctx.needs_grad(i)
                         else None)
            start = stop
        return tuple(grads)


class Stack(Op):
    """y = the inputs stacked along a new ``axis``; input i's gradient is gy[..., i, ...]."""
    @staticmethod
    def forward(ctx, *xs, axis):
        if ctx.recording:
            ctx.axis, ctx.n_inputs = axis, len(xs)
        key = (slice(None),) * axis + (None,)
        return np.concatenate([x[key] for x in xs], axis)

    @staticmethod
    def backward(ctx, gy):
        lead = (slice(None),) * ctx.axis
        return tuple(ctx.m.getitem(gy, lead + (i,)) if ctx.needs_grad(i) else None
                     for i in range(ctx.n_inputs))


class Flip(Op):
    """y = x reversed along ``dims``; flipping is its own inverse."""
    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = dims
        return np.flip(x, dims)

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.flip(gy, ctx.dims)


# ------------------------------------------------------------------------------ helpers
def _int_tuple(value, name, what):
    """``value`` (an int or a sequence of ints) as a tuple of Python ints."""
    if type(value) is tuple and all(type(v) is int for v in value):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),)
    if isinstance(value, Tensor):
        value_read(value)
        value = value._data.tolist()
        return _int_tuple(value, name, what)
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(f"ops.{name}: {what} must be an int or a tuple of ints, "
                        f"got {value!r}") from None
    for v in items:
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise TypeError(f"ops.{name}: {what} must be an int or a tuple of ints, got {value!r}")
    return tuple(int(v) for v in items)


def _axis(axis, ndim, name):
    """One axis, checked against ``ndim`` and made non-negative."""
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"ops.{name}: axis must be an int, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"ops.{name}: axis {axis} is out of range for a tensor of rank {ndim} "
                         f"(valid: {-ndim} to {ndim - 1})")
    return int(axis) % ndim


def _same_dtype(tensors, name):
    """The Tensors of a concat/stack list, all cast to their common dtype."""
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"ops.{name}: expected a non-empty list or tuple of Tensors, "
                        f"got {tensors!r}")
    xs = [t if type(t) is Tensor else as_tensor(t, 'tensors') for t in tensors]
    dt = xs[0]._data.dtype
    if any(x._data.dtype != dt for x in xs):
        from .arithmetic import cast
        for x in xs[1:]:
            dt = promote(dt, x._data.dtype)
        xs = [cast(x, dt) for x in xs]
    return xs


# ------------------------------------------------------------------------------ public
def shape(input_x):
    """The shape of ``input_x`` as a tuple of ints.

    >>> import hookgrad as ms
    >>> ms.ops.shape(ms.Tensor([[1, 2, 3]]))
    (1, 3)
    """
    if not isinstance(input_x, Tensor):
        raise TypeError(f"ops.shape: input_x must be a Tensor, got {type(input_x).__name__}")
    return input_x.shape


def reshape(input, shape):
    """``input`` with the same values in ``shape``; one dimension may be -1 (inferred).

    Raises:
        ValueError: when the sizes differ, e.g. ``ops.reshape: cannot reshape (2, 3) into (4,)``.

    >>> import hookgrad as ms
    >>> ms.ops.reshape(ms.Tensor([[1, 2, 3], [4, 5, 6]]), (3, -1)).shape
    (3, 2)
    """
    x = as_tensor(input)
    shape = _int_tuple(shape, 'reshape', 'shape')
    for n in shape:
        if n < -1:
            raise ValueError(f"ops.reshape: shape {shape} has a dimension {n}: only -1 (inferred) "
                             f"may be negative")
    try:
        return Reshape.apply(x, shape=shape)
    except ValueError:
        raise ValueError(f"ops.reshape: cannot reshape {x.shape} into {shape}") from None


def transpose(input, input_perm):
    """``input`` with its axes permuted: axis i of the result is axis ``input_perm[i]``.

    Raises:
        ValueError: when ``input_perm`` is not a permutation of the input's axes.
    """
    return _permute(input, input_perm, 'transpose', 'input_perm')


def permute(input, axis):
    """``input`` with its axes permuted by ``axis`` (ops.transpose under its PyTorch name)."""
    return _permute(input, axis, 'permute', 'axis')


def _permute(input, perm, name, what):
    x = as_tensor(input)
    perm = _int_tuple(perm, name, what)
    try:
        return Transpose.apply(x, perm=perm)    # NumPy rejects anything but a permutation
    except ValueError:
        raise ValueError(f"ops.{name}: {what} {perm} is not a permutation of the axes of a "
                         f"tensor of shape {x.shape}") from None


def squeeze(input, axis=None):
    """``input`` without its size-1 dimensions (all of them, or those in ``axis``).

    Raises:
        ValueError: when a named axis is out of range or its size is not 1.
    """
    x = as_tensor(input)
    shape = x.shape
    if axis is None:
        new = tuple(s for s in shape if s != 1)
    else:
        n = x.ndim
        axes = set()
        for a in _int_tuple(axis, 'squeeze', 'axis'):
            if not -n <= a < n:
                raise ValueError(f"ops.squeeze: axis {a} is out of range for a tensor of shape "
                                 f"{shape}")
            a %= n
            if shape[a] != 1:
                raise ValueError(f"ops.squeeze: cannot squeeze axis {a} of shape {shape}: its "
                                 f"size is {shape[a]}, not 1")
            axes.add(a)
        new = tuple(s for i, s in enumerate(shape) if i not in axes)
    return Reshape.apply(x, shape=new)


def expand_dims(input_x, axis):
    """``input_x`` with a size-1 dimension inserted at ``axis`` (an int or a tuple of ints).

    Raises:
        ValueError: when an axis is outside [-rank - 1, rank] (rank counted after insertion).
    """
    x = as_tensor(input_x, 'input_x')
    axes = _int_tuple(axis, 'expand_dims', 'axis')
    n = x.ndim + len(axes)
    where = set()
    for a in axes:
        if not -n <= a < n:
            raise ValueError(f"ops.expand_dims: axis {a} is out of range for a tensor of shape "
                             f"{x.shape} (valid: {-n} to {n - 1})")
        where.add(a % n)
    if len(where) != len(axes):
        raise ValueError(f"ops.expand_dims: repeated axis in {axes}")
    rest = iter(x.shape)
    new = tuple(1 if i in where else next(rest) for i in range(n))
    return Reshape.apply(x, shape=new)


def unsqueeze(input, dim):
    """``input`` with a size-1 dimension inserted at ``dim``."""
    return expand_dims(input, dim)


def flatten(input, order='C', *, start_dim=1, end_dim=-1):
    """``input`` with dimensions ``start_dim..end_dim`` merged into one (keeps dim 0 by default).

    A 0-d or 1-d input gives a 1-d result. ``order='F'`` flattens in column-major order.

    Raises:
        ValueError: for an unknown order, a dimension out of range, or start_dim after end_dim.

    >>> import hookgrad as ms
    >>> ms.ops.flatten(ms.ops.reshape(ms.Tensor(list(range(24))), (1, 2, 3, 4))).shape
    (1, 24)
    """
    x = as_tensor(input)
    if order not in ('C', 'F'):
        raise ValueError(f"ops.flatten: order must be 'C' or 'F', got {order!r}")
    for v in (start_dim, end_dim):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise TypeError(f"ops.flatten: start_dim and end_dim must be ints, got {v!r}")
    n = x.ndim
    if n <= 1 and start_dim == 1 and end_dim == -1:
        return Reshape.apply(x, shape=(-1,))        # the defaults on a 0-d or 1-d input
    rank = max(n, 1)
    if not (-rank <= start_dim < rank and -rank <= end_dim < rank):
        raise ValueError(f"ops.flatten: start_dim {start_dim} or end_dim {end_dim} is out of range "
                         f"for a tensor of shape {x.shape}")
    start, end = start_dim % rank, end_dim % rank
    if start > end:
        raise ValueError(f"ops.flatten: start_dim {start_dim} comes after end_dim {end_dim} for "
                         f"a tensor of shape {x.shape}")
    if n <= 1:
        return Reshape.apply(x, shape=(-1,))
    if order == 'F':
        x = Transpose.apply(x, perm=tuple(range(n - 1, -1, -1)))
    shape = x.shape
    new = shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:]
    return Reshape.apply(x, shape=new)


def tile(input, dims):
    """``input`` repeated ``dims[i]`` times along axis i (shorter ``dims`` pad with 1 on the left).

    Raises:
        ValueError: when a repeat count is negative.
    """
    x = as_tensor(input)
    reps = _int_tuple(dims, 'tile', 'dims')
    if any(r < 0 for r in reps):
        raise ValueError(f"ops.tile: dims {reps} must be non-negative")
    n = max(len(reps), x.ndim)
    full = (1,) * (n - x.ndim) + x.shape
    reps_full = (1,) * (n - len(reps)) + reps
    check_size('tile', tuple(s * r for s, r in zip(full, reps_full)), x._data.itemsize)
    return Tile.apply(x, reps=reps)


def concat(tensors, axis=0):
    """The Tensors in ``tensors`` joined along ``axis`` (promoted to a common dtype).

    Raises:
        ValueError: when the ranks differ or the shapes differ outside ``axis``.

    >>> import hookgrad as ms
    >>> ms.ops.concat([ms.Tensor([[1, 2]]), ms.Tensor([[3, 4]])]).shape
    (2, 2)
    """
    xs = _same_dtype(tensors, 'concat')
    first = xs[0].shape
    ax = _axis(axis, max(len(first), 1), 'concat')
    for x in xs[1:]:
        s = x.shape
        if len(s) != len(first) or s[:ax] != first[:ax] or s[ax + 1:] != first[ax + 1:]:
            raise ValueError(f"ops.concat: shapes {first} and {s} do not match outside axis {ax}")
    if not first:
        raise ValueError("ops.concat: cannot concatenate 0-d tensors")
    return Concat.apply(*xs, axis=ax)


cat = concat


def stack(tensors, axis=0):
    """The equally shaped Tensors in ``tensors`` stacked along a new ``axis``.

    Raises:
        ValueError: when the shapes differ or ``axis`` is outside [-rank - 1, rank].
    """
    xs = _same_dtype(tensors, 'stack')
    first = xs[0].shape
    for x in xs[1:]:
        if x.shape != first:
            raise ValueError(f"ops.stack: all tensors must have the same shape, got {first} and "
                             f"{x.shape}")
    ax = _axis(axis, len(first) + 1, 'stack')
    return Stack.apply(*xs, axis=ax)


class Pieces(Op):
    """Consecutive pieces of x along ``axis`` (views of it), as one node with one output per
    piece; with ``squeeze`` each piece is one index, its axis dropped (``unbind``). Backward
    joins the pieces' gradients in one pass: a node per piece would write each piece's
    gradient into a zero array of x's size, quadratic in the number of pieces."""
    @staticmethod
    def forward(ctx, x, *, axis, sizes, squeeze=False):
        lead = (slice(None),) * axis
        pieces, start = [], 0
        for s in sizes:
            pieces.append(x[lead + ((start if squeeze else slice(start, start + s)),)])
            start += s
        ctx.axis, ctx.squeeze = axis, squeeze
        return tuple(pieces)

    @staticmethod
    def backward(ctx, *gys):
        m = ctx.m
        if ctx.squeeze:
            gys = [m.expand_dims(g, ctx.axis) for g in gys]
        return (m.concat(list(gys), ctx.axis),)


def _split(x, axis, sizes, squeeze=False):
    """Consecutive pieces of ``x`` along ``axis`` (a tuple; one ``Pieces`` node)."""
    if len(sizes) == 1 and not squeeze:
        from .indexing import GetItem
        return (GetItem.apply(x, key=(slice(None),) * axis + (slice(0, sizes[0]),)),)
    return Pieces.apply(x, axis=axis, sizes=tuple(sizes), squeeze=squeeze)


def split(tensor, split_size_or_sections, axis=0):
    """``tensor`` cut along ``axis`` into a tuple of Tensors.

    An int gives pieces of that size (the last may be smaller); a list or tuple gives the size of
    each piece, which must add up to the size of ``axis``.

    Raises:
        ValueError: when the sizes are not positive or the sections do not add up.
    """
    x = as_tensor(tensor, 'tensor')
    ax = _axis(axis, max(x.ndim, 1), 'split')
    if x.ndim == 0:
        raise ValueError("ops.split: cannot split a 0-d tensor")
    n = x.shape[ax]
    if isinstance(split_size_or_sections, (int, np.integer)) and \
            not isinstance(split_size_or_sections, bool):
        size = int(split_size_or_sections)
        if size <= 0:
            raise ValueError(f"ops.split: split size must be positive, got {size}")
        sizes = [size] * (n // size) + ([n % size] if n % size or n == 0 else [])
    else:
        sizes = _int_tuple(split_size_or_sections, 'split', 'split_size_or_sections')
        if any(s < 0 for s in sizes) or sum(sizes) != n:
            raise ValueError(f"ops.split: sections {list(sizes)} do not add up to {n}, the size "
                             f"of axis {ax} of shape {x.shape}")
    return _split(x, ax, sizes)


def chunk(input, chunks, axis=0):
    """``input`` cut along ``axis`` into at most ``chunks`` pieces of equal size (last smaller).

    Raises:
        ValueError: when ``chunks`` is not positive.
    """
    x = as_tensor(input)
    if not isinstance(chunks, (int, np.integer)) or isinstance(chunks, bool):
        raise TypeError(f"ops.chunk: chunks must be an int, got {chunks!r}")
    if chunks <= 0:
        raise ValueError(f"ops.chunk: chunks must be positive, got {chunks}")
    if x.ndim == 0:
        raise ValueError("ops.chunk: cannot chunk a 0-d tensor")
    ax = _axis(axis, x.ndim, 'chunk')
    n = x.shape[ax]
    size = max(-(-n // int(chunks)), 1)
    sizes = [size] * (n // size) + ([n % size] if n % size or n == 0 else [])
    return _split(x, ax, sizes)


def flip(input, dims):
    """``input`` with the order of elements reversed along ``dims`` (an int or tuple of ints).

    Raises:
        ValueError: when a dimension is out of range or repeated.
    """
    x = as_tensor(input)
    n = x.ndim
    axes = _int_tuple(dims, 'flip', 'dims')
    for a in axes:
        if not -n <= a < n:
            raise ValueError(f"ops.flip: dim {a} is out of range for a tensor of shape {x.shape}")
    axes = tuple(a % n for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"ops.flip: repeated dim in {dims!r}")
    return Flip.apply(x, dims=axes)
