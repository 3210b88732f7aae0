"""MnistDataset, Cifar10Dataset, Cifar100Dataset, ImageFolderDataset on small files built here.

The orders and shard memberships written as literals were read from MindSpore 2.10 on files of
the same layout (its CIFAR readers need 10000 records a file; the order is the same).
"""
import io
import os
import struct

import numpy as np
import pytest
from PIL import Image

import hookgrad as ms
from hookgrad import dataset as ds


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True))


# ----------------------------------------------------------------- MNIST
def _idx(path, arr):
    with open(path, 'wb') as f:
        f.write(struct.pack('>HBB', 0, 8, arr.ndim))
        f.write(struct.pack('>' + 'I' * arr.ndim, *arr.shape))
        f.write(arr.tobytes())


@pytest.fixture
def mnist(tmp_path):
    """7 train and 3 test images; pixel (0, 0) is the row number (+100 for test rows)."""
    for prefix, n, tag in (('train', 7, 0), ('t10k', 3, 100)):
        images = np.random.default_rng(n).integers(0, 256, (n, 28, 28)).astype(np.uint8)
        images[:, 0, 0] = np.arange(n) + tag
        _idx(tmp_path / f'{prefix}-images-idx3-ubyte', images)
        _idx(tmp_path / f'{prefix}-labels-idx1-ubyte', (np.arange(n) * 3 % 10).astype(np.uint8))
    return tmp_path


def test_mnist_columns_dtypes_and_pixels_match_the_files(mnist):
    d = ds.MnistDataset(str(mnist), usage='train', shuffle=False)
    assert d.get_col_names() == ['image', 'label'] and d.get_dataset_size() == 7
    images = np.fromfile(mnist / 'train-images-idx3-ubyte', np.uint8, offset=16)
    got = rows(d)
    for i, (image, label) in enumerate(got):
        assert image.shape == (28, 28, 1) and image.dtype == np.uint8
        assert label.shape == () and label.dtype == np.uint32 and label == i * 3 % 10
        np.testing.assert_array_equal(image.ravel(), images[i * 784:(i + 1) * 784])


@pytest.mark.parametrize('usage,first_pixels', [
    ('test', [100, 101, 102]),
    ('all', [100, 101, 102, 0, 1, 2, 3, 4, 5, 6]),       # MindSpore: t10k files first
    (None, [100, 101, 102, 0, 1, 2, 3, 4, 5, 6]),
])
def test_mnist_usage_picks_files_in_mindspore_order(mnist, usage, first_pixels):
    d = ds.MnistDataset(mnist, usage=usage, shuffle=False)
    assert [int(im[0, 0, 0]) for im, _ in rows(d)] == first_pixels
    assert d.get_dataset_size() == len(first_pixels)


def test_mnist_shards_and_num_samples_as_mindspore(mnist):
    shards = [[int(im[0, 0, 0]) for im, _ in rows(ds.MnistDataset(
        mnist, usage='train', shuffle=False, num_shards=3, shard_id=k))] for k in range(3)]
    assert shards == [[0, 3, 6], [1, 4, 0], [2, 5, 1]]             # from MindSpore 2.10
    d = ds.MnistDataset(mnist, usage='train', shuffle=False, num_shards=2, shard_id=1,
                        num_samples=2)
    assert [int(im[0, 0, 0]) for im, _ in rows(d)] == [1, 3]       # from MindSpore 2.10
    assert ds.MnistDataset(mnist, usage='train', num_samples=0).get_dataset_size() == 7


def test_mnist_shuffle_repeats_under_the_dataset_seed_and_batches_gather(mnist):
    ds.config.set_seed(4)
    a = [int(im[0, 0, 0]) for im, _ in rows(ds.MnistDataset(mnist, usage='train'))]
    ds.config.set_seed(4)
    b = [int(im[0, 0, 0]) for im, _ in rows(ds.MnistDataset(mnist, usage='train'))]
    assert a == b and sorted(a) == list(range(7)) and a != list(range(7))
    images, labels = rows(ds.MnistDataset(mnist, usage='train', shuffle=False).batch(4))[0]
    assert images.shape == (4, 28, 28, 1) and labels.tolist() == [0, 3, 6, 9]


def test_mnist_errors(mnist, tmp_path):
    with pytest.raises(ValueError, match=r"MnistDataset: usage 'val' is not within the valid "
                                         r"set of \['train', 'test', 'all'\]"):
        ds.MnistDataset(mnist, usage='val')
    with pytest.raises(ValueError, match="MnistDataset: the folder .*nope does not exist"):
        ds.MnistDataset(str(tmp_path / 'nope'))
    with pytest.raises(ValueError, match="num_shards and shard_id must be given together"):
        ds.MnistDataset(mnist, num_shards=2)
    with pytest.raises(ValueError, match="cache is not supported"):
        ds.MnistDataset(mnist, cache=object())
    os.remove(mnist / 't10k-labels-idx1-ubyte')
    with pytest.raises(RuntimeError, match="t10k-labels-idx1-ubyte must both exist for "
                                           "usage='test'"):
        ds.MnistDataset(mnist, usage='test')
    with open(mnist / 'train-labels-idx1-ubyte', 'r+b') as f:
        f.write(b'\x00\x00\x09\x09')
    with pytest.raises(RuntimeError, match="is not an MNIST IDX file"):
        ds.MnistDataset(mnist, usage='train')


