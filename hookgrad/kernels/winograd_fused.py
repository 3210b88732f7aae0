"""Compiled F(2x2, 3x3) transforms for ``winograd``'s pieces: each one pass over its data.

CPU only (Numba kernels on NumPy arrays).

The NumPy transforms of a piece (``winograd._PieceInput``, ``_convolve_pieces``,
``_filter_grad_pieces``) are a chain of whole-array adds, each reading and writing the piece
once: the input transform alone takes about nine passes, and at 64 channels the transforms
cost as much time as the GEMMs. Compiled with Numba (the optional ``hookgrad[fast]`` extra),
each transform below reads its inputs once and writes its result once, in the order of the
channels, which the compiler turns into vector instructions.

Every value is formed by the same additions, in the same order, as the NumPy transforms
(B^T, A^T and A of F(2, 3) hold only 0 and +-1, so each output is one sum of two or three
terms), so both give the same bits: ``FUSED = False`` or a missing Numba changes the speed,
never the numbers. The kernels release the GIL, so the pieces run on all free cores.

``kernels()`` imports Numba on first use (about half a second, once per process) and
compiles each kernel for the dtypes and layouts it meets (about 5 s for all of them, once:
Numba caches the machine code on disk, and later processes load it in about a second). Numba
and LLVM add about 120 MiB to the process. Without Numba, with ``HOOKGRAD_FUSED=0`` in the
environment, or with Numba's JIT disabled (``NUMBA_DISABLE_JIT``, under which the kernels
would run as Python loops), it returns None and ``winograd`` keeps its NumPy transforms.
"""
import os
import threading
import types

__all__ = ['FUSED', 'kernels']

# Use the compiled transforms where Numba imports (False: always NumPy's)
FUSED = os.environ.get('HOOKGRAD_FUSED', '1').strip().lower() not in ('0', 'false', 'off', 'no')

_lock = threading.Lock()
_kernels = None             # the compiled kernels, False where Numba is missing


def kernels():
    """The compiled transforms (a namespace of ``input_column``, ``fold_column``,
    ``write_tiles``, ``output_tiles`` and ``gradient_column``), or None where ``FUSED`` is
    off, Numba is not installed or its JIT is disabled."""
    global _kernels
    if not FUSED:
        return None
    if _kernels is None:
        with _lock:
            if _kernels is None:
                _kernels = _compile()
    return _kernels or None


