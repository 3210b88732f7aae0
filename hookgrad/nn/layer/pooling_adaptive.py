"""Adaptive and power-average pooling: AdaptiveAvgPool1d, AdaptiveAvgPool3d,
AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d, LPPool1d and LPPool2d (MindSpore 2.x
signatures).

An adaptive window i along an axis of length n covers [floor(i n / out), ceil((i + 1) n /
out)); averages are products with an (n, out) matrix per axis, maxima a gather of every
window's elements.
"""
import numbers

import numpy as np

from ... import ops
from ..._tensor import Tensor
from ...kernels import backend
from ...ops.conv import _is_int, as_ints
from ...ops.pooling import _pool_matrix, avg_pool
from ..cell import Cell
from .pooling import _flag
from .pooling import _input, _int_arg, _squeeze

__all__ = ['AdaptiveAvgPool1d', 'AdaptiveAvgPool3d', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d',
           'AdaptiveMaxPool3d', 'LPPool1d', 'LPPool2d']


def _output_sizes(output_size, spatial, where, allow_none=True):
    n = len(spatial)
    items = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,)
    if len(items) == 1:
        items = items * n
    if len(items) != n or not all((v is None and allow_none) or (_is_int(v) and v >= 1)
                                  for v in items):
        raise ValueError(f"{where}: output_size must be a positive int or a tuple of {n} "
                         f"positive ints{' or None' if allow_none else ''}, got "
                         f"{output_size!r}")
    return tuple(s if v is None else int(v) for v, s in zip(items, spatial))


def _adaptive_avg(x, sizes):
    """Average pooling of x's trailing axes to ``sizes``: window i of an axis of length n
    covers [floor(i n / out), ceil((i + 1) n / out)), as a product with a (n, out) matrix."""
    nd = x.ndim
    for k, out in enumerate(sizes):
        axis = nd - len(sizes) + k
        n = x.shape[axis]
        if out == n:
            continue
        m = Tensor._wrap(_on_device_of(x, _pool_matrix(n, out, x._data.dtype).T))
        x = ops.moveaxis(ops.matmul(ops.moveaxis(x, axis, -1), m), -1, axis)
    return x


def _window_index(n, out):
    """(out, L) input positions of each adaptive window, the shorter ones repeating their
    last position (a repeated element leaves a maximum unchanged)."""
    i = np.arange(out)[:, None]
    lo, hi = i * n // out, -(-(i + 1) * n // out)
    span = int((hi - lo).max())
    return np.minimum(lo + np.arange(span), hi - 1)


def _adaptive_max(x, sizes, indices):
    """Max pooling of x's trailing axes to ``sizes``; with ``indices`` also the Int64 flat
    position of each maximum in the pooled axes."""
    k = len(sizes)
    lead, spatial = x.shape[:-k], x.shape[-k:]
    windows = [_window_index(n, o) for n, o in zip(spatial, sizes)]
    # flat positions (out_1, L_1, out_2, L_2, ...) of every window element
    flat = np.zeros((1,) * (2 * k), np.int64)
    for a, (w, n) in enumerate(zip(windows, spatial)):
        shape = [1] * (2 * k)
        shape[2 * a:2 * a + 2] = w.shape
        flat = flat * n + w.reshape(shape)
    order = tuple(range(0, 2 * k, 2)) + tuple(range(1, 2 * k, 2))
    flat = flat.transpose(order)                          # (out..., L...)
    flat = np.broadcast_to(flat, tuple(sizes) + tuple(w.shape[1] for w in windows))
    span = int(np.prod(flat.shape[k:]))
    flat = flat.reshape(tuple(sizes) + (span,))
    flat = _on_device_of(x, np.ascontiguousarray(flat))
    xs = ops.reshape(x, lead + (-1,))
    g = ops.gather(xs, Tensor._wrap(flat.reshape(-1)), xs.ndim - 1)
    g = ops.reshape(g, lead + tuple(sizes) + (span,))
    y = ops.amax(g, -1)
    if not indices:
        return y
    xp = backend.array_module(g._data)
    arg = xp.argmax(g._data, axis=-1)
    at = xp.take_along_axis(xp.broadcast_to(flat, g.shape), arg[..., None], -1)[..., 0]
    return y, Tensor._wrap(at.astype(np.int64))


def _on_device_of(x, array):
    """The host ``array`` (a pooling matrix or window index) on the device of the Tensor x."""
    return backend.to_device(array, backend.device_of(x._data))


class AdaptiveAvgPool1d(Cell):
    """Average pooling of (N, C, L) floating inputs to length ``output_size``; as MindSpore,
    L must be a multiple of output_size (equal windows of L / output_size).

    Raises:
        TypeError / ValueError: for a non-int or < 1 output_size, or an input that is not 3-d,
            not floating or whose length is not a multiple of output_size.
    """

    def __init__(self, output_size):
        super().__init__()
        self.output_size = _int_arg(output_size, 'nn.AdaptiveAvgPool1d', 'output_size')

    def construct(self, input):
        x, _ = _input(self, input, (3,))
        _divisible(self, x)
        n, c, length = x.shape
        return ops.mean(ops.reshape(x, (n, c, self.output_size, -1)), -1)


def _divisible(cell, x):
    if x.shape[2] % cell.output_size:
        raise ValueError(f"nn.{type(cell).__name__} '{cell.path()}': the input length "
                         f"{x.shape[2]} must be a multiple of output_size {cell.output_size}")


