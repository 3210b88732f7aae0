"""MindSpore 2.10's Model and CheckpointConfig signatures, their kwargs and checks, and what
hookgrad refuses (boost mode, parallel layouts) with the reason."""
import inspect
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn

from .nets import blobs, classifier, dataset, model, xent


def data(n=72, batch_size=24):
    x, y = blobs(n)
    return dataset(x, y, batch_size=batch_size, shuffle=False)


def sgd(net):
    return nn.SGD(net.trainable_params(), learning_rate=0.1)


# MindSpore 2.10's signatures (inspect.signature of mindspore.train.Model and CheckpointConfig)
SIGNATURES = {
    '__init__': "(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, "
                "eval_indexes=None, amp_level='O0', boost_level='O0', **kwargs)",
    'train': "(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, "
             "sink_size=-1, initial_epoch=0)",
    'fit': "(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None, "
           "dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1, "
           "initial_epoch=0)",
    'eval': "(self, valid_dataset, callbacks=None, dataset_sink_mode=False)",
    'predict': "(self, *predict_data, backend=None, config=None)",
    'build': "(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1, "
             "sink_mode=True)",
    'infer_train_layout': "(self, train_dataset, dataset_sink_mode=True, sink_size=-1)",
    'infer_predict_layout': "(self, *predict_data, skip_backend_compile=False)",
}


@pytest.mark.parametrize('method', sorted(SIGNATURES))
def test_model_signatures_are_mindspores(method):
    assert str(inspect.signature(getattr(ms.Model, method))) == SIGNATURES[method]


def test_checkpoint_config_signature_is_mindspores():
    assert str(inspect.signature(ms.CheckpointConfig)) == (
        "(save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5, "
        "keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, "
        "saved_network=None, append_info=None, enc_key=None, enc_mode='AES-GCM', "
        "exception_save=False, crc_check=False, remove_redundancy=False, format='ckpt', "
        "**kwargs)")


def test_kwargs_that_change_nothing_at_o0_are_accepted_and_training_is_the_same():
    x, y = blobs(48)
    plain, flagged = classifier(), classifier()
    flagged.weight.set_data(plain.weight.copy())
    flagged.bias.set_data(plain.bias.copy())
    ms.Model(plain, xent(), sgd(plain)).train(1, dataset(x, y, shuffle=False))
    ms.Model(flagged, xent(), sgd(flagged), keep_batchnorm_fp32=False, loss_scale_manager=None,
             boost_config_dict={}, acc_level='O0', boost_level='O0').train(
        1, dataset(x, y, shuffle=False))
    np.testing.assert_array_equal(plain.weight.asnumpy(), flagged.weight.asnumpy())


@pytest.mark.parametrize('kw,err,match', [
    ({'foo': 1}, ValueError, "the kwargs must be among"),
    ({'keep_batchnorm_fp32': 1}, TypeError, "keep_batchnorm_fp32 must be a bool"),
    ({'boost_config_dict': 3}, TypeError, "boost_config_dict must be a dict"),
    ({'boost_level': 'O3'}, ValueError, r"boost_level must be one of \('O0', 'O1', 'O2'\)"),
    ({'boost_level': 'O1'}, NotImplementedError, "boost_level 'O1' is not available in "
     "hookgrad: MindSpore's boost mode"),
    ({'acc_level': 'O2'}, NotImplementedError, "boost_level 'O2' is not available"),
    ({'loss_scale_manager': object()}, TypeError, "must be a LossScaleManager"),
])
def test_model_kwargs_errors(kw, err, match):
    net = classifier()
    with pytest.raises(err, match=match):
        ms.Model(net, xent(), sgd(net), **kw)


def test_loss_scale_manager_without_optimizer_is_mindsporess_value_error():
    with pytest.raises(ValueError, match="a loss_scale_manager needs an optimizer"):
        ms.Model(classifier(), xent(), loss_scale_manager=object())


