"""Activations: sigmoid, relu, relu6, leaky_relu, silu, softplus, gelu, softmax, log_softmax.

Every formula is written to be stable for large |x|: sigmoid and softplus never exponentiate a
positive number, softmax and log_softmax subtract the maximum along the axis first. Integer
tensors give Float32 results, except relu and relu6, which keep integer dtypes (as MindSpore).
"""
import math

import numpy as np

from ..kernels import threads as _threads
from .._tensor import Tensor
from ..autograd.function import Op, apply1
from ._base import as_tensor, normalize_axis
from ..kernels.erf import erf_array
from .unary import _floating

_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_CUBIC = 0.044715


def _sigmoid_array(x):
    """1 / (1 + exp(-x)) without overflow: exp is only taken of -|x|."""
    e = np.exp(-np.abs(x))
    r = 1 / (1 + e)
    return np.where(x >= 0, r, e * r)


class Sigmoid(Op):
    """y = 1 / (1 + exp(-x)); dy/dx = y (1 - y), so keep y."""
    @staticmethod
    def forward(ctx, x):
        y = _sigmoid_array(x)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return gy * y * (1 - y)


_ZEROS = {}


def _zero(x):
    """A 0-d zero of array ``x``'s dtype (NumPy compares with it faster than with ``0``); 0 for
    a Tensor."""
    if type(x) is not np.ndarray:
        return 0
    z = _ZEROS.get(x.dtype)
    if z is None:
        z = _ZEROS[x.dtype] = np.zeros((), x.dtype)
    return z


def _large(a):
    """Whether an array is large enough for its element-wise pass to be split over cores."""
    return type(a) is np.ndarray and a.ndim > 0 and a.size >= _threads.SPLIT_MIN


class ReLU(Op):
    """y = max(x, 0); the gradient passes where y > 0 (0 at the kink). Large arrays are split
    along their first axis between free cores (``_threads.split``)."""
    @staticmethod
    def forward(ctx, x):
        zero = _zero(x)
        if _large(x):
            y = np.empty_like(x)
            _threads.split(lambda lo, hi: np.maximum(x[lo:hi], zero, out=y[lo:hi]),
                           x.shape[0], x.size)
        else:
            y = np.maximum(x, zero)
        ctx.save(y)
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        zero = _zero(y)
        if _large(gy) and gy.shape == y.shape and gy.dtype == y.dtype:
            gx = np.empty_like(gy)
            _threads.split(lambda lo, hi: np.multiply(gy[lo:hi], y[lo:hi] > zero,
                                                      out=gx[lo:hi]), gy.shape[0], gy.size)
            return gx
        return gy * (y > zero)


class ReLU6(Op):
    """y = min(max(x, 0), 6); the gradient passes where 0 < x <= 6 (MindSpore's rule at the
    kinks: 0 at x = 0, 1 at x = 6)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return np.minimum(np.maximum(x, 0), 6)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return gy * (x > 0) * (x <= 6)


class LeakyReLU(Op):
    """y = x where x > 0, alpha * x elsewhere."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save(x)
        ctx.alpha = alpha
        return np.where(x > 0, x, x * alpha)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        return ctx.m.where(x > 0, gy, gy * ctx.alpha)


class SiLU(Op):
    """y = x * sigmoid(x); dy/dx = s (1 + x (1 - s)) with s = sigmoid(x)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return x * _sigmoid_array(x)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        s = 0.5 * ctx.m.tanh(0.5 * x) + 0.5      # sigmoid through tanh: no overflow
        return gy * s * (1 + x * (1 - s))


class Softplus(Op):
    """y = log(1 + exp(beta x)) / beta, and y = x where beta x > threshold.

    log(1 + exp(z)) is computed as max(z, 0) + log1p(exp(-|z|)), so it never overflows;
    dy/dx = sigmoid(beta x) (1 in the linear region).
    """
    @staticmethod
    def forward(ctx, x, beta, threshold):
        ctx.save(x)
        ctx.beta = beta
        ctx.threshold = threshold
        z = x * beta if beta != 1 else x
        soft = np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))
        if beta != 1:
            soft = soft / beta
        return np.where(z > threshold, x, soft)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        z = x * ctx.beta if ctx.beta != 1 else x
        s = 0.5 * ctx.m.tanh(0.5 * z) + 0.5
        return ctx.m.where(z > ctx.threshold, gy, gy * s)


class GeLU(Op):
    """y = x * Phi(x) (Phi the normal CDF, via erf) or its tanh approximation.

    'none':  dy/dx = Phi(x) + x * phi(x), phi the normal density.
    'tanh':  y = x/2 (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x**3).
    Backward recomputes Phi or tanh(u) from x so that the rule is differentiable again.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, approximate):
        ctx.save(x)
        ctx.approximate = approximate
        if approximate == 'tanh':
            t = np.tanh(_SQRT_2_OVER_PI * (x + _GELU_CUBIC * x * x * x))
        else:
            t = erf_array(x * _INV_SQRT2)
        return 0.5 * x * (1 + t)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        m = ctx.m
        if ctx.approximate == 'tanh':
            t = m.tanh(_SQRT_2_OVER_PI * (x + _GELU_CUBIC * x * x * x))
            du = _SQRT_2_OVER_PI * (1 + 3 * _GELU_CUBIC * x * x)
            return gy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * du)
        cdf = 0.5 * m.erf(x * _INV_SQRT2) + 0.5
        pdf = _INV_SQRT_2PI * m.exp(-0.5 * x * x)
        return gy * (cdf + x * pdf)


