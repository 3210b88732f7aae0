"""Pooling layers: MaxPool1d/2d/3d, AvgPool1d/2d/3d and AdaptiveAvgPool2d (MindSpore 2.x
signatures).

1-d pooling runs the 2-d pooling ops on (N, C, 1, L). 3-d windows are boxes, so a 3-d max or
sum is the 2-d one over (H, W) followed by a 1-d one over D; an average's divisor (the box's
size, clipped as the flags say) is the product of the per-axis ones, so it factors the same way.
"""

from ... import ops
from ..._tensor import Tensor
from ...ops.conv import _is_int, as_ints, as_pad_mode, same_padding
from ...ops.pooling import adaptive_output_size, avg_pool, max_pool
from ...ops.pooling_nd import avg_pool3d_padded as _avg3d, max_pool3d_padded as _max3d
from ..cell import Cell

__all__ = ['MaxPool2d', 'AvgPool2d', 'AdaptiveAvgPool2d', 'MaxPool1d', 'AvgPool1d', 'MaxPool3d',
           'AvgPool3d']


def _flag(value, where, arg):
    if not isinstance(value, bool):
        raise TypeError(f"{where}: {arg} must be a bool, got {value!r}")
    return value


class _Pool2d(Cell):
    """What MaxPool2d and AvgPool2d share: kernel, stride, pad_mode and padding checks, the
    'same' padding and (C, H, W) inputs."""

    def __init__(self, kernel_size, stride, pad_mode, padding, dilation, ceil_mode,
                 data_format):
        super().__init__()
        where = f"nn.{type(self).__name__}"
        self._given = (kernel_size, stride)     # as given, for the repr
        self.kernel_size = as_ints(kernel_size, 2, where, 'kernel_size')
        self.stride = as_ints(stride, 2, where, 'stride')
        self.dilation = as_ints(dilation, 2, where, 'dilation')
        self.pad_mode = as_pad_mode(pad_mode, where)
        pad = as_ints(padding, 2, where, 'padding', minimum=0)
        if self.pad_mode != 'pad' and any(pad):
            raise ValueError(f"{where}: padding must be 0 when pad_mode is {self.pad_mode!r}, "
                             f"got {padding!r} (use pad_mode='pad')")
        for p, k, d in zip(pad, self.kernel_size, self.dilation):
            if p > (d * (k - 1) + 1) // 2:
                raise ValueError(f"{where}: padding {padding!r} is more than half the kernel "
                                 f"size {self.kernel_size}")
        self.padding = padding
        self._pad = pad
        self.ceil_mode = _flag(ceil_mode, where, 'ceil_mode')
        if data_format != 'NCHW':
            raise ValueError(f"{where}: data_format must be 'NCHW', got {data_format!r}")
        self.data_format = data_format

    def _input(self, x):
        name = f"nn.{type(self).__name__} '{self.path()}'"
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}: expected a Tensor input, got {type(x).__name__}")
        if x.ndim not in (3, 4):
            raise ValueError(f"{name}: expected an input (N, C, H, W) or (C, H, W), got shape "
                             f"{x.shape}")
        return x if x.ndim == 4 else ops.expand_dims(x, 0)

    def _pads(self, x):
        if self.pad_mode == 'same':
            (h, w), (kh, kw), (sh, sw), (dh, dw) = x.shape[2:], self.kernel_size, self.stride, \
                self.dilation
            return same_padding(h, kh, sh, dh) + same_padding(w, kw, sw, dw)
        ph, pw = self._pad
        return (ph, ph, pw, pw)

    def extend_repr(self):
        return (f"kernel_size={self._given[0]}, stride={self._given[1]}, "
                f"pad_mode={self.pad_mode.upper()}")


