"""Transposed convolutions and 3-d convolutions: Conv1dTranspose, Conv2dTranspose, Conv3d and
Conv3dTranspose (MindSpore 2.x signatures, parameter shapes and defaults).

A transposed convolution is the input gradient of the convolution it inverts: the layer runs
``Conv2DBackpropInput`` for the output size MindSpore computes, so its values and gradients
are those of the convolution op. The 3-d layers run ``ops.conv3d``'s kernels
(ops/conv3d.py), which fold the depth axis into the batch and sum one 2-d convolution per
depth tap of the kernel.
"""
import math

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...common.initializer import HeUniform, Uniform
from ...ops.conv import Conv2DBackpropInput, _is_int, as_ints, same_padding
from ...ops.conv3d import _deconv_length, convolve_3d, transpose_convolve_3d
from ..cell import Cell
from ..parameter import Parameter
from .basic import _init_value
from .conv import check_conv_arguments

__all__ = ['Conv1dTranspose', 'Conv2dTranspose', 'Conv3d', 'Conv3dTranspose']


def _pads(padding, n, pad_mode, where):
    """(before, after) pairs for ``n`` axes from an int or 2 * n ints."""
    items = tuple(padding) if isinstance(padding, tuple) else (padding,)
    if not isinstance(padding, (int, tuple)) or isinstance(padding, bool) or \
            len(items) not in (1, 2 * n) or not all(_is_int(v) for v in items):
        raise TypeError(f"{where}: padding must be an int or a tuple of {2 * n} ints, "
                        f"got {padding!r}")
    if any(v < 0 for v in items):
        raise ValueError(f"{where}: padding must be >= 0, got {padding!r}")
    if pad_mode != 'pad' and any(items):
        raise ValueError(f"{where}: padding must be 0 when pad_mode is {pad_mode!r}, got "
                         f"{padding!r} (use pad_mode='pad')")
    return items * (2 * n) if len(items) == 1 else tuple(int(v) for v in items)


def _bias_add(y, b):
    return y if b is None else y + ops.reshape(b, (-1,) + (1,) * (y.ndim - 2))


