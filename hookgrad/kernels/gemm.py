"""Matrix products on the fastest library installed here: NumPy's OpenBLAS, Intel MKL (the ``mkl``
wheel) or BLIS (the ``blis`` wheel), measured once per machine. CPU only.

``matmul(a, b, out=None)`` is a drop-in for ``np.matmul``. The chosen library takes float32 and
float64 products of 2-d or 3-d operands (same batch, or a 2-d operand broadcast) whose matrices
are row- or column-major (C-contiguous or transposed views), of at least ``MIN_FLOPS``; anything
else (other dtypes, other strides, subclasses, an ``out`` that is not C-contiguous or overlaps an
operand, small products, where a ctypes call's few microseconds are not earned back) goes to
``np.matmul``.

The choice (``HOOKGRAD_GEMM``):
- ``auto`` (the default): NumPy alone when no other library is installed (nothing measured);
  otherwise, at the first product of at least ``MIN_FLOPS``, a short calibration times
  products of the shapes convolutions make on the thread count of large products, in
  interleaved rounds, and keeps the library with the best median (another library must beat
  NumPy by ``MARGIN``). The result is kept in a ``PlanCache`` (one file per machine and per
  version of this file), keyed by the thread count and the libraries installed, unless other
  processes kept ``BUSY_LIMIT`` cores busy meanwhile (then it is measured again next time);
- ``numpy``, ``mkl``, ``blis``: that library; one that is not installed warns once, naming
  its pip package, and NumPy is used.

Threads: each product runs on the count ``threads.py`` set for OpenBLAS (``threads.current()``):
MKL through ``mkl_set_num_threads_local`` around the call (per calling thread, so ranges run at
once by ``split_products`` stay one thread each); BLIS is built single-threaded, so a product is
cut into that many ranges of rows (or of the batch) run at once. MKL's OpenMP threads are told
to sleep at once after a product (``KMP_BLOCKTIME=0`` unless set, as OpenBLAS's), so that they do
not hold the cores other products and passes need.
"""
import ctypes
import ctypes.util
import importlib.metadata
import importlib.util
import os
import statistics
import threading
import time
import warnings

import numpy as np

from . import threads as _threads
from .plan_cache import PlanCache

__all__ = ['matmul', 'chosen', 'info', 'reset', 'MIN_FLOPS']

NAMES = ('numpy', 'mkl', 'blis')
MIN_FLOPS = 4_194_304       # 2*128^3: measured, see docs/performance.md, "Matrix-product library"
MARGIN = 1.05               # another library must be this much faster than NumPy to be chosen
CALIBRATION = ((8192, 576, 64), (2048, 1152, 128), (512, 512, 512))     # (M, K, N)
ROUNDS = 5
BUSY_LIMIT = 0.5            # cores other processes kept busy above which a calibration is not kept

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_INT_MAX = 2 ** 31 - 1      # MKL's LP64 interface takes 32-bit sizes


class Plan:
    """A product the libraries can take: operands as row-major matrices (``ta``: stored
    transposed) with leading dimensions and batch strides in elements (0: broadcast)."""
    __slots__ = ('a', 'b', 'out', 'dtype', 'batch', 'm', 'n', 'k',
                 'ta', 'lda', 'sa', 'tb', 'ldb', 'sb')


def _layout(x, isz):
    """``(transposed, leading dimension)`` of ``x``'s matrices as row-major storage, or None."""
    r, c = x.shape[-2], x.shape[-1]
    s0, s1 = x.strides[-2], x.strides[-1]
    if (s1 == isz or c == 1) and s0 % isz == 0:
        ld = s0 // isz if r > 1 else c
        if ld >= c:
            return False, ld
    if (s0 == isz or r == 1) and s1 % isz == 0:
        ld = s1 // isz if c > 1 else r
        if ld >= r:
            return True, ld
    return None


