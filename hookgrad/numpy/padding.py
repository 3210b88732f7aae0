"""``mindspore.numpy.pad``: padding by constants, edge values, reflections, wrapping,
statistics and linear ramps, one axis at a time (as NumPy pads). Differentiable in the array
(and in Tensor constants).
"""
import numpy as np

from .. import ops
from .._tensor import Tensor
from ._args import fail, to_tensor, values

_MODES = ('constant', 'edge', 'wrap', 'reflect', 'symmetric', 'maximum', 'minimum', 'mean',
          'linear_ramp', 'empty')


def _pairs(value, ndim, name, what, integers=True):
    """``value`` (a number, a pair, or one pair per axis) as ``ndim`` (before, after) pairs."""
    if isinstance(value, Tensor):
        value = values(value).tolist()
    try:
        arr = np.broadcast_to(np.asarray(value, dtype=object if not integers else None),
                              (ndim, 2))
    except ValueError:
        raise fail(name, f"{what} {value!r} cannot be broadcast to ({ndim}, 2)") from None
    if integers:
        if arr.dtype.kind not in 'iu':
            raise fail(name, f"{what} must be integers, got {value!r}", TypeError)
        if (arr < 0).any():
            raise fail(name, f"{what} cannot hold negative values, got {value!r}")
        return [(int(a), int(b)) for a, b in arr]
    return [(a, b) for a, b in arr]


def _along(x, axis, index):
    return ops.getitem(x, (slice(None),) * axis + (index,))


def _block(x, axis, width, value):
    """A block of ``width`` along ``axis`` filled with ``value`` (broadcast)."""
    shape = x.shape[:axis] + (width,) + x.shape[axis + 1:]
    v = to_tensor(value, 'pad')
    if v._data.dtype != x._data.dtype:
        v = ops.cast(v, x._data.dtype)
    return ops.broadcast_to(v, shape)


def _join(x, axis, before, after):
    parts = [p for p in (before, x, after) if p is not None and p.shape[axis] > 0]
    return ops.concat(parts, axis) if len(parts) > 1 else x


def _reflected(x, axis, before, after, symmetric, odd):
    """Pad by mirroring the array at its edges (with or without repeating the edge), in
    chunks no longer than the array, as NumPy does."""
    while before or after:
        n = x.shape[axis]
        span = n if symmetric else n - 1
        if span <= 0:       # a single element: repeat it
            return _join(x, axis, _along(x, axis, np.zeros(before, np.int64)),
                         _along(x, axis, np.zeros(after, np.int64)))
        kb, ka = min(before, span), min(after, span)
        start = 0 if symmetric else 1
        head = _along(x, axis, np.arange(start + kb - 1, start - 1, -1))
        tail = _along(x, axis, np.arange(n - 1 - start, n - 1 - start - ka, -1))
        if odd:
            head = ops.sub(ops.mul(_along(x, axis, slice(0, 1)), 2), head)
            tail = ops.sub(ops.mul(_along(x, axis, slice(n - 1, n)), 2), tail)
        x = _join(x, axis, head, tail)
        before, after = before - kb, after - ka
    return x


def _statistic(x, axis, before, after, lengths, mode):
    n = x.shape[axis]
    if n == 0:
        raise fail('pad', f"cannot compute the {mode} of an empty axis")
    fn = {'maximum': ops.amax, 'minimum': ops.amin, 'mean': None}[mode]

    def stat(part):
        if fn is not None:
            return fn(part, axis, True)
        m = ops.mean(part if part._data.dtype.kind in 'fV' else ops.cast(part, np.float64),
                     axis, True)
        if x._data.dtype.kind not in 'fV':
            m = ops.round(m)
        return ops.cast(m, x._data.dtype) if m._data.dtype != x._data.dtype else m

    lb, la = lengths
    lb = n if lb is None else max(1, min(int(lb), n))
    la = n if la is None else max(1, min(int(la), n))
    head = _block(x, axis, before, stat(_along(x, axis, slice(0, lb)))) if before else None
    tail = _block(x, axis, after, stat(_along(x, axis, slice(n - la, n)))) if after else None
    return _join(x, axis, head, tail)


