"""Linear layers beside Dense: Linear, BiDense, and the fused blocks DenseBnAct and
Conv2dBnAct (MindSpore 2.x signatures, parameter names and printed forms)."""
import math

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...common.initializer import HeUniform, Uniform
from ...ops.operations._primitive import Primitive
from ..cell import Cell
from ..parameter import Parameter
from .activation import LeakyReLU, get_activation
from .basic import Dense, _init_value, _positive_int
from .conv import Conv2d
from .normalization import BatchNorm1d, BatchNorm2d

__all__ = ['Linear', 'BiDense', 'DenseBnAct', 'Conv2dBnAct']


def _bool(value, cell, arg):
    if not isinstance(value, bool):
        raise TypeError(f"nn.{cell}: {arg} must be a bool, got {value!r}")
    return value


def _check_last(cell, x, arg, size):
    if not isinstance(x, Tensor):
        raise TypeError(f"nn.{type(cell).__name__} '{cell.path()}': {arg} must be a Tensor, "
                        f"got {type(x).__name__}")
    if not x.shape or x.shape[-1] != size:
        raise ValueError(f"nn.{type(cell).__name__} '{cell.path()}': the last axis of {arg} "
                         f"must have length {size}, got shape {x.shape}")


class Linear(Cell):
    """Fully connected layer ``x @ weight.T + bias`` with MindSpore's newer argument names.

    Args:
        in_features, out_features: positive ints.
        bias: whether to add a bias. Default True.
        weight_init: the (out_features, in_features) weight's initial values. Default None:
            ``HeUniform(negative_slope=math.sqrt(5))``.
        bias_init: the bias's. Default None: ``Uniform(1 / sqrt(in_features))``.
        dtype: the parameters' dtype; None means ``ms.float32``.

    Raises:
        TypeError / ValueError: for bad sizes, a non-bool bias, init Tensors of the wrong
            shape, or an input whose last axis is not in_features.

    >>> import hookgrad as ms
    >>> ms.nn.Linear(3, 2)(ms.ops.ones((4, 3))).shape
    (4, 2)
    """

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None,
                 dtype=None):
        super().__init__()
        self.in_features = _positive_int(in_features, 'Linear', 'in_features')
        self.out_features = _positive_int(out_features, 'Linear', 'out_features')
        self.has_bias = _bool(bias, 'Linear', 'bias')
        dtype = _dtype.float32 if dtype is None else dtype
        if weight_init is None:
            weight_init = HeUniform(negative_slope=math.sqrt(5))
        self.weight = Parameter(_init_value(weight_init, (self.out_features, self.in_features),
                                            dtype, 'Linear', 'weight_init'), name='weight')
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(self.in_features))
            self.bias = Parameter(_init_value(bias_init, (self.out_features,), dtype, 'Linear',
                                              'bias_init'), name='bias')

    def construct(self, x):
        _check_last(self, x, 'x', self.in_features)
        return ops.dense(x, self.weight, self.bias)

    def extend_repr(self):
        s = f"input_features={self.in_features}, output_features={self.out_features}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


class BiDense(Cell):
    """Bilinear layer ``y_o = sum_ij x1_i * weight[o, i, j] * x2_j + bias_o``.

    Args:
        in1_channels, in2_channels: the last axes of the two inputs, positive ints.
        out_channels: the output's last axis, a positive int.
        weight_init: the (out_channels, in1_channels, in2_channels) weight's initial values.
            Default None: ``Uniform(1 / sqrt(in1_channels))``.
        bias_init: the bias's. Default None: the same uniform bound.
        has_bias: whether to add a bias. Default True.
        dtype: the parameters' dtype. Default ``ms.float32``.

    Inputs:
        input1 (..., in1_channels) and input2 (..., in2_channels), with the same leading axes.

    Raises:
        TypeError / ValueError: for bad sizes, a non-bool has_bias, init Tensors of the wrong
            shape, or inputs whose shapes do not fit.

    >>> import hookgrad as ms
    >>> net = ms.nn.BiDense(2, 3, 4)
    >>> net(ms.ops.ones((5, 2)), ms.ops.ones((5, 3))).shape
    (5, 4)
    """

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None,
                 bias_init=None, has_bias=True, dtype=_dtype.float32):
        super().__init__()
        self.in1_channels = _positive_int(in1_channels, 'BiDense', 'in1_channels')
        self.in2_channels = _positive_int(in2_channels, 'BiDense', 'in2_channels')
        self.out_channels = _positive_int(out_channels, 'BiDense', 'out_channels')
        self.has_bias = _bool(has_bias, 'BiDense', 'has_bias')
        bound = 1 / math.sqrt(self.in1_channels)
        if weight_init is None:
            weight_init = Uniform(bound)
        shape = (self.out_channels, self.in1_channels, self.in2_channels)
        self.weight = Parameter(_init_value(weight_init, shape, dtype, 'BiDense',
                                            'weight_init'), name='weight')
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(bound)
            self.bias = Parameter(_init_value(bias_init, (self.out_channels,), dtype,
                                              'BiDense', 'bias_init'), name='bias')

    def construct(self, input1, input2):
        _check_last(self, input1, 'input1', self.in1_channels)
        _check_last(self, input2, 'input2', self.in2_channels)
        if input1.shape[:-1] != input2.shape[:-1]:
            raise ValueError(f"nn.BiDense '{self.path()}': input1 {input1.shape} and input2 "
                             f"{input2.shape} must have the same leading axes")
        return ops.bidense(input1, input2, self.weight, self.bias)

    def extend_repr(self):
        s = (f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, "
             f"output_channels={self.out_channels}")
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


