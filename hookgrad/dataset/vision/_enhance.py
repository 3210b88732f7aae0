"""The image operations of the automatic augmentations (AutoAugment, RandAugment,
TrivialAugmentWide), on uint8 RGB arrays (H, W, 3), whole-array in NumPy.

Each follows MindSpore 2.10's C++ operation (OpenCV 4.11 underneath): geometry through
``_warp.warp_affine`` (OpenCV's warpAffine) with MindSpore's affine matrices, blends as OpenCV's
vectorised ``addWeighted`` (fused multiply-adds in float32), OpenCV's ``equalizeHist`` and
15-bit grey weights, MindSpore's truncating auto-contrast table and 3x3 sharpness kernel.
"""
import numpy as np

from . import _color, _warp


def affine(img, matrix, mode, fill):
    """``img`` under the 2x3 source-to-output ``matrix``; uncovered pixels read ``fill``."""
    h, w = img.shape[:2]
    return _warp.warp_affine(img, np.asarray(matrix, np.float64), h, w, mode, np.asarray(fill))


def affine_matrix(height, width, degrees=0.0, tx=0.0, ty=0.0, scale=1.0, shear_x=0.0,
                  shear_y=0.0):
    """MindSpore's affine matrix (float32 entries, source to output) about the image centre:
    a rotation by ``degrees`` (clockwise on screen), ``scale``, shears in radians, then a
    translation of (tx, ty) pixels."""
    f32 = np.float32
    angle = f32(np.pi * f32(degrees) / 180.0)
    sx, sy = f32(shear_x), f32(-f32(shear_y))
    s = f32(scale)
    a = f32(s * np.cos(angle + sy) / np.cos(sy))
    b = f32(s * (-np.cos(angle + sy) * np.tan(sx) / np.cos(sy) - np.sin(angle)))
    d = f32(s * np.sin(angle + sy) / np.cos(sy))
    e = f32(s * (-np.sin(angle + sy) * np.tan(sx) / np.cos(sy) + np.cos(angle)))
    cx, cy = f32((width - 1) / 2.0), f32((height - 1) / 2.0)
    return [[a, b, f32((1 - a) * cx - b * cy + f32(tx))],
            [d, e, f32((1 - e) * cy - d * cx + f32(ty))]]


def shear_translate_matrix(height, width, shear_x=0.0, shear_y=0.0, tx=0.0, ty=0.0):
    """``affine_matrix`` without rotation or scaling (shears in radians, shifts in pixels)."""
    return affine_matrix(height, width, tx=tx, ty=ty, shear_x=shear_x, shear_y=shear_y)


def shear_x(img, amount, mode, fill):
    return affine(img, shear_translate_matrix(*img.shape[:2], shear_x=amount), mode, fill)


def shear_y(img, amount, mode, fill):
    return affine(img, shear_translate_matrix(*img.shape[:2], shear_y=amount), mode, fill)


def translate_x(img, amount, mode, fill):
    """MindSpore's TranslateX: the whole part of ``amount`` times the width (a shift of at
    least one width leaves only fill pixels)."""
    h, w = img.shape[:2]
    return affine(img, shear_translate_matrix(h, w, tx=int(amount) * w), mode, fill)


def translate_y(img, amount, mode, fill):
    h, w = img.shape[:2]
    return affine(img, shear_translate_matrix(h, w, ty=int(amount) * h), mode, fill)


def rotate(img, degrees, mode, fill):
    m, h, w = _warp.rotation_matrix(degrees, None, *img.shape[:2], False)
    return affine(img, m, mode, fill)


def brightness(img, factor):
    return _color.brightness(img, factor)


def add_weighted(a, alpha, b, beta):
    """OpenCV's ``addWeighted`` of uint8 images as its vector kernel computes it:
    ``fma(a, alpha, fma(b, beta, 0))`` in float32, rounded half to even."""
    f32 = np.float32
    inner = (b.astype(np.float64) * float(f32(beta))).astype(np.float32)
    out = (a.astype(np.float64) * float(f32(alpha)) + inner).astype(np.float32)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def gray(img):
    """The grey level of uint8 RGB pixels as OpenCV 4.11's RGB2GRAY computes it (weights in
    1/32768, rounded), the version in MindSpore 2.10."""
    r, g, b = (img[..., i].astype(np.int64) for i in range(3))
    return ((r * 9798 + g * 19235 + b * 3735 + (1 << 14)) >> 15).astype(np.uint8)


def color(img, factor):
    """MindSpore's AdjustSaturation: blend with the grey image."""
    return add_weighted(np.repeat(gray(img)[..., None], 3, axis=2), 1.0 - factor, img, factor)


def contrast(img, factor):
    """MindSpore's AdjustContrast: blend with the mean grey level (rounded)."""
    mean = int(gray(img).mean() + 0.5)
    return add_weighted(np.full_like(img, mean), 1.0 - factor, img, factor)


def sharpness(img, factor):
    """Blend with the image smoothed by PIL's kernel [[1,1,1],[1,5,1],[1,1,1]] / 13 (the
    one-pixel border stays as it is), as MindSpore's Sharpness; float images in float32."""
    h, w = img.shape[:2]
    if h < 3 or w < 3:
        return img.copy()
    uint8 = img.dtype == np.uint8
    x = img.astype(np.float64 if uint8 else np.float32)
    total = 4 * x[1:-1, 1:-1]
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            total = total + x[dy:h - 2 + dy, dx:w - 2 + dx]
    if not uint8:
        smooth = x.copy()
        smooth[1:-1, 1:-1] = total / np.float32(13)
        f32 = np.float32
        return (x * f32(factor) + smooth * f32(1.0 - factor)).astype(img.dtype)
    smooth = img.copy()
    smooth[1:-1, 1:-1] = np.rint(total / 13)
    return add_weighted(img, factor, smooth, 1.0 - factor)


