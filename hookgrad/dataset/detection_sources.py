"""Readers of detection and segmentation datasets in their standard layouts: ``VOCDataset``
(Pascal VOC: image sets, JPEG images, XML annotations, PNG masks) and ``CocoDataset`` (COCO: an
image folder and one JSON annotation file)."""
import json
import os
import xml.etree.ElementTree as ET

import numpy as np

from .file_sources import FileSource, check_bool, check_class_indexing, check_dir
from .image_folder import decode_image

__all__ = ['VOCDataset', 'CocoDataset']

VOC_TASKS = ('Segmentation', 'Detection')


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
        check_class_indexing(class_indexing, who)
        if task == 'Segmentation' and class_indexing:
            raise ValueError(f"{who}: class_indexing is only valid in 'Detection' task")
        check_bool(decode, who, 'decode')
        check_bool(extra_metadata, who, 'extra_metadata')
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


COCO_TASKS = ('Detection', 'Stuff', 'Panoptic', 'Keypoint', 'Captioning')
COCO_COLUMNS = {'Detection': ['image', 'bbox', 'category_id', 'iscrowd'],
                'Stuff': ['image', 'segmentation', 'iscrowd'],
                'Keypoint': ['image', 'keypoints', 'num_keypoints'],
                'Panoptic': ['image', 'bbox', 'category_id', 'iscrowd', 'area'],
                'Captioning': ['image', 'captions']}


def _padded(rows):
    """Rows of different lengths as one float32 array padded with -1."""
    width = max(len(r) for r in rows)
    out = np.full((len(rows), width), -1, np.float32)
    for k, r in enumerate(rows):
        out[k, :len(r)] = r
    return out