def _activation(activation, alpha, cell):
    """'leakyrelu' with slope ``alpha``, another name, a Cell, a Primitive or None."""
    if activation == 'leakyrelu':
        return LeakyReLU(alpha)
    if isinstance(activation, str):
        return get_activation(activation, cell)
    if activation is not None and not isinstance(activation, (Cell, Primitive)):
        raise TypeError(f"nn.{cell}: activation must be a str, a Cell or a Primitive, got "
                        f"{type(activation).__name__}")
    return activation


class DenseBnAct(Cell):
    """``Dense``, then optionally ``BatchNorm1d`` and an activation: the sub-cells ``dense``,
    ``batchnorm`` and ``activation``, named as MindSpore's checkpoints hold them.

    Args:
        in_channels, out_channels, weight_init, bias_init, has_bias: as ``Dense`` (defaults
            'normal', 'zeros', True).
        has_bn: add a BatchNorm1d(out_channels, eps, momentum). Default False.
        momentum, eps: the batch norm's. Defaults 0.9, 1e-5.
        activation: None, a name ('leakyrelu' takes slope ``alpha``), a Cell or a Primitive.
        alpha: the LeakyReLU slope. Default 0.2.
        after_fake: a bool kept for MindSpore's quantization-aware training; no effect here.

    Raises:
        TypeError: for non-bool flags or an activation of another type.
    """

    def __init__(self, in_channels, out_channels, weight_init='normal', bias_init='zeros',
                 has_bias=True, has_bn=False, momentum=0.9, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = _bool(has_bn, 'DenseBnAct', 'has_bn')
        self.after_fake = _bool(after_fake, 'DenseBnAct', 'after_fake')
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation(activation, alpha, 'DenseBnAct')
        self.has_act = activation is not None

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class Conv2dBnAct(Cell):
    """``Conv2d``, then optionally ``BatchNorm2d`` and an activation: the sub-cells ``conv``,
    ``batchnorm`` and ``activation``, named as MindSpore's checkpoints hold them.

    Args:
        in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group,
        has_bias, weight_init, bias_init: as ``Conv2d`` (defaults: weight_init 'normal',
            bias_init 'zeros').
        has_bn: add a BatchNorm2d(out_channels, eps, momentum). Default False.
        momentum, eps: the batch norm's. Defaults 0.997, 1e-5.
        activation, alpha, after_fake: as ``DenseBnAct``.

    Raises:
        TypeError / ValueError: as ``Conv2d``; TypeError for non-bool flags or an activation
            of another type.
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
                 padding=0, dilation=1, group=1, has_bias=False, weight_init='normal',
                 bias_init='zeros', has_bn=False, momentum=0.997, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                           pad_mode=pad_mode, padding=padding, dilation=dilation, group=group,
                           has_bias=has_bias, weight_init=weight_init, bias_init=bias_init)
        self.has_bn = _bool(has_bn, 'Conv2dBnAct', 'has_bn')
        self.after_fake = _bool(after_fake, 'Conv2dBnAct', 'after_fake')
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation(activation, alpha, 'Conv2dBnAct')
        self.has_act = activation is not None

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