def _ramp(x, axis, before, after, ends):
    n = x.shape[axis]
    dt = x._data.dtype
    ftype = dt if dt.kind in 'fV' else np.dtype(np.float64)

    def side(edge, end, width, rising):
        frac = np.arange(width, dtype=np.float64) / width
        frac = frac if rising else frac[::-1]
        shape = (1,) * axis + (width,) + (1,) * (x.ndim - axis - 1)
        frac = Tensor._wrap(frac.reshape(shape).astype(ftype))
        e = ops.cast(edge, ftype) if edge._data.dtype != ftype else edge
        v = ops.cast(to_tensor(end, 'pad'), ftype)
        y = ops.add(v, ops.mul(ops.sub(e, v), frac))
        if dt.kind not in 'fV':      # integers: truncated, as NumPy converts the ramp
            y = ops.trunc(y)
        return ops.cast(y, dt) if y._data.dtype != dt else y

    head = side(_along(x, axis, slice(0, 1)), ends[0], before, True) if before else None
    tail = side(_along(x, axis, slice(n - 1, n)), ends[1], after, False) if after else None
    return _join(x, axis, head, tail)


def pad(arr, pad_width, mode='constant', stat_length=None, constant_values=0, end_values=0,
        reflect_type='even', **kwargs):
    """``arr`` padded by ``pad_width`` (a number, a (before, after) pair, or one pair per axis)
    in ``mode``: 'constant' (``constant_values``), 'edge', 'wrap', 'reflect', 'symmetric'
    (``reflect_type`` 'even' or 'odd'), 'maximum' / 'minimum' / 'mean' (of ``stat_length``
    edge elements, all by default), 'linear_ramp' (to ``end_values``), 'empty' (zeros).

    Raises:
        ValueError: for another mode ('median' and functions are not available).

    >>> import hookgrad.numpy as mnp
    >>> mnp.pad(mnp.array([1, 2]), 1, mode='edge')
    Tensor(shape=[4], dtype=Int32, value= [1, 1, 2, 2])
    """
    if kwargs:
        raise fail('pad', f"unexpected keyword arguments {sorted(kwargs)} (padding functions "
                          f"are not available)", TypeError)
    if callable(mode):
        raise fail('pad', "a padding function as mode is not available")
    if mode not in _MODES:
        raise fail('pad', f"mode {mode!r} is not available; choose one of {', '.join(_MODES)}")
    if reflect_type not in ('even', 'odd'):
        raise fail('pad', f"reflect_type must be 'even' or 'odd', got {reflect_type!r}")
    x = to_tensor(arr, 'pad')
    if x.ndim == 0:
        return x
    widths = _pairs(pad_width, x.ndim, 'pad', 'pad_width')
    values = _pairs(constant_values, x.ndim, 'pad', 'constant_values', False)
    ends = _pairs(end_values, x.ndim, 'pad', 'end_values', False)
    lengths = _pairs(stat_length, x.ndim, 'pad', 'stat_length', False) \
        if stat_length is not None else [(None, None)] * x.ndim
    for axis, (before, after) in enumerate(widths):
        if not (before or after):
            continue
        n = x.shape[axis]
        if mode in ('constant', 'empty'):
            fill = values[axis] if mode == 'constant' else (0, 0)
            x = _join(x, axis, _block(x, axis, before, fill[0]) if before else None,
                      _block(x, axis, after, fill[1]) if after else None)
            continue
        if n == 0:
            raise fail('pad', f"cannot pad an empty axis in mode {mode!r}")
        if mode == 'edge':
            x = _along(x, axis, np.clip(np.arange(-before, n + after), 0, n - 1))
        elif mode == 'wrap':
            x = _along(x, axis, np.arange(-before, n + after) % n)
        elif mode in ('reflect', 'symmetric'):
            x = _reflected(x, axis, before, after, mode == 'symmetric', reflect_type == 'odd')
        elif mode == 'linear_ramp':
            x = _ramp(x, axis, before, after, ends[axis])
        else:
            x = _statistic(x, axis, before, after, lengths[axis], mode)
    return x


__all__ = ['pad']
