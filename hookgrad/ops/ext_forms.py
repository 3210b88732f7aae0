"""MindSpore's ``ops`` functions that give another op's behaviour under another signature:
the mint-style ``*_ext`` forms (``baddbmm_ext``, ``diff_ext``...), the fused add-then-normalize
ops ``add_layer_norm`` and ``add_rms_norm``, and the older ``intopk``, ``shuffle``, ``bidense``,
``padding`` and ``tensor_muls``. Each is built on the op family that holds the computation.
"""
import numbers

from .._dtype import float16, float32, float64, int32
from .._tensor import Tensor
from .arithmetic import add, cast, mul, square, sub
from .comparison import gt, isfinite, isnan, lt, logical_and, ge
from .creation import zeros
from .distributions import randperm
from .elementwise import float_power
from .indexing import gather, where
from .layer_forms import rms_norm
from .linalg import matmul
from .normalization import layer_norm
from .pooling import adaptive_avg_pool2d
from .products import baddbmm, einsum
from .reduction import all as _all, mean, sum as _sum
from .sampling import rand_like
from .scatter_gather import gather_elements
from .shaping import concat, expand_dims, reshape, transpose
from .statistics import diff
from .unary import rsqrt

__all__ = ['adaptive_avg_pool2d_ext', 'baddbmm_ext', 'bernoulli_ext', 'diff_ext', 'einsum_ext',
           'float_power_ext', 'isnan_ext', 'add_layer_norm', 'add_rms_norm', 'intopk',
           'shuffle', 'bidense', 'padding', 'tensor_muls']

_FLOATING = (float16, float32, float64)


def _tensor(value, name, arg):
    if not isinstance(value, Tensor):
        raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(value).__name__}")
    return value


