"""Samplers: the order in which a random-access dataset reads its rows, one epoch at a time.

After ``ds.config.set_seed(n)`` (or ``ms.set_seed(n)``) ``RandomSampler`` gives MindSpore's
orders: its C++ engine shuffles the row list with ``std::shuffle`` and ``std::mt19937(n)`` in an
iterator's first pass over the source and, in pass ``k`` (each epoch, and each ``repeat``),
shuffles the previous pass's list again with ``std::mt19937(n + k)`` (std_random.py computes
them as GCC's libstdc++ does); with ``replacement`` pass ``k`` draws its indices from
``std::mt19937(n + k)``. ``SubsetRandomSampler`` shuffles its indices so, each pass with
``std::mt19937(n)`` itself. The other random samplers, and every sampler before any seed is
set, draw from hookgrad's generator (``hookgrad._random.generator()``): a new order each epoch,
repeating from run to run once a seed is set.
"""
import copy
import numbers

import numpy as np

from .. import _random
from . import std_random

__all__ = ['Sampler', 'SequentialSampler', 'RandomSampler', 'SubsetSampler',
           'SubsetRandomSampler', 'DistributedSampler', 'WeightedRandomSampler']


def _count(value, who, arg, allow_none=True, minimum=1):
    """``value`` as an int >= ``minimum`` (None passes when allowed)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{who}: {arg} must be an int >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{who}: {arg} must be an int >= {minimum}, got {value}")
    return int(value)


def _index_array(indices, who):
    """A 1-d int64 array from a sequence of ints."""
    try:
        arr = np.asarray(indices)
    except (TypeError, ValueError):
        raise TypeError(f"{who}: indices must be a sequence of ints, got "
                        f"{type(indices).__name__}") from None
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in 'iu'):
        raise TypeError(f"{who}: indices must be a 1-d sequence of ints, got an array of shape "
                        f"{arr.shape} and dtype {arr.dtype}")
    return arr.astype(np.int64, copy=False)


class Sampler:
    """Base class of samplers; a user sampler subclasses it and defines ``__iter__``.

    ``__iter__`` yields row indices for one epoch; ``self.dataset_size`` holds the number of rows
    of the dataset being read when it is called.

    Args:
        num_samples: at most this many indices per epoch; None for all.

    Raises:
        TypeError, ValueError: for a ``num_samples`` that is not an int >= 1.

    >>> import hookgrad as ms
    >>> class Evens(ms.dataset.Sampler):
    ...     def __iter__(self):
    ...         return iter(range(0, self.dataset_size, 2))
    >>> ds = ms.dataset.NumpySlicesDataset([10, 11, 12, 13], sampler=Evens())
    >>> [int(x) for (x,) in ds.create_tuple_iterator(output_numpy=True)]
    [10, 12]
    """

    def __init__(self, num_samples=None):
        self.num_samples = _count(num_samples, type(self).__name__, 'num_samples')
        self.dataset_size = None

    def __iter__(self):
        raise TypeError(f"{type(self).__name__} defines no __iter__: a Sampler subclass yields "
                        f"row indices from __iter__")

    def _indices(self, n):
        """The indices for one epoch over ``n`` rows, before ``num_samples`` is applied."""
        self.dataset_size = n
        return _index_array(list(iter(self)), type(self).__name__)

    def _order(self, n):
        """One epoch's row indices over ``n`` rows (checked to lie in range)."""
        idx = self._indices(n)
        if self.num_samples is not None:
            idx = idx[:self.num_samples]
        if idx.size and (idx.min() < -n or idx.max() >= n):
            bad = idx[(idx < -n) | (idx >= n)][0]
            raise IndexError(f"{type(self).__name__}: index {bad} is out of range for a dataset "
                             f"of {n} rows")
        return idx

    def _size(self, n):
        """How many indices one epoch over ``n`` rows yields."""
        size = len(self._indices(n))
        return size if self.num_samples is None else min(size, self.num_samples)


