"""Cityscapes, KITTI, WIDER FACE and SBD readers: the rows MindSpore 2.10 gives on the same
fixture folders (recorded from MindSpore)."""
import os

import numpy as np
import pytest

import hookgrad.dataset as ds

from . import detection_trees as trees


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True))


def _first(a):
    return int(a.ravel()[0])


@pytest.mark.parametrize('usage, task, expected', [
    ('train', 'instance', [(50, 51), (51, 52)]),
    ('all', 'semantic', [(50, 52), (51, 53), (40, 42), (30, 32)]),
    ('val', 'color', [(30, 33)])])
def test_cityscapes_as_mindspore(tmp_path, usage, task, expected):
    trees.cityscapes(tmp_path)
    rows = _rows(ds.CityscapesDataset(str(tmp_path), usage=usage, task=task, decode=True,
                                      shuffle=False))
    assert [(_first(r[0]), _first(r[1])) for r in rows] == expected
    assert all(r[1].shape == (4, 6, 3) and r[1].dtype == np.uint8 for r in rows)


def test_cityscapes_polygon_text_as_mindspore(tmp_path):
    trees.cityscapes(tmp_path)
    rows = _rows(ds.CityscapesDataset(str(tmp_path), task='polygon', shuffle=False))
    assert [str(r[1]) for r in rows] == [
        '{"imgHeight":4,"imgWidth":6,"objects":[{"label":"road","polygon":[[0,0],[0,1]]}]}',
        '{"imgHeight":4,"imgWidth":6,"objects":[{"label":"road","polygon":[[0,0],[1,1]]}]}']
    assert rows[0][0].ndim == 1                                   # undecoded bytes
    with pytest.raises(ValueError, match="usage 'test' is not within the valid set"):
        ds.CityscapesDataset(str(tmp_path), usage='test', quality_mode='coarse')
    with pytest.raises(ValueError, match="task 'depth' is not within the valid set"):
        ds.CityscapesDataset(str(tmp_path), task='depth')


def test_kitti_as_mindspore(tmp_path):
    trees.kitti(tmp_path)
    data = ds.KITTIDataset(str(tmp_path), decode=True, shuffle=False)
    assert data.get_col_names() == ['image', 'label', 'truncated', 'occluded', 'alpha', 'bbox',
                                    'dimensions', 'location', 'rotation_y']
    first, second = _rows(data)
    assert _first(first[0]) == 110 and _first(second[0]) == 111
    assert first[1].dtype == np.uint32 and first[1].tolist() == [[0], [2]]
    assert second[1].tolist() == [[1]]                 # Car, DontCare, Pedestrian sorted
    assert first[3].tolist() == [[0], [1]] and second[3].tolist() == [[4294967295]]
    np.testing.assert_allclose(first[5], [[599.41, 156.40, 629.75, 189.25], [1, 2, 3, 4]],
                               rtol=1e-6)
    np.testing.assert_allclose(first[6], [[2.85, 2.63, 12.34], [1.5, 0.6, 0.8]], rtol=1e-6)
    np.testing.assert_allclose(first[7], [[0.47, 1.49, 69.44], [-1, 2, 10]], rtol=1e-6)
    np.testing.assert_allclose(first[8], [[-1.56], [0.1]], rtol=1e-6)
    assert all(a.dtype == np.float32 for k, a in enumerate(first) if k in (2, 4, 5, 6, 7, 8))
    test = _rows(ds.KITTIDataset(str(tmp_path), usage='test', decode=True, shuffle=False))
    assert len(test) == 1 and len(test[0]) == 1 and _first(test[0][0]) == 120
    os.remove(tmp_path / 'data_object_label_2' / 'training' / 'label_2' / '000001.txt')
    with pytest.raises(RuntimeError, match="000001.txt does not exist"):
        ds.KITTIDataset(str(tmp_path))


