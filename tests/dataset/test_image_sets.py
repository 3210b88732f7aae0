"""OmniglotDataset, Caltech256Dataset, Food101Dataset, SBUDataset, SemeionDataset,
FlickrDataset, SUN397Dataset and RenderedSST2Dataset against MindSpore 2.10's reading of the
small trees in tests/dataset/fixtures."""
import os
import shutil

import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import FIXTURES, assert_same_as_mindspore, cases

NAMES = ('omniglot', 'caltech256', 'food101', 'sbu', 'semeion', 'flickr', 'sun397',
         'rendered_sst2')


@pytest.mark.parametrize('name,case', [(n, c) for n in NAMES for c in cases(n)])
def test_rows_match_mindspore(name, case):
    assert_same_as_mindspore(name, case)


@pytest.mark.parametrize('make,error,match', [
    (lambda: ds.OmniglotDataset(os.path.join(FIXTURES, 'omniglot'), background=1), TypeError,
     "background must be a bool or None"),
    (lambda: ds.Caltech256Dataset(os.path.join(FIXTURES, 'caltech256'), decode='no'),
     TypeError, "decode must be a bool"),
    (lambda: ds.Food101Dataset(os.path.join(FIXTURES, 'food101'), usage='val'), ValueError,
     "usage 'val' is not within"),
    (lambda: ds.SBUDataset(os.path.join(FIXTURES, 'sbu', 'sbu_images')), RuntimeError,
     "SBU_captioned_photo_dataset_urls.txt does not exist"),
    (lambda: ds.SemeionDataset(os.path.join(FIXTURES, 'sbu')), RuntimeError,
     "semeion.data does not exist"),
    (lambda: ds.Caltech256Dataset(os.path.join(FIXTURES, 'semeion')), RuntimeError,
     "no image found"),
])
def test_argument_and_file_checks(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_food101_missing_image_and_semeion_bad_line(tmp_path):
    root = tmp_path / 'food101'
    shutil.copytree(os.path.join(FIXTURES, 'food101'), root)
    os.remove(root / 'images' / 'apple_pie' / '17.jpg')
    with pytest.raises(RuntimeError, match="apple_pie/17.jpg does not exist"):
        ds.Food101Dataset(str(root))
    (tmp_path / 'semeion.data').write_text('1.0 ' * 256 + '0 ' * 10 + '\n')
    with pytest.raises(RuntimeError, match="line 1: expected 256 pixel values and a one-hot"):
        ds.SemeionDataset(str(tmp_path))


def test_pk_sampler_over_string_and_int_labels():
    d = ds.Food101Dataset(os.path.join(FIXTURES, 'food101'), sampler=ds.PKSampler(2))
    labels = [str(label) for _, label in d.create_tuple_iterator(output_numpy=True)]
    assert labels == ['apple_pie'] * 2 + ['waffles'] * 2
    d = ds.OmniglotDataset(os.path.join(FIXTURES, 'omniglot'), sampler=ds.PKSampler(1))
    assert [int(label) for _, label in d.create_tuple_iterator(output_numpy=True)] == \
        [0, 1, 2, 3]


def test_flickr_sun397_and_rendered_sst2_checks(tmp_path):
    bad = tmp_path / 'bad.token'
    bad.write_text('image.jpg A caption without a tab\n')
    with pytest.raises(RuntimeError, match="line 1: expected '<image>#<n><tab><caption>'"):
        ds.FlickrDataset(str(tmp_path), str(bad))
    with pytest.raises(ValueError, match="annotation file 'none.token' does not exist"):
        ds.FlickrDataset(str(tmp_path), 'none.token')
    with pytest.raises(RuntimeError, match="ClassName.txt does not exist"):
        ds.SUN397Dataset(str(tmp_path))
    (tmp_path / 'ClassName.txt').write_text('/a/abbey\n')
    with pytest.raises(RuntimeError, match="class folder .*abbey listed in"):
        ds.SUN397Dataset(str(tmp_path))
    with pytest.raises(ValueError, match="usage 'valid' is not within"):
        ds.RenderedSST2Dataset(os.path.join(FIXTURES, 'rendered_sst2'), usage='valid')
