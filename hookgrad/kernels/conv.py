"""Convolution kernels on arrays: im2col + GEMM, Winograd and pointwise (used by ``conv``).

CPU only (NumPy arrays, OpenBLAS threads); conv_device.py is the device path.

Layout. The input is viewed channels-last, copied once into a zero-padded (N, Hp, Wp, C)
buffer, and its windows are copied to the im2col matrix (G, N*Ho*Wo, kh*kw*Cg): rows are output
pixels, columns run over (kh, kw, Cg), so each group's product is a GEMM with contiguous
operands and the copy reads runs of kw*Cg contiguous values. A matrix larger than
KEEP_COLS_BYTES is never built whole: it is built and multiplied a piece of about PIECE_BYTES
at a time (``_pieces``), the pieces shared between free cores, so that each piece is still in
cache when its GEMM reads it (the whole matrix is kh*kw times the input, and writing it to
memory and reading it back cost more than the GEMM). The GEMM's (N*Ho*Wo, C_out) result
is returned as an (N, C_out, Ho, Wo) view, stored channels-last; elementwise layers keep that
layout, so the next convolution's input and the incoming gradient need no transposing.
The forward keeps the padded channels-last input, from which backward builds the im2col
pieces again for the weight gradient (a small im2col matrix is kept instead). The input
gradient is, for stride 1, the convolution of the zero-padded output gradient with the flipped
kernel (im2col in pieces); for larger strides, and where the output has at least twice the
input's channels (its im2col matrix would be the larger), one GEMM then col2im: each kernel
offset's slice is added into the padded gradient (a loop over the kh*kw offsets, each one
whole-array add).
Large scratch arrays come from ``POOL``, which hands their memory out again at the next step.

Faster kernels replace im2col where they apply (``kernel_choice``): a 1x1 convolution without
padding is one GEMM on the (strided) channels-last input, and its gradients are GEMMs too; a
3x3 stride-1 convolution of 64 channels or more runs as Winograd F(2x2, 3x3) (``winograd``),
as do its input and weight gradients. They round differently from im2col, within float32
accuracy (see ``winograd``). Narrow layers (few channels, as in LeNet) and layers whose input
is stored batch-last run im2col on (C, H, W, N) arrays instead (``conv_batchlast``), where the
copies read runs of Wo*N values rather than kw*C.
"""
import sys

import numpy as np
from numpy.lib.stride_tricks import as_strided

from . import conv_batchlast as _bl
from . import conv_plan as _conv_plan
from .gemm import matmul as _gemm
from . import winograd
from .threads import SPLIT_MIN as _SPLIT_MIN
from .threads import cores as _cores
from .threads import matmul as _matmul
from .threads import split as _split
from .threads import split_products as _split_products
from .conv_layout import POOL
from .conv_layout import channels_last as _channels_last
from .conv_layout import copy_channels_last as _copy_channels_last
from .conv_layout import nhwc as _nhwc
from .conv_layout import zero_border as _zero_border
from .conv_plan import Plan

# Which kernels run: 'auto' (Winograd and pointwise where measured faster), 'direct'
# (im2col + GEMM everywhere) or 'fast' (Winograd and pointwise wherever they apply, any size
# and dtype). 'auto' runs Winograd for float32 3x3 stride-1 convolutions with outputs of at
# least 4x4 and at least WINOGRAD_MIN_CHANNELS input and output channels, for their input
# gradient from WINOGRAD_INPUT_GRAD_MIN_CHANNELS and for their weight gradient from
# WINOGRAD_GRAD_MIN_CHANNELS (None: never). Below these, im2col built a piece at a time is
# as fast or faster (measured at batch 32 by benchmarks/conv.py).
ALGORITHM = 'auto'
WINOGRAD_MIN_CHANNELS = 64
WINOGRAD_INPUT_GRAD_MIN_CHANNELS = 64
WINOGRAD_GRAD_MIN_CHANNELS = 64
TILE = 2                    # F(2x2, 3x3); F(4x4, 3x3) is ~10% faster but 10x less exact
# An im2col matrix up to this size is kept from the forward for the weight gradient instead
# of being rebuilt (small layers, where rebuilding costs as much as the GEMM; large ones would
# hold kh*kw times their input until backward).
KEEP_COLS_BYTES = 8 << 20
# Larger im2col matrices are built and multiplied a piece of about this size at a time, so
# that each piece is still in cache when its GEMM reads it (measured: 0.5-2 MiB pieces take a
# 64-channel 32x32 layer from 15 to 7 ms, by benchmarks/conv.py).
PIECE_BYTES = 2 << 20


