"""Write the small dataset files of tests/dataset/fixtures/<name>/ in the layouts MindSpore's
dataset loaders read (IDX files, CSV, text lines, a manifest, VOC/COCO/CelebA trees...).

    python tools/make_dataset_fixtures.py

Every file is made from fixed values, so running it again writes the same bytes. The values
MindSpore 2.10 reads from them are recorded by tools/record_mindspore_datasets.py.
"""
import io
import json
import os
import struct

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                    'fixtures')


def _path(name, *parts):
    path = os.path.join(ROOT, name, *parts)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def _idx(path, arr):
    """An IDX file of unsigned bytes: magic 0x0800 | ndim, big-endian dims, then the data."""
    with open(path, 'wb') as f:
        f.write(struct.pack('>HBB', 0, 8, arr.ndim))
        f.write(struct.pack('>' + 'I' * arr.ndim, *arr.shape))
        f.write(arr.astype(np.uint8).tobytes())


def _cases(name, cases):
    """``cases.json``: case name -> constructor expression over ``ds``, ``D`` (the fixture
    folder) and ``np``."""
    with open(_path(name, 'cases.json'), 'w') as f:
        json.dump(cases, f, indent=1)
        f.write('\n')


def _digits(n, tag, salt):
    """``n`` 28x28 images whose pixel (0, 0) is ``tag + row``, and their labels."""
    images = np.random.default_rng(salt).integers(0, 256, (n, 28, 28)).astype(np.uint8)
    images[:, 0, 0] = np.arange(n) + tag
    labels = ((np.arange(n) * 3 + salt) % 10).astype(np.uint8)
    return images, labels


def make_idx():
    """Fashion-MNIST / KMNIST (MNIST's file names) and EMNIST (two of its splits)."""
    for name, salt in (('fashion_mnist', 1), ('kmnist', 2)):
        for prefix, n, tag in (('train', 3, 0), ('t10k', 2, 100)):
            images, labels = _digits(n, tag, salt)
            _idx(_path(name, f'{prefix}-images-idx3-ubyte'), images)
            _idx(_path(name, f'{prefix}-labels-idx1-ubyte'), labels)
    for split, salt in (('mnist', 3), ('letters', 4)):
        for usage, n, tag in (('train', 3, 10 * salt), ('test', 2, 100 + 10 * salt)):
            images, labels = _digits(n, tag, salt)
            _idx(_path('emnist', f'emnist-{split}-{usage}-images-idx3-ubyte'), images)
            _idx(_path('emnist', f'emnist-{split}-{usage}-labels-idx1-ubyte'), labels)
    for name, cls in (('fashion_mnist', 'FashionMnistDataset'), ('kmnist', 'KMnistDataset')):
        _cases(name, {
            'train': f"ds.{cls}(D, usage='train', shuffle=False)",
            'test': f"ds.{cls}(D, usage='test', shuffle=False)",
            'all': f"ds.{cls}(D, shuffle=False)",
            'shard': f"ds.{cls}(D, usage='all', shuffle=False, num_shards=2, shard_id=1)",
            'subset': f"ds.{cls}(D, sampler=ds.SubsetSampler([4, 0, 2], num_samples=2))",
        })
    _cases('emnist', {
        'mnist_train': "ds.EMnistDataset(D, 'mnist', usage='train', shuffle=False)",
        'mnist_all': "ds.EMnistDataset(D, 'mnist', shuffle=False)",
        'letters_test': "ds.EMnistDataset(D, 'letters', usage='test', shuffle=False)",
        'letters_shard': "ds.EMnistDataset(D, name='letters', usage='all', shuffle=False, "
                         "num_shards=3, shard_id=2)",
        'digits_missing': "ds.EMnistDataset(D, 'digits', shuffle=False)",
    })