class AdaptiveMaxPool1d(Cell):
    """Max pooling of (N, C, L) floating inputs to length ``output_size``; L must be a
    multiple of output_size, as ``AdaptiveAvgPool1d``."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = _int_arg(output_size, 'nn.AdaptiveMaxPool1d', 'output_size')

    def construct(self, x):
        x, _ = _input(self, x, (3,))
        _divisible(self, x)
        n, c, length = x.shape
        return ops.amax(ops.reshape(x, (n, c, self.output_size, -1)), -1)


class AdaptiveAvgPool3d(Cell):
    """Average pooling of (N, C, D, H, W) or (C, D, H, W) floating inputs to ``output_size``
    (an int or a triple; None keeps that size); window i of an axis of length n covers
    [floor(i n / out), ceil((i + 1) n / out)).

    Raises:
        ValueError: for a bad output_size or an input of the wrong rank.
        TypeError: for a non-floating input.
    """

    def __init__(self, output_size):
        super().__init__()
        _output_sizes(output_size, (1, 1, 1), 'nn.AdaptiveAvgPool3d')
        self.output_size = output_size

    def construct(self, input):
        _input(self, input, (4, 5))
        sizes = _output_sizes(self.output_size, input.shape[-3:], 'nn.AdaptiveAvgPool3d')
        return _adaptive_avg(input, sizes)


class _AdaptiveMax(Cell):
    """Adaptive max pooling over the last ``_k`` axes (windows as ``AdaptiveAvgPool3d``)."""

    _k = 2

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        where = f"nn.{type(self).__name__}"
        _output_sizes(output_size, (1,) * self._k, where, self._k == 2)
        self.output_size = output_size
        self.return_indices = _flag(return_indices, where, 'return_indices')

    def construct(self, input):
        _input(self, input, (self._k + 1, self._k + 2))
        sizes = _output_sizes(self.output_size, input.shape[-self._k:],
                              f"nn.{type(self).__name__}", self._k == 2)
        r = _adaptive_max(input, sizes, self.return_indices)
        if self.return_indices and self._k == 3:      # MindSpore's AdaptiveMaxPool3D: Int32
            return r[0], Tensor._wrap(r[1]._data.astype(np.int32))
        return r


class AdaptiveMaxPool2d(_AdaptiveMax):
    """Max pooling of (N, C, H, W) or (C, H, W) floating inputs to ``output_size`` (an int or
    a pair; None keeps that size); with ``return_indices`` also the Int64 position of each
    maximum in its (H, W) plane.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[[1.0, 5.0, 2.0], [0.0, 3.0, 4.0]]])
    >>> ms.nn.AdaptiveMaxPool2d((1, 2))(x).asnumpy().tolist()
    [[[5.0, 5.0]]]
    """

    _k = 2


class AdaptiveMaxPool3d(_AdaptiveMax):
    """Max pooling of (N, C, D, H, W) or (C, D, H, W) floating inputs to ``output_size`` (an
    int or a triple); with ``return_indices`` also the Int32 position of each maximum in its
    (D, H, W) volume."""

    _k = 3


class _LPPool(Cell):
    """Power-average pooling: ``(sum over the window of x ** p) ** (1 / p)``, the window sum
    being the average pooling of ``x ** p`` times the kernel size (as MindSpore)."""

    _nd = 1

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        where = f"nn.{type(self).__name__}"
        if isinstance(norm_type, bool) or not isinstance(norm_type, numbers.Real):
            raise TypeError(f"{where}: norm_type must be a float or an int, got "
                            f"{type(norm_type).__name__}")
        if norm_type == 0:
            raise ValueError(f"{where}: norm_type can not be 0")
        if self._nd == 1 and not _is_int(kernel_size):
            raise TypeError(f"{where}: kernel_size must be an int, got {kernel_size!r}")
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = _flag(ceil_mode, where, 'ceil_mode')
        nd = self._nd
        self._k = (1,) * (2 - nd) + as_ints(kernel_size, nd, where, 'kernel_size')
        self._s = self._k if stride is None else (1,) * (2 - nd) + as_ints(stride, nd, where,
                                                                           'stride')

    def construct(self, x):
        ranks = (2, 3) if self._nd == 1 else (4,)
        x, added = _input(self, x, ranks)
        if self._nd == 1:
            x = ops.expand_dims(x, 2)
        p = float(self.norm_type)
        s = avg_pool(ops.pow(x, p), self._k, self._s, (0, 0, 0, 0), self.ceil_mode, True,
                     None, f"nn.{type(self).__name__} '{self.path()}'")
        y = ops.pow(s * float(self._k[0] * self._k[1]), 1.0 / p)
        if self._nd == 1:
            y = ops.squeeze(y, 2)
        return _squeeze(y, added)


class LPPool1d(_LPPool):
    """1-d power-average pooling over (N, C, L) or (C, L) inputs.

    Args:
        norm_type: the power p, a non-zero float or int (1: sum pooling; large p tends to
            max pooling).
        kernel_size: an int >= 1.
        stride: an int >= 1; default None, the kernel size.
        ceil_mode: round the output length up. Default False.

    Raises:
        TypeError: for a non-number norm_type, a non-int kernel_size or a non-bool ceil_mode.
        ValueError: for norm_type 0 or sizes < 1.

    >>> import hookgrad as ms
    >>> ms.nn.LPPool1d(2, 2)(ms.Tensor([[[3.0, 4.0]]])).asnumpy().tolist()
    [[[5.0]]]
    """

    _nd = 1


class LPPool2d(_LPPool):
    """2-d power-average pooling over (N, C, H, W) inputs; as ``LPPool1d`` with kernel_size
    and stride an int or a pair."""

    _nd = 2
