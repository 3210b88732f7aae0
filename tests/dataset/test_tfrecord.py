"""TFRecordDataset, Schema and the TFRecord format against MindSpore 2.10: the expected rows are
what MindSpore's TFRecordDataset reads from tests/dataset/fixtures/tfrecord (written by
tools/make_tfrecord_fixtures.py)."""
import gzip
import os

import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset as ds
from hookgrad.dataset.crc32c import crc32c, masked_crc32c
from hookgrad.dataset.tfrecord_format import (BadRecord, decode_example, encode_example,
                                              read_records, write_records)

HERE = os.path.join(os.path.dirname(__file__), 'fixtures', 'tfrecord')
FILES = [os.path.join(HERE, 'data0.tfrecord'), os.path.join(HERE, 'data1.tfrecord')]
SCHEMA = os.path.join(HERE, 'schema.json')


def _rows(data):
    return [{k: v for k, v in r.items()}
            for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]


def _labels(data):
    return [int(r['label'].ravel()[0]) for r in _rows(data)]


def test_crc32c_check_values():
    assert crc32c(b'123456789') == 0xE3069283
    assert crc32c(b'') == 0
    data = bytes(range(256)) * 40                   # long enough for the blocked path
    reg = 0xFFFFFFFF
    for byte in data:                               # bit-at-a-time reference
        reg ^= byte
        for _ in range(8):
            reg = (reg >> 1) ^ (0x82F63B78 if reg & 1 else 0)
    assert crc32c(data) == reg ^ 0xFFFFFFFF
    assert masked_crc32c(b'') == 0xA282EAD8


def test_inferred_columns_as_mindspore():
    data = ds.TFRecordDataset(FILES, shuffle=False)
    assert data.get_col_names() == ['ids', 'image', 'label', 'name', 'vec']
    assert data.get_dataset_size() == 5
    rows = _rows(data)
    first = rows[0]
    assert first['ids'].dtype == np.int64 and first['ids'].tolist() == [0, 1, 2, 3]
    assert first['image'].dtype == np.uint8 and first['image'].tolist() == [0, 1, 2, 3, 4, 5]
    assert first['label'].dtype == np.int64 and first['label'].tolist() == [-3]
    assert first['name'].dtype == np.uint8 and first['name'].tolist() == [114, 111, 119, 48]
    assert first['vec'].dtype == np.float32 and first['vec'].tolist() == [0.0, 0.5, 0.0]
    assert [int(r['label'][0]) for r in rows] == [-3, 18, 4, 25, 11]
    assert rows[3]['vec'].tolist() == [4.0, 4.5, -1.0]


def test_schema_file_types_and_shapes():
    rows = _rows(ds.TFRecordDataset(FILES, schema=SCHEMA, shuffle=False))
    assert list(rows[0]) == ['ids', 'image', 'label', 'name', 'vec']
    assert rows[0]['ids'].shape == (2, 2) and rows[1]['ids'].tolist() == [[300, 301], [302, 303]]
    assert rows[0]['name'].dtype == np.dtype('<U4') and rows[2]['name'].tolist() == ['row1']
    assert rows[4]['image'].tolist() == [20, 21, 22, 23, 24, 25]


def test_schema_object_order_casts_and_scalars():
    s = ds.Schema()
    s.add_column('vec', de_type=ms.int32)
    s.add_column('label', de_type=ms.int32, shape=[])
    rows = _rows(ds.TFRecordDataset(FILES, schema=s, shuffle=False))
    assert list(rows[0]) == ['vec', 'label']
    assert rows[0]['vec'].dtype == np.int32
    assert [r['vec'].tolist() for r in rows] == [[0, 0, 0], [3, 3, 0], [1, 1, 0], [4, 4, -1],
                                                 [2, 2, 0]]
    assert rows[1]['label'].shape == () and rows[1]['label'].dtype == np.int32
    s64 = ds.Schema()
    s64.add_column('vec', de_type=ms.float64)
    assert _rows(ds.TFRecordDataset(FILES, schema=s64, shuffle=False))[1]['vec'].tolist() == \
        [3.0, 3.5, -0.75]