def make_text():
    """CSV files (a header, quoted fields, empty fields) and plain text files."""
    with open(_path('csv', 'a.csv'), 'w', newline='') as f:
        f.write('id,name,score\n1,ant,0.5\n2,"bee, the",1.25\n3,,-2\n')
    with open(_path('csv', 'b.csv'), 'w', newline='') as f:
        f.write('id,name,score\n4,cat,-0.125\n5,dog,3e2\n6,"eel ""x""",7\n')
    with open(_path('csv', 'bad', 'empty_number.csv'), 'w', newline='') as f:
        f.write('id,score\n1,\n')
    with open(_path('csv', 'bad', 'short_row.csv'), 'w', newline='') as f:
        f.write('id,score\n1,2\n3\n')
    _cases('csv', {
        'strings': "ds.CSVDataset(D + '/a.csv', shuffle=False)",
        'typed': "ds.CSVDataset(D + '/a.csv', column_defaults=[0, 'none', 9.5], shuffle=False)",
        'two_files': "ds.CSVDataset([D + '/b.csv', D + '/a.csv'], column_defaults=[0, '', 0.0], "
                     "shuffle=False, num_parallel_workers=1)",
        'two_files_workers': "ds.CSVDataset(D + '/*.csv', column_defaults=[0, '', 0.0], "
                             "shuffle=False, num_parallel_workers=2)",
        'names': "ds.CSVDataset(D + '/a.csv', column_names=['i', 'n', 's'], shuffle=False)",
        'shard0': "ds.CSVDataset(D + '/*.csv', column_defaults=[0, '', 0.0], shuffle=False, "
                  "num_shards=2, shard_id=0)",
        'shard1': "ds.CSVDataset(D + '/*.csv', column_defaults=[0, '', 0.0], shuffle=False, "
                  "num_shards=2, shard_id=1)",
        'num_samples': "ds.CSVDataset(D + '/*.csv', shuffle=False, num_samples=4)",
        'delim': "ds.CSVDataset(D + '/a.csv', field_delim=';', shuffle=False)",
        'wrong_default': "ds.CSVDataset(D + '/a.csv', column_defaults=[0, 0, 0.0], "
                         "shuffle=False)",
        'empty_number': "ds.CSVDataset(D + '/bad/empty_number.csv', column_defaults=[0, 1.5], "
                        "shuffle=False)",
        'empty_string': "ds.CSVDataset(D + '/bad/empty_number.csv', shuffle=False)",
        'short_row': "ds.CSVDataset(D + '/bad/short_row.csv', shuffle=False)",
    })
    with open(_path('text', 'a.txt'), 'w', newline='') as f:
        f.write('first line\n\n  second, with spaces  \nthird\n')
    with open(_path('text', 'b.txt'), 'w', newline='') as f:
        f.write('b one\r\nb two')
    _cases('text', {
        'one_file': "ds.TextFileDataset(D + '/a.txt', shuffle=False)",
        'two_files': "ds.TextFileDataset([D + '/b.txt', D + '/a.txt'], shuffle=False, "
                     "num_parallel_workers=1)",
        'two_files_workers': "ds.TextFileDataset(D + '/*.txt', shuffle=False, "
                             "num_parallel_workers=2)",
        'shard0': "ds.TextFileDataset(D + '/*.txt', shuffle=False, num_shards=2, shard_id=0)",
        'shard1': "ds.TextFileDataset(D + '/*.txt', shuffle=False, num_shards=2, shard_id=1)",
        'shard2_of_3': "ds.TextFileDataset(D + '/*.txt', shuffle=False, num_shards=3, "
                       "shard_id=2)",
        'num_samples': "ds.TextFileDataset(D + '/*.txt', shuffle=False, num_samples=3)",
    })


def make_synthetic():
    """No files: PaddedDataset and FakeImageDataset cases."""
    _cases('synthetic', {
        'padded': "ds.PaddedDataset([{'image': np.zeros(2, np.uint8), 'label': 1, 'name': 'a'}, "
                  "{'image': np.ones(3, np.uint8), 'label': -2, 'name': 'bc'}])",
        'padded_floats': "ds.PaddedDataset([{'x': 1.5}, {'x': np.float32(2)}])",
        'fake': "ds.FakeImageDataset(8, (2, 3, 1), 7, 5, shuffle=False)",
        'fake_shard': "ds.FakeImageDataset(7, [1, 2, 3], 3, 0, shuffle=False, num_shards=3, "
                      "shard_id=1)",
        'fake_many_classes': "ds.FakeImageDataset(6, (1, 1, 1), 10 ** 6, 2 ** 31 - 3, "
                             "shuffle=False)",
        'fake_subset': "ds.FakeImageDataset(9, (2, 2, 2), 4, 11, "
                       "sampler=ds.SubsetSampler([8, 0, 3]))",
    })


def _image(path, shape, salt, **save):
    """A small random image file (JPEG or PNG by the extension of ``path``)."""
    from PIL import Image
    pixels = np.random.default_rng(salt).integers(0, 256, shape, dtype=np.uint8)
    Image.fromarray(pixels).save(_path(*path), **save)


