"""Piecewise activation layers (MindSpore 2.x): PReLU (with its trained slopes), RReLU,
Hardtanh, HShrink, SoftShrink, Threshold."""
import numbers

import numpy as np

from ... import ops
from ..._tensor import Tensor
from ..cell import Cell
from ..parameter import Parameter
from .smooth_activation import _number

__all__ = ['PReLU', 'RReLU', 'Hardtanh', 'HShrink', 'SoftShrink', 'Threshold']


class PReLU(Cell):
    """Parametric ReLU: ``x`` where x > 0, ``w * x`` elsewhere, with a trained slope per
    channel (axis 1 of the input), ``ops.prelu``.

    The slopes are the parameter ``w``, named 'a' as in MindSpore (a checkpoint key).

    Args:
        channel: the number of slopes: 1 (shared) or the input's channel count. Default 1.
        w: the initial slopes: a float (every slope), a list of ``channel`` floats or a
            Float16/Float32 Tensor of shape (channel,). Default 0.25.

    Raises:
        TypeError: for a ``w`` of another type, or a non-int ``channel``.
        ValueError: for ``channel`` < 1, a list or Tensor of another length, or a Tensor of
            another dtype.

    >>> import hookgrad as ms
    >>> print(ms.nn.PReLU()(ms.Tensor([-2.0, 2.0])))
    [-0.5  2. ]
    """

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, numbers.Integral):
            raise TypeError(f"nn.PReLU: channel must be a positive int, got {channel!r}")
        if channel < 1:
            raise ValueError(f"nn.PReLU: channel must be a positive int, got {channel}")
        if isinstance(w, (float, np.floating)):
            values = np.full((channel,), w, np.float32)
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(f"nn.PReLU: w as a list must hold channel={channel} floats, got "
                                 f"{len(w)}")
            if not all(isinstance(v, (float, np.floating)) for v in w):
                raise ValueError(f"nn.PReLU: every element of w must be a float, got {w!r}")
            values = np.asarray(w, np.float32)
        elif isinstance(w, Tensor):
            if w._data.dtype not in (np.float16, np.float32):
                raise ValueError(f"nn.PReLU: w as a Tensor must be Float16 or Float32, got "
                                 f"{w.dtype}")
            if w.shape != (channel,):
                raise ValueError(f"nn.PReLU: w as a Tensor must have shape ({channel},), got "
                                 f"{w.shape}")
            values = w
        else:
            raise TypeError(f"nn.PReLU: w must be a float, a list or a Tensor, got "
                            f"{type(w).__name__}")
        self.w = Parameter(values, name='a')

    def construct(self, x):
        return ops.prelu(x, self.w)


class RReLU(Cell):
    """Randomized leaky ReLU, ``ops.rrelu``: negative elements are multiplied by slopes drawn
    from [lower, upper) at every call (in training and evaluation, as MindSpore).

    Args:
        lower, upper: the bounds of the slopes, numbers with lower <= upper. Defaults 1/8, 1/3.

    Raises:
        TypeError: for non-number bounds.
        ValueError: when ``lower > upper``.
    """

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        self.lower = _number(lower, 'RReLU', 'lower')
        self.upper = _number(upper, 'RReLU', 'upper')
        if self.lower > self.upper:
            raise ValueError(f"nn.RReLU: upper must be >= lower, got upper={upper}, "
                             f"lower={lower}")

    def construct(self, x):
        return ops.rrelu(x, self.lower, self.upper)


class Hardtanh(Cell):
    """``clamp(x, min_val, max_val)``, ``ops.hardtanh``.

    Args:
        min_val, max_val: the bounds, numbers with min_val < max_val. Defaults -1.0, 1.0.

    Raises:
        TypeError: for non-number bounds.
        ValueError: when ``min_val >= max_val``.
    """

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val = _number(min_val, 'Hardtanh', 'min_val')
        self.max_val = _number(max_val, 'Hardtanh', 'max_val')
        if self.min_val >= self.max_val:
            raise ValueError(f"nn.Hardtanh: min_val must be less than max_val, got "
                             f"min_val={min_val}, max_val={max_val}")

    def construct(self, x):
        return ops.hardtanh(x, self.min_val, self.max_val)


class HShrink(Cell):
    """Hard shrinkage, ``ops.hardshrink``: ``x`` where ``|x| > lambd``, 0 elsewhere.

    Args:
        lambd: the threshold. Default 0.5.
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _number(lambd, 'HShrink', 'lambd')

    def construct(self, input_x):
        return ops.hardshrink(input_x, self.lambd)


class SoftShrink(Cell):
    """Soft shrinkage, ``ops.softshrink``.

    Args:
        lambd: the threshold, >= 0. Default 0.5.

    Raises:
        ValueError: for a negative ``lambd``.
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _number(lambd, 'SoftShrink', 'lambd')
        if self.lambd < 0:
            raise ValueError(f"nn.SoftShrink: lambd must be >= 0, got {lambd}")

    def construct(self, input_x):
        return ops.softshrink(input_x, self.lambd)


class Threshold(Cell):
    """``x`` where ``x > threshold``, ``value`` elsewhere, ``ops.threshold``.

    Args:
        threshold: a number.
        value: the replacement, a number.
    """

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = _number(threshold, 'Threshold', 'threshold')
        self.value = _number(value, 'Threshold', 'value')

    def construct(self, input_x):
        return ops.threshold(input_x, self.threshold, self.value)