def test_schema_json_as_mindspore():
    s = ds.Schema()
    s.add_column('a', de_type=ms.int32)
    s.add_column('b', de_type=ms.int32, shape=[])
    s.add_column('c', de_type='string', shape=[2])
    text = s.to_json()
    assert '"name": "a",\n      "rank": 1,\n      "type": "int32"' in text
    assert '"rank": 0,\n      "shape": [],' in text
    assert ds.Schema.get_num_rows(s) is None
    with pytest.raises(TypeError, match='Unknown column type.'):
        s.add_column('x', de_type='int65')


def test_columns_list_num_samples_and_shards():
    data = ds.TFRecordDataset(FILES, columns_list=['vec', 'label'], shuffle=False)
    assert data.get_col_names() == ['vec', 'label']
    assert _labels(ds.TFRecordDataset(FILES, num_samples=4, shuffle=False)) == [-3, 18, 4, 25]
    assert ds.TFRecordDataset(FILES, num_samples=4, shuffle=False).get_dataset_size() == 4
    assert _labels(ds.TFRecordDataset(FILES, num_samples=0, shuffle=False)) == \
        [-3, 18, 4, 25, 11]
    shard0 = ds.TFRecordDataset(FILES, num_shards=2, shard_id=0, shuffle=False)
    shard1 = ds.TFRecordDataset(FILES, num_shards=2, shard_id=1, shuffle=False)
    assert (_labels(shard0), _labels(shard1)) == ([-3, 4, 11], [18, 25])
    assert shard1.get_dataset_size() == 2
    eq0 = ds.TFRecordDataset(FILES, num_shards=2, shard_id=0, shard_equal_rows=True,
                             shuffle=False)
    eq1 = ds.TFRecordDataset(FILES, num_shards=2, shard_id=1, shard_equal_rows=True,
                             shuffle=False)
    assert (_labels(eq0), _labels(eq1)) == ([-3, 4, 11], [18, -3, 25])
    assert _labels(ds.TFRecordDataset(FILES[1], shuffle=False)) == [18, 25]


def test_sorted_files_dealt_to_readers_in_turn():
    files = [FILES[0], FILES[1], FILES[0]]
    data = ds.TFRecordDataset(files, shuffle=False, num_parallel_workers=2,
                              columns_list=['label'])
    assert _labels(data) == [-3, -3, 4, 4, 11, 11, 18, 25]
    data = ds.TFRecordDataset(FILES * 2 + FILES[:1], shuffle=False, num_parallel_workers=2,
                              columns_list=['label'])
    assert _labels(data) == [-3, -3, 4, 4, 11, 11, -3, 18, 4, 25, 11, 18, 25]
    one = ds.TFRecordDataset(FILES, shuffle=False, num_parallel_workers=1)
    assert _labels(one) == [-3, 4, 11, 18, 25]


def test_shuffle_modes_keep_the_rows_and_follow_the_seed():
    for mode in (True, ds.Shuffle.GLOBAL, ds.Shuffle.FILES, ds.Shuffle.INFILE):
        ms.set_seed(3)
        first = _labels(ds.TFRecordDataset(FILES, shuffle=mode))
        ms.set_seed(3)
        assert _labels(ds.TFRecordDataset(FILES, shuffle=mode)) == first
        assert sorted(first) == [-3, 4, 11, 18, 25]
    ms.set_seed(0)
    orders = {tuple(_labels(ds.TFRecordDataset(FILES))) for _ in range(20)}
    assert len(orders) > 5
    ms.set_seed(0)
    files_first = {tuple(_labels(ds.TFRecordDataset(FILES, shuffle=ds.Shuffle.FILES)))
                   for _ in range(20)}
    assert files_first == {(-3, 18, 4, 25, 11), (18, -3, 25, 4, 11)}


