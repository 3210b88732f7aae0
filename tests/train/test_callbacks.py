"""Callbacks: event order and numbering, request_stop, the built-in monitors, checkpoints,
early stopping and the progress bar."""
import io
import os
import re
import sys
import types

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.train import progress
from hookgrad.train.callback_base import CallbackList, InternalCallbackParam

from .nets import Recorder, blobs, classifier, dataset, model


def data(n=72, batch_size=24):
    x, y = blobs(n)
    return dataset(x, y, batch_size=batch_size)


def train_events(epochs, steps):
    ev = [('train_begin', 0, 0)]
    for e in range(1, epochs + 1):
        ev.append(('epoch_begin', e, (e - 1) * steps))
        for s in range((e - 1) * steps + 1, e * steps + 1):
            ev += [('step_begin', e, s), ('step_end', e, s)]
        ev.append(('epoch_end', e, e * steps))
    return ev + [('train_end', epochs, epochs * steps)]


def test_callbacks_see_every_event_with_its_epoch_and_step():
    rec = Recorder()
    model().train(2, data(), callbacks=rec)
    assert rec.events == train_events(2, 3)


def test_cb_params_describe_the_run():
    seen = {}
    net = classifier()
    m = model(net)

    def grab(ctx):
        cb = ctx.original_args()
        seen.update(cb)
        seen['loss'] = cb.net_outputs
    m.train(2, data(), callbacks=ms.LambdaCallback(on_train_step_end=grab))
    assert seen['epoch_num'] == 2 and seen['batch_num'] == 3 and seen['mode'] == 'train'
    assert seen['train_network'] is net and seen['network'] is net
    assert seen['optimizer'] is m._optimizer and isinstance(seen['loss_fn'], nn.Cell)
    assert isinstance(seen['loss'], ms.Tensor) and seen['loss'].shape == ()
    assert len(seen['train_dataset_element']) == 2


def test_request_stop_ends_training_after_the_step_and_its_epoch_end():
    class StopAt(Recorder):
        def on_train_step_end(self, run_context):
            super().on_train_step_end(run_context)
            if run_context.original_args().cur_step_num == 4:
                run_context.request_stop()
    rec = StopAt()
    model().train(5, data(), callbacks=rec)
    assert rec.events == train_events(2, 3)[:-6] + [('epoch_end', 2, 4), ('train_end', 2, 4)]


def test_request_stop_in_eval_ends_the_pass():
    stop = ms.LambdaCallback(on_eval_step_end=lambda ctx: ctx.request_stop())
    rec = Recorder()
    result = model(metrics={'loss'}).eval(data(), callbacks=[rec, stop])
    assert [ev for ev, _, _ in rec.events] == ['eval_begin', 'eval_step_end', 'eval_end']
    assert set(result) == {'loss'}


def test_short_aliases_are_called_in_train_and_eval():
    class Old(ms.Callback):
        def __init__(self):
            self.calls = []

        def begin(self, ctx):
            self.calls.append('begin ' + ctx.original_args().mode)

        def epoch_begin(self, ctx):
            self.calls.append('epoch_begin')

        def step_begin(self, ctx):
            self.calls.append('step_begin')

        def step_end(self, ctx):
            self.calls.append('step_end')

        def epoch_end(self, ctx):
            self.calls.append('epoch_end')

        def end(self, ctx):
            self.calls.append('end')
    old = Old()
    m = model(metrics={'accuracy'})
    m.train(1, data(48), callbacks=old)
    m.eval(data(24), callbacks=old)
    one_pass = ['epoch_begin', 'step_begin', 'step_end', 'step_begin', 'step_end', 'epoch_end',
                'end']
    assert old.calls == ['begin train'] + one_pass + ['begin eval'] + one_pass[:1] + \
        one_pass[1:3] + one_pass[-2:]


def test_callbacks_are_entered_and_exited_around_the_run():
    log = []

    class Managed(ms.Callback):
        def __enter__(self):
            log.append('enter')
            return self

        def __exit__(self, *exc):
            log.append('exit')

        def on_train_begin(self, ctx):
            log.append('begin')
    model().train(1, data(), callbacks=[Managed()])
    assert log == ['enter', 'begin', 'exit']


def test_callback_list_exits_what_it_entered_when_an_enter_fails():
    log = []

    class Good(ms.Callback):
        def __exit__(self, *exc):
            log.append('good exit')

    class Bad(ms.Callback):
        def __enter__(self):
            raise OSError('no log file')
    with pytest.raises(OSError, match='no log file'):
        with CallbackList([Good(), Bad()]):
            pass
    assert log == ['good exit']


