"""After a seed, shuffled datasets read their rows in MindSpore 2.10's orders: its C++ engine's
std::shuffle and std::mt19937, computed as GCC's libstdc++ does (hookgrad/dataset/std_random.py).
The orders below are MindSpore's (and, for the raw functions, a C++ program's built with GCC 12)."""
import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset as ds
from hookgrad.dataset.std_random import MT19937, shuffle, uniform_int


def epochs(dataset, k):
    it = dataset.create_tuple_iterator(num_epochs=k, output_numpy=True)
    return [[int(r[0]) for r in it] for _ in range(k)]


def slices(n, **kwargs):
    return ds.NumpySlicesDataset(list(range(n)), column_names=['x'], **kwargs)


def test_each_epoch_reshuffles_the_last_with_the_next_seed():
    ds.config.set_seed(1)
    assert epochs(slices(10, shuffle=True), 3) == [[9, 0, 2, 5, 7, 4, 6, 3, 1, 8],
                                                  [4, 9, 5, 0, 1, 7, 6, 2, 3, 8],
                                                  [0, 9, 3, 7, 5, 6, 8, 2, 4, 1]]


def test_a_generator_source_and_ms_set_seed():
    ds.config.set_seed(1)
    source = ds.GeneratorDataset([(np.array(i),) for i in range(12)], ['x'], shuffle=True)
    assert epochs(source, 2) == [[9, 10, 2, 5, 11, 4, 6, 3, 1, 8, 0, 7],
                                 [4, 9, 5, 10, 1, 7, 6, 2, 3, 8, 0, 11]]
    ms.set_seed(7)
    assert epochs(slices(10, shuffle=True), 1) == [[2, 7, 6, 8, 1, 5, 3, 0, 4, 9]]


def test_repeat_passes_count_as_reshuffles():
    ds.config.set_seed(0)
    assert epochs(ds.NumpySlicesDataset(np.arange(6), shuffle=True).repeat(2), 2) == [
        [0, 2, 1, 5, 3, 4, 2, 0, 1, 4, 5, 3], [3, 2, 4, 0, 1, 5, 0, 2, 3, 5, 4, 1]]


def test_replacement_and_num_samples():
    ds.config.set_seed(3)
    sampler = ds.RandomSampler(replacement=True, num_samples=6)
    assert epochs(slices(10, sampler=sampler), 2) == [[5, 0, 7, 8, 2, 1], [9, 9, 5, 1, 9, 8]]
    ds.config.set_seed(4)
    assert epochs(slices(10, sampler=ds.RandomSampler(num_samples=4)), 2) == [[0, 7, 4, 2],
                                                                            [2, 8, 3, 4]]


def test_a_subset_reshuffles_with_the_same_seed():
    ds.config.set_seed(4)
    sampler = ds.SubsetRandomSampler([5, 3, 8, 1, 9, 12, 17, 0])
    assert epochs(ds.NumpySlicesDataset(list(range(20)), column_names=['x'], sampler=sampler),
                  3) == [[5, 0, 9, 8, 12, 1, 3, 17], [5, 17, 12, 9, 1, 8, 0, 3],
                         [5, 3, 1, 12, 8, 9, 17, 0]]


def test_batches_and_loops_follow_the_order():
    ds.config.set_seed(3)
    batched = slices(10, shuffle=True).batch(3)
    assert [r[0].tolist() for r in batched.create_tuple_iterator(output_numpy=True)] == [
        [3, 1, 8], [5, 2, 6], [9, 7, 0], [4]]
    ds.config.set_seed(5)
    d = slices(10, shuffle=True)
    assert [int(x[0]) for x in d] == [int(x[0]) for x in d] == [3, 8, 5, 2, 4, 6, 7, 1, 9, 0]


@pytest.mark.parametrize('seed, n, first', [
    (0, 2, [0, 1]),
    (7, 11, [3, 0, 7, 2, 10, 4, 5, 1]),
    (12345, 70001, [27074, 64267, 55742, 20949, 10786, 9568, 53366, 44999]),     # one draw
    (4294967295, 65536, [38727, 59131, 38200, 10448, 27297, 52171, 18273, 25052]),  # each
])
def test_std_shuffle(seed, n, first):
    assert shuffle(list(range(n)), MT19937(seed))[:8] == first


def test_std_uniform_int_below_and_beyond_a_word():
    gen = MT19937(99)
    assert [uniform_int(gen, 0, 10 ** 10) for _ in range(2)] == [7868157096, 3010810948]
    assert [uniform_int(gen, -3, 3) for _ in range(6)] == [2, -2, 0, 3, -1, 1]
    assert MT19937(5489)() == 3499211612        # std::mt19937's default-seeded first word
