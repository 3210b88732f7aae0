"""Damaged files, the missing optional dependency and argument errors, each message checked."""
import json
import os
import sys

import numpy as np
import pytest

from google.protobuf.message import DecodeError

import hookgrad as ms
from hookgrad.checkpoint import durable, protobuf_ckpt
from hookgrad import nn

from .nets import P, nameless


# ----------------------------------------------------------------- damaged files
# (hookgrad's older format; MindSpore's formats are in test_mindspore_files.py)
@pytest.mark.parametrize('keep', [4, 8, 20, 0.5, -1])
def test_truncated_file_is_rejected(st, saved, keep):
    path, data = saved
    n = int(len(data) * keep) if isinstance(keep, float) else keep % len(data)
    path.write_bytes(data[:n])
    with pytest.raises(ValueError, match=r"load_checkpoint: '.*net\.ckpt' is not a readable "
                                         r"checkpoint \(corrupted, truncated or another "
                                         r"format\): ") as info:
        ms.load_checkpoint(path)
    # cut inside its length field it is no safetensors file, so protobuf tries and fails
    want = st.SafetensorError if n >= 10 else DecodeError
    assert isinstance(info.value.__cause__, want)


def test_empty_file_is_rejected(tmp_path):
    path = tmp_path / 'net.ckpt'
    path.write_bytes(b'')
    with pytest.raises(ValueError, match=r"load_checkpoint: '.*net\.ckpt' is empty: it holds "
                                         r"no entries"):
        ms.load_checkpoint(path)


@pytest.mark.parametrize('pos', [0, 2, 7, 8, 30, 100])
def test_flipped_header_bytes_are_rejected(st, saved, pos):
    path, data = saved
    header_len = int.from_bytes(data[:8], 'little')
    assert pos < 8 + header_len
    damaged = bytearray(data)
    damaged[pos] ^= 0xFF
    path.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match="is not a readable checkpoint") as info:
        ms.load_checkpoint(path)
    # without its '{' the file is no safetensors file, and protobuf cannot parse it either
    want = DecodeError if pos == 8 else st.SafetensorError
    assert isinstance(info.value.__cause__, want)


def test_flipped_data_byte_fails_the_crc(st, saved):
    path, data = saved
    damaged = bytearray(data)
    damaged[-3] ^= 0x01
    path.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match=r"entry '[\w.]+' is corrupted \(its data does not "
                                         r"match the saved CRC32\)"):
        ms.load_checkpoint(path)


@pytest.mark.parametrize('content', [b'hello world\n', bytes(range(256)) * 8, b'\n\x02\x08\x01',
                                     (10).to_bytes(8, 'little') + b'{"a": 1, }'])
def test_garbage_files_are_rejected(st, tmp_path, content):
    path = tmp_path / 'junk.ckpt'
    path.write_bytes(content)
    with pytest.raises(ValueError, match=r"'.*junk\.ckpt' is not a readable checkpoint"):
        ms.load_checkpoint(path)


def write_safetensors(st, path, tensors, metadata):
    import safetensors.numpy
    path.write_bytes(safetensors.numpy.save(tensors, metadata=metadata))


def entries_for(tensors, **change):
    records = [{'name': k, 'kind': 'tensor', 'dtype': ms.dtype.from_numpy(v.dtype).name,
                'requires_grad': True, 'crc32': durable.crc32(v)} for k, v in tensors.items()]
    for r in records:
        r.update(change)
    return json.dumps(records)


