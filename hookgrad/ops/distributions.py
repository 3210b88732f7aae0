"""Random draws from named distributions (MindSpore 2.x ``ops`` names, signatures and output
shapes): randperm, gamma, poisson, laplace, standard_normal, standard_laplace, random_gamma,
random_poisson, multinomial_with_replacement, uniform_candidate_sampler and
log_uniform_candidate_sampler.

As in sampling.py, every draw happens inside an op's forward, on the host, from the global
generator (``ms.set_seed``) when ``seed`` is None, or from a fresh generator seeded with an
int ``seed``, so the same seed gives the same values on every call. No draw has a gradient.
"""
import numbers

import numpy as np

from .._dtype import float32 as _float32, int64 as _int64, to_numpy
from .._tensor import Tensor
from ..autograd.function import Op, value_read
from ..kernels import backend
from ._base import as_tensor, check_size
from .arithmetic import cast
from .sampling import (StandardNormal, UniformReal, _generator, _shape, check_seed,
                       multinomial_draw, pair_generator)
from .sorting import argsort

__all__ = ['randperm', 'gamma', 'poisson', 'laplace', 'standard_normal', 'standard_laplace',
           'random_gamma', 'random_poisson', 'multinomial_with_replacement',
           'uniform_candidate_sampler', 'log_uniform_candidate_sampler']

_F32 = np.dtype(np.float32)


def _gamma(rng, size, alpha, beta):
    return rng.gamma(alpha, 1.0 / beta, size)


def _poisson(rng, size, rate):
    return rng.poisson(rate, size)


def _laplace(rng, size, mean, scale):
    return rng.laplace(mean, scale, size)


_SAMPLERS = {'gamma': _gamma, 'poisson': _poisson, 'laplace': _laplace}


class DistributionSample(Op):
    """Draws of ``size`` from the distribution ``kind`` ('gamma' (shape, rate), 'poisson'
    (rate) or 'laplace' (mean, scale)) whose parameter arrays broadcast to ``size``; ``dtype``
    the output's. The parameters are read on the host, where the draw is made."""
    differentiable = False

    @staticmethod
    def forward(ctx, *params, kind, size, dtype, seed):
        host = [backend.to_host(p).astype(np.float64) for p in params]
        y = _SAMPLERS[kind](_generator(seed), size, *host).astype(dtype)
        return y if ctx.xp is np else ctx.xp.asarray(y)


def _params(values, names, name):
    tensors = []
    for value, arg in zip(values, names):
        if not isinstance(value, Tensor):
            raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(value).__name__}")
        tensors.append(value)
    return tensors


def _broadcast(shape, tensors, name):
    try:
        return np.broadcast_shapes(shape, *(t.shape for t in tensors))
    except ValueError:
        raise ValueError(f"ops.{name}: shape {shape} and parameters of shapes "
                         f"{[t.shape for t in tensors]} cannot be broadcast together") from None


def _draw(kind, tensors, size, dtype, rng, name):
    """``rng``: None (the global generator), an int seed or a generator (a Primitive's)."""
    check_size(name, size, np.dtype(dtype).itemsize)
    return DistributionSample.apply(*tensors, kind=kind, size=size, dtype=np.dtype(dtype),
                                    seed=rng)


# ------------------------------------------------------------------------------ public functions
def randperm(n, seed=0, offset=0, dtype=_int64):
    """A random permutation of ``0 .. n-1`` in ``dtype``; ``seed`` and ``offset`` both 0 draw
    from the global generator, else from one seeded with both.

    Raises:
        TypeError: for a non-int n.
        ValueError: for a negative n, seed or offset, or a non-integer dtype.
    """
    if isinstance(n, Tensor):
        value_read(n)
        n = n._data.item()
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"ops.randperm: n must be an int, got {n!r}")
    if n < 0:
        raise ValueError(f"ops.randperm: n must be >= 0, got {n}")
    dt = to_numpy(dtype)
    if dt.kind not in 'iufV':
        raise ValueError(f"ops.randperm: dtype must be an integer or floating type, got {dtype}")
    rng = pair_generator(seed, offset, 'randperm')
    keys = UniformReal.apply(shape=(int(n),), dtype=np.dtype(np.float64), seed=rng)
    return permutation_of(keys, dt)


def permutation_of(keys, dtype):
    """The permutation that sorts the uniform ``keys``: a uniformly random one."""
    return cast(argsort(keys), dtype)


def gamma(shape, alpha, beta, seed=None):
    """Gamma draws of concentration ``alpha`` and rate (inverse scale) ``beta``; the output
    shape is the broadcast of ``shape``, alpha's and beta's; alpha's dtype."""
    return gamma_draw(shape, alpha, beta, check_seed(seed, 'gamma'), 'gamma')


def gamma_draw(shape, alpha, beta, rng, name):
    """``gamma`` drawing from ``rng``; errors name op ``name``."""
    a, b = _params((alpha, beta), ('alpha', 'beta'), name)
    size = _broadcast(_shape(shape, name), (a, b), name)
    return _draw('gamma', (a, b), size, a._data.dtype, rng, name)


