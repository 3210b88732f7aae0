"""Plug-in layers attached by hooks: placement, train-only activity, state following, removal."""
import gc
import weakref

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn


class AddOne(nn.Cell):
    """A deterministic plug-in that records the train state it was called in."""
    def __init__(self):
        super().__init__()
        self.calls = []

    def construct(self, x):
        self.calls.append(self.training)
        return x + 1


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 3, weight_init='ones', bias_init='zeros')
        self.fc2 = nn.Dense(3, 1, weight_init='ones', bias_init='zeros')

    def construct(self, x):
        return self.fc2(self.fc1(x))


X = np.array([[1., 2., 3.]], np.float32)


def test_after_runs_on_the_output_only_in_train_mode():
    net = Net()
    plugin = AddOne()
    handle = nn.attach(net.fc1, plugin, where='after')
    x = ms.Tensor(X)
    assert net(x).asnumpy().tolist() == [[18.0]]              # predict mode: not run
    net.set_train()
    assert net(x).asnumpy().tolist() == [[21.0]]              # (6 + 1) * 3
    assert plugin.calls == [True] and plugin.training
    net.set_train(False)
    assert net(x).asnumpy().tolist() == [[18.0]]
    handle.remove()
    handle.remove()
    net.set_train()
    assert net(x).asnumpy().tolist() == [[18.0]]
    assert plugin.calls == [True]


def test_before_runs_on_the_first_input_and_gradients_flow_through_it():
    net = Net()
    plugin = nn.Dense(3, 3, weight_init='ones', bias_init='zeros')
    nn.attach(net.fc2, plugin, where='before')
    net.set_train()
    x = ms.Tensor(X)
    # fc1 gives [6, 6, 6]; the plug-in sums them into each of 3 outputs (18); fc2 sums again
    assert net(x).asnumpy().tolist() == [[54.0]]
    gx = ms.grad(net)(x)
    np.testing.assert_array_equal(gx.asnumpy(), [[9.0, 9.0, 9.0]])     # 3 without the plug-in


def test_train_only_false_runs_always_and_state_follows_the_host():
    net = Net()
    plugin = AddOne()
    nn.attach(net.fc1, plugin, train_only=False)
    x = ms.Tensor(X)
    net(x)
    net.set_train()
    net(x)
    net.set_train(False)
    net(x)
    assert plugin.calls == [False, True, False]


def test_network_parameters_and_names_are_unchanged():
    net = Net()
    before = [(n, p) for n, p in net.parameters_and_names()]
    handle = nn.attach(net.fc1, nn.Dense(3, 3), where='after')
    after = [(n, p) for n, p in net.parameters_and_names()]
    assert [n for n, _ in after] == ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']
    assert all(a is b for (_, a), (_, b) in zip(before, after))
    assert [p.shape for p in handle.trainable_params()] == [(3, 3), (3,)]
    assert net.name_cells().keys() == {'fc1', 'fc2'}


def test_dropout2d_plugin_varies_in_train_mode_and_not_in_predict_mode():
    class Conv(nn.Cell):
        def construct(self, x):
            return x * 2

    class Head(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = Conv()

        def construct(self, x):
            return self.body(x).sum(axis=(2, 3))

    net = Head()
    nn.attach(net.body, nn.Dropout2d(p=0.5))
    x = ms.Tensor(np.ones((2, 16, 3, 3), np.float32))
    ms.set_seed(0)
    net.set_train()
    train_outs = [net(x).asnumpy() for _ in range(3)]
    assert not np.array_equal(train_outs[0], train_outs[1])
    net.set_train(False)
    outs = [net(x).asnumpy() for _ in range(3)]
    assert all(np.array_equal(o, np.full((2, 16), 18.0)) for o in outs)


def test_handle_is_a_context_manager_and_does_not_keep_the_network_alive():
    net = Net()
    with nn.attach(net.fc1, AddOne()) as handle:
        assert len(net.hooks()) == 1
        assert repr(handle) == "<PluginHandle AddOne after 'Net.fc1'>"
    assert net.hooks() == []
    ref = weakref.ref(net)
    handle = nn.attach(net.fc1, AddOne())
    del net
    gc.collect()
    assert ref() is None
    handle.remove()


def test_bad_arguments():
    net = Net()
    with pytest.raises(TypeError, match="attach: cell must be a Cell, got int"):
        nn.attach(3, AddOne())
    with pytest.raises(TypeError, match="attach: plugin must be a Cell, got function"):
        nn.attach(net, lambda x: x)
    with pytest.raises(ValueError, match="attach: where must be 'before' or 'after', got 'middle'"):
        nn.attach(net, AddOne(), where='middle')
    with pytest.raises(ValueError, match="attach: a cell cannot be attached to itself"):
        nn.attach(net.fc1, net.fc1)
