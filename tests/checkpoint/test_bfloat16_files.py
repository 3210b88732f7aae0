"""BFloat16 checkpoints, both ways, bit for bit as MindSpore 2.10 has them.

The fixtures ``bf16*.ckpt`` and ``bf16.safetensors`` were written by MindSpore 2.10
(tools/make_mindspore_bf16_checkpoints.py); ``bf16_expected.json`` holds the bits MindSpore's
``load_checkpoint`` read from them, the error MindSpore raises saving BFloat16 to safetensors
with ``crc_check=True``, and what its ``load_param_into_net`` stores when it casts to and from
BFloat16. Files written by hookgrad were also read with MindSpore 2.10: a ``.ckpt`` (with and
without CRC) and a safetensors file (with and without CRC) holding all 65536 BFloat16 bit
patterns came back as BFloat16 with every bit unchanged; only ``crc_check=True`` on a
safetensors file failed there ("cannot include dtype 'E' in a buffer", MindSpore's CRC code
on any BF16 safetensors file, its own included). The ``.ckpt`` tests below pin that by
comparing hookgrad's bytes with MindSpore's.
"""
import json
import pathlib
import tracemalloc
import warnings
import zlib

import ml_dtypes
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.checkpoint import network, protobuf_ckpt
from hookgrad.train.serialization_helpers import tensor_to_np_type

from .nets import save_hookgrad_file

FIXTURES = pathlib.Path(__file__).parent / 'fixtures'
EXPECTED = json.loads((FIXTURES / 'bf16_expected.json').read_text())
FILES = sorted(EXPECTED['files'])
UINT = {'BFloat16': np.uint16, 'Float16': np.uint16, 'Float32': np.uint32,
        'Float64': np.uint64, 'Int32': np.int32}
NUMPY = {'BFloat16': ml_dtypes.bfloat16, 'Float16': np.float16, 'Float32': np.float32,
         'Float64': np.float64, 'Int32': np.int32}
ALL_BITS = np.arange(1 << 16, dtype=np.uint16)

def from_bits(bits, dtype_name):
    return np.array(bits, UINT[dtype_name]).view(NUMPY[dtype_name])


def bits(value):
    arr = value.asnumpy()
    return arr.reshape(-1).view(UINT[value.dtype.name]).tolist()


def load_strictly(path, **kwargs):
    """load_checkpoint with every warning an error: BFloat16 loads without one."""
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        return ms.load_checkpoint(path, **kwargs)


class Net(nn.Cell):
    """The entries of the fixtures as a network with bfloat16 (and one float32) parameters."""

    def __init__(self, entries):
        super().__init__()
        for name, value in entries.items():
            setattr(self, name, ms.Parameter(ms.Tensor(value.asnumpy()), name=name))


def test_fixtures_come_from_mindspore_2_10():
    assert EXPECTED['mindspore'] == '2.10.0'
    assert FILES == ['bf16.ckpt', 'bf16.safetensors', 'bf16_crc.ckpt']
    assert EXPECTED['save_fails'] == {
        'bf16_crc.safetensors': "ValueError: cannot include dtype 'E' in a buffer"}
    assert sum((FIXTURES / f).stat().st_size for f in FILES) < 1000


# ----------------------------------------------------------------- reading MindSpore's files
@pytest.mark.parametrize('file', FILES)
def test_reads_the_bits_mindspore_reads(file):
    got = load_strictly(FIXTURES / file, crc_check='crc' in file)
    want = EXPECTED['files'][file]
    assert list(got) == [e['name'] for e in want]
    for e in want:
        value = got[e['name']]
        assert isinstance(value, ms.Parameter) and value.name == e['name']
        assert value.dtype.name == e['dtype'] and list(value.shape) == e['shape']
        assert value.asnumpy().dtype == NUMPY[e['dtype']]
        assert bits(value) == e['bits'], e['name']
        assert value.requires_grad == e['requires_grad'] is True


def test_the_fixtures_hold_nans_infinities_and_subnormals():
    w = {e['name']: e for e in EXPECTED['files']['bf16.ckpt']}['w']
    values = from_bits(w['bits'], 'BFloat16').astype(np.float32)
    assert np.isnan(values).sum() == 3 and np.isinf(values).sum() == 2
    assert 0x7f81 in w['bits'] and 0x0001 in w['bits'] and 0x8000 in w['bits']
