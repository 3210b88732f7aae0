"""Image resampling as MindSpore's CPU kernels do it (OpenCV's ``cv::resize``), in NumPy.

Every mode is separable: one weight matrix per axis, ``out = Wy @ img @ Wx.T``. The weights follow
OpenCV's source pixel positions (half-pixel centres, edge replication); uint8 bilinear and bicubic
use OpenCV's 11-bit fixed-point coefficients so that results match MindSpore's exactly or within
one grey level (where OpenCV's SIMD path rounds differently).
"""
import numpy as np

_COEF_SCALE = 2048          # OpenCV's INTER_RESIZE_COEF_SCALE for 8-bit images
_CUBIC_A = -0.75            # OpenCV's bicubic kernel parameter

SUPPORTED = (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.float16, np.float32, np.float64)


def _nearest(n_in, n_out):
    """Source index of each output pixel: floor(d * src/dst), with OpenCV's 1/(dst/src)."""
    return np.minimum(np.floor(np.arange(n_out) * (1.0 / (n_out / n_in))).astype(np.int64),
                      n_in - 1)


def _cubic_coeffs(f):
    a = _CUBIC_A
    c0 = ((a * (f + 1) - 5 * a) * (f + 1) + 8 * a) * (f + 1) - 4 * a
    c1 = ((a + 2) * f - (a + 3)) * f * f + 1
    c2 = ((a + 2) * (1 - f) - (a + 3)) * (1 - f) * (1 - f) + 1
    return np.stack([c0, c1, c2, 1 - c0 - c1 - c2], axis=1)


def _interp(n_in, n_out, mode, fixed):
    """Weights (n_out, n_in) of OpenCV's linear/cubic/upscaling-area resize along one axis."""
    scale = 1.0 / (n_out / n_in)          # as OpenCV computes it: floors depend on it
    d = np.arange(n_out)
    if mode == 'area':
        s = np.floor(d * scale).astype(np.int64)
        f = ((d + 1) - (s + 1) * (n_out / n_in)).astype(np.float32)
        f = np.where(f <= 0, np.float32(0), f - np.floor(f))
    else:
        pos = ((d + 0.5) * scale - 0.5).astype(np.float32)
        s = np.floor(pos).astype(np.int64)
        f = pos - s
    if mode == 'cubic':
        coef = _cubic_coeffs(f.astype(np.float64))
        taps = s[:, None] + np.arange(-1, 3)
    else:
        low, high = s < 0, s >= n_in - 1
        f = np.where(low | high, np.float32(0), f)
        s = np.clip(s, 0, n_in - 1)
        coef = np.stack([1 - f.astype(np.float64), f.astype(np.float64)], axis=1)
        taps = s[:, None] + np.arange(2)
    if fixed:
        coef = np.round(coef.astype(np.float32).astype(np.float64) * _COEF_SCALE)
    w = np.zeros((n_out, n_in))
    rows = np.repeat(d, taps.shape[1])
    np.add.at(w, (rows, np.clip(taps, 0, n_in - 1).ravel()), coef.ravel())
    return w


def _area(n_in, n_out):
    """Weights of OpenCV's downscaling area resize: each output averages the pixels it covers."""
    scale = n_in / n_out
    start = np.arange(n_out) * scale
    stop = start + scale
    edges = np.arange(n_in + 1)
    overlap = np.clip(np.minimum(stop[:, None], edges[None, 1:])
                      - np.maximum(start[:, None], edges[None, :-1]), 0, None)
    overlap[overlap <= 1e-3] = 0.0
    return overlap / np.minimum(scale, n_in - start)[:, None]


def _pil_cubic(n_in, n_out, a=-0.5):
    """Pillow's bicubic weights (support widened when shrinking), in its 22-bit fixed point."""
    scale = n_in / n_out
    support_scale = max(scale, 1.0)
    centre = (np.arange(n_out) + 0.5) * scale
    lo = np.maximum((centre - 2.0 * support_scale + 0.5).astype(np.int64), 0)
    hi = np.minimum((centre + 2.0 * support_scale + 0.5).astype(np.int64), n_in)
    j = np.arange(n_in)
    x = np.abs((j[None, :] - centre[:, None] + 0.5) / support_scale)
    k = np.where(x < 1, ((a + 2) * x - (a + 3)) * x * x + 1,
                 np.where(x < 2, (((x - 5) * x + 8) * x - 4) * a, 0.0))
    k = np.where((j[None, :] >= lo[:, None]) & (j[None, :] < hi[:, None]), k, 0.0)
    k = k / k.sum(axis=1, keepdims=True) * _PIL_ONE
    return np.trunc(k + np.copysign(0.5, k))


_PIL_ONE = float(1 << 22)