def make_manifest():
    """A manifest (one JSON object a line) of three small images; sources are relative to the
    working directory, so cases are read from the fixture folder."""
    _image(('manifest', 'images', '1.jpg'), (4, 5, 3), 0, quality=90)
    _image(('manifest', 'images', '2.png'), (3, 2, 3), 1)
    _image(('manifest', 'images', '3.png'), (3, 2), 2)

    def line(source, usage, *names):
        return json.dumps({'source': source, 'usage': usage, 'id': source[-5:],
                           'annotation': [{'type': 'modelarts/image_classification', 'name': n}
                                          for n in names]}) + '\n'
    with open(_path('manifest', 'data.manifest'), 'w') as f:
        f.write(line('images/1.jpg', 'TRAIN', 'dog') + line('images/2.png', 'train', 'cat', 'dog')
                + line('images/3.png', 'eval', 'bird') + line('images/1.jpg', 'train', 'ant')
                + line('images/2.png', 'train') + line('images/3.png', 'eval', 'ant', 'bird'))
    with open(_path('manifest', 'missing.manifest'), 'w') as f:
        f.write(line('images/4.png', 'train', 'dog'))
    _cases('manifest', {
        'train': "ds.ManifestDataset(D + '/data.manifest', shuffle=False)",
        'train_decoded': "ds.ManifestDataset(D + '/data.manifest', shuffle=False, decode=True)",
        'eval_decoded': "ds.ManifestDataset(D + '/data.manifest', usage='eval', shuffle=False, "
                        "decode=True)",
        'class_indexing': "ds.ManifestDataset(D + '/data.manifest', shuffle=False, "
                          "class_indexing={'dog': 5, 'cat': 1})",
        'shard': "ds.ManifestDataset(D + '/data.manifest', shuffle=False, num_shards=2, "
                 "shard_id=1)",
        'inference': "ds.ManifestDataset(D + '/data.manifest', usage='inference')",
        'missing_image': "ds.ManifestDataset(D + '/missing.manifest')",
    })


VOC_OBJECT = """  <object>
    <name>{name}</name>
    <pose>Unspecified</pose>
    <truncated>{truncated}</truncated>
    <difficult>{difficult}</difficult>
    <bndbox><xmin>{box[0]}</xmin><ymin>{box[1]}</ymin>
      <xmax>{box[2]}</xmax><ymax>{box[3]}</ymax></bndbox>
  </object>
"""


def make_voc():
    """A 3-image VOC tree: JPEG images, palette PNG masks, XML annotations, image sets."""
    from PIL import Image
    ids = ['2007_000027', '2007_000032', '2008_000001']
    objects = {
        '2007_000027': [('person', 0, 0, (1, 2, 5, 4)), ('dog', 1, 1, (0.5, 1, 3, 2.5))],
        '2007_000032': [('cat', 0, 1, (2, 1, 6, 5))],
        '2008_000001': [('dog', 0, 0, (1, 1, 2, 2)), ('person', 1, 0, (3, 3, 4, 5)),
                        ('cat', 0, 0, (1.5, 1.25, 3.75, 2.5))],
    }
    for k, image_id in enumerate(ids):
        _image(('voc', 'JPEGImages', f'{image_id}.jpg'), (5, 7, 3), 10 + k, quality=90)
        mask = Image.fromarray(np.random.default_rng(20 + k).integers(0, 4, (5, 7))
                               .astype(np.uint8), mode='P')
        mask.putpalette([0, 0, 0, 128, 0, 0, 0, 128, 0, 128, 128, 0] + [0] * 756)
        mask.save(_path('voc', 'SegmentationClass', f'{image_id}.png'))
        with open(_path('voc', 'Annotations', f'{image_id}.xml'), 'w') as f:
            f.write(f"<annotation>\n  <folder>VOC2012</folder>\n  <filename>{image_id}.jpg"
                    f"</filename>\n  <size><width>7</width><height>5</height><depth>3</depth>"
                    f"</size>\n" + ''.join(
                        VOC_OBJECT.format(name=n, truncated=t, difficult=d, box=b)
                        for n, t, d, b in objects[image_id]) + "</annotation>\n")
    for task in ('Segmentation', 'Main'):
        with open(_path('voc', 'ImageSets', task, 'train.txt'), 'w') as f:
            f.write('\n'.join(ids) + '\n')
        with open(_path('voc', 'ImageSets', task, 'val.txt'), 'w') as f:
            f.write(ids[1] + '\n')
    _cases('voc', {
        'segmentation': "ds.VOCDataset(D, shuffle=False)",
        'segmentation_decoded': "ds.VOCDataset(D, task='Segmentation', usage='train', "
                                "decode=True, shuffle=False)",
        'detection': "ds.VOCDataset(D, task='Detection', shuffle=False)",
        'detection_decoded_val': "ds.VOCDataset(D, task='Detection', usage='val', decode=True, "
                                 "shuffle=False)",
        'detection_indexing': "ds.VOCDataset(D, task='Detection', shuffle=False, "
                              "class_indexing={'dog': 7, 'cat': 2})",
        'detection_shard': "ds.VOCDataset(D, task='Detection', shuffle=False, num_shards=2, "
                           "shard_id=1)",
        'missing_usage': "ds.VOCDataset(D, task='Detection', usage='test')",
    })