def test_loss_value_reads_tensors_tuples_and_numbers():
    from hookgrad.train.callback_base import loss_value
    assert loss_value(ms.Tensor([1.0, 3.0])) == 2.0
    assert loss_value((ms.Tensor(0.5), ms.Tensor([9.0]))) == 0.5
    assert loss_value(np.float32(1.5)) == 1.5 and loss_value(2) == 2.0
    assert loss_value('loss') is None and loss_value(()) is None and loss_value(None) is None


def test_run_context_and_cb_params():
    ctx = ms.RunContext({'a': 1})
    cb = ctx.original_args()
    assert cb.a == 1 and cb['a'] == 1 and not ctx.get_stop_requested()
    cb.b = 2
    assert cb['b'] == 2
    ctx.request_stop()
    assert ctx.get_stop_requested()
    with pytest.raises(AttributeError, match=r"cb_params has no 'c'; it holds \['a', 'b'\]"):
        cb.c
    with pytest.raises(TypeError, match="original_args must be a dict, got list"):
        ms.RunContext([])
    assert isinstance(ms.RunContext(InternalCallbackParam()).original_args(),
                      InternalCallbackParam)


# ----------------------------------------------------------------- monitors
def test_loss_monitor_prints_epoch_step_and_loss(capsys):
    model().train(2, data(), callbacks=ms.LossMonitor())
    lines = capsys.readouterr().out.splitlines()
    pattern = re.compile(r"epoch: (\d+) step: (\d+), loss is (\d+\.\d+(e-?\d+)?)$")
    got = [pattern.match(line).groups()[:2] for line in lines]
    assert got == [(str(e), str(s)) for e in (1, 2) for s in (1, 2, 3)]
    model().train(2, data(), callbacks=ms.LossMonitor(per_print_times=2))
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(',')[0] for line in lines] == ['epoch: 1 step: 2', 'epoch: 2 step: 1',
                                                      'epoch: 2 step: 3']
    model().train(1, data(), callbacks=ms.LossMonitor(0))
    assert capsys.readouterr().out == ''


def test_loss_monitor_stops_on_a_nan_loss():
    class NanLoss(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([1.0]))

        def construct(self, x, y):
            return (self.w * float('nan')).sum()
    net = NanLoss()
    m = ms.Model(net, optimizer=nn.SGD(net.trainable_params(), 0.1))
    with pytest.raises(ValueError, match="LossMonitor: in epoch 1 step 1 the loss is nan"):
        m.train(1, data(), callbacks=ms.LossMonitor())


def test_time_monitor_prints_epoch_and_step_times(capsys):
    m = model(metrics={'accuracy'})
    m.train(2, data(), callbacks=ms.TimeMonitor(data_time=True))
    m.eval(data(), callbacks=ms.TimeMonitor())
    lines = capsys.readouterr().out.splitlines()
    number = r"\s*\d+\.\d{3}"
    train = re.compile(rf"Train epoch time:{number} ms, per step time:{number} ms "
                       rf"\(data time:{number} ms\)$")
    assert len(lines) == 3 and all(train.match(line) for line in lines[:2])
    assert re.match(rf"Eval epoch time:{number} ms, per step time:{number} ms$", lines[2])
    monitor = ms.TimeMonitor(data_size=4)
    monitor.epoch_begin(ms.RunContext({}))
    monitor.epoch_end(ms.RunContext({}))
    assert 'per step time' in capsys.readouterr().out
    bare = ms.TimeMonitor()
    with pytest.raises(ValueError, match="cb_params has no batch_num; give data_size"):
        bare.epoch_end(ms.RunContext({}))


def test_history_records_losses_and_metrics_per_epoch():
    x, y = blobs(96)
    history = ms.History()
    model(metrics={'accuracy'}).fit(3, dataset(x, y), dataset(x, y), callbacks=history)
    assert history.epoch == [1, 2, 3]
    assert len(history.history['net_output']) == 3
    assert all(0 <= a <= 1 for a in history.history['accuracy'])


def test_lambda_callback_replaces_only_the_given_methods():
    calls = []
    cb = ms.LambdaCallback(on_train_begin=lambda ctx: calls.append('tb'),
                           on_eval_end=lambda ctx: calls.append('ee'))
    model(metrics={'accuracy'}).fit(1, data(), data(), callbacks=cb)
    assert calls == ['tb', 'ee']
    with pytest.raises(TypeError, match="on_train_end must be callable or None, got int"):
        ms.LambdaCallback(on_train_end=3)