def _along(x, w, axis):
    """``w`` (n_out, n_in) applied along ``axis`` of ``x``: each output takes only the inputs
    its row of ``w`` weights (a few taps), so the cost follows the taps, not n_out * n_in."""
    nonzero = w != 0
    k = max(int(nonzero.sum(axis=1).max()), 1)
    if 4 * k >= w.shape[1]:                           # dense enough: one matrix product
        return np.moveaxis(np.tensordot(w, x, axes=(1, axis)), 0, axis)
    taps = np.sort(np.argsort(~nonzero, axis=1, kind='stable')[:, :k], axis=1)
    coef = np.take_along_axis(w, taps, axis=1)
    shape = [1] * x.ndim
    shape[axis] = w.shape[0]
    out = np.take(x, taps[:, 0], axis=axis) * coef[:, 0].reshape(shape)
    for j in range(1, k):
        out += np.take(x, taps[:, j], axis=axis) * coef[:, j].reshape(shape)
    return out


def _apply(img, wy, wx):
    """``wy @ img @ wx.T`` over the two leading (H, W) axes of a 2-D or 3-D image."""
    return _along(_along(img.astype(np.float64), wy, 0), wx, 1)


def resize(img, height, width, mode):
    """``img`` (H, W) or (H, W, C) resampled to (height, width) with ``mode``.

    ``mode`` is one of 'nearest', 'linear', 'cubic', 'area', or 'pilcubic' (uint8 only:
    Pillow's bicubic algorithm, which MindSpore reimplements for NumPy images). Integer images
    are rounded (half to even, as OpenCV's ``saturate_cast``) and clipped to their type; float
    images stay float.
    """
    h, w = img.shape[:2]
    dtype = img.dtype
    if dtype == np.bool_:
        img = img.astype(np.uint8)
    is_u8 = img.dtype == np.uint8
    if mode == 'pilcubic':
        # two passes (rows, then columns), each rounded and clipped to uint8, as Pillow does
        rows = np.tensordot(img.astype(np.float64), _pil_cubic(w, width), axes=(1, 1))
        rows = np.clip(np.floor((rows + _PIL_ONE / 2) / _PIL_ONE), 0, 255)
        out = np.tensordot(_pil_cubic(h, height), np.moveaxis(rows, -1, 1), axes=(1, 0))
        return np.clip(np.floor((out + _PIL_ONE / 2) / _PIL_ONE), 0, 255).astype(np.uint8)
    if mode == 'nearest':
        return img[_nearest(h, height)][:, _nearest(w, width)].astype(dtype)
    if mode == 'area' and height <= h and width <= w:
        out = _apply(img, _area(h, height), _area(w, width))
        if is_u8 and h % height == 0 and w % width == 0:
            # whole blocks: OpenCV's fast path rounds the block mean half up
            return np.floor(out + 0.5 + 1e-9).astype(np.uint8)
        return _cast(out, dtype)
    wy, wx = _interp(h, height, mode, is_u8), _interp(w, width, mode, is_u8)
    if is_u8 and mode != 'cubic':
        out = _linear_u8(img, wy, wx)
        return out if dtype == np.uint8 else out != 0
    out = _apply(img, wy, wx)
    if is_u8:
        out = np.floor((out + (1 << 21)) / float(1 << 22))
    return _cast(out, dtype)


def _linear_u8(img, wy, wx):
    """uint8 two-tap resize in OpenCV's fixed point, with the rounding of its SIMD row pass."""
    if wy.shape[1] == 1:        # a one-row image: its row again, with weight 0, as second tap
        img, wy = np.concatenate([img, img], 0), np.concatenate([wy, np.zeros_like(wy)], 1)
    rows = _along(img.astype(np.float64), wx, 1).astype(np.int64) >> 4    # exact ints
    taps = np.argsort(wy == 0, axis=1, kind='stable')[:, :2]       # the two source rows
    taps = np.sort(taps, axis=1)
    beta = np.take_along_axis(wy, taps, axis=1).astype(np.int64)
    shape = (-1,) + (1,) * (rows.ndim - 1)
    top = (rows[taps[:, 0]] * beta[:, 0].reshape(shape)) >> 16
    bottom = (rows[taps[:, 1]] * beta[:, 1].reshape(shape)) >> 16
    return np.clip((top + bottom + 2) >> 2, 0, 255).astype(np.uint8)


def _cast(out, dtype):
    """Float results to ``dtype``: rounded half to even and clipped for integer types."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.rint(out) != 0
    if dtype.kind in 'iu':
        info = np.iinfo(dtype)
        return np.clip(np.rint(out), info.min, info.max).astype(dtype)
    return out.astype(dtype)
