"""nan_guard: planted NaNs and Infs are found at the op that produced them, and nothing leaks."""
import gc
import inspect
import warnings
import weakref

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.autograd.observer import observers
from hookgrad.debug import AnomalyError, AnomalyReport, AnomalyWarning, nan_guard
from hookgrad.vision import resnet

# the NaNs and Infs these tests plant also raise NumPy's floating-point warnings, which name
# the op first ('ops.log: invalid value encountered'); tests/ops/test_op_warnings.py tests them
pytestmark = pytest.mark.filterwarnings('ignore:.*invalid value encountered:RuntimeWarning',
                                        'ignore:.*overflow encountered:RuntimeWarning',
                                        'ignore:.*divide by zero encountered:RuntimeWarning')


def line_of(marker, fn=None):
    """'file:line' of the line ending with ``marker`` in this file (or in ``fn``'s source)."""
    if fn is None:
        lines, start, file = open(__file__).read().splitlines(), 1, __file__
    else:
        lines, start = inspect.getsourcelines(fn)
        file = inspect.getsourcefile(fn)
    (n,) = [start + i for i, text in enumerate(lines) if text.rstrip().endswith(marker)]
    return f"{file}:{n}"


class Fn(nn.Cell):
    """A cell that runs ``fn`` (so a planted fault has a cell path)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, x):
        return self.fn(x)


class Net(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self.inner = inner

    def construct(self, x):
        return self.inner(self.dense(x))       # <- inner called


def data(seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal((3, 4)).astype(np.float32))


def train_step(net, x):
    return ms.value_and_grad(lambda x: ops.sum(net(x)), None, net.trainable_params())(x)


def plant_log(x):
    return ops.log(x - 100.0)                   # <- planted log


# --------------------------------------------------------------------------- ResNet faults
def resnet18():
    ms.set_seed(0)
    net = ms.vision.resnet18(num_classes=10, cifar=True)
    net.set_train()
    images = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 8, 8)).astype(np.float32))
    labels = ms.Tensor(np.array([1, 7], np.int32))
    loss_fn = nn.CrossEntropyLoss()
    step = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, net.trainable_params())
    return net, lambda: step(images, labels)


def test_nan_in_resnet_block_forward_is_located_at_log():
    net, step = resnet18()
    block = net.layer2[1]
    seen = {}

    def construct(x):
        out = block.relu(block.bn1(block.conv1(x)))
        seen['log_input'] = (out - 1.0).asnumpy()
        out = ops.log(out - 1.0)                # <- planted NaN
        out = block.bn2(block.conv2(out))
        return block.relu(out + x)

    block.construct = construct
    with pytest.raises(AnomalyError) as info:
        with nan_guard(net):
            step()
    r = info.value.report
    v = seen['log_input']
    assert (r.direction, r.op, r.cell, r.step) == ('forward', 'Log', 'layer2.1', 0)
    assert r.source == line_of('# <- planted NaN')
    assert r.input_shapes == ((2, 128, 4, 4),) and r.output_shapes == ((2, 128, 4, 4),)
    assert (r.nan_count, r.posinf_count, r.neginf_count) == ((v < 0).sum(), 0, (v == 0).sum())
    assert r.input_index is None
    assert "produced by op 'Log' in Cell 'layer2.1', forward pass of step 0" in str(r)
    assert not net.hooks() and not observers()


class InfGrad(nn.Cell):
    """Identity around ``inner`` in forward; its custom bprop returns +inf gradients."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def construct(self, x):
        return self.inner(x)

    def bprop(self, x, out, dout):
        return (dout + float('inf'),)


def test_inf_made_only_in_backward_of_resnet_cell_is_located():
    net, step = resnet18()
    block = net.layer3[0]
    block.bn1 = InfGrad(block.bn1)
    with nan_guard(net, action='record') as guard:
        step()
    (r,) = guard.reports
    assert (r.direction, r.op, r.cell, r.step) == ('backward', 'CellBprop', 'layer3.0.bn1', 0)
    assert r.source == line_of('out = self.relu(self.bn1(self.conv1(x)))',
                               resnet.BasicBlock.construct)
    assert r.input_shapes == ((2, 256, 2, 2),) and r.output_shapes == ((2, 256, 2, 2),)
    assert (r.nan_count, r.posinf_count, r.neginf_count) == (0, 2 * 256 * 2 * 2, 0)
    assert "produced by the backward of 'CellBprop' in Cell 'layer3.0.bn1'" in str(r)