class SequentialSampler(Sampler):
    """Rows in order, from ``start_index``.

    Args:
        start_index: the first row to read. Default None: 0.
        num_samples: at most this many rows per epoch; None for all.

    Raises:
        TypeError, ValueError: for a negative or non-int ``start_index`` or ``num_samples``.
    """

    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        self.start_index = _count(start_index, 'SequentialSampler', 'start_index', minimum=0) or 0

    def _indices(self, n):
        if self.start_index >= n and n:
            raise ValueError(f"SequentialSampler: start_index {self.start_index} is out of range "
                             f"for a dataset of {n} rows")
        return np.arange(self.start_index, n, dtype=np.int64)

    def _size(self, n):
        size = max(n - self.start_index, 0)
        return size if self.num_samples is None else min(size, self.num_samples)


def _next_pass(sampler, n, first):
    """(k, rows): the number of this pass of the current iterator over ``sampler`` (0 for a new
    iterator or size) and the rows to shuffle: ``first()`` then, the last pass's order after."""
    from .row_state import _run
    iterator = getattr(_run, 'iterator', None)
    last = sampler._pass
    if last is None or iterator is None or last[0] is not iterator or last[2] != n:
        sampler._pass = (iterator, -1, n, None)
        return 0, (first() if first is not None else None)
    return last[1] + 1, (last[3].tolist() if first is not None else None)


def _keep_pass(sampler, k, n, order):
    """Record pass ``k``'s order and return it as an int64 array."""
    order = np.asarray(order, np.int64)
    sampler._pass = (sampler._pass[0], k, n, order)
    return order


def _fresh_pass(sampler, memo):
    twin = copy.copy(sampler)
    twin._pass = None
    return twin


class RandomSampler(Sampler):
    """Rows in a random order, a new one each epoch.

    Args:
        replacement: draw each index independently (rows may repeat). Default False: a
            permutation.
        num_samples: at most this many rows per epoch; None for all.

    Raises:
        TypeError: for a non-bool ``replacement``.
    """

    def __init__(self, replacement=False, num_samples=None):
        super().__init__(num_samples)
        if not isinstance(replacement, bool):
            raise TypeError(f"RandomSampler: replacement must be a bool, got {replacement!r}")
        self.replacement = replacement
        self._pass = None       # (iterator, pass, n, order) of the last seeded pass

    __deepcopy__ = _fresh_pass

    def _indices(self, n):
        seed = _random.get_seed()
        if seed is not None:
            return self._seeded(n, seed)
        rng = _random.generator()
        if self.replacement:
            k = n if self.num_samples is None else self.num_samples
            return rng.integers(0, n, size=k, dtype=np.int64) if n else np.zeros(0, np.int64)
        return rng.permutation(n).astype(np.int64, copy=False)

    def _seeded(self, n, seed):
        """MindSpore's order for this pass of the iterator (see the module docstring): pass
        ``k`` of an iterator (its epochs, and the passes ``repeat`` makes) uses seed + k."""
        if self.replacement:
            k, _ = _next_pass(self, n, None)
            gen = std_random.MT19937(seed + k)
            count = n if self.num_samples is None else self.num_samples
            order = np.array([std_random.uniform_int(gen, 0, n - 1) for _ in range(count)]
                             if n else [], np.int64)
            return _keep_pass(self, k, n, order)
        k, rows = _next_pass(self, n, lambda: list(range(n)))
        return _keep_pass(self, k, n, std_random.shuffle(rows, std_random.MT19937(seed + k)))

    def _size(self, n):
        if self.replacement and self.num_samples is not None:
            return self.num_samples
        return n if self.num_samples is None else min(n, self.num_samples)


class SubsetSampler(Sampler):
    """The given row indices, in the given order.

    Args:
        indices: a sequence of row indices.
        num_samples: at most this many rows per epoch; None for all.

    Raises:
        TypeError: when ``indices`` is not a 1-d sequence of ints.
    """

    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        self.indices = _index_array(indices, type(self).__name__)

    def _indices(self, n):
        return self.indices

    def _size(self, n):
        size = len(self.indices)
        return size if self.num_samples is None else min(size, self.num_samples)


