"""``ImageFolderDataset``: images sorted into one folder per class, read from local files."""
import io
import os

import numpy as np

from .file_sources import FileSource, check_bool, check_class_indexing, check_dir

__all__ = ['ImageFolderDataset']


def decode_image(data, path, who):
    """Encoded image bytes as an RGB HWC uint8 array (Pillow)."""
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(io.BytesIO(data)) as img:
            return np.asarray(img.convert('RGB'))
    except (UnidentifiedImageError, OSError, ValueError) as e:
        raise RuntimeError(f"{who}: invalid image, {path} decode failed, the image is broken: "
                           f"{e}") from None


class ImageFolderDataset(FileSource):
    """Images in ``dataset_dir/<class name>/<file>``: columns ``image`` and ``label`` (int32).

    Classes are the sub-folders in sorted name order, numbered from 0, unless
    ``class_indexing`` gives the numbers (and then only its folders are read); files of a class
    are read in sorted name order. ``image`` is the file's bytes (a 1-d uint8 array) unless
    ``decode=True``, which gives an RGB (H, W, 3) uint8 array.

    Args:
        dataset_dir: the root folder.
        num_samples: at most this many rows per epoch (None or 0: all).
        num_parallel_workers: checked and ignored: files are read in the calling thread.
        shuffle: read in a new random order each epoch. Default None: True without a sampler.
        sampler: a ``Sampler`` or an iterable of row indices.
        extensions: a list of file extensions to keep, compared case-sensitively (['.JPEG',
            '.png']). Default None: every file.
        class_indexing: a dict ``{folder name: label}``.
        decode: decode the images with Pillow. Default False.
        num_shards, shard_id: read only one shard (see ``DistributedSampler``).
        cache: a ``DatasetCache`` keeping the rows (decoded images) in memory, or None.
        decrypt: only None (hookgrad has no decryption).

    Raises:
        TypeError: for arguments of the wrong type. ValueError: for a missing folder or
        conflicting sampling arguments. RuntimeError: for a ``class_indexing`` naming a folder
        that does not exist (MindSpore also counts the rows of the classes it leaves out in
        ``get_dataset_size``; hookgrad counts the rows it yields). Iterating with
        ``decode=True`` raises RuntimeError for a file Pillow cannot read.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, extensions=None, class_indexing=None, decode=False,
                 num_shards=None, shard_id=None, cache=None, decrypt=None):
        who = 'ImageFolderDataset'
        dataset_dir = check_dir(dataset_dir, who)
        if extensions is not None and (not isinstance(extensions, list) or
                                       not all(isinstance(e, str) for e in extensions)):
            raise TypeError(f"{who}: extensions must be a list of str, got {extensions!r}")
        check_class_indexing(class_indexing, who)
        check_bool(decode, who, 'decode')
        if decrypt is not None:
            raise ValueError(f"{who}: decrypt is not supported; decrypt the files first")
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        folders = sorted(d for d in os.listdir(dataset_dir)
                         if os.path.isdir(os.path.join(dataset_dir, d)))
        if class_indexing is None:
            self._class_indexing = {d: i for i, d in enumerate(folders)}
        else:
            missing = sorted(set(class_indexing) - set(folders))
            if missing:
                raise RuntimeError(f"{who}: invalid subdirectory, class_indexing names "
                                   f"{missing}, which are not folders under {dataset_dir}")
            self._class_indexing = dict(class_indexing)
        exts = None if extensions is None else set(extensions)
        self._files = []
        for folder in folders:
            if folder not in self._class_indexing:
                continue
            path = os.path.join(dataset_dir, folder)
            label = np.int32(self._class_indexing[folder])
            for name in sorted(os.listdir(path)):
                file = os.path.join(path, name)
                if os.path.isfile(file) and (exts is None or os.path.splitext(name)[1] in exts):
                    self._files.append((file, label))
        self.dataset_dir, self.decode = dataset_dir, decode
        self._n = len(self._files)
        self._names = ['image', 'label']

    def num_classes(self):
        """The number of classes: of ``class_indexing``, else of sub-folders."""
        return len(self._class_indexing)

    def get_class_indexing(self):
        """The ``{folder name: label}`` mapping."""
        return dict(self._class_indexing)

    def _row(self, i):
        path, label = self._files[i]
        with open(path, 'rb') as f:
            data = f.read()
        if self.decode:
            image = decode_image(data, path, 'ImageFolderDataset')
        else:
            image = np.frombuffer(data, np.uint8)
        return image, np.asarray(label)
