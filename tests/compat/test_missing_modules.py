"""MindSpore 2.10's modules and internal paths that real code imports: ``mindspore.log``,
``version``, ``parallel``, ``boost``, ``_checkparam``, ``ops.primitive``, ``ops.composite.base``,
``ops.function.grad.grad_func``, ``nn.grad``, ``_extends``, ``_c_expression`` and the private
names MindSpore's tests import. Expected values were computed with MindSpore 2.10."""
import logging

import numpy as np
import pytest

import hookgrad
from hookgrad.compat import NotAvailable, alias_mindspore, unalias_mindspore


@pytest.fixture
def mindspore():
    ms = alias_mindspore()
    yield ms
    unalias_mindspore()


@pytest.fixture
def fresh_logger(monkeypatch):
    """The MindSpore logger set up again from the environment, and put back after."""
    from hookgrad.debug import log
    for var in ('GLOG_v', 'GLOG_logtostderr', 'GLOG_log_dir', 'GLOG_stderrthreshold'):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(log, 'GLOBAL_LOGGER', None)
    yield log, monkeypatch
    if log.GLOBAL_LOGGER is not None:
        for handler in list(log.GLOBAL_LOGGER.handlers):
            handler.close()
            log.GLOBAL_LOGGER.removeHandler(handler)


# ---------------------------------------------------------------------------------- log, version
def test_log_defaults_and_lines_name_the_caller(mindspore, fresh_logger, capsys):
    log, _ = fresh_logger
    import mindspore.log as ms_log
    assert ms_log.warning is log.warning
    assert log.get_level() == '2'
    assert log.get_log_config() == {'GLOG_v': '2', 'GLOG_logtostderr': '1'}
    log.info('hidden')
    log.warning('seen %d', 7)
    err = capsys.readouterr().err
    assert 'hidden' not in err
    assert err.startswith('[WARNING] ME(') and err.rstrip().endswith('seen 7')
    assert 'test_missing_modules.py:' in err      # the caller's line, not log.py's


def test_log_level_and_files_from_the_environment(fresh_logger, tmp_path):
    log, env = fresh_logger
    env.setenv('GLOG_v', '1')
    env.setenv('GLOG_logtostderr', '0')
    env.setenv('GLOG_log_dir', str(tmp_path))
    env.setenv('GLOG_stderrthreshold', '3')
    env.setenv('RANK_ID', '0')
    assert log.get_level() == '1'
    config = log.get_log_config()
    assert config == {'GLOG_v': '1', 'GLOG_logtostderr': '0',
                      'GLOG_log_dir': str(tmp_path / 'rank_0' / 'logs'),
                      'logger_maxBytes': 52428800, 'logger_backupCount': 30,
                      'GLOG_stderrthreshold': '3'}
    log.info('to the file')
    for handler in log.GLOBAL_LOGGER.handlers:
        handler.flush()
    written = (tmp_path / 'rank_0' / 'logs').iterdir()
    assert 'to the file' in next(written).read_text()


@pytest.mark.parametrize('var, value, match', [
    ('GLOG_v', '7', 'Incorrect log level, please check the configuration of GLOG_v or '
                    'GLOG_stderrthreshold, desired log level: 4-CRITICAL, 3-ERROR, 2-WARNING, '
                    '1-INFO, 0-DEBUG. But got 7.'),
    ('GLOG_logtostderr', '2', 'the value of GLOG_logtostderr must be 0 or 1, but got 2.'),
    ('GLOG_logtostderr', '0', 'GLOG_log_dir must be set, but got it empty.'),
])
def test_log_bad_environment(fresh_logger, var, value, match):
    log, env = fresh_logger
    env.setenv(var, value)
    with pytest.raises(ValueError, match=match.replace('.', r'\.').replace('(', r'\(')):
        log.get_level()


def test_version_is_hookgrads(mindspore):
    import mindspore.version
    assert mindspore.version.__version__ == hookgrad.__version__


# -------------------------------------------------------------------------------------- parallel
def test_algo_parameters_kept_and_reset(mindspore):
    import mindspore.parallel as P
    assert P.get_algo_parameters('algo_approxi_epsilon') == 0.10000000149011612
    assert P.get_algo_parameters('tensor_slice_align_size') == 16
    assert P.get_algo_parameters('fully_use_devices') is False
    mindspore.set_algo_parameters(algo_approxi_epsilon=0.5, tensor_slice_align_size=8)
    assert (P.get_algo_parameters('algo_approxi_epsilon'),
            P.get_algo_parameters('tensor_slice_align_size')) == (0.5, 8)
    P.reset_algo_parameters()
    assert P.get_algo_parameters('tensor_slice_align_size') == 16