def _int(value, name, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{name}: {arg} must be an int, got {value!r}")
    return int(value)


# ------------------------------------------------------------------------------ ext forms
def adaptive_avg_pool2d_ext(input, output_size):
    """Adaptive 2-D average pooling of (C, H, W) or (N, C, H, W) to ``output_size`` (an int
    or an (H, W) pair, None keeping that size): ``ops.adaptive_avg_pool2d``."""
    return adaptive_avg_pool2d(input, output_size)


def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` over a batch: ``ops.baddbmm`` with
    beta and alpha keyword-only."""
    return baddbmm(input, batch1, batch2, beta, alpha)


def generator_seed(generator):
    """A seed drawn from ``generator`` (a ``mindspore.Generator``, so its state advances and a
    re-seeded one repeats its draws); None for None, leaving the op its global draw."""
    return None if generator is None else int(generator._generator().integers(2 ** 31))


def bernoulli_ext(input, *, generator=None):
    """0/1 draws of input's shape and dtype, 1 with the probability held in each element.

    Raises:
        TypeError: for a non-floating input.
    """
    x = _tensor(input, 'bernoulli_ext', 'input')
    if x.dtype not in _FLOATING:
        raise TypeError(f"ops.bernoulli_ext: input must be float16, float32 or float64, got "
                        f"{x.dtype}")
    u = rand_like(x, generator_seed(generator))
    return cast(lt(u, x), x.dtype)


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim`` (``prepend`` / ``append`` joined there
    first): ``ops.diff`` with torch's argument names."""
    return diff(input, n, dim, prepend, append)


def einsum_ext(equation, *operands):
    """Einstein summation of ``operands`` by ``equation``: ``ops.einsum``."""
    return einsum(equation, *operands)


def float_power_ext(input, exponent):
    """``input ** exponent`` computed and returned in Float64.

    Raises:
        TypeError: when neither argument is a Tensor.
    """
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError(f"ops.float_power_ext: at least one of input and exponent must be a "
                        f"Tensor, got {type(input).__name__} and {type(exponent).__name__}")
    return float_power(input, exponent)


def isnan_ext(tensor):
    """Whether each element is NaN (False throughout for integer and bool Tensors)."""
    return isnan(tensor)


# ------------------------------------------------------------------------------ add + norm
def _summed(x1, x2, name):
    x1 = _tensor(x1, name, 'x1')
    x2 = _tensor(x2, name, 'x2')
    if x1.shape != x2.shape:
        raise ValueError(f"ops.{name}: x1 and x2 must have the same shape, got {x1.shape} and "
                         f"{x2.shape}")
    return add(x1, x2)


def add_layer_norm(x1, x2, gamma, beta, epsilon=1e-5, additional_output=False):
    """``x = x1 + x2`` layer-normalized over the trailing axes gamma spans:
    ``(y, mean, rstd, x)`` with ``y = (x - mean) * rstd * gamma + beta`` and
    ``rstd = 1 / sqrt(var + epsilon)`` (biased variance); mean and rstd keep the normalized
    axes as size 1. x is returned whatever ``additional_output`` says.

    Raises:
        TypeError: for non-Tensor inputs or a non-bool additional_output.
        ValueError: for x1 and x2 of different shapes, or x not ending with gamma's shape.
    """
    name = 'add_layer_norm'
    if not isinstance(additional_output, bool):
        raise TypeError(f"ops.{name}: additional_output must be a bool, got "
                        f"{additional_output!r}")
    x = _summed(x1, x2, name)
    gamma = _tensor(gamma, name, 'gamma')
    _tensor(beta, name, 'beta')
    k = gamma.ndim
    if k > x.ndim or x.shape[x.ndim - k:] != gamma.shape:
        raise ValueError(f"ops.{name}: x1 of shape {x.shape} must end with gamma's shape "
                         f"{gamma.shape}")
    y = layer_norm(x, gamma.shape, gamma, beta, epsilon)
    axes = tuple(range(x.ndim - k, x.ndim))
    mu = mean(x, axes, True)
    rstd = rsqrt(add(mean(square(sub(x, mu)), axes, True), epsilon))
    return y, mu, rstd, x


def add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    """``x = x1 + x2`` RMS-normalized over the trailing axes gamma spans: ``(y, rstd, x)``
    with ``y = x * rstd * gamma``, ``rstd = 1 / sqrt(mean(x^2) + epsilon)`` (Float32, those
    axes kept as size 1), as ``ops.rms_norm`` gives.

    Raises:
        TypeError: for non-Tensor or non-floating inputs.
        ValueError: for x1 and x2 of different shapes, epsilon outside (0, 1], or gamma with
            more axes than x1.
    """
    x = _summed(x1, x2, 'add_rms_norm')
    y, rstd = rms_norm(x, gamma, epsilon)
    return y, rstd, x


# ------------------------------------------------------------------------------ older forms
def intopk(x1, x2, k):
    """Bool (N,): whether class ``x2[i]`` is among the top ``k`` scores of row ``x1[i]``.

    Ties count for the target: it is in the top k when fewer than k scores of its row are
    greater. A row holding a non-finite score, or a target index outside the row, gives
    False; so does k <= 0.

    Raises:
        TypeError: for x1 not float16/float32, x2 not an integer Tensor, or a non-int k.
        ValueError: for x1 not 2-D, x2 not 1-D, or x2's length not x1's row count.
    """
    name = 'intopk'
    x1 = _tensor(x1, name, 'x1')
    x2 = _tensor(x2, name, 'x2')
    k = _int(k, name, 'k')
    if x1.dtype not in (float16, float32):
        raise TypeError(f"ops.{name}: x1 must be float16 or float32, got {x1.dtype}")
    if not x2.dtype.is_integer:
        raise TypeError(f"ops.{name}: x2 must be an integer Tensor, got {x2.dtype}")
    if x1.ndim != 2:
        raise ValueError(f"ops.{name}: x1 must be 2-D, got shape {x1.shape}")
    if x2.ndim != 1 or x2.shape[0] != x1.shape[0]:
        raise ValueError(f"ops.{name}: x2 must be 1-D with x1's {x1.shape[0]} rows, got shape "
                         f"{x2.shape}")
    inside = logical_and(ge(x2, 0), lt(x2, x1.shape[1]))
    column = expand_dims(where(inside, x2, zeros((), x2.dtype)), 1)
    target = gather_elements(x1, 1, column)
    greater = _sum(cast(gt(x1, target), int32), 1)
    ok = logical_and(inside, _all(isfinite(x1), 1))
    return logical_and(ok, lt(greater, k))


def shuffle(x, seed=None):
    """x with its first axis randomly permuted; a 0-d x is returned as it is.

    ``seed`` None (or 0) draws from the global generator, which ``set_seed`` seeds; another
    int seeds a generator of its own, so each call with it gives the same permutation.

    Raises:
        TypeError: for a non-Tensor x or a non-int seed.
        ValueError: for a negative seed.
    """
    x = _tensor(x, 'shuffle', 'x')
    if seed is not None:
        seed = _int(seed, 'shuffle', 'seed')
        if seed < 0:
            raise ValueError(f"ops.shuffle: seed must be None or an int >= 0, got {seed}")
    if x.ndim == 0:
        return x
    return gather(x, randperm(x.shape[0], seed or 0), 0)


def bidense(input1, input2, weight, bias=None):
    """Bilinear map ``y_o = sum_ij input1_i * weight[o, i, j] * input2_j + bias_o`` over the
    last axes of the inputs (their other axes equal).

    Args:
        input1, input2: Tensors (..., in1) and (..., in2).
        weight: (out, in1, in2). bias: (out,) or 0-d, or None.

    Raises:
        TypeError: for a non-Tensor argument.
        ValueError: for inputs whose leading axes differ, or a weight or bias that does not
            fit them.
    """
    name = 'bidense'
    input1 = _tensor(input1, name, 'input1')
    input2 = _tensor(input2, name, 'input2')
    weight = _tensor(weight, name, 'weight')
    if input1.shape[:-1] != input2.shape[:-1]:
        raise ValueError(f"ops.{name}: the axes but the last of input1 {input1.shape} and "
                         f"input2 {input2.shape} must be the same")
    n1, n2 = input1.shape[-1], input2.shape[-1]
    if weight.ndim != 3 or weight.shape[1:] != (n1, n2):
        raise ValueError(f"ops.{name}: weight must have shape (out_channels, {n1}, {n2}), got "
                         f"{weight.shape}")
    out = weight.shape[0]
    if bias is not None and _tensor(bias, name, 'bias').shape not in ((out,), ()):
        raise ValueError(f"ops.{name}: bias must have shape ({out},) or (), got {bias.shape}")
    lead = input1.shape[:-1]
    x1 = reshape(input1, (-1, n1))
    x2 = reshape(input2, (-1, n2))
    w = reshape(transpose(weight, (1, 2, 0)), (n1, -1))
    y = reshape(matmul(x1, w), (-1, n2, out))
    y = _sum(mul(y, expand_dims(x2, 2)), 1)
    if bias is not None:
        y = add(y, bias)
    return reshape(y, lead + (out,))


def padding(x, pad_dim_size=8):
    """x, whose last axis has size 1, with that axis zero-filled to ``pad_dim_size``.

    Raises:
        TypeError: for a non-Tensor x or a non-int pad_dim_size.
        ValueError: for x of rank < 2, a last axis not 1, or pad_dim_size < 1.
    """
    x = _tensor(x, 'padding', 'x')
    size = _int(pad_dim_size, 'padding', 'pad_dim_size')
    if size < 1:
        raise ValueError(f"ops.padding: pad_dim_size must be > 0, got {size}")
    if x.ndim < 2:
        raise ValueError(f"ops.padding: x must have rank >= 2, got shape {x.shape}")
    if x.shape[-1] != 1:
        raise ValueError(f"ops.padding: the last axis of x must be 1, got shape {x.shape}")
    if size == 1:
        return x
    return concat((x, zeros(x.shape[:-1] + (size - 1,), x.dtype)), -1)


def tensor_muls(input, other):
    """``input * other`` for a Python number ``other`` (an int Tensor times a float gives
    Float32).

    Raises:
        TypeError: for a non-Tensor input or an ``other`` that is not a number.
    """
    input = _tensor(input, 'tensor_muls', 'input')
    if isinstance(other, Tensor) or not isinstance(other, numbers.Number):
        raise TypeError(f"ops.tensor_muls: other must be a Python number, got "
                        f"{type(other).__name__}")
    return mul(input, other)
