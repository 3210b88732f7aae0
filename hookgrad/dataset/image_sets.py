"""Readers of small image datasets kept as folders of image files and list files:
``OmniglotDataset``, ``Caltech256Dataset``, ``Food101Dataset``, ``SBUDataset``,
``FlickrDataset``, ``SUN397Dataset`` and ``RenderedSST2Dataset``, and of ``SemeionDataset``
(16x16 bitmaps in one text file), in MindSpore's row order and dtypes."""
import os

import numpy as np

from .file_sources import FileSource, check_dir, check_usage
from .image_folder import decode_image

__all__ = ['OmniglotDataset', 'Caltech256Dataset', 'Food101Dataset', 'SBUDataset',
           'SemeionDataset', 'FlickrDataset', 'SUN397Dataset', 'RenderedSST2Dataset']


def _sorted_dirs(path):
    return sorted(d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d)))


def _sorted_files(path, extensions=None):
    return [os.path.join(path, f) for f in sorted(os.listdir(path))
            if os.path.isfile(os.path.join(path, f)) and
            (extensions is None or os.path.splitext(f)[1] in extensions)]


class _ImageRows(FileSource):
    """Rows ``(image, label)`` from ``self._files``, a list of ``(path, label array)``."""

    def _start(self, who, decode, num_samples, num_parallel_workers, shuffle, sampler,
               num_shards, shard_id, cache):
        if not isinstance(decode, bool):
            raise TypeError(f"{who}: decode must be a bool, got {decode!r}")
        FileSource.__init__(self, who, num_samples, num_parallel_workers, shuffle, sampler,
                            num_shards, shard_id, cache)
        self.decode, self._who = decode, who

    def _finish(self, files, names):
        if not files:
            raise RuntimeError(f"{self._who}: no image found under {self.dataset_dir}")
        self._files, self._n, self._names = files, len(files), names

    def _class_ids(self):
        labels = [label for _, label in self._files]
        if labels[0].dtype.kind not in 'iu':
            return np.unique(np.array(labels), return_inverse=True)[1]
        return np.array(labels, np.int64)

    def _row(self, i):
        path, label = self._files[i]
        if not os.path.isfile(path):
            raise RuntimeError(f"{self._who}: invalid file, {path} does not exist")
        with open(path, 'rb') as f:
            data = f.read()
        image = decode_image(data, path, self._who) if self.decode else \
            np.frombuffer(data, np.uint8)
        return image, label.copy()