_self = sys.modules[__name__]     # the kernels conv_plan.py times


def out_length(size, kernel, stride, dilation):
    """Number of windows of a dilated kernel over ``size`` (padding included) at ``stride``."""
    return (size - dilation * (kernel - 1) - 1) // stride + 1


def _windows(xh, kh, kw, ho, wo, stride, dilation, groups):
    """The (G, N, Ho, Wo, kh, kw, Cg) view of a channels-last array's windows (no copy)."""
    n, _, _, c = xh.shape
    cg = c // groups
    s0, s1, s2, s3 = xh.strides
    return as_strided(xh, (groups, n, ho, wo, kh, kw, cg),
                      (s3 * cg, s0, s1 * stride[0], s2 * stride[1], s1 * dilation[0],
                       s2 * dilation[1], s3), writeable=False)


def _im2col(xh, kh, kw, ho, wo, stride, dilation, groups):
    """The im2col matrix (G, N*Ho*Wo, kh*kw*Cg) of a channels-last array, contiguous (the copy
    split over the batch between free cores)."""
    view = _windows(xh, kh, kw, ho, wo, stride, dilation, groups)
    g, n, _, _, _, _, cg = view.shape
    cols = POOL.empty(view.shape, xh.dtype)

    def images(lo, hi):
        np.copyto(cols[:, lo:hi], view[:, lo:hi])
    _split(images, n, cols.size)
    return cols.reshape(g, n * ho * wo, kh * kw * cg)


