"""mint.distributed.TCPStore: a master and its clients (threads here, and a second process)
share keys, counters and deletions; get waits for a key; MindSpore's argument checks."""
import datetime
import socket
import subprocess
import sys
import threading
import time

import pytest

from hookgrad.mint.distributed import TCPStore

SHORT = datetime.timedelta(seconds=0.3)


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def test_keys_counters_and_deletion_are_shared_by_master_and_client():
    port = free_port()
    master = TCPStore('127.0.0.1', port, is_master=True)
    client = TCPStore('127.0.0.1', port)
    master.set('a', 'hello')
    assert client.get('a') == b'hello'
    client.set('a', b'\x00\xff')                     # bytes replace the old value
    assert master.get('a') == b'\x00\xff'
    assert master.add('n', 5) == 5 and client.add('n', -2) == 3
    assert master.get('n') == b'3'
    assert client.delete_key('a') is True and master.delete_key('a') is False
    master.set('b', 'x')
    with pytest.raises(RuntimeError, match="TCPStore.add: the value of key 'b' is not a number"):
        client.add('b', 1)


def test_get_waits_for_a_key_set_later_and_times_out_on_one_never_set():
    port = free_port()
    master = TCPStore('127.0.0.1', port, is_master=True)
    client = TCPStore('127.0.0.1', port, timeout=SHORT)
    threading.Timer(0.1, master.set, ('late', 'here')).start()
    assert client.get('late') == b'here'
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="TCPStore.get: key 'never' was not set within 0.3 s"):
        client.get('never')
    assert time.monotonic() - start >= 0.25


def test_the_master_waits_for_its_workers():
    port = free_port()
    with pytest.raises(RuntimeError, match='0 of 1 workers connected'):
        TCPStore('127.0.0.1', port, world_size=2, is_master=True, timeout=SHORT)
    port = free_port()
    later = threading.Timer(0.1, lambda: TCPStore('127.0.0.1', port).set('from', 'worker'))
    later.start()
    master = TCPStore('127.0.0.1', port, world_size=2, is_master=True)
    later.join()
    assert master.get('from') == b'worker'
    TCPStore('127.0.0.1', free_port(), world_size=3, is_master=True, wait_for_workers=False)


def test_a_client_in_another_process():
    port = free_port()
    master = TCPStore('127.0.0.1', port, is_master=True)
    code = (f"from hookgrad.mint.distributed import TCPStore\n"
            f"s = TCPStore('127.0.0.1', {port})\n"
            f"s.set('rank1', 'ready'); print(s.add('count', 2), s.get('from_master'))\n")
    master.set('from_master', 'hi')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert out.split() == ['2', "b'hi'"]
    assert master.get('rank1') == b'ready' and master.add('count', 0) == 2


def test_a_client_without_a_master_gives_up_after_the_timeout():
    with pytest.raises(RuntimeError, match=r"TCPStore: cannot connect to 127.0.0.1:\d+ within "
                                           r"0.3 s"):
        TCPStore('127.0.0.1', free_port(), timeout=SHORT)


@pytest.mark.parametrize('kwargs, exc, message', [
    ({'host_name': 1}, TypeError, "the argument 'host_name' must be type of string"),
    ({'port': '1'}, TypeError, "the argument 'port' must be type of int"),
    ({'port': 70000}, ValueError, "the argument 'port' must be legal, but got 70000"),
    ({'is_master': 1}, TypeError, "the argument 'is_master' must be type of bool"),
    ({'timeout': 3}, TypeError, "the argument 'timeout' must be type of timedelta"),
    ({'world_size': 0}, ValueError, "the argument 'world_size' must be legal, but got 0"),
    ({'world_size': 1.5}, TypeError, "the argument 'world_size' must be type of int"),
])
def test_argument_errors(kwargs, exc, message):
    args = dict(host_name='127.0.0.1', port=1) | kwargs
    with pytest.raises(exc, match=f"For 'TCPStore', {message}"):
        TCPStore(**args)


def test_method_argument_errors():
    port = free_port()
    store = TCPStore('127.0.0.1', port, is_master=True)
    with pytest.raises(TypeError, match="For 'TCPStore.set', the argument 'value' must be type "
                                        "of string or bytes"):
        store.set('k', 1)
    with pytest.raises(TypeError, match="For 'TCPStore.add', the argument 'amount'"):
        store.add('k', '1')
    for method in (store.get, store.delete_key):
        with pytest.raises(TypeError, match="the argument 'key' must be type of string"):
            method(1)
