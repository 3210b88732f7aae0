"""Convolution layers: Conv2d and Conv1d (MindSpore 2.x signatures and defaults)."""
import math

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...common.initializer import HeUniform, Uniform
from ...ops.conv import as_ints, as_pad_mode, as_padding
from ..cell import Cell
from ..parameter import Parameter
from .basic import _init_value, _positive_int

__all__ = ['Conv2d', 'Conv1d']


def check_conv_arguments(cell, in_channels, out_channels, kernel_size, stride, pad_mode,
                         padding, dilation, group, has_bias, dtype):
    """Check the arguments every convolution layer takes and keep them as MindSpore's
    attributes of ``cell`` (``cell._ndim`` spatial axes); returns the name errors use."""
    name = type(cell).__name__
    where = f"nn.{name}"
    nd = cell._ndim
    cell.in_channels = _positive_int(in_channels, name, 'in_channels')
    cell.out_channels = _positive_int(out_channels, name, 'out_channels')
    cell.kernel_size = as_ints(kernel_size, nd, where, 'kernel_size')
    cell.stride = as_ints(stride, nd, where, 'stride')
    cell.dilation = as_ints(dilation, nd, where, 'dilation')
    cell.pad_mode = as_pad_mode(pad_mode, where)
    cell.padding = padding
    cell.group = _positive_int(group, name, 'group')
    if cell.in_channels % cell.group or cell.out_channels % cell.group:
        raise ValueError(f"{where}: in_channels ({cell.in_channels}) and out_channels "
                         f"({cell.out_channels}) must both be divisible by group ({cell.group})")
    if not isinstance(has_bias, bool):
        raise TypeError(f"{where}: has_bias must be a bool, got {has_bias!r}")
    try:
        _dtype.to_numpy(dtype)
    except TypeError as e:
        raise TypeError(f"{where}: dtype: {e}") from None
    return where


class _Conv(Cell):
    """What Conv2d and Conv1d share: argument checks, parameters, repr."""

    # MindSpore's primitive attributes, which subclasses in model zoos call (Cell.__getattr__)
    _primitive_attributes = {
        'bias_add': lambda c: ops.operations.BiasAdd(data_format=c.data_format)}

    _ndim = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                 dilation, group, has_bias, weight_init, bias_init, dtype):
        super().__init__()
        name = type(self).__name__
        where = check_conv_arguments(self, in_channels, out_channels, kernel_size, stride,
                                     pad_mode, padding, dilation, group, has_bias, dtype)
        self._pads = self._padding(padding, self.pad_mode, where)
        shape = (self.out_channels, self.in_channels // self.group) + self.kernel_size
        fan_in = shape[1] * math.prod(self.kernel_size)
        if weight_init is None:
            weight_init = HeUniform(negative_slope=math.sqrt(5))
        weight = _init_value(weight_init, shape, dtype, name, 'weight_init')
        bias = None
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(fan_in))
            bias = _init_value(bias_init, (self.out_channels,), dtype, name, 'bias_init')
        self.weight_init = weight_init      # as MindSpore, the defaults once chosen
        self.bias_init = bias_init
        self.has_bias = has_bias
        self.weight = Parameter(weight, name='weight')
        self.bias = Parameter(bias, name='bias') if has_bias else None

    def _check_input(self, x, weight):
        """Shape and dtype of ``x`` against the layer: MindSpore computes in the weight's dtype
        only, and so does hookgrad (no silent Float64 or integer convolution)."""
        name = f"nn.{type(self).__name__} '{self.path()}'"
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}: expected a Tensor input, got {type(x).__name__}")
        layout = '(N, C, H, W)' if self._ndim == 2 else '(N, C, L)'
        if x.ndim != self._ndim + 2 or x.shape[1] != self.in_channels:
            raise ValueError(f"{name}: expected an input {layout} with C = {self.in_channels}, "
                             f"got shape {x.shape}")
        if x.dtype != weight.dtype:
            to = f"ms.{str(weight.dtype).lower()}"
            raise TypeError(f"{name}: input is {x.dtype}, weight is {weight.dtype}: cast the "
                            f"input with ops.cast(x, {to}) (or x.astype({to}))")

    def extend_repr(self):
        # MindSpore's text; a Conv1d shows the 2-d convolution it runs as
        def show(t):
            return (1, t[0]) if self._ndim == 1 else t
        padding = self.padding
        if self._ndim == 1:
            left, right = self._pads if self.pad_mode == 'pad' else (0, 0)
            padding = (0, 0, left, right)
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={show(self.kernel_size)}, stride={show(self.stride)}, "
                f"pad_mode={self.pad_mode}, padding={padding}, "
                f"dilation={show(self.dilation)}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={self.weight_init}, bias_init={self.bias_init}, format=NCHW")


