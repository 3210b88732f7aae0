"""Winograd minimal filtering F(m x m, 3 x 3) for stride-1 3x3 convolutions, channels-last.

CPU only (NumPy arrays, OpenBLAS threads).

A valid 3x3 convolution of an (N, Hp, Wp, C) array is cut into output tiles of m x m pixels,
each read from an (m + 2)-square input tile d. With the transforms B, G and A of F(m, 3),
a tile's output is ``A^T [sum_c (G w G^T) * (B^T d B)] A``: the (m + 2)^2 elementwise products,
summed over channels, become (m + 2)^2 GEMMs (tiles x C) @ (C x O), which take
9 m^2 / (m + 2)^2 of the direct GEMM's multiplications (1 / 2.25 for m = 2). The positions'
GEMMs are shared between free cores, each on one OpenBLAS thread: one GEMM split over two
threads waits for both, sixteen independent ones do not. The transforms are whole-array adds
over strided views of the input (no loop over tiles or channels), split over the batch
between free cores (``_threads.split``); B and A hold only 0 and +-1 for m = 2, so they round
nothing. The kernel transform is one GEMM on the weight as it lies, (a*a, O, C); the input
gradient's kernels (turned by 180 degrees, channels swapped) are the same values at
reordered positions (``FLIP_ORDER``). The weight gradient is the same identity read
backwards: ``G^T [sum_tiles (A gy A^T) * (B^T d B)] G``, one GEMM per tile position with the
tiles as the long reduction, and one more GEMM that maps the products back to w's layout.

For F(2x2, 3x3) the transforms run compiled where Numba is installed (``winograd_fused``:
one pass each, the same additions in the same order, so the same bits as the NumPy ones).

Float32 results differ from the direct path by rounding only: relative 1e-6 (m = 2) and
about 1e-5 (m = 4, whose transforms carry 4, 5 and 1/24) of the result's scale.
"""
import numpy as np

from .threads import cores as _cores
from .threads import matmul as _matmul
from .threads import split as _split
from .threads import split_products as _split_products
from . import winograd_fused
from .gemm import matmul as _gemm
from .conv_layout import POOL, zero_border

__all__ = ['FLIP_ORDER', 'Padded', 'TRANSFORMS', 'convolve', 'filter_grad',
           'flipped_kernel', 'kernel_transform', 'runs_in_pieces', 'tiles']

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


class Padded:
    """A channels-last array ``a`` (N, h, w, C) read as if placed with its corner at (top,
    left) in a zero (N, height, width, C) array (rows and columns outside that array are
    dropped): the input Winograd pieces take, which copy it into their planes from where it
    lies, so no padded copy of the whole batch is made."""

    __slots__ = ('a', 'top', 'left', 'shape', 'dtype', 'size')

    def __init__(self, a, top, left, height, width):
        self.a, self.top, self.left = a, top, left
        self.shape = (a.shape[0], height, width, a.shape[3])
        self.dtype, self.size = a.dtype, int(np.prod(self.shape))

    def planes_range(self, parity_row, parity_col, rows, cols):
        """((t0, t1), (s0, s1), view): the rows t0:t1 and columns s0:s1 of the parity plane
        (rows parity_row::2, columns parity_col::2; ``rows`` x ``cols``) that hold values of
        ``a``, and those values (a view of ``a``, all images)."""
        (t0, t1, y0), (s0, s1, x0) = (
            _parity_span(self.top, self.a.shape[1], parity_row, rows),
            _parity_span(self.left, self.a.shape[2], parity_col, cols))
        view = self.a[:, y0:y0 + 2 * max(0, t1 - t0 - 1) + 1:2,
                      x0:x0 + 2 * max(0, s1 - s0 - 1) + 1:2][:, :t1 - t0, :s1 - s0]
        return (t0, t1), (s0, s1), view

    def window(self, height, width):
        """((t0, t1), (s0, s1), view): the rows t0:t1 and columns s0:s1 of the first
        ``height`` x ``width`` of the padded array that hold values of ``a``, and those values
        (a view of ``a``, all images)."""
        h, w = self.a.shape[1:3]
        t0, s0 = max(0, self.top), max(0, self.left)
        t1, s1 = max(t0, min(height, self.top + h)), max(s0, min(width, self.left + w))
        return ((t0, t1), (s0, s1),
                self.a[:, t0 - self.top:t1 - self.top, s0 - self.left:s1 - self.left])

    def array(self):
        """The padded array itself, C-contiguous (only its padding is zeroed)."""
        height, width = self.shape[1:3]
        out = POOL.empty(self.shape, self.dtype)
        h, w = self.a.shape[1:3]
        r0, c0 = max(0, -self.top), max(0, -self.left)
        r1, c1 = min(h, height - self.top), min(w, width - self.left)
        if r1 <= r0 or c1 <= c0:
            out.fill(0)
            return out
        top, left = r0 + self.top, c0 + self.left
        zero_border(out, top, height - (r1 + self.top), left, width - (c1 + self.left))
        out[:, top:r1 + self.top, left:c1 + self.left] = self.a[:, r0:r1, c0:c1]
        return out