def poisson(shape, mean, seed=None):
    """Float32 Poisson draws of rate ``mean``, of the broadcast shape of ``shape`` and
    mean's."""
    return poisson_draw(shape, mean, check_seed(seed, 'poisson'), 'poisson')


def poisson_draw(shape, mean, rng, name):
    """``poisson`` drawing from ``rng``; errors name op ``name``."""
    (m,) = _params((mean,), ('mean',), name)
    size = _broadcast(_shape(shape, name), (m,), name)
    return _draw('poisson', (m,), size, _F32, rng, name)


def laplace(shape, mean, lambda_param, seed=None):
    """Float32 Laplace draws of location ``mean`` and scale ``lambda_param`` (variance
    2 lambda^2), of the broadcast shape of ``shape`` and the parameters'."""
    m, s = _params((mean, lambda_param), ('mean', 'lambda_param'), 'laplace')
    size = _broadcast(_shape(shape, 'laplace'), (m, s), 'laplace')
    return _draw('laplace', (m, s), size, _F32, check_seed(seed, 'laplace'), 'laplace')


def standard_normal(shape, seed=None):
    """Float32 draws from N(0, 1) of ``shape`` (a tuple or a 1-d integer Tensor)."""
    size = _shape(shape, 'standard_normal')
    check_size('standard_normal', size, 4)
    return StandardNormal.apply(shape=size, dtype=_F32, seed=check_seed(seed, 'standard_normal'))


def standard_laplace(shape, seed=None):
    """Float32 draws from the Laplace distribution of mean 0 and scale 1, of ``shape``."""
    return standard_laplace_draw(shape, check_seed(seed, 'standard_laplace'), 'standard_laplace')


def standard_laplace_draw(shape, rng, name):
    """``standard_laplace`` drawing from ``rng``; errors name op ``name``."""
    size = _shape(shape, name)
    zero, one = as_tensor(np.float64(0.0)), as_tensor(np.float64(1.0))
    return _draw('laplace', (zero, one), size, _F32, rng, name)


def random_gamma(shape, alpha, seed=None):
    """Gamma draws of concentration ``alpha`` and rate 1, of shape ``shape + alpha.shape``
    (``shape`` a 1-d integer Tensor or a tuple), in alpha's dtype."""
    return random_gamma_draw(shape, alpha, check_seed(seed, 'random_gamma'), 'random_gamma')


def random_gamma_draw(shape, alpha, rng, name):
    """``random_gamma`` drawing from ``rng``; errors name op ``name``."""
    (a,) = _params((alpha,), ('alpha',), name)
    size = _shape(shape, name) + a.shape
    one = as_tensor(np.float64(1.0))
    return _draw('gamma', (a, one), size, a._data.dtype, rng, name)


def random_poisson(shape, rate, seed=None, dtype=_float32):
    """Poisson draws of ``rate``, of shape ``shape + rate.shape``, in ``dtype`` (Float32 by
    default; Float16/32/64, Int32 or Int64)."""
    return random_poisson_draw(shape, rate, check_seed(seed, 'random_poisson'),
                               poisson_dtype(dtype, 'random_poisson'), 'random_poisson')


def poisson_dtype(dtype, name):
    """The NumPy dtype of Poisson counts: Float16/32/64, Int32 or Int64."""
    dt = to_numpy(dtype)
    if dt not in (np.float16, np.float32, np.float64, np.int32, np.int64):
        raise TypeError(f"ops.{name}: dtype must be Float16, Float32, Float64, Int32 or Int64, "
                        f"got {dtype}")
    return dt


_POISSON_RATES = (np.float16, np.float32, np.float64, np.int32, np.int64)


def random_poisson_draw(shape, rate, rng, dtype, name):
    """``random_poisson`` drawing from ``rng`` in the NumPy ``dtype``. As MindSpore's kernel:
    shape is an Int32/Int64 Tensor, rate a Float16/32/64 or Int32/64 Tensor, and a negative rate
    draws 0."""
    if not isinstance(shape, Tensor) or shape._data.dtype not in (np.int32, np.int64):
        got = shape.dtype if isinstance(shape, Tensor) else type(shape).__name__
        raise TypeError(f"ops.{name}: shape must be an Int32 or Int64 Tensor, got {got}")
    (r,) = _params((rate,), ('rate',), name)
    if r._data.dtype not in _POISSON_RATES:
        raise TypeError(f"ops.{name}: rate must be a Float16, Float32, Float64, Int32 or Int64 "
                        f"Tensor, got {r.dtype}")
    size = _shape(shape, name) + r.shape
    r = r.clamp(min=0)
    return _draw('poisson', (r,), size, dtype, rng, name)


def _int_value(value, name, arg):
    if isinstance(value, Tensor):
        value_read(value)
        value = value._data.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{name}: {arg} must be an int, got {value!r}")
    return int(value)


