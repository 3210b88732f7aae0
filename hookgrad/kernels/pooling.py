"""Pooling kernels on NCHW arrays: window geometry, padded planes, strided window views.

A window's kernel offsets are strided slices of the padded input, so a pooling pass is kh*kw
whole-array operations and no window is ever copied. The arrays may be of any device: new ones
come from the input's array module. ``p`` is the dict of one pooling's geometry:
'kernel_size', 'stride', 'dilation', 'padding' (top, bottom, left, right) and 'out_size'.
"""
import numpy as np

from .backend import array_module


# ------------------------------------------------------------------------------ geometry
def pool_out_length(size, kernel, stride, before, after, dilation, ceil_mode):
    """Number of windows; with ceil_mode a last partial window counts if it starts inside the
    input or its leading padding."""
    span = size + before + after - dilation * (kernel - 1) - 1
    out = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + before:
        out -= 1
    return out


def padded(x, p, fill):
    """x padded with ``fill`` by p['padding'] (top, bottom, left, right), widened at the
    bottom/right so that every window fits (ceil mode)."""
    n, c, hp, wp = padded_shape(x.shape, p)
    h, w = x.shape[2:]
    if (hp, wp) == (h, w):
        return x
    pt, _, pl, _ = p['padding']
    out = alike((n, c, hp, wp), x)
    out.fill(fill)
    out[:, :, pt:pt + h, pl:pl + w] = x
    return out


def memory_order(x):
    """x's axes from the outermost in memory to the innermost (ties keep their order)."""
    return sorted(range(x.ndim), key=lambda a: -x.strides[a])


def alike(shape, x, dtype=None):
    """An uninitialised array of ``shape`` (x's rank) whose axes lie in memory in the order
    of x's (channels-last, batch-last, ...), so that element-wise passes between them (and
    the layers around them) read both in one order."""
    dtype = x.dtype if dtype is None else dtype
    xp = array_module(x)
    order = memory_order(x)
    if order == list(range(x.ndim)):
        return xp.empty(shape, dtype)
    stored = xp.empty([shape[a] for a in order], dtype)
    return stored.transpose(sorted(range(x.ndim), key=order.__getitem__))     # the inverse


def like(a, x):
    """a (x's shape) copied into x's memory order unless it is densely stored so already."""
    if a.transpose(memory_order(x)).flags.c_contiguous:
        return a
    out = alike(a.shape, x, a.dtype)
    np.copyto(out, a)
    return out


def offset_slice(i, j, p):
    """The (rows, cols) slice of the padded plane seen by kernel offset (i, j) at every output."""
    (ho, wo), (sh, sw), (dh, dw) = p['out_size'], p['stride'], p['dilation']
    return (slice(None), slice(None), slice(i * dh, i * dh + (ho - 1) * sh + 1, sh),
            slice(j * dw, j * dw + (wo - 1) * sw + 1, sw))


def padded_shape(shape, p):
    n, c, h, w = shape
    pt, pb, pl, pr = p['padding']
    (kh, kw), (ho, wo), (sh, sw), (dh, dw) = p['kernel_size'], p['out_size'], p['stride'], \
        p['dilation']
    return (n, c, max(h + pt + pb, (ho - 1) * sh + dh * (kh - 1) + 1),
            max(w + pl + pr, (wo - 1) * sw + dw * (kw - 1) + 1))


def crop(shape, p):
    pt, _, pl, _ = p['padding']
    h, w = shape[2:]
    return (slice(None), slice(None), slice(pt, pt + h), slice(pl, pl + w))



