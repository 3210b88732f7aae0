"""FashionMnistDataset, KMnistDataset, EMnistDataset and QMnistDataset against MindSpore 2.10's
reading of the same IDX files (tests/dataset/fixtures/{fashion_mnist,kmnist,emnist,qmnist})."""
import os

import numpy as np
import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import FIXTURES, assert_same_as_mindspore, build, cases, expected

RECORDED = [(name, case) for name in ('fashion_mnist', 'kmnist', 'emnist', 'qmnist')
            for case in cases(name) if expected(name, case)[1] is not None]


@pytest.mark.parametrize('name,case', RECORDED)
def test_rows_match_mindspore(name, case):
    assert_same_as_mindspore(name, case)


def test_emnist_split_without_files_raises_as_mindspore():
    assert expected('emnist', 'digits_missing')[0] == 'RuntimeError'
    with pytest.raises(RuntimeError, match="no EMNIST files .*emnist-digits-test-images"):
        ds.EMnistDataset(os.path.join(FIXTURES, 'emnist'), 'digits')
    with pytest.raises(RuntimeError, match="must both exist for usage='train'"):
        ds.EMnistDataset(os.path.join(FIXTURES, 'emnist'), 'digits', usage='train')


@pytest.mark.parametrize('kwargs,error,match', [
    ({'name': 'digit'}, ValueError, "name 'digit' is not within the valid set"),
    ({'name': 3}, TypeError, "name must be a str"),
    ({'name': 'mnist', 'usage': 'valid'}, ValueError, "usage 'valid' is not within"),
    ({'name': 'mnist', 'shuffle': False, 'sampler': [0]}, ValueError, "either sampler or shuffle"),
])
def test_emnist_argument_checks(kwargs, error, match):
    with pytest.raises(error, match=match):
        ds.EMnistDataset(os.path.join(FIXTURES, 'emnist'), **kwargs)


def test_fashion_and_kmnist_check_folder_and_files(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        ds.FashionMnistDataset(str(tmp_path / 'nowhere'))
    with pytest.raises(RuntimeError, match="no KMNIST files"):
        ds.KMnistDataset(str(tmp_path))
    (tmp_path / 'train-images-idx3-ubyte').write_bytes(b'\0\0\x08\x01\0\0\0\0')
    (tmp_path / 'train-labels-idx1-ubyte').write_bytes(b'\0\0\x08\x01\0\0\0\0')
    with pytest.raises(RuntimeError, match="not an MNIST IDX file"):
        ds.FashionMnistDataset(str(tmp_path), usage='train')


def test_shuffle_repeats_under_the_dataset_seed():
    folder = os.path.join(FIXTURES, 'kmnist')

    def order():
        return [int(im[0, 0, 0]) for im, _ in
                ds.KMnistDataset(folder).create_tuple_iterator(output_numpy=True)]
    ds.config.set_seed(3)
    a = order()
    ds.config.set_seed(3)
    assert order() == a and sorted(a) == [0, 1, 2, 100, 101]


def test_batches_gather_whole_columns():
    d = ds.FashionMnistDataset(os.path.join(FIXTURES, 'fashion_mnist'), usage='train',
                               shuffle=False).batch(2)
    images, labels = next(d.create_tuple_iterator(output_numpy=True))
    _, rows = expected('fashion_mnist', 'train')
    np.testing.assert_array_equal(images, np.stack([rows[0][0], rows[1][0]]))
    assert labels.dtype == np.uint32 and labels.tolist() == [int(rows[0][1]), int(rows[1][1])]


@pytest.mark.parametrize('case', ['test10k', 'test50k'])
def test_qmnist_test_slices_need_the_full_test_file(case):
    assert expected('qmnist', case)[0] == 'RuntimeError'
    with pytest.raises(RuntimeError, match=f"usage '{case}' reads rows"):
        build('qmnist', case)


def test_qmnist_checks_and_pk_labels():
    folder = os.path.join(FIXTURES, 'qmnist')
    with pytest.raises(ValueError, match="usage 'valid' is not within"):
        ds.QMnistDataset(folder, usage='valid')
    with pytest.raises(TypeError, match="compat must be a bool"):
        ds.QMnistDataset(folder, compat=1)
    d = ds.QMnistDataset(folder, usage='test', compat=False, sampler=ds.PKSampler(1))
    labels = [int(label[0]) for _, label in d.create_tuple_iterator(output_numpy=True)]
    assert labels == [1, 4, 5, 8]