@pytest.mark.parametrize('metadata, match', [
    ({'format': 'other', 'entries': '[]'},
     r"has corrupted metadata \(it lists hookgrad checkpoint entries but its 'format' is "
     r"'other', not 'hookgrad\.checkpoint'\)"),
    ({'format': 'hookgrad.checkpoint', 'version': '3', 'entries': '[]'},
     r"has checkpoint format version '3'; this hookgrad reads versions '1', '2'"),
    ({'format': 'hookgrad.checkpoint', 'version': '1', 'entries': '[{"name": '},
     r"has corrupted metadata \(its entry list is not valid JSON: "),
    ({'format': 'hookgrad.checkpoint', 'version': '1', 'entries': '{"w": 1}'},
     r"has corrupted metadata \(malformed entry list\)"),
    ({'format': 'hookgrad.checkpoint', 'version': '1', 'entries': '[{"name": "w"}]'},
     r"has corrupted metadata \(malformed entry list\)"),
    ({'format': 'hookgrad.checkpoint', 'version': '1',
      'entries': '[{"name": "t", "kind": "str", "value": ""}, '
                 '{"name": "t", "kind": "str", "value": ""}]'},
     r"has corrupted metadata \(an entry name appears twice\)"),
    ({'format': 'hookgrad.checkpoint', 'version': '1', 'entries': '[]'},
     r"has metadata listing tensors \[\] but holds \['w'\]"),
    ('dtype', r"entry 'w' is stored as float32 but its metadata says 'Int64'"),
    ('unknown dtype', r"entry 'w' is stored as float32 but its metadata says 'Complex'"),
    ('crc', r"entry 'w' is corrupted \(its data does not match the saved CRC32\)"),
])
def test_metadata_that_does_not_match_is_rejected(st, tmp_path, metadata, match):
    tensors = {'w': np.arange(3, dtype=np.float32)}
    base = {'format': 'hookgrad.checkpoint', 'version': '1'}
    if metadata == 'dtype':
        metadata = dict(base, entries=entries_for(tensors, dtype='Int64'))
    elif metadata == 'unknown dtype':
        metadata = dict(base, entries=entries_for(tensors, dtype='Complex'))
    elif metadata == 'crc':
        metadata = dict(base, entries=entries_for(tensors, crc32=12345))
    path = tmp_path / 'm.ckpt'
    write_safetensors(st, path, tensors, metadata)
    with pytest.raises(ValueError, match=r"load_checkpoint: '.*m\.ckpt' " + match):
        ms.load_checkpoint(path)


def test_handmade_file_with_valid_metadata_loads(st, tmp_path):
    tensors = {'w': np.arange(3, dtype=np.int16)}
    path = tmp_path / 'm.ckpt'
    write_safetensors(st, path, tensors, {'format': 'hookgrad.checkpoint', 'version': '1',
                                          'entries': entries_for(tensors)})
    got = ms.load_checkpoint(path)['w']
    assert got.dtype == ms.int16 and got.tolist() == [0, 1, 2]


def test_missing_file_and_directory(st, tmp_path):
    with pytest.raises(FileNotFoundError, match=r"load_checkpoint: the checkpoint file "
                                                r"'.*nope\.ckpt' does not exist"):
        ms.load_checkpoint(tmp_path / 'nope.ckpt')
    (tmp_path / 'dir.ckpt').mkdir()
    with pytest.raises(ValueError, match=r"load_checkpoint: '.*dir\.ckpt' is not a regular "
                                         r"file"):
        ms.load_checkpoint(tmp_path / 'dir.ckpt')


# ----------------------------------------------------------------- a missing dependency
def test_missing_safetensors_names_the_install_command(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, 'safetensors', None)
    monkeypatch.setitem(sys.modules, 'safetensors.numpy', None)
    msg = (r"hookgrad checkpoints need the 'safetensors' package, a dependency of hookgrad that "
           r"is missing here; install it with: pip install safetensors$")
    with pytest.raises(ImportError, match=msg) as info:
        ms.save_checkpoint(nn.Dense(1, 1), tmp_path / 'a.ckpt', format='safetensors')
    assert isinstance(info.value.__cause__, ImportError)
    assert os.listdir(tmp_path) == []
    (tmp_path / 'b.ckpt').write_bytes((2).to_bytes(8, 'little') + b'{}')
    with pytest.raises(ImportError, match=msg):
        ms.load_checkpoint(tmp_path / 'b.ckpt')
    ms.save_checkpoint(nn.Dense(1, 1), tmp_path / 'c.ckpt')      # protobuf needs no safetensors
    assert list(ms.load_checkpoint(tmp_path / 'c.ckpt')) == ['weight', 'bias']


