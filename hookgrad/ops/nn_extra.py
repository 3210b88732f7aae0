"""More of MindSpore's functional nn ops: ``interpolate`` (and its name ``upsample``) and
``conv_transpose2d``.

Resizing multiplies by fixed interpolation matrices (or gathers, for 'nearest'), and the
transposed convolution is the convolution's input-gradient op, so both are differentiable.
"""
import math
import numbers

import numpy as np

from .._tensor import Tensor
from ._base import as_tensor
from . import (arithmetic as _arith, indexing as _index, linalg as _linalg,
               pooling as _pool, shaping as _shape)
from .conv import Conv2DBackpropInput as _BackpropInput, as_ints
from .primitives_image import _linear_matrix

__all__ = ['interpolate', 'upsample', 'conv_transpose2d']

_MODES = ('nearest', 'linear', 'bilinear', 'area')
_UNSUPPORTED = ('bicubic', 'trilinear', 'nearest-exact')


def _out_size(x, size, scale_factor, recompute_scale_factor, mode):
    n = x.ndim - 2
    if (size is None) == (scale_factor is None):
        raise ValueError("ops.interpolate: exactly one of size and scale_factor must be given")
    if size is not None:
        items = tuple(size) if isinstance(size, (tuple, list)) else (size,) * n
        if len(items) != n or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                      for v in items):
            raise ValueError(f"ops.interpolate: size must be a positive int or {n} of them "
                             f"for a {x.ndim}-d input, got {size!r}")
        return items
    if not recompute_scale_factor:
        raise ValueError(f"ops.interpolate: scale_factor can only be used with "
                         f"recompute_scale_factor=True (mode {mode!r})")
    factors = tuple(scale_factor) if isinstance(scale_factor, (tuple, list)) else \
        (scale_factor,) * n
    if len(factors) != n or not all(isinstance(f, numbers.Real) and f > 0 for f in factors):
        raise ValueError(f"ops.interpolate: scale_factor must be a positive number or {n} of "
                         f"them, got {scale_factor!r}")
    return tuple(max(int(math.floor(s * f)), 1) for s, f in zip(x.shape[2:], factors))


def _along(x, axis, matrix):
    """``matrix`` (out, in) applied to axis ``axis`` of x."""
    last = x.ndim - 1
    perm = list(range(x.ndim))
    perm[axis], perm[last] = last, axis
    y = _linalg.matmul(_shape.transpose(x, tuple(perm)), _shape.transpose(matrix, (1, 0)))
    return _shape.transpose(y, tuple(perm))


def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                recompute_scale_factor=None):
    """Resize the spatial dimensions of a (N, C, L) or (N, C, H, W) tensor.

    Args:
        size: the output's spatial size (an int or one per dimension); or
        scale_factor: multipliers of the spatial size (with ``recompute_scale_factor=True``:
            the size is ``floor(in * factor)``, as MindSpore requires).
        mode: 'nearest' (source ``floor(i * in / out)``), 'linear' (3-d input), 'bilinear'
            (4-d input) or 'area' (adaptive average pooling).
        align_corners: for 'linear' / 'bilinear', True maps the corner pixels onto each
            other; otherwise pixel centres are aligned (half-pixel sampling).

    Raises:
        ValueError: for an unknown mode, a mode hookgrad does not implement ('bicubic',
            'trilinear', 'nearest-exact'), a mode that does not fit the input's rank,
            align_corners with 'nearest' or 'area', or a bad size / scale_factor.
    """
    x = as_tensor(input, 'input')
    if mode in _UNSUPPORTED:
        raise ValueError(f"ops.interpolate: mode {mode!r} is not implemented in hookgrad; use "
                         f"one of {', '.join(map(repr, _MODES))}")
    if mode not in _MODES:
        raise ValueError(f"ops.interpolate: mode must be one of {', '.join(map(repr, _MODES))},"
                         f" got {mode!r}")
    if x.ndim not in (3, 4) or (mode == 'linear' and x.ndim != 3) or \
            (mode == 'bilinear' and x.ndim != 4):
        raise ValueError(f"ops.interpolate: mode {mode!r} does not take an input of shape "
                         f"{x.shape} (linear: 3-d, bilinear: 4-d, nearest and area: 3-d or "
                         f"4-d)")
    if align_corners and mode in ('nearest', 'area'):
        raise ValueError(f"ops.interpolate: align_corners can only be set with 'linear' or "
                         f"'bilinear', not {mode!r}")
    out = _out_size(x, size, scale_factor, recompute_scale_factor, mode)
    if mode == 'area':
        if x.ndim == 3:
            y = _pool.adaptive_avg_pool2d(_shape.expand_dims(x, 2), (1, out[0]))
            return _shape.squeeze(y, 2)
        return _pool.adaptive_avg_pool2d(x, out)
    y = x
    for k, n_out in enumerate(out):
        axis, n_in = 2 + k, x.shape[2 + k]
        if mode == 'nearest':
            src = np.minimum(np.floor(np.arange(n_out, dtype=np.float32) *
                                      np.float32(n_in / n_out)), n_in - 1).astype(np.int64)
            y = _index.take(y, Tensor._wrap(src), axis)
        else:
            align = bool(align_corners)
            y = _along(y, axis, _linear_matrix(n_in, n_out, align, not align, x._data.dtype))
    return y


