"""Readers of standard on-disk datasets: ``Cifar10Dataset`` / ``Cifar100Dataset`` (the binary
versions), read from local files into memory, and what every file reader shares (``FileSource``,
the folder and usage checks, the IDX header of idx_sources.py's MNIST readers).

Files are found and their row counts checked when the dataset is made; the pixels are read at
the first epoch and kept. Files are read in sorted name order, as MindSpore does: MNIST's
``usage='all'`` gives the ``t10k`` rows before the ``train`` ones, CIFAR-100's ``test.bin``
before ``train.bin``. Rows are picked by the same samplers as ``NumpySlicesDataset``: shuffled by
default, ``num_shards``/``shard_id`` giving every ``num_shards``-th row (wrapping around to pad
the last shard), ``num_samples=0`` or None meaning all rows.
"""
import numbers
import os

import numpy as np

from .cache import check_cache
from .engine import Dataset, check_workers
from .samplers import build_sampler
from .sources import _RandomAccessSplit

__all__ = ['Cifar10Dataset', 'Cifar100Dataset']

USAGES = ('train', 'test', 'all')


def check_dir(dataset_dir, who):
    """``dataset_dir`` as a str naming an existing folder."""
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"{who}: dataset_dir must be a str path, got {dataset_dir!r}")
    dataset_dir = os.fspath(dataset_dir)
    if not os.path.isdir(dataset_dir):
        raise ValueError(f"{who}: the folder {dataset_dir} does not exist or is not a "
                         f"directory or permission denied!")
    return dataset_dir


def check_choice(value, choices, who, arg, default):
    """``value`` (None meaning ``default``) one of the str ``choices``; anything else,
    a non-str included, is a ValueError."""
    if value is None:
        return default
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{who}: {arg} {value!r} is not within the valid set of "
                         f"{list(choices)}")
    return value


def check_str_choice(value, choices, who, arg, default):
    """As ``check_choice``, but a value that is not a str (nor None) is a TypeError: the
    readers whose MindSpore validators check the type before the set."""
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{who}: {arg} must be a str or None, got {value!r}")
    return check_choice(value, choices, who, arg, default)


def check_usage(usage, who):
    """``usage`` (None meaning 'all') checked against MindSpore's set."""
    return check_str_choice(usage, USAGES, who, 'usage', 'all')


def check_class_indexing(class_indexing, who):
    """TypeError unless ``class_indexing`` is None or a dict of str to int."""
    if class_indexing is not None and (
            not isinstance(class_indexing, dict) or
            not all(isinstance(k, str) and isinstance(v, numbers.Integral)
                    and not isinstance(v, bool) for k, v in class_indexing.items())):
        raise TypeError(f"{who}: class_indexing must be a dict of str to int, got "
                        f"{class_indexing!r}")


