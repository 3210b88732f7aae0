"""Readers of street-scene and face detection datasets: ``CityscapesDataset``,
``KITTIDataset`` and ``WIDERFaceDataset``, with MindSpore's columns, dtypes and row order
(checked against MindSpore on the same files), and ``SBDataset`` (Semantic Boundaries, its
``.mat`` files read with SciPy as MindSpore does) and ``LSUNDataset`` (scene image folders)."""
import json
import os

import numpy as np

from .file_sources import check_choice, check_dir
from .vision_sets import _Rows, load_mat

__all__ = ['CityscapesDataset', 'KITTIDataset', 'WIDERFaceDataset', 'SBDataset', 'LSUNDataset']


def _sorted_dirs(path):
    return sorted(d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d)))


class CityscapesDataset(_Rows):
    """Cityscapes: columns ``image`` and ``task``.

    Images are ``leftImg8bit/<usage>/<city>/<stem>_leftImg8bit.png`` (cities and files in
    sorted order); ``task`` is the matching ``gtFine`` (or ``gtCoarse``) file
    ``<stem>_gtFine_<instanceIds.png | labelIds.png | color.png | polygons.json>`` for 'instance',
    'semantic', 'color' or 'polygon'. Image tasks are uint8 like ``image`` (decoded to RGB with
    ``decode=True``); 'polygon' is the JSON text, compact with sorted keys, as MindSpore
    writes it. 'all' reads train, test, val ('fine') or train, train_extra, val ('coarse').

    Args:
        dataset_dir: the folder of ``leftImg8bit`` and ``gtFine`` / ``gtCoarse``.
        usage: 'train', 'test', 'val' or 'all' for 'fine'; 'train', 'train_extra', 'val' or
            'all' for 'coarse' (None: 'train').
        quality_mode: 'fine' or 'coarse' (None: 'fine').
        task: 'instance', 'semantic', 'polygon' or 'color' (None: 'instance').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``ImageFolderDataset``.

    Raises:
        ValueError: for a bad ``usage``, ``quality_mode`` or ``task``, a missing folder or
            conflicting sampling arguments.
        RuntimeError: when no image is found; reading raises it for a missing target file.
    """

    _SUFFIX = {'instance': 'instanceIds.png', 'semantic': 'labelIds.png', 'color': 'color.png',
               'polygon': 'polygons.json'}

    def __init__(self, dataset_dir, usage='train', quality_mode='fine', task='instance',
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'CityscapesDataset'
        quality_mode = check_choice(quality_mode, ('fine', 'coarse'), who, 'quality_mode', 'fine')
        parts = ('train', 'test', 'val') if quality_mode == 'fine' else \
            ('train', 'train_extra', 'val')
        usage = check_choice(usage, parts + ('all',), who, 'usage', 'train')
        task = check_choice(task, tuple(self._SUFFIX), who, 'task', 'instance')
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage, self.quality_mode, self.task = usage, quality_mode, task
        gt = 'gtFine' if quality_mode == 'fine' else 'gtCoarse'
        items = []
        for part in (parts if usage == 'all' else (usage,)):
            image_dir = check_dir(os.path.join(root, 'leftImg8bit', part), who)
            for city in _sorted_dirs(image_dir):
                for name in sorted(os.listdir(os.path.join(image_dir, city))):
                    if not name.endswith('_leftImg8bit.png'):
                        continue
                    stem = name[:-len('_leftImg8bit.png')]
                    items.append((os.path.join(image_dir, city, name),
                                  os.path.join(root, gt, part, city,
                                               f'{stem}_{gt}_{self._SUFFIX[task]}')))
        self._finish(items, ['image', 'task'])

    def _make(self, item):
        image, target = item
        if self.task != 'polygon':
            return self._image(image), self._image(target)
        if not os.path.isfile(target):
            raise RuntimeError(f"{self._who}: invalid file, {target} does not exist")
        with open(target, encoding='utf-8') as f:
            text = json.dumps(json.load(f), separators=(',', ':'), sort_keys=True,
                              ensure_ascii=False)
        return self._image(image), np.array(text)


class KITTIDataset(_Rows):
    """KITTI object detection.

    'train' gives ``image`` with the objects of its label file: ``label`` (uint32 (N, 1): the
    class's place among the sorted class names of all label files), ``truncated``,
    ``occluded`` (uint32; -1 wraps to 4294967295 as in MindSpore), ``alpha``, ``bbox`` (N, 4),
    ``dimensions`` (N, 3), ``location`` (N, 3) and ``rotation_y``, float32 unless said; 'test'
    gives ``image`` only. Images are ``data_object_image_2/<training | testing>/image_2/*``
    and labels ``data_object_label_2/training/label_2/<stem>.txt``, in sorted order.

    Args:
        dataset_dir: the folder of the two folders.
        usage: 'train' or 'test' (None: 'train').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``ImageFolderDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or conflicting sampling arguments.
        RuntimeError: for a missing label file or a label line without 15 fields.
    """

    _COLUMNS = ['image', 'label', 'truncated', 'occluded', 'alpha', 'bbox', 'dimensions',
                'location', 'rotation_y']

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        who = 'KITTIDataset'
        usage = check_choice(usage, ('train', 'test'), who, 'usage', 'train')
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage = usage
        folder = 'training' if usage == 'train' else 'testing'
        image_dir = check_dir(os.path.join(root, 'data_object_image_2', folder, 'image_2'), who)
        images = [os.path.join(image_dir, f) for f in sorted(os.listdir(image_dir))]
        if usage == 'test':
            self._finish([(p, None) for p in images], ['image'])
            return
        label_dir = os.path.join(root, 'data_object_label_2', 'training', 'label_2')
        objects = []
        for path in images:
            label_path = os.path.join(label_dir, os.path.splitext(os.path.basename(path))[0]
                                      + '.txt')
            if not os.path.isfile(label_path):
                raise RuntimeError(f"{who}: invalid file, {label_path} does not exist")
            with open(label_path) as f:
                rows = [line.split() for line in f if line.strip()]
            if any(len(r) != 15 for r in rows):
                raise RuntimeError(f"{who}: {label_path} has a line without the 15 fields of a "
                                   f"KITTI object")
            objects.append(rows)
        classes = {name: k for k, name in enumerate(sorted({r[0] for rows in objects
                                                            for r in rows}))}
        self._finish([(p, self._arrays(rows, classes)) for p, rows in zip(images, objects)],
                     self._COLUMNS)

    @staticmethod
    def _arrays(rows, classes):
        values = np.array([[float(v) for v in r[1:]] for r in rows], np.float32).reshape(-1, 14)
        occluded = values[:, 1:2].astype(np.int64).astype(np.uint32)
        return (np.array([[classes[r[0]]] for r in rows], np.uint32).reshape(-1, 1),
                values[:, 0:1], occluded, values[:, 2:3], values[:, 3:7], values[:, 7:10],
                values[:, 10:13], values[:, 13:14])

    def _make(self, item):
        path, arrays = item
        return (self._image(path),) if arrays is None else \
            (self._image(path),) + tuple(a.copy() for a in arrays)


class WIDERFaceDataset(_Rows):
    """WIDER FACE: images ``WIDER_<train | val | test>/images/<event>/<file>`` (events and
    files in sorted order).

    'train', 'valid' and 'all' (train then valid) give ``image`` with ``bbox`` (int32 (N, 4):
    x, y, width, height) and ``blur``, ``expression``, ``illumination``, ``occlusion``,
    ``pose``, ``invalid`` (int32 (N,)), taken in that order from the six values after the box
    in ``wider_face_split/wider_face_<train | val>_bbx_gt.txt``, as MindSpore does; 'test'
    gives ``image`` only.

    Args:
        dataset_dir: the folder of the WIDER folders and ``wider_face_split``.
        usage: 'train', 'valid', 'test' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``ImageFolderDataset``.

    Raises:
        ValueError: for a bad ``usage``, a missing folder or conflicting sampling arguments.
        RuntimeError: for a missing annotation file, an image it does not annotate or a
            malformed entry.
    """

    _ATTRIBUTES = ['blur', 'expression', 'illumination', 'occlusion', 'pose', 'invalid']

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        who = 'WIDERFaceDataset'
        usage = check_choice(usage, ('train', 'valid', 'test', 'all'), who, 'usage', 'all')
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage = usage
        parts = {'train': ('train',), 'valid': ('val',), 'test': ('test',),
                 'all': ('train', 'val')}[usage]
        items = []
        for part in parts:
            image_dir = check_dir(os.path.join(root, f'WIDER_{part}', 'images'), who)
            boxes = None if part == 'test' else self._annotations(
                os.path.join(root, 'wider_face_split', f'wider_face_{part}_bbx_gt.txt'), who)
            for event in _sorted_dirs(image_dir):
                for name in sorted(os.listdir(os.path.join(image_dir, event))):
                    rel = f'{event}/{name}'
                    if boxes is not None and rel not in boxes:
                        raise RuntimeError(f"{who}: {rel} has no entry in "
                                           f"wider_face_{part}_bbx_gt.txt")
                    items.append((os.path.join(image_dir, event, name),
                                  None if boxes is None else boxes[rel]))
        self._finish(items, ['image'] if usage == 'test' else ['image', 'bbox'] +
                     self._ATTRIBUTES)

    @staticmethod
    def _annotations(path, who):
        """``{relative image path: (N, 10) int32 values}`` of a ``bbx_gt`` file."""
        if not os.path.isfile(path):
            raise RuntimeError(f"{who}: invalid file, {path} does not exist")
        with open(path) as f:
            lines = [line.strip() for line in f if line.strip()]
        out, i = {}, 0
        try:
            while i < len(lines):
                name, count = lines[i], int(lines[i + 1])
                rows = lines[i + 2:i + 2 + max(count, 1)]
                values = np.array([[int(v) for v in r.split()[:10]] for r in rows[:count]],
                                  np.int32).reshape(-1, 10)
                out[name] = values
                i += 2 + max(count, 1)
        except (ValueError, IndexError):
            raise RuntimeError(f"{who}: {path} is malformed near line {i + 1}") from None
        return out

    def _make(self, item):
        path, values = item
        if values is None:
            return (self._image(path),)
        return (self._image(path), values[:, :4].copy()) + \
            tuple(values[:, k].copy() for k in range(4, 10))


class SBDataset(_Rows):
    """Semantic Boundaries Dataset: columns ``image`` and ``task``.

    Images ``img/<name>.jpg`` for the names of ``<usage>.txt`` ('all': train then val), with
    ``cls/<name>.mat``'s ``GTcls``: 'Boundaries' gives the 20 class boundary maps ((20, H, W),
    of the sparse matrices' dtype: bool in SBD's files), 'Segmentation' the class map (uint8
    (H, W)), as MindSpore gives them. Needs SciPy.

    Args:
        dataset_dir: the ``benchmark_RELEASE/dataset`` folder.
        task: 'Boundaries' or 'Segmentation' (None: 'Boundaries').
        usage: 'train', 'val', 'train_noval' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id:
            as ``ImageFolderDataset``.

    Raises:
        ValueError: for a bad ``task`` or ``usage``, a missing folder or conflicting sampling
            arguments. RuntimeError: for a missing list file. ImportError: without SciPy.
    """

    def __init__(self, dataset_dir, task='Boundaries', usage='all', num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=None, sampler=None,
                 num_shards=None, shard_id=None):
        who = 'SBDataset'
        task = check_choice(task, ('Boundaries', 'Segmentation'), who, 'task', 'Boundaries')
        usage = check_choice(usage, ('train', 'val', 'train_noval', 'all'), who, 'usage', 'all')
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, None)
        self.task, self.usage = task, usage
        names = []
        for part in (('train', 'val') if usage == 'all' else (usage,)):
            path = os.path.join(root, part + '.txt')
            if not os.path.isfile(path):
                raise RuntimeError(f"{who}: {path} not found")
            with open(path, encoding='utf-8') as f:
                names += [line.strip() for line in f if line.strip()]
        self._finish(names, ['image', 'task'])

    def _make(self, name):
        image = self._image(os.path.join(self.dataset_dir, 'img', name + '.jpg'))
        gt = load_mat(os.path.join(self.dataset_dir, 'cls', name + '.mat'), self._who)['GTcls']
        if self.task == 'Boundaries':
            cells = gt[0]['Boundaries'][0]
            task = np.stack([np.asarray(cells[i][0].toarray() if hasattr(cells[i][0], 'toarray')
                                        else cells[i][0]) for i in range(20)])
        else:
            task = np.asarray(gt[0]['Segmentation'][0])
        return image, task