@pytest.mark.parametrize('make,err,match', [
    (lambda: ms.LossMonitor(-1), ValueError, "per_print_times must be an int >= 0, got -1"),
    (lambda: ms.LossMonitor(1.5), ValueError, "per_print_times must be an int >= 0"),
    (lambda: ms.TimeMonitor(data_size=0), ValueError, "data_size must be None or an int >= 1"),
    (lambda: ms.TimeMonitor(data_time=1), TypeError, "data_time must be a bool"),
    (lambda: ms.EarlyStopping(monitor=1), TypeError, "monitor must be a str"),
    (lambda: ms.EarlyStopping(min_delta='0'), TypeError, "min_delta must be a number"),
    (lambda: ms.EarlyStopping(patience=-1), ValueError, "patience must be an int >= 0"),
    (lambda: ms.EarlyStopping(mode='up'), ValueError, "mode must be 'auto', 'min' or 'max'"),
    (lambda: ms.EarlyStopping(verbose=1), TypeError, "verbose must be a bool"),
    (lambda: ms.ModelCheckpoint(prefix='a/b'), ValueError, "prefix must be a non-empty str "
     "without '/'"),
    (lambda: ms.ModelCheckpoint(directory=3), TypeError, "directory must be a str or None"),
    (lambda: ms.ModelCheckpoint(config={}), TypeError, "config must be a CheckpointConfig"),
    (lambda: ms.CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0), ValueError,
     "are all 0"),
    (lambda: ms.CheckpointConfig(keep_checkpoint_max=-1), ValueError,
     "keep_checkpoint_max must be an int >= 0"),
    (lambda: ms.CheckpointConfig(saved_network='net'), TypeError, "saved_network must be a Cell"),
    (lambda: ms.train.ProgressBar(leave=1), TypeError, "leave must be a bool"),
    (lambda: ms.train.ProgressBar(loss_digits=-1), TypeError, "loss_digits must be an int"),
])
def test_callback_argument_errors(make, err, match):
    with pytest.raises(err, match=match):
        make()


# ----------------------------------------------------------------- early stopping
def frozen_model():
    """A model whose loss never changes (learning rate 0) on unshuffled data."""
    return model(lr=0.0, metrics={'accuracy'})


def test_early_stopping_on_the_training_loss_waits_patience_epochs(capsys):
    rec = Recorder()
    stop = ms.EarlyStopping(monitor='loss', patience=2, verbose=True)
    x, y = blobs(72)
    frozen_model().train(10, dataset(x, y, shuffle=False), callbacks=[rec, stop])
    assert [e for ev, e, _ in rec.events if ev == 'epoch_end'] == [1, 2, 3]
    assert stop.stopped_epoch == 3
    assert capsys.readouterr().out == "Epoch 00003: early stopping\n"


def test_early_stopping_on_eval_results_and_restoring_the_best_weights(capsys):
    net = classifier()
    m = model(net, lr=0.5, metrics={'accuracy'})
    snapshots = []
    keep = ms.LambdaCallback(on_train_epoch_end=lambda ctx: snapshots.append(
        (ctx.original_args().eval_results['eval_loss'], net.weight.asnumpy().copy())))
    stop = ms.EarlyStopping(monitor='eval_loss', patience=1, restore_best_weights=True,
                            min_delta=1e9, verbose=True)   # no change counts as an improvement
    m.fit(6, data(), data(), callbacks=[keep, stop])
    assert capsys.readouterr().out.splitlines() == [
        'Restoring model weights from the end of the best epoch.', 'Epoch 00002: early stopping']
    assert stop.stopped_epoch == 2 and len(snapshots) == 2
    np.testing.assert_array_equal(net.weight.asnumpy(), snapshots[0][1])
    assert not np.array_equal(snapshots[0][1], snapshots[1][1])


