"""Readers of detection and segmentation datasets in their standard layouts: ``VOCDataset``
(Pascal VOC: image sets, JPEG images, XML annotations, PNG masks) and ``CocoDataset`` (COCO: an
image folder and one JSON annotation file)."""
import numbers
import os
import xml.etree.ElementTree as ET

import numpy as np

from .file_sources import FileSource, check_dir
from .image_folder import decode_image

__all__ = ['VOCDataset']

VOC_TASKS = ('Segmentation', 'Detection')


def _check_bool(value, who, arg):
    if not isinstance(value, bool):
        raise TypeError(f"{who}: {arg} must be a bool, got {value!r}")


def _check_indexing(class_indexing, who):
    if class_indexing is not None and (
            not isinstance(class_indexing, dict) or
            not all(isinstance(k, str) and isinstance(v, numbers.Integral)
                    and not isinstance(v, bool) for k, v in class_indexing.items())):
        raise TypeError(f"{who}: class_indexing must be a dict of str to int, got "
                        f"{class_indexing!r}")


def _read(path, decode, who):
    """A file's bytes as a 1-d uint8 array, or decoded to RGB (H, W, 3) uint8."""
    with open(path, 'rb') as f:
        data = f.read()
    return decode_image(data, path, who) if decode else np.frombuffer(data, np.uint8)


def _voc_objects(path, who):
    """``[(name, [xmin, ymin, width, height], difficult, truncated)]`` of a VOC XML file."""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        raise RuntimeError(f"{who}: invalid annotation file {path}: {e}") from None
    objects = []
    for obj in root.iter('object'):
        name, box = obj.findtext('name'), obj.find('bndbox')
        if name is None or box is None:
            raise RuntimeError(f"{who}: invalid annotation file {path}: an object lacks "
                               f"'name' or 'bndbox'")
        try:
            xmin, ymin, xmax, ymax = (float(box.findtext(k)) for k in
                                      ('xmin', 'ymin', 'xmax', 'ymax'))
            difficult = int(obj.findtext('difficult', '0'))
            truncated = int(obj.findtext('truncated', '0'))
        except (TypeError, ValueError):
            raise RuntimeError(f"{who}: invalid annotation file {path}: an object of "
                               f"'{name}' has a missing or non-numeric field") from None
        if not (xmin > 0 and ymin > 0 and xmax > xmin and ymax > ymin):
            raise RuntimeError(f"{who}: invalid bndbox in {path}: the coordinates should be "
                               f"greater than 0 and xmax > xmin, ymax > ymin, but got "
                               f"{{{xmin:g}, {ymin:g}, {xmax:g}, {ymax:g}}}")
        objects.append((name.strip(), [xmin, ymin, xmax - xmin, ymax - ymin], difficult,
                        truncated))
    return objects