# ------------------------------------------------------------------------------ windows
def first_maximum(views, y):
    """Per output, the first kernel offset whose value equals the window's maximum y (the
    first NaN where y is NaN), as small integers in y's layout.

    Branch-free: walking the offsets backwards, k -= (k - t) * (view_t == y) moves k to t where
    offset t holds the maximum; a masked copy (``np.copyto(where=)``) would be several times
    slower on the random masks of real activations. On a device the NaN pass always runs:
    asking whether y holds a NaN would be a read by the host."""
    kk = len(views)
    small = kk < 256
    k = np.empty_like(y, dtype=np.uint8 if small else np.intp)
    k.fill(kk - 1)
    eq = np.empty_like(y, dtype=np.bool_)
    step = np.empty_like(k)
    hit = eq.view(np.uint8) if small else eq
    for t in range(kk - 2, -1, -1):
        np.equal(views[t], y, out=eq)
        np.subtract(k, t, out=step)
        np.multiply(step, hit, out=step)
        np.subtract(k, step, out=k)
    if y.dtype.kind in 'fV':
        nan = np.isnan(y)
        if type(y) is not np.ndarray or nan.any():
            for t in range(kk - 1, -1, -1):      # t in k's dtype: CuPy casts no Python int
                np.copyto(k, k.dtype.type(t), where=nan & np.isnan(views[t]))
    return k


def window_sum(x, p):
    xp = padded(x, p, 0)
    kh, kw = p['kernel_size']
    y = xp[offset_slice(0, 0, p)].copy()
    for t in range(1, kh * kw):
        y += xp[offset_slice(t // kw, t % kw, p)]
    return y


def window_scatter(g, shape, p):
    """Adds each window's ``g`` onto its input elements. Offsets go last to first, so every
    element sums its windows in output order (row by row), as MindSpore's CPU kernel does."""
    gx = array_module(g).zeros(padded_shape(shape, p), g.dtype)
    kh, kw = p['kernel_size']
    for t in reversed(range(kh * kw)):
        gx[offset_slice(t // kw, t % kw, p)] += g
    return gx[crop(shape, p)]


# ------------------------------------------------------------------------------ on a device
# On a GPU each whole-array call is a kernel launch and its host overhead; max pooling there
# copies its windows once and reduces them, instead of kh*kw passes per output.
def window_view(xpad, p):
    """The windows of the padded plane as a strided view (N, C, Ho, Wo, kh, kw)."""
    (kh, kw), (ho, wo), (sh, sw), (dh, dw) = p['kernel_size'], p['out_size'], p['stride'], \
        p['dilation']
    n, c = xpad.shape[:2]
    s0, s1, s2, s3 = xpad.strides
    return array_module(xpad).lib.stride_tricks.as_strided(
        xpad, (n, c, ho, wo, kh, kw), (s0, s1, s2 * sh, s3 * sw, s2 * dh, s3 * dw))


def max_windows(xpad, p):
    """(y, k) on a device: each window's maximum and the kernel offset of its first maximum
    (its first NaN where it holds one, as NaN is its maximum)."""
    xp = array_module(xpad)
    (kh, kw), (ho, wo) = p['kernel_size'], p['out_size']
    windows = xp.ascontiguousarray(window_view(xp.ascontiguousarray(xpad), p))
    windows = windows.reshape(windows.shape[:4] + (kh * kw,))
    return windows.max(axis=4), windows.argmax(axis=4)


def tiles_apart(p):
    """Whether no input element lies in two windows (stride >= the dilated kernel)."""
    (kh, kw), (sh, sw), (dh, dw) = p['kernel_size'], p['stride'], p['dilation']
    return sh >= dh * (kh - 1) + 1 and sw >= dw * (kw - 1) + 1


def max_scatter(gy, k, padded_shape_, p):
    """On a device, for windows ``tiles_apart``: the padded input's gradient, gy placed at
    each window's offset k (zeros elsewhere), in one write through the window view."""
    xp = array_module(gy)
    kh, kw = p['kernel_size']
    gx = xp.zeros(padded_shape_, gy.dtype)
    hit = k[..., None] == xp.arange(kh * kw, dtype=k.dtype)
    window_view(gx, p)[...] = (hit * gy[..., None]).reshape(k.shape + (kh, kw))
    return gx
