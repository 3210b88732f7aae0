"""MindSpore's initializer random streams: Philox4x32-10 counters turned into float32 uniform,
normal and truncated normal samples, as MindSpore 2.x's C++ initializer functions make them.

With ``set_seed``, MindSpore's initializers draw a 64-bit seed from NumPy's global generator
for every array they fill and expand it with Philox4x32-10 (key: the seed's two 32-bit halves;
counter: the block number in its low word, the seed in its two high words), four 32-bit words
per block:

- uniform on [a, b): ``a + (b - a) * x / 2**32`` in double precision, rounded to float32 (a
  and b are float32 values);
- normal: Box-Muller on word pairs, each word mapped to [0, 1) through its 23 low bits, the
  first (at least 1e-7) giving the radius ``sqrt(-2 log u)``, the second the angle
  ``6.283185 * v``, cosine then sine, in double precision, then ``z * sigma + mean`` rounded to
  float32;
- truncated normal on [a, b]: the normal quantile of a uniform word placed between the CDF at
  a and at b (in units of sigma around the mean).

So hookgrad's initializers fill a network with the values MindSpore gives it under the same seed:
bit for bit for uniform and normal samples, within one float32 rounding step for truncated
normal ones. Array code only: the caller passes the seed.
"""
import math

import numpy as np

from .normal_quantile import ndtri, truncated_standard_normal

__all__ = ['words', 'uniform', 'normal', 'truncated_normal']

_MUL = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_WEYL = (0x9E3779B9, 0xBB67AE85)
_LOW = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
_TWO_PI = float(np.float32(6.283185))
_FAR = 5.0      # standard deviations above the mean from which the CDF loses its digits


def words(seed, n):
    """The first ``n`` 32-bit words (uint32) of the Philox4x32-10 stream of the 64-bit
    ``seed``."""
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    lo, hi = seed & 0xFFFFFFFF, seed >> 32
    blocks = (n + 3) // 4
    c0 = np.arange(blocks, dtype=np.uint64)
    c1 = c0 >> _32
    c0 &= _LOW
    c2 = np.full(blocks, lo, np.uint64)
    c3 = np.full(blocks, hi, np.uint64)
    k0, k1 = lo, hi
    for _ in range(10):
        p0 = _MUL[0] * c0
        p1 = _MUL[1] * c2
        c0, c1, c2, c3 = ((p1 >> _32) ^ c1 ^ np.uint64(k0), p1 & _LOW,
                          (p0 >> _32) ^ c3 ^ np.uint64(k1), p0 & _LOW)
        k0 = (k0 + _WEYL[0]) & 0xFFFFFFFF
        k1 = (k1 + _WEYL[1]) & 0xFFFFFFFF
    return np.stack([c0, c1, c2, c3], 1).astype(np.uint32).reshape(-1)[:n]


def _f32(v):
    return float(np.float32(v))


def uniform(seed, shape, a, b):
    """float32 samples of U[a, b) of ``shape`` from ``seed``'s stream."""
    n = math.prod(shape)
    a, b = _f32(a), _f32(b)
    x = words(seed, n).astype(np.float64) * 2.0 ** -32
    return (a + (b - a) * x).astype(np.float32).reshape(shape)


def _unit(w):
    """Words to [0, 1) through their 23 low bits (a float32 in [1, 2) less 1)."""
    return ((w & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)


def normal(seed, shape, mean, sigma):
    """float32 samples of N(mean, sigma**2) of ``shape`` from ``seed``'s stream."""
    n = math.prod(shape)
    w = words(seed, 2 * ((n + 1) // 2))
    radius = np.sqrt(-2.0 * np.log(np.maximum(_unit(w[0::2]).astype(np.float64), 1e-7)))
    angle = _unit(w[1::2]).astype(np.float64) * _TWO_PI
    z = np.empty(w.size)
    z[0::2] = radius * np.cos(angle)
    z[1::2] = radius * np.sin(angle)
    return (z[:n] * _f32(sigma) + _f32(mean)).astype(np.float32).reshape(shape)


def _cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def truncated_normal(seed, shape, a, b, mean, sigma):
    """float32 samples of N(mean, sigma**2) restricted to [a, b] (absolute bounds) of
    ``shape`` from ``seed``'s stream, by inverting the CDF.

    An interval more than ``_FAR`` standard deviations above the mean, or one whose CDF values
    coincide, would lose its digits in that formula (MindSpore's samples there are all equal to
    an end); such intervals are drawn in the lower tail (normal_quantile.py) from a generator
    seeded with ``seed`` instead."""
    n = math.prod(shape)
    a, b, sigma = _f32(a), _f32(b), _f32(sigma)
    lo, hi = _cdf((a - mean) / sigma), _cdf((b - mean) / sigma)
    if (a - mean) / sigma > _FAR or hi - lo < np.finfo(np.float64).tiny:
        z = truncated_standard_normal((a - mean) / sigma, (b - mean) / sigma, (n,),
                                      np.random.default_rng(int(seed)))
        return np.clip(mean + sigma * z, a, b).astype(np.float32).reshape(shape)
    u = words(seed, n).astype(np.float64) * 2.0 ** -32
    p = np.clip(lo + (hi - lo) * u, np.finfo(np.float64).tiny, 1.0 - 2.0 ** -53)
    z = mean + sigma * ndtri(p)
    return np.clip(z, a, b).astype(np.float32).reshape(shape)
