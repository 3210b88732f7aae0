"""DatasetCache: MindSpore's argument checks, and the in-process cache of rows for sources and
map (a second epoch reads the rows from memory)."""
import numpy as np
import pytest

import hookgrad.dataset as ds
from tests.dataset.test_tfrecord import FILES


class Counting:
    """An operation that counts its calls and adds a fresh random number each time."""

    def __init__(self):
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        return x + np.random.random()


def _column(data):
    return [r[0].tolist() for r in data.create_tuple_iterator(output_numpy=True)]


def test_arguments_checked_as_mindspore():
    cache = ds.DatasetCache(session_id=1, size=0)
    assert (cache.session_id, cache.size, cache.spilling) == (1, 0, False)
    with pytest.raises(ValueError, match=r'Input session_id is not within the required interval '
                                         r'of \[0, 4294967295\].'):
        ds.DatasetCache(session_id=-1)
    with pytest.raises(TypeError, match="Argument size with value 1.5 is not of type "
                                        r"\[<class 'int'>\]"):
        ds.DatasetCache(session_id=1, size=1.5)
    with pytest.raises(ValueError, match=r'Input port is not within the required interval of '
                                         r'\[1025, 65535\].'):
        ds.DatasetCache(session_id=1, port=80)
    with pytest.raises(ValueError, match='Dataset.map: cache is not supported as object'):
        ds.NumpySlicesDataset([1.0], shuffle=False).map(lambda x: x, cache=object())


def test_map_results_are_kept_after_the_first_epoch():
    op = Counting()
    cache = ds.DatasetCache(session_id=7)
    data = ds.NumpySlicesDataset(np.arange(4.0), shuffle=False).map(op, cache=cache)
    first = _column(data)
    assert op.calls == 4
    assert _column(data) == first and op.calls == 4          # read from memory
    stat = cache.get_stat()
    assert stat.num_mem_cached == 4 and stat.num_disk_cached == 0
    assert stat.avg_cache_sz == 8
    uncached = ds.NumpySlicesDataset(np.arange(4.0), shuffle=False).map(Counting())
    assert _column(uncached) != _column(uncached)


def test_a_partly_read_epoch_is_not_kept():
    op = Counting()
    data = ds.NumpySlicesDataset(np.arange(4.0), shuffle=False).map(
        op, cache=ds.DatasetCache(session_id=2))
    next(iter(data.create_tuple_iterator(output_numpy=True)))
    partial = op.calls
    _column(data)
    _column(data)
    assert op.calls == partial + 4


def test_size_limit_in_mib():
    op = Counting()
    big = np.zeros((3, 300_000))                 # 2.4 MB a row
    data = ds.NumpySlicesDataset(big, shuffle=False).map(op, cache=ds.DatasetCache(1, size=5))
    _column(data)
    _column(data)
    assert op.calls == 6                         # the epoch did not fit: made again


def test_sources_with_cache():
    cache = ds.DatasetCache(session_id=3)
    data = ds.TFRecordDataset(FILES, columns_list=['label'], shuffle=False, cache=cache)
    assert _column(data) == _column(data) == [[-3], [18], [4], [25], [11]]
    assert cache.get_stat().num_mem_cached == 5
    with pytest.raises(ValueError, match='TFRecordDataset: cache is not supported as int'):
        ds.TFRecordDataset(FILES, cache=3)


def test_image_folder_rows_are_decoded_once(tmp_path, monkeypatch):
    from PIL import Image
    for label, colour in (('a', (255, 0, 0)), ('b', (0, 0, 255))):
        (tmp_path / label).mkdir()
        Image.new('RGB', (4, 3), colour).save(tmp_path / label / 'x.png')
    cache = ds.DatasetCache(session_id=4)
    data = ds.ImageFolderDataset(str(tmp_path), decode=True, shuffle=False, cache=cache)
    calls = []
    real = ds.ImageFolderDataset._row
    monkeypatch.setattr(ds.ImageFolderDataset, '_row',
                        lambda self, i: calls.append(i) or real(self, i))
    first = [(r[0].tolist(), int(r[1])) for r in data.create_tuple_iterator(output_numpy=True)]
    again = [(r[0].tolist(), int(r[1])) for r in data.create_tuple_iterator(output_numpy=True)]
    assert first == again and [label for _, label in first] == [0, 1]
    assert calls == [0, 1]
    assert cache.get_stat().num_mem_cached == 2
