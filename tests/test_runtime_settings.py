"""mindspore.runtime's settings, core limits and pluggable allocator, against MindSpore 2.10's
behaviour on the CPU (errors and messages recorded from it)."""
import ctypes.util

import pytest

import hookgrad as ms
from hookgrad import runtime as rt
from hookgrad.runtime import settings


@pytest.fixture(autouse=True)
def fresh_settings():
    saved, level = dict(settings.configured), ms.get_context('memory_optimize_level')
    limits = dict(settings._device_limits)
    settings.configured.clear()
    settings._device_limits.clear()
    yield
    settings.configured.clear()
    settings.configured.update(saved)
    settings._device_limits.clear()
    settings._device_limits.update(limits)
    ms.set_context(memory_optimize_level=level)


def test_set_memory_keeps_sizes_and_reports_level():
    rt.set_memory("1GB", "3GB", "4.5GB", "O1", "1GB")
    assert settings.configured['memory'] == {'init_size': 1.0, 'increase_size': 3.0,
                                             'max_size': 4.5, 'optimize_level': 1,
                                             'huge_page_reserve_size': 1.0}
    assert ms.get_context('memory_optimize_level') == 1
    with pytest.raises(RuntimeError, match="The 'set_memory' can not be set repeatedly."):
        rt.set_memory("1GB")


@pytest.mark.parametrize('kwargs, error, message', [
    ({'init_size': '2G'}, ValueError, r"The '2G' is illegal, it must be match regular"),
    ({'max_size': '0GB'}, ValueError, r"The '0GB' is illegal"),
    ({'init_size': 2}, TypeError,
     r"The parameter 'init_size' must be <class 'str'>, but got <class 'int'>"),
    ({'optimize_level': 'O2'}, ValueError,
     r"The optimize_level must be one of \['O0', 'O1'\], but got O2."),
    ({'huge_page_reserve_size': 'x'}, ValueError, r"The 'x' is illegal"),
])
def test_set_memory_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        rt.set_memory(**kwargs)
    assert 'memory' not in settings.configured


def test_dispatch_threads_num():
    with pytest.raises(ValueError, match="The 'threads_num' must be int and must > 0, but got "
                                         "'0' with type 'int'."):
        rt.dispatch_threads_num(0)
    with pytest.raises(TypeError, match="The parameter 'threads_num' must be <class 'int'>, "
                                        "but got <class 'str'>"):
        rt.dispatch_threads_num("a")
    rt.dispatch_threads_num(3)
    assert settings.configured['dispatch_threads_num'] == 3
    with pytest.raises(RuntimeError, match="can not be set repeatedly"):
        rt.dispatch_threads_num(4)


def test_kernel_launch_group_and_capture():
    with pytest.raises(ValueError, match="thread_num should be at least 1, but got 0"):
        rt.set_kernel_launch_group(thread_num=0)
    with pytest.raises(ValueError, match="kernel_group_num: 8 cannot be evenly divisible by "
                                         "thread_num: 3"):
        rt.set_kernel_launch_group(thread_num=3, kernel_group_num=8)
    with pytest.raises(TypeError, match="'thread_num' must be <class 'int'>, but got "
                                        "<class 'float'>"):
        rt.set_kernel_launch_group(thread_num=2.0)
    with pytest.raises(TypeError, match="'enable_capture_graph' must be <class 'bool'>"):
        rt.set_kernel_launch_capture(1)
    with pytest.raises(TypeError, match="op_capture_skip must be a list"):
        rt.set_kernel_launch_capture(True, 'x')
    rt.set_kernel_launch_capture(False, ['matmul'])
    assert settings.configured['kernel_launch_capture'] == (False, ['matmul'])
    rt.set_kernel_launch_group()
    assert settings.configured['kernel_launch_group'] == (2, 8)
    with pytest.raises(RuntimeError, match="'kernel_launch_group' can not be set repeatedly"):
        rt.set_kernel_launch_group()
    with pytest.raises(RuntimeError, match="can not be set together"):
        rt.set_kernel_launch_capture(True)


