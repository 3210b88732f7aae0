"""MindSpore's Primitive classes of random draws from named distributions: Gamma, Poisson,
RandomGamma, RandomPoisson, StandardLaplace, Randperm, RandpermV2, MultinomialWithReplacement,
UniformCandidateSampler and LogUniformCandidateSampler.

With both seeds 0 a Primitive draws from the global generator (``ms.set_seed``); otherwise
from a generator of its own, seeded once when it is made, so its sequence repeats from run to
run. Each calls the functional op of ``hookgrad/ops/distributions.py``. Constructor and call
arguments follow MindSpore 2.10's Primitives.
"""
import numbers

import numpy as np

from ..._dtype import int32 as _int32, int64 as _int64, to_numpy
from ..._tensor import Tensor
from ...autograd.function import value_read
from .. import distributions as _dist, sampling as _sampling
from ..creation import full
from ..shaping import concat
from ._primitive import Primitive

__all__ = ['Gamma', 'Poisson', 'RandomGamma', 'RandomPoisson', 'StandardLaplace', 'Randperm',
           'RandpermV2', 'MultinomialWithReplacement', 'UniformCandidateSampler',
           'LogUniformCandidateSampler']


class _Seeded(Primitive):
    def __init__(self, seed=0, seed2=0, **attrs):
        rng = _sampling.pair_generator(seed, seed2, type(self).__name__)
        super().__init__(seed=seed, seed2=seed2, **attrs)
        self._rng = rng


class Gamma(_Seeded):
    """``Gamma(seed=0, seed2=0)(shape, alpha, beta)``: draws of concentration alpha and rate
    beta, of the broadcast shape of shape, alpha's and beta's."""
    def construct(self, shape, alpha, beta):
        return _dist.gamma_draw(shape, alpha, beta, self._rng, 'Gamma')


class Poisson(_Seeded):
    """``Poisson(seed=0, seed2=0)(shape, mean)``: Float32 Poisson draws of rate mean, of the
    broadcast shape of shape and mean's."""
    def construct(self, shape, mean):
        return _dist.poisson_draw(shape, mean, self._rng, 'Poisson')


class RandomGamma(_Seeded):
    """``RandomGamma(seed=0, seed2=0)(shape, alpha)``: gamma draws of rate 1, of shape
    ``shape + alpha.shape`` (shape a 1-d integer Tensor)."""
    def construct(self, shape, alpha):
        return _dist.random_gamma_draw(shape, alpha, self._rng, 'RandomGamma')


class RandomPoisson(_Seeded):
    """``RandomPoisson(seed=0, seed2=0, dtype=int64)(shape, rate)``: Poisson draws of shape
    ``shape + rate.shape`` in dtype."""
    def __init__(self, seed=0, seed2=0, dtype=_int64):
        self._dtype = _dist.poisson_dtype(dtype, 'RandomPoisson')
        super().__init__(seed, seed2, dtype=dtype)

    def construct(self, shape, rate):
        return _dist.random_poisson_draw(shape, rate, self._rng, self._dtype, 'RandomPoisson')


class StandardLaplace(_Seeded):
    """``StandardLaplace(seed=0, seed2=0)(shape)``: Float32 Laplace draws of mean 0, scale 1."""
    def construct(self, shape):
        return _dist.standard_laplace_draw(shape, self._rng, 'StandardLaplace')


def _count(n, prim):
    """``n``: an int, or a Tensor holding one int."""
    if isinstance(n, Tensor):
        value_read(n)
        if n.size != 1 or n._data.dtype.kind not in 'iu':
            raise ValueError(f"ops.{prim}: n must hold one integer, got {n.dtype} of shape "
                             f"{n.shape}")
        n = n._data.reshape(-1)[0].item()
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"ops.{prim}: n must be an int or an integer Tensor, got {n!r}")
    return int(n)


