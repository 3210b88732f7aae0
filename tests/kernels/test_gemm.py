"""The matrix-product library: results equal to np.matmul's for every installed library and
layout, the cases left to NumPy, HOOKGRAD_GEMM, the calibration kept in the plan cache and the
thread count each library runs on."""
import threading

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.kernels import gemm
from hookgrad.kernels import threads as _threads
from hookgrad.kernels.plan_cache import PlanCache


def _loaded(name):
    where = gemm.LIBRARIES[name][0]()
    if not where:
        return None
    lib, _ = gemm._load(name, where)
    return lib


LIBS = {name: _loaded(name) for name in ('mkl', 'blis')}
INSTALLED = [pytest.param(name, marks=pytest.mark.skipif(
    LIBS[name] is None, reason=f"{name} is not installed (pip install hookgrad[{name}])"))
    for name in LIBS]


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A forgotten choice and an empty plan cache in a temporary directory."""
    monkeypatch.setenv('HOOKGRAD_CACHE_DIR', str(tmp_path))
    monkeypatch.delenv('HOOKGRAD_GEMM', raising=False)
    cache = PlanCache('gemm', sources=(gemm.__file__,))
    gemm.reset(cache)
    yield cache
    gemm.reset(PlanCache('gemm', sources=(gemm.__file__,)))


class FakeLib:
    """A library that computes with NumPy, counts its products and takes ``delay`` s each."""

    def __init__(self, name, delay=0.0):
        self.name, self.delay, self.calls, self.threads = name, delay, 0, []

    def product(self, p, nthreads):
        import time
        self.calls += 1
        self.threads.append(nthreads)
        if self.delay:
            time.sleep(self.delay)
        np.matmul(p.a, p.b, out=p.out)
        return True


def _use(monkeypatch, libs):
    """Make ``libs`` ({name: FakeLib}) the installed libraries."""
    monkeypatch.setattr(gemm, 'LIBRARIES', {
        name: ((lambda: 'here'), (lambda where, lib=lib: lib)) for name, lib in libs.items()})


def _operands(dtype, rng, layout):
    """Pairs of operands of a product above MIN_FLOPS in ``layout``."""
    m, k, n = 96, 160, 144
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    if layout == '2d':
        return a, b
    if layout == 'a transposed':
        return np.ascontiguousarray(a.T).T, b
    if layout == 'b transposed':
        return a, np.ascontiguousarray(b.T).T
    if layout == 'both transposed':
        return np.ascontiguousarray(a.T).T, np.ascontiguousarray(b.T).T
    if layout == 'batched':
        return (rng.standard_normal((3, m, k)).astype(dtype),
                rng.standard_normal((3, k, n)).astype(dtype))
    if layout == 'batch times 2d':
        return rng.standard_normal((3, m, k)).astype(dtype), b
    if layout == '2d times batch':
        return a, rng.standard_normal((3, k, n)).astype(dtype)
    if layout == 'batch transposed':
        return rng.standard_normal((3, k, m)).astype(dtype).transpose(0, 2, 1), b
    if layout == 'row slice':         # a leading dimension larger than the row
        return rng.standard_normal((m, k + 7)).astype(dtype)[:, :k], b
    raise AssertionError(layout)


LAYOUTS = ['2d', 'a transposed', 'b transposed', 'both transposed', 'batched',
           'batch times 2d', '2d times batch', 'batch transposed', 'row slice']


@pytest.mark.parametrize('name', INSTALLED)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('layout', LAYOUTS)
def test_each_installed_library_matches_numpy(name, dtype, layout):
    lib = LIBS[name]
    rng = np.random.default_rng(1)
    a, b = _operands(dtype, rng, layout)
    p = gemm.plan(a, b)
    assert p is not None
    done = lib.product(p, 2)
    expected = np.matmul(a, b)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    if done:
        np.testing.assert_allclose(p.out, expected, rtol=tol, atol=tol * 10)
    else:       # a layout this library does not take: the answer still comes out of matmul
        assert name == 'blis' and (dtype == np.float64 or layout == 'row slice')


@pytest.mark.parametrize('name', INSTALLED)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('layout', LAYOUTS)
def test_matmul_with_a_library_chosen_equals_numpy_with_and_without_out(
        fresh, monkeypatch, name, dtype, layout):
    monkeypatch.setenv('HOOKGRAD_GEMM', name)
    a, b = _operands(dtype, np.random.default_rng(2), layout)
    expected = np.matmul(a, b)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(gemm.matmul(a, b), expected, rtol=tol, atol=tol * 10)
    out = np.full(expected.shape, np.nan, dtype)
    assert gemm.matmul(a, b, out=out) is out
    np.testing.assert_allclose(out, expected, rtol=tol, atol=tol * 10)
    assert gemm.chosen() == name


def test_products_the_libraries_cannot_take_are_left_to_numpy():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((128, 128)).astype(np.float32)
    assert gemm.plan(a, a) is not None
    assert gemm.plan(a[:8, :8], a[:8, :8]) is None                      # under MIN_FLOPS
    assert gemm.plan(a.astype(np.float16), a.astype(np.float16)) is None
    assert gemm.plan(a.astype(np.int32), a.astype(np.int32)) is None
    assert gemm.plan(a, a.astype(np.float64)) is None                    # mixed dtypes
    big = rng.standard_normal((256, 256)).astype(np.float32)
    assert gemm.plan(big[::2, ::2], big[::2, ::2]) is None
    assert gemm.plan(np.ones((2, 2, 64, 64), np.float32), a[:64, :64]) is None    # 4-d
    assert gemm.plan(np.ones((3, 64, 64), np.float32), np.ones((2, 64, 64), np.float32)) is None
    assert gemm.plan(a, a, out=np.empty((128, 128), np.float64)) is None
    assert gemm.plan(a, a, out=np.empty((128, 128), np.float32).T) is None   # not C-contiguous
    assert gemm.plan(a, a, out=a) is None                                # overlaps an operand
    assert gemm.plan(np.ma.masked_array(a), a) is None                   # a subclass


def test_fallbacks_give_numpys_results_and_errors(fresh, monkeypatch):
    fake = FakeLib('mkl')
    _use(monkeypatch, {'mkl': fake})
    monkeypatch.setenv('HOOKGRAD_GEMM', 'mkl')
    rng = np.random.default_rng(4)
    a = rng.standard_normal((128, 128)).astype(np.float32)
    np.testing.assert_array_equal(gemm.matmul(a[:8], a[:, :8]), np.matmul(a[:8], a[:, :8]))
    h = a.astype(np.float16)
    np.testing.assert_array_equal(gemm.matmul(h, h), np.matmul(h, h))
    assert fake.calls == 0                                  # both left to NumPy
    gemm.matmul(a, a)
    assert fake.calls == 1
    with pytest.raises(ValueError, match='mismatch'):
        gemm.matmul(a, a[:5])


def test_only_numpy_installed_measures_nothing(fresh, monkeypatch):
    _use(monkeypatch, {})
    monkeypatch.setattr(gemm, 'calibrate', lambda *a, **k: pytest.fail('measured'))
    a = np.ones((256, 256), np.float32)
    np.testing.assert_array_equal(gemm.matmul(a, a), np.full((256, 256), 256, np.float32))
    info = ms.blas_info()
    assert info['gemm'] == 'numpy'
    assert 'no other library installed' in info['gemm_reason']
    assert len(fresh) == 0


def test_auto_calibrates_once_picks_the_fastest_and_reads_the_cache_back(fresh, monkeypatch):
    fast, slow = FakeLib('mkl'), FakeLib('blis', delay=0.05)
    _use(monkeypatch, {'mkl': fast, 'blis': slow})
    orig = gemm.calibrate
    runs = []

    def calibrate(libs, shapes=gemm.CALIBRATION, rounds=gemm.ROUNDS):
        runs.append([lib.name for lib in libs])
        return orig(libs, shapes=((256, 256, 64),), rounds=3)
    monkeypatch.setattr(gemm, 'calibrate', calibrate)
    monkeypatch.setattr(gemm, 'MARGIN', 0.0)        # the fake fast one is NumPy's speed
    monkeypatch.setattr(gemm, 'BUSY_LIMIT', float('inf'))   # kept whatever else runs here
    assert ms.blas_info()['gemm'] is None           # nothing measured before a large product
    small = np.ones((8, 8), np.float32)
    gemm.matmul(small, small)
    assert runs == []                               # not at a small product either
    a = np.ones((128, 128), np.float32)
    gemm.matmul(a, a)
    assert runs == [['mkl', 'blis']]
    assert gemm.chosen() in ('mkl', 'numpy')        # never the slow one
    key = ('gemm', gemm._threads_key(), 'blis+mkl')
    stored = fresh.get(key)
    assert set(stored['gflops']) == {'numpy', 'mkl', 'blis'}
    assert stored['gflops']['blis'] < stored['gflops']['numpy']
    info = ms.blas_info()
    assert info['gemm_cache'] == fresh.path
    assert 'measured now' in info['gemm_reason'] and 'blis' in info['gemm_reason']

    gemm.reset(PlanCache('gemm', sources=(gemm.__file__,)))     # a new process, same machine
    assert ms.blas_info()['gemm'] == gemm.chosen()
    gemm.matmul(a, a)
    assert runs == [['mkl', 'blis']]                            # read back, not measured
    assert 'read from the plan cache' in ms.blas_info()['gemm_reason']


def test_a_calibration_beside_busy_processes_is_not_cached(fresh, monkeypatch):
    _use(monkeypatch, {'mkl': FakeLib('mkl')})
    monkeypatch.setattr(gemm, 'CALIBRATION', ((256, 256, 64),))
    monkeypatch.setattr(_threads, 'controlled', lambda: True)
    monkeypatch.setattr(_threads, 'others_busy', lambda: 1.5)
    a = np.ones((128, 128), np.float32)
    gemm.matmul(a, a)
    assert len(fresh) == 0
    assert 'beside 1.5 busy cores of other processes, not cached' in ms.blas_info()['gemm_reason']


def test_pick_needs_a_margin_over_numpy():
    assert gemm._pick({'numpy': 100.0, 'mkl': 104.0}) == 'numpy'
    assert gemm._pick({'numpy': 100.0, 'mkl': 130.0, 'blis': 120.0}) == 'mkl'
    assert gemm._pick({'numpy': 100.0, 'blis': 50.0}) == 'numpy'


def test_a_library_with_wrong_results_is_left_out(fresh, monkeypatch):
    class Wrong(FakeLib):
        def product(self, p, nthreads):
            p.out[...] = 0
            return True
    gflops, problems = gemm.calibrate([Wrong('mkl')], shapes=((256, 256, 64),), rounds=1)
    assert set(gflops) == {'numpy'}
    assert problems and 'mkl left out' in problems[0]


@pytest.mark.parametrize('value, message', [
    ('openblas', "HOOKGRAD_GEMM='openblas' is none of numpy, mkl, blis, auto"),
])
def test_an_unknown_value_warns_and_uses_numpy(fresh, monkeypatch, value, message):
    monkeypatch.setenv('HOOKGRAD_GEMM', value)
    with pytest.warns(RuntimeWarning, match=message):
        assert gemm.chosen() == 'numpy'


@pytest.mark.parametrize('name', ['mkl', 'blis'])
def test_a_requested_library_that_is_not_installed_names_its_package(fresh, monkeypatch, name):
    monkeypatch.setitem(gemm.LIBRARIES, name, ((lambda: None), gemm.LIBRARIES[name][1]))
    monkeypatch.setenv('HOOKGRAD_GEMM', f' {name.upper()} ')
    a = np.ones((128, 128), np.float32)
    with pytest.warns(RuntimeWarning, match=rf"{name} is not installed \(pip install {name}, "
                                            rf"or hookgrad\[{name}\]\)"):
        np.testing.assert_array_equal(gemm.matmul(a, a), np.full((128, 128), 128, np.float32))
    assert ms.blas_info()['gemm'] == 'numpy'
    assert f"pip install {name}" in ms.blas_info()['gemm_reason']


def test_numpy_requested_uses_numpy_without_looking(fresh, monkeypatch):
    monkeypatch.setenv('HOOKGRAD_GEMM', 'numpy')
    monkeypatch.setattr(gemm, '_installed', lambda: pytest.fail('looked for libraries'))
    assert gemm.chosen() == 'numpy'
    assert ms.blas_info()['gemm_reason'] == 'HOOKGRAD_GEMM=numpy'


def test_the_library_gets_the_count_threads_py_set(fresh, monkeypatch):
    fake = FakeLib('blis')
    _use(monkeypatch, {'blis': fake})
    monkeypatch.setenv('HOOKGRAD_GEMM', 'blis')
    counts = []
    monkeypatch.setattr(_threads, '_set', counts.append)
    monkeypatch.setattr(_threads, '_current', 2)
    monkeypatch.setattr(_threads, '_cores', 2)
    monkeypatch.setattr(_threads, '_large', 2)
    monkeypatch.setattr(_threads, '_sample', (float('inf'), None, 0.0))
    big = np.ones((256, 256), np.float32)
    thin = np.ones((160, 160), np.float32)       # 8.2 MFLOP: large
    _threads.matmul(big, big)
    _threads.matmul(thin[:, :8], thin[:8])       # under MIN_FLOPS: NumPy's
    small = np.ones((100, 100), np.float32)      # 2 MFLOP < SMALL: one thread, under MIN_FLOPS
    _threads.matmul(small, small)
    assert fake.threads == [2]
    monkeypatch.setattr(_threads, '_large', 1)   # under load
    _threads.matmul(big, big)
    assert fake.threads == [2, 1]


@pytest.mark.parametrize('name', INSTALLED)
def test_two_python_threads_each_run_one_thread_products(fresh, monkeypatch, name):
    """Ranges run at once by split_products keep each product on one thread of the library."""
    monkeypatch.setenv('HOOKGRAD_GEMM', name)
    lib = LIBS[name]
    seen = []
    if name == 'mkl':
        real = lib._gemm[np.dtype(np.float32)]
        monkeypatch.setitem(lib._gemm, np.dtype(np.float32),
                            lambda *args: (seen.append(lib.max_threads()), real(*args)))
    else:
        real = lib.product          # BLIS has no threads: the count is its ranges of rows
        monkeypatch.setattr(lib, 'product', lambda p, n: (seen.append(n), real(p, n))[1])
    monkeypatch.setattr(gemm, '_load', lambda n, where: (lib, None))
    monkeypatch.setattr(_threads, '_set', lambda n: None)
    monkeypatch.setattr(_threads, '_current', 2)
    monkeypatch.setattr(_threads, '_owner', threading.get_ident())
    a = np.random.default_rng(5).standard_normal((4, 256, 256)).astype(np.float32)
    out = np.empty_like(a)

    def products(lo, hi):
        for i in range(lo, hi):
            gemm.matmul(a[i], a[i], out=out[i])
    monkeypatch.setattr(_threads, 'workers', lambda: 2)
    assert gemm.chosen() == name        # decided first: a range meeting the decision uses NumPy
    _threads.split_products(products, 4, 1 << 21, 2 * 256 ** 3)
    np.testing.assert_allclose(out, np.matmul(a, a), rtol=1e-4, atol=1e-3)
    assert seen == [1, 1, 1, 1]
    gemm.matmul(a[0], a[0])                      # outside: the count of large products
    assert seen[-1] == 2


def test_numpy_blas_is_picked_among_several_libraries():
    class Lib:
        def __init__(self, api, path):
            self.internal_api, self.filepath = api, path
    home = __import__('os').path.dirname(np.__file__)
    ours = Lib('openblas', home + '.libs/libscipy_openblas64_.so')
    mkl = Lib('mkl', '/opt/lib/libmkl_rt.so.2')
    other = Lib('openblas', '/opt/other/libopenblas.so')
    assert _threads.numpy_blas([ours]) is ours
    assert _threads.numpy_blas([mkl, ours]) is ours
    assert _threads.numpy_blas([mkl, ours, other]) is ours
    assert _threads.numpy_blas([mkl, other]) is other
    assert _threads.numpy_blas([mkl, Lib('blis', '/x/libblis.so')]) is None


@pytest.mark.skipif(LIBS['mkl'] is None, reason="mkl is not installed (pip install hookgrad[mkl])")
def test_openblas_stays_controlled_with_mkl_loaded_first():
    import subprocess
    import sys
    code = ("import ctypes, sys; ctypes.CDLL(sys.argv[1]); import hookgrad as ms; "
            "import threadpoolctl; "
            "print(ms.blas_info()['threads_mode'], "
            "sorted(l['internal_api'] for l in threadpoolctl.threadpool_info()))")
    out = subprocess.run([sys.executable, '-c', code, LIBS['mkl'].path], capture_output=True,
                         text=True, check=True).stdout.split(None, 1)
    assert out[0] == 'auto'
    assert 'mkl' in out[1] and 'openblas' in out[1]
