"""Upsample: MindSpore's ``ops.interpolate`` as a layer, for (N, C, L), (N, C, H, W) and
(N, C, D, H, W) inputs.

Every mode resizes each spatial axis on its own, so the layer multiplies the input by one
(out, in) matrix per axis: row i holds the weights of the input positions output i reads
(one 1 for the nearest modes, two for the linear ones, a window's average for area). The
products carry the gradients. 'bicubic' runs ``ops.interpolate``, which builds MindSpore's
ResizeBicubic weights (hookgrad/ops/resize.py).
"""
import math
import numbers

import numpy as np

from ... import ops
from ..._tensor import Tensor
from ...ops.conv import _is_int
from ...ops.pooling import _pool_matrix
from ..cell import Cell

__all__ = ['Upsample']

# the input ranks each mode accepts, and the ranks where it takes a scale_factor or
# align_corners (MindSpore 2.10's table)
_RANKS = {'nearest': (3, 4, 5), 'linear': (3,), 'bilinear': (4,), 'bicubic': (4,),
          'trilinear': (5,), 'area': (3, 4, 5), 'nearest-exact': (3, 4)}
_SCALE = {'nearest': (5,), 'trilinear': (5,), 'area': (3, 4, 5)}
_CORNERS = ('linear', 'bilinear', 'bicubic', 'trilinear')


def _nearest(n, m, scale, exact):
    dst = np.arange(m)
    src = np.floor((dst + 0.5) * scale) if exact else np.floor(dst * scale)
    w = np.zeros((m, n))
    w[dst, np.minimum(src.astype(np.int64), n - 1)] = 1.0
    return w


def _source(n, m, scale, align_corners):
    """Each output's position on the input axis, for the linear modes."""
    dst = np.arange(m, dtype=np.float64)
    if align_corners:
        return dst * ((n - 1) / (m - 1) if m > 1 else 0.0)
    return (dst + 0.5) * scale - 0.5


def _linear(n, m, scale, align_corners):
    src = np.maximum(_source(n, m, scale, align_corners), 0.0)
    lo = np.minimum(np.floor(src).astype(np.int64), n - 1)
    hi = np.minimum(lo + 1, n - 1)
    frac = src - lo
    w = np.zeros((m, n))
    rows = np.arange(m)
    np.add.at(w, (rows, lo), 1.0 - frac)
    np.add.at(w, (rows, hi), frac)
    return w


def _matrix(mode, n, m, scale, align_corners):
    if mode in ('nearest', 'nearest-exact'):
        return _nearest(n, m, scale, mode == 'nearest-exact')
    if mode == 'area':
        return _pool_matrix(n, m, np.float64)
    return _linear(n, m, scale, align_corners)


def _positive_sequence(value, arg, kind, where):
    items = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    ok = all(_is_int(v) if kind == 'int' else
             isinstance(v, numbers.Real) and not isinstance(v, bool) for v in items)
    if not ok or not all(v > 0 for v in items):
        raise ValueError(f"{where}: {arg} must be a positive {kind} or a tuple of them, got "
                         f"{value!r}")
    return items


