"""Special functions under MindSpore 2.10's ``ops`` names: lgamma, digamma, polygamma,
mvlgamma, erfinv, the regularized incomplete gamma functions igamma and igammac, and the
Hurwitz zeta function.

digamma, mvlgamma and erfinv are the Tensor methods (compositions of ops, so their gradients
come from the ops they apply). The others are ops of their own, computed in float64 with a fixed
number of terms and rounded to the input's type:

- ``lgamma`` by Lanczos (g = 7) above 1/2 and the reflection formula below; its derivative is
  ``digamma``.

- ``zeta(x, q)`` by Euler-Maclaurin summation (as Cephes): ``_ZETA_SHIFT`` terms summed
  directly, then the integral and ``_BERNOULLI`` correction terms; exact to about 1e-15.
  Outside its domain it gives MindSpore's values: +inf at x == 1 and at q a non-positive
  integer, NaN for x < 1. ``d zeta / dq = -x zeta(x + 1, q)``; no gradient flows to x (as
  MindSpore's).
- ``polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x)`` for n >= 1 (``digamma`` for n = 0);
  its derivative is ``polygamma(n + 1, x)``, so gradients of every order exist.
- ``igamma(a, x) = P(a, x)``, ``igammac(a, x) = Q(a, x) = 1 - P``: the power series below
  ``x = a + 1`` and Legendre's continued fraction (modified Lentz) above, each with a fixed
  number of terms (``_SERIES_TERMS``, ``_FRACTION_TERMS``) that reach double precision for
  ``a`` up to several hundred.
  ``dP/dx = x^(a-1) e^-x / Gamma(a)``; dP/da is the series and the fraction differentiated
  term by term, a first-order gradient only (its own derivative is not recorded, as for
  MindSpore's IgammaGradA).
"""
import math
import numbers

import numpy as np

from .._tensor import Tensor
from ._base import exact_constants
from ..autograd.function import Op, apply1, apply2
from ..autograd.math import array_math
from ..kernels.backend import array_module

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))

# ------------------------------------------------------------------------------ array kernels
_ZETA_SHIFT = 12
# (2j)! / B_2j for j = 1..12, Cephes' table for the Euler-Maclaurin correction
_BERNOULLI = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
              7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
              -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta_array(x, q):
    """The Hurwitz zeta function sum_k (q + k)^-x on float64 arrays (broadcast; q an array,
    x an array or a number)."""
    xp = array_module(q)
    x, q = xp.broadcast_arrays(xp.asarray(x, np.float64), xp.asarray(q, np.float64))
    with np.errstate(all='ignore'):
        k = xp.arange(_ZETA_SHIFT, dtype=np.float64)
        s = xp.sum(xp.power(q[..., None] + k, -x[..., None]), axis=-1)
        w = q + _ZETA_SHIFT
        b = xp.power(w, -x)
        s = s + b * w / (x - 1) + 0.5 * b
        a, j = xp.ones_like(x), 0.0
        for coeff in _BERNOULLI:
            a = a * (x + j)
            b = b / w
            s = s + a * b / coeff
            a = a * (x + j + 1)
            b = b / w
            j += 2
        pole = (x == 1) | ((q <= 0) & (q == xp.floor(q)))
        s = xp.where(x < 1, np.nan, s)
        s = xp.where(pole, np.inf, s)
        return xp.where((q < 0) & (x != xp.floor(x)) & ~pole, np.nan, s)


_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012,
            9.9843695780195716e-6, 1.5056327351493116e-7)


def _lgamma_positive(a):
    """log Gamma(a) for a > 0 on float64 arrays (Lanczos, g = 7: about 1e-15 relative)."""
    xp = array_module(a)
    z = a - 1
    series = _LANCZOS[0] + sum(c / (z + i) for i, c in enumerate(_LANCZOS[1:], 1))
    t = z + _LANCZOS_G + 0.5
    return 0.5 * math.log(2 * math.pi) + (z + 0.5) * xp.log(t) - t + xp.log(series)


