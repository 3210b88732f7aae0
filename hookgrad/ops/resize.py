"""Resizing: ``interpolate`` (and its name ``upsample``), bicubic resizing, and the
interpolation matrices and source coordinates ``ResizeBilinearV2``, ``ResizeBicubic`` and
``ResizeNearestNeighbor`` resize with.

Resizing multiplies by fixed interpolation matrices (or gathers, for 'nearest'), so it is
differentiable: the gradient of ``W_h @ x @ W_w.T`` is ``W_h.T @ g @ W_w``.

Bicubic resizing has two definitions in MindSpore, each built here as one (out, in) matrix
per axis:

- ``ResizeBicubic`` (TensorFlow's; what ``ops.interpolate`` and ``nn.Upsample`` run): with
  half-pixel centres, Keys' kernel with a = -0.5 whose taps outside the input are dropped and
  the rest renormalized; otherwise (align_corners, or neither flag) a = -0.75 with the taps
  clamped to the border. The kernel is read from a table of 1024 steps per pixel, so the
  fractional position is rounded to a multiple of 1/1024.
- ``UpsampleBicubic2D`` (PyTorch's; what ``mint.nn.functional.interpolate`` runs): a = -0.75
  at the exact position, taps clamped to the border, and a given scale factor sets the
  sampling step (``1 / scale``) rather than the output size.
"""
import functools
import math
import numbers

import numpy as np

from .._tensor import Tensor
from ..kernels import backend
from ._base import as_tensor
from . import indexing as _index, linalg as _linalg, pooling as _pool, shaping as _shape
from . import pooling_nd as _pool_nd

__all__ = ['interpolate', 'upsample']

_MODES = ('nearest', 'linear', 'bilinear', 'bicubic', 'trilinear', 'area')
_UNSUPPORTED = ('nearest-exact',)
_TABLE_STEPS = 1024         # ResizeBicubic's kernel table: entries per pixel


def source_coordinates(n_in, n_out, align_corners, half_pixel, step=None, dtype=np.float32):
    """Each output position's source coordinate along one axis, computed in ``dtype``
    (float32 as MindSpore's kernels, float64 for their float64 Upsample* forms); the sampling
    ``step`` is ``n_in / n_out`` unless given (align_corners ignores it)."""
    if align_corners and n_out > 1:
        scale = dtype((n_in - 1) / (n_out - 1))
    else:
        scale = dtype(step if step is not None else n_in / n_out)
    i = np.arange(n_out, dtype=dtype)
    return (i + dtype(0.5)) * scale - dtype(0.5) if half_pixel else i * scale


@functools.lru_cache(maxsize=64)
def linear_matrix(n_in, n_out, align_corners, half_pixel, step=None, coordinates=np.float32):
    """(n_out, n_in) weights of linear interpolation along one axis, the coordinates (computed
    in the dtype ``coordinates``) clamped to the input (float64, read-only)."""
    src = source_coordinates(n_in, n_out, align_corners, half_pixel, step,
                             coordinates).astype(np.float64)
    floor = np.floor(src)
    lerp = src - floor
    lower = np.clip(floor, 0, n_in - 1).astype(np.int64)
    upper = np.clip(np.ceil(src), 0, n_in - 1).astype(np.int64)
    m = np.zeros((n_out, n_in))
    rows = np.arange(n_out)
    np.add.at(m, (rows, lower), 1.0 - lerp)
    np.add.at(m, (rows, upper), lerp)
    m.setflags(write=False)
    return m


def _cubic(t, a):
    """Keys' cubic convolution kernel with parameter ``a`` at distances ``t`` (|t| <= 2)."""
    t = np.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t <= 1, near, far)


def _cubic_rows(base, weights, n_in, drop_outside):
    """The (len(base), n_in) matrix whose row i puts ``weights[i]`` on the taps ``base[i] - 1``
    to ``base[i] + 2``: taps outside the input are dropped and the row renormalized
    (``drop_outside``) or clamped to the border pixel."""
    taps = base.astype(np.int64)[:, None] + np.arange(-1, 3)
    if drop_outside:
        weights = np.where((taps >= 0) & (taps < n_in), weights, 0.0)
        total = weights.sum(1, keepdims=True)
        weights = weights / np.where(np.abs(total) >= 1000 * np.finfo(np.float32).tiny,
                                     total, 1.0)
    m = np.zeros((len(base), n_in))
    rows = np.repeat(np.arange(len(base)), 4)
    np.add.at(m, (rows, np.clip(taps, 0, n_in - 1).ravel()), weights.ravel())
    return m


