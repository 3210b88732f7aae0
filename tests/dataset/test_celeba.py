"""CelebADataset against MindSpore 2.10's reading of tests/dataset/fixtures/celeba."""
import os
import shutil

import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import FIXTURES, assert_same_as_mindspore, cases

CELEBA = os.path.join(FIXTURES, 'celeba')


@pytest.mark.parametrize('case', cases('celeba'))
def test_rows_match_mindspore(case):
    assert_same_as_mindspore('celeba', case)


def test_attribute_names_are_kept():
    assert ds.CelebADataset(CELEBA).attr_names == [
        '5_o_Clock_Shadow', 'Arched_Eyebrows', 'Attractive', 'Bags_Under_Eyes', 'Bald']


@pytest.mark.parametrize('kwargs,error,match', [
    ({'usage': 'val'}, ValueError, "usage 'val' is not within the valid set"),
    ({'decode': None}, TypeError, "decode must be a bool"),
    ({'extensions': '.jpg'}, TypeError, "extensions must be a list of str"),
    ({'shuffle': False, 'sampler': [0]}, ValueError, "either sampler or shuffle"),
])
def test_argument_checks(kwargs, error, match):
    with pytest.raises(error, match=match):
        ds.CelebADataset(CELEBA, **kwargs)


def test_missing_and_bad_list_files(tmp_path):
    root = tmp_path / 'celeba'
    shutil.copytree(CELEBA, root)
    os.remove(root / 'list_eval_partition.txt')
    assert ds.CelebADataset(str(root)).get_dataset_size() == 4
    with pytest.raises(RuntimeError, match="list_eval_partition.txt does not exist"):
        ds.CelebADataset(str(root), usage='train')
    attr = root / 'list_attr_celeba.txt'
    lines = attr.read_text().splitlines()
    lines[3] = lines[3][:-2] + ' 0'                         # 000002.jpg: a 0 for the last
    attr.write_text('\n'.join(lines) + '\n')
    with pytest.raises(RuntimeError, match="line 4: expected a file name and 5 values"):
        ds.CelebADataset(str(root))
    os.remove(attr)
    with pytest.raises(RuntimeError, match="list_attr_celeba.txt does not exist"):
        ds.CelebADataset(str(root))


def test_missing_image_fails_when_read(tmp_path):
    root = tmp_path / 'celeba'
    shutil.copytree(CELEBA, root)
    os.remove(root / '000002.jpg')
    d = ds.CelebADataset(str(root), shuffle=False)
    with pytest.raises(RuntimeError, match="000002.jpg does not exist"):
        list(d.create_tuple_iterator(output_numpy=True))