class MaxPool2d(_Pool2d):
    """2-d max pooling over (N, C, H, W) or (C, H, W) inputs; padding counts as -infinity.

    Args:
        kernel_size, stride, dilation: an int or a pair (height, width), each >= 1. Default 1.
        pad_mode: 'valid' (default: no padding), 'same' (output size ceil(input / stride),
            the padding split evenly with the odd one at the bottom/right) or 'pad'.
        padding: with pad_mode 'pad', an int or a pair (height, width) added on both sides,
            at most half the dilated kernel; 0 otherwise.
        return_indices: also return the Int64 position of each maximum in its (H, W) plane.
        ceil_mode: round the output size up.
        data_format: 'NCHW' (the only layout supported).
        As MindSpore, padding, dilation, return_indices and ceil_mode keep their defaults
        (0, 1, False, False) unless pad_mode is 'pad'.

    Raises:
        TypeError: for malformed sizes, non-bool flags or a non-Tensor input.
        ValueError: for sizes < 1, a bad pad_mode, padding, dilation, return_indices or
            ceil_mode given without pad_mode 'pad', padding above half the kernel, a
            data_format other than 'NCHW', or an input of the wrong rank.

    >>> import hookgrad as ms
    >>> pool = ms.nn.MaxPool2d(kernel_size=2, stride=2)
    >>> pool(ms.Tensor([[[[1.0, 2.0], [4.0, 3.0]]]])).asnumpy().tolist()
    [[[[4.0]]]]
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format='NCHW'):
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, ceil_mode,
                         data_format)
        self.return_indices = _flag(return_indices, 'nn.MaxPool2d', 'return_indices')
        if self.pad_mode != 'pad' and (dilation != 1 or return_indices or ceil_mode):
            raise ValueError(f"nn.MaxPool2d: dilation, return_indices and ceil_mode must keep "
                             f"their defaults unless pad_mode is 'pad', got pad_mode "
                             f"{pad_mode!r}")

    def construct(self, x):
        x4 = self._input(x)
        if x4._data.dtype.kind not in 'fiuV':
            raise TypeError(f"nn.MaxPool2d '{self.path()}': expected a real number tensor, got "
                            f"dtype {x4.dtype}")
        ceil = self.ceil_mode and self.pad_mode != 'same'
        r = max_pool(x4, self.kernel_size, self.stride, self._pads(x4), self.dilation, ceil,
                     self.return_indices, f"nn.MaxPool2d '{self.path()}'")
        if x.ndim == 4:
            return r
        if self.return_indices:
            return ops.squeeze(r[0], 0), ops.squeeze(r[1], 0)
        return ops.squeeze(r, 0)



class AvgPool2d(_Pool2d):
    """2-d average pooling over (N, C, H, W) or (C, H, W) floating inputs.

    Args:
        kernel_size, stride: an int or a pair (height, width), each >= 1. Default 1.
        pad_mode: 'valid' (default), 'same' or 'pad', as ``MaxPool2d``. With 'same' each
            window is divided by its number of input elements (padding is not counted), as
            TensorFlow's and MindSpore's 'same' average pooling.
        padding: with pad_mode 'pad', an int or a pair (height, width) of zeros added on both
            sides, at most half the kernel; 0 otherwise.
        ceil_mode: round the output size up (pad_mode 'valid' and 'pad').
        count_include_pad: with pad_mode 'pad', divide by the window size including padding.
        divisor_override: if given (an int >= 1), divide every window by it.
        data_format: 'NCHW' (the only layout supported).

    Raises:
        TypeError / ValueError: as ``MaxPool2d``; ValueError for a divisor_override below 1.
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format='NCHW'):
        where = 'nn.AvgPool2d'
        if divisor_override is not None and (not _is_int(divisor_override)
                                             or divisor_override < 1):
            raise ValueError(f"{where}: divisor_override must be None or an int >= 1, got "
                             f"{divisor_override!r}")
        super().__init__(kernel_size, stride, pad_mode, padding, 1, ceil_mode, data_format)
        self.count_include_pad = _flag(count_include_pad, where, 'count_include_pad')
        self.divisor_override = divisor_override

    def construct(self, x):
        x4 = self._input(x)
        if x4._data.dtype.kind not in 'fV':
            raise TypeError(f"nn.AvgPool2d '{self.path()}': expected a floating tensor, got "
                            f"dtype {x4.dtype}")
        same = self.pad_mode == 'same'
        y = avg_pool(x4, self.kernel_size, self.stride, self._pads(x4),
                     self.ceil_mode and not same, self.count_include_pad and not same,
                     self.divisor_override, f"nn.AvgPool2d '{self.path()}'")
        return y if x.ndim == 4 else ops.squeeze(y, 0)



class AdaptiveAvgPool2d(Cell):
    """Average pooling to a fixed (H_out, W_out) over (N, C, H, W) or (C, H, W) inputs; see
    ``ops.adaptive_avg_pool2d``.

    Args:
        output_size: an int or a pair (H_out, W_out); None in the pair keeps that input size.

    Raises:
        ValueError: for a bad output_size, or (at call time) an input of the wrong rank.
        TypeError: for a non-floating input.

    >>> import hookgrad as ms
    >>> ms.nn.AdaptiveAvgPool2d(1)(ms.ops.ones((2, 3, 4, 4))).shape
    (2, 3, 1, 1)
    """

    def __init__(self, output_size):
        super().__init__()
        adaptive_output_size(output_size, (1, 1), 'nn.AdaptiveAvgPool2d')
        self.output_size = output_size

    def construct(self, x):
        return ops.adaptive_avg_pool2d(x, self.output_size)