def plan(a, b, out=None):
    """A ``Plan`` for ``np.matmul(a, b, out=out)``, or None where it is left to NumPy."""
    if type(a) is not np.ndarray or type(b) is not np.ndarray:
        return None
    if not (2 <= a.ndim <= 3 and 2 <= b.ndim <= 3):
        return None
    m, k = a.shape[-2:]
    k2, n = b.shape[-2:]
    batch = a.shape[0] if a.ndim == 3 else b.shape[0] if b.ndim == 3 else 1
    if 2 * batch * m * n * k < MIN_FLOPS:           # first: most products are small
        return None
    dtype = a.dtype
    if (dtype is not _F32 and dtype is not _F64) or b.dtype is not dtype:
        return None
    if k != k2 or (b.ndim == 3 and a.ndim == 3 and b.shape[0] != batch):
        return None
    if max(m, n, k, batch) > _INT_MAX:
        return None
    isz = dtype.itemsize
    la, lb = _layout(a, isz), _layout(b, isz)
    if la is None or lb is None:
        return None
    shape = (batch, m, n) if max(a.ndim, b.ndim) == 3 else (m, n)
    if out is None:
        out = np.empty(shape, dtype)
    elif (type(out) is not np.ndarray or out.dtype is not dtype or out.shape != shape
          or not out.flags.c_contiguous or np.may_share_memory(out, a)
          or np.may_share_memory(out, b)):
        return None
    p = Plan()
    p.a, p.b, p.out, p.dtype, p.batch, p.m, p.n, p.k = a, b, out, dtype, batch, m, n, k
    p.ta, p.lda = la
    p.tb, p.ldb = lb
    p.sa = a.strides[0] // isz if a.ndim == 3 else 0
    p.sb = b.strides[0] // isz if b.ndim == 3 else 0
    if (a.ndim == 3 and a.strides[0] % isz) or (b.ndim == 3 and b.strides[0] % isz):
        return None
    return p


class NumPy:
    """NumPy's ``matmul`` (its OpenBLAS, on the count ``threads.py`` set), timed beside the
    others."""
    name = 'numpy'

    @staticmethod
    def product(p, nthreads):
        np.matmul(p.a, p.b, out=p.out)
        return True


class Mkl:
    """Intel MKL's CBLAS, loaded with ctypes from ``path`` (libmkl_rt)."""
    name = 'mkl'
    package = 'mkl'

    def __init__(self, path):
        if (os.environ.get('HOOKGRAD_BLAS_THREADS', '').strip().lower() != 'fixed'
                and not os.environ.get('KMP_BLOCKTIME')):
            os.environ['KMP_BLOCKTIME'] = '0'       # read when MKL's OpenMP runtime starts
        lib = ctypes.CDLL(path)
        self.path = path
        i, p = ctypes.c_int, ctypes.c_void_p
        self._local = lib.MKL_Set_Num_Threads_Local      # the C name; lower case is Fortran's
        self._local.argtypes, self._local.restype = [i], i
        self._max = lib.MKL_Get_Max_Threads
        self._max.argtypes, self._max.restype = [], i
        self._gemm, self._batch = {}, {}
        for dtype, prefix, scalar in ((_F32, 's', ctypes.c_float), (_F64, 'd', ctypes.c_double)):
            f = getattr(lib, f'cblas_{prefix}gemm')
            f.argtypes = [i, i, i, i, i, i, scalar, p, i, p, i, scalar, p, i]
            f.restype = None
            g = getattr(lib, f'cblas_{prefix}gemm_batch_strided')
            g.argtypes = [i, i, i, i, i, i, scalar, p, i, i, p, i, i, scalar, p, i, i, i]
            g.restype = None
            self._gemm[dtype], self._batch[dtype] = f, g

    def max_threads(self):
        """The threads MKL would use for a product started on this thread."""
        return self._max()

    def product(self, p, nthreads):
        """Compute ``p`` into ``p.out`` on ``nthreads`` (0: MKL's own count); True when done."""
        ta, tb = 112 if p.ta else 111, 112 if p.tb else 111     # CblasTrans / CblasNoTrans
        m, batch = p.m, p.batch
        if batch > 1 and p.sb == 0 and not p.ta and p.sa == m * p.lda:
            m, batch = m * batch, 1             # a stack of matrices times one: one product
        if max(p.lda, p.ldb, p.sa, p.sb, m * p.n * batch) > _INT_MAX:
            return False
        before = self._local(nthreads)
        try:
            if batch == 1:
                self._gemm[p.dtype](101, ta, tb, m, p.n, p.k, 1.0, p.a.ctypes.data, p.lda,
                                    p.b.ctypes.data, p.ldb, 0.0, p.out.ctypes.data, p.n)
            else:
                self._batch[p.dtype](101, ta, tb, m, p.n, p.k, 1.0, p.a.ctypes.data, p.lda,
                                     p.sa, p.b.ctypes.data, p.ldb, p.sb, 0.0,
                                     p.out.ctypes.data, p.n, m * p.n, batch)
        finally:
            self._local(before)
        return True


