"""The BLAS thread choice: small products on one thread, large ones on the free cores, results
that do not depend on the count, and HOOKGRAD_BLAS_THREADS=fixed turning it off."""
import json
import subprocess
import sys

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import blas as _blas
from hookgrad.kernels import threads as _threads
from hookgrad.testing import check_grad


@pytest.fixture
def controlled(monkeypatch):
    """Thread control as on a 4-core machine with no other load, recording each count set."""
    calls = []
    monkeypatch.setattr(_threads, '_set', calls.append)
    monkeypatch.setattr(_threads, '_current', 4)
    monkeypatch.setattr(_threads, '_cores', 4)
    monkeypatch.setattr(_threads, '_large', 4)
    monkeypatch.setattr(_threads, '_sample', (float('inf'), None, 0.0))   # never re-sampled
    return calls


def test_small_products_get_one_thread_large_ones_the_cores(controlled):
    assert _threads.threads_for(_threads.TINY - 1) == 0          # OpenBLAS's own single thread
    assert _threads.threads_for(_threads.TINY) == 1
    assert _threads.threads_for(_threads.SMALL - 1) == 1
    assert _threads.threads_for(_threads.SMALL) == 4
    assert _threads.threads_for(10 ** 9, 6, 25) == 1              # a thin output: 150 elements
    assert _threads.threads_for(10 ** 9, 512, 512) == 4


def test_load_leaves_fewer_threads():
    assert [_threads.large_threads(2, busy) for busy in (0.0, 0.4, 0.6, 1.0, 2.0)] == \
        [2, 2, 1, 1, 1]
    assert [_threads.large_threads(4, busy) for busy in (0.0, 1.0, 2.7, 3.9)] == [4, 3, 1, 1]


def test_others_busy_subtracts_this_process(monkeypatch):
    monkeypatch.setattr(_threads, '_cores', 2)
    monkeypatch.setattr(_threads, '_sample', (0.0, 1000, 5.0))
    monkeypatch.setattr(_threads.time, 'monotonic', lambda: 1.0)
    monkeypatch.setattr(_threads.time, 'process_time', lambda: 5.5)
    hz = _threads._hz
    monkeypatch.setattr(_threads, '_stat_busy', lambda cpus: 1000 + int(1.5 * hz))
    assert _threads.others_busy() == pytest.approx(1.0)          # 1.5 cores busy, 0.5 ours
    assert _threads._large == 1


def test_first_sample_comes_after_a_short_interval_then_every_sample_s(monkeypatch):
    """A run shorter than SAMPLE_S beside a busy neighbour still gets a measured count."""
    now = [0.0]
    hz = _threads._hz
    monkeypatch.setattr(_threads, '_cores', 2)
    monkeypatch.setattr(_threads, '_interval', _threads.FIRST_SAMPLE_S)
    monkeypatch.setattr(_threads, '_sample', (0.0, 1000, 5.0))     # taken at import
    monkeypatch.setattr(_threads.time, 'monotonic', lambda: now[0])
    monkeypatch.setattr(_threads.time, 'process_time', lambda: 5.0 + now[0])   # one core ours
    monkeypatch.setattr(_threads, '_stat_busy', lambda cpus: 1000 + round(2 * now[0] * hz))
    monkeypatch.setattr(_threads, '_others', 0.0)
    monkeypatch.setattr(_threads, '_large', 2)
    now[0] = 0.05
    assert _threads.threads_for(1e9) == 2                   # not yet measured
    now[0] = 0.1
    assert _threads.threads_for(1e9) == 1                   # both cores busy, one ours
    assert _threads._interval == _threads.SAMPLE_S
    monkeypatch.setattr(_threads, '_stat_busy', lambda cpus: 1000 + round(now[0] * hz))
    now[0] = 0.5
    assert _threads.threads_for(1e9) == 1                   # the next sample waits SAMPLE_S
    now[0] = 0.6
    assert _threads.threads_for(1e9) == 2                   # only ours busy since then


def test_stat_busy_reads_the_cores_of_the_process(tmp_path):
    stat = tmp_path / 'stat'
    stat.write_text("cpu  9 9 9 9 9 9 9 9 0 0\ncpu0 10 0 5 100 7 1 1 2 0 0\n"
                    "cpu1 20 0 0 100 0 0 0 0 0 0\nintr 1 2\n")
    assert _threads._stat_busy({0}, str(stat)) == 19                # idle and iowait excluded
    assert _threads._stat_busy({0, 1}, str(stat)) == 39
    assert _threads._stat_busy({0}, str(tmp_path / 'missing')) is None


