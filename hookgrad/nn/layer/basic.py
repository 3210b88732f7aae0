"""Basic layers: Dense, Flatten, Dropout, Dropout2d (MindSpore 2.x signatures)."""
import math
import numbers

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...common.initializer import HeUniform, Uniform, initializer
from ...ops.operations._primitive import Primitive
from ..cell import Cell
from ..parameter import Parameter
from .activation import get_activation

__all__ = ['Identity', 'Dense', 'Flatten', 'Dropout', 'Dropout2d']


def _positive_int(value, cell, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"nn.{cell}: {arg} must be a positive int, got {value!r}")
    if value <= 0:
        raise ValueError(f"nn.{cell}: {arg} must be a positive int, got {value}")
    return int(value)


def _init_value(init, shape, dtype, cell, arg):
    """``initializer(init, shape, dtype)``, with a Tensor's shape checked against ``shape``."""
    if isinstance(init, Tensor) and init.shape != shape:
        raise ValueError(f"nn.{cell}: {arg} has shape {init.shape}, expected {shape}")
    return initializer(init, shape, dtype)


class Identity(Cell):
    """Returns its input unchanged; a placeholder where a network wants a layer.

    Args:
        *args, **kwargs: accepted and ignored, as MindSpore's Identity.

    >>> import hookgrad as ms
    >>> ms.nn.Identity(54, unused='x')(ms.Tensor([1, 2]))
    Tensor(shape=[2], dtype=Int64, value= [1, 2])
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, input):
        return input


class Dense(Cell):
    """Fully connected layer: ``activation(x @ weight.T + bias)``.

    Args:
        in_channels: the size of the input's last dimension, a positive int.
        out_channels: the size of the output's last dimension, a positive int.
        weight_init: the weight's initial values: an initializer name, an ``Initializer``, a
            number or a Tensor of shape (out_channels, in_channels). Default None:
            ``HeUniform(negative_slope=math.sqrt(5))``.
        bias_init: the bias's initial values, as ``weight_init`` with shape (out_channels,).
            Default None: ``Uniform(1 / sqrt(in_channels))``.
        has_bias: whether to add a bias. Default True.
        activation: an activation name ('relu', 'sigmoid', 'tanh', 'gelu'... see
            ``nn.get_activation``), a Cell, a Primitive, or None. Default None.
        dtype: the parameters' dtype. Default ``ms.float32``.

    Inputs:
        x: a Tensor of shape (..., in_channels).

    Outputs:
        Tensor of shape (..., out_channels).

    Raises:
        ValueError: for a channel count below 1, an init Tensor of the wrong shape, or an
            input whose last dimension is not ``in_channels``.
        TypeError: for a non-int channel count, a non-bool ``has_bias``, an unsupported
            ``activation`` or a non-Tensor input.

    >>> import hookgrad as ms
    >>> net = ms.nn.Dense(3, 4)
    >>> net(ms.ops.ones((2, 3))).shape, net.weight.shape, net.bias.shape
    ((2, 4), (4, 3), (4,))
    """

    # MindSpore's primitive attributes, which subclasses in model zoos call (Cell.__getattr__)
    _primitive_attributes = {
        'matmul': lambda c: ops.operations.MatMul(transpose_b=True),
        'bias_add': lambda c: ops.operations.BiasAdd(),
        'reshape': lambda c: ops.operations.Reshape(),
        'shape_op': lambda c: ops.operations.Shape()}

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None,
                 has_bias=True, activation=None, dtype=_dtype.float32):
        super().__init__()
        self.in_channels = _positive_int(in_channels, 'Dense', 'in_channels')
        self.out_channels = _positive_int(out_channels, 'Dense', 'out_channels')
        if not isinstance(has_bias, bool):
            raise TypeError(f"nn.Dense: has_bias must be a bool, got {has_bias!r}")
        if isinstance(activation, str):
            activation = get_activation(activation, 'Dense')
        elif activation is not None and not isinstance(activation, (Cell, Primitive)):
            raise TypeError(f"nn.Dense: activation must be a str, a Cell, a Primitive or None, "
                            f"got {type(activation).__name__}")
        if weight_init is None:
            weight_init = HeUniform(negative_slope=math.sqrt(5))
        weight = _init_value(weight_init, (self.out_channels, self.in_channels), dtype,
                             'Dense', 'weight_init')
        bias = None
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(self.in_channels))
            bias = _init_value(bias_init, (self.out_channels,), dtype, 'Dense', 'bias_init')
        self.has_bias = has_bias
        self.weight = Parameter(weight, name='weight')
        self.bias = Parameter(bias, name='bias') if has_bias else None
        self.activation = activation
        self.activation_flag = activation is not None

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"nn.Dense '{self.path()}': expected a Tensor input, got "
                            f"{type(x).__name__}")
        shape = x.shape
        if not shape or shape[-1] != self.in_channels:
            raise ValueError(f"nn.Dense '{self.path()}': input of shape {shape} does not match "
                             f"weight of shape {self.weight.shape}: expected (..., "
                             f"{self.in_channels})")
        y = ops.dense(x, self.weight, self.bias)
        if self.activation is not None:
            y = self.activation(y)
        return y

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """Merge dimensions ``start_dim`` .. ``end_dim`` of the input into one.

    Args:
        start_dim: the first dimension to merge. Default 1 (the batch dimension is kept).
        end_dim: the last dimension to merge. Default -1.

    Raises:
        TypeError: when ``start_dim`` or ``end_dim`` is not an int.
        ValueError: when a dimension is out of range for the input or start_dim comes after
            end_dim (at call time, from ``ops.flatten``).
    """

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        for arg, value in (('start_dim', start_dim), ('end_dim', end_dim)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"nn.Flatten: {arg} must be an int, got {value!r}")
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x):
        return ops.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


def _rate(value, cell, arg, bounds):
    """``value`` as a float inside ``bounds``: '[0, 1]', '[0, 1)' or '(0, 1]'."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"nn.{cell}: {arg} must be a float, got {type(value).__name__}")
    value = float(value)
    low_ok = value > 0.0 if bounds[0] == '(' else value >= 0.0
    high_ok = value < 1.0 if bounds[-1] == ')' else value <= 1.0
    if not (low_ok and high_ok):
        raise ValueError(f"nn.{cell}: {arg} must be in {bounds[0]}0.0, 1.0{bounds[-1]}, "
                         f"got {value}")
    return value


