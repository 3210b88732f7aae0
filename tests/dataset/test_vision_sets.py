"""STL-10, SVHN, Caltech-101, Flowers-102, LFW, Places365, DIV2K and PhotoTour readers: the
rows MindSpore 2.10 gives on the same fixture folders (recorded from MindSpore)."""
import os
import sys

import numpy as np
import pytest

import hookgrad.dataset as ds

from . import image_trees as trees


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True))


def _summary(data):
    """Per row: (dtype, shape, first value) of array columns, the value of scalars."""
    return [[a.item() if a.ndim == 0 else (a.dtype.str, a.shape, int(a.ravel()[0]))
             for a in row] for row in _rows(data)]


@pytest.mark.parametrize('usage, labels', [
    ('train', [0, 1, 2]), ('test', [0, 1]), ('unlabeled', [-1, -1]),
    ('train+unlabeled', [0, 1, 2, -1, -1]), ('all', [0, 1, 0, 1, 2, -1, -1])])
def test_stl10_as_mindspore(tmp_path, usage, labels):
    trees.stl10(tmp_path)
    rows = _rows(ds.STL10Dataset(str(tmp_path), usage=usage, shuffle=False))
    assert [int(r[1]) for r in rows] == labels
    assert all(r[1].dtype == np.int32 and r[0].shape == (96, 96, 3) for r in rows)


def test_stl10_pixels_are_transposed_as_mindspore(tmp_path):
    trees.stl10(tmp_path)
    image = _rows(ds.STL10Dataset(str(tmp_path), usage='train', shuffle=False))[1][0]
    # MindSpore's values at (0,0,0), (0,1,0), (1,0,0), (0,0,1), (5,7,2)
    assert [int(image[i]) for i in [(0, 0, 0), (0, 1, 0), (1, 0, 0), (0, 0, 1), (5, 7, 2)]] \
        == [0, 96, 1, 0, 165]
    with pytest.raises(ValueError, match="usage 'extra' is not within the valid set"):
        ds.STL10Dataset(str(tmp_path), usage='extra')
    os.remove(tmp_path / 'test_y.bin')
    with pytest.raises(RuntimeError, match="test_y.bin does not exist"):
        ds.STL10Dataset(str(tmp_path), usage='test')


def test_svhn_as_mindspore(tmp_path):
    pytest.importorskip('scipy')
    trees.svhn(tmp_path)
    assert _summary(ds.SVHNDataset(str(tmp_path), usage='train', shuffle=False)) == [
        [('|u1', (32, 32, 3), 0), 1], [('|u1', (32, 32, 3), 1), 0], [('|u1', (32, 32, 3), 2), 3]]
    rows = _rows(ds.SVHNDataset(str(tmp_path), shuffle=False))
    assert [int(r[1]) for r in rows] == [1, 0, 3, 0, 5, 6]      # train, test, extra
    assert rows[0][1].dtype == np.uint32


def test_mat_files_need_scipy(tmp_path, monkeypatch):
    trees.stl10(tmp_path)
    monkeypatch.setitem(sys.modules, 'scipy.io', None)
    with pytest.raises(ImportError, match="pip install scipy"):
        ds.SVHNDataset(str(tmp_path), usage='train')


def test_caltech101_as_mindspore(tmp_path):
    pytest.importorskip('scipy')
    trees.caltech101(tmp_path)
    data = ds.Caltech101Dataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ['image', 'category']
    assert [r[1] for r in _summary(data)] == [0, 0, 1]       # BACKGROUND_Google left out
    assert data.get_class_indexing() == {'Faces': 0, 'ant': 1}
    rows = _rows(ds.Caltech101Dataset(str(tmp_path), target_type='all', decode=True,
                                      shuffle=False))
    assert [int(r[0][0, 0, 0]) for r in rows] == [1, 2, 21]
    assert rows[0][1].dtype == np.int64 and rows[0][2].dtype == np.float64
    assert [r[2].tolist() for r in rows] == [[[1.0, 2.0], [3.0, 0.0]], [[2.0, 2.0], [3.0, 0.0]],
                                             [[1.0, 2.0], [3.0, 8.0]]]
    with pytest.raises(ValueError, match="target_type 'box' is not within the valid set"):
        ds.Caltech101Dataset(str(tmp_path), target_type='box')


def test_flowers102_as_mindspore(tmp_path):
    pytest.importorskip('scipy')
    trees.flowers102(tmp_path)
    data = ds.Flowers102Dataset(str(tmp_path), shuffle=False)
    assert [int(r[1]) for r in _rows(data)] == [0, 2, 2, 0, 1]
    rows = _rows(ds.Flowers102Dataset(str(tmp_path), task='Segmentation', usage='train',
                                      decode=True, shuffle=False))
    assert [(int(r[0][0, 0, 0]), int(r[1][0, 0, 0]), int(r[2])) for r in rows] == \
        [(40, 202, 0), (80, 204, 2)]
    assert rows[0][2].dtype == np.uint32
    with pytest.raises(ValueError, match="task 'Detection' is not within the valid set"):
        ds.Flowers102Dataset(str(tmp_path), task='Detection')


