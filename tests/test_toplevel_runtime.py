"""Top-level runtime names: memory statistics, synchronize, determinism, logging, the graph
compiler's decorators and settings, recompute, frombuffer and Generator. Expected values and
messages are what MindSpore 2.10 gives on the CPU."""

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import _random, nn
from hookgrad import _runtime
from hookgrad.runtime import device as runtime_device
from hookgrad.context import get_context, set_context

# MindSpore 2.10's ms.memory_summary() on the CPU
SUMMARY = """\
|=============================================|
|               Memory summary                |
|=============================================|
| Metric               | Data                 |
|---------------------------------------------|
| Reserved memory      |      0 B             |
|---------------------------------------------|
| Allocated memory     |      0 B             |
|---------------------------------------------|
| Idle memory          |      0 B             |
|---------------------------------------------|
| Eager free memory    |      0 B             |
|---------------------------------------------|
| Max reserved memory  |      0 B             |
|---------------------------------------------|
| Max allocated memory |      0 B             |
|=============================================|
"""


@pytest.fixture(autouse=True)
def keep_global_state():
    saved = _random._seed, _random._generator, runtime_device._affinity_set
    deterministic = get_context('deterministic')
    yield
    _random._seed, _random._generator, runtime_device._affinity_set = saved
    set_context(deterministic=deterministic)


def test_memory_statistics_are_mindspore_cpu_values():
    for f in (ms.memory_allocated, ms.max_memory_allocated, ms.memory_reserved,
              ms.max_memory_reserved):
        assert f() == 0
    for f in (ms.synchronize, ms.launch_blocking, ms.empty_cache, ms.reset_peak_memory_stats,
              ms.reset_max_memory_allocated, ms.reset_max_memory_reserved):
        assert f() is None
    pool = {'block_counts': 0, 'block_unit_size': 0, 'blocks_info': {}}
    assert ms.memory_stats() == {
        'total_reserved_memory': 0, 'total_allocated_memory': 0, 'total_idle_memory': 0,
        'total_eager_free_memory': 0, 'max_reserved_memory': 0, 'max_allocated_memory': 0,
        'common_mem_pool_stats': pool, 'persistent_mem_pool_stats': pool}
    assert ms.memory_summary() == SUMMARY


def test_set_deterministic():
    ms.set_deterministic(True)
    assert get_context('deterministic') == 'ON'
    ms.set_deterministic(False)
    assert get_context('deterministic') == 'OFF'
    with pytest.raises(TypeError, match="The parameter 'deterministic' must be <class 'bool'>, "
                                        "but got <class 'int'>"):
        ms.set_deterministic(1)


def test_set_cpu_affinity_once():
    assert ms.set_cpu_affinity(True) is None
    with pytest.raises(RuntimeError, match="'mindspore.runtime.set_cpu_affinity' cannot be set "
                                           "repeatedly."):
        ms.set_cpu_affinity(True, [0, 1])
    with pytest.raises(TypeError, match="enable_affinity must be a bool, got int"):
        ms.set_cpu_affinity(1)


def test_logging_configuration(monkeypatch):
    # MindSpore 2.10 reads GLOG_v once, when its logger starts: a later change does not move it
    assert ms.get_level is ms.log.get_level
    level = ms.get_level()
    assert level in ('0', '1', '2', '3', '4')
    assert ms.get_log_config()['GLOG_v'] == level
    monkeypatch.setenv('GLOG_v', '4' if level != '4' else '3')
    assert ms.get_level() == level


def test_set_dump_warns_on_cpu():
    with pytest.warns(UserWarning, match="Current device_target is CPU, which is not supported "
                                         "by set_dump"):
        ms.set_dump(nn.Dense(2, 2))
    with pytest.raises(ValueError, match='The "target" parameter must be an instance of Cell or '
                                         "Primitive, but got an instance of <class 'int'>."):
        ms.set_dump(3)


def test_set_recursion_limit():
    ms.set_recursion_limit(2000)
    assert _runtime._recursion_limit == 2000
    ms.set_recursion_limit()
    with pytest.raises(ValueError, match="The input value must be int and must > 0, but got "
                                         "'0' with type 'int'."):
        ms.set_recursion_limit(0)
    with pytest.raises(TypeError, match="The input value must be int, but got 'str'"):
        ms.set_recursion_limit('a')


