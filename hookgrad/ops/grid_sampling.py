"""``grid_sample``: values of (N, C, H, W) or (N, C, D, H, W) at the normalised positions of a
grid, composed of hookgrad's ops (gathers weighted by the bilinear or trilinear weights), so
gradients reach both the input and the grid."""
import itertools

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


def _pick(flat, positions, sizes):
    """Values of ``flat`` (N, C, prod(sizes)) at the integer positions (N, L) along each axis
    of ``sizes`` (fastest first: W, H[, D]); 0 outside the input."""
    inside, index, stride = None, None, 1
    for pos, size in zip(positions, sizes):
        ok = logical_and(ge(pos, 0), le(pos, size - 1))
        inside = ok if inside is None else logical_and(inside, ok)
        term = mul(clamp(pos, 0, size - 1), stride)
        index = term if index is None else add(index, term)
        stride *= size
    index = cast(index, int64)
    n, c = flat.shape[:2]
    index = broadcast_to(unsqueeze(index, 1), (n, c, index.shape[-1]))
    values = gather_elements(flat, 2, index)
    return mul(values, cast(unsqueeze(inside, 1), flat.dtype))


def grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None):
    """Samples of ``input`` (N, C, H, W) at ``grid`` (N, Ho, Wo, 2) of (x, y) in [-1, 1], or
    of (N, C, D, H, W) at (N, Do, Ho, Wo, 3) of (x, y, z); returns (N, C, *grid's middle
    axes). ``mode`` 'bilinear' (trilinear for 5-d) or 'nearest'; outside the input
    ``padding_mode`` gives zeros, the border value or the reflected position's value."""
    if mode not in _MODES:
        raise ValueError(f"ops.grid_sample: mode must be one of {_MODES}, got {mode!r}")
    if padding_mode not in _PADDINGS:
        raise ValueError(f"ops.grid_sample: padding_mode must be one of {_PADDINGS}, got "
                         f"{padding_mode!r}")
    k = input.ndim - 2
    if k not in (2, 3) or grid.ndim != input.ndim or grid.shape[-1] != k or \
            grid.shape[0] != input.shape[0]:
        raise ValueError(f"ops.grid_sample: expects input (N, C, H, W) and grid (N, Ho, Wo, 2), "
                         f"or input (N, C, D, H, W) and grid (N, Do, Ho, Wo, 3), got shapes "
                         f"{input.shape} and {grid.shape}")
    align = bool(align_corners)
    n, c = input.shape[:2]
    out = tuple(grid.shape[1:-1])
    sizes = tuple(reversed(input.shape[2:]))                     # W, H[, D]: x, y[, z]
    flat = reshape(input, (n, c, -1))
    src = [_source(reshape(grid[..., i], (n, -1)), size, padding_mode, align)
           for i, size in enumerate(sizes)]
    if mode == 'nearest':
        y = _pick(flat, [_round(p) for p in src], sizes)
    else:
        low = [floor(p) for p in src]
        frac = [sub(p, lo) for p, lo in zip(src, low)]
        y = None
        for corner in itertools.product((0, 1), repeat=k):      # 4 or 8 neighbours
            weight, positions = None, []
            for bit, lo, f in zip(corner, low, frac):
                positions.append(add(lo, 1) if bit else lo)
                w = f if bit else sub(1, f)
                weight = w if weight is None else mul(weight, w)
            term = mul(_pick(flat, positions, sizes), unsqueeze(weight, 1))
            y = term if y is None else add(y, term)
    return reshape(y, (n, c) + out)
