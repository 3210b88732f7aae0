"""When a program is traced again, when a call runs eagerly, and never a stale program."""
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.jit import JitError
from hookgrad.jit import function as jit_function


def T(*shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def test_signatures_trace_once_each_and_say_why():
    f = ms.jit(lambda x, k: x * k)
    f(T(2, 3), 2.0)
    assert (f.traces, f.last_trace) == (1, 'first call')
    f(T(2, 3, seed=1), 2.0)
    assert (f.traces, f.replays) == (1, 1)
    f(T(4, 3), 2.0)
    assert f.traces == 2 and f.last_trace == 'new signature: the arguments changed'
    np.testing.assert_array_equal(f(T(2, 3), 3.0).asnumpy(), T(2, 3).asnumpy() * 3)
    assert f.traces == 3 and len(f.cache) == 3
    with ms.no_grad():
        f(T(2, 3), 2.0)
    assert f.last_trace == 'new signature: grad mode changed'
    assert 'programs' in repr(f) and 'traces' in repr(f)


def test_the_cache_keeps_the_most_recent_signatures(monkeypatch):
    monkeypatch.setattr(jit_function, 'MAX_PROGRAMS', 2)
    f = ms.jit(lambda x: x + 1)
    for n in (1, 2, 3):
        f(T(n))
    f(T(3))
    assert (len(f.cache), f.traces, f.replays) == (2, 3, 1)
    f(T(1))                                 # the least recently used one was dropped
    assert (f.traces, f.replays) == (4, 1)


def test_a_program_is_traced_again_when_a_cell_changes_mode_or_members():
    net = nn.SequentialCell([nn.Dense(3, 3), nn.Dropout(p=0.5)])
    f = ms.jit(lambda x: net(x))
    x = T(4, 3)
    net.set_train()
    f(x)
    net.set_train(False)
    np.testing.assert_array_equal(f(x).asnumpy(), net(x).asnumpy())     # no dropout now
    assert f.traces == 2 and "in predict mode (traced in train mode)" in f.last_trace
    net[0].weight = ms.Parameter(np.ones((3, 3), np.float32), name='weight')
    np.testing.assert_array_equal(f(x).asnumpy(), net(x).asnumpy())
    assert f.traces == 3 and 'has other parameters or sub-cells' in f.last_trace


def test_control_flow_on_tensor_values_runs_eagerly_with_one_warning():
    def clip(x):
        if ops.sum(x) > 0:                  # a Python branch on a traced value
            return x * 2
        return x - 1

    f = ms.jit(clip)
    with pytest.warns(UserWarning, match=r"jit: 'test_control_flow_on_tensor_values_runs_eagerly"
                                         r"_with_one_warning.<locals>.clip' runs eagerly: Python "
                                         r"code reads the values of a tensor .* at .*"
                                         r"test_retrace.py:\d+"):
        assert f(ms.Tensor([1.0, 2.0])).asnumpy().tolist() == [2.0, 4.0]
    with warnings.catch_warnings():
        warnings.simplefilter('error')      # warned once
        assert f(ms.Tensor([-1.0, -2.0])).asnumpy().tolist() == [-2.0, -3.0]
        assert f(ms.Tensor([3.0, 1.0])).asnumpy().tolist() == [6.0, 2.0]
    assert f.cache == {} and len(f.eager) == 1


@pytest.mark.parametrize('read', [lambda t: t.item(), lambda t: t.asnumpy(),
                                  lambda t: float(t), lambda t: t.tolist(),
                                  lambda t: np.asarray(t)])
def test_every_python_read_of_a_traced_value_falls_back(read):
    f = ms.jit(lambda x: read(ops.sum(x)), fullgraph=True)
    with pytest.raises(JitError, match="runs eagerly: Python code reads the values .*fullgraph"):
        f(T(3))


def test_reading_a_constant_made_in_the_call_is_fine():
    @ms.jit
    def f(x):
        k = ms.Tensor([2.0])
        return x * float(k.asnumpy()[0])
    f(T(2))
    np.testing.assert_array_equal(f(T(2, seed=1)).asnumpy(), T(2, seed=1).asnumpy() * 2)
    assert f.replays == 1 and not f.eager


def test_class_labels_and_indices_are_inputs_not_constants():
    logits = ms.Tensor(np.eye(3, dtype=np.float32) * 5)
    f = ms.jit(lambda y: ops.cross_entropy(logits, y, reduction='none'))
    g = ms.jit(lambda i: logits[i])
    for labels in ([0, 1, 2], [2, 0, 1], [1, 1, 1]):
        y = ms.Tensor(labels, ms.int32)
        np.testing.assert_array_equal(f(y).asnumpy(),
                                      ops.cross_entropy(logits, y, reduction='none').asnumpy())
        np.testing.assert_array_equal(g(y).asnumpy(), logits[y].asnumpy())
    assert f.replays == g.replays == 2


def test_python_values_in_closures_are_read_while_tracing():
    scale = [2.0]
    f = ms.jit(lambda x: x * scale[0])
    f(T(2))
    scale[0] = 3.0                          # documented: Python state is read at trace time
    np.testing.assert_array_equal(f(T(2)).asnumpy(), T(2).asnumpy() * 2.0)


def test_other_arguments_are_compared_by_identity():
    class Box:
        __hash__ = None

    f = ms.jit(lambda x, box: x + 1)
    box = Box()
    f(T(2), box)
    f(T(2), box)
    f(T(2), Box())
    assert (f.traces, f.replays) == (2, 1)


def test_errors_in_the_traced_call_propagate_and_cache_nothing():
    f = ms.jit(lambda x: ops.matmul(x, x))
    with pytest.raises(ValueError, match='do not align'):
        f(T(2, 3))
    assert f.cache == {} and f.traces == 0


def test_nested_jitted_calls_run_inside_the_outer_program():
    inner = ms.jit(lambda x: x * 2)
    outer = ms.jit(lambda x: inner(x) + 1)
    for seed in range(3):
        np.testing.assert_array_equal(outer(T(3, seed=seed)).asnumpy(),
                                      T(3, seed=seed).asnumpy() * 2 + 1)
    assert outer.replays == 2 and inner.traces == 0


def test_bad_arguments_to_jit():
    with pytest.raises(ValueError, match="capture_mode must be one of"):
        ms.jit(capture_mode='graph')
    with pytest.raises(TypeError, match="expected a function or a Cell, got int"):
        ms.jit(3)
    with pytest.raises(TypeError, match="takes the function as its only positional argument"):
        ms.jit(abs, 'PSJit')