def make_coco():
    """A 3-image COCO tree with the annotation files of the five tasks."""
    _image(('coco', 'images', '000000000007.jpg'), (5, 7, 3), 30, quality=90)
    _image(('coco', 'images', '000000000003.png'), (4, 3, 3), 31)
    _image(('coco', 'images', '000000000009.png'), (2, 3), 32)
    images = [{'id': 7, 'file_name': '000000000007.jpg', 'height': 5, 'width': 7},
              {'id': 3, 'file_name': '000000000003.png', 'height': 4, 'width': 3},
              {'id': 9, 'file_name': '000000000009.png', 'height': 2, 'width': 3}]
    categories = [{'id': 1, 'name': 'person', 'supercategory': 'person', 'isthing': 1},
                  {'id': 5, 'name': 'car', 'supercategory': 'vehicle', 'isthing': 0},
                  {'id': 18, 'name': 'dog', 'supercategory': 'animal', 'isthing': 1}]
    instances = [
        {'id': 1, 'image_id': 7, 'category_id': 1, 'iscrowd': 0, 'area': 12.0,
         'bbox': [1, 2, 3, 4], 'segmentation': [[1, 2, 4, 2, 4, 6]]},
        {'id': 2, 'image_id': 3, 'category_id': 5, 'iscrowd': 0, 'area': 2.5,
         'bbox': [0.5, 1, 2, 1.25], 'segmentation': [[0.5, 1, 2.5, 1, 2.5, 2.25],
                                                     [0, 0, 1, 0, 1, 1, 0, 1]]},
        {'id': 3, 'image_id': 7, 'category_id': 18, 'iscrowd': 1, 'area': 6.0,
         'bbox': [0, 0, 2, 3], 'segmentation': {'counts': [0, 3, 2, 1, 4], 'size': [5, 7]}},
        {'id': 4, 'image_id': 9, 'category_id': 5, 'iscrowd': 0, 'area': 1.0,
         'bbox': [1, 0, 1, 1], 'segmentation': [[1, 0, 2, 0, 2, 1]]},
    ]
    keypoints = [
        {'id': 1, 'image_id': 7, 'category_id': 1, 'iscrowd': 0, 'num_keypoints': 2,
         'keypoints': [1, 2, 2, 3, 4, 1, 0, 0, 0], 'bbox': [1, 2, 3, 4]},
        {'id': 2, 'image_id': 7, 'category_id': 1, 'iscrowd': 0, 'num_keypoints': 1,
         'keypoints': [0, 0, 0, 5.5, 1, 2, 0, 0, 0], 'bbox': [0, 0, 6, 3]},
        {'id': 3, 'image_id': 3, 'category_id': 1, 'iscrowd': 0, 'num_keypoints': 3,
         'keypoints': [1, 1, 2, 2, 2, 2, 2, 3, 2], 'bbox': [0, 0, 3, 4]},
        {'id': 4, 'image_id': 9, 'category_id': 1, 'iscrowd': 0, 'num_keypoints': 0,
         'keypoints': [0, 0, 0, 0, 0, 0, 0, 0, 0], 'bbox': [0, 0, 1, 1]},
    ]
    panoptic = [
        {'image_id': 7, 'file_name': '000000000007.png', 'segments_info': [
            {'id': 11, 'category_id': 1, 'iscrowd': 0, 'bbox': [1, 2, 3, 4], 'area': 12},
            {'id': 12, 'category_id': 18, 'iscrowd': 1, 'bbox': [0, 0, 2, 3], 'area': 6}]},
        {'image_id': 3, 'file_name': '000000000003.png', 'segments_info': [
            {'id': 13, 'category_id': 5, 'iscrowd': 0, 'bbox': [0, 1, 2, 1], 'area': 2}]},
        {'image_id': 9, 'file_name': '000000000009.png', 'segments_info': [
            {'id': 14, 'category_id': 5, 'iscrowd': 0, 'bbox': [1, 0, 1, 1], 'area': 1}]},
    ]
    captions = [{'id': 1, 'image_id': 3, 'caption': 'A small red car.'},
                {'id': 2, 'image_id': 7, 'caption': 'A person with a dog'},
                {'id': 3, 'image_id': 3, 'caption': 'Café, parked'},
                {'id': 4, 'image_id': 9, 'caption': 'Grey.'}]
    for name, annotations in (('instances', instances), ('keypoints', keypoints),
                              ('panoptic', panoptic), ('captions', captions)):
        with open(_path('coco', 'annotations', f'{name}.json'), 'w') as f:
            json.dump({'images': images, 'annotations': annotations,
                       'categories': categories}, f)
    _cases('coco', {
        'detection': "ds.CocoDataset(D + '/images', D + '/annotations/instances.json', "
                     "shuffle=False)",
        'detection_decoded': "ds.CocoDataset(D + '/images', D + '/annotations/instances.json', "
                             "task='Detection', decode=True, shuffle=False)",
        'stuff': "ds.CocoDataset(D + '/images', D + '/annotations/instances.json', "
                 "task='Stuff', shuffle=False)",
        'keypoint': "ds.CocoDataset(D + '/images', D + '/annotations/keypoints.json', "
                    "task='Keypoint', shuffle=False)",
        'panoptic': "ds.CocoDataset(D + '/images', D + '/annotations/panoptic.json', "
                    "task='Panoptic', shuffle=False)",
        'captioning': "ds.CocoDataset(D + '/images', D + '/annotations/captions.json', "
                      "task='Captioning', shuffle=False)",
        'shard': "ds.CocoDataset(D + '/images', D + '/annotations/instances.json', "
                 "shuffle=False, num_shards=2, shard_id=1)",
    })


