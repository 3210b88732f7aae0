"""Every hook keeps firing in a replayed program, at its place, with the same arguments; and
the debugging tools work on jitted code."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.debug import AnomalyError, StatsRecorder, nan_guard, profile, trace


def T(seed, shape=(4, 3)):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


class Net(nn.Cell):
    def __init__(self, events):
        super().__init__()
        self.fc1 = nn.Dense(3, 5)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(5, 2)
        self.watch = ops.HookBackward(lambda grads: events.append(('HookBackward', _v(grads))))

    def construct(self, x):
        return self.fc2(self.watch(self.relu(self.fc1(x))))


def _v(values):
    """A value to compare events by: the rounded sum of the tensors among ``values``."""
    if isinstance(values, ms.Tensor):
        return round(float(values.asnumpy().sum()), 4)
    return tuple(_v(v) for v in values if v is not None)


def hooked(seed=0):
    events = []
    ms.set_seed(seed)
    net = Net(events)
    net.fc1.register_forward_pre_hook(
        lambda c, inputs: (events.append(('pre fc1', _v(inputs))), (inputs[0] * 2,))[1])
    net.relu.register_forward_hook(
        lambda c, inputs, out: (events.append(('fwd relu', _v(out))), out + 1.0)[1])
    net.fc2.register_backward_pre_hook(
        lambda c, grad_output: events.append(('bwd pre fc2', _v(grad_output))))
    net.fc1.register_backward_hook(
        lambda c, gi, go: (events.append(('bwd fc1', _v(gi), _v(go))), (gi[0] * 0.5,))[1])
    net.fc2.weight.register_hook(lambda g: events.append(('fc2.weight', _v(g))))
    nn.attach(net.fc2, nn.ReLU(), train_only=False)
    return net, events


def step_fn(net):
    def step(x):
        y = net(x)
        y.register_hook(lambda g: None)         # registered on every call, as in PyNative
        return ops.sum(y * y)
    return ms.value_and_grad(step, 0, net.trainable_params())


def run(compiled, calls=3):
    net, events = hooked()
    step = step_fn(net)
    step = ms.jit(step) if compiled else step
    results = []
    for i in range(calls):
        loss, (gx, gw) = step(T(i))
        results.append([loss.asnumpy(), gx.asnumpy()] + [g.asnumpy() for g in gw])
    return events, results, step


def test_every_kind_of_hook_fires_in_replays_with_the_same_values():
    eager_events, eager_results, _ = run(False)
    events, results, step = run(True)
    assert step.traces == 1 and step.replays == 2
    assert events == eager_events
    assert [e[0] for e in events[:6]] == ['pre fc1', 'fwd relu', 'bwd pre fc2', 'fc2.weight',
                                         'HookBackward', 'bwd fc1']
    for a, b in zip(results, eager_results):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_registering_or_removing_a_hook_traces_again():
    net, events = hooked()
    f = ms.jit(lambda x: net(x))
    f(T(0))
    f(T(1))
    seen = []
    handle = net.fc2.register_forward_hook(lambda c, i, o: seen.append(_v(o)))
    f(T(2))
    assert f.traces == 2 and f.last_trace == "new signature: the cells' hooks changed"
    f(T(3))                                 # replayed: the new hook fires there too
    assert (len(seen), f.replays) == (2, 2)
    handle.remove()
    f(T(4))
    assert len(seen) == 2 and f.traces == 3


@pytest.mark.filterwarnings('ignore:.*invalid value encountered:RuntimeWarning')
def test_nan_guard_and_profile_see_jitted_code_run_eagerly():
    f = ms.jit(lambda x: ops.log(x - 10.0) * 2)
    f(T(0))
    f(T(1))
    with pytest.raises(AnomalyError, match="produced by op 'Log'"):
        with nan_guard():
            f(T(2))
    with profile() as prof:
        f(T(3))
    assert {r.name for r in prof.by_op().rows} == {'Sub', 'Log', 'Mul'}
    assert f.replays == 1           # observed calls ran eagerly, not replayed


def test_stats_recorder_and_trace_on_a_graph_mode_network():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        ms.set_seed(0)
        net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
        net.set_train()
        recorder = StatsRecorder(net)
        for i in range(3):
            net(T(i))
            recorder.step()
        outputs = recorder.history['2', 'output']['mean']
        with trace(net, '0') as t:
            out = net(T(7))
            captured = t['0'].outputs.asnumpy()
        np.testing.assert_array_equal(captured, net[0](T(7)).asnumpy())
        compiled = net.__dict__['_graph']
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
        recorder.close()
    expected = []
    for i in range(3):
        expected.append(net(T(i)).asnumpy().mean())
    np.testing.assert_allclose(outputs, expected, rtol=1e-6)
    assert compiled.replays >= 2 and out.shape == (4, 2)


def test_grad_cam_on_a_graph_mode_network():
    from hookgrad.explain import GradCAM
    ms.set_seed(0)
    net = ms.vision.resnet18(num_classes=4, cifar=True)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 8, 8)).astype(np.float32))
    eager = GradCAM(net, 'layer4')(x, ms.Tensor(np.array([1, 2], np.int32)))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        cams = [GradCAM(net, 'layer4')(x, ms.Tensor(np.array([1, 2], np.int32)))
                for _ in range(2)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for cam in cams:
        np.testing.assert_array_equal(cam, eager)