class Softmax(Op):
    """y = exp(x - max) / sum(exp(x - max)) along ``axis``; dx = y (gy - sum(gy y)), keep y."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, axis):
        y = np.exp(x - x.max(axis=axis, keepdims=True))
        y /= y.sum(axis=axis, keepdims=True)
        ctx.save(y)
        ctx.axis = axis
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        return y * (gy - ctx.m.sum(gy * y, ctx.axis, True))


class LogSoftmax(Op):
    """y = x - max - log(sum(exp(x - max))) along ``axis``; dx = gy - exp(y) sum(gy), keep y."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, axis):
        y = x - x.max(axis=axis, keepdims=True)
        y -= np.log(np.exp(y).sum(axis=axis, keepdims=True))
        ctx.save(y)
        ctx.axis = axis
        return y

    @staticmethod
    def backward(ctx, gy):
        (y,) = ctx.saved
        m = ctx.m
        return gy - m.exp(y) * m.sum(gy, ctx.axis, True)


# ------------------------------------------------------------------------------ public functions
def _numeric(input, name):
    """``input`` as a Tensor of numbers (Bool is rejected), dtype kept."""
    x = input if type(input) is Tensor else as_tensor(input)
    if x._data.dtype.kind == 'b':
        raise TypeError(f"ops.{name}: expected a numeric tensor, got dtype Bool")
    return x


def _number(value, op, arg):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"ops.{op}: {arg} must be a number, got {type(value).__name__}")
    return value.item() if isinstance(value, np.generic) else value    # a weak Python scalar


def sigmoid(input):
    """Element-wise logistic function ``1 / (1 + exp(-input))``.

    >>> import hookgrad as ms
    >>> ms.ops.sigmoid(ms.Tensor([0.0]))
    Tensor(shape=[1], dtype=Float32, value= [ 5.00000000e-01])
    """
    return apply1(Sigmoid, _floating(input))


def relu(input):
    """Element-wise ``max(input, 0)``; integer dtypes are kept.

    Raises:
        TypeError: for a Bool tensor.
    """
    return apply1(ReLU, _numeric(input, 'relu'))


def relu6(x):
    """Element-wise ``min(max(x, 0), 6)``; integer dtypes are kept."""
    return apply1(ReLU6, _numeric(x, 'relu6'))


def leaky_relu(input, alpha=0.2):
    """Element-wise ``input`` where positive, ``alpha * input`` elsewhere.

    Raises:
        TypeError: when ``alpha`` is not a number.
    """
    alpha = _number(alpha, 'leaky_relu', 'alpha')
    if isinstance(alpha, float):        # MindSpore's attribute is a float32 value
        alpha = float(np.float32(alpha))
    return LeakyReLU.apply(_floating(input), alpha=alpha)


def silu(input):
    """Element-wise ``input * sigmoid(input)`` (also called swish)."""
    return apply1(SiLU, _floating(input))


def softplus(input, beta=1, threshold=20):
    """Element-wise ``log(1 + exp(beta * input)) / beta``; linear where beta * input > threshold.

    Raises:
        TypeError: when ``beta`` or ``threshold`` is not a number.
        ValueError: when ``beta`` is 0.
    """
    beta = _number(beta, 'softplus', 'beta')
    threshold = _number(threshold, 'softplus', 'threshold')
    if beta == 0:
        raise ValueError("ops.softplus: beta must be non-zero, got 0")
    return Softplus.apply(_floating(input), beta=beta, threshold=threshold)


def gelu(input_x, approximate='none'):
    """Gaussian error linear unit ``x * Phi(x)``; ``approximate='tanh'`` uses the tanh formula.

    Raises:
        ValueError: when ``approximate`` is not 'none' or 'tanh'.
    """
    if approximate != 'none' and approximate != 'tanh':
        raise ValueError(f"ops.gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return GeLU.apply(_floating(input_x), approximate=approximate)


def _axis_input(input, axis, name):
    x = _floating(input)
    if x.ndim == 0:
        normalize_axis(axis, 0, name)
        return x, None
    return x, normalize_axis(axis, x.ndim, name)


def softmax(input, axis=-1, *, dtype=None):
    """Softmax along ``axis`` (an int or a tuple of ints); ``dtype`` casts the input first.

    Raises:
        ValueError: when ``axis`` is out of range for the input's rank.
    """
    if dtype is not None:
        from .arithmetic import cast
        input = cast(input, dtype)
    x, axis = _axis_input(input, axis, 'softmax')
    return Softmax.apply(x, axis=axis)


def log_softmax(logits, axis=-1):
    """Logarithm of the softmax along ``axis``, computed without forming the softmax.

    Raises:
        ValueError: when ``axis`` is out of range for the input's rank.
    """
    x, axis = _axis_input(logits, axis, 'log_softmax')
    return LogSoftmax.apply(x, axis=axis)
