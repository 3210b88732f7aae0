"""hookgrad.mindrecord.FileWriter / FileReader and MindDataset: round trips, shards, errors.

Column order, output dtypes/shapes, shard membership and padding literals were read from
MindSpore 2.10 on the same rows.
"""
import json
import os
import struct

import numpy as np
import pytest
from safetensors.numpy import save_file

from hookgrad import dataset as ds
from hookgrad.mindrecord import (FileReader, FileWriter, MRMAddSchemaError, MRMDefineIndexError,
                                 MRMInvalidSchemaError, ParamTypeError, ParamValueError)

SCHEMA = {'file_name': {'type': 'string'}, 'label': {'type': 'int32'}, 'data': {'type': 'bytes'},
          'vec': {'type': 'float32', 'shape': [-1]}, 'mat': {'type': 'int64', 'shape': [2, 3]},
          'f64': {'type': 'float64'}, 'i64': {'type': 'int64'},
          'ragged': {'type': 'float64', 'shape': [2, -1]}}


def _rows(n=5):
    return [{'file_name': f'f{i}.jpg' if i else 'é', 'label': i, 'data': bytes([i, 1, 2][:i]),
             'vec': np.arange(i + 1, dtype=np.float32), 'mat': np.arange(6).reshape(2, 3) + i,
             'f64': 0.5 * i, 'i64': 2 ** 40 + i, 'ragged': np.full((2, i), i / 3)}
            for i in range(n)]


def _write(path, rows, shard_num=1, schema=SCHEMA, **kw):
    w = FileWriter(str(path), shard_num=shard_num, **kw)
    w.add_schema(schema, 'test data')
    w.write_raw_data(rows)
    w.commit()


def labels(d):
    return [int(r['label']) for r in d.create_dict_iterator(output_numpy=True)]


def test_round_trip_keeps_values_dtypes_and_shapes(tmp_path):
    path = tmp_path / 'a.mindrecord'
    rows = _rows()
    w = FileWriter(str(path))
    w.add_schema(SCHEMA, 'desc')
    w.add_index(['file_name', 'label'])
    w.write_raw_data(rows[:3])
    w.write_raw_data(rows[3:])
    w.commit()
    d = ds.MindDataset(str(path), shuffle=False)
    assert d.get_col_names() == sorted(SCHEMA) and d.get_dataset_size() == 5   # sorted, as MS
    got = list(d.create_dict_iterator(output_numpy=True))
    for row, out in zip(rows, got):
        assert out['file_name'].shape == () and str(out['file_name']) == row['file_name']
        assert out['data'].shape == (1,) and out['data'][0] == row['data']       # as MindSpore
        for k in ('label', 'f64', 'i64'):
            assert out[k].shape == () and out[k] == row[k]
        for k in ('vec', 'mat', 'ragged'):
            np.testing.assert_array_equal(out[k], row[k])
            assert out[k].shape == row[k].shape
    assert [got[0][k].dtype for k in ('label', 'f64', 'i64', 'vec', 'mat')] == \
        [np.int32, np.float64, np.int64, np.float32, np.int64]
    tensors = next(iter(d.create_dict_iterator()))
    assert type(tensors['file_name']) is np.ndarray and type(tensors['data']) is np.ndarray
    assert tensors['label'].shape == ()


def test_columns_list_shards_padding_and_num_samples_as_mindspore(tmp_path):
    path = str(tmp_path / 'a.mindrecord')
    _write(path, _rows())
    d = ds.MindDataset(path, columns_list=['label', 'file_name'], shuffle=False)
    assert d.get_col_names() == ['label', 'file_name'] and labels(d) == [0, 1, 2, 3, 4]
    shards = [labels(ds.MindDataset(path, num_shards=2, shard_id=k, shuffle=False))
              for k in range(2)]
    assert shards == [[0, 2, 4], [1, 3, 0]]                                   # from MindSpore
    pad = dict(_rows(1)[0], label=-1)
    padded = [labels(ds.MindDataset(path, ['label', 'file_name'], num_shards=2, shard_id=k,
                                    shuffle=False, padded_sample=pad, num_padded=1))
              for k in range(2)]
    assert padded == [[0, 2, 4], [1, 3, -1]]                                  # from MindSpore
    assert labels(ds.MindDataset(path, num_samples=2, shuffle=False)) == [0, 1]


