"""Special-function layers of MindSpore's ``nn.layer.math`` (LGamma, DiGamma, IGamma, LBeta)
and its ``nn.L1Regularizer``.

Each computes MindSpore's own approximation with ``hookgrad.ops`` (the Lanczos series with
g = 7 for log-gamma and digamma, the power series / continued fraction for the regularized
lower incomplete gamma, the Stirling corrections for log-beta), so values agree with
MindSpore's to float32 rounding and gradients come from autograd.
"""
import math
import numbers

import numpy as np

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ..cell import Cell

__all__ = ['LGamma', 'DiGamma', 'IGamma', 'LBeta', 'L1Regularizer']

_LANCZOS_GAMMA = 7
_BASE_LANCZOS_COEFF = 0.99999999999980993227684700473478
_LANCZOS_COEFFICIENTS = (676.520368121885098567009190444019, -1259.13921672240287047156078755283,
                         771.3234287776530788486528258894, -176.61502916214059906584551354,
                         12.507343278686904814458936853, -0.13857109526572011689554707,
                         9.984369578019570859563e-6, 1.50563273514931155834e-7)
_HALF_PLUS_GAMMA = _LANCZOS_GAMMA + 0.5
_LOG_HALF_PLUS_GAMMA = math.log(_HALF_PLUS_GAMMA)
_F32_EPS = float(np.finfo(np.float32).eps)
_LOG_F32_MAX = float(np.log(np.finfo(np.float32).max))


def _check_dtype(cell, arg, x, allowed):
    if not isinstance(x, Tensor):
        raise TypeError(f"nn.{cell}: {arg} must be a Tensor, got {type(x).__name__}")
    if x.dtype not in allowed:
        names = ', '.join(str(d) for d in allowed)
        raise TypeError(f"nn.{cell}: {arg} must be of dtype {names}, got {x.dtype}")


def _lanczos_z(x):
    """``z`` of the Lanczos series: ``-x`` where x < 0.5 (reflected), else ``x - 1``."""
    reflect = ops.lt(x, 0.5)
    return reflect, ops.where(reflect, -x, x - 1)


def _log_t(z):
    return ops.log1p(z / _HALF_PLUS_GAMMA) + _LOG_HALF_PLUS_GAMMA


def _lgamma(x):
    reflect, z = _lanczos_z(x)
    series = _BASE_LANCZOS_COEFF
    for i, c in enumerate(_LANCZOS_COEFFICIENTS):
        series = c / (z + (i + 1)) + series
    t = z + _HALF_PLUS_GAMMA
    log_t = _log_t(z)
    log_y = ops.log(series) + (z + 0.5 - t / log_t) * log_t + 0.5 * math.log(2 * math.pi)
    abs_x = ops.abs(x)
    frac = abs_x - ops.floor(abs_x)
    pole = ops.logical_and(ops.le(x, 0.0), ops.eq(frac, 0.0))    # 0, -1, -2...: +inf
    reduced = ops.where(ops.gt(frac, 0.5), 1 - frac, frac)
    whole = ops.eq(reduced, 0.0)                        # log(sin(0)): the reflection is +inf
    denom = ops.log(ops.sin(math.pi * ops.where(whole, 0.5, reduced)))
    reflection = ops.where(whole, math.inf, -denom - log_y + math.log(math.pi))
    result = ops.where(reflect, reflection, log_y)
    finite = ops.logical_and(ops.isfinite(x), ops.logical_not(pole))
    return ops.where(finite, result, ops.full_like(x, math.inf))


class LGamma(Cell):
    """Element-wise ``log |Gamma(x)|`` (+inf at 0, -1, -2... and at +-inf).

    Raises:
        TypeError: for an input that is not a Float16 or Float32 Tensor.
    """

    def construct(self, x):
        _check_dtype('LGamma', 'x', x, (_dtype.float16, _dtype.float32))
        return _lgamma(x)