@pytest.mark.parametrize('file', ['bf16.ckpt', 'bf16.safetensors'])
def test_bfloat16_entries_load_into_a_bfloat16_network(file):
    net = Net({name: ms.Tensor(np.zeros(v.shape, v.asnumpy().dtype))
               for name, v in load_strictly(FIXTURES / file).items()})
    got = ms.load_checkpoint(FIXTURES / file, net=net)
    assert sorted(got) == ['b', 'f', 's', 'w']
    for e in EXPECTED['files'][file]:
        param = getattr(net, e['name'])
        assert param.dtype.name == e['dtype'] and bits(param) == e['bits'], e['name']


def test_tensor_to_np_type_gives_the_type_loaded_arrays_have():
    got = load_strictly(FIXTURES / 'bf16.ckpt')
    assert got['w'].asnumpy().dtype.type is tensor_to_np_type('BFloat16')


# ----------------------------------------------------------------- writing MindSpore's files
@pytest.mark.parametrize('file, kwargs', [('bf16.ckpt', {}), ('bf16_crc.ckpt',
                                                              {'crc_check': True})])
@pytest.mark.parametrize('form', ['dict', 'list', 'net'])
def test_ckpt_written_is_byte_for_byte_mindspores(tmp_path, file, kwargs, form):
    entries = load_strictly(FIXTURES / file)
    save_obj = {'dict': entries, 'list': list(entries.values()), 'net': Net(entries)}[form]
    ms.save_checkpoint(save_obj, tmp_path / 'out.ckpt', **kwargs)
    assert (tmp_path / 'out.ckpt').read_bytes() == (FIXTURES / file).read_bytes()


def safetensors_parts(data):
    n = int.from_bytes(data[:8], 'little')
    return json.loads(data[8:8 + n]), data[8 + n:]


def test_safetensors_written_has_mindspores_header_and_data(tmp_path):
    ms.save_checkpoint(Net(load_strictly(FIXTURES / 'bf16.ckpt')), tmp_path / 'out',
                       format='safetensors')
    ours, our_data = safetensors_parts((tmp_path / 'out.safetensors').read_bytes())
    theirs, their_data = safetensors_parts((FIXTURES / 'bf16.safetensors').read_bytes())
    assert ours == theirs and our_data == their_data
    assert {k: v['dtype'] for k, v in ours.items() if k != '__metadata__'} == {
        'b': 'BF16', 'f': 'F32', 's': 'BF16', 'w': 'BF16'}


def test_safetensors_with_crc_holds_mindspores_crc_of_the_16_bit_values(tmp_path):
    # MindSpore 2.10 cannot write this file (save_fails above); hookgrad writes the CRC32
    # its format defines: each name's UTF-8 bytes, then the tensor's bytes, in name order
    entries = load_strictly(FIXTURES / 'bf16.safetensors')
    ms.save_checkpoint(entries, tmp_path / 'c', format='safetensors', crc_check=True)
    data = (tmp_path / 'c.safetensors').read_bytes()
    ours, our_data = safetensors_parts(data)
    theirs, their_data = safetensors_parts((FIXTURES / 'bf16.safetensors').read_bytes())
    crc = 0
    for name in sorted(entries):                # the bytes are little-endian on this machine
        crc = zlib.crc32(entries[name].asnumpy().tobytes(), zlib.crc32(name.encode(), crc))
    assert ours.pop('__metadata__') == {'format': 'ms', 'crc_num': str(crc)}
    theirs.pop('__metadata__')
    assert ours == theirs and our_data == their_data
    got = load_strictly(tmp_path / 'c.safetensors', crc_check=True)
    assert bits(got['w']) == bits(entries['w'])
    broken = bytearray(data)
    broken[-1] ^= 1                        # the high byte of 'w''s last value, a negative NaN
    (tmp_path / 'c.safetensors').write_bytes(bytes(broken))
    with pytest.raises(ValueError, match=r"is corrupted: its tensors do not match the CRC32 "
                                         r"in its metadata \('crc_num'\)"):
        ms.load_checkpoint(tmp_path / 'c.safetensors')


