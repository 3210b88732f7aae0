"""Dataset.map with parallel workers (threads and processes), row_generator, per_batch_map."""
import os
import threading
import time

import numpy as np
import pytest

from hookgrad import dataset as ds
from hookgrad.dataset import config
from hookgrad.dataset.engine import row_generator


def noisy(x):
    """A random operation: adds a draw of the row's own generator."""
    return x + row_generator().integers(0, 1000)


def values(d):
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]


def _noisy_run(workers, processes=False):
    config.set_seed(5)
    d = ds.NumpySlicesDataset(np.arange(40), shuffle=True).map(
        operations=noisy, num_parallel_workers=workers, python_multiprocessing=processes)
    return values(d)


def test_random_operations_give_the_same_rows_with_any_number_of_workers():
    one = _noisy_run(1)
    assert _noisy_run(4) == one
    assert _noisy_run(2, processes=True) == one
    assert _noisy_run(1) == one
    config.set_seed(6)
    assert values(ds.NumpySlicesDataset(np.arange(40), shuffle=True).map(noisy)) != one


def test_python_multiprocessing_runs_in_other_processes():
    d = ds.NumpySlicesDataset(np.arange(6), shuffle=False).map(
        lambda x: np.array([x, os.getpid()]), num_parallel_workers=2,
        python_multiprocessing=True)
    got = [r[0].tolist() for r in d.create_tuple_iterator(output_numpy=True)]
    assert [x for x, _ in got] == list(range(6))
    assert os.getpid() not in {pid for _, pid in got}


def test_each_epoch_draws_new_row_generators():
    config.set_seed(1)
    d = ds.NumpySlicesDataset(np.zeros(8, np.int64), shuffle=False).map(noisy)
    first, second = values(d), values(d)
    assert first != second and len(set(first)) > 1


def test_workers_run_concurrently_and_keep_row_order():
    threads = set()
    barrier = threading.Barrier(3, timeout=5)

    def slow(x):
        threads.add(threading.get_ident())
        if int(x) < 3:
            barrier.wait()         # passes only when 3 rows are processed at the same time
        time.sleep(0.002 * (int(x) % 3))
        return x * 2
    d = ds.NumpySlicesDataset(np.arange(30), shuffle=False).map(
        [slow, lambda y: y + 1], num_parallel_workers=3)
    assert values(d) == [2 * i + 1 for i in range(30)]
    assert len(threads) == 3


def test_default_workers_come_from_config_and_errors_propagate():
    saved = config.get_num_parallel_workers()
    config.set_num_parallel_workers(1)
    try:
        seen = set()
        d = ds.NumpySlicesDataset(np.arange(5), shuffle=False).map(
            lambda x: seen.add(threading.get_ident()) or x)
        assert values(d) == [0, 1, 2, 3, 4] and seen == {threading.get_ident()}
    finally:
        config.set_num_parallel_workers(saved)

    def boom(x):
        if int(x) == 7:
            raise ValueError("bad row 7")
        return x
    d = ds.NumpySlicesDataset(np.arange(20), shuffle=False).map(boom, num_parallel_workers=4)
    with pytest.raises(ValueError, match="bad row 7"):
        values(d)


def test_early_stop_shuts_the_pool_down():
    d = ds.NumpySlicesDataset(np.arange(200), shuffle=False).map(lambda x: x,
                                                                 num_parallel_workers=2)
    it = d.create_tuple_iterator(output_numpy=True)
    assert int(next(it)[0]) == 0
    del it
    assert values(d.take(3)) == [0, 1, 2]


@pytest.mark.parametrize('kw,err,match', [
    ({'python_multiprocessing': 1}, TypeError, "python_multiprocessing must be a bool"),
    ({'cache': object()}, ValueError, "Dataset.map: cache is not supported"),
    ({'offload': True}, ValueError, "offload=True is not supported"),
    ({'colour': 1}, TypeError, "Dataset.map: unexpected keyword argument 'colour'"),
    ({'num_parallel_workers': 0}, ValueError, "num_parallel_workers must be None or an int"),
])
def test_map_keyword_errors(kw, err, match):
    with pytest.raises(err, match=match):
        ds.NumpySlicesDataset(np.arange(3)).map(operations=lambda x: x, **kw)


def test_per_batch_map_sees_lists_and_batch_info():
    seen = []

    def per_batch(xs, ys, info):
        seen.append((info.get_epoch_num(), info.get_batch_num(), len(xs)))
        return [x * 10 for x in xs], [y + x for x, y in zip(xs, ys)], list(ys)
    base = ds.NumpySlicesDataset({'x': np.arange(5), 'y': np.arange(5) * 100, 'z': -np.arange(5)},
                                 shuffle=False)
    d = base.batch(2, per_batch_map=per_batch, input_columns=['x', 'y'],
                   output_columns=['a', 'b', 'c'], num_parallel_workers=2)
    assert d.get_col_names() == ['a', 'b', 'c', 'z']
    got = list(d.create_tuple_iterator(output_numpy=True))
    assert [r[0].tolist() for r in got] == [[0, 10], [20, 30], [40]]
    assert [r[1].tolist() for r in got] == [[0, 101], [202, 303], [404]]
    assert [r[3].tolist() for r in got] == [[0, -1], [-2, -3], [-4]]
    list(d.create_tuple_iterator(output_numpy=True))
    assert sorted(seen) == [(0, 0, 2), (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 1, 2), (1, 2, 1)]


def test_per_batch_map_errors():
    base = ds.NumpySlicesDataset({'x': np.arange(4)}, shuffle=False)
    with pytest.raises(ValueError, match="input_columns and output_columns need per_batch_map"):
        base.batch(2, input_columns=['x'])
    with pytest.raises(TypeError, match="per_batch_map must be callable"):
        base.batch(2, per_batch_map=3)
    with pytest.raises(TypeError, match="Dataset.batch: unexpected keyword argument 'pad'"):
        base.batch(2, pad=True)
    d = base.batch(2, per_batch_map=lambda xs, info: (xs, xs), input_columns='x')
    with pytest.raises(ValueError, match="per_batch_map returned 2 columns, but output_columns "
                                         "names 1"):
        list(d)
    d = base.batch(2, per_batch_map=lambda xs, info: xs[:1], input_columns='x')
    with pytest.raises(ValueError, match="returned 1 rows for column 'x' of a batch of 2"):
        list(d)
