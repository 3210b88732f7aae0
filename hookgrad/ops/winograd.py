"""Winograd minimal filtering F(m x m, 3 x 3) for stride-1 3x3 convolutions, channels-last.

A valid 3x3 convolution of an (N, Hp, Wp, C) array is cut into output tiles of m x m pixels,
each read from an (m + 2)-square input tile d. With the transforms B, G and A of F(m, 3),
a tile's output is ``A^T [sum_c (G w G^T) * (B^T d B)] A``: the (m + 2)^2 elementwise products,
summed over channels, become (m + 2)^2 batched GEMMs (tiles x C) @ (C x O), which take
9 m^2 / (m + 2)^2 of the direct GEMM's multiplications (1 / 2.25 for m = 2). The transforms
are whole-array adds over strided views of the input (no loop over tiles or channels), split
over the batch between free cores (``_threads.split``); B and A hold only 0 and +-1 for m = 2,
so they round nothing. The weight gradient is the same
identity read backwards: ``G^T [sum_tiles (A gy A^T) * (B^T d B)] G``, one GEMM per tile
position with the tiles as the long reduction.

Float32 results differ from the direct path by rounding only: relative 1e-6 (m = 2) and
about 1e-5 (m = 4, whose transforms carry 4, 5 and 1/24) of the result's scale.
"""
import numpy as np

from .._threads import matmul as _matmul
from .._threads import split as _split
from .conv_layout import POOL

__all__ = ['TRANSFORMS', 'convolve', 'filter_grad', 'kernel_transform', 'tiles']

# (B^T, G, A^T) of F(m, 3) (Lavin & Gray, "Fast Algorithms for Convolutional Neural Networks")
TRANSFORMS = {
    2: (np.array([[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]], np.float64),
        np.array([[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]], np.float64),
        np.array([[1, 1, 1, 0], [0, 1, -1, -1]], np.float64)),
    4: (np.array([[4, 0, -5, 0, 1, 0], [0, -4, -4, 1, 1, 0], [0, 4, -4, -1, 1, 0],
                  [0, -2, -1, 2, 1, 0], [0, 2, -1, -2, 1, 0], [0, 4, 0, -5, 0, 1]], np.float64),
        np.array([[1 / 4, 0, 0], [-1 / 6, -1 / 6, -1 / 6], [-1 / 6, 1 / 6, -1 / 6],
                  [1 / 24, 1 / 12, 1 / 6], [1 / 24, -1 / 12, 1 / 6], [0, 0, 1]], np.float64),
        np.array([[1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0],
                  [0, 1, -1, 8, -8, 1]], np.float64)),
}


