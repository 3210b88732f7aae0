"""MaxUnpool1d/2d/3d and FractionalMaxPool2d/3d (MindSpore 2.x
signatures): unpooling scatters each value to the position its max pooling recorded;
fractional pooling takes maxima over windows placed at pseudo-random fractional strides."""
import numpy as np

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...kernels import backend
from ...ops.conv import as_ints
from ...ops.feature_maps import max_unpool
from ..cell import Cell
from .pooling import _flag

__all__ = ['MaxUnpool1d', 'MaxUnpool2d', 'MaxUnpool3d', 'FractionalMaxPool2d',
           'FractionalMaxPool3d']


class _MaxUnpool(Cell):
    """Scatter (N, C, *spatial) values to the flat positions ``indices`` of an output whose
    spatial size is ``(in - 1) * stride - 2 * padding + kernel`` per axis, or ``output_size``.
    ``_k`` is the number of spatial axes."""

    _k = 1

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        where = f"nn.{type(self).__name__}"
        k = self._k
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding
        self._kernel = as_ints(kernel_size, k, where, 'kernel_size')
        self._stride = as_ints(self.stride, k, where, 'stride')
        self._pad = as_ints(padding, k, where, 'padding', minimum=0)

    def construct(self, x, indices, output_size=None):
        name = f"nn.{type(self).__name__} '{self.path()}'"
        k = self._k
        for arg, t in (('x', x), ('indices', indices)):
            if not isinstance(t, Tensor):
                raise TypeError(f"{name}: {arg} must be a Tensor, got {type(t).__name__}")
        if output_size is not None and (not isinstance(output_size, tuple) or
                                        not output_size):
            raise ValueError(f"{name}: output_size must be a non-empty tuple, got "
                             f"{output_size!r}")
        return max_unpool(x, indices, self._kernel, self._stride, self._pad, output_size, k,
                          name)


class MaxUnpool1d(_MaxUnpool):
    """The inverse of ``MaxPool1d(..., return_indices=True)`` for (N, C, L) or (C, L) inputs:
    zeros everywhere but at the recorded positions of the maxima.

    Args:
        kernel_size: an int.
        stride: an int; None (default) is the kernel size.
        padding: an int >= 0. Default 0.

    Inputs:
        x, indices (the Int positions along L), and optionally output_size, a tuple whose
        last entry is the output length (within a stride of the default length).

    Raises:
        TypeError / ValueError: for bad sizes, indices of another shape or out of range, or
            a bad output_size.

    >>> import hookgrad as ms
    >>> x, i = ms.Tensor([[[2.0, 5.0]]]), ms.Tensor([[[1, 2]]])
    >>> ms.nn.MaxUnpool1d(2)(x, i).asnumpy().tolist()
    [[[0.0, 2.0, 5.0, 0.0]]]
    """

    _k = 1


class MaxUnpool2d(_MaxUnpool):
    """The inverse of ``MaxPool2d(..., return_indices=True)`` for (N, C, H, W) or (C, H, W)
    inputs; as ``MaxUnpool1d`` with sizes an int or a pair and indices flat in (H, W)."""

    _k = 2


class MaxUnpool3d(_MaxUnpool):
    """The inverse of ``MaxPool3d(..., return_indices=True)`` for (N, C, D, H, W) or
    (C, D, H, W) inputs; as ``MaxUnpool1d`` with sizes an int or a triple and indices flat in
    (D, H, W)."""

    _k = 3


def _starts(n, out, kernel, u):
    """Window starts (..., out) along an axis of length n for samples u (...):
    ``floor((i + u) * alpha) - floor(u * alpha)`` with ``alpha = (n - kernel) / (out - 1)``,
    the last window ending at the border."""
    last = np.full(u.shape + (1,), n - kernel, np.int64)
    if out == 1:
        return last
    alpha = (n - kernel) / (out - 1)
    i = np.arange(out - 1)
    starts = (np.floor((i + u[..., None]) * alpha).astype(np.int64)
              - np.floor(u * alpha).astype(np.int64)[..., None])
    return np.concatenate([starts, last], -1)


