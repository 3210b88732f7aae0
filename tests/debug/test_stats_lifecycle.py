"""StatsRecorder: gradients that arrive non-finite versus gradients that never arrive, too
large updates, logged losses, and recorders dropped without close()."""
import gc
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import StatsRecorder, load_stats
from hookgrad.debug.stats_report import StatsHistory


class NaNBackward(nn.Cell):
    def construct(self, x):
        return x * 1.0

    def bprop(self, x, out, dout):
        return (dout * float('nan'),)


class Net(nn.Cell):
    """fc gets NaN gradients through ``bad``; ``side`` is never called, so its parameters
    get no gradient at all."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)
        self.bad = NaNBackward()
        self.head = nn.Dense(3, 2)
        self.side = nn.Dense(4, 2)

    def construct(self, x):
        return self.head(self.bad(self.fc(x)))


X = ms.Tensor(np.ones((2, 4), np.float32))


def grads(net):
    weights = net.fc.trainable_params() + net.head.trainable_params()
    return ms.grad(lambda x: net(x).sum(), None, weights)(X)


@pytest.mark.filterwarnings('ignore:invalid value:RuntimeWarning')
def test_nan_gradients_are_exploding_with_counts_and_absent_ones_missing():
    ms.set_seed(0)
    net = Net()
    with StatsRecorder(net) as rec:
        for _ in range(3):
            grads(net)
            rec.step()
    report = rec.report()
    assert ('fc.weight', 'param') in report.names('exploding')
    assert ('fc.bias', 'param') in report.names('exploding')
    assert ('fc', 'grad_output') in report.names('exploding')
    assert report.names('missing') == [('side.weight', 'param'), ('side.bias', 'param')]
    assert ('fc.weight', 'param') not in report.names('dead')
    detail = {f.name: f.detail for f in report.exploding}
    assert detail['fc.weight'] == 'non-finite gradient at 3 step(s), at step 0: 12 NaN, 0 Inf'
    assert detail['fc'] == 'non-finite gradient at 3 step(s), at step 0: 6 NaN, 0 Inf'
    s = rec['fc.weight', 'param']
    assert list(s['grad_nan']) == [12, 12, 12] and list(s['grad_inf']) == [0, 0, 0]
    assert list(s['grad_norm']) == [0, 0, 0]             # the norm of its finite values
    assert 'no gradient arrived' in str(report) and 'arrived holding NaN/Inf' in str(report)


def test_non_finite_parameter_gradient_counts_survive_json_and_csv(tmp_path):
    history = StatsHistory(['fc'], ['fc.weight'])
    cells = np.full((1, 4, 10), np.nan)
    history.append(0, cells, np.zeros((1, 4)), np.array([[2.0, 1.0, 0.01, 3.0, 1.0]]))
    history.log(0, 1.5)
    for name in ('s.json', 's.csv'):
        history.to_json(tmp_path / name) if name.endswith('json') else \
            history.to_csv(tmp_path / name)
        back = load_stats(tmp_path / name)
        assert back['fc.weight', 'param']['grad_nan'][0] == 3.0
        assert back['fc.weight', 'param']['grad_inf'][0] == 1.0
        assert back.report().exploding[0].detail.endswith('3 NaN, 1 Inf')
    assert load_stats(tmp_path / 's.json').losses == {0: 1.5}


def test_a_too_large_learning_rate_is_reported():
    ms.set_seed(0)
    net = nn.Dense(4, 3, bias_init='zeros')
    opt = nn.SGD(net.trainable_params(), learning_rate=50.0)
    rng = np.random.default_rng(0)
    with StatsRecorder(net) as rec:
        for step in range(2):
            x = ms.Tensor(rng.standard_normal((8, 4)).astype(np.float32))
            loss, g = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None,
                                        opt.parameters)(x)
            opt(g)
            rec.log(loss)
            rec.step()
    report = rec.report()
    # the bias starts at zero: its ratio is large by construction and is left out
    assert report.names('large_update') == [('weight', 'param')]
    ratio = rec['weight', 'param']['update_ratio'][0]
    assert ratio > 1
    assert report.large_update[0].detail.startswith(f"update ratio {ratio:.3g} at step 0 ")
    assert report.large_update[0].detail.endswith('the learning rate is probably too large')
    assert rec.report(update_above=1e9).large_update == []
    assert sorted(rec.history.losses) == [0, 1]
    with pytest.raises(ValueError, match='update_above must be a positive finite number'):
        rec.report(update_above=0)
    with pytest.raises(TypeError, match='StatsHistory.log: loss must be a number or a '
                                        'one-element tensor, got list of shape'):
        rec.history.log(0, [1.0, 2.0])
    with pytest.raises(RuntimeError, match='StatsRecorder.log: the recorder is closed'):
        rec.log(1.0)


def test_a_dropped_recorder_removes_its_hooks_and_warns():
    ms.set_seed(0)
    net = nn.SequentialCell(nn.Dense(4, 3), nn.ReLU())
    rec = StatsRecorder(net)
    assert len(net.hooks()) > 0
    history = rec.history
    with pytest.warns(ResourceWarning, match='StatsRecorder on SequentialCell was garbage-'
                                             'collected while open; its hooks were removed'):
        del rec
        gc.collect()
    assert net.hooks() == [] and all(c.hooks() == [] for c in net.cells())
    ms.grad(lambda x: net(x).sum())(X)             # nothing measures any more
    assert len(history) == 0
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with StatsRecorder(net) as rec:             # a closed recorder does not warn
            pass
        del rec
        gc.collect()


def test_ten_dropped_recorders_leave_the_network_hook_free():
    net = nn.SequentialCell(nn.Dense(4, 3), nn.ReLU())
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ResourceWarning)
        for _ in range(10):
            StatsRecorder(net)
        gc.collect()
    assert net.hooks() == [] and all(c.hooks() == [] for c in net.cells())