def make_celeba():
    """Four CelebA images with a 5-attribute list and an evaluation partition."""
    names = ['000001.jpg', '000002.jpg', '000003.png', '000004.jpg']
    for k, name in enumerate(names):
        _image(('celeba', name), (4, 3, 3), 40 + k, **({'quality': 90} if 'jpg' in name else {}))
    attrs = ['5_o_Clock_Shadow', 'Arched_Eyebrows', 'Attractive', 'Bags_Under_Eyes', 'Bald']
    values = [[-1, 1, 1, -1, -1], [1, -1, -1, 1, -1], [-1, -1, 1, 1, 1], [1, 1, -1, -1, -1]]
    with open(_path('celeba', 'list_attr_celeba.txt'), 'w') as f:
        f.write(f"{len(names)}\n{' '.join(attrs)}\n")
        for name, row in zip(names, values):
            f.write(name + ''.join(f' {v:2d}' for v in row) + '\n')
    with open(_path('celeba', 'list_eval_partition.txt'), 'w') as f:
        f.write(''.join(f'{name} {part}\n' for name, part in zip(names, (0, 2, 1, 0))))
    _cases('celeba', {
        'all': "ds.CelebADataset(D, shuffle=False)",
        'train_decoded': "ds.CelebADataset(D, usage='train', decode=True, shuffle=False)",
        'valid': "ds.CelebADataset(D, usage='valid', shuffle=False)",
        'test': "ds.CelebADataset(D, usage='test', shuffle=False)",
        'extensions': "ds.CelebADataset(D, extensions=['.jpg'], shuffle=False)",
        'shard': "ds.CelebADataset(D, shuffle=False, num_shards=3, shard_id=2)",
    })


def _idx_int(path, arr):
    """An IDX file of big-endian int32: magic 0x0C00 | ndim."""
    with open(path, 'wb') as f:
        f.write(struct.pack('>HBB', 0, 0x0C, arr.ndim))
        f.write(struct.pack('>' + 'I' * arr.ndim, *arr.shape))
        f.write(arr.astype('>i4').tobytes())


def make_qmnist():
    """QMNIST's train, test and xnist files: IDX images and (N, 8) int32 label records."""
    for prefix, n, tag in (('qmnist-train', 3, 0), ('qmnist-test', 4, 100), ('xnist', 2, 200)):
        images, labels = _digits(n, tag, 5)
        _idx(_path('qmnist', f'{prefix}-images-idx3-ubyte'), images)
        extra = np.arange(n * 7).reshape(n, 7) * 1000 + tag + 1     # writer, index, ...
        _idx_int(_path('qmnist', f'{prefix}-labels-idx2-int'),
                 np.concatenate([labels[:, None].astype(np.int64), extra], axis=1))
    _cases('qmnist', {
        'train': "ds.QMnistDataset(D, usage='train', shuffle=False)",
        'test_full': "ds.QMnistDataset(D, usage='test', compat=False, shuffle=False)",
        'test10k': "ds.QMnistDataset(D, usage='test10k', shuffle=False)",
        'test50k': "ds.QMnistDataset(D, usage='test50k', shuffle=False)",
        'nist': "ds.QMnistDataset(D, usage='nist', compat=False, shuffle=False)",
        'all': "ds.QMnistDataset(D, shuffle=False)",
        'shard': "ds.QMnistDataset(D, usage='all', shuffle=False, num_shards=4, shard_id=3)",
    })


