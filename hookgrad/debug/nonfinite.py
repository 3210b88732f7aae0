"""NaN and Inf in arrays, for nan_guard: exact tests and counts, on the host or on a device."""
import math

import numpy as np

from ..kernels import backend

SMALL = 4096        # below this many elements the exact test is as fast as the dot product


def finite(a):
    """Whether every element of ``a`` is finite; integers and booleans always are."""
    kind = a.dtype.kind
    if kind not in 'fV' and kind != 'c':
        return True
    if a.size < SMALL or kind == 'c' or a.dtype.itemsize < 4:
        return bool(np.isfinite(a).all())
    flat = a.ravel('K')     # a view for contiguous and transposed arrays
    with np.errstate(over='ignore', invalid='ignore'):
        s = np.dot(flat, flat)
    # the sum of squares is finite only if every element is; if it overflowed, look closer
    return math.isfinite(s) or bool(np.isfinite(a).all())


def kinds(a, mask):
    """Bit 1 if ``a`` holds a NaN, bit 2 if an Inf, of those in ``mask``."""
    if finite(a):
        return 0
    return ((1 if mask & 1 and np.isnan(a).any() else 0)
            | (2 if mask & 2 and np.isinf(a).any() else 0))


def counts(arrays):
    nan = pos = neg = 0
    for a in arrays:
        kind = a.dtype.kind
        if kind in 'fV':
            nan += int(np.count_nonzero(np.isnan(a)))
            pos += int(np.count_nonzero(a == np.inf))
            neg += int(np.count_nonzero(a == -np.inf))
        elif kind == 'c':
            nan += int(np.count_nonzero(np.isnan(a)))
            pos += int(np.count_nonzero(np.isinf(a)))
    return nan, pos, neg


def device_counts(a):
    """``[NaN, +Inf, -Inf]`` counts of a device array, on its device (a complex array's
    infinities count as +Inf); a NumPy array's on the host."""
    xp = backend.array_module(a)
    if a.dtype.kind == 'c':
        inf = xp.isinf(a).sum()
        return xp.stack([xp.isnan(a).sum(), inf, inf * 0])
    return xp.stack([xp.isnan(a).sum(), (a == np.inf).sum(), (a == -np.inf).sum()])


def read_counts(entries):
    """The pending counts as host rows: the device ones read in one host read."""
    device = [e for e in entries if type(e) is not np.ndarray]
    if not device:
        return entries
    xp = backend.array_module(device[0])
    rows = iter(backend.to_host(xp.stack(device), "nan_guard's NaN and Inf counts").tolist())
    return [e.tolist() if type(e) is np.ndarray else next(rows) for e in entries]