def test_early_stopping_modes_and_baseline():
    def run(values, **kw):
        stop = ms.EarlyStopping(monitor='acc', **kw)
        stop.on_train_begin(None)
        for epoch, v in enumerate(values, 1):
            ctx = ms.RunContext({'cur_epoch_num': epoch, 'eval_results': {'acc': v}})
            stop.on_train_epoch_end(ctx)
            if ctx.get_stop_requested():
                return epoch
        return None
    assert run([0.5, 0.6, 0.7, 0.7, 0.7], patience=2) == 5          # 'auto' maximises acc
    assert run([0.5, 0.6, 0.7], patience=0) == 1
    assert run([0.5, 0.4, 0.3, 0.2], mode='min', patience=1) is None
    assert run([0.5, 0.6, 0.7, 0.8], patience=2, baseline=0.75) == 2   # never beat the baseline
    assert run([0.8, 0.5, 0.5, 0.5], patience=2, baseline=0.75) == 3
    assert run([0.5, 0.6, 0.7], patience=1, min_delta=0.2) == 2


def test_early_stopping_warns_when_the_value_is_missing_and_rejects_arrays():
    stop = ms.EarlyStopping(monitor='recall')
    with pytest.warns(UserWarning, match=r"'recall' is not available this epoch; available: "
                                         r"\['loss', 'acc'\]"):
        stop.on_train_epoch_end(ms.RunContext({'eval_results': {'acc': 1.0}}))
    with pytest.raises(ValueError, match=r"monitor 'recall' must be a scalar, got shape \(2,\)"):
        stop.on_train_epoch_end(ms.RunContext({'eval_results': {'recall': np.ones(2)}}))


# ----------------------------------------------------------------- checkpoints
@pytest.fixture
def fake_save(monkeypatch):
    """Record ``ms.save_checkpoint`` calls and write a small file for each."""
    calls = []

    def save(network, path, append_dict=None, crc_check=False, format='ckpt',
             remove_redundancy=False):
        calls.append((network, path))
        with open(path, 'w') as f:
            f.write('ckpt')
    monkeypatch.setattr(ms, 'save_checkpoint', save, raising=False)
    return calls


def test_model_checkpoint_names_files_and_keeps_the_newest(fake_save, tmp_path):
    net = classifier()
    cb = ms.ModelCheckpoint(prefix='net', directory=tmp_path,
                            config=ms.CheckpointConfig(save_checkpoint_steps=2,
                                                       keep_checkpoint_max=2))
    assert cb.latest_ckpt_file_name == ''
    model(net).train(3, data(), callbacks=cb)      # 9 steps of 3 per epoch
    names = [p.split('/')[-1] for _, p in fake_save]
    assert names == ['net-1_2.ckpt', 'net-2_1.ckpt', 'net-2_3.ckpt', 'net-3_2.ckpt',
                     'net-3_3.ckpt']
    assert all(n is net for n, _ in fake_save)
    assert sorted(p.name for p in tmp_path.iterdir()) == ['net-3_2.ckpt', 'net-3_3.ckpt']
    assert cb.latest_ckpt_file_name == str(tmp_path / 'net-3_3.ckpt')
    fake_save.clear()
    model(net).train(1, data(), callbacks=cb)      # the same callback again: counts restart
    assert [p.split('/')[-1] for _, p in fake_save] == ['net-1_2.ckpt', 'net-1_3.ckpt']
    assert sorted(p.name for p in tmp_path.iterdir()) == ['net-1_2.ckpt', 'net-1_3.ckpt']
    model(net).train(1, data(), callbacks=cb)      # the same paths once more
    assert sorted(p.name for p in tmp_path.iterdir()) == ['net-1_2.ckpt', 'net-1_3.ckpt']
    (tmp_path / 'notes.txt').write_text('not a checkpoint')
    (tmp_path / 'network-1_1.ckpt').write_text('another prefix')
    again = ms.ModelCheckpoint(prefix='net', directory=tmp_path)
    model(net).train(1, data(), callbacks=again)
    assert again.latest_ckpt_file_name == str(tmp_path / 'net_1-1_3.ckpt')
    third = ms.ModelCheckpoint(prefix='net', directory=str(tmp_path))
    model(net).train(1, data(), callbacks=third)
    assert third.latest_ckpt_file_name == str(tmp_path / 'net_2-1_3.ckpt')


def test_model_checkpoint_by_seconds_and_a_chosen_network(fake_save, tmp_path, monkeypatch):
    other = nn.Dense(1, 1)
    clock = iter(range(0, 1000, 5))
    monkeypatch.setattr('hookgrad.train.model_checkpoint.time.monotonic', lambda: next(clock))
    cb = ms.ModelCheckpoint(directory=tmp_path / 'sub', config=ms.CheckpointConfig(
        save_checkpoint_steps=0, save_checkpoint_seconds=12, saved_network=other,
        keep_checkpoint_max=0))
    model().train(2, data(), callbacks=cb)
    # the clock moves 5 s per reading: a save once more than 12 s have passed; the end adds
    # none, its step being saved already
    assert [p.split('/')[-1] for _, p in fake_save] == ['CKP-1_3.ckpt', 'CKP-2_3.ckpt']
    assert all(n is other for n, _ in fake_save)


