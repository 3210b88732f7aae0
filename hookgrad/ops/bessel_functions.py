"""MindSpore's ``bessel_*`` family: J0, J1, Y0, Y1, the exponentially scaled I0e and I1e, and
K0, K1 with their scaled forms K0e, K1e (``bessel_i0`` and ``bessel_i1`` are the ops of
``bessel.py``).

Every function computes in float64 and rounds to the input's type (Float16, Float32 or
Float64). Small arguments use the power series (DLMF 10.2.2, 10.8.1, 10.25.2, 10.31.1), large
ones (``|x| >= 16`` for I and K, ``|x| >= 12.5`` for J and Y) Hankel's asymptotic expansions
(DLMF 10.17.3, 10.40.1, 10.40.2), whose smallest term there is about ``exp(-2 |x|)``; K
between 2 and 16 is the trapezoidal rule on ``K_n(x) e^x = int_0^inf exp(-x (cosh t - 1))
cosh(n t) dt``, which converges geometrically. J and Y are exact to about 1e-11 absolute near
12.5, where the series' cancellation and the expansion's error meet, and closer elsewhere.
Values where MindSpore 2.10 defines them outside the functions' domain: Y0 and Y1 are -inf for
negative arguments (Y1(0) is NaN), K0, K1, K0e and K1e are +inf.

Each derivative is written with the family's ops, so gradients of every order exist:
``J0' = -J1``, ``J1' = J0 - J1 / x``, ``Y0' = -Y1``, ``Y1' = Y0 - Y1 / x``,
``I0e' = I1e - sign(x) I0e``, ``I1e' = I0e - I1e (sign(x) + 1 / x)``, ``K0' = -K1``,
``K1' = -K0 - K1 / x``, ``K0e' = K0e - K1e``, ``K1e' = K1e (1 - 1 / x) - K0e``
(``J1'(0) = I1e'(0) = 1/2``).
"""
import math

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op, apply1
from ..autograd.math import array_math
from ..kernels.backend import array_module
from .bessel import BesselI1, _I0_TYPES, i0

_EULER = 0.5772156649015329
_LARGE = 16.0            # I and K: from here on the asymptotic expansions
_LARGE_JY = 12.5         # J and Y: there the series' cancellation and the expansion's error
                         # balance, at about 1e-11 absolute
_K_SERIES = 2.0          # K's power series up to here, the integral beyond
_SERIES_TERMS = 40
_HANKEL_TERMS = 30
_K_STEP = 0.1            # trapezoidal nodes of K's integral: t = 0, 0.1, ..., 4.0
_K_NODES = 41


def _hankel(n):
    """a_k(n) of DLMF 10.17.1: prod_{j<=k} (4 n^2 - (2j - 1)^2) / (k! 8^k)."""
    coeffs, a = [1.0], 1.0
    for k in range(1, _HANKEL_TERMS):
        a *= (4 * n * n - (2 * k - 1) ** 2) / (k * 8.0)
        coeffs.append(a)
    return coeffs


_HANKEL = (_hankel(0), _hankel(1))
# harmonic numbers H_0, H_1, ...
_HARMONIC = [sum(1.0 / j for j in range(1, k + 1)) for k in range(_SERIES_TERMS + 2)]


def _series(x, n, alternate, digamma=False):
    """sum_k s^k c_k (x/2)^(2k+n) / (k! (k+n)!), s = -1 when ``alternate``; with ``digamma``,
    c_k = psi(k+1) + psi(k+n+1) (with psi(k+1) = H_k - gamma), else 1."""
    q = x * x / 4
    term = (x / 2) ** n / math.factorial(n)
    total = term * ((_HARMONIC[0] + _HARMONIC[n] - 2 * _EULER) if digamma else 1.0)
    for k in range(1, _SERIES_TERMS):
        term = term * q / (k * (k + n))
        if alternate:
            term = -term
        c = (_HARMONIC[k] + _HARMONIC[k + n] - 2 * _EULER) if digamma else 1.0
        total = total + term * c
    return total


def _inverse_powers(x, coeffs, signs):
    """sum_k signs(k) coeffs[k] / x^k, by Horner's rule."""
    inv = 1.0 / x
    total = 0.0
    for k in range(len(coeffs) - 1, -1, -1):
        total = total * inv + signs(k) * coeffs[k]
    return total