# ----------------------------------------------------------------- decorators
def test_no_inline_and_lazy_inline():
    f = ms.no_inline(lambda v: v)
    assert f.no_inline is True and ms.no_inline()(f) is f

    class Block(nn.Cell):
        @ms.lazy_inline
        def __init__(self, a, b=2):
            super().__init__()
            self.a = a

        def construct(self, v):
            return v

    # MindSpore 2.10 prints lazy_inline_Blockdict_values([1])
    assert Block(1).cell_init_args == 'lazy_inline_Blockdict_values([1])'
    with pytest.raises(ValueError, match="The lazy_inline should decorate the __init__ function, "
                                         "not the function: g."):
        @ms.lazy_inline
        def g(v):
            return v

    class Front(nn.Cell):
        @ms.lazy_inline(policy='front', attrs=['a'])
        def __init__(self, a):
            super().__init__()
            self.a = a

    front = Front(5)
    assert front.no_inline is False and front.cell_init_args == 'lazy_inline_Front[5]'


def test_recompute_function_gives_the_blocks_values():
    net = nn.Dense(2, 2)
    v = ms.tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
    assert np.array_equal(ms.recompute(net, v).asnumpy(), net(v).asnumpy())
    assert ms.recompute(lambda a: a * 2, v, use_reentrant=False).tolist() == [[0, 2], [4, 6]]
    entered = []

    class Ctx:
        def __enter__(self):
            entered.append('forward')

        def __exit__(self, *exc):
            return False

    ms.recompute(lambda a: a, v, use_reentrant=False, context_fn=lambda: (Ctx(), Ctx()))
    assert entered == ['forward']
    with pytest.raises(TypeError, match="Recompute function now only support block which "
                                        "inherited from Cell when use_reentrant=True!"):
        ms.recompute(lambda a: a, v)
    with pytest.raises(ValueError, match="context_fn is only supported when use_reentrant="
                                         "False."):
        ms.recompute(net, v, context_fn=lambda: (Ctx(), Ctx()))


def test_saved_tensors_hooks_are_refused_by_name():
    with pytest.raises(RuntimeError, match="saved_tensors_hooks: pack and unpack hooks on saved "
                                           "tensors are not available in hookgrad"):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    with pytest.raises(RuntimeError, match="register_saved_tensors_hooks: pack and unpack hooks"):
        ms.register_saved_tensors_hooks(lambda t: t, lambda t: t)


# ----------------------------------------------------------------- frombuffer
def test_frombuffer_shares_writable_memory():
    data = bytearray(np.arange(4, dtype=np.float32).tobytes())
    t = ms.frombuffer(data, ms.float32)
    data[0:4] = np.float32(9).tobytes()
    assert t.tolist() == [9.0, 1.0, 2.0, 3.0] and t.dtype == ms.float32     # as MindSpore
    assert ms.frombuffer(bytes([1, 2, 3, 4, 5, 6]), dtype=ms.uint8).tolist() == [1, 2, 3, 4, 5,
                                                                                 6]
    part = ms.frombuffer(np.arange(4, dtype=np.float32).tobytes(), ms.float32, count=2, offset=4)
    assert part.tolist() == [1.0, 2.0]
    # MindSpore 2.10: [16656, 0, 16256]
    assert ms.frombuffer(data, ms.int16, count=3, offset=2).tolist() == [16656, 0, 16256]


