"""StatsRecorder: statistics against NumPy on independently captured arrays, filters, every-n,
planted dead / missing / exploding / vanishing layers, update ratios, exports, hygiene, errors."""
import gc
import re
import weakref

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import StatsRecorder, load_stats
from hookgrad.debug.stats_report import STATS


class Net(nn.Cell):
    """Conv (channels-last outputs, 8192 values: the blocked-sum path), a ReLU used twice,
    Dense layers."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 8, 3, pad_mode='same', has_bias=True)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(8 * 16 * 16, 6)
        self.fc2 = nn.Dense(6, 3)

    def construct(self, x):
        h = self.flatten(self.relu(self.conv(x)))
        return self.fc2(self.relu(self.fc1(h)))


class MLP(nn.Cell):
    def __init__(self, bias=None):
        super().__init__()
        self.fc1 = nn.Dense(4, 6, bias_init=bias)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(6, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class Scale(nn.Cell):
    """Multiplies by ``self.k``, a plain number the test changes between steps."""

    def __init__(self):
        super().__init__()
        self.k = 1.0

    def construct(self, x):
        return x * self.k


class Chain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 5)
        self.boom = Scale()
        self.fc2 = nn.Dense(5, 2)

    def construct(self, x):
        return self.fc2(self.boom(self.fc1(x)))


def data(shape=(4, 2, 16, 16), seed=0):
    rng = np.random.default_rng(seed)
    return ms.Tensor(rng.standard_normal(shape).astype(np.float32))


def train_step(net, x, opt=None, linear=False):
    """Gradients of a squared (or, with ``linear``, summed) output; an optimizer step."""
    params = net.trainable_params()
    loss_fn = (lambda x: net(x).sum()) if linear else (lambda x: (net(x) ** 2).mean())
    grads = ms.grad(loss_fn, None, params)(x)
    if opt is not None:
        opt(grads)
    return grads


def reference(arrays):
    """The ten statistics of the pooled arrays, written with plain NumPy in float64."""
    x = np.concatenate([np.asarray(a, np.float64).ravel() for a in arrays])
    fin = x[np.isfinite(x)]
    return {'count': x.size, 'mean': fin.mean(), 'std': fin.std(), 'min': fin.min(),
            'max': fin.max(), 'absmax': np.abs(fin).max(), 'zero_frac': np.mean(x == 0),
            'nan': np.isnan(x).sum(), 'inf': np.isinf(x).sum(),
            'norm': np.sqrt(np.sum(fin ** 2))}


def capture(net):
    """Own hooks on every cell: copies of inputs, outputs and gradients per call."""
    seen = {}
    handles = []
    for name, cell in net.cells_and_names():
        def fwd(cell, inputs, outputs, name=name):
            outs = outputs if isinstance(outputs, tuple) else (outputs,)
            seen.setdefault((name, 'input'), []).extend(t.asnumpy().copy() for t in inputs)
            seen.setdefault((name, 'output'), []).extend(t.asnumpy().copy() for t in outs)

        def bwd_pre(cell, grad_output, name=name):
            seen.setdefault((name, 'grad_output'), []).extend(
                g.asnumpy().copy() for g in grad_output)

        def bwd(cell, grad_input, grad_output, name=name):
            seen.setdefault((name, 'grad_input'), []).extend(
                g.asnumpy().copy() for g in grad_input if g is not None)
        handles += [cell.register_forward_hook(fwd), cell.register_backward_pre_hook(bwd_pre),
                    cell.register_backward_hook(bwd)]
    return seen, handles


# --------------------------------------------------------------------------- statistics
def test_statistics_equal_numpy_on_the_captured_arrays():
    ms.set_seed(0)
    net = Net()
    opt = nn.SGD(net.trainable_params(), learning_rate=0.05)
    with StatsRecorder(net) as rec:
        for step in range(2):
            seen, handles = capture(net)
            train_step(net, data(seed=step), opt)
            rec.step()
            for h in handles:
                h.remove()
            for (name, kind), arrays in seen.items():
                s = rec[name, kind]
                assert s['step'][-1] == step
                ref = reference(arrays)
                for stat in STATS:
                    got = s[stat][-1]
                    scale = ref['absmax'] if stat in ('mean', 'min', 'max') else 0
                    assert got == pytest.approx(ref[stat], rel=2e-5, abs=1e-6 * scale), \
                        (name, kind, stat)
    assert rec.history.cells == ['', 'conv', 'relu', 'flatten', 'fc1', 'fc2']
    # the ReLU ran twice per step, its statistics pool both calls
    assert list(rec['relu', 'calls']['forward']) == [2, 2]
    assert rec['relu', 'output']['count'][0] == 4 * 8 * 16 * 16 + 4 * 6
    assert rec['conv', 'output']['zero_frac'][0] == 0


@pytest.mark.parametrize('dtype', [np.float64, np.float16])
def test_non_finite_values_and_other_dtypes(dtype):
    x = np.array([[1.0, np.nan, -3.0, 0.0], [np.inf, 2.5, -np.inf, 0.0]], dtype)
    far = (1000.0 + 1e-3 * np.random.default_rng(0).standard_normal((64, 64))).astype(dtype)
    net = Scale()
    with StatsRecorder(net) as rec:
        net(ms.Tensor(x))
        net(ms.Tensor(far))          # values far from zero, small spread: the centred pass
        rec.step()
        net(ms.Tensor(far))
    s = rec['', 'input']
    for step, arrays in enumerate(([x, far], [far])):
        ref = reference([a.astype(np.float32) if dtype == np.float16 else a for a in arrays])
        for stat in STATS:
            assert s[stat][step] == pytest.approx(ref[stat], rel=1e-6 if dtype == np.float64
                                                  else 1e-3), stat
    assert s['nan'][0] == 1 and s['inf'][0] == 2
    assert rec['', 'grad_output']['step'].size == 0      # nothing was differentiated


def test_large_array_blocked_sum_and_negative_zero():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1 << 20) + 1000).astype(np.float32) + 0.5
    x[:300] = 0.0
    x[300:500] = -0.0
    net = Scale()
    with StatsRecorder(net) as rec:
        net(ms.Tensor(x))
    ref = reference([x])
    for stat in STATS:
        assert rec['', 'output'][stat][0] == pytest.approx(ref[stat], rel=2e-6), stat
    assert rec['', 'output']['zero_frac'][0] == 500 / x.size


def test_filters_by_glob_regex_exclude_and_type():
    ms.set_seed(0)
    net = Net()
    with StatsRecorder(net, include='fc*') as rec:
        assert rec.history.cells == ['fc1', 'fc2']
    rec = StatsRecorder(net, include=re.compile(r'^(conv|relu)$'), params=False)
    assert rec.history.cells == ['conv', 'relu'] and rec.history.params == []
    rec.close()
    rec = StatsRecorder(net, exclude=['', 'flatten', re.compile('fc')])
    assert rec.history.cells == ['conv', 'relu']
    assert rec.history.params == ['conv.weight', 'conv.bias']
    rec.close()
    with StatsRecorder(net, types=(nn.Dense, nn.Conv2d)) as rec:
        assert rec.history.cells == ['conv', 'fc1', 'fc2']
        train_step(net, data())
    assert set(rec['fc2', 'grad_output']) == {'step'} | set(STATS)
    assert rec.history.params == ['conv.weight', 'conv.bias', 'fc1.weight', 'fc1.bias',
                                  'fc2.weight', 'fc2.bias']
    with StatsRecorder(net, include='fc2', kinds=('output', 'grad_output'), params=False) as rec:
        assert 'backward' not in {h.kind for h in net.hooks()}
        train_step(net, data())
    assert len(rec['fc2', 'output']['step']) == len(rec['fc2', 'grad_output']['step']) == 1
    assert len(rec['fc2', 'input']['step']) == len(rec['fc2', 'grad_input']['step']) == 0
    assert net.hooks() == []


def test_every_n_steps_manual_and_automatic():
    ms.set_seed(0)
    net = MLP()
    x = data((5, 4))
    with StatsRecorder(net, every=2) as rec:
        for _ in range(5):
            assert rec.recording == (rec.current_step % 2 == 0)
            train_step(net, x)
            rec.step()
    assert list(rec.history.steps) == [0, 2, 4]
    assert list(rec['fc1', 'grad_output']['step']) == [0, 2, 4]
    with StatsRecorder(net, every=3, auto_step=True) as rec:
        for _ in range(7):
            train_step(net, x)
        with pytest.raises(RuntimeError, match='auto_step=True'):
            rec.step()
    assert list(rec.history.steps) == [0, 3, 6]      # the last step is ended by close()
    with StatsRecorder(net, keep=2) as rec:
        for _ in range(5):
            train_step(net, x)
            rec.step()
    assert list(rec.history.steps) == [3, 4] and len(rec.history) == 2
    assert rec['fc2.weight', 'param']['grad_norm'].shape == (2,)


# --------------------------------------------------------------------------- planted faults
def test_planted_dead_relu_is_reported_dead():
    ms.set_seed(0)
    net = MLP(bias=-1e3)      # fc1's outputs are all far below zero: the ReLU outputs zeros
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    with StatsRecorder(net) as rec:
        for step in range(3):
            train_step(net, data((8, 4), seed=step), opt)
            rec.step()
    report = rec.report()
    dead = report.names('dead')
    assert ('relu', 'output') in dead
    assert ('fc1', 'grad_output') in dead and ('fc1.weight', 'param') in dead
    assert ('fc2', 'output') not in dead and ('fc2', 'grad_output') not in dead
    assert not report.ok and report.dead[0].kind == 'output' and report.dead[0].since == 0
    text = str(report)
    assert re.search(r"relu\s+output\s+all values zero, since step 0", text)
    assert 'fc1.weight  param grad' in text


def test_planted_exploding_and_vanishing_layers():
    ms.set_seed(0)
    net = Chain()
    x = data((3, 4))
    with StatsRecorder(net) as rec:
        for step in range(5):
            net.boom.k = 10.0 ** step
            train_step(net, x, linear=True)
            rec.step()
    report = rec.report()
    exploding = report.names('exploding')
    assert ('fc1', 'grad_output') in exploding and ('fc1.weight', 'param') in exploding
    assert ('fc2', 'grad_output') not in exploding and ('boom', 'grad_output') not in exploding
    assert report.exploding[0].since > 0
    assert 'exploding gradient' in str(report) and 'fc1' in str(report)

    net = Chain()
    with StatsRecorder(net) as rec:
        for step in range(5):
            net.boom.k = 10.0 ** -step
            train_step(net, x, linear=True)
            rec.step()
    assert ('fc1', 'grad_output') in rec.report().names('vanishing')
    # a single step with a huge weight: above the absolute threshold
    net = Chain()
    net.fc2.weight.set_data(np.full((2, 5), 1e5, np.float32))
    with StatsRecorder(net) as rec:
        train_step(net, x)
    assert ('fc1', 'grad_output') in rec.report().names('exploding')
    assert ('fc1', 'grad_output') not in rec.report(explode_above=1e30).names('exploding')


class InfBackward(nn.Cell):
    def construct(self, x):
        return x * 1.0

    def bprop(self, x, out, dout):
        return (dout * float('inf'),)


@pytest.mark.filterwarnings('ignore:.*invalid value encountered:RuntimeWarning')
def test_non_finite_gradient_and_missing_gradient():
    class Branchy(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 3)
            self.bad = InfBackward()
            self.unused = nn.Dense(4, 2)

        def construct(self, x):
            self.unused(x)                  # on the tape, but the loss never uses it
            return self.bad(self.fc(x))

    ms.set_seed(0)
    net = Branchy()
    with StatsRecorder(net) as rec:
        for _ in range(2):
            train_step(net, data((2, 4)))
            rec.step()
    report = rec.report()
    assert ('unused', 'grad_output') in report.names('missing')
    # MindSpore runs a parameter's hooks on zeros when no gradient reaches it: dead, not missing
    assert ('unused.weight', 'param') in report.names('dead')
    assert ('fc', 'grad_output') in report.names('exploding')
    assert 'non-finite' in report.exploding[0].detail
    assert rec['fc', 'grad_output']['inf'][0] == 3 * 2
    assert list(rec['unused', 'calls']['on_tape']) == [1, 1]
    assert list(rec['unused', 'calls']['backward']) == [0, 0]


def test_healthy_network_reports_nothing():
    ms.set_seed(0)
    net = MLP()
    opt = nn.SGD(net.trainable_params(), learning_rate=0.01)
    with StatsRecorder(net) as rec:
        for step in range(4):
            train_step(net, data((16, 4), seed=step), opt)
            rec.step()
    report = rec.report()
    assert report.ok, str(report)
    assert str(report).count(': none') == 7
    assert report.to_dict()['steps'] == [0, 1, 2, 3]


# --------------------------------------------------------------------------- parameters
def test_update_to_weight_ratio_equals_the_hand_computed_sgd_step():
    ms.set_seed(0)
    net = MLP()
    lr = 0.1
    opt = nn.SGD(net.trainable_params(), learning_rate=lr)
    x = data((8, 4))
    with StatsRecorder(net, include='fc1') as rec:
        before = net.fc1.weight.asnumpy().copy()
        grads = train_step(net, x, opt)
        rec.step()
        g = grads[0].asnumpy()
        s = rec['fc1.weight', 'param']
        assert s['grad_norm'][0] == pytest.approx(np.linalg.norm(g), rel=1e-5)
        assert s['norm'][0] == pytest.approx(np.linalg.norm(before), rel=1e-5)
        assert s['update_ratio'][0] == pytest.approx(
            lr * np.linalg.norm(g) / np.linalg.norm(before), rel=1e-5)
        # two backward passes in one step pool their gradients' squares
        g1, g2 = ms.grad(lambda x: net(x).sum(), None, [net.fc1.bias])(x), \
            ms.grad(lambda x: (net(x) ** 2).sum(), None, [net.fc1.bias])(x)
        rec.step()
    assert rec['fc1.bias', 'param']['grad_norm'][1] == pytest.approx(
        np.sqrt(np.sum(g1[0].asnumpy() ** 2) + np.sum(g2[0].asnumpy() ** 2)), rel=1e-5)
    assert rec['fc1.bias', 'param']['update_ratio'][1] == 0      # no optimizer step
    assert rec.history.params == ['fc1.weight', 'fc1.bias']


def test_auto_step_measures_the_update_at_the_next_call():
    ms.set_seed(0)
    net = nn.Dense(3, 2, bias_init='zeros')
    opt = nn.SGD(net.trainable_params(), learning_rate=0.5)
    x = data((4, 3))
    with StatsRecorder(net, auto_step=True) as rec:
        w0 = net.weight.asnumpy().copy()
        train_step(net, x, opt)
        w1 = net.weight.asnumpy().copy()
        train_step(net, x, opt)
    ratio = rec['weight', 'param']['update_ratio']
    assert ratio[0] == pytest.approx(np.linalg.norm(w1 - w0) / np.linalg.norm(w0), rel=1e-5)
    assert rec['bias', 'param']['update_ratio'][0] == np.inf      # moved away from zero
    assert len(ratio) == 2


# --------------------------------------------------------------------------- a recording
def recorded(steps=3):
    ms.set_seed(0)
    net = MLP(bias='zeros')
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    with StatsRecorder(net) as rec:
        for step in range(steps):
            train_step(net, data((8, 4), seed=step), opt)
            rec.step()
        net(data((2, 4)))             # forward only: a step with no gradients, no updates
    return rec


# --------------------------------------------------------------------------- hygiene
def test_nothing_outlives_close_and_no_hook_is_left():
    ms.set_seed(0)
    net = Net()
    refs = []

    def keep_refs(cell, *tensors):
        for group in tensors:
            for t in group if isinstance(group, tuple) else (group,):
                if isinstance(t, ms.Tensor):
                    refs.extend((weakref.ref(t), weakref.ref(t._data)))
    handles = [c.register_forward_hook(keep_refs) for _, c in net.cells_and_names()] + \
        [c.register_backward_hook(keep_refs) for _, c in net.cells_and_names()]
    rec = StatsRecorder(net)
    train_step(net, data())
    rec.step()
    train_step(net, data())       # a step in progress when the recorder closes
    for h in handles:
        h.remove()
    rec.close()
    rec.close()                   # idempotent
    assert net.hooks() == []
    assert len(rec.history) == 2 and len(refs) > 20
    net_ref = weakref.ref(net)
    params = [weakref.ref(p) for p in net.trainable_params()]
    del net, keep_refs
    gc.collect()
    assert net_ref() is None and all(r() is None for r in params)
    assert all(r() is None for r in refs)
    assert rec['fc1', 'output']['count'][0] == 4 * 6      # the statistics stay


def test_recorder_does_not_keep_the_network_alive_while_open():
    ms.set_seed(0)
    net = MLP()
    rec = StatsRecorder(net)
    ref = weakref.ref(net)
    del net
    gc.collect()
    assert ref() is None
    rec.close()


def test_hooks_removed_after_an_exception():
    ms.set_seed(0)
    net = MLP()
    with pytest.raises(ValueError, match='planted'):
        with StatsRecorder(net) as rec:
            train_step(net, data((2, 4)))
            raise ValueError('planted')
    assert net.hooks() == [] and len(rec.history) == 1
    with pytest.raises(Exception):
        with StatsRecorder(net):
            net(data((2, 5)))     # wrong width: Dense raises inside the recorded forward
    assert net.hooks() == []
    # after close the parameters' gradient hooks are gone too: nothing more is recorded
    train_step(net, data((2, 4)))
    assert len(rec.history) == 1
    with pytest.raises(RuntimeError, match='closed'):
        rec.step()
    assert 'closed' in repr(rec)


# --------------------------------------------------------------------------- errors
def test_bad_arguments_are_rejected_with_clear_messages():
    ms.set_seed(0)
    net = MLP()
    with pytest.raises(TypeError, match='net must be a Cell, got list'):
        StatsRecorder([net])
    with pytest.raises(TypeError, match='include must be a glob string'):
        StatsRecorder(net, include=3)
    with pytest.raises(TypeError, match='exclude must be a glob string'):
        StatsRecorder(net, exclude=[])
    with pytest.raises(ValueError, match=r"include pattern 'fc3' matches no cell of MLP; its "
                                         r"cells are: \(root\), fc1, relu, fc2"):
        StatsRecorder(net, include=['fc1', 'fc3'])
    with pytest.raises(ValueError, match="exclude pattern 'lin.*' matches no cell"):
        StatsRecorder(net, exclude=re.compile('lin.*'))
    with pytest.raises(TypeError, match='types must be a Cell subclass'):
        StatsRecorder(net, types=int)
    with pytest.raises(ValueError, match='the filters select no cell of MLP'):
        StatsRecorder(net, types=nn.Conv2d)
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match=f"every must be a positive int, got {bad!r}"):
            StatsRecorder(net, every=bad)
    with pytest.raises(ValueError, match='keep must be a positive int, got 0'):
        StatsRecorder(net, keep=0)
    with pytest.raises(ValueError, match=r"kinds must be a tuple of some of .*got 'output'"):
        StatsRecorder(net, kinds='output')
    with pytest.raises(ValueError, match=r"kinds must be a tuple of some of .*'grads'"):
        StatsRecorder(net, kinds=('output', 'grads'))
    with pytest.raises(TypeError, match="auto_step must be True or False, got 'yes'"):
        StatsRecorder(net, auto_step='yes')
    with pytest.raises(TypeError, match='params must be True or False'):
        StatsRecorder(net, params=None)
    assert net.hooks() == []


def test_bad_reads_reports_and_files(tmp_path):
    rec = recorded(1)
    h = rec.history
    with pytest.raises(KeyError, match=r"no cell named 'fc9'; known: \(root\), fc1, relu, fc2"):
        h['fc9', 'output']
    with pytest.raises(KeyError, match="no parameter named 'fc1'"):
        h['fc1', 'param']
    with pytest.raises(KeyError, match="kind must be one of"):
        h['fc1', 'outputs']
    with pytest.raises(KeyError, match=r"index with \(name, kind\)"):
        h['fc1']
    with pytest.raises(ValueError, match='patience must be a positive int, got 0'):
        rec.report(patience=0)
    with pytest.raises(ValueError, match='factor must be greater than 1, got 1'):
        rec.report(factor=1)
    with pytest.raises(ValueError, match='explode_above must be a positive finite number'):
        rec.report(explode_above=-1.0)
    with pytest.raises(ValueError, match=r"cells=\['x'\] matches no recorded cell"):
        rec.plot(tmp_path / 'p.png', cells='x')
    with pytest.raises(ValueError, match=r"unknown statistics \['avg'\]"):
        rec.to_tensorboard(tmp_path / 'tb', stats='avg')
    with pytest.raises(ValueError, match='expected a .json or .csv file'):
        load_stats(tmp_path / 'stats.txt')
    (tmp_path / 'a.json').write_text('{"format": "other"}')
    with pytest.raises(ValueError, match='is not a statistics file written by to_json'):
        load_stats(tmp_path / 'a.json')
    (tmp_path / 'b.json').write_text('{"format": "hookgrad.debug.stats", "version": 9}')
    with pytest.raises(ValueError, match='has version 9, this reader understands version 1'):
        load_stats(tmp_path / 'b.json')
    (tmp_path / 'c.csv').write_text('step,name,value\n')
    with pytest.raises(ValueError, match='must start with the header step,cell,kind,stat,value'):
        load_stats(tmp_path / 'c.csv')
    (tmp_path / 'd.csv').write_text('step,cell,kind,stat,value\n0,fc1,output\n')
    with pytest.raises(ValueError, match='line 2 has 3 fields, expected 5'):
        load_stats(tmp_path / 'd.csv')
    (tmp_path / 'e.csv').write_text('step,cell,kind,stat,value\nzero,fc1,output,mean,1\n')
    with pytest.raises(ValueError, match="line 2: step must be an int and value a number"):
        load_stats(tmp_path / 'e.csv')
    (tmp_path / 'f.csv').write_text('step,cell,kind,stat,value\n0,fc1,output,avg,1\n')
    with pytest.raises(ValueError, match="unknown entry: step 0, name 'fc1', kind 'output', "
                                         "stat 'avg'"):
        load_stats(tmp_path / 'f.csv')
    with pytest.raises(ValueError, match="expected one of dead, missing, exploding, vanishing, "
                                         "vanishing_depth, exploding_depth, large_update; "
                                         "got 'broken'"):
        rec.report().names('broken')
    assert repr(h) == 'StatsHistory(2 steps, 4 cells, 4 parameters)'
    # lr 0.1 moves fc2.bias by between 0.05 and 0.1 of its norm at step 0
    assert repr(rec.report()) == ('StatsReport(dead=0, missing=0, exploding=0, vanishing=0, '
                                 'vanishing_depth=0, exploding_depth=0, large_update=0)')
    assert rec.report(update_above=0.05).names('large_update') == [('fc2.bias', 'param')]
