"""``ManifestDataset``: images listed in a manifest file (ModelArts' format: one JSON object a
line, with the image's ``source`` path, its ``usage`` and ``annotation`` labels)."""
import json
import os

import numpy as np

from .file_sources import FileSource, check_bool, check_class_indexing
from .image_folder import decode_image

__all__ = ['ManifestDataset']

USAGES = ('train', 'eval', 'inference')


class ManifestDataset(FileSource):
    """The images of one usage of a manifest file: columns ``image`` and ``label`` (int32).

    Each line of the manifest is a JSON object such as ``{"source": "images/1.jpg", "usage":
    "train", "annotation": [{"type": "modelarts/image_classification", "name": "dog"}]}``.
    Lines are read in file order, keeping those whose ``usage`` matches (case-insensitively);
    ``source`` is opened as given (a relative path from the working directory). ``label``
    holds the class number of each annotation name: a scalar for one name, a 1-d array for
    several. Classes are the names of the usage's annotations in sorted order, numbered from
    0, unless ``class_indexing`` gives the numbers; then only its names count and lines left
    without one are skipped. ``image`` is the file's bytes (a 1-d uint8 array) unless
    ``decode=True``, which gives an RGB (H, W, 3) uint8 array.

    Args:
        dataset_file: the manifest file.
        usage: 'train', 'eval' or 'inference'. Default 'train'.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.
        class_indexing: a dict ``{annotation name: label}``, or None.
        decode: decode the images with Pillow. Default False.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a missing file, a bad
            ``usage`` or conflicting sampling arguments.
        RuntimeError: for a line that is not JSON or lacks ``source`` or ``annotation``, an
            image file that does not exist, or no image of ``usage``.
    """

    def __init__(self, dataset_file, usage='train', num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, class_indexing=None, decode=False, num_shards=None,
                 shard_id=None, cache=None):
        who = 'ManifestDataset'
        if not isinstance(dataset_file, (str, os.PathLike)):
            raise TypeError(f"{who}: dataset_file must be a str path, got {dataset_file!r}")
        dataset_file = os.fspath(dataset_file)
        if not os.path.isfile(dataset_file):
            raise ValueError(f"{who}: the file {dataset_file} does not exist or permission "
                             f"denied!")
        usage = 'train' if usage is None else usage
        if not isinstance(usage, str) or usage not in USAGES:
            raise ValueError(f"{who}: usage {usage!r} is not within the valid set of "
                             f"{list(USAGES)}")
        check_class_indexing(class_indexing, who)
        check_bool(decode, who, 'decode')
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        entries = self._parse(dataset_file, usage, who)
        if class_indexing:
            self._class_indexing = dict(class_indexing)
        else:
            names = sorted({n for _, labels in entries for n in labels})
            self._class_indexing = {n: i for i, n in enumerate(names)}
        index = self._class_indexing
        self._files = []
        for source, names in entries:
            labels = [index[n] for n in names if n in index]
            if labels:
                self._files.append((source, np.array(labels[0] if len(labels) == 1 else labels,
                                                     np.int32)))
        if not self._files:
            raise RuntimeError(f"{who}: no image of usage '{usage}' (with a label of "
                               f"class_indexing) in {dataset_file}")
        self.dataset_file, self.usage, self.decode = dataset_file, usage, decode
        self._n = len(self._files)
        self._names = ['image', 'label']

    @staticmethod
    def _parse(path, usage, who):
        """``[(source, [annotation names])]`` of the lines of ``usage`` with a label."""
        entries = []
        with open(path, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    item = json.loads(line)
                    source, line_usage = item['source'], item.get('usage', '')
                    names = [a['name'] for a in item['annotation']]
                except (ValueError, KeyError, TypeError) as e:
                    raise RuntimeError(f"{who}: invalid manifest file {path} line {number}: "
                                       f"{type(e).__name__} {e} (each line needs 'source' "
                                       f"and 'annotation' with 'name's)") from None
                if str(line_usage).lower() != usage or not names:
                    continue
                if not os.path.isfile(source):
                    raise RuntimeError(f"{who}: invalid file path, {source} does not exist "
                                       f"(line {number} of {path}).")
                entries.append((source, names))
        return entries

    def num_classes(self):
        """The number of classes."""
        return len(self._class_indexing)

    def get_class_indexing(self):
        """The ``{annotation name: label}`` mapping."""
        return dict(self._class_indexing)

    def _class_ids(self):
        labels = [label for _, label in self._files]
        if any(label.ndim for label in labels):
            raise RuntimeError("PKSampler: a ManifestDataset row with several labels has no "
                               "single class")
        return np.array(labels, np.int64)

    def _row(self, i):
        path, label = self._files[i]
        with open(path, 'rb') as f:
            data = f.read()
        image = decode_image(data, path, 'ManifestDataset') if self.decode else \
            np.frombuffer(data, np.uint8)
        return image, label.copy()
