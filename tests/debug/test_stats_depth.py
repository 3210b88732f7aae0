"""StatsRecorder across depth: gradients that shrink (or grow) from the last layer to the first
are found from the forward order of the cells, and the whole profile can be read."""
import json
import math
import re
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import StatsRecorder, load_stats
from hookgrad.debug.stats_depth import DepthRow


def sigmoid_stack(depth=6):
    """``depth`` Dense + Sigmoid pairs and a Dense head: cells '0' ... str(2 * depth)."""
    layers = []
    for _ in range(depth):
        layers += [nn.Dense(16, 16), nn.Sigmoid()]
    return nn.SequentialCell(*layers, nn.Dense(16, 4))


def train(net, steps=4, lr=0.1, inputs=16, **options):
    opt = nn.SGD(net.trainable_params(), learning_rate=lr)
    rng = np.random.default_rng(0)
    loss_fn = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None, opt.parameters)
    with StatsRecorder(net, **options) as rec:
        for _ in range(steps):
            x = ms.Tensor(rng.standard_normal((32, inputs)).astype(np.float32))
            loss, grads = loss_fn(x)
            opt(grads)
            rec.step(loss=loss)
    return rec


@pytest.fixture(scope='module')
def stack():
    ms.set_seed(0)
    return train(sigmoid_stack())


def test_a_sigmoid_stack_vanishes_across_depth_though_no_layer_shrinks_over_time(stack):
    report = stack.report()
    assert report.vanishing == []                   # each series is level over the steps
    flagged = report.names('vanishing_depth')
    assert ('0', 'grad_output') in flagged and ('12', 'grad_output') not in flagged
    assert report.exploding_depth == [] and not report.ok
    # the finding's ratio is the norms' ratio at the last step, read from the series
    norms = {name: stack[name, 'grad_output']['norm'][-1] for name in ('0', '12')}
    first = report.vanishing_depth[0]
    assert first.name == '0' and first.since == 0
    assert f"ratio {norms['0'] / norms['12']:.3g} to the last layer at step 3" in first.detail
    # every flagged layer is below the threshold, every other one above it
    profile = {row.name: row.ratio for row in stack.depth_profile()}
    assert {name for name, _ in flagged} == {n for n, r in profile.items() if r < 1e-3}
    text = str(report)
    assert 'vanishing across depth (gradient norm below 0.001 x the last layer\'s): ' \
           f'{len(flagged)}' in text
    assert re.search(r"\n  0 +grad_output  ratio [0-9.e-]+ to the last layer at step 3: norm "
                     r"[0-9.e-]+, 12's [0-9.e-]+, since step 0", text)
    doc = report.to_dict()
    assert [f['name'] for f in doc['vanishing_depth']] == [n for n, _ in flagged]
    assert doc['rules']['depth_ratio_below'] == 1e-3 and doc['rules']['depth_ratio_above'] == 1e3
    json.dumps(doc)
    assert 'vanishing_depth=' in repr(report)
    assert stack.report(depth_ratio_below=1e-12).vanishing_depth == []


def test_the_depth_profile_is_in_forward_order_with_ratios_to_the_last_layer(stack):
    rows = stack.depth_profile()
    assert all(isinstance(r, DepthRow) for r in rows)
    # the SequentialCell itself holds the others: it is left out
    assert [r.name for r in rows] == [str(i) for i in range(13)]
    last = stack['12', 'grad_output']['norm'][-1]
    for row in rows:
        norm = stack[row.name, 'grad_output']['norm'][-1]
        assert row.norm == norm and row.ratio == pytest.approx(norm / last, rel=1e-12)
    assert rows[-1].ratio == 1.0
    assert rows[0].ratio < 1e-5 < rows[-3].ratio            # it shrinks layer by layer
    at0 = stack.depth_profile(step=0)
    assert at0[0].norm == stack['0', 'grad_output']['norm'][0]
    with pytest.raises(ValueError, match=r"depth_profile: step 9 was not recorded; "
                                         r"recorded: 0, 1, 2, 3"):
        stack.depth_profile(step=9)