class Blis:
    """BLIS through the ``blis`` package's ``blis.py.gemm`` (C-contiguous matrices, flags for
    transposed ones). Its build has no threads of its own: ``nthreads`` ranges run at once."""
    name = 'blis'
    package = 'blis'

    def __init__(self, path=None):
        import blis.py
        self._gemm = blis.py.gemm

    @staticmethod
    def _stored(x, transposed):
        s = x.T if transposed else x
        return s if s.flags.c_contiguous else None

    def product(self, p, nthreads):
        a, b, out = p.a, p.b, p.out
        if p.dtype is _F64 and (p.ta or p.tb):
            return False        # blis.py.gemm's float64 branch ignores the transpose flags
        if a.ndim == 3 and b.ndim == 2 and not p.ta and a.flags.c_contiguous:
            a, out = a.reshape(-1, p.k), out.reshape(-1, p.n)
        pairs = [(a[i] if a.ndim == 3 else a, b[i] if b.ndim == 3 else b, out[i])
                 for i in range(p.batch)] if out.ndim == 3 else [(a, b, out)]
        stored = [(self._stored(x, p.ta), self._stored(y, p.tb), o) for x, y, o in pairs]
        if any(x is None or y is None for x, y, _ in stored):
            return False
        gemm, ta, tb = self._gemm, p.ta, p.tb

        if len(stored) > 1:
            def run(lo, hi):
                for x, y, o in stored[lo:hi]:
                    gemm(x, y, out=o, trans1=ta, trans2=tb, alpha=1.0, beta=0.0)
            _threads.run_ranges(run, len(stored), max(1, nthreads))
            return True
        x, y, o = stored[0]
        if ta:                  # rows of a transposed operand are not contiguous: one range
            gemm(x, y, out=o, trans1=True, trans2=tb, alpha=1.0, beta=0.0)
            return True

        def rows(lo, hi):
            gemm(x[lo:hi], y, out=o[lo:hi], trans1=False, trans2=tb, alpha=1.0, beta=0.0)
        _threads.run_ranges(rows, x.shape[0], max(1, nthreads))
        return True


def _find_mkl():
    """The path of libmkl_rt from the ``mkl`` distribution's files, else the linker's, or None."""
    try:
        for f in importlib.metadata.distribution('mkl').files or ():
            if os.path.basename(str(f)).startswith('libmkl_rt.so'):
                path = os.path.realpath(f.locate())
                if os.path.exists(path):
                    return path
    except importlib.metadata.PackageNotFoundError:
        pass
    return ctypes.util.find_library('mkl_rt')


def _find_blis():
    try:
        return 'blis' if importlib.util.find_spec('blis') is not None else None
    except (ImportError, ValueError):
        return None


LIBRARIES = {'mkl': (_find_mkl, Mkl), 'blis': (_find_blis, Blis)}   # name: (finder, loader)

_cache = PlanCache('gemm', sources=(os.path.abspath(__file__),))
_lock = threading.Lock()
_chosen = None          # None: not decided; False: NumPy; else the library object
_reason = ''
_measured = None        # {name: GFLOP/s} of the last calibration or the cached one
_looked = False         # whether a choice that needs no measurement was looked for


