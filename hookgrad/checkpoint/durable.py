"""Checkpoint files on disk: atomic writes, stale temporary files, and the checksums.

A save writes ``.NAME.<pid>.<token>.tmp-hookgrad`` beside ``NAME`` and renames it onto
``NAME``. A writer killed before the rename (SIGKILL, a power cut) leaves its temporary file;
the next save of ``NAME`` removes every such file whose writer process is no longer alive.
See docs/checkpoints.md.
"""
import os
import secrets
import zlib

import numpy as np

TMP_SUFFIX = '.tmp-hookgrad'


# ----------------------------------------------------------------- checksums
def crc32(arr):
    """CRC32 of the array's little-endian bytes (the same on every machine; bfloat16 by its
    16-bit values)."""
    if arr.dtype.kind == 'V' and arr.dtype.itemsize == 2:      # ml_dtypes' bfloat16
        arr = arr.view(np.uint16)
    le = arr.astype(arr.dtype.newbyteorder('<'), order='C', copy=False)
    return zlib.crc32(le.reshape(-1).view(np.uint8))


def metadata_crc32(fmt, version, entries):
    """CRC32 of a checkpoint's metadata strings: ``format``, ``version`` and the ``entries``
    JSON (names, dtypes, shapes, flags, the tensors' CRC32s and the append_dict strings)."""
    text = '\0'.join((fmt, version, entries))
    return zlib.crc32(text.encode('utf-8', 'surrogatepass'))


# ----------------------------------------------------------------- temporary files
def temp_name(path):
    """A new temporary file name for ``path``, in its directory, carrying this process id."""
    directory, base = os.path.split(path)
    return os.path.join(directory, f".{base}.{os.getpid()}.{secrets.token_hex(4)}{TMP_SUFFIX}")


def _writer_pid(entry, base):
    """The writer's pid if ``entry`` is a temporary file of ``base``, else None."""
    head = f".{base}."
    if not (entry.startswith(head) and entry.endswith(TMP_SUFFIX)):
        return None
    middle = entry[len(head):-len(TMP_SUFFIX)].split('.')
    if len(middle) != 2 or not middle[0].isdigit():
        return None
    return int(middle[0])


def remove_stale_temps(path):
    """Remove the temporary files of ``path`` whose writer process no longer runs.

    Files of live processes (this one included: another thread may be writing) are kept.
    Returns the names removed.
    """
    directory, base = os.path.split(path)
    try:
        entries = os.listdir(directory)
    except OSError:
        return []
    removed = []
    for entry in entries:
        pid = _writer_pid(entry, base)
        if pid is None or pid == os.getpid() or pid_alive(pid):
            continue
        try:
            os.remove(os.path.join(directory, entry))
            removed.append(entry)
        except OSError:         # removed by another save meanwhile, or not ours to remove
            pass
    return removed


def pid_alive(pid):
    """Whether process ``pid`` exists on this machine (a zombie counts as alive until its
    parent reaps it). When it cannot be told, True: a file is never removed on a guess."""
    if pid <= 0:
        return True
    if os.name == 'nt':
        return _pid_alive_windows(pid)
    try:
        os.kill(pid, 0)             # signal 0: existence and permission check only
    except ProcessLookupError:
        return False
    except OSError:
        return True                 # EPERM: it exists, owned by someone else
    return True


def _pid_alive_windows(pid):
    # os.kill(pid, 0) would terminate the process on Windows: ask OpenProcess instead
    try:
        import ctypes
        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(0x1000, False, pid)   # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return kernel32.GetLastError() != 87            # ERROR_INVALID_PARAMETER: no such pid
        try:
            code = ctypes.c_ulong()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return True
            return code.value == 259                        # STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
    except Exception:
        return True


# ----------------------------------------------------------------- atomic writes
def write_atomic(path, payload):
    """Write ``payload`` to a temporary file beside ``path``, fsync it, then replace ``path``.

    Stale temporary files of ``path`` (from killed writers) are removed first. On any
    exception the temporary file is removed and ``path`` is left as it was.
    """
    remove_stale_temps(path)
    tmp = temp_name(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, 'O_BINARY', 0)
    fd = os.open(tmp, flags, 0o666)         # 0o666 less the umask, as open() gives
    try:
        with os.fdopen(fd, 'wb') as f:
            write_payload(f, payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    fsync_directory(os.path.dirname(path))


def write_payload(f, payload):
    f.write(payload)


def fsync_directory(directory):
    """Make the rename durable where the OS allows opening a directory (not on Windows)."""
    o_directory = getattr(os, 'O_DIRECTORY', None)
    if o_directory is None:
        return
    try:
        fd = os.open(directory, os.O_RDONLY | o_directory)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
