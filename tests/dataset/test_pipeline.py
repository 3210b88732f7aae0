"""Pipelines: batch, shuffle, map, repeat, take, skip, project, rename, split; iterators."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import dataset as ds


def rows(dataset, **kw):
    return list(dataset.create_tuple_iterator(output_numpy=True, **kw))


def ordered(n=10, **kw):
    x = np.arange(n * 2, dtype=np.float32).reshape(n, 2)
    return ds.NumpySlicesDataset({'x': x, 'y': np.arange(n)}, shuffle=False, **kw), x


def counter(n):
    """A generator dataset (no random access): rows go through the stacking path."""
    def source():
        for i in range(n):
            yield np.full(2, i, np.float32), np.array(i)
    return ds.GeneratorDataset(source, ['x', 'y'])


# ----------------------------------------------------------------- batch
@pytest.mark.parametrize('make', [lambda n: ordered(n)[0], counter], ids=['gather', 'stack'])
@pytest.mark.parametrize('drop', [False, True])
def test_batch_stacks_consecutive_rows(make, drop):
    d = make(10).batch(4, drop_remainder=drop)
    got = rows(d)
    sizes = [len(y) for _, y in got]
    assert sizes == ([4, 4] if drop else [4, 4, 2])
    assert d.get_dataset_size() == len(sizes)
    ys = np.concatenate([y for _, y in got])
    np.testing.assert_array_equal(ys, np.arange(len(ys)))
    for x, y in got:
        assert x.shape == (len(y), 2)
        np.testing.assert_array_equal(x[:, 1] if make is counter else x[:, 0] / 2, y)


def test_batch_of_a_mapped_dataset_and_of_batches():
    d = ordered(6)[0].map(lambda y: y * 2, 'y').batch(3)
    assert [y.tolist() for _, y in rows(d)] == [[0, 2, 4], [6, 8, 10]]
    nested = ordered(8)[0].batch(2).batch(2)
    assert [x.shape for x, _ in rows(nested)] == [(2, 2, 2), (2, 2, 2)]


def test_batch_of_rows_with_different_shapes_names_the_column():
    def ragged():
        yield np.zeros(2),
        yield np.zeros(3),
    with pytest.raises(ValueError, match=r"column 'v' has rows of different shapes "
                                         r"\[\(2,\), \(3,\)\] in one batch"):
        rows(ds.GeneratorDataset(ragged, 'v').batch(2))


@pytest.mark.parametrize('kw,err,match', [
    ({'batch_size': 0}, ValueError, "batch_size must be an int >= 1, got 0"),
    ({'batch_size': 2.0}, TypeError, "batch_size must be an int >= 1, got 2.0"),
    ({'batch_size': True}, TypeError, "batch_size must be an int >= 1, got True"),
    ({'batch_size': 2, 'drop_remainder': 1}, TypeError, "drop_remainder must be a bool"),
    ({'batch_size': 2, 'num_parallel_workers': -1}, ValueError, "num_parallel_workers"),
])
def test_batch_errors(kw, err, match):
    with pytest.raises(err, match=match):
        ordered()[0].batch(**kw)


# ----------------------------------------------------------------- shuffle
def epoch_orders(dataset, epochs=3):
    it = dataset.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    return [[int(r[-1]) for r in it] for _ in range(epochs)]


@pytest.mark.parametrize('make', [
    lambda: ds.NumpySlicesDataset({'y': np.arange(40)}),
    lambda: counter(40).shuffle(40),
    lambda: counter(40).shuffle(7),
], ids=['source', 'buffer-global', 'buffer-7'])
def test_shuffle_repeats_under_set_seed_and_changes_each_epoch(make):
    ms.set_seed(11)
    first = epoch_orders(make())
    ms.set_seed(11)
    assert epoch_orders(make()) == first
    for order in first:
        assert sorted(order) == list(range(40))
    assert first[0] != first[1] != first[2]
    assert first[0] != list(range(40))


def test_shuffle_buffer_only_reaches_rows_it_has_read():
    ms.set_seed(0)
    for order in epoch_orders(counter(30).shuffle(2), epochs=5):
        # with a buffer of 2, the row at output position i was read at input position <= i + 1
        assert all(v <= i + 1 for i, v in enumerate(order))


def test_shuffle_errors():
    with pytest.raises(ValueError, match="buffer_size must be an int >= 2, got 1"):
        counter(3).shuffle(1)


# ----------------------------------------------------------------- map
def test_map_one_column_in_place_and_chained_operations():
    d = ordered(3)[0].map([lambda y: y + 1, lambda y: y * 10], input_columns='y')
    assert d.get_col_names() == ['x', 'y'] and d.get_dataset_size() == 3
    assert [int(y) for _, y in rows(d)] == [10, 20, 30]


def test_map_many_to_many_places_outputs_where_the_inputs_were():
    base = ds.NumpySlicesDataset({'a': [1, 2], 'b': [10, 20], 'c': [5, 6]}, shuffle=False)
    d = base.map(lambda a, c: (a + c, a * c, a - c), input_columns=['a', 'c'],
                 output_columns=['s', 'p', 'd'])
    assert d.get_col_names() == ['s', 'p', 'd', 'b']
    assert [[int(v) for v in r] for r in rows(d)] == [[6, 5, -4, 10], [8, 12, -4, 20]]
    swap = base.map(lambda a, b: (b, a), ['a', 'b'], ['b', 'a'])
    assert swap.get_col_names() == ['b', 'a', 'c']



def test_map_without_input_columns_takes_the_first_column_alone():
    """As MindSpore 2.10: the first operation gets the first column, whatever it can take."""
    base = ds.NumpySlicesDataset({'a': [1, 2], 'b': [10, 20], 'c': [5, 6]}, shuffle=False)
    first = base.map(lambda a: a * 3, output_columns='thrice')
    assert first.get_col_names() == ['thrice', 'b', 'c']
    assert [[int(v) for v in r] for r in rows(first)] == [[3, 10, 5], [6, 20, 6]]
    every = base.map(lambda a, b, c: a + b + c)
    with pytest.raises(Exception, match="missing 2 required positional arguments"):
        rows(every)


def test_map_output_count_is_checked_when_rows_are_read():
    d = ordered(2)[0].map(lambda x: (x, x), input_columns='x')
    with pytest.raises(ValueError, match=r"returned 2 columns, but output_columns names 1: "
                                         r"\['x'\]"):
        rows(d)


@pytest.mark.parametrize('args,kw,err,match', [
    ((5,), {}, TypeError, "operations must be a callable or a non-empty list of callables"),
    (([],), {}, TypeError, "operations must be a callable"),
    ((abs,), {'input_columns': 'z'}, ValueError, r"unknown column 'z'; the columns are "
     r"\['x', 'y'\]"),
    ((abs,), {'input_columns': ['x', 'x']}, ValueError, "repeats a name"),
    ((abs,), {'input_columns': 'x', 'output_columns': 'y'}, ValueError,
     r"clash with the columns kept"),
    ((abs,), {'python_multiprocessing': None}, TypeError, "python_multiprocessing must be a "
     "bool"),
])
def test_map_errors(args, kw, err, match):
    with pytest.raises(err, match=match):
        ordered()[0].map(*args, **kw)


# ----------------------------------------------------------------- repeat, take, skip, project...
def test_repeat_take_skip():
    d = ordered(3)[0]
    assert [int(y) for _, y in rows(d.repeat(2))] == [0, 1, 2, 0, 1, 2]
    assert d.repeat(2).get_dataset_size() == 6
    forever = d.repeat()
    assert [int(y) for _, y in rows(forever.take(7))] == [0, 1, 2, 0, 1, 2, 0]
    with pytest.raises(RuntimeError, match="repeated without end has no size"):
        forever.get_dataset_size()
    assert rows(d.skip(3).repeat()) == []          # an empty child ends the repeat
    assert [int(y) for _, y in rows(d.skip(1))] == [1, 2]
    assert d.skip(5).get_dataset_size() == 0
    assert d.take(-1).get_dataset_size() == 3 and d.take(2).get_dataset_size() == 2


def test_repeat_of_a_shuffled_source_reshuffles_each_pass():
    ms.set_seed(2)
    order = [int(r[0]) for r in rows(ds.NumpySlicesDataset(np.arange(20)).repeat(2))]
    assert sorted(order[:20]) == sorted(order[20:]) == list(range(20))
    assert order[:20] != order[20:]


@pytest.mark.parametrize('call,err,match', [
    (lambda d: d.repeat(0), ValueError, r"count must be an int >= 1 \(or -1 for all\), got 0"),
    (lambda d: d.take(0), ValueError, "count must be an int >= 1"),
    (lambda d: d.skip(-1), ValueError, "count must be an int >= 0, got -1"),
    (lambda d: d.project(['x', 'nope']), ValueError, "unknown column 'nope'"),
    (lambda d: d.rename(['x'], ['a', 'b']), ValueError, "differ in length"),
    (lambda d: d.rename('x', 'y'), ValueError, "would repeat a column name"),
    (lambda d: d.rename('q', 'r'), ValueError, "unknown column 'q'"),
])
def test_pipeline_argument_errors(call, err, match):
    with pytest.raises(err, match=match):
        call(ordered()[0])


def test_project_and_rename():
    d = ordered(2)[0]
    p = d.project(['y', 'x'])
    assert p.get_col_names() == ['y', 'x']
    assert int(rows(p)[1][0]) == 1
    r = d.rename(['x', 'y'], ['data', 'label'])
    assert r.get_col_names() == ['data', 'label'] and r.get_dataset_size() == 2
    assert p.get_dataset_size() == 2
    assert list(next(iter(r.create_dict_iterator(output_numpy=True)))) == ['data', 'label']


# ----------------------------------------------------------------- split
def test_split_with_counts_and_fractions():
    d, _ = ordered(10)
    a, b = d.split([7, 3], randomize=False)
    assert [int(y) for _, y in rows(a)] == list(range(7))
    assert [int(y) for _, y in rows(b)] == [7, 8, 9]
    parts = d.split([0.5, 0.3, 0.2], randomize=False)
    assert [p.get_dataset_size() for p in parts] == [5, 3, 2]
    parts = ordered(7)[0].split([0.5, 0.5], randomize=False)
    assert [p.get_dataset_size() for p in parts] == [3, 4]     # 4 + 4 rounded; first gives 1


def test_split_randomize_partitions_rows_once_and_repeats_under_set_seed():
    def labels(parts):
        return [sorted(int(y) for _, y in rows(p)) for p in parts]
    ms.set_seed(5)
    first = labels(ordered(20)[0].split([15, 5]))
    ms.set_seed(5)
    assert labels(ordered(20)[0].split([15, 5])) == first
    assert sorted(first[0] + first[1]) == list(range(20))
    assert first[0] != list(range(15))
    ms.set_seed(5)
    a, _ = ds.NumpySlicesDataset(np.arange(20)).split([15, 5])     # a shuffling source
    it = a.create_tuple_iterator(num_epochs=2, output_numpy=True)
    e1, e2 = ([int(r[0]) for r in it] for _ in range(2))
    assert sorted(e1) == sorted(e2) and e1 != e2                     # same rows, new order


def test_split_of_a_generator_or_pipeline_uses_skip_and_take():
    a, b = counter(5).split([2, 3], randomize=False)
    assert [int(y) for _, y in rows(b)] == [2, 3, 4]
    a, b = ordered(6)[0].batch(2).split([1, 2], randomize=False)
    assert [y.tolist() for _, y in rows(b)] == [[2, 3], [4, 5]]


@pytest.mark.parametrize('make,sizes,kw,err,match', [
    (lambda: ordered(10)[0], [3, 3], {}, ValueError, r"add up to 6, but the dataset has 10"),
    (lambda: ordered(10)[0], [0, 10], {}, ValueError, "every size must be >= 1"),
    (lambda: ordered(10)[0], [0.5, 0.6], {}, ValueError, "add up to 1"),
    (lambda: ordered(3)[0], [0.9, 0.1], {}, ValueError, "leave an empty split"),
    (lambda: ordered(10)[0], [5, 0.5], {}, TypeError, "all ints or all floats"),
    (lambda: ordered(10)[0], 5, {}, TypeError, "non-empty list"),
    (lambda: ordered(10)[0], [5, 5], {'randomize': 1}, TypeError, "randomize must be a bool"),
    (lambda: counter(4), [2, 2], {'randomize': 1}, TypeError, "randomize must be a bool"),
    (lambda: ordered(4)[0].batch(2), [1, 1], {'randomize': 1}, TypeError,
     "randomize must be a bool"),
    (lambda: counter(4), [2, 2], {}, ValueError, "randomize=True needs a random-access source"),
    (lambda: ordered(10, num_samples=4)[0], [2, 2], {}, ValueError, "cannot be split"),
    (lambda: ds.NumpySlicesDataset(np.arange(4), num_shards=2, shard_id=0), [1, 1], {},
     ValueError, "cannot be split"),
])
def test_split_errors(make, sizes, kw, err, match):
    with pytest.raises(err, match=match):
        make().split(sizes, **kw)


# ----------------------------------------------------------------- iterators
def test_tuple_iterator_gives_lists_of_tensors_and_dict_iterator_dicts():
    d, x = ordered(3)
    got = list(d)
    assert isinstance(got[0], list) and isinstance(got[0][0], ms.Tensor)
    assert got[0][0].dtype == ms.float32 and got[0][1].dtype == ms.int64
    np.testing.assert_array_equal(got[2][0].asnumpy(), x[2])
    first = next(iter(d.create_dict_iterator()))
    assert list(first) == ['x', 'y'] and isinstance(first['x'], ms.Tensor)
    only_y = list(d.create_tuple_iterator(columns=['y'], output_numpy=True))
    assert [r[0].tolist() for r in only_y] == [0, 1, 2] and len(only_y[0]) == 1


def test_iterator_counts_epochs_and_refuses_more():
    d, _ = ordered(2)
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert len(list(it)) == 2 and len(list(it)) == 2
    with pytest.raises(RuntimeError, match="all num_epochs=2 epochs of this iterator have been "
                                           "read"):
        next(it)
    unlimited = d.create_dict_iterator(output_numpy=True)
    assert [len(list(unlimited)) for _ in range(4)] == [2, 2, 2, 2]


def test_do_copy_false_shares_memory_with_the_batch():
    d, x = ordered(4)
    shared = next(iter(d.create_tuple_iterator(do_copy=False)))[0]
    copied = next(iter(d.create_tuple_iterator(do_copy=True)))[0]
    assert np.shares_memory(shared.asnumpy(), x)
    assert not np.shares_memory(copied.asnumpy(), x)


@pytest.mark.parametrize('kw,err,match', [
    ({'columns': ['nope']}, ValueError, "unknown column 'nope'"),
    ({'num_epochs': 0}, ValueError, r"num_epochs must be an int >= 1 \(or -1 for all\)"),
    ({'output_numpy': 1}, TypeError, "output_numpy must be a bool"),
    ({'do_copy': None}, TypeError, "do_copy must be a bool"),
])
def test_iterator_argument_errors(kw, err, match):
    with pytest.raises(err, match=match):
        ordered()[0].create_tuple_iterator(**kw)


def test_string_columns_stay_arrays_and_other_dtypes_a_tensor_cannot_hold_need_numpy():
    # as in MindSpore 2.10: string and bytes columns come out as NumPy arrays, not Tensors
    d = ds.NumpySlicesDataset({'name': np.array(['a', 'b'])}, shuffle=False)
    got = [r[0] for r in d]
    assert [type(a) for a in got] == [np.ndarray, np.ndarray] and [str(a) for a in got] == \
        ['a', 'b']
    d = ds.NumpySlicesDataset({'t': np.array(['2020-01-01'], 'M8[D]')}, shuffle=False)
    with pytest.raises(TypeError, match=r"column 't' has dtype datetime64\[D\], which a Tensor "
                                        "cannot hold; iterate with output_numpy=True"):
        list(d)
