"""Smooth activation layers (MindSpore 2.x): ELU, CELU, SeLU, Mish, Softsign, LogSigmoid,
FastGelu, HSwish, HSigmoid, Tanhshrink, Softmin, GLU; each calls the ``ops`` function of the
same name."""
import numbers

from ... import ops
from ..cell import Cell

__all__ = ['ELU', 'CELU', 'SeLU', 'Mish', 'Softsign', 'LogSigmoid', 'FastGelu', 'HSwish',
           'HSigmoid', 'Tanhshrink', 'Softmin', 'GLU']


def _number(value, cell, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"nn.{cell}: {arg} must be a float or int, got {type(value).__name__}")
    return float(value)


def _int_arg(value, cell, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"nn.{cell}: {arg} must be an int, got {value!r}")
    return int(value)


class ELU(Cell):
    """Exponential linear unit, ``ops.elu``: ``x`` where x > 0, ``alpha * (exp(x) - 1)``
    elsewhere.

    Args:
        alpha: the saturation value of the negative part. Default 1.0.

    Raises:
        TypeError: for a non-number ``alpha``.

    >>> import hookgrad as ms
    >>> print(ms.nn.ELU()(ms.Tensor([-1.0, 2.0])))
    [-0.63212055  2.        ]
    """

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _number(alpha, 'ELU', 'alpha')

    def construct(self, x):
        return ops.elu(x, self.alpha)


class CELU(Cell):
    """Continuously differentiable ELU, ``ops.celu``.

    Args:
        alpha: a non-zero number. Default 1.0.

    Raises:
        TypeError: for a non-number ``alpha``.
        ValueError: for ``alpha`` 0.
    """

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _number(alpha, 'CELU', 'alpha')
        if self.alpha == 0.0:
            raise ValueError("nn.CELU: alpha must be non-zero, got 0")

    def construct(self, x):
        return ops.celu(x, self.alpha)


class SeLU(Cell):
    """Scaled ELU, ``ops.selu``."""

    def construct(self, input_x):
        return ops.selu(input_x)


class Mish(Cell):
    """``x * tanh(softplus(x))``, ``ops.mish``."""

    def construct(self, x):
        return ops.mish(x)


class Softsign(Cell):
    """``x / (1 + |x|)``, ``ops.softsign``."""

    def construct(self, x):
        return ops.softsign(x)


class LogSigmoid(Cell):
    """``log(sigmoid(x))``, ``ops.logsigmoid``."""

    def construct(self, input_x):
        return ops.logsigmoid(input_x)


class FastGelu(Cell):
    """MindSpore's fast GeLU ``x * sigmoid(1.702 x)``, ``ops.fast_gelu``."""

    def construct(self, x):
        return ops.fast_gelu(x)


class HSwish(Cell):
    """Hard swish ``x * clamp(x / 6 + 1 / 2, 0, 1)``, ``ops.hardswish``."""

    def construct(self, x):
        return ops.hardswish(x)


class HSigmoid(Cell):
    """Hard sigmoid ``clamp(x / 6 + 1 / 2, 0, 1)``, ``ops.hardsigmoid``."""

    def construct(self, input_x):
        return ops.hardsigmoid(input_x)


class Tanhshrink(Cell):
    """``x - tanh(x)``, ``ops.tanhshrink``."""

    def construct(self, x):
        return ops.tanhshrink(x)


class Softmin(Cell):
    """``softmax(-x)`` along ``axis``, ``ops.softmin``.

    Args:
        axis: an int or a tuple of ints. Default -1.

    Raises:
        TypeError: for another ``axis``.
    """

    def __init__(self, axis=-1):
        super().__init__()
        ok = isinstance(axis, int) and not isinstance(axis, bool) or \
            isinstance(axis, tuple) and all(isinstance(a, int) and not isinstance(a, bool)
                                            for a in axis)
        if not ok:
            raise TypeError(f"nn.Softmin: axis must be an int or a tuple of ints, got {axis!r}")
        self.axis = axis

    def construct(self, x):
        return ops.softmin(x, self.axis)


class GLU(Cell):
    """Gated linear unit ``a * sigmoid(b)`` of the two halves of the input along ``axis``,
    ``ops.glu``.

    Args:
        axis: an int. Default -1.

    Raises:
        TypeError: for a non-int ``axis``.
    """

    def __init__(self, axis=-1):
        super().__init__()
        self.dim = _int_arg(axis, 'GLU', 'axis')

    def construct(self, x):
        return ops.glu(x, self.dim)