def check_bool(value, who, arg):
    """TypeError unless ``value`` is a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"{who}: {arg} must be a bool, got {value!r}")


class FileSource(_RandomAccessSplit, Dataset):
    """A source whose rows live in local files, read by index through a sampler.

    Subclasses set ``self._n`` (rows) and ``self._names`` and define ``_load()`` returning one
    array per column, with rows along axis 0 (or override ``_row(i)``).
    """

    def __init__(self, who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                 shard_id, cache):
        check_workers(num_parallel_workers, who)
        self._cache = check_cache(cache, who)
        if num_samples == 0 and not isinstance(num_samples, bool):
            num_samples = None                      # MindSpore: 0 reads every row
        self._sampler, _ = build_sampler(who, sampler, shuffle, num_samples, num_shards,
                                         shard_id, random_access=True)
        if hasattr(self._sampler, '_bind'):     # a sampler that reads the labels (PKSampler)
            self._sampler = self._sampler._bind(self)
        super().__init__()
        self._columns = None

    def get_col_names(self):
        return list(self._names)

    def _num_rows(self):
        return self._n

    def _count(self):
        return self._sampler._size(self._n)

    def _arrays(self):
        if self._columns is None:
            self._columns = self._load()
        return self._columns

    def _row(self, i):
        return tuple(np.asarray(c[i]) for c in self._arrays())

    def _rows(self):
        cache, row = self._cache, self._row
        for i in self._sampler._order(self._n):
            if cache is None:
                yield row(int(i))
            else:                           # a DatasetCache keeps each row once made
                yield cache.row(self, int(i), lambda i=int(i): row(i))

    def _gather_batches(self, batch_size, drop_remainder):
        if type(self)._row is not FileSource._row or self._cache is not None:
            return None
        return self._gather(batch_size, drop_remainder)

    def _gather(self, batch_size, drop_remainder):
        columns = self._arrays()
        order = self._sampler._order(self._n)
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            if drop_remainder and len(idx) < batch_size:
                return
            yield tuple(c[idx] for c in columns)


def _idx_header(path, magic, who):
    """``(count, dims, offset)`` of an IDX file of unsigned bytes with the given magic number."""
    with open(path, 'rb') as f:
        head = f.read(4)
        if len(head) < 4 or int.from_bytes(head, 'big') != magic:
            raise RuntimeError(f"{who}: {path} is not an MNIST IDX file (magic number "
                               f"{int.from_bytes(head, 'big') if len(head) == 4 else None}, "
                               f"expected {magic})")
        ndim = magic & 0xff
        dims = [int.from_bytes(f.read(4), 'big') for _ in range(ndim)]
    offset = 4 + 4 * ndim
    if os.path.getsize(path) != offset + int(np.prod(dims)):
        raise RuntimeError(f"{who}: {path} holds {os.path.getsize(path) - offset} bytes of data, "
                           f"but its header announces shape {dims}")
    return dims[0], dims[1:], offset


class _Cifar(FileSource):
    """The binary CIFAR records: ``n_labels`` label bytes then 3072 bytes of CHW pixels."""

    _n_labels = 1
    _label_names = ['label']
    _version = 'CIFAR-10'

    def __init__(self, dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler,
                 num_shards, shard_id, cache):
        who = type(self).__name__
        dataset_dir = check_dir(dataset_dir, who)
        usage = check_usage(usage, who)
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        record = self._n_labels + 3072
        self._files = []
        for name in sorted(os.listdir(dataset_dir)):
            path = os.path.join(dataset_dir, name)
            if not os.path.isfile(path) or not self._wanted(name, usage):
                continue
            size = os.path.getsize(path)
            if size == 0 or size % record:
                raise RuntimeError(f"{who}: invalid {self._version} file {path}: {size} bytes "
                                   f"is not a whole number of {record}-byte records (make sure "
                                   f"it is the {self._version} binary version)")
            self._files.append((path, size // record))
        if not self._files:
            raise RuntimeError(f"{who}: invalid cifar folder, cifar(.bin) files for "
                               f"usage='{usage}' are missing under {dataset_dir}")
        self.dataset_dir, self.usage = dataset_dir, usage
        self._n = sum(n for _, n in self._files)
        self._names = ['image'] + self._label_names

    def _load(self):
        k = self._n_labels
        records = np.concatenate([np.fromfile(p, np.uint8).reshape(n, k + 3072)
                                  for p, n in self._files])
        image = np.ascontiguousarray(records[:, k:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
        return [image] + [records[:, j].astype(np.uint32) for j in range(k)]


class Cifar10Dataset(_Cifar):
    """CIFAR-10 from its binary files: columns ``image`` (32, 32, 3) uint8 (HWC, RGB) and
    ``label`` uint32.

    Args:
        dataset_dir: folder with ``data_batch_*.bin`` (train) and ``test_batch.bin`` (test).
            Any whole number of records per file is read.
        usage: 'train', 'test' or 'all' (None: 'all'); files are read in sorted name order.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        ValueError: for a missing folder, a bad ``usage`` or conflicting sampling arguments.
        RuntimeError: when no file of ``usage`` is found or a file is not whole records.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         sampler, num_shards, shard_id, cache)

    @staticmethod
    def _wanted(name, usage):
        if not name.endswith('.bin'):
            return False
        train, test = 'data_batch' in name, 'test_batch' in name
        return {'train': train, 'test': test, 'all': train or test}[usage]


class Cifar100Dataset(_Cifar):
    """CIFAR-100 from ``train.bin`` and ``test.bin``: columns ``image`` (32, 32, 3) uint8,
    ``coarse_label`` and ``fine_label`` uint32.

    Args and Raises as ``Cifar10Dataset``.
    """

    _n_labels = 2
    _label_names = ['coarse_label', 'fine_label']
    _version = 'CIFAR-100'

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         sampler, num_shards, shard_id, cache)

    @staticmethod
    def _wanted(name, usage):
        return name in {'train': ('train.bin',), 'test': ('test.bin',),
                        'all': ('train.bin', 'test.bin')}[usage]