def _parity_span(offset, length, parity, count):
    """(t0, t1, first): the entries t0 <= t < t1 of positions parity + 2t (t < count) of a
    padded axis that fall on one of ``length`` values placed at ``offset``, and the first
    one's index in those values."""
    t0 = max(0, -(-(offset - parity) // 2))
    t1 = max(t0, min(count, -(-(offset + length - parity) // 2)))
    return t0, t1, parity + 2 * t0 - offset


def _as_array(xh):
    """xh itself, or the padded array of a ``Padded``."""
    return xh.array() if isinstance(xh, Padded) else xh


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
    fused = winograd_fused.kernels() if m == 2 else None
    if fused is not None:
        v = POOL.empty((4, 4, n, th, tw, c), xh.dtype)

        def columns(lo, hi):
            for j in range(4):
                fused.input_column(xh[lo:hi], hi - lo, th, tw, j, v[:, j, lo:hi])
        _split(columns, n, v.size)
        return v.reshape(16, n * th * tw, c)
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
    fused = winograd_fused.kernels() if m == 2 else None
    if fused is not None:
        y = POOL.empty((n, 2 * th, 2 * tw, o), prod.dtype)
        _split(lambda lo, hi: fused.output_tiles(prod, y, lo, hi), n, prod.size)
        return y.reshape(n, th * m, tw * m, o)
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


def _flip_order(m):
    """The order of tile positions that turns ``kernel_transform(w)`` into the transform of w
    turned by 180 degrees, or None where none does. Turning a 3x3 slice reverses the columns
    of G it meets; for m = 2 that swaps G's first and last rows, so the turned kernel's
    transform is the same values at swapped positions (for m = 4 it is not)."""
    g = TRANSFORMS[m][1]
    rows = []
    for row in g[:, ::-1]:
        same = [k for k, r in enumerate(g) if np.array_equal(r, row)]
        if not same:
            return None
        rows.append(same[0])
    return [rows[i] * (m + 2) + rows[j] for i in range(m + 2) for j in range(m + 2)]


# Layers whose batch holds at least one piece per core of about this many (tile, channel)
# values run ``_convolve_pieces`` (measured at batch 32: 64 to 256 channels; 512 channels at
# 4x4 have too few tiles, and run whole)
PIECE_ELEMENTS = 1 << 16


FLIP_ORDER = {m: _flip_order(m) for m in TRANSFORMS}


def _kernel_matrix(m, dtype):
    """G (x) G as an (a*a, 9) matrix: row (i, j) maps a 3x3 kernel to position (i, j) of its
    transform G w G^T, and its transpose maps the weight gradient's a x a products back."""
    g = TRANSFORMS[m][1]
    a = m + 2
    return np.ascontiguousarray(np.einsum('ix,jy->ijxy', g, g).reshape(a * a, 9), dtype=dtype)


def kernel_transform(w, m):
    """G w G^T (a*a, O, C) of every 3x3 slice of a weight w (O, C, 3, 3), as one GEMM of the
    (a*a, 9) transform with w's (O*C, 9) rows read where they lie (no transposed copy of w).

    ``[p, o, c]`` is position p of the kernel from input channel c to output o: the forward's
    GEMM operand at p is ``[p].T``; the input gradient's (the kernel turned, the channels'
    roles swapped) is ``[FLIP_ORDER[m][p]]`` as it stands (see ``flipped_kernel``)."""
    o, c = w.shape[:2]
    return _matmul(_kernel_matrix(m, w.dtype), w.reshape(o * c, 9).T).reshape(-1, o, c)


def flipped_kernel(w, m, u=None):
    """(u, order): the transformed kernels of the input gradient of a convolution with w
    (O, C, 3, 3), for ``convolve(..., order=order)``: w's own transform (``u`` when the
    forward's is at hand) reordered where ``FLIP_ORDER`` allows, else the transform of w
    turned by 180 degrees."""
    order = FLIP_ORDER[m]
    if order is None:
        return kernel_transform(w[:, :, ::-1, ::-1], m), list(range((m + 2) ** 2))
    return (kernel_transform(w, m) if u is None or len(u) != len(order) else u), order


def _products(v, u, order=None, transposed=True):
    """``v[p] @ u[q]^T`` (or ``@ u[q]`` with ``transposed=False``) for each tile position p,
    with q = ``order[p]`` (p itself by default): one GEMM per position, the positions shared
    between free cores, each GEMM on one OpenBLAS thread (splitting one would wait for both)."""
    a2, rows = v.shape[:2]
    cols = u.shape[1] if transposed else u.shape[2]
    out = POOL.empty((a2, rows, cols), np.result_type(v, u))
    q = range(a2) if order is None else order

    def positions(lo, hi):
        for p in range(lo, hi):
            _gemm(v[p], u[q[p]].T if transposed else u[q[p]], out=out[p])
    _split_products(positions, a2, v.size + out.size, 2 * rows * cols * v.shape[2])
    return out


def convolve(xh, u, ho, wo, m, order=None):
    """The valid 3x3 convolution (N, ho, wo, K), C-contiguous, of xh (N, Hp, Wp, C), an array
    or a ``Padded``, with the transformed kernels u (a*a, K, C) of ``kernel_transform``; with
    ``order`` (from ``flipped_kernel``), with the kernels u[order[p]] (a*a, C, K) of the input
    gradient instead. xh must cover whole tiles (see ``_input_transform``). Layers of many
    tiles run a few images at a time (``_convolve_pieces``), the others whole, a GEMM per
    position."""
    n, c = xh.shape[0], xh.shape[3]
    th, tw = tiles(ho, wo, m)
    images = _piece_images(n, th, tw, c) if m == 2 else 0
    if images:
        y = _convolve_pieces(xh, u, order, th, tw, images)
    else:
        v = _input_transform(_as_array(xh), m, th, tw)
        prod = _products(v, u, order, transposed=order is None)
        del v
        y = _output_transform(prod, n, th, tw, m)
    if (th * m, tw * m) != (ho, wo):
        y = np.ascontiguousarray(y[:, :ho, :wo])
    return y


class _PieceInput:
    """One thread's scratch for the input transform of a few images of F(2x2, 3x3), done a
    column of tile positions at a time.

    With the compiled transforms (``fused``, from ``winograd_fused.kernels()``), the images
    are copied into a padded buffer and each column is one pass over it. Otherwise (``fused``
    None) they are copied into their four (row, column) parity planes, so that the NumPy
    transforms read and write runs of whole tile rows rather than one pixel's channels, and
    each step is one NumPy call over all positions of a row or column of B^T. xh may be a
    ``Padded``: its values are copied from where they lie, and the padding is zeroed once for
    all pieces."""

    def __init__(self, xh, images, th, tw, fused):
        c = xh.shape[3]
        self.xh, self.th, self.tw, self.fused = xh, th, tw, fused
        self.v = np.empty((4, images * th * tw * c), xh.dtype)
        source = xh if isinstance(xh, Padded) else Padded(xh, 0, 0, *xh.shape[1:3])
        if self.fused is not None:
            self.buf = np.empty((images, 2 * th + 2, 2 * tw + 2, c), xh.dtype)
            self.window = source.window(2 * th + 2, 2 * tw + 2)
            (t0, t1), (s0, s1), _ = self.window
            zero_border(self.buf, t0, 2 * th + 2 - t1, s0, 2 * tw + 2 - s1)
            return
        self.planes = np.empty((2, 2, images, th + 1, tw + 1, c), xh.dtype)
        self.rows = np.empty((4, 2, images, th, tw + 1, c), xh.dtype)
        self.spans = [[source.planes_range(pr, pc, th + 1, tw + 1) for pc in range(2)]
                      for pr in range(2)]
        for pr in range(2):                 # the planes' padding, zero for every piece
            for pc in range(2):
                (t0, t1), (s0, s1), _ = self.spans[pr][pc]
                plane = self.planes[pr, pc]
                plane[:, :t0] = 0
                plane[:, t1:] = 0
                plane[:, t0:t1, :s0] = 0
                plane[:, t0:t1, s1:] = 0

    def load(self, i0, i1):
        """Take images i0 to i1: copy them in (and, for NumPy's transforms, form rows[i] =
        sum_k B^T[i, k] d[k] over the tiles' rows: tile row k of tile row t is row t + k // 2
        of plane k % 2)."""
        bt, th = TRANSFORMS[2][0], self.th
        r = self.r = i1 - i0
        if self.fused is not None:
            (t0, t1), (s0, s1), values = self.window
            if t1 > t0 and s1 > s0:
                np.copyto(self.buf[:r, t0:t1, s0:s1], values[i0:i1])
            return
        for pr in range(2):
            for pc in range(2):
                (t0, t1), (s0, s1), values = self.spans[pr][pc]
                if t1 > t0 and s1 > s0:
                    np.copyto(self.planes[pr, pc, :r, t0:t1, s0:s1], values[i0:i1])
        for i in range(4):
            _combine(self.rows[i, :, :r], [(bt[i, k], self.planes[k % 2, :, :r, k // 2:k // 2 + th])
                                           for k in range(4)])

    def column(self, j):
        """V at positions (0..3, j): (4, tiles, C) for the images taken."""
        bt, th, tw, r = TRANSFORMS[2][0], self.th, self.tw, self.r
        c = self.xh.shape[3]
        v = self.v[:, :r * th * tw * c].reshape(4, r, th, tw, c)
        if self.fused is not None:
            self.fused.input_column(self.buf, r, th, tw, j, v)
        else:
            _combine(v, [(bt[j, k], self.rows[:, k % 2, :r, :, k // 2:k // 2 + tw])
                         for k in range(4)])
        return v.reshape(4, r * th * tw, c)


def runs_in_pieces(n, th, tw, c, m):
    """Whether ``convolve`` and ``filter_grad`` run an (N, th x tw tiles, C) input of F(m x m,
    3 x 3) in pieces, reading a ``Padded`` where it lies (else they take its padded copy)."""
    return m == 2 and _piece_images(n, th, tw, c) > 0


def _piece_images(n, th, tw, c):
    """Images per piece for ``_convolve_pieces`` and ``_filter_grad_pieces``, or 0 where the
    batch is better run whole (fewer pieces than cores). The pieces come as many per core
    where the images allow (an odd last piece would leave a core waiting)."""
    images = max(1, PIECE_ELEMENTS // (th * tw * c))
    pieces = -(-n // images)
    if pieces < _cores():
        return 0
    return -(-n // (-(-pieces // _cores()) * _cores()))


def _convolve_pieces(xh, u, order, th, tw, images):
    """``convolve`` for F(2x2, 3x3), ``images`` images at a time, the pieces shared between
    free cores: each piece's transforms and GEMMs run while its data is still in cache (the
    whole batch's transformed input is 4 times the input, and writing it to memory and
    reading it back cost as much as the GEMMs). One column of positions at a time is
    multiplied and folded into the output transform's first half."""
    at = TRANSFORMS[2][2]
    n, c = xh.shape[0], xh.shape[3]
    k = u.shape[1] if order is None else u.shape[2]
    q = range(16) if order is None else order
    kernels = [u[q[p]].T if order is None else u[q[p]] for p in range(16)]
    y = POOL.empty((n, 2 * th, 2 * tw, k), np.result_type(xh, u))
    starts = list(range(0, n, images))
    fused = winograd_fused.kernels()

    def run(lo, hi):
        piece = _PieceInput(xh, images, th, tw, fused)
        prod = np.empty((4, images * th * tw * k), y.dtype)
        half = np.empty((2, 4, images * th * tw * k), y.dtype)
        tiled = None if fused is not None else np.empty((2, 2, images * th * tw * k), y.dtype)
        for i0 in starts[lo:hi]:
            i1 = min(n, i0 + images)
            piece.load(i0, i1)
            r, t = i1 - i0, (i1 - i0) * th * tw
            pr = prod[:, :t * k].reshape(4, t, k)
            hr = half[:, :, :t * k].reshape(2, 4, t, k)
            for j in range(4):
                v = piece.column(j)
                for i in range(4):
                    _gemm(v[i], kernels[4 * i + j], out=pr[i])
                if fused is not None:
                    fused.fold_column(pr.reshape(4, -1), half, j)
                    continue
                for p in range(2):
                    _combine(hr[p, j], [(at[p, i], pr[i]) for i in range(4)])
            if fused is not None:
                fused.write_tiles(half.reshape(2, 4, images, th, tw, k), y, i0, r, th, tw)
                continue
            # the output by (row, column) of its tiles, each one contiguous, then one copy
            # into y, where a tile's pixels interleave (runs of K values)
            by_pixel = tiled[:, :, :t * k].reshape(2, 2, t, k)
            for col in range(2):
                _combine(by_pixel[:, col], [(at[col, j], hr[:, j]) for j in range(4)])
            out = y[i0:i1].reshape(r, th, 2, tw, 2, k).transpose(2, 4, 0, 1, 3, 5)
            np.copyto(out, by_pixel.reshape(2, 2, r, th, tw, k))
    _split_products(run, len(starts), y.size, 2 * images * th * tw * c * k)
    return y


def _filter_grad_pieces(gy, xh, th, tw, images):
    """The (16, O, C) sums over tiles of Z^T V of ``filter_grad`` for F(2x2, 3x3), ``images``
    images at a time (see ``_convolve_pieces``). The pieces are summed in order within one run
    of pieces per core, then the runs' sums in order: the rounding does not depend on which
    threads ran them, and one (16, O, C) sum per core is held."""
    at = TRANSFORMS[2][2]
    n, o, c = gy.shape[0], gy.shape[3], xh.shape[3]
    starts = list(range(0, n, images))
    cores = min(_cores(), len(starts))
    bounds = [len(starts) * i // cores for i in range(cores + 1)]
    sums = [np.empty((16, o, c), np.result_type(gy, xh)) for _ in range(cores)]
    fused = winograd_fused.kernels()

    def run(lo, hi):
        piece = _PieceInput(xh, images, th, tw, fused)
        half = None if fused is not None else np.empty((4, 2, images, th, tw, o), gy.dtype)
        z = np.empty((4, images * th * tw * o), gy.dtype)
        part = np.empty((o, c), sums[0].dtype)
        for index in range(lo, hi):
            acc = sums[index]
            for i0 in starts[bounds[index]:bounds[index + 1]]:
                i1 = min(n, i0 + images)
                piece.load(i0, i1)
                r, t = i1 - i0, (i1 - i0) * th * tw
                g = gy[i0:i1]
                if fused is None:
                    for i in range(4):              # A gy over the tiles' rows, split by
                        for q in range(2):          # column parity so that ...
                            _combine(half[i, q, :r], [(at[p, i], g[:, p::2, q::2])
                                                      for p in range(2)])
                zr = z[:, :t * o].reshape(4, r, th, tw, o)
                for j in range(4):                  # ... the columns' step reads whole runs
                    if fused is not None:
                        fused.gradient_column(gy, i0, r, th, tw, j, zr)
                    else:
                        _combine(zr, [(at[q, j], half[:, q, :r]) for q in range(2)])
                    v, z2 = piece.column(j), zr.reshape(4, t, o)
                    for i in range(4):
                        if i0 == starts[bounds[index]]:
                            _gemm(z2[i].T, v[i], out=acc[4 * i + j])
                        else:
                            _gemm(z2[i].T, v[i], out=part)
                            acc[4 * i + j] += part
    _split_products(run, cores, gy.size + xh.size, 2 * images * th * tw * o * c * 16)
    total = sums[0]
    for more in sums[1:]:
        total += more
    return total


def _output_gradient_transform(gy, m, th, tw):
    """Z (a*a, N*th*tw, O) = A gy A^T for the m x m tiles of gy (N, m*th, m*tw, O), A being
    the transpose of ``TRANSFORMS[m][2]``: the output transform read backwards, for the weight
    gradient."""
    at = TRANSFORMS[m][2]
    a = m + 2
    n, o = gy.shape[0], gy.shape[3]
    fused = winograd_fused.kernels() if m == 2 else None
    if fused is not None:
        z = POOL.empty((4, 4, n, th, tw, o), gy.dtype)

        def columns(lo, hi):
            for j in range(4):
                fused.gradient_column(gy, lo, hi - lo, th, tw, j, z[:, j, lo:hi])
        _split(columns, n, z.size)
        return z.reshape(16, n * th * tw, o)
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
    return z.reshape(a * a, n * th * tw, o)


def filter_grad(gy, xh, m):
    """The weight gradient (O, C, 3, 3) of the valid 3x3 convolution of xh (N, Hp, Wp, C), an
    array or a ``Padded``, for its output gradient gy (N, ho, wo, O); xh must cover whole
    tiles."""
    a = m + 2
    n, ho, wo, o = gy.shape
    th, tw = tiles(ho, wo, m)
    if (th * m, tw * m) != (ho, wo):
        full = np.zeros((n, th * m, tw * m, o), gy.dtype)
        full[:, :ho, :wo] = gy
        gy = full
    images = _piece_images(n, th, tw, xh.shape[3]) if m == 2 else 0
    if images:
        prod = _filter_grad_pieces(gy, xh, th, tw, images)
    else:
        z = _output_gradient_transform(gy, m, th, tw)
        v = _input_transform(_as_array(xh), m, th, tw)
        prod = _products(z.transpose(0, 2, 1), v.transpose(0, 2, 1))  # (a*a, O, C)
        del z, v
    # G^T M G as one GEMM whose (O*C, 9) result is already w's layout (m = 4's fractions of
    # 1/6 and 1/24 are applied in float64)
    dtype = gy.dtype if m == 2 else np.float64
    gw = _matmul(prod.astype(dtype, copy=False).reshape(a * a, -1).T, _kernel_matrix(m, dtype))
    return gw.astype(gy.dtype, copy=False).reshape(o, -1, 3, 3)

