"""Compare hookgrad's dataset loaders with what MindSpore 2.10 read from the same files.

``tests/dataset/fixtures/<name>/cases.json`` holds constructor expressions (over ``ds``, ``D``
the fixture folder and ``np``) and ``mindspore.npz`` what MindSpore yielded for each (see
tools/record_mindspore_datasets.py).
"""
import json
import os

import numpy as np

from hookgrad import dataset as ds

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures')


def cases(name):
    """The case names of fixture folder ``name``, for parametrising."""
    with open(os.path.join(FIXTURES, name, 'cases.json')) as f:
        return list(json.load(f))


def build(name, case):
    """The hookgrad dataset of ``case``, made from the same expression MindSpore ran."""
    folder = os.path.join(FIXTURES, name)
    with open(os.path.join(folder, 'cases.json')) as f:
        expr = json.load(f)[case]
    return eval(expr, {'ds': ds, 'D': folder, 'np': np})


def expected(name, case):
    """``(column names, rows)`` MindSpore read for ``case``, or ``(error type name, None)``."""
    with np.load(os.path.join(FIXTURES, name, 'mindspore.npz')) as z:
        if f'{case}/error' in z.files:
            return str(z[f'{case}/error']), None
        names = [str(n) for n in z[f'{case}/names']]
        rows, i = [], 0
        while f'{case}/{i}/{names[0]}' in z.files:
            rows.append([z[f'{case}/{i}/{n}'] for n in names])
            i += 1
    return names, rows


def assert_same_as_mindspore(name, case):
    """Build ``case`` with hookgrad and check names, row count, dtypes, shapes and values."""
    names, rows = expected(name, case)
    if rows is None:
        raise AssertionError(f"{name}/{case}: MindSpore raised {names}; test it separately")
    here = os.getcwd()
    os.chdir(os.path.join(FIXTURES, name))      # as recorded: relative paths start here
    try:
        dataset = build(name, case)
        got = list(dataset.create_tuple_iterator(output_numpy=True))
    finally:
        os.chdir(here)
    assert dataset.get_col_names() == names
    assert len(got) == len(rows) == dataset.get_dataset_size()
    for i, (row, want) in enumerate(zip(got, rows)):
        for col, a, b in zip(names, row, want):
            where = f"{name}/{case} row {i} column {col}"
            assert a.dtype == b.dtype, f"{where}: dtype {a.dtype}, MindSpore {b.dtype}"
            assert a.shape == b.shape, f"{where}: shape {a.shape}, MindSpore {b.shape}"
            np.testing.assert_array_equal(a, b, err_msg=where)
