"""``CelebADataset``: CelebA face images with their 40 (or any number of) binary attributes,
read from ``list_attr_celeba.txt`` and, to pick a usage, ``list_eval_partition.txt``."""
import os

import numpy as np

from .file_sources import FileSource, check_dir
from .image_folder import decode_image

__all__ = ['CelebADataset']

USAGES = {'train': '0', 'valid': '1', 'test': '2', 'all': None}


class CelebADataset(FileSource):
    """CelebA: columns ``image`` and ``attr`` (uint32, one 0/1 value per attribute).

    ``list_attr_celeba.txt`` in ``dataset_dir`` holds the image count, the attribute names,
    then one line per image: its file name and a -1 or 1 per attribute (read as 0 or 1). Images
    are read from ``dataset_dir`` in the order of that file. ``usage`` keeps the images whose
    partition in ``list_eval_partition.txt`` is 0 ('train'), 1 ('valid') or 2 ('test').
    ``image`` is the file's bytes (1-d uint8) unless ``decode=True`` (RGB (H, W, 3) uint8).

    Args:
        dataset_dir: the folder of the images and the list files.
        num_parallel_workers, shuffle, sampler, num_samples, num_shards, shard_id, cache: as
            ``MnistDataset``.
        usage: 'train', 'valid', 'test' or 'all' (default).
        decode: decode the images with Pillow. Default False.
        extensions: a list of file extensions to keep ('.jpg'), compared case-sensitively;
            None keeps every image.
        decrypt: only None.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a bad ``usage``, a missing
            folder or conflicting sampling arguments.
        RuntimeError: for a missing or malformed list file, or an image that does not exist.
    """

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage='all',
                 sampler=None, decode=False, extensions=None, num_samples=None, num_shards=None,
                 shard_id=None, cache=None, decrypt=None):
        who = 'CelebADataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = 'all' if usage is None else usage
        if not isinstance(usage, str) or usage not in USAGES:
            raise ValueError(f"{who}: usage {usage!r} is not within the valid set of "
                             f"{list(USAGES)}")
        if not isinstance(decode, bool):
            raise TypeError(f"{who}: decode must be a bool, got {decode!r}")
        if extensions is not None and (not isinstance(extensions, list) or
                                       not all(isinstance(e, str) for e in extensions)):
            raise TypeError(f"{who}: extensions must be a list of str, got {extensions!r}")
        if decrypt is not None:
            raise ValueError(f"{who}: decrypt is not supported; decrypt the files first")
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        self.attr_names, rows = self._attributes(dataset_dir, who)
        if usage != 'all':
            parts = self._partition(dataset_dir, who)
            rows = [r for r in rows if parts.get(r[0]) == USAGES[usage]]
        if extensions is not None:
            rows = [r for r in rows if os.path.splitext(r[0])[1] in extensions]
        self._files = [(os.path.join(dataset_dir, name), attr) for name, attr in rows]
        self.dataset_dir, self.usage, self.decode = dataset_dir, usage, decode
        self._n = len(self._files)
        self._names = ['image', 'attr']

    @staticmethod
    def _attributes(dataset_dir, who):
        """``(attribute names, [(file name, uint32 0/1 array)])`` of list_attr_celeba.txt."""
        path = os.path.join(dataset_dir, 'list_attr_celeba.txt')
        if not os.path.isfile(path):
            raise RuntimeError(f"{who}: {path} does not exist")
        with open(path) as f:
            lines = [line.split() for line in f if line.strip()]
        if len(lines) < 2:
            raise RuntimeError(f"{who}: {path} needs the image count and the attribute names "
                               f"on its first two lines")
        names, rows = lines[1], []
        for number, fields in enumerate(lines[2:], 3):
            values = fields[1:]
            if len(values) != len(names) or any(v not in ('1', '-1') for v in values):
                raise RuntimeError(f"{who}: {path} line {number}: expected a file name and "
                                   f"{len(names)} values of 1 or -1, got {' '.join(fields)!r}")
            rows.append((fields[0], np.array([v == '1' for v in values], np.uint32)))
        return names, rows

    @staticmethod
    def _partition(dataset_dir, who):
        """``{file name: '0' | '1' | '2'}`` of list_eval_partition.txt."""
        path = os.path.join(dataset_dir, 'list_eval_partition.txt')
        if not os.path.isfile(path):
            raise RuntimeError(f"{who}: {path} does not exist; it is needed to pick a usage "
                               f"other than 'all'")
        with open(path) as f:
            pairs = [line.split() for line in f if line.strip()]
        if any(len(p) != 2 for p in pairs):
            raise RuntimeError(f"{who}: {path}: each line must be a file name and a partition")
        return dict(pairs)

    def _row(self, i):
        path, attr = self._files[i]
        if not os.path.isfile(path):
            raise RuntimeError(f"CelebADataset: invalid file, {path} does not exist")
        with open(path, 'rb') as f:
            data = f.read()
        image = decode_image(data, path, 'CelebADataset') if self.decode else \
            np.frombuffer(data, np.uint8)
        return image, attr.copy()