def test_several_shard_files(tmp_path):
    base = tmp_path / 'b.mindrecord'
    _write(base, [{'label': i} for i in range(10)], shard_num=3,
           schema={'label': {'type': 'int64'}})
    assert sorted(os.listdir(tmp_path)) == ['b.mindrecord0', 'b.mindrecord1', 'b.mindrecord2']
    # as in MindSpore: one file stands for its whole set; a list reads just those files
    assert labels(ds.MindDataset(f'{base}1', shuffle=False)) == list(range(10))
    assert labels(ds.MindDataset([f'{base}1'], shuffle=False)) == [3, 4, 5]
    assert labels(ds.MindDataset([f'{base}1', f'{base}2'], shuffle=False)) == list(range(3, 10))
    shards = [labels(ds.MindDataset(f'{base}0', shuffle=False, num_shards=3, shard_id=k))
              for k in range(3)]
    assert shards == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]                # from MindSpore


def test_shuffle_batch_and_file_reader(tmp_path):
    path = str(tmp_path / 'a.mindrecord')
    _write(path, _rows())
    ds.config.set_seed(2)
    a = labels(ds.MindDataset(path))
    ds.config.set_seed(2)
    assert a == labels(ds.MindDataset(path)) and sorted(a) == [0, 1, 2, 3, 4]
    batch = next(ds.MindDataset(path, ['data', 'file_name', 'label'], shuffle=False).batch(2)
                 .create_dict_iterator(output_numpy=True))
    assert batch['data'].shape == (2, 1) and batch['file_name'].tolist() == ['é', 'f1.jpg']
    reader = FileReader(path, columns=['label', 'data', 'vec', 'file_name', 'f64'])
    got = list(reader.get_next())
    assert reader.len() == 5 and reader.schema() == SCHEMA
    assert [type(got[1][k]) for k in ('label', 'data', 'vec', 'file_name', 'f64')] == \
        [int, bytes, np.ndarray, str, float]                  # as MindSpore's FileReader
    assert got[2]['data'] == b'\x02\x01' and got[3]['f64'] == 1.5
    reader.close()


def _mindspore_header_file(path):
    """The start of a real MindSpore 2.10 .mindrecord file (its JSON header)."""
    header = json.dumps({
        "header_size": 16777216, "index_fields": [{"index_field": "label", "schema_id": 0}],
        "page_size": 33554432, "compression_size": 0,
        "schema": [{"blob_fields": [], "desc": "x", "schema": {"label": {"type": "int64"}}}],
        "shard_addresses": ["b.mindrecord0"], "shard_id": 0, "statistics": None,
        "version": "3.0"}, separators=(',', ':')).encode()
    path.write_bytes(struct.pack('<Q', len(header)) + header + bytes(4096))


def test_files_of_other_formats_are_refused_with_the_reason(tmp_path):
    ms_file = tmp_path / 'ms.mindrecord'
    _mindspore_header_file(ms_file)
    with pytest.raises(RuntimeError, match="ms.mindrecord is a file of MindSpore's own "
                                           "MindRecord format. hookgrad's FileWriter and "
                                           "MindDataset use hookgrad's own MindRecord format"):
        ds.MindDataset(str(ms_file))
    with pytest.raises(RuntimeError, match="MindSpore's own MindRecord format"):
        FileReader(str(ms_file))
    junk = tmp_path / 'junk.mindrecord'
    junk.write_bytes(b'hello world' * 10)
    with pytest.raises(RuntimeError, match="junk.mindrecord is not a hookgrad MindRecord file"):
        ds.MindDataset(str(junk))
    plain = tmp_path / 'plain.safetensors'
    save_file({'x': np.zeros(2, np.float32)}, str(plain))
    with pytest.raises(RuntimeError, match="without hookgrad's MindRecord metadata"):
        ds.MindDataset(str(plain))
    with pytest.raises(ValueError, match="nope.mindrecord does not exist"):
        ds.MindDataset(str(tmp_path / 'nope.mindrecord'))


@pytest.mark.parametrize('kw,err,match', [
    ({'file_name': 3}, ParamValueError, r"\[ParamValueError\]: Invalid parameter value. File "
     r"path: 3 is not string."),
    ({'shard_num': 0}, ParamValueError, "Parameter shard_num's value: 0 should between 1 and "
     "1000."),
    ({'shard_num': '2'}, ParamValueError, "Parameter shard_num's type is not int."),
])
def test_file_writer_argument_errors(tmp_path, kw, err, match):
    args = {'file_name': str(tmp_path / 'z.mindrecord'), **kw}
    with pytest.raises(err, match=match):
        FileWriter(**args)


