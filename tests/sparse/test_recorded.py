"""hookgrad's sparse tensors and their operations against MindSpore 2.10's recorded results
(cases.py, recorded by record.py into mindspore_values.json): values, dtypes, structures,
printed forms and the exceptions bad input raises."""
import json
import os
import re

import numpy as np
import pytest

import hookgrad as ms
from tests.sparse.cases import CASES

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       'mindspore_values.json')) as _f:
    RECORDED = json.load(_f)

# cases whose values are exact (no rounding), so their printed forms must match to the character
PRINTED = {'coo_repr', 'coo_int64_bool', 'coo_float16', 'coo_to_csr', 'coo_astype', 'coo_abs',
           'coo_neg', 'coo_coalesce', 'csr_repr', 'csr_3d_repr', 'csr_to_coo', 'csr_astype',
           'csr_neg', 'tensor_to_coo', 'tensor_to_csr', 'dense_to_sparse_coo',
           'dense_to_sparse_csr', 'csr_to_coo_fn', 'csr_mul_dense', 'csr_mul_row',
           'csr_add', 'csr_add_method', 'csr_plus_csr', 'csr_minus_self', 'coo_add',
           'coo_add_method', 'coo_concat_0', 'coo_concat_1', 'coo_times_dense', 'coo_abs',
           'coo_neg', 'csr_neg', 'coo_square', 'csr_square', 'coo_relu', 'csr_relu'}


def _tolerance(dtype):
    return {'Float16': 1e-3, 'Float32': 1e-6, 'Float64': 1e-12}.get(dtype, 0)


def _match(got, want, where):
    kind = want['kind']
    if kind == 'text':
        assert got == want['text'], where
        return
    if kind == 'tuple':
        assert isinstance(got, tuple) and len(got) == len(want['items']), where
        for i, (g, w) in enumerate(zip(got, want['items'])):
            _match(g, w, f"{where}[{i}]")
        return
    if kind in ('coo', 'csr'):
        cls = ms.COOTensor if kind == 'coo' else ms.CSRTensor
        assert isinstance(got, cls), f"{where}: got {type(got).__name__}, MindSpore a {cls}"
        assert list(got.shape) == want['shape'], where
        fields = ('indices', 'values') if kind == 'coo' else ('indptr', 'indices', 'values')
        for field in fields:
            _match(getattr(got, field), want[field], f"{where}.{field}")
        if where in PRINTED:
            assert repr(got) == want['repr'], where
        return
    assert isinstance(got, ms.Tensor), f"{where}: got {type(got).__name__}, MindSpore a Tensor"
    assert str(got.dtype) == want['dtype'], f"{where}: {got.dtype} vs {want['dtype']}"
    assert list(got.shape) == want['shape'], where
    expected = np.asarray(want['values'], dtype=np.float64).reshape(want['shape'])
    actual = got.asnumpy().astype(np.float64)
    tol = _tolerance(want['dtype'])
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol, equal_nan=True,
                               err_msg=where)


def _message(text):
    """A message without the class paths that name the framework."""
    return re.sub(r"<class '[\w.]+\.(\w+)'>", r"<class '\1'>", text)


@pytest.mark.parametrize('name', sorted(CASES))
def test_matches_mindspore(name):
    want = RECORDED[name]
    if want['kind'] == 'error':
        error = {'TypeError': TypeError, 'ValueError': ValueError}[want['type']]
        with pytest.raises(error) as info:
            CASES[name](ms)
        assert _message(str(info.value)) == _message(want['message'])
        return
    _match(CASES[name](ms), want, name)


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(CASES)