def test_model_checkpoint_writes_loadable_checkpoints(tmp_path):
    net = classifier()
    cb = ms.ModelCheckpoint(prefix='real', directory=tmp_path,
                            config=ms.CheckpointConfig(save_checkpoint_steps=3))
    model(net).train(2, data(), callbacks=cb)
    loaded = ms.load_checkpoint(cb.latest_ckpt_file_name)
    assert sorted(loaded) == ['bias', 'weight']
    np.testing.assert_array_equal(loaded['weight'].asnumpy(), net.weight.asnumpy())
    assert sorted(p.name for p in tmp_path.iterdir()) == ['real-1_3.ckpt', 'real-2_3.ckpt']


# ----------------------------------------------------------------- progress bar
class FakeBar:
    log = []

    def __init__(self, total, desc, leave, file, unit):
        self.log.append(('open', total, desc))

    def set_postfix_str(self, text, refresh):
        self.log.append(('postfix', text))

    def update(self, n):
        self.log.append(('update', n))

    def close(self):
        self.log.append(('close',))


def test_progress_bar_drives_tqdm(monkeypatch):
    FakeBar.log = []
    monkeypatch.setitem(sys.modules, 'tqdm', types.SimpleNamespace(tqdm=FakeBar))
    model().train(3, data(48), callbacks=ms.train.ProgressBar(loss_digits=2), initial_epoch=1)
    opens = [e for e in FakeBar.log if e[0] == 'open']
    assert opens == [('open', 2, 'epoch 2/3'), ('open', 2, 'epoch 3/3')]
    assert [e[0] for e in FakeBar.log] == ['open', 'postfix', 'update', 'postfix', 'update',
                                           'close'] * 2
    assert all(re.fullmatch(r"loss=\d+\.\d\d", e[1]) for e in FakeBar.log if e[0] == 'postfix')


def test_progress_bar_with_real_tqdm_and_when_stopped_mid_epoch():
    pytest.importorskip('tqdm')
    out = io.StringIO()
    stop = ms.LambdaCallback(on_train_step_end=lambda ctx: ctx.request_stop())
    bar = ms.train.ProgressBar(file=out)
    model().train(2, data(), callbacks=[bar, stop])
    assert 'epoch 1/2' in out.getvalue() and 'loss=' in out.getvalue()
    assert bar._bar is None


def test_progress_bar_without_tqdm_shows_nothing(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, 'tqdm', None)      # import tqdm now fails
    assert progress._tqdm() is None
    model().train(1, data(), callbacks=ms.train.ProgressBar())
    assert capsys.readouterr() == ('', '')


def test_model_adds_a_progress_bar_when_stdout_is_a_terminal(monkeypatch):
    add = ms.Model._with_default_callbacks
    assert add(None) is None                        # pytest's stdout is not a terminal
    monkeypatch.setattr(sys, 'stdout', types.SimpleNamespace(isatty=lambda: True))
    lm = ms.LossMonitor()
    assert [type(c).__name__ for c in add(None)] == ['ProgressBar']
    assert [type(c).__name__ for c in add(lm)] == ['LossMonitor', 'ProgressBar']
    mine = [ms.train.ProgressBar(leave=False)]
    assert add(mine) is mine
    assert add(3) == 3                              # rejected later, with its own message


def test_model_checkpoint_writes_mindspores_safetensors_files_when_asked(tmp_path):
    net = nn.Dense(2, 1)
    data = ms.dataset.NumpySlicesDataset(
        {'x': np.ones((4, 2), np.float32), 'y': np.zeros((4, 1), np.float32)},
        shuffle=False).batch(2)
    config = ms.train.CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1,
                                       format='safetensors', crc_check=True)
    ckpt = ms.train.ModelCheckpoint('net', str(tmp_path), config)
    ms.train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params())).train(
        1, data, callbacks=[ckpt])
    assert sorted(os.listdir(tmp_path)) == ['net-1_2.safetensors']
    loaded = ms.load_checkpoint(str(tmp_path / 'net-1_2.safetensors'))
    np.testing.assert_array_equal(loaded['weight'].asnumpy(), net.weight.asnumpy())
