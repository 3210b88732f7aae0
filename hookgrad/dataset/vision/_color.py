"""Colour adjustments as MindSpore's CPU kernels do them (OpenCV colour conversions), in NumPy.

Each takes an RGB image (H, W, 3) and returns one of the same dtype; integer results are
rounded half to even and clipped, as OpenCV's ``saturate_cast``.
"""
import numpy as np

from ._resize import _cast

_GRAY_FIXED = (4899, 9617, 1868)        # OpenCV's RGB -> gray weights, in 1/16384
_HSV_SHIFT = 12


def gray(img):
    """Luma of an RGB image, (H, W) float: OpenCV's fixed point for uint8."""
    if img.dtype == np.uint8:
        r, g, b = (img[..., i].astype(np.int64) for i in range(3))
        return ((r * _GRAY_FIXED[0] + g * _GRAY_FIXED[1] + b * _GRAY_FIXED[2]
                 + (1 << 13)) >> 14).astype(np.float64)
    x = img.astype(np.float64)
    return 0.299 * x[..., 0] + 0.587 * x[..., 1] + 0.114 * x[..., 2]


def _blend(img, alpha, other, single=False):
    """``img * alpha + other * (1 - alpha)`` (OpenCV's addWeighted; ``single``: float32 sums)."""
    if single and img.dtype == np.uint8:
        out = (img.astype(np.float32) * np.float32(alpha)
               + np.asarray(other, np.float32) * np.float32(1.0 - alpha))
        return _cast(out, img.dtype)
    return _cast(img.astype(np.float64) * alpha + other * (1.0 - alpha), img.dtype)


def brightness(img, factor):
    x = img.astype(np.float32) if img.dtype == np.uint8 else img.astype(np.float64)
    return _cast(x * np.float32(factor), img.dtype)


def contrast(img, factor):
    """Blend with the mean luma (rounded to the image's type, as MindSpore does)."""
    mean = gray(img).mean()
    if img.dtype.kind in 'iu':
        mean = np.rint(mean)
    return _blend(img, factor, mean)


def saturation(img, factor):
    luma = gray(img)
    if img.dtype.kind in 'iu':
        luma = _cast(luma, img.dtype).astype(np.float64)
    return _blend(img, factor, luma[..., None], single=True)


def hue(img, factor):
    """Shift hue by ``factor`` of a turn: through OpenCV's 8-bit full-range HSV."""
    h, s, v = _rgb_to_hsv_full(img)
    h = (h + int(factor * 255)) % 256
    return _hsv_full_to_rgb(h, s, v)


def _rgb_to_hsv_full(img):
    """OpenCV's RGB2HSV_FULL for uint8: H, S, V in 0..255 (integer tables, rounding shifts)."""
    r, g, b = (img[..., i].astype(np.int64) for i in range(3))
    v = np.maximum(np.maximum(r, g), b)
    diff = v - np.minimum(np.minimum(r, g), b)
    half = 1 << (_HSV_SHIFT - 1)
    with np.errstate(divide='ignore'):
        sdiv = np.where(v == 0, 0, np.rint((255 << _HSV_SHIFT) / np.maximum(v, 1)))
        hdiv = np.where(diff == 0, 0, np.rint((256 << _HSV_SHIFT) / (6.0 * np.maximum(diff, 1))))
    s = (diff * sdiv.astype(np.int64) + half) >> _HSV_SHIFT
    hue = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    hue = (hue * hdiv.astype(np.int64) + half) >> _HSV_SHIFT
    hue = np.where(hue < 0, hue + 256, hue)
    return hue, s, v


def _hsv_full_to_rgb(h, s, v):
    """OpenCV's HSV2RGB_FULL for uint8: float conversion with H over 255 (not 256), rounded."""
    hf = h * np.float32(6.0 / 255)
    sf, vf = s / 255.0, v / 255.0
    sector = np.floor(hf)
    frac = hf - sector
    sector = sector.astype(np.int64) % 6
    p = vf * (1 - sf)
    q = vf * (1 - sf * frac)
    t = vf * (1 - sf * (1 - frac))
    table = np.stack([np.stack(c, -1) for c in
                      ((vf, t, p), (q, vf, p), (p, vf, t), (p, q, vf), (t, p, vf), (vf, p, q))])
    rgb = np.take_along_axis(table, sector[None, ..., None], axis=0)[0]
    rgb = np.where((sf == 0)[..., None], vf[..., None], rgb)
    return np.clip(np.rint(rgb * 255), 0, 255).astype(np.uint8)