def test_errors_as_mindspore():
    with pytest.raises(ValueError, match=r"The following patterns did not match any files: "
                                         r"\['/nonexistent/x.tfrecord'\]."):
        ds.TFRecordDataset(['/nonexistent/x.tfrecord'])
    with pytest.raises(RuntimeError, match='Invalid columns_list, tfrecord file failed to find '
                                           'column name: zz'):
        ds.TFRecordDataset(FILES, columns_list=['zz'])
    with pytest.raises(RuntimeError, match='numbers of tfrecord file should not less than '
                                           'num_shards when shard_equal_rows is false, but got '
                                           'numbers of tfrecord file: 2, num_shards: 3'):
        ds.TFRecordDataset(FILES, num_shards=3, shard_id=2)
    with pytest.raises(ValueError, match=r'Input shard_id is not within the required interval '
                                         r'of \[0, 2\].'):
        ds.TFRecordDataset(FILES, num_shards=3, shard_id=3, shard_equal_rows=True)
    with pytest.raises(RuntimeError, match='num_shards is specified and currently requires '
                                           'shard_id as well.'):
        ds.TFRecordDataset(FILES, num_shards=3)
    bad_shape = ds.Schema()
    bad_shape.add_column('ids', de_type=ms.int64, shape=[3])
    with pytest.raises(RuntimeError, match='Column shape of ids defined in schema does not '
                                           'match the shape actually load.'):
        _rows(ds.TFRecordDataset(FILES, schema=bad_shape, shuffle=False))
    missing = ds.Schema()
    missing.add_column('nope', de_type=ms.int64)
    with pytest.raises(RuntimeError, match='Feature name: nope is required in schema but could '
                                           'not be found in tfrecord file.'):
        _rows(ds.TFRecordDataset(FILES, schema=missing, shuffle=False))


def test_crc_and_truncation_are_checked(tmp_path):
    blob = open(FILES[0], 'rb').read()
    cut = tmp_path / 'cut.tfrecord'
    cut.write_bytes(blob[:-3])
    with pytest.raises(BadRecord, match='record 2 is truncated'):
        list(read_records(str(cut)))
    flipped = bytearray(blob)
    flipped[20] ^= 1
    bad = tmp_path / 'bad.tfrecord'
    bad.write_bytes(bytes(flipped))
    with pytest.raises(BadRecord, match='record 0 at byte 0 fails its data CRC check'):
        ds.TFRecordDataset([str(bad)], shuffle=False)
    head = bytearray(blob)
    head[0] ^= 1
    bad.write_bytes(bytes(head))
    with pytest.raises(BadRecord, match='fails its length CRC check'):
        list(read_records(str(bad)))


def test_write_read_round_trip_and_gzip(tmp_path):
    path = str(tmp_path / 'x.tfrecord')
    write_records(path, [encode_example({'a': [1, 2], 's': 'hi', 'f': np.float32(0.5)})])
    (record,) = read_records(path)
    parsed = decode_example(record)
    assert parsed['a'][0] == 'int64' and parsed['a'][1].tolist() == [1, 2]
    assert parsed['s'] == ('bytes', [b'hi'])
    assert parsed['f'][1].tolist() == [0.5]
    gz = tmp_path / 'x.tfrecord.gz'
    gz.write_bytes(gzip.compress(open(FILES[1], 'rb').read()))
    assert _labels(ds.TFRecordDataset(str(gz), compression_type='GZIP', shuffle=False)) == \
        [18, 25]


def test_in_a_pipeline_with_batch():
    data = ds.TFRecordDataset(FILES, columns_list=['vec'], shuffle=False).batch(2)
    batches = [b for (b,) in data.create_tuple_iterator(output_numpy=True)]
    assert [b.shape for b in batches] == [(2, 3), (2, 3), (1, 3)]
