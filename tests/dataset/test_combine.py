"""zip, sync_wait / sync_update and RandomDataset."""
import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset as ds


def _rows(data):
    return [[a.tolist() for a in row] for row in data.create_tuple_iterator(output_numpy=True)]


def test_zip_joins_columns_and_stops_at_the_shortest():
    a = ds.NumpySlicesDataset({'a': [1, 2, 3]}, shuffle=False)
    b = ds.NumpySlicesDataset({'b': [10, 20], 'c': [5, 6]}, shuffle=False)
    z = ds.zip((a, b))
    assert z.get_col_names() == ['a', 'b', 'c']
    assert z.get_dataset_size() == 2
    assert _rows(z) == [[1, 10, 5], [2, 20, 6]]
    assert _rows(a.zip(b)) == _rows(z)
    assert _rows(a.zip((b,)).batch(2)) == [[[1, 2], [10, 20], [5, 6]]]


def test_zip_errors():
    a = ds.NumpySlicesDataset({'a': [1, 2]})
    with pytest.raises(ValueError, match="just one dataset"):
        ds.zip((a,))
    with pytest.raises(TypeError, match="must be a tuple of Datasets, got list"):
        ds.zip([a, a])
    with pytest.raises(ValueError, match=r"share the column names \['a'\]"):
        ds.zip((a, a))
    with pytest.raises(TypeError, match="every element must be a Dataset, got int"):
        ds.zip((a, 3))


class Policy:
    def __init__(self):
        self.seen = []

    def update(self, data):
        self.seen.append(data)


def test_sync_wait_releases_batches_on_update():
    policy = Policy()
    data = ds.NumpySlicesDataset({'x': np.arange(12)}, shuffle=False)
    data = data.sync_wait('policy', num_batch=1, callback=policy.update)
    data = data.map(lambda x: x * 2, input_columns='x', num_parallel_workers=4).batch(4)
    got = []
    for row in data.create_dict_iterator(num_epochs=1, output_numpy=True):
        got.append(row['x'].tolist())
        data.sync_update('policy', data={'loss': len(got)})
    assert got == [[0, 2, 4, 6], [8, 10, 12, 14], [16, 18, 20, 22]]
    assert policy.seen == [{'loss': 1}, {'loss': 2}, {'loss': 3}]


def test_sync_wait_without_update_times_out_then_passes():
    data = ds.NumpySlicesDataset({'x': np.arange(4)}, shuffle=False).sync_wait('c').batch(2)
    old = ds.config.get_callback_timeout()
    ds.config.set_callback_timeout(1)
    try:
        with pytest.warns(UserWarning, match=r"timed out after 1 s waiting for "
                                             r"sync_update\(condition_name='c'\)"):
            assert _rows(data) == [[[0, 1]], [[2, 3]]]
    finally:
        ds.config.set_callback_timeout(old)


def test_sync_errors():
    base = ds.NumpySlicesDataset({'x': [1, 2]})
    data = base.sync_wait('a')
    with pytest.raises(RuntimeError, match="condition name 'a' is already in use"):
        data.sync_wait('a')
    with pytest.raises(ValueError, match="num_batch must be an int > 0, got 0"):
        base.sync_wait('b', num_batch=0)
    with pytest.raises(RuntimeError, match=r"condition name 'zz' not found; the pipeline's "
                                           r"are \['a'\]"):
        data.sync_update('zz')
    with pytest.raises(RuntimeError, match="num_batch can only be a positive integer"):
        data.sync_update('a', num_batch=-1)
    with pytest.raises(TypeError, match="condition_name must be a str, got 3"):
        data.sync_update(3)


def _schema():
    schema = ds.Schema()
    schema.add_column('image', de_type=ms.uint8, shape=[2, 3])
    schema.add_column('label', de_type=ms.int32, shape=[1])
    return schema


def test_random_dataset_follows_the_schema_and_fills_rows_as_mindspore():
    data = ds.RandomDataset(total_rows=4, schema=_schema(), shuffle=False)
    assert data.get_col_names() == ['image', 'label'] and data.get_dataset_size() == 4
    rows = list(data.create_dict_iterator(output_numpy=True))
    assert len(rows) == 4
    for row in rows:
        image, label = row['image'], row['label']
        assert image.dtype == np.uint8 and image.shape == (2, 3)
        assert label.dtype == np.int32 and label.shape == (1,)
        assert (image == image.flat[0]).all()               # one byte repeated
        byte = int(label.view(np.uint8)[0])
        assert int(label[0]) == np.int32(np.uint32(byte * 0x01010101))


def test_random_dataset_is_seeded_and_samples():
    ms.set_seed(7)
    first = _rows(ds.RandomDataset(total_rows=5, schema=_schema(), shuffle=False))
    ms.set_seed(7)
    assert _rows(ds.RandomDataset(total_rows=5, schema=_schema(), shuffle=False)) == first
    part = ds.RandomDataset(total_rows=5, schema=_schema(), columns_list=['label'],
                            num_shards=2, shard_id=1)
    assert part.get_col_names() == ['label'] and part.get_dataset_size() == 3
    assert ds.RandomDataset(total_rows=5, schema=_schema(), num_samples=2).get_dataset_size() \
        == 2


def test_random_dataset_without_schema_makes_random_columns():
    ms.set_seed(1)
    data = ds.RandomDataset(total_rows=2)
    names = data.get_col_names()
    assert 1 <= len(names) <= 4 and names == [f"c{k}" for k in range(len(names))]
    rows = _rows(data)
    assert len(rows) == 2 and len(rows[0]) == len(names)


def test_random_dataset_errors():
    with pytest.raises(TypeError, match="total_rows must be an int or None, got 'a'"):
        ds.RandomDataset(total_rows='a')
    with pytest.raises(ValueError, match="total_rows must be >= 1, got 0"):
        ds.RandomDataset(total_rows=0)
    with pytest.raises(TypeError, match="columns_list must be a list of str"):
        ds.RandomDataset(total_rows=2, columns_list='image')
    with pytest.raises(ValueError, match=r"columns_list names \['x'\], which the schema lacks"):
        ds.RandomDataset(total_rows=2, schema=_schema(), columns_list=['x'])
    schema = ds.Schema()
    schema.add_column('s', de_type='string')
    with pytest.raises(ValueError, match="column 's' is of type string"):
        ds.RandomDataset(total_rows=2, schema=schema)


def test_cloud_sources_raise_with_the_local_alternative():
    with pytest.raises(RuntimeError, match="OBSMindDataset is not supported.*MindDataset"):
        ds.OBSMindDataset(['obs://bucket/a.mindrecord'], 'obs://bucket/sync', 'ak', 'sk', 'ep')
    with pytest.raises(RuntimeError, match="sync_wait_for_dataset waits for OBSMindDataset"):
        ds.sync_wait_for_dataset(0, 1, 1)