def _compile():
    try:
        import numba
    except ImportError:
        return False
    if numba.config.DISABLE_JIT:
        return False
    jit = numba.njit(nogil=True, cache=True)

    @jit
    def input_column(buf, r, th, tw, j, out):
        """V at tile positions (0..3, j) of the first r images of buf (images, 2th+2, 2tw+2,
        C), a padded piece, into out (4, r, th, tw, C): the rows of B^T d (d0-d2, d1+d2,
        d2-d1, d1-d3 over the tile's rows) at the two columns B^T's row j reads, then their
        combination (column 0 - column 2, 1 + 2, 2 - 1, 1 - 3)."""
        c = buf.shape[3]
        la = 0 if j == 0 else 1
        lb = 3 if j == 3 else 2
        for img in range(r):
            for t in range(th):
                for s in range(tw):
                    y0, x0 = 2 * t, 2 * s
                    a0, a1 = buf[img, y0, x0 + la], buf[img, y0 + 1, x0 + la]
                    a2, a3 = buf[img, y0 + 2, x0 + la], buf[img, y0 + 3, x0 + la]
                    b0, b1 = buf[img, y0, x0 + lb], buf[img, y0 + 1, x0 + lb]
                    b2, b3 = buf[img, y0 + 2, x0 + lb], buf[img, y0 + 3, x0 + lb]
                    o0, o1 = out[0, img, t, s], out[1, img, t, s]
                    o2, o3 = out[2, img, t, s], out[3, img, t, s]
                    for k in range(c):
                        ra0, ra1 = a0[k] - a2[k], a1[k] + a2[k]
                        ra2, ra3 = a2[k] - a1[k], a1[k] - a3[k]
                        rb0, rb1 = b0[k] - b2[k], b1[k] + b2[k]
                        rb2, rb3 = b2[k] - b1[k], b1[k] - b3[k]
                        if j == 1:
                            o0[k], o1[k], o2[k], o3[k] = ra0 + rb0, ra1 + rb1, ra2 + rb2, ra3 + rb3
                        elif j == 2:
                            o0[k], o1[k], o2[k], o3[k] = rb0 - ra0, rb1 - ra1, rb2 - ra2, rb3 - ra3
                        else:
                            o0[k], o1[k], o2[k], o3[k] = ra0 - rb0, ra1 - rb1, ra2 - rb2, ra3 - rb3

    @jit
    def fold_column(prod, half, j):
        """The output transform's first step for tile column j: half[0, j] = M0 + M1 + M2 and
        half[1, j] = M1 - M2 - M3 of the products prod (4, L) at positions (0..3, j)."""
        h0, h1 = half[0, j], half[1, j]
        m0, m1, m2, m3 = prod[0], prod[1], prod[2], prod[3]
        for e in range(prod.shape[1]):
            h0[e] = (m0[e] + m1[e]) + m2[e]
            h1[e] = (m1[e] - m2[e]) - m3[e]

    @jit
    def write_tiles(half, y, i0, r, th, tw):
        """Its second step, written into y (N, 2th, 2tw, K) at image i0 on: pixel (p, 0) of a
        tile is half[p, 0] + half[p, 1] + half[p, 2], pixel (p, 1) half[p, 1] - half[p, 2] -
        half[p, 3], for half (2, 4, r, th, tw, K)."""
        k = y.shape[3]
        for img in range(r):
            for t in range(th):
                for p in range(2):
                    row = y[i0 + img, 2 * t + p]
                    for s in range(tw):
                        h0, h1 = half[p, 0, img, t, s], half[p, 1, img, t, s]
                        h2, h3 = half[p, 2, img, t, s], half[p, 3, img, t, s]
                        q0, q1 = row[2 * s], row[2 * s + 1]
                        for e in range(k):
                            q0[e] = (h0[e] + h1[e]) + h2[e]
                            q1[e] = (h1[e] - h2[e]) - h3[e]

    @jit
    def output_tiles(prod, y, lo, hi):
        """The output transform A^T M A of images lo to hi, from the products prod (4, 4, N,
        th, tw, K) into y (N, 2th, 2tw, K): ``fold_column`` and ``write_tiles`` in one pass."""
        th, tw, k = prod.shape[3], prod.shape[4], prod.shape[5]
        for img in range(lo, hi):
            for t in range(th):
                r0, r1 = y[img, 2 * t], y[img, 2 * t + 1]
                for s in range(tw):
                    m00, m01, m02, m03 = (prod[0, 0, img, t, s], prod[0, 1, img, t, s],
                                          prod[0, 2, img, t, s], prod[0, 3, img, t, s])
                    m10, m11, m12, m13 = (prod[1, 0, img, t, s], prod[1, 1, img, t, s],
                                          prod[1, 2, img, t, s], prod[1, 3, img, t, s])
                    m20, m21, m22, m23 = (prod[2, 0, img, t, s], prod[2, 1, img, t, s],
                                          prod[2, 2, img, t, s], prod[2, 3, img, t, s])
                    m30, m31, m32, m33 = (prod[3, 0, img, t, s], prod[3, 1, img, t, s],
                                          prod[3, 2, img, t, s], prod[3, 3, img, t, s])
                    q00, q01, q10, q11 = r0[2 * s], r0[2 * s + 1], r1[2 * s], r1[2 * s + 1]
                    for e in range(k):
                        a0 = (m00[e] + m10[e]) + m20[e]
                        a1 = (m01[e] + m11[e]) + m21[e]
                        a2 = (m02[e] + m12[e]) + m22[e]
                        a3 = (m03[e] + m13[e]) + m23[e]
                        b0 = (m10[e] - m20[e]) - m30[e]
                        b1 = (m11[e] - m21[e]) - m31[e]
                        b2 = (m12[e] - m22[e]) - m32[e]
                        b3 = (m13[e] - m23[e]) - m33[e]
                        q00[e], q01[e] = (a0 + a1) + a2, (a1 - a2) - a3
                        q10[e], q11[e] = (b0 + b1) + b2, (b1 - b2) - b3

    @jit
    def gradient_column(gy, i0, r, th, tw, j, out):
        """Z = A gy A^T at tile positions (0..3, j) of images i0 to i0 + r of gy (N, 2th,
        2tw, O), into out (4, r, th, tw, O): over the tile's rows g0, g0 + g1, g0 - g1, -g1,
        then over its columns (column 0, 0 + 1, 0 - 1 or -1 for j = 0 to 3)."""
        o = gy.shape[3]
        for img in range(r):
            for t in range(th):
                g0, g1 = gy[i0 + img, 2 * t], gy[i0 + img, 2 * t + 1]
                for s in range(tw):
                    a0, a1 = g0[2 * s], g1[2 * s]
                    b0, b1 = g0[2 * s + 1], g1[2 * s + 1]
                    z0, z1 = out[0, img, t, s], out[1, img, t, s]
                    z2, z3 = out[2, img, t, s], out[3, img, t, s]
                    for e in range(o):
                        if j == 0:
                            z0[e], z1[e] = a0[e], a0[e] + a1[e]
                            z2[e], z3[e] = a0[e] - a1[e], -a1[e]
                        elif j == 3:
                            z0[e], z1[e] = -b0[e], -(b0[e] + b1[e])
                            z2[e], z3[e] = -(b0[e] - b1[e]), b1[e]
                        else:
                            ha0, ha1, ha2 = a0[e], a0[e] + a1[e], a0[e] - a1[e]
                            hb0, hb1, hb2 = b0[e], b0[e] + b1[e], b0[e] - b1[e]
                            if j == 1:
                                z0[e], z1[e], z2[e] = ha0 + hb0, ha1 + hb1, ha2 + hb2
                                z3[e] = -a1[e] - b1[e]
                            else:
                                z0[e], z1[e], z2[e] = ha0 - hb0, ha1 - hb1, ha2 - hb2
                                z3[e] = -a1[e] + b1[e]

    return types.SimpleNamespace(input_column=input_column, fold_column=fold_column,
                                 write_tiles=write_tiles, output_tiles=output_tiles,
                                 gradient_column=gradient_column)