def test_capture_on_forbids_launch_group():
    rt.set_kernel_launch_capture(True)
    with pytest.raises(RuntimeError, match="can not be set together"):
        rt.set_kernel_launch_group()


def test_device_limit_is_kept_per_device():
    assert rt.get_device_limit(0) == {'cube_core_num': -1, 'vector_core_num': -1}
    rt.set_device_limit(0, 8, 4)
    rt.set_device_limit(0, vector_num=6)
    assert rt.get_device_limit(0) == {'cube_core_num': 8, 'vector_core_num': 6}
    assert rt.get_device_limit(1) == {'cube_core_num': -1, 'vector_core_num': -1}
    with pytest.raises(TypeError, match="the argument 'cube_num' should be int"):
        rt.set_device_limit(0, 1.5)
    with pytest.raises(ValueError, match="'vector_num' should be -1 .* but got -2"):
        rt.set_device_limit(0, 1, -2)


def test_stream_limits():
    stream = rt.Stream()
    assert rt.get_stream_limit(stream) == {'cube_core_num': -1, 'vector_core_num': -1}
    rt.set_stream_limit(stream, 4, 4)
    assert rt.get_stream_limit(stream) == {'cube_core_num': 4, 'vector_core_num': 4}
    with rt.StreamLimitCtx(stream, 2, 3):
        assert rt.get_stream_limit(stream) == {'cube_core_num': 2, 'vector_core_num': 3}
    assert rt.get_stream_limit(stream) == {'cube_core_num': 4, 'vector_core_num': 4}
    rt.reset_stream_limit(stream)
    assert rt.get_stream_limit(stream) == {'cube_core_num': -1, 'vector_core_num': -1}
    assert rt.get_stream_limit(rt.default_stream())['cube_core_num'] == -1


@pytest.mark.parametrize('call, where', [
    (lambda: rt.get_stream_limit(1), 'get_stream_limit'),
    (lambda: rt.set_stream_limit(None), 'set_stream_limit'),
    (lambda: rt.reset_stream_limit(1), 'set_stream_limit'),
    (lambda: rt.StreamLimitCtx(1), 'StreamLimitCtx'),
])
def test_stream_limit_needs_a_stream(call, where):
    with pytest.raises(TypeError, match=f"For '{where}', the argument 'stream' should be "
                                        f"Stream, but got"):
        call()


def test_memory_replay_raises():
    with pytest.raises(RuntimeError, match="memory_replay: .* Ascend"):
        rt.memory_replay("memory_block.csv")


def test_pluggable_allocator_loads_functions():
    libc = ctypes.util.find_library('c')
    allocator = rt.PluggableAllocator(libc, 'malloc', 'free')
    lib = ctypes.CDLL(libc)
    assert allocator.alloc_fn_ptr == ctypes.cast(lib.malloc, ctypes.c_void_p).value
    assert allocator.free_fn_ptr == ctypes.cast(lib.free, ctypes.c_void_p).value
    pool = rt.MemPool(allocator)
    assert pool.allocator is allocator
    with pytest.raises(RuntimeError, match="use_mem_pool: .*NumPy"):
        with rt.use_mem_pool(pool):
            pass
    with pytest.raises(TypeError, match="'pool' should be MemPool"):
        with rt.use_mem_pool(allocator):
            pass
    with pytest.raises(AttributeError, match="undefined symbol: nope"):
        rt.PluggableAllocator(libc, 'nope', 'free')
    with pytest.raises(OSError, match="cannot open shared object file"):
        rt.PluggableAllocator('/nonexistent.so', 'a', 'b')


def test_top_level_names_are_the_runtime_ones():
    for name in ['MemPool', 'PluggableAllocator', 'use_mem_pool', 'StreamLimitCtx',
                 'dispatch_threads_num', 'get_device_limit', 'set_device_limit',
                 'get_stream_limit', 'set_stream_limit', 'reset_stream_limit', 'memory_replay',
                 'set_kernel_launch_capture', 'set_kernel_launch_group', 'set_memory']:
        assert getattr(ms, name) is getattr(rt, name)
