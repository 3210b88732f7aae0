"""Op observers: every op forward and every backward rule, with cells, sources, in order."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.autograd import function, observer
from hookgrad.autograd.observer import OpObserver, observers


class Log(OpObserver):
    """Records (kind, phase, op, cell path, rule op) of every call, into a shared list."""

    def __init__(self, out=None, tag=None, record_source=False):
        self.out = [] if out is None else out
        self.tag = tag
        self.calls = []
        self.record_source = record_source

    def _add(self, kind, call):
        self.calls.append(call)
        entry = (kind, call.phase, call.name, call.cell_path,
                 None if call.rule is None else call.rule.op.name)
        self.out.append(entry if self.tag is None else (self.tag,) + entry)

    def on_forward(self, call):
        self._add('op', call)

    def on_backward(self, call):
        self._add('rule', call)


def T(*v):
    return ms.Tensor(np.asarray(v, np.float32))


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = ms.Parameter(T(2.0), name='k')

    def construct(self, x):
        return x * self.k


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Scale()

    def construct(self, x):
        return ops.exp(self.scale(x))


def test_forward_and_backward_calls_with_their_cells_and_values():
    net = Net()
    x = T(1.0, 2.0)
    with Log() as log:
        y = net(x)
        ops.sum(y).backward()
    assert log.out == [('op', 'forward', 'Mul', 'Net.scale', None),
                       ('op', 'forward', 'Exp', 'Net', None),
                       ('op', 'forward', 'ReduceSum', None, None),
                       ('rule', 'backward', 'ReduceSum', None, None),
                       ('rule', 'backward', 'Exp', 'Net', None),
                       ('rule', 'backward', 'Mul', 'Net.scale', None)]
    mul, exp = log.calls[0], log.calls[1]
    np.testing.assert_array_equal(mul.outputs[0], [2.0, 4.0])
    np.testing.assert_array_equal(mul.inputs[0], x.asnumpy())
    assert mul.cell is net.scale and mul.cells() == [net.scale, net]
    assert exp.node is y.grad_fn and mul.params == {} and mul.seconds >= 0
    exp_rule = log.calls[4]
    np.testing.assert_allclose(exp_rule.inputs[0], [1.0, 1.0])
    np.testing.assert_allclose(exp_rule.outputs[0], np.exp([2.0, 4.0]), rtol=1e-6)
    mul_rule = log.calls[5]
    assert mul_rule.outputs[0] is None or mul_rule.outputs[0].shape == (2,)


def test_unrecorded_ops_have_no_node_and_params_are_shown():
    with Log() as log:
        ops.reshape(T(1.0, 2.0), (2, 1))
    (call,) = log.calls
    assert call.node is None and call.params == {'shape': (2, 1)}


def test_observers_stack_in_the_order_they_were_turned_on():
    out = []
    with Log(out, 'outer'):
        with Log(out, 'inner'):
            ops.exp(T(1.0))
        ops.sin(T(1.0))
    assert [(e[0], e[3]) for e in out] == [('outer', 'Exp'), ('inner', 'Exp'), ('outer', 'Sin')]
    assert observers() == () and function.observing == 0


def test_switching_inner_off_keeps_the_outer_one():
    out = []
    outer = Log(out, 'outer').enable()
    inner = Log(out, 'inner').enable()
    outer.disable()
    ops.exp(T(1.0))
    assert observers() == (inner,)
    inner.disable()
    assert [e[0] for e in out] == ['inner'] and observers() == ()


def test_ops_run_by_a_backward_rule_or_a_hook_are_in_the_backward_phase():
    x = ms.Tensor(np.array([0.5], np.float64))
    with Log() as log:
        ms.grad(ms.grad(ops.sin))(x)
    rules_ops = {(e[2], e[4]) for e in log.out if e[0] == 'op' and e[4] is not None}
    assert ('Cos', 'Sin') in rules_ops            # sin's rule recorded cos(x) for the outer grad
    y = T(1.0, 2.0)
    y.requires_grad = True
    with Log() as log:
        z = ops.exp(y)
        z.register_hook(lambda g: g * 3.0)
        ops.sum(z).backward()
    assert ('op', 'backward', 'Mul', None, None) in log.out    # the hook's op, no rule


def test_cell_boundaries_and_custom_bprop_nodes_are_backward_rules():
    class Custom(nn.Cell):
        def construct(self, x):
            return x * 2.0

        def bprop(self, x, out, dout):
            return (dout * 2.0,)

    net = Net()
    net.scale.register_backward_hook(lambda c, gi, go: None)
    custom = Custom()
    with Log() as log:
        ms.grad(lambda x: ops.sum(custom(net(x))))(T(1.0))
    rules = [(e[2], e[3]) for e in log.out if e[0] == 'rule']
    assert ('CellBprop', 'Custom') in rules
    assert rules.count(('CellBoundary', 'Net.scale')) == 2      # its output and input sides


def test_source_lines_of_ops_and_of_the_nodes_of_backward_rules():
    def f(x):
        return ops.exp(x)                       # <- the exp

    line = f.__code__.co_firstlineno + 1
    x = T(1.0)
    x.requires_grad = True
    with Log(record_source=True) as log:
        ops.sum(f(x)).backward()
    exp_op = next(c for c in log.calls if c.name == 'Exp' and c.phase == 'forward')
    assert exp_op.source == (__file__, line)
    exp_rule = next(c for c in log.calls if c.name == 'Exp' and c.phase == 'backward')
    assert exp_rule.source == (__file__, line)
    with Log() as log:
        ops.sum(f(x)).backward()
    assert next(c for c in log.calls if c.phase == 'backward' and c.name == 'Exp').source is None


def test_a_cell_called_without_being_registered_is_named_by_its_class():
    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.cells_in_a_list = [Scale()]

        def construct(self, x):
            return self.cells_in_a_list[0](x)

    with Log() as log:
        Holder()(T(1.0))
    assert log.out[0][3] == 'Holder.Scale'


def test_results_are_the_same_observed_or_not():
    net = Net()
    x = T(0.5, -1.0)
    plain = ms.value_and_grad(lambda x: ops.sum(net(x)), 0, net.trainable_params())(x)
    with Log():
        seen = ms.value_and_grad(lambda x: ops.sum(net(x)), 0, net.trainable_params())(x)
    np.testing.assert_array_equal(plain[0].asnumpy(), seen[0].asnumpy())
    for a, b in zip((plain[1][0], *plain[1][1]), (seen[1][0], *seen[1][1])):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_an_error_in_an_observer_propagates_and_the_observer_stays_on_until_exit():
    class Fails(OpObserver):
        def on_forward(self, call):
            raise KeyError(call.name)

    with pytest.raises(KeyError, match='Exp'):
        with Fails() as f:
            ops.exp(T(1.0))
    assert not f.observing and observers() == ()


def test_cells_take_their_hook_free_path_again_once_observers_are_off():
    net = Net()
    with Log():
        net(T(1.0))
    assert function.observing == 0 and net.__dict__['_hooks'] is None
    with Log() as log:
        pass
    assert log.calls == [] and 'OpCall' in repr(observer.OpCall(
        ms.ops.arithmetic.Add, 'forward', (), (), {}, None, None, 0.0, 0.0, None, None))