class Randperm(Primitive):
    """``Randperm(max_length=1, pad=-1, dtype=int32)(n)``: (max_length,) holding a random
    permutation of 0..n-1 followed by ``pad`` (the global generator).

    Raises:
        ValueError: when n > max_length or max_length < 1.
    """
    def __init__(self, max_length=1, pad=-1, dtype=_int32):
        if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 1:
            raise ValueError(f"ops.Randperm: max_length must be an int >= 1, got {max_length!r}")
        if to_numpy(dtype).kind not in 'iu':
            raise TypeError(f"ops.Randperm: dtype must be an integer type, got {dtype}")
        super().__init__(max_length=max_length, pad=pad, dtype=dtype)

    def construct(self, n):
        n = _count(n, 'Randperm')
        if not 0 <= n <= self.max_length:
            raise ValueError(f"ops.Randperm: n must be in [0, max_length = {self.max_length}], "
                             f"got {n}")
        perm = _dist.randperm(n, dtype=self.dtype)
        rest = full((self.max_length - n,), self.pad, dtype=self.dtype)
        return concat((perm, rest))


class RandpermV2(Primitive):
    """``RandpermV2(seed=0, offset=0, dtype=int64)(n)``: a random permutation of 0..n-1; seed
    and offset both 0 draw from the global generator, else the Primitive's own."""
    def __init__(self, seed=0, offset=0, dtype=_int64):
        rng = _sampling.pair_generator(seed, offset, 'RandpermV2')
        super().__init__(seed=seed, offset=offset, dtype=dtype)
        self._rng = rng

    def construct(self, n):
        n = _count(n, 'RandpermV2')
        if n < 0:
            raise ValueError(f"ops.RandpermV2: n must be >= 0, got {n}")
        keys = _sampling.UniformReal.apply(shape=(n,), dtype=np.dtype(np.float64),
                                           seed=self._rng)
        return _dist.permutation_of(keys, self.dtype)


class MultinomialWithReplacement(Primitive):
    """``MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset)``: Int64
    category indices drawn from the rows of x; see ``ops.multinomial_with_replacement``."""
    def __init__(self, numsamples, replacement=False):
        super().__init__(numsamples=numsamples, replacement=replacement)

    def construct(self, x, seed, offset):
        return _dist.multinomial_with_replacement(x, seed, offset, self.numsamples,
                                                  self.replacement)


class UniformCandidateSampler(Primitive):
    """``UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed=0,
    remove_accidental_hits=False)(true_classes)``; see ``ops.uniform_candidate_sampler``."""
    def __init__(self, num_true, num_sampled, unique, range_max, seed=0,
                 remove_accidental_hits=False):
        if remove_accidental_hits:
            raise NotImplementedError("ops.UniformCandidateSampler: remove_accidental_hits is "
                                      "not available in hookgrad")
        rng = _sampling.pair_generator(seed, 0, 'UniformCandidateSampler')
        super().__init__(num_true=num_true, num_sampled=num_sampled, unique=unique,
                         range_max=range_max, seed=seed,
                         remove_accidental_hits=remove_accidental_hits)
        self._rng = rng

    def construct(self, true_classes):
        return _dist.candidate_draw(true_classes, self.num_true, self.num_sampled, self.unique,
                                    self.range_max, 0, 'uniform', 'UniformCandidateSampler',
                                    self._rng)


class LogUniformCandidateSampler(Primitive):
    """``LogUniformCandidateSampler(num_true=1, num_sampled=5, unique=True, range_max=5,
    seed=0)(true_classes)``; see ``ops.log_uniform_candidate_sampler``."""
    def __init__(self, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
        rng = _sampling.pair_generator(seed, 0, 'LogUniformCandidateSampler')
        super().__init__(num_true=num_true, num_sampled=num_sampled, unique=unique,
                         range_max=range_max, seed=seed)
        self._rng = rng

    def construct(self, true_classes):
        return _dist.candidate_draw(true_classes, self.num_true, self.num_sampled, self.unique,
                                    self.range_max, 0, 'log_uniform',
                                    'LogUniformCandidateSampler', self._rng)
