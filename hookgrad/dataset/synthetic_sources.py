"""Sources made in memory rather than read from files: ``PaddedDataset`` (rows given as dicts,
to pad a dataset to a multiple of the shard count) and ``FakeImageDataset`` (random images and
labels for trying out a pipeline)."""
import numbers

import numpy as np

from .file_sources import FileSource
from .sources import GeneratorDataset

__all__ = ['PaddedDataset', 'FakeImageDataset']

_INT32_MAX = 2 ** 31 - 1


class _Samples:
    """The rows of ``padded_samples``, one value per column name, by index."""

    def __init__(self, samples, names):
        self.samples, self.names = samples, names

    def __getitem__(self, i):
        row = self.samples[i]
        missing = [n for n in self.names if n not in row]
        if missing:
            raise ValueError(f"PaddedDataset: sample {i} lacks the columns {missing} of the "
                             f"first sample {self.names}")
        return tuple(row[n] for n in self.names)

    def __len__(self):
        return len(self.samples)


class PaddedDataset(GeneratorDataset):
    """A dataset of the given samples, in order: one column per key of the first sample.

    Mainly used to pad a dataset with filler rows so that it divides evenly into shards. Values
    become NumPy arrays as in ``GeneratorDataset`` (a Python int an int64 array of shape ()...).

    Args:
        padded_samples: a non-empty list of dicts ``{column name: value}``, all with the keys
            of the first.

    Raises:
        ValueError: for an empty ``padded_samples``; when iterating, for a sample lacking a
            column.
        TypeError: when ``padded_samples`` is not a list or its first element not a dict.

    >>> import numpy as np, hookgrad as ms
    >>> pad = ms.dataset.PaddedDataset([{'image': np.zeros(2, np.uint8), 'label': 0}])
    >>> pad.get_col_names(), pad.get_dataset_size()
    (['image', 'label'], 1)
    """

    def __init__(self, padded_samples):
        if not padded_samples:
            raise ValueError("PaddedDataset: padded_samples cannot be empty.")
        if not isinstance(padded_samples, list):
            raise TypeError(f"PaddedDataset: padded_samples must be a list of dicts, got "
                            f"{type(padded_samples).__name__}")
        if not isinstance(padded_samples[0], dict):
            raise TypeError(f"PaddedDataset: the elements of padded_samples must be dicts, got "
                            f"{type(padded_samples[0]).__name__}")
        names = list(padded_samples[0])
        super().__init__(_Samples(padded_samples, names), column_names=names, shuffle=False)
        self.padded_samples = padded_samples


def _positive_int32(value, who, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{who}: {arg} must be an int, got {value!r}")
    if not 0 < value <= _INT32_MAX:
        raise ValueError(f"{who}: {arg} must be in [1, {_INT32_MAX}], got {value}")
    return int(value)


def mt19937_first(seed):
    """The first 32-bit output of C++'s ``std::mt19937(seed)`` (seed taken modulo 2**32)."""
    rng = np.random.RandomState(seed % 2 ** 32)       # the same initialisation as std::mt19937
    return rng, int(rng.randint(0, 2 ** 32, dtype=np.uint64))


def uniform_label(seed, num_classes):
    """libstdc++'s ``uniform_int_distribution(0, num_classes - 1)`` drawn from
    ``std::mt19937(seed)``: the 32-bit draw divided by ``(2**32 - 1) // num_classes``,
    drawing again when it falls past the last whole bucket."""
    scaling = (2 ** 32 - 1) // num_classes
    rng, x = mt19937_first(seed)
    while x >= num_classes * scaling:
        x = int(rng.randint(0, 2 ** 32, dtype=np.uint64))
    return x // scaling


class FakeImageDataset(FileSource):
    """``num_images`` random images: columns ``image`` (``image_size``, uint8) and ``label``
    (uint32).

    Row ``i``'s label is MindSpore's: the first draw of ``std::mt19937(base_seed + i)`` mapped
    to ``[0, num_classes)``. Its pixels are uniform random bytes from a generator seeded with
    ``base_seed + i``, so each row is the same whatever the order of reading (MindSpore's own
    pixels are not meaningful values: the raw bytes of floating-point numbers).

    Args:
        num_images: rows, an int >= 1. Default 1000.
        image_size: (height, width, channels), three ints >= 1. Default (224, 224, 3).
        num_classes: labels are in [0, num_classes). Default 10.
        base_seed: added to the row index to seed each row. Default 0.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for arguments of the wrong type or out of range, or conflicting
            sampling arguments.
    """

    def __init__(self, num_images=1000, image_size=(224, 224, 3), num_classes=10, base_seed=0,
                 num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        who = 'FakeImageDataset'
        self.num_images = _positive_int32(num_images, who, 'num_images')
        if not isinstance(image_size, (list, tuple)):
            raise TypeError(f"{who}: image_size must be a list or tuple, got {image_size!r}")
        if len(image_size) != 3:
            raise ValueError(f"{who}: image_size should be a list or tuple of length 3, but got "
                             f"{len(image_size)}")
        self.image_size = tuple(_positive_int32(v, who, f'image_size[{i}]')
                                for i, v in enumerate(image_size))
        self.num_classes = _positive_int32(num_classes, who, 'num_classes')
        if isinstance(base_seed, bool) or not isinstance(base_seed, numbers.Integral) or \
                base_seed < 0:
            raise ValueError(f"{who}: base_seed must be an int >= 0, got {base_seed!r}")
        self.base_seed = int(base_seed)
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        self._n = self.num_images
        self._names = ['image', 'label']

    def _label(self, i):
        return np.uint32(uniform_label(self.base_seed + i, self.num_classes))

    def _class_ids(self):
        return np.array([self._label(i) for i in range(self._n)], np.int64)

    def _row(self, i):
        pixels = np.random.default_rng(self.base_seed + i).integers(
            0, 256, self.image_size, dtype=np.uint8)
        return pixels, np.asarray(self._label(i))