def test_frombuffer_errors():
    data = bytearray(16)
    cases = [
        (dict(buffer=data, dtype=ms.float32, count=5),
         r"buffer length \(16 bytes\) after offset \(0 bytes\) is not enough for the requested "
         r"count of elements \(5 elements of size 4 bytes each, total 20 bytes\)."),
        (dict(buffer=data, dtype=ms.float32, offset=20),
         r"offset \(20 bytes\) must be non-negative and no greater than buffer length \(16 "
         r"bytes\) minus 1."),
        (dict(buffer=data, dtype=ms.float32, count=0),
         r"both buffer length \(16\) and count \(0\) must not be 0"),
        (dict(buffer=b'\x01\x02\x03', dtype=ms.int32),
         r"buffer length \(3 bytes\) after offset \(0 bytes\) must be a multiple of element "
         r"size \(4\)."),
        (dict(buffer=3, dtype=ms.int32), "object does not implement Python buffer protocol."),
        (dict(buffer=data, dtype='float32'), "dtype must be mindspore dtype object"),
    ]
    for kwargs, message in cases:
        with pytest.raises(RuntimeError, match=message):
            ms.frombuffer(**kwargs)


# ----------------------------------------------------------------- generators
def test_default_generator_is_the_global_one():
    g = ms.default_generator
    assert g.manual_seed(7) is g and g.initial_seed() == 7 and ms.initial_seed() == 7
    ms.set_seed(3)
    assert g.initial_seed() == 3
    state = g.get_state()
    a = ms.ops.rand(3).asnumpy()
    g.set_state(state)
    assert np.array_equal(ms.ops.rand(3).asnumpy(), a)
    with pytest.raises(TypeError, match="Seed must be an integer."):
        g.manual_seed(1.5)


def test_new_generator_keeps_its_own_state():
    ms.set_seed(1)
    g = ms.Generator()
    assert g.initial_seed() == 0          # as MindSpore's new Generator
    assert g.manual_seed(5).initial_seed() == 5
    state = g.get_state()
    first = g._generator().random(3)
    new = g.seed()
    assert isinstance(new, int) and g.initial_seed() == new
    g.set_state(state)
    assert g.initial_seed() == 5 and np.array_equal(g._generator().random(3), first)
    assert ms.initial_seed() == 1           # the global generator was not touched
    with pytest.raises(TypeError, match=r"Generator.set_state: state must be a UInt8 Tensor of "
                                        r"shape \(45,\) from get_state"):
        g.set_state(ms.tensor([1, 2]))


def test_streams_and_the_profiler_are_top_level_names_as_in_mindspore():
    import hookgrad.profiler
    for name in ('Stream', 'Event', 'StreamCtx', 'current_stream', 'default_stream',
                 'set_cur_stream', 'communication_stream'):
        assert getattr(ms, name) is getattr(ms.runtime, name), name
    assert ms.Profiler is hookgrad.profiler.Profiler
    assert ms.current_stream() == ms.default_stream()


def test_swap_tensors_swaps_contents_and_keeps_identities():
    import importlib
    import weakref
    a = ms.Tensor([1.0, 2.0], requires_grad=True)
    b = ms.Tensor([[3]], ms.int32)
    ia, ib = id(a), id(b)
    ms.swap_tensors(a, b)
    assert (id(a), id(b)) == (ia, ib)
    assert a.dtype == ms.int32 and a.shape == (1, 1) and a.asnumpy().tolist() == [[3]]
    assert b.dtype == ms.float32 and b.asnumpy().tolist() == [1.0, 2.0] and b.requires_grad
    assert not a.requires_grad
    (b * 2).sum().backward()
    assert b.grad.asnumpy().tolist() == [2.0, 2.0]
    assert importlib.import_module('hookgrad.common.tensor').swap_tensors is ms.swap_tensors
    p = ms.Parameter(ms.Tensor([1.0]), name='w')
    with pytest.raises(RuntimeError, match="swap_tensors: hookgrad cannot swap a Tensor and a Parameter"):
        ms.swap_tensors(ms.Tensor([2.0]), p)
    q = ms.Parameter(ms.Tensor([5.0]), name='v')
    ms.swap_tensors(p, q)
    assert (p.name, float(p.asnumpy()[0]), q.name) == ('v', 5.0, 'w')
    c = ms.Tensor([0.0])
    ref = weakref.ref(c)
    with pytest.raises(RuntimeError, match='cannot swap tensors that have weak references'):
        ms.swap_tensors(c, ms.Tensor([1.0]))
    assert ref() is c
    with pytest.raises(TypeError, match='swap_tensors: t2 must be a Tensor, got list'):
        ms.swap_tensors(c, [1.0])