class CocoDataset(FileSource):
    """COCO: the images of an annotation file with the annotations of one ``task``.

    Rows follow the ``images`` list of the annotation file; an image without annotations is
    skipped, and annotations attach to images by file name (as MindSpore does). Columns:

    - 'Detection': ``image``, ``bbox`` (N, 4) float32 ``[x, y, width, height]``,
      ``category_id`` and ``iscrowd`` (N, 1) uint32.
    - 'Stuff': ``image``, ``segmentation`` float32: one row per polygon (or per RLE
      ``counts`` list of a crowd annotation), padded with -1 to the longest, and ``iscrowd``
      (N, 1) uint32, one per annotation.
    - 'Keypoint': ``image``, ``keypoints`` (N, K) float32 and ``num_keypoints`` (N, 1) uint32.
    - 'Panoptic': ``image``, ``bbox``, ``category_id``, ``iscrowd`` and ``area`` (N, 1)
      uint32, from each annotation's ``segments_info``.
    - 'Captioning': ``image`` and ``captions`` (N, 1) str.

    ``image`` is the file's bytes (1-d uint8) unless ``decode=True`` (RGB (H, W, 3) uint8).
    Category ids are kept as written in the file. The annotation file is read when the
    dataset is made.

    Args:
        dataset_dir: the folder of the image files.
        annotation_file: the COCO JSON annotation file.
        task: 'Detection' (default), 'Stuff', 'Panoptic', 'Keypoint' or 'Captioning'.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.
        decode: decode the images with Pillow. Default False.
        extra_metadata: only False. decrypt: only None.

    Raises:
        TypeError, ValueError: for arguments of the wrong type, a bad ``task``, a missing
            folder or file, or conflicting sampling arguments.
        RuntimeError: for an annotation file that is not JSON or lacks a field the task needs
            (a crowd annotation's RLE ``counts`` for 'Stuff', the categories' ``isthing``
            for 'Panoptic'...), or an annotation of an image the file does not list.
    """

    def __init__(self, dataset_dir, annotation_file, task='Detection', num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None, extra_metadata=False,
                 decrypt=None):
        who = 'CocoDataset'
        dataset_dir = check_dir(dataset_dir, who)
        if not isinstance(annotation_file, (str, os.PathLike)) or \
                not os.path.isfile(annotation_file):
            raise ValueError(f"{who}: the annotation file {annotation_file!r} does not exist "
                             f"or permission denied!")
        if task not in COCO_TASKS:
            raise ValueError(f"{who}: task {task!r} is not within the valid set of "
                             f"{list(COCO_TASKS)}")
        check_bool(decode, who, 'decode')
        check_bool(extra_metadata, who, 'extra_metadata')
        if extra_metadata:
            raise ValueError(f"{who}: extra_metadata=True is not supported")
        if decrypt is not None:
            raise ValueError(f"{who}: decrypt is not supported; decrypt the files first")
        super().__init__(who, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        self.dataset_dir, self.task, self.decode = dataset_dir, task, decode
        self.annotation_file = os.fspath(annotation_file)
        self._parse(who)
        self._n = len(self._files)
        self._names = list(COCO_COLUMNS[task])

    def _fail(self, what):
        raise RuntimeError(f"CocoDataset: invalid annotation, {what} in annotation file "
                           f"{self.annotation_file}")

    def _field(self, node, key, where):
        if not isinstance(node, dict) or key not in node:
            self._fail(f"the attribute of '{key}' is missing in {where}")
        return node[key]

    def _parse(self, who):
        try:
            with open(self.annotation_file, encoding='utf-8') as f:
                data = json.load(f)
        except ValueError as e:
            raise RuntimeError(f"{who}: {self.annotation_file} is not JSON: {e}") from None
        names = {}
        for image in self._field(data, 'images', 'the file'):
            names[self._field(image, 'id', "an 'images' node")] = \
                self._field(image, 'file_name', "an 'images' node")
        per_file = {}
        for ann in self._field(data, 'annotations', 'the file'):
            image_id = self._field(ann, 'image_id', "an 'annotations' node")
            if image_id not in names:
                self._fail(f"the 'image_id' {image_id} is missing in the node of 'images'")
            per_file.setdefault(names[image_id], []).append(ann)
        self._categories = {}
        for cat in data.get('categories', []) if self.task in ('Detection', 'Panoptic') else []:
            value = [self._field(cat, 'id', "the node of 'categories'")]
            if self.task == 'Panoptic':
                value.append(self._field(cat, 'isthing', "the node of 'categories'"))
            self._categories[self._field(cat, 'name', "the node of 'categories'")] = value
        self._files = []
        for file_name in names.values():        # images without annotations are skipped
            if file_name not in per_file:
                continue
            self._files.append((os.path.join(self.dataset_dir, file_name),
                                self._annotation_columns(per_file[file_name])))

    def _annotation_columns(self, anns):
        """The annotation columns of one image, from its annotations."""
        task, field = self.task, self._field
        if task == 'Captioning':
            return (np.array([[field(a, 'caption', 'an annotation')] for a in anns]),)
        if task == 'Keypoint':
            return (np.array([field(a, 'keypoints', 'an annotation') for a in anns], np.float32),
                    np.array([[field(a, 'num_keypoints', 'an annotation')] for a in anns],
                             np.uint32))
        if task == 'Stuff':
            rows = []
            for a in anns:
                seg = field(a, 'segmentation', 'an annotation')
                if field(a, 'iscrowd', 'an annotation'):
                    rows.append(field(seg, 'counts', 'a crowd annotation'))
                else:
                    rows.extend(seg)
            return _padded(rows), np.array([[a['iscrowd']] for a in anns], np.uint32)
        if task == 'Panoptic':
            anns = [s for a in anns for s in field(a, 'segments_info', 'an annotation')]
        out = (np.array([field(a, 'bbox', 'an annotation') for a in anns], np.float32),
               np.array([[field(a, 'category_id', 'an annotation')] for a in anns], np.uint32),
               np.array([[field(a, 'iscrowd', 'an annotation')] for a in anns], np.uint32))
        if task == 'Panoptic':
            out += (np.array([[field(a, 'area', 'an annotation')] for a in anns], np.uint32),)
        return out

    def get_class_indexing(self):
        """``{category name: [id]}`` ('Detection') or ``{name: [id, isthing]}`` ('Panoptic')."""
        if self.task not in ('Detection', 'Panoptic'):
            raise NotImplementedError("Only 'Detection' and 'Panoptic' support "
                                      "get_class_indexing.")
        return {k: list(v) for k, v in self._categories.items()}

    def _row(self, i):
        image, columns = self._files[i]
        if not os.path.isfile(image):
            raise RuntimeError(f"CocoDataset: invalid file, {image} does not exist")
        return (_read(image, self.decode, 'CocoDataset'),) + tuple(c.copy() for c in columns)