class VOCDataset(FileSource):
    """Pascal VOC: the images listed in ``ImageSets/<Segmentation|Main>/<usage>.txt``.

    ``task='Segmentation'`` gives columns ``image`` and ``target`` (the mask
    ``SegmentationClass/<id>.png``); ``task='Detection'`` gives ``image``, ``bbox`` (N, 4)
    float32 ``[xmin, ymin, width, height]``, ``label``, ``difficult`` and ``truncate`` (N, 1)
    uint32, from ``Annotations/<id>.xml``. Images are ``JPEGImages/<id>.jpg``, as file bytes
    (1-d uint8) unless ``decode=True`` (RGB (H, W, 3) uint8; masks decode to their palette
    colours). Detection classes are the object names of the usage's images in sorted order,
    numbered from 0, unless ``class_indexing`` gives the numbers; then only its objects are
    kept and images left without one are skipped. Annotations are read when the dataset is
    made, as MindSpore does, so a bad box fails early.

    Args:
        dataset_dir: the VOC root (holding ``ImageSets``, ``JPEGImages``...).
        task: 'Segmentation' (default) or 'Detection'.
        usage: the image set file name without '.txt'. Default 'train'.
        class_indexing: a dict ``{object name: label}`` (Detection only), or None.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.
        decode: decode the images (and masks) with Pillow. Default False.
        extra_metadata: only False (the ``_meta-filename`` column is not made).
        decrypt: only None.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a bad ``task``, a
            ``class_indexing`` with 'Segmentation', a missing image set file or conflicting
            sampling arguments.
        RuntimeError: for a missing image, mask or annotation, an XML file without an
            object's name or box, or a box that is not inside the positive quadrant with
            xmax > xmin and ymax > ymin.
    """

    def __init__(self, dataset_dir, task='Segmentation', usage='train', class_indexing=None,
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None, extra_metadata=False,
                 decrypt=None):
        who = 'VOCDataset'
        dataset_dir = check_dir(dataset_dir, who)
        if task not in VOC_TASKS:
            raise ValueError(f"{who}: task {task!r} is not within the valid set of "
                             f"{list(VOC_TASKS)}")
        if not isinstance(usage, str):
            raise TypeError(f"{who}: usage must be a str, got {usage!r}")
        _check_indexing(class_indexing, who)
        if task == 'Segmentation' and class_indexing:
            raise ValueError(f"{who}: class_indexing is only valid in 'Detection' task")
        _check_bool(decode, who, 'decode')
        _check_bool(extra_metadata, who, 'extra_metadata')
        if extra_metadata:
            raise ValueError(f"{who}: extra_metadata=True is not supported")
        if decrypt is not None:
            raise ValueError(f"{who}: decrypt is not supported; decrypt the files first")
        list_file = os.path.join(dataset_dir, 'ImageSets',
                                 'Main' if task == 'Detection' else 'Segmentation',
                                 f'{usage}.txt')
        if not os.path.isfile(list_file):
            raise ValueError(f"{who}: {list_file} does not exist; usage '{usage}' names the "
                             f"image set file of task '{task}'")
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        with open(list_file) as f:
            ids = [line.strip() for line in f if line.strip()]
        self._files = []
        for image_id in ids:
            image = os.path.join(dataset_dir, 'JPEGImages', f'{image_id}.jpg')
            other = os.path.join(dataset_dir, *(('Annotations', f'{image_id}.xml')
                                                if task == 'Detection' else
                                                ('SegmentationClass', f'{image_id}.png')))
            for path in (image, other):
                if not os.path.isfile(path):
                    raise RuntimeError(f"{who}: invalid file, {path} does not exist (listed "
                                       f"in {list_file})")
            self._files.append((image, other))
        self._names = ['image', 'target']
        if task == 'Detection':
            self._detection(class_indexing, who)
        self.dataset_dir, self.task, self.usage, self.decode = dataset_dir, task, usage, decode
        self._n = len(self._files)

    def _detection(self, class_indexing, who):
        objects = [_voc_objects(xml, who) for _, xml in self._files]
        if class_indexing:
            self._class_indexing = dict(class_indexing)
        else:
            names = sorted({o[0] for objs in objects for o in objs})
            self._class_indexing = {n: i for i, n in enumerate(names)}
        index, files = self._class_indexing, []
        for (image, _), objs in zip(self._files, objects):
            objs = [o for o in objs if o[0] in index]
            if not objs:
                continue
            files.append((image, (
                np.array([o[1] for o in objs], np.float32),
                np.array([[index[o[0]]] for o in objs], np.uint32),
                np.array([[o[2]] for o in objs], np.uint32),
                np.array([[o[3]] for o in objs], np.uint32))))
        self._files = files
        self._names = ['image', 'bbox', 'label', 'difficult', 'truncate']

    def get_class_indexing(self):
        """The ``{object name: label}`` mapping (Detection only)."""
        if self.task != 'Detection':
            raise RuntimeError("VOCDataset: get_class_indexing is only valid in 'Detection' "
                               "task")
        return dict(self._class_indexing)

    def _row(self, i):
        image, other = self._files[i]
        first = _read(image, self.decode, 'VOCDataset')
        if self.task == 'Detection':
            return (first,) + tuple(a.copy() for a in other)
        return first, _read(other, self.decode, 'VOCDataset')
