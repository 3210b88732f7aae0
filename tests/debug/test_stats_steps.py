"""StatsRecorder's step bookkeeping: the loss and learning rate of step k are filed under step k
whichever order a loop calls ``log`` and ``step`` in, and line up with nan_guard's steps."""
import csv
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import StatsRecorder, load_stats, nan_guard
from tests.debug.test_stats import MLP
from tests.device.common import GPU, Reads, assert_reads, on

STEPS = 5
NAN_STEP = 2
FORMS = ('log_then_step', 'step_then_log', 'step_with_loss', 'auto_step')


def lr_at(k):
    return 0.1 / (k + 1)


def run(form, every=1, steps=STEPS, nan_step=NAN_STEP, lr=lr_at, base_lr=0.1, poison=np.s_[:]):
    """``steps`` SGD steps (learning rate ``base_lr``), each logging the learning rate ``lr(k)``
    (None: no rate) by the call order ``form``; ``x[poison]`` of step ``nan_step`` (None: no
    step) is NaN, and its update is skipped. Returns the recorder, the guard, and the losses
    computed in each step."""
    ms.set_seed(0)
    net = MLP()
    opt = nn.SGD(net.trainable_params(), learning_rate=base_lr)
    grad_fn = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None, opt.parameters)
    rng = np.random.default_rng(0)
    computed = []
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        with StatsRecorder(net, every=every, auto_step=form == 'auto_step') as rec, \
                nan_guard(net, action='record') as guard:
            for k in range(steps):
                x = rng.standard_normal((8, 4)).astype(np.float32)
                if k == nan_step:
                    x[poison] = np.nan
                loss, grads = grad_fn(ms.Tensor(x))
                computed.append(float(loss.asnumpy()))
                if k != nan_step:
                    opt(grads)
                rate = None if lr is None else lr(k)
                if form == 'log_then_step':
                    rec.log(loss, lr=rate)
                    rec.step()
                elif form == 'step_then_log':
                    rec.step()
                    rec.log(loss, lr=rate)
                elif form == 'step_with_loss':
                    rec.step(loss=loss, lr=rate)
                else:
                    rec.log(loss, lr=rate)
    return rec, guard, computed


def same(got, want):
    np.testing.assert_array_equal(np.array(got), np.array(want))


@pytest.mark.parametrize('form', FORMS)
def test_the_loss_of_step_k_is_filed_under_step_k(form, tmp_path):
    rec, guard, computed = run(form)
    h = rec.history
    assert sorted(h.losses) == list(range(STEPS))
    same([h.losses[k] for k in range(STEPS)], computed)
    assert [h.lrs[k] for k in range(STEPS)] == [lr_at(k) for k in range(STEPS)]
    # nan_guard, the statistics and the loss agree on which step the NaN came in
    assert guard.reports[0].step == NAN_STEP
    assert [k for k in range(STEPS) if np.isnan(h.losses[k])] == [NAN_STEP]
    assert list(h.steps[rec['fc1', 'input']['nan'] > 0]) == [NAN_STEP]
    for name in ('s.json', 's.csv'):
        (rec.to_json if name.endswith('json') else rec.to_csv)(tmp_path / name)
        back = load_stats(tmp_path / name)
        same([back.losses[k] for k in range(STEPS)], computed)
        assert back.lrs == h.lrs


def test_losses_are_logged_every_step_whatever_every():
    rec, _, computed = run('step_then_log', every=2)
    assert list(rec.history.steps) == [0, 2, 4]
    same([rec.history.losses[k] for k in range(STEPS)], computed)


def test_the_csv_file_holds_the_losses_and_learning_rates(tmp_path):
    rec, _, computed = run('step_with_loss')
    rec.to_csv(tmp_path / 's.csv')
    with open(tmp_path / 's.csv', newline='') as f:
        rows = [r for r in csv.reader(f) if r[2] == 'run']
    assert ['1', '', 'run', 'loss', repr(computed[1])] in rows
    assert ['3', '', 'run', 'lr', repr(lr_at(3))] in rows
    assert len(rows) == 2 * STEPS
    with open(tmp_path / 'bad.csv', 'w') as f:
        f.write('step,cell,kind,stat,value\n0,,run,momentum,0.9\n')
    with pytest.raises(ValueError, match="unknown entry: step 0, kind 'run', stat 'momentum'"):
        load_stats(tmp_path / 'bad.csv')


def test_log_after_the_network_ran_again_belongs_to_the_new_step():
    ms.set_seed(0)
    net = MLP()
    x = ms.Tensor(np.ones((2, 4), np.float32))
    with StatsRecorder(net) as rec:
        net(x)
        rec.step()
        rec.log(1.0)                # right after step(): the step that ended, 0
        net(x)
        rec.log(2.0)                # the network ran: the step in progress, 1
        rec.log(lr=0.5)             # the learning rate alone
        rec.step(loss=3.0)          # overrides 2.0: the value given last wins
    assert rec.history.losses == {0: 1.0, 1: 3.0} and rec.history.lrs == {1: 0.5}


def test_bad_losses_and_learning_rates_are_refused():
    with StatsRecorder(MLP()) as rec:
        with pytest.raises(TypeError, match=r"StatsRecorder.log: give the loss, the learning "
                                            r"rate \(lr=\) or both"):
            rec.log()
        with pytest.raises(TypeError, match='StatsHistory.log: lr must be a number or a '
                                            'one-element tensor, got list of shape'):
            rec.step(lr=[0.1, 0.2])
        with pytest.raises(TypeError, match='StatsHistory.log: loss must be a number'):
            rec.log(ms.Tensor(np.ones(3, np.float32)))
    with pytest.raises(RuntimeError, match='StatsRecorder.step: the recorder is closed'):
        rec.step(loss=1.0)


@pytest.mark.parametrize('form', ('log_then_step', 'step_then_log', 'step_with_loss'))
def test_device_losses_are_read_with_a_steps_statistics(form):
    """On a device, a loss logged before or with step() is read in that step's one read; one
    logged after step() waits for the next step's read (the last one for close())."""
    with on(GPU):
        net = MLP()
        x = ms.Tensor(np.ones((2, 4), np.float32))
        computed = []
        rec = StatsRecorder(net)
        with Reads() as reads:
            for k in range(3):
                loss = (net(x) ** 2).mean() * (k + 1)
                computed.append(float(loss.asnumpy()))
                with Reads() as own:
                    if form == 'log_then_step':
                        rec.log(loss, lr=ms.Tensor([0.5]))
                        rec.step()
                    elif form == 'step_then_log':
                        rec.step()
                        rec.log(loss, lr=ms.Tensor([0.5]))
                    else:
                        rec.step(loss=loss, lr=ms.Tensor([0.5]))
                assert_reads(own, 1)            # the step's statistics and the values
            rec.close()
        assert_reads(reads, 3 + 3 + (form == 'step_then_log'))     # asnumpy, steps, close
    np.testing.assert_allclose([rec.history.losses[k] for k in range(3)], computed, rtol=1e-6)
    assert rec.history.lrs == {0: 0.5, 1: 0.5, 2: 0.5}
