"""MindSpore's Primitive classes that draw random values beyond Dropout and Dropout2D:
uniform, normal, integer and multinomial samples, random choices of True positions.

With both seeds 0 a Primitive draws from the global generator (``ms.set_seed``); otherwise
from a generator of its own, seeded once when it is made (``sampling.pair_generator``).
Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
import numpy as np

from ..._dtype import int32 as _int32, to_numpy
from .. import arithmetic as _arith, sampling as _sampling
from ._primitive import Primitive

__all__ = ['UniformReal', 'StandardNormal', 'UniformInt', 'Multinomial', 'RandomChoiceWithMask']


class _Random(Primitive):
    def __init__(self, seed=0, seed2=0):
        rng = _sampling.pair_generator(seed, seed2, type(self).__name__)
        super().__init__(seed=seed, seed2=seed2)
        self._rng = rng


class UniformReal(_Random):
    """``UniformReal(seed=0, seed2=0)(shape)``: Float32 samples from [0, 1)."""
    def construct(self, shape):
        shape = _sampling._shape(shape, 'UniformReal')
        return _sampling.UniformReal.apply(shape=shape, dtype=np.dtype(np.float32),
                                           seed=self._rng)


class StandardNormal(_Random):
    """``StandardNormal(seed=0, seed2=0)(shape)``: Float32 samples from N(0, 1)."""
    def construct(self, shape):
        shape = _sampling._shape(shape, 'StandardNormal')
        return _sampling.StandardNormal.apply(shape=shape, dtype=np.dtype(np.float32),
                                              seed=self._rng)


class UniformInt(_Random):
    """``UniformInt(seed=0, seed2=0)(shape, minval, maxval)``: Int32 samples from
    [minval, maxval), the bounds 0-d Int32 Tensors."""
    def construct(self, shape, minval, maxval):
        shape = _sampling._shape(shape, 'UniformInt')
        bounds = _sampling.int_bounds(minval, maxval, 'UniformInt')
        return _sampling.UniformInt.apply(*bounds, shape=shape, dtype=np.dtype(np.int32),
                                          seed=self._rng)


class Multinomial(Primitive):
    """``Multinomial(seed=0, seed2=0, dtype=int32)(x, num_samples)``: category indices drawn
    with replacement from the rows of weights x."""
    def __init__(self, seed=0, seed2=0, dtype=_int32):
        rng = _sampling.pair_generator(seed, seed2, 'Multinomial')
        if to_numpy(dtype).kind not in 'iu':
            raise TypeError(f"ops.Multinomial: dtype must be an integer type, got {dtype}")
        super().__init__(seed=seed, seed2=seed2, dtype=dtype)
        self._rng = rng

    def construct(self, x, num_samples):
        y = _sampling.multinomial_draw(x, num_samples, True, self._rng, 'Multinomial')
        return _arith.cast(y, self.dtype)


class RandomChoiceWithMask(Primitive):
    """``RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)``: ``(index, mask)``, the
    positions of ``count`` True elements of the Bool input_x in random order.

    index is (count, rank) Int32; where fewer than count are True, the rows past them are 0
    and mask (count,) Bool is False there. Both seeds 0 draw from the global generator.

    Unlike the other random Primitives, it takes negative seeds too (as MindSpore's does): a
    seed stands for its value modulo 2**64.

    Raises:
        ValueError: for count < 1. TypeError: for a seed that is not an int, a non-Bool input.
    """
    def __init__(self, count=256, seed=0, seed2=0):
        _sampling.choice_count(count, 'RandomChoiceWithMask')
        for what, value in (('seed', seed), ('seed2', seed2)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"ops.RandomChoiceWithMask: {what} must be an int, got "
                                f"{type(value).__name__}")
        rng = _sampling.pair_generator(seed % 2 ** 64, seed2 % 2 ** 64, 'RandomChoiceWithMask')
        super().__init__(count=count, seed=seed, seed2=seed2)
        self._rng = rng

    def construct(self, input_x):
        return _sampling.random_choice_with_mask(input_x, self.count, self._rng,
                                                 'RandomChoiceWithMask')
