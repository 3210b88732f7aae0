"""WeightedRandomSampler: draws in proportion to the weights, seeded by ms.set_seed, with
MindSpore 2.10's sizes and errors."""
import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset as ds


def _read(weights, num_samples=None, replacement=True, rows=10):
    data = ds.NumpySlicesDataset(np.arange(rows), sampler=ds.WeightedRandomSampler(
        weights, num_samples, replacement))
    return [int(x) for (x,) in data.create_tuple_iterator(output_numpy=True)], \
        data.get_dataset_size()


def test_only_weighted_rows_are_drawn_and_size_is_the_dataset_size():
    ms.set_seed(3)
    rows, size = _read([1, 0, 1, 0, 1, 0, 1])
    assert size == 10 and len(rows) == 10          # MindSpore: num_samples None -> all rows
    assert set(rows) <= {0, 2, 4, 6}


def test_frequencies_follow_the_weights():
    ms.set_seed(0)
    rows, _ = _read([1, 3], num_samples=4000, rows=2)
    assert abs(np.mean(rows) - 0.75) < 0.03


def test_without_replacement_rows_are_distinct():
    ms.set_seed(1)
    rows, size = _read([1, 0, 1, 0, 1, 0, 1], 3, False)
    assert size == 3 and len(set(rows)) == 3 and set(rows) <= {0, 2, 4, 6}


def test_seed_repeats_and_epochs_differ():
    sampler = ds.WeightedRandomSampler([1.0] * 8, 8)
    data = ds.NumpySlicesDataset(np.arange(8), sampler=sampler)

    def epochs():
        ms.set_seed(5)
        it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
        return [[int(x) for (x,) in it] for _ in range(2)]
    first = epochs()
    assert first == epochs()
    assert first[0] != first[1]


def test_zero_num_samples_means_all_rows():
    assert _read([1, 1], 0)[1] == 10


@pytest.mark.parametrize('args, error, match', [
    (([1, 'a'],), TypeError, r"weights\[1\] must be a number, got 'a'"),
    (([],), ValueError, "not all zero"),
    (([0, 0],), ValueError, "not all zero"),
    (([-1, 2],), ValueError, "non-negative"),
    (([1], 1.5), TypeError, "num_samples must be an int or None, got 1.5"),
    (([1], -1), ValueError, "num_samples must be >= 0, got -1"),
    (([1], 1, 'yes'), TypeError, "replacement must be a bool, got 'yes'"),
])
def test_argument_errors(args, error, match):
    with pytest.raises(error, match=match):
        ds.WeightedRandomSampler(*args)


def test_errors_when_reading_as_mindspore():
    with pytest.raises(ValueError, match="12 weights for a dataset of 10 rows"):
        _read([1] * 12)
    with pytest.raises(ValueError, match="without replacement, 10 rows cannot be drawn from 4"):
        _read([1, 0, 1, 0, 1, 0, 1], None, False)