def tiles(ho, wo, m):
    """(tile rows, tile columns) covering an ho x wo output with m x m tiles."""
    return -(-ho // m), -(-wo // m)


def _combine(out, terms):
    """out = the sum of c * a over the (c, a) terms with c != 0; +-1 need no temporaries."""
    terms = [(c, a) for c, a in terms if c != 0]
    (c0, a0), rest = terms[0], terms[1:]
    if rest and abs(c0) == 1 and abs(rest[0][0]) == 1:
        (c1, a1), rest = rest[0], rest[1:]
        if c0 == 1:
            (np.add if c1 == 1 else np.subtract)(a0, a1, out=out)
        elif c1 == 1:
            np.subtract(a1, a0, out=out)
        else:
            np.add(a0, a1, out=out)
            np.negative(out, out=out)
    elif c0 == 1:
        np.copyto(out, a0)
    else:
        np.multiply(a0, out.dtype.type(c0), out=out)
    for c, a in rest:
        if c == 1:
            np.add(out, a, out=out)
        elif c == -1:
            np.subtract(out, a, out=out)
        else:
            out += a * out.dtype.type(c)


def _input_transform(xh, m, th, tw):
    """V (a*a, N*th*tw, C) = B^T d B for the a-square tiles d of xh (a = m + 2) whose corners
    lie m apart; xh (N, Hp, Wp, C) needs Hp >= m*th + 2 and Wp >= m*tw + 2."""
    bt = TRANSFORMS[m][0]
    a = m + 2
    n, _, wp, c = xh.shape
    rows = POOL.empty((a, n, th, wp, c), xh.dtype)
    v = POOL.empty((a, a, n, th, tw, c), xh.dtype)

    def images(lo, hi):
        x = xh[lo:hi]
        for i in range(a):
            _combine(rows[i, lo:hi], [(bt[i, k], x[:, k:k + m * (th - 1) + 1:m])
                                      for k in range(a)])
        for i in range(a):
            r = rows[i, lo:hi]
            for j in range(a):
                _combine(v[i, j, lo:hi], [(bt[j, k], r[:, :, k:k + m * (tw - 1) + 1:m])
                                          for k in range(a)])
    _split(images, n, v.size)
    return v.reshape(a * a, n * th * tw, c)


def _output_transform(prod, n, th, tw, m):
    """The (N, m*th, m*tw, O) output A^T M A of the products M (a*a, N*th*tw, O)."""
    at = TRANSFORMS[m][2]
    a, o = m + 2, prod.shape[-1]
    prod = prod.reshape(a, a, n, th, tw, o)
    half = POOL.empty((m, a, n, th, tw, o), prod.dtype)
    y = POOL.empty((n, th, m, tw, m, o), prod.dtype)

    def images(lo, hi):
        for p in range(m):
            _combine(half[p, :, lo:hi], [(at[p, i], prod[i, :, lo:hi]) for i in range(a)])
        for p in range(m):
            for q in range(m):
                _combine(y[lo:hi, :, p, :, q], [(at[q, j], half[p, j, lo:hi]) for j in range(a)])
    _split(images, n, prod.size)
    return y.reshape(n, th * m, tw * m, o)


def kernel_transform(w, m, flip=False):
    """G w G^T (a*a, O, C) of every 3x3 slice of a weight w (O, C, 3, 3), as one GEMM; with
    ``flip``, of the slices turned by 180 degrees (the kernel of the input gradient).

    ``[:, o, c]`` is the kernel from input channel c to output o: the forward's GEMM operand
    is its (a*a, C, O) transpose, the input gradient's (flipped) is it as it stands."""
    o, c = w.shape[:2]
    a = m + 2
    g = TRANSFORMS[m][1]
    gg = np.einsum('ix,jy->ijxy', g, g).reshape(a * a, 9)
    if flip:
        gg = gg[:, ::-1]
    gg = np.ascontiguousarray(gg, dtype=w.dtype)
    return np.matmul(gg, w.reshape(o * c, 9).T).reshape(a * a, o, c)


def convolve(xh, u, ho, wo, m):
    """The valid 3x3 convolution (N, ho, wo, O), C-contiguous, of xh (N, Hp, Wp, C) with the
    transformed kernel u (a*a, C, O) (``kernel_transform``'s result or its transpose); xh
    must cover whole tiles (see ``_input_transform``)."""
    n = xh.shape[0]
    th, tw = tiles(ho, wo, m)
    v = _input_transform(xh, m, th, tw)
    prod = _matmul(v, u, out=POOL.empty((v.shape[0], v.shape[1], u.shape[2]), v.dtype))
    del v
    y = _output_transform(prod, n, th, tw, m)
    if (th * m, tw * m) != (ho, wo):
        y = np.ascontiguousarray(y[:, :ho, :wo])
    return y


def filter_grad(gy, xh, m):
    """The weight gradient (O, C, 3, 3) of the valid 3x3 convolution of xh (N, Hp, Wp, C)
    for its output gradient gy (N, ho, wo, O); xh must cover whole tiles."""
    at, g = TRANSFORMS[m][2], TRANSFORMS[m][1]
    a = m + 2
    n, ho, wo, o = gy.shape
    th, tw = tiles(ho, wo, m)
    if (th * m, tw * m) != (ho, wo):
        full = np.zeros((n, th * m, tw * m, o), gy.dtype)
        full[:, :ho, :wo] = gy
        gy = full
    # Z = A gy A^T for the m x m tiles of gy (A = at.T)
    half = POOL.empty((a, n, th, tw * m, o), gy.dtype)
    z = POOL.empty((a, a, n, th, tw, o), gy.dtype)

    def images(lo, hi):
        g = gy[lo:hi]
        for i in range(a):
            _combine(half[i, lo:hi], [(at[p, i], g[:, p::m]) for p in range(m)])
        for i in range(a):
            h = half[i, lo:hi]
            for j in range(a):
                _combine(z[i, j, lo:hi], [(at[q, j], h[:, :, q::m]) for q in range(m)])
    _split(images, n, z.size)
    del half
    z = z.reshape(a * a, n * th * tw, o)
    v = _input_transform(xh, m, th, tw)
    prod = _matmul(z.transpose(0, 2, 1), v)                       # (a*a, O, C)
    dtype = gy.dtype if m == 2 else np.float64
    gt = g.T.astype(dtype)
    half = np.matmul(gt, prod.astype(dtype, copy=False).reshape(a, -1)).reshape(3, a, -1)
    gw = np.matmul(gt, half).reshape(3, 3, o, -1).transpose(2, 3, 0, 1)
    return np.ascontiguousarray(gw, dtype=gy.dtype)

