"""VOCDataset (and CocoDataset) against MindSpore 2.10's reading of the small trees in
tests/dataset/fixtures/{voc,coco}."""
import json
import os
import shutil

import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import (FIXTURES, assert_same_as_mindspore, build, cases,
                                    expected)

VOC = os.path.join(FIXTURES, 'voc')
RECORDED = [(name, case) for name in ('voc', 'coco') for case in cases(name)
            if expected(name, case)[1] is not None]


@pytest.mark.parametrize('name,case', RECORDED)
def test_rows_match_mindspore(name, case):
    assert_same_as_mindspore(name, case)


def test_voc_missing_image_set_raises_value_error_as_mindspore():
    assert expected('voc', 'missing_usage')[0] == 'ValueError'
    with pytest.raises(ValueError, match="Main/test.txt does not exist"):
        build('voc', 'missing_usage')


def test_voc_class_indexing():
    d = ds.VOCDataset(VOC, task='Detection')
    assert d.get_class_indexing() == {'cat': 0, 'dog': 1, 'person': 2}
    with pytest.raises(RuntimeError, match="only valid in 'Detection' task"):
        ds.VOCDataset(VOC).get_class_indexing()
    d = ds.VOCDataset(VOC, task='Detection', class_indexing={'person': 4}, shuffle=False)
    labels = [label.ravel().tolist() for _, _, label, _, _ in
              d.create_tuple_iterator(output_numpy=True)]
    assert labels == [[4], [4]]                    # the image with only a cat is skipped


@pytest.mark.parametrize('kwargs,error,match', [
    ({'task': 'detection'}, ValueError, "task 'detection' is not within the valid set"),
    ({'class_indexing': {'dog': 1}}, ValueError, "only valid in 'Detection' task"),
    ({'task': 'Detection', 'class_indexing': {'dog': 'a'}}, TypeError,
     "class_indexing must be a dict of str to int"),
    ({'usage': 3}, TypeError, "usage must be a str"),
    ({'decode': 'yes'}, TypeError, "decode must be a bool"),
    ({'extra_metadata': True}, ValueError, "extra_metadata=True is not supported"),
    ({'shuffle': False, 'sampler': [0]}, ValueError, "either sampler or shuffle"),
])
def test_voc_argument_checks(kwargs, error, match):
    with pytest.raises(error, match=match):
        ds.VOCDataset(VOC, **kwargs)


@pytest.mark.parametrize('box,match', [
    ('<xmin>0</xmin><ymin>1</ymin><xmax>3</xmax><ymax>2</ymax>',
     r"invalid bndbox .*\{0, 1, 3, 2\}"),
    ('<xmin>2</xmin><ymin>1</ymin><xmax>2</xmax><ymax>2</ymax>', r"invalid bndbox"),
    ('<xmin>2</xmin><ymin>1</ymin><xmax>x</xmax><ymax>2</ymax>', r"non-numeric field"),
])
def test_voc_bad_boxes_fail_when_the_dataset_is_made(tmp_path, box, match):
    root = tmp_path / 'voc'
    shutil.copytree(VOC, root)
    xml = root / 'Annotations' / '2007_000032.xml'
    text = xml.read_text()
    start, stop = text.index('<xmin>'), text.index('</ymax>') + len('</ymax>')
    xml.write_text(text[:start] + box + text[stop:])
    with pytest.raises(RuntimeError, match=match):
        ds.VOCDataset(str(root), task='Detection')


def test_voc_missing_image_is_named(tmp_path):
    root = tmp_path / 'voc'
    shutil.copytree(VOC, root)
    os.remove(root / 'JPEGImages' / '2008_000001.jpg')
    with pytest.raises(RuntimeError, match="2008_000001.jpg does not exist"):
        ds.VOCDataset(str(root))


COCO = os.path.join(FIXTURES, 'coco')


def test_coco_class_indexing_as_mindspore():
    ann = os.path.join(COCO, 'annotations')
    d = ds.CocoDataset(os.path.join(COCO, 'images'), os.path.join(ann, 'instances.json'))
    assert d.get_class_indexing() == {'person': [1], 'car': [5], 'dog': [18]}
    d = ds.CocoDataset(os.path.join(COCO, 'images'), os.path.join(ann, 'panoptic.json'),
                       task='Panoptic')
    assert d.get_class_indexing() == {'person': [1, 1], 'car': [5, 0], 'dog': [18, 1]}
    d = ds.CocoDataset(os.path.join(COCO, 'images'), os.path.join(ann, 'keypoints.json'),
                       task='Keypoint')
    with pytest.raises(NotImplementedError, match="Only 'Detection' and 'Panoptic'"):
        d.get_class_indexing()


def _coco_tree(tmp_path, edit):
    root = tmp_path / 'coco'
    shutil.copytree(COCO, root)
    path = root / 'annotations' / 'instances.json'
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    return str(root / 'images'), str(path)


def test_coco_images_without_annotations_are_skipped_and_files_shared(tmp_path):
    def edit(data):
        data['images'].append({'id': 40, 'file_name': '000000000009.png'})
        data['images'].append({'id': 41, 'file_name': '000000000003.png'})
        data['annotations'] = [a for a in data['annotations'] if a['image_id'] != 9]
    images, ann = _coco_tree(tmp_path, edit)
    boxes = [b.tolist() for _, b, _, _ in ds.CocoDataset(images, ann, shuffle=False)
             .create_tuple_iterator(output_numpy=True)]
    assert boxes == [[[1, 2, 3, 4], [0, 0, 2, 3]], [[0.5, 1, 2, 1.25]], [[0.5, 1, 2, 1.25]]]


@pytest.mark.parametrize('edit,task,match', [
    (lambda d: d['annotations'].append(dict(d['annotations'][0], image_id=12)), 'Detection',
     "the 'image_id' 12 is missing in the node of 'images'"),
    (lambda d: d['annotations'][2].update(segmentation=[[0, 0, 1, 1]]), 'Stuff',
     "the attribute of 'counts' is missing"),
    (lambda d: None, 'Panoptic', "the attribute of 'segments_info' is missing"),
    (lambda d: None, 'Captioning', "the attribute of 'caption' is missing"),
])
def test_coco_missing_fields_raise_runtime_error(tmp_path, edit, task, match):
    images, ann = _coco_tree(tmp_path, edit)
    with pytest.raises(RuntimeError, match=match):
        ds.CocoDataset(images, ann, task=task)


@pytest.mark.parametrize('kwargs,error,match', [
    ({'task': 'detection'}, ValueError, "task 'detection' is not within the valid set"),
    ({'annotation_file': 'none.json'}, ValueError, "annotation file 'none.json' does not exist"),
    ({'decode': 1}, TypeError, "decode must be a bool"),
    ({'num_shards': 2}, ValueError, "num_shards and shard_id must be given together"),
])
def test_coco_argument_checks(kwargs, error, match):
    args = {'dataset_dir': os.path.join(COCO, 'images'),
            'annotation_file': os.path.join(COCO, 'annotations', 'instances.json')}
    with pytest.raises(error, match=match):
        ds.CocoDataset(**dict(args, **kwargs))