def make_usps():
    """USPS's libsvm-format files: a label 1-10, then 256 index:value pairs in [-1, 1] and a
    space, as in the published files (MindSpore needs that last space)."""
    rng = np.random.default_rng(6)
    special = [-1, 1, 0, 0.5, -0.5, 0.999, -0.999, 0.25, -0.25, 0.1, 0.0039, 0.00392157]
    for name, n in (('usps', 3), ('usps.t', 2)):
        with open(_path('usps', name), 'w') as f:
            for k in range(n):
                values = np.round(rng.uniform(-1, 1, 256), 6)
                values[:len(special)] = special
                values[len(special)] = k / 100
                f.write(f'{(k * 4 + n) % 10 + 1} ' + ' '.join(
                    f'{i + 1}:{v:.6g}' for i, v in enumerate(values)) + ' \n')
    _cases('usps', {
        'train': "ds.USPSDataset(D, usage='train', shuffle=False)",
        'all': "ds.USPSDataset(D, shuffle=False, num_parallel_workers=1)",
        'all_workers': "ds.USPSDataset(D, usage='all', shuffle=False, num_parallel_workers=2)",
        'shard': "ds.USPSDataset(D, shuffle=False, num_shards=2, shard_id=1)",
        'num_samples': "ds.USPSDataset(D, usage='test', shuffle=False, num_samples=1)",
    })


def make_semeion():
    """Semeion's text file: 256 pixel values (0 or 1, written as floats) and a one-hot digit."""
    rng = np.random.default_rng(7)
    with open(_path('semeion', 'semeion.data'), 'w') as f:
        for digit in (3, 0, 9):
            pixels = rng.integers(0, 2, 256)
            f.write(' '.join(f'{p:.4f}' for p in pixels) + ' ' +
                    ' '.join('1' if d == digit else '0' for d in range(10)) + ' \n')
    _cases('semeion', {
        'all': "ds.SemeionDataset(D, shuffle=False)",
        'shard': "ds.SemeionDataset(D, shuffle=False, num_shards=2, shard_id=1)",
    })


def make_class_folders():
    """Omniglot, Caltech-256, Food-101 and SBU trees of tiny images."""
    k = 50
    for part in ('images_background', 'images_evaluation'):
        for alphabet in ('Latin', 'Greek'):
            for character in ('character02', 'character01'):
                for n in (2, 1):
                    k += 1
                    _image(('omniglot', part, alphabet, character, f'{k:04d}_{n:02d}.png'),
                           (2, 2), k)
    _cases('omniglot', {
        'background': "ds.OmniglotDataset(D, background=True, shuffle=False)",
        'evaluation_decoded': "ds.OmniglotDataset(D, background=False, decode=True, "
                              "shuffle=False)",
        'all': "ds.OmniglotDataset(D, shuffle=False)",
    })
    for folder in ('002.american-flag', '001.ak47', '257.clutter'):
        for n in (2, 1):
            k += 1
            _image(('caltech256', folder, f'{folder[:3]}_{n:04d}.jpg'), (2, 3, 3), k,
                   quality=90)
    _image(('caltech256', '001.ak47', 'notes.txt'), (1, 1), 0, format='PNG')
    _cases('caltech256', {
        'all': "ds.Caltech256Dataset(D, shuffle=False)",
        'decoded': "ds.Caltech256Dataset(D, decode=True, shuffle=False)",
    })
    for cls in ('waffles', 'apple_pie'):
        for n in (1005, 17):
            k += 1
            _image(('food101', 'images', cls, f'{n}.jpg'), (3, 2, 3), k, quality=90)
    with open(_path('food101', 'meta', 'train.txt'), 'w') as f:
        f.write('waffles/17\napple_pie/1005\nwaffles/1005\n')
    with open(_path('food101', 'meta', 'test.txt'), 'w') as f:
        f.write('apple_pie/17\n')
    _cases('food101', {
        'train': "ds.Food101Dataset(D, usage='train', shuffle=False)",
        'test_decoded': "ds.Food101Dataset(D, usage='test', decode=True, shuffle=False)",
        'all': "ds.Food101Dataset(D, shuffle=False)",
    })
    names = ['m_1_2_a.jpg', 'm_3_4_b.jpg', 'm_5_6_c.jpg']
    for name in (names[0], names[2]):            # the second image is missing
        k += 1
        _image(('sbu', 'sbu_images', name), (2, 2, 3), k, quality=90)
    with open(_path('sbu', 'SBU_captioned_photo_dataset_urls.txt'), 'w') as f:
        f.write(''.join(f"http://static.flickr.com/{name[2:].replace('_', '/', 1)}\n"
                        for name in names))
    with open(_path('sbu', 'SBU_captioned_photo_dataset_captions.txt'), 'w') as f:
        f.write('A tree by the lake \nclouds, at noon\n the  end\n')
    _cases('sbu', {
        'all': "ds.SBUDataset(D, shuffle=False)",
        'decoded': "ds.SBUDataset(D, decode=True, shuffle=False, num_samples=2)",
    })


