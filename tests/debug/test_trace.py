"""debug.trace: captures against hand-computed values, patching, hook hygiene, errors."""
import gc
import weakref

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import trace

RNG = np.random.default_rng(0)
W1 = RNG.standard_normal((4, 3)).astype(np.float32)
B1 = RNG.standard_normal(4).astype(np.float32)
W2 = RNG.standard_normal((2, 4)).astype(np.float32)
B2 = RNG.standard_normal(2).astype(np.float32)
X = RNG.standard_normal((5, 3)).astype(np.float32)
C = RNG.standard_normal((5, 2)).astype(np.float32)


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4, ms.Tensor(W1), ms.Tensor(B1))
        self.act = nn.ReLU()
        self.fc2 = nn.Dense(4, 2, ms.Tensor(W2), ms.Tensor(B2))

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


def loss_of(net):
    return (net(ms.Tensor(X)) * ms.Tensor(C)).sum()


def weight_grads(net):
    return [g.asnumpy() for g in ms.grad(lambda: loss_of(net), None,
                                         [net.fc1.weight, net.fc2.weight])()]


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)


def test_captures_equal_values_computed_by_hand():
    net = MLP()
    h = X @ W1.T + B1
    r = np.maximum(h, 0)
    g_r = C @ W2
    g_h = g_r * (h > 0)
    with trace(net) as t:
        loss_of(net).backward()
        assert t.names == ['', 'fc1', 'act', 'fc2']
        close(t['fc1'].inputs[0], X)
        close(t['fc1'].outputs, h)
        close(t['act'].outputs, r)
        close(t['fc2'].outputs, r @ W2.T + B2)
        close(t['fc2'].grad_outputs[0], C)
        close(t['fc2'].grad_inputs[0], g_r)
        close(t['act'].grad_inputs[0], g_h)
        close(t['fc1'].grad_inputs[0], g_h @ W1)
        close(t[''].grad_outputs[0], C)
        assert t['fc1'].kwargs == {} and len(t['fc1'].calls) == 1
        assert t['fc1'].outputs.grad_fn is None and not t['fc1'].outputs.requires_grad


def test_captures_equal_the_values_seen_by_plain_hooks():
    ms.set_seed(0)
    net = ms.vision.resnet18(num_classes=3, cifar=True)
    seen = {}
    cell = net.layer2.cells()[0].conv2
    handles = [cell.register_forward_hook(lambda c, i, o: seen.__setitem__('out', o)),
               cell.register_backward_hook(lambda c, gi, go: seen.__setitem__('gi', gi[0]))]
    x = ms.Tensor(np.random.default_rng(1).random((2, 3, 8, 8), dtype=np.float32))
    with trace(net, names='layer2.*.conv2') as t:
        net(x).sum().backward()
        assert t.names == ['layer2.0.conv2', 'layer2.1.conv2']
        np.testing.assert_array_equal(t['layer2.0.conv2'].outputs.asnumpy(),
                                      seen['out'].asnumpy())
        np.testing.assert_array_equal(t['layer2.0.conv2'].grad_inputs[0].asnumpy(),
                                      seen['gi'].asnumpy())
    for h in handles:
        h.remove()
    assert net.hooks() == []


