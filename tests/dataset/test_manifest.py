"""ManifestDataset against MindSpore 2.10's reading of tests/dataset/fixtures/manifest."""
import os

import numpy as np
import pytest

from hookgrad import dataset as ds
from tests.dataset.recorded import (FIXTURES, assert_same_as_mindspore, build, cases,
                                    expected)

FOLDER = os.path.join(FIXTURES, 'manifest')
RECORDED = [c for c in cases('manifest') if expected('manifest', c)[1] is not None]


@pytest.mark.parametrize('case', RECORDED)
def test_rows_match_mindspore(case):
    assert_same_as_mindspore('manifest', case)


def test_class_indexing_from_sorted_names_or_as_given(monkeypatch):
    monkeypatch.chdir(FOLDER)
    d = build('manifest', 'train')
    assert d.get_class_indexing() == {'ant': 0, 'cat': 1, 'dog': 2} and d.num_classes() == 3
    assert build('manifest', 'class_indexing').get_class_indexing() == {'dog': 5, 'cat': 1}


@pytest.mark.parametrize('case,match', [
    ('inference', "no image of usage 'inference'"),
    ('missing_image', r"images/4.png does not exist"),
])
def test_errors_where_mindspore_raises(monkeypatch, case, match):
    monkeypatch.chdir(FOLDER)
    assert expected('manifest', case)[0] == 'RuntimeError'
    with pytest.raises(RuntimeError, match=match):
        build('manifest', case)


def test_bad_lines_and_arguments(tmp_path, monkeypatch):
    monkeypatch.chdir(FOLDER)
    bad = tmp_path / 'bad.manifest'
    bad.write_text('{"source": "images/1.jpg", "usage": "train"}\n')
    with pytest.raises(RuntimeError, match="line 1: KeyError 'annotation'"):
        ds.ManifestDataset(str(bad))
    with pytest.raises(ValueError, match="does not exist"):
        ds.ManifestDataset(str(tmp_path / 'none.manifest'))
    with pytest.raises(ValueError, match="usage 'test' is not within"):
        ds.ManifestDataset('data.manifest', usage='test')
    with pytest.raises(TypeError, match="class_indexing must be a dict of str to int"):
        ds.ManifestDataset('data.manifest', class_indexing={'dog': '1'})
    with pytest.raises(TypeError, match="decode must be a bool"):
        ds.ManifestDataset('data.manifest', decode=1)


def test_pk_sampler_reads_the_single_labels(monkeypatch):
    monkeypatch.chdir(FOLDER)
    d = ds.ManifestDataset('data.manifest', usage='eval', class_indexing={'bird': 3},
                           sampler=ds.PKSampler(2))
    labels = [int(label) for _, label in d.create_tuple_iterator(output_numpy=True)]
    assert labels == [3, 3]
    rows = list(ds.ManifestDataset('data.manifest', shuffle=False)
                .create_tuple_iterator(output_numpy=True))
    assert np.array_equal(rows[0][0], rows[2][0])         # one file listed twice