def test_predict_backend_and_config():
    m = ms.Model(nn.Dense(3, 2))
    x = ms.ops.ones((4, 3))
    with pytest.warns(RuntimeWarning, match="MindSpore Lite is not available in hookgrad"):
        lite = m.predict(x, backend='lite', config={'config_path': ''})
    np.testing.assert_array_equal(lite.asnumpy(), m.predict(x).asnumpy())
    with pytest.raises(ValueError, match="backend must be 'lite' or None, got 'ge'"):
        m.predict(x, backend='ge')
    with pytest.raises(TypeError, match="config must be a dict or None"):
        m.predict(x, config='a.ini')


def test_parallel_layouts_are_refused_with_the_reason():
    m = ms.Model(nn.Dense(3, 2))
    with pytest.raises(RuntimeError, match="infer_predict_layout: parameter layouts exist only "
                                           "in MindSpore's semi-auto and auto parallel modes"):
        m.infer_predict_layout(ms.ops.ones((1, 3)))
    with pytest.raises(RuntimeError, match="infer_train_layout: parameter layouts"):
        m.infer_train_layout(data())


def test_build_records_the_epoch_that_train_must_use():
    m = model()
    ds = data()
    assert m.build(ds, epoch=2) is None
    with pytest.raises(ValueError, match=r"epoch \(3\) must equal the epoch given to "
                                         r"Model.build \(2\)"):
        m.train(3, ds)
    m.train(2, ds)
    with pytest.raises(ValueError, match="sink_size must be -1 or an int >= 1"):
        m.build(sink_size=0)
    with pytest.raises(ValueError, match="epoch must be an int >= 1"):
        m.build(epoch=0)


# MindSpore 2.10's get_checkpoint_policy() and append_dict for these arguments
POLICIES = [
    ({'save_checkpoint_steps': 0}, (0, 0, 5, None)),
    ({'keep_checkpoint_max': 0}, (1, None, 1, 0)),
    ({'keep_checkpoint_max': 0, 'keep_checkpoint_per_n_minutes': 2}, (1, None, 0, 2)),
    ({'keep_checkpoint_max': 3, 'keep_checkpoint_per_n_minutes': 2}, (1, None, 3, None)),
    ({'save_checkpoint_steps': 2, 'save_checkpoint_seconds': 5}, (2, None, 5, None)),
]


@pytest.mark.parametrize('kw,policy', POLICIES)
def test_checkpoint_policy_is_mindspores(kw, policy):
    got = ms.CheckpointConfig(**kw).get_checkpoint_policy()
    keys = ('save_checkpoint_steps', 'save_checkpoint_seconds', 'keep_checkpoint_max',
            'keep_checkpoint_per_n_minutes')
    assert tuple(got[k] for k in keys) == policy and got['saved_network'] is None


def test_checkpoint_config_accepted_flags_and_append_info():
    config = ms.CheckpointConfig(append_info=['epoch_num', {'lr': 0.1}], async_save='thread',
                                 integrated_save=False, crc_check=True, remove_redundancy=True,
                                 exception_save=True, incremental=False)
    assert config.append_dict == {'epoch_num': 0, 'lr': 0.1}      # as MindSpore 2.10
    assert config.async_save == 'thread' and config.integrated_save is False
    assert config.crc_check and config.remove_redundancy and config.exception_save
    assert config.enc_key is None and config.enc_mode == 'AES-GCM' and config.format == 'ckpt'
    assert ms.CheckpointConfig(append_info=[]).append_dict is None