TEXT_CSV_SETS = {   # fixture folder: (class name, number of columns)
    'ag_news': ('AGNewsDataset', 3), 'amazon_review': ('AmazonReviewDataset', 3),
    'dbpedia': ('DBpediaDataset', 3), 'sogou_news': ('SogouNewsDataset', 3),
    'yahoo_answers': ('YahooAnswersDataset', 4), 'yelp_review': ('YelpReviewDataset', 2),
}


def make_text_sets():
    """Headerless CSV files of the text-classification sets, and the line files of the
    language-modelling sets."""
    texts = ['Wall St. Bears Claw Back', 'He said ""no"" twice', 'plain, with comma',
             'a \\n b', 'last']
    for folder, (cls, width) in TEXT_CSV_SETS.items():
        for usage, rows in (('train', 2), ('test', 1)):
            with open(_path(folder, f'{usage}.csv'), 'w', newline='') as f:
                for r in range(rows):
                    fields = [str(r + (3 if usage == 'test' else 1))] + [
                        texts[(r + c + width) % len(texts)] for c in range(width - 1)]
                    f.write(','.join(f'"{x}"' for x in fields) + '\n')
        _cases(folder, {
            'train': f"ds.{cls}(D, usage='train', shuffle=False)",
            'all': f"ds.{cls}(D, shuffle=False, num_parallel_workers=1)",
            'all_workers': f"ds.{cls}(D, usage='all', shuffle=False)",
            'shard': f"ds.{cls}(D, usage='all', shuffle=False, num_shards=3, shard_id=1)",
        })
    for folder, cls, pattern in (('penn_treebank', 'PennTreebankDataset', 'ptb.{}.txt'),
                                 ('wikitext', 'WikiTextDataset', 'wiki.{}.tokens')):
        for usage, lines in (('train', ' aer banknote <unk> \n\n N years\n'),
                             ('valid', ' = Valkyria = \n'), ('test', 'one\ntwo\n \n')):
            with open(_path(folder, pattern.format(usage)), 'w') as f:
                f.write(lines)
        _cases(folder, {
            'train': f"ds.{cls}(D, usage='train', shuffle=False)",
            'valid': f"ds.{cls}(D, usage='valid', shuffle=False)",
            'all': f"ds.{cls}(D, shuffle=False, num_parallel_workers=1)",
            'all_workers': f"ds.{cls}(D, usage='all', shuffle=False)",
        })


def make_text_sets_2():
    """IMDB's review files, SST-2's TSV files, enwik9, and the tagged-sentence files of
    CoNLL-2000 and UD POS."""
    reviews = {('train', 'pos', '0_9'): 'Great film.<br /><br />Loved it',
               ('train', 'pos', '1_7'): 'Good,\nnot great ',
               ('train', 'neg', '0_3'): 'Bad.',
               ('test', 'pos', '0_10'): 'Superb',
               ('test', 'neg', '1_1'): 'Awful "film"',
               ('test', 'neg', '0_2'): 'Dull'}
    for (usage, polarity, name), text in reviews.items():
        with open(_path('imdb', usage, polarity, f'{name}.txt'), 'w') as f:
            f.write(text)
    _cases('imdb', {
        'train': "ds.IMDBDataset(D, usage='train', shuffle=False)",
        'all': "ds.IMDBDataset(D, shuffle=False)",
        'shard': "ds.IMDBDataset(D, usage='all', shuffle=False, num_shards=2, shard_id=1)",
    })
    with open(_path('sst2', 'train.tsv'), 'w') as f:
        f.write('sentence\tlabel\nhide new secretions \t0\ncontains no wit , only labored gags '
                '\t0\nthat loves its characters \t1\n')
    with open(_path('sst2', 'dev.tsv'), 'w') as f:
        f.write("sentence\tlabel\nit 's a charming journey . \t1\n")
    with open(_path('sst2', 'test.tsv'), 'w') as f:
        f.write('index\tsentence\n0\tuneasy mishmash of styles\n1\tthis film \'s fun\n')
    _cases('sst2', {
        'train': "ds.SST2Dataset(D, usage='train', shuffle=False)",
        'dev': "ds.SST2Dataset(D, usage='dev', shuffle=False)",
        'test': "ds.SST2Dataset(D, usage='test', shuffle=False)",
        'default': "ds.SST2Dataset(D, shuffle=False, num_samples=2)",
    })
    with open(_path('enwik9', 'enwik9'), 'w') as f:
        f.write('<mediawiki xmlns="x">\n  <siteinfo>\n\n    <sitename>Wikipedia</sitename>\n')
    _cases('enwik9', {
        'all': "ds.EnWik9Dataset(D, shuffle=False)",
        'shard': "ds.EnWik9Dataset(D, shuffle=False, num_shards=2, shard_id=1)",
    })
    with open(_path('conll2000', 'train.txt'), 'w') as f:
        f.write('Confidence NN B-NP\nin IN B-PP\nthe DT B-NP\n\nHe PRP B-NP\nreckons VBZ B-VP\n')
    with open(_path('conll2000', 'test.txt'), 'w') as f:
        f.write('Rockwell NNP B-NP\n. . O\n\n')
    _cases('conll2000', {
        'train': "ds.CoNLL2000Dataset(D, usage='train', shuffle=False)",
        'all': "ds.CoNLL2000Dataset(D, shuffle=False, num_parallel_workers=1)",
    })
    for usage, text in (('train', 'Al\tPROPN\tNNP\n-\tPUNCT\tHYPH\n\nZaman\tPROPN\tNNP\n'),
                        ('dev', 'From\tADP\tIN\nthe\tDET\tDT\n\n'),
                        ('test', 'What\tPRON\tWP\n\n')):
        with open(_path('udpos', f'en-ud-tag.v2.{usage}.txt'), 'w') as f:
            f.write(text)
    _cases('udpos', {
        'train': "ds.UDPOSDataset(D, usage='train', shuffle=False)",
        'valid': "ds.UDPOSDataset(D, usage='valid', shuffle=False)",
        'all': "ds.UDPOSDataset(D, shuffle=False, num_parallel_workers=1)",
    })