upsample = interpolate


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    """The 2-d transposed convolution of an (N, C_in, H, W) input with a
    (C_in, C_out / groups, kh, kw) weight: the input gradient of the convolution with that
    weight. The output's size is ``(H - 1) * stride - 2 * padding + dilation * (kh - 1) +
    output_padding + 1`` (likewise for W).

    Raises:
        ValueError: for a weight that does not fit the input, sizes < 1, or an output_padding
            not smaller than stride or dilation.
    """
    where = 'ops.conv_transpose2d'
    x, w = as_tensor(input, 'input'), as_tensor(weight, 'weight')
    if x.ndim != 4 or w.ndim != 4 or w.shape[0] != x.shape[1]:
        raise ValueError(f"{where}: input (N, C_in, H, W) and weight (C_in, C_out / groups, "
                         f"kh, kw) do not fit: {x.shape} and {w.shape}")
    stride, dilation = as_ints(stride, 2, where, 'stride'), as_ints(dilation, 2, where,
                                                                    'dilation')
    pad = as_ints(padding, 2, where, 'padding', minimum=0)
    extra = as_ints(output_padding, 2, where, 'output_padding', minimum=0)
    groups = as_ints(groups, 1, where, 'groups')[0]
    if any(e >= max(s, d) for e, s, d in zip(extra, stride, dilation)):
        raise ValueError(f"{where}: output_padding {extra} must be smaller than stride "
                         f"{stride} or dilation {dilation}")
    if x.shape[1] % groups:
        raise ValueError(f"{where}: the {x.shape[1]} input channels are not divisible by "
                         f"groups={groups}")
    size = tuple((n - 1) * s - 2 * p + d * (k - 1) + e + 1 for n, s, p, d, k, e in
                 zip(x.shape[2:], stride, pad, dilation, w.shape[2:], extra))
    if min(size) < 1:
        raise ValueError(f"{where}: the output size {size} is not positive")
    # the padding of the convolution this is the input gradient of: the output_padding rows
    # at the bottom/right come from a smaller bottom padding (or none, when it would be
    # negative: the stride then absorbs them)
    bottom = tuple(max(p - e, 0) for p, e in zip(pad, extra))
    if any(b - p + e >= s for b, p, e, s in zip(bottom, pad, extra, stride)):
        raise ValueError(f"{where}: output_padding {extra} with padding {pad} must stay "
                         f"below stride {stride} in hookgrad")
    pads = (pad[0], bottom[0], pad[1], bottom[1])
    y = _BackpropInput.apply(x, w, input_size=size, stride=stride, padding=pads,
                             dilation=dilation, groups=groups)
    if bias is None:
        return y
    return _arith.add(y, _shape.reshape(as_tensor(bias, 'bias'), (-1, 1, 1)))