def test_usage_of_another_type_is_a_type_error_or_value_error_by_reader(mnist):
    with pytest.raises(TypeError, match="MnistDataset: usage must be a str or None, got 1"):
        ds.MnistDataset(mnist, usage=1)
    with pytest.raises(ValueError, match=r"STL10Dataset: usage 1 is not within the valid set"):
        ds.STL10Dataset(str(mnist), usage=1)


# ----------------------------------------------------------------- CIFAR
def _cifar(path, n_labels, ids, labels):
    """Records whose R plane starts with the record id; labels as given."""
    rec = np.zeros((len(ids), n_labels + 3072), np.uint8)
    rec[:, :n_labels] = labels
    rec[:, n_labels] = ids                                   # R of pixel (0, 0)
    rec[:, n_labels + 1024] = 200                            # G of pixel (0, 0)
    rec[:, n_labels + 2048 + 1] = 7                          # B of pixel (0, 1)
    rec.tofile(path)


@pytest.fixture
def cifar10(tmp_path):
    # written out of order: MindSpore reads data_batch_1 before data_batch_2
    _cifar(tmp_path / 'data_batch_2.bin', 1, [10, 11], [[3], [4]])
    _cifar(tmp_path / 'data_batch_1.bin', 1, [0, 1, 2], [[0], [1], [2]])
    _cifar(tmp_path / 'test_batch.bin', 1, [20, 21], [[9], [8]])
    (tmp_path / 'readme.html').write_text('not data')
    return tmp_path


@pytest.mark.parametrize('usage,ids', [
    ('train', [0, 1, 2, 10, 11]), ('test', [20, 21]), ('all', [0, 1, 2, 10, 11, 20, 21]),
    (None, [0, 1, 2, 10, 11, 20, 21])])
def test_cifar10_reads_files_in_sorted_order_as_hwc(cifar10, usage, ids):
    d = ds.Cifar10Dataset(cifar10, usage=usage, shuffle=False)
    got = rows(d)
    assert d.get_col_names() == ['image', 'label'] and d.get_dataset_size() == len(ids)
    assert [int(im[0, 0, 0]) for im, _ in got] == ids
    image, label = got[0]
    assert image.shape == (32, 32, 3) and image.dtype == np.uint8
    assert label.dtype == np.uint32 and label.shape == ()
    assert image[0, 0].tolist() == [ids[0], 200, 0] and image[0, 1].tolist() == [0, 0, 7]
    labels = {0: 0, 1: 1, 2: 2, 10: 3, 11: 4, 20: 9, 21: 8}
    assert [int(lab) for _, lab in got] == [labels[i] for i in ids]


def test_cifar10_shards_wrap_around(cifar10):
    got = [[int(im[0, 0, 0]) for im, _ in rows(ds.Cifar10Dataset(
        cifar10, usage='all', shuffle=False, num_shards=3, shard_id=k))] for k in range(3)]
    assert got == [[0, 10, 21], [1, 11, 0], [2, 20, 1]]


def test_cifar100_columns_and_test_file_first(tmp_path):
    _cifar(tmp_path / 'train.bin', 2, [0, 1, 2], [[1, 11], [2, 22], [3, 33]])
    _cifar(tmp_path / 'test.bin', 2, [50, 51], [[4, 44], [5, 55]])
    d = ds.Cifar100Dataset(tmp_path, shuffle=False)
    assert d.get_col_names() == ['image', 'coarse_label', 'fine_label']
    got = rows(d)
    assert [(int(im[0, 0, 0]), int(c), int(f)) for im, c, f in got] == \
        [(50, 4, 44), (51, 5, 55), (0, 1, 11), (1, 2, 22), (2, 3, 33)]   # test.bin first
    assert got[0][1].dtype == np.uint32 and got[0][2].dtype == np.uint32
    assert ds.Cifar100Dataset(tmp_path, usage='train').get_dataset_size() == 3


def test_cifar_errors(cifar10, tmp_path):
    empty = tmp_path / 'empty'
    empty.mkdir()
    with pytest.raises(RuntimeError, match="cifar\\(.bin\\) files for usage='all' are "
                                           "missing under"):
        ds.Cifar10Dataset(empty)
    with pytest.raises(ValueError, match="Cifar100Dataset: usage 'x' is not within"):
        ds.Cifar100Dataset(cifar10, usage='x')
    with open(cifar10 / 'test_batch.bin', 'ab') as f:
        f.write(b'\x00')
    with pytest.raises(RuntimeError, match="test_batch.bin: 6147 bytes is not a whole number "
                                           "of 3073-byte records"):
        ds.Cifar10Dataset(cifar10, usage='test')


