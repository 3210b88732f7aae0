"""Saves killed mid-write leave temporary files that the next save removes; every bit of a
.ckpt saved with crc_check, and of an older hookgrad checkpoint's header, is covered by a
check, so a flipped bit never loads silently."""
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.checkpoint import durable as checkpoint_file

from .nets import assert_same, fresh_outer, save_hookgrad_file, values

# A child that starts a save, writes half the file, says so, then hangs until killed.
_SLOW_SAVE = textwrap.dedent("""
    import sys, time
    import numpy as np
    import hookgrad as ms
    from hookgrad.checkpoint import durable as checkpoint_file

    def half_then_hang(f, payload):
        f.write(payload[:len(payload) // 2])
        f.flush()
        print('writing', flush=True)
        time.sleep(60)

    checkpoint_file.write_payload = half_then_hang
    ms.save_checkpoint([ms.Parameter(ms.Tensor(np.ones(50000, np.float32)), name='w')],
                       sys.argv[1])
""")


def temps(directory):
    return sorted(n for n in os.listdir(directory) if n != 'net.ckpt')


@pytest.mark.skipif(not hasattr(signal, 'SIGKILL'), reason='needs SIGKILL')
def test_saves_killed_mid_write_leave_temps_that_the_next_save_removes(st, tmp_path):
    path = tmp_path / 'net.ckpt'
    old = fresh_outer(30)
    ms.save_checkpoint(old, path)
    original = path.read_bytes()
    children = [subprocess.Popen([sys.executable, '-c', _SLOW_SAVE, str(path)],
                                 stdout=subprocess.PIPE, text=True) for _ in range(3)]
    try:
        for child in children:
            assert child.stdout.readline() == 'writing\n'
    finally:
        for child in children:
            child.send_signal(signal.SIGKILL)
            child.wait()            # reaped: its pid no longer names a live process
            child.stdout.close()
    left = temps(tmp_path)
    assert len(left) == 3 and all(n.endswith('.tmp-hookgrad') for n in left)
    assert {int(n.split('.')[3]) for n in left} == {c.pid for c in children}
    assert all(os.path.getsize(tmp_path / n) > 0 for n in left)
    assert path.read_bytes() == original                    # the killed saves changed nothing
    new = fresh_outer(31)
    ms.save_checkpoint(new, path)
    assert temps(tmp_path) == []
    assert_same({k: v.asnumpy() for k, v in ms.load_checkpoint(path).items()}, values(new))


def test_stale_temp_cleanup_keeps_live_writers_and_other_files(st, tmp_path):
    dead = subprocess.Popen([sys.executable, '-c', 'pass'])
    dead.wait()
    base = tmp_path / 'net.ckpt'
    names = {
        'dead': f'.net.ckpt.{dead.pid}.0a1b2c3d.tmp-hookgrad',
        'self': f'.net.ckpt.{os.getpid()}.0a1b2c3d.tmp-hookgrad',     # another thread's
        'parent': f'.net.ckpt.{os.getppid()}.0a1b2c3d.tmp-hookgrad',
        'other checkpoint': f'.other.ckpt.{dead.pid}.0a1b2c3d.tmp-hookgrad',
        'not a pid': '.net.ckpt.abc.0a1b2c3d.tmp-hookgrad',
        'user file': 'net.ckpt.bak',
    }
    for name in names.values():
        (tmp_path / name).write_bytes(b'x')
    assert checkpoint_file.remove_stale_temps(str(base)) == [names['dead']]
    ms.save_checkpoint(fresh_outer(32), base)
    assert sorted(os.listdir(tmp_path)) == sorted(
        [n for k, n in names.items() if k != 'dead'] + ['net.ckpt'])
    assert checkpoint_file.pid_alive(os.getpid()) and not checkpoint_file.pid_alive(dead.pid)


def test_save_and_failed_save_leave_no_temp(st, tmp_path, monkeypatch):
    path = tmp_path / 'net.ckpt'
    for seed in (33, 34):
        ms.save_checkpoint(fresh_outer(seed), path)
        assert os.listdir(tmp_path) == ['net.ckpt']

    def fail(f, payload):
        f.write(payload[:10])
        raise KeyboardInterrupt

    monkeypatch.setattr(checkpoint_file, 'write_payload', fail)
    with pytest.raises(KeyboardInterrupt):
        ms.save_checkpoint(fresh_outer(35), path)
    assert os.listdir(tmp_path) == ['net.ckpt']


