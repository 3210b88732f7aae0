"""Gaussian blurring as MindSpore's CPU kernel does it (OpenCV's ``GaussianBlur`` with
reflect-101 borders), in NumPy: one separable pass per axis.

uint8 images follow OpenCV's bit-exact fixed-point path (kernel taps in 1/256, the horizontal
pass kept in 1/256, the vertical one in 1/65536, then rounded); float images are filtered in
float32.
"""
import numpy as np

_FIXED_BITS = 8


def default_sigma(size):
    """OpenCV's sigma for a kernel of ``size`` taps: 0.3 ((size - 1) / 2 - 1) + 0.8."""
    return 0.3 * ((size - 1) * 0.5 - 1) + 0.8


def gaussian_kernel(size, sigma):
    """exp(-x^2 / (2 sigma^2)) over ``size`` taps centred on 0, normalised to sum 1."""
    x = np.arange(size) - (size - 1) * 0.5
    k = np.exp(-x * x / (2.0 * sigma * sigma))
    return k / k.sum()


def _fixed_kernel(kernel):
    """Taps in 1/256 as OpenCV rounds them: the outer half with the rounding error carried
    inwards, mirrored, and the centre tap making the sum exactly 256."""
    half = len(kernel) // 2
    taps = np.zeros(len(kernel), np.int64)
    err = 0.0
    for i in range(half):
        adjusted = kernel[i] * (1 << _FIXED_BITS) + err
        taps[i] = taps[-1 - i] = int(np.rint(adjusted))
        err = adjusted - taps[i]
    taps[half] = (1 << _FIXED_BITS) - 2 * taps[:half].sum()
    return taps


def _correlate(img, kernel, axis):
    """``img`` filtered along ``axis`` (0 rows, 1 columns) with reflect-101 borders."""
    radius = len(kernel) // 2
    pad = [(0, 0)] * img.ndim
    pad[axis] = (radius, radius)
    padded = np.pad(img, pad, mode='reflect') if img.shape[axis] > 1 else \
        np.pad(img, pad, mode='edge')
    n = img.shape[axis]
    out = 0
    for i, k in enumerate(kernel):
        out = out + k * np.take(padded, np.arange(i, i + n), axis=axis)
    return out


def gaussian_blur(img, ksize_x, ksize_y, sigma_x, sigma_y):
    """``img`` (H, W) or (H, W, C) blurred with a ``ksize_x`` wide, ``ksize_y`` high kernel
    (sigmas > 0)."""
    kx, ky = gaussian_kernel(ksize_x, sigma_x), gaussian_kernel(ksize_y, sigma_y)
    if img.dtype == np.uint8:
        rows = _correlate(img.astype(np.int64), _fixed_kernel(kx), 1)
        out = _correlate(rows, _fixed_kernel(ky), 0)
        half = 1 << (2 * _FIXED_BITS - 1)
        return np.clip((out + half) >> (2 * _FIXED_BITS), 0, 255).astype(np.uint8)
    f32 = np.float32
    rows = _correlate(img.astype(np.float32), kx.astype(f32), 1).astype(f32)
    return _correlate(rows, ky.astype(f32), 0).astype(img.dtype)
