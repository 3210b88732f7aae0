"""Samplers: the order and subset of rows a random-access source reads, and their errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import dataset as ds


def read(sampler=None, n=10, **kw):
    d = ds.NumpySlicesDataset(np.arange(n), sampler=sampler, **kw)
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)], d.get_dataset_size()


def test_sequential_sampler_start_and_num_samples():
    assert read(ds.SequentialSampler()) == (list(range(10)), 10)
    assert read(ds.SequentialSampler(start_index=7)) == ([7, 8, 9], 3)
    assert read(ds.SequentialSampler(2, num_samples=3)) == ([2, 3, 4], 3)
    with pytest.raises(ValueError, match="start_index 10 is out of range for a dataset of 10"):
        read(ds.SequentialSampler(start_index=10))


def test_random_sampler_permutes_or_draws_with_replacement():
    ms.set_seed(1)
    order, size = read(ds.RandomSampler())
    assert sorted(order) == list(range(10)) and size == 10
    order, size = read(ds.RandomSampler(replacement=True, num_samples=30))
    assert len(order) == size == 30 and len(set(order)) < len(order)
    assert all(0 <= v < 10 for v in order)
    order, size = read(ds.RandomSampler(num_samples=4))
    assert len(set(order)) == 4 == size


def test_subset_samplers():
    assert read(ds.SubsetSampler([5, 1, 3])) == ([5, 1, 3], 3)
    assert read(ds.SubsetSampler([5, 1, 3], num_samples=2)) == ([5, 1], 2)
    ms.set_seed(4)
    order, size = read(ds.SubsetRandomSampler([2, 4, 6, 8]))
    assert sorted(order) == [2, 4, 6, 8] and size == 4
    assert read([9, 0]) == ([9, 0], 2)                          # an iterable of indices
    assert read(range(3), num_samples=2) == ([0, 1], 2)


def test_distributed_sampler_shards_cover_rows_and_pad_by_wrapping():
    shards = [read(ds.DistributedSampler(3, k, shuffle=False))[0] for k in range(3)]
    assert shards == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    assert sorted(set(sum(shards, []))) == list(range(10))
    via_args = [read(None, num_shards=3, shard_id=k, shuffle=False)[0] for k in range(3)]
    assert via_args == shards
    ms.set_seed(8)
    a = read(ds.DistributedSampler(2, 0))[0]
    ms.set_seed(8)
    b = read(ds.DistributedSampler(2, 1))[0]
    assert sorted(a + b) == list(range(10))        # same permutation, disjoint halves
    assert read(ds.DistributedSampler(4, 1), n=0) == ([], 0)


def test_user_sampler_subclass_sees_the_dataset_size():
    class Reverse(ds.Sampler):
        def __iter__(self):
            return iter(range(self.dataset_size - 1, -1, -1))
    assert read(Reverse(num_samples=3)) == ([9, 8, 7], 3)

    class Broken(ds.Sampler):
        def __iter__(self):
            return iter([0, 12])
    with pytest.raises(IndexError, match="Broken: index 12 is out of range for a dataset of "
                                         "10 rows"):
        read(Broken())
    with pytest.raises(TypeError, match="Sampler defines no __iter__"):
        read(ds.Sampler())


@pytest.mark.parametrize('make,err,match', [
    (lambda: ds.RandomSampler(replacement=1), TypeError, "replacement must be a bool"),
    (lambda: ds.SequentialSampler(start_index=-1), ValueError, "start_index must be an int >= 0"),
    (lambda: ds.SubsetSampler([[1, 2]]), TypeError, "indices must be a 1-d sequence of ints"),
    (lambda: ds.SubsetSampler([0.5]), TypeError, "indices must be a 1-d sequence of ints"),
    (lambda: ds.SubsetSampler(object()), TypeError, "indices must be a 1-d sequence of ints"),
    (lambda: ds.SubsetSampler([[1], [1, 2]]), TypeError, "indices must be a sequence of ints, "
     "got list"),
    (lambda: ds.DistributedSampler(2, 2), ValueError, r"shard_id must be in \[0, 2\), got 2"),
    (lambda: ds.DistributedSampler(0, 0), ValueError, "num_shards must be an int >= 1"),
    (lambda: ds.DistributedSampler(2, 0, shuffle=None), TypeError, "shuffle must be a bool"),
    (lambda: ds.Sampler(num_samples=2.5), TypeError, "num_samples must be an int >= 1"),
])
def test_sampler_argument_errors(make, err, match):
    with pytest.raises(err, match=match):
        make()


@pytest.mark.parametrize('kw,err,match', [
    ({'sampler': ds.SequentialSampler(), 'shuffle': True}, ValueError,
     "either sampler or shuffle"),
    ({'sampler': ds.SequentialSampler(), 'num_shards': 2, 'shard_id': 0}, ValueError,
     "either sampler or num_shards"),
    ({'num_shards': 2}, ValueError, "num_shards and shard_id must be given together"),
    ({'sampler': 3}, TypeError, "sampler must be a Sampler or an iterable of row indices"),
])
def test_conflicting_sampling_arguments(kw, err, match):
    with pytest.raises(err, match=match):
        ds.NumpySlicesDataset(np.arange(4), **kw)


def test_num_samples_caps_a_given_sampler_without_changing_it():
    sampler = ds.SubsetSampler([1, 2, 3, 4], num_samples=3)
    assert read(sampler, num_samples=2) == ([1, 2], 2)
    assert sampler.num_samples == 3