class OmniglotDataset(_ImageRows):
    """Omniglot: columns ``image`` and ``label`` (int32), one class per character.

    Images are ``<images_background | images_evaluation>/<alphabet>/<character>/<file>``;
    classes are the (alphabet, character) folders in sorted order, numbered from 0, and the
    files of a class are read in sorted name order. ``image`` is the file's bytes (1-d uint8)
    unless ``decode=True`` (RGB (H, W, 3) uint8).

    Args:
        dataset_dir: the folder holding ``images_background`` and ``images_evaluation``.
        background: read the background set (True, also None, the default) or the evaluation
            set (False).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.
        decode: decode the images with Pillow. Default False.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a missing folder or
            conflicting sampling arguments.
        RuntimeError: when the set holds no image.
    """

    def __init__(self, dataset_dir, background=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        who = 'OmniglotDataset'
        dataset_dir = check_dir(dataset_dir, who)
        background = True if background is None else background
        if not isinstance(background, bool):
            raise TypeError(f"{who}: background must be a bool or None, got {background!r}")
        self._start(who, decode, num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
        root = check_dir(os.path.join(
            dataset_dir, 'images_background' if background else 'images_evaluation'), who)
        self.dataset_dir, self.background = dataset_dir, background
        files, label = [], 0
        for alphabet in _sorted_dirs(root):
            for character in _sorted_dirs(os.path.join(root, alphabet)):
                paths = _sorted_files(os.path.join(root, alphabet, character))
                files += [(p, np.array(label, np.int32)) for p in paths]
                label += 1
        self._finish(files, ['image', 'label'])


class Caltech256Dataset(_ImageRows):
    """Caltech-256: columns ``image`` and ``label`` (int32).

    Images are ``<dataset_dir>/<NNN.name>/<file>.jpg``; the class folders are numbered in
    sorted order from 0 and the ``.jpg`` files of each read in sorted name order (other files
    are skipped). ``image`` is the file's bytes (1-d uint8) unless ``decode=True``.

    Args:
        dataset_dir: the folder of the class folders.
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``OmniglotDataset``.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a missing folder or
            conflicting sampling arguments.
        RuntimeError: when there is no image.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'Caltech256Dataset'
        dataset_dir = check_dir(dataset_dir, who)
        self._start(who, decode, num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
        self.dataset_dir = dataset_dir
        files = []
        for label, folder in enumerate(_sorted_dirs(dataset_dir)):
            files += [(p, np.array(label, np.int32))
                      for p in _sorted_files(os.path.join(dataset_dir, folder), ('.jpg',))]
        self._finish(files, ['image', 'label'])


class Food101Dataset(_ImageRows):
    """Food-101: columns ``image`` and ``label`` (the class name, a str array).

    ``meta/train.txt`` and ``meta/test.txt`` list ``<class>/<id>`` lines; each is the image
    ``images/<class>/<id>.jpg``, read in the order of the list ('all': train then test).

    Args:
        dataset_dir: the folder holding ``images`` and ``meta``.
        usage: 'train', 'test' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``OmniglotDataset``.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a bad ``usage``, a missing
            folder or conflicting sampling arguments.
        RuntimeError: for a missing list file or image.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        who = 'Food101Dataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = check_usage(usage, who)
        self._start(who, decode, num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
        self.dataset_dir, self.usage = dataset_dir, usage
        files = []
        for part in (('train', 'test') if usage == 'all' else (usage,)):
            listing = os.path.join(dataset_dir, 'meta', f'{part}.txt')
            if not os.path.isfile(listing):
                raise RuntimeError(f"{who}: {listing} does not exist")
            with open(listing) as f:
                for line in f:
                    entry = line.strip()
                    if not entry:
                        continue
                    path = os.path.join(dataset_dir, 'images', f'{entry}.jpg')
                    if not os.path.isfile(path):
                        raise RuntimeError(f"{who}: invalid file, {path} does not exist "
                                           f"(listed in {listing})")
                    files.append((path, np.array(entry.split('/')[0])))
        self._finish(files, ['image', 'label'])


class SBUDataset(_ImageRows):
    """SBU captioned photos: columns ``image`` and ``caption`` (a str array).

    Line ``i`` of ``SBU_captioned_photo_dataset_urls.txt`` is the Flickr URL of the image
    whose caption is line ``i`` of ``SBU_captioned_photo_dataset_captions.txt``; the URL
    ``.../<a>/<b>.jpg`` is the file ``sbu_images/m_<a>_<b>.jpg``. Photos whose file is
    missing are skipped, and trailing whitespace is dropped from captions, as in MindSpore.

    Args:
        dataset_dir: the folder of the two text files and ``sbu_images``.
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``OmniglotDataset``.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a missing folder or
            conflicting sampling arguments.
        RuntimeError: for missing text files, files of different lengths, or no image.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'SBUDataset'
        dataset_dir = check_dir(dataset_dir, who)
        self._start(who, decode, num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
        self.dataset_dir = dataset_dir
        lists = []
        for name in ('urls', 'captions'):
            path = os.path.join(dataset_dir, f'SBU_captioned_photo_dataset_{name}.txt')
            if not os.path.isfile(path):
                raise RuntimeError(f"{who}: {path} does not exist")
            with open(path, encoding='utf-8') as f:
                lists.append(f.read().splitlines())
        urls, captions = lists
        if len(urls) != len(captions):
            raise RuntimeError(f"{who}: {len(urls)} URLs but {len(captions)} captions")
        files = []
        for url, caption in zip(urls, captions):
            parts = url.strip().split('/')
            path = os.path.join(dataset_dir, 'sbu_images', f'm_{parts[-2]}_{parts[-1]}')
            if len(parts) >= 2 and os.path.isfile(path):
                files.append((path, np.array(caption.rstrip())))
        self._finish(files, ['image', 'caption'])


class SemeionDataset(FileSource):
    """Semeion handwritten digits from ``semeion.data``: columns ``image`` (16, 16) uint8 (0 or
    1) and ``label`` uint32.

    Each line holds 256 pixel values and a one-hot digit of 10 values; the label is the
    position of the 1.

    Args:
        dataset_dir: the folder of ``semeion.data``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a missing folder or conflicting sampling arguments.
        RuntimeError: for a missing file or a malformed line.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'SemeionDataset'
        dataset_dir = check_dir(dataset_dir, who)
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        path = os.path.join(dataset_dir, 'semeion.data')
        if not os.path.isfile(path):
            raise RuntimeError(f"{who}: {path} does not exist")
        images, labels = [], []
        with open(path) as f:
            for number, line in enumerate(f, 1):
                fields = line.split()
                if not fields:
                    continue
                try:
                    values = np.array(fields, np.float32)
                except ValueError:
                    values = np.zeros(0)
                if values.size != 266 or np.count_nonzero(values[256:]) != 1:
                    raise RuntimeError(f"{who}: {path} line {number}: expected 256 pixel "
                                       f"values and a one-hot digit of 10")
                images.append(values[:256].astype(np.uint8).reshape(16, 16))
                labels.append(int(np.flatnonzero(values[256:])[0]))
        self.dataset_dir = dataset_dir
        self._data = [np.stack(images), np.array(labels, np.uint32)]
        self._n = len(labels)
        self._names = ['image', 'label']

    def _load(self):
        return self._data

    def _class_ids(self):
        return self._data[1].astype(np.int64)


class FlickrDataset(_ImageRows):
    """Flickr8k / Flickr30k: columns ``image`` and ``annotation`` (a 1-d str array of the
    image's captions, in the order of the annotation file).

    Each line of ``annotation_file`` is ``<image file>#<n>\\t<caption>``; images are read from
    ``dataset_dir`` in sorted file name order, as MindSpore does.

    Args:
        dataset_dir: the folder of the images.
        annotation_file: the caption file (``Flickr8k.token.txt``, ``results_20130124.token``).
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``OmniglotDataset``.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a missing folder or file, or
            conflicting sampling arguments.
        RuntimeError: for a line without a tab or '#'; iterating raises RuntimeError for a
            listed image that does not exist.
    """

    def __init__(self, dataset_dir, annotation_file, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        who = 'FlickrDataset'
        dataset_dir = check_dir(dataset_dir, who)
        if not isinstance(annotation_file, (str, os.PathLike)) or \
                not os.path.isfile(annotation_file):
            raise ValueError(f"{who}: the annotation file {annotation_file!r} does not exist "
                             f"or permission denied!")
        self._start(who, decode, num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
        self.dataset_dir = dataset_dir
        captions = {}
        with open(annotation_file, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                key, tab, caption = line.rstrip('\r\n').partition('\t')
                name, hash_, _ = key.partition('#')
                if not tab or not hash_:
                    raise RuntimeError(f"{who}: {annotation_file} line {number}: expected "
                                       f"'<image>#<n><tab><caption>'")
                captions.setdefault(name, []).append(caption)
        self._finish([(os.path.join(dataset_dir, name), np.array(captions[name]))
                      for name in sorted(captions)], ['image', 'annotation'])


class SUN397Dataset(_ImageRows):
    """SUN397 scenes: columns ``image`` and ``label`` (uint32).

    ``ClassName.txt`` lists the class folders (``/a/abbey``, ``/b/balcony/exterior``...); a
    class's label is its line number in that file, from 0. Rows come class folder by class
    folder in sorted order, the ``.jpg`` files of each in sorted name order.

    Args:
        dataset_dir: the folder of ``ClassName.txt`` and the class folders.
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``OmniglotDataset``.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a missing folder or
            conflicting sampling arguments.
        RuntimeError: for a missing ``ClassName.txt``, a listed folder that does not exist, or
            no image.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'SUN397Dataset'
        dataset_dir = check_dir(dataset_dir, who)
        self._start(who, decode, num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
        self.dataset_dir = dataset_dir
        listing = os.path.join(dataset_dir, 'ClassName.txt')
        if not os.path.isfile(listing):
            raise RuntimeError(f"{who}: {listing} does not exist")
        with open(listing) as f:
            classes = [line.strip() for line in f if line.strip()]
        files = []
        for label, name in sorted(enumerate(classes), key=lambda c: c[1]):
            folder = os.path.join(dataset_dir, *name.strip('/').split('/'))
            if not os.path.isdir(folder):
                raise RuntimeError(f"{who}: the class folder {folder} listed in {listing} "
                                   f"does not exist")
            files += [(p, np.array(label, np.uint32)) for p in _sorted_files(folder, ('.jpg',))]
        self._finish(files, ['image', 'label'])


class RenderedSST2Dataset(_ImageRows):
    """Rendered SST-2 (sentences rendered as images): columns ``image`` and ``label`` (uint32:
    0 negative, 1 positive).

    Images are ``<train | valid | test>/<negative | positive>/<file>``; 'all' reads the
    folders in sorted order (test, train, valid), negative before positive, files in sorted
    name order.

    Args:
        dataset_dir: the folder of ``train``, ``valid`` and ``test``.
        usage: 'train', 'val', 'test' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``OmniglotDataset``.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a bad ``usage``, a missing
            folder or conflicting sampling arguments.
        RuntimeError: when there is no image.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        who = 'RenderedSST2Dataset'
        dataset_dir = check_dir(dataset_dir, who)
        usage = 'all' if usage is None else usage
        folders = {'train': ['train'], 'val': ['valid'], 'test': ['test'],
                   'all': ['test', 'train', 'valid']}
        if not isinstance(usage, str) or usage not in folders:
            raise ValueError(f"{who}: usage {usage!r} is not within the valid set of "
                             f"{list(folders)}")
        self._start(who, decode, num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
        self.dataset_dir, self.usage = dataset_dir, usage
        files = []
        for part in folders[usage]:
            for label, polarity in enumerate(('negative', 'positive')):
                folder = os.path.join(dataset_dir, part, polarity)
                if os.path.isdir(folder):
                    files += [(p, np.array(label, np.uint32)) for p in _sorted_files(folder)]
        self._finish(files, ['image', 'label'])