def test_missing_protobuf_names_the_install_command(tmp_path, monkeypatch):
    protobuf_ckpt.schema.cache_clear()
    monkeypatch.setitem(sys.modules, 'google.protobuf', None)
    msg = (r"MindSpore \.ckpt files need the 'protobuf' package, a dependency of hookgrad that "
           r"is missing here; install it with: pip install protobuf$")
    try:
        with pytest.raises(ImportError, match=msg):
            ms.save_checkpoint(nn.Dense(1, 1), tmp_path / 'a.ckpt')
        assert os.listdir(tmp_path) == []
        (tmp_path / 'b.ckpt').write_bytes(b'\n\x00')
        with pytest.raises(ImportError, match=msg):
            ms.load_checkpoint(tmp_path / 'b.ckpt')
    finally:
        protobuf_ckpt.schema.cache_clear()


# ----------------------------------------------------------------- argument errors
def test_encryption_is_refused_before_writing(tmp_path):
    with pytest.raises(ValueError, match=r"save_checkpoint: encryption is not supported "
                                         r"\(enc_key must be None\)"):
        ms.save_checkpoint(nn.Dense(1, 1), tmp_path / 'a.ckpt', enc_key=b'0' * 16)
    assert os.listdir(tmp_path) == []
    (tmp_path / 'b.ckpt').write_bytes(b'x')
    with pytest.raises(ValueError, match=r"load_checkpoint: decryption is not supported "
                                         r"\(dec_key must be None\)"):
        ms.load_checkpoint(tmp_path / 'b.ckpt', dec_key=b'0' * 16)


@pytest.mark.parametrize('save_obj, kwargs, error, match', [
    (3, {}, TypeError, r"save_checkpoint: save_obj must be a Cell, a list of Parameters or "
                       r"of \{'name': \.\.\., 'data': \.\.\.\} dicts, or a dict, got int"),
    ([P([1.0], 'a'), 'b'], {}, TypeError,
     r"save_checkpoint: save_obj\[1\] must be a Parameter or a \{'name': \.\.\., 'data': "
     r"\.\.\.\} dict, got str"),
    ([nameless()], {}, TypeError,
     r"save_checkpoint: save_obj\[0\] is a Parameter without a name"),
    ([{'name': 'a'}], {}, TypeError,
     r"save_obj\[0\] must have the keys 'name' and 'data', got \['name'\]"),
    ([{'name': 1, 'data': P([1.0])}], {}, TypeError,
     r"save_obj\[0\]\['name'\] must be a str, got int"),
    ([{'name': 'a', 'data': [1.0]}], {}, TypeError,
     r"save_obj\[0\]\['data'\] must be a Parameter, Tensor or str, got list"),
    ({1: P([1.0])}, {}, TypeError, "the keys of a dict save_obj must be str, got int"),
    ({'a': np.ones(2)}, {}, TypeError,
     r"save_obj\['a'\] must be a Parameter, Tensor or str, got ndarray"),
    ([P([1.0], 'a'), P([2.0], 'a')], {}, ValueError,
     "two different entries are named 'a'; names must be unique"),
    ({'__metadata__': P([1.0])}, {}, ValueError,
     "the name '__metadata__' is reserved by the file format"),
    ([], dict(integrated_save=1), TypeError, "save_checkpoint: integrated_save must be a bool"),
    ([], dict(async_save=1), TypeError,
     "save_checkpoint: async_save must be a bool or str, got int"),
    ([], dict(async_save='no'), ValueError,
     "save_checkpoint: async_save can only be 'process' or 'thread', got 'no'"),
    ([], dict(crc_check=1), TypeError, "save_checkpoint: crc_check must be a bool"),
    ([], dict(format='h5'), ValueError,
     "save_checkpoint: format must be 'ckpt' or 'safetensors', got 'h5'"),
    ([], dict(enc_mode=None), TypeError, "save_checkpoint: enc_mode must be a str, got NoneType"),
    ([], dict(choice_func='head'), TypeError,
     "save_checkpoint: choice_func must be callable or None, got str"),
    ([], dict(fmt='ckpt'), TypeError,
     r"save_checkpoint: unexpected keyword argument 'fmt' \(accepted: incremental, "
     r"global_step_num, remove_redundancy\)"),
    ([], dict(global_step_num=1.5), TypeError,
     "save_checkpoint: global_step_num must be an int or None, got float"),
    ([], dict(remove_redundancy='no'), TypeError,
     "save_checkpoint: remove_redundancy must be a bool"),
    ([], dict(format='safetensors', incremental=True), ValueError,
     "save_checkpoint: with format='safetensors', incremental must be False, got True"),
    ([], dict(format='safetensors', global_step_num=3), ValueError,
     "save_checkpoint: with format='safetensors', global_step_num must be None, got 3"),
    ([P([1.0], 'a')], dict(format='safetensors', append_dict={'note': 'x'}), ValueError,
     r"save_checkpoint: format='safetensors' cannot hold str entries \('note'\); use "
     r"format='ckpt'"),
    ([], dict(incremental=None), TypeError, "save_checkpoint: incremental must be a bool"),
    ([], dict(append_dict=[1]), TypeError,
     "save_checkpoint: append_dict must be a dict or None, got list"),
    ([], dict(append_dict={1: 1}), TypeError, "the keys of append_dict must be str, got int"),
    ([], dict(append_dict={'a': [1]}), TypeError,
     r"append_dict\['a'\] must be an int, float, bool, str or Tensor, got list"),
    ([P([1.0], 'a')], dict(append_dict={'a': 1}), ValueError,
     "append_dict key 'a' is also the name of a saved parameter"),
])
def test_save_argument_errors_write_nothing(tmp_path, save_obj, kwargs, error, match):
    with pytest.raises(error, match=match):
        ms.save_checkpoint(save_obj, tmp_path / 'a.ckpt', **kwargs)
    assert os.listdir(tmp_path) == []


