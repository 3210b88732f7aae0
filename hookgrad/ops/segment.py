"""The unsorted segment reductions: ``unsorted_segment_sum``, ``_max``, ``_min`` and ``_prod``,
each a scatter of the rows of x into a tensor of ``num_segments`` rows.

Composed from the differentiable scatters (``tensor_scatter_add`` and its kin), so gradients
need no rule here.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ._base import as_tensor, check_size
from ..kernels import backend, half as _half
from ..kernels.backend import array_module
from . import scatter_gather as _scatter, shaping as _shape

__all__ = ['unsorted_segment_sum', 'unsorted_segment_max', 'unsorted_segment_min',
           'unsorted_segment_prod']


def _segments(x, segment_ids, num_segments, op):
    """x as (M, ...) rows, the ids as an (M, 1) index, and the result's shape."""
    x = as_tensor(x, 'input_x')
    ids = as_tensor(segment_ids, 'segment_ids', x)
    if ids._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.{op}: segment_ids must be an integer Tensor, got {ids.dtype}")
    if isinstance(num_segments, Tensor):
        num_segments = num_segments.item()
    if isinstance(num_segments, bool) or not isinstance(num_segments, numbers.Integral) or \
            num_segments < 0:
        raise ValueError(f"ops.{op}: num_segments must be an int >= 0, got {num_segments!r}")
    if x.shape[:ids.ndim] != ids.shape:
        raise ValueError(f"ops.{op}: segment_ids of shape {ids.shape} must be a prefix of "
                         f"input_x's shape {x.shape}")
    flat = ids._data.reshape(-1)
    if flat.size:
        if type(flat) is np.ndarray:
            lo, hi = flat.min(), flat.max()
        else:           # a device: one host read for both bounds
            lo, hi = backend.to_host(array_module(flat).stack((flat.min(), flat.max())))
        if hi >= num_segments:
            raise ValueError(f"ops.{op}: segment_ids must be below num_segments "
                             f"{num_segments}, got values up to {hi}")
    rest = x.shape[ids.ndim:]
    rows = _shape.reshape(x, (flat.size,) + rest)
    if flat.size and lo < 0:
        # a negative id names no segment: its row is left out of every reduction
        keep = array_module(flat).nonzero(flat >= 0)[0]
        rows = _scatter.gather_nd(rows, Tensor._wrap(keep.reshape(-1, 1)))
        flat = flat[keep]
    return rows, Tensor._wrap(flat.reshape(-1, 1).astype(np.int64)), (int(num_segments),) + rest


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """The sum of the rows of ``input_x`` sharing each segment id: output row s is the sum of
    ``input_x[i]`` over ``segment_ids[i] == s`` (0 for an empty segment).

    ``segment_ids`` has the shape of input_x's leading axes; the result has shape
    ``(num_segments,) + input_x.shape[segment_ids.ndim:]``.

    A row whose id is negative belongs to no segment and is left out.

    Raises:
        ValueError: for an id >= num_segments or a shape mismatch.
    """
    rows, index, shape = _segments(input_x, segment_ids, num_segments, 'unsorted_segment_sum')
    return _scatter.tensor_scatter_add(_filled(rows, shape, 0), index, rows)


def _filled(rows, shape, value):
    """A Tensor of ``shape`` holding ``value``, with the dtype and on the device of ``rows``."""
    x = rows._data
    check_size(None, shape, x.dtype.itemsize)
    return Tensor._wrap(array_module(x).full(shape, value, x.dtype))


def _extreme_fill(dtype, largest):
    info = _half.finfo(dtype) if dtype.kind in 'fV' else np.iinfo(dtype)
    return info.min if largest else info.max


def unsorted_segment_max(x, segment_ids, num_segments):
    """The maximum of the rows of x sharing each segment id; an empty segment holds the dtype's
    lowest value."""
    rows, index, shape = _segments(x, segment_ids, num_segments, 'unsorted_segment_max')
    fill = _filled(rows, shape, _extreme_fill(rows._data.dtype, True))
    return _scatter.tensor_scatter_max(fill, index, rows)


def unsorted_segment_min(x, segment_ids, num_segments):
    """The minimum of the rows of x sharing each segment id; an empty segment holds the dtype's
    highest value."""
    rows, index, shape = _segments(x, segment_ids, num_segments, 'unsorted_segment_min')
    fill = _filled(rows, shape, _extreme_fill(rows._data.dtype, False))
    return _scatter.tensor_scatter_min(fill, index, rows)


def unsorted_segment_prod(x, segment_ids, num_segments):
    """The product of the rows of x sharing each segment id; an empty segment holds 1."""
    rows, index, shape = _segments(x, segment_ids, num_segments, 'unsorted_segment_prod')
    # one full (segment, column) index per element: the product scatter takes whole positions
    m, width = rows.shape[0], int(np.prod(shape[1:], dtype=np.int64))
    ids = index._data.reshape(-1)
    full = np.stack([np.repeat(ids, width), np.tile(array_module(ids).arange(width), m)], 1)
    out = _scatter.tensor_scatter_mul(_filled(rows, (shape[0], width), 1),
                                      Tensor._wrap(full), _shape.reshape(rows, (-1,)))
    return _shape.reshape(out, shape)
