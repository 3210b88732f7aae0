"""``mint.distributed.TCPStore``: a key-value store that processes share over TCP.

The master store (``is_master=True``) runs the server in a background thread of its process
and is itself a client of it; other stores connect to ``host_name:port``. Values are bytes
(``set`` encodes a str as UTF-8); ``add`` keeps a counter as its decimal digits, so ``get``
of a counter gives ``b'5'``. ``get`` of a missing key waits for another process to set it,
up to the store's timeout.

Messages, both ways: one byte (the request's kind, or the reply's status), then length-prefixed
fields (a 4-byte big-endian length and the bytes).
"""
import datetime
import socket
import socketserver
import struct
import threading
import time
import weakref

__all__ = ['TCPStore']

_SET, _GET, _ADD, _DELETE, _HELLO = b'S', b'G', b'A', b'D', b'H'
_OK, _MISSING, _BAD = b'0', b'1', b'2'


def _send(sock, kind, *fields):
    sock.sendall(kind + b''.join(struct.pack('>I', len(f)) + f for f in fields))


def _exactly(sock, n):
    data = b''
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("TCPStore: the connection closed")
        data += chunk
    return data


def _receive(sock, n_fields):
    kind = _exactly(sock, 1)
    fields = []
    for _ in range(n_fields):
        (size,) = struct.unpack('>I', _exactly(sock, 4))
        fields.append(_exactly(sock, size))
    return kind, fields


class _State:
    """The master's table, its lock, and how many workers said hello."""

    def __init__(self):
        self.data = {}
        self.changed = threading.Condition()
        self.workers = 0


class _Handler(socketserver.BaseRequestHandler):
    def handle(self):
        state = self.server.state
        sock = self.request
        while True:
            try:
                kind, (key, value) = _receive(sock, 2)
            except (ConnectionError, OSError):
                return
            with state.changed:
                reply = self._serve(state, kind, key.decode(), value)
            _send(sock, *reply)

    @staticmethod
    def _serve(state, kind, key, value):
        data = state.changed
        if kind == _SET:
            state.data[key] = value
            data.notify_all()
            return _OK, b''
        if kind == _GET:
            deadline = time.monotonic() + float(value.decode())
            while key not in state.data:
                left = deadline - time.monotonic()
                if left <= 0:
                    return _MISSING, b''
                data.wait(left)
            return _OK, state.data[key]
        if kind == _ADD:
            old = state.data.get(key, b'0')
            try:
                total = int(old.decode()) + int(value.decode())
            except (UnicodeDecodeError, ValueError):
                return _BAD, old
            state.data[key] = str(total).encode()
            data.notify_all()
            return _OK, state.data[key]
        if kind == _DELETE:
            return _OK, b'1' if state.data.pop(key, None) is not None else b'0'
        state.workers += 1              # _HELLO
        data.notify_all()
        return _OK, b''


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def _check(api, name, value, kind, what):
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"For '{api}', the argument '{name}' must be type of {what}, but got "
                        f"'{name}' type : {type(value)}.")


