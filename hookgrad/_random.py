"""The one seeded random generator behind everything random in hookgrad (MindSpore's ``set_seed``).

Initializers and random layers (dropout) draw from ``generator()``. Until ``set_seed`` is called
the generator is seeded from OS entropy, so unseeded runs differ; after ``set_seed(n)`` the same
sequence of random calls gives the same values.
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
        ValueError: if ``seed`` is negative.

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
    _seed = seed
    _generator = np.random.default_rng(seed)


def get_seed():
    """The seed last given to ``set_seed``, or None if it was never called."""
    return _seed


def generator():
    """The current global ``np.random.Generator`` (replaced by each ``set_seed``)."""
    return _generator
