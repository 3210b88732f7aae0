"""Readers of image datasets kept as binary files, MATLAB files or image folders with list
files: ``STL10Dataset``, ``SVHNDataset``, ``Caltech101Dataset``, ``Flowers102Dataset``,
``LFWDataset``, ``Places365Dataset``, ``DIV2KDataset`` and ``PhotoTourDataset``, with
MindSpore's columns, dtypes and row order (checked against MindSpore on the same files).

An ``image`` column is the file's bytes (1-d uint8) unless ``decode=True`` (RGB (H, W, 3)
uint8). The ``.mat`` files of SVHN, Caltech-101 and Flowers-102 are read with SciPy's
``loadmat``, as MindSpore does; SciPy is optional and only needed for those.
"""
import os

import numpy as np

from .file_sources import FileSource, check_choice, check_dir
from .image_folder import decode_image

__all__ = ['STL10Dataset', 'SVHNDataset', 'Caltech101Dataset', 'Flowers102Dataset',
           'LFWDataset', 'Places365Dataset', 'DIV2KDataset', 'PhotoTourDataset', 'load_mat']


def load_mat(path, who):
    """The variables of a MATLAB ``.mat`` file (``scipy.io.loadmat``)."""
    try:
        from scipy.io import loadmat
    except ImportError:
        raise ImportError(f"{who} reads MATLAB .mat files with SciPy, which is not installed: "
                          f"pip install scipy") from None
    if not os.path.isfile(path):
        raise RuntimeError(f"{who}: invalid file, {path} does not exist")
    return loadmat(path)


def _read_image(path, decode, who):
    if not os.path.isfile(path):
        raise RuntimeError(f"{who}: invalid file, {path} does not exist")
    with open(path, 'rb') as f:
        data = f.read()
    return decode_image(data, path, who) if decode else np.frombuffer(data, np.uint8).copy()


class _Rows(FileSource):
    """A file source whose row ``i`` is ``self._make(self._items[i])``."""

    def _start(self, who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
               sampler, num_shards, shard_id, cache):
        dataset_dir = check_dir(dataset_dir, who)
        if decode is not None and not isinstance(decode, bool):
            raise TypeError(f"{who}: decode must be a bool, got {decode!r}")
        FileSource.__init__(self, who, num_samples, num_parallel_workers, shuffle, sampler,
                            num_shards, shard_id, cache)
        self.dataset_dir, self.decode, self._who = dataset_dir, bool(decode), who
        return dataset_dir

    def _finish(self, items, names):
        if not len(items):
            raise RuntimeError(f"{self._who}: no sample found under {self.dataset_dir}")
        self._items, self._n, self._names = items, len(items), names

    def _row(self, i):
        return self._make(self._items[i])

    def _image(self, path):
        return _read_image(path, self.decode, self._who)


