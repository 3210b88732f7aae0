"""Blocks of the batch moved into space and back, and sampling grids:
``batch_to_space_nd``, ``space_to_batch_nd`` and ``affine_grid`` (MindSpore 2.10's), written
with pads, reshapes, transposes, slices and matrix products, so their gradients are those
ops'.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..kernels import backend
from .linalg import matmul
from .nn_pad import pad
from .shaping import reshape, transpose

__all__ = ['batch_to_space_nd', 'space_to_batch_nd', 'affine_grid']


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _checked_blocks(input_x, block_shape, pairs, what, where):
    """The block shape as a tuple, after checking input_x, block_shape and the (start, end)
    ``pairs`` (the crops or paddings, named ``what``) of ``where``."""
    if not isinstance(input_x, Tensor):
        raise TypeError(f"{where}: input_x must be a Tensor, got {type(input_x).__name__}")
    if not isinstance(pairs, (tuple, list)) or not all(
            isinstance(c, (tuple, list)) and len(c) == 2 and all(_is_int(v) and v >= 0 for v in c)
            for c in pairs):
        raise TypeError(f"{where}: {what} must be a tuple or list of (start, end) pairs of ints "
                        f">= 0, got {pairs!r}")
    blocks = (block_shape,) * len(pairs) if _is_int(block_shape) else block_shape
    if not isinstance(blocks, (tuple, list)) or not all(_is_int(b) and b >= 1 for b in blocks):
        raise TypeError(f"{where}: block_shape must be an int >= 1 or a tuple or list of them, "
                        f"got {block_shape!r}")
    m = len(blocks)
    if m == 0 or len(pairs) != m:
        raise ValueError(f"{where}: block_shape and {what} must have one length >= 1, got "
                         f"{block_shape!r} and {pairs!r}")
    if input_x.ndim < m + 1:
        raise ValueError(f"{where}: input_x must have more than {m} dimensions, got shape "
                         f"{input_x.shape}")
    return tuple(blocks)


def batch_to_space_nd(input_x, block_shape, crops):
    """Moves blocks of the batch into the last M dimensions, then crops them.

    With ``block_shape = (b1, ..., bM)``, an input (B, ..., s1, ..., sM) becomes
    (B / (b1 ... bM), ..., s1 * b1 - crops[0][0] - crops[0][1], ...): output element
    (n, ..., i1 * b1 + j1, ...) is input element ((j1, ..., jM) * B / prod + n, ..., i1, ...),
    the block offsets major in the batch (the inverse of ``space_to_batch_nd``).

    Args:
        input_x (Tensor): at least M + 1 dimensions.
        block_shape (Union[int, tuple[int], list[int]]): ints >= 1; an int is used for each
            of the ``len(crops)`` dimensions.
        crops (Union[tuple, list]): M pairs (start, end) of ints >= 0 cut from each.

    Raises:
        TypeError: input_x is not a Tensor, or block_shape or crops are malformed.
        ValueError: the batch is not divisible by the blocks' product, the rank is too small,
            the lengths differ, or crops leave nothing.
    """
    where = 'ops.batch_to_space_nd'
    blocks = _checked_blocks(input_x, block_shape, crops, 'crops', where)
    m = len(blocks)
    prod = int(np.prod(blocks))
    batch = input_x.shape[0]
    if batch % prod:
        raise ValueError(f"{where}: the batch size {batch} must be divisible by the product "
                         f"{prod} of block_shape {tuple(blocks)}")
    mid = input_x.shape[1:input_x.ndim - m]
    spatial = input_x.shape[input_x.ndim - m:]
    for size, block, (start, end) in zip(spatial, blocks, crops):
        if start + end >= size * block:
            raise ValueError(f"{where}: crops {crops!r} leave nothing of a dimension of size "
                             f"{size * block}")
    k = len(mid)
    y = reshape(input_x, tuple(blocks) + (batch // prod,) + mid + spatial)
    perm = (m,) + tuple(range(m + 1, m + 1 + k))
    for i in range(m):
        perm += (m + 1 + k + i, i)
    y = reshape(transpose(y, perm),
                (batch // prod,) + mid + tuple(s * b for s, b in zip(spatial, blocks)))
    if any(start or end for start, end in crops):
        key = (slice(None),) * (1 + k) + tuple(
            slice(start, s * b - end) for (start, end), s, b in zip(crops, spatial, blocks))
        y = y[key]
    return y


def space_to_batch_nd(input_x, block_size, paddings):
    """Pads the last M dimensions, then moves blocks of them into the batch (the inverse of
    ``batch_to_space_nd``).

    With ``block_size = (b1, ..., bM)``, an input (B, ..., s1, ..., sM) is zero-padded by
    ``paddings[k] = (start, end)`` along its k-th last-M dimension and becomes
    (B * b1 ... bM, ..., (s1 + start1 + end1) / b1, ...): output element
    ((j1, ..., jM) * B + n, ..., i1, ...) is padded element (n, ..., i1 * b1 + j1, ...), the
    block offsets major in the batch.

    Args:
        input_x (Tensor): at least M + 1 dimensions.
        block_size (Union[int, tuple[int], list[int]]): ints >= 1; an int is used for each
            of the ``len(paddings)`` dimensions.
        paddings (Union[tuple, list]): M pairs (start, end) of ints >= 0.

    Raises:
        TypeError: input_x is not a Tensor, or block_size or paddings are malformed.
        ValueError: the rank is too small, the lengths differ, or a padded dimension is not
            divisible by its block.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
    >>> ms.ops.space_to_batch_nd(x, 2, [[0, 0], [0, 0]]).shape
    (4, 1, 1, 1)
    """
    where = 'ops.space_to_batch_nd'
    blocks = _checked_blocks(input_x, block_size, paddings, 'paddings', where)
    m = len(blocks)
    batch, mid = input_x.shape[0], input_x.shape[1:input_x.ndim - m]
    padded = tuple(s + start + end for s, (start, end)
                   in zip(input_x.shape[input_x.ndim - m:], paddings))
    for size, block in zip(padded, blocks):
        if size % block:
            raise ValueError(f"{where}: the padded size {size} of a dimension must be divisible "
                             f"by its block {block} (block_size {tuple(blocks)}, paddings "
                             f"{paddings!r})")
    y = input_x
    if any(start or end for start, end in paddings):
        y = pad(y, tuple(v for pair in reversed(paddings) for v in pair))
    k = len(mid)
    split = ()
    for size, block in zip(padded, blocks):
        split += (size // block, block)
    y = reshape(y, (batch,) + mid + split)
    offsets = tuple(2 + k + 2 * i for i in range(m))
    perm = offsets + (0,) + tuple(range(1, 1 + k)) + tuple(1 + k + 2 * i for i in range(m))
    return reshape(transpose(y, perm), (batch * int(np.prod(blocks)),) + mid +
                   tuple(size // block for size, block in zip(padded, blocks)))


def _base_coordinates(size, align_corners):
    """The normalised centres of ``size`` cells in [-1, 1] (the end cells' edges at -1 and 1,
    or their centres with ``align_corners``)."""
    if size == 1:
        return np.zeros(1)
    if align_corners:
        return np.linspace(-1.0, 1.0, size)
    return (2 * np.arange(size) + 1) / size - 1


def affine_grid(theta, size, align_corners=False):
    """The sampling grid of affine transformations ``theta``: for 2-d, theta (N, 2, 3) and
    size (N, C, H, W) give (N, H, W, 2), the (x, y) each output pixel samples; for 3-d,
    theta (N, 3, 4) and size (N, C, D, H, W) give (N, D, H, W, 3).

    Args:
        theta (Tensor): Float16, Float32 or Float64.
        size (tuple[int]): the output's size, 4 or 5 positive ints whose first is N.
        align_corners (bool): -1 and 1 are the centres of the corner pixels (True) or their
            outer edges (False, default).

    Raises:
        TypeError: theta is not a floating Tensor, size not a tuple of ints or align_corners
            not a bool.
        ValueError: theta's shape does not match size.
    """
    where = 'ops.affine_grid'
    if not isinstance(theta, Tensor):
        raise TypeError(f"{where}: theta must be a Tensor, got {type(theta).__name__}")
    if theta._data.dtype.kind not in 'fV':
        raise TypeError(f"{where}: theta must be a floating Tensor, got {theta.dtype}")
    if not isinstance(size, (tuple, list)) or not all(_is_int(s) and s >= 1 for s in size):
        raise TypeError(f"{where}: size must be a tuple of positive ints, got {size!r}")
    if not isinstance(align_corners, bool):
        raise TypeError(f"{where}: align_corners must be a bool, got {align_corners!r}")
    if len(size) not in (4, 5):
        raise ValueError(f"{where}: size must have 4 (N, C, H, W) or 5 (N, C, D, H, W) "
                         f"entries, got {size!r}")
    dims = len(size) - 2
    if theta.shape != (size[0], dims, dims + 1):
        raise ValueError(f"{where}: theta must have shape {(size[0], dims, dims + 1)} for size "
                         f"{tuple(size)}, got {theta.shape}")
    spatial = tuple(size[2:])
    axes = [_base_coordinates(s, align_corners) for s in spatial]
    mesh = np.meshgrid(*axes, indexing='ij')       # (D,) H, W
    base = np.stack([g.ravel() for g in reversed(mesh)] + [np.ones(mesh[0].size)], axis=-1)
    base = Tensor._wrap(backend.to_device(base.astype(theta._data.dtype),
                                          backend.device_of(theta._data)))
    grid = matmul(base, transpose(theta, (0, 2, 1)))          # (N, D*H*W, dims)
    return reshape(grid, (size[0],) + spatial + (dims,))
