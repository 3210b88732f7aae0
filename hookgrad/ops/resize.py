"""Resizing: ``interpolate`` (and its name ``upsample``), and the interpolation matrices and
source coordinates ``ResizeBilinearV2`` and ``ResizeNearestNeighbor`` resize with.

Resizing multiplies by fixed interpolation matrices (or gathers, for 'nearest'), so it is
differentiable.
"""
import math
import numbers

import numpy as np

from .._tensor import Tensor
from ..kernels import backend
from ._base import as_tensor
from . import indexing as _index, linalg as _linalg, pooling as _pool, shaping as _shape

__all__ = ['interpolate', 'upsample']

_MODES = ('nearest', 'linear', 'bilinear', 'area')
_UNSUPPORTED = ('bicubic', 'trilinear', 'nearest-exact')


def source_coordinates(n_in, n_out, align_corners, half_pixel):
    """Each output position's source coordinate along one axis (float32, as MindSpore)."""
    if align_corners and n_out > 1:
        scale = np.float32((n_in - 1) / (n_out - 1))
    else:
        scale = np.float32(n_in / n_out)
    i = np.arange(n_out, dtype=np.float32)
    return (i + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else i * scale


def linear_matrix(n_in, n_out, align_corners, half_pixel, dtype):
    """(n_out, n_in) weights of linear interpolation, the coordinates clamped to the input
    (a Tensor on the host)."""
    src = source_coordinates(n_in, n_out, align_corners, half_pixel).astype(np.float64)
    floor = np.floor(src)
    lerp = src - floor
    lower = np.clip(floor, 0, n_in - 1).astype(np.int64)
    upper = np.clip(np.ceil(src), 0, n_in - 1).astype(np.int64)
    m = np.zeros((n_out, n_in))
    rows = np.arange(n_out)
    np.add.at(m, (rows, lower), 1.0 - lerp)
    np.add.at(m, (rows, upper), lerp)
    return Tensor._wrap(m.astype(dtype))


def _out_size(x, size, scale_factor, recompute_scale_factor, mode):
    n = x.ndim - 2
    if (size is None) == (scale_factor is None):
        raise ValueError("ops.interpolate: exactly one of size and scale_factor must be given")
    if size is not None:
        items = tuple(size) if isinstance(size, (tuple, list)) else (size,) * n
        if len(items) != n or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                      for v in items):
            raise ValueError(f"ops.interpolate: size must be a positive int or {n} of them "
                             f"for a {x.ndim}-d input, got {size!r}")
        return items
    if not recompute_scale_factor:
        raise ValueError(f"ops.interpolate: scale_factor can only be used with "
                         f"recompute_scale_factor=True (mode {mode!r})")
    factors = tuple(scale_factor) if isinstance(scale_factor, (tuple, list)) else \
        (scale_factor,) * n
    if len(factors) != n or not all(isinstance(f, numbers.Real) and f > 0 for f in factors):
        raise ValueError(f"ops.interpolate: scale_factor must be a positive number or {n} of "
                         f"them, got {scale_factor!r}")
    return tuple(max(int(math.floor(s * f)), 1) for s, f in zip(x.shape[2:], factors))


def _along(x, axis, matrix):
    """``matrix`` (out, in) applied to axis ``axis`` of x."""
    last = x.ndim - 1
    perm = list(range(x.ndim))
    perm[axis], perm[last] = last, axis
    y = _linalg.matmul(_shape.transpose(x, tuple(perm)), _shape.transpose(matrix, (1, 0)))
    return _shape.transpose(y, tuple(perm))


def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                recompute_scale_factor=None):
    """Resize the spatial dimensions of a (N, C, L) or (N, C, H, W) tensor.

    Args:
        size: the output's spatial size (an int or one per dimension); or
        scale_factor: multipliers of the spatial size (with ``recompute_scale_factor=True``:
            the size is ``floor(in * factor)``, as MindSpore requires).
        mode: 'nearest' (source ``floor(i * in / out)``), 'linear' (3-d input), 'bilinear'
            (4-d input) or 'area' (adaptive average pooling).
        align_corners: for 'linear' / 'bilinear', True maps the corner pixels onto each
            other; otherwise pixel centres are aligned (half-pixel sampling).

    Raises:
        ValueError: for an unknown mode, a mode hookgrad does not implement ('bicubic',
            'trilinear', 'nearest-exact'), a mode that does not fit the input's rank,
            align_corners with 'nearest' or 'area', or a bad size / scale_factor.
    """
    x = as_tensor(input, 'input')
    if mode in _UNSUPPORTED:
        raise ValueError(f"ops.interpolate: mode {mode!r} is not implemented in hookgrad; use "
                         f"one of {', '.join(map(repr, _MODES))}")
    if mode not in _MODES:
        raise ValueError(f"ops.interpolate: mode must be one of {', '.join(map(repr, _MODES))},"
                         f" got {mode!r}")
    if x.ndim not in (3, 4) or (mode == 'linear' and x.ndim != 3) or \
            (mode == 'bilinear' and x.ndim != 4):
        raise ValueError(f"ops.interpolate: mode {mode!r} does not take an input of shape "
                         f"{x.shape} (linear: 3-d, bilinear: 4-d, nearest and area: 3-d or "
                         f"4-d)")
    if align_corners and mode in ('nearest', 'area'):
        raise ValueError(f"ops.interpolate: align_corners can only be set with 'linear' or "
                         f"'bilinear', not {mode!r}")
    out = _out_size(x, size, scale_factor, recompute_scale_factor, mode)
    if mode == 'area':
        if x.ndim == 3:
            y = _pool.adaptive_avg_pool2d(_shape.expand_dims(x, 2), (1, out[0]))
            return _shape.squeeze(y, 2)
        return _pool.adaptive_avg_pool2d(x, out)
    y = x
    device = backend.device_of(x._data)
    for k, n_out in enumerate(out):
        axis, n_in = 2 + k, x.shape[2 + k]
        if mode == 'nearest':
            src = np.minimum(np.floor(np.arange(n_out, dtype=np.float32) *
                                      np.float32(n_in / n_out)), n_in - 1).astype(np.int64)
            y = _index.take(y, src, axis)       # uploaded to x's device by take
        else:
            align = bool(align_corners)
            matrix = linear_matrix(n_in, n_out, align, not align, x._data.dtype)._data
            y = _along(y, axis, Tensor._wrap(backend.to_device(matrix, device)))
    return y


upsample = interpolate