def _shown(value):
    """A size as MindSpore's pooling repr keeps it: a 1-tuple unwrapped."""
    return value[0] if isinstance(value, tuple) and len(value) == 1 else value


def _input(cell, x, ranks, kinds='f'):
    """x checked (a Tensor of one of ``ranks`` and a dtype kind in ``kinds``) with a batch
    axis added when it has the lower rank; returns (x, added)."""
    name = f"nn.{type(cell).__name__} '{cell.path()}'"
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}: expected a Tensor input, got {type(x).__name__}")
    if x.ndim not in ranks:
        raise ValueError(f"{name}: expected a {' or '.join(f'{r}-d' for r in ranks)} input, "
                         f"got shape {x.shape}")
    if x._data.dtype.kind not in kinds:
        kind = 'floating' if kinds == 'f' else 'real number'
        raise TypeError(f"{name}: expected a {kind} input, got dtype {x.dtype}")
    if x.ndim == max(ranks):
        return x, False
    return ops.expand_dims(x, 0), True


def _squeeze(r, added):
    if not added:
        return r
    if isinstance(r, tuple):
        return tuple(ops.squeeze(t, 0) for t in r)
    return ops.squeeze(r, 0)


def _half_kernel(pads, kernel, dilation, where):
    for p, k, d in zip(pads, kernel, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise ValueError(f"{where}: padding {p} is more than half the kernel size "
                             f"{d * (k - 1) + 1}")


def _pool_pads(pad_mode, pad, size, kernel, stride, dilation):
    """(before, after) per axis, flattened: 'same' padding or the symmetric ``pad``."""
    if pad_mode == 'same':
        return sum((same_padding(n, k, s, d) for n, k, s, d in
                    zip(size, kernel, stride, dilation)), ())
    return sum(((p, p) for p in pad), ())


class _Pool(Cell):
    """kernel_size, stride and pad_mode checked; the repr MindSpore prints."""

    def __init__(self, kernel_size, stride, pad_mode):
        super().__init__()
        where = f"nn.{type(self).__name__}"
        for arg, value in (('kernel_size', kernel_size), ('stride', stride)):
            items = value if isinstance(value, tuple) else (value,)
            if not isinstance(value, (int, tuple)) or not all(
                    _is_int(v) and v > 0 for v in items):
                raise ValueError(f"{where}: {arg} must be a positive int or a tuple of "
                                 f"positive ints, got {value!r}")
        self.pad_mode = as_pad_mode(pad_mode, where)
        self._shown = (_shown(kernel_size), _shown(stride))

    def extend_repr(self):
        return (f"kernel_size={self._shown[0]}, stride={self._shown[1]}, "
                f"pad_mode={self.pad_mode.upper()}")


def _int_arg(value, where, arg):
    if not _is_int(value):
        raise TypeError(f"{where}: {arg} must be an int, got {value!r}")
    if value < 1:
        raise ValueError(f"{where}: {arg} must be >= 1, got {value}")
    return int(value)


def _symmetric(padding, n, where):
    """Per-axis padding from an int, one int or ``n`` ints (each >= 0)."""
    items = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,)
    if not all(_is_int(v) for v in items) or len(items) not in (1, n):
        raise ValueError(f"{where}: padding must be an int or a tuple of 1 or {n} ints, "
                         f"got {padding!r}")
    if any(v < 0 for v in items):
        raise ValueError(f"{where}: padding must be >= 0, got {padding!r}")
    return tuple(int(v) for v in items) * (n if len(items) == 1 else 1)


