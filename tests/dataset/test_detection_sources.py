"""VOCDataset (and CocoDataset) against MindSpore 2.10's reading of the small trees in
tests/dataset/fixtures/{voc,coco}."""
import os
import shutil

import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import (FIXTURES, assert_same_as_mindspore, build, cases,
                                    expected)

VOC = os.path.join(FIXTURES, 'voc')
RECORDED = [(name, case) for name in ('voc',) for case in cases(name)
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
