"""PaddedDataset and FakeImageDataset against MindSpore 2.10 (cases in
tests/dataset/fixtures/synthetic)."""
import numpy as np
import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import assert_same_as_mindspore, build, expected

FAKE = ['fake', 'fake_shard', 'fake_many_classes', 'fake_subset']


@pytest.mark.parametrize('case', ['padded', 'padded_floats'])
def test_padded_rows_match_mindspore(case):
    assert_same_as_mindspore('synthetic', case)


@pytest.mark.parametrize('case', FAKE)
def test_fake_image_labels_match_mindspore_and_images_have_the_asked_shape(case):
    names, rows = expected('synthetic', case)
    dataset = build('synthetic', case)
    got = list(dataset.create_tuple_iterator(output_numpy=True))
    assert dataset.get_col_names() == names == ['image', 'label']
    assert len(got) == len(rows) == dataset.get_dataset_size()
    for (image, label), (want_image, want_label) in zip(got, rows):
        assert label.dtype == want_label.dtype == np.uint32 and label == want_label
        assert image.dtype == want_image.dtype and image.shape == want_image.shape


def test_fake_image_rows_are_the_same_in_any_order():
    ordered = list(ds.FakeImageDataset(5, (3, 4, 2), 3, 9, shuffle=False)
                   .create_tuple_iterator(output_numpy=True))
    picked = list(ds.FakeImageDataset(5, (3, 4, 2), 3, 9, sampler=[4, 1])
                  .create_tuple_iterator(output_numpy=True))
    for (image, label), k in zip(picked, (4, 1)):
        np.testing.assert_array_equal(image, ordered[k][0])
        assert label == ordered[k][1]
    assert len({ordered[k][0].tobytes() for k in range(5)}) == 5     # every image differs


@pytest.mark.parametrize('kwargs,error,match', [
    ({'num_images': 0}, ValueError, r"num_images must be in \[1, 2147483647\]"),
    ({'image_size': (2, 2)}, ValueError, "image_size should be a list or tuple of length 3"),
    ({'image_size': 5}, TypeError, "image_size must be a list or tuple"),
    ({'image_size': (2, 0, 3)}, ValueError, r"image_size\[1\] must be in"),
    ({'num_classes': 1.5}, TypeError, "num_classes must be an int"),
    ({'base_seed': -1}, ValueError, "base_seed must be an int >= 0"),
    ({'shuffle': True, 'sampler': [0]}, ValueError, "either sampler or shuffle"),
])
def test_fake_image_argument_checks(kwargs, error, match):
    with pytest.raises(error, match=match):
        ds.FakeImageDataset(**kwargs)


@pytest.mark.parametrize('samples,error,match', [
    ([], ValueError, "padded_samples cannot be empty"),
    ((({'a': 1}),), TypeError, "padded_samples must be a list of dicts"),
    ([[1]], TypeError, "elements of padded_samples must be dicts"),
])
def test_padded_argument_checks(samples, error, match):
    with pytest.raises(error, match=match):
        ds.PaddedDataset(samples)


def test_padded_sample_missing_a_column_is_named():
    d = ds.PaddedDataset([{'a': 1, 'b': 2}, {'a': 3}])
    with pytest.raises(ValueError, match=r"sample 1 lacks the columns \['b'\]"):
        list(d.create_tuple_iterator(output_numpy=True))
