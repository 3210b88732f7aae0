"""Elements picked by index arrays: reverse_sequence, and choose (Tensor.choose's computation;
MindSpore 2.10 has it as a Tensor method only).

Both pick the input's elements with ``GatherElements``, so the gradient goes back to the
elements picked.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import value_read
from ..kernels import backend
from .broadcasting import broadcast_to
from .shaping import squeeze, stack
from .sorting import _gathered

_LENGTH_TYPES = (np.dtype(np.int32), np.dtype(np.int64))


def _dim(value, ndim, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.reverse_sequence: {arg} must be an int, got {value!r}")
    if not 0 <= value < ndim:
        raise ValueError(f"ops.reverse_sequence: {arg} must be in [0, {ndim}), got {value}")
    return int(value)


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """Reverses the first ``seq_lengths[b]`` elements along ``seq_dim`` of each slice ``b``
    along ``batch_dim``; the rest stay in place.

    Args:
        x (Tensor): of rank >= 2 (any dtype).
        seq_lengths (Tensor): 1-d Int32 or Int64, one length in [0, x.shape[seq_dim]] per
            slice along batch_dim.
        seq_dim (int): the axis reversed, in [0, rank) (MindSpore takes no negative axes).
        batch_dim (int): the axis of the slices, another one. Default 0.

    Raises:
        TypeError: x or seq_lengths is not a Tensor, seq_lengths not of Int32 or Int64, or a
            dim not an int.
        ValueError: a dim out of range, seq_dim == batch_dim, or seq_lengths of the wrong
            shape.
        RuntimeError: a length outside [0, x.shape[seq_dim]] (MindSpore's error).

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[1, 2, 3], [4, 5, 6]], ms.int32)
    >>> ms.ops.reverse_sequence(x, ms.Tensor([2, 3], ms.int32), 1).tolist()
    [[2, 1, 3], [6, 5, 4]]
    """
    name = 'reverse_sequence'
    for arg, value in (('x', x), ('seq_lengths', seq_lengths)):
        if not isinstance(value, Tensor):
            raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(value).__name__}")
    if seq_lengths._data.dtype not in _LENGTH_TYPES:
        raise TypeError(f"ops.{name}: seq_lengths must be an Int32 or Int64 tensor, got "
                        f"{seq_lengths.dtype}")
    seq, batch = _dim(seq_dim, x.ndim, 'seq_dim'), _dim(batch_dim, x.ndim, 'batch_dim')
    if seq == batch:
        raise ValueError(f"ops.{name}: seq_dim and batch_dim must differ, got {seq} and {batch}")
    if seq_lengths.shape != (x.shape[batch],):
        raise ValueError(f"ops.{name}: seq_lengths must have shape ({x.shape[batch]},) (the "
                         f"length of batch_dim {batch}), got {seq_lengths.shape}")
    value_read(seq_lengths)     # the positions picked come from the lengths: read on the host
    lengths = backend.to_host(seq_lengths._data).astype(np.int64)
    n = x.shape[seq]
    bad = np.flatnonzero((lengths < 0) | (lengths > n))
    if bad.size:
        raise RuntimeError(f"ops.{name}: seq_lengths[{bad[0]}] is {lengths[bad[0]]}, outside "
                           f"[0, {n}]")
    position = np.arange(n)[None, :]
    picked = np.where(position < lengths[:, None], lengths[:, None] - 1 - position, position)
    shape = [1] * x.ndim
    shape[batch], shape[seq] = x.shape[batch], n
    grid = picked if batch < seq else picked.T       # its axes in the order they have in x
    index = np.broadcast_to(grid.reshape(shape), x.shape)
    index = backend.to_device(np.ascontiguousarray(index), backend.device_of(x._data))
    return _gathered(x, Tensor._wrap(index), seq)


def choose(x, choices, mode='clip'):
    """Tensor.choose: ``choices[x[i]][i]`` for every position i of the broadcast of x and the
    choices, an index out of range clipped ('clip', also for any other mode string, as in
    MindSpore 2.10), wrapped ('wrap') or an error ('raise').

    Args:
        x (Tensor): the indices (values cast to Int64).
        choices (Union[tuple, list, Tensor]): Tensors (or nested lists) of one dtype, or a
            Tensor whose first axis enumerates them.
        mode (str): 'clip', 'wrap' or 'raise'. Default 'clip'.

    Raises:
        TypeError: the choices have different dtypes.
        ValueError: scalar indices or choices Tensor, shapes that do not broadcast, or with 'raise',
            an index out of range.
    """
    if isinstance(choices, Tensor):
        if choices.ndim == 0:
            raise ValueError("Tensor.choose: choices must not be a scalar (0-d Tensor)")
        choices = [choices[k] for k in range(choices.shape[0])]
    picks = [c if isinstance(c, Tensor) else Tensor(c) for c in choices]
    if not picks:
        raise ValueError("Tensor.choose: choices must not be empty")
    if x.ndim == 0:
        raise ValueError("Tensor.choose: the indices must not be a scalar (0-d Tensor)")
    kinds = {p._data.dtype for p in picks}
    if len(kinds) > 1:
        raise TypeError(f"Tensor.choose: choices must have one dtype, got "
                        f"{', '.join(str(p.dtype) for p in picks)}")
    try:
        shape = np.broadcast_shapes(x.shape, *[p.shape for p in picks])
    except ValueError:
        raise ValueError(f"Tensor.choose: shapes {x.shape} and "
                         f"{', '.join(str(p.shape) for p in picks)} cannot be broadcast "
                         f"together") from None
    xp = backend.array_module(x._data)
    index = x._data.astype(np.int64)
    count = len(picks)
    if mode == 'wrap':
        index = index % count
    elif mode == 'raise':
        value_read(x)
        host = backend.to_host(index)
        if ((host < 0) | (host >= count)).any():
            raise ValueError(f"Tensor.choose: indices must be in [0, {count}) with mode "
                             f"'raise', got {host.min()} to {host.max()}")
    else:
        index = xp.clip(index, 0, count - 1)
    index = xp.broadcast_to(index, shape)[None].copy()
    stacked = stack([broadcast_to(p, shape) for p in picks], 0)
    return squeeze(_gathered(stacked, Tensor._wrap(index), 0), 0)

