"""Activation layers: Cells whose construct calls the functional op of the same name."""
import numbers

from ... import ops
from ..cell import Cell

__all__ = ['ReLU', 'ReLU6', 'LeakyReLU', 'Sigmoid', 'Tanh', 'GELU', 'SiLU', 'Softmax',
           'LogSoftmax', 'get_activation']


class ReLU(Cell):
    """``max(x, 0)`` element-wise.

    >>> import hookgrad as ms
    >>> ms.nn.ReLU()(ms.Tensor([-1.0, 2.0]))
    Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  2.00000000e+00])
    """

    _primitive_attributes = {'relu': lambda c: ops.operations.ReLU()}   # MindSpore's attribute

    def construct(self, x):
        return ops.relu(x)


class ReLU6(Cell):
    """``min(max(x, 0), 6)`` element-wise."""

    def construct(self, x):
        return ops.relu6(x)


class LeakyReLU(Cell):
    """``x`` where positive, ``alpha * x`` elsewhere.

    Args:
        alpha: the slope for negative inputs, a number. Default 0.2.

    Raises:
        TypeError: when ``alpha`` is not a number.
    """

    def __init__(self, alpha=0.2):
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
            raise TypeError(f"nn.LeakyReLU: alpha must be a number, got {type(alpha).__name__}")
        self.alpha = alpha

    def construct(self, x):
        return ops.leaky_relu(x, self.alpha)



class Sigmoid(Cell):
    """``1 / (1 + exp(-x))`` element-wise."""

    def construct(self, x):
        return ops.sigmoid(x)


class Tanh(Cell):
    """``tanh(x)`` element-wise."""

    def construct(self, x):
        return ops.tanh(x)


class GELU(Cell):
    """Gaussian error linear unit ``x * Phi(x)``.

    Args:
        approximate: True (the default, as MindSpore) for the tanh approximation, False for
            the exact form through erf.

    Raises:
        TypeError: when ``approximate`` is not a bool.
    """

    def __init__(self, approximate=True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"nn.GELU: approximate must be a bool, got {approximate!r}")
        self.approximate = approximate

    def construct(self, x):
        return ops.gelu(x, 'tanh' if self.approximate else 'none')



class SiLU(Cell):
    """``x * sigmoid(x)`` element-wise."""

    def construct(self, x):
        return ops.silu(x)


def _axis_arg(axis, cell, allow_tuple):
    ok = isinstance(axis, int) and not isinstance(axis, bool)
    if allow_tuple and isinstance(axis, tuple):
        ok = all(isinstance(a, int) and not isinstance(a, bool) for a in axis)
    if not ok:
        kind = 'an int or a tuple of ints' if allow_tuple else 'an int'
        raise TypeError(f"nn.{cell}: axis must be {kind}, got {axis!r}")
    return axis


class Softmax(Cell):
    """Softmax along ``axis``.

    Args:
        axis: an int or a tuple of ints. Default -1.

    Raises:
        TypeError: when ``axis`` is neither an int nor a tuple of ints.
    """

    _primitive_attributes = {'softmax': lambda c: ops.operations.Softmax(c.axis)}  # MindSpore's

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _axis_arg(axis, 'Softmax', allow_tuple=True)

    def construct(self, x):
        return ops.softmax(x, self.axis)



class LogSoftmax(Cell):
    """Logarithm of the softmax along ``axis``.

    Args:
        axis: an int. Default -1.

    Raises:
        TypeError: when ``axis`` is not an int.
    """

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _axis_arg(axis, 'LogSoftmax', allow_tuple=False)

    def construct(self, x):
        return ops.log_softmax(x, self.axis)



from .smooth_activation import (ELU, FastGelu, HSigmoid, HSwish, LogSigmoid,  # noqa: E402
                                Mish, Softmin, Softsign, Tanhshrink)
from .piecewise_activation import (HShrink, Hardtanh, PReLU, RReLU, SoftShrink,  # noqa: E402
                                   Threshold)

# MindSpore's names for nn.get_activation (and Dense's ``activation``), in MindSpore's order
_ACTIVATIONS = {
    'softmin': Softmin,
    'softmax': Softmax,
    'logsoftmax': LogSoftmax,
    'relu': ReLU,
    'relu6': ReLU6,
    'rrelu': RReLU,
    'silu': SiLU,
    'tanh': Tanh,
    'tanhshrink': Tanhshrink,
    'hardtanh': Hardtanh,
    'gelu': GELU,
    'fast_gelu': FastGelu,
    'elu': ELU,
    'sigmoid': Sigmoid,
    'softsign': Softsign,
    'prelu': PReLU,
    'leakyrelu': LeakyReLU,
    'hswish': HSwish,
    'hsigmoid': HSigmoid,
    'logsigmoid': LogSigmoid,
    'softshrink': SoftShrink,
    'hshrink': HShrink,
    'threshold': Threshold,
    'mish': Mish,
}


def get_activation(name, prim_name=None):
    """A new activation Cell from its MindSpore name ('relu', 'sigmoid', 'gelu', 'elu',
    'hswish', 'prelu'... the keys of ``_ACTIVATIONS``); None gives None.

    Args:
        name: the activation's name, lower case, or None.
        prim_name: the caller's name, used in the error message.

    Raises:
        TypeError: when ``name`` is not a str or None.
        KeyError: for an unknown name (the message lists the valid ones).

    >>> import hookgrad as ms
    >>> ms.nn.get_activation('relu')
    ReLU()
    """
    who = f"nn.{prim_name}" if prim_name else 'nn.get_activation'
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"{who}: the activation name must be a str, got {type(name).__name__}")
    cls = _ACTIVATIONS.get(name)
    if cls is None:
        raise KeyError(f"{who}: unknown activation {name!r}; valid names: "
                       f"{', '.join(_ACTIVATIONS)}")
    return cls()