def make_image_sets_2():
    """Flickr, SUN397 and Rendered SST-2 trees of tiny images."""
    k = 100
    for name in ('1000268201_693b08cb0e.jpg', '10002456.jpg'):
        k += 1
        _image(('flickr', 'images', name), (2, 3, 3), k, quality=90)
    with open(_path('flickr', 'captions.token'), 'w') as f:
        f.write('1000268201_693b08cb0e.jpg#0\tA child in a pink dress .\n'
                '10002456.jpg#2\tThree men on a ladder\n'
                '1000268201_693b08cb0e.jpg#1\tA girl going into a building .\n'
                '10002456.jpg#0\tWorkers , look up\n'
                '1000268201_693b08cb0e.jpg#2\tA little girl climbing .\n'
                '1000268201_693b08cb0e.jpg#3\tA little girl climbing the stairs .\n'
                '1000268201_693b08cb0e.jpg#4\tA girl in pink .\n'
                '10002456.jpg#1\tTwo men\n')
    _cases('flickr', {
        'all': "ds.FlickrDataset(D + '/images', D + '/captions.token', shuffle=False)",
        'decoded': "ds.FlickrDataset(D + '/images', D + '/captions.token', decode=True, "
                   "shuffle=False, num_samples=1)",
    })
    with open(_path('sun397', 'ClassName.txt'), 'w') as f:
        f.write('/b/balcony/exterior\n/a/abbey\n')
    for folder, names in (('b/balcony/exterior', ('sun_b.jpg', 'sun_a.jpg')),
                          ('a/abbey', ('sun_z.jpg',))):
        for name in names:
            k += 1
            _image(('sun397', *folder.split('/'), name), (3, 2, 3), k, quality=90)
    _cases('sun397', {
        'all': "ds.SUN397Dataset(D, shuffle=False)",
        'decoded': "ds.SUN397Dataset(D, decode=True, shuffle=False)",
    })
    for usage in ('train', 'valid', 'test'):
        for polarity, names in (('negative', ('0002.png', '0001.png')),
                                ('positive', ('0001.png',))):
            for name in names:
                k += 1
                _image(('rendered_sst2', usage, polarity, name), (2, 2, 3), k)
    _cases('rendered_sst2', {
        'train': "ds.RenderedSST2Dataset(D, usage='train', shuffle=False)",
        'val_decoded': "ds.RenderedSST2Dataset(D, usage='val', decode=True, shuffle=False)",
        'all': "ds.RenderedSST2Dataset(D, shuffle=False)",
    })

MAKERS = [make_idx, make_text, make_synthetic, make_manifest, make_voc,
          make_coco, make_celeba, make_qmnist, make_usps, make_semeion, make_class_folders,
          make_text_sets, make_text_sets_2, make_image_sets_2]


def main():
    for make in MAKERS:
        make()


if __name__ == '__main__':
    main()