def _warn(message):
    warnings.warn(message, RuntimeWarning, stacklevel=4)


def _threads_key():
    return _threads.cores() if _threads.controlled() else 'library'


def _installed():
    """``{name: location}`` of the other libraries found (none loaded)."""
    found = {}
    for name, (finder, _) in LIBRARIES.items():
        where = finder()
        if where:
            found[name] = where
    return found


def _load(name, where):
    try:
        return LIBRARIES[name][1](where), None
    except (OSError, ImportError, AttributeError) as exc:
        return None, f"{name} could not be loaded ({exc})"


def _requested():
    return os.environ.get('HOOKGRAD_GEMM', 'auto').strip().lower() or 'auto'


def _time_rounds(libs, cases, rounds):
    """Median seconds per round of all ``cases`` for each library, rounds interleaved."""
    times = {lib.name: [] for lib in libs}
    for r in range(rounds + 1):                 # the first round warms up and is dropped
        for lib in libs:
            t0 = time.perf_counter()
            for a, b, out in cases:
                _run(lib, a, b, out)
            if r:
                times[lib.name].append(time.perf_counter() - t0)
    return {name: statistics.median(v) for name, v in times.items()}


def _run(lib, a, b, out):
    p = plan(a, b, out)
    if p is None or not lib.product(p, _threads.current()):
        np.matmul(a, b, out=out)
    return out


def calibrate(libs, shapes=CALIBRATION, rounds=ROUNDS):
    """``({name: GFLOP/s}, problems)`` for NumPy and each of ``libs`` on float32 products of
    ``shapes`` ((M, K, N)), on the thread count of large products. A library whose result
    differs from NumPy's is left out (``problems`` says why)."""
    rng = np.random.default_rng(0)
    cases = [(rng.standard_normal((m, k), np.float32), rng.standard_normal((k, n), np.float32),
              np.empty((m, n), np.float32)) for m, k, n in shapes]
    flops = sum(2 * m * k * n for m, k, n in shapes)
    good, problems = [], []
    expected = np.matmul(cases[0][0], cases[0][1])
    scale = float(np.abs(expected).max()) or 1.0
    for lib in libs:
        got = _run(lib, cases[0][0], cases[0][1], np.empty_like(expected))
        err = float(np.abs(got - expected).max()) / scale
        if err > 1e-4:
            problems.append(f"{lib.name} left out: its result differs from NumPy's by {err:.1e}")
        else:
            good.append(lib)
    before = _threads.set_threads(_threads.cores())
    try:
        med = _time_rounds([NumPy()] + good, cases, rounds)
    finally:
        _threads.set_threads(before)
    return {name: round(flops / s / 1e9, 1) for name, s in med.items()}, problems


def _pick(gflops):
    best = max(gflops, key=gflops.get)
    if best != 'numpy' and gflops[best] < MARGIN * gflops['numpy']:
        best = 'numpy'
    return best


def _describe(gflops, threads, source):
    figures = ', '.join(f"{n} {gflops[n]:g}" for n in NAMES if n in gflops)
    return (f"GFLOP/s on {threads} thread(s), float32 conv-shaped products, median of "
            f"{ROUNDS} rounds ({source}): {figures}")