@pytest.mark.parametrize('schema,match', [
    ([1], "Schema content should be dict."),
    ({}, "Schema content is empty."),
    ({'a': {'type': 'int8'}}, "Field 'a' contain illegal attribute 'int8'"),
    ({'a': {'type': 'string', 'shape': [2]}}, "Field 'a' contain illegal attribute 'string'"),
    ({'a': {'type': 'int32', 'shape': [-1, -1]}}, "at most one -1"),
    ({'a': {'type': 'int32', 'foo': 1}}, "contains illegal attributes"),
    ({'a b': {'type': 'int32'}}, "Field 'a b' should be composed of '0-9' or 'a-z'"),
])
def test_schema_errors(tmp_path, schema, match):
    with pytest.raises(MRMInvalidSchemaError, match=match):
        FileWriter(str(tmp_path / 'z.mindrecord')).add_schema(schema)


@pytest.mark.parametrize('row,match', [
    ({'a': 1, 'v': np.zeros(2, np.float32)}, r"row 0 lacks the fields \['s'\]"),
    ({'a': 'x', 'v': np.zeros(2, np.float32), 's': 'x'}, "row 0, field 'a': expected an int32 "
     "scalar, got str"),
    ({'a': 2 ** 31, 'v': np.zeros(2, np.float32), 's': 'x'}, "expected an int32 in range"),
    ({'a': 1, 'v': np.zeros(3, np.float32), 's': 'x'}, r"field 'v': expected a float32 array of "
     r"shape \[2\], got float32 array of shape \(3,\)"),
    ({'a': 1, 'v': np.zeros(2, np.float64), 's': 'x'}, "got float64 array"),
    ({'a': 1, 'v': np.zeros(2, np.float32), 's': b'x'}, "field 's': expected a str, got bytes"),
])
def test_row_errors(tmp_path, row, match):
    w = FileWriter(str(tmp_path / 'z.mindrecord'))
    w.add_schema({'a': {'type': 'int32'}, 'v': {'type': 'float32', 'shape': [2]},
                  's': {'type': 'string'}})
    with pytest.raises(RuntimeError, match=match):
        w.write_raw_data([row])


def test_writer_state_errors(tmp_path):
    path = str(tmp_path / 'z.mindrecord')
    w = FileWriter(path)
    with pytest.raises(RuntimeError, match="schema is not found, please use 'add_schema'"):
        w.write_raw_data([{'a': 1}])
    w.add_schema({'a': {'type': 'int32'}, 'v': {'type': 'float32', 'shape': [2]}})
    with pytest.raises(MRMAddSchemaError, match="a FileWriter takes one schema"):
        w.add_schema({'a': {'type': 'int32'}})
    with pytest.raises(MRMDefineIndexError, match="Failed to set field v since it's not "
                                                  "primitive type"):
        w.add_index(['v'])
    with pytest.raises(RuntimeError, match="'index_fields': zz can not found in schema"):
        w.add_index(['zz'])
    with pytest.raises(ParamTypeError, match="'raw_data' expect list type."):
        w.write_raw_data({'a': 1})
    w.write_raw_data([{'a': 1, 'v': np.zeros(2, np.float32), 'extra': 'ignored, as in MS'}])
    w.commit()
    with pytest.raises(RuntimeError, match="the files are already committed"):
        w.write_raw_data([{'a': 1}])
    again = FileWriter(path)
    again.add_schema({'a': {'type': 'int32'}})
    with pytest.raises(RuntimeError, match="mindrecord files already exist.*overwrite=True"):
        again.write_raw_data([{'a': 2}])
    _write(path, [{'a': 2}], schema={'a': {'type': 'int32'}}, overwrite=True)
    assert [int(r['a']) for r in ds.MindDataset(path).create_dict_iterator()] == [2]


def test_mind_dataset_errors(tmp_path):
    path = str(tmp_path / 'a.mindrecord')
    _write(path, _rows(4))
    pad = {'label': -1}
    with pytest.raises(RuntimeError, match="padded_sample is specified and requires "
                                           "columns_list as well."):
        ds.MindDataset(path, padded_sample=pad, num_padded=1)
    with pytest.raises(RuntimeError, match="requires num_padded as well."):
        ds.MindDataset(path, ['label'], padded_sample=pad)
    with pytest.raises(RuntimeError, match="num_padded is specified but padded_sample is not."):
        ds.MindDataset(path, num_padded=1)
    with pytest.raises(RuntimeError, match="the size of dataset and padded samples: 6 can not "
                                           "be divisible by the value of 'num_shards'"):
        ds.MindDataset(path, ['label'], num_shards=4, shard_id=0, padded_sample=pad,
                       num_padded=2)
    with pytest.raises(ValueError, match=r"columns_list names \['zz'\], which are not fields"):
        ds.MindDataset(path, columns_list=['zz'])
    with pytest.raises(TypeError, match="dataset_files must be a str or a non-empty list"):
        ds.MindDataset(3)
