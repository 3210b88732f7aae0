"""debug.check: one planted trap per test, found with its kind and cell path; a healthy network
gives nothing; the check puts everything back; bad arguments are refused by name; the code of
docs/from-pytorch.md runs and prints what it says."""
import pathlib
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.autograd.observer import observers
from hookgrad.common.initializer import Constant, Normal
from hookgrad.debug import CheckFinding, CheckReport, check

DOC = pathlib.Path(__file__).resolve().parents[2] / 'docs' / 'from-pytorch.md'


def normal(*shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def labels(n, classes, seed=1):
    return ms.Tensor(np.random.default_rng(seed).integers(0, classes, n).astype(np.int32))


def found(report, kind):
    """The cells (or parameters, or inputs) of one kind of finding."""
    return [f.param or (f.cell if f.input is None else f.input) for f in report.of(kind)]


class Gated(nn.Cell):
    """Reads the mode in its own construct."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(8, 8)

    def construct(self, x):
        y = self.fc(x)
        return y * 0.5 if self.training else y


class Healthy(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(8, 32)
        self.bn = nn.BatchNorm1d(32)
        self.relu = nn.ReLU()
        self.drop = nn.Dropout(p=0.1)
        self.fc2 = nn.Dense(32, 16)
        self.fc3 = nn.Dense(16, 4)

    def construct(self, x):
        h = self.drop(self.relu(self.bn(self.fc1(x))))
        return self.fc3(ops.tanh(self.fc2(h)))


def deep(activation, sigma, layers, width=16):
    cells = [nn.Dense(8, width, weight_init=Normal(sigma))]
    for _ in range(layers):
        cells += [activation(), nn.Dense(width, width, weight_init=Normal(sigma))]
    return nn.SequentialCell(*cells).set_train()


# ----------------------------------------------------------------------------- the traps
def test_a_network_left_in_predict_mode_names_its_mode_dependent_cells():
    net = nn.SequentialCell(nn.Dense(8, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(p=0.3),
                            Gated(), nn.BatchNorm1d(8, use_batch_statistics=True),
                            nn.Dropout(p=0.0))
    assert net.training is False                    # a new Cell starts in predict mode
    report = check(net, normal(16, 8), verbose=False)
    assert report.kinds() == ['predict_mode']
    # fixed batch statistics and a zero drop probability behave alike in both modes
    assert found(report, 'predict_mode') == ['1', '3', '4']
    assert {f.fix for f in report} == {'net.set_train() before training'}
    messages = [f.message for f in report]
    assert 'moving statistics' in messages[0] and 'drops nothing' in messages[1]
    assert 'self.training' in messages[2]
    assert check(net.set_train(), normal(16, 8), verbose=False).ok


def test_a_sub_cell_left_in_predict_mode_in_a_training_network_is_named():
    net = nn.SequentialCell(nn.Dense(8, 8), nn.BatchNorm1d(8)).set_train()
    net[1].set_train(False)
    (finding,) = check(net, normal(16, 8), verbose=False)
    assert (finding.kind, finding.cell) == ('predict_mode', '1')
    assert "set_train() on '1'" in finding.fix


def test_parameters_no_gradient_reaches_are_named_with_their_cells():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(8, 4)
            self.spare = nn.Dense(8, 4)             # never called
            self.shift = ms.Parameter(ms.Tensor(np.ones(4, np.float32)), name='shift')

        def construct(self, x):
            return self.fc(x) + ops.stop_gradient(self.shift)

    report = check(Net().set_train(), normal(16, 8), verbose=False)
    assert report.kinds() == ['no_gradient']
    assert found(report, 'no_gradient') == ['shift', 'spare.weight', 'spare.bias']
    assert [f.cell for f in report] == ['', 'spare', 'spare']
    assert 'requires_grad=False' in report[0].fix


def test_parameters_whose_gradient_is_all_zero_are_named():
    net = nn.SequentialCell(nn.Dense(8, 6), nn.Dense(6, 3, weight_init='zeros')).set_train()
    report = check(net, normal(16, 8), verbose=False)
    assert report.kinds() == ['zero_gradient']
    assert found(report, 'zero_gradient') == ['0.weight', '0.bias']
    assert {f.cell for f in report} == {'0'}


def test_a_dead_relu_layer_is_found_as_a_cell_and_as_a_functional_op():
    class Functional(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(6, 6, bias_init=Constant(-50.0))

        def construct(self, x):
            return ops.relu(self.fc(x))

    net = nn.SequentialCell(nn.Dense(8, 6, bias_init=Constant(-50.0)), nn.ReLU(),
                            nn.Dense(6, 6), Functional(), nn.Dense(6, 2)).set_train()
    report = check(net, normal(16, 8), verbose=False)
    assert found(report, 'dead') == ['1', '3']
    assert report.of('dead')[0].value == 1.0
    assert 'He initialization' in report.of('dead')[0].fix
    # nothing flows back through a dead layer: the layers before it get zeros
    assert {'0.weight', '0.bias', '3.fc.weight', '3.fc.bias'} <= \
        set(found(report, 'zero_gradient'))


def test_saturated_sigmoid_and_tanh_layers_are_found():
    net = nn.SequentialCell(nn.Dense(8, 16, weight_init=Normal(100.0)), nn.Sigmoid(),
                            nn.Dense(16, 16, weight_init=Normal(100.0)), nn.Tanh(),
                            nn.Dense(16, 16), nn.Sigmoid(), nn.Dense(16, 2)).set_train()
    report = check(net, normal(64, 8), verbose=False)
    assert found(report, 'saturated') == ['1', '3']
    assert all(f.value > 0.95 for f in report.of('saturated'))
    relaxed = check(net, normal(64, 8), saturated_above=0.999999, verbose=False)
    assert found(relaxed, 'saturated') == []


def test_gradients_vanishing_across_depth_are_found_below_the_threshold():
    net = deep(nn.Sigmoid, 0.1, layers=6)
    report = check(net, normal(32, 8), verbose=False)
    vanishing = found(report, 'vanishing')
    assert vanishing[0] == '0' and '12' not in vanishing      # the last layer is the reference
    ratios = [f.value for f in report.of('vanishing')]
    assert all(r < 1e-3 for r in ratios) and ratios == sorted(ratios)
    assert found(check(net, normal(32, 8), vanish_below=1e-12, verbose=False), 'vanishing') == []


def test_gradients_exploding_across_depth_are_found_above_the_threshold():
    net = deep(nn.Identity, 2.0, layers=5)
    report = check(net, normal(32, 8), verbose=False)
    assert found(report, 'exploding')[0] == '0'
    assert all(f.value > 1e3 for f in report.of('exploding'))
    assert 'clip' in report.of('exploding')[0].fix
    assert found(check(net, normal(32, 8), explode_above=1e12, verbose=False), 'exploding') == []


def test_raw_pixel_inputs_are_named_by_position():
    class TwoInputs(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(16, 2)

        def construct(self, image, extra):
            return self.fc(ops.flatten(image) + extra)

    pixels = ms.Tensor(np.random.default_rng(0).integers(0, 256, (8, 1, 4, 4)).astype(np.float32))
    report = check(TwoInputs().set_train(), pixels, normal(8, 16), verbose=False)
    (finding,) = report.of('input_scale')
    assert (finding.input, finding.cell, finding.where) == (0, None, 'input 0')
    assert 'Normalize' in finding.fix and 'Rescale(1/255)' in finding.fix
    assert check(TwoInputs().set_train(), pixels / 255 * 0 + normal(8, 1, 4, 4),
                 normal(8, 16), verbose=False).ok
    tiny = check(TwoInputs().set_train(), normal(8, 1, 4, 4) * 1e-3, normal(8, 16),
                 verbose=False)
    assert found(tiny, 'input_scale') == [0]


def test_a_learning_rate_that_moves_weights_by_a_large_fraction_is_found():
    net = nn.SequentialCell(nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 4)).set_train()
    x, y = normal(32, 8), labels(32, 4)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    sgd = check(net, x, loss_fn=loss, target=y, lr=100.0, verbose=False)
    assert set(found(sgd, 'large_update')) >= {'0.weight', '2.weight'}
    weight = sgd.of('large_update')[0]
    assert weight.cell == '0' and weight.value > 0.1 and 'lower the learning rate' in weight.fix
    assert check(net, x, loss_fn=loss, target=y, lr=1e-4, verbose=False).ok
    # Adam moves every element by about lr at its first step, whatever the gradient's size
    adam = nn.Adam(net.trainable_params(), learning_rate=0.5)
    assert '0.weight' in found(check(net, x, loss_fn=loss, target=y, optimizer=adam,
                                     verbose=False), 'large_update')
    small = nn.Adam(net.trainable_params(), learning_rate=1e-5)
    assert check(net, x, loss_fn=loss, target=y, optimizer=small, verbose=False).ok
    # the estimate is lr * ||g|| for SGD: the threshold sits at that ratio
    ratio = weight.value
    assert weight.param in found(check(net, x, loss_fn=loss, target=y, lr=100.0,
                                       update_above=ratio * 0.99, verbose=False),
                                 'large_update')
    assert weight.param not in found(check(net, x, loss_fn=loss, target=y, lr=100.0,
                                           update_above=ratio * 1.01, verbose=False),
                                     'large_update')


def test_the_learning_rate_is_read_per_parameter_at_the_optimizers_step():
    net = nn.SequentialCell(nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 4)).set_train()
    x = normal(32, 8)
    first, rest = net[0].trainable_params(), net[2].trainable_params()

    def ratios(opt, **kw):
        return {f.param: f.value for f in check(net, x, optimizer=opt, update_above=1e-9,
                                                verbose=False, **kw).of('large_update')}

    plain = ratios(nn.SGD(net.trainable_params(), learning_rate=0.1))
    nesterov = ratios(nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9,
                                  use_nesterov=True))
    assert plain.keys() == nesterov.keys() == {'0.weight', '0.bias', '2.weight', '2.bias'}
    for name, ratio in plain.items():           # the first Nesterov step: (1 + momentum) lr g
        assert np.isclose(nesterov[name], 1.9 * ratio)
    grouped = ratios(nn.SGD([{'params': first, 'lr': 1.0}, {'params': rest}],
                            learning_rate=0.1))
    assert np.isclose(grouped['0.weight'], 10 * plain['0.weight'])
    assert np.isclose(grouped['2.weight'], plain['2.weight'])
    per_step = nn.SGD(net.trainable_params(), learning_rate=[0.1, 0.001])
    assert np.isclose(ratios(per_step)['0.weight'], plain['0.weight'])
    per_step.global_step.set_data(ms.Tensor(np.array([1], np.int32)))
    assert np.isclose(ratios(per_step)['0.weight'], plain['0.weight'] / 100)
    schedule = nn.ExponentialDecayLR(0.1, 0.5, 1)
    assert np.isclose(ratios(nn.SGD(net.trainable_params(), learning_rate=schedule))[
        '0.weight'], plain['0.weight'])
    lamb = ratios(nn.Lamb(net.trainable_params(), learning_rate=0.02))
    assert np.isclose(lamb['0.weight'], 0.02)      # Lamb's step is lr times the weight's norm
    assert np.isclose(ratios(None, lr=0.1)['0.weight'], plain['0.weight'])


def test_parameters_the_optimizer_leaves_out_are_named():
    net = nn.SequentialCell(nn.Dense(8, 6), nn.ReLU(), nn.Dense(6, 2)).set_train()
    opt = nn.Momentum(net[0].trainable_params(), learning_rate=1e-4, momentum=0.9)
    report = check(net, normal(16, 8), optimizer=opt, verbose=False)
    assert found(report, 'not_optimized') == ['2.weight', '2.bias']
    assert {f.cell for f in report} == {'2'}


def test_a_nonfinite_loss_points_to_nan_guard_and_stops_the_gradient_rules():
    net = nn.SequentialCell(nn.Dense(8, 4)).set_train()
    x = normal(4, 8).asnumpy()
    x[0, 0] = np.inf
    with pytest.warns(RuntimeWarning):
        report = check(net, ms.Tensor(x), lr=1e3, verbose=False)
    assert report.kinds() == ['nonfinite']
    assert 'nan_guard' in report[0].fix


def test_a_nonfinite_gradient_under_a_finite_loss_names_the_first_parameter():
    class Root(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(8, 4, weight_init='zeros', bias_init='zeros')
            self.out = nn.Dense(4, 2)

        def construct(self, x):
            return self.out(ops.sqrt(self.fc(x)))          # sqrt's slope at 0 is infinite

    with pytest.warns(RuntimeWarning):
        report = check(Root().set_train(), normal(4, 8), verbose=False)
    (finding,) = report.of('nonfinite')
    assert (finding.param, finding.cell) == ('fc.weight', 'fc')
    assert finding.message == 'its gradient holds 32 NaN or Inf values (and 1 more parameter)'
    assert np.isfinite(report.loss) and report.of('vanishing') == report.of('exploding') == []


# ----------------------------------------------------------------------------- a healthy run
def test_a_healthy_normalized_network_in_train_mode_gives_no_finding(capsys):
    net = Healthy().set_train()
    report = check(net, normal(64, 8), loss_fn=nn.CrossEntropyLoss(), target=labels(64, 4),
                   optimizer=nn.Adam(net.trainable_params(), learning_rate=1e-3))
    assert report.ok and len(report) == 0 and list(report) == []
    assert report.n_params == 8 and report.n_cells == 7 and np.isfinite(report.loss)
    out = capsys.readouterr().out
    assert out.startswith('check: no traps found') and str(report) in out


def test_the_report_reads_as_a_list_prints_a_table_and_converts_to_plain_data(capsys):
    net = nn.SequentialCell(nn.Dense(8, 8, bias_init=Constant(-50.0)), nn.ReLU(),
                            nn.BatchNorm1d(8), nn.Dense(8, 2))
    report = check(net, normal(16, 8))
    printed = capsys.readouterr().out
    assert isinstance(report, CheckReport) and all(isinstance(f, CheckFinding) for f in report)
    assert report.kinds() == ['predict_mode', 'zero_gradient', 'dead']
    assert report[0].cell == '2' and len(report) == 6
    # a dead layer feeds zeros on: BatchNorm's gamma and the next weight get no gradient either
    assert found(report, 'zero_gradient') == ['0.weight', '0.bias', '2.gamma', '3.weight']
    text = str(report)
    for word in ('kind', 'where', 'problem', 'fix', 'predict_mode', 'net.set_train()',
                 '0.weight', 'dead', 'check: 6 traps found'):
        assert word in text and word in printed
    data = report.to_dict()
    assert data['ok'] is False and data['rules']['dead_above'] == 0.9
    assert [f['kind'] for f in data['findings']] == ['predict_mode'] + \
        ['zero_gradient'] * 4 + ['dead']
    assert data['findings'][-1] == {'kind': 'dead', 'message': report[-1].message,
                                    'fix': report[-1].fix, 'cell': '1', 'param': None,
                                    'input': None, 'value': 1.0}
    assert repr(report) == 'CheckReport(predict_mode=1, zero_gradient=4, dead=1)'
    assert str(report[-1]).startswith('dead 1: ')
    with pytest.raises(ValueError, match="CheckReport.of: kind must be one of .*got 'deadly'"):
        report.of('deadly')


# ----------------------------------------------------------------------------- hygiene
def _state(net):
    return ([p.asnumpy().copy() for p in net.get_parameters()],
            [p.grad for p in net.get_parameters()],
            [(n, c.training, c.phase) for n, c in net.cells_and_names()])


def test_check_puts_back_hooks_parameters_gradients_modes_and_the_random_state():
    net = Healthy().set_train()
    net.fc2.set_train(False)
    before = _state(net)
    ms.set_seed(5)
    check(net, normal(64, 8), verbose=False)
    after_check = ops.rand(3).asnumpy()
    ms.set_seed(5)
    expected = ops.rand(3).asnumpy()
    np.testing.assert_array_equal(after_check, expected)        # the dropout draws undone
    after = _state(net)
    for a, b in zip(before[0], after[0]):                       # moving statistics included
        np.testing.assert_array_equal(a, b)
    assert after[1] == before[1] == [None] * 10
    assert after[2] == before[2]
    assert net.hooks() == [] and observers() == ()


def test_check_puts_everything_back_when_the_forward_pass_raises():
    net = Healthy().set_train()
    before = _state(net)
    with pytest.raises(ValueError, match="nn.Dense 'Healthy.fc1': input of shape"):
        check(net, normal(64, 5), verbose=False)            # fc1 takes 8 features
    assert net.hooks() == [] and observers() == ()
    for a, b in zip(before[0], _state(net)[0]):
        np.testing.assert_array_equal(a, b)


def test_hooks_of_the_user_stay_and_keep_running():
    net = nn.SequentialCell(nn.Dense(8, 4), nn.BatchNorm1d(4)).set_train()
    seen = []
    handle = net[1].register_forward_pre_hook(lambda cell, inputs: seen.append(cell))
    check(net, normal(16, 8), verbose=False)
    assert len(seen) == 1 and [h.cell_path for h in net.hooks()] == ['SequentialCell.1']
    handle.remove()


# ----------------------------------------------------------------------------- on the GPU
def test_on_the_gpu_the_findings_are_the_cpus_read_back_in_two_host_reads():
    from tests.device.common import GPU, Reads, assert_reads, both

    def run():
        net = nn.SequentialCell(nn.Dense(8, 16, weight_init=Normal(50.0)), nn.Sigmoid(),
                                nn.Dense(16, 16, bias_init=Constant(-1e4)), nn.ReLU(),
                                nn.BatchNorm1d(16), nn.Dense(16, 4))
        x, y = normal(32, 8) * 100, labels(32, 4)       # on the current device
        before = [p.asnumpy().copy() for p in net.get_parameters()]
        opt = nn.Adam(net.trainable_params(), learning_rate=0.5)
        with Reads() as reads:
            report = check(net, x, loss_fn=nn.CrossEntropyLoss(), target=y, optimizer=opt,
                           verbose=False)
        devices = {p.device for p in net.get_parameters()}
        for p, b in zip(net.get_parameters(), before):
            np.testing.assert_array_equal(p.asnumpy(), b)
        return report.to_dict(), reads, devices

    (cpu, _, on_cpu), (gpu, reads, on_gpu) = both(run)
    assert on_cpu == {'CPU'} and on_gpu == {GPU.name}       # the parameters stay where they are
    assert np.isclose(gpu['loss'], cpu['loss'])
    assert [(f['kind'], f['cell'], f['param'], f['input']) for f in gpu['findings']] == \
        [(f['kind'], f['cell'], f['param'], f['input']) for f in cpu['findings']]
    np.testing.assert_allclose([f['value'] or 0 for f in gpu['findings']],
                               [f['value'] or 0 for f in cpu['findings']], rtol=1e-4)
    assert {'predict_mode', 'input_scale', 'zero_gradient', 'dead', 'saturated',
            'large_update'} <= {f['kind'] for f in gpu['findings']}
    assert_reads(reads, 2)      # the StatsRecorder's step, then every other number at once


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize('call, error, message', [
    (lambda net, x: check(ops.relu, x), TypeError, "check: net must be a Cell, got function"),
    (lambda net, x: check(net), TypeError, "check: expected at least one input"),
    (lambda net, x: check(net, x, loss_fn=3), TypeError,
     "check: loss_fn must be callable or None, got int"),
    (lambda net, x: check(net, x, target=x), ValueError,
     "check: target is given without a loss_fn"),
    (lambda net, x: check(net, x, optimizer='sgd'), TypeError,
     "check: optimizer must be an nn.Optimizer or None, got str"),
    (lambda net, x: check(net, x, optimizer=nn.SGD(net.trainable_params()), lr=0.1),
     ValueError, "check: give optimizer or lr, not both"),
    (lambda net, x: check(net, x, optimizer=nn.RMSProp(net.trainable_params())), TypeError,
     "check: the first update of RMSProp is not estimated; give an SGD, .* or lr="),
    (lambda net, x: check(net, x, lr=0), ValueError, r"check: lr must be above 0, got 0"),
    (lambda net, x: check(net, x, lr='fast'), TypeError, "check: lr must be a number, got str"),
    (lambda net, x: check(net, x, verbose=1), TypeError,
     "check: verbose must be True or False, got 1"),
    (lambda net, x: check(net, x, dead_above=1.0), ValueError,
     r"check: dead_above must be above 0 and below 1, got 1.0"),
    (lambda net, x: check(net, x, saturation_margin=0.5), ValueError,
     r"check: saturation_margin must be above 0 and below 0.5"),
    (lambda net, x: check(net, x, vanish_below=2), ValueError,
     r"check: vanish_below must be above 0 and below 1, got 2"),
    (lambda net, x: check(net, x, explode_above=0.5), ValueError,
     r"check: explode_above must be above 1, got 0.5"),
    (lambda net, x: check(net, x, update_above=float('nan')), ValueError,
     r"check: update_above must be above 0, got nan"),
    (lambda net, x: check(net, x, input_std_below=9.0), ValueError,
     r"check: input_std_below must be above 0 and below 5, got 9.0"),
    (lambda net, x: check(net, x, loss_fn=lambda out: 3.0), TypeError,
     "check: loss_fn must return a floating-point Tensor, got float"),
    (lambda net, x: check(nn.ReLU(), x), ValueError,
     "check: ReLU has no trainable parameter; there is nothing to train"),
])
def test_bad_arguments_are_refused_by_name(call, error, message):
    net = nn.Dense(8, 2).set_train()
    with pytest.raises(error, match=message):
        call(net, normal(4, 8))
    assert net.hooks() == []


def test_a_network_without_a_floating_output_needs_a_loss_fn():
    class Argmax(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(8, 3)

        def construct(self, x):
            return self.fc(x).argmax(-1)

    with pytest.raises(TypeError, match="check: the network returned no floating-point Tensor "
                                        r"\(got Tensor\); give a loss_fn"):
        check(Argmax(), normal(4, 8), verbose=False)


# ----------------------------------------------------------------------------- the guide
def doc_blocks():
    return re.findall(r"```python\n(.*?)\n```", DOC.read_text(), re.S)


def test_every_code_block_of_the_pytorch_guide_runs_and_its_asserts_hold(capsys):
    blocks = doc_blocks()
    assert len(blocks) >= 10
    scope = {}
    for i, code in enumerate(blocks):
        try:
            exec(compile(code, f"{DOC.name} block {i}", 'exec'), scope)
        except Exception as e:                      # name the block that broke
            raise AssertionError(f"block {i} of {DOC.name} failed: {e!r}\n{code}") from e
    assert 'check: ' in capsys.readouterr().out
