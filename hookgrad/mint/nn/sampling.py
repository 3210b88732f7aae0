"""``grid_sample``: values of (N, C, H, W) at the normalised (x, y) positions of a grid,
composed of hookgrad's ops (gathers weighted by the bilinear weights), so gradients reach both
the input and the grid."""
from ... import ops
from ..._dtype import int64

__all__ = ['grid_sample']

_MODES = ('bilinear', 'nearest')
_PADDINGS = ('zeros', 'border', 'reflection')


def _unnormalise(coord, size, align_corners):
    """[-1, 1] to pixel coordinates: -1 and 1 are the corner pixels' centres
    (``align_corners``) or their outer edges."""
    if align_corners:
        return ops.mul(ops.add(coord, 1), (size - 1) / 2)
    return ops.div(ops.sub(ops.mul(ops.add(coord, 1), size), 1), 2)


def _reflect(coord, low2, high2):
    """``coord`` reflected into [low2 / 2, high2 / 2] (bounds given doubled, as PyTorch)."""
    if low2 == high2:
        return ops.zeros_like(coord)
    lo, span = low2 / 2, (high2 - low2) / 2
    dist = ops.abs(ops.sub(coord, lo))
    extra = ops.fmod(dist, span)
    flips = ops.floor(ops.div(dist, span))
    even = ops.eq(ops.fmod(flips, 2), 0)
    return ops.where(even, ops.add(extra, lo), ops.add(ops.sub(span, extra), lo))


def _source(coord, size, padding_mode, align_corners):
    coord = _unnormalise(coord, size, align_corners)
    if padding_mode == 'reflection':
        coord = _reflect(coord, 0, 2 * (size - 1)) if align_corners else \
            _reflect(coord, -1, 2 * size - 1)
    if padding_mode != 'zeros':
        coord = ops.clamp(coord, 0, size - 1)
    return coord


def _pick(flat, ix, iy, w, h):
    """Values of ``flat`` (N, C, H * W) at integer positions (N, L); 0 outside the image."""
    inside = ops.logical_and(ops.logical_and(ops.ge(ix, 0), ops.le(ix, w - 1)),
                             ops.logical_and(ops.ge(iy, 0), ops.le(iy, h - 1)))
    index = ops.cast(ops.add(ops.mul(ops.clamp(iy, 0, h - 1), w), ops.clamp(ix, 0, w - 1)),
                     int64)
    n, c = flat.shape[:2]
    index = ops.broadcast_to(ops.unsqueeze(index, 1), (n, c, index.shape[-1]))
    values = ops.gather_elements(flat, 2, index)
    return ops.mul(values, ops.cast(ops.unsqueeze(inside, 1), flat.dtype))


def grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None):
    """Samples of ``input`` (N, C, H, W) at ``grid`` (N, Ho, Wo, 2) of (x, y) in [-1, 1];
    returns (N, C, Ho, Wo). ``mode`` 'bilinear' or 'nearest'; outside the image ``padding_mode``
    gives zeros, the border value or the reflected position's value."""
    if mode not in _MODES:
        raise ValueError(f"mint.nn.functional.grid_sample: mode must be one of {_MODES}, got "
                         f"{mode!r}")
    if padding_mode not in _PADDINGS:
        raise ValueError(f"mint.nn.functional.grid_sample: padding_mode must be one of "
                         f"{_PADDINGS}, got {padding_mode!r}")
    if input.ndim != 4 or grid.ndim != 4 or grid.shape[-1] != 2 or grid.shape[0] != \
            input.shape[0]:
        raise ValueError(f"mint.nn.functional.grid_sample: expects input (N, C, H, W) and grid "
                         f"(N, Ho, Wo, 2), got shapes {input.shape} and {grid.shape}")
    align = bool(align_corners)
    n, c, h, w = input.shape
    ho, wo = grid.shape[1:3]
    flat = ops.reshape(input, (n, c, h * w))
    gx = ops.reshape(grid[..., 0], (n, ho * wo))
    gy = ops.reshape(grid[..., 1], (n, ho * wo))
    x = _source(gx, w, padding_mode, align)
    y = _source(gy, h, padding_mode, align)
    if mode == 'nearest':
        out = _pick(flat, ops.round(x), ops.round(y), w, h)
    else:
        x0, y0 = ops.floor(x), ops.floor(y)
        fx, fy = ops.sub(x, x0), ops.sub(y, y0)
        x1, y1 = ops.add(x0, 1), ops.add(y0, 1)
        out = None
        for xi, yi, weight in ((x0, y0, ops.mul(ops.sub(1, fx), ops.sub(1, fy))),
                               (x1, y0, ops.mul(fx, ops.sub(1, fy))),
                               (x0, y1, ops.mul(ops.sub(1, fx), fy)),
                               (x1, y1, ops.mul(fx, fy))):
            term = ops.mul(_pick(flat, xi, yi, w, h), ops.unsqueeze(weight, 1))
            out = term if out is None else ops.add(out, term)
    return ops.reshape(out, (n, c, ho, wo))
