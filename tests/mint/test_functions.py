"""Every case of ``cases.py`` through hookgrad's mint, compared with MindSpore 2.10's values
(``mindspore_values.json``, written by ``record_values.py``)."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.kernels import backend
from tests.mint import cases

DEVICES = {'CPU': backend.CPU, 'GPU': backend.gpu()}   # the GPU: the CUDA stand-in in CI
# layers of hookgrad.nn that mint runs and that build host arrays on the GPU
# (nn/layer/pooling_adaptive.py: _adaptive_avg's pooling matrix, _adaptive_max's window index)
with open(os.path.join(os.path.dirname(__file__), 'mindspore_values.json')) as f:
    RECORDED = json.load(f)

PARAMS = [pytest.param(area, name, id=f'{area}.{name}')
          for area, table in cases.AREAS.items() for name in table]
DTYPES = {'Float32': np.float32, 'Float64': np.float64, 'Int64': np.int64, 'Int32': np.int32,
          'Bool': np.bool_, 'UInt8': np.uint8, 'Int8': np.int8, 'Int16': np.int16}


def check(got, want, where, exact_dtype=True):
    """``got`` (a hookgrad result) equals the recorded ``want``: dtype, shape and values.
    Values computed by MindSpore's ``ops`` instead of mint (``exact_dtype`` False) may differ
    in integer width (ops' indices are int32, mint's int64): only the kind is compared."""
    if isinstance(want, list):
        assert isinstance(got, (tuple, list)), f"{where}: expected a tuple, got {type(got)}"
        assert len(got) == len(want), f"{where}: {len(got)} results, expected {len(want)}"
        for k, (g, w) in enumerate(zip(got, want)):
            check(g, w, f"{where}[{k}]", exact_dtype)
        return
    if 'scalar' in want:
        assert not isinstance(got, ms.Tensor), f"{where}: expected a Python {want['scalar']!r}"
        assert got == pytest.approx(want['scalar']), where
        return
    assert isinstance(got, ms.Tensor), f"{where}: expected a Tensor, got {type(got).__name__}"
    kind = np.dtype(DTYPES[want['dtype']]).kind
    if exact_dtype:
        assert str(got.dtype) == want['dtype'], f"{where}: {got.dtype}, expected {want['dtype']}"
    else:
        assert got.asnumpy().dtype.kind == kind, f"{where}: {got.dtype}, expected {want['dtype']}"
    expected = np.array([np.nan if v is None else v for v in np.ravel(want['values'])]
                        if want['values'] != [] else [], DTYPES[want['dtype']]).reshape(
                            want['shape'])
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=2e-5, atol=2e-6, err_msg=where,
                               equal_nan=True)


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('area,name', PARAMS)
def test_matches_mindspore(area, name, device):
    record = RECORDED[f'{area}.{name}']
    if record['source'] is None:
        pytest.skip(f"MindSpore 2.10 on the CPU cannot compute {area}.{name}: "
                    f"{record['error']}")
    call = cases.AREAS[area][name][0]
    precision = ms.device_context.gpu.op_precision
    precision.conv_allow_tf32(False)        # TF32 (a GPU's default) rounds convolutions
    try:
        with backend.default_device(DEVICES[device]):
            got = call(cases.module(ms, area), ms.Tensor)
    finally:
        precision.conv_allow_tf32(True)
    check(got, record['value'], f'{area}.{name}', record['source'] == 'mint')


def test_every_case_is_recorded_and_names_a_mint_function():
    for area, table in cases.AREAS.items():
        module = cases.module(ms, area)
        for name in table:
            assert f'{area}.{name}' in RECORDED
            assert callable(getattr(module, name.split('#')[0])), f'{area}.{name}'


@pytest.mark.parametrize('name', ['max', 'min', 'sort', 'topk', 'median', 'cummax', 'cummin'])
def test_value_index_pairs_print_as_the_plain_tuples_mindspore_returns(name):
    x = ms.Tensor(np.array([[1.0, 5.0], [3.0, 2.0]], np.float32))
    fn = getattr(ms.mint, name)
    pair = fn(x) if name == 'sort' else fn(x, 1)
    assert repr(pair) == repr(tuple(pair)) and str(pair) == str(tuple(pair))
    assert repr(pair).startswith('(Tensor(shape=[')
    assert pair.values is pair[0] and pair.indices is pair[1]     # PyTorch-style fields too
    assert pair.indices.dtype == ms.int64
