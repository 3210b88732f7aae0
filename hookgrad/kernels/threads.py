"""How many OpenBLAS threads each matrix product gets: one for small products, more for large
ones, never more than the cores other processes leave free. CPU only.

OpenBLAS keeps one thread count for the whole process. Its worker threads pay a start and a
synchronisation on every product, which small products do not earn back, and a product split
over two threads waits for the slower one: with another process busy on one of two cores, a
two-thread product waits for a descheduled thread. So each product hookgrad runs asks for:

- ``0`` (leave the count alone) below ``TINY`` FLOPs: OpenBLAS runs these on one thread itself;
- ``1`` below ``SMALL`` FLOPs, or when the output matrix has fewer than ``NARROW`` elements
  (OpenBLAS splits the output, so a long, thin reduction gains nothing from a second thread);
- otherwise the cores this process may use (``os.sched_getaffinity``, at most the count
  OpenBLAS started with, which honours ``OPENBLAS_NUM_THREADS``), less the cores other processes
  keep busy, rounded to the nearest whole core and at least 1.

The busy cores of others come from /proc/stat (the busy time of this process's cores) less this
process's own CPU time, over the last interval of at least ``SAMPLE_S`` seconds; they are
sampled at most that often, from the call that finds the sample old. The first interval, from
import, is ``FIRST_SAMPLE_S`` long, so that a short run beside a busy neighbour is not spent
on a count chosen before anything was measured. The load average is not
used: it counts this process's own threads and follows load over a minute.

Large memory-bound passes (the Winograd transforms, im2col copies) are cut into as many ranges
as large products get threads and run at once by ``split``: NumPy releases the GIL inside its
loops, so two threads copy and add nearly twice as fast as one.

``HOOKGRAD_BLAS_THREADS=fixed`` turns the choice off (OpenBLAS's own count throughout); an
integer ``N`` caps large products at ``N`` threads. The count is set through threadpoolctl's
handle on the library (a C call of about 0.1 us, made only when the wanted count differs) and only
from the thread that first imports hookgrad, as OpenBLAS's count is process-wide.
"""
import concurrent.futures
import os
import threading
import time

import ml_dtypes
import numpy as np

TINY = 524_288          # 2*M*N*K at OpenBLAS's own single-thread limit (M*N*K <= 262144)
SMALL = 4_000_000       # measured: see docs/performance.md, "Threads"
NARROW = 1024
SAMPLE_S = 0.5
FIRST_SAMPLE_S = 0.1
SPLIT_MIN = 1 << 20     # elements a pass touches below which ``split`` runs it on one thread

_set = None             # the library's set-threads function, or None where nothing is controlled
_owner = threading.get_ident()
_current = 0            # the count last set (0: unknown, before the first set)
_started = 0            # OpenBLAS's count when hookgrad took control
_cores = 1
_cap = 0
_mode = 'auto'
_reason = ''
_sample = (-SAMPLE_S, None, 0.0)    # (time, busy jiffies of our cores or None, own CPU s)
_interval = FIRST_SAMPLE_S          # seconds between samples: SAMPLE_S after the first one
_others = 0.0           # cores kept busy by other processes
_large = 1              # the count for large products under the present load


def _stat_busy(cpus, path='/proc/stat'):
    """Busy jiffies (all but idle and iowait) summed over ``cpus``, or None where unreadable."""
    busy = 0
    try:
        with open(path, 'rb') as f:
            for line in f:
                if not line.startswith(b'cpu'):
                    break
                name, *fields = line.split()
                if name[3:].isdigit() and int(name[3:]) in cpus:
                    v = [int(x) for x in fields[:8]]
                    busy += sum(v) - v[3] - v[4]
    except (OSError, ValueError, IndexError):
        return None
    return busy