@pytest.mark.parametrize('order', ['ab', 'ba'])
def test_reused_cell_calls_get_their_own_gradients(order):
    fc = nn.Dense(3, 3, ms.Tensor(W1[:3]), 'zeros')

    class Twice(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = fc

        def construct(self, a, b):
            ya, yb = self.fc(a) * 2.0, self.fc(b) * 3.0
            return ya + yb if order == 'ab' else yb + ya

    net = Twice()
    a, b = X[:2], X[2:4]
    with trace(net) as t:
        net(ms.Tensor(a), ms.Tensor(b)).sum().backward()
        calls = t['fc'].calls
        assert len(calls) == 2
        close(calls[0].inputs[0], a)
        close(calls[1].outputs, b @ W1[:3].T)
        close(calls[0].grad_outputs[0], np.full((2, 3), 2.0))
        close(calls[1].grad_outputs[0], np.full((2, 3), 3.0))
        close(calls[0].grad_inputs[0], np.full((2, 3), 2.0) @ W1[:3])
        close(calls[1].grad_inputs[0], np.full((2, 3), 3.0) @ W1[:3])
        with pytest.raises(RuntimeError, match=r"Cell 'fc' was called 2 times: read "
                                               r"t\['fc'\]\.calls\[i\]"):
            t['fc'].outputs


def test_keyword_inputs_are_captured_and_saved(tmp_path):
    class Scaled(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2, ms.Tensor(W1[:2]), 'zeros')

        def construct(self, x, scale=None):
            return self.fc(x) * scale

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Scaled()

        def construct(self, x):
            return self.inner(x, scale=ms.Tensor([2.0, 3.0])), x

    net = Outer()
    with trace(net, keep=True) as t:
        out, _ = net(ms.Tensor(X))
        out.sum().backward()
    close(t['inner'].kwargs['scale'], [2.0, 3.0])
    close(t['inner'].grad_outputs[0], np.ones((5, 2)))
    path = t.save(tmp_path / 'capture')
    assert path.endswith('capture.npz')
    data = np.load(path)
    assert set(data.files) == {
        '(root)/0/inputs/0', '(root)/0/outputs/0', '(root)/0/outputs/1',
        '(root)/0/grad_outputs/0', '(root)/0/grad_outputs/1', '(root)/0/grad_inputs/0',
        'inner/0/inputs/0', 'inner/0/kwargs/scale', 'inner/0/outputs',
        'inner/0/grad_outputs/0', 'inner/0/grad_inputs/0',
        'inner.fc/0/inputs/0', 'inner.fc/0/outputs', 'inner.fc/0/grad_outputs/0',
        'inner.fc/0/grad_inputs/0'}
    close(data['inner.fc/0/outputs'], X @ W1[:2].T)
    close(data['inner.fc/0/grad_outputs/0'], np.tile([2.0, 3.0], (5, 1)))
    close(data['(root)/0/grad_outputs/1'], np.zeros((5, 3)))   # received no gradient


def test_patching_an_output_changes_the_output_and_its_gradient():
    net = MLP()
    g_r = C @ W2
    h = X @ W1.T + B1
    with trace(net, names=[]) as t:
        t.patch('fc1', output=lambda y: y * 2.0)
        close(net(ms.Tensor(X)), np.maximum(2 * h, 0) @ W2.T + B2)
        gw1, gw2 = weight_grads(net)
    close(gw1, (2 * g_r * (h > 0)).T @ X)
    close(gw2, C.T @ np.maximum(2 * h, 0))

    const = np.abs(RNG.standard_normal((5, 4))).astype(np.float32)
    with trace(net, names=['fc1']) as t:
        t.patch('fc1', output=ms.Tensor(const))
        close(net(ms.Tensor(X)), const @ W2.T + B2)
        close(t['fc1'].outputs, const)       # captures show what the network used
        gw1, gw2 = weight_grads(net)
    close(gw1, np.zeros_like(W1))
    close(gw2, C.T @ const)
    close(net(ms.Tensor(X)), np.maximum(h, 0) @ W2.T + B2)      # the patch ended


def test_patching_inputs():
    net = MLP()
    const = np.abs(RNG.standard_normal((5, 4))).astype(np.float32)
    with trace(net) as t:
        t.patch('fc2', inputs=const)
        close(net(ms.Tensor(X)), const @ W2.T + B2)
        close(t['fc2'].inputs[0], const)
        t.patch('fc2', inputs=lambda r: (r + 1.0,))
        h = np.maximum(X @ W1.T + B1, 0)
        close(net(ms.Tensor(X)), (h + 1) @ W2.T + B2)
        t.patch('fc2', inputs=lambda r: None)       # None keeps the original
        close(net(ms.Tensor(X)), h @ W2.T + B2)


def test_patching_gradients_changes_upstream_gradients_exactly():
    net = MLP()
    h = X @ W1.T + B1
    g_r = C @ W2
    base1, base2 = weight_grads(net)
    with trace(net, names=['fc1']) as t:
        t.patch_grad('fc1', grad_output=lambda g: g * 3.0)
        gw1, gw2 = weight_grads(net)
        close(gw1, 3 * base1)
        close(gw2, base2)
    const = RNG.standard_normal((5, 4)).astype(np.float32)
    with trace(net) as t:
        t.patch_grad('fc2', grad_input=ms.Tensor(const))
        gx = ms.grad(lambda x: (net(x) * ms.Tensor(C)).sum())(ms.Tensor(X))
        gw1, gw2 = weight_grads(net)
        assert len(t['fc2'].calls) == 2
        close(t['fc2'].calls[1].grad_inputs[0], const)
        close(t['fc2'].calls[1].grad_outputs[0], C)
    g_h = const * (h > 0)
    close(gw1, g_h.T @ X)
    close(gw2, C.T @ np.maximum(h, 0))
    close(gx, g_h @ W1)
    assert not np.allclose(g_h, g_r * (h > 0))


def test_patch_errors_name_the_cell():
    net = MLP()
    x = ms.Tensor(X)
    with trace(net) as t:
        t.patch('fc1', output=ms.ops.ones((5, 3)))
        with pytest.raises(ValueError, match=r"trace.patch: Cell 'fc1' output: the replacement "
                                             r"has shape \(5, 3\), expected \(5, 4\)"):
            net(x)
        t.patch('fc1', output=ms.ops.ones((5, 4), ms.float64))
        with pytest.raises(TypeError, match="Cell 'fc1' output: the replacement has dtype "
                                            "Float64, expected Float32"):
            net(x)
        t.patch('fc1', output=lambda y: 'no')
        with pytest.raises(TypeError, match=r"Cell 'fc1' output: expected a Tensor of shape "
                                            r"\(5, 4\), got str"):
            net(x)
        t.patch('fc1', output=lambda y: None)
        t.patch('fc2', inputs=(x, x))
        with pytest.raises(ValueError, match=r"Cell 'fc2' inputs: expected 1 values, got 2"):
            net(x)
        t.patch('fc2', inputs=lambda r: None)
        t.patch_grad('fc1', grad_output=(ms.ops.ones((5, 4)),) * 2)
        y = loss_of(net)
        with pytest.raises(ValueError, match=r"trace.patch_grad: Cell 'fc1' grad_output: "
                                             r"expected 1 values, got 2"):
            y.backward()
        with pytest.raises(KeyError, match=r"trace.patch: MLP has no cell named 'fc3'; "
                                           r"closest: 'fc2', 'fc1'"):
            t.patch('fc3', output=x)
        with pytest.raises(TypeError, match="give at least one of output, inputs for Cell"):
            t.patch('fc1')
        with pytest.raises(TypeError, match="grad_input for Cell 'fc1' must be a Tensor, a "
                                            "NumPy array, a tuple or a function, got int"):
            t.patch_grad('fc1', grad_input=3)
    with pytest.raises(RuntimeError, match="trace.patch: the trace is not active"):
        t.patch('fc1', output=x)
    assert net.hooks() == []


def test_every_hook_is_removed_on_exit_and_after_an_exception():
    net = MLP()
    before = len(net.fc1.hooks())
    net.fc1.register_forward_hook(lambda c, i, o: None)
    with trace(net, keep=True) as t:
        t.patch('fc2', output=lambda y: y * 0.0)
        y = net(ms.Tensor(X))
        assert len(net.hooks()) == 4 * 4 + 1 + before
    assert [h.kind for h in net.hooks()] == ['forward']
    y.sum().backward()          # tensor hooks left on the graph are gone too
    assert t['fc1'].grad_outputs is None and t['fc1'].outputs is not None
    with pytest.raises(ZeroDivisionError):
        with trace(net, keep=False) as t:
            t.patch('fc2', output=lambda y: y * 0.0)
            net(ms.Tensor(X))
            1 / 0
    assert [h.kind for h in net.hooks()] == ['forward']
    assert np.abs(net(ms.Tensor(X)).asnumpy()).sum() > 0
    with pytest.raises(RuntimeError, match="were released when the trace ended"):
        t['fc1'].outputs
    with pytest.raises(RuntimeError, match="were released"):
        t.save('unused')


def test_neither_the_network_nor_the_captures_outlive_the_trace():
    net = MLP()
    net_ref = weakref.ref(net)
    with trace(net, keep=False) as t:
        y = loss_of(net)
        y.backward()
        refs = [weakref.ref(t['fc1'].outputs), weakref.ref(t['fc2'].grad_inputs[0])]
    record = t['fc1']
    del net, y
    gc.collect()
    assert net_ref() is None and all(r() is None for r in refs)
    with pytest.raises(RuntimeError, match="released"):
        record.calls

    net = MLP()
    net_ref = weakref.ref(net)
    with trace(net) as t:                  # captures are kept by default
        loss_of(net).backward()
        ref = weakref.ref(t['fc1'].outputs)
    del net
    gc.collect()
    assert net_ref() is None and ref() is not None
    close(t['fc1'].outputs, X @ W1.T + B1)
    del t
    gc.collect()
    assert ref() is None


def test_the_network_may_die_inside_the_trace():
    net = MLP()
    t = trace(net)
    with t:
        net_ref = weakref.ref(net)
        del net
        gc.collect()
        assert net_ref() is None
        with pytest.raises(RuntimeError, match="the traced network no longer exists"):
            t.patch('fc1', output=lambda y: y)


def test_bad_names_and_arguments():
    net = MLP()
    with pytest.raises(KeyError, match=r"trace: MLP has no cell named 'fc'; closest: "
                                       r"'fc2', 'fc1' \(4 in all\)"):
        trace(net, names=['fc'])
    with pytest.raises(KeyError, match=r"no cell named 'zzz'; the cell names are \['', 'fc1', "
                                       r"'act', 'fc2'\]"):
        trace(net, names='zzz')
    with pytest.raises(KeyError, match=r"no cell of MLP matches the pattern 'layer\*'"):
        trace(net, names=['layer*'])
    with pytest.raises(TypeError, match="trace: names must be strings, got int"):
        trace(net, names=[1])
    with pytest.raises(TypeError, match="trace: net must be a Cell, got int"):
        trace(1)
    with pytest.raises(TypeError, match="trace: keep must be a bool"):
        trace(net, keep=1)
    t = trace(net, names=['fc1', 'act'])
    assert t.names == ['fc1', 'act'] and 'inactive' in repr(t)
    with pytest.raises(RuntimeError, match="Cell 'fc1' has no captures: use the trace as"):
        t['fc1']
    with t:
        with pytest.raises(RuntimeError, match="this trace is already active"):
            t.__enter__()
        with pytest.raises(KeyError, match=r"trace of MLP has no traced cell named 'fc2'"):
            t['fc2']
        with pytest.raises(RuntimeError, match="Cell 'fc1' was not called during the trace"):
            t['fc1'].outputs
        assert repr(t['fc1']) == "CellTrace('fc1', 0 calls)"