# --------------------------------------------------------------------------- producers
def test_forward_producer_not_the_cells_that_pass_it_on():
    net = Net(nn.SequentialCell(Fn(plant_log), Fn(lambda x: ops.exp(x) * 2.0), nn.ReLU()))
    with nan_guard(net, action='record', backward=False) as guard:
        net(data())
    (r,) = guard.reports
    assert (r.op, r.cell, r.source) == ('Log', 'inner.0', line_of('# <- planted log'))
    assert r.nan_count == 12


def test_backward_producer_and_create_graph():
    x = ms.Tensor(np.array([1.0, 0.0, 4.0], np.float32), requires_grad=True)
    with nan_guard(action='record') as guard:
        y = ops.sqrt(x)                         # <- sqrt at 0
        y.sum().backward()
    (r,) = guard.reports
    assert (r.direction, r.op, r.cell) == ('backward', 'Sqrt', None)
    assert r.source == line_of('# <- sqrt at 0')
    assert (r.nan_count, r.posinf_count) == (0, 1)
    with nan_guard(action='record') as guard:   # a NaN gradient given by the caller is no op's
        (x * 2.0).backward(ms.Tensor(np.array([np.nan, 1.0, 1.0], np.float32)))
    assert guard.reports == [] and np.isnan(x.grad.asnumpy()[0])
    # higher order: the rules run on Tensors, results equal the unguarded ones
    f = ms.grad(ms.grad(lambda t: ops.sum(t ** 3)))
    z = ms.Tensor(np.array([1.0, 2.0], np.float32))
    with nan_guard() as guard:
        got = f(z)
    np.testing.assert_allclose(got.asnumpy(), f(z).asnumpy())
    np.testing.assert_allclose(got.asnumpy(), [6.0, 12.0])
    assert guard.reports == []


def test_guarded_results_equal_plain_results():
    ms.set_seed(1)
    net = Net(nn.SequentialCell(nn.ReLU(), nn.Dense(4, 2)))
    x = data(3)
    loss, grads = train_step(net, x)
    with nan_guard(net) as guard:
        loss2, grads2 = train_step(net, x)
    assert guard.reports == []
    np.testing.assert_array_equal(loss.asnumpy(), loss2.asnumpy())
    for g, g2 in zip(grads, grads2):
        np.testing.assert_array_equal(g.asnumpy(), g2.asnumpy())


def test_nan_from_data_is_reported_where_it_enters():
    net = Net(nn.ReLU())
    x = data()
    x[1, 2] = float('nan')
    with nan_guard(net, action='record') as guard:
        net(x)
    (r,) = guard.reports
    assert (r.op, r.cell, r.input_index, r.nan_count) == ('Dense', 'dense', 0, 4)
    assert "entered op 'Dense' through input 0" in str(r)


def test_two_output_bprop_cell_with_one_output_used():
    class Two(nn.Cell):
        def construct(self, x):
            return x * 2.0, x * 3.0

        def bprop(self, x, out, dout):
            return (dout[0] * 2.0 + dout[1] / 0.0,)

    net = Net(Two())
    with nan_guard(net, action='record') as guard:
        ms.grad(lambda x: ops.sum(net(x)[0]))(data())
    (r,) = guard.reports
    assert (r.direction, r.op, r.cell) == ('backward', 'CellBprop', 'inner')
    assert r.input_shapes == ((3, 4),) and r.nan_count == 12


