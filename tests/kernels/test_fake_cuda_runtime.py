"""The CUDA stand-in's runtime keeps CuPy 14's: the memory pool's accounting, memory hooks,
the allocator switch, device, streams, events and cuBLAS's TF32 compute type."""
import gc
import json
import os

import numpy as np
import pytest

from hookgrad.kernels import fake_cuda, fake_cuda_runtime
from hookgrad.kernels.fake_cuda import xp

NAMES = json.load(open(os.path.join(os.path.dirname(fake_cuda.__file__), 'cupy_names.json')))
POOL = xp.get_default_memory_pool()


def _public(obj):
    return {n for n in dir(obj) if not n.startswith('_')}


@pytest.mark.parametrize('name', ['MemoryPool', 'MemoryPointer', 'MemoryHook', 'Device',
                                  'Stream', 'Event'])
def test_emulated_classes_have_only_cupys_members(name):
    cls = getattr(xp.cuda, name)
    members = _public(cls) | (_public(cls()) if name not in ('MemoryPointer',) else set())
    assert members <= set(NAMES['cuda'][name]), members - set(NAMES['cuda'][name])


def test_cuda_names_not_emulated_say_so():
    assert set(NAMES['cuda']['']) <= _public(xp.cuda)
    with pytest.raises(NotImplementedError, match="cupy.cuda.Graph exists in CuPy 14"):
        xp.cuda.Graph()
    with pytest.raises(NotImplementedError, match="cupy.cuda.runtime.malloc exists in CuPy 14"):
        xp.cuda.runtime.malloc(8)


def test_the_pool_counts_rounded_blocks_of_owning_arrays_and_caches_freed_ones():
    gc.collect()
    POOL.free_all_blocks()
    used, total = POOL.used_bytes(), POOL.total_bytes()
    a = xp.ones((100, 100), np.float32)                 # 40,000 bytes -> 40,448
    assert POOL.used_bytes() - used == 40448 and POOL.total_bytes() - total == 40448
    views = (a.T, a[1:], a.reshape(-1))                 # views hold no memory of their own
    assert POOL.used_bytes() - used == 40448
    del a, views
    assert POOL.used_bytes() == used and POOL.total_bytes() - total == 40448   # cached
    assert POOL.n_free_blocks() >= 1
    b = xp.zeros(10000, np.float32)                     # the same rounded size: reused
    assert POOL.total_bytes() - total == 40448
    del b
    POOL.free_all_blocks()
    assert POOL.total_bytes() == POOL.used_bytes() and POOL.free_bytes() == 0


def test_memory_hooks_see_malloc_and_free_with_cupys_arguments():
    seen = []

    class Hook(xp.cuda.MemoryHook):
        name = 'test'

        def malloc_postprocess(self, **kwargs):
            seen.append(('malloc', sorted(kwargs), kwargs['size'], kwargs['mem_size']))

        def free_postprocess(self, **kwargs):
            seen.append(('free', sorted(kwargs), kwargs['mem_size']))

    with Hook():
        a = xp.empty(3, np.float64)
        del a
    xp.empty(3)                                         # after the block: not seen
    assert seen == [('malloc', ['device_id', 'mem_ptr', 'mem_size', 'pmem_id', 'size'], 24, 512),
                    ('free', ['device_id', 'mem_ptr', 'mem_size', 'pmem_id'], 512)]
    hook = Hook()
    with hook, pytest.raises(KeyError, match="hook test already exists"):
        with Hook():
            pass


def test_the_allocator_can_be_replaced_and_none_bypasses_the_pool():
    sizes = []

    def counting(size):
        sizes.append(size)
        return POOL.malloc(size)

    xp.cuda.set_allocator(counting)
    try:
        xp.ones(7, np.int32)
        assert sizes == [28]
        xp.cuda.set_allocator(None)
        used = POOL.used_bytes()
        keep = xp.ones(1000)
        assert POOL.used_bytes() == used and keep.shape == (1000,)
    finally:
        xp.cuda.set_allocator(POOL.malloc)


def test_a_limit_makes_allocation_fail_as_cupy_does():
    POOL.free_all_blocks()
    POOL.set_limit(size=POOL.total_bytes() + 4096)
    try:
        with pytest.raises(fake_cuda_runtime.OutOfMemoryError, match="Out of memory"):
            xp.empty(1 << 20, np.float32)
    finally:
        POOL.set_limit(size=0)
    assert POOL.get_limit() == 0


def test_device_streams_and_events():
    assert xp.cuda.runtime.getDeviceCount() == 1
    assert xp.cuda.Device().compute_capability == '90'
    free, total = xp.cuda.Device().mem_info
    assert total == fake_cuda_runtime.TOTAL_MEMORY and 0 < free <= total
    with pytest.raises(xp.cuda.runtime.CUDARuntimeError, match="invalid device ordinal"):
        xp.cuda.Device(1).synchronize()
    stream = xp.cuda.Stream(non_blocking=True)
    assert xp.cuda.get_current_stream() is xp.cuda.Stream.null
    with stream:
        assert xp.cuda.get_current_stream() is stream
    assert xp.cuda.get_current_stream() is xp.cuda.Stream.null
    start, end = xp.cuda.Event(), xp.cuda.Event()
    start.record()
    end.record(stream)
    assert start.done and xp.cuda.get_elapsed_time(start, end) >= 0
    with pytest.raises(xp.cuda.runtime.CUDARuntimeError, match="invalid resource handle"):
        xp.cuda.get_elapsed_time(xp.cuda.Event(disable_timing=True), end)


def test_tf32_rounds_float32_product_operands_to_ten_mantissa_bits():
    linalg = xp._core._routines_linalg
    a = xp.asarray(np.float32([[1 + 2 ** -12, 1 + 2 ** -9]]))
    b = xp.asarray(np.float32([[1], [1]]))
    exact = (a @ b).get()
    assert exact[0, 0] == np.float32(2 + 2 ** -12 + 2 ** -9)
    linalg.set_compute_type(np.float32, linalg.COMPUTE_TYPE_TF32)
    try:
        for product in (a @ b, xp.matmul(a, b), xp.dot(a, b)):
            assert product.get()[0, 0] == np.float32(2 + 2 ** -9)     # 2**-12 rounds away
        assert (xp.asarray(np.float64([[1 + 2 ** -12]])) @ xp.asarray(np.float64([[1.0]]))
                ).get()[0, 0] == 1 + 2 ** -12                          # float64 untouched
        assert float(fake_cuda_runtime.tf32(np.float32([1 + 3 * 2 ** -11]))[0]) == 1 + 2 ** -9
    finally:
        linalg.set_compute_type(np.float32, linalg.COMPUTE_TYPE_DEFAULT)
    assert linalg.get_compute_type(np.float32) == linalg.COMPUTE_TYPE_DEFAULT
    assert ((a @ b).get() == exact).all()
