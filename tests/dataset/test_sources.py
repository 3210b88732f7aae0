"""NumpySlicesDataset and GeneratorDataset: columns, rows, sources of each kind, errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import dataset as ds


def rows(dataset, **kw):
    return list(dataset.create_tuple_iterator(output_numpy=True, **kw))


# ----------------------------------------------------------------- NumpySlicesDataset
def test_dict_data_gives_named_columns_sliced_along_axis_0():
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = np.array([3, 1, 2, 0])
    d = ds.NumpySlicesDataset({'x': x, 'y': y}, shuffle=False)
    assert d.get_col_names() == ['x', 'y']
    assert d.get_dataset_size() == 4
    got = rows(d)
    assert len(got) == 4
    for i, (xi, yi) in enumerate(got):
        np.testing.assert_array_equal(xi, x[i])
        assert yi.shape == () and yi == y[i]
        assert xi.dtype == np.float32


def test_tuple_is_one_column_per_element_and_list_is_one_column():
    d = ds.NumpySlicesDataset(([1, 2], [3, 4], [5, 6]), shuffle=False)
    assert d.get_col_names() == ['column_0', 'column_1', 'column_2']
    assert [[int(v) for v in r] for r in rows(d)] == [[1, 3, 5], [2, 4, 6]]
    d = ds.NumpySlicesDataset([[1, 2], [3, 4], [5, 6]], shuffle=False)
    assert d.get_col_names() == ['column_0']
    assert [r[0].tolist() for r in rows(d)] == [[1, 2], [3, 4], [5, 6]]


def test_single_array_and_tensor_and_column_names():
    d = ds.NumpySlicesDataset(np.arange(3), column_names='a', shuffle=False)
    assert d.get_col_names() == ['a']
    d = ds.NumpySlicesDataset(ms.Tensor([1.0, 2.0]), column_names=['t'], shuffle=False)
    assert [float(r[0]) for r in rows(d)] == [1.0, 2.0]
    d = ds.NumpySlicesDataset({'x': [1, 2]}, column_names=['renamed'], shuffle=False)
    assert d.get_col_names() == ['renamed']


def test_num_samples_limits_rows_per_epoch():
    d = ds.NumpySlicesDataset(np.arange(10), num_samples=4, shuffle=False)
    assert d.get_dataset_size() == 4
    assert [int(r[0]) for r in rows(d)] == [0, 1, 2, 3]


def test_numpy_slices_shuffles_by_default():
    ms.set_seed(3)
    first = [int(r[0]) for r in rows(ds.NumpySlicesDataset(np.arange(50)))]
    assert sorted(first) == list(range(50)) and first != list(range(50))


@pytest.mark.parametrize('data,kw,err,match', [
    ({'x': np.zeros(3), 'y': np.zeros(4)}, {}, ValueError, r"different numbers of rows: "
     r"\{'x': 3, 'y': 4\}"),
    ((np.zeros(2), np.float32(1)), {}, ValueError, "column 'column_1' is a scalar"),
    (5, {}, TypeError, "data must be a list, tuple, dict or array, got int"),
    ({1: np.zeros(2)}, {}, TypeError, "needs str keys"),
    ((), {}, ValueError, "empty tuple"),
    ((np.zeros(2), np.zeros(2)), {'column_names': ['a']}, ValueError,
     r"column_names \['a'\] names 1 column, but data has 2"),
    (([1, 2], [3]), {'column_names': ['a', 'a']}, ValueError, "repeats a name"),
    ([[1, 2], [3]], {}, ValueError, "column 'column_0' is not a regular array"),
    (np.zeros(3), {'num_parallel_workers': 0}, ValueError, "num_parallel_workers must be None "
     "or an int >= 1, got 0"),
    (np.zeros(3), {'num_samples': 0}, ValueError, "num_samples must be an int >= 1, got 0"),
    (np.zeros(3), {'shuffle': 'yes'}, TypeError, "shuffle must be a bool or None"),
])
def test_numpy_slices_errors(data, kw, err, match):
    with pytest.raises(err, match=match):
        ds.NumpySlicesDataset(data, **kw)


# ----------------------------------------------------------------- GeneratorDataset
def gen3():
    for i in range(3):
        yield np.array([i, i + 1]), np.array(i * 10)


class RandomAccess:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.full(2, i, np.float32), np.array(i)

    def __len__(self):
        return self.n


class OnlyIterable:
    def __iter__(self):
        return iter([(np.array(1),), (np.array(2),)])


def test_generator_function_is_called_once_per_epoch_in_order():
    calls = []

    def source():
        calls.append(1)
        yield from gen3()
    d = ds.GeneratorDataset(source, column_names=['x', 'y'])
    assert [int(y) for _, y in rows(d)] == [0, 10, 20]
    assert [int(y) for _, y in rows(d)] == [0, 10, 20]
    assert len(calls) == 2
    assert d.get_dataset_size() == 3      # counted by reading once
    assert len(calls) == 3
    assert d.get_dataset_size() == 3      # and kept
    assert len(calls) == 3


def test_iterable_source_and_non_tuple_rows_are_one_column():
    d = ds.GeneratorDataset(OnlyIterable(), column_names='v')
    assert [int(r[0]) for r in rows(d)] == [1, 2]

    def scalars():
        yield from range(4)
    d = ds.GeneratorDataset(scalars, ['n'], num_samples=3)
    assert [int(r[0]) for r in rows(d)] == [0, 1, 2]
    assert d.get_dataset_size() == 3


def test_random_access_source_reads_by_index_and_shuffles_by_default():
    d = ds.GeneratorDataset(RandomAccess(6), ['x', 'i'], shuffle=False)
    assert d.get_dataset_size() == 6
    assert [int(i) for _, i in rows(d)] == list(range(6))
    ms.set_seed(0)
    order = [int(i) for _, i in rows(ds.GeneratorDataset(RandomAccess(30), ['x', 'i']))]
    assert sorted(order) == list(range(30)) and order != list(range(30))


def test_list_source_is_random_access_and_column_types_cast():
    d = ds.GeneratorDataset([(1, 2.5), (3, 4.5)], ['a', 'b'], column_types=[ms.float32, np.int32],
                            shuffle=False)
    got = rows(d)
    assert got[0][0].dtype == np.float32 and got[0][1].dtype == np.int32
    assert [(float(a), int(b)) for a, b in got] == [(1.0, 2), (3.0, 4)]


def test_generator_source_errors_raise_while_iterating():
    def wide():
        yield 1, 2, 3
    with pytest.raises(ValueError, match=r"row 0 has 3 columns, but column_names names 2: "
                                         r"\['a', 'b'\]"):
        rows(ds.GeneratorDataset(wide, ['a', 'b']))
    with pytest.raises(TypeError, match="source\\(\\) returned int, expected an iterator"):
        rows(ds.GeneratorDataset(lambda: 3, ['a']))


@pytest.mark.parametrize('source,kw,err,match', [
    (gen3, {}, ValueError, "column_names is required"),
    (gen3, {'column_names': ['x', 'y'], 'schema': 'schema.json'}, ValueError,
     "schema is not supported"),
    (42, {'column_names': 'x'}, TypeError, "source must be a generator function, an iterable "
     "or an object with __getitem__ and __len__, got int"),
    (gen3, {'column_names': ['x', 'y'], 'shuffle': True}, ValueError,
     "need a random-access source"),
    (gen3, {'column_names': ['x', 'y'], 'sampler': [0, 1]}, ValueError,
     "need a random-access source"),
    (gen3, {'column_names': ['x', 'y'], 'column_types': [ms.float32]}, TypeError,
     "column_types must be a list of 2 dtypes"),
    (gen3, {'column_names': ['x', 'y'], 'column_types': ['complex', 'int']}, TypeError,
     "unknown dtype name 'complex'"),
    (gen3, {'column_names': 5}, TypeError, "column_names must be a str or a non-empty list"),
    (gen3, {'column_names': 'x', 'python_multiprocessing': 1}, TypeError,
     "python_multiprocessing must be a bool"),
])
def test_generator_dataset_errors(source, kw, err, match):
    with pytest.raises(err, match=match):
        ds.GeneratorDataset(source, **kw)


# ----------------------------------------------------------------- information
def test_output_shapes_types_and_batch_size():
    d = ds.NumpySlicesDataset({'x': np.zeros((5, 3), np.float32), 'y': np.zeros(5, np.int32)})
    assert d.output_shapes() == [[3], []]
    assert d.output_types() == [np.float32, np.int32]
    assert d.get_batch_size() == 1
    b = d.batch(2)
    assert b.output_shapes() == [[2, 3], [2]]
    assert b.get_batch_size() == 2
    assert b.shuffle(4).get_batch_size() == 2
    with pytest.raises(RuntimeError, match="output_shapes: the dataset yields no rows"):
        d.skip(5).output_shapes()
