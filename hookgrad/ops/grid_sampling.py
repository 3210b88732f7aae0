"""``grid_sample``: values of (N, C, H, W) at the normalised (x, y) positions of a grid,
composed of hookgrad's ops (gathers weighted by the bilinear weights), so gradients reach both
the input and the grid."""
from .._dtype import int64
from .arithmetic import add, cast, div, mul, sub
from .broadcasting import broadcast_to
from .comparison import clamp, eq, ge, le, logical_and
from .creation import zeros_like
from .elementwise import fmod, round as _round
from .indexing import where
from .scatter_gather import gather_elements
from .shaping import reshape, unsqueeze
from .unary import abs as _abs, floor

__all__ = ['grid_sample']

_MODES = ('bilinear', 'nearest')
_PADDINGS = ('zeros', 'border', 'reflection')


def _unnormalise(coord, size, align_corners):
    """[-1, 1] to pixel coordinates: -1 and 1 are the corner pixels' centres
    (``align_corners``) or their outer edges."""
    if align_corners:
        return mul(add(coord, 1), (size - 1) / 2)
    return div(sub(mul(add(coord, 1), size), 1), 2)


def _reflect(coord, low2, high2):
    """``coord`` reflected into [low2 / 2, high2 / 2] (bounds given doubled, as PyTorch)."""
    if low2 == high2:
        return zeros_like(coord)
    lo, span = low2 / 2, (high2 - low2) / 2
    dist = _abs(sub(coord, lo))
    extra = fmod(dist, span)
    flips = floor(div(dist, span))
    even = eq(fmod(flips, 2), 0)
    return where(even, add(extra, lo), add(sub(span, extra), lo))


def _source(coord, size, padding_mode, align_corners):
    coord = _unnormalise(coord, size, align_corners)
    if padding_mode == 'reflection':
        coord = _reflect(coord, 0, 2 * (size - 1)) if align_corners else \
            _reflect(coord, -1, 2 * size - 1)
    if padding_mode != 'zeros':
        coord = clamp(coord, 0, size - 1)
    return coord


def _pick(flat, ix, iy, w, h):
    """Values of ``flat`` (N, C, H * W) at integer positions (N, L); 0 outside the image."""
    inside = logical_and(logical_and(ge(ix, 0), le(ix, w - 1)),
                             logical_and(ge(iy, 0), le(iy, h - 1)))
    index = cast(add(mul(clamp(iy, 0, h - 1), w), clamp(ix, 0, w - 1)),
                     int64)
    n, c = flat.shape[:2]
    index = broadcast_to(unsqueeze(index, 1), (n, c, index.shape[-1]))
    values = gather_elements(flat, 2, index)
    return mul(values, cast(unsqueeze(inside, 1), flat.dtype))


def grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None):
    """Samples of ``input`` (N, C, H, W) at ``grid`` (N, Ho, Wo, 2) of (x, y) in [-1, 1];
    returns (N, C, Ho, Wo). ``mode`` 'bilinear' or 'nearest'; outside the image ``padding_mode``
    gives zeros, the border value or the reflected position's value."""
    if mode not in _MODES:
        raise ValueError(f"ops.grid_sample: mode must be one of {_MODES}, got "
                         f"{mode!r}")
    if padding_mode not in _PADDINGS:
        raise ValueError(f"ops.grid_sample: padding_mode must be one of "
                         f"{_PADDINGS}, got {padding_mode!r}")
    if input.ndim != 4 or grid.ndim != 4 or grid.shape[-1] != 2 or grid.shape[0] != \
            input.shape[0]:
        raise ValueError(f"ops.grid_sample: expects input (N, C, H, W) and grid "
                         f"(N, Ho, Wo, 2), got shapes {input.shape} and {grid.shape}")
    align = bool(align_corners)
    n, c, h, w = input.shape
    ho, wo = grid.shape[1:3]
    flat = reshape(input, (n, c, h * w))
    gx = reshape(grid[..., 0], (n, ho * wo))
    gy = reshape(grid[..., 1], (n, ho * wo))
    x = _source(gx, w, padding_mode, align)
    y = _source(gy, h, padding_mode, align)
    if mode == 'nearest':
        out = _pick(flat, _round(x), _round(y), w, h)
    else:
        x0, y0 = floor(x), floor(y)
        fx, fy = sub(x, x0), sub(y, y0)
        x1, y1 = add(x0, 1), add(y0, 1)
        out = None
        for xi, yi, weight in ((x0, y0, mul(sub(1, fx), sub(1, fy))),
                               (x1, y0, mul(fx, sub(1, fy))),
                               (x0, y1, mul(sub(1, fx), fy)),
                               (x1, y1, mul(fx, fy))):
            term = mul(_pick(flat, xi, yi, w, h), unsqueeze(weight, 1))
            out = term if out is None else add(out, term)
    return reshape(out, (n, c, ho, wo))