class _ConvNd(Cell):
    """Argument checks, parameters and repr of the layers here; ``transposed`` layers keep a
    weight (in_channels, out_channels / group, *kernel), the others (out_channels,
    in_channels / group, *kernel). ``_ndim`` is the number of spatial axes computed."""

    _ndim = 2
    _transposed = True
    _format = 'NCHW'

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                 dilation, group, has_bias, weight_init, bias_init, dtype):
        super().__init__()
        name = type(self).__name__
        where = check_conv_arguments(self, in_channels, out_channels, kernel_size, stride,
                                     pad_mode, padding, dilation, group, has_bias, dtype)
        self._pad = _pads(padding, self._ndim, self.pad_mode, where)
        lead = ((self.in_channels, self.out_channels // self.group) if self._transposed else
                (self.out_channels, self.in_channels // self.group))
        shape = lead + self._weight_kernel()
        if weight_init is None:
            weight_init = HeUniform(negative_slope=math.sqrt(5))
        if isinstance(weight_init, Tensor) and self._weight_kernel() != self.kernel_size:
            weight_init = ops.reshape(weight_init, weight_init.shape[:2] + (1,)
                                      + weight_init.shape[2:])
        weight = _init_value(weight_init, shape, dtype, name, 'weight_init')
        bias = None
        if has_bias:
            if bias_init is None:       # fan_in from the weight's shape, as MindSpore
                bias_init = Uniform(scale=1 / math.sqrt(shape[1] * math.prod(shape[2:])))
            bias = _init_value(bias_init, (self.out_channels,), dtype, name, 'bias_init')
        self.weight_init = weight_init
        self.bias_init = bias_init
        self.has_bias = has_bias
        self.weight = Parameter(weight, name='weight')
        self.bias = Parameter(bias, name='bias') if has_bias else None

    def _weight_kernel(self):
        return self.kernel_size

    def _check_input(self, x):
        name = f"nn.{type(self).__name__} '{self.path()}'"
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}: expected a Tensor input, got {type(x).__name__}")
        layout = {1: '(N, C, L)', 2: '(N, C, H, W)', 3: '(N, C, D, H, W)'}[self._ndim]
        if x.ndim != self._ndim + 2 or x.shape[1] != self.in_channels:
            raise ValueError(f"{name}: expected an input {layout} with C = {self.in_channels}, "
                             f"got shape {x.shape}")
        if x._data.dtype != self.weight._data.dtype:
            raise TypeError(f"{name}: input dtype {x.dtype} differs from the weight's "
                            f"{self.weight.dtype}")

    def _shown(self):
        """(kernel_size, stride, dilation, padding) as MindSpore's repr prints them."""
        return self.kernel_size, self.stride, self.dilation, self.padding

    def extend_repr(self):
        k, s, d, p = self._shown()
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={k}, stride={s}, pad_mode={self.pad_mode}, padding={p}, "
                f"dilation={d}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={self.weight_init}, bias_init={self.bias_init}, "
                f"format={self._format}")


def _transposed_2d(x, w, out_size, pad_mode, pads, stride, dilation, groups):
    """The 2-d transposed convolution of x (N, C_in, H, W) with w (C_in, C_out / g, kh, kw)
    to ``out_size``: the input gradient of the convolution from ``out_size`` to (H, W)."""
    if pad_mode == 'same':
        pads = sum((same_padding(n, k, s, d) for n, k, s, d in
                    zip(out_size, w.shape[2:], stride, dilation)), ())
    return Conv2DBackpropInput.apply(x, w, input_size=tuple(out_size), stride=tuple(stride),
                                     padding=tuple(pads), dilation=tuple(dilation),
                                     groups=groups)


def _output_padding(value, n, where):
    return as_ints(value, n, where, 'output_padding', minimum=0)


class Conv2dTranspose(_ConvNd):
    """2-d transposed convolution over (N, C_in, H, W) inputs (the input gradient of a
    Conv2d), with a weight (in_channels, out_channels / group, kh, kw).

    Output size per axis: 'same' ``in * stride``; 'valid' ``in * stride + max(k' - stride,
    0)``; 'pad' ``in * stride - (before + after) + k' - stride``, where ``k' = dilation * (k -
    1) + 1``; ``output_padding`` then appends that many zero rows/columns (after the bias, as
    MindSpore does).

    Args:
        in_channels, out_channels: positive ints, both divisible by ``group``.
        kernel_size, stride, dilation: an int or a pair (height, width), each >= 1.
        pad_mode: 'same' (default), 'valid' or 'pad'.
        padding: with pad_mode 'pad', an int or four ints (top, bottom, left, right).
        output_padding: an int or a pair, each in [0, max(stride, dilation)); pad_mode 'pad'.
        group, has_bias, weight_init, bias_init, dtype: as ``Conv2d`` (the default bias bound
            is ``1 / sqrt(out_channels / group * kh * kw)``, MindSpore's fan_in of the weight).

    Raises:
        TypeError / ValueError: as ``Conv2d``; ValueError for an output_padding out of range
            or given without pad_mode 'pad' (at call time, as MindSpore).

    >>> import hookgrad as ms
    >>> net = ms.nn.Conv2dTranspose(1, 1, 2, stride=2, weight_init='ones')
    >>> net(ms.ops.ones((1, 1, 1, 1))).asnumpy().ravel().tolist()
    [1.0, 1.0, 1.0, 1.0]
    """

    _ndim = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=_dtype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)
        if isinstance(output_padding, tuple) and len(output_padding) != 2 or \
                not isinstance(output_padding, (int, tuple)):
            raise TypeError(f"nn.Conv2dTranspose: output_padding must be an int or a pair, "
                            f"got {output_padding!r}")
        self.output_padding = output_padding
        self._out_pad = _output_padding(output_padding, 2, 'nn.Conv2dTranspose')

    def _shown(self):
        return self.kernel_size, self.stride, self.dilation, self.padding

    def construct(self, x):
        self._check_input(x)
        where = f"nn.{type(self).__name__} '{self.path()}'"
        for op, s, d in zip(self._out_pad, self.stride, self.dilation):
            if op >= max(s, d):
                raise ValueError(f"{where}: output_padding {self.output_padding!r} must be "
                                 f"in [0, max(stride, dilation))")
            if op and self.pad_mode != 'pad':
                raise ValueError(f"{where}: output_padding needs pad_mode 'pad', got "
                                 f"{self.pad_mode!r}")
        size = tuple(_deconv_length(self.pad_mode, n, k, s, d, self._pad[2 * i]
                                    + self._pad[2 * i + 1])
                     for i, (n, k, s, d) in enumerate(zip(x.shape[2:], self.kernel_size,
                                                          self.stride, self.dilation)))
        y = _transposed_2d(x, self.weight, size, self.pad_mode, self._pad, self.stride,
                           self.dilation, self.group)
        y = _bias_add(y, self.bias)
        if any(self._out_pad):
            y = ops.pad(y, (0, self._out_pad[1], 0, self._out_pad[0]))
        return y