@pytest.mark.parametrize('kwargs, error, match', [
    ({'foo': 1}, ValueError, 'Set context keyword foo is not recognized!'),
    ({'fully_use_devices': 1}, TypeError,
     "The parameter 'fully_use_devices' must be <class 'bool'>, but got <class 'int'>"),
    ({'tensor_slice_align_size': 0}, ValueError, r'Align_size must be in \[1, 1024\], but got 0'),
    ({'algo_approxi_epsilon': 1.5}, RuntimeError, r"'epsilon' must be in \(0, 1\]"),
])
def test_algo_parameters_bad_input(mindspore, kwargs, error, match):
    import mindspore.parallel as P
    with pytest.raises(error, match=match):
        P.set_algo_parameters(**kwargs)
    with pytest.raises(ValueError, match='Get context keyword foo is not recognized!'):
        P.get_algo_parameters('foo')


def test_merge_sliced_parameter(mindspore):
    from mindspore.parallel import merge_sliced_parameter
    p1 = mindspore.Parameter(mindspore.Tensor([[1., 2.]]), 'w')
    p2 = mindspore.Parameter(mindspore.Tensor([[3., 4.], [5., 6.]]), 'w')
    merged = merge_sliced_parameter([p1, p2])
    assert merged.name == 'w' and merged.shape == (3, 2)
    np.testing.assert_array_equal(merged.asnumpy(), [[1., 2.], [3., 4.], [5., 6.]])
    with pytest.raises(TypeError, match="the argument 'sliced_parameters' should be list, but "
                                        "got <class 'tuple'>"):
        merge_sliced_parameter((p1,))
    with pytest.raises(ValueError, match="'sliced_parameters' should not be empty"):
        merge_sliced_parameter([])
    with pytest.raises(ValueError, match="should be w, 2, \\(2,\\), but got name: v, dimension "
                                         "length: 2, shape except 0 axis: \\(2,\\) at index 1"):
        merge_sliced_parameter([p1, mindspore.Parameter(mindspore.Tensor([[1., 2.]]), 'v')])
    with pytest.raises(NotImplementedError, match='sharding'):
        merge_sliced_parameter([p1], {'w': 1})


def test_parameter_broadcast_single_process(mindspore):
    from mindspore.parallel import parameter_broadcast
    net = mindspore.nn.Dense(2, 2)
    before = net.weight.asnumpy().copy()
    assert parameter_broadcast(net, {}) is None
    np.testing.assert_array_equal(net.weight.asnumpy(), before)
    with pytest.raises(TypeError, match='the net must be a Cell, but got int'):
        parameter_broadcast(1, {'weight': None})


def test_sharding_names_say_why(mindspore):
    import mindspore.parallel as P
    with pytest.raises(NotAvailable, match="mindspore.parallel.set_op_strategy_config is not "
                                           "available in hookgrad: it shards a network across "
                                           "ranks"):
        P.set_op_strategy_config
    with pytest.raises(ImportError, match='mindspore.parallel.convert_checkpoints is not '
                                          'available'):
        from mindspore.parallel import convert_checkpoints  # noqa: F401
    with pytest.raises(NotImplementedError, match="shard: sharding a function or Cell across "
                                                  "ranks is not supported"):
        P.shard(abs, ((1,),))


# ----------------------------------------------------------------------------------------- boost
def test_gradient_accumulation_matches_mindspore(mindspore):
    from mindspore.boost import GradientAccumulation
    w = mindspore.Parameter(mindspore.Tensor(np.array([1., 2.], np.float32)), 'w')
    accumulation = GradientAccumulation(2, mindspore.nn.SGD([w], learning_rate=0.1))
    seen = []
    for g in ([1., 1.], [3., 5.], [2., 2.]):
        loss = accumulation(mindspore.Tensor(0.5), (mindspore.Tensor(np.array(g, np.float32)),))
        seen.append((loss.item(), w.asnumpy().tolist(),
                     accumulation._grad_accumulation[0].asnumpy().tolist(),
                     int(accumulation._accumulation_step.asnumpy())))
    np.testing.assert_allclose([s[1] + s[2] for s in seen],        # MindSpore 2.10's values
                               [[1., 2., .5, .5], [.8, 1.7, 0., 0.], [.8, 1.7, 1., 1.]],
                               rtol=1e-6)
    assert [s[3] for s in seen] == [1, 0, 1] and seen[0][0] == 0.5