class SubsetRandomSampler(SubsetSampler):
    """The given row indices in a random order, a new one each epoch.

    Args:
        indices: a sequence of row indices.
        num_samples: at most this many rows per epoch; None for all.

    Raises:
        TypeError: when ``indices`` is not a 1-d sequence of ints.
    """

    _pass = None                # (iterator, pass, n, order) of the last seeded pass
    __deepcopy__ = _fresh_pass

    def _indices(self, n):
        seed = _random.get_seed()
        if seed is None:
            return _random.generator().permutation(self.indices)
        # MindSpore's: each pass shuffles the last order again, with the same seed
        k, rows = _next_pass(self, n, self.indices.tolist)
        return _keep_pass(self, k, n, std_random.shuffle(rows, std_random.MT19937(seed)))


class DistributedSampler(Sampler):
    """The rows of shard ``shard_id`` when the dataset is split into ``num_shards`` shards.

    Every shard holds ``ceil(rows / num_shards)`` rows: the index list is padded by wrapping
    around to a multiple of ``num_shards``, and shard ``k`` takes every ``num_shards``-th index
    from position ``k``. With ``shuffle=True`` the index list is permuted first, from the global
    generator (so processes seeded alike with ``ms.set_seed`` shard the same permutation).

    Args:
        num_shards: the number of shards, an int >= 1.
        shard_id: this shard, an int in [0, num_shards).
        shuffle: permute the rows each epoch. Default True.
        num_samples: at most this many rows per epoch; None for all.

    Raises:
        TypeError, ValueError: for counts that are not ints in range or a non-bool ``shuffle``.
    """

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None):
        super().__init__(num_samples)
        self.num_shards = _count(num_shards, 'DistributedSampler', 'num_shards', allow_none=False)
        self.shard_id = _count(shard_id, 'DistributedSampler', 'shard_id', allow_none=False,
                               minimum=0)
        if self.shard_id >= self.num_shards:
            raise ValueError(f"DistributedSampler: shard_id must be in [0, {self.num_shards}), "
                             f"got {self.shard_id}")
        if not isinstance(shuffle, bool):
            raise TypeError(f"DistributedSampler: shuffle must be a bool, got {shuffle!r}")
        self.shuffle = shuffle

    def _indices(self, n):
        if n == 0:
            return np.zeros(0, np.int64)
        idx = _random.generator().permutation(n) if self.shuffle else np.arange(n)
        per_shard = -(-n // self.num_shards)
        padded = np.resize(idx, per_shard * self.num_shards)     # wraps around to pad
        return padded[self.shard_id::self.num_shards].astype(np.int64, copy=False)

    def _size(self, n):
        size = -(-n // self.num_shards)
        return size if self.num_samples is None else min(size, self.num_samples)


class WeightedRandomSampler(Sampler):
    """Rows drawn at random with probabilities proportional to ``weights``, anew each epoch.

    Row ``i`` is drawn with probability ``weights[i] / sum(weights)``; rows past the end of
    ``weights`` are never drawn. Draws come from the global generator, so ``ms.set_seed`` makes
    them repeat.

    Args:
        weights: a list of non-negative numbers (a single number is one weight), not all zero;
            at most as many as the dataset has rows.
        num_samples: rows per epoch. Default None (or 0): as many as the dataset has.
        replacement: draw each row independently (rows may repeat). Default True. Without
            replacement ``num_samples`` may not exceed the number of non-zero weights.

    Raises:
        TypeError: for a weight that is not a number, a non-int ``num_samples`` or a non-bool
            ``replacement``.
        ValueError: for a negative ``num_samples``; for empty, negative or all-zero weights.
            Reading raises ValueError for more weights than rows, or too few non-zero weights
            to draw ``num_samples`` rows without replacement.

    >>> import numpy as np, hookgrad as ms
    >>> ms.set_seed(0)
    >>> sampler = ms.dataset.WeightedRandomSampler([0, 1, 0, 1], num_samples=4)
    >>> ds = ms.dataset.NumpySlicesDataset(np.arange(4), sampler=sampler)
    >>> sorted({int(x) for (x,) in ds.create_tuple_iterator(output_numpy=True)})
    [1, 3]
    """

    def __init__(self, weights, num_samples=None, replacement=True):
        who = 'WeightedRandomSampler'
        weights = list(weights) if isinstance(weights, (list, tuple, np.ndarray)) else [weights]
        for i, w in enumerate(weights):
            if isinstance(w, bool) or not isinstance(w, numbers.Number):
                raise TypeError(f"{who}: weights[{i}] must be a number, got {w!r}")
        w = np.asarray(weights, np.float64)
        if not w.size or (w < 0).any() or not w.any() or not np.isfinite(w).all():
            raise ValueError(f"{who}: weights must be finite, non-negative and not all zero, "
                             f"got {weights}")
        if isinstance(num_samples, bool) or \
                (num_samples is not None and not isinstance(num_samples, numbers.Integral)):
            raise TypeError(f"{who}: num_samples must be an int or None, got {num_samples!r}")
        if num_samples is not None and num_samples < 0:
            raise ValueError(f"{who}: num_samples must be >= 0, got {num_samples}")
        if not isinstance(replacement, bool):
            raise TypeError(f"{who}: replacement must be a bool, got {replacement!r}")
        super().__init__(int(num_samples) if num_samples else None)
        self.weights = weights
        self.replacement = replacement
        self._p = w / w.sum()

    def _draws(self, n):
        """How many rows one epoch over ``n`` rows draws (checked against the weights)."""
        who = 'WeightedRandomSampler'
        if len(self._p) > n:
            raise ValueError(f"{who}: {len(self._p)} weights for a dataset of {n} rows; give at "
                             f"most one weight per row")
        k = n if self.num_samples is None else self.num_samples
        nonzero = int(np.count_nonzero(self._p))
        if not self.replacement and k > nonzero:
            raise ValueError(f"{who}: without replacement, {k} rows cannot be drawn from "
                             f"{nonzero} non-zero weights")
        return k

    def _indices(self, n):
        k = self._draws(n)
        return _random.generator().choice(len(self._p), size=k, replace=self.replacement,
                                          p=self._p).astype(np.int64, copy=False)

    def _size(self, n):
        return self._draws(n)


def build_sampler(who, sampler, shuffle, num_samples, num_shards, shard_id, random_access):
    """``(sampler, num_samples)`` for a source dataset, from its MindSpore-style arguments.

    The sampler is None for a source read in its own order (an iterable or generator function);
    ``num_samples`` (None or an int >= 1) then limits the rows per epoch.
    """
    if shuffle is not None and not isinstance(shuffle, bool):
        raise TypeError(f"{who}: shuffle must be a bool or None, got {shuffle!r}")
    num_samples = _count(num_samples, who, 'num_samples')
    if (num_shards is None) != (shard_id is None):
        raise ValueError(f"{who}: num_shards and shard_id must be given together, got "
                         f"num_shards={num_shards!r}, shard_id={shard_id!r}")
    if sampler is not None:
        if shuffle is not None:
            raise ValueError(f"{who}: give either sampler or shuffle, not both")
        if num_shards is not None:
            raise ValueError(f"{who}: give either sampler or num_shards/shard_id, not both")
        if not isinstance(sampler, Sampler):
            try:
                indices = list(sampler)
            except TypeError:
                raise TypeError(f"{who}: sampler must be a Sampler or an iterable of row "
                                f"indices, got {type(sampler).__name__}") from None
            sampler = SubsetSampler(indices)
        if num_samples is not None:
            sampler = copy.copy(sampler)        # the caller's sampler is left as it was
            sampler.num_samples = num_samples if sampler.num_samples is None else \
                min(sampler.num_samples, num_samples)
    elif num_shards is not None:
        sampler = DistributedSampler(num_shards, shard_id, shuffle=shuffle is not False,
                                     num_samples=num_samples)
    elif shuffle is False or (shuffle is None and not random_access):
        sampler = SequentialSampler(num_samples=num_samples) if random_access else None
    else:
        sampler = RandomSampler(num_samples=num_samples)
    if sampler is not None and not random_access:
        raise ValueError(f"{who}: shuffle, sampler and num_shards need a random-access source "
                         f"(one with __getitem__ and __len__)")
    return sampler, num_samples
