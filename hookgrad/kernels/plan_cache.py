"""Choices measured once per machine and kept on disk: which convolution algorithm runs for a
layer shape, which matrix-product library is fastest here.

A ``PlanCache`` maps keys (tuples of ints and strings) to JSON values. It reads its file on
first use and writes it again, atomically, after each new entry, merged with what other
processes wrote meanwhile. The file's name carries a fingerprint of this machine and this
code: the CPU model, the cores this process may use, NumPy's version and the contents of the
kernel files the choices depend on, so a choice measured elsewhere, or for other code, is never
read. Where the directory cannot be written the choices are kept in memory for this process
(``info()['error']`` says why).

The directory is ``HOOKGRAD_CACHE_DIR``, else ``$XDG_CACHE_HOME/hookgrad``, else
``~/.cache/hookgrad``. Removing its files makes everything be measured again.
"""
import hashlib
import json
import os
import platform
import tempfile
import threading

import numpy as np

__all__ = ['PlanCache', 'cache_dir', 'machine_fingerprint']


def cache_dir(environ=None):
    """The directory the plan files live in (not created here)."""
    environ = os.environ if environ is None else environ
    if environ.get('HOOKGRAD_CACHE_DIR'):
        return environ['HOOKGRAD_CACHE_DIR']
    base = environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'hookgrad')


def _cpu_model(path='/proc/cpuinfo'):
    try:
        with open(path, encoding='ascii', errors='replace') as f:
            for line in f:
                if line.startswith('model name'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _usable_cores():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def machine_fingerprint(sources=()):
    """A short hash of this machine (CPU model, usable cores), NumPy's version and the bytes
    of the files in ``sources``."""
    h = hashlib.sha256()
    for part in (platform.machine(), _cpu_model(), str(_usable_cores()), np.__version__):
        h.update(part.encode() + b'\0')
    for path in sources:
        try:
            with open(path, 'rb') as f:
                h.update(f.read())
        except OSError:
            h.update(b'?' + path.encode())
    return h.hexdigest()[:16]


def _encode(key):
    return json.dumps(list(key), separators=(',', ':'))


class PlanCache:
    """A dict of measured choices for ``name``, kept in ``<cache_dir>/<name>-<fingerprint>.json``.

    ``sources`` are the files whose contents the choices depend on (the kernels measured):
    editing them starts a new file. Thread-safe; ``get`` costs a dict lookup once loaded.
    """

    def __init__(self, name, sources=()):
        self.name = name
        self.sources = tuple(sources)
        self._entries = None
        self._path = None
        self._error = None
        self._lock = threading.Lock()

    @property
    def path(self):
        """The file this cache reads and writes."""
        if self._path is None:
            self._path = os.path.join(
                cache_dir(), f"{self.name}-{machine_fingerprint(self.sources)}.json")
        return self._path

    def _load(self):
        entries = {}
        try:
            with open(self.path, encoding='utf-8') as f:
                data = json.load(f)
            if isinstance(data, dict):
                entries = data
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as exc:        # unreadable or corrupt: measure again
            self._error = f"could not read {self.path}: {exc}"
        return entries

    def get(self, key, default=None):
        """The choice stored for ``key``, or ``default``."""
        entries = self._entries
        if entries is None:
            with self._lock:
                if self._entries is None:
                    self._entries = self._load()
                entries = self._entries
        return entries.get(_encode(key), default)

    def put(self, key, value):
        """Store ``value`` (JSON-serialisable) for ``key`` and write the file."""
        self.get(key)
        with self._lock:
            self._entries[_encode(key)] = value
            self._write()

    def _write(self):
        path = self.path
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            merged = self._load()
            merged.update(self._entries)
            self._entries = merged
            fd, tmp = tempfile.mkstemp(prefix='.' + self.name, dir=os.path.dirname(path))
            try:
                with os.fdopen(fd, 'w', encoding='utf-8') as f:
                    json.dump(merged, f, indent=0, sort_keys=True)
                os.replace(tmp, path)
            except BaseException:
                os.unlink(tmp)
                raise
            self._error = None
        except OSError as exc:
            self._error = f"could not write {path}: {exc}; choices are kept in memory"

    def clear(self):
        """Forget every choice, in memory and on disk."""
        with self._lock:
            self._entries = {}
            try:
                os.unlink(self.path)
            except OSError:
                pass

    def __len__(self):
        self.get(())
        return len(self._entries)

    def info(self):
        """``{'path', 'entries', 'error'}`` for ``hookgrad.blas_info()`` and the docs."""
        return {'path': self.path, 'entries': len(self), 'error': self._error}