# ----------------------------------------------------------------- bit flips
def small_entries():
    w = ms.Parameter(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name='fc.w')
    b = ms.Parameter(ms.Tensor(np.array([1, 2], np.int16)), name='fc.b', requires_grad=False)
    return [w, b], {'tag': 'run-7', 'epoch': 3}


def small_checkpoint(path):
    """An older hookgrad checkpoint (its header has a CRC32 of its own)."""
    params, append_dict = small_entries()
    return save_hookgrad_file(params, path, append_dict)


def test_every_bit_flip_in_a_ckpt_with_crc_check_is_detected(tmp_path):
    path = tmp_path / 'm.ckpt'
    params, append_dict = small_entries()
    ms.save_checkpoint(params, path, append_dict=append_dict, crc_check=True)
    data = path.read_bytes()
    assert data[-17:-10] == b'crc_num'
    flipped = bytearray(data)
    reasons = {}
    for pos in range(len(data)):
        for bit in range(8):
            flipped[pos] ^= 1 << bit
            path.write_bytes(flipped)
            with pytest.raises(ValueError, match=f"load_checkpoint: '{path}' ") as info:
                ms.load_checkpoint(path)
            reason = str(info.value).split("' ", 1)[1][:30]
            reasons[reason] = reasons.get(reason, 0) + 1
            flipped[pos] ^= 1 << bit
    # flips in the content and in the CRC itself fail the CRC; the others break the mark,
    # which leaves bytes protobuf cannot parse
    assert reasons['is corrupted: its content does'] == 8 * (len(data) - 7)
    assert sum(reasons.values()) == 8 * len(data)


def test_every_bit_flip_in_the_header_is_detected(st, tmp_path):
    path = tmp_path / 'm.ckpt'
    data = small_checkpoint(path)
    header_end = 8 + int.from_bytes(data[:8], 'little')
    meta = data.index(b'"__metadata__"')
    tag = data.index(b'run-7')
    assert meta < tag < header_end
    flipped = bytearray(data)
    detected, reasons = 0, {}
    for pos in range(header_end):
        for bit in range(8):
            flipped[pos] ^= 1 << bit
            path.write_bytes(flipped)
            try:
                ms.load_checkpoint(path)
            except ValueError as e:
                detected += 1
                msg = str(e)
                assert msg.startswith(f"load_checkpoint: '{path}' "), msg
                reason = msg.split("' ", 1)[1].split(' (')[0].split(':')[0]
                reasons[reason] = reasons.get(reason, 0) + 1
            flipped[pos] ^= 1 << bit
    assert detected == 8 * header_end, (detected, 8 * header_end)
    # a flip in an append_dict string, a name, a dtype or a shape fails the metadata CRC32
    assert reasons['has corrupted metadata'] > 8 * len(b'run-7')


@pytest.mark.parametrize('old, new, match', [
    (b'run-7', b'run-6', r"has corrupted metadata \(its entry names, dtypes, shapes or "
                         r"append_dict values do not match the metadata CRC32\)"),
    (b'fc.w\\"', b'fc.v\\"', r"has corrupted metadata \(its entry names"),
    (b'[2, 3]', b'[3, 2]', r"has corrupted metadata \(its entry names"),
])
def test_metadata_edits_fail_the_checksum(st, tmp_path, old, new, match):
    path = tmp_path / 'm.ckpt'
    data = small_checkpoint(path)
    assert data.count(old) == 1
    path.write_bytes(data.replace(old, new))
    with pytest.raises(ValueError, match=r"load_checkpoint: '.*m\.ckpt' " + match):
        ms.load_checkpoint(path)


def test_swapped_tensor_shape_is_detected(st, tmp_path):
    # the tensor's own header record (outside the metadata) changed to another shape of
    # the same size: the shape saved in the checksummed metadata disagrees
    path = tmp_path / 'm.ckpt'
    data = small_checkpoint(path)
    old = b'"shape":[2,3]'
    assert data.count(old) == 1
    path.write_bytes(data.replace(old, b'"shape":[3,2]'))
    with pytest.raises(ValueError, match=r"entry 'fc\.w' is stored with shape \(3, 2\) but its "
                                         r"metadata says \(2, 3\)"):
        ms.load_checkpoint(path)