def test_set_threads_switches_only_on_change_and_restores(controlled):
    assert _threads.set_threads(0) == 0 and controlled == []
    assert _threads.set_threads(4) == 4 and controlled == []
    assert _threads.set_threads(1) == 4 and controlled == [1]
    with _threads.blas_call(10 ** 9, 512, 512):
        assert controlled == [1, 4]
    assert controlled == [1, 4, 1]


def test_ops_set_and_restore_the_count(controlled):
    rng = np.random.default_rng(0)
    a = ms.Tensor(rng.standard_normal((64, 400), dtype=np.float32))
    w = ms.Tensor(rng.standard_normal((120, 400), dtype=np.float32))
    ops.dense(a, w)                                               # 6.1 MFLOP: large
    ops.matmul(a, ms.Tensor(rng.standard_normal((400, 20), dtype=np.float32)))   # 1 MFLOP
    assert controlled == [1, 4]


@pytest.mark.parametrize('n', [1, 2, 3])
def test_results_do_not_depend_on_the_thread_count(n):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 200, 300))
    b = rng.standard_normal((300, 150))
    before = _threads.set_threads(1)
    try:
        # the same code paths on one thread: a batched product and a 2-d one may block the
        # sums differently, so each is compared with itself
        expected = _threads.matmul(a, b)
        expected_dense = ops.dense(ms.Tensor(a), ms.Tensor(b.T)).asnumpy()
        _threads.set_threads(n)
        got = _threads.matmul(a, b)
        y = ops.dense(ms.Tensor(a), ms.Tensor(b.T)).asnumpy()
    finally:
        _threads.set_threads(before)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(y, expected_dense)
    np.testing.assert_allclose(got, a @ b, rtol=1e-12, atol=1e-12)


def test_matmul_and_dense_gradients_under_thread_control(controlled, monkeypatch):
    monkeypatch.setattr(_threads, 'TINY', 0)                      # every product is controlled
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal((4, 3, 5)), rng.standard_normal((2, 5))
    check_grad(lambda x, w: ops.dense(x, w), x, w)
    check_grad(lambda x, w: ops.matmul(x, ops.transpose(w, (1, 0))), x, w)
    assert set(controlled) == {1, 4}


def test_product_flops_counts_the_broadcast_batch():
    a, b = np.empty((1, 4, 5)), np.empty((8, 5, 6))
    assert _threads.product_flops(a, b) == (2 * 8 * 4 * 5 * 6, 4, 6)
    assert _threads.product_flops(np.empty((4, 5)), np.empty((5, 6))) == (240, 4, 6)


def test_thread_timeout_is_set_only_when_free_to():
    env = {}
    assert _blas.quiet_threads(env, numpy_loaded=False) == '4'
    assert env == {'OPENBLAS_THREAD_TIMEOUT': '4'}
    for env in ({'OPENBLAS_THREAD_TIMEOUT': '20'}, {'GOTO_THREAD_TIMEOUT': '8'},
                {'HOOKGRAD_BLAS_THREADS': 'fixed'}):
        assert _blas.quiet_threads(dict(env), numpy_loaded=False) is None
    assert _blas.quiet_threads({}, numpy_loaded=True) is None


def _blas_info_in(env):
    code = "import json, hookgrad as ms; print(json.dumps(ms.blas_info()))"
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env=dict(env, PATH=''), check=True)
    return json.loads(out.stdout)


def test_env_var_switches_it_off():
    info = _blas_info_in({'HOOKGRAD_BLAS_THREADS': 'fixed'})
    assert info['threads_mode'] == 'fixed' and info['thread_timeout'] is None
    assert info['threads_reason'] == "turned off by HOOKGRAD_BLAS_THREADS=fixed"
    bad = _blas_info_in({'HOOKGRAD_BLAS_THREADS': 'many'})
    assert bad['threads_reason'] == ("HOOKGRAD_BLAS_THREADS='many' is neither 'auto', 'fixed' "
                                     "nor a positive int; the choice is off")
    capped = _blas_info_in({'HOOKGRAD_BLAS_THREADS': '1'})
    assert capped['threads_mode'] == 'auto' and capped['threads_max'] == 1
    assert capped['thread_timeout'] == '4'


def _ranges(n, size):
    """The (lo, hi, thread name) of each call ``split`` makes."""
    import threading
    seen = []
    _threads.split(lambda lo, hi: seen.append((lo, hi, threading.current_thread().name)),
                   n, size)
    return sorted(seen)