def test_save_path_errors(tmp_path):
    with pytest.raises(TypeError, match="save_checkpoint: ckpt_file_name must be a str or "
                                        "path-like, got int"):
        ms.save_checkpoint([], 5)
    with pytest.raises(TypeError, match="ckpt_file_name must be a str or path-like, got bytes"):
        ms.save_checkpoint([], b'a.ckpt')
    with pytest.raises(FileNotFoundError, match=r"save_checkpoint: the directory '.*missing' "
                                                r"of '.*a\.ckpt' does not exist"):
        ms.save_checkpoint([], tmp_path / 'missing' / 'a.ckpt')
    (tmp_path / 'd.ckpt').mkdir()
    with pytest.raises(IsADirectoryError, match=r"save_checkpoint: '.*d\.ckpt' is a directory, "
                                                r"expected a file name"):
        ms.save_checkpoint([], tmp_path / 'd')


@pytest.mark.parametrize('kwargs, error, match', [
    (dict(net='net'), TypeError, "load_checkpoint: net must be a Cell or None, got str"),
    (dict(strict_load='yes'), TypeError, "load_checkpoint: strict_load must be a bool"),
    (dict(filter_prefix=3), TypeError,
     r"load_checkpoint: filter_prefix must be a str, a list/tuple of str or None, got int"),
    (dict(specify_prefix=[]), ValueError, "load_checkpoint: specify_prefix must not be empty"),
    (dict(filter_prefix=['a', '']), ValueError,
     "load_checkpoint: filter_prefix must not contain an empty str"),
    (dict(specify_prefix=('a', 2)), TypeError,
     r"load_checkpoint: specify_prefix\[1\] must be a str, got int"),
    (dict(dec_mode=1), TypeError, "load_checkpoint: dec_mode must be a str, got int"),
    (dict(choice_func=1), TypeError, "load_checkpoint: choice_func must be callable or None"),
    (dict(crc_check=None), TypeError, "load_checkpoint: crc_check must be a bool"),
    (dict(remove_redundancy=0), TypeError, "load_checkpoint: remove_redundancy must be a bool"),
    (dict(format='pt'), ValueError,
     "load_checkpoint: format must be 'ckpt' or 'safetensors', got 'pt'"),
])
def test_load_argument_errors(tmp_path, kwargs, error, match):
    (tmp_path / 'a.ckpt').write_bytes(b'x')
    with pytest.raises(error, match=match):
        ms.load_checkpoint(tmp_path / 'a.ckpt', **kwargs)


def test_load_path_type_error():
    with pytest.raises(TypeError, match="load_checkpoint: ckpt_file_name must be a str or "
                                        "path-like, got NoneType"):
        ms.load_checkpoint(None)