def posterize(img, bits):
    """Keep the ``bits`` high bits of every value."""
    mask = np.uint8((0xFF << (8 - int(bits))) & 0xFF)
    return img & mask


def solarize(img, threshold):
    """Invert the values at or above ``threshold``."""
    return np.where(img >= threshold, 255 - img, img).astype(img.dtype)


def invert(img):
    return (255 - img).astype(img.dtype)


def _per_channel_lut(img, luts):
    """``img`` (H, W, C) with channel c mapped through ``luts[c]`` (C x 256)."""
    channels = np.arange(img.shape[2])
    return luts[channels[None, None, :], img].astype(np.uint8)


def auto_contrast(img, cutoff=0, ignore=()):
    """Stretch each channel's histogram range to [0, 255] (float32, truncated, as MindSpore's
    table), after removing the values in ``ignore`` and ``int(cutoff)`` percent of the pixels
    at each end; flat channels stay."""
    channels = img.shape[2]
    flat = img.reshape(-1, channels)
    hist = np.stack([np.bincount(flat[:, c], minlength=256) for c in range(channels)])
    hist[:, list(ignore)] = 0
    percent = int(cutoff)
    if percent > 0:
        cut = (np.float32(percent / 100.0) * hist.sum(axis=1)).astype(np.int64)[:, None]
        hist = np.clip(np.cumsum(hist, axis=1) - cut, 0, hist)
        tail = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1]
        hist = np.clip(tail - cut, 0, hist)
    present = hist > 0
    lo = np.where(present.any(axis=1), np.argmax(present, axis=1), 255)
    hi = np.where(present.any(axis=1), 255 - np.argmax(present[:, ::-1], axis=1), -1)
    keep = hi <= lo
    scale = np.where(keep, np.float32(1), np.float32(255) / np.where(keep, 1, hi - lo))
    scale = scale.astype(np.float32)
    offset = np.where(keep, np.float32(0), -lo * scale).astype(np.float32)
    values = np.arange(256, dtype=np.float32)
    luts = np.clip(np.trunc(values[None, :] * scale[:, None] + offset[:, None]), 0, 255)
    return _per_channel_lut(img, luts)


def gamma(img, gamma_, gain):
    """MindSpore's AdjustGamma: for uint8 a table floor(min(255, (i / 255) ** gamma * 255.999
    * gain)) in float32; for floats (x * gain) ** gamma clipped to [0, 1]."""
    f32 = np.float32
    if img.dtype == np.uint8:
        base = (np.arange(256) / f32(255)).astype(np.float32)
        lut = np.minimum((base ** f32(gamma_)).astype(np.float32) * f32(256 - 1e-3) * f32(gain),
                         f32(255))
        return np.floor(lut).astype(np.uint8)[img]
    out = (img.astype(np.float32) * f32(gain)) ** f32(gamma_)
    return np.clip(out, 0, 1).astype(img.dtype)


def equalize(img):
    """OpenCV's ``equalizeHist`` on each channel."""
    channels = img.shape[2]
    flat = img.reshape(-1, channels)
    total = flat.shape[0]
    hist = np.stack([np.bincount(flat[:, c], minlength=256) for c in range(channels)])
    first = np.argmax(hist > 0, axis=1)
    first_count = hist[np.arange(channels), first]
    cum = np.cumsum(hist, axis=1) - first_count[:, None]
    spread = total - first_count
    scale = np.float32(255) / np.where(spread == 0, 1, spread).astype(np.float32)
    luts = np.clip(np.rint(cum.astype(np.float32) * scale[:, None]), 0, 255)
    constant = spread == 0                  # a one-value channel becomes that value
    luts[constant] = first[constant, None]
    return _per_channel_lut(img, luts)


def apply(name, img, magnitude, mode, fill, rotate_fill=None):
    """Operation ``name`` with its float32 magnitude (a factor offset, a shear in radians,
    pixels, degrees, bits...); ``rotate_fill`` replaces ``fill`` for Rotate."""
    if name == 'Identity':
        return img
    if name == 'Rotate' and rotate_fill is not None:
        fill = rotate_fill
    if name in _GEOMETRY:
        return _GEOMETRY[name](img, magnitude, mode, fill)
    if name in _FACTOR:
        return _FACTOR[name](img, float(np.float32(1) + np.float32(magnitude)))
    if name == 'Posterize':
        return posterize(img, magnitude)
    if name == 'Solarize':
        return solarize(img, magnitude)
    return _PLAIN[name](img)


_GEOMETRY = {'ShearX': shear_x, 'ShearY': shear_y, 'TranslateX': translate_x,
             'TranslateY': translate_y, 'Rotate': rotate}
_FACTOR = {'Brightness': brightness, 'Color': color, 'Contrast': contrast,
           'Sharpness': sharpness}
_PLAIN = {'AutoContrast': auto_contrast, 'Equalize': equalize, 'Invert': invert}
SIGNED = frozenset(_GEOMETRY) | frozenset(_FACTOR)