class Upsample(Cell):
    """Resize (N, C, L), (N, C, H, W) or (N, C, D, H, W) inputs to ``size``, or by
    ``scale_factor``, with MindSpore's ``ops.interpolate`` rules.

    Args:
        size: the output's spatial size, an int or a tuple of ints; exclusive with
            scale_factor.
        scale_factor: a positive float or a tuple of floats; allowed for 'area' and for the
            5-d 'nearest' and 'trilinear' (or anywhere with recompute_scale_factor).
        mode: 'nearest' (default), 'linear' (3-d), 'bilinear' (4-d), 'bicubic' (4-d),
            'trilinear' (5-d), 'area' or 'nearest-exact' (3-d and 4-d).
        align_corners: for the linear and cubic modes, map the corner pixels onto each
            other (``src = dst * (in - 1) / (out - 1)``) rather than the half-pixel centres
            (``src = (dst + 0.5) * in / out - 0.5``). Default None (False).
        recompute_scale_factor: with a scale_factor, resize to ``floor(in * scale)`` as if
            that size had been given.

    Raises:
        TypeError: for a non-Tensor or non-floating input, or a non-bool flag.
        ValueError: for size and scale_factor both or neither given, an unknown mode, an
            input rank the mode does not take, a scale_factor or align_corners the mode does
            not take, or recompute_scale_factor with a size.

    >>> import hookgrad as ms
    >>> up = ms.nn.Upsample(size=(2, 4), mode='nearest')
    >>> up(ms.Tensor([[[[1.0, 2.0]]]])).asnumpy().tolist()
    [[[[1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 2.0, 2.0]]]]
    """

    def __init__(self, size=None, scale_factor=None, mode='nearest', align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def _plan(self, x):
        """(output sizes, per-axis scales or None, align_corners) after MindSpore's checks."""
        where = f"nn.Upsample '{self.path()}'"
        mode, rank = self.mode, x.ndim
        if self.size is not None and self.scale_factor is not None:
            raise ValueError(f"{where}: size and scale_factor cannot be set simultaneously")
        if self.size is None and self.scale_factor is None:
            raise ValueError(f"{where}: size and scale_factor cannot be both empty")
        if mode not in _RANKS:
            raise ValueError(f"{where}: mode must be one of {list(_RANKS)}, got {mode!r}")
        if rank not in _RANKS[mode]:
            raise ValueError(f"{where}: mode {mode!r} takes a "
                             f"{' or '.join(f'{r}-d' for r in _RANKS[mode])} input, got shape "
                             f"{x.shape}")
        k = rank - 2
        recompute = self.recompute_scale_factor
        if recompute is not None and not isinstance(recompute, bool):
            raise TypeError(f"{where}: recompute_scale_factor must be a bool, got "
                            f"{recompute!r}")
        scales = None
        if self.size is not None:
            sizes = _positive_sequence(self.size, 'size', 'int', where)
            if recompute:
                raise ValueError(f"{where}: recompute_scale_factor cannot be True with an "
                                 f"explicit size")
        else:
            factors = _positive_sequence(self.scale_factor, 'scale_factor', 'float', where)
            factors = factors * k if len(factors) == 1 else factors
            if len(factors) != k:
                raise ValueError(f"{where}: scale_factor must have {k} entries for a {rank}-d "
                                 f"input, got {self.scale_factor!r}")
            if recompute or mode == 'area':
                sizes = tuple(math.floor(n * f) for n, f in zip(x.shape[2:], factors))
            elif rank in _SCALE.get(mode, ()):
                sizes = tuple(math.floor(n * f) for n, f in zip(x.shape[2:], factors))
                scales = tuple(1.0 / f for f in factors)
            else:
                raise ValueError(f"{where}: scale_factor cannot be set with mode {mode!r} "
                                 f"for a {rank}-d input (give size, or "
                                 f"recompute_scale_factor=True)")
        sizes = sizes * k if len(sizes) == 1 else sizes
        if len(sizes) != k:
            raise ValueError(f"{where}: size must have {k} entries for a {rank}-d input, got "
                             f"{self.size!r}")
        corners = self.align_corners
        if corners is not None:
            if not isinstance(corners, bool):
                raise TypeError(f"{where}: align_corners must be a bool, got {corners!r}")
            if mode not in _CORNERS:
                raise ValueError(f"{where}: align_corners cannot be set with mode {mode!r}")
        if mode == 'area' and rank == 3 and x.shape[2] % sizes[0]:
            raise ValueError(f"{where}: mode 'area' of a 3-d input needs its length "
                             f"{x.shape[2]} divisible by the output size {sizes[0]}")
        return sizes, scales, bool(corners)

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"nn.Upsample '{self.path()}': expected a Tensor input, got "
                            f"{type(x).__name__}")
        if x._data.dtype.kind not in 'fV':
            raise TypeError(f"nn.Upsample '{self.path()}': expected a floating input, got "
                            f"dtype {x.dtype}")
        sizes, scales, corners = self._plan(x)
        if self.mode == 'bicubic':
            return ops.interpolate(x, size=sizes, mode='bicubic', align_corners=corners)
        y = x
        for i, m in enumerate(sizes):
            axis = 2 + i
            n = x.shape[axis]
            scale = scales[i] if scales else n / m
            w = _matrix(self.mode, n, m, scale, corners)
            if m == n and np.array_equal(w, np.eye(n)):
                continue
            t = Tensor._wrap(np.ascontiguousarray(w.T).astype(x._data.dtype))
            y = ops.moveaxis(ops.matmul(ops.moveaxis(y, axis, -1), t), -1, axis)
        return y