def _lgamma_array(x):
    """log|Gamma(x)| on float64 arrays: Lanczos above 1/2, the reflection formula below, +inf
    at the poles 0, -1, -2..."""
    xp = array_module(x)
    with np.errstate(all='ignore'):
        small = x < 0.5
        lg = _lgamma_positive(xp.where(small, 1 - x, x))
        pole = small & (x == xp.floor(x))
        sine = xp.abs(xp.sin(math.pi * xp.where(pole, 0.25, x)))
        reflected = math.log(math.pi) - xp.log(sine) - lg
        return xp.where(pole, xp.inf, xp.where(small, reflected, lg))


class Lgamma(Op):
    """y = log|Gamma(x)|, computed in float64 and rounded once to x's type (as MindSpore's
    kernel: a float32 composition loses about 1e-6); dy/dx = digamma(x)."""
    @staticmethod
    def forward(ctx, x):
        ctx.save(x)
        return _round_to(_lgamma_array(x.astype(np.float64)), x.dtype)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        if ctx.m is array_math:
            return gy * Tensor._wrap(x).digamma()._data
        return gy * x.digamma()


_SERIES_TERMS = 400
_FRACTION_TERMS = 300
_TINY = 1e-300


def _igamma_array(a, x, upper, slope_a=False):
    """P(a, x) (or Q(a, x) with ``upper``) on float64 arrays (broadcast); with ``slope_a``,
    dP/da (dQ/da) instead, the series and the continued fraction differentiated term by term."""
    xp = array_module(a)
    a, x = xp.broadcast_arrays(xp.asarray(a, np.float64), xp.asarray(x, np.float64))
    with np.errstate(all='ignore'):
        valid = (a > 0) & (x >= 0)
        aa = xp.where(valid, a, 1.0)
        xx = xp.where(valid & (x > 0), x, 1.0)
        front = xp.exp(aa * xp.log(xx) - xx - _lgamma_positive(aa))    # x^a e^-x / Gamma(a)
        # series: P = front / a * sum_k x^k / ((a + 1) ... (a + k))
        term, total = xp.ones_like(xx), xp.ones_like(xx)
        d_term, d_total = xp.zeros_like(xx), xp.zeros_like(xx)
        for k in range(1, _SERIES_TERMS):
            ratio = xx / (aa + k)
            if slope_a:
                d_term = (d_term - term / (aa + k)) * ratio
                d_total = d_total + d_term
            term = term * ratio
            total = total + term
        lower = front * total / aa
        # continued fraction for Q = front * h (modified Lentz)
        b = xx + 1 - aa
        c = xp.full_like(b, 1 / _TINY)
        d = 1 / b
        h = d
        d_c, d_d, d_h = xp.zeros_like(xx), d * d, d * d     # derivatives in a (db/da = -1)
        for i in range(1, _FRACTION_TERMS):
            an = -i * (i - aa)
            b = b + 2
            den = an * d + b
            den = xp.where(xp.abs(den) < _TINY, _TINY, den)
            c_next = b + an / c
            c_next = xp.where(xp.abs(c_next) < _TINY, _TINY, c_next)
            if slope_a:
                d_den = i * d + an * d_d - 1
                d_c = -1 + i / c - an * d_c / (c * c)
                d_d = -d_den / (den * den)
                d_h = d_h * c_next / den + h * (d_d * c_next + d_c / den)
            c, d = c_next, 1 / den
            h = h * d * c
        use_series = xx < aa + 1
        if slope_a:
            d_front = front * (xp.log(xx) - _digamma_positive(aa))
            d_lower = (d_front * total + front * d_total - lower) / aa
            d_upper = d_front * h + front * d_h
            dp = xp.where(use_series, d_lower, -d_upper)
            dp = xp.where((x == 0) | xp.isinf(x), 0.0, dp)
            return xp.where(valid, -dp if upper else dp, np.nan)
        upper_tail = front * h
        p = xp.where(use_series, lower, 1 - upper_tail)
        q = xp.where(use_series, 1 - lower, upper_tail)
        y = q if upper else p
        y = xp.where(x == 0, 1.0 if upper else 0.0, y)
        y = xp.where(xp.isinf(x) & (x > 0), 0.0 if upper else 1.0, y)
        return xp.where(valid, y, np.nan)


