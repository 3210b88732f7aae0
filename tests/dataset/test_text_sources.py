"""TextFileDataset, CSVDataset and USPSDataset against MindSpore 2.10's reading of the same files
(tests/dataset/fixtures/{text,csv,usps})."""
import os

import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import (FIXTURES, assert_same_as_mindspore, build, cases,
                                    expected)

RECORDED = [(name, case) for name in ('text', 'csv', 'usps') for case in cases(name)
            if expected(name, case)[1] is not None]
CSV = os.path.join(FIXTURES, 'csv')


@pytest.mark.parametrize('name,case', RECORDED)
def test_rows_match_mindspore(name, case):
    assert_same_as_mindspore(name, case)


@pytest.mark.parametrize('case,match', [
    ('delim', "unexpected quote in an unquoted field"),
    ('wrong_default', "parse failed at line 1, type does not match: 'ant' is not an int"),
    ('empty_number', "parse failed at line 1, type does not match: '' is not a float"),
    ('short_row', "line 2 has 1 fields, but there are 2 columns"),
])
def test_bad_records_raise_runtime_error_as_mindspore(case, match):
    assert expected('csv', case)[0] == 'RuntimeError'
    with pytest.raises(RuntimeError, match=match):
        list(build('csv', case).create_tuple_iterator(output_numpy=True))


@pytest.mark.parametrize('kwargs,error,match', [
    ({'field_delim': ';;'}, ValueError, "field_delim is invalid"),
    ({'field_delim': '"'}, ValueError, "field_delim is invalid"),
    ({'column_defaults': [[1], 0, 0]}, TypeError, "column type in column_defaults is invalid"),
    ({'column_defaults': [0, '']}, RuntimeError, "column_defaults has 2 values but there are 3"),
    ({'column_names': ['a', 'a', 'b']}, ValueError, "column_names repeats a name"),
    ({'num_shards': 2}, RuntimeError, "num_shards and shard_id must be given together"),
    ({'num_shards': 2, 'shard_id': 2}, ValueError, r"shard_id must be in \[0, 1\]"),
    ({'num_samples': -1}, ValueError, "num_samples must be None or an int >= 0"),
    ({'shuffle': 'yes'}, TypeError, "shuffle must be a bool or a Shuffle"),
])
def test_csv_argument_checks(kwargs, error, match):
    with pytest.raises(error, match=match):
        ds.CSVDataset(os.path.join(CSV, 'a.csv'), **kwargs)


def test_missing_files_are_named():
    with pytest.raises(ValueError, match="did not match any files"):
        ds.TextFileDataset(os.path.join(FIXTURES, 'text', '*.md'))


def _texts(dataset):
    return [str(t) for (t,) in dataset.create_tuple_iterator(output_numpy=True)]


def test_shuffle_modes_repeat_under_the_dataset_seed_and_keep_every_line():
    pattern = os.path.join(FIXTURES, 'text', '*.txt')
    everything = sorted(_texts(ds.TextFileDataset(pattern, shuffle=False)))
    for mode in (True, ds.Shuffle.FILES, ds.Shuffle.INFILE):
        ds.config.set_seed(5)
        a = _texts(ds.TextFileDataset(pattern, shuffle=mode))
        ds.config.set_seed(5)
        assert _texts(ds.TextFileDataset(pattern, shuffle=mode)) == a
        assert sorted(a) == everything


def test_infile_shuffle_keeps_the_file_interleaving():
    pattern = os.path.join(FIXTURES, 'text', '*.txt')
    ds.config.set_seed(1)
    rows = _texts(ds.TextFileDataset(pattern, shuffle=ds.Shuffle.INFILE, num_parallel_workers=1))
    assert set(rows[:3]) == {'first line', '  second, with spaces  ', 'third'}
    assert set(rows[3:]) == {'b one\r', 'b two'}


USPS = os.path.join(FIXTURES, 'usps')


def test_usps_lines_without_the_trailing_space_or_with_bad_labels_are_refused(tmp_path):
    line = open(os.path.join(USPS, 'usps')).readline()
    for text, match in ((line.rstrip(' \n') + '\n', "expected a label, 256 index:value pairs"),
                        ('11' + line[line.index(' '):], "label 11 is not in 1-10"),
                        (line.replace('1:-1', '1:x'), "not a number")):
        (tmp_path / 'usps').write_text(text)
        d = ds.USPSDataset(str(tmp_path), usage='train', shuffle=False)
        with pytest.raises(RuntimeError, match=match):
            list(d.create_tuple_iterator(output_numpy=True))


def test_usps_checks_its_files_and_usage(tmp_path):
    with pytest.raises(RuntimeError, match="usps.t does not exist"):
        ds.USPSDataset(str(tmp_path), usage='test')
    with pytest.raises(ValueError, match="usage 'valid' is not within"):
        ds.USPSDataset(USPS, usage='valid')
    ds.config.set_seed(2)
    a = [int(label) for _, label in ds.USPSDataset(USPS).create_tuple_iterator(output_numpy=True)]
    ds.config.set_seed(2)
    b = [int(label) for _, label in ds.USPSDataset(USPS).create_tuple_iterator(output_numpy=True)]
    assert a == b and sorted(a) == [1, 2, 3, 6, 7]
