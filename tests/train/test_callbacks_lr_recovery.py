"""The learning-rate callbacks (values as MindSpore 2.10 gives them), BackupAndRestore,
OnRequestExit, the tools hookgrad refuses by name, and the checkpoint conversions."""
import json
import os
import signal

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad import train as T
from hookgrad.train.callback_base import InternalCallbackParam

from .nets import blobs, classifier, dataset, model


def data(n=72, batch_size=24):
    x, y = blobs(n)
    return dataset(x, y, batch_size=batch_size, shuffle=False)


LOSSES = [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 0.4]


def plateau_rates(**kw):
    """The learning rate after each epoch end, with eval_loss = LOSSES and acc = 2 - loss."""
    opt = nn.SGD(nn.Dense(2, 2).trainable_params(), learning_rate=0.5)
    cb = T.ReduceLROnPlateau(**kw)
    params = InternalCallbackParam(optimizer=opt)
    run_context = T.RunContext(params)
    cb.on_train_begin(run_context)
    rates = []
    for epoch, loss in enumerate(LOSSES, 1):
        params.cur_epoch_num = epoch
        params.eval_results = {'eval_loss': loss, 'acc': 2 - loss}
        cb.on_train_epoch_end(run_context)
        rates.append(round(float(opt.learning_rate.asnumpy()), 7))
    return rates


# from MindSpore 2.10's ReduceLROnPlateau driven by the same values
@pytest.mark.parametrize('kw,rates', [
    ({'patience': 2},
     [0.5, 0.5, 0.5, 0.05, 0.05, 0.05, 0.05, 0.005, 0.005, 0.0005, 0.0005, 5e-05, 5e-05]),
    ({'patience': 1, 'factor': 0.5, 'cooldown': 2, 'min_lr': 0.1},
     [0.5, 0.5, 0.25, 0.25, 0.125, 0.125, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]),
    ({'monitor': 'acc', 'patience': 1, 'factor': 0.5, 'min_delta': 0.05},
     [0.5, 0.5, 0.25, 0.125, 0.0625, 0.0625, 0.03125, 0.015625, 0.0078125, 0.0039062,
      0.0019531, 0.0009766, 0.0009766]),
    ({'monitor': 'acc', 'patience': 0, 'factor': 0.5, 'mode': 'min'},
     [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.0039062, 0.0019531, 0.0009766,
      0.0004883, 0.0004883, 0.0002441]),
])
def test_reduce_lr_on_plateau_matches_mindspore(kw, rates):
    assert plateau_rates(**kw) == rates


def test_learning_rate_scheduler_matches_mindspore():
    opt = nn.SGD(nn.Dense(2, 2).trainable_params(), learning_rate=0.5)
    cb = T.LearningRateScheduler(lambda lr, step: lr * 0.9 if step % 2 == 0 else lr)
    params = InternalCallbackParam(optimizer=opt)
    rates = []
    for step in range(1, 7):
        params.cur_step_num = step
        cb.on_train_step_end(T.RunContext(params))
        rates.append(round(float(opt.learning_rate.asnumpy()), 7))
    assert rates == [0.5, 0.45, 0.45, 0.405, 0.405, 0.3645]      # MindSpore 2.10's


def test_learning_rate_scheduler_in_a_training_run():
    net = classifier()
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    seen = []
    sched = T.LearningRateScheduler(lambda lr, step: seen.append((lr, step)) or lr / 2)
    ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean'), opt).train(
        1, data(), callbacks=sched)
    assert [s for _, s in seen] == [1, 2, 3]
    np.testing.assert_allclose([lr for lr, _ in seen], [0.1, 0.05, 0.025], rtol=1e-6)
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.0125)


def test_reduce_lr_needs_one_fixed_rate_and_warns_without_its_value():
    opt = nn.SGD(nn.Dense(2, 2).trainable_params(),
                 learning_rate=ms.Tensor(np.array([0.1, 0.05], np.float32)))
    with pytest.raises(ValueError, match="one fixed learning rate"):
        T.ReduceLROnPlateau().on_train_epoch_end(T.RunContext(
            InternalCallbackParam(optimizer=opt, cur_epoch_num=1)))
    fixed = nn.SGD(nn.Dense(2, 2).trainable_params(), learning_rate=0.1)
    with pytest.warns(UserWarning, match="'eval_loss' is not available this epoch"):
        T.ReduceLROnPlateau().on_train_epoch_end(T.RunContext(
            InternalCallbackParam(optimizer=fixed, cur_epoch_num=1)))