def _decide(measure=True):
    """Set ``_chosen`` and ``_reason``; without ``measure`` leave it undecided where the
    choice needs a calibration that is not cached. Returns ``_chosen``."""
    global _chosen, _reason, _measured, _looked
    _looked = True
    wanted = _requested()
    if wanted not in NAMES + ('auto',):
        _chosen, _reason = False, (f"HOOKGRAD_GEMM={wanted!r} is none of "
                                   f"{', '.join(NAMES + ('auto',))}; NumPy's matmul is used")
        _warn(_reason)
        return _chosen
    if wanted == 'numpy':
        _chosen, _reason = False, "HOOKGRAD_GEMM=numpy"
        return _chosen
    if wanted != 'auto':
        where = LIBRARIES[wanted][0]()
        lib, problem = _load(wanted, where) if where else (None, f"{wanted} is not installed")
        if lib is None:
            _chosen, _reason = False, (f"HOOKGRAD_GEMM={wanted}: {problem} (pip install "
                                       f"{wanted}, or hookgrad[{wanted}]); NumPy's matmul is used")
            _warn(_reason)
        else:
            _chosen, _reason = lib, f"HOOKGRAD_GEMM={wanted}"
        return _chosen
    found = _installed()
    if not found:
        _chosen, _reason = False, ("no other library installed (pip install hookgrad[mkl] or "
                                   "hookgrad[blis]); nothing measured")
        return _chosen
    threads = _threads_key()
    key = ('gemm', threads, '+'.join(sorted(found)))
    cached = _cache.get(key)
    if cached is None and not measure:
        return None
    libs, problems = [], []
    for name, where in found.items():
        lib, problem = _load(name, where)
        if lib is None:
            problems.append(problem)
        else:
            libs.append(lib)
    if cached is not None:
        gflops, source = cached['gflops'], 'measured before, read from the plan cache'
        problems += cached.get('problems', [])
    else:
        gflops, bad = calibrate(libs)
        problems += bad
        busy = _threads.others_busy() if _threads.controlled() else 0.0
        if busy < BUSY_LIMIT:
            _cache.put(key, {'gflops': gflops, 'problems': problems})
            source = 'measured now'
        else:                   # figures taken beside other work: measured again next time
            source = f"measured now beside {busy:.1f} busy cores of other processes, not cached"
    usable = {lib.name: lib for lib in libs}
    gflops = {n: g for n, g in gflops.items() if n == 'numpy' or n in usable}
    best = _pick(gflops)
    _measured = gflops
    _chosen = usable[best] if best != 'numpy' else False
    _reason = _describe(gflops, threads, source) + ''.join('; ' + p for p in problems)
    return _chosen


def matmul(a, b, out=None):
    """``np.matmul(a, b, out=out)``, computed by the chosen library where it can take it."""
    lib = _chosen
    if lib is None and not _looked:
        with _lock:
            lib = _chosen if _chosen is not None else _decide(measure=False)
    if lib is False:
        return np.matmul(a, b, out=out)
    p = plan(a, b, out)
    if p is None:
        return np.matmul(a, b, out=out)
    if lib is None:
        if not _lock.acquire(blocking=False):       # another thread is measuring: NumPy now
            return np.matmul(a, b, out=out)
        try:
            lib = _chosen if _chosen is not None else _decide()
        finally:
            _lock.release()
        if lib is False:
            return np.matmul(a, b, out=out)
    if lib.product(p, _threads.current()):
        return p.out
    return np.matmul(a, b, out=out)


def chosen():
    """The name of the library products go to (deciding, and measuring if need be, now)."""
    lib = _chosen
    if lib is None:
        with _lock:
            lib = _chosen if _chosen is not None else _decide()
    return lib.name if lib else 'numpy'


def reset(cache=None):
    """Forget the choice (read ``HOOKGRAD_GEMM`` and the cache again at the next product);
    ``cache`` replaces the plan cache."""
    global _chosen, _reason, _measured, _cache, _looked
    with _lock:
        _chosen, _reason, _measured, _looked = None, '', None, False
        if cache is not None:
            _cache = cache


def info():
    """``gemm``, ``gemm_reason`` and ``gemm_cache`` for ``hookgrad.blas_info()``; measures
    nothing (before the first large product an uncached choice reads as not yet made)."""
    lib = _chosen
    if lib is None:
        with _lock:
            lib = _chosen if _chosen is not None else _decide(measure=False)
    if lib is None:
        return {'gemm': None, 'gemm_reason': (f"measured at the first product of at least "
                                              f"{MIN_FLOPS / 1e6:g} MFLOP"),
                'gemm_cache': _cache.path}
    return {'gemm': lib.name if lib else 'numpy', 'gemm_reason': _reason,
            'gemm_cache': _cache.path}