@pytest.mark.parametrize('fmt, crc_check', [('ckpt', False), ('ckpt', True),
                                            ('safetensors', False), ('safetensors', True)])
def test_every_bfloat16_bit_pattern_round_trips(tmp_path, fmt, crc_check):
    w = ms.Parameter(ms.Tensor(ALL_BITS.view(ml_dtypes.bfloat16).reshape(256, 256)), name='w')
    s = ms.Parameter(ms.Tensor(np.array(-2.5, ml_dtypes.bfloat16)), name='s')
    ms.save_checkpoint([w, s], tmp_path / 'all', format=fmt, crc_check=crc_check)
    got = load_strictly(tmp_path / f'all.{fmt}', crc_check=crc_check)
    assert got['w'].dtype == ms.bfloat16 and got['w'].shape == (256, 256)
    assert np.array_equal(got['w'].asnumpy().view(np.uint16).reshape(-1), ALL_BITS)
    assert got['s'].shape == () and bits(got['s']) == [0xc020]


def test_large_bfloat16_tensors_are_split_into_messages_as_mindspore_does(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setattr(protobuf_ckpt, 'CHUNK_BYTES', 16)       # MindSpore: 512 MiB
    w = ALL_BITS[:35].view(ml_dtypes.bfloat16).reshape(7, 5)
    ms.save_checkpoint({'w': ms.Parameter(ms.Tensor(w))}, tmp_path / 'c.ckpt')
    checkpoint, _ = protobuf_ckpt.schema()
    values = checkpoint.FromString((tmp_path / 'c.ckpt').read_bytes()).value
    assert [v.tensor.tensor_type for v in values] == ['BFloat16'] * 5
    assert [len(v.tensor.tensor_content) for v in values] == [16, 16, 16, 16, 6]
    got = load_strictly(tmp_path / 'c.ckpt')
    assert np.array_equal(got['w'].asnumpy().view(np.uint16), w.view(np.uint16))


def test_bfloat16_entries_of_the_wrong_size_are_rejected(tmp_path):
    checkpoint, _ = protobuf_ckpt.schema()
    message = checkpoint()
    entry = message.value.add()
    entry.tag = 'w'
    entry.tensor.dims.extend([2])
    entry.tensor.tensor_type = 'BFloat16'
    entry.tensor.tensor_content = b'\0' * 3
    (tmp_path / 'h.ckpt').write_bytes(message.SerializeToString())
    with pytest.raises(ValueError, match=r"entry 'w' declares shape \(2,\) of BFloat16 "
                                         r"\(4 bytes\) but holds 3 bytes"):
        ms.load_checkpoint(tmp_path / 'h.ckpt')


def test_hookgrads_older_format_round_trips_bfloat16(tmp_path):
    entries = load_strictly(FIXTURES / 'bf16.ckpt')
    save_hookgrad_file(entries, tmp_path / 'old.ckpt')
    got = load_strictly(tmp_path / 'old.ckpt')
    for name, value in entries.items():
        assert got[name].dtype == value.dtype and bits(got[name]) == bits(value), name


def test_hookgrads_older_format_checks_bfloat16_dtype(tmp_path, st):
    from hookgrad.checkpoint import hookgrad_format
    from hookgrad.checkpoint.durable import crc32, metadata_crc32
    arr = ALL_BITS[:4].view(ml_dtypes.bfloat16)
    text = json.dumps([{'name': 'w', 'kind': 'tensor', 'dtype': 'Float32', 'shape': [4],
                        'requires_grad': True, 'crc32': crc32(arr)}])
    metadata = {'format': hookgrad_format.FORMAT, 'version': '2', 'entries': text,
                'crc32': str(metadata_crc32(hookgrad_format.FORMAT, '2', text))}
    (tmp_path / 'old.ckpt').write_bytes(st.numpy.save({'w': arr}, metadata=metadata))
    with pytest.raises(ValueError, match=r"entry 'w' is stored as bfloat16 but its metadata "
                                         r"says 'Float32'"):
        ms.load_checkpoint(tmp_path / 'old.ckpt')


def test_huge_declared_bfloat16_shape_is_refused_before_any_allocation(tmp_path):
    checkpoint, _ = protobuf_ckpt.schema()
    message = checkpoint()
    entry = message.value.add()
    entry.tag = 'w'
    entry.tensor.dims.extend([2 ** 40, 2 ** 30])
    entry.tensor.tensor_type = 'BFloat16'
    entry.tensor.tensor_content = b'\0' * 4
    (tmp_path / 'h.ckpt').write_bytes(message.SerializeToString())
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"entry 'w' declares shape \(1099511627776, "
                                             r"1073741824\) of BFloat16 "
                                             r"\(2361183241434822606848 bytes\) but holds 4"):
            ms.load_checkpoint(tmp_path / 'h.ckpt')
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_hookgrads_older_format_checks_bfloat16_crc(tmp_path):
    entries = {'w': ms.Parameter(ms.Tensor(ALL_BITS[:8].view(ml_dtypes.bfloat16)), name='w')}
    data = bytearray(save_hookgrad_file(entries, tmp_path / 'old.ckpt'))
    data[-1] ^= 1
    (tmp_path / 'old.ckpt').write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"entry 'w' is corrupted \(its data does not match "
                                         r"the saved CRC32\)"):
        ms.load_checkpoint(tmp_path / 'old.ckpt')