class _FractionalMaxPool(Cell):
    """Fractional max pooling over the ``_k`` trailing axes of a batched or unbatched input;
    the samples (N, C, _k) place the windows of the last axis first."""

    _k = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        where = f"nn.{type(self).__name__}"
        k = self._k
        self.kernel_size = kernel_size
        self.output_size = output_size
        self.output_ratio = output_ratio
        self.return_indices = _flag(return_indices, where, 'return_indices')
        self._random_samples = _random_samples
        self._kernel = as_ints(kernel_size, k, where, 'kernel_size')
        if (output_size is None) == (output_ratio is None):
            raise ValueError(f"{where}: exactly one of output_size and output_ratio must be "
                             f"given")
        if output_size is not None:
            as_ints(output_size, k, where, 'output_size')
        else:
            ratios = output_ratio if isinstance(output_ratio, (tuple, list)) else \
                (output_ratio,) * k
            if len(ratios) != k or not all(isinstance(r, float) and 0 < r < 1
                                           for r in ratios):
                raise ValueError(f"{where}: output_ratio must be a float or {k} floats in "
                                 f"(0, 1), got {output_ratio!r}")

    def construct(self, input):
        name = f"nn.{type(self).__name__} '{self.path()}'"
        k = self._k
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}: expected a Tensor input, got {type(input).__name__}")
        if input.ndim not in (k + 1, k + 2):
            raise ValueError(f"{name}: expected a {k + 1}-d or {k + 2}-d input, got shape "
                             f"{input.shape}")
        added = input.ndim == k + 1
        x = ops.expand_dims(input, 0) if added else input
        n, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
        if self.output_size is not None:
            outs = as_ints(self.output_size, k, name, 'output_size')
        else:
            r = self.output_ratio
            ratios = r if isinstance(r, (tuple, list)) else (r,) * k
            outs = tuple(int(m * q) for m, q in zip(spatial, ratios))
        if any(o < 1 or o + kk - 1 > m for o, kk, m in zip(outs, self._kernel, spatial)):
            raise ValueError(f"{name}: output size {outs} with kernel {self._kernel} does not "
                             f"fit the input of shape {input.shape}")
        samples = self._random_samples
        if samples is None:
            u = backend.to_host(ops.rand(n, c, k, dtype=_dtype.float64)._data,
                                'FractionalMaxPool samples')
        else:
            if not isinstance(samples, Tensor) or samples.shape != (n, c, k):
                raise ValueError(f"{name}: _random_samples must be a Tensor of shape "
                                 f"{(n, c, k)}, got {getattr(samples, 'shape', samples)!r}")
            u = backend.to_host(samples._data, 'FractionalMaxPool samples').astype(np.float64)
        # flat positions (N, C, *outs, prod(kernel)) of every window element
        flat = np.zeros((n, c) + (1,) * (2 * k), np.int64)
        for a, (m, o, kk) in enumerate(zip(spatial, outs, self._kernel)):
            starts = _starts(m, o, kk, u[..., k - 1 - a])              # (N, C, o)
            pos = starts[..., None] + np.arange(kk)                    # (N, C, o, kk)
            shape = [n, c] + [1] * (2 * k)
            shape[2 + a], shape[2 + k + a] = o, kk
            flat = flat * m + pos.reshape(shape)
        span = int(np.prod(self._kernel))
        flat = np.broadcast_to(flat, (n, c) + outs + self._kernel).reshape(
            (n, c) + outs + (span,))
        flat = Tensor._wrap(backend.to_device(np.ascontiguousarray(flat),
                                              backend.device_of(x._data)))
        g = ops.gather_elements(ops.reshape(x, (n, c, -1)), 2, ops.reshape(flat, (n, c, -1)))
        g = ops.reshape(g, (n, c) + outs + (span,))
        y = ops.amax(g, -1)
        if not self.return_indices:
            return ops.squeeze(y, 0) if added else y
        # an op, not a host computation, so a compiled (graph mode) Cell recomputes it per call
        at = ops.gather_elements(flat, flat.ndim - 1, ops.argmax(g, -1, keepdim=True))
        at = ops.squeeze(at, -1).astype(self._index_dtype)
        return (ops.squeeze(y, 0), ops.squeeze(at, 0)) if added else (y, at)


class FractionalMaxPool2d(_FractionalMaxPool):
    """Fractional max pooling of (N, C, H, W) or (C, H, W) inputs: maxima over kernel-sized
    windows whose starts advance by a fractional stride, placed by one random sample in
    [0, 1) per (sample, channel) and axis.

    Args:
        kernel_size: an int or a pair (kh, kw).
        output_size: an int or a pair (H_out, W_out); or
        output_ratio: a float or a pair in (0, 1), the output size as a fraction of the input.
        return_indices: also return the Int64 position of each maximum in its (H, W) plane.
        _random_samples: an (N, C, 2) floating Tensor of samples in [0, 1) (width, height),
            for reproducible windows; None draws them from the global generator.

    Raises:
        TypeError / ValueError: for neither or both of output_size and output_ratio, sizes
            that do not fit, or a bad _random_samples.
    """

    _k = 2
    _index_dtype = np.int64


class FractionalMaxPool3d(_FractionalMaxPool):
    """Fractional max pooling of (N, C, D, H, W) or (C, D, H, W) inputs; as
    ``FractionalMaxPool2d`` with triples, samples (N, C, 3) ordered (width, height, depth)
    and Int64 indices in the (D, H, W) volume."""

    _k = 3
    _index_dtype = np.int64