class DiGamma(Cell):
    """Element-wise digamma ``d/dx log Gamma(x)`` (NaN at -1, -2...; -inf at 0).

    Raises:
        TypeError: for an input that is not a Float16 or Float32 Tensor.
    """

    def construct(self, x):
        _check_dtype('DiGamma', 'x', x, (_dtype.float16, _dtype.float32))
        reflect, z = _lanczos_z(x)
        num, denom = 0, _BASE_LANCZOS_COEFF
        for i, c in enumerate(_LANCZOS_COEFFICIENTS):
            j = z + (i + 1)
            num = num - c / (j * j)
            denom = denom + c / j
        y = _log_t(z) + num / denom - _LANCZOS_GAMMA / (z + _HALF_PLUS_GAMMA)
        reduced = x + ops.abs(ops.floor(x + 0.5))
        sin = ops.sin(math.pi * reduced)
        at_zero = ops.eq(sin, 0.0)                      # x = 0: -inf
        reflection = ops.where(at_zero, -math.inf, y - math.pi * ops.cos(math.pi * reduced)
                               / ops.where(at_zero, 1.0, sin))
        result = ops.where(reflect, reflection, y)
        pole = ops.logical_and(ops.lt(x, 0), ops.eq(x, ops.floor(x)))
        return ops.where(pole, ops.full_like(x, math.nan), result)


def _igamma_series(ax, x, a, enabled):
    """``P(a, x)`` by its power series, iterated while any enabled element still changes."""
    r, c, ans = a, ops.ones_like(a), ops.ones_like(a)
    while bool(enabled.asnumpy().any()):
        r_new = r + 1
        c_new = c * (x / r_new)
        ans_new = ans + c_new
        more = ops.logical_and(enabled, ops.gt(c_new / ans_new, _F32_EPS))
        r = ops.where(enabled, r_new, r)
        c = ops.where(enabled, c_new, c)
        ans = ops.where(enabled, ans_new, ans)
        enabled = more
    return ans * ax / a


def _igammac_continued_fraction(ax, x, a, enabled):
    """``Q(a, x)`` by its continued fraction (at most 2000 steps), iterated as MindSpore
    does: while the fraction or its derivative in ``a`` still changes."""
    y = 1 - a
    z = x + y + 1
    c = ops.zeros_like(x)
    pkm2, qkm2 = ops.ones_like(x), x
    pkm1, qkm1 = x + 1, z * x
    ans = pkm1 / qkm1
    dpkm2, dqkm2, dpkm1, dqkm1 = ops.zeros_like(x), ops.zeros_like(x), ops.zeros_like(x), -x
    dans = (dpkm1 - ans * dqkm1) / qkm1
    while bool(ops.logical_and(ops.lt(c, 2000), enabled).asnumpy().any()):
        c = c + 1
        y_new, z_new = y + 1, z + 2
        yc = y_new * c
        pk = pkm1 * z_new - pkm2 * yc
        qk = qkm1 * z_new - qkm2 * yc
        nonzero = ops.ne(qk, 0)
        ans_new = ops.where(nonzero, pk / ops.where(nonzero, qk, 1.0), ans)
        dpk = dpkm1 * z_new - pkm1 - dpkm2 * yc + pkm2 * c
        dqk = dqkm1 * z_new - qkm1 - dqkm2 * yc + qkm2 * c
        dans_new = ops.where(nonzero, (dpk - ans_new * dqk) / ops.where(nonzero, qk, 1.0), dans)
        change = ops.where(nonzero, ops.abs(dans_new - dans), ops.ones_like(dans))
        rescale = ops.gt(ops.abs(pk), 1 / _F32_EPS)
        scaled = [ops.where(rescale, v * _F32_EPS, v) for v in (pkm1, pk, qkm1, qk,
                                                                 dpkm1, dpk, dqkm1, dqk)]
        keep = [pkm2, pkm1, qkm2, qkm1, dpkm2, dpkm1, dqkm2, dqkm1]
        new = [ops.where(enabled, s, k) for s, k in zip(scaled, keep)]
        pkm2, pkm1, qkm2, qkm1, dpkm2, dpkm1, dqkm2, dqkm1 = new
        ans = ops.where(enabled, ans_new, ans)
        dans = ops.where(enabled, dans_new, dans)
        y = ops.where(enabled, y_new, y)
        z = ops.where(enabled, z_new, z)
        enabled = ops.logical_and(enabled, ops.gt(change, _F32_EPS))
    return ans * ax