# ----------------------------------------------------------------- load_param_into_net
CAST_CASES = [pytest.param(c, id=f"{c['src']}->{c['dst']}") for c in EXPECTED['casts']]
LOOSE_CASES = CAST_CASES


@pytest.mark.parametrize('case', LOOSE_CASES)
def test_load_param_into_net_casts_as_mindspore_does(case):
    holder = nn.Cell()
    holder.w = ms.Parameter(ms.Tensor(np.zeros(10, NUMPY[case['dst']])), name='w')
    src = ms.Parameter(ms.Tensor(from_bits(case['src_bits'], case['src'])), name='w')
    loose = case['loose']
    if 'error' in loose:            # MindSpore: a RuntimeError ("... should have the same type")
        with pytest.raises(RuntimeError, match=rf"'w': the network has dtype {case['dst']}, "
                                               rf"the checkpoint {case['src']}$"):
            ms.load_param_into_net(holder, {'w': src})
        assert bits(holder.w) == [0] * 10
    else:
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            assert ms.load_param_into_net(holder, {'w': src}) == ([], [])
        assert holder.w.dtype.name == loose['dtype'] and bits(holder.w) == loose['bits']


@pytest.mark.parametrize('case', [c for c in EXPECTED['casts'] if 'error' not in c['loose']],
                         ids=lambda c: f"{c['src']}->{c['dst']}")
def test_the_values_cast_for_load_param_into_net_are_mindspores(case):
    # the array load_param_into_net hands to Parameter.set_data, checked on its own
    src = from_bits(case['src_bits'], case['src'])
    out = network._cast(src, np.dtype(NUMPY[case['dst']]))
    assert out.dtype == NUMPY[case['dst']]
    assert out.view(UINT[case['dst']]).tolist() == case['loose']['bits']


@pytest.mark.parametrize('case', CAST_CASES)
def test_strict_load_refuses_every_cast_as_mindspore_does(case):
    assert "should have the same type" in case['strict']['error']
    holder = nn.Cell()
    holder.w = ms.Parameter(ms.Tensor(np.zeros(10, NUMPY[case['dst']])), name='w')
    src = ms.Parameter(ms.Tensor(from_bits(case['src_bits'], case['src'])), name='w')
    with pytest.raises(RuntimeError, match=r"with strict_load=True dtypes must match"):
        ms.load_param_into_net(holder, {'w': src}, strict_load=True)
    assert bits(holder.w) == [0] * 10


def test_load_checkpoint_with_a_float32_network_casts_bfloat16():
    holder = nn.Cell()
    holder.w = ms.Parameter(ms.Tensor(np.zeros((2, 5), np.float32)), name='w')
    ms.load_checkpoint(FIXTURES / 'bf16.ckpt', net=holder, specify_prefix='w')
    want = next(c for c in EXPECTED['casts'] if (c['src'], c['dst']) == ('BFloat16', 'Float32'))
    assert holder.w.dtype == ms.float32 and bits(holder.w) == want['loose']['bits']
