"""``mindspore.runtime`` / ``hal`` memory figures: the GPU pool's while tensors go to the GPU
(here the CUDA stand-in, which keeps CuPy's pool accounting), zeros on the CPU."""
import gc

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.kernels import backend

GPU = backend.gpu()
MiB = 1 << 20


def about(n):
    """``n`` bytes, give or take the small blocks of cached scalars (512 bytes each)."""
    return pytest.approx(n, abs=4096)


@pytest.fixture
def on_gpu():
    gc.collect()
    with backend.default_device(GPU):
        ms.runtime.empty_cache()
        ms.runtime.reset_peak_memory_stats()
        yield


def test_allocated_follows_live_tensors_and_the_peak_stays(on_gpu):
    base = ms.runtime.memory_allocated()
    x = ms.ops.ones((256, 1024), ms.float32)             # 1 MiB
    assert ms.runtime.memory_allocated() - base == MiB
    y = x * 2
    assert ms.runtime.memory_allocated() - base == about(2 * MiB)
    del x, y
    assert ms.runtime.memory_allocated() - base == about(0)
    assert ms.runtime.max_memory_allocated() - base == about(2 * MiB)
    ms.runtime.reset_peak_memory_stats()
    assert ms.runtime.max_memory_allocated() == ms.runtime.memory_allocated()
    assert ms.hal.max_memory_allocated is ms.runtime.max_memory_allocated


def test_reserved_keeps_freed_blocks_until_empty_cache(on_gpu):
    base = ms.runtime.memory_reserved()
    x = ms.ops.zeros((512, 1024), ms.float32)            # 2 MiB
    del x
    assert ms.runtime.memory_reserved() - base == 2 * MiB       # cached for reuse
    assert ms.runtime.max_memory_reserved() >= base + 2 * MiB
    stats = ms.runtime.memory_stats()
    assert stats['total_idle_memory'] == stats['total_reserved_memory'] - \
        stats['total_allocated_memory'] >= 2 * MiB
    ms.runtime.empty_cache()
    assert ms.runtime.memory_reserved() == ms.runtime.memory_allocated()
    ms.runtime.reset_max_memory_reserved()
    assert ms.runtime.max_memory_reserved() == ms.runtime.memory_reserved()


def test_a_training_step_peaks_above_its_parameters(on_gpu):
    net = nn.Dense(1024, 1024)
    params = ms.runtime.memory_allocated()
    assert params >= 4 * MiB                              # weight and bias
    step = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())
    loss, grads = step(ms.Tensor(np.ones((64, 1024), np.float32)))
    assert ms.runtime.max_memory_allocated() >= params + 4 * MiB       # + the weight's gradient
    summary = ms.runtime.memory_summary()
    assert f"{ms.runtime.max_memory_allocated() / MiB:.2f} MB" in summary


def test_the_cpu_has_no_device_memory():
    with backend.default_device(GPU):
        keep = ms.ops.ones((1024,), ms.float32)
    with backend.default_device(backend.CPU):
        assert ms.runtime.memory_allocated() == ms.runtime.max_memory_reserved() == 0
        assert '0 B' in ms.runtime.memory_summary()
    del keep
