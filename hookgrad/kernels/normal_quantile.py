"""The standard normal distribution's quantile and CDF, and standard normal samples truncated
to an interval by inverting the CDF: array code shared by the initializers and
``ops.TruncatedNormal``; the caller passes the NumPy generator to draw from.
"""
import math

import numpy as np

__all__ = ['ndtri', 'normal_cdf', 'truncated_standard_normal']

_TINY = np.finfo(np.float64).tiny


def normal_cdf(x):
    """The standard normal CDF at the float x."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def truncated_standard_normal(a, b, shape, rng):
    """Standard normal samples of ``shape`` restricted to [a, b] (float64), by inverting the
    CDF at uniform draws of the NumPy generator ``rng``."""
    flip = a > 0        # work in the lower tail, where the CDF keeps its relative precision
    if flip:
        a, b = -b, -a
    lo, hi = normal_cdf(a), normal_cdf(b)
    if hi - lo < _TINY:
        # beyond ~37 sigma the CDF underflows; there the density near b is exp(-|b| (b - z))
        # to first order, so draw b - z from an exponential truncated to [0, b - a]
        u = rng.uniform(0.0, 1.0, shape)
        d = -np.log1p(-u * -math.expm1(b * (b - a))) / -b
        return np.clip(b - d, a, b) * (-1 if flip else 1)
    u = rng.uniform(lo, hi, shape)
    z = np.clip(ndtri(np.clip(u, _TINY, 1.0 - 2.0 ** -53)), a, b)
    return -z if flip else z


# Wichura's algorithm AS241 (PPND16): the standard normal quantile to about 1e-16 relative error.
_A = (3.3871328727963666080e0, 1.3314166789178437745e+2, 1.9715909503065514427e+3,
      1.3731693765509461125e+4, 4.5921953931549871457e+4, 6.7265770927008700853e+4,
      3.3430575583588128105e+4, 2.5090809287301226727e+3)
_B = (1.0, 4.2313330701600911252e+1, 6.8718700749205790830e+2, 5.3941960214247511077e+3,
      2.1213794301586595867e+4, 3.9307895800092710610e+4, 2.8729085735721942674e+4,
      5.2264952788528545610e+3)
_C = (1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0,
      3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1,
      2.27238449892691845833e-2, 7.74545014278341407640e-4)
_D = (1.0, 2.05319162663775882187e0, 1.67638483018380384940e0, 6.89767334985100004550e-1,
      1.48103976427480074590e-1, 1.51986665636164571966e-2, 5.47593808499534494600e-4,
      1.05075007164441684324e-9)
_E = (6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0,
      2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
      2.71155556874348757815e-5, 2.01033439929228813265e-7)
_F = (1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1, 1.48753612908506148525e-2,
      7.86869131145613259100e-4, 1.84631831751005468180e-5, 1.42151175831644588870e-7,
      2.04426310338993978564e-15)


def _ratio(num, den, r):
    return np.polynomial.polynomial.polyval(r, num) / np.polynomial.polynomial.polyval(r, den)


def ndtri(p):
    """The standard normal quantile of each p in (0, 1)."""
    p = np.asarray(p, dtype=np.float64)
    q = p - 0.5
    central = np.abs(q) <= 0.425
    r = np.sqrt(-np.log(np.minimum(p, 1.0 - p)))        # only used outside the centre
    near = r <= 5.0
    x_mid = q * _ratio(_A, _B, 0.180625 - q * q)
    x_near = _ratio(_C, _D, r - 1.6)
    x_far = _ratio(_E, _F, r - 5.0)
    tail = np.where(near, x_near, x_far)
    return np.where(central, x_mid, np.where(q < 0, -tail, tail))