class IGamma(Cell):
    """The regularized lower incomplete gamma ``P(a, x)``, element-wise over broadcast a, x.

    NaN where a < 0 or x < 0; 0 where x = 0.

    Raises:
        TypeError: for a or x that is not a Float32 Tensor.
    """

    def construct(self, a, x):
        _check_dtype('IGamma', 'a', a, (_dtype.float32,))
        _check_dtype('IGamma', 'x', x, (_dtype.float32,))
        shape = np.broadcast_shapes(a.shape, x.shape)
        a, x = ops.broadcast_to(a, shape), ops.broadcast_to(x, shape)
        domain_error = ops.logical_or(ops.lt(x, 0), ops.lt(a, 0))
        use_igammac = ops.logical_and(ops.gt(x, 1), ops.gt(x, a))
        x_is_zero = ops.eq(x, 0)
        # 0 and the domain errors have fixed results: 1 stands in for them, so that no
        # infinite or NaN intermediate reaches the gradient
        off = ops.logical_or(x_is_zero, domain_error)
        safe_x = ops.where(off, 1.0, x)
        safe_a = ops.where(off, 1.0, a)
        ax = safe_a * ops.log(safe_x) - safe_x - _lgamma(safe_a)
        underflow = ops.lt(ax, -_LOG_F32_MAX)
        ax = ops.exp(ax)
        enabled = ops.logical_not(ops.logical_or(off, underflow))
        a = safe_a
        upper = _igammac_continued_fraction(ax, safe_x, a, ops.logical_and(enabled, use_igammac))
        lower = _igamma_series(ax, safe_x, a,
                               ops.logical_and(enabled, ops.logical_not(use_igammac)))
        out = ops.where(use_igammac, 1 - upper, lower)
        out = ops.where(x_is_zero, ops.zeros_like(out), out)
        return ops.where(domain_error, ops.full_like(out, math.nan), out)


_STIRLING = (-0.165322962780713e-02, 0.837308034031215e-03, -0.595202931351870e-03,
             0.793650666825390e-03, -0.277777777760991e-02, 0.833333333333333e-01)


def _log_gamma_correction(x):
    """The Stirling series' remainder of log Gamma(x), for x >= 8."""
    inv = 1. / x
    inv2 = inv * inv
    accum = _STIRLING[0]
    for c in _STIRLING[1:]:
        accum = accum * inv2 + c
    return accum * inv


class LBeta(Cell):
    """Element-wise ``log |Beta(x, y)|`` = ``lgamma(x) + lgamma(y) - lgamma(x + y)``, with
    Stirling corrections where an argument is >= 8, which keep it accurate for large ones.

    Raises:
        TypeError: for an x that is not a Float16 or Float32 Tensor, or a y of another dtype.
    """

    def construct(self, x, y):
        _check_dtype('LBeta', 'x', x, (_dtype.float16, _dtype.float32))
        _check_dtype('LBeta', 'y', y, (x.dtype,))
        x_plus_y = x + y
        x = ops.broadcast_to(x, x_plus_y.shape)
        y = ops.broadcast_to(y, x_plus_y.shape)
        less = ops.lt(x, y)
        small, large = ops.where(less, x, y), ops.where(less, y, x)
        corr_small = _log_gamma_correction(small)
        corr_large = _log_gamma_correction(large)
        corr_sum = _log_gamma_correction(x_plus_y)
        two_large = (0.5 * math.log(2 * math.pi) - 0.5 * ops.log(large) + corr_small
                     + corr_large - corr_sum + (small - 0.5) * ops.log(small / (small + large))
                     - large * ops.log1p(small / large))
        stirling = -(small + large - 0.5) * ops.log1p(small / large) - small * ops.log(large) \
            + small
        one_large = _lgamma(small) + (corr_large - corr_sum) + stirling
        both_small = _lgamma(small) + _lgamma(large) - _lgamma(small + large)
        return ops.where(ops.lt(small, 8), ops.where(ops.lt(large, 8), both_small, one_large),
                         two_large)


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``, the L1 penalty of a weight Tensor, as a Float32 scalar.

    Args:
        scale: a positive finite int or float.

    Raises:
        TypeError: for a non-number ``scale``, or weights that are not a numeric Tensor.
        ValueError: for a ``scale`` <= 0, inf or NaN.
    """

    def __init__(self, scale):
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, numbers.Real):
            raise TypeError(f"nn.L1Regularizer: scale must be an int or float, got "
                            f"{type(scale).__name__}")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"nn.L1Regularizer: scale can not be inf or nan, got {scale}")
        if scale <= 0:
            raise ValueError(f"nn.L1Regularizer: scale must be greater than 0, got {scale}")
        self.scale = Tensor(scale, _dtype.float32)

    def construct(self, weights):
        if not isinstance(weights, Tensor) or weights.dtype == _dtype.bool_:
            got = weights.dtype if isinstance(weights, Tensor) else type(weights).__name__
            raise TypeError(f"nn.L1Regularizer: weights must be a numeric Tensor, got {got}")
        return self.scale * ops.sum(ops.abs(weights))