def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """Int64 category indices, ``numsamples`` per row of the (unnormalised) probabilities
    ``x`` (C) or (N, C); ``seed`` and ``offset`` (ints or scalar Tensors) both 0 draw from the
    global generator, else from one seeded with both."""
    name = 'multinomial_with_replacement'
    rng = pair_generator(_int_value(seed, name, 'seed'), _int_value(offset, name, 'offset'),
                         name)
    if not isinstance(replacement, bool):
        raise TypeError(f"ops.{name}: replacement must be a bool, got {replacement!r}")
    return cast(multinomial_draw(x, numsamples, replacement, rng, name), np.int64)


# ------------------------------------------------------------------------------ candidates
class CandidateSample(Op):
    """``(sampled, true_expected, sampled_expected)`` of a candidate sampler over
    [0, range_max): 'uniform' or 'log_uniform' (P(k) = log((k + 2) / (k + 1)) /
    log(range_max + 1)). With ``unique`` the draws are distinct; the expected counts are then
    ``1 - (1 - P) ^ tries`` for log_uniform and ``num_sampled * P`` otherwise (MindSpore's)."""
    differentiable = False

    @staticmethod
    def forward(ctx, true_classes, kind, num_sampled, unique, range_max, seed):
        rng = _generator(seed)
        classes = backend.to_host(true_classes).astype(np.int64)
        if kind == 'uniform':
            def prob(k):
                return np.full(np.shape(k), 1.0 / range_max)

            def draw(count):
                return rng.integers(0, range_max, count)
        else:
            log_range = np.log(range_max + 1.0)

            def prob(k):
                return np.log((k + 2.0) / (k + 1.0)) / log_range

            def draw(count):
                k = np.floor(np.exp(rng.random(count) * log_range)).astype(np.int64) - 1
                return np.minimum(k, range_max - 1)
        tries = num_sampled
        if not unique:
            sampled = draw(num_sampled)
        elif kind == 'uniform':
            sampled = rng.choice(range_max, num_sampled, replace=False)
        else:
            seen, order, tries = set(), [], 0
            while len(order) < num_sampled:      # one draw per try, until enough are distinct
                k = int(draw(1)[0])
                tries += 1
                if k not in seen:
                    seen.add(k)
                    order.append(k)
            sampled = np.asarray(order, np.int64)

        def expected(k):
            p = prob(k)
            if unique and kind != 'uniform':
                return -np.expm1(tries * np.log1p(-p))
            return p * num_sampled
        outs = (sampled.astype(np.int64), expected(classes).astype(_F32),
                expected(sampled).astype(_F32))
        return outs if ctx.xp is np else tuple(ctx.xp.asarray(o) for o in outs)


def candidate_draw(true_classes, num_true, num_sampled, unique, range_max, seed, kind, name,
                   rng=None):
    """A candidate sampler's outputs; ``rng`` (a Primitive's generator) overrides ``seed``."""
    t = as_tensor(true_classes, 'true_classes')
    if t.ndim != 2 or t._data.dtype.kind not in 'iu':
        raise ValueError(f"ops.{name}: true_classes must be a 2-d integer tensor, got "
                         f"{t.dtype} of shape {t.shape}")
    for arg, value in (('num_true', num_true), ('num_sampled', num_sampled),
                       ('range_max', range_max)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"ops.{name}: {arg} must be a positive int, got {value!r}")
    if t.shape[1] != num_true:
        raise ValueError(f"ops.{name}: true_classes must have num_true = {num_true} columns, "
                         f"got shape {t.shape}")
    if not isinstance(unique, bool):
        raise TypeError(f"ops.{name}: unique must be a bool, got {unique!r}")
    if unique and num_sampled > range_max:
        raise ValueError(f"ops.{name}: cannot draw {num_sampled} unique candidates from "
                         f"range_max {range_max}")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"ops.{name}: seed must be an int >= 0, got {seed!r}")
    return CandidateSample.apply(t, kind=kind, num_sampled=int(num_sampled), unique=unique,
                                 range_max=int(range_max),
                                 seed=rng if rng is not None else int(seed) or None)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False):
    """``(sampled_candidates, true_expected_count, sampled_expected_count)``: ``num_sampled``
    Int64 classes drawn uniformly from [0, range_max) (distinct with ``unique``), and the
    Float32 expected counts of the true classes (batch, num_true) and of the sampled ones.
    ``seed`` 0 draws from the global generator.

    Raises:
        NotImplementedError: for ``remove_accidental_hits``.
        ValueError: for bad shapes or counts.
    """
    if remove_accidental_hits:
        raise NotImplementedError("ops.uniform_candidate_sampler: remove_accidental_hits is not "
                                  "available in hookgrad")
    return candidate_draw(true_classes, num_true, num_sampled, unique, range_max, seed,
                          'uniform', 'uniform_candidate_sampler')


def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True,
                                  range_max=5, seed=0):
    """As ``uniform_candidate_sampler`` with the log-uniform (Zipfian) distribution
    P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)."""
    return candidate_draw(true_classes, num_true, num_sampled, unique, range_max, seed,
                          'log_uniform', 'log_uniform_candidate_sampler')