def _digamma_positive(a):
    """psi(a) for a > 0 on float64 arrays: the Tensor method's computation."""
    return Tensor._wrap(a).digamma()._data


def _round_to(y, dtype):
    return y.astype(dtype, copy=False)


# ------------------------------------------------------------------------------ ops
def _zeta(m, x, q):
    if m is array_math:
        return _round_to(_zeta_array(x, q), q.dtype)
    return apply2(Zeta, x, q)


class Zeta(Op):
    """y = zeta(x, q), the Hurwitz zeta function; dy/dq = -x zeta(x + 1, q), none to x."""
    @staticmethod
    def forward(ctx, x, q):
        ctx.save(x, q)
        return _round_to(_zeta_array(x, q), q.dtype)

    @staticmethod
    def backward(ctx, gy):
        x, q = ctx.saved
        return None, -gy * x * _zeta(ctx.m, x + 1, q)


class Polygamma(Op):
    """y = psi^(n)(x) for n >= 1, ``(-1)^(n+1) n! zeta(n + 1, x)``; dy/dx = psi^(n+1)(x)."""
    @staticmethod
    def forward(ctx, x, n):
        ctx.n = n
        ctx.save(x)
        return _round_to((-1) ** (n + 1) * math.factorial(n) * _zeta_array(n + 1.0, x), x.dtype)

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved
        n = ctx.n + 1
        if ctx.m is array_math:
            return gy * _round_to((-1) ** (n + 1) * math.factorial(n) *
                                  _zeta_array(n + 1.0, x), x.dtype)
        return gy * Polygamma.apply(x, n=n)


def _igamma_slope(m, a, x, sign):
    """sign * x^(a-1) e^-x / Gamma(a): dP/dx (sign +1) or dQ/dx (sign -1); a is a constant."""
    a_array = a if m is array_math else a._data
    xp = array_module(a_array)
    with np.errstate(all='ignore'):
        lg = _lgamma_positive(xp.where(a_array > 0, a_array.astype(np.float64), 1.0))
        lg = lg.astype(a_array.dtype)
    if m is not array_math:
        lg, a = Tensor._wrap(lg), Tensor._wrap(a_array)
    return sign * m.exp((a - 1) * m.log(x) - x - lg)


class Igamma(Op):
    """y = P(a, x), the regularized lower incomplete gamma function; dy/dx = x^(a-1) e^-x /
    Gamma(a); dy/da from ``_igamma_array(..., slope_a=True)`` (a constant on recorded rules)."""
    sign = 1

    @classmethod
    def forward(cls, ctx, a, x):
        ctx.save(a, x)
        return _round_to(_igamma_array(a, x, cls.sign < 0), x.dtype)

    @classmethod
    def backward(cls, ctx, gy):
        a, x = ctx.saved
        ga = None
        if ctx.needs_grad(0):
            m = ctx.m
            arrays = (a, x) if m is array_math else (a._data, x._data)
            slope = _round_to(_igamma_array(*arrays, cls.sign < 0, slope_a=True), arrays[0].dtype)
            ga = gy * (slope if m is array_math else Tensor._wrap(slope))
        return ga, gy * _igamma_slope(ctx.m, a, x, cls.sign)


class Igammac(Igamma):
    """y = Q(a, x) = 1 - P(a, x), the regularized upper incomplete gamma function."""
    sign = -1