class MaxPool1d(_Pool):
    """1-d max pooling over (N, C, L) or (C, L) inputs.

    Args:
        kernel_size, stride: ints >= 1. Default 1.
        pad_mode: 'valid' (default), 'same' or 'pad'.
        padding: with pad_mode 'pad', an int (or a 1-tuple) added to both ends, at most half
            the dilated kernel.
        dilation: an int >= 1 (pad_mode 'pad').
        return_indices: also return the Int64 position of each maximum (pad_mode 'pad').
        ceil_mode: round the output length up (pad_mode 'pad').

    Raises:
        TypeError: for non-int sizes or non-bool flags.
        ValueError: for sizes < 1, or padding, dilation, return_indices or ceil_mode given
            without pad_mode 'pad' (as MindSpore).

    >>> import hookgrad as ms
    >>> ms.nn.MaxPool1d(2, 2)(ms.Tensor([[1.0, 3.0, 2.0, 0.0]])).asnumpy().tolist()
    [[3.0, 2.0]]
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode)
        where = 'nn.MaxPool1d'
        self.kernel_size = _int_arg(kernel_size, where, 'kernel_size')
        self.stride = _int_arg(stride, where, 'stride')
        self.return_indices = _flag(return_indices, where, 'return_indices')
        self.ceil_mode = _flag(ceil_mode, where, 'ceil_mode')
        if self.pad_mode != 'pad':
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise ValueError(f"{where}: padding, dilation, return_indices and ceil_mode "
                                 f"must keep their defaults unless pad_mode is 'pad', got "
                                 f"pad_mode {pad_mode!r}")
            self._shown = ((1, self.kernel_size), (1, self.stride))
        else:
            self._shown = ((1, 1, self.kernel_size), (1, 1, self.stride))
        self.padding = _symmetric(padding, 1, where)[0]
        self.dilation = as_ints(dilation, 1, where, 'dilation')[0]
        _half_kernel((self.padding,), (self.kernel_size,), (self.dilation,), where)

    def construct(self, x):
        x, added = _input(self, x, (2, 3), 'fiu')
        k, s, d = (1, self.kernel_size), (1, self.stride), (1, self.dilation)
        pads = (0, 0) + _pool_pads(self.pad_mode, (self.padding,), x.shape[2:], k[1:], s[1:],
                                   d[1:])
        r = max_pool(ops.expand_dims(x, 2), k, s, pads, d, self.ceil_mode, self.return_indices,
                     f"nn.MaxPool1d '{self.path()}'")
        r = tuple(ops.squeeze(t, 2) for t in r) if self.return_indices else ops.squeeze(r, 2)
        return _squeeze(r, added)


class AvgPool1d(_Pool):
    """1-d average pooling over (N, C, L) or (C, L) floating inputs.

    Args:
        kernel_size, stride: ints >= 1 (or 1-tuples). Default 1.
        pad_mode: 'valid' (default), 'same' (each window divided by its number of input
            elements) or 'pad'.
        padding: an int or a 1-tuple of zeros added to both ends, at most half the kernel.
        ceil_mode: round the output length up.
        count_include_pad: divide by the window size including padding. Default True.

    Raises:
        TypeError / ValueError: for malformed sizes or flags.
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode)
        where = 'nn.AvgPool1d'
        self.kernel_size = _int_arg(_shown(kernel_size), where, 'kernel_size')
        self.stride = _int_arg(_shown(stride), where, 'stride')
        self.padding = _symmetric(padding, 1, where)[0]
        if self.pad_mode != 'pad' and self.padding:
            raise ValueError(f"{where}: padding must be 0 when pad_mode is {self.pad_mode!r}, "
                             f"got {padding!r}")
        self.ceil_mode = _flag(ceil_mode, where, 'ceil_mode')
        self.count_include_pad = _flag(count_include_pad, where, 'count_include_pad')
        _half_kernel((self.padding,), (self.kernel_size,), (1,), where)
        if not (self.pad_mode == 'pad' or ceil_mode or not count_include_pad):
            self._shown = ((1, self.kernel_size), (1, self.stride))

    def construct(self, x):
        x, added = _input(self, x, (2, 3))
        k, s = (1, self.kernel_size), (1, self.stride)
        same = self.pad_mode == 'same'
        pads = (0, 0) + _pool_pads(self.pad_mode, (self.padding,), x.shape[2:], k[1:], s[1:],
                                   (1,))
        y = avg_pool(ops.expand_dims(x, 2), k, s, pads, self.ceil_mode and not same,
                     self.count_include_pad and not same, None,
                     f"nn.AvgPool1d '{self.path()}'")
        return _squeeze(ops.squeeze(y, 2), added)


