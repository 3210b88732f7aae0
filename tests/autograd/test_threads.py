"""Per-thread state: training and inference threads running together get exactly the results
they get alone, and switches (no_grad, observers) in one thread never reach another."""
import sys
import threading

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.autograd.observer import OpObserver, observers
from hookgrad.debug import nan_guard

STEPS = 150
pytestmark = pytest.mark.filterwarnings('ignore:.*invalid value encountered:RuntimeWarning')


@pytest.fixture(autouse=True)
def frequent_switches():
    """Switch threads every 10 us instead of 5 ms, so their ops interleave finely."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(old)


class MLP(nn.Cell):
    def __init__(self, seed):
        super().__init__()
        ms.set_seed(seed)
        self.fc1 = nn.Dense(8, 16)
        self.act = nn.Tanh()
        self.fc2 = nn.Dense(16, 4)

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


def batches(seed):
    """Batches of a learnable target, y = tanh(x A)."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((8, 4)).astype(np.float32)
    xs = [rng.standard_normal((6, 8)).astype(np.float32) for _ in range(STEPS)]
    return [(ms.Tensor(x), ms.Tensor(np.tanh(x @ a))) for x in xs]


def train_functional(net, data):
    """value_and_grad + an optimizer, a backward hook and a nan_guard on the net."""
    seen = []
    net.fc1.register_backward_hook(lambda cell, gi, go: seen.append(float(ops.sum(go[0]))))
    opt = nn.SGD(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    loss_fn = nn.MSELoss()
    step = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    losses = []
    with nan_guard(net) as guard:
        for x, y in data:
            loss, grads = step(x, y)
            opt(grads)
            losses.append(loss.asnumpy())
    return losses, seen, [p.asnumpy().copy() for p in net.trainable_params()], guard.reports


def train_backward(net, data):
    """Tensor.backward with a tensor hook, and a plain update under no_grad."""
    losses, grads = [], []
    for x, y in data:
        h = net(x)
        h.register_hook(lambda g: g * 0.5)
        loss = ops.mean((h - y) ** 2)
        loss.backward()
        grads.append(net.fc1.weight.grad.asnumpy().copy())
        with ms.no_grad():
            for p in net.trainable_params():
                ops.assign(p, p - 0.05 * p.grad)
                p.grad = None
        losses.append(loss.asnumpy())
    return losses, grads, [p.asnumpy().copy() for p in net.trainable_params()]


def infer(net, data):
    net.set_train(False)
    outs = []
    for x, _ in data:
        with ms.no_grad():
            out = net(x)
        assert not out.requires_grad
        outs.append(out.asnumpy())
    return outs


def run_all(threaded):
    jobs = {'functional': (train_functional, MLP(1), batches(11)),
            'backward': (train_backward, MLP(2), batches(12)),
            'inference': (infer, MLP(3), batches(13))}
    results, errors = {}, []
    if not threaded:
        for name, (fn, net, data) in jobs.items():
            results[name] = fn(net, data)
        return results
    start = threading.Barrier(len(jobs))

    def work(name, fn, net, data):
        try:
            start.wait()
            results[name] = fn(net, data)
        except BaseException as e:      # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(name, *job)) for name, job in jobs.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def assert_same(a, b):
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    else:
        np.testing.assert_array_equal(a, b)


def test_two_training_threads_and_an_inference_thread_match_the_single_threaded_run():
    alone = run_all(threaded=False)
    together = run_all(threaded=True)
    for name in alone:
        assert_same(together[name], alone[name])
    losses, hook_sums, _, reports = together['functional']
    assert np.mean(losses[-10:]) < np.mean(losses[:10]) / 2
    assert reports == [] and all(s != 0 for s in hook_sums)
    assert all(np.any(g != 0) for g in together['backward'][1])
    assert ms.is_grad_enabled() and observers() == ()


def in_thread(fn):
    """``fn()`` run in a new thread; its result, or its exception raised here."""
    box = []

    def run():
        try:
            box.append((True, fn()))
        except Exception as e:
            box.append((False, e))

    t = threading.Thread(target=run)
    t.start()
    t.join()
    ok, value = box[0]
    if not ok:
        raise value
    return value


def test_no_grad_and_enable_grad_stay_in_their_thread():
    x = ms.Tensor([1.0], requires_grad=True)
    with ms.no_grad():
        assert not ms.is_grad_enabled()
        assert in_thread(lambda: (x * 2).requires_grad and ms.is_grad_enabled())
        assert not (x * 2).requires_grad
    assert ms.is_grad_enabled()
    inside = threading.Event()
    leave = threading.Event()

    def hold_no_grad():
        with ms.no_grad():
            inside.set()
            leave.wait()

    t = threading.Thread(target=hold_no_grad)
    t.start()
    inside.wait()
    assert ms.is_grad_enabled() and (x * 2).requires_grad
    leave.set()
    t.join()


def test_an_observer_sees_only_the_thread_that_turned_it_on():
    class Names(OpObserver):
        def __init__(self):
            self.names = []

        def on_forward(self, call):
            self.names.append(call.name)

    x = ms.Tensor([1.0, 2.0])
    with Names() as seen:
        in_thread(lambda: ops.exp(x))
        ops.sin(x)
        with pytest.raises(RuntimeError, match='turned on in another thread'):
            in_thread(seen.disable)
    assert seen.names == ['Sin'] and not seen.observing
    assert in_thread(observers) == ()


def test_a_nan_guard_raises_only_in_its_own_thread():
    bad = ms.Tensor([-1.0])
    with nan_guard():
        assert np.isnan(in_thread(lambda: ops.log(bad)).asnumpy()).all()
        with pytest.raises(ms.debug.AnomalyError):
            ops.log(bad)


def test_a_guard_whose_net_was_deleted_turns_itself_off():
    net = MLP(0)
    guard = nan_guard(net).enable()
    del net
    ops.log(ms.Tensor([-1.0]))          # no net: the guard turns off instead of raising
    assert not guard.enabled and observers() == ()


def test_trace_and_stats_recorder_see_only_their_own_thread():
    net = MLP(4)
    x = ms.Tensor(np.ones((2, 8), np.float32))
    recorder = ms.debug.StatsRecorder(net)
    with ms.debug.trace(net, 'fc1') as t:
        in_thread(lambda: ops.sum(net(x)).backward())      # another thread: not seen
        assert t['fc1'].calls == []
        ops.sum(net(x)).backward()
        assert len(t['fc1'].calls) == 1 and t['fc1'].grad_outputs is not None
    recorder.step()
    in_thread(lambda: net(x))
    net(x)
    recorder.step()
    calls = recorder.history['fc1', 'calls']['forward']
    recorder.close()
    np.testing.assert_array_equal(calls, [1, 1])     # the other thread's calls are not counted
