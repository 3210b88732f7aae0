"""Readers of the MNIST-format datasets: ``MnistDataset``, ``FashionMnistDataset``,
``KMnistDataset`` and ``EMnistDataset`` (IDX files of 28x28 images and one label byte per
image) and ``QMnistDataset`` (the same images with 8 int32 label fields per image).

They share one reader (same columns, order and sampling); only the file names differ. With ``usage='all'`` the files are taken in sorted name order, so the test rows come
before the train rows, as in MindSpore.
"""
import os

import numpy as np

from .file_sources import FileSource, _idx_header, check_dir, check_usage

__all__ = ['MnistDataset', 'FashionMnistDataset', 'KMnistDataset', 'EMnistDataset', 'QMnistDataset']

EMNIST_SPLITS = ('byclass', 'bymerge', 'balanced', 'letters', 'digits', 'mnist')


class _IdxImages(FileSource):
    """Columns ``image`` (28, 28, 1) uint8 and ``label`` uint32 from pairs of IDX files.

    ``_prefixes(usage)`` gives the file name prefix of each usage: the files are
    ``<prefix>-images-idx3-ubyte`` and ``<prefix>-labels-idx1-ubyte``.
    """

    def _open(self, who, dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
              sampler, num_shards, shard_id, cache):
        dataset_dir = check_dir(dataset_dir, who)
        usage = check_usage(usage, who)
        FileSource.__init__(self, who, num_samples, num_parallel_workers, shuffle, sampler,
                            num_shards, shard_id, cache)
        prefixes = self._prefixes(usage)
        self._files = []
        for prefix in sorted(prefixes.values()):
            images = os.path.join(dataset_dir, f"{prefix}-images-idx3-ubyte")
            labels = os.path.join(dataset_dir, f"{prefix}-labels-idx1-ubyte")
            if not (os.path.isfile(images) and os.path.isfile(labels)):
                if usage == 'all':
                    continue
                raise RuntimeError(f"{who}: {images} and {labels} must both exist for "
                                   f"usage='{usage}'")
            n, dims, image_offset = _idx_header(images, 0x0803, who)
            m, _, label_offset = _idx_header(labels, 0x0801, who)
            if n != m or dims != [28, 28]:
                raise RuntimeError(f"{who}: {images} holds {n} images of shape {dims} and "
                                   f"{labels} {m} labels; expected as many 28x28 images as "
                                   f"labels")
            self._files.append((images, image_offset, labels, label_offset, n))
        if not self._files:
            wanted = ', '.join(f"{p}-images-idx3-ubyte, {p}-labels-idx1-ubyte"
                               for p in sorted(prefixes.values()))
            raise RuntimeError(f"{who}: no {self._what} files under {dataset_dir} (expected "
                               f"{wanted})")
        self.dataset_dir, self.usage = dataset_dir, usage
        self._n = sum(f[4] for f in self._files)
        self._names = ['image', 'label']

    def _prefixes(self, usage):
        both = {'train': 'train', 'test': 't10k'}
        return both if usage == 'all' else {usage: both[usage]}

    def _load(self):
        images, labels = [], []
        for image_path, image_offset, label_path, label_offset, n in self._files:
            images.append(np.fromfile(image_path, np.uint8, offset=image_offset)
                          .reshape(n, 28, 28, 1))
            labels.append(np.fromfile(label_path, np.uint8, offset=label_offset)
                          .astype(np.uint32))
        return [np.concatenate(images), np.concatenate(labels)]

    def _class_ids(self):
        """The label of every row, read from the label files only."""
        return np.concatenate([np.fromfile(p, np.uint8, offset=o).astype(np.int64)
                               for _, _, p, o, _ in self._files])


