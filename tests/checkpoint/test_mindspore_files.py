"""MindSpore's own checkpoint files, both ways.

The fixtures were written by MindSpore 2.10 (tools/make_mindspore_checkpoints.py), and
``expected.json`` holds what MindSpore's ``load_checkpoint`` read from them. hookgrad must read
the same, and write files that are the same: byte for byte for protobuf ``.ckpt`` (MindSpore's
encoding is deterministic), header and data for safetensors (the library orders the metadata
keys at random).
"""
import json
import pathlib
import warnings

import ml_dtypes
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.checkpoint import protobuf_ckpt

FIXTURES = pathlib.Path(__file__).parent / 'fixtures'
EXPECTED = json.loads((FIXTURES / 'expected.json').read_text())
FILES = sorted(EXPECTED['files'])


class ConvBN(nn.Cell):
    """The network of convbn.ckpt, as MindSpore defined it."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Dense(2, 3)


def load_quietly(path, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return ms.load_checkpoint(path, **kwargs)


def test_fixtures_come_from_mindspore_2_10():
    assert EXPECTED['mindspore'] == '2.10.0'
    assert FILES == ['convbn.ckpt', 'convbn.safetensors', 'dense.ckpt', 'dense_crc.ckpt',
                     'dense_crc.safetensors', 'dtypes.ckpt', 'dtypes.safetensors']
    assert sum((FIXTURES / f).stat().st_size for f in FILES) < 8000


# ----------------------------------------------------------------- reading MindSpore's files
@pytest.mark.parametrize('file', FILES)
def test_reads_what_mindspore_reads(file):
    got = load_quietly(FIXTURES / file)
    want = EXPECTED['files'][file]
    assert list(got) == [e['name'] for e in want]
    for e in want:
        value = got[e['name']]
        if e['kind'] == 'str':
            assert value == e['value']
            continue
        assert isinstance(value, ms.Parameter) and value.name == e['name']
        assert value.dtype.name == e['dtype']
        assert list(value.shape) == e['shape']
        assert value.asnumpy().astype(np.float64).reshape(-1).tolist() == e['values']
        assert value.requires_grad == e['requires_grad'] is True


@pytest.mark.parametrize('file', ['dtypes.ckpt', 'dtypes.safetensors'])
def test_bfloat16_loads_as_bfloat16_without_a_warning(file):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        got = ms.load_checkpoint(FIXTURES / file, choice_func=lambda n: n == 't_bfloat16')
    assert got['t_bfloat16'].dtype == ms.bfloat16
    assert got['t_bfloat16'].asnumpy().dtype == ml_dtypes.bfloat16
    assert got['t_bfloat16'].asnumpy().view(np.uint16).tolist() == [
        [0x3fc0, 0xc010, 0x4040], [0x0000, 0x40e0, 0xbf00]]      # 1.5, -2.25, 3, 0, 7, -0.5


@pytest.mark.parametrize('file', ['dense_crc.ckpt', 'dense_crc.safetensors'])
def test_crc_check_passes_on_mindspore_files_with_a_crc(file):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        got = ms.load_checkpoint(FIXTURES / file, crc_check=True)
    assert got['bias'].tolist() == [3.125, 4.375]


@pytest.mark.parametrize('file', ['dense.ckpt', 'convbn.safetensors'])
def test_crc_check_warns_on_files_without_a_crc(file):
    with pytest.warns(UserWarning, match=r"load_checkpoint: crc_check=True but '.*' carries "
                                         r"no CRC32; it was loaded without a check"):
        ms.load_checkpoint(FIXTURES / file, crc_check=True)


@pytest.mark.parametrize('file', ['convbn.ckpt', 'convbn.safetensors'])
def test_mindspore_file_loads_into_a_hookgrad_network(file):
    net = ConvBN()
    not_loaded, unused = ms.load_param_into_net(net, load_quietly(FIXTURES / file))
    assert not_loaded == []
    assert sorted(unused) == (['done', 'epoch', 'lr', 'note'] if file.endswith('ckpt')
                              else ['epoch', 'lr'])
    want = {e['name']: e['values'] for e in EXPECTED['files'][file] if e['kind'] == 'tensor'}
    for p in net.get_parameters():
        assert p.asnumpy().reshape(-1).tolist() == want[p.name], p.name
    assert not net.bn.moving_mean.requires_grad        # the network keeps its own flags


def test_load_checkpoint_with_net_and_filters_on_a_mindspore_file():
    net = nn.Dense(3, 2)
    with pytest.warns(UserWarning, match=r"\['bias'\] are not loaded"):
        got = ms.load_checkpoint(FIXTURES / 'dense.ckpt', net=net, filter_prefix='bias')
    assert list(got) == ['weight']
    assert net.weight.asnumpy().reshape(-1).tolist() == [-0.375, 0.0, 2.5, 4.5, -4.75, -3.625]


# ----------------------------------------------------------------- writing MindSpore's files
@pytest.mark.parametrize('file, kwargs', [('dense.ckpt', {}), ('convbn.ckpt', {}),
                                          ('dense_crc.ckpt', {'crc_check': True})])
def test_ckpt_written_is_byte_for_byte_mindspores(tmp_path, file, kwargs):
    ms.save_checkpoint(load_quietly(FIXTURES / file), tmp_path / 'out.ckpt', **kwargs)
    assert (tmp_path / 'out.ckpt').read_bytes() == (FIXTURES / file).read_bytes()


def test_ckpt_of_every_dtype_matches_mindspores_messages(tmp_path):
    got = load_quietly(FIXTURES / 'dtypes.ckpt')
    ms.save_checkpoint(got, tmp_path / 'out.ckpt')
    checkpoint, _ = protobuf_ckpt.schema()
    ours = checkpoint.FromString((tmp_path / 'out.ckpt').read_bytes()).value
    theirs = checkpoint.FromString((FIXTURES / 'dtypes.ckpt').read_bytes()).value
    assert [v.tag for v in ours] == [v.tag for v in theirs]
    for a, b in zip(ours, theirs):
        assert a.SerializeToString() == b.SerializeToString(), a.tag
    assert [v.tensor.tensor_type for v in ours if v.tag == 't_bfloat16'] == ['BFloat16']
    assert (tmp_path / 'out.ckpt').read_bytes() == (FIXTURES / 'dtypes.ckpt').read_bytes()


def safetensors_parts(path):
    data = path.read_bytes()
    n = int.from_bytes(data[:8], 'little')
    return json.loads(data[8:8 + n]), data[8 + n:]


@pytest.mark.parametrize('file, kwargs', [
    ('convbn.safetensors', {}), ('dense_crc.safetensors', {'crc_check': True}),
    ('dtypes.safetensors', {})])
def test_safetensors_written_has_mindspores_header_and_data(tmp_path, file, kwargs):
    got = load_quietly(FIXTURES / file)
    ms.save_checkpoint(got, tmp_path / 'out', format='safetensors', **kwargs)
    ours, our_data = safetensors_parts(tmp_path / 'out.safetensors')
    theirs, their_data = safetensors_parts(FIXTURES / file)
    assert ours == theirs and our_data == their_data
    if file == 'dtypes.safetensors':
        assert ours['t_bfloat16']['dtype'] == 'BF16'


def test_safetensors_records_remove_redundancy(tmp_path):
    ms.save_checkpoint(nn.Dense(1, 1), tmp_path / 'a', format='safetensors',
                       remove_redundancy=False)
    header, _ = safetensors_parts(tmp_path / 'a.safetensors')
    assert header['__metadata__'] == {'format': 'ms', 'remove_redundancy': 'False'}


def test_large_tensors_are_split_into_messages_as_mindspore_does(tmp_path, monkeypatch):
    monkeypatch.setattr(protobuf_ckpt, 'CHUNK_BYTES', 16)       # MindSpore: 512 MiB
    w = np.arange(35, dtype=np.float32).reshape(7, 5)
    ms.save_checkpoint({'w': ms.Parameter(ms.Tensor(w)), 'b': ms.Parameter(ms.Tensor([1.0]))},
                       tmp_path / 'c.ckpt')
    checkpoint, _ = protobuf_ckpt.schema()
    values = checkpoint.FromString((tmp_path / 'c.ckpt').read_bytes()).value
    assert [v.tag for v in values] == ['w'] * 9 + ['b']
    assert all(list(v.tensor.dims) == [7, 5] for v in values[:9])
    got = ms.load_checkpoint(tmp_path / 'c.ckpt')
    np.testing.assert_array_equal(got['w'].asnumpy(), w)


def test_hookgrad_dtypes_and_str_entries_round_trip(tmp_path):
    entries = {t: ms.Parameter(ms.Tensor(np.array([[1, 0, 3]]).astype(t)))
               for t in ('float16', 'float32', 'float64', 'int8', 'int16', 'int32', 'int64',
                         'uint8', 'uint16', 'uint32', 'uint64', 'bool')}
    entries['scalar'] = ms.Parameter(ms.Tensor(np.float64(2.5)))
    entries['empty'] = ms.Parameter(ms.Tensor(np.zeros((0, 3), np.int32)))
    texts = {'note': 'héllo ✓', 'blank': ''}
    ms.save_checkpoint(entries, tmp_path / 'a.ckpt', append_dict=texts)
    got = ms.load_checkpoint(tmp_path / 'a.ckpt')
    assert list(got) == list(entries) + ['note', 'blank']
    for name, p in entries.items():
        assert got[name].dtype == p.dtype and got[name].shape == p.shape, name
        np.testing.assert_array_equal(got[name].asnumpy(), p.asnumpy())
    assert got['note'] == 'héllo ✓' and got['blank'] == ''


def test_complex_entries_load_and_are_written_as_mindspore_writes_them(tmp_path):
    # complex.ckpt: MindSpore 2.10 saved these values (tools/make_mindspore_checkpoints.py);
    # its own load_checkpoint cannot read Complex entries back, hookgrad can
    loaded = ms.load_checkpoint(str(FIXTURES / 'complex.ckpt'))
    assert loaded['z'].dtype == ms.complex64 and loaded['w'].dtype == ms.complex128
    assert loaded['z'].asnumpy().tolist() == [1 + 2j, -3.5 - 0.25j]
    assert loaded['w'].asnumpy().tolist() == [[1j]]
    path = tmp_path / 'c.ckpt'
    ms.save_checkpoint([{'name': k, 'data': loaded[k]} for k in ('z', 'w')], str(path))
    assert path.read_bytes() == (FIXTURES / 'complex.ckpt').read_bytes()


def test_complex_safetensors_round_trip_and_complex128_is_refused_by_name(tmp_path):
    z = ms.Parameter(ms.Tensor(np.array([1 + 2j, -0.5j], np.complex64)), name='z')
    path = tmp_path / 'c.safetensors'
    ms.save_checkpoint([{'name': 'z', 'data': z}], str(path), format='safetensors')
    loaded = ms.load_checkpoint(str(path), format='safetensors')
    assert loaded['z'].dtype == ms.complex64
    assert loaded['z'].asnumpy().tolist() == [1 + 2j, -0.5j]
    w = ms.Parameter(ms.Tensor(np.array([1j])), name='w')
    with pytest.raises(TypeError, match="entry 'w' is Complex128, which the safetensors format "
                                        "has no type for"):
        ms.save_checkpoint([{'name': 'w', 'data': w}], str(tmp_path / 'w.safetensors'),
                           format='safetensors')