class STL10Dataset(_Rows):
    """STL-10 from its binary files: columns ``image`` ((96, 96, 3) uint8) and ``label``
    (int32 from 0; -1 for the unlabeled images).

    ``<part>_X.bin`` holds the images column-major and ``<part>_y.bin`` labels 1..10.
    'all' reads test, train then unlabeled.

    Args:
        dataset_dir: the folder of the ``.bin`` files.
        usage: 'train', 'test', 'unlabeled', 'train+unlabeled' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or conflicting sampling arguments.
        RuntimeError: for a missing file or files of mismatched sizes.
    """

    _PARTS = {'train': ('train',), 'test': ('test',), 'unlabeled': ('unlabeled',),
              'train+unlabeled': ('train', 'unlabeled'), 'all': ('test', 'train', 'unlabeled')}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'STL10Dataset'
        usage = check_choice(usage, tuple(self._PARTS), who, 'usage', 'all')
        root = self._start(who, dataset_dir, False, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage = usage
        items = []
        for part in self._PARTS[usage]:
            path = os.path.join(root, f'{part}_X.bin')
            if not os.path.isfile(path):
                raise RuntimeError(f"{who}: invalid file, {path} does not exist")
            size = os.path.getsize(path)
            if size % (3 * 96 * 96):
                raise RuntimeError(f"{who}: {path} is not a whole number of 96x96x3 images")
            n = size // (3 * 96 * 96)
            if part == 'unlabeled':
                labels = np.full(n, -1, np.int32)
            else:
                label_path = os.path.join(root, f'{part}_y.bin')
                if not os.path.isfile(label_path):
                    raise RuntimeError(f"{who}: invalid file, {label_path} does not exist")
                labels = np.fromfile(label_path, np.uint8).astype(np.int32) - 1
                if len(labels) != n:
                    raise RuntimeError(f"{who}: {label_path} holds {len(labels)} labels for "
                                       f"{n} images")
            items += [(path, k, labels[k]) for k in range(n)]
        self._finish(items, ['image', 'label'])

    def _make(self, item):
        path, k, label = item
        raw = np.fromfile(path, np.uint8, count=3 * 96 * 96, offset=k * 3 * 96 * 96)
        image = np.ascontiguousarray(raw.reshape(3, 96, 96).transpose(2, 1, 0))
        return image, np.array(label, np.int32)


class SVHNDataset(_Rows):
    """SVHN from ``<part>_32x32.mat``: columns ``image`` ((32, 32, 3) uint8) and ``label``
    (uint32; the file's digit 10 is label 0). 'all' reads train, test, then extra. Needs
    SciPy.

    Args:
        dataset_dir: the folder of the ``.mat`` files.
        usage: 'train', 'test', 'extra' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as
            ``MnistDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or conflicting sampling arguments.
        ImportError: without SciPy. RuntimeError: for a missing file.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        who = 'SVHNDataset'
        usage = check_choice(usage, ('train', 'test', 'extra', 'all'), who, 'usage', 'all')
        root = self._start(who, dataset_dir, False, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, None)
        self.usage = usage
        images, labels = [], []
        for part in (('train', 'test', 'extra') if usage == 'all' else (usage,)):
            mat = load_mat(os.path.join(root, f'{part}_32x32.mat'), who)
            images.append(np.ascontiguousarray(np.transpose(mat['X'], (3, 0, 1, 2))))
            label = mat['y'].astype(np.uint32).reshape(-1)
            labels.append(np.where(label == 10, 0, label).astype(np.uint32))
        self._images, self._labels = np.concatenate(images), np.concatenate(labels)
        self._finish(np.arange(len(self._labels)), ['image', 'label'])

    def _make(self, i):
        return self._images[i], self._labels[i]


class Caltech101Dataset(_Rows):
    """Caltech-101: ``101_ObjectCategories/<class>/image_NNNN.jpg`` with the contour in
    ``Annotations/<class>/annotation_NNNN.mat`` (Faces, Faces_easy, Motorbikes and airplanes
    are ``Faces_2``, ``Faces_3``, ``Motorbikes_16`` and ``Airplanes_Side_2`` there).

    Columns by ``target_type``: 'category' ``[image, category]``, 'annotation'
    ``[image, annotation]``, 'all' ``[image, category, annotation]``; ``category`` is int64
    (the class folder's place in sorted order, BACKGROUND_Google left out) and ``annotation``
    the float64 ``obj_contour`` array, as MindSpore gives them. Annotations need SciPy.

    Args:
        dataset_dir: the folder of the two folders.
        target_type: 'category', 'annotation' or 'all' (None: 'category').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id:
            as ``ImageFolderDataset``.

    Raises:
        ValueError: for a bad ``target_type``, a missing folder or conflicting sampling
            arguments. Reading raises RuntimeError for a missing image or annotation.
    """

    _ANNOTATION_NAMES = {'Faces': 'Faces_2', 'Faces_easy': 'Faces_3',
                         'Motorbikes': 'Motorbikes_16', 'airplanes': 'Airplanes_Side_2'}

    def __init__(self, dataset_dir, target_type=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None):
        who = 'Caltech101Dataset'
        target_type = check_choice(target_type, ('category', 'annotation', 'all'), who,
                                   'target_type', 'category')
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, None)
        self.target_type = target_type
        image_dir = check_dir(os.path.join(root, '101_ObjectCategories'), who)
        self.classes = [c for c in sorted(os.listdir(image_dir)) if c != 'BACKGROUND_Google']
        items = []
        for label, name in enumerate(self.classes):
            folder = os.path.join(image_dir, name)
            if os.path.isdir(folder):
                items += [(name, label, k) for k in range(1, len(os.listdir(folder)) + 1)]
        names = {'category': ['image', 'category'], 'annotation': ['image', 'annotation'],
                 'all': ['image', 'category', 'annotation']}[target_type]
        self._finish(items, names)

    def get_class_indexing(self):
        """``{class folder: category}``."""
        return {name: k for k, name in enumerate(self.classes)}

    def _make(self, item):
        name, label, k = item
        image = self._image(os.path.join(self.dataset_dir, '101_ObjectCategories', name,
                                         f'image_{k:04d}.jpg'))
        category = np.array(label, np.int64)
        if self.target_type == 'category':
            return image, category
        folder = self._ANNOTATION_NAMES.get(name, name)
        contour = load_mat(os.path.join(self.dataset_dir, 'Annotations', folder,
                                        f'annotation_{k:04d}.mat'), self._who)['obj_contour']
        contour = np.asarray(contour, np.float64)
        return (image, contour) if self.target_type == 'annotation' else \
            (image, category, contour)


class Flowers102Dataset(_Rows):
    """Oxford Flowers-102: ``jpg/image_NNNNN.jpg`` with labels 1..102 in ``imagelabels.mat``
    (given as 0..101, uint32) and splits in ``setid.mat`` ('all': train, test, then valid).

    Columns: 'Classification' ``[image, label]``; 'Segmentation' ``[image, segmentation,
    label]`` with ``segmim/segmim_NNNNN.jpg``. Needs SciPy.

    Args:
        dataset_dir: the folder of the files.
        task: 'Classification' or 'Segmentation' (None: 'Classification').
        usage: 'train', 'valid', 'test' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id:
            as ``ImageFolderDataset``.

    Raises:
        ValueError: for a bad ``task`` or ``usage``, a missing folder or conflicting sampling
            arguments. ImportError: without SciPy. RuntimeError: for a missing file.
    """

    def __init__(self, dataset_dir, task='Classification', usage='all', num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None):
        who = 'Flowers102Dataset'
        task = check_choice(task, ('Classification', 'Segmentation'), who, 'task', 'Classification')
        usage = check_choice(usage, ('train', 'valid', 'test', 'all'), who, 'usage', 'all')
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, None)
        self.task, self.usage = task, usage
        labels = (load_mat(os.path.join(root, 'imagelabels.mat'), who)['labels'][0] - 1)
        self._labels = labels.astype(np.uint32)
        setid = load_mat(os.path.join(root, 'setid.mat'), who)
        keys = {'train': ('trnid',), 'test': ('tstid',), 'valid': ('valid',),
                'all': ('trnid', 'tstid', 'valid')}[usage]
        items = [int(i) for key in keys for i in setid[key][0]]
        self._finish(items, ['image', 'label'] if task == 'Classification' else
                     ['image', 'segmentation', 'label'])

    def get_class_indexing(self):
        """``{'1': 0, ..., '102': 101}``: MindSpore's class indexing."""
        return {str(k + 1): k for k in range(102)}

    def _make(self, k):
        image = self._image(os.path.join(self.dataset_dir, 'jpg', f'image_{k:05d}.jpg'))
        label = self._labels[k - 1]
        if self.task == 'Classification':
            return image, label
        seg = self._image(os.path.join(self.dataset_dir, 'segmim', f'segmim_{k:05d}.jpg'))
        return image, seg, label


def _fields(path, who):
    if not os.path.isfile(path):
        raise RuntimeError(f"{who}: invalid file, {path} does not exist")
    with open(path) as f:
        return [line.split() for line in f if line.strip()]


class LFWDataset(_Rows):
    """Labeled Faces in the Wild.

    'people' gives ``[image, label]`` (label: the person's line in ``lfw-names.txt``,
    uint32) for every image of the people of ``people.txt`` ('10fold'), ``peopleDevTrain.txt``
    ('train'), ``peopleDevTest.txt`` ('test') or both dev files ('all'); 'pairs' gives
    ``[image1, image2, label]`` (1 for the same person) from ``pairs.txt`` /
    ``pairsDevTrain.txt`` / ``pairsDevTest.txt`` likewise. Images are
    ``<image folder>/<name>/<name>_NNNN.jpg``.

    Args:
        dataset_dir: the folder of the image folders and list files.
        task: 'people' or 'pairs' (None: 'people').
        usage: '10fold', 'train', 'test' or 'all' (None: 'all').
        image_set: 'original' (``lfw``), 'funneled' (``lfw_funneled``) or 'deepfunneled'
            (``lfw-deepfunneled``) (None: 'funneled').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``ImageFolderDataset``.

    Raises:
        ValueError: for a bad ``task``, ``usage`` or ``image_set``, a missing folder or
            conflicting sampling arguments.
        RuntimeError: for a missing list file or a line not in its form.
    """

    _FOLDERS = {'original': 'lfw', 'funneled': 'lfw_funneled', 'deepfunneled': 'lfw-deepfunneled'}

    def __init__(self, dataset_dir, task=None, usage=None, image_set=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        who = 'LFWDataset'
        task = check_choice(task, ('people', 'pairs'), who, 'task', 'people')
        usage = check_choice(usage, ('10fold', 'train', 'test', 'all'), who, 'usage', 'all')
        image_set = check_choice(image_set, tuple(self._FOLDERS), who, 'image_set', 'funneled')
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.task, self.usage, self.image_set = task, usage, image_set
        self._folder = os.path.join(root, self._FOLDERS[image_set])
        base = 'people' if task == 'people' else 'pairs'
        files = {'10fold': [f'{base}.txt'], 'train': [f'{base}DevTrain.txt'],
                 'test': [f'{base}DevTest.txt'],
                 'all': [f'{base}DevTrain.txt', f'{base}DevTest.txt']}[usage]
        items = []
        if task == 'people':
            names = [f[0] for f in _fields(os.path.join(root, 'lfw-names.txt'), who)]
            index = {n: k for k, n in enumerate(names)}
            for name in files:
                for fields in _fields(os.path.join(root, name), who):
                    if len(fields) == 2 and fields[0] in index:
                        items += [(fields[0], i, index[fields[0]])
                                  for i in range(1, int(fields[1]) + 1)]
                    elif len(fields) != 1:
                        raise RuntimeError(f"{who}: {name} line {fields} is not "
                                           f"'<name> <count>'")
        else:
            for name in files:
                for fields in _fields(os.path.join(root, name), who):
                    if len(fields) == 3:
                        items.append(((fields[0], int(fields[1])), (fields[0], int(fields[2])),
                                      1))
                    elif len(fields) == 4:
                        items.append(((fields[0], int(fields[1])), (fields[2], int(fields[3])),
                                      0))
        self._finish(items, ['image', 'label'] if task == 'people' else
                     ['image1', 'image2', 'label'])

    def _face(self, name, k):
        return self._image(os.path.join(self._folder, name, f'{name}_{k:04d}.jpg'))

    def _make(self, item):
        if self.task == 'people':
            name, k, label = item
            return self._face(name, k), np.array(label, np.uint32)
        first, second, same = item
        return self._face(*first), self._face(*second), np.array(same, np.uint32)


class Places365Dataset(_Rows):
    """Places365: columns ``image`` and ``label`` (uint32).

    'train-standard' / 'train-challenge' read ``places365_train_standard.txt`` /
    ``places365_train_challenge.txt`` (``/a/airfield/00000001.jpg 0`` lines) with images in
    ``data_256_<kind>`` (``small=True``) or ``data_large_<kind>``; 'val' reads
    ``places365_val.txt`` with images in ``val_256`` or ``val_large``.

    Args:
        dataset_dir: the folder of the list files and image folders.
        usage: 'train-standard', 'train-challenge' or 'val' (None: 'train-standard').
        small: read the 256x256 images (True) or the large ones. Default True.
        decode: decode the images. Default False.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a bad ``usage`` or ``small``, a missing folder or
            conflicting sampling arguments.
        RuntimeError: for a missing list file or a line without a label.
    """

    def __init__(self, dataset_dir, usage=None, small=True, decode=False, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        who = 'Places365Dataset'
        usage = check_choice(usage, ('train-standard', 'train-challenge', 'val'), who, 'usage',
                             'train-standard')
        if not isinstance(small, bool):
            raise TypeError(f"{who}: small must be a bool, got {small!r}")
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage, self.small = usage, small
        size = '256' if small else 'large'
        if usage == 'val':
            listing, folder = 'places365_val.txt', f'val_{size}'
        else:
            kind = usage.split('-')[1]
            listing, folder = f'places365_train_{kind}.txt', f'data_{size}_{kind}'
        items = []
        for fields in _fields(os.path.join(root, listing), who):
            if len(fields) != 2:
                raise RuntimeError(f"{who}: {listing} line {fields} is not '<image> <label>'")
            items.append((os.path.join(root, folder, fields[0].lstrip('/')), int(fields[1])))
        self._finish(items, ['image', 'label'])

    def _make(self, item):
        return self._image(item[0]), np.array(item[1], np.uint32)


class DIV2KDataset(_Rows):
    """DIV2K super-resolution pairs: columns ``hr_image`` and ``lr_image``.

    ``DIV2K_<usage>_HR/NNNN.png`` with ``DIV2K_<usage>_LR_<downgrade>/X<scale>/NNNNx<scale>.png``
    ('bicubic' and 'unknown'), or ``DIV2K_<usage>_LR_<downgrade>/NNNNx4<m|d|w>.png`` ('mild',
    'difficult', 'wild', which need ``scale=4``); 'all' reads train then valid; files in
    sorted order.

    Args:
        dataset_dir: the folder of the DIV2K folders.
        usage: 'train', 'valid' or 'all' (None: 'train').
        downgrade: 'bicubic', 'unknown', 'mild', 'difficult' or 'wild' (None: 'bicubic').
        scale: 2, 3, 4 or 8 (None: 2); 8 only with 'bicubic'.
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``ImageFolderDataset``.

    Raises:
        ValueError: for a bad ``usage``, ``downgrade`` or ``scale``, a missing folder or
            conflicting sampling arguments.
        RuntimeError: for a missing low-resolution image.
    """

    def __init__(self, dataset_dir, usage='train', downgrade='bicubic', scale=2,
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'DIV2KDataset'
        usage = check_choice(usage, ('train', 'valid', 'all'), who, 'usage', 'train')
        downgrade = check_choice(downgrade, ('bicubic', 'unknown', 'mild', 'difficult', 'wild'),
                                 who, 'downgrade', 'bicubic')
        scale = 2 if scale is None else scale
        if isinstance(scale, bool) or scale not in (2, 3, 4, 8):
            raise ValueError(f"{who}: scale {scale!r} is not within the valid set of "
                             f"[2, 3, 4, 8]")
        if scale == 8 and downgrade != 'bicubic':
            raise ValueError(f"{who}: {downgrade} downgrade requires scale equal to 2, 3 or 4.")
        if downgrade in ('mild', 'difficult', 'wild') and scale != 4:
            raise ValueError(f"{who}: {downgrade} downgrade requires scale equal to 4.")
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage, self.downgrade, self.scale = usage, downgrade, scale
        items = []
        for part in (('train', 'valid') if usage == 'all' else (usage,)):
            hr_dir = check_dir(os.path.join(root, f'DIV2K_{part}_HR'), who)
            lr_dir = os.path.join(root, f'DIV2K_{part}_LR_{downgrade}')
            for name in sorted(os.listdir(hr_dir)):
                stem, ext = os.path.splitext(name)
                if downgrade in ('bicubic', 'unknown'):
                    lr = os.path.join(lr_dir, f'X{scale}', f'{stem}x{scale}{ext}')
                else:
                    lr = os.path.join(lr_dir, f'{stem}x4{downgrade[0]}{ext}')
                items.append((os.path.join(hr_dir, name), lr))
        self._finish(items, ['hr_image', 'lr_image'])

    def _make(self, item):
        return self._image(item[0]), self._image(item[1])


class PhotoTourDataset(_Rows):
    """Multi-view Stereo Correspondence (PhotoTour) patches: 64x64 gray patches cut from
    ``patchesNNNN.bmp`` sheets (16x16 patches each, row by row).

    'train' gives ``[image]`` ((64, 64, 1) uint8) for every patch listed in ``info.txt``;
    'test' gives ``[image1, image2, matches]`` for the pairs of ``m50_100000_100000_0.txt``,
    ``matches`` (uint32) 1 when both patches show the same 3D point.

    Args:
        dataset_dir: the folder of the ``<name>`` folders.
        name: 'notredame', 'yosemite', 'liberty', 'notredame_harris', 'yosemite_harris' or
            'liberty_harris'.
        usage: 'train' or 'test' (None: 'train').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        ValueError: for a bad ``name`` or ``usage``, a missing folder or conflicting sampling
            arguments.
        RuntimeError: for a missing list file or patch sheet.
    """

    _NAMES = ('notredame', 'yosemite', 'liberty', 'notredame_harris', 'yosemite_harris',
              'liberty_harris')

    def __init__(self, dataset_dir, name, usage=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        who = 'PhotoTourDataset'
        name = check_choice(name, self._NAMES, who, 'name', None)
        if name is None:
            raise ValueError(f"{who}: name is required, one of {list(self._NAMES)}")
        usage = check_choice(usage, ('train', 'test'), who, 'usage', 'train')
        root = self._start(who, dataset_dir, False, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.name, self.usage = name, usage
        self._folder = check_dir(os.path.join(root, name), who)
        self._sheets = {}
        if usage == 'train':
            count = len(_fields(os.path.join(self._folder, 'info.txt'), who))
            self._finish(list(range(count)), ['image'])
        else:
            pairs = [(int(f[0]), int(f[3]), int(f[1] == f[4]))
                     for f in _fields(os.path.join(self._folder, 'm50_100000_100000_0.txt'),
                                      who)]
            self._finish(pairs, ['image1', 'image2', 'matches'])

    def _patch(self, k):
        sheet_no, place = divmod(k, 256)
        sheet = self._sheets.get(sheet_no)
        if sheet is None:
            from PIL import Image
            path = os.path.join(self._folder, f'patches{sheet_no:04d}.bmp')
            if not os.path.isfile(path):
                raise RuntimeError(f"{self._who}: invalid file, {path} does not exist")
            with Image.open(path) as img:
                sheet = self._sheets[sheet_no] = np.asarray(img.convert('L'))
        r, c = divmod(place, 16)
        return np.ascontiguousarray(sheet[64 * r:64 * (r + 1), 64 * c:64 * (c + 1), None])

    def _make(self, item):
        if self.usage == 'train':
            return (self._patch(item),)
        first, second, same = item
        return self._patch(first), self._patch(second), np.array(same, np.uint32)