@functools.lru_cache(maxsize=64)
def bicubic_matrix(n_in, n_out, align_corners, half_pixel):
    """ResizeBicubic's (n_out, n_in) interpolation weights along one axis (float64, read-only).

    The source coordinate is computed in float32 as MindSpore's kernel does, its fractional
    part rounded to the 1024-step kernel table, and the kernel values rounded to float32.
    """
    src = source_coordinates(n_in, n_out, align_corners, half_pixel)
    base = np.floor(src)
    steps = np.rint((src - base) * np.float32(_TABLE_STEPS)).astype(np.float64)
    frac = steps / _TABLE_STEPS
    a = -0.5 if half_pixel else -0.75
    weights = _cubic(frac[:, None] - np.arange(-1, 3), a).astype(np.float32)
    m = _cubic_rows(base, weights.astype(np.float64), n_in, drop_outside=half_pixel)
    m.setflags(write=False)
    return m


@functools.lru_cache(maxsize=64)
def upsample_bicubic_matrix(n_in, n_out, align_corners, scale=None):
    """UpsampleBicubic2D's (n_out, n_in) interpolation weights along one axis (float64,
    read-only): a = -0.75 at the exact source coordinate, the taps clamped to the border.
    ``scale`` (the scale factor, without align_corners) sets the sampling step ``1 / scale``;
    otherwise the step is ``n_in / n_out``, or ``(n_in - 1) / (n_out - 1)`` with
    align_corners."""
    dst = np.arange(n_out, dtype=np.float64)
    if align_corners:
        src = dst * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    else:
        step = 1.0 / scale if scale else n_in / n_out
        src = (dst + 0.5) * step - 0.5
    base = np.floor(src)
    m = _cubic_rows(base, _cubic((src - base)[:, None] - np.arange(-1, 3), -0.75), n_in,
                    drop_outside=False)
    m.setflags(write=False)
    return m


@functools.lru_cache(maxsize=128)
def _on_device(matrix, args, dtype, device, transposed):
    """The weights ``matrix(*args)`` (or their transpose) as a ``dtype`` array on ``device``,
    made once per shape, flags, dtype and device."""
    host = matrix(*args)
    host = np.ascontiguousarray(host.T if transposed else host, dtype=dtype)
    if device is backend.CPU:
        host.setflags(write=False)
        return host
    return backend.to_device(host, device)


def _separable(x, matrix, height_args, width_args):
    """``W_h @ x @ W_w.T`` for an (N, C, H, W) x, the weights ``matrix(*height_args)`` and
    ``matrix(*width_args)``: two matrix products, so the gradient is ``W_h.T @ g @ W_w``."""
    dtype, device = x._data.dtype, backend.device_of(x._data)
    left = Tensor._wrap(_on_device(matrix, height_args, dtype, device, False))
    right = Tensor._wrap(_on_device(matrix, width_args, dtype, device, True))
    return _linalg.matmul(_linalg.matmul(left, x), right)


def resize_bilinear(x, size, align_corners, half_pixel_centers):
    """The (N, C, H, W) Tensor x resized to ``size`` = (h, w) by bilinear interpolation (the
    callers check the arguments)."""
    (h, w), (ho, wo) = x.shape[2:], size
    flags = (bool(align_corners), bool(half_pixel_centers))
    return _separable(x, linear_matrix, (h, ho) + flags, (w, wo) + flags)


def resize_bicubic(x, size, align_corners, half_pixel_centers):
    """The (N, C, H, W) Tensor x resized to ``size`` = (h, w) by ResizeBicubic's rule (the
    callers check the arguments)."""
    (h, w), (ho, wo) = x.shape[2:], size
    flags = (bool(align_corners), bool(half_pixel_centers))
    return _separable(x, bicubic_matrix, (h, ho) + flags, (w, wo) + flags)


def _floating(x, where, mode):
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"{where}: mode {mode!r} needs a floating input, got {x.dtype}")


def _sizes(value, what, where, kind, n):
    """``value`` (one number, or one per spatial dimension) as ``n`` positive ``kind``s."""
    items = tuple(value) if isinstance(value, (tuple, list)) else (value,) * n
    if kind is int:
        ok = all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in items)
    else:
        ok = all(isinstance(v, numbers.Real) and not isinstance(v, bool) and v > 0
                 for v in items)
    if len(items) != n or not ok:
        raise ValueError(f"{where}: {what} must be a positive {kind.__name__} or {n} of them for "
                         f"a {n + 2}-d input, got {value!r}")
    return items


