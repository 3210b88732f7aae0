"""Activations composed of hookgrad's primitives (MindSpore 2.x ``ops`` names and signatures):
elu, celu, selu, hardswish, hardsigmoid, mish, prelu, softsign, softmin, hardtanh, logsigmoid,
hardshrink, softshrink, tanhshrink, threshold, glu, fast_gelu, rrelu.

Each is a few element-wise primitives, so gradients (of any order) come from theirs. Branches
that could overflow are fed clipped inputs (``expm1(min(x, 0))``), so the branch ``where``
discards never produces inf * 0 in backward. Integer inputs give Float32 results.
"""
import numbers

from .._tensor import Tensor
from ._base import exact, exact_constants
from .. import _dtype as _mstype
from ..kernels import backend
from .activation import sigmoid, softmax, softplus
from .arithmetic import cast
from .comparison import clamp, gt, logical_and, lt, maximum, minimum
from .indexing import where
from .shaping import reshape, split
from .unary import _floating, abs as _abs, expm1, tanh

__all__ = ['elu', 'celu', 'selu', 'hardswish', 'hardsigmoid', 'mish', 'prelu', 'softsign',
           'softmin', 'hardtanh', 'logsigmoid', 'hardshrink', 'softshrink', 'tanhshrink',
           'threshold', 'glu', 'fast_gelu', 'rrelu']

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946
_FAST_GELU = 1.702


def _real(value, op, arg):
    """A Python number argument (bool rejected), as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ops.{op}: {arg} must be a float or int, got {type(value).__name__}")
    return float(value)


def _tensor(input, op):
    if not isinstance(input, Tensor):
        raise TypeError(f"ops.{op}: input must be a Tensor, got {type(input).__name__}")
    return _floating(input)


def _negative_part(x, alpha, input_scale):
    """``alpha * (exp(x * input_scale) - 1)`` where x <= 0, computed from min(x, 0)."""
    z = minimum(x, 0.0)
    if input_scale != 1.0:
        z = z * input_scale
    return expm1(z) * alpha


def elu(input_x, alpha=1.0):
    """Exponential linear unit: ``x`` where x > 0, ``alpha * (exp(x) - 1)`` elsewhere.

    Args:
        input_x: a Tensor.
        alpha: the saturation value of the negative part. Default 1.0 (MindSpore's kernels
            take only 1.0; any value is computed here).

    Raises:
        TypeError: for a non-Tensor input or a non-number ``alpha``.

    >>> import hookgrad as ms
    >>> print(ms.ops.elu(ms.Tensor([-1.0, 2.0])))
    [-0.63212055  2.        ]
    """
    x = _tensor(input_x, 'elu')
    alpha = _real(alpha, 'elu', 'alpha')
    return where(gt(x, 0.0), x, _negative_part(x, alpha, 1.0))


def celu(x, alpha=1.0):
    """Continuously differentiable ELU: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Raises:
        TypeError: for a non-Tensor input or a non-number ``alpha``.
        ValueError: for ``alpha`` 0.
    """
    t = _tensor(x, 'celu')
    alpha = _real(alpha, 'celu', 'alpha')
    if alpha == 0.0:
        raise ValueError("ops.celu: alpha must be non-zero, got 0")
    return where(gt(t, 0.0), t, _negative_part(t, alpha, 1.0 / alpha))


@exact_constants
def selu(input_x):
    """Scaled ELU: ``scale * elu(x, alpha)`` with alpha ~ 1.67326 and scale ~ 1.05070."""
    x = _tensor(input_x, 'selu')
    return where(gt(x, 0.0), x * _SELU_SCALE,
                 _negative_part(x, _SELU_ALPHA * _SELU_SCALE, 1.0))


def hardsigmoid(input):
    """Piecewise-linear sigmoid ``clamp(x + 3, 0, 6) / 6``; its gradient is 1/6 strictly
    between -3 and 3 and 0 at the kinks, as MindSpore's. ``(x + 3) / 6`` is rounded as
    MindSpore rounds it; Float16 inputs are computed in Float32."""
    x = _tensor(input, 'hardsigmoid')
    half = x.dtype == _mstype.float16
    t = cast(x, _mstype.float32) if half else x
    inside = logical_and(gt(t, -3.0), lt(t, 3.0))
    out = where(inside, (t + 3.0) / 6.0, where(gt(t, 0.0), 1.0, 0.0).astype(t.dtype))
    return cast(out, _mstype.float16) if half else out


def hardswish(input):
    """``x * clamp(x + 3, 0, 6) / 6``: 0 below -3, ``x`` itself above 3 (not ``x * 6 / 6``,
    which can round differently)."""
    x = _tensor(input, 'hardswish')
    return where(gt(x, 3.0), x, x * clamp(x + 3.0, 0.0, 6.0) / 6.0)


def mish(x):
    """``x * tanh(softplus(x))``; Float16 inputs are computed in Float32 and rounded once, as
    MindSpore does."""
    t = _tensor(x, 'mish')
    if t.dtype == _mstype.float16:
        w = cast(t, _mstype.float32)
        return cast(w * tanh(softplus(w)), _mstype.float16)
    return t * tanh(softplus(t))


def prelu(input, weight):
    """Parametric ReLU: ``x`` where x > 0, ``weight * x`` elsewhere, the weight applying per
    channel (axis 1).

    Args:
        input: a Tensor; its axis 1 holds the channels.
        weight: a Tensor of one value or of one value per channel (shape (C,)).

    Raises:
        TypeError: for non-Tensor arguments, or an input or weight that is not floating
            (MindSpore refuses integer and bool ones; its Float16/Float32 limit is widened
            here to Float64 and BFloat16).
        ValueError: for a weight that is neither one value nor one per channel.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"ops.prelu: input must be a Tensor, got {type(input).__name__}")
    if not isinstance(weight, Tensor):
        raise TypeError(f"ops.prelu: weight must be a Tensor, got {type(weight).__name__}")
    x = input
    for arg, t in (('input', x), ('weight', weight)):
        if t._data.dtype.kind not in 'fV':
            raise TypeError(f"ops.prelu: {arg} must be a floating tensor, got {t.dtype}")
    w = cast(weight, x.dtype) if weight.dtype != x.dtype else weight
    channels = x.shape[1] if x.ndim > 1 else 1
    if w.size != 1 and (w.ndim != 1 or w.shape[0] != channels):
        raise ValueError(f"ops.prelu: weight must hold 1 value or {channels} (one per channel "
                         f"of an input of shape {x.shape}), got shape {w.shape}")
    if x.ndim > 1:
        w = reshape(w, (-1,) + (1,) * (x.ndim - 2))
    elif w.ndim != x.ndim:
        w = reshape(w, (1,) * x.ndim)
    return where(gt(x, 0.0), x, x * w)