@pytest.mark.parametrize('kw,err,match', [
    ({'save_checkpoint_steps': 1.5}, TypeError, "save_checkpoint_steps must be an int >= 0"),
    ({'save_checkpoint_steps': True}, TypeError, "save_checkpoint_steps must be an int"),
    ({'keep_checkpoint_per_n_minutes': -1}, ValueError,
     "keep_checkpoint_per_n_minutes must be an int >= 0"),
    ({'save_checkpoint_steps': 0, 'keep_checkpoint_max': 0}, ValueError, "are all 0"),
    ({'integrated_save': 1}, TypeError, "integrated_save must be a bool"),
    ({'async_save': 1}, TypeError, "async_save must be a bool or str"),
    ({'async_save': 'x'}, ValueError, "async_save must be a bool, 'process' or 'thread'"),
    ({'append_info': 'epoch_num'}, TypeError, "append_info must be a list, got str"),
    ({'append_info': ['foo']}, ValueError, r"must be one of \['epoch_num', 'step_num'\]"),
    ({'append_info': [{'a': 1}, {'b': 2}]}, TypeError, "append_info may hold one dict, got 2"),
    ({'append_info': [{'a': [1]}]}, TypeError, "must map str to int, float, bool, str or "
     "Tensor, got 'a': list"),
    ({'append_info': [3]}, TypeError, "elements must be str or dict, got int"),
    ({'enc_key': 'k'}, TypeError, "enc_key must be None or bytes"),
    ({'enc_key': b'0123456789abcdef'}, ValueError, "encrypted checkpoints are not available"),
    ({'enc_mode': 3}, TypeError, "enc_mode must be a str"),
    ({'exception_save': 1}, TypeError, "exception_save must be a bool"),
    ({'crc_check': 1}, TypeError, "crc_check must be a bool"),
    ({'remove_redundancy': 1}, TypeError, "remove_redundancy must be a bool"),
    ({'format': 'bin'}, ValueError, "format must be 'ckpt' or 'safetensors', got 'bin'"),
    ({'format': 1}, TypeError, "format must be a str"),
])
def test_checkpoint_config_errors(kw, err, match):
    with pytest.raises(err, match=match):
        ms.CheckpointConfig(**kw)


def test_append_info_is_saved_with_the_counts(tmp_path):
    config = ms.CheckpointConfig(save_checkpoint_steps=3,
                                 append_info=['epoch_num', 'step_num', {'tag': 'run1'}])
    cb = ms.ModelCheckpoint(prefix='net', directory=tmp_path, config=config)
    model().train(2, data(), callbacks=cb)
    loaded = ms.load_checkpoint(cb.latest_ckpt_file_name)
    assert int(loaded['epoch_num'].asnumpy()) == 2 and int(loaded['step_num'].asnumpy()) == 6
    assert loaded['tag'] == 'run1'


def test_keep_one_checkpoint_per_n_minutes(tmp_path, monkeypatch):
    config = ms.CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=0,
                                 keep_checkpoint_per_n_minutes=1)
    cb = ms.ModelCheckpoint(prefix='net', directory=tmp_path, config=config)
    model().train(1, data(), callbacks=cb)
    # all three files fall within one minute: only the oldest and the newest stay
    assert sorted(os.listdir(tmp_path)) == ['net-1_1.ckpt', 'net-1_3.ckpt']


class Boom(ms.Callback):
    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num == 4:
            raise RuntimeError('boom')


def test_exception_save_leaves_a_breakpoint_checkpoint(tmp_path):
    net = classifier()
    config = ms.CheckpointConfig(save_checkpoint_steps=100, exception_save=True,
                                 append_info=['step_num'])
    cb = ms.ModelCheckpoint(prefix='net', directory=tmp_path, config=config)
    with pytest.raises(RuntimeError, match='boom'):
        model(net).train(3, data(), callbacks=[cb, Boom()])
    assert os.listdir(tmp_path) == ['net-2_4_breakpoint.ckpt']
    loaded = ms.load_checkpoint(str(tmp_path / 'net-2_4_breakpoint.ckpt'))
    np.testing.assert_array_equal(loaded['weight'].asnumpy(), net.weight.asnumpy())
    assert int(loaded['step_num'].asnumpy()) == 4
    quiet = ms.ModelCheckpoint(prefix='q', directory=tmp_path / 'q',
                               config=ms.CheckpointConfig(save_checkpoint_steps=100))
    with pytest.raises(RuntimeError, match='boom'):
        model(net).train(3, data(), callbacks=[quiet, Boom()])
    assert not (tmp_path / 'q').exists()
