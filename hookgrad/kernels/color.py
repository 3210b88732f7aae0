"""RGB <-> HSV conversions of floating arrays whose last axis holds the three channels (hue and
saturation in [0, 1], value in the input's scale), as Python's ``colorsys``: array code shared
by ``dataset.vision``'s RgbToHsv / HsvToRgb and ``ops``' RGBToHSV / HSVToRGB. Each works in
the input's floating dtype with its array module (NumPy or CuPy).
"""
from .backend import array_module

__all__ = ['rgb_to_hsv', 'hsv_to_rgb']


def rgb_to_hsv(x):
    """HSV of the RGB array x (..., 3): a grey pixel has hue and saturation 0."""
    xp = array_module(x)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    maxc, minc = x.max(axis=-1), x.min(axis=-1)
    span = maxc - minc
    flat = span == 0
    safe = xp.where(flat, 1, span)
    rc, gc, bc = (maxc - r) / safe, (maxc - g) / safe, (maxc - b) / safe
    h = xp.where(r == maxc, bc - gc, xp.where(g == maxc, 2.0 + rc - bc, 4.0 + gc - rc))
    h = xp.where(flat, 0.0, (h / 6.0) % 1.0)
    s = xp.where(flat, 0.0, span / xp.where(maxc == 0, 1, maxc))
    return xp.stack([h, s, maxc], axis=-1).astype(x.dtype, copy=False)


def hsv_to_rgb(x):
    """RGB of the HSV array x (..., 3), the hue's sixth picking the sector."""
    xp = array_module(x)
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    sector = xp.trunc(h * 6.0)
    f = h * 6.0 - sector
    p, q, t = v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f))
    table = xp.stack([xp.stack(c, -1) for c in
                      ((v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q))])
    index = (sector.astype(xp.int64) % 6)[None, ..., None]
    rgb = xp.take_along_axis(table, index, axis=0)[0]
    return xp.where((s == 0.0)[..., None], v[..., None], rgb).astype(x.dtype, copy=False)
