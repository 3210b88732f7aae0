"""Rotation, affine and perspective warps as MindSpore's CPU kernels do them (OpenCV's
``warpAffine`` and ``warpPerspective``).

Source coordinates follow OpenCV's fixed point (1/1024 pixel, then 1/32 pixel for the
interpolation tables), so nearest and uint8 bilinear results match MindSpore's exactly; bicubic
weights are computed in floating point (within one grey level of OpenCV's tables).
"""
import math

import numpy as np

from . import _resize

_AB_BITS = 10           # OpenCV's fixed-point bits of affine coordinates
_INTER_BITS = 5         # sub-pixel bits of the interpolation tables (1/32 pixel)
_PAD = 3                # fill pixels around the image: any tap beyond them reads the fill


def rotation_matrix(degrees, center, height, width, expand):
    """The 2x3 source-to-output matrix and output (height, width) of MindSpore's Rotate."""
    cx, cy = ((width - 1) / 2.0, (height - 1) / 2.0) if center is None else center
    a = math.cos(math.radians(degrees))
    b = math.sin(math.radians(degrees))
    m = np.array([[a, b, (1 - a) * cx - b * cy], [-b, a, b * cx + (1 - a) * cy]])
    if not expand:
        return m, height, width
    a32, b32 = abs(np.float32(a)), abs(np.float32(b))
    box_w = np.float32(width) * a32 + np.float32(height) * b32
    box_h = np.float32(width) * b32 + np.float32(height) * a32
    m[0, 2] += box_w / 2.0 - width / 2.0
    m[1, 2] += box_h / 2.0 - height / 2.0
    return m, int(np.rint(box_h)), int(np.rint(box_w))


def _invert(m):
    a, b, c = m[0]
    d, e, f = m[1]
    det = a * e - b * d
    det = 1.0 / det if det != 0 else 0.0
    ia, ib, id_, ie = e * det, -b * det, -d * det, a * det
    return np.array([[ia, ib, -ia * c - ib * f], [id_, ie, -id_ * c - ie * f]])


def warp_affine(img, m, height, width, mode, fill):
    """``img`` (H, W) or (H, W, C) warped by source-to-output matrix ``m`` (OpenCV's warpAffine).

    ``mode``: 'nearest', 'linear' or 'cubic'; pixels taken from outside the image read ``fill``
    (one value per channel).
    """
    inv = _invert(m)
    scale = 1 << _AB_BITS
    xs, ys = np.arange(width), np.arange(height)
    adelta = np.rint(inv[0, 0] * xs * scale).astype(np.int64)
    bdelta = np.rint(inv[1, 0] * xs * scale).astype(np.int64)
    x0 = np.rint((inv[0, 1] * ys + inv[0, 2]) * scale).astype(np.int64)
    y0 = np.rint((inv[1, 1] * ys + inv[1, 2]) * scale).astype(np.int64)
    nearest = mode == 'nearest'
    shift = _AB_BITS if nearest else _AB_BITS - _INTER_BITS
    delta = scale // 2 if nearest else scale >> (_INTER_BITS + 1)
    gx = (x0[:, None] + delta + adelta[None, :]) >> shift
    gy = (y0[:, None] + delta + bdelta[None, :]) >> shift
    return _sample(img, gx, gy, mode, fill)


def perspective_matrix(src, dst):
    """The 3x3 homography taking the four ``src`` points (x, y) to ``dst``, as OpenCV's
    ``getPerspectiveTransform`` computes it (its row order and LU elimination, in double)."""
    a = np.zeros((8, 8))
    b = np.zeros(8)
    for i, ((x, y), (u, v)) in enumerate(zip(np.float32(src), np.float32(dst))):
        a[i, :3] = a[i + 4, 3:6] = (x, y, 1.0)
        a[i, 6:] = (float(-x * u), float(-y * u))
        a[i + 4, 6:] = (float(-x * v), float(-y * v))
        b[i], b[i + 4] = u, v
    return np.append(_lu_solve(a, b), 1.0).reshape(3, 3)


def _lu_solve(a, b):
    """OpenCV's LUImpl: Gaussian elimination with partial pivoting, then back substitution."""
    a, b = a.copy(), b.copy()
    m = len(b)
    for i in range(m):
        k = i
        for j in range(i + 1, m):
            if abs(a[j, i]) > abs(a[k, i]):
                k = j
        if k != i:
            a[[i, k], i:] = a[[k, i], i:]
            b[[i, k]] = b[[k, i]]
        d = -1.0 / a[i, i]
        for j in range(i + 1, m):
            alpha = a[j, i] * d
            a[j, i + 1:] += alpha * a[i, i + 1:]
            b[j] += alpha * b[i]
    for i in range(m - 1, -1, -1):
        s = b[i]
        for k in range(i + 1, m):
            s -= a[i, k] * b[k]
        b[i] = s / a[i, i]
    return b