def softsign(x):
    """``x / (1 + |x|)``."""
    t = _tensor(x, 'softsign')
    return t / (_abs(t) + 1.0)


def softmin(x, axis=-1, *, dtype=None):
    """``softmax(-x)`` along ``axis``; ``dtype`` casts the input first."""
    t = x if dtype is None else cast(x, dtype)
    return softmax(-_tensor(t, 'softmin'), axis)


def hardtanh(input, min_val=-1.0, max_val=1.0):
    """``min(max(x, min_val), max_val)``; the gradient passes inside [min_val, max_val].

    Raises:
        TypeError: for non-number bounds.
    """
    x = _tensor(input, 'hardtanh')
    low = _real(min_val, 'hardtanh', 'min_val')
    high = _real(max_val, 'hardtanh', 'max_val')
    if low > high:          # MindSpore's result for crossed bounds: max_val everywhere
        return minimum(maximum(x, low), high)
    return clamp(x, low, high)


def logsigmoid(x):
    """``log(sigmoid(x)) = -softplus(-x)``, without overflow."""
    return -softplus(-_tensor(x, 'logsigmoid'))


def hardshrink(input, lambd=0.5):
    """``x`` where ``|x| > lambd``, 0 elsewhere."""
    x = _tensor(input, 'hardshrink')
    lambd = _real(lambd, 'hardshrink', 'lambd')
    return where(gt(_abs(x), lambd), x, 0.0)


def softshrink(input, lambd=0.5):
    """``x - lambd`` above lambd, ``x + lambd`` below -lambd, 0 between.

    Raises:
        ValueError: for a negative ``lambd``.
    """
    x = _tensor(input, 'softshrink')
    lambd = _real(lambd, 'softshrink', 'lambd')
    if lambd < 0:
        raise ValueError(f"ops.softshrink: lambd must be >= 0, got {lambd}")
    return x - clamp(x, -lambd, lambd)


def tanhshrink(input):
    """``x - tanh(x)``."""
    x = _tensor(input, 'tanhshrink')
    return x - tanh(x)


def threshold(input, thr, value):
    """``x`` where ``x > thr``, ``value`` elsewhere."""
    x = _tensor(input, 'threshold')
    thr = _real(thr, 'threshold', 'thr')
    value = _real(value, 'threshold', 'value')
    return where(gt(x, thr), x, exact(value, x))    # MindSpore keeps the value's every digit


def glu(x, axis=-1):
    """Gated linear unit: ``a * sigmoid(b)`` with ``a, b`` the two halves of ``x`` along
    ``axis``.

    Raises:
        ValueError: when the size of ``axis`` is odd.
    """
    t = _tensor(x, 'glu')
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral) or \
            not -t.ndim <= axis < t.ndim:
        raise ValueError(f"ops.glu: axis must be an int in [{-t.ndim}, {t.ndim}), got {axis!r}")
    if t.shape[axis] % 2:
        raise ValueError(f"ops.glu: the size of axis {axis} must be even, got shape {t.shape}")
    a, b = split(t, t.shape[axis] // 2, axis)
    return a * sigmoid(b)


@exact_constants
def fast_gelu(x):
    """MindSpore's fast GeLU ``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``, which is
    ``x * sigmoid(1.702 x)``."""
    t = _tensor(x, 'fast_gelu')
    return t * sigmoid(t * _FAST_GELU)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    """Randomized leaky ReLU: each negative element is multiplied by a slope drawn uniformly
    from [lower, upper) at every call (MindSpore draws them in training and evaluation alike).

    Raises:
        TypeError: for non-number bounds or a non-Tensor input.
        ValueError: when ``lower > upper``.
    """
    lower = _real(lower, 'rrelu', 'lower')
    upper = _real(upper, 'rrelu', 'upper')
    if lower > upper:
        raise ValueError(f"ops.rrelu: upper must be >= lower, got upper={upper}, "
                         f"lower={lower}")
    x = _tensor(input, 'rrelu')
    from .sampling import rand
    u = rand(*x.shape, dtype=x.dtype) if x.ndim else reshape(rand(1, dtype=x.dtype), ())
    u = Tensor._wrap(backend.to_device(u._data, backend.device_of(x._data)))  # on x's device
    slopes = u * (upper - lower) + lower
    return where(gt(x, 0.0), x, x * slopes)