class TCPStore:
    """A TCP key-value store, as MindSpore's ``mint.distributed.TCPStore``.

    Args:
        host_name: the IP address the master listens on and the others connect to.
        port: its port (0-65535).
        world_size: the number of stores (the master and its clients); None for any.
        is_master: True for the store that runs the server (one per ``host_name:port``).
        timeout: a ``datetime.timedelta``: how long a store waits to connect, the master for
            its workers, and ``get`` for a key. Default 300 s.
        wait_for_workers: the master waits until ``world_size - 1`` clients have connected.
        multi_tenant, master_listen_fd, use_libuv: accepted and ignored, as by MindSpore.

    Raises:
        TypeError / ValueError: for arguments of the wrong type or range (MindSpore's
            messages).
        RuntimeError: when the server cannot start, a client cannot connect, or the workers
            do not come within ``timeout``.
    """

    def __init__(self, host_name, port, world_size=None, is_master=False,
                 timeout=datetime.timedelta(seconds=300), wait_for_workers=True,
                 multi_tenant=False, master_listen_fd=None, use_libuv=True):
        _check('TCPStore', 'host_name', host_name, str, 'string')
        _check('TCPStore', 'port', port, int, 'int')
        _check('TCPStore', 'is_master', is_master, bool, 'bool')
        _check('TCPStore', 'timeout', timeout, datetime.timedelta, 'timedelta')
        _check('TCPStore', 'wait_for_workers', wait_for_workers, bool, 'bool')
        world_size = 1 if world_size is None else world_size
        _check('TCPStore', 'world_size', world_size, int, 'int')
        if port < 0 or port > 65535:
            raise ValueError(f"For 'TCPStore', the argument 'port' must be legal, but got {port}.")
        if world_size <= 0:
            raise ValueError(f"For 'TCPStore', the argument 'world_size' must be legal, but got "
                             f"{world_size}.")
        self.host = host_name
        self.port = port
        self._timeout = timeout.total_seconds()
        self._lock = threading.Lock()
        self._server = None
        if is_master:
            try:
                self._server = _Server((host_name, port), _Handler)
            except OSError as e:
                raise RuntimeError(f"TCPStore: cannot listen on {host_name}:{port}: {e}") \
                    from None
            self._server.state = _State()
            threading.Thread(target=self._server.serve_forever, daemon=True,
                             name='hookgrad-tcpstore').start()
            weakref.finalize(self, _stop, self._server)
        self._sock = self._connect()
        if is_master:
            self._await_workers(world_size - 1 if wait_for_workers else 0)
        else:
            self._request(_HELLO, '', b'')

    def _connect(self):
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                return socket.create_connection((self.host, self.port), timeout=None)
            except OSError as e:
                if time.monotonic() >= deadline:
                    raise RuntimeError(f"TCPStore: cannot connect to {self.host}:{self.port} "
                                       f"within {self._timeout:g} s: {e}") from None
                time.sleep(0.05)

    def _await_workers(self, n):
        state = self._server.state
        deadline = time.monotonic() + self._timeout
        with state.changed:
            while state.workers < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"TCPStore: {state.workers} of {n} workers connected to "
                                       f"{self.host}:{self.port} within {self._timeout:g} s")
                state.changed.wait(left)

    def _request(self, kind, key, value):
        with self._lock:
            _send(self._sock, kind, key.encode(), value)
            status, (payload,) = _receive(self._sock, 1)
        return status, payload

    def set(self, key, value):
        """Store ``value`` (str or bytes) under ``key``, replacing what was there."""
        _check('TCPStore.set', 'key', key, str, 'string')
        _check('TCPStore.set', 'value', value, (str, bytes), 'string or bytes')
        self._request(_SET, key, value.encode() if isinstance(value, str) else value)

    def get(self, key):
        """The bytes stored under ``key``, waiting for another store to set it up to the
        timeout (RuntimeError then)."""
        _check('TCPStore.get', 'key', key, str, 'string')
        status, value = self._request(_GET, key, repr(self._timeout).encode())
        if status == _MISSING:
            raise RuntimeError(f"TCPStore.get: key {key!r} was not set within "
                               f"{self._timeout:g} s")
        return value

    def add(self, key, amount):
        """Add ``amount`` to the counter ``key`` (created at 0) and return its new value."""
        _check('TCPStore.add', 'key', key, str, 'string')
        _check('TCPStore.add', 'amount', amount, int, 'string or int')
        status, value = self._request(_ADD, key, str(amount).encode())
        if status == _BAD:
            raise RuntimeError(f"TCPStore.add: the value of key {key!r} is not a number: "
                               f"{value[:40]!r}")
        return int(value.decode())

    def delete_key(self, key):
        """Remove ``key``; True if it was there."""
        _check('TCPStore.delete_key', 'key', key, str, 'string')
        return self._request(_DELETE, key, b'')[1] == b'1'


def _stop(server):
    server.shutdown()
    server.server_close()