class Conv1dTranspose(_ConvNd):
    """1-d transposed convolution over (N, C_in, L) inputs; MindSpore's weight layout
    (in_channels, out_channels / group, 1, kernel_size), the 2-d layer it runs as.

    Args:
        in_channels, out_channels: positive ints, both divisible by ``group``.
        kernel_size, stride, dilation: an int >= 1.
        pad_mode: 'same' (default), 'valid' or 'pad' (output lengths as ``Conv2dTranspose``).
        padding: with pad_mode 'pad', an int added to both ends.
        group, has_bias, weight_init, bias_init, dtype: as ``Conv2dTranspose``; a Tensor
            weight_init may be 3-d (in_channels, out_channels / group, kernel_size).

    Raises:
        TypeError / ValueError: as ``Conv2dTranspose``; TypeError for non-int sizes.
    """

    _ndim = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=_dtype.float32):
        for arg, value in (('kernel_size', kernel_size), ('stride', stride),
                           ('padding', padding), ('dilation', dilation)):
            if not _is_int(value):
                raise TypeError(f"nn.Conv1dTranspose: {arg} must be an int, got {value!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)

    def _weight_kernel(self):
        return (1,) + self.kernel_size

    def _shown(self):
        return ((1,) + self.kernel_size, (1,) + self.stride, (1,) + self.dilation,
                (0, 0) + self._pad)

    def construct(self, x):
        self._check_input(x)
        (n,), (k,), (s,), (d,) = x.shape[2:], self.kernel_size, self.stride, self.dilation
        size = (1, _deconv_length(self.pad_mode, n, k, s, d, sum(self._pad)))
        y = _transposed_2d(ops.expand_dims(x, 2), self.weight, size, self.pad_mode,
                           (0, 0) + self._pad, (1, s), (1, d), self.group)
        return ops.squeeze(_bias_add(y, self.bias), 2)


class Conv3d(_ConvNd):
    """3-d convolution over (N, C_in, D, H, W) inputs with a weight (out_channels,
    in_channels / group, kd, kh, kw) and an optional bias.

    Args:
        in_channels, out_channels: positive ints, both divisible by ``group``.
        kernel_size, stride, dilation: an int or a triple (depth, height, width), each >= 1.
        pad_mode: 'same' (default; output ceil(in / stride), the odd padding after), 'valid'
            or 'pad'.
        padding: with pad_mode 'pad', an int or six ints (head, tail, top, bottom, left,
            right); 0 otherwise.
        group, has_bias, weight_init, bias_init, dtype: as ``Conv2d``.
        data_format: 'NCDHW' (the only layout supported).

    Raises:
        TypeError / ValueError: as ``Conv2d``.

    >>> import hookgrad as ms
    >>> ms.nn.Conv3d(2, 4, 3)(ms.ops.ones((1, 2, 4, 5, 6))).shape
    (1, 4, 4, 5, 6)
    """

    _ndim = 3
    _transposed = False
    _format = 'NCDHW'

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format='NCDHW', dtype=_dtype.float32):
        if data_format != 'NCDHW':
            raise ValueError(f"nn.{type(self).__name__}: data_format must be 'NCDHW', got "
                             f"{data_format!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)
        self.data_format = data_format

    def construct(self, x):
        self._check_input(x)
        pads = self._pad
        if self.pad_mode == 'same':
            pads = sum((same_padding(n, k, s, d) for n, k, s, d in
                        zip(x.shape[2:], self.kernel_size, self.stride, self.dilation)), ())
        return convolve_3d(x, self.weight, self.bias, pads, self.stride, self.dilation,
                           self.group, f"nn.Conv3d '{self.path()}'")


class Conv3dTranspose(Conv3d):
    """3-d transposed convolution over (N, C_in, D, H, W) inputs (the input gradient of a
    Conv3d), with a weight (in_channels, out_channels / group, kd, kh, kw).

    Output sizes as ``Conv2dTranspose`` per axis; ``output_padding`` (an int or a triple, each
    below max(stride, dilation)) is added to the output size of pad_mode 'pad'.

    Args:
        in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group,
        has_bias, weight_init, bias_init, data_format, dtype: as ``Conv3d``.
        output_padding: an int or a triple >= 0. Default 0.

    Raises:
        TypeError / ValueError: as ``Conv3d``.
    """

    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
                 padding=0, dilation=1, group=1, output_padding=0, has_bias=False,
                 weight_init=None, bias_init=None, data_format='NCDHW', dtype=_dtype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, data_format, dtype)
        self.output_padding = _output_padding(output_padding, 3, 'nn.Conv3dTranspose')
        if any(self.output_padding) and self.pad_mode != 'pad':
            raise ValueError(f"nn.Conv3dTranspose: output_padding needs pad_mode 'pad', got "
                             f"{self.pad_mode!r}")
        for op, s, d in zip(self.output_padding, self.stride, self.dilation):
            if op >= max(s, d):
                raise ValueError(f"nn.Conv3dTranspose: output_padding {output_padding!r} must "
                                 f"be in [0, max(stride, dilation))")

    def construct(self, x):
        self._check_input(x)
        size = x.shape[2:]
        out = tuple(_deconv_length(self.pad_mode, m, k, s, d, self._pad[2 * i]
                                   + self._pad[2 * i + 1]) + op
                    for i, (m, k, s, d, op) in enumerate(zip(size, self.kernel_size, self.stride,
                                                             self.dilation,
                                                             self.output_padding)))
        pads = self._pad
        if self.pad_mode == 'same':
            pads = sum((same_padding(m, k, s, d) for m, k, s, d in
                        zip(out, self.kernel_size, self.stride, self.dilation)), ())
        return transpose_convolve_3d(x, self.weight, self.bias, out, pads, self.stride,
                                     self.dilation, self.group)