class MnistDataset(_IdxImages):
    """The MNIST digits from their IDX files: columns ``image`` (28, 28, 1) uint8 and ``label``
    uint32.

    Args:
        dataset_dir: folder with ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
            ``t10k-images-idx3-ubyte`` and ``t10k-labels-idx1-ubyte`` (uncompressed).
        usage: 'train', 'test' or 'all' (None: 'all', test rows first).
        num_samples: at most this many rows per epoch (None or 0: all).
        num_parallel_workers: checked and ignored: files are read in the calling thread.
        shuffle: read in a new random order each epoch. Default None: True without a sampler.
        sampler: a ``Sampler`` or an iterable of row indices.
        num_shards, shard_id: read only one shard (see ``DistributedSampler``).
        cache: a ``DatasetCache`` keeping the rows in memory, or None.

    Raises:
        ValueError: for a missing folder, a bad ``usage`` or conflicting sampling arguments.
        RuntimeError: when the files of ``usage`` are missing or malformed.
    """

    _what = 'MNIST'

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self._open('MnistDataset', dataset_dir, usage, num_samples, num_parallel_workers,
                   shuffle, sampler, num_shards, shard_id, cache)


class FashionMnistDataset(_IdxImages):
    """Fashion-MNIST from its IDX files: columns ``image`` (28, 28, 1) uint8 and ``label``
    uint32.

    Args:
        dataset_dir: folder with ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
            ``t10k-images-idx3-ubyte`` and ``t10k-labels-idx1-ubyte`` (uncompressed).
        usage: 'train', 'test' or 'all' (None: 'all', test rows first).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a missing folder, a bad ``usage`` or conflicting sampling
            arguments.
        RuntimeError: when the files of ``usage`` are missing or malformed.
    """

    _what = 'Fashion-MNIST'

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self._open('FashionMnistDataset', dataset_dir, usage, num_samples, num_parallel_workers,
                   shuffle, sampler, num_shards, shard_id, cache)


class KMnistDataset(_IdxImages):
    """Kuzushiji-MNIST from its IDX files (MNIST's file names): columns ``image`` (28, 28, 1)
    uint8 and ``label`` uint32.

    Args and Raises as ``FashionMnistDataset``.
    """

    _what = 'KMNIST'

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self._open('KMnistDataset', dataset_dir, usage, num_samples, num_parallel_workers,
                   shuffle, sampler, num_shards, shard_id, cache)