def _affinity():
    try:
        return set(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return set(range(os.cpu_count() or 1))


_cpus = _affinity()
_hz = os.sysconf('SC_CLK_TCK') if hasattr(os, 'sysconf') else 100


def others_busy():
    """Cores kept busy by other processes, re-sampled when the sample is ``SAMPLE_S`` old
    (``FIRST_SAMPLE_S`` for the first)."""
    global _sample, _others, _large, _interval
    now = time.monotonic()
    if now - _sample[0] < _interval:
        return _others
    busy, own = _stat_busy(_cpus), time.process_time()
    t0, busy0, own0 = _sample
    if busy is not None and busy0 is not None:
        _others = max(0.0, ((busy - busy0) / _hz - (own - own0)) / (now - t0))
        _interval = SAMPLE_S
    _sample = (now, busy, own)
    _large = large_threads(_cores, _others)
    return _others


def large_threads(cores, others):
    """Threads for a large product: the free cores rounded to the nearest whole, 1 to ``cores``."""
    return max(1, min(cores, int(cores - others + 0.5)))


def threads_for(flops, rows=None, cols=None):
    """The thread count for a product of ``flops`` (2*M*N*K) with an M x N output; 0: leave it.

    Near-zero cost: a comparison for small products, a clock read for large ones.
    """
    if _set is None or flops < TINY:
        return 0
    if flops < SMALL or (rows is not None and rows * cols < NARROW):
        return 1
    if time.monotonic() - _sample[0] >= _interval:
        others_busy()
    return _large


def controlled():
    """Whether hookgrad sets the thread count of products (False: each library's own)."""
    return _set is not None


def current():
    """The thread count products run on now (the last one set), or 0 where it is not
    controlled: the other matrix-product libraries (``gemm.py``) take the same count."""
    return _current if _set is not None else 0


def set_threads(n):
    """Set OpenBLAS's count to ``n`` (0: change nothing); return the count before, to restore.

    Only the thread that imported hookgrad changes it; elsewhere this returns 0.
    """
    global _current
    if not n or _set is None or threading.get_ident() != _owner:
        return 0
    before = _current
    if n != before:
        _set(n)
        _current = n
    return before


class blas_call:
    """``with blas_call(flops):`` runs the products inside with ``threads_for(flops)`` threads
    and restores the count after."""
    __slots__ = ('n', 'before')

    def __init__(self, flops, rows=None, cols=None):
        self.n = threads_for(flops, rows, cols)

    def __enter__(self):
        self.before = set_threads(self.n)
        return self

    def __exit__(self, *exc):
        set_threads(self.before)


def _count(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def product_flops(a, b):
    """``(flops, rows, cols)`` of ``np.matmul(a, b)`` for arrays of at least 2 dimensions."""
    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch = max(_count(a.shape[:-2]), _count(b.shape[:-2]))
    return 2 * batch * m * n * k, m, n


_HALF = np.dtype(np.float16)
_BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
LOW = frozenset((_HALF, _BFLOAT16))     # the types multiplied in float32


def half_matmul(a, b, out=None):
    """``np.matmul(a, b, out=out)``; float16 NumPy operands, and bfloat16 ones on any device,
    are multiplied in float32 and the result rounded once (NumPy's float16 loop sums in
    float32 too, about 100x slower; bfloat16 has no product of its own; a GPU's library has
    float16 products of its own). bfloat16 with another type gives float32."""
    da, db = a.dtype, b.dtype
    if da is _BFLOAT16 or db is _BFLOAT16 or \
            (da is _HALF and db is _HALF and type(a) is np.ndarray):
        y = _gemm.matmul(a.astype(np.float32), b.astype(np.float32))
        if out is None:
            return y.astype(da if da is db else np.float32, copy=False)
        np.copyto(out, y, casting='same_kind')
        return out
    return _gemm.matmul(a, b, out=out)


def matmul(a, b, out=None):
    """``np.matmul(a, b, out=out)`` on the thread count chosen for its size (2-d or more), by
    the matrix-product library chosen for this machine (``gemm.py``); float16 operands as
    ``half_matmul`` multiplies them."""
    flops, m, n = product_flops(a, b)
    before = set_threads(threads_for(flops, m, n))
    try:
        if a.dtype in LOW or b.dtype in LOW:
            return half_matmul(a, b, out)
        if flops < _gemm.MIN_FLOPS:         # no other library takes it: NumPy's, at once
            return np.matmul(a, b, out=out)
        return _gemm.matmul(a, b, out=out)
    finally:
        set_threads(before)


_executor = None
_SPLIT_PREFIX = 'hookgrad-split'


def cores():
    """The most threads a large product gets here (fixed at import, whatever the load)."""
    return _cores if _set is not None else 1


def workers():
    """Threads for a large memory-bound pass: as many as a large product gets (1 where the
    choice is off)."""
    if _set is None:
        return 1
    if time.monotonic() - _sample[0] >= _interval:
        others_busy()
    return _large


def split(fn, n, size):
    """Run ``fn(lo, hi)`` over ``[0, n)``: in ``workers()`` contiguous ranges at once, one on
    this thread, when the pass touches at least ``SPLIT_MIN`` elements (``size``); else as
    ``fn(0, n)``. The ranges must write disjoint memory. An exception in any range is raised
    here after all have finished."""
    run_ranges(fn, n, min(n, workers()) if size >= SPLIT_MIN else 1)


def run_ranges(fn, n, k):
    """Run ``fn(lo, hi)`` over ``[0, n)`` in ``k`` contiguous ranges at once (inline where
    ``k`` is 1 or this is already a range's thread); errors as ``split`` raises them."""
    global _executor
    k = min(n, k)
    if k <= 1 or threading.current_thread().name.startswith(_SPLIT_PREFIX):
        fn(0, n)
        return
    if _executor is None:
        _executor = concurrent.futures.ThreadPoolExecutor(max(1, _cores - 1), _SPLIT_PREFIX)
    bounds = [n * i // k for i in range(k + 1)]
    futures = [_executor.submit(fn, bounds[i], bounds[i + 1]) for i in range(1, k)]
    error = None
    try:
        fn(bounds[0], bounds[1])
    except BaseException as exc:
        error = exc
    for f in futures:
        try:
            f.result()
        except BaseException as exc:
            error = error or exc
    if error is not None:
        raise error


def split_products(fn, n, size, flops):
    """``split`` for ranges whose work is matrix products of about ``flops`` each: while the
    ranges run at once, each product runs on one OpenBLAS thread (a product split over two
    waits for both, and the ranges already fill the cores). Run in one range (one item, under
    ``SPLIT_MIN`` elements, or no second core free), they get ``threads_for(flops)``."""
    if n > 1 and size >= SPLIT_MIN and workers() > 1:
        before = set_threads(1)
        try:
            split(fn, n, size)
        finally:
            set_threads(before)
        return
    before = set_threads(threads_for(flops))
    try:
        fn(0, n)
    finally:
        set_threads(before)


def numpy_blas(libs):
    """NumPy's own BLAS among threadpoolctl's controllers ``libs``: the only one, else the one
    inside NumPy's package (its wheel's ``numpy.libs``), else the only OpenBLAS; or None.

    Other libraries may be loaded beside it (MKL from ``gemm.py``, or another package's);
    they set their counts themselves."""
    if len(libs) == 1:
        return libs[0]
    home = os.path.dirname(os.path.abspath(np.__file__))
    own = [lib for lib in libs if os.path.abspath(lib.filepath).startswith((home + os.sep,
                                                                          home + '.libs'))]
    if len(own) == 1:
        return own[0]
    openblas = [lib for lib in libs if lib.internal_api == 'openblas']
    return openblas[0] if len(openblas) == 1 else None


def _install():
    """Find the BLAS library and its count; decide the mode from ``HOOKGRAD_BLAS_THREADS``."""
    global _set, _current, _started, _cores, _cap, _mode, _reason, _large
    wanted = os.environ.get('HOOKGRAD_BLAS_THREADS', 'auto').strip().lower()
    _cores = len(_cpus)
    if wanted == 'fixed':
        _mode, _reason = 'fixed', "turned off by HOOKGRAD_BLAS_THREADS=fixed"
        return
    if wanted not in ('auto', '') and not (wanted.isdigit() and int(wanted) > 0):
        _mode, _reason = 'fixed', (f"HOOKGRAD_BLAS_THREADS={wanted!r} is neither 'auto', "
                                   f"'fixed' nor a positive int; the choice is off")
        return
    try:
        from threadpoolctl import ThreadpoolController
        libs = ThreadpoolController().select(user_api='blas').lib_controllers
    except Exception as exc:        # no threadpoolctl or an unreadable library: leave OpenBLAS be
        _mode, _reason = 'fixed', f"threadpoolctl could not find the BLAS library ({exc})"
        return
    lib = numpy_blas(libs)
    if lib is None:
        _mode, _reason = 'fixed', (f"{len(libs)} BLAS libraries are loaded and none is "
                                   f"NumPy's; the choice is off")
        return
    fn = None
    if lib.internal_api == 'openblas' and getattr(lib, 'threading_layer', '') == 'pthreads':
        fn = lib._get_symbol('openblas_set_num_threads')     # the same call, without its checks
    _set = fn if fn is not None else lib.set_num_threads
    _started = _current = lib.get_num_threads() or 1
    _cap = int(wanted) if wanted.isdigit() else _started
    _cores = max(1, min(len(_cpus), _cap))
    _large = _cores
    _mode = 'auto'
    layer = getattr(lib, 'threading_layer', '')
    _reason = (f"{lib.internal_api} {layer}: 1 thread below {SMALL / 1e6:g} MFLOP, "
               f"up to {_cores} above, fewer under load")
    others_busy()


_install()


def info():
    """The thread choice for ``hookgrad.blas_info()``."""
    return {'threads_mode': _mode, 'threads_max': _cores if _set is not None else None,
            'threads_started': _started or None, 'threads_reason': _reason,
            'others_busy_cores': round(_others, 2) if _set is not None else None}


from . import gemm as _gemm  # noqa: E402  (last: gemm imports this module)
