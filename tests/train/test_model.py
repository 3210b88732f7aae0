"""Model: train / eval / predict / fit on small synthetic problems, modes, and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn

from .nets import Recorder, blobs, classifier, dataset, model, xent


def softmax_xent(logits, y):
    z = logits - logits.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -logp[np.arange(len(y)), y].mean()


@pytest.mark.parametrize('hidden', [None, 16], ids=['linear', 'two-layer'])
def test_train_reaches_high_accuracy_on_held_out_data(hidden):
    ms.set_seed(0)
    x, y = blobs(300)
    net = classifier(hidden)
    m = model(net, lr=0.1, metrics={'accuracy', 'loss'})
    test = dataset(x[240:], y[240:], batch_size=30, shuffle=False)
    before = m.eval(test)
    m.train(6, dataset(x[:240], y[:240]))
    after = m.eval(test)
    assert set(after) == {'accuracy', 'loss'}
    assert after['accuracy'] >= 0.95
    assert after['loss'] < 0.5 * before['loss']
    # eval's loss is the mean of the per-batch losses, computed here with NumPy
    logits = m.predict(ms.Tensor(x[240:])).asnumpy()
    batch_losses = [softmax_xent(logits[i:i + 30], y[240 + i:270 + i]) for i in (0, 30)]
    assert after['loss'] == pytest.approx(np.mean(batch_losses), rel=1e-5)
    assert after['accuracy'] == pytest.approx(np.mean(logits.argmax(1) == y[240:]))


def test_one_step_is_plain_gradient_descent_on_the_loss():
    x, y = blobs(12)
    net = nn.Dense(4, 3)
    w0, b0 = net.weight.asnumpy().copy(), net.bias.asnumpy().copy()
    m = model(net, lr=0.5)
    m.train(1, dataset(x, y, batch_size=12, shuffle=False))
    logits = x @ w0.T + b0
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    p[np.arange(12), y] -= 1
    gw, gb = p.T @ x / 12, p.mean(0)
    np.testing.assert_allclose(net.weight.asnumpy(), w0 - 0.5 * gw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), b0 - 0.5 * gb, rtol=1e-5, atol=1e-6)


def test_network_returning_its_loss_and_train_one_step_cell():
    ms.set_seed(1)
    x, y = blobs(200)
    data = dataset(x, y)
    net = classifier()
    loss_net = nn.WithLossCell(net, xent())
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    first = ms.Model(loss_net, optimizer=opt)
    rec = Recorder()
    losses = []
    cb = ms.LambdaCallback(on_train_step_end=lambda ctx: losses.append(
        float(ctx.original_args().net_outputs.asnumpy())))
    first.train(2, data, callbacks=[rec, cb])
    assert losses[-1] < losses[0]
    step_net = nn.TrainOneStepCell(nn.WithLossCell(net, xent()), opt)
    ms.Model(step_net).train(2, data)
    evaluator = ms.Model(net, xent(), metrics={'acc'})
    assert evaluator.eval(dataset(x, y, shuffle=False))['acc'] > 0.95


def test_network_returning_a_tuple_differentiates_its_first_output():
    class LossAndLogits(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.loss = xent()

        def construct(self, x, y):
            logits = self.net(x)
            return self.loss(logits, y), logits
    ms.set_seed(2)
    x, y = blobs(96)
    net = classifier()
    outputs = []
    m = ms.Model(LossAndLogits(net), optimizer=nn.SGD(net.trainable_params(), 0.1))
    m.train(3, dataset(x, y), callbacks=ms.LambdaCallback(
        on_train_step_end=lambda ctx: outputs.append(ctx.original_args().net_outputs)))
    assert all(isinstance(o, tuple) and len(o) == 2 and o[1].shape[1] == 3 for o in outputs)
    assert float(outputs[-1][0].asnumpy()) < float(outputs[0][0].asnumpy())


def test_train_mode_in_train_and_predict_mode_in_eval_and_predict():
    class Probe(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 3)
            self.modes = []

        def construct(self, x):
            self.modes.append((self.training, self.dense.training, ms.is_grad_enabled()))
            return self.dense(x)
    x, y = blobs(48)
    net = Probe()
    m = model(net, metrics={'accuracy'})
    m.train(1, dataset(x, y, batch_size=24))
    assert net.modes == [(True, True, True)] * 2
    net.modes.clear()
    m.eval(dataset(x, y, batch_size=48))
    out = m.predict(ms.Tensor(x))
    assert net.modes == [(False, False, False)] * 2
    assert out.shape == (48, 3) and not out.requires_grad
    m.train(1, dataset(x, y, batch_size=48))
    assert net.modes[-1] == (True, True, True)


def test_eval_network_with_and_without_eval_indexes():
    x, y = blobs(60)
    net = classifier()

    class EvalNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = net

        def construct(self, x, y):
            logits = self.net(x)
            return logits, y, xent()(logits, y)
    data = dataset(x, y, batch_size=20, shuffle=False)
    with_idx = ms.Model(net, eval_network=EvalNet(), eval_indexes=[2, 0, 1],
                        metrics={'accuracy', 'loss'}).eval(data)
    default = ms.Model(net, xent(), metrics={'accuracy', 'loss'}).eval(data)
    assert with_idx == pytest.approx(default)

    class Pair(nn.Cell):
        def construct(self, x, y):
            return net(x), y
    assert ms.Model(net, eval_network=Pair(), metrics={'accuracy'}).eval(data)['accuracy'] == \
        pytest.approx(default['accuracy'])

    class LossOnly(nn.Cell):
        def construct(self, x, y):
            return xent()(net(x), y)
    assert ms.Model(net, eval_network=LossOnly(), metrics={'loss'}).eval(data)['loss'] == \
        pytest.approx(default['loss'])


def test_dataset_sink_mode_is_accepted_and_properties():
    x, y = blobs(24)
    m = model()
    m.train(1, dataset(x, y), dataset_sink_mode=True, sink_size=1)
    assert m.train_network is m.predict_network is m.eval_network
    assert isinstance(m.train_network, nn.Dense)


def test_fit_evaluates_at_the_chosen_epochs(capsys):
    x, y = blobs(120)
    rec = Recorder()
    m = model(metrics={'accuracy'})
    seen = []
    cb = ms.LambdaCallback(on_train_epoch_end=lambda ctx: seen.append(
        (ctx.original_args().cur_epoch_num, dict(ctx.original_args().get('eval_results') or {}))))
    m.fit(4, dataset(x[:96], y[:96]), dataset(x[96:], y[96:], shuffle=False), valid_frequency=2,
          callbacks=[rec, cb, ms.LossMonitor(0)])
    assert [e for e, _ in seen] == [1, 2, 3, 4]
    assert [sorted(r) for _, r in seen] == [[], ['accuracy', 'eval_loss'], [],
                                            ['accuracy', 'eval_loss']]
    eval_events = [ev for ev in rec.events if ev[0].startswith('eval')]
    assert eval_events == [(ev, epoch, step) for epoch in (2, 4) for ev, step in
                           (('eval_begin', 0), ('eval_step_end', 1), ('eval_end', 1))]
    assert [step for ev, _, step in rec.events if ev == 'epoch_end'] == [4, 8, 12, 16]
    out = capsys.readouterr().out.splitlines()
    assert [line.split(',')[0] for line in out] == ['Eval result: epoch 2', 'Eval result: epoch 4']
    seen.clear()
    m.fit(3, dataset(x[:96], y[:96]), dataset(x[96:], y[96:]), valid_frequency=[1, 3],
          callbacks=cb)
    assert [bool(r) for _, r in seen] == [True, False, True]


def test_initial_epoch_resumes_the_epoch_count():
    x, y = blobs(48)
    rec = Recorder()
    model().train(3, dataset(x, y), callbacks=rec, initial_epoch=1)
    epochs = [e for ev, e, _ in rec.events if ev == 'epoch_begin']
    assert epochs == [2, 3]


@pytest.mark.parametrize('kw,err,match', [
    ({'network': 'net'}, TypeError, "network must be a Cell, got str"),
    ({'loss_fn': 3}, TypeError, "loss_fn must be a Cell or callable, got int"),
    ({'optimizer': lambda g: g}, TypeError, "optimizer must be an optimizer Cell, got function"),
    ({'amp_level': 'O2'}, ValueError, "Auto mixed precision will not work because 'optimizer' "
     "is None"),
    ({'amp_level': 'O9'}, ValueError, "amp_level must be one of"),
    ({'loss_fn': None, 'metrics': {'accuracy'}}, ValueError, "metrics need an eval_network or "
     "a loss_fn"),
    ({'eval_indexes': [0, 1, 2]}, ValueError, "eval_indexes needs an eval_network"),
    ({'eval_network': nn.ReLU(), 'eval_indexes': [0, 1]}, ValueError,
     "eval_indexes must be None or a list of 3 ints"),
    ({'eval_network': len}, TypeError, "eval_network must be a Cell"),
    ({'metrics': ['accuracy']}, TypeError, "metrics must be None, a set of names"),
])
def test_model_constructor_errors(kw, err, match):
    args = {'network': nn.Dense(4, 3), 'loss_fn': xent(), **kw}
    with pytest.raises(err, match=match):
        ms.Model(**args)


def test_amp_levels_without_an_optimizer_are_mindspores_value_error():
    with pytest.raises(ValueError, match="Auto mixed precision will not work because "
                                         "'optimizer' is None"):
        ms.Model(nn.Dense(2, 2), amp_level='auto')


@pytest.mark.parametrize('call,err,match', [
    (lambda m, d: m.train(0, d), ValueError, "Model.train: epoch must be an int >= 1, got 0"),
    (lambda m, d: m.train(2, d, initial_epoch=2), ValueError,
     r"epoch \(2\) must be larger than initial_epoch \(2\)"),
    (lambda m, d: m.train(1, d, initial_epoch=-1), ValueError, "initial_epoch must be an int"),
    (lambda m, d: m.train(1, d, sink_size=0), ValueError, "sink_size must be -1 or an int >= 1"),
    (lambda m, d: m.train(1, d, dataset_sink_mode=None), TypeError,
     "dataset_sink_mode must be a bool"),
    (lambda m, d: m.train(1, d, callbacks=print), TypeError,
     "callbacks must be a Callback or a list of Callbacks, got builtin_function_or_method"),
    (lambda m, d: m.train(1, d, callbacks=[ms.LossMonitor(), 3]), TypeError,
     "every callback must be a Callback, got int"),
    (lambda m, d: m.train(1, d.skip(10)), ValueError, "train_dataset has no rows"),
    (lambda m, d: m.train(1, d.map(lambda x, y: (x, y, y), d.get_col_names(),
                                          output_columns=['a', 'b', 'c'])),
     ValueError, r"Model.train: with a loss_fn each dataset row must be \(data, label\), got 3"),
    (lambda m, d: m.eval(d), ValueError, "Model.eval: the Model has no metrics"),
    (lambda m, d: m.eval(d, dataset_sink_mode=1), TypeError, "dataset_sink_mode must be a bool"),
    (lambda m, d: m.fit(1, d, d), ValueError, "a valid_dataset needs metrics"),
    (lambda m, d: m.fit(1, d, valid_frequency=0), ValueError, "valid_frequency must be an int"),
    (lambda m, d: m.fit(1, d, valid_frequency=[1.0]), ValueError,
     "valid_frequency list must hold epoch numbers"),
    (lambda m, d: m.fit(1, d, valid_dataset_sink_mode='no'), TypeError,
     "valid_dataset_sink_mode must be a bool"),
])
def test_training_argument_errors(call, err, match):
    x, y = blobs(24)
    with pytest.raises(err, match=match):
        call(model(), dataset(x, y, batch_size=12))


def test_loss_without_optimizer_trains_nothing_and_says_so():
    x, y = blobs(24)
    with pytest.raises(ValueError, match="a loss_fn without an optimizer trains nothing"):
        ms.Model(classifier(), xent()).train(1, dataset(x, y))


def test_eval_rows_must_be_data_and_label():
    x, y = blobs(24)
    m = model(metrics={'accuracy'})
    with pytest.raises(ValueError, match=r"Model.eval: with a loss_fn each dataset row must be "
                                         r"\(data, label\), got 1"):
        m.eval(dataset(x, y).project('x'))