class Reversed(nn.Cell):
    """Defines its cells in one order and calls them in the other; ``boom`` scales by k."""

    def __init__(self, k):
        super().__init__()
        self.head = nn.Dense(5, 2)
        self.boom = Scale(k)
        self.body = nn.Dense(4, 5)

    def construct(self, x):
        return self.head(self.boom(self.body(x)))


class Scale(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k


def test_order_is_the_order_the_cells_ran_and_growth_across_depth_is_found():
    ms.set_seed(0)
    net = Reversed(1e5)
    rec = train(net, steps=2, lr=0.0, inputs=4)
    assert [r.name for r in rec.depth_profile()] == ['body', 'boom', 'head']
    assert list(rec['head', 'calls']['order']) == [3, 3]
    assert list(rec['', 'calls']['order']) == [4, 4]        # the network finishes last
    report = rec.report()
    assert report.names('exploding_depth') == [('body', 'grad_output')]
    ratio = rec.depth_profile()[0].ratio
    assert ratio > 1e4
    assert report.exploding_depth[0].detail.startswith(f"ratio {ratio:.3g} to the last layer")
    assert rec.report(depth_ratio_above=1e9).exploding_depth == []


def test_a_file_without_the_order_falls_back_to_the_tree_order(stack, tmp_path):
    stack.to_json(tmp_path / 'stats.json')
    back = load_stats(tmp_path / 'stats.json')
    assert back.depth_profile() == stack.depth_profile()
    assert str(back.report()) == str(stack.report())
    doc = json.loads((tmp_path / 'stats.json').read_text())
    for entry in doc['series']:
        entry.pop('order', None)
    (tmp_path / 'old.json').write_text(json.dumps(doc))
    old = load_stats(tmp_path / 'old.json')
    assert not old.calls[..., 3].any()
    assert old.depth_profile() == stack.depth_profile()      # defined in the order it runs


class NaNBackward(nn.Cell):
    def construct(self, x):
        return x * 1.0

    def bprop(self, x, out, dout):
        return (dout * float('nan'),)


def test_non_finite_and_zero_gradients_have_no_depth_finding():
    class Net(nn.Cell):
        def __init__(self, bias=None):
            super().__init__()
            self.fc = nn.Dense(4, 3, bias_init=bias)
            self.bad = NaNBackward()
            self.relu = nn.ReLU()
            self.head = nn.Dense(3, 2)

        def construct(self, x):
            return self.head(self.relu(self.bad(self.fc(x))))

    ms.set_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        rec = train(Net(), steps=2, lr=0.0, inputs=4)
    rows = {r.name: r for r in rec.depth_profile()}
    assert math.isnan(rows['fc'].ratio) and math.isnan(rows['fc'].norm)
    assert rows['head'].ratio == 1.0
    report = rec.report()
    assert ('fc', 'grad_output') in report.names('exploding')
    assert report.vanishing_depth == report.exploding_depth == []

    class Dead(Net):
        def construct(self, x):
            return self.head(self.relu(self.fc(x)))
    ms.set_seed(0)
    rec = train(Dead(bias=-1e3), steps=2, lr=0.0, inputs=4)       # the ReLU outputs zeros
    report = rec.report()
    assert ('fc', 'grad_output') in report.names('dead')
    assert rec.depth_profile()[0] == DepthRow('fc', 0.0, 0.0)
    assert report.vanishing_depth == []


def test_depth_rules_are_checked():
    ms.set_seed(0)
    rec = train(nn.SequentialCell(nn.Dense(3, 2)), steps=1, inputs=3)
    with pytest.raises(ValueError, match='depth_ratio_below must be a positive finite number, '
                                         'got 0'):
        rec.report(depth_ratio_below=0)
    with pytest.raises(ValueError, match='depth_ratio_below must be below 1 and '
                                         'depth_ratio_above above 1, got 2 and 1000.0'):
        rec.report(depth_ratio_below=2)
    with pytest.raises(ValueError, match="depth_profile: step '0' was not recorded"):
        rec.depth_profile(step='0')
    assert [r.name for r in rec.depth_profile()] == ['0']
