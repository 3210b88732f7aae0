"""Tiny image dataset folders in the layouts MindSpore's readers expect (STL-10, Caltech-101,
Flowers-102, SVHN, LFW, Places365, DIV2K, PhotoTour); images are small PNG/JPEG/BMP files
whose pixels encode their number, so rows can be told apart."""
import os

import numpy as np


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)


def image(path, k, size=(4, 6), mode='RGB'):
    """Save an image whose pixels are all ``k`` (PNG/BMP: exact; JPEG: close)."""
    from PIL import Image
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shape = (size[0], size[1], 3) if mode == 'RGB' else size
    Image.fromarray(np.full(shape, k, np.uint8), mode).save(path)


def stl10(root, n_train=3, n_test=2, n_unlabeled=2):
    os.makedirs(root, exist_ok=True)
    for part, n in (('train', n_train), ('test', n_test), ('unlabeled', n_unlabeled)):
        pixels = np.arange(n * 3 * 96 * 96, dtype=np.int64).astype(np.uint8)
        pixels.tofile(os.path.join(root, f'{part}_X.bin'))
        if part != 'unlabeled':
            np.arange(1, n + 1, dtype=np.uint8).tofile(os.path.join(root, f'{part}_y.bin'))


def caltech101(root):
    from scipy.io import savemat
    for c, (name, count) in enumerate((('Faces', 2), ('BACKGROUND_Google', 1), ('ant', 1))):
        for i in range(1, count + 1):
            image(os.path.join(root, '101_ObjectCategories', name, f'image_{i:04d}.jpg'),
                  10 * c + i)
            folder = {'Faces': 'Faces_2'}.get(name, name)
            contour = np.array([[1.0 * i, 2.0], [3.0, 4.0 * c]])
            os.makedirs(os.path.join(root, 'Annotations', folder), exist_ok=True)
            savemat(os.path.join(root, 'Annotations', folder, f'annotation_{i:04d}.mat'),
                    {'obj_contour': contour})


def flowers102(root):
    from scipy.io import savemat
    os.makedirs(root, exist_ok=True)
    savemat(os.path.join(root, 'imagelabels.mat'), {'labels': np.array([[3, 1, 2, 3, 1]])})
    savemat(os.path.join(root, 'setid.mat'), {'trnid': np.array([[2, 4]]),
                                               'tstid': np.array([[1]]),
                                               'valid': np.array([[5, 3]])})
    for i in range(1, 6):
        image(os.path.join(root, 'jpg', f'image_{i:05d}.jpg'), 20 * i)
        image(os.path.join(root, 'segmim', f'segmim_{i:05d}.jpg'), 200 + i)


def svhn(root):
    from scipy.io import savemat
    os.makedirs(root, exist_ok=True)
    for part, labels in (('train', [1, 10, 3]), ('test', [10]), ('extra', [5, 6])):
        n = len(labels)
        x = np.arange(32 * 32 * 3 * n, dtype=np.int64).astype(np.uint8).reshape(32, 32, 3, n)
        savemat(os.path.join(root, f'{part}_32x32.mat'),
                {'X': x, 'y': np.array(labels, np.uint8).reshape(n, 1)})


def lfw(root):
    people = {'Aaron_Eckhart': 1, 'Abbas_Kiarostami': 2, 'Zoe_Ball': 1}
    for folder in ('lfw', 'lfw_funneled', 'lfw-deepfunneled'):
        for j, (name, count) in enumerate(sorted(people.items())):
            for i in range(1, count + 1):
                image(os.path.join(root, folder, name, f'{name}_{i:04d}.jpg'), 30 * j + i)
    _write(os.path.join(root, 'lfw-names.txt'),
           ''.join(f'{n}\t{c}\n' for n, c in sorted(people.items())))
    _write(os.path.join(root, 'people.txt'),
           '2\n1\nZoe_Ball\t1\n2\nAaron_Eckhart\t1\nAbbas_Kiarostami\t2\n')
    _write(os.path.join(root, 'peopleDevTrain.txt'), '2\nAbbas_Kiarostami\t2\nZoe_Ball\t1\n')
    _write(os.path.join(root, 'peopleDevTest.txt'), '1\nAaron_Eckhart\t1\n')
    _write(os.path.join(root, 'pairs.txt'),
           '1\t1\nAbbas_Kiarostami\t1\t2\nAaron_Eckhart\t1\tZoe_Ball\t1\n')
    _write(os.path.join(root, 'pairsDevTrain.txt'),
           '1\nAbbas_Kiarostami\t1\t2\nZoe_Ball\t1\tAbbas_Kiarostami\t2\n')
    _write(os.path.join(root, 'pairsDevTest.txt'),
           '1\nAbbas_Kiarostami\t2\t1\nAaron_Eckhart\t1\tZoe_Ball\t1\n')


def places365(root):
    _write(os.path.join(root, 'categories_places365.txt'), '/a/airfield 0\n/b/bar 1\n')
    _write(os.path.join(root, 'places365_train_standard.txt'),
           '/a/airfield/00000001.jpg 0\n/b/bar/00000002.jpg 1\n/a/airfield/00000003.jpg 0\n')
    _write(os.path.join(root, 'places365_val.txt'),
           'Places365_val_00000001.jpg 1\nPlaces365_val_00000002.jpg 0\n')
    for k, rel in enumerate(('a/airfield/00000001.jpg', 'b/bar/00000002.jpg',
                             'a/airfield/00000003.jpg')):
        image(os.path.join(root, 'data_256_standard', rel), 40 + k)
        image(os.path.join(root, 'data_large_standard', rel), 50 + k, size=(8, 8))
    for k in (1, 2):
        image(os.path.join(root, 'val_256', f'Places365_val_{k:08d}.jpg'), 60 + k)


def div2k(root):
    for part, ids in (('train', ('0001', '0002')), ('valid', ('0801',))):
        for k, i in enumerate(ids):
            image(os.path.join(root, f'DIV2K_{part}_HR', f'{i}.png'), 70 + k, size=(8, 8))
            image(os.path.join(root, f'DIV2K_{part}_LR_bicubic', 'X2', f'{i}x2.png'), 80 + k)
            image(os.path.join(root, f'DIV2K_{part}_LR_mild', f'{i}x4m.png'), 90 + k,
                  size=(2, 2))


def photo_tour(root, name='liberty'):
    from PIL import Image
    folder = os.path.join(root, name)
    os.makedirs(folder, exist_ok=True)
    sheet = np.zeros((1024, 1024), np.uint8)
    for p in range(3):                          # patch p: 64x64 at row 0, column p
        sheet[:64, 64 * p:64 * (p + 1)] = 100 + p
    Image.fromarray(sheet, 'L').save(os.path.join(folder, 'patches0000.bmp'))
    _write(os.path.join(folder, 'info.txt'), '7 0\n7 0\n9 0\n')
    _write(os.path.join(folder, 'm50_100000_100000_0.txt'),
           '0 7 0 1 7 0 0\n0 7 0 2 9 0 0\n')
