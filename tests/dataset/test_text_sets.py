"""The CSV text-classification sets and the line-based language-modelling sets against
MindSpore 2.10's reading of the same files (tests/dataset/fixtures/<name>)."""
import inspect
import os

import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import (FIXTURES, assert_same_as_mindspore, build, cases,
                                    expected)

NAMES = {'ag_news': 'AGNewsDataset', 'amazon_review': 'AmazonReviewDataset',
         'dbpedia': 'DBpediaDataset', 'sogou_news': 'SogouNewsDataset',
         'yahoo_answers': 'YahooAnswersDataset', 'yelp_review': 'YelpReviewDataset',
         'penn_treebank': 'PennTreebankDataset', 'wikitext': 'WikiTextDataset',
         'sst2': 'SST2Dataset', 'enwik9': 'EnWik9Dataset', 'conll2000': 'CoNLL2000Dataset',
         'udpos': 'UDPOSDataset', 'imdb': 'IMDBDataset'}


# MindSpore 2.10 prefixes the first field of a shard that starts inside a CSV file with the
# last field of the row before it; these cases are compared below, without that prefix.
MID_FILE_SHARDS = [('yelp_review', 'shard'), ('sogou_news', 'shard')]


@pytest.mark.parametrize('name,case', [(n, c) for n in NAMES for c in cases(n)
                                       if (n, c) not in MID_FILE_SHARDS])
def test_rows_match_mindspore(name, case):
    assert_same_as_mindspore(name, case)


@pytest.mark.parametrize('name,case', MID_FILE_SHARDS)
def test_shard_starting_inside_a_file_gives_the_intended_row(name, case):
    _, [want] = expected(name, case)
    _, train = expected(name, 'train')
    [got] = list(build(name, case).create_tuple_iterator(output_numpy=True))
    assert str(want[0]) == str(train[0][-1]) + str(got[0])     # MindSpore's extra prefix
    assert str(got[0]) == str(train[1][0])                      # the second train row
    assert [str(v) for v in got[1:]] == [str(v) for v in want[1:]]


@pytest.mark.parametrize('cls,after_shard_id', [('SogouNewsDataset', 'num_parallel_workers'),
                                                ('YelpReviewDataset', 'num_parallel_workers'),
                                                ('AGNewsDataset', 'cache')])
def test_argument_order_is_mindspores(cls, after_shard_id):
    names = list(inspect.signature(getattr(ds, cls)).parameters)
    assert names[:3] == ['dataset_dir', 'usage', 'num_samples']
    assert names[names.index('shard_id') + 1] == after_shard_id


def test_shards_take_equal_shares_of_rows():
    folder = os.path.join(FIXTURES, 'yahoo_answers')
    shards = [[str(row[0]) for row in ds.YahooAnswersDataset(
        folder, shuffle=False, num_shards=2, shard_id=k).create_tuple_iterator(output_numpy=True)]
        for k in range(2)]
    assert sorted(shards[0]) == ['1', '3'] and sorted(shards[1]) == ['2', '3']


def test_usage_and_files_are_checked(tmp_path):
    with pytest.raises(ValueError, match="usage 'valid' is not within"):
        ds.AGNewsDataset(os.path.join(FIXTURES, 'ag_news'), usage='valid')
    with pytest.raises(RuntimeError, match=r"usage 'all' reads \['ptb.train.txt'"):
        ds.PennTreebankDataset(str(tmp_path))
    (tmp_path / 'train.csv').write_text('"1","only two"\n')
    d = ds.DBpediaDataset(str(tmp_path), usage='train', shuffle=False)
    with pytest.raises(RuntimeError, match="line 1 has 2 fields, expected 3"):
        list(d.create_tuple_iterator(output_numpy=True))


def test_tagged_sentences_need_the_closing_empty_line(tmp_path):
    (tmp_path / 'train.txt').write_text('A DT B-NP\n\nB NN B-NP\n')
    rows = list(ds.CoNLL2000Dataset(str(tmp_path), usage='train', shuffle=False)
                .create_tuple_iterator(output_numpy=True))
    assert [r[0].tolist() for r in rows] == [['A']]             # as MindSpore 2.10
    (tmp_path / 'train.txt').write_text('A DT\n\n')
    d = ds.CoNLL2000Dataset(str(tmp_path), usage='train', shuffle=False)
    with pytest.raises(RuntimeError, match="line 1 has 2 fields, expected 3"):
        list(d.create_tuple_iterator(output_numpy=True))


def test_imdb_and_sst2_checks(tmp_path):
    with pytest.raises(RuntimeError, match="no review under"):
        ds.IMDBDataset(str(tmp_path))
    with pytest.raises(ValueError, match="usage 'all' is not within"):
        ds.SST2Dataset(os.path.join(FIXTURES, 'sst2'), usage='all')
    d = ds.IMDBDataset(os.path.join(FIXTURES, 'imdb'), sampler=ds.PKSampler(1))
    assert [int(label) for _, label in d.create_tuple_iterator(output_numpy=True)] == [0, 1]