def test_split_cuts_large_passes_into_one_range_per_free_core(controlled):
    got = _ranges(10, _threads.SPLIT_MIN)
    assert [(lo, hi) for lo, hi, _ in got] == [(0, 2), (2, 5), (5, 7), (7, 10)]
    assert sum(name.startswith('hookgrad-split') for *_, name in got) == 3


def test_split_runs_small_passes_and_passes_under_load_in_one_call(controlled, monkeypatch):
    assert [(lo, hi) for lo, hi, _ in _ranges(10, _threads.SPLIT_MIN - 1)] == [(0, 10)]
    assert [(lo, hi) for lo, hi, _ in _ranges(2, _threads.SPLIT_MIN)] == [(0, 1), (1, 2)]
    monkeypatch.setattr(_threads, '_large', 1)
    assert [(lo, hi) for lo, hi, _ in _ranges(10, _threads.SPLIT_MIN)] == [(0, 10)]


def test_split_raises_an_error_of_any_range_after_all_ran(controlled):
    done = []

    def fn(lo, hi):
        done.append(lo)
        if lo == 5:
            raise ValueError('range 5')
    with pytest.raises(ValueError, match='range 5'):
        _threads.split(fn, 10, _threads.SPLIT_MIN)
    assert sorted(done) == [0, 2, 5, 7]


def test_split_inside_a_split_range_runs_inline(controlled):
    inner = []
    _threads.split(lambda lo, hi: inner.append(_ranges(4, _threads.SPLIT_MIN)), 2,
                   _threads.SPLIT_MIN)
    assert len(inner) == 2
    assert any(r == [(0, 4, r[0][2])] for r in inner)     # the one on a split thread


@pytest.mark.parametrize('algorithm', ['auto', 'fast'])
@pytest.mark.parametrize('shape', [(8, 64, 16, 16), (4, 128, 8, 8), (3, 5, 9, 9)])
def test_winograd_and_im2col_give_the_same_numbers_split_or_not(controlled, monkeypatch, shape,
                                                                algorithm):
    """Passes and products shared between threads give the numbers of one thread (the first
    shape runs Winograd one image at a time with 'fast')."""
    from hookgrad.kernels import conv as conv_kernels
    from hookgrad.kernels import winograd
    monkeypatch.setattr(conv_kernels, 'ALGORITHM', algorithm)
    monkeypatch.setattr(winograd, 'PIECE_ELEMENTS', 1)
    rng = np.random.default_rng(5)
    x = rng.standard_normal(shape, dtype=np.float32)
    w = rng.standard_normal((shape[1], shape[1], 3, 3), dtype=np.float32)
    runs = []
    for least in (_threads.SPLIT_MIN, 0):
        monkeypatch.setattr(_threads, 'SPLIT_MIN', least)
        xt, wt = ms.Tensor(x, requires_grad=True), ms.Tensor(w, requires_grad=True)
        y = ops.conv2d(xt, wt, pad_mode='pad', padding=1)
        y.sum().backward()
        runs.append([y.asnumpy(), xt.grad.asnumpy(), wt.grad.asnumpy()])
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize('layout', ['nchw', 'nhwc'])
@pytest.mark.parametrize('offset', [0.0, 3.0])      # one-pass variance, then two passes
def test_batch_norm_and_relu_split_or_not(controlled, monkeypatch, layout, offset):
    """Split passes give ReLU's exact values and BatchNorm's up to float64 summation order."""
    from hookgrad.ops import normalization
    monkeypatch.setattr(normalization, 'ONE_PASS_BYTES', 0)
    rng = np.random.default_rng(6)
    x = rng.standard_normal((6, 4, 5, 5), dtype=np.float32) + np.float32(offset)
    if layout == 'nhwc':
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    gy = rng.standard_normal(x.shape, dtype=np.float32)
    runs = []
    for least in (_threads.SPLIT_MIN, 0):
        monkeypatch.setattr(_threads, 'SPLIT_MIN', least)
        bn = ms.nn.BatchNorm2d(4).set_train()
        xt = ms.Tensor(x, requires_grad=True)
        y = ops.relu(bn(xt))
        y.backward(ms.Tensor(gy))
        runs.append([y.asnumpy(), xt.grad.asnumpy(), bn.gamma.grad.asnumpy()
                     if bn.gamma.grad is not None else None])
    for a, b in zip(*runs):
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