# ------------------------------------------------------------------------------ public functions
def _float_tensor(x, name, arg='input'):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the type of '{arg}' must be Tensor, but got "
                        f"{type(x).__name__}.")
    if np.dtype(x._data.dtype) not in _FLOATS:
        raise TypeError(f"For '{name}', the dtype of '{arg}' must be float16, float32 or "
                        f"float64, but got {x.dtype}.")
    return x


def _float_pair(a, b, name, names):
    for t, arg in zip((a, b), names):
        _float_tensor(t, name, arg)
    if a.dtype != b.dtype:
        raise TypeError(f"For '{name}', '{names[0]}' and '{names[1]}' must have one dtype, "
                        f"but got {a.dtype} and {b.dtype}.")
    return a, b


def lgamma(input):
    """``log|Gamma(input)|`` element-wise (+inf at the poles 0, -1, -2...)."""
    return apply1(Lgamma, _float_tensor(input, 'Lgamma'))


def digamma(input):
    """``d/dx log Gamma(x)`` element-wise."""
    return _float_tensor(input, 'Digamma').digamma()


@exact_constants
def mvlgamma(input, p):
    """The multivariate log-gamma of dimension ``p``; every element must exceed (p - 1) / 2."""
    x = _float_tensor(input, 'Mvlgamma')
    if isinstance(p, bool) or not isinstance(p, numbers.Integral) or p < 1:
        raise ValueError(f"For 'Mvlgamma', the attr 'p' must be an int >= 1, but got {p!r}.")
    if bool(np.any(x.asnumpy() <= (p - 1) / 2)):
        raise ValueError(f"For 'Mvlgamma', all elements of 'x' must be greater than "
                         f"(p-1)/2 = {(p - 1) / 2}.")
    return x.mvlgamma(int(p))


def erfinv(input):
    """The inverse of ``erf`` on (-1, 1): +-inf at +-1, NaN beyond."""
    return _float_tensor(input, 'Erfinv').erfinv()


def polygamma(n, input):
    """The ``n``-th derivative of digamma at ``input`` (``n`` an int or an integer scalar
    Tensor, n >= 0)."""
    x = _float_tensor(input, 'Polygamma', 'x')
    if isinstance(n, Tensor):
        if n.size != 1 or n._data.dtype.kind not in 'iu':
            raise TypeError(f"For 'Polygamma', 'a' must be an integer Tensor with one element, "
                            f"but got dtype {n.dtype} and shape {n.shape}.")
        n = int(n.asnumpy().reshape(()))
    elif isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"For 'Polygamma', 'a' must be an int or an integer Tensor, but got "
                        f"{type(n).__name__}.")
    if n < 0:
        raise ValueError(f"For 'Polygamma', 'a' must be non-negative, but got {n}.")
    return x.digamma() if n == 0 else Polygamma.apply(x, n=int(n))


def zeta(input, other):
    """The Hurwitz zeta function ``sum_k (other + k)^-input`` (the Riemann one at other = 1).

    >>> import hookgrad as ms
    >>> round(ms.ops.zeta(ms.Tensor([2.0]), ms.Tensor([1.0])).item(), 5)    # pi^2 / 6
    1.64493
    """
    x, q = _float_pair(input, other, 'Zeta', ('x', 'q'))
    return Zeta.apply(x, q)


def igamma(input, other):
    """``P(input, other)``: the regularized lower incomplete gamma function, a = input > 0,
    x = other >= 0 (NaN elsewhere)."""
    a, x = _float_pair(input, other, 'Igamma', ('a', 'x'))
    return Igamma.apply(a, x)


def igammac(input, other):
    """``Q(input, other) = 1 - P``: the regularized upper incomplete gamma function."""
    a, x = _float_pair(input, other, 'Igammac', ('a', 'x'))
    return Igammac.apply(a, x)


__all__ = ['lgamma', 'digamma', 'mvlgamma', 'erfinv', 'polygamma', 'zeta', 'igamma', 'igammac']