class EMnistDataset(_IdxImages):
    """One split of EMNIST from its IDX files: columns ``image`` (28, 28, 1) uint8 and
    ``label`` uint32. The pixels are returned as stored (EMNIST's files hold the images
    transposed; MindSpore does not transpose them back either).

    Args:
        dataset_dir: folder with ``emnist-<name>-<train|test>-images-idx3-ubyte`` and
            ``emnist-<name>-<train|test>-labels-idx1-ubyte``.
        name: the split: 'byclass', 'bymerge', 'balanced', 'letters', 'digits' or 'mnist'.
        usage: 'train', 'test' or 'all' (None: 'all', test rows first).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a bad ``name`` or ``usage``, a missing folder or
            conflicting sampling arguments.
        RuntimeError: when the files of ``name`` and ``usage`` are missing or malformed.
    """

    _what = 'EMNIST'

    def __init__(self, dataset_dir, name, usage=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        if not isinstance(name, str):
            raise TypeError(f"EMnistDataset: name must be a str, got {name!r}")
        if name not in EMNIST_SPLITS:
            raise ValueError(f"EMnistDataset: name {name!r} is not within the valid set of "
                             f"{list(EMNIST_SPLITS)}")
        self.name = name
        self._open('EMnistDataset', dataset_dir, usage, num_samples, num_parallel_workers,
                   shuffle, sampler, num_shards, shard_id, cache)

    def _prefixes(self, usage):
        both = {u: f"emnist-{self.name}-{u}" for u in ('train', 'test')}
        return both if usage == 'all' else {usage: both[usage]}


QMNIST_USAGES = ('train', 'test', 'test10k', 'test50k', 'nist', 'all')
# (file prefix, first row, row count or None for all) of each part, in MindSpore's order
QMNIST_PARTS = {'train': [('qmnist-train', 0, None)], 'test': [('qmnist-test', 0, None)],
                'test10k': [('qmnist-test', 0, 10000)], 'test50k': [('qmnist-test', 10000, 50000)],
                'nist': [('xnist', 0, None)]}
QMNIST_PARTS['all'] = QMNIST_PARTS['train'] + QMNIST_PARTS['test'] + QMNIST_PARTS['nist']


def _idx_int_header(path, who):
    """``(count, fields, offset)`` of an IDX file of (N, fields) big-endian int32."""
    with open(path, 'rb') as f:
        head = f.read(12)
    if len(head) < 12 or int.from_bytes(head[:4], 'big') != 0x0C02:
        raise RuntimeError(f"{who}: {path} is not an IDX file of 2-d int32 labels (magic number "
                           f"{int.from_bytes(head[:4], 'big') if len(head) >= 4 else None}, "
                           f"expected {0x0C02})")
    n, fields = int.from_bytes(head[4:8], 'big'), int.from_bytes(head[8:12], 'big')
    if os.path.getsize(path) != 12 + 4 * n * fields:
        raise RuntimeError(f"{who}: {path} holds {os.path.getsize(path) - 12} bytes of data, "
                           f"but its header announces {n} x {fields} int32 values")
    return n, fields, 12


class QMnistDataset(FileSource):
    """QMNIST from its IDX files: columns ``image`` (28, 28, 1) uint8 and ``label`` uint32:
    the digit (``compat=True``) or all 8 fields of the label record (``compat=False``:
    digit, NIST series, writer id, digit index, NIST class, global index, two reserved).

    Args:
        dataset_dir: folder with ``qmnist-train-images-idx3-ubyte``,
            ``qmnist-train-labels-idx2-int``, ``qmnist-test-...`` and ``xnist-...`` files.
        usage: 'train', 'test', 'test10k' (the first 10000 test rows), 'test50k' (the 50000
            after them), 'nist' or 'all' (train, test then nist; the default).
        compat: the label is the digit (True, default) or the whole record.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a bad ``usage`` or ``compat``, a missing folder or
            conflicting sampling arguments.
        RuntimeError: when the files of ``usage`` are missing, malformed or too short for
            'test10k' / 'test50k'.
    """

    def __init__(self, dataset_dir, usage=None, compat=True, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        who = 'QMnistDataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = 'all' if usage is None else usage
        if not isinstance(usage, str) or usage not in QMNIST_USAGES:
            raise ValueError(f"{who}: usage {usage!r} is not within the valid set of "
                             f"{list(QMNIST_USAGES)}")
        if not isinstance(compat, bool):
            raise TypeError(f"{who}: compat must be a bool, got {compat!r}")
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        self._files = []
        for prefix, start, count in QMNIST_PARTS[usage]:
            images = os.path.join(dataset_dir, f"{prefix}-images-idx3-ubyte")
            labels = os.path.join(dataset_dir, f"{prefix}-labels-idx2-int")
            if not (os.path.isfile(images) and os.path.isfile(labels)):
                if usage == 'all':
                    continue
                raise RuntimeError(f"{who}: {images} and {labels} must both exist for "
                                   f"usage='{usage}'")
            n, dims, image_offset = _idx_header(images, 0x0803, who)
            m, fields, label_offset = _idx_int_header(labels, who)
            if n != m or dims != [28, 28] or fields != 8:
                raise RuntimeError(f"{who}: {images} holds {n} images of shape {dims} and "
                                   f"{labels} {m} records of {fields} fields; expected as many "
                                   f"28x28 images as records of 8")
            count = n - start if count is None else count
            if start + count > n:
                raise RuntimeError(f"{who}: usage '{usage}' reads rows {start} to "
                                   f"{start + count} of {images}, which holds {n}")
            self._files.append((images, image_offset, labels, label_offset, start, count))
        if not self._files:
            raise RuntimeError(f"{who}: no QMNIST files under {dataset_dir}")
        self.dataset_dir, self.usage, self.compat = dataset_dir, usage, compat
        self._n = sum(f[5] for f in self._files)
        self._names = ['image', 'label']

    def _records(self):
        return np.concatenate([
            np.fromfile(path, '>i4', count=count * 8, offset=offset + start * 32)
            .reshape(count, 8) for _, _, path, offset, start, count in self._files])

    def _load(self):
        images = np.concatenate([
            np.fromfile(path, np.uint8, count=count * 784, offset=offset + start * 784)
            .reshape(count, 28, 28, 1) for path, offset, _, _, start, count in self._files])
        records = self._records().astype(np.uint32)
        return [images, records[:, 0] if self.compat else records]

    def _class_ids(self):
        return self._records()[:, 0].astype(np.int64)
