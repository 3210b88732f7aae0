"""SQuAD, CLUE, Multi30k and IWSLT readers: rows, dtypes and order as MindSpore 2.10 gives
them on the same fixture files (recorded with two readers, MindSpore's default on two cores)."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset as ds

from . import text_trees as trees


def _rows(data):
    return [[a.tolist() for a in row] for row in data.create_tuple_iterator(output_numpy=True)]


def test_squad_rows_as_mindspore(tmp_path):
    trees.squad(tmp_path)
    data = ds.SQuADDataset(str(tmp_path), shuffle=False, num_parallel_workers=2)
    assert data.get_col_names() == ['context', 'question', 'text', 'answer_start']
    assert data.get_dataset_size() == 4
    assert _rows(data) == [
        ['Alpha beta gamma.', 'What follows alpha?', ['beta'], [6]],
        ['Epsilon zeta.', 'Last word?', ['zeta'], [8]],
        ['Alpha beta gamma.', 'Two answers?', ['gamma', 'gamma.'], [11, 11]],
        ['Delta.', 'Nothing?', [''], [4294967295]]]
    row = next(data.create_tuple_iterator(output_numpy=True))
    assert row[3].dtype == np.uint32 and row[2].dtype.kind == 'U'
    assert _rows(ds.SQuADDataset(str(tmp_path), usage='dev', shuffle=False)) == [
        ['Epsilon zeta.', 'Last word?', ['zeta'], [8]]]


def test_squad_v2_and_errors(tmp_path):
    trees.squad(tmp_path, '2.0')
    assert len(_rows(ds.SQuADDataset(str(tmp_path), usage='train'))) == 3
    with pytest.raises(ValueError, match="usage 'test' is not within the valid set"):
        ds.SQuADDataset(str(tmp_path), usage='test')
    os.remove(tmp_path / 'dev-v2.0.json')
    with pytest.raises(RuntimeError, match="dev-v1.1.json or dev-v2.0.json is missing"):
        ds.SQuADDataset(str(tmp_path))
    (tmp_path / 'dev-v1.1.json').write_text('{"nope": 1}')
    with pytest.raises(RuntimeError, match="is not SQuAD JSON"):
        _rows(ds.SQuADDataset(str(tmp_path), usage='dev'))


def test_clue_columns_and_types_as_mindspore(tmp_path):
    path = str(tmp_path / 'train.json')
    trees.clue_afqmc(path)
    data = ds.CLUEDataset(path, task='AFQMC', usage='train', shuffle=False)
    assert data.get_col_names() == ['label', 'sentence1', 'sentence2']
    assert _rows(data) == [['0', 'eins', 'zwei'], ['1', 'drei', 'vier']]
    test = str(tmp_path / 'test.json')
    trees.clue_afqmc(test, with_label=False)
    rows = list(ds.CLUEDataset(test, usage='test', shuffle=False)
                .create_tuple_iterator(output_numpy=True))
    assert rows[1][0].dtype == np.uint32 and int(rows[1][0]) == 1
    tnews = str(tmp_path / 'tnews.json')
    trees.clue_tnews(tnews)
    data = ds.CLUEDataset(tnews, task='TNEWS', shuffle=False)
    assert data.get_col_names() == ['keywords', 'label', 'label_desc', 'sentence']
    assert _rows(data)[1] == ['', '110', 'news_military', 's two']


def test_clue_nested_wsc_and_list_values(tmp_path):
    wsc = tmp_path / 'wsc.json'
    wsc.write_text(json.dumps({'target': {'span2_index': 37, 'span1_index': 5,
                                          'span1_text': 'x', 'span2_text': 'y'},
                               'idx': 7, 'label': 'false', 'text': 't'}) + '\n')
    data = ds.CLUEDataset(str(wsc), task='WSC', usage='eval', shuffle=False)
    assert data.get_col_names() == ['idx', 'label', 'span1_index', 'span1_text',
                                    'span2_index', 'span2_text', 'text']
    assert _rows(data) == [[7, 'false', 5, 'x', 37, 'y', 't']]
    csl = tmp_path / 'csl.json'
    csl.write_text(json.dumps({'id': 1, 'abst': 'ab', 'keyword': ['k1', 'k2'],
                               'label': '1'}) + '\n')
    assert _rows(ds.CLUEDataset(str(csl), task='CSL', shuffle=False)) == \
        [['ab', 1, ['k1', 'k2'], '1']]


def test_clue_errors_as_mindspore(tmp_path):
    path = str(tmp_path / 'train.json')
    trees.clue_afqmc(path)
    with pytest.raises(ValueError, match="task should be 'AFQMC', 'TNEWS'"):
        ds.CLUEDataset(path, task='XX')
    with pytest.raises(ValueError, match="usage should be 'train', 'test' or 'eval'"):
        ds.CLUEDataset(path, usage='dev')
    (tmp_path / 'bad.json').write_text('{"sentence1": "a", "label": "1"}\n')
    with pytest.raises(RuntimeError, match="invalid json file.*line 1"):
        _rows(ds.CLUEDataset(str(tmp_path / 'bad.json')))


def test_multi30k_as_mindspore(tmp_path):
    trees.multi30k(tmp_path)
    data = ds.Multi30kDataset(str(tmp_path), shuffle=False, num_parallel_workers=2)
    assert data.get_col_names() == ['text', 'translation']
    assert [r[0] for r in _rows(data)] == ['test english 0', 'train english 0', 'val english 0',
                                          'train english 1', 'val english 1', 'train english 2']
    assert _rows(ds.Multi30kDataset(str(tmp_path), usage='valid', language_pair=['de', 'en'],
                                    shuffle=False)) == [['val deutsch 0', 'val english 0'],
                                                        ['val deutsch 1', 'val english 1']]
    with pytest.raises(TypeError, match="language_pair must be"):
        ds.Multi30kDataset(str(tmp_path), language_pair=['en', 'fr'])
    os.remove(tmp_path / 'validation' / 'val.de')
    with pytest.raises(RuntimeError, match="val.de is invalid or does not exist"):
        ds.Multi30kDataset(str(tmp_path), usage='valid')


def test_iwslt_as_mindspore(tmp_path):
    trees.iwslt(tmp_path / '16')
    data = ds.IWSLT2016Dataset(str(tmp_path / '16'), shuffle=False, num_parallel_workers=2)
    assert _rows(data) == [['train de one', 'train en one'], ['tst2013 de a', 'tst2013 en a'],
                           ['train de two', 'train en two'], ['tst2013 de b', 'tst2013 en b'],
                           ['tst2014 de a', 'tst2014 en a'], ['tst2014 de b', 'tst2014 en b']]
    assert [r[0] for r in _rows(ds.IWSLT2016Dataset(
        str(tmp_path / '16'), usage='valid', valid_set='dev2010', shuffle=False))] == \
        ['dev2010 de a', 'dev2010 de b']
    trees.iwslt(tmp_path / '17', '2017')
    data = ds.IWSLT2017Dataset(str(tmp_path / '17'), shuffle=False, num_parallel_workers=2)
    assert [r[0] for r in _rows(data)] == ['train de one', 'dev2010 de a', 'train de two',
                                          'dev2010 de b', 'tst2010 de a', 'tst2010 de b']
    with pytest.raises(ValueError, match="language_pair \\('de', 'fr'\\) is not within"):
        ds.IWSLT2016Dataset(str(tmp_path / '16'), language_pair=('de', 'fr'))
    with pytest.raises(ValueError, match="valid_set 'tst2099' is not within"):
        ds.IWSLT2016Dataset(str(tmp_path / '16'), valid_set='tst2099')
    with pytest.raises(RuntimeError, match="does not exist"):
        ds.IWSLT2016Dataset(str(tmp_path / '16'), language_pair=['en', 'de'])


def test_shards_and_shuffle(tmp_path):
    trees.multi30k(tmp_path)
    shards = [[r[0] for r in _rows(ds.Multi30kDataset(
        str(tmp_path), usage='train', shuffle=False, num_shards=2, shard_id=k))]
        for k in range(2)]
    assert set(shards[0] + shards[1]) == {'train english 0', 'train english 1',
                                          'train english 2'}
    assert all(len(s) == 2 for s in shards)
    ms.set_seed(4)
    once = _rows(ds.Multi30kDataset(str(tmp_path), usage='train'))
    ms.set_seed(4)
    assert _rows(ds.Multi30kDataset(str(tmp_path), usage='train')) == once
    assert sorted(r[0] for r in once) == ['train english 0', 'train english 1',
                                          'train english 2']