@pytest.mark.parametrize('task, usage, expected', [
    ('people', '10fold', [[61, 2], [1, 0], [31, 1], [32, 1]]),
    ('people', 'train', [[31, 1], [32, 1], [61, 2]]),
    ('people', 'test', [[1, 0]]),
    ('people', 'all', [[31, 1], [32, 1], [61, 2], [1, 0]]),
    ('pairs', '10fold', [[31, 32, 1], [1, 61, 0]]),
    ('pairs', 'train', [[31, 32, 1], [61, 32, 0]]),
    ('pairs', 'test', [[32, 31, 1], [1, 61, 0]]),
    ('pairs', 'all', [[31, 32, 1], [61, 32, 0], [32, 31, 1], [1, 61, 0]])])
def test_lfw_as_mindspore(tmp_path, task, usage, expected):
    trees.lfw(tmp_path)
    data = ds.LFWDataset(str(tmp_path), task=task, usage=usage, decode=True, shuffle=False)
    rows = _rows(data)
    assert [[int(a[0, 0, 0]) if a.ndim == 3 else int(a) for a in r] for r in rows] == expected
    assert rows[0][-1].dtype == np.uint32 and rows[0][0].shape == (4, 6, 3)


def test_lfw_checks(tmp_path):
    trees.lfw(tmp_path)
    with pytest.raises(ValueError, match="image_set 'raw' is not within the valid set"):
        ds.LFWDataset(str(tmp_path), image_set='raw')
    os.remove(tmp_path / 'pairs.txt')
    with pytest.raises(RuntimeError, match="pairs.txt does not exist"):
        ds.LFWDataset(str(tmp_path), task='pairs', usage='10fold')


@pytest.mark.parametrize('usage, small, expected', [
    ('train-standard', True, [(40, 0), (41, 1), (42, 0)]),
    ('train-standard', False, [(50, 0), (51, 1), (52, 0)]),
    ('val', True, [(61, 1), (62, 0)])])
def test_places365_as_mindspore(tmp_path, usage, small, expected):
    trees.places365(tmp_path)
    rows = _rows(ds.Places365Dataset(str(tmp_path), usage=usage, small=small, decode=True,
                                     shuffle=False))
    assert [(int(r[0][0, 0, 0]), int(r[1])) for r in rows] == expected
    assert rows[0][1].dtype == np.uint32


def test_places365_checks(tmp_path):
    trees.places365(tmp_path)
    with pytest.raises(ValueError, match="usage 'test' is not within the valid set"):
        ds.Places365Dataset(str(tmp_path), usage='test')
    with pytest.raises(RuntimeError, match="places365_train_challenge.txt does not exist"):
        ds.Places365Dataset(str(tmp_path), usage='train-challenge')


def test_div2k_as_mindspore(tmp_path):
    trees.div2k(tmp_path)
    rows = _rows(ds.DIV2KDataset(str(tmp_path), usage='all', decode=True, shuffle=False))
    assert [(r[0].shape, int(r[0][0, 0, 0]), r[1].shape, int(r[1][0, 0, 0])) for r in rows] == [
        ((8, 8, 3), 70, (4, 6, 3), 80), ((8, 8, 3), 71, (4, 6, 3), 81),
        ((8, 8, 3), 70, (4, 6, 3), 80)]
    mild = _rows(ds.DIV2KDataset(str(tmp_path), downgrade='mild', scale=4, decode=True,
                                 shuffle=False))
    assert [int(r[1][0, 0, 0]) for r in mild] == [90, 91]
    with pytest.raises(ValueError, match="mild downgrade requires scale equal to 4"):
        ds.DIV2KDataset(str(tmp_path), downgrade='mild', scale=2)
    with pytest.raises(RuntimeError, match="0001x3.png does not exist"):
        _rows(ds.DIV2KDataset(str(tmp_path), scale=3, shuffle=False))


def test_photo_tour_as_mindspore(tmp_path):
    trees.photo_tour(tmp_path)
    train = ds.PhotoTourDataset(str(tmp_path), 'liberty', usage='train', shuffle=False)
    assert _summary(train) == [[('|u1', (64, 64, 1), 100 + k)] for k in range(3)]
    test = ds.PhotoTourDataset(str(tmp_path), 'liberty', usage='test', shuffle=False)
    assert test.get_col_names() == ['image1', 'image2', 'matches']
    assert _summary(test) == [[('|u1', (64, 64, 1), 100), ('|u1', (64, 64, 1), 101), 1],
                              [('|u1', (64, 64, 1), 100), ('|u1', (64, 64, 1), 102), 0]]
    with pytest.raises(ValueError, match="name 'paris' is not within the valid set"):
        ds.PhotoTourDataset(str(tmp_path), 'paris')


def test_sampling_of_image_readers(tmp_path):
    trees.places365(tmp_path)
    shard = ds.Places365Dataset(str(tmp_path), decode=True, num_shards=2, shard_id=0,
                                shuffle=False)
    assert [int(r[0][0, 0, 0]) for r in _rows(shard)] == [40, 42]
    assert ds.Places365Dataset(str(tmp_path), num_samples=2).get_dataset_size() == 2
    picked = ds.Places365Dataset(str(tmp_path), decode=True, sampler=ds.SubsetSampler([2, 1]))
    assert [int(r[0][0, 0, 0]) for r in _rows(picked)] == [42, 41]
