"""Tiny Cityscapes, KITTI and WIDER FACE folders in the layouts MindSpore's readers expect."""
import json
import os

import numpy as np

from .image_trees import _write, image


def cityscapes(root):
    for usage, city, frames in (('train', 'aachen', ('000000_000019', '000001_000019')),
                                ('val', 'bonn', ('000002_000019',)),
                                ('test', 'mainz', ('000003_000019',))):
        for k, frame in enumerate(frames):
            stem = f'{city}_{frame}'
            value = 10 * len(usage) + k
            image(os.path.join(root, 'leftImg8bit', usage, city, f'{stem}_leftImg8bit.png'),
                  value)
            base = os.path.join(root, 'gtFine', usage, city, f'{stem}_gtFine_')
            image(base + 'instanceIds.png', value + 1, mode='L')
            image(base + 'labelIds.png', value + 2, mode='L')
            image(base + 'color.png', value + 3)
            _write(base + 'polygons.json', json.dumps(
                {'imgHeight': 4, 'imgWidth': 6,
                 'objects': [{'label': 'road', 'polygon': [[0, 0], [k, 1]]}]}))


def kitti(root):
    lines = ['Car 0.00 0 -1.57 599.41 156.40 629.75 189.25 2.85 2.63 12.34 0.47 1.49 69.44 '
             '-1.56\nPedestrian 0.50 1 0.20 1.0 2.0 3.0 4.0 1.5 0.6 0.8 -1.0 2.0 10.0 0.1\n',
             'DontCare -1 -1 -10 503.89 169.71 590.61 190.13 -1 -1 -1 -1000 -1000 -1000 -10\n']
    for k, text in enumerate(lines):
        image(os.path.join(root, 'data_object_image_2', 'training', 'image_2', f'{k:06d}.png'),
              110 + k)
        _write(os.path.join(root, 'data_object_label_2', 'training', 'label_2', f'{k:06d}.txt'),
               text)
    image(os.path.join(root, 'data_object_image_2', 'testing', 'image_2', '000000.png'), 120)


def wider_face(root):
    for part, files in (('train', ('0--Parade/a.jpg', '1--Handshaking/b.jpg')),
                        ('val', ('0--Parade/c.jpg', '1--Handshaking/e.jpg')),
                        ('test', ('0--Parade/d.jpg', '1--Handshaking/f.jpg'))):
        for k, rel in enumerate(files):
            image(os.path.join(root, f'WIDER_{part}', 'images', rel), 130 + 3 * k + len(part))
    split = os.path.join(root, 'wider_face_split')
    _write(os.path.join(split, 'wider_face_train_bbx_gt.txt'),
           '0--Parade/a.jpg\n2\n449 330 122 149 0 0 0 0 0 0 \n1 2 3 4 2 1 1 0 1 2 \n'
           '1--Handshaking/b.jpg\n1\n9 8 7 6 1 1 0 1 0 1 \n')
    _write(os.path.join(split, 'wider_face_val_bbx_gt.txt'),
           '0--Parade/c.jpg\n1\n5 6 7 8 1 0 1 1 0 0 \n'
           '1--Handshaking/e.jpg\n1\n1 1 1 1 0 0 0 0 0 0 \n')
    _write(os.path.join(split, 'wider_face_test_filelist.txt'),
           '0--Parade/d.jpg\n1--Handshaking/f.jpg\n')


def sbd(root):
    from scipy import sparse
    from scipy.io import savemat
    for k, name in enumerate(('2008_000002', '2008_000003', '2008_000007')):
        image(os.path.join(root, 'img', f'{name}.jpg'), 140 + 10 * k)
        cells = np.empty((20, 1), dtype=object)
        for c in range(20):
            dense = np.zeros((4, 6))
            dense[c % 4, k] = 1
            cells[c, 0] = sparse.csc_matrix(dense)
        seg = np.full((4, 6), k + 1, np.uint8)
        os.makedirs(os.path.join(root, 'cls'), exist_ok=True)
        savemat(os.path.join(root, 'cls', f'{name}.mat'),
                {'GTcls': {'Boundaries': cells, 'Segmentation': seg,
                           'CategoriesPresent': np.array([[k + 1]])}})
    _write(os.path.join(root, 'train.txt'), '2008_000002\n2008_000007\n')
    _write(os.path.join(root, 'val.txt'), '2008_000003\n')
