"""``DatasetCache`` (MindSpore's ``mindspore.dataset.DatasetCache``), in-process.

MindSpore's cache is a client of a separate cache server (``dataset-cache --start``) shared by
processes. hookgrad's pipeline runs in one process, so a ``DatasetCache`` is an in-memory store
of rows owned by that process: a source or ``map`` given ``cache=`` keeps the rows it produces in
the first epoch, and later epochs read them from memory instead of reading files or running the
operations again (random operations under a cached ``map`` therefore repeat their first-epoch
values, as with MindSpore's cache). ``size`` (MiB, 0 for no limit) caps the memory; rows beyond
it are produced again each epoch. ``spilling``, ``hostname``, ``port``, ``num_connections`` and
``prefetch_size`` are checked as MindSpore does and otherwise unused.
"""
import collections
import numbers
import threading
import weakref

__all__ = ['DatasetCache', 'CacheStat']

CacheStat = collections.namedtuple('CacheStat', ['avg_cache_sz', 'num_mem_cached',
                                                 'num_disk_cached'])
_UINT32_MAX = 4294967295
_INT32_MAX = 2147483647


def _int_in(value, low, high, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], "
                        f"but got {type(value)}.")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[{low}, {high}].")


class DatasetCache:
    """An in-process cache of dataset rows (see the module docstring).

    Args:
        session_id: an int in [0, 4294967295] naming the cache (MindSpore's session).
        size: MiB of rows to keep; 0 (default) for no limit.
        spilling, hostname, port, num_connections, prefetch_size: MindSpore's server options,
            checked and kept.
    """

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None,
                 num_connections=None, prefetch_size=None):
        _int_in(session_id, 0, _UINT32_MAX, 'session_id')
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"Argument size with value {size} is not of type [<class 'int'>], "
                            f"but got {type(size)}.")
        if size != 0:
            _int_in(size, 1, 2 ** 64 - 1, 'size')
        if not isinstance(spilling, bool):
            raise TypeError(f"Argument spilling with value {spilling} is not of type "
                            f"[<class 'bool'>], but got {type(spilling)}.")
        if hostname is not None and not isinstance(hostname, str):
            raise TypeError(f"Argument hostname with value {hostname} is not of type "
                            f"[<class 'str'>], but got {type(hostname)}.")
        if port is not None:
            _int_in(port, 1025, 65535, 'port')
        for name, value in (('num_connections', num_connections),
                            ('prefetch_size', prefetch_size)):
            if value is not None:
                _int_in(value, 1, _INT32_MAX, name)
        self.session_id, self.size, self.spilling = session_id, size, spilling
        self.hostname, self.port = hostname, port
        self.num_connections, self.prefetch_size = num_connections, prefetch_size
        self._store = weakref.WeakKeyDictionary()     # owner -> {key: row}
        self._epochs = weakref.WeakKeyDictionary()    # owner -> a whole epoch's rows
        self._bytes = 0
        self._lock = threading.Lock()

    def _fits(self, row):
        nbytes = sum(getattr(a, 'nbytes', 0) for a in row)
        if self.size and self._bytes + nbytes > self.size * 2 ** 20:
            return False
        self._bytes += nbytes
        return True

    def row(self, owner, key, make):
        """Row ``key`` of ``owner`` (a random-access source), made by ``make()`` once."""
        with self._lock:
            found = self._store.setdefault(owner, {}).get(key)
        if found is not None:
            return found
        row = make()
        with self._lock:
            if key not in self._store[owner] and self._fits(row):
                self._store[owner][key] = row
        return row

    def rows(self, owner, make):
        """One epoch of ``owner``'s rows: from memory once a whole epoch of ``make()`` (a
        generator function) has been kept, else from ``make()`` (kept as it goes)."""
        kept = self._epochs.get(owner)
        if kept is not None:
            yield from kept
            return
        gathered, complete = [], True
        for row in make():
            if complete:
                with self._lock:
                    complete = self._fits(row)
                if complete:
                    gathered.append(row)
            yield row
        if complete:
            with self._lock:
                self._epochs[owner] = gathered

    def get_stat(self):
        """``CacheStat(avg_cache_sz, num_mem_cached, num_disk_cached)``: the mean bytes of a
        cached row, the rows in memory and (always 0 here) on disk."""
        with self._lock:
            count = sum(len(rows) for rows in self._store.values()) + \
                sum(len(rows) for rows in self._epochs.values())
        return CacheStat(self._bytes // count if count else 0, count, 0)


def check_cache(cache, who):
    """``cache`` as None or a ``DatasetCache``."""
    if cache is not None and not isinstance(cache, DatasetCache):
        raise ValueError(f"{who}: cache is not supported as {type(cache).__name__}: give a "
                         f"DatasetCache (hookgrad's in-process cache) or None")
    return cache