_UPSAMPLE_RANKS = {'nearest': (3, 4, 5), 'linear': (3,), 'bilinear': (4,), 'bicubic': (4,),
                   'trilinear': (5,)}


def upsample_scaled(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                    recompute_scale_factor=None, where='mint.nn.functional.interpolate'):
    """``mint.nn.functional.interpolate``'s resizing (MindSpore's Upsample* operators,
    PyTorch's ``interpolate``) of an (N, C, L), (N, C, H, W) or (N, C, D, H, W) tensor:
    'nearest' (source ``floor(i * step)``), 'linear' (3-d), 'bilinear' (4-d), 'trilinear'
    (5-d; linear along D, H and W in turn) and 'bicubic' (4-d floating: a = -0.75 at the
    exact source position, the taps clamped to the border).

    A ``scale_factor`` gives the output size ``floor(in * scale_factor)`` and the sampling
    step ``1 / scale_factor``; with ``recompute_scale_factor=True`` the step follows the
    output size instead (``in / out``), as if that size had been given. align_corners maps
    the corner pixels onto each other and ignores the scale factor. When the output size
    equals the input's the input is returned unchanged (a copy).

    Raises:
        TypeError: for 'bicubic' with a non-floating input, a non-bool align_corners.
        ValueError: for a rank the mode does not take, size and scale_factor both or neither
            given, a size or scale_factor that is not positive or not one per spatial
            dimension, an empty output, recompute_scale_factor=True with a size, or
            align_corners with 'nearest'.
    """
    x = as_tensor(input, 'input')
    if x.ndim not in _UPSAMPLE_RANKS[mode]:
        raise ValueError(f"{where}: mode {mode!r} takes a "
                         f"{' or '.join(f'{r}-d' for r in _UPSAMPLE_RANKS[mode])} input, got "
                         f"shape {x.shape}")
    if mode == 'bicubic':
        _floating(x, where, 'bicubic')
    if align_corners is not None and not isinstance(align_corners, bool):
        raise TypeError(f"{where}: align_corners must be a bool, got {align_corners!r}")
    if align_corners and mode == 'nearest':
        raise ValueError(f"{where}: align_corners can only be set with 'linear', 'bilinear', "
                         f"'bicubic' or 'trilinear', not 'nearest'")
    if size is not None and scale_factor is not None:
        raise ValueError(f"{where}: size and scale_factor cannot be set simultaneously")
    if size is None and scale_factor is None:
        raise ValueError(f"{where}: size and scale_factor cannot be both empty")
    if recompute_scale_factor and size is not None:
        raise ValueError(f"{where}: recompute_scale_factor cannot be True with an explicit "
                         f"size")
    in_size = x.shape[2:]
    n = len(in_size)
    scales = (None,) * n
    if size is not None:
        out = _sizes(size, 'size', where, int, n)
    else:
        factors = _sizes(scale_factor, 'scale_factor', where, float, n)
        out = tuple(math.floor(k * f) for k, f in zip(in_size, factors))
        if min(out) < 1:
            raise ValueError(f"{where}: scale_factor {scale_factor!r} gives the empty output "
                             f"size {out} for the input size {in_size}")
        if not recompute_scale_factor:
            scales = tuple(float(f) for f in factors)
    if out == in_size:
        scales = (None,) * n        # the same size: a copy, whatever the scale factor says
    corners = bool(align_corners)
    if mode == 'bicubic':
        return _separable(x, upsample_bicubic_matrix, (in_size[0], out[0], corners, scales[0]),
                          (in_size[1], out[1], corners, scales[1]))
    steps = [None if f is None else 1.0 / f for f in scales]
    # the Upsample* kernels compute a float64 input's coordinates in float64
    wide = np.float64 if x._data.dtype == np.float64 else np.float32
    return _resize_axes(x, out, mode, corners, steps, wide)


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
    """Resize the spatial dimensions of a (N, C, L), (N, C, H, W) or (N, C, D, H, W) tensor.

    Args:
        size: the output's spatial size (an int or one per dimension); or
        scale_factor: multipliers of the spatial size (with ``recompute_scale_factor=True``:
            the size is ``floor(in * factor)``, as MindSpore requires for 3-d and 4-d input;
            a 5-d 'nearest' or 'trilinear' resize without it samples with the step
            ``1 / factor``, as ``upsample_scaled``).
        mode: 'nearest' (source ``floor(i * in / out)``), 'linear' (3-d input), 'bilinear'
            (4-d input), 'trilinear' (5-d input), 'bicubic' (4-d floating input; MindSpore's
            ResizeBicubic: see this module's docstring) or 'area' (adaptive average pooling).
        align_corners: for 'linear', 'bilinear', 'trilinear' and 'bicubic', True maps the
            corner pixels
            onto each other (``src = i * (in - 1) / (out - 1)``); otherwise pixel centres are
            aligned (half-pixel sampling, ``src = (i + 0.5) * in / out - 0.5``).

    Raises:
        TypeError: for 'bicubic' with a non-floating input.
        ValueError: for an unknown mode, a mode hookgrad does not implement
            ('nearest-exact'), a mode that does not fit the input's rank, align_corners with
            'nearest' or 'area', or a bad size / scale_factor.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[[[0.0, 1.0], [2.0, 3.0]]]])
    >>> ms.ops.interpolate(x, size=(3, 3), mode='bicubic', align_corners=True).shape
    (1, 1, 3, 3)
    """
    x = as_tensor(input, 'input')
    if mode in _UNSUPPORTED:
        raise ValueError(f"ops.interpolate: mode {mode!r} is not implemented in hookgrad; use "
                         f"one of {', '.join(map(repr, _MODES))}")
    if mode not in _MODES:
        raise ValueError(f"ops.interpolate: mode must be one of {', '.join(map(repr, _MODES))},"
                         f" got {mode!r}")
    if x.ndim not in dict(_UPSAMPLE_RANKS, area=(3, 4, 5))[mode]:
        raise ValueError(f"ops.interpolate: mode {mode!r} does not take an input of shape "
                         f"{x.shape} (linear: 3-d, bilinear and bicubic: 4-d, trilinear: 5-d, "
                         f"nearest and area: 3-d, 4-d or 5-d)")
    if align_corners and mode in ('nearest', 'area'):
        raise ValueError(f"ops.interpolate: align_corners can only be set with 'linear', "
                         f"'bilinear', 'trilinear' or 'bicubic', not {mode!r}")
    if x.ndim == 5 and mode != 'area':
        # MindSpore's UpsampleNearest3D / UpsampleTrilinear3D: a scale factor sets the step
        return upsample_scaled(x, size, scale_factor, mode, align_corners,
                               recompute_scale_factor, where='ops.interpolate')
    out = _out_size(x, size, scale_factor, recompute_scale_factor, mode)
    if mode == 'bicubic':
        _floating(x, 'ops.interpolate', mode)
        return resize_bicubic(x, out, bool(align_corners), not align_corners)
    if mode == 'area':
        if x.ndim == 5:
            return _pool_nd.adaptive_avg_pool3d(x, out)
        if x.ndim == 3:
            y = _pool.adaptive_avg_pool2d(_shape.expand_dims(x, 2), (1, out[0]))
            return _shape.squeeze(y, 2)
        return _pool.adaptive_avg_pool2d(x, out)
    return _resize_axes(x, out, mode, bool(align_corners))


def _resize_axes(x, out, mode, align_corners, steps=None, coordinates=np.float32):
    """x resized to ``out`` axis by axis ('nearest', or linear: 'linear', 'bilinear' and
    'trilinear' are one linear resize per axis), each axis sampled with its step in
    ``steps`` (None: ``in / out``), the linear coordinates computed in ``coordinates``."""
    y = x
    device = backend.device_of(x._data)
    for k, n_out in enumerate(out):
        axis, n_in = 2 + k, x.shape[2 + k]
        step = None if steps is None else steps[k]
        if mode == 'nearest':
            scale = np.float32(step if step is not None else n_in / n_out)
            src = np.minimum(np.floor(np.arange(n_out, dtype=np.float32) * scale),
                             n_in - 1).astype(np.int64)
            y = _index.take(y, src, axis)       # uploaded to x's device by take
        else:
            matrix = _on_device(linear_matrix, (n_in, n_out, align_corners, not align_corners,
                                                step, coordinates), x._data.dtype, device, False)
            y = _along(y, axis, Tensor._wrap(matrix))
    return y


upsample = interpolate