def test_wider_face_as_mindspore(tmp_path):
    trees.wider_face(tmp_path)
    rows = _rows(ds.WIDERFaceDataset(str(tmp_path), decode=True, shuffle=False))
    assert [_first(r[0]) for r in rows] == [135, 138, 133, 136]
    assert rows[0][1].dtype == np.int32 and rows[0][1].tolist() == [[449, 330, 122, 149],
                                                                    [1, 2, 3, 4]]
    # blur, expression, illumination, occlusion, pose, invalid, as MindSpore maps them
    assert [a.tolist() for a in rows[0][2:]] == [[0, 2], [0, 1], [0, 1], [0, 0], [0, 1], [0, 2]]
    assert [a.tolist() for a in rows[1][2:]] == [[1], [1], [0], [1], [0], [1]]
    test = _rows(ds.WIDERFaceDataset(str(tmp_path), usage='test', decode=True, shuffle=False))
    assert [(len(r), _first(r[0])) for r in test] == [(1, 134), (1, 137)]
    assert len(_rows(ds.WIDERFaceDataset(str(tmp_path), usage='valid'))) == 2
    (tmp_path / 'WIDER_val' / 'images' / '0--Parade' / 'z.jpg').write_bytes(b'x')
    with pytest.raises(RuntimeError, match="0--Parade/z.jpg has no entry"):
        ds.WIDERFaceDataset(str(tmp_path), usage='valid')


def test_sbd_as_mindspore(tmp_path):
    pytest.importorskip('scipy')
    trees.sbd(tmp_path)
    rows = _rows(ds.SBDataset(str(tmp_path), task='Boundaries', decode=True, shuffle=False))
    assert [_first(r[0]) for r in rows] == [140, 160, 150]       # train then val
    assert rows[0][1].shape == (20, 4, 6) and int(rows[0][1].sum()) == 20
    assert rows[1][1][0, 0].tolist() == [0, 0, 1, 0, 0, 0]
    seg = _rows(ds.SBDataset(str(tmp_path), task='Segmentation', usage='val', decode=True,
                             shuffle=False))
    assert seg[0][1].dtype == np.uint8 and seg[0][1].shape == (4, 6) and _first(seg[0][1]) == 2
    with pytest.raises(ValueError, match="usage 'test' is not within the valid set"):
        ds.SBDataset(str(tmp_path), usage='test')
    with pytest.raises(RuntimeError, match="train_noval.txt not found"):
        ds.SBDataset(str(tmp_path), usage='train_noval')


def _lsun(root):
    from .image_trees import image
    for cls, part, names in (('bedroom', 'train', ('1_1', '1_2')), ('classroom', 'train',
                                                                      ('2_1',)),
                             ('bedroom', 'val', ('3_1',)), ('classroom', 'val', ('4_1',))):
        for k, name in enumerate(names):
            image(os.path.join(root, f'{cls}_{part}', f'{name}.jpg'),
                  10 * len(cls) + k + len(part))
    image(os.path.join(root, 'test', '9_9.jpg'), 5)


@pytest.mark.parametrize('kwargs, expected', [
    (dict(usage='train'), [(75, 0), (76, 0), (95, 1)]),
    (dict(usage='valid'), [(73, 0), (93, 1)]),
    (dict(usage='all'), [(75, 0), (76, 0), (73, 1), (95, 2), (93, 3)]),
    (dict(usage='test'), [(5, 0)]),
    (dict(usage='train', classes=['classroom']), [(95, 0)])])
def test_lsun_as_mindspore(tmp_path, kwargs, expected):
    _lsun(tmp_path)
    rows = _rows(ds.LSUNDataset(str(tmp_path), decode=True, shuffle=False, **kwargs))
    assert [(_first(r[0]), int(r[1])) for r in rows] == expected
    assert rows[0][1].dtype == np.uint32


def test_lsun_errors(tmp_path):
    _lsun(tmp_path)
    with pytest.raises(TypeError, match="classes must be a list of str, got 'classroom'"):
        ds.LSUNDataset(str(tmp_path), classes='classroom')
    with pytest.raises(ValueError, match="class 'garage' is not within the valid set"):
        ds.LSUNDataset(str(tmp_path), classes=['garage'])
    with pytest.raises(ValueError, match="tower_train does not exist"):
        ds.LSUNDataset(str(tmp_path), usage='train', classes=['tower'])
