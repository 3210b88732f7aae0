"""The seeded random state behind everything random in hookgrad (MindSpore's ``set_seed``).

``set_seed(n)`` seeds two generators, as MindSpore's does:

- NumPy's global generator (``numpy.random.seed(n)``). MindSpore's initializers draw a seed from
  it for every array they fill (``initializer_seed``) and expand it with their own Philox stream
  (kernels/philox.py), so the initial values of a network equal MindSpore's under the same seed;
  user code drawing from ``numpy.random`` after ``set_seed`` gets MindSpore's numbers too.
- ``generator()``, the ``np.random.Generator`` random layers and ops (dropout, ``ops.uniform``)
  draw from.

Until ``set_seed`` is called both are seeded from OS entropy, so unseeded runs differ.
"""
import numbers

import numpy as np

_seed = None
_generator = np.random.default_rng()     # OS entropy until set_seed


def set_seed(seed):
    """Re-seed the global generator so that later random values repeat from run to run.

    Args:
        seed: an int >= 0.

    Raises:
        TypeError: if ``seed`` is not an int (bools are rejected too).
        ValueError: if ``seed`` is outside [0, 2**32 - 1] (MindSpore's message).

    >>> import hookgrad as ms
    >>> ms.set_seed(7); a = ms.common.initializer.initializer('normal', (3,))
    >>> ms.set_seed(7); b = ms.common.initializer.initializer('normal', (3,))
    >>> bool((a == b).all()) and ms.get_seed() == 7
    True
    """
    global _seed, _generator
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"set_seed: seed must be an int >= 0, got {seed!r} "
                        f"({type(seed).__name__})")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"set_seed: seed must be an int >= 0, got {seed}")
    if seed >= 2 ** 32:
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    _seed = seed
    np.random.seed(seed)
    _generator = np.random.default_rng(seed)


def get_seed():
    """The seed last given to ``set_seed``, or None if it was never called."""
    return _seed


def initializer_seed():
    """The seed of one initializer's Philox stream: a draw from NumPy's global generator, as
    MindSpore's initializers take it."""
    return int(np.random.randint(low=1, high=1 << 63, dtype=np.int64))


def generator():
    """The current global ``np.random.Generator`` (replaced by each ``set_seed``)."""
    return _generator