def _invert3(m):
    """OpenCV's closed-form 3x3 inverse (``invert`` with DECOMP_LU for n = 3)."""
    det = (m[0, 0] * (m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1])
           - m[0, 1] * (m[1, 0] * m[2, 2] - m[1, 2] * m[2, 0])
           + m[0, 2] * (m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0]))
    if det == 0:
        return np.zeros((3, 3))
    d = 1.0 / det
    return np.array([
        [(m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1]) * d, (m[0, 2] * m[2, 1] - m[0, 1] * m[2, 2]) * d,
         (m[0, 1] * m[1, 2] - m[0, 2] * m[1, 1]) * d],
        [(m[1, 2] * m[2, 0] - m[1, 0] * m[2, 2]) * d, (m[0, 0] * m[2, 2] - m[0, 2] * m[2, 0]) * d,
         (m[0, 2] * m[1, 0] - m[0, 0] * m[1, 2]) * d],
        [(m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0]) * d, (m[0, 1] * m[2, 0] - m[0, 0] * m[2, 1]) * d,
         (m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]) * d]])


def warp_perspective(img, m, mode, fill):
    """``img`` under the 3x3 source-to-output homography ``m`` (OpenCV's warpPerspective, same
    output size): source coordinates in double, rounded to whole pixels (nearest) or to 1/32
    pixel (the interpolation tables)."""
    inv = _invert3(np.asarray(m, np.float64))
    h, w = img.shape[:2]
    xs, ys = np.arange(w, dtype=np.float64)[None, :], np.arange(h, dtype=np.float64)[:, None]
    x = inv[0, 0] * xs + (inv[0, 1] * ys + inv[0, 2])
    y = inv[1, 0] * xs + (inv[1, 1] * ys + inv[1, 2])
    den = inv[2, 0] * xs + (inv[2, 1] * ys + inv[2, 2])
    scale = 1.0 if mode == 'nearest' else float(1 << _INTER_BITS)
    with np.errstate(divide='ignore'):
        factor = np.where(den != 0, scale / np.where(den != 0, den, 1), 0.0)
    limit = float(np.iinfo(np.int32).max)
    gx = np.rint(np.clip(x * factor, -limit - 1, limit)).astype(np.int64)
    gy = np.rint(np.clip(y * factor, -limit - 1, limit)).astype(np.int64)
    return _sample(img, gx, gy, mode, fill)


def _sample(img, gx, gy, mode, fill):
    """``img`` read at source positions ``gx``, ``gy`` (whole pixels for nearest, 1/32 pixel
    otherwise); taps outside the image read ``fill``."""
    padded = _padded(img, fill)
    h, w = img.shape[:2]
    if mode == 'nearest':
        return padded[_clip(gy, h), _clip(gx, w)]
    ix, fx = gx >> _INTER_BITS, (gx & 31) / 32.0
    iy, fy = gy >> _INTER_BITS, (gy & 31) / 32.0
    if mode == 'linear':
        taps, wx, wy = (0, 1), np.stack([1 - fx, fx]), np.stack([1 - fy, fy])
    else:
        taps = (-1, 0, 1, 2)
        wx = np.moveaxis(_resize._cubic_coeffs(fx.ravel()).reshape(fx.shape + (4,)), -1, 0)
        wy = np.moveaxis(_resize._cubic_coeffs(fy.ravel()).reshape(fy.shape + (4,)), -1, 0)
    out = 0.0
    extra = (slice(None), slice(None)) + (None,) * (img.ndim - 2)
    for j, ty in enumerate(taps):
        for i, tx in enumerate(taps):
            weight = (wy[j] * wx[i])[extra]
            out = out + weight * padded[_clip(iy + ty, h), _clip(ix + tx, w)]
    if img.dtype == np.uint8 and mode == 'linear':
        return np.floor(out + 0.5).clip(0, 255).astype(np.uint8)     # weights are k/1024: exact
    return _resize._cast(out, img.dtype)


def _padded(img, fill):
    fill = np.asarray(fill, dtype=np.float64)
    pad = ((_PAD, _PAD), (_PAD, _PAD)) + ((0, 0),) * (img.ndim - 2)
    out = np.pad(img, pad).astype(img.dtype)
    border = np.ones(out.shape[:2], bool)
    border[_PAD:-_PAD, _PAD:-_PAD] = False
    out[border] = fill if img.ndim == 3 else fill.ravel()[0]
    return out


def _clip(index, size):
    """Indices into the padded image: out-of-image ones land on fill pixels."""
    return np.clip(index, -_PAD, size + _PAD - 1) + _PAD
