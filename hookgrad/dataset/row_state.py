"""Per-thread state of the rows being read: the random generator of the row a ``map`` worker
is processing, and the iterator whose epoch this thread is starting (for pipeline callbacks).

Kept apart from engine.py so that the workers and callbacks that read it import no pipeline.
"""
import threading

import numpy as np

from .. import _random

__all__ = ['row_generator', 'current_iterator', 'set_row_seed']

_row = threading.local()      # the seed and generator of the row a map worker is processing
_run = threading.local()      # the iterator whose epoch this thread is starting


def row_generator():
    """The ``np.random.Generator`` a random dataset operation should draw from.

    Inside ``Dataset.map`` it is the current row's own generator, seeded from the row's place in
    the epoch and one draw of the global generator per epoch, so random operations give the same
    values whatever ``num_parallel_workers`` is; elsewhere it is hookgrad's global generator.
    """
    seed = getattr(_row, 'seed', None)
    if seed is None:
        return _random.generator()
    rng = getattr(_row, 'rng', None)
    if rng is None:
        rng = _row.rng = np.random.default_rng(seed)
    return rng


def current_iterator():
    """The iterator that last started an epoch in this thread (None: none has)."""
    return getattr(_run, 'iterator', None)


def set_row_seed(seed):
    """Make ``row_generator()`` in this thread the generator of ``seed`` (None: the global one)."""
    _row.seed = seed
    _row.rng = None