@pytest.mark.parametrize('make,err,match', [
    (lambda: T.LearningRateScheduler(0.1), TypeError, "learning_rate_function must be callable"),
    (lambda: T.ReduceLROnPlateau(factor=1.0), ValueError, r"factor must be a float in \(0, 1\)"),
    (lambda: T.ReduceLROnPlateau(monitor=1), TypeError, "monitor must be a str"),
    (lambda: T.ReduceLROnPlateau(patience=-1), ValueError, "patience must be an int >= 0"),
    (lambda: T.ReduceLROnPlateau(mode='up'), ValueError, "mode must be 'auto', 'min' or 'max'"),
    (lambda: T.ReduceLROnPlateau(min_lr='0'), TypeError, "min_lr must be a float or int"),
    (lambda: T.ReduceLROnPlateau(verbose=1), TypeError, "verbose must be a bool"),
    (lambda: T.BackupAndRestore(3), TypeError, "backup_dir must be a str"),
    (lambda: T.BackupAndRestore('b', save_freq=0), ValueError,
     "save_freq must be 'epoch' or an int >= 1"),
    (lambda: T.BackupAndRestore('b', delete_checkpoint=1), TypeError,
     "delete_checkpoint must be a bool"),
    (lambda: T.OnRequestExit(), ValueError, "save_mindir=True is not available: hookgrad "
     "cannot export MindIR"),
    (lambda: T.OnRequestExit(save_ckpt=1, save_mindir=False), TypeError,
     "save_ckpt must be a bool"),
    (lambda: T.OnRequestExit(save_mindir=False, sig=signal.SIGKILL), ValueError,
     "SIGKILL cannot be handled"),
    (lambda: T.OnRequestExit(save_mindir=False, sig='TERM'), TypeError, "sig must be an int"),
    (lambda: T.SummaryLandscape('logs'), NotImplementedError, "SummaryLandscape is not "
     "available in hookgrad: it computes MindInsight's loss landscapes"),
    (lambda: T.FlopsUtilizationCollector(10), NotImplementedError, "graph compiler counts on "
     "Ascend"),
    (lambda: T.TrainFaultTolerance(), NotImplementedError, "distributed fault recovery"),
])
def test_callback_errors(make, err, match, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(err, match=match):
        make()


def test_the_callback_module_has_mindsporess_names():
    from hookgrad.train import callback
    for name in ['CheckpointConfig', 'ModelCheckpoint', 'LearningRateScheduler',
                 'ReduceLROnPlateau', 'OnRequestExit', 'BackupAndRestore', 'SummaryCollector',
                 'SummaryLandscape', 'FlopsUtilizationCollector', 'TrainFaultTolerance']:
        assert getattr(callback, name) is getattr(T, name)


class Kill(ms.Callback):
    """Stops the run as an interrupted process would: a failure at one step."""

    def __init__(self, step):
        self.step = step

    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num == self.step:
            raise KeyboardInterrupt


def test_backup_and_restore_resumes_from_the_last_backup(tmp_path):
    net = classifier()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    backup = T.BackupAndRestore(str(tmp_path / 'bk'))
    with pytest.raises(KeyboardInterrupt):
        ms.Model(net, loss, opt).train(3, data(), callbacks=[backup, Kill(5)])
    saved = ms.load_checkpoint(str(tmp_path / 'bk' / 'backup.ckpt'))
    assert 'moments.weight' in saved and 'global_step' in saved    # the optimizer's state too
    weight_after_epoch_1 = saved['weight'].asnumpy()
    fresh = classifier()
    fresh_opt = nn.Momentum(fresh.trainable_params(), learning_rate=0.1, momentum=0.9)
    seen = []
    probe = ms.LambdaCallback(
        on_train_begin=lambda rc: seen.append(fresh.weight.asnumpy().copy()))
    ms.Model(fresh, loss, fresh_opt).train(3, data(), callbacks=[backup, probe],
                                           initial_epoch=1)
    np.testing.assert_array_equal(seen[0], weight_after_epoch_1)
    assert not os.path.exists(tmp_path / 'bk' / 'backup.ckpt')    # deleted at the end


class Signal(ms.Callback):
    def __init__(self, step):
        self.step = step

    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num == self.step:
            os.kill(os.getpid(), signal.SIGUSR1)


def test_on_request_exit_stops_on_the_signal_and_saves(tmp_path):
    before = signal.getsignal(signal.SIGUSR1)
    net = classifier()
    cb = T.OnRequestExit(save_mindir=False, directory=str(tmp_path), sig=signal.SIGUSR1)
    steps = ms.History()
    model(net).train(3, data(), callbacks=[Signal(2), cb, steps])
    path = tmp_path / 'rank_0' / 'Net_train.ckpt'
    assert path.exists() and cb.exit
    np.testing.assert_array_equal(ms.load_checkpoint(str(path))['weight'].asnumpy(),
                                  net.weight.asnumpy())
    assert signal.getsignal(signal.SIGUSR1) == before              # the handler is put back
    # a new run loads the saved checkpoint first
    other = classifier()
    cb2 = T.OnRequestExit(save_mindir=False, directory=str(tmp_path), sig=signal.SIGUSR1)
    seen = []
    probe = ms.LambdaCallback(on_train_step_begin=lambda rc: seen.append(
        other.weight.asnumpy().copy()))
    model(other, lr=0.0).train(1, data(), callbacks=[cb2, probe])
    np.testing.assert_array_equal(seen[0], net.weight.asnumpy())


def test_on_request_exit_reads_the_request_file(tmp_path):
    request = tmp_path / 'exit.json'
    request.write_text(json.dumps({'GracefulExit': 1}))
    rec = []
    cb = T.OnRequestExit(save_ckpt=False, save_mindir=False, config_file=str(request))
    step_probe = ms.LambdaCallback(on_train_step_end=lambda rc: rec.append(
        rc.original_args().cur_step_num))
    model().train(2, data(), callbacks=[step_probe, cb])
    assert rec == [1]


def test_ckpt_and_safetensors_round_trip(tmp_path):
    safetensors = pytest.importorskip('safetensors.numpy')
    net = classifier()
    ms.save_checkpoint(net, str(tmp_path / 'net.ckpt'), append_dict={'note': 'hi'})
    T.ckpt_to_safetensors(str(tmp_path / 'net.ckpt'), name_map={'weight': 'fc.weight'})
    plain = safetensors.load_file(str(tmp_path / 'net.safetensors'))
    assert sorted(plain) == ['bias', 'fc.weight']
    np.testing.assert_array_equal(plain['fc.weight'], net.weight.asnumpy())
    T.safetensors_to_ckpt(str(tmp_path / 'net.safetensors'), save_path=str(tmp_path / 'out'))
    back = ms.load_checkpoint(str(tmp_path / 'out' / 'net.ckpt'))
    np.testing.assert_array_equal(back['fc.weight'].asnumpy(), net.weight.asnumpy())
    assert back['note'] == 'hi'
    # a folder of rank* subfolders, filtered by name
    for rank in ('rank_0', 'rank_1'):
        os.makedirs(tmp_path / 'ranks' / rank)
        ms.save_checkpoint(net, str(tmp_path / 'ranks' / rank / 'a.ckpt'))
        ms.save_checkpoint(net, str(tmp_path / 'ranks' / rank / 'b.ckpt'))
    T.ckpt_to_safetensors(str(tmp_path / 'ranks'), str(tmp_path / 'st'), file_name_regex='^a')
    assert sorted(os.listdir(tmp_path / 'st' / 'rank_1')) == ['a.safetensors']
    future = T.load_checkpoint_async(str(tmp_path / 'ranks' / 'rank_0' / 'b.ckpt'))
    assert sorted(future.result()) == ['bias', 'weight']
    assert T.async_ckpt_thread_status() is False


@pytest.mark.parametrize('call,match', [
    (lambda p: T.ckpt_to_safetensors(str(p / 'missing.ckpt')), "must be a file or a folder"),
    (lambda p: T.ckpt_to_safetensors(str(p / 'x.safetensors')), "must be a .ckpt file"),
    (lambda p: T.safetensors_to_ckpt(str(p / 'x.safetensors'), save_path=str(p / 'o.ckpt')),
     "save_path must be a directory"),
    (lambda p: T.safetensors_to_ckpt(str(p / 'x.safetensors'), name_map=[1]),
     "name_map must be a dict"),
    (lambda p: T.safetensors_to_ckpt(str(p / 'x.safetensors'), file_name_regex='^y'),
     "does not match file_name_regex"),
    (lambda p: T.safetensors_to_ckpt(str(p)), "no folder starting with 'rank'"),
    (lambda p: T.safetensors_to_ckpt(str(p / 'x.safetensors'), processes_num=0),
     "processes_num must be an int >= 1"),
])
def test_conversion_errors(call, match, tmp_path):
    (tmp_path / 'x.safetensors').write_bytes(b'')
    with pytest.raises(ValueError, match=match):
        call(tmp_path)
