"""Batch-last convolution kernels: for narrow layers (few input and output channels).

CPU only (NumPy arrays, OpenBLAS threads).

Channels-last im2col (``conv_kernels``) copies runs of kw*C values and col2im adds runs of C
values; with the 1 to 16 channels of LeNet-style layers those runs are a few floats long, and
NumPy spends its time between them. Here activations are stored (C, H, W, N), batch last:

- the im2col matrix (C*kh*kw, Ho*Wo*N) is one strided copy whose runs are Wo*N values long;
- the forward product w (O, C*kh*kw) @ cols gives y stored (O, Ho, Wo, N), returned as an
  (N, O, Ho, Wo) view, so ReLU and pooling after it read long runs too and the next narrow
  convolution takes its input without a copy;
- the input gradient is one product w.T @ gy then col2im: kh*kw whole-array adds of
  (C, Ho, Wo, N) slices into the padded gradient, again with runs of Wo*N values;
- the weight gradient is cols @ gy.T, split along its long inner dimension into a batch of
  products (OpenBLAS runs a single (K, M) @ (M, O) with M in the tens of thousands and K, O
  in the tens at a fraction of its speed).

Results are the same sums as the im2col path in another order (float32 rounding differs).
"""
import numpy as np
from numpy.lib.stride_tricks import as_strided

from .threads import matmul as _matmul
from .threads import split as _split
from .conv_layout import POOL

# Widest layer (input and output channels) run batch-last; wider ones read long enough runs
# channels-last (measured in benchmarks/conv.py).
MAX_CHANNELS = 16
# The weight gradient's inner dimension is cut into pieces of about this length.
PIECE = 4096


def stored_batch_last(a):
    """Whether an (N, C, H, W) array of more than one sample is stored as a C-contiguous
    (C, H, W, N) array (a single sample is stored every way at once: it says nothing)."""
    return a.shape[0] > 1 and a.transpose(1, 2, 3, 0).flags.c_contiguous


def batch_last(x, pt, pb, pl, pr):
    """x (N, C, H, W) as a C-contiguous, zero-padded (C, H + pt + pb, W + pl + pr, N) array (a
    view when x is stored so and not padded)."""
    t = x.transpose(1, 2, 3, 0)
    if not (pt or pb or pl or pr) and t.flags.c_contiguous:
        return t
    c, h, w, n = t.shape
    buf = POOL.empty((c, h + pt + pb, w + pl + pr, n), x.dtype)
    if pt or pb or pl or pr:
        buf[:, :pt] = 0
        buf[:, pt + h:] = 0
        buf[:, pt:pt + h, :pl] = 0
        buf[:, pt:pt + h, pl + w:] = 0
    buf[:, pt:pt + h, pl:pl + w] = t
    return buf


def gy_matrix(gy):
    """gy (N, O, Ho, Wo) as a C-contiguous (O, Ho*Wo*N) matrix (a view when stored batch-last)."""
    n, o, ho, wo = gy.shape
    t = gy.transpose(1, 2, 3, 0)
    if not t.flags.c_contiguous:
        out = POOL.empty(t.shape, gy.dtype)
        out[...] = t
        t = out
    return t.reshape(o, ho * wo * n)


def im2col(xb, kh, kw, ho, wo, stride, dilation):
    """The (C*kh*kw, Ho*Wo*N) im2col matrix of a batch-last (C, Hp, Wp, N) array, copied in
    output-row ranges between free cores."""
    c, _, _, n = xb.shape
    s0, s1, s2, s3 = xb.strides
    view = as_strided(xb, (c, kh, kw, ho, wo, n),
                      (s0, s1 * dilation[0], s2 * dilation[1], s1 * stride[0], s2 * stride[1],
                       s3), writeable=False)
    cols = POOL.empty(view.shape, xb.dtype)

    def rows(lo, hi):
        np.copyto(cols[:, :, :, lo:hi], view[:, :, :, lo:hi])
    _split(rows, ho, cols.size)
    return cols.reshape(c * kh * kw, ho * wo * n)


def _long_product(a, b):
    """a (K, M) @ b (M, O) for M much longer than K and O: M cut into pieces of about PIECE
    whose products are one batched matmul, summed."""
    k, m = a.shape
    pieces = m // PIECE
    if pieces < 2:
        return _matmul(a, b)
    size = m // pieces
    cut = pieces * size
    parts = _matmul(a[:, :cut].reshape(k, pieces, size).transpose(1, 0, 2),
                    b[:cut].reshape(pieces, size, b.shape[1]))
    total = parts.sum(0)
    if cut < m:
        total += _matmul(a[:, cut:], b[cut:])
    return total


def forward(x, w, stride, padding, dilation, out_hw, keep_bytes):
    """(y, xb, cols): y (N, O, Ho, Wo) stored batch-last, the padded batch-last input and the
    im2col matrix when at most ``keep_bytes`` (else None)."""
    o, c, kh, kw = w.shape
    ho, wo = out_hw
    xb = batch_last(x, *padding)
    cols = im2col(xb, kh, kw, ho, wo, stride, dilation)
    y = _matmul(w.reshape(o, c * kh * kw), cols)
    y = y.reshape(o, ho, wo, x.shape[0]).transpose(3, 0, 1, 2)
    return y, xb, cols if cols.nbytes <= keep_bytes else None


def filter_grad(gym, x, w_shape, stride, padding, dilation, out_hw, xb=None, cols=None):
    """The weight gradient (O, C, kh, kw) from gy as ``gy_matrix`` and the input x (or its
    padded batch-last form ``xb``, or its im2col matrix ``cols``)."""
    o, c, kh, kw = w_shape
    if cols is None:
        if xb is None:
            xb = batch_last(x, *padding)
        cols = im2col(xb, kh, kw, *out_hw, stride, dilation)
    return np.ascontiguousarray(_long_product(cols, gym.T).T).reshape(w_shape)


def input_grad(gym, w, n, input_size, stride, padding, dilation, out_hw):
    """The input gradient (N, C, H, W), stored batch-last, from gy as ``gy_matrix`` and w."""
    o, c, kh, kw = w.shape
    h, wd = input_size
    ho, wo = out_hw
    pt, pb, pl, pr = padding
    (sh, sw), (dh, dw) = stride, dilation
    gcols = _matmul(w.reshape(o, c * kh * kw).T, gym,
                    out=POOL.empty((c * kh * kw, ho * wo * n), np.result_type(w, gym)))
    gc = gcols.reshape(c, kh, kw, ho, wo, n)
    buf = np.zeros((c, h + pt + pb, wd + pl + pr, n), gc.dtype)

    def channels(lo, hi):
        for i in range(kh):
            for j in range(kw):
                buf[lo:hi, i * dh:i * dh + (ho - 1) * sh + 1:sh,
                    j * dw:j * dw + (wo - 1) * sw + 1:sw] += gc[lo:hi, i, j]
    _split(channels, c, gc.size)
    return buf[:, pt:pt + h, pl:pl + wd].transpose(3, 0, 1, 2)
