"""Keep freed array memory in the process for reuse (glibc's malloc only). CPU only.

NumPy takes array memory from malloc. glibc serves a block above its mmap threshold (128 KiB
at first, raised toward 32 MiB only as such blocks are freed) from a fresh mapping, and hands
the top of its heap back to the OS whenever more than its trim threshold (twice the mmap
threshold) lies free there. A training step frees and allocates the same megabyte-sized
activations and gradients at every step, so many of them arrive as fresh pages, each faulted
in and zeroed by the kernel: on a LeNet-5 step (batch 64) that was about 40% of the time.

hookgrad therefore sets, at import, the mmap threshold to ``MMAP_THRESHOLD`` (blocks below it
come from the heap and are reused) and the trim threshold to ``TRIM_THRESHOLD`` (up to that
much free memory stays mapped). The process's resident memory then stays near its peak between
steps instead of falling and rising; its peak is unchanged. The settings are process-wide and
are left alone when:
- the user set ``MALLOC_MMAP_THRESHOLD_`` or ``MALLOC_TRIM_THRESHOLD_`` (glibc's own variables);
- ``HOOKGRAD_MALLOC=off``;
- the C library is not glibc (``mallopt`` is not found).

``CHOICE`` records what happened, for ``hookgrad.blas_info()``.
"""
import os

MMAP_THRESHOLD = 32 << 20       # glibc's own ceiling for its dynamic threshold
TRIM_THRESHOLD = 256 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3     # mallopt's parameter numbers (malloc.h)


def _mallopt():
    """glibc's ``mallopt`` through ctypes, or None where the C library has none."""
    try:
        import ctypes
        fn = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, ImportError):
        return None
    fn.argtypes = (ctypes.c_int, ctypes.c_int)
    fn.restype = ctypes.c_int
    return fn


def choose(environ=None):
    """``(settings or None, reason)``: the thresholds to set, or why none are. Changes nothing."""
    environ = os.environ if environ is None else environ
    mine = [k for k in ('MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_') if environ.get(k)]
    if mine:
        return None, f"{mine[0]} set by the user; malloc kept its settings"
    if environ.get('HOOKGRAD_MALLOC', '').strip().lower() == 'off':
        return None, "turned off by HOOKGRAD_MALLOC=off"
    return ({'mmap_threshold': MMAP_THRESHOLD, 'trim_threshold': TRIM_THRESHOLD},
            "freed blocks under 32 MiB are reused; up to 256 MiB of free heap stays mapped")


def apply(environ=None, find=_mallopt):
    """Set the thresholds ``choose`` gives through the ``mallopt`` that ``find`` returns;
    return what was done."""
    settings, reason = choose(environ)
    if settings is not None:
        mallopt = find()
        if mallopt is None:
            settings, reason = None, "the C library has no mallopt (not glibc); left as it is"
        elif not (mallopt(_M_MMAP_THRESHOLD, settings['mmap_threshold'])
                  and mallopt(_M_TRIM_THRESHOLD, settings['trim_threshold'])):
            settings, reason = None, "mallopt refused a threshold; glibc's defaults may be in part"
    return {'malloc': settings, 'malloc_reason': reason}


CHOICE = apply()
