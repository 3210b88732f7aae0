"""Damaged and hostile MindSpore files: every one is a clear ValueError naming the file, and
none makes hookgrad allocate what a header claims before the bytes are there."""
import json
import pathlib
import tracemalloc

import ml_dtypes
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.checkpoint import protobuf_ckpt

FIXTURES = pathlib.Path(__file__).parent / 'fixtures'
UNREADABLE = (r"is not a readable checkpoint \(corrupted, truncated or another format\): ")


def ckpt_bytes(*values):
    """A protobuf checkpoint of ``(tag, dims, tensor_type, content)`` values."""
    checkpoint, _ = protobuf_ckpt.schema()
    message = checkpoint()
    for tag, dims, tensor_type, content in values:
        entry = message.value.add()
        entry.tag = tag
        entry.tensor.dims.extend(dims)
        entry.tensor.tensor_type = tensor_type
        entry.tensor.tensor_content = content
    return message.SerializeToString()


def load_bytes(tmp_path, data, **kwargs):
    path = tmp_path / 'h.ckpt'
    path.write_bytes(data)
    return ms.load_checkpoint(path, **kwargs)


def test_every_truncation_of_a_mindspore_ckpt_is_rejected_but_at_entry_ends(tmp_path):
    # MindSpore's .ckpt is one message per entry, back to back: cut after an entry, it is a
    # valid checkpoint of the entries before (MindSpore reads it so too); crc_check catches it
    data = (FIXTURES / 'convbn.ckpt').read_bytes()
    checkpoint, _ = protobuf_ckpt.schema()
    ends = np.cumsum([len(checkpoint(value=[v]).SerializeToString())
                      for v in checkpoint.FromString(data).value]).tolist()
    assert ends[-1] == len(data) and len(ends) == 12
    for n in range(1, len(data)):
        if n in ends:
            assert len(load_bytes(tmp_path, data[:n])) == ends.index(n) + 1
            continue
        with pytest.raises(ValueError, match=r"load_checkpoint: '.*h\.ckpt' " + UNREADABLE):
            load_bytes(tmp_path, data[:n])


def test_a_ckpt_with_crc_cut_at_an_entry_end_warns_under_crc_check(tmp_path):
    data = (FIXTURES / 'dense_crc.ckpt').read_bytes()
    cut = data.index(b'\n\x1d\n\x04bias')             # where the second entry starts
    with pytest.warns(UserWarning, match=r"crc_check=True but '.*h\.ckpt' carries no CRC32"):
        assert list(load_bytes(tmp_path, data[:cut], crc_check=True)) == ['weight']


def test_truncated_safetensors_from_mindspore_is_rejected(tmp_path):
    data = (FIXTURES / 'convbn.safetensors').read_bytes()
    for n in (10, 100, len(data) - 1):
        with pytest.raises(ValueError, match=UNREADABLE):
            load_bytes(tmp_path, data[:n])


