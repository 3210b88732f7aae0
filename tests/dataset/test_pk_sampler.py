"""PKSampler: the rows MindSpore 2.10 gives (ascending or shuffled classes, num_val rows each,
drawn with replacement), repeated under the dataset seed."""
import os

import numpy as np
import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import FIXTURES

LABELS = [2, 0, 1, 0, 2, 1, 0, 2, 5, 0, 1, 2]        # class 5 has one row


@pytest.fixture
def mnist(tmp_path):
    images = np.zeros((len(LABELS), 28, 28), np.uint8)
    images[:, 0, 0] = np.arange(len(LABELS))
    for name, arr in (('train-images-idx3-ubyte', images),
                      ('train-labels-idx1-ubyte', np.array(LABELS, np.uint8))):
        with open(tmp_path / name, 'wb') as f:
            f.write(bytes([0, 0, 8, arr.ndim]) + b''.join(
                int(d).to_bytes(4, 'big') for d in arr.shape) + arr.tobytes())
    return str(tmp_path)


def _read(dataset):
    return [(int(im[0, 0, 0]), int(label)) for im, label in
            dataset.create_tuple_iterator(output_numpy=True)]


@pytest.mark.parametrize('num_val', [3, 5])
def test_classes_in_ascending_order_with_num_val_rows_of_each(mnist, num_val):
    d = ds.MnistDataset(mnist, usage='train', sampler=ds.PKSampler(num_val))
    rows = _read(d)
    assert d.get_dataset_size() == len(rows) == 4 * num_val        # as MindSpore 2.10
    assert [label for _, label in rows] == [c for c in (0, 1, 2, 5) for _ in range(num_val)]
    assert all(LABELS[i] == label for i, label in rows)
    assert rows[-num_val:] == [(8, 5)] * num_val                    # a one-row class repeats


def test_num_samples_cuts_the_epoch(mnist):
    d = ds.MnistDataset(mnist, usage='train', sampler=ds.PKSampler(2, num_samples=5))
    rows = _read(d)
    assert d.get_dataset_size() == 5 and [label for _, label in rows] == [0, 0, 1, 1, 2]


def test_draws_repeat_under_the_dataset_seed_and_shuffle_permutes_classes(mnist):
    def epoch(shuffle):
        return _read(ds.MnistDataset(mnist, usage='train',
                                     sampler=ds.PKSampler(4, shuffle=shuffle)))
    ds.config.set_seed(7)
    a = epoch(True)
    ds.config.set_seed(7)
    assert epoch(True) == a
    orders = set()
    for s in range(8):
        ds.config.set_seed(s)
        labels = [label for _, label in epoch(True)]
        assert sorted(labels) == [c for c in (0, 1, 2, 5) for _ in range(4)]
        orders.add(tuple(labels[::4]))
    assert len(orders) > 1
    draws = {tuple(epoch(False)) for _ in range(5)}
    assert len(draws) > 1                       # rows within a class are drawn at random


def test_labels_come_from_the_label_column_of_any_file_source(tmp_path):
    for cls, label in (('a', 0), ('b', 1)):
        (tmp_path / cls).mkdir()
        for k in range(2):
            (tmp_path / cls / f'{k}.bin').write_bytes(bytes([label, k]))
    d = ds.ImageFolderDataset(str(tmp_path), sampler=ds.PKSampler(3))
    rows = list(d.create_tuple_iterator(output_numpy=True))
    assert [int(label) for _, label in rows] == [0, 0, 0, 1, 1, 1]
    assert all(image[0] == label for image, label in rows)
    d = ds.FakeImageDataset(20, (1, 1, 1), 3, sampler=ds.PKSampler(2))
    assert [int(label) for _, label in d.create_tuple_iterator(output_numpy=True)] == \
        [0, 0, 1, 1, 2, 2]


def test_a_source_without_labels_is_refused():
    d = ds.NumpySlicesDataset({'label': np.arange(4)}, sampler=ds.PKSampler(2))
    with pytest.raises(RuntimeError, match="cannot say the label of each row"):
        list(d.create_tuple_iterator(output_numpy=True))
    d = ds.FashionMnistDataset(os.path.join(FIXTURES, 'fashion_mnist'),
                               sampler=ds.PKSampler(1, class_column='kind'))
    with pytest.raises(RuntimeError, match="class_column 'kind' is not a column"):
        list(d.create_tuple_iterator(output_numpy=True))


@pytest.mark.parametrize('kwargs,error,match', [
    ({'num_val': 0}, ValueError, "num_val must be an int >= 1"),
    ({'num_val': 2.0}, TypeError, "num_val must be an int >= 1"),
    ({'num_val': 2, 'num_class': 3}, NotImplementedError, "num_class is not supported"),
    ({'num_val': 2, 'shuffle': 1}, TypeError, "shuffle must be a bool"),
    ({'num_val': 2, 'class_column': 0}, TypeError, "class_column must be a str"),
    ({'num_val': 2, 'num_samples': -1}, ValueError, "num_samples must be an int >= 1"),
])
def test_argument_checks(kwargs, error, match):
    with pytest.raises(error, match=match):
        ds.PKSampler(**kwargs)