def _pieces(n, ho, wo, row_bytes, weight_bytes):
    """(first image, last + 1, first output row, last + 1) of the pieces ``_by_pieces`` cuts a
    layer's output into: about PIECE_BYTES of im2col matrix each, at least a weight matrix's
    worth (each piece's GEMM reads all of it), whole images when one fits (then as many pieces
    per core, where the images allow) and whole output rows otherwise, and no larger than an
    even share of the cores (not of the free ones: the pieces, and so the weight gradient's
    rounding, must not change with other processes' load)."""
    total = n * ho * wo
    rows = max(PIECE_BYTES, weight_bytes) // row_bytes
    rows = max(wo, min(rows, -(-total // _cores())))
    if rows >= ho * wo:
        return [(i0, i1, 0, ho) for i0, i1 in _image_ranges(n, -(-n // (rows // (ho * wo))))]
    r = rows // wo
    return [(i, i + 1, h, min(ho, h + r)) for i in range(n) for h in range(0, ho, r)]


def _image_ranges(n, count):
    """At least ``count`` ranges of whole images cutting [0, n), as many per core where the
    images allow (an odd last piece would leave a core waiting), sizes differing by one."""
    count = min(n, -(-count // _cores()) * _cores())
    return [(n * i // count, n * (i + 1) // count) for i in range(count)]


def _by_pieces(work, pieces, flops):
    """``work(index, piece)`` for every piece, the pieces shared between free cores, each of whose
    products (``flops`` in all) runs on one OpenBLAS thread (a piece's GEMM is too small to
    split)."""
    def run(lo, hi):
        for i in range(lo, hi):
            work(i, pieces[i])
    _split_products(run, len(pieces), _SPLIT_MIN, flops // len(pieces))


def _whole_cols_too_large(x, kh, kw, ho, wo):
    """Whether x's im2col matrix is over KEEP_COLS_BYTES: then it is built in pieces, not kept."""
    return x.shape[0] * ho * wo * kh * kw * x.shape[1] * x.itemsize > KEEP_COLS_BYTES


def _piece_cols(view, piece):
    """The im2col rows of one piece, (G, rows, kh*kw*Cg), copied from the windows' view."""
    i0, i1, r0, r1 = piece
    g, _, _, wo, kh, kw, cg = view.shape
    cols = np.empty((g, i1 - i0, r1 - r0, wo, kh, kw, cg), view.dtype)
    np.copyto(cols, view[:, i0:i1, r0:r1])
    return cols.reshape(g, -1, kh * kw * cg)


def _im2col_product(xh, rows_t, kh, kw, ho, wo, stride, dilation, groups):
    """``_im2col(xh, ...) @ rows_t`` (G, N*Ho*Wo, Og) for rows_t (G, kh*kw*Cg, Og), with the
    im2col matrix built a piece at a time (``_pieces``) so that it stays in cache: the whole
    matrix is kh*kw times the input, and writing it out and reading it back cost more than
    its GEMM."""
    view = _windows(xh, kh, kw, ho, wo, stride, dilation, groups)
    g, n = view.shape[:2]
    og = rows_t.shape[2]
    y = POOL.empty((g, n, ho, wo, og), np.result_type(xh, rows_t))

    def work(_, piece):
        i0, i1, r0, r1 = piece
        out = y[:, i0:i1, r0:r1].reshape(g, -1, og)       # a view: whole rows of the output
        _gemm(_piece_cols(view, piece), rows_t, out=out)
    _by_pieces(work, _pieces(n, ho, wo, view[0, 0, 0, 0].nbytes * g, rows_t.nbytes),
               2 * y.size * rows_t.shape[1])
    return y.reshape(g, n * ho * wo, og)


def _im2col_filter_grad(gyg, xh, kh, kw, ho, wo, stride, dilation, groups):
    """``gyg^T @ _im2col(xh, ...)`` (G, Og, kh*kw*Cg) for grouped gy (G, N*Ho*Wo, Og), summed
    over the pieces of ``_pieces`` so that no whole im2col matrix is built.

    The pieces are summed in order within one run of pieces per core, then the runs' sums in
    order: the rounding is the same whichever threads run them, and only one partial sum per
    core is held."""
    view = _windows(xh, kh, kw, ho, wo, stride, dilation, groups)
    g, n = view.shape[:2]
    og = gyg.shape[2]
    gy5 = gyg.reshape(g, n, ho, wo, og)
    pieces = _pieces(n, ho, wo, view[0, 0, 0, 0].nbytes * g,
                     og * view[0, 0, 0, 0].size * gyg.itemsize)
    k = min(_cores(), len(pieces))
    bounds = [len(pieces) * i // k for i in range(k + 1)]
    runs = [pieces[bounds[i]:bounds[i + 1]] for i in range(k)]
    sums = [None] * k

    def work(index, run):
        for i0, i1, r0, r1 in run:
            gyt = gy5[:, i0:i1, r0:r1].reshape(g, -1, og).transpose(0, 2, 1)
            part = _gemm(gyt, _piece_cols(view, (i0, i1, r0, r1)))
            if sums[index] is None:
                sums[index] = part
            else:
                sums[index] += part
    _by_pieces(work, runs, 2 * gyg.size * view[0, 0, 0, 0].size)
    total = sums[0]
    for part in sums[1:]:
        total += part
    return total


def _weight_rows(w, groups):
    """w (O, Cg, kh, kw) as (G, Og, kh*kw*Cg): one row per output channel, its columns ordered
    as the im2col columns (the copy keeps each output channel's values together)."""
    o, cg, kh, kw = w.shape
    return np.ascontiguousarray(w.transpose(0, 2, 3, 1)).reshape(groups, o // groups,
                                                                   kh * kw * cg)


def _from_groups(y, n, h, w):
    """(G, N*H*W, Cg) as (N, G*Cg, H, W), stored channels-last (a view when G is 1)."""
    g, _, cg = y.shape
    if g > 1:
        y = np.ascontiguousarray(y.transpose(1, 0, 2))
    return y.reshape(n, h, w, g * cg).transpose(0, 3, 1, 2)


def _to_groups(gy, groups):
    """gy (N, O, H, W) as a contiguous (G, N*H*W, Og) array (a view when G is 1 and gy is
    stored channels-last)."""
    n, o, h, w = gy.shape
    g = _nhwc(gy).reshape(n * h * w, groups, o // groups).transpose(1, 0, 2)
    if g.flags.c_contiguous:
        return g
    out = POOL.empty(g.shape, g.dtype)
    out[...] = g
    return out


def kernel_choice(w_shape, stride, padding, dilation, groups, out_hw, dtype, grad=False,
                  batch_last_input=False, input_grad=False):
    """'pointwise' (1x1, no padding: a plain GEMM on the strided input), 'winograd' (3x3,
    stride 1), 'batch_last' (im2col on (C, H, W, N) arrays, for narrow layers or an input
    stored so) or 'direct' (channels-last im2col) for a convolution, following ``ALGORITHM``;
    ``grad`` asks for its weight gradient, ``input_grad`` for its input gradient."""
    o, cg, kh, kw = w_shape
    if ALGORITHM == 'direct' or groups != 1:
        return 'direct'
    if (kh, kw) == (1, 1) and not any(padding):
        return 'pointwise'
    narrow = batch_last_input or max(o, cg) <= _bl.MAX_CHANNELS
    if (kh, kw) != (3, 3) or stride != (1, 1) or dilation != (1, 1):
        return 'batch_last' if narrow else 'direct'
    least = (WINOGRAD_GRAD_MIN_CHANNELS if grad else
             WINOGRAD_INPUT_GRAD_MIN_CHANNELS if input_grad else WINOGRAD_MIN_CHANNELS)
    if ALGORITHM == 'fast' or (least is not None and np.dtype(dtype) == np.float32
                               and min(out_hw) >= 4 and min(o, cg) >= least):
        return 'winograd'
    return 'batch_last' if narrow else 'direct'


def rules_plan(w_shape, stride, padding, dilation, groups, out_hw, dtype, batch_last_input=False):
    """The ``Plan`` the fixed rules give a layer (``kernel_choice`` for each pass): the input
    gradient of a stride-1 layer convolves the flipped kernel ('direct') unless the output has
    at least twice the input's channels (then 'col2im', whose matrix is the smaller)."""
    forward = kernel_choice(w_shape, stride, padding, dilation, groups, out_hw, dtype,
                            batch_last_input=batch_last_input)
    return _plan(forward, w_shape, stride, padding, dilation, groups, out_hw, dtype, None, False)


def _plan(how, w_shape, stride, padding, dilation, groups, out_hw, dtype, x_shape,
          batch_last_input):
    """``how`` as a ``Plan``: itself; for None, the layer's kept plan or the rules'; for a
    forward kernel's name, the rules' plan of a layer whose forward ran that kernel."""
    if isinstance(how, Plan):
        return how
    if how is None:
        plan = None
        if _conv_plan.measuring() and ALGORITHM == 'auto':
            plan = _conv_plan.layer_plan(_conv_plan.key(x_shape, w_shape, stride, padding,
                                                        dilation, groups, dtype))
        return plan or rules_plan(w_shape, stride, padding, dilation, groups, out_hw, dtype,
                                  batch_last_input)
    if how in ('batch_last', 'pointwise'):
        return Plan(how, how, how)
    args = (w_shape, stride, padding, dilation, groups, out_hw, dtype)
    inp = kernel_choice(*args, input_grad=True) if how == 'winograd' else how
    if inp != 'winograd':
        inp = 'direct' if stride == (1, 1) and w_shape[0] // groups < 2 * w_shape[1] else 'col2im'
    filt = kernel_choice(*args, grad=True)
    return Plan(how, inp, 'direct' if filt == 'batch_last' else filt)


def grad_operand(gy, how, groups):
    """gy in the form the gradient kernels of ``how`` (a ``Plan`` or a forward kernel's name)
    take: (O, Ho*Wo*N) for 'batch_last', grouped (G, N*Ho*Wo, Og) otherwise."""
    forward = how.forward if isinstance(how, Plan) else how
    return _bl.gy_matrix(gy) if forward == 'batch_last' else _to_groups(gy, groups)


def _strided_rows(xh, stride, ho, wo):
    """The (N*Ho*Wo, C) rows of a channels-last array read at ``stride`` (a view at stride 1)."""
    if stride != (1, 1):
        xh = xh[:, ::stride[0], ::stride[1]][:, :ho, :wo]
    return xh.reshape(-1, xh.shape[3])


def _tiled(x, padding, ho, wo):
    """x (N, C, H, W) padded channels-last, with zero rows and columns added at the bottom
    and right up to whole Winograd tiles: a ``winograd.Padded`` of x as it lies where
    Winograd runs in pieces (no padded copy), else the padded copy."""
    th, tw = winograd.tiles(ho, wo, TILE)
    pt, pb, pl, pr = padding
    if winograd.runs_in_pieces(x.shape[0], th, tw, x.shape[1], TILE):
        return winograd.Padded(_nhwc(x), pt, pl, th * TILE + 2, tw * TILE + 2)
    return _channels_last(x, pt, pb + th * TILE - ho, pl, pr + tw * TILE - wo)


def conv_forward(x, w, stride, padding, dilation, groups, plan=None, grads=(True, True)):
    """(y, plan, xh, rows, cols): the convolution of x (N, C, H, W) with w (O, C/G, kh, kw);
    the layer's ``Plan`` (``plan``, else the one conv_plan.py keeps or measures, else the
    rules'; ``grads``: whether backward will compute the input's and the weight's gradients,
    for the measure); the padded input (channels-last, or batch-last for 'batch_last'; None
    where Winograd read x as it lies); the weight in the forward kernel's form (im2col's rows,
    or Winograd's transformed kernels, which the input gradient reads at reordered positions);
    and the im2col matrix when at most KEEP_COLS_BYTES (for a 1x1 strided layer its strided
    rows; None otherwise). All are reused by backward."""
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    pt, pb, pl, pr = padding
    ho = out_length(h + pt + pb, kh, stride[0], dilation[0])
    wo = out_length(wd + pl + pr, kw, stride[1], dilation[1])
    if plan is None:
        batch_last = _bl.stored_batch_last(x)
        plan = _conv_plan.plan_for(
            _self, x, w, stride, padding, dilation, groups, (ho, wo),
            lambda: rules_plan(w.shape, stride, padding, dilation, groups, (ho, wo), x.dtype,
                               batch_last), grads, batch_last)
    how = plan.forward
    _conv_plan.ran.forward = how
    y, xh, rows, cols = _forward(x, w, how, stride, padding, dilation, groups, ho, wo)
    return y, plan, xh, rows, cols


def _forward(x, w, how, stride, padding, dilation, groups, ho, wo):
    """(y, xh, rows, cols) of ``conv_forward`` with forward kernel ``how``."""
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    if how == 'pointwise':
        xh = _nhwc(x)
        rows = _strided_rows(xh, stride, ho, wo)        # a copy at stride > 1: kept if small
        y = _matmul(rows, w.reshape(o, c).T)
        kept = rows if stride != (1, 1) and rows.nbytes <= KEEP_COLS_BYTES else None
        return y.reshape(n, ho, wo, o).transpose(0, 3, 1, 2), xh, None, kept
    if how == 'winograd':
        xh = _tiled(x, padding, ho, wo)
        u = winograd.kernel_transform(w, TILE)
        y = winograd.convolve(xh, u, ho, wo, TILE).transpose(0, 3, 1, 2)
        return y, None if isinstance(xh, winograd.Padded) else xh, u, None
    if how == 'batch_last':
        y, xb, cols = _bl.forward(x, w, stride, padding, dilation, (ho, wo), KEEP_COLS_BYTES)
        return y, xb, None, cols
    xh = _channels_last(x, *padding)
    rows = _weight_rows(w, groups)
    if _whole_cols_too_large(x, kh, kw, ho, wo):
        y = _im2col_product(xh, rows.transpose(0, 2, 1), kh, kw, ho, wo, stride, dilation,
                            groups)
        return _from_groups(y, n, ho, wo), xh, rows, None
    cols = _im2col(xh, kh, kw, ho, wo, stride, dilation, groups)
    y = _matmul(cols, rows.transpose(0, 2, 1))
    return _from_groups(y, n, ho, wo), xh, rows, cols


def _filter_from_rows(gw, w_shape):
    """The weight gradient (O, Cg, kh, kw) from its rows (G, Og, kh*kw*Cg)."""
    o, cg, kh, kw = w_shape
    return np.ascontiguousarray(gw.reshape(o, kh, kw, cg).transpose(0, 3, 1, 2))


def filter_grad(gy, x, kernel_size, stride, padding, dilation, groups, how=None, xh=None,
                gyg=None, cols=None):
    """The gradient of conv2d with respect to its weight, for output gradient gy and input x
    (``how``, ``xh``, ``gyg`` and ``cols``: the forward's ``Plan`` or kernel, x padded in its
    layout, gy as ``grad_operand`` and x's im2col matrix, when at hand)."""
    kh, kw = kernel_size
    n, o, ho, wo = gy.shape
    w_shape = (o, x.shape[1] // groups, kh, kw)
    plan = _plan(how, w_shape, stride, padding, dilation, groups, (ho, wo), gy.dtype, x.shape,
                 _bl.stored_batch_last(x))
    how = _conv_plan.ran.filter = plan.filter
    if how == 'batch_last':
        if gyg is None:
            gyg = _bl.gy_matrix(gy)
        return _bl.filter_grad(gyg, x, w_shape, stride, padding, dilation, (ho, wo), xh, cols)
    if gyg is None:
        gyg = _to_groups(gy, groups)
    if how == 'pointwise':
        if cols is None:
            cols = _strided_rows(_nhwc(x) if xh is None else xh, stride, ho, wo)
        return _matmul(gyg[0].T, cols).reshape(w_shape)
    if how == 'winograd':
        th, tw = winograd.tiles(ho, wo, TILE)
        if xh is None or xh.shape[1] < th * TILE + 2 or xh.shape[2] < tw * TILE + 2:
            xh = _tiled(x, padding, ho, wo)
        return winograd.filter_grad(gyg[0].reshape(n, ho, wo, o), xh, TILE)
    if cols is None:
        if xh is None:
            xh = _channels_last(x, *padding)
        if _whole_cols_too_large(x, kh, kw, ho, wo):
            gw = _im2col_filter_grad(gyg, xh, kh, kw, ho, wo, stride, dilation, groups)
            return _filter_from_rows(gw, w_shape)
        cols = _im2col(xh, kh, kw, ho, wo, stride, dilation, groups)
    return _filter_from_rows(_matmul(gyg.transpose(0, 2, 1), cols), w_shape)


def input_grad(gy, w, input_size, stride, padding, dilation, groups, how=None, gyg=None,
               rows=None):
    """The gradient of conv2d with respect to its input (N, C, *input_size), for gy and w
    (``how``, ``gyg`` and ``rows``: the forward's ``Plan`` or kernel, gy as ``grad_operand``
    and w in the forward kernel's form, when already at hand)."""
    n, o, ho, wo = gy.shape
    _, cg, kh, kw = w.shape
    h, wd = input_size
    pt, pb, pl, pr = padding
    og = o // groups
    plan = _plan(how, w.shape, stride, padding, dilation, groups, (ho, wo), gy.dtype,
                 (n, cg * groups, h, wd), _bl.stored_batch_last(gy))
    how = _conv_plan.ran.input = plan.input
    if how == 'batch_last':
        if gyg is None:
            gyg = _bl.gy_matrix(gy)
        return _bl.input_grad(gyg, w, n, input_size, stride, padding, dilation, (ho, wo))
    if (how == 'winograd') != (plan.forward == 'winograd'):
        rows = None                 # the forward's weight form is not this kernel's
    if how == 'pointwise':
        if gyg is None:
            gyg = _to_groups(gy, groups)
        g = _matmul(gyg[0], w.reshape(o, cg))                 # (N*Ho*Wo, C)
        if stride == (1, 1):
            return g.reshape(n, h, wd, cg).transpose(0, 3, 1, 2)
        gx = np.zeros((n, h, wd, cg), g.dtype)
        gx[:, ::stride[0], ::stride[1]][:, :ho, :wo] = g.reshape(n, ho, wo, cg)
        return gx.transpose(0, 3, 1, 2)
    if how in ('winograd', 'direct') and stride == (1, 1):
        # a stride-1 convolution of gy, zero-padded, with the flipped kernel: gy's row r
        # lands at row r + eh - pt of the padded gradient (rows outside it are dropped);
        # Winograd also wants zero rows and columns up to whole tiles
        eh, ew = dilation[0] * (kh - 1), dilation[1] * (kw - 1)
        top, left = eh - pt, ew - pl
        xh_, xw_ = 0, 0
        if how == 'winograd':
            th, tw = winograd.tiles(h, wd, TILE)
            xh_, xw_ = th * TILE - h, tw * TILE - wd
        hb, wb = h + eh + xh_, wd + ew + xw_
        if how == 'winograd' and winograd.runs_in_pieces(n, th, tw, o, TILE):
            u, order = winograd.flipped_kernel(w, TILE, rows)
            gh = winograd.Padded(_nhwc(gy), top, left, hb, wb)
            return winograd.convolve(gh, u, h, wd, TILE, order).transpose(0, 3, 1, 2)
        buf = POOL.empty((n, hb, wb, o), gy.dtype)
        r0, r1 = max(0, -top), min(ho, h + eh - top)
        c0, c1 = max(0, -left), min(wo, wd + ew - left)
        if r1 > r0 and c1 > c0:
            _zero_border(buf, r0 + top, hb - r1 - top, c0 + left, wb - c1 - left)
            _copy_channels_last(buf[:, r0 + top:r1 + top, c0 + left:c1 + left],
                                gy[:, :, r0:r1, c0:c1])
        else:
            buf.fill(0)
        if how == 'winograd':
            u, order = winograd.flipped_kernel(w, TILE, rows)
            return winograd.convolve(buf, u, h, wd, TILE, order).transpose(0, 3, 1, 2)
        if rows is None:
            rows = _weight_rows(w, groups)
        # the flipped kernel as (G, kh*kw*Og, Cg), copied from the rows in runs of Cg
        flipped = rows.reshape(groups, og, kh, kw, cg)[:, :, ::-1, ::-1].transpose(0, 2, 3, 1, 4)
        flipped = np.ascontiguousarray(flipped).reshape(groups, kh * kw * og, cg)
        g = _im2col_product(buf, flipped, kh, kw, h, wd, (1, 1), dilation, groups)
        return _from_groups(g, n, h, wd)
    if rows is None:
        rows = _weight_rows(w, groups)
    if gyg is None:
        gyg = _to_groups(gy, groups)
    buf = _col2im(gyg, rows, (n, h + pt + pb, wd + pl + pr), (ho, wo), (kh, kw), stride,
                  dilation)
    gx = buf[:, pt:pt + h, pl:pl + wd].transpose(0, 3, 4, 1, 2)
    return gx.reshape(n, groups * cg, h, wd)


def _col2im(gyg, rows, padded, out_hw, kernel, stride, dilation):
    """The padded input gradient (N, Hp, Wp, G, Cg) of grouped gy (G, N*Ho*Wo, Og) and the
    weight rows (G, Og, kh*kw*Cg): each output pixel's gradient columns gy @ rows, added into
    the kh*kw input pixels its window read. Done a few whole images at a time (the pieces
    write disjoint images, shared between free cores: as many per core), so that each piece's
    columns, kh*kw times its input, are added while still in cache."""
    g, _, og = gyg.shape
    n, hp, wp = padded
    (ho, wo), (kh, kw) = out_hw, kernel
    (sh, sw), (dh, dw) = stride, dilation
    cg = rows.shape[2] // (kh * kw)
    buf = POOL.empty((n, hp, wp, g, cg), np.result_type(gyg, rows))
    gy5 = gyg.reshape(g, n, ho * wo, og)
    pieces = _image_ranges(n, -(-n * ho * wo * rows.shape[2] * g * buf.itemsize // PIECE_BYTES))

    def work(_, piece):
        i0, i1 = piece
        gc = _gemm(gy5[:, i0:i1].reshape(g, -1, og), rows)
        gc = gc.reshape(g, i1 - i0, ho, wo, kh, kw, cg)
        b = buf[i0:i1]
        b.fill(0)
        for i in range(kh):
            for j in range(kw):
                b[:, i * dh:i * dh + (ho - 1) * sh + 1:sh, j * dw:j * dw + (wo - 1) * sw + 1:sw] \
                    += gc[:, :, :, :, i, j].transpose(1, 2, 3, 0, 4)
    _by_pieces(work, pieces, 2 * gyg.size * rows.shape[2])
    return buf