def test_boost_speedups_say_why(mindspore):
    with pytest.raises(ImportError, match="mindspore.boost.AutoBoost is not available in "
                                          "hookgrad: it rewrites the network"):
        from mindspore.boost import AutoBoost  # noqa: F401


# ----------------------------------------------------------------------------------- _checkparam
def test_checkparam_values_and_messages(mindspore):
    import mindspore._checkparam as C
    from mindspore._checkparam import Rel, Validator
    assert (C.EQ, C.GE, C.INC_BOTH, C.NOT_IN) == (1, 6, 10, 12) and Rel.GE == C.GE
    assert C.check_positive_int(3) == 3 and Validator.check_positive_int(3) == 3
    assert C.check_int_range(3, 1, 4, C.INC_NEITHER, 'x', 'Net') == 3
    assert C.check_value_type('x', 1, [int]) == 1 and C.check_axis_in_range(-1, 3) == 2
    assert C.check_string('a', ['a', 'b'], 'x', 'Net') == 'a'
    cases = [  # MindSpore 2.10's messages
        (lambda: C.check_positive_int(0, 'x', 'Net'), ValueError,
         "For 'Net', the 'x' must be int and must > 0, but got '0' with type 'int'."),
        (lambda: C.check_positive_int(-1), ValueError,
         "The input value must be int and must > 0, but got '-1' with type 'int'."),
        (lambda: C.check_positive_int(1.5, 'x', 'Net'), TypeError,
         "For 'Net', the 'x' must be int, but got 'float'"),
        (lambda: C.check_positive_int(True, 'x'), TypeError,
         "The 'x' must be int and must > 0, but got 'True' with type 'bool'."),
        (lambda: Validator.check_int(2, 2, Rel.NE, 'x', 'Net'), ValueError,
         "For 'Net', the 'x' must be int and must != 2, but got '2' with type 'int'."),
        (lambda: C.check_bool(1, 'flag', 'Net'), TypeError,
         "For 'Net', the 'flag' must be a bool, but got int."),
        (lambda: C.check_value_type('x', 1.0, (int, str), 'Net'), TypeError,
         "For 'Net', the type of 'x' should be one of '['int', 'str']', but got type 'float'."),
        (lambda: C.check_value_type('x', True, [int], 'Net'), TypeError,
         "For 'Net', the type of 'x' should be 'int', but got type 'bool'."),
        (lambda: C.check_int_range(4, 1, 4, C.INC_LEFT, 'x', 'Net'), ValueError,
         "For 'Net', the 'x' must be in range of [1, 4), but got 4 with type 'int'."),
        (lambda: C.check_float_range(1.5, 0.0, 1.0, C.INC_BOTH, 'x', 'Net'), ValueError,
         "For 'Net', the 'x' must be in range of [0.0, 1.0], but got 1.5 with type 'float'."),
        (lambda: C.check_is_float(1, 'x', 'Net'), TypeError,
         "For 'Net', the type of 'x' must be 'float', but got 'int'."),
        (lambda: C.check_string('c', ['a', 'b'], 'x', 'Net'), ValueError,
         "For 'Net', the 'x' must be str and must be in '['a', 'b']', but got 'c'."),
        (lambda: C.check_number('x', 3, 4, C.GT, 'Net'), ValueError,
         "For 'Net', the argument 'x' must > 4, but got 3."),
        (lambda: C.check_isinstance('x', 1, str), ValueError,
         "The parameter 'x' must be isinstance of <class 'str'>, but got 1."),
        (lambda: C.check_positive_int_sequence((1, 0), 'x', 'Net'), ValueError,
         "For 'Net', the 'x[1]' must be int and must > 0, but got '0' with type 'int'."),
        (lambda: C.check_axis_in_range(3, 2), ValueError,
         "The 'axis' must be in the range of [-2, 2), but got 3."),
        (lambda: C.check_float(1.0, 2.0, C.GE, 'x', 'Net'), ValueError,
         "For 'Net', the 'x' must be float and must >= 2.0, but got '1.0' with type 'float'."),
    ]
    for call, error, text in cases:
        with pytest.raises(error) as info:
            call()
        assert str(info.value) == text