def _hankel_jy(x, n):
    """(J_n, Y_n) for x >= _LARGE_JY."""
    a = _HANKEL[n]
    inv2 = 1.0 / (x * x)
    p = q = 0.0
    for k in range(len(a) // 2 - 1, -1, -1):
        p = p * inv2 + (-1) ** k * a[2 * k]
        q = q * inv2 + (-1) ** k * a[2 * k + 1]
    q = q / x
    omega = x - (n / 2 + 0.25) * math.pi
    scale = (2.0 / (math.pi * x)) ** 0.5
    c, s = np.cos(omega), np.sin(omega)
    return scale * (p * c - q * s), scale * (p * s + q * c)


def _j(xp, ax, n):
    """J_n(|x|) in float64."""
    small = xp.minimum(ax, _LARGE_JY)
    large = xp.maximum(ax, _LARGE_JY)
    return xp.where(ax < _LARGE_JY, _series(small, n, True), _hankel_jy(large, n)[0])


def _y(xp, x, n):
    """Y_n(x) in float64, -inf for x < 0."""
    small = xp.clip(x, 0.0, _LARGE_JY)
    log_half = xp.log(small / 2)
    j = _series(small, n, True)
    if n == 0:
        near = (2 / math.pi) * ((log_half + _EULER) * j + _y0_sum(small))
    else:
        near = (-2 / math.pi) / small + (2 / math.pi) * log_half * j \
            - _series(small, 1, True, digamma=True) / math.pi
    far = _hankel_jy(xp.maximum(x, _LARGE_JY), n)[1]
    y = xp.where(x < _LARGE_JY, near, far)
    return xp.where(x < 0, -math.inf, y)


def _y0_sum(x):
    """sum_{k>=1} (-1)^(k+1) H_k (x^2/4)^k / (k!)^2 (DLMF 10.8.2)."""
    q = x * x / 4
    term = 1.0
    total = 0.0
    for k in range(1, _SERIES_TERMS):
        term = -term * q / (k * k)
        total = total - term * _HARMONIC[k]
    return total


def _i_scaled(xp, ax, n):
    """I_n(|x|) exp(-|x|) in float64."""
    small = xp.minimum(ax, _LARGE)
    large = xp.maximum(ax, _LARGE)
    near = _series(small, n, False) * xp.exp(-small)
    far = _inverse_powers(large, _HANKEL[n], lambda k: (-1) ** k) / xp.sqrt(2 * math.pi * large)
    return xp.where(ax < _LARGE, near, far)


def _k_scaled(xp, x, n):
    """K_n(x) exp(x) in float64, +inf for x <= 0."""
    small = xp.clip(x, 0.0, _K_SERIES)
    log_half = xp.log(small / 2)
    if n == 0:
        near = -(log_half + _EULER) * _series(small, 0, False) + _k0_sum(small)
    else:
        near = 1 / small + log_half * _series(small, 1, False) \
            - _series(small, 1, False, digamma=True) / 2
    near = near * xp.exp(small)
    middle = xp.clip(x, _K_SERIES, _LARGE)
    integral = 0.0
    for j in range(_K_NODES):
        t = j * _K_STEP
        weight = _K_STEP / 2 if j in (0, _K_NODES - 1) else _K_STEP
        integral = integral + (weight * math.cosh(n * t)) * xp.exp(-middle * (math.cosh(t) - 1))
    large = xp.maximum(x, _LARGE)
    far = _inverse_powers(large, _HANKEL[n], lambda k: 1) * xp.sqrt(math.pi / (2 * large))
    k = xp.where(x <= _K_SERIES, near, xp.where(x < _LARGE, integral, far))
    return xp.where(x <= 0, math.inf, k)


def _k0_sum(x):
    """sum_{k>=1} H_k (x^2/4)^k / (k!)^2 (DLMF 10.31.2)."""
    q = x * x / 4
    term = 1.0
    total = 0.0
    for k in range(1, _SERIES_TERMS):
        term = term * q / (k * k)
        total = total + term * _HARMONIC[k]
    return total


def _odd(xp, x, y):
    return xp.where(x < 0, -y, y)


# name -> float64 values of float64 inputs
_FLOAT64 = {
    'j0': lambda xp, x: _j(xp, xp.abs(x), 0),
    'j1': lambda xp, x: _odd(xp, x, _j(xp, xp.abs(x), 1)),
    'y0': lambda xp, x: _y(xp, x, 0),
    'y1': lambda xp, x: _y(xp, x, 1),
    'i0e': lambda xp, x: _i_scaled(xp, xp.abs(x), 0),
    'i1e': lambda xp, x: _odd(xp, x, _i_scaled(xp, xp.abs(x), 1)),
    'k0e': lambda xp, x: _k_scaled(xp, x, 0),
    'k1e': lambda xp, x: _k_scaled(xp, x, 1),
    'k0': lambda xp, x: _k_scaled(xp, x, 0) * xp.exp(-x),
    'k1': lambda xp, x: _k_scaled(xp, x, 1) * xp.exp(-x),
}


def _array(kind, x):
    """The function ``kind`` of an array, computed in float64, in x's type."""
    xp = array_module(x)
    with np.errstate(all='ignore'):      # poles and the values outside the domain
        return _FLOAT64[kind](xp, x.astype(np.float64)).astype(x.dtype)


def _value(m, kind, x):
    """The function ``kind`` of an array (first-order rules) or a Tensor (recorded rules)."""
    if m is array_math:
        return _array(kind, x)
    return apply1(_OPS[kind], x)


def _reciprocal(m, x):
    zero = x == 0
    return zero, 1 / m.where(zero, m.ones_like(x), x)


def _slope(kind, m, x, y):
    """The derivative of ``kind`` at x (y is the value there)."""
    if kind == 'j0':
        return -_value(m, 'j1', x)
    if kind == 'j1':
        zero, inv = _reciprocal(m, x)
        return m.where(zero, m.ones_like(x) * 0.5, _value(m, 'j0', x) - y * inv)
    if kind == 'y0':
        return -_value(m, 'y1', x)
    if kind == 'y1':
        return _value(m, 'y0', x) - y / x
    if kind == 'i0e':
        return _value(m, 'i1e', x) - m.sign(x) * y
    if kind == 'i1e':
        zero, inv = _reciprocal(m, x)
        return m.where(zero, m.ones_like(x) * 0.5, _value(m, 'i0e', x) - y * (m.sign(x) + inv))
    if kind == 'k0':
        return -_value(m, 'k1', x)
    if kind == 'k1':
        return -_value(m, 'k0', x) - y / x
    if kind == 'k0e':
        return y - _value(m, 'k1e', x)
    return y * (1 - 1 / x) - _value(m, 'k0e', x)      # k1e


def _op(class_name, kind):
    """The Op class of the function ``kind``: y = f(x), dy/dx from ``_slope``."""
    def forward(ctx, x):
        y = _array(kind, x)
        ctx.save(x, y)
        return y

    def backward(ctx, gy):
        x, y = ctx.saved
        with np.errstate(all='ignore'):
            return gy * _slope(kind, ctx.m, x, y)

    return type(class_name, (Op,), {
        '__doc__': f"y = {kind}(x); dy/dx as in the module's docstring.",
        '__module__': __name__, '__qualname__': class_name,
        'forward': staticmethod(forward), 'backward': staticmethod(backward)})


_OPS = {kind: _op('Bessel' + kind.upper()[0] + kind[1:], kind) for kind in _FLOAT64}
BesselJ0, BesselJ1, BesselY0, BesselY1 = (_OPS[k] for k in ('j0', 'j1', 'y0', 'y1'))
BesselI0e, BesselI1e = _OPS['i0e'], _OPS['i1e']
BesselK0e, BesselK1e, BesselK0, BesselK1 = (_OPS[k] for k in ('k0e', 'k1e', 'k0', 'k1'))


def _apply(kind, x):
    name = f"bessel_{kind}"
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.{name}: x must be a Tensor, got {type(x).__name__}")
    if x._data.dtype not in _I0_TYPES:
        raise TypeError(f"ops.{name}: x must be a Float16, Float32 or Float64 tensor, got "
                        f"{x.dtype}")
    return apply1(_OPS[kind], x)


def bessel_i0(x):
    """Element-wise modified Bessel function of the first kind of order 0 (``ops.i0``)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.bessel_i0: x must be a Tensor, got {type(x).__name__}")
    return i0(x)


def bessel_i1(x):
    """Element-wise modified Bessel function of the first kind of order 1."""
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.bessel_i1: x must be a Tensor, got {type(x).__name__}")
    if x._data.dtype not in _I0_TYPES:
        raise TypeError(f"ops.bessel_i1: x must be a Float16, Float32 or Float64 tensor, got "
                        f"{x.dtype}")
    return apply1(BesselI1, x)


def bessel_i0e(x):
    """Element-wise ``I0(x) exp(-|x|)``, finite for every x."""
    return _apply('i0e', x)


def bessel_i1e(x):
    """Element-wise ``I1(x) exp(-|x|)``, finite for every x."""
    return _apply('i1e', x)


def bessel_j0(x):
    """Element-wise Bessel function of the first kind of order 0."""
    return _apply('j0', x)


def bessel_j1(x):
    """Element-wise Bessel function of the first kind of order 1."""
    return _apply('j1', x)


def bessel_y0(x):
    """Element-wise Bessel function of the second kind of order 0 (-inf for x <= 0)."""
    return _apply('y0', x)


def bessel_y1(x):
    """Element-wise Bessel function of the second kind of order 1 (-inf for x < 0)."""
    return _apply('y1', x)


def bessel_k0(x):
    """Element-wise modified Bessel function of the second kind of order 0 (inf for x <= 0)."""
    return _apply('k0', x)


def bessel_k0e(x):
    """Element-wise ``K0(x) exp(x)`` (inf for x <= 0)."""
    return _apply('k0e', x)


def bessel_k1(x):
    """Element-wise modified Bessel function of the second kind of order 1 (inf for x <= 0)."""
    return _apply('k1', x)


def bessel_k1e(x):
    """Element-wise ``K1(x) exp(x)`` (inf for x <= 0)."""
    return _apply('k1e', x)