class MaxPool3d(_Pool):
    """3-d max pooling over (N, C, D, H, W) or (C, D, H, W) inputs; padding counts as
    -infinity.

    Args:
        kernel_size, stride: an int or a triple (depth, height, width), each >= 1. Default 1.
        pad_mode: 'valid' (default), 'same' or 'pad'.
        padding: with pad_mode 'pad', an int or a triple added on both sides of each axis,
            at most half the dilated kernel.
        dilation: an int or a triple; other than 1 needs pad_mode 'pad'.
        return_indices: also return the Int64 position of each maximum in its (D, H, W)
            volume; needs pad_mode 'pad'.
        ceil_mode: round the output size up; needs pad_mode 'pad'.

    Raises:
        TypeError / ValueError: for malformed sizes or flags, dilation, return_indices or
            ceil_mode without pad_mode 'pad', or an input of the wrong rank.
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode)
        where = 'nn.MaxPool3d'
        self.kernel_size = as_ints(kernel_size, 3, where, 'kernel_size')
        self.stride = as_ints(stride, 3, where, 'stride')
        self.dilation = as_ints(dilation, 3, where, 'dilation')
        self.padding = _symmetric(padding, 3, where)
        if self.pad_mode != 'pad' and any(self.padding):
            raise ValueError(f"{where}: padding must be 0 when pad_mode is {self.pad_mode!r}, "
                             f"got {padding!r}")
        self.return_indices = _flag(return_indices, where, 'return_indices')
        self.ceil_mode = _flag(ceil_mode, where, 'ceil_mode')
        if (dilation != 1 or return_indices) and self.pad_mode != 'pad':
            raise ValueError(f"{where}: pad_mode must be 'pad' when dilation is not 1 or "
                             f"return_indices is True, got pad_mode {pad_mode!r}")
        if ceil_mode and self.pad_mode != 'pad':
            raise ValueError(f"{where}: ceil_mode must be False when pad_mode is "
                             f"{self.pad_mode!r} (use pad_mode='pad')")
        _half_kernel(self.padding, self.kernel_size, self.dilation, where)

    def construct(self, x):
        x, added = _input(self, x, (4, 5), 'fiu')
        pads = _pool_pads(self.pad_mode, self.padding, x.shape[2:], self.kernel_size,
                          self.stride, self.dilation)
        r = _max3d(x, self.kernel_size, self.stride, pads, self.dilation,
                   self.ceil_mode and self.pad_mode != 'same', self.return_indices,
                   f"nn.MaxPool3d '{self.path()}'")
        return _squeeze(r, added)


class AvgPool3d(_Pool):
    """3-d average pooling over (N, C, D, H, W) or (C, D, H, W) floating inputs.

    Args:
        kernel_size, stride: an int or a triple, each >= 1. Default 1.
        pad_mode: 'valid' (default), 'same' or 'pad'; as MindSpore's AvgPool3D, the 'same'
            padding counts in the divisor when count_include_pad is True.
        padding: an int or a triple of zeros added on both sides of each axis, at most half
            the kernel.
        ceil_mode: round the output size up.
        count_include_pad: divide by the window size including padding. Default True.
        divisor_override: if given (an int >= 1), divide every window's sum by it.

    Raises:
        TypeError / ValueError: for malformed sizes or flags or an input of the wrong rank.
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode)
        where = 'nn.AvgPool3d'
        self.kernel_size = as_ints(kernel_size, 3, where, 'kernel_size')
        self.stride = as_ints(stride, 3, where, 'stride')
        self.padding = _symmetric(padding, 3, where)
        if self.pad_mode != 'pad' and any(self.padding):
            raise ValueError(f"{where}: padding must be 0 when pad_mode is {self.pad_mode!r}, "
                             f"got {padding!r}")
        self.ceil_mode = _flag(ceil_mode, where, 'ceil_mode')
        self.count_include_pad = _flag(count_include_pad, where, 'count_include_pad')
        if divisor_override is not None and (not _is_int(divisor_override)
                                             or divisor_override < 1):
            raise ValueError(f"{where}: divisor_override must be None or an int >= 1, got "
                             f"{divisor_override!r}")
        self.divisor_override = divisor_override
        _half_kernel(self.padding, self.kernel_size, (1, 1, 1), where)

    def construct(self, x):
        x, added = _input(self, x, (4, 5))
        same = self.pad_mode == 'same'
        pads = _pool_pads(self.pad_mode, self.padding, x.shape[2:], self.kernel_size,
                          self.stride, (1, 1, 1))
        y = _avg3d(x, self.kernel_size, self.stride, pads, self.ceil_mode and not same,
                   self.count_include_pad, self.divisor_override,
                   f"nn.AvgPool3d '{self.path()}'")
        return _squeeze(y, added)