class Dropout(Cell):
    """In training, zero each element with probability ``p`` and scale the rest by
    ``1 / (1 - p)``; in predict mode (``set_train(False)``, and in a new cell) the identity.

    Args:
        keep_prob: the probability of keeping an element, in (0, 1] (MindSpore's older
            argument; give it or ``p``, not both).
        p: the probability of dropping an element, in [0, 1). Default (when neither is given)
            0.5.
        dtype: accepted for MindSpore compatibility; the output has the input's dtype.

    Raises:
        ValueError: when both ``keep_prob`` and ``p`` are given or either is out of range.
        TypeError: when ``keep_prob`` or ``p`` is not a number, or ``dtype`` is not a dtype.

    >>> import hookgrad as ms
    >>> net = ms.nn.Dropout(p=0.2)
    >>> x = ms.ops.ones((2, 3))
    >>> bool((net(x) == x).all()), net.set_train().training
    (True, True)
    """

    # MindSpore's primitive attribute, which subclasses in model zoos call (Cell.__getattr__)
    _primitive_attributes = {'dropout': lambda c: ops.operations.Dropout(keep_prob=c.keep_prob)}

    def __init__(self, keep_prob=None, p=None, dtype=_dtype.float32):
        super().__init__()
        if keep_prob is not None and p is not None:
            raise ValueError(f"nn.Dropout: give keep_prob or p, not both (got keep_prob="
                             f"{keep_prob!r} and p={p!r})")
        try:
            _dtype.to_numpy(dtype)
        except TypeError as e:
            raise TypeError(f"nn.Dropout: dtype: {e}") from None
        self._given_p = p is not None     # the repr shows p when given, else keep_prob
        if keep_prob is not None:
            keep_prob = _rate(keep_prob, 'Dropout', 'keep_prob', '(0, 1]')
            p = 1.0 - keep_prob
        else:
            p = 0.5 if p is None else _rate(p, 'Dropout', 'p', '[0, 1)')
            keep_prob = 1.0 - p
        self.keep_prob = keep_prob
        self.p = p
        self.dtype = dtype

    def construct(self, x):
        if not self.training or self.p == 0.0:
            return x
        return ops.dropout(x, self.p)

    def extend_repr(self):
        return f"p={self.p}" if self._given_p else f"keep_prob={self.keep_prob}"


class Dropout2d(Cell):
    """In training, zero whole channels of an (N, C, H, W) input with probability ``p`` and
    scale the rest by ``1 / (1 - p)``; in predict mode the identity.

    Args:
        p: the probability of dropping a channel, in [0, 1]. Default 0.5.

    Raises:
        TypeError: when ``p`` is not a number.
        ValueError: when ``p`` is outside [0, 1], or (in training) the input is not 4-d.
    """

    def __init__(self, p=0.5):
        super().__init__()
        self.p = _rate(p, 'Dropout2d', 'p', '[0, 1]')
        self.keep_prob = 1.0 - self.p

    def construct(self, x):
        if not self.training or self.p == 0.0:
            return x
        return ops.dropout2d(x, self.p)

    def extend_repr(self):
        return f"p={self.keep_prob}"    # MindSpore 2.10 prints the keep probability as p
