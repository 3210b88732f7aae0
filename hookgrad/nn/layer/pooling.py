"""Pooling layers: MaxPool2d, AvgPool2d and AdaptiveAvgPool2d (MindSpore 2.x signatures)."""
from ... import ops
from ..._tensor import Tensor
from ...ops.conv import _is_int, as_ints, as_pad_mode, same_padding
from ...ops.pooling import adaptive_output_size, avg_pool, max_pool
from ..cell import Cell

__all__ = ['MaxPool2d', 'AvgPool2d', 'AdaptiveAvgPool2d']


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
        ceil_mode: round the output size up (pad_mode 'valid' and 'pad').
        data_format: 'NCHW' (the only layout supported).

    Raises:
        TypeError: for malformed sizes, non-bool flags or a non-Tensor input.
        ValueError: for sizes < 1, a bad pad_mode, padding without pad_mode 'pad' or above
            half the kernel, a data_format other than 'NCHW', or an input of the wrong rank.

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

    def construct(self, x):
        x4 = self._input(x)
        if x4._data.dtype.kind not in 'fiu':
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
        if x4._data.dtype.kind != 'f':
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