class RootLog(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return ops.log(self.dense(x) - 100.0)   # <- root log


def test_op_in_the_nets_own_construct_and_in_a_tensor_hook():
    net = RootLog()
    with nan_guard(net, action='record') as guard:
        net(data())
    (r,) = guard.reports
    assert (r.op, r.cell, r.source) == ('Log', '', line_of('# <- root log'))
    assert "produced by op 'Log' in the net's own construct" in str(r)
    x = ms.Tensor(np.ones(3, np.float32), requires_grad=True)
    with nan_guard(action='record') as guard:
        y = ops.exp(x)
        y.register_hook(lambda g: g * float('inf'))     # <- hook makes inf
        y.sum().backward()
    (r,) = guard.reports
    assert (r.direction, r.op, r.cell, r.posinf_count) == ('backward', 'Mul', None, 3)
    assert r.source == line_of('# <- hook makes inf')


def test_large_strided_and_half_precision_outputs_are_checked_exactly():
    huge = ms.Tensor(np.full((64, 128), 1e30, np.float32))
    with nan_guard(action='record') as guard:
        huge * 1.0                  # finite, though the sum of squares overflows
        ops.transpose(huge, (1, 0)) * ops.transpose(huge, (1, 0))
    (r,) = guard.reports
    assert (r.op, r.posinf_count, r.output_shapes) == ('Mul', 64 * 128, ((128, 64),))
    half = ms.Tensor(np.full((100, 100), 300.0, np.float16))
    big = np.zeros((3, 70, 70), np.float64)
    big[2, 6, 7] = -1.0             # the slice below keeps it: a strided float64 input
    with nan_guard(action='record') as guard:
        half * half                 # 90000 overflows float16
        guard.step()
        ops.sqrt(ms.Tensor(big)[:, ::2])
    assert [(r.step, r.op, r.posinf_count, r.nan_count) for r in guard.reports] == \
        [(0, 'Mul', 10000, 0), (1, 'Sqrt', 0, 1)]


# --------------------------------------------------------------------------- options
class MaskedAttention(nn.Cell):
    def construct(self, x):
        scores = ops.matmul(x, ops.transpose(x, (1, 0)))
        mask = ms.Tensor(np.triu(np.ones((3, 3), bool), 1))
        return ops.matmul(ops.softmax(ops.masked_fill(scores, mask, float('-inf'))), x)


def test_allow_list_for_intended_minus_inf_mask():
    net = Net(MaskedAttention())
    with nan_guard(net, action='record') as guard:
        train_step(net, data())
    (r,) = guard.reports        # the -inf comes from masked_fill's constant: where it enters
    assert (r.op, r.cell, r.input_index, r.neginf_count) == ('Where', 'inner', 1, 3)
    for allow in ({'inner'}, 'Where', ['Where', 'Log'],
                  lambda rep: rep.cell == 'inner' and rep.nan_count == 0):
        with nan_guard(net, allow=allow, action='record') as guard:
            train_step(net, data())
        assert guard.reports == [], allow


def test_allow_by_name_covers_minus_inf_only():
    mask = ms.Tensor(np.tril(np.ones((3, 4), np.float32)))

    def log_mask(x):                            # log of a 0/1 mask: -inf where it is 0
        return ops.softmax(x + ops.log(mask))

    net = Net(Fn(log_mask))
    with nan_guard(net, allow={'Log'}, action='record') as guard:
        train_step(net, data())
    assert guard.reports == []      # and the ops consuming the allowed -inf are not blamed
    net = Net(Fn(plant_log))
    with nan_guard(net, allow={'Log', 'inner'}, action='record') as guard:
        net(data())
    assert [r.op for r in guard.reports] == ['Log']         # a NaN is never allowed by name


def test_nan_only_and_inf_only():
    def both(x):
        big = ops.exp(x + 1000.0)               # +inf
        return ops.log(x - 100.0) + (big - big)     # NaN from Log, and NaN from inf - inf

    found = {}
    for check in ('both', 'nan', 'inf'):
        net = Net(Fn(both))
        with nan_guard(net, check=check, action='record') as guard:
            net(data())
        found[check] = [(r.op, r.nan_count, r.posinf_count) for r in guard.reports]
    assert found == {'both': [('Exp', 0, 12)], 'nan': [('Log', 12, 0)], 'inf': [('Exp', 0, 12)]}
    with nan_guard(check='nan', action='record') as guard:
        big = ops.exp(data() + 1000.0)
        big - big
    assert [(r.op, r.nan_count) for r in guard.reports] == [('Sub', 12)]


def test_warn_and_record_report_first_anomaly_of_each_step():
    net = Net(Fn(plant_log))
    with nan_guard(net, action='warn') as guard:
        with pytest.warns(AnomalyWarning, match="produced by op 'Log' in Cell 'inner'") as w:
            out = net(data())
    (w,) = [x for x in w if x.category is AnomalyWarning]
    assert f"{w.filename}:{w.lineno}" == line_of('# <- planted log')
    assert np.isnan(out.asnumpy()).all() and len(guard.reports) == 1
    with nan_guard(net, action='record') as guard:
        for _ in range(3):
            train_step(net, data())
    (r,) = guard.reports
    assert (r.step, r.direction, r.op, r.count, r.last_step) == (0, 'forward', 'Log', 3, 2)
    assert isinstance(r, AnomalyReport)


def test_an_anomaly_met_in_every_step_is_one_report_with_a_count():
    net = Net(Fn(plant_log))
    with nan_guard(net, action='warn') as guard:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            for _ in range(4):
                net(data())
    warned = [str(w.message) for w in caught if w.category is AnomalyWarning]
    assert len(warned) == 1 and 'step 0;' in warned[0]      # warned once, at its first step
    (r,) = guard.reports
    assert (r.op, r.cell, r.step, r.count, r.last_step) == ('Log', 'inner', 0, 4, 3)
    assert r.source == line_of('# <- planted log')          # the first occurrence's details
    text = str(r)
    assert text.count('nan_guard:') == 1 and text.endswith('(x 4, steps 0 to 3)'), text
    assert 'reports=1' in repr(guard)


def test_a_repeated_anomaly_is_raised_each_time_with_its_count():
    net = Net(Fn(plant_log))
    with nan_guard(net) as guard:
        for n in (1, 2, 3):
            with pytest.raises(AnomalyError, match=r"produced by op 'Log'") as info:
                net(data())
            assert info.value.report.count == n
    assert [r.count for r in guard.reports] == [3]
    assert str(info.value).endswith('(x 3, steps 0 to 2)')
    assert str(guard.reports[0]).endswith('(x 3, steps 0 to 2)')


def test_different_anomalies_are_counted_apart():
    def exp_inf(x):
        return ops.exp(x + 1000.0)              # <- planted exp

    net = Net(Fn(plant_log))
    with nan_guard(net, action='record') as guard:
        net(data())
        net(data())
        net.inner.fn = exp_inf                  # another op and cause, same cell
        net(data())
        net.inner.fn = plant_log
        net(data())
    assert [(r.op, r.step, r.count, r.last_step, r.nan_count > 0) for r in guard.reports] == \
        [('Log', 0, 3, 3, True), ('Exp', 2, 1, 2, False)]
    assert str(guard.reports[1]).endswith(line_of('# <- planted exp'))      # no count shown
    guard.reports.clear()                       # a cleared report starts counting afresh
    with guard:
        net(data())
    assert [(r.op, r.count) for r in guard.reports] == [('Log', 1)]


def test_every_n_steps_with_a_net_and_with_step():
    net = Net(Fn(plant_log))
    with nan_guard(net, action='record', every=2) as guard:
        for _ in range(5):
            net(data())
        assert guard.current_step == 4
    assert [(r.step, r.count, r.last_step) for r in guard.reports] == [(0, 3, 4)]
    with nan_guard(action='record', every=3) as guard:
        for _ in range(7):
            ops.log(data() - 100.0)
            guard.step()
    assert [(r.step, r.count, r.last_step) for r in guard.reports] == [(0, 3, 6)]


# --------------------------------------------------------------------------- hygiene
def test_nothing_left_after_exit_even_after_an_exception():
    net = Net(Fn(plant_log))
    mine = net.dense.register_forward_hook(lambda cell, inputs, outputs: None)
    with pytest.raises(ValueError, match='inside'):
        with nan_guard(net, action='record') as guard:
            net(data())
            raise ValueError('inside the block')
    assert [(h.kind, h.cell_path) for h in net.hooks()] == [('forward', 'Net.dense')]
    assert all(cell._hooks is None for _, cell in net.cells_and_names() if cell is not net.dense)
    assert not observers() and not guard.enabled
    net(data())                                 # a NaN with the guard off: no report
    assert len(guard.reports) == 1
    mine.remove()
    with pytest.raises(AnomalyError):
        with nan_guard(net):
            net(data())
    assert net.hooks() == [] and not observers()


def test_switch_and_reuse():
    net = Net(Fn(plant_log))
    guard = nan_guard(net, action='record')
    assert guard.enable() is guard and guard.enable() is guard and guard.enabled
    net(data())
    guard.disable()
    guard.disable()
    net(data())
    guard.enable()
    net(data())
    guard.disable()
    # steps count guarded calls; the same anomaly again is counted
    assert [(r.step, r.count, r.last_step) for r in guard.reports] == [(0, 2, 1)]
    assert 'reports=1' in repr(guard)


def test_guard_holds_no_net_and_no_tensor():
    net = Net(Fn(plant_log))
    guard = nan_guard(net, action='record')
    ref = weakref.ref(net)
    del net
    gc.collect()
    assert ref() is None
    with pytest.raises(RuntimeError, match='no longer exists'):
        guard.enable()
    net = Net(Fn(plant_log))
    ref = weakref.ref(net)
    with nan_guard(net, action='record') as guard:
        out = net(data())
        out_ref = weakref.ref(out)
        del net, out
        gc.collect()
        assert ref() is None and out_ref() is None
    assert len(guard.reports) == 1


def test_stack_recovers_after_an_exception_in_a_cell():
    def fail(x):
        raise KeyError('boom')

    net = Net(Fn(fail))
    with nan_guard(net, action='record') as guard:
        with pytest.raises(KeyError):
            net(data())
        net.inner.fn = plant_log
        net(data())
    assert [(r.step, r.cell) for r in guard.reports] == [(1, 'inner')]


# --------------------------------------------------------------------------- backward errors
class FailingBprop(nn.Cell):
    def construct(self, x):
        return x * 2.0

    def bprop(self, x, out, dout):
        raise ValueError('broken bprop')


def test_error_in_backward_names_the_node_its_line_and_cell():
    net = Net(FailingBprop())
    with pytest.raises(ValueError, match='broken bprop') as info:
        train_step(net, data())
    assert "(raised in the backward of 'CellBprop')" in info.value.__notes__
    with nan_guard(net):
        with pytest.raises(ValueError, match='broken bprop') as info:
            train_step(net, data())
    assert (f"(raised in the backward of 'CellBprop', created at {line_of('# <- inner called')} "
            f"in Cell 'Net.inner')") in info.value.__notes__

    def fail(g):
        raise RuntimeError('hook failed')

    def exp_with_hook(x):
        y = ops.exp(x)                          # <- hooked exp
        y.register_hook(fail)
        return y

    net = Net(Fn(exp_with_hook))
    with nan_guard(net):
        with pytest.raises(RuntimeError, match='hook failed') as info:
            train_step(net, data())
    assert (f"(raised in the backward of 'Exp', created at {line_of('# <- hooked exp')} in Cell "
            f"'Net.inner')") in info.value.__notes__
    net = Fn(exp_with_hook)
    with nan_guard(net):
        with pytest.raises(RuntimeError, match='hook failed') as info:
            ms.grad(lambda x: ops.sum(net(x)))(data())
    assert (f"(raised in the backward of 'Exp', created at {line_of('# <- hooked exp')} in Cell "
            f"'Fn')") in info.value.__notes__


# --------------------------------------------------------------------------- arguments
@pytest.mark.parametrize('kwargs, error, match', [
    (dict(net=3), TypeError, 'net must be a Cell or None, got int'),
    (dict(check='NaN'), ValueError, "check must be 'both', 'nan' or 'inf', got 'NaN'"),
    (dict(check=['nan']), ValueError, "check must be 'both', 'nan' or 'inf', got \\['nan'\\]"),
    (dict(action='log'), ValueError, "action must be 'raise', 'warn' or 'record', got 'log'"),
    (dict(every=0), ValueError, 'every must be at least 1, got 0'),
    (dict(every=1.5), TypeError, 'every must be an int, got float'),
    (dict(every=True), TypeError, 'every must be an int, got bool'),
    (dict(backward='yes'), TypeError, 'backward must be a bool, got str'),
    (dict(allow=3), TypeError, 'allow must be a callable or op names and cell paths'),
    (dict(allow=['Log', 1]), TypeError, 'allow must be a callable or op names and cell paths'),
])
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        nan_guard(**kwargs)


def test_failed_enable_leaves_no_hook():
    class NoInit(nn.Cell):
        def __init__(self):
            pass

    net = Net(nn.ReLU())
    net._cells['late'] = NoInit()           # a sub-cell that cannot take hooks
    guard = nan_guard(net)
    with pytest.raises(RuntimeError, match=r"must call super\(\).__init__\(\)"):
        guard.enable()
    del net._cells['late']
    assert net.hooks() == [] and not guard.enabled and not observers()
    assert all(c.__dict__.get('_hooks') is None for _, c in net.cells_and_names())


def test_guards_stack_and_step_only_without_net():
    with nan_guard(action='record') as outer, nan_guard(action='record') as inner:
        ops.log(ms.Tensor([-1.0]))
        outer.step()
        assert outer.current_step == 1 and inner.current_step == 0
    assert [r.op for r in outer.reports] == [r.op for r in inner.reports] == ['Log']
    with pytest.raises(RuntimeError, match='step\\(\\) is for a guard without a net'):
        nan_guard(Net(nn.ReLU())).step()
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with nan_guard():                   # no NaN: no warning, no report
            ops.exp(data())