# ----------------------------------------------------------------- ImageFolder
@pytest.fixture
def folder(tmp_path):
    """Files whose bytes name them; MindSpore's order is sorted by folder, then file name."""
    for cls, files in {'dog': ['b.jpg', 'a.png', 'c.JPEG'], 'cat': ['z.jpg', 'y.jpg'],
                       'bird': ['x.bmp', 'note.txt']}.items():
        (tmp_path / cls).mkdir()
        for name in files:
            (tmp_path / cls / name).write_bytes(f'{cls}/{name}'.encode())
    return tmp_path


MS_ORDER = ['bird/note.txt', 'bird/x.bmp', 'cat/y.jpg', 'cat/z.jpg', 'dog/a.png', 'dog/b.jpg',
            'dog/c.JPEG']


def _names(d):
    return [bytes(im).decode() for im, _ in rows(d)]


def test_image_folder_order_labels_and_class_count_as_mindspore(folder):
    d = ds.ImageFolderDataset(str(folder), shuffle=False)
    got = rows(d)
    assert _names(d) == MS_ORDER
    assert [int(lab) for _, lab in got] == [0, 0, 1, 1, 2, 2, 2]
    assert got[0][0].dtype == np.uint8 and got[0][0].ndim == 1 and got[0][1].dtype == np.int32
    assert d.num_classes() == 3 and d.get_class_indexing() == {'bird': 0, 'cat': 1, 'dog': 2}
    assert d.get_dataset_size() == 7 and d.batch(2).num_classes() == 3


def test_image_folder_shards_as_mindspore(folder):
    shards = [_names(ds.ImageFolderDataset(folder, shuffle=False, num_shards=2, shard_id=k))
              for k in range(2)]
    assert shards == [['bird/note.txt', 'cat/y.jpg', 'dog/a.png', 'dog/c.JPEG'],
                      ['bird/x.bmp', 'cat/z.jpg', 'dog/b.jpg', 'bird/note.txt']]


def test_image_folder_extensions_are_case_sensitive_and_class_indexing_picks_folders(folder):
    assert _names(ds.ImageFolderDataset(folder, shuffle=False, extensions=['.JPEG'])) == \
        ['dog/c.JPEG']
    d = ds.ImageFolderDataset(folder, shuffle=False, extensions=['.jpg'],
                              class_indexing={'dog': 5, 'cat': 1})
    assert [(bytes(im).decode(), int(lab)) for im, lab in rows(d)] == \
        [('cat/y.jpg', 1), ('cat/z.jpg', 1), ('dog/b.jpg', 5)]
    assert d.num_classes() == 2 and d.get_class_indexing() == {'dog': 5, 'cat': 1}


def test_image_folder_decode_gives_rgb_hwc(tmp_path):
    (tmp_path / 'a').mkdir()
    pixels = np.arange(4 * 5 * 3, dtype=np.uint8).reshape(4, 5, 3)
    Image.fromarray(pixels).save(tmp_path / 'a' / 'p.png')
    Image.fromarray(pixels[:, :, 0]).save(tmp_path / 'a' / 'q.png')          # grayscale
    (image, label), (gray, _) = rows(ds.ImageFolderDataset(tmp_path, shuffle=False,
                                                           decode=True))
    np.testing.assert_array_equal(image, pixels)
    assert gray.shape == (4, 5, 3) and (gray == pixels[:, :, :1]).all() and int(label) == 0
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format='PNG')
    (tmp_path / 'a' / 'r.png').write_bytes(buf.getvalue()[:20])
    with pytest.raises(RuntimeError, match="invalid image, .*r.png decode failed"):
        rows(ds.ImageFolderDataset(tmp_path, shuffle=False, decode=True))


def test_image_folder_errors(folder):
    with pytest.raises(TypeError, match="extensions must be a list of str, got '.jpg'"):
        ds.ImageFolderDataset(folder, extensions='.jpg')
    with pytest.raises(TypeError, match="decode must be a bool, got 1"):
        ds.ImageFolderDataset(folder, decode=1)
    with pytest.raises(TypeError, match="class_indexing must be a dict of str to int"):
        ds.ImageFolderDataset(folder, class_indexing={'dog': 'x'})
    with pytest.raises(RuntimeError, match=r"class_indexing names \['zebra'\], which are not "
                                           r"folders"):
        ds.ImageFolderDataset(folder, class_indexing={'zebra': 3, 'dog': 1})
    with pytest.raises(ValueError, match="give either sampler or shuffle, not both"):
        ds.ImageFolderDataset(folder, sampler=ds.SequentialSampler(), shuffle=False)


def test_file_sources_split_and_map(folder):
    ms.set_seed(1)
    a, b = ds.ImageFolderDataset(folder, shuffle=False).split([5, 2], randomize=False)
    assert _names(a) + _names(b) == MS_ORDER
    d = ds.ImageFolderDataset(folder, shuffle=False).map(lambda im: np.int64(im.size), 'image')
    assert [int(n) for n, _ in rows(d)] == [len(n) for n in MS_ORDER]