_LSUN_CLASSES = ('bedroom', 'bridge', 'church_outdoor', 'classroom', 'conference_room',
                 'dining_room', 'kitchen', 'living_room', 'restaurant', 'tower')


class LSUNDataset(_Rows):
    """LSUN scenes, from image folders ``<class>_train`` / ``<class>_val`` and ``test``:
    columns ``image`` and ``label`` (uint32).

    The label is the folder's place in the list of folders read, as MindSpore numbers them:
    for each class in turn, its train folder then its val folder ('all'), or only the one of
    ``usage``; 'test' reads the ``test`` folder, label 0. Without ``classes``, every LSUN
    class that has a folder is read. Images are read in sorted name order. (These are image
    folders, not the LMDB databases LSUN is distributed in.)

    Args:
        dataset_dir: the folder of the image folders.
        usage: 'train', 'valid', 'test' or 'all' (None: 'all').
        classes: a list of LSUN class names ('bedroom', 'bridge', 'church_outdoor',
            'classroom', 'conference_room', 'dining_room', 'kitchen', 'living_room',
            'restaurant', 'tower'). Default None: all.
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
            cache: as ``ImageFolderDataset``.

    Raises:
        TypeError: for ``classes`` that is not a list.
        ValueError: for a bad ``usage`` or class, a missing folder or conflicting sampling
            arguments.
    """

    def __init__(self, dataset_dir, usage=None, classes=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        who = 'LSUNDataset'
        usage = check_choice(usage, ('train', 'valid', 'test', 'all'), who, 'usage', 'all')
        if classes is not None and not isinstance(classes, list):
            raise TypeError(f"{who}: classes must be a list of str, got {classes!r}")
        for name in classes or ():
            if name not in _LSUN_CLASSES:
                raise ValueError(f"{who}: class {name!r} is not within the valid set of "
                                 f"{list(_LSUN_CLASSES)}")
        root = self._start(who, dataset_dir, decode, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage, self.classes = usage, classes
        if usage == 'test':
            folders = [check_dir(os.path.join(root, 'test'), who)]
        else:
            parts = {'train': ('train',), 'valid': ('val',), 'all': ('train', 'val')}[usage]
            wanted = [os.path.join(root, f'{c}_{p}') for c in (classes or _LSUN_CLASSES)
                      for p in parts]
            folders = [check_dir(f, who) for f in wanted] if classes else \
                [f for f in wanted if os.path.isdir(f)]
        items = [(os.path.join(folder, name), label) for label, folder in enumerate(folders)
                 for name in sorted(os.listdir(folder))
                 if os.path.isfile(os.path.join(folder, name))]
        self._finish(items, ['image', 'label'])

    def _make(self, item):
        return self._image(item[0]), np.array(item[1], np.uint32)
