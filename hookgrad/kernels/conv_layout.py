"""Scratch memory and channels-last layout for the convolutions (``conv``, ``winograd``).

CPU only (NumPy arrays).

``POOL`` lends large scratch arrays whose memory is handed out again at the next training
step; the helpers copy NCHW arrays, possibly stored channels-last already, into C-contiguous
zero-padded (N, H, W, C) buffers.
"""
import math
import threading
import weakref

import numpy as np

__all__ = ['BufferPool', 'POOL']


class BufferPool:
    """Scratch arrays whose memory is handed out again once every array using it is gone.

    Fresh memory costs a page-zeroing pass in the kernel (about 6 ms for the 75 MB im2col
    matrix of a batch-32, 64-channel 32x32 3x3 convolution) and the same sizes recur at every
    training step. A buffer is lent through a memoryview, so every array derived from it has
    one base; a finalizer on that base gives the buffer back. A request takes the smallest idle
    buffer at most 25% larger than it. Idle buffers are kept up to ``limit`` bytes
    (``POOL.idle.clear()`` releases them, ``POOL.limit = 0`` stops keeping any). Finalizers
    only append to ``idle``; only ``empty`` removes from it.
    """

    __slots__ = ('idle', 'limit', '_lock')
    min_bytes = 1 << 20         # smaller arrays come from NumPy directly

    def __init__(self, limit):
        self.idle = []
        self.limit = limit
        self._lock = threading.Lock()

    def empty(self, shape, dtype):
        """An uninitialised C-contiguous array of ``shape`` and ``dtype``."""
        dtype = np.dtype(dtype)
        count = math.prod(shape)
        nbytes = count * dtype.itemsize
        if nbytes < self.min_bytes:
            return np.empty(shape, dtype)
        with self._lock:
            idle, best = self.idle, None
            for i, raw in enumerate(idle):      # the smallest idle buffer that fits, if any
                if nbytes <= raw.nbytes <= nbytes + nbytes // 4 and (
                        best is None or raw.nbytes < idle[best].nbytes):
                    best = i
            raw = idle.pop(best) if best is not None else np.empty(nbytes, np.uint8)
        root = np.frombuffer(memoryview(raw), dtype, count)
        weakref.finalize(root, self._give_back, raw).atexit = False
        return root.reshape(shape)

    def _give_back(self, raw):
        if sum(b.nbytes for b in self.idle) + raw.nbytes <= self.limit:
            self.idle.append(raw)


POOL = BufferPool(limit=1 << 30)


def zero_border(buf, top, bottom, left, right):
    """Zero the rows and columns of a (N, H, W, C) buffer outside [top:H-bottom, left:W-right]."""
    h, w = buf.shape[1:3]
    buf[:, :top] = 0
    buf[:, h - bottom:] = 0
    buf[:, top:h - bottom, :left] = 0
    buf[:, top:h - bottom, w - right:] = 0


def copy_channels_last(dst, a):
    """dst (N, H, W, C) = a (N, C, H, W).

    When a's channels lie a multiple of 4 KiB apart (NCHW 32x32 float32 planes), reading
    across them directly thrashes the cache sets; going through (N, H, C, W) is then ~2.5x
    faster."""
    if a.shape[1] > 1 and a.strides[1] % 4096 == 0 and a.strides[3] == a.itemsize:
        a = np.ascontiguousarray(a.transpose(0, 2, 1, 3)).transpose(0, 1, 3, 2)
    else:
        a = a.transpose(0, 2, 3, 1)
    dst[...] = a


def nhwc(a):
    """a (N, C, H, W) as a C-contiguous (N, H, W, C) array; no copy if it is stored so."""
    t = a.transpose(0, 2, 3, 1)
    if t.flags.c_contiguous:
        return t
    out = POOL.empty(t.shape, a.dtype)
    copy_channels_last(out, a)
    return out


def channels_last(x, pt, pb, pl, pr):
    """x (N, C, H, W) as a C-contiguous, zero-padded (N, H + pt + pb, W + pl + pr, C) array."""
    if not (pt or pb or pl or pr):
        return nhwc(x)
    n, c, h, w = x.shape
    buf = POOL.empty((n, h + pt + pb, w + pl + pr, c), x.dtype)
    zero_border(buf, pt, pb, pl, pr)
    copy_channels_last(buf[:, pt:pt + h, pl:pl + w], x)
    return buf