def test_huge_declared_shape_is_refused_before_any_allocation(tmp_path):
    data = ckpt_bytes(('w', [2 ** 40, 2 ** 30], 'Float32', b'\0' * 8))
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"entry 'w' declares shape \(1099511627776, "
                                             r"1073741824\) of Float32 "
                                             r"\(4722366482869645213696 bytes\) but holds 8 "
                                             r"bytes"):
            load_bytes(tmp_path, data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_huge_declared_content_length_is_refused(tmp_path):
    # tensor_content's length field claims 2**40 bytes; the file holds a few
    head = ckpt_bytes(('w', [2], 'Float32', b''))
    cut = head.index(b'\x1a\x00')
    value = head[4:cut] + b'\x1a' + bytes([0x80, 0x80, 0x80, 0x80, 0x80, 0x20]) + b'\0' * 8
    entry = b'\n\x01w\x12' + bytes([len(value) - 3])
    with pytest.raises(ValueError, match=UNREADABLE + "it is not a safetensors file, and "
                                         "protobuf cannot parse it"):
        load_bytes(tmp_path, b'\n' + bytes([len(entry) + len(value) - 3]) + entry + value[3:])


def test_huge_safetensors_header_is_refused(tmp_path):
    data = (FIXTURES / 'dense_crc.safetensors').read_bytes()
    header = json.loads(data[8:8 + int.from_bytes(data[:8], 'little')])
    header['weight']['shape'] = [2 ** 40, 2 ** 20]
    text = json.dumps(header).encode()
    with pytest.raises(ValueError, match=UNREADABLE):
        load_bytes(tmp_path, len(text).to_bytes(8, 'little') + text + data[-32:])


@pytest.mark.parametrize('data, match', [
    # field 1 with a varint, not a message: the wrong wire type for Checkpoint.value
    (b'\x08\x05', "it holds protobuf fields that MindSpore's Checkpoint message does not have"),
    # tag (field 1 of Value) as a varint
    (b'\n\x02\x08\x01', "it holds protobuf fields that MindSpore's Checkpoint message does"),
    # a Value without its required tag
    (b'\n\x00', r"it lacks fields MindSpore's Checkpoint message requires \(value\[0\]\.tag\)"),
    (b'\xff' * 16, "it is not a safetensors file, and protobuf cannot parse it"),
])
def test_wrong_field_types_are_rejected(tmp_path, data, match):
    with pytest.raises(ValueError, match=UNREADABLE + match):
        load_bytes(tmp_path, data)


@pytest.mark.parametrize('values, match', [
    ([('w', [2], 'Float32', b'\0' * 7)],
     r"entry 'w' declares shape \(2,\) of Float32 \(8 bytes\) but holds 7 bytes"),
    ([('w', [-1, -2], 'Float32', b'\0' * 8)],
     r"entry 'w' has a negative dimension in its shape \(-1, -2\)"),
    ([('w', [2], 'Float128', b'\0' * 32)], r"entry 'w' has an unknown tensor_type 'Float128'"),
    ([('w', [2], 'Int4', b'\0')],
     r"entry 'w' has tensor_type 'Int4', which hookgrad cannot load: NumPy, which holds "
     r"hookgrad tensors, has no 4-bit integers"),
    ([('w', [1], 'Int8', b'\0'), ('b', [1], 'Int8', b'\0'), ('w', [1], 'Int8', b'\0')],
     r"holds the entry 'w' twice"),
    ([('w', [2], 'Int8', b'\0'), ('w', [3], 'Int8', b'\0')],
     r"entry 'w' is split into parts of different shapes or types"),
    ([('s', [0], 'str', b'\xff\xff\xff\xff')], r"str entry 's' is not valid UTF-32 text"),
])
def test_inconsistent_entries_are_rejected(tmp_path, values, match):
    with pytest.raises(ValueError, match=r"load_checkpoint: '.*h\.ckpt' " + match):
        load_bytes(tmp_path, ckpt_bytes(*values))


def test_map_parameters_are_refused(tmp_path):
    checkpoint, _ = protobuf_ckpt.schema()
    message = checkpoint()
    entry = message.value.add()
    entry.tag = 'table'
    entry.maptensor.tensor.add(dims=[1], tensor_type='Int64', tensor_content=b'\0' * 8)
    with pytest.raises(ValueError, match=r"entry 'table' is a MindSpore MapParameter \(or has "
                                         r"no tensor\); hookgrad has no MapParameter"):
        load_bytes(tmp_path, message.SerializeToString())


def test_a_failed_crc_is_reported_without_crc_check(tmp_path):
    data = bytearray((FIXTURES / 'dense_crc.ckpt').read_bytes())
    data[40] ^= 1
    with pytest.raises(ValueError, match=r"'.*h\.ckpt' is corrupted: its content does not "
                                         r"match the CRC32 it carries"):
        load_bytes(tmp_path, bytes(data))


def test_a_failed_safetensors_crc_is_reported(tmp_path):
    data = bytearray((FIXTURES / 'dense_crc.safetensors').read_bytes())
    data[-1] ^= 1
    with pytest.raises(ValueError, match=r"is corrupted: its tensors do not match the CRC32 in "
                                         r"its metadata \('crc_num'\)"):
        load_bytes(tmp_path, bytes(data))


def test_safetensors_of_a_type_hookgrad_cannot_hold_is_refused(tmp_path):
    import safetensors.numpy
    data = safetensors.numpy.save({'z': np.zeros(2, ml_dtypes.float8_e4m3fn)})
    with pytest.raises(ValueError, match=r"entry 'z' has dtype F8_E4M3, which hookgrad cannot "
                                         r"load"):
        load_bytes(tmp_path, data)


def test_safetensors_of_other_writers_load_as_mindspore_loads_them(tmp_path):
    import safetensors.numpy
    data = safetensors.numpy.save({'b': np.ones(2, np.int16), 'a': np.zeros(1)},
                                  metadata={'format': 'pt'})
    got = load_bytes(tmp_path, data)
    assert list(got) == ['a', 'b'] and got['b'].dtype == ms.int16