class Conv2d(_Conv):
    """2-d convolution layer over (N, C_in, H, W) inputs: ``ops.conv2d`` with a weight
    (out_channels, in_channels / group, kh, kw) and an optional bias.

    Args:
        in_channels, out_channels: positive ints, both divisible by ``group``.
        kernel_size, stride, dilation: an int or a pair (height, width), each >= 1.
        pad_mode: 'same' (default: output size ceil(input / stride)), 'valid' or 'pad'.
        padding: used with pad_mode 'pad': an int, a pair (height, width) or four ints (top,
            bottom, left, right); must be 0 otherwise.
        group: the number of channel groups. Default 1.
        has_bias: add a bias. Default False.
        weight_init: the weight's initial values (an initializer name, an ``Initializer``, a
            number or a Tensor). Default None: ``HeUniform(negative_slope=math.sqrt(5))``.
        bias_init: the bias's, likewise. Default None: ``Uniform(1 / sqrt(fan_in))`` with
            fan_in = in_channels / group * kh * kw.
        data_format: 'NCHW' (the only layout supported).
        dtype: the parameters' dtype. Default ``ms.float32``.

    Inputs:
        x: Tensor (N, in_channels, H, W).

    Outputs:
        Tensor (N, out_channels, H_out, W_out).

    Raises:
        TypeError: for non-int sizes, a non-bool has_bias, a bad dtype, a non-Tensor input, or
            an input whose dtype is not the weight's (UInt8 images, Float64 arrays: cast them).
        ValueError: for sizes < 1, channels not divisible by group, a bad pad_mode, padding
            other than 0 without pad_mode 'pad', a data_format other than 'NCHW', an init
            Tensor of the wrong shape, or an input with the wrong rank or channel count.

    >>> import hookgrad as ms
    >>> net = ms.nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones",
    ...                    pad_mode="valid")
    >>> net(ms.ops.ones((1, 1, 2, 2))).asnumpy().ravel().tolist()
    [4.0, 4.0]
    """

    # MindSpore's primitive attributes, which subclasses in model zoos call (Cell.__getattr__)
    _primitive_attributes = dict(
        _Conv._primitive_attributes,
        conv2d=lambda c: ops.operations.Conv2D(c.out_channels, c.kernel_size, 1, c.pad_mode,
                                               c.padding, c.stride, c.dilation, c.group,
                                               c.data_format))

    _ndim = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format='NCHW', dtype=_dtype.float32):
        if data_format != 'NCHW':
            raise ValueError(f"nn.Conv2d: data_format must be 'NCHW', got {data_format!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)
        self.data_format = data_format

    @staticmethod
    def _padding(padding, pad_mode, where):
        return as_padding(padding, pad_mode, where)

    def construct(self, x):
        weight = self.weight
        self._check_input(x, weight)
        return ops.conv2d(x, weight, self.bias, self.stride, self.pad_mode, self._pads,
                          self.dilation, self.group)


class Conv1d(_Conv):
    """1-d convolution layer over (N, C_in, L) inputs: ``ops.conv1d`` with a weight
    (out_channels, in_channels / group, kernel_size) and an optional bias.

    Args:
        in_channels, out_channels: positive ints, both divisible by ``group``.
        kernel_size, stride, dilation: an int >= 1.
        pad_mode: 'same' (default), 'valid' or 'pad'.
        padding: used with pad_mode 'pad': an int or a pair (left, right); must be 0 otherwise.
        group, has_bias, weight_init, bias_init, dtype: as ``Conv2d`` (fan_in = in_channels /
            group * kernel_size).

    Inputs:
        x: Tensor (N, in_channels, L).

    Outputs:
        Tensor (N, out_channels, L_out).

    Raises:
        TypeError / ValueError: as ``Conv2d``.
    """

    _ndim = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=_dtype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)

    @staticmethod
    def _padding(padding, pad_mode, where):
        if isinstance(padding, (tuple, list)) and len(padding) == 4:
            raise TypeError(f"{where}: padding must be an int or a pair (left, right), "
                            f"got {padding!r}")
        pads = as_padding(padding, pad_mode, where)
        return (pads[0], pads[2]) if isinstance(padding, (tuple, list)) else pads[:2]

    def construct(self, x):
        weight = self.weight
        self._check_input(x, weight)
        return ops.conv1d(x, weight, self.bias, self.stride[0], self.pad_mode, self._pads,
                          self.dilation[0], self.group)
